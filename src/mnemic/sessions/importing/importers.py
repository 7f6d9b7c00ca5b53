"""Importing conversations into the session store, and exporting them.

Formats (``import_path(store, path, format=...)``):

``jsonl``
    One message a line: ``{"session_id", "role", "content"}`` plus optional
    ``message_id`` (the message's key), ``timestamp`` (Unix seconds or ISO 8601),
    ``source``, ``name``, ``tool_calls``, ``tool_call_id``, ``tool_name``, and session
    fields taken from the first line that has them: ``title``, ``model``,
    ``parent_session_id``, ``metadata``, ``started_at``, ``ended_at``, ``end_reason``.
    :func:`export_session` writes this format.
``openai``
    OpenAI chat ``messages`` arrays: a JSON list of messages, ``{"messages": [...]}``, a
    list of such objects, or JSONL with one ``{"messages": [...]}`` per line. A
    conversation with an ``id`` becomes that session; one without gets an id derived
    from its content, so importing the same file twice adds nothing (and a conversation
    that grew is a new session: give conversations an ``id`` to have them extended).
``claude``
    Claude Code transcripts (``~/.claude/projects/**/*.jsonl``; give a file or a
    directory). Text, tool calls (``tool_use``) and tool results become messages;
    sidechain (subagent) lines, meta lines, thinking blocks and bookkeeping lines are
    skipped and counted.
``hermes``
    Hermes Agent's session database (``~/.hermes/state.db``), opened read-only: sessions
    with their source platform, title, parent and model, messages with their tool calls
    (:mod:`.hermes`; ``mnemic import hermes`` imports a whole Hermes home).
``chatgpt``
    The ChatGPT data export's ``conversations.json``: each conversation the branch the
    user saw, with its title, times and roles (:mod:`.chatgpt`).
``codex``
    Codex CLI session files (``~/.codex/sessions/**/rollout-*.jsonl``; give a file or,
    with ``format="codex"``, a directory): messages and tool calls (:mod:`.codex`).
``locomo``
    The LoCoMo benchmark file: each ``session_<N>`` of each sample becomes the session
    ``locomo-<sample_id>-s<N>``, its turns in order (speaker A as ``user``, B as
    ``assistant``, the speaker in ``name``; a shared photo's caption appended).

A message, title or model removed by ``mnemic forget --text`` is left out of every
later import (the store's tombstones; the report counts it), and so is a whole session
whose id was forgotten.

``auto`` picks by content. The input is read as a stream and written in bounded batches
(:mod:`.formats`), so memory does not grow with the file. A session that exists
gains the messages it lacks, recognised by message key (``replace=True`` deletes it
and writes the imported copy, in one transaction). One malformed line is counted and
skipped with its place (``strict=True``: the whole input is checked first and the first
malformed line stops the import before anything is written). The :class:`ImportReport`
counts what was imported and what was skipped, why, and where the first case of each
reason was.
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import ImportFailed, IntegrationError, UnreadableFile
from ...fsread import open_to_read
from ...jsonstream import read_jsonl
from ..attachments import AttachmentStore
from ..sql import SessionStore
from ..store import Attachment, ImportResult, NewSession
from .chatgpt import chatgpt_items
from .claude import claude_items
from .codex import codex_items
from .documents import locomo_items, locomo_sessions, openai_items
from .formats import Item, Reading, Skips, jsonl_items, timestamp
from .hermes import SQLITE_MAGIC, hermes_items, open_hermes_db

__all__ = [
    "FORMATS",
    "ImportProgress",
    "ImportReport",
    "detect_format",
    "export_session",
    "import_path",
    "locomo_sessions",
]

FORMATS = ("auto", "jsonl", "openai", "claude", "locomo", "hermes", "chatgpt", "codex")


@dataclass
class ImportReport(Skips):
    """What an import did: counts, and skipped items by reason."""

    path: str
    format: str
    files: int = 0
    sessions: int = 0
    """Sessions written anew (created, or replaced)."""
    messages: int = 0
    """Messages added, in new and in known sessions."""
    existing: int = 0
    """Known sessions that had every message already."""
    extended: int = 0
    """Known sessions that gained messages."""
    extended_messages: int = 0
    replaced: int = 0
    forgotten: int = 0
    """Messages of the input left out because they were forgotten (``mnemic forget``)."""
    forgotten_sessions: int = 0
    """Sessions of the input left out whole: their id was forgotten."""
    skipped: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def skip(self, reason: str, where: str) -> None:
        """Count one skipped item."""
        self.skipped[reason] += 1
        self.examples.setdefault(reason, where)

    def count(self, result: ImportResult) -> None:
        """Count what one session of the import did, as committed."""
        added = len(result.message_ids or ())
        self.messages += added
        if result.status in ("created", "replaced"):
            self.sessions += 1
            self.replaced += result.status == "replaced"
        elif result.status == "extended":
            self.extended += 1
            self.extended_messages += added
        elif result.status == "forgotten":
            self.forgotten_sessions += 1
        else:
            self.existing += 1
        self.forgotten += result.forgotten

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "path": self.path,
            "format": self.format,
            "files": self.files,
            "sessions": self.sessions,
            "messages": self.messages,
            "extended_sessions": self.extended,
            "extended_messages": self.extended_messages,
            "existing_sessions_unchanged": self.existing,
            "replaced_sessions": self.replaced,
            "forgotten_messages": self.forgotten,
            "forgotten_sessions": self.forgotten_sessions,
            "skipped": [
                {"reason": r, "count": n, "first_at": self.examples.get(r)}
                for r, n in self.skipped.most_common()
            ],
        }


@dataclass(frozen=True)
class ImportProgress:
    """How far an import is: input read, messages written, time taken."""

    bytes_done: int
    bytes_total: int
    messages: int
    """Messages written (committed) so far."""
    sessions: int
    elapsed: float
    """Seconds since the import started."""
    finished: bool = False

    @property
    def fraction(self) -> float:
        """Share of the input read (0 to 1)."""
        if self.finished:
            return 1.0
        return min(1.0, self.bytes_done / self.bytes_total) if self.bytes_total else 0.0

    @property
    def rate(self) -> float | None:
        """Messages written a second (None before the first second's worth)."""
        return self.messages / self.elapsed if self.elapsed > 0 and self.messages else None

    @property
    def eta(self) -> float | None:
        """Seconds left, from the share of the input read so far (None: unknown yet)."""
        share = self.fraction
        if self.finished:
            return 0.0
        if share <= 0 or self.elapsed <= 0:
            return None
        return self.elapsed * (1.0 - share) / share


Progress = Callable[[ImportProgress], None]


def detect_format(path: Path) -> str:
    """Guess the format of ``path`` (a directory means Claude Code transcripts, a SQLite
    database Hermes Agent's sessions)."""
    if path.is_dir():
        return "claude"
    with open(open_to_read(path), "rb") as fh:
        data = fh.read(65536)
    if data.startswith(SQLITE_MAGIC):
        return "hermes"
    head = data.decode("utf-8-sig", "replace")
    stripped = head.lstrip()
    if stripped.startswith("["):
        if '"qa"' in head and '"conversation"' in head:
            return "locomo"
        if '"mapping"' in head and '"children"' in head:
            return "chatgpt"
        return "openai"
    if stripped.startswith("{"):
        first = stripped.split("\n", 1)[0]
        try:
            obj = json.loads(first)
        except (ValueError, RecursionError):
            obj = _first_line(path) if "\n" not in head else None
            if obj is None:
                return "openai"  # one JSON document spread over lines
        if isinstance(obj, dict):
            if "messages" in obj:
                return "openai"
            if obj.get("type") == "session_meta":
                return "codex"
            if "sessionId" in obj or obj.get("type") in ("summary", "user", "assistant"):
                return "claude"
            if "session_id" in obj:
                return "jsonl"
            if "role" in obj and "content" in obj:
                raise ImportFailed(
                    str(path),
                    "its first line is a message (role, content) without a session_id, "
                    "which mnemic's jsonl format needs on every line to know which "
                    'conversation a message belongs to: add "session_id": "any-name" to '
                    "each line (one value per conversation), or wrap the messages as "
                    '{"messages": [...]} and pass --format openai',
                )
    raise ImportFailed(
        str(path),
        "cannot tell its format; pass --format with one of jsonl, openai, claude, locomo, "
        "hermes, chatgpt, codex (`mnemic sessions import --help` says what each expects)",
    )


def _first_line(path: Path) -> Any:
    """The first line of ``path`` read whole as JSON (its strings cut past the line
    limit), for a line longer than the bytes :func:`detect_format` looks at: a first
    message with a pasted image. None when it is no JSON line."""
    with open(open_to_read(path), "rb") as fh:
        for line in read_jsonl(fh):
            return line.value if line.error is None else None
    return None


_FOLDER_NAMES = {"codex": "the Codex sessions folder"}


def _files(path: Path, fmt: str = "claude") -> list[Path]:
    """The transcripts under a folder (sorted), or ``[path]`` for a file. A symlink under
    the folder that leads out of it is refused naming where it leads, as the Codex and
    ChatGPT importers do (a ``*.jsonl`` link to /etc/passwd was read as bad lines)."""
    if not path.is_dir():
        return [path]
    codex = fmt == "codex"
    what = _FOLDER_NAMES.get(fmt, "the transcripts folder")
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(path, followlinks=False):
        here = Path(dirpath)
        for name in [*dirnames, *filenames]:
            entry = here / name
            if entry.is_symlink():
                real, base = entry.resolve(), path.resolve()
                if real != base and base not in real.parents:
                    raise IntegrationError(
                        str(entry),
                        f"a symlink out of {what} (to {real})",
                        "Copy what it points to into the folder, or remove the link.",
                    )
        dirnames.sort()
        found += [
            here / n
            for n in filenames
            if n.endswith(".jsonl") and (not codex or n.startswith("rollout-"))
        ]
    return sorted(p for p in found if p.is_file())


def _items(fmt: str, files: list[Path], reading: Reading, source: str | None) -> Iterator[Item]:
    """Every item of every file, read as a stream."""
    for f in files:
        start = reading.bytes_done
        if fmt == "hermes":
            with open_hermes_db(f) as db:
                yield from hermes_items(db, reading, f.stat().st_size)
            continue
        with open(open_to_read(f), "rb") as fh:
            if fmt == "claude":
                yield from claude_items(f, fh, reading)
            elif fmt == "jsonl":
                yield from jsonl_items(f, fh, reading)
            elif fmt == "openai":
                yield from openai_items(f, fh, reading, source or "import")
            elif fmt == "chatgpt":
                yield from chatgpt_items(f, fh, reading)
            elif fmt == "codex":
                yield from codex_items(f, fh, reading)
            else:
                yield from locomo_items(f, fh, reading)
        with contextlib.suppress(OSError):
            reading.bytes_done = start + f.stat().st_size


def _with_source(spec: NewSession, source: str) -> NewSession:
    return NewSession(
        spec.id, source, spec.title, spec.model, spec.parent_id, spec.started_at, spec.metadata
    )


class _Discard(Skips):
    def skip(self, reason: str, where: str) -> None:
        pass


def import_path(
    store: SessionStore,
    path: str | Path,
    *,
    format: str = "auto",
    source: str | None = None,
    replace: bool = False,
    strict: bool = False,
    progress: Progress | None = None,
    progress_every: float = 0.2,
    batch: int = 5000,
    attachments: AttachmentStore | None = None,
) -> ImportReport:
    """Import ``path`` (a file, or a directory of Claude Code transcripts).

    ``source`` overrides the source recorded for the sessions (default per format).
    ``replace`` swaps each known session for the imported copy (one transaction per
    batch of whole sessions, so an interrupted run leaves every session old or new);
    without it a known session gains the messages it lacks. ``strict`` checks the whole
    input first and raises :class:`~mnemic.errors.ImportFailed` at the first malformed
    line, writing nothing. ``progress(ImportProgress)`` is called as batches commit
    (at most every ``progress_every`` seconds, and once at the end); ``batch`` is about
    how many messages each transaction writes. ``attachments`` keeps the images and
    files of the input (:mod:`.attached`; without it they stay bare placeholders).
    """
    path = Path(path).expanduser()
    if not path.exists():
        raise ImportFailed(str(path), "no such file or directory")
    fmt = detect_format(path) if format == "auto" else format
    if fmt not in FORMATS[1:]:
        raise ImportFailed(str(path), f"unknown format {format!r}; use one of {FORMATS}")
    files = _files(path, fmt)
    total = sum(f.stat().st_size for f in files)
    if strict:  # read everything once, writing nothing: stops at the first bad line
        for _ in _items(fmt, files, Reading(_Discard(), strict=True), source):
            pass
    report = ImportReport(str(path), fmt, files=len(files))
    reading = Reading(
        report,
        bytes_total=total,
        buffer_messages=max(1, min(batch, 2000)),
        attachments=attachments,
    )
    started = last = time.monotonic()
    touched: list[str] = []
    # where the input was when each session in flight was handed over: progress counts
    # the input up to the last session committed, not what the reader has buffered
    handed: dict[str, int] = {}
    committed = 0

    def tracked(items: Iterator[Item]) -> Iterator[Item]:
        for spec, msgs in items:
            if source:
                spec = _with_source(spec, source)
            handed[spec.id] = reading.ends.pop(spec.id, reading.bytes_done)
            yield spec, msgs

    def tell(finished: bool = False) -> None:
        if progress is not None:
            progress(
                ImportProgress(
                    total if finished else committed,
                    total,
                    report.messages,
                    report.sessions + report.extended,
                    time.monotonic() - started,
                    finished,
                )
            )

    mode = "replace" if replace else "merge"
    items = tracked(_items(fmt, files, reading, source))
    for result in store.import_sessions(items, batch=batch, existing=mode):
        committed = max(committed, handed.pop(result.session_id, committed))
        report.count(result)
        if result.status != "unchanged" and result.session_id in reading.endings:
            touched.append(result.session_id)
        if progress is not None and time.monotonic() - last >= progress_every:
            last = time.monotonic()
            tell()
    for sid in dict.fromkeys(touched):
        ended_at, reason = reading.endings[sid]
        store.end_session(sid, str(reason or "ended"), ended_at=timestamp(ended_at))
    tell(finished=True)
    return report


_OPTIONAL_MESSAGE_FIELDS = frozenset(
    {"name", "tool_name", "tool_calls", "tool_call_id", "is_error"}
)


def export_session(
    store: SessionStore, session_id: str, *, attachments: AttachmentStore | None = None
) -> Iterator[dict[str, Any]]:
    """The session as ``jsonl``-format records (session fields on the first line).

    A message holding files has ``attachments``: each one's link fields, and with
    ``attachments`` (the home's store) its bytes as base64 ``data``, so the export
    stands alone (an import keeps them in its home's store). A file whose bytes are
    gone (or damaged) is exported with ``"missing": true`` and no data.
    """
    info = store.get_session(session_id)
    first = True
    messages = store.messages(session_id)
    held = store.attachments(m.id for m in messages)
    for m in messages:
        rec: dict[str, Any] = {
            "session_id": info.id,
            "role": m.role,
            "content": m.content,
            "timestamp": _finite(m.timestamp),
            "source": info.source,
        }
        # the optional fields, only when set, as the message's own JSON form has them
        rec.update((k, v) for k, v in m.to_dict().items() if k in _OPTIONAL_MESSAGE_FIELDS)
        if m.id in held:
            rec["attachments"] = [_exported(a, attachments) for a in held[m.id]]
        if first:
            rec.update(
                {
                    "title": info.title,
                    "model": info.model,
                    "parent_session_id": info.parent_id,
                    "started_at": _finite(info.started_at),
                    "ended_at": _finite(info.ended_at),
                    "end_reason": info.end_reason,
                    "metadata": info.metadata,
                }
            )
            rec = {k: v for k, v in rec.items() if v is not None}
            first = False
        yield rec


def _finite(when: float | None) -> float | None:
    """A stored time as the export writes it: an infinity or NaN (kept by a history an
    earlier mnemic imported) is ``None``, as ``--json`` writes it; ``json.dumps`` wrote
    ``Infinity``, which no strict JSON reader takes."""
    return when if when is None or math.isfinite(when) else None


def _exported(link: Attachment, files: AttachmentStore | None) -> dict[str, Any]:
    out = link.to_dict()
    if files is not None:
        try:
            data = files.read(link.sha256)
        except UnreadableFile:
            data = None  # damaged: exported as missing, never as wrong bytes
        if data is None:
            out["missing"] = True
        else:
            out["data"] = base64.b64encode(data).decode("ascii")
    return out
