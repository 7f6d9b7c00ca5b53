"""The value types of the session history: what goes into a session store and comes out.

The store itself is one class, :class:`~mnemic.sessions.sql.store.SqlSessionStore`
(known as ``SessionStore``), with a subclass per database
(:class:`~mnemic.backends.files.sqlite.SQLiteSessionStore` embedded,
:class:`~mnemic.backends.postgres.PostgresSessionStore`); segmentation and query parsing
(:mod:`.index`) are shared so both backends find the same messages.

Identifiers: a session has a text ``id`` (given by the caller, or a generated
``YYYYmmdd-HHMMSS-xxxxxx``); a message has an integer ``id`` unique in the store and a
``seq`` (0, 1, 2, ...) giving its order inside its session. Times are Unix seconds (float).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..tokens import estimate_tokens

__all__ = [
    "ROLES",
    "IMPORT_MODES",
    "Attachment",
    "ForgetResult",
    "Hit",
    "ImportMark",
    "ImportResult",
    "Message",
    "MessagePreview",
    "NewMessage",
    "NewSession",
    "SearchFilters",
    "SessionInfo",
    "Shown",
    "Span",
    "StoreStats",
    "estimate_tokens",
    "new_session_id",
]

ROLES = ("system", "user", "assistant", "tool")
"""Message roles (OpenAI chat roles; ``developer`` is stored as ``system``)."""


def new_session_id(now: float | None = None) -> str:
    """A fresh, sortable session id: ``20260517-232811-3f9a1c``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
    return f"{stamp}-{os.urandom(3).hex()}"


def _tool_call_count(tool_calls: Sequence[Mapping[str, Any]] | None) -> int:
    return len(tool_calls) if tool_calls else 0


@dataclass(frozen=True, slots=True)
class NewSession:
    """A session to create (``id`` generated when empty)."""

    id: str = ""
    source: str = "cli"
    title: str | None = None
    model: str | None = None
    parent_id: str | None = None
    started_at: float | None = None
    metadata: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file a message holds (an image, a document): its bytes are kept once in the
    home's attachment store (:mod:`mnemic.sessions.attachments`) under ``sha256``; the
    session store keeps this link beside the message."""

    sha256: str
    """SHA-256 of the bytes (64 lowercase hex digits): where the store keeps them."""
    name: str
    """The file name the source gave (or one made from the hash and the media type)."""
    media_type: str
    """``image/png``, ``application/pdf``, ...; ``application/octet-stream`` if unknown."""
    size: int
    """Bytes."""
    caption: str | None = None
    """The caption or alt text the source gave, if any."""

    @property
    def is_image(self) -> bool:
        """Whether the bytes are an image (shown inline by the console)."""
        return self.media_type.startswith("image/")

    def placeholder(self) -> str:
        """What the message text says in its place: ``[image: cat.png — a cat]``."""
        kind = "image" if self.is_image else "file"
        caption = f" — {self.caption}" if self.caption else ""
        return f"[{kind}: {self.name}{caption}]"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        out: dict[str, Any] = {
            "sha256": self.sha256,
            "name": self.name,
            "media_type": self.media_type,
            "size": self.size,
        }
        if self.caption:
            out["caption"] = self.caption
        return out


@dataclass(frozen=True, slots=True)
class NewMessage:
    """A message to append. ``timestamp`` defaults to now, ``token_estimate`` to a guess."""

    role: str
    content: str | None = None
    tool_name: str | None = None
    tool_calls: Sequence[Mapping[str, Any]] | None = None
    tool_call_id: str | None = None
    timestamp: float | None = None
    token_estimate: int | None = None
    name: str | None = None
    """Participant name (OpenAI ``name``), e.g. a speaker in a group chat."""
    source_id: str | None = None
    """The message's key in the source it was imported from (a Claude Code line's
    ``uuid``, a JSONL ``message_id``, or a position-and-content key): an import adds a
    message to a known session only when its session holds no message with this key."""
    is_error: bool | None = None
    """For a tool message: whether the source flagged the result as a failure (Claude
    Code's ``is_error``); None when the source says nothing."""
    attachments: tuple[Attachment, ...] = ()
    """The files the message holds, already in the home's attachment store; the text
    keeps each one's :meth:`Attachment.placeholder`."""

    @property
    def tool_call_count(self) -> int:
        """How many tool calls this message makes."""
        return _tool_call_count(self.tool_calls)

    def tool_calls_json(self) -> str | None:
        """``tool_calls`` as stored (JSON text) or None."""
        if not self.tool_calls:
            return None
        return json.dumps(list(self.tool_calls), ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A stored session's metadata and counters."""

    id: str
    source: str
    title: str | None
    started_at: float
    ended_at: float | None
    end_reason: str | None
    parent_id: str | None
    model: str | None
    message_count: int
    tool_call_count: int
    token_count: int
    last_active: float
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "id": self.id,
            "source": self.source,
            "title": self.title,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "end_reason": self.end_reason,
            "parent_id": self.parent_id,
            "model": self.model,
            "message_count": self.message_count,
            "tool_call_count": self.tool_call_count,
            "token_count": self.token_count,
            "last_active": self.last_active,
            "metadata": self.metadata,
        }


@dataclass(frozen=True, slots=True)
class Message:
    """A stored message."""

    id: int
    session_id: str
    seq: int
    role: str
    content: str | None
    timestamp: float
    tool_name: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    token_estimate: int = 0
    name: str | None = None
    is_error: bool | None = None
    """For a tool message: the source's failure flag (None: not given)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (optional fields only when set)."""
        out: dict[str, Any] = {
            "id": self.id,
            "seq": self.seq,
            "role": self.role,
            "content": self.content,
            "timestamp": self.timestamp,
        }
        if self.name:
            out["name"] = self.name
        if self.tool_name:
            out["tool_name"] = self.tool_name
        if self.tool_calls:
            out["tool_calls"] = self.tool_calls
        if self.tool_call_id:
            out["tool_call_id"] = self.tool_call_id
        if self.is_error is not None:
            out["is_error"] = self.is_error
        return out

    def to_new(
        self, *, source_id: str | None = None, attachments: Sequence[Attachment] = ()
    ) -> NewMessage:
        """This message as one to write again (a copy, a rewritten session), with its
        import key and the files it holds (the store keeps both apart from it)."""
        return NewMessage(
            self.role,
            self.content,
            tool_name=self.tool_name,
            tool_calls=self.tool_calls,
            tool_call_id=self.tool_call_id,
            timestamp=self.timestamp,
            token_estimate=self.token_estimate,
            name=self.name,
            source_id=source_id,
            is_error=self.is_error,
            attachments=tuple(attachments),
        )


@dataclass(frozen=True, slots=True)
class MessagePreview:
    """A message read with a bound (:meth:`SessionStore.message_previews`): its content
    cut, its tool calls left out when their text is longer than the bound."""

    message: Message
    content_chars: int
    """Characters of the whole content (``message.content`` holds at most the bound)."""
    calls_chars: int
    """Characters of the tool calls' JSON text (``message.tool_calls`` is None when this
    is over the bound)."""


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Restrictions applied inside the search (so ranking limits count only eligible hits).

    Times are Unix seconds on the message timestamp; ``None`` means no restriction.
    """

    roles: tuple[str, ...] | None = None
    sources: tuple[str, ...] | None = None
    exclude_sources: tuple[str, ...] = ()
    exclude_sessions: tuple[str, ...] = ()
    sessions: tuple[str, ...] | None = None
    since: float | None = None
    until: float | None = None


Span = tuple[str, int, int]
"""``(session_id, start, stop)``: the messages of a session with ``start <= seq < stop``."""


class Shown(NamedTuple):
    """What search results show of their sessions, read together (:meth:`SessionStore.shown`)."""

    sessions: dict[str, SessionInfo]
    """The sessions that exist, by id."""
    windows: list[list[Message]]
    """Per span, :meth:`SessionStore.windows`."""
    bookends: list[tuple[list[Message], list[Message]]]
    """Per span, :meth:`SessionStore.bookends`."""


IMPORT_MODES = ("skip", "merge", "replace")
"""What :meth:`SessionStore.import_sessions` does with a session id that exists: leave
it alone, add the messages it lacks (by ``source_id``), or replace it whole."""


class ImportResult(NamedTuple):
    """One session of a bulk import, as committed."""

    session_id: str
    message_ids: list[int] | None
    """Ids of the messages added (``None``: the session was left alone)."""
    status: str
    """``created``, ``replaced``, ``extended`` (new messages added to a known session),
    ``unchanged`` (known session, nothing new), ``skipped`` (known, left alone) or
    ``forgotten`` (its id was forgotten: ``mnemic forget --text``)."""
    forgotten: int = 0
    """Messages of the input left out because they were forgotten (their tombstones)."""


@dataclass(frozen=True, slots=True)
class ImportMark:
    """How far a file that only grows was imported (:mod:`mnemic.sessions.importing.resume`)."""

    offset: int
    """Bytes of the file imported: every line before it is committed."""
    check: str
    """A hash of the bytes that tell whether the file up to ``offset`` is unchanged."""
    lines: int = 0
    """Lines before ``offset`` (so places in a report keep their line numbers)."""
    positions: Mapping[str, int] = field(default_factory=dict)
    """Messages read per session so far (keys: hashed session ids), for the position
    keys of messages without an id of their own."""


class Hit(NamedTuple):
    """One ranked message of a search (lower ``score`` is better, like SQLite's bm25).

    A named tuple: searches build thousands of them."""

    message_id: int
    session_id: str
    seq: int
    role: str
    timestamp: float
    source: str
    score: float
    session_messages: int
    """Messages in the hit's session (so neighbours can be bounded)."""


@dataclass(frozen=True, slots=True)
class StoreStats:
    """Sizes and counts of a store."""

    sessions: int
    messages: int
    text_bytes: int
    db_bytes: int
    by_source: dict[str, int]
    by_role: dict[str, int]
    oldest: float | None
    newest: float | None
    schema_version: int
    segmenter: str
    location: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "sessions": self.sessions,
            "messages": self.messages,
            "text_bytes": self.text_bytes,
            "db_bytes": self.db_bytes,
            "bytes_per_text_byte": round(self.db_bytes / self.text_bytes, 3)
            if self.text_bytes
            else None,
            "by_source": self.by_source,
            "by_role": self.by_role,
            "oldest": self.oldest,
            "newest": self.newest,
            "schema_version": self.schema_version,
            "segmenter": self.segmenter,
            "location": self.location,
        }


class ForgetResult(NamedTuple):
    """What :meth:`~mnemic.sessions.sql.store.SqlSessionStore.forget` did (or would do)."""

    messages: int
    """Messages deleted."""
    sessions: int
    """Sessions that lost messages or had a column rewritten."""
    renamed: int
    """Sessions whose id held the text and now have a new one."""
    notes: tuple[str, ...] = ()
    """What the backend could not guarantee (a copy it cannot reach yet)."""
    attachments: tuple[str, ...] = ()
    """Hashes of the attachments the deleted messages held (their links went with them;
    the bytes no remaining link uses are the caller's to delete, after this commit)."""
