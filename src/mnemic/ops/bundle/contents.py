"""What a bundle's members hold, written from a home and read back, checked.

Members (every path relative to the bundle; ``<scope>`` is ``global`` or
``projects/<id>``)::

    manifest.json                 format, version, counts, every member's size and sha256
    <scope>/MEMORY.md, USER.md    the current text (absent: the target has none)
    <scope>/memory.json           {"versions": [{target, id, saved_at, text}],
                                   "backups": [{target, saved_at, text}],
                                   "ledgers": {target: text}}  (provenance of old releases)
    <scope>/audit.jsonl           the audit journal's lines, verbatim (provenance, archive)
    <scope>/pending.jsonl         one pending write per line (its JSON record)
    <scope>/entry-usage.json      the entry usage counts (by entry key, session id and seq)
    projects/<id>/project.json    the project's directory, as the home recorded it
    sessions.jsonl                every session, `mnemic sessions export` lines, oldest first
                                  (the files its messages hold as base64 ``attachments``)
    tombstones.json               [[scope, digest], ...]: what `forget --text` removed
    vectors.jsonl                 (--with-vectors) {session_id, seq, model, vec: base64}
    chat_words.jsonl              (--with-vectors) the chat's words: {word, model, vec: base64}
    message_words.jsonl           (--with-vectors) {session_id, seq, words: [word, ...]}
    skills/...                    the skills directory's files (hidden names left out)
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...backends.files.journal import AuditJournal
from ...backends.postgres.copy import SUBSYSTEMS
from ...backends.postgres.copy_sides import HomeSide, Kept, Side
from ...backends.postgres.curated import check_project
from ...control_chars import printable
from ...curated.entries import FILENAMES, TARGETS
from ...curated.scope import PROJECT_FILE, PROJECTS_DIR
from ...curated.usage_log import usage_path
from ...errors import BundleError, InvalidArgument, MnemicError
from ...fsio import atomic_write_text, ensure_private_dir, read_text_strict
from ...governance.pending import PendingRecord
from ...jsonstream import TOO_DEEP
from ...sessions.attachments import AttachmentStore
from ...sessions.importing.formats import flag_of
from ...sessions.store import ROLES, Attachment, NewMessage, NewSession
from ...timefmt import in_calendar
from .layout import private_dirs

__all__ = [
    "Scope",
    "SessionItem",
    "check_layout",
    "copy_tree",
    "iter_sessions",
    "project_place",
    "read_scope",
    "read_message_words",
    "read_vectors",
    "read_words",
    "write_scope",
]

_NAME = {t: FILENAMES[t] for t in TARGETS}


@dataclass
class Scope:
    """One curated store of the bundle: the global one or a project's."""

    name: str
    """``global`` or ``projects/<id>``."""
    kept: dict[str, Kept] = field(default_factory=dict)
    journal: list[str] = field(default_factory=list)
    pending: list[PendingRecord] = field(default_factory=list)
    project_file: str | None = None
    usage: str | None = None
    """The entry usage counts (``cache/entry-usage.json``), when the home had them."""


@dataclass
class SessionItem:
    """One session as the bundle carries it."""

    spec: NewSession
    messages: list[NewMessage]
    ended_at: float | None
    end_reason: str | None


def _lines(text: str) -> list[str]:
    return [ln for ln in text.split("\n") if ln.strip()]


def write_scope(side: Side, directory: Path, counts: dict[str, int], root: Path) -> None:
    """Write what ``side`` keeps of curated memory, pending writes and the audit journal,
    and the usage counts of the store's home directory ``root``, as the members of one
    scope under ``directory``."""
    ensure_private_dir(directory)
    usage = read_text_strict(usage_path(root), nofollow=True)
    if usage is not None:
        atomic_write_text(directory / "entry-usage.json", usage)
    memory: dict[str, Any] = {"versions": [], "backups": [], "ledgers": {}}
    for target in TARGETS:
        kept = side.kept(target)
        if kept.current is not None:
            atomic_write_text(directory / _NAME[target], kept.current)
            counts["targets"] = counts.get("targets", 0) + 1
        memory["versions"] += [
            {"target": target, "id": seq, "saved_at": at, "text": text}
            for seq, at, text in kept.versions
        ]
        memory["backups"] += [
            {"target": target, "saved_at": at, "text": text} for at, text in kept.backups
        ]
        if kept.ledger is not None:
            memory["ledgers"][target] = kept.ledger
    counts["versions"] = counts.get("versions", 0) + len(memory["versions"])
    counts["backups"] = counts.get("backups", 0) + len(memory["backups"])
    atomic_write_text(directory / "memory.json", json.dumps(memory, ensure_ascii=False))
    lines = side.journal_lines()
    atomic_write_text(directory / "audit.jsonl", "".join(f"{ln}\n" for ln in lines))
    counts["audit_records"] = counts.get("audit_records", 0) + len(lines)
    records = [r for s in SUBSYSTEMS for r in side.pending(s)]
    lines = [json.dumps(r.as_dict(), ensure_ascii=False, sort_keys=True) for r in records]
    atomic_write_text(directory / "pending.jsonl", "".join(f"{ln}\n" for ln in lines))
    counts["pending"] = counts.get("pending", 0) + len(records)


_TOP = frozenset(
    {
        "sessions.jsonl",
        "tombstones.json",
        "vectors.jsonl",
        "chat_words.jsonl",
        "message_words.jsonl",
    }
)
_SCOPE = frozenset({"MEMORY.md", "USER.md", "memory.json", "audit.jsonl", "pending.jsonl",
                    "entry-usage.json"})  # fmt: skip
_PROJECT = (_SCOPE - {"USER.md"}) | {PROJECT_FILE}  # a project has MEMORY.md alone


def check_layout(bundle: Path, members: Iterable[str]) -> None:
    """Refuse a bundle that carries a member version 1 does not have (a newer mnemic's
    bundle labelled 1, or an edited one: what it holds would be dropped without a word),
    or a store without its ``memory.json`` (the store would be left out)."""
    scopes: dict[str, set[str]] = {}
    for name in members:
        head, _, rest = name.partition("/")
        if name in _TOP or (head == "skills" and rest):
            continue
        if head == "global" and rest in _SCOPE:
            scopes.setdefault(head, set()).add(rest)
            continue
        pid, _, leaf = rest.partition("/")
        if head == PROJECTS_DIR and pid and leaf in _PROJECT:
            scopes.setdefault(f"{head}/{pid}", set()).add(leaf)
            continue
        raise BundleError(
            str(bundle),
            "path",
            f"its member {printable(repr(name))} is not one a version 1 bundle carries (a "
            "newer mnemic's bundle, or an edited one). Nothing was imported.",
        )
    for scope, held in sorted(scopes.items()):
        if "memory.json" not in held:
            raise _bad(
                bundle, f"{scope}/memory.json", "is missing (the store's other members are there)"
            )


def _bad(bundle: Path, member: str, problem: str) -> BundleError:
    return BundleError(
        str(bundle), "content", f"its member {member!r} {problem}. Nothing was imported."
    )


def _text(bundle: Path, root: Path, member: str) -> str | None:
    path = root / member
    if not path.is_file():
        return None
    try:
        return read_text_strict(path, nofollow=True)
    except MnemicError as exc:
        raise _bad(bundle, member, f"is not UTF-8 text ({exc})") from None


def _json(bundle: Path, member: str, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise _bad(bundle, member, f"is not valid JSON ({exc})") from None
    except RecursionError:
        raise _bad(bundle, member, f"is not valid JSON ({TOO_DEEP})") from None


def _time(value: Any, field: str) -> float:
    """A time the bundle gives (Unix seconds): a number of the calendar (``NaN``,
    ``1e400`` or a year past 9999 would be written, then break every page that shows
    it), never a string or ``true``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{field} is {printable(repr(value))[:40]}, not a time in seconds")
    if not in_calendar(float(value)):
        raise ValueError(f"{field} {value!r} is no time of the calendar")
    return float(value)


def _kept(memory: Any, target: str) -> tuple[list[tuple[int, float, str]], list[tuple[float, str]]]:
    """The versions and drift backups ``memory.json`` keeps of ``target``, checked: a
    version id is a whole number given once per file, each names a file mnemic has."""
    for item in [*memory["versions"], *memory["backups"]]:
        if item["target"] not in TARGETS:
            raise ValueError(f"target {printable(repr(item['target']))[:40]} is not memory or user")
    versions: list[tuple[int, float, str]] = []
    for v in memory["versions"]:
        if v["target"] != target:
            continue
        if type(v["id"]) is not int or v["id"] < 0:
            raise ValueError(f"version id {printable(repr(v['id']))[:40]} is not a version number")
        if any(v["id"] == seen for seen, _, _ in versions):
            raise ValueError(f"{target} version {v['id']} is given twice")
        versions.append((v["id"], _time(v["saved_at"], "saved_at"), _string(v["text"], "text")))
    backups = [
        (_time(b["saved_at"], "saved_at"), _string(b["text"], "text"))
        for b in memory["backups"]
        if b["target"] == target
    ]
    return versions, backups


def _string(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{field} is {printable(repr(value))[:40]}, not a string")
    return value


def read_scope(bundle: Path, root: Path, name: str, check: Path) -> Scope | None:
    """The scope ``name`` of the unpacked bundle at ``root`` (``None``: not in it). Its
    journal is checked (written to ``check``, a scratch directory, and verified) so a
    chain that does not verify is refused before anything is imported."""
    memory_text = _text(bundle, root, f"{name}/memory.json")
    if memory_text is None:
        return None
    scope = Scope(name)
    memory = _json(bundle, f"{name}/memory.json", memory_text)
    try:
        for target in TARGETS:
            versions, backups = _kept(memory, target)
            ledger = memory["ledgers"].get(target)
            current = _text(bundle, root, f"{name}/{_NAME[target]}")
            scope.kept[target] = Kept(
                current, versions, backups, None if ledger is None else str(ledger)
            )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _bad(bundle, f"{name}/memory.json", f"is not of version 1's shape ({exc})") from None
    scope.journal = _lines(_text(bundle, root, f"{name}/audit.jsonl") or "")
    for i, line in enumerate(_lines(_text(bundle, root, f"{name}/pending.jsonl") or ""), 1):
        try:
            record = PendingRecord.from_dict(_json(bundle, f"{name}/pending.jsonl line {i}", line))
            if record.subsystem not in SUBSYSTEMS:  # it names the queue's directory
                raise ValueError(f"unknown subsystem {record.subsystem!r}")
            scope.pending.append(record)
        except (TypeError, ValueError) as exc:
            where = f"{name}/pending.jsonl"
            raise _bad(bundle, where, f"line {i} is not a pending write ({exc})") from None
    scope.usage = _text(bundle, root, f"{name}/entry-usage.json")
    if scope.usage is not None and not isinstance(
        _json(bundle, f"{name}/entry-usage.json", scope.usage), dict
    ):
        raise _bad(bundle, f"{name}/entry-usage.json", "is not a JSON object")
    if name != "global":
        scope.project_file = _text(bundle, root, f"{name}/{PROJECT_FILE}")
        if scope.project_file is None:
            raise _bad(bundle, f"{name}/{PROJECT_FILE}", "is missing")
    if scope.journal:
        scratch = check / name.replace("/", "-")
        HomeSide(scratch).put_journal(scope.journal)
        verdict = AuditJournal(scratch / "audit").verify()
        if not verdict.ok:
            raise BundleError(
                str(bundle),
                "checksum",
                f"the audit journal of {name} does not verify (record {verdict.first_bad_line}: "
                f"{verdict.problem}). "
                "Nothing was imported.",
            )
    return scope


def iter_sessions(
    bundle: Path, root: Path, files: AttachmentStore | None = None
) -> Iterator[SessionItem]:
    """The sessions of ``sessions.jsonl``, one at a time (a session's lines are together,
    its session fields on the first), so memory holds one session, not the history.
    Each attachment's bytes must match their hash; with ``files`` they are stored there
    (the links the messages get name them)."""
    member = "sessions.jsonl"
    path = root / member
    if not path.is_file():
        return
    item: SessionItem | None = None
    done: set[str] = set()
    with open(path, "rb") as fh:
        for i, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            where = f"{member} line {i}"
            try:
                line = raw.decode("utf-8")  # never json's guess of UTF-16 or UTF-32
            except UnicodeDecodeError as exc:
                raise _bad(bundle, where, f"is not UTF-8 text ({exc})") from None
            rec = _json(bundle, where, line)
            try:
                if not isinstance(rec, dict):
                    raise ValueError("not a JSON object")
                _check_line(rec)
                sid = str(rec["session_id"])
                if item is None or sid != item.spec.id:
                    if item is not None:
                        done.add(item.spec.id)
                        yield item
                    if sid in done:
                        raise ValueError(f"session {sid!r} has lines apart from the others")
                    item = _session(sid, rec)
                item.messages.append(
                    NewMessage(
                        str(rec["role"]),
                        rec.get("content"),
                        tool_name=rec.get("tool_name"),
                        tool_calls=rec.get("tool_calls"),
                        tool_call_id=rec.get("tool_call_id"),
                        timestamp=_float(rec.get("timestamp"), "timestamp"),
                        name=rec.get("name"),
                        is_error=flag_of(rec.get("is_error")),
                        attachments=_attachments(rec.get("attachments"), files),
                    )
                )
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise _bad(bundle, where, f"is not a session line ({exc})") from None
    if item is not None:
        yield item


def _attachments(value: Any, files: AttachmentStore | None) -> tuple[Attachment, ...]:
    """The files a bundled message holds (those exported without bytes, already missing
    in the home the bundle came from, are left out)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError("its attachments are not a list")
    out: list[Attachment] = []
    for item in value:
        if "data" not in item:
            continue
        data = base64.b64decode(item["data"], validate=True)
        sha = hashlib.sha256(data).hexdigest()
        if sha != item["sha256"]:
            raise ValueError(f"the bytes of attachment {str(item['name'])[:80]!r} do not match")
        name, media, caption = str(item["name"]), str(item["media_type"]), item.get("caption")
        if caption is not None and not isinstance(caption, str):
            raise ValueError(f"the caption of attachment {name[:80]!r} is not text")
        if files is not None:
            out.append(files.put(data, name=name, media_type=media, caption=caption))
        else:
            out.append(Attachment(sha, name, media, len(data), caption))
    return tuple(out)


def _session(sid: str, rec: dict[str, Any]) -> SessionItem:
    spec = NewSession(
        sid,
        str(rec.get("source") or "cli"),
        rec.get("title"),
        rec.get("model"),
        rec.get("parent_session_id"),
        _float(rec.get("started_at"), "started_at"),
        rec.get("metadata"),
    )
    return SessionItem(spec, [], _float(rec.get("ended_at"), "ended_at"), rec.get("end_reason"))


def _float(value: Any, field: str) -> float | None:
    return None if value is None else _time(value, field)


_TEXTS = ("content", "title", "model", "parent_session_id", "end_reason", "tool_name",
          "tool_call_id", "name", "source")  # fmt: skip
"""The fields of a session line that are text or absent, as `sessions export` writes them."""


def _check_line(rec: dict[str, Any]) -> None:
    """Refuse a session line the store would refuse (or store to fail later) while
    writing: the checks run before anything is, and ``--dry-run`` must say what the
    import will do."""
    if rec.get("role") not in ROLES:
        raise ValueError(
            f"role {printable(repr(rec.get('role')))[:40]} is not one of {', '.join(ROLES)}"
        )
    for key in _TEXTS:
        if rec.get(key) is not None and not isinstance(rec[key], str):
            raise ValueError(f"{key} is not text")
    if rec.get("metadata") is not None and not isinstance(rec["metadata"], dict):
        raise ValueError("metadata is not a JSON object")
    calls = rec.get("tool_calls")
    if calls is not None and not (
        isinstance(calls, list) and all(isinstance(c, dict) for c in calls)
    ):
        raise ValueError("tool_calls is not a list of objects")


def read_vectors(bundle: Path, root: Path) -> Iterator[tuple[str, int, str, bytes]]:
    """``(session_id, seq, model, float16 bytes)`` of ``vectors.jsonl``."""
    member = "vectors.jsonl"
    for i, line in enumerate(_lines(_text(bundle, root, member) or ""), 1):
        rec = _json(bundle, f"{member} line {i}", line)
        try:
            yield (
                str(rec["session_id"]),
                int(rec["seq"]),
                str(rec["model"]),
                base64.b64decode(rec["vec"], validate=True),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise _bad(bundle, f"{member} line {i}", f"is not a vector line ({exc})") from None


def read_words(bundle: Path, root: Path) -> dict[str, tuple[str, bytes]]:
    """``word -> (model, float16 bytes)`` of ``chat_words.jsonl`` (empty: no member)."""
    member = "chat_words.jsonl"
    out: dict[str, tuple[str, bytes]] = {}
    for i, line in enumerate(_lines(_text(bundle, root, member) or ""), 1):
        rec = _json(bundle, f"{member} line {i}", line)
        try:
            word, model = rec["word"], rec["model"]
            if not isinstance(word, str) or not isinstance(model, str) or word in out:
                raise ValueError("a word, once, and its model")
            out[word] = (model, base64.b64decode(rec["vec"], validate=True))
        except (KeyError, TypeError, ValueError) as exc:
            raise _bad(bundle, f"{member} line {i}", f"is not a word line ({exc})") from None
    return out


def read_message_words(bundle: Path, root: Path) -> Iterator[tuple[str, int, list[str]]]:
    """``(session_id, seq, its words)`` of ``message_words.jsonl``."""
    member = "message_words.jsonl"
    for i, line in enumerate(_lines(_text(bundle, root, member) or ""), 1):
        rec = _json(bundle, f"{member} line {i}", line)
        try:
            words = rec["words"]
            if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
                raise ValueError("words is not a list of words")
            yield str(rec["session_id"]), int(rec["seq"]), words
        except (KeyError, TypeError, ValueError) as exc:
            raise _bad(bundle, f"{member} line {i}", f"is not a message's words ({exc})") from None


def copy_tree(source: Path, destination: Path) -> int:
    """Copy the regular, non-hidden files under ``source`` (no link followed) to
    ``destination``; return how many."""
    n = 0
    for directory, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        here = Path(directory)
        for name in sorted(files):
            path = here / name
            if name.startswith(".") or path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(source)
            dest = private_dirs(destination, rel.parent) / rel.name
            with open(path, "rb") as src_fh:
                data = src_fh.read()
            mode = 0o700 if path.stat().st_mode & 0o100 else 0o600  # scripts stay runnable
            fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            n += 1
    return n


def project_place(bundle: Path, scope: Scope) -> tuple[str, str]:
    """The id and directory of a project scope, checked before anything is written (a
    database keeps them in its catalog, not in a ``project.json``)."""
    pid = scope.name.removeprefix(f"{PROJECTS_DIR}/")
    member = f"{scope.name}/{PROJECT_FILE}"
    try:
        check_project(pid)
        value = json.loads(scope.project_file or "")
    except (InvalidArgument, ValueError, RecursionError) as exc:
        problem = (
            exc.to_human()
            if isinstance(exc, InvalidArgument)
            else TOO_DEEP
            if isinstance(exc, RecursionError)
            else str(exc)
        )
        raise BundleError(
            str(bundle),
            "content",
            f"its member {member!r} is not a project's ({problem}). Nothing was imported.",
        ) from None
    path = value.get("path") if isinstance(value, dict) else None
    if (
        not isinstance(path, str)
        or not path.startswith("/")
        or printable(path, lines=False) != path
    ):
        raise BundleError(
            str(bundle),
            "content",
            f"its member {member!r} names no project directory (an absolute path, as "
            "mnemic records one). Nothing was imported.",
        )
    return pid, path
