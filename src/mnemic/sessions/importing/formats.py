"""The line-format readers behind :func:`~.importers.import_path` (JSONL here, Claude
Code in :mod:`.claude`; the JSON documents are in :mod:`.documents`), and what they share.

Each reader is a generator of ``(NewSession, [NewMessage])`` items that reads its input
as a stream (:mod:`mnemic.jsonstream`) and holds a bounded number of messages: line
formats buffer messages by session and hand over the sessions not being read when the
buffer is full (:class:`Buffer`), so a session written in one stretch of the file
(every export and transcript) arrives whole, and one spread over the file arrives in
parts that the store merges by message key. Every message gets a key
(``NewMessage.source_id``): the source's own id when it has one (a Claude Code line's
``uuid``, a JSONL ``message_id``, a LoCoMo ``dia_id``, an OpenAI message ``id``), else
its position among the imported messages of its session and a hash of its content
(:func:`~mnemic.sessions.keys.position_key`).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ...errors import ImportFailed
from ...jsonstream import MAX_LINE, MAX_TEXT, JsonLine, read_jsonl
from ...timefmt import in_calendar
from ..attachments import AttachmentStore
from ..keys import ROLE_ALIASES, fingerprint, opaque_hash, position_key
from ..store import ROLES, Attachment, NewMessage, NewSession
from .attached import keep_exported

__all__ = [
    "Buffer",
    "ImportPlan",
    "Item",
    "Pending",
    "Reading",
    "Skips",
    "digest",
    "flag_of",
    "jsonl_items",
    "position_digest",
    "role_of",
    "str_of",
    "text_of",
    "timestamp",
    "tool_calls_of",
]

Item = tuple[NewSession, list[NewMessage]]

BUFFER_MESSAGES = 2000
"""Messages a line reader holds before handing sessions over."""
BUFFER_BYTES = 16 << 20
"""Text a line reader holds before handing sessions over."""


class Skips:
    """Where skipped input is counted (the import report)."""

    def skip(self, reason: str, where: str) -> None:
        """Count one skipped item."""
        raise NotImplementedError


class ImportPlan(Skips):
    """What an import would add, counted as a dry run reads its input (nothing is
    written): the sessions ``has_session`` does not know yet and their messages, the
    sessions it knows, and the skipped input by reason. Pass it as the readers'
    :class:`Skips` (``Reading(plan)``) and hand their items to :meth:`count`."""

    def __init__(self, has_session: Callable[[str], bool]) -> None:
        self.has_session = has_session
        self.sessions = 0
        self.messages = 0
        self.known_sessions = 0
        self.skipped: Counter[str] = Counter()

    def skip(self, reason: str, where: str) -> None:
        self.skipped[reason] += 1

    def count(self, items: Iterable[Item]) -> None:
        """Count the sessions and messages of ``items``."""
        for spec, msgs in items:
            if self.has_session(spec.id):
                self.known_sessions += 1
            else:
                self.sessions += 1
                self.messages += len(msgs)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (the importers' dry-run reports)."""
        return {
            "sessions": self.sessions,
            "messages": self.messages,
            "known_sessions": self.known_sessions,
            "skipped": [{"reason": r, "count": n} for r, n in self.skipped.most_common()],
        }


@dataclass
class Reading:
    """The state of one import's reading: where skips go, strictness, bytes read, and each
    session's message count so far (for position keys)."""

    skips: Skips
    strict: bool = False
    bytes_total: int = 0
    bytes_done: int = 0
    positions: dict[str, int] = field(default_factory=dict)
    endings: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    """``session id -> (ended_at, end_reason)`` read from the input."""
    buffer_messages: int = BUFFER_MESSAGES
    """How many messages line readers hold before handing sessions over."""
    ends: dict[str, int] = field(default_factory=dict)
    """For sessions handed over and not yet written: the input offset after their last
    line (so progress can count the input written, not the input buffered)."""
    lines: int = 0
    """Lines of the file before the part being read (a file read from where an earlier
    import stopped: :mod:`.resume`)."""
    earlier: dict[str, int] = field(default_factory=dict)
    """Messages read per session by earlier imports of the part before (keys:
    :func:`position_digest` of the session id)."""
    attachments: AttachmentStore | None = None
    """Where the images and files of the input are kept (None: placeholders only)."""
    cut: bool = False
    """Whether the line being read had its texts cut (its base64 data is not whole)."""

    def _position(self, session_id: str) -> int:
        """The position of the next message of ``session_id`` (counted on)."""
        position = self.positions.get(session_id)
        if position is None:
            position = self.earlier.get(position_digest(session_id), 0)
        self.positions[session_id] = position + 1
        return position

    def counted(self, session_id: str) -> bool:
        """Whether a message of ``session_id`` was read (now or by an earlier import)."""
        return session_id in self.positions or position_digest(session_id) in self.earlier

    def bad(self, reason: str, where: str) -> None:
        """Malformed input: counted, or (strict) the end of the import."""
        if self.strict:
            raise ImportFailed(where, f"{reason} (--strict stops at the first bad line)")
        self.skips.skip(reason, where)

    def skip(self, reason: str, where: str) -> None:
        """Input left out on purpose (a sidechain line, a thinking block...)."""
        self.skips.skip(reason, where)

    def shortened(self, line: JsonLine, where: str) -> None:
        """Count a line whose texts were cut (the message says so in its text)."""
        self.cut = bool(line.cut)
        if line.cut:
            self.skip(
                f"part of a text left out (a line over {MAX_LINE >> 20} MiB keeps "
                f"{MAX_TEXT >> 20} MiB of each text)",
                where,
            )

    def message(
        self,
        session_id: str,
        source_id: Any,
        role: str,
        content: str | None,
        *,
        tool_calls: list[dict[str, Any]] | None = None,
        tool_call_id: str | None = None,
        tool_name: str | None = None,
        name: str | None = None,
        timestamp: float | None = None,
        is_error: bool | None = None,
        attachments: tuple[Attachment, ...] = (),
        key_text: str | None = None,
    ) -> NewMessage:
        """A message of ``session_id`` with its key: ``source_id`` when it is one, else its
        position key (``role`` is a stored role) over ``key_text`` when given (the text
        as earlier versions stored it, so a message imported before keeps its key), else
        over ``content``."""
        position = self._position(session_id)
        if isinstance(source_id, str | int) and not isinstance(source_id, bool) and source_id != "":
            key = str(source_id)
        else:
            calls = None
            if tool_calls:
                calls = json.dumps(tool_calls, ensure_ascii=False, separators=(",", ":"))
            text = content if key_text is None else key_text
            key = f"{position}:{fingerprint(role, text, name, tool_name, calls, tool_call_id)}"
        return NewMessage(
            role, content, tool_name, tool_calls, tool_call_id, timestamp, None, name, key,
            is_error, attachments,
        )  # fmt: skip

    def key(self, session_id: str, msg: NewMessage, source_id: Any = None) -> NewMessage:
        """``msg`` with its key: ``source_id`` when given, else its position key."""
        position = self._position(session_id)
        if isinstance(source_id, str | int) and not isinstance(source_id, bool) and source_id != "":
            key = str(source_id)
        else:
            key = position_key(position, msg)
        return NewMessage(
            msg.role,
            msg.content,
            msg.tool_name,
            msg.tool_calls,
            msg.tool_call_id,
            msg.timestamp,
            msg.token_estimate,
            msg.name,
            key,
            msg.is_error,
            msg.attachments,
        )


def position_digest(session_id: str) -> str:
    """How an import mark names a session whose message positions it keeps."""
    return opaque_hash("position", session_id)


@dataclass
class Pending:
    """A session a line reader holds: its fields, its messages, where its last line ended."""

    fields: dict[str, Any]
    messages: list[NewMessage]
    end: int = 0


class Buffer:
    """Messages of line formats, grouped by session, handed over in bounded amounts."""

    def __init__(self, messages: int = BUFFER_MESSAGES, size: int = BUFFER_BYTES) -> None:
        self.limit_messages = messages
        self.limit_size = size
        self.sessions: dict[str, Pending] = {}
        self.count = 0
        self.size = 0

    def session(self, sid: str) -> Pending:
        """The buffered part of session ``sid``."""
        entry = self.sessions.get(sid)
        if entry is None:
            entry = self.sessions[sid] = Pending({}, [])
        return entry

    def add(self, sid: str, msg: NewMessage, end: int) -> None:
        """Buffer one message of ``sid`` read from a line ending at input offset ``end``."""
        entry = self.session(sid)
        entry.messages.append(msg)
        entry.end = end
        self.count += 1
        self.size += len(msg.content or "")

    def drain(self, current: str) -> Iterator[tuple[str, Pending]]:
        """When full: every session but ``current`` (the one being read), and ``current``
        too when it alone fills half the buffer (a very long session goes in parts)."""
        if self.count < self.limit_messages and self.size < self.limit_size:
            return
        keep = self.sessions.pop(current, None)
        out, self.sessions = self.sessions, {}
        self.count = self.size = 0
        if keep is not None:
            size = sum(len(m.content or "") for m in keep.messages)
            if len(keep.messages) * 2 >= self.limit_messages or size * 2 >= self.limit_size:
                out[current] = keep
            else:
                self.sessions[current] = keep
                self.count, self.size = len(keep.messages), size
        yield from out.items()

    def rest(self) -> Iterator[tuple[str, Pending]]:
        """Everything still buffered (at the end of the input)."""
        out, self.sessions = self.sessions, {}
        self.count = self.size = 0
        yield from out.items()


# --- field helpers ---------------------------------------------------------------------


def timestamp(value: Any) -> float | None:
    """Unix seconds from Unix seconds, milliseconds or ISO 8601 (None if unreadable, or
    not a time of the calendar: ``1e400``, ``NaN``, a year past 9999 would be stored and
    then break every listing that shows the time, :func:`~mnemic.timefmt.in_calendar`)."""
    if value is None or value == "":
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            v = float(value)
        except OverflowError:  # an integer too large for a float
            return None
        v = v / 1000.0 if v > 1e11 else v  # milliseconds
        return v if in_calendar(v) else None
    if isinstance(value, str):
        try:
            parsed = _dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            try:
                return timestamp(float(value))
            except ValueError:
                return None
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=_dt.UTC)
        try:
            seconds = parsed.timestamp()
        except (OverflowError, ValueError, OSError):
            return None
        return seconds if in_calendar(seconds) else None
    return None


def text_of(content: Any) -> str | None:
    """Message content as text: strings as is, OpenAI/Anthropic part lists joined."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict):
                kind = part.get("type")
                if isinstance(part.get("text"), str):
                    parts.append(part["text"])
                elif kind in ("image_url", "image", "input_image"):
                    parts.append("[image]")
                elif kind in ("input_audio", "audio"):
                    parts.append("[audio]")
                elif kind == "file":
                    parts.append("[file]")
        return "\n".join(parts)
    return None


def role_of(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    role = ROLE_ALIASES.get(value.strip().lower(), value.strip().lower())
    return role if role in ROLES else None


def tool_calls_of(value: Any) -> list[dict[str, Any]] | None:
    if isinstance(value, list):
        calls = [c for c in value if isinstance(c, dict)]
        return calls or None
    return None


def str_of(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def flag_of(value: Any) -> bool | None:
    """A JSON true / false as a flag; None for anything else (absent, null, a string)."""
    return value if isinstance(value, bool) else None


def digest(obj: Any) -> str:
    data = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


# --- jsonl -----------------------------------------------------------------------------

_SESSION_FIELDS = ("title", "model", "parent_session_id", "metadata", "started_at", "source")


def _jsonl_session(sid: str, entry: Pending) -> Item:
    f = entry.fields
    msgs = entry.messages
    started = timestamp(f.get("started_at")) or next(
        (m.timestamp for m in msgs if m.timestamp is not None), None
    )
    return (
        NewSession(
            id=sid,
            source=str(f.get("source") or "import"),
            title=str_of(f.get("title")),
            model=str_of(f.get("model")),
            parent_id=str_of(f.get("parent_session_id")),
            started_at=started,
            metadata=f["metadata"] if isinstance(f.get("metadata"), dict) else {},
        ),
        msgs,
    )


def jsonl_items(path: Path, stream: IO[bytes], reading: Reading) -> Iterator[Item]:
    """One message a line (the ``jsonl`` format); see :mod:`.importers`."""
    buffer = Buffer(reading.buffer_messages)
    base = reading.bytes_done
    file = path.name
    for line in read_jsonl(stream):
        reading.bytes_done = base + line.offset
        obj = line.value
        if line.error is not None:
            reading.bad(f"line is {line.error}", f"{file}:{line.number} ({line.detail})")
            continue
        reading.shortened(line, f"{file}:{line.number}")
        if not isinstance(obj, dict):
            reading.bad("line is not a JSON object", f"{file}:{line.number}")
            continue
        sid = obj.get("session_id")
        if not isinstance(sid, str) or not sid.strip():
            reading.bad("no session_id", f"{file}:{line.number}")
            continue
        role = role_of(obj.get("role"))
        if role is None:
            reading.bad("missing or unknown role", f"{file}:{line.number}")
            continue
        content = text_of(obj.get("content"))
        calls = tool_calls_of(obj.get("tool_calls"))
        if content is None and obj.get("content") is not None:
            reading.bad("content is not text", f"{file}:{line.number}")
            continue
        if not content and not calls:
            reading.skip("empty message", f"{file}:{line.number}")
            continue
        entry = buffer.session(sid)
        for name in _SESSION_FIELDS:
            if name in obj and name not in entry.fields:
                entry.fields[name] = obj[name]
        if obj.get("ended_at") or obj.get("end_reason"):
            reading.endings.setdefault(sid, (obj.get("ended_at"), obj.get("end_reason")))
        msg = reading.message(
            sid,
            obj.get("message_id"),
            role,
            content,
            tool_name=str_of(obj.get("tool_name")),
            tool_calls=calls,
            tool_call_id=str_of(obj.get("tool_call_id")),
            timestamp=timestamp(obj.get("timestamp")),
            name=str_of(obj.get("name")),
            is_error=flag_of(obj.get("is_error")),
            attachments=keep_exported(
                reading, f"{file}:{line.number}", obj.get("attachments"), cut=reading.cut
            ),
        )
        buffer.add(sid, msg, reading.bytes_done)
        for done_sid, entry in buffer.drain(sid):
            reading.ends[done_sid] = entry.end
            yield _jsonl_session(done_sid, entry)
    for done_sid, entry in buffer.rest():
        reading.ends[done_sid] = entry.end
        yield _jsonl_session(done_sid, entry)
