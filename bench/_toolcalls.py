"""The tool-call fixture of ``./x bench toolcalls``: coding sessions full of tool calls.

Ten repositories, each a directory of Claude Code transcripts (``<session>.jsonl``, the
lines Claude Code writes: ``tool_use`` blocks in assistant lines, ``tool_result`` blocks
in user lines, ``is_error`` on failures), eight sessions of 20-30 tool calls each: shell
commands (test runners, linters, builds, git) through ``Bash``, and ``Read`` / ``Edit`` /
``Grep`` calls. About one call in six fails the way Claude Code reports it ("Exit code N"
and the command's output; ``<tool_use_error>...`` for the file tools). Five questions per
repository, each with the one failing call that answers it:

* ``last:pytest``: ``{"tool": "pytest", "failed": true}``, the latest failing pytest run;
* ``last:other``: the same for another command word the repository uses (npm, cargo,
  make, mypy, ruff, go);
* ``named``: ``{"tool": "pytest", "failed": true, "query": "<the test file>"}``, an older
  failing run of one test file;
* ``error``: ``{"failed": true, "query": "<words of its error>"}``, an older failure
  found by its error text;
* ``file``: ``{"tool": "Read", "failed": true}``, the latest failed read.

Deterministic (seeded); nothing is written to the repository: the transcripts go to a
temporary directory.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SEED = 33
REPOS = 10
SESSIONS = 8
OTHER = {
    "npm": ("npm test", "npm ERR! Test failed.  See above for more details."),
    "cargo": ("cargo test", "error[E0308]: mismatched types"),
    "make": ("make build", "make: *** [Makefile:12: build] Error 2"),
    "mypy": ("mypy src", "error: Incompatible return value type"),
    "ruff": ("ruff check .", "F401 `os` imported but unused"),
    "go": ("go test ./...", "--- FAIL: TestRetry (0.00s)"),
}
MODULES = ["billing", "auth", "refund", "invoice", "search", "upload", "session", "report",
           "export", "cache", "queue", "mailer", "tax", "ledger", "profile", "webhook"]  # fmt: skip
ERRORS = [
    ("ModuleNotFoundError: No module named '{m}_client'", "ModuleNotFoundError {m}_client"),
    ("AssertionError: expected status 200, got 503 from /{m}", "status 503 {m}"),
    ("KeyError: '{m}_id'", "KeyError {m}_id"),
    ("TimeoutError: {m} worker did not answer within 30 s", "timeout {m} worker"),
    ("sqlite3.OperationalError: no such table: {m}_rows", "no such table {m}_rows"),
]
PASSING = ["ok", "done", "3 files changed", "All checks passed!", "Finished in 1.2 s"]


@dataclass
class Case:
    """One question and the failing call that answers it."""

    repo: str
    kind: str
    args: dict[str, Any]
    session: str
    command: str
    """A string only the answering call's arguments hold."""


def _line(kind: str, sid: str, ts: dt.datetime, uuid: str, content: Any) -> str:
    return json.dumps(
        {
            "type": kind,
            "sessionId": sid,
            "uuid": uuid,
            "timestamp": ts.isoformat().replace("+00:00", "Z"),
            "cwd": "/repo",
            "message": {"role": kind, "content": content},
        }
    )


def build(root: Path) -> tuple[list[Path], list[Case]]:
    """Write the transcripts under ``root`` (one directory per repository) and return the
    directories and the 50 cases."""
    rng = random.Random(SEED)
    dirs, cases = [], []
    start = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
    for r in range(REPOS):
        repo = f"repo{r}"
        where = root / repo
        where.mkdir(parents=True)
        word = list(OTHER)[r % len(OTHER)]
        failures: list[dict[str, Any]] = []  # every failing call, in time order
        for s in range(SESSIONS):
            sid = f"{repo}-s{s}"
            ts = start + dt.timedelta(days=3 * s + r)
            ask = f"Work on the {rng.choice(MODULES)} module."
            lines = [_line("user", sid, ts, f"{sid}-u0", ask)]
            for c in range(rng.randint(20, 30)):
                ts += dt.timedelta(minutes=2)
                module = rng.choice(MODULES)
                pick = rng.random()
                fails = rng.random() < 1 / 6
                kind = next(k for k, p in (("pytest", 0.35), (word, 0.55), ("git", 0.65),
                                           ("Read", 0.8), ("Edit", 0.9), ("Grep", 1.1))
                            if pick < p)  # fmt: skip
                call_id = f"toolu_{sid}_{c}"
                if kind == "pytest":
                    test = f"tests/test_{module}_{c}.py"
                    name, inp = "Bash", {"command": f"pytest {test} -x -q"}
                    err, words = rng.choice(ERRORS)
                    out = (f"Exit code 1\nFAILED {test}::test_{module} - {err.format(m=module)}\n"
                           "1 failed, 4 passed") if fails else "5 passed in 0.4 s"  # fmt: skip
                    marker, query_words = test, words.format(m=module)
                elif kind in OTHER:
                    cmd, err = OTHER[kind]
                    name, inp = "Bash", {"command": f"{cmd} # {module} step {c}"}
                    out = f"Exit code 2\n{err} in {module}" if fails else rng.choice(PASSING)
                    marker, query_words = f"{module} step {c}", f"{err.split()[0]} {module}"
                elif kind == "git":
                    name, inp = "Bash", {"command": f"git commit -m 'wip {module} {c}'"}
                    fails = False
                    out, marker, query_words = "1 file changed", "", ""
                else:
                    path = f"src/{module}/part_{c}.py"
                    name = kind
                    inp = {"file_path": path}
                    if kind == "Grep":
                        inp = {"pattern": module, "path": path}
                    out = ("<tool_use_error>File does not exist.</tool_use_error>" if fails
                           else f"def {module}():\n    return {c}")  # fmt: skip
                    marker, query_words = path, f"{module} part_{c}"
                use = {"type": "tool_use", "id": call_id, "name": name, "input": inp}
                lines.append(_line("assistant", sid, ts, f"{sid}-a{c}", [use]))
                result = {"type": "tool_result", "tool_use_id": call_id, "content": out}
                if fails:
                    result["is_error"] = True
                later = ts + dt.timedelta(seconds=20)
                lines.append(_line("user", sid, later, f"{sid}-r{c}", [result]))
                if fails:
                    failures.append({"kind": kind, "session": sid, "marker": marker,
                                     "words": query_words, "command": json.dumps(inp)})  # fmt: skip
            (where / f"{sid}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        dirs.append(where)
        cases += _cases(rng, repo, word, failures)
    return dirs, cases


def _cases(rng: random.Random, repo: str, word: str, failures: list[dict[str, Any]]) -> list[Case]:
    def last(kind: str) -> dict[str, Any]:
        return [f for f in failures if f["kind"] == kind][-1]

    def older(kind: str | None) -> dict[str, Any]:
        pool = [f for f in failures if (kind is None or f["kind"] == kind) and f["words"]]
        return rng.choice(pool[:-1] or pool)

    out = []
    for kind, args, f in (
        ("last:pytest", {"tool": "pytest", "failed": True}, last("pytest")),
        ("last:other", {"tool": word, "failed": True}, last(word)),
        ("file", {"tool": "Read", "failed": True}, last("Read")),
    ):
        out.append(Case(repo, kind, args, f["session"], f["marker"]))
    named = older("pytest")
    out.append(Case(repo, "named", {"tool": "pytest", "failed": True, "query": named["marker"]},
                    named["session"], named["marker"]))  # fmt: skip
    err = older(None)
    out.append(Case(repo, "error", {"failed": True, "query": err["words"]}, err["session"],
                    err["marker"]))  # fmt: skip
    return out
