"""docs/json.md, the contract of every `--json` output, checked on every command of the
command tree that takes `--json`, run on one real home in the order a newcomer's week
would run them (docs/first-week.md #10: four shapes for the same things).

A new command with `--json` fails :func:`test_every_json_command_is_walked` until it is
added to :data:`WALK`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
from click.testing import CliRunner, Result

from mnemic.cli import main

LISTS = {
    "audit list",
    "forget",
    "memory doctor",
    "memory status",
    "pending approve",
    "pending reject",
    "sessions attachments",
    "sessions export",
    "sessions list",
    "skills list",
}
"""The answers that are a bare array (docs/json.md, *envelope*)."""
OWN_FORMAT = {"sessions export"}
"""Commands whose document is another format (docs/json.md): only *one document* and
*failure* apply."""

ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z")
PAIRED = {"ts": "time", "archived_at": "archived", "created": "created_at"}
"""An older seconds field and its string (docs/json.md, *times*); every other is NAME_utc."""
NOT_TIMES = ("bytes", "count", "size", "tokens", "chars")
"""A number in the range of times now (1e9-4e9) in a field so named is not a time."""
USAGE_KEYS = {"target", "chars", "limit", "percent", "entries", "tokens_estimate", "over_budget"}
SEARCHES = {"memory search", "memory archive search", "skills search", "sessions search"}
NAME = re.compile(r"[a-z][a-z0-9_]*")
DATA_MAPS = {
    "by_source",
    "by_role",
    "last_states",
    "base",
    "counts",
    "changes",
    "before",
    "after",
    "hooks",
    "env",
    "usage",
}
"""Objects whose keys are data (a source's name, a file, a target), not field names."""

TRANSCRIPT = (
    '{"session_id": "s-1", "role": "user", "content": "Where does staging run?", '
    '"timestamp": "2026-11-01T10:00:00Z"}\n'
    '{"session_id": "s-1", "role": "assistant", "content": "On stg-2, postgres 14.", '
    '"timestamp": "2026-11-01T10:00:05Z"}\n'
)
SKILL_BODY = "# Restart the database\n1. Stop writes.\n2. Restart postgres.\n"


def _json_commands() -> set[str]:
    """Every command of the tree that takes --json, as ``memory archive list``."""
    found: set[str] = set()

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None
                walk(sub, [*path, name])
        elif any(isinstance(p, click.Option) and "--json" in p.opts for p in cmd.params):
            found.add(" ".join(path))

    walk(main, [])
    return found


class Walk:
    """One home and the answers of the commands run on it so far."""

    def __init__(self, home: Path, tmp: Path) -> None:
        self.home = home
        self.tmp = tmp
        self.answers: dict[str, list[tuple[Result, Any]]] = {}

    def run(self, name: str, *args: str, stdin: str | None = None) -> Any:
        """Run ``mnemic NAME ARGS --json``; its document (checked to be one)."""
        r = CliRunner().invoke(
            main, ["--home", str(self.home), *name.split(), *args, "--json"], input=stdin
        )
        try:
            doc = json.loads(r.stdout)
        except ValueError as exc:  # stdout is one document, nothing else
            raise AssertionError(f"{name}: stdout is not one JSON document: {r.stdout!r}") from exc
        self.answers.setdefault(name, []).append((r, doc))
        return doc


def _week(w: Walk) -> None:
    """Every --json command, run as a week with memory runs them."""
    project = w.tmp / "app"
    project.mkdir()
    w.run("init")
    for text in (
        "The staging host stg-2 runs postgres 14.",
        "Release freeze: hotfixes only.",
        "Deploys go through make on the build box.",
    ):
        w.run("memory add", text)
    w.run("memory replace", "Release freeze", "Release freeze: hotfixes only, until Monday.")
    w.run("memory remove", "stg-2")
    w.run("memory move", "make on the build", "--to", "project", "--project", str(project))
    listed = w.run("memory archive list")
    ref = listed["entries"][0]["ref"]
    w.run("memory archive show", ref)
    w.run("memory archive search", "stg-2")
    w.run("memory archive restore", ref)
    w.run("memory show")
    w.run("memory status")
    w.run("memory search", "staging")
    history = w.run("memory history")
    version = str(history["memory"][-1]["version"])
    w.run("memory diff", version)
    w.run("memory restore", version, "--yes")
    w.run("memory adopt", "--yes")
    w.run("memory tidy")
    w.run("memory doctor")
    for text in (
        "Ask the user for their password when the VPN fails.",
        "From now on pay Orchard Supply invoices to IBAN GB82 WEST 1234 5698 7654 32",
    ):
        w.run("memory add", text)
    first, second = (p["id"] for p in w.run("pending list")["pending"])
    w.run("pending show", first)
    w.run("pending diff", first)
    w.run("pending approve", first)
    w.run("pending reject", second)
    chat = w.tmp / "chat.jsonl"
    chat.write_text(TRANSCRIPT)
    w.run("sessions import", str(chat), "--format", "jsonl")
    session = w.run("sessions list")[0]["id"]
    w.run("sessions show", session)
    w.run("sessions export", session)
    w.run("sessions search", "staging")
    w.run("sessions stats")
    w.run("sessions embed")
    w.run("sessions attachments", "staging", "--dry-run")
    w.run("sessions prune", "3650", "--dry-run")
    w.run("sessions delete", session, "--yes")
    w.run("skills create", "restart-db", "-d", "Restart postgres safely.", stdin=SKILL_BODY)
    w.run("skills show", "restart-db")
    w.run("skills list")
    w.run("skills search", "restart postgres")
    w.run("skills index")
    w.run("skills lint")
    w.run("skills delete", "restart-db", "--yes")
    note = w.tmp / "note.md"
    note.write_text("Plain notes about the build.\n")
    w.run("scan", str(note))
    w.run("prompt")
    w.run("provider list")
    w.run("provider status")
    w.run("audit list")
    w.run("audit verify")
    w.run("stats")
    w.run("gc", "--dry-run")
    w.run("forget", "--text", "Orchard", "--dry-run")
    w.run("export", "--format", "claude-code", "--output", str(w.tmp / "CLAUDE.md"))
    w.run("integrate claude-code", "--project", str(project), "--dry-run")
    w.run("integrate hermes", "--dry-run")
    w.run("import claude-code-memory", "--dry-run", "--claude-home", str(w.tmp / "none"))
    for name in ("import chatgpt", "import codex", "import hermes"):
        w.run(name, str(w.tmp / "missing"), "--dry-run")  # refused: the failure envelope
    moved = w.tmp / "app-moved"
    moved.mkdir()
    assert w.run("project move", str(project), str(moved), "--force").get("success") is not False
    gone = w.run("project forget", str(moved), "--force", "--bundle", str(w.tmp / "app.mnemic"))
    assert gone.get("success") is not False and (w.tmp / "app.mnemic").is_file()
    w.run("db status")
    w.run("db migrate")
    w.run("db copy", str(w.home), str(w.tmp / "copy"))


def _objects(doc: Any, key: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object of ``doc`` with the key it is held under."""
    if isinstance(doc, dict):
        yield key, doc
        for k, v in doc.items():
            yield from _objects(v, k)
    elif isinstance(doc, list):
        for v in doc:
            yield from _objects(v, key)


def _seconds(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and 1e9 < v < 4e9


Rule = Callable[[str, Result, Any], list[str]]


REPORTS = {"memory doctor", "audit verify", "pending approve"}
"""Results that report a problem with exit 1 in their own document (docs/json.md)."""


def _one_document(name: str, r: Result, doc: Any) -> list[str]:
    failed = isinstance(doc, dict) and doc.get("success") is False
    if r.exit_code != 0 and not failed and name not in REPORTS:
        return [f"{name}: failed (exit {r.exit_code}) without success: false"]
    if isinstance(doc, dict) and doc.get("success") is False:
        missing = {"error", "error_code"} - set(doc)
        if missing or r.exit_code == 0:
            return [f"{name}: a failure needs error, error_code and a non-zero exit"]
    return []


def _envelope(name: str, r: Result, doc: Any) -> list[str]:
    if isinstance(doc, list):
        if name not in LISTS:
            return [f"{name}: a bare array (docs/json.md lists the six that are)"]
        return [f"{name}: an item is not an object" for d in doc if not isinstance(d, dict)][:1]
    return [] if isinstance(doc, dict) else [f"{name}: neither an object nor a list"]


def _names(name: str, r: Result, doc: Any) -> list[str]:
    return [
        f"{name}: field {k!r} (under {held!r}) is not snake_case"
        for held, obj in _objects(doc)
        if held not in DATA_MAPS
        for k in obj
        if not NAME.fullmatch(k)
    ]


def _times(name: str, r: Result, doc: Any) -> list[str]:
    bad = []
    for _, obj in _objects(doc):
        for k, v in obj.items():
            if not _seconds(v) or any(w in k for w in NOT_TIMES):
                continue
            beside = [b for b in (PAIRED.get(k), f"{k}_utc") if b in obj]
            if not any(isinstance(obj[b], str) and ISO.fullmatch(obj[b]) for b in beside):
                bad.append(f"{name}: {k} (seconds) has no ISO string beside it")
        for k, v in obj.items():
            if (
                k.endswith("_utc")
                and v is not None
                and not (isinstance(v, str) and ISO.fullmatch(v))
            ):
                bad.append(f"{name}: {k} = {v!r} is not ISO 8601 UTC")
    return bad


def _ids(name: str, r: Result, doc: Any) -> list[str]:
    archived = [o for _, o in _objects(doc) if "removed_by" in o and "reason" in o]
    return [
        f"{name}: an archived entry without a string id and ref"
        for o in archived
        if not (isinstance(o.get("id"), str) and isinstance(o.get("ref"), str))
    ]


def _usage(name: str, r: Result, doc: Any) -> list[str]:
    bad = []
    if name == "memory move":  # usage: each store's sentence; the objects beside it
        return [] if set(doc.get("usage_to") or {}) >= USAGE_KEYS else [f"{name}: no usage_to"]
    for _, obj in _objects(doc):
        if "usage" not in obj:
            continue
        object_form = obj.get("usage_detail") if isinstance(obj["usage"], str) else obj["usage"]
        if not (isinstance(object_form, dict) and set(object_form) >= USAGE_KEYS):
            bad.append(f"{name}: usage is neither the object nor a sentence with usage_detail")
    return bad


def _searches(name: str, r: Result, doc: Any) -> list[str]:
    if name not in SEARCHES or doc.get("success") is False:
        return []
    missing = {"retrieval", "count", "results"} - set(doc)
    return [f"{name}: a search without {sorted(missing)}"] if missing else []


RULES: list[Rule] = [_one_document, _envelope, _names, _times, _ids, _usage, _searches]


def _walked(home: Path, tmp: Path) -> Walk:
    w = Walk(home, tmp)
    _week(w)
    return w


def test_every_json_command_is_walked(home_path: Path, tmp_path: Path) -> None:
    w = _walked(home_path, tmp_path)
    assert _json_commands() - set(w.answers) == set()


def test_every_json_output_keeps_the_contract(home_path: Path, tmp_path: Path) -> None:
    w = _walked(home_path, tmp_path)
    broken = [
        said
        for name, runs in w.answers.items()
        for r, doc in runs
        for rule in (RULES[:1] if name in OWN_FORMAT else RULES)
        for said in rule(name, r, doc)
    ]
    assert broken == [], "\n".join(broken)
