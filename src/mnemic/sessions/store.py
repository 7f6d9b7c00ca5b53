"""The session-history storage seam: value types and the :class:`SessionStore` protocol.

Everything above this module (search shapes, importers, the tool, the CLI) talks to a
``SessionStore``; :class:`~mnemic.sessions.sqlite.SQLiteSessionStore` is the embedded
implementation and a PostgreSQL backend implements the same protocol. Backends own their
SQL, transactions and full-text index; segmentation (:mod:`.segment`) and query parsing
(:mod:`.query`) are shared so both backends find the same messages.

Identifiers: a session has a text ``id`` (given by the caller, or a generated
``YYYYmmdd-HHMMSS-xxxxxx``); a message has an integer ``id`` unique in the store and a
``seq`` (0, 1, 2, ...) giving its order inside its session. Times are Unix seconds (float).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from ..tokens import estimate_tokens
from .index.query import Query

if TYPE_CHECKING:
    from .forgetting import ForgetResult

__all__ = [
    "ROLES",
    "IMPORT_MODES",
    "Hit",
    "ImportMark",
    "ImportResult",
    "Message",
    "MessagePreview",
    "NewMessage",
    "NewSession",
    "SearchFilters",
    "SessionInfo",
    "SessionStore",
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
        return out


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
    ``forgotten`` (its id was forgotten: ``mnemic forget --sessions``)."""
    forgotten: int = 0
    """Messages of the input left out because they were forgotten (their tombstones)."""


@dataclass(frozen=True, slots=True)
class ImportMark:
    """How far a file that only grows was imported (:mod:`mnemic.sessions.resume`)."""

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


@runtime_checkable
class SessionStore(Protocol):
    """What session history needs from a storage backend.

    Writes are atomic and safe against concurrent writers (other threads and processes);
    a backend retries contention internally and raises
    :class:`~mnemic.errors.SessionStoreBusy` only when its time limit is exhausted.
    Unknown session ids raise :class:`~mnemic.errors.SessionNotFound`.
    """

    location: str
    """Where the history lives (a file path, or a database and schema), for messages."""

    # --- recording -------------------------------------------------------------------
    def start_session(self, session: NewSession | None = None, /, **fields: Any) -> str:
        """Create a session; return its id. ``fields`` are :class:`NewSession` fields."""
        ...

    def append_message(self, session_id: str, message: NewMessage) -> int:
        """Append one message durably; return its id."""
        ...

    def append_messages(self, session_id: str, messages: Iterable[NewMessage]) -> list[int]:
        """Append several messages in one transaction; return their ids."""
        ...

    def end_session(
        self, session_id: str, reason: str = "ended", *, ended_at: float | None = None
    ) -> None:
        """Mark a session ended (``reason``: e.g. ``user_exit``, ``compression``)."""
        ...

    def update_session(
        self,
        session_id: str,
        *,
        title: str | None = None,
        model: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        """Set the title, model or (merged) metadata of a session."""
        ...

    def import_sessions(
        self,
        items: Iterable[tuple[NewSession, Sequence[NewMessage]]],
        *,
        batch: int = 5000,
        workers: int | None = None,
        existing: str = "skip",
    ) -> Iterator[ImportResult]:
        """Bulk-insert sessions, committing about every ``batch`` messages; yield an
        :class:`ImportResult` per session as committed.

        ``existing`` (one of :data:`IMPORT_MODES`) says what happens to a session id that
        already exists: ``skip`` leaves it alone; ``merge`` appends the messages whose
        ``source_id`` it does not hold yet; ``replace`` deletes it in the same transaction
        that writes the new copy (a later item with the same id in the same call is then
        merged into that copy). Every session is written whole in one transaction."""
        ...

    # --- reading ---------------------------------------------------------------------
    def get_session(self, session_id: str) -> SessionInfo:
        """One session's metadata."""
        ...

    def has_session(self, session_id: str) -> bool:
        """Whether a session exists."""
        ...

    def list_sessions(
        self,
        *,
        limit: int = 20,
        offset: int = 0,
        sources: Sequence[str] | None = None,
        exclude_sources: Sequence[str] = (),
        exclude_sessions: Sequence[str] = (),
        roots_only: bool = False,
        order: str = "last_active",
        before: float | None = None,
    ) -> list[SessionInfo]:
        """Sessions, most recent first (``order``: ``last_active`` or ``started``).
        ``before`` keeps sessions last active before that time."""
        ...

    def messages(
        self, session_id: str, *, start: int = 0, stop: int | None = None
    ) -> list[Message]:
        """Messages with ``start <= seq < stop`` in order."""
        ...

    def message_previews(
        self, session_id: str, *, start: int = 0, stop: int | None = None, max_chars: int
    ) -> list[MessagePreview]:
        """:meth:`messages`, each read with at most ``max_chars`` characters of content
        (and its tool calls only when their text fits too): a message of any size costs
        the caller no more than that."""
        ...

    def message(self, message_id: int) -> Message | None:
        """One message by id."""
        ...

    def messages_by_id(self, message_ids: Iterable[int]) -> dict[int, Message]:
        """The messages of ``message_ids`` that exist, by id, in one read."""
        ...

    def edge_messages(
        self,
        session_id: str,
        *,
        before_seq: int | None = None,
        after_seq: int | None = None,
        count: int = 3,
        roles: Sequence[str] = ("user", "assistant"),
    ) -> list[Message]:
        """The first ``count`` messages with text and a role in ``roles`` before seq
        ``before_seq`` (from the start), or the last ``count`` after ``after_seq``."""
        ...

    def get_sessions(self, session_ids: Iterable[str]) -> dict[str, SessionInfo]:
        """The sessions of ``session_ids`` that exist, by id, in one read (unknown ids
        are absent, not an error)."""
        ...

    def windows(self, spans: Sequence[Span]) -> list[list[Message]]:
        """For each :data:`Span`: :meth:`messages` of that range (empty for an unknown
        session), all in one read."""
        ...

    def bookends(
        self,
        spans: Sequence[Span],
        *,
        count: int = 2,
        roles: Sequence[str] = ("user", "assistant"),
    ) -> list[tuple[list[Message], list[Message]]]:
        """For each :data:`Span` ``(session_id, start, stop)``: the first ``count``
        messages with text and a role in ``roles`` before ``start``, and the last
        ``count`` from ``stop`` on, each in order; all in one read (what a search result
        shows around its window)."""
        ...

    def shown(
        self,
        spans: Sequence[Span],
        *,
        count: int = 2,
        roles: Sequence[str] = ("user", "assistant"),
    ) -> Shown:
        """:meth:`get_sessions`, :meth:`windows` and :meth:`bookends` of ``spans`` at
        once (one round trip to a database server)."""
        ...

    def lineage(self, session_id: str) -> list[str]:
        """Ids of every session linked to this one through parent links (itself included):
        its ancestors up to the root and all the root's descendants."""
        ...

    def roots(self, session_ids: Iterable[str]) -> dict[str, str]:
        """Each session's lineage root (the ancestor without a parent), in one read."""
        ...

    def find_title(self, title: str) -> SessionInfo | None:
        """The most recent session whose title equals ``title`` (case-insensitive)."""
        ...

    def search(
        self, query: Query, filters: SearchFilters, *, limit: int = 50, sort: str = "rank"
    ) -> list[Hit]:
        """Ranked messages matching ``query`` (``sort``: rank, newest, oldest)."""
        ...

    def stats(self) -> StoreStats:
        """Counts and sizes."""
        ...

    # --- removing --------------------------------------------------------------------
    def delete_session(self, session_id: str) -> int:
        """Delete a session and its messages; return the number of messages removed."""
        ...

    def prune(self, older_than: float, *, dry_run: bool = False) -> list[str]:
        """Delete (or list) sessions whose last activity is before ``older_than``."""
        ...

    def forget(self, match: str, *, dry_run: bool = False) -> ForgetResult:
        """Delete every message holding ``match`` (any column) and rewrite every session
        column holding it, derived copies included (see :mod:`.forgetting`), leaving
        tombstones so that an import of the same input leaves them out."""
        ...

    def tombstones(self) -> list[tuple[str, str]]:
        """The tombstones :meth:`forget` left, as hashes (for a copy of the history)."""
        ...

    def keep_tombstones(self, rows: Iterable[tuple[str, str]]) -> None:
        """Add the :meth:`tombstones` of another store (a copy of the history)."""
        ...

    # --- import marks ------------------------------------------------------------------
    def import_mark(self, session_id: str, source: str) -> ImportMark | None:
        """The :class:`ImportMark` of ``source`` (a file's path) for ``session_id`` (None:
        none yet). Deleting the session deletes its marks."""
        ...

    def save_import_mark(self, session_id: str, source: str, mark: ImportMark) -> None:
        """Save the mark of ``source`` for ``session_id``, replacing the one before."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...

    def __enter__(self) -> SessionStore:
        """Use as a context manager: :meth:`close` at the end."""
        ...

    def __exit__(self, *exc: object) -> None: ...
