"""``mnemic hook claude-code``: one entry point for every Claude Code hook mnemic installs.

Claude Code runs the command with one JSON object on stdin (``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name`` and per-event fields) and reads the
exit code and stdout. The handler dispatches on ``hook_event_name``:

``SessionStart``
    prints ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
    "additionalContext": SNAPSHOT}}``: Claude Code adds the frozen MEMORY and USER
    PROFILE blocks (exactly what :func:`~mnemic.render_snapshot` renders) to the
    session's context, then the PROJECT MEMORY of ``MNEMIC_PROJECT``, or of the project
    of ``cwd`` when its store exists (:mod:`mnemic.curated.scope`). Nothing is printed
    when all are empty. Entries past their ``expires`` time first move to the archive,
    as at any session start. When memory or skill writes wait for approval in those
    stores' queues, ``systemMessage`` tells the person how many and where to decide.
``PreCompact``, ``SessionEnd``
    imports the transcript at ``transcript_path`` into the session history from where the
    last import of it stopped (:mod:`mnemic.sessions.importing.resume`): each run reads only what
    was added, a segment at a time, within :data:`BUDGETS`; a session imported before
    gains only the messages it lacks (merged by message ``uuid``). ``SessionEnd`` also
    marks the session ended, whether or not the whole transcript fitted in its time.
    Then, when the ``semantic`` extra is installed, messages without a vector are
    embedded, a bounded share per call (:mod:`mnemic.sessions.search.catchup`: at most
    :data:`EMBED_MESSAGES` in about :data:`EMBED_SECONDS`; the rest at the next call).

A hook must never get in Claude Code's way: whatever goes wrong (input that is not JSON,
too large, missing fields, a transcript that cannot be read, a busy store), the handler
reports one line on stderr and exits 0 (exit 2 would block a compaction). It never
hangs: stdin is read up to :data:`MAX_INPUT` bytes within :data:`READ_TIMEOUT` seconds,
and a watchdog ends the process with a message before Claude Code's own time limit.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import load_settings
from ..control_chars import printable
from ..curated.scope import find_project, open_project
from ..curated.snapshot import render_snapshot
from ..errors import IntegrationError, MnemicError, ProjectScopeError, SessionNotFound
from ..home import Home, home_dir
from ..registry import JournalPeek, backend_for, stores_in_home
from . import snapcache
from .hook_input import MAX_INPUT, READ_TIMEOUT, InputProblem, read_bounded

if TYPE_CHECKING:
    from ..sessions.sql import SessionStore

Counter = Callable[[Home, "SessionStore", str], object]
"""``count(home, store, session_id)``: run after a transcript import, with the store
still open (the CLI passes the entry-usage count: :mod:`mnemic.ops.entry_usage`)."""

__all__ = [
    "BUDGETS",
    "DEADLINES",
    "EMBED_MESSAGES",
    "EMBED_SECONDS",
    "MAX_INPUT",
    "READ_TIMEOUT",
    "HookResult",
    "Watchdog",
    "handle_claude_code_hook",
    "read_hook_input",
    "run_claude_code_hook",
]

DEADLINES = {"SessionStart": 20.0, "PreCompact": 100.0, "SessionEnd": 50.0}
"""Seconds a handler may take per event, each below its ``timeout`` in the settings."""
DEFAULT_DEADLINE = 20.0
BUDGETS = {"PreCompact": 50.0, "SessionEnd": 25.0}
"""Seconds after which an import starts no new segment: half the deadline, so the segment
in flight (judged by the slowest so far) and marking the session ended fit before it."""

EMBED_MESSAGES = 256
"""Messages without a vector embedded at most per import (oldest first)."""
EMBED_SECONDS = 5.0
"""Seconds an import may spend embedding, after its budget: well inside every deadline."""

_WHERE = "the hook input"
_SETUP = "Claude Code runs this command from its hooks; see `mnemic integrate claude-code`."


@dataclass(frozen=True)
class HookResult:
    """What the hook prints: ``stdout`` for Claude Code, one ``message`` line for stderr."""

    event: str
    ok: bool
    stdout: str = ""
    message: str = ""


class Watchdog:
    """Ends the process (exit 0, one line on stderr) if the deadline passes first.

    The hook's work is a session import or a snapshot render: ending the process midway
    leaves the SQLite store consistent (its transaction is rolled back) and nothing else
    half-written.
    """

    def __init__(self, seconds: float, *, on_expiry: Callable[[str], None] | None = None) -> None:
        self._deadline = time.monotonic() + seconds
        self._what = "reading the hook input"
        self._done = threading.Event()
        self._wake = threading.Event()  # the deadline moved, or the work is done
        self._on_expiry = on_expiry or _exit_quietly
        self._thread = threading.Thread(target=self._run, name="mnemic-hook-watchdog", daemon=True)
        self._thread.start()

    def reset(self, seconds: float, what: str) -> None:
        """Give the next step ``seconds`` from now."""
        self._deadline = time.monotonic() + seconds
        self._what = what
        self._wake.set()

    def cancel(self) -> None:
        """The work is done: stop watching."""
        self._done.set()
        self._wake.set()

    def _run(self) -> None:
        while not self._done.is_set():
            remaining = self._deadline - time.monotonic()
            if remaining <= 0:
                self._on_expiry(
                    f"mnemic: gave up {self._what}: it took too long; Claude Code goes on "
                    "without it."
                )
                return
            self._wake.wait(remaining)  # until the deadline, or until it moves
            self._wake.clear()


def _exit_quietly(message: str) -> None:
    try:
        os.write(2, (message + "\n").encode("utf-8", "replace"))
    finally:
        os._exit(0)


def read_hook_input(fd: int, *, limit: int = MAX_INPUT, timeout: float = READ_TIMEOUT) -> bytes:
    """Everything on ``fd`` up to end of file: at most ``limit`` bytes, within ``timeout``
    seconds (POSIX; elsewhere the watchdog bounds the wait). A terminal is refused: the
    command is meant to be run by Claude Code, not typed."""
    try:
        return read_bounded(fd, limit=limit, timeout=timeout)
    except InputProblem as exc:
        raise IntegrationError(exc.where, exc.why, _SETUP) from None


def _parse(data: bytes) -> dict[str, Any]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IntegrationError(_WHERE, f"is not UTF-8 text (byte {exc.start})", _SETUP) from None
    if not text.strip():
        raise IntegrationError(_WHERE, "is empty", _SETUP)
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise IntegrationError(_WHERE, f"is not JSON ({exc})", _SETUP) from None
    if not isinstance(value, dict):
        raise IntegrationError(_WHERE, f"is a JSON {type(value).__name__}, not an object", _SETUP)
    return value


def _field(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value:
        raise IntegrationError(_WHERE, f'has no "{name}" string', _SETUP)
    return value


def _unicode(data: dict[str, Any], name: str) -> None:
    """Refuse a field holding a lone surrogate (a JSON ``"\\ud800"``): no file or session
    can be named by it (it raised UnicodeEncodeError out of the import)."""
    value = data.get(name)
    if not isinstance(value, str):
        return
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        where = f"U+{ord(value[exc.start]):04X}"
        raise IntegrationError(
            _WHERE,
            f'"{name}" holds {where}, a lone surrogate: it is not valid Unicode text',
            _SETUP,
        ) from None


def _transcript(data: dict[str, Any]) -> Path:
    raw = _field(data, "transcript_path")
    _unicode(data, "transcript_path")
    path = Path(raw)
    if "\x00" in raw or not path.is_absolute():
        raise IntegrationError(_WHERE, f"transcript_path {raw!r} is not an absolute path", _SETUP)
    if path.suffix != ".jsonl":
        raise IntegrationError(
            _WHERE, f"transcript_path {raw!r} is not a Claude Code transcript (*.jsonl)", _SETUP
        )
    try:
        st = path.stat()
    except OSError as exc:
        raise IntegrationError(
            raw, f"cannot be read ({exc.strerror or exc})", "The session was not imported."
        ) from None
    if not stat.S_ISREG(st.st_mode):
        raise IntegrationError(raw, "is not a regular file", "The session was not imported.")
    return path


def _project_of(
    data: dict[str, Any], home_path: str | None, profile: str | None, project: str | None
) -> str | None:
    """The project whose memory a session gets: ``project`` (the hook command's
    ``--project``, which a project install writes) or ``MNEMIC_PROJECT`` when set, else
    the project of the hook's ``cwd`` (or of its nearest parent) if its store exists: a
    project is opted in by writing to it once (:mod:`mnemic.curated.scope`)."""
    chosen = project or os.environ.get("MNEMIC_PROJECT")
    if chosen:
        return chosen
    cwd = data.get("cwd")
    if not isinstance(cwd, str) or not cwd or "\x00" in cwd or not os.path.isabs(cwd):
        return None
    root = home_dir(home_path, profile)
    try:  # a database home keeps its catalog of project stores in the database
        found = find_project(root, cwd, load_settings(root))
    except MnemicError:  # the global memory still comes; render_snapshot says why not
        return None
    return found.path if found is not None else None


def _project_store(
    data: dict[str, Any],
    home: Home,
    home_path: str | None,
    profile: str | None,
    project: str | None,
) -> Home | None:
    """The store of the project SessionStart gave this session, if it exists."""
    directory = _project_of(data, home_path, profile, project)
    if directory is None:
        return None
    try:
        found = open_project(home, directory, create=False)
    except ProjectScopeError:  # not a directory, or a store with no projects: SessionStart said so
        return None
    return found if found.exists else None


def _stores(home_path: str | None, profile: str | None, project: str | None) -> list[Home]:
    """The home and the project store of ``project`` when it exists (none: no home)."""
    try:
        home = Home.open(home_path, profile, create=False)
    except MnemicError:
        return []
    stores: list[Home] = [home]
    if project is not None:
        with contextlib.suppress(ProjectScopeError):
            found = open_project(home, project, create=False)
            if found.exists:
                stores.append(found)
    return stores


def _expire_due(home_path: str | None, profile: str | None, project: str | None) -> str:
    """Move the entries past their ``expires`` time to the archive before the snapshot,
    as an agent session does at its start (docs/lifecycle.md, Expiry): an expired entry
    leaves at the next session, whichever client starts it. Light when nothing is due
    (one look at the journal's fold, nothing written); the recorded write opens only when
    something expired, and a store whose journal holds no expiry at all is not even
    folded (:class:`~mnemic.registry.JournalPeek`: the kernel that folds it is not
    imported). Best-effort: a home that cannot be written keeps the entries until a
    write can record them, and the snapshot comes anyway. Returns a note, or ``""``."""
    gone = 0
    stores = _stores(home_path, profile, project)  # none: no home yet, nothing expired
    for store in stores:
        try:
            if not _may_expire(store):
                continue  # no entry of it was ever given an expiry
            from ..curated.pressure import due
            from ..curated.view import MemoryView

            if not due(MemoryView.open(store), time.time()):
                continue
            from ..curated.memory import Memory

            gone += len(Memory.open(store, origin="hook").expire())
        except (MnemicError, OSError) as exc:
            return f"mnemic: expired entries not archived yet: {_line(str(exc))}"
    return f"mnemic: {gone} expired entries moved to the archive" if gone else ""


def _may_expire(store: Home) -> bool:
    """Whether an entry of ``store`` may carry an expiry: its backend's light look at the
    journal when it has one (:class:`~mnemic.registry.JournalPeek`), else yes."""
    backend = backend_for(store.settings)
    if isinstance(backend, JournalPeek):
        return backend.journal_may_hold(str(store.root), store.settings, "expires")
    return True


def _waiting(home_path: str | None, profile: str | None, project: str | None) -> tuple[int, float]:
    """The memory and skill writes waiting for a person's approval in the home's queues
    and the project store's, and the time the first of them expires (``inf``: none).
    Best-effort: a queue that cannot be read counts none (the snapshot comes anyway)."""
    queues = [
        (store, subsystem)
        for store in _stores(home_path, profile, project)
        for subsystem in ("memory", "skills")
        if not stores_in_home(store.settings) or _holds_a_record(store.root / "pending" / subsystem)
    ]
    if not queues:  # the common case: no queue file at all, nothing of governance imported
        return 0, float("inf")
    from ..governance.storage import open_pending  # a queue is read when it has a record

    now, count, first = time.time(), 0, float("inf")
    for store, subsystem in queues:
        try:
            records = open_pending(store.root, store.settings, subsystem).listing().records
        except (MnemicError, OSError):
            continue
        for record in records:
            if not record.expired(now):
                count += 1
                first = min(first, record.expires_at)
    return count, first


def _holds_a_record(directory: Path) -> bool:
    """Whether the files backend's queue ``directory`` holds a record file (a look at
    its names only)."""
    try:
        with os.scandir(directory) as found:
            return any(e.name.endswith(".json") for e in found)
    except OSError:
        return False


def _waiting_message(count: int) -> str:
    """What the person is shown (Claude Code's ``systemMessage``) when writes wait for
    their approval: the model proposed them in an earlier session, where the message
    may have scrolled by (docs/first-week.md #25)."""
    write = "write waits" if count == 1 else "writes wait"
    return (
        f"mnemic: {count} {write} for your approval (memory or skills, proposed earlier;"
        " nothing is applied until a person approves): review with `mnemic pending list`,"
        " or on the console's Pending page (`mnemic ui`)."
    )


def _session_start(
    data: dict[str, Any], home_path: str | None, profile: str | None, chosen: str | None
) -> HookResult:
    recorder = snapcache.Recorder(data, home_path, profile, chosen)  # before anything is read
    project = _project_of(data, home_path, profile, chosen)
    note = _expire_due(home_path, profile, project)
    waiting, first_expiry = _waiting(home_path, profile, project)
    try:
        text = render_snapshot(home_path, profile, project=project)
    except ProjectScopeError as exc:  # the global memory still comes, with why not the rest
        text = render_snapshot(home_path, profile)
        why = _line(exc.to_human())
        if exc.reason == "not_a_directory":  # only a named project can be missing
            why = (
                f"the project directory {project!r} (from the hook's --project or "
                "MNEMIC_PROJECT) does not exist or is not a directory; the global memory "
                "was loaded. Correct the path or unset MNEMIC_PROJECT"
            )
        note = "; ".join(x for x in (note, f"mnemic: project memory left out: {why}") if x)
    out: dict[str, Any] = {}
    if text:
        out["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": text}
    if waiting:
        out["systemMessage"] = _waiting_message(waiting)
    if not out:
        result = HookResult(
            "SessionStart", True, "", note or "mnemic: memory is empty; nothing added"
        )
    else:
        result = HookResult("SessionStart", True, json.dumps(out, ensure_ascii=False) + "\n", note)
    if recorder.enabled and not note:
        until = recorder.valid_until(home_path, profile, _may_expire)
        if until is not None:  # the message holds until the first waiting write expires
            until = min(until, first_expiry)
        recorder.done(result.stdout, result.message, until)
    return result


def _import(
    event: str,
    data: dict[str, Any],
    home_path: str | None,
    profile: str | None,
    budget: float | None,
    segment: int | None,
    count: Counter | None = None,
    chosen: str | None = None,
    embed: int = EMBED_MESSAGES,
) -> HookResult:
    # Here, not at the top: SessionStart runs at every session start and must not load
    # the session store (SQLite, the search stack), which only these events need.
    from ..sessions import import_growing, open_store
    from ..sessions.attachments import AttachmentStore
    from ..sessions.importing.resume import SEGMENT_BYTES
    from ..sessions.search.catchup import catch_up

    path = _transcript(data)
    _unicode(data, "session_id")
    session_id = data.get("session_id") if isinstance(data.get("session_id"), str) else None
    home = Home.open(home_path, profile)
    with open_store(home) as store:
        done = import_growing(
            store,
            path,
            session_id=session_id or "",
            segment=segment or SEGMENT_BYTES,
            budget=BUDGETS.get(event) if budget is None else budget,
            attachments=AttachmentStore.of_home(home),
        )
        ended = ""
        if event == "SessionEnd" and session_id and store.has_session(session_id):
            reason = data.get("reason")
            why = printable(reason, lines=False) if isinstance(reason, str) and reason else "other"
            try:
                store.end_session(session_id, f"claude-code:{why[:40]}")
                ended = "; session marked ended"
            except SessionNotFound:
                pass
        if count is not None and session_id and store.has_session(session_id):
            count(home, store, session_id)  # best-effort: it logs its own failures
            project = _project_store(data, home, home_path, profile, chosen)
            if project is not None:  # the project's entries are counted in its own store
                count(project, store, session_id)
        caught = catch_up(
            store, settings=home.settings, max_messages=embed, max_seconds=EMBED_SECONDS
        )
    report = done.report
    if done.reread:
        how = f"the whole file again: {done.reread}"
    elif done.start:
        how = f"from byte {done.start:,}, where the last import stopped"
    else:
        how = "the whole file"
    notes = [f"read {done.bytes_read:,} bytes, {how}"]
    notes.append(f"{sum(report.skipped.values()):,} line(s) or block(s) skipped")
    if report.forgotten:
        notes.append(f"{report.forgotten:,} forgotten message(s) left out")
    left = ""
    if not done.complete:
        left = f"; {done.left:,} bytes are left for the next hook (or `mnemic sessions import`)"
    embedded = f"; {_line(caught.summary())}" if caught.summary() else ""
    line = (
        f"mnemic: {event}: {report.messages:,} new message(s) from {_line(path.name, 200)} "
        f"into the session history ({'; '.join(notes)}){embedded}{left}{ended}"
    )
    return HookResult(event, True, line + "\n", "")


def run_claude_code_hook(
    data: bytes,
    *,
    home_path: str | None = None,
    profile: str | None = None,
    watchdog: Watchdog | None = None,
    budget: float | None = None,
    segment: int | None = None,
    count: Counter | None = None,
    project: str | None = None,
    embed: int = EMBED_MESSAGES,
) -> HookResult:
    """Handle one hook call given its raw stdin ``data``; never raises for bad input or
    a failing store: the failure becomes ``HookResult(ok=False, message=...)``.
    ``project`` (a directory) selects the project's memory before ``MNEMIC_PROJECT``
    and the ``cwd``'s project.
    ``budget`` (seconds, default :data:`BUDGETS`) and ``segment`` (bytes) bound one
    transcript import (:func:`mnemic.sessions.import_growing`); ``count`` runs after
    it (:data:`Counter`); then at most ``embed`` messages without a vector are embedded
    (:data:`EMBED_MESSAGES`; 0: none)."""
    event = "?"
    try:
        hook = _parse(data)
        event = _field(hook, "hook_event_name")
        if watchdog is not None:
            watchdog.reset(DEADLINES.get(event, DEFAULT_DEADLINE), f"the {event} hook")
        if event == "SessionStart":
            return _session_start(hook, home_path, profile, project)
        if event in ("PreCompact", "SessionEnd"):
            return _import(
                event, hook, home_path, profile, budget, segment, count, project, embed=embed
            )
        return HookResult(event, True, "", f"mnemic: nothing to do for the {_name(event)}hook")
    except MnemicError as exc:
        why = _line(exc.to_human())
        return HookResult(event, False, "", f"mnemic: {_name(event)}hook skipped: {why}")
    except Exception as exc:  # a hook must never break Claude Code: report, exit 0
        return HookResult(
            event,
            False,
            "",
            f"mnemic: {_name(event)}hook failed: {type(exc).__name__}: {_line(str(exc))}",
        )


def handle_claude_code_hook(
    fd: int | None = None,
    *,
    home_path: str | None = None,
    profile: str | None = None,
    count: Counter | None = None,
    project: str | None = None,
    data: bytes | InputProblem | OSError | None = None,
) -> HookResult:
    """The whole hook: read stdin (``fd``, default 0) within bounds under a watchdog,
    then :func:`run_claude_code_hook`. Input that cannot be read becomes a failed result.
    ``data``: stdin as already read (or why it could not be), by the cached answer's
    look-up (:func:`mnemic.integrations.snapcache.serve`)."""
    watchdog = Watchdog(READ_TIMEOUT + 1.0)
    try:
        try:
            if isinstance(data, InputProblem):
                raise IntegrationError(data.where, data.why, _SETUP)
            if isinstance(data, OSError):
                raise data
            if data is None:
                data = read_hook_input(sys.stdin.fileno() if fd is None else fd)
        except MnemicError as exc:
            return HookResult("?", False, "", f"mnemic: hook skipped: {_line(exc.to_human())}")
        except OSError as exc:
            return HookResult("?", False, "", f"mnemic: hook skipped: cannot read stdin ({exc})")
        return run_claude_code_hook(
            data,
            home_path=home_path,
            profile=profile,
            watchdog=watchdog,
            count=count,
            project=project,
        )
    finally:
        watchdog.cancel()


def _name(event: str) -> str:
    return "" if event == "?" else f"{_line(event, 60)} "


def _line(text: str, width: int = 400) -> str:
    """One line for Claude Code's transcript or the terminal: newlines folded, control
    characters as U+FFFD (the input's fields are quoted back), cut at ``width``."""
    flat = " ".join(printable(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
