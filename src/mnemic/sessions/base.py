"""What every session store does the same way, whatever database holds the rows.

:class:`BaseSessionStore` implements the parts of the
:class:`~mnemic.sessions.store.SessionStore` protocol that are logic rather than storage:
validating new sessions and messages (:mod:`.rows`), merging metadata, the bulk-import
pipeline (batches, the segmentation worker), lineage walking, edge windows, title lookup,
statistics and pruning. A backend (:class:`~mnemic.sessions.sqlite.SQLiteSessionStore`,
:class:`~mnemic.backends.postgres.PostgresSessionStore`) supplies its SQL through the
small abstract methods below (each fetches or writes rows and nothing more), its own
transactions, and its search engine.
"""

from __future__ import annotations

import json
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Self

from ..errors import InvalidArgument, SessionNotFound
from .forgetting import ForgetResult, needles
from .index import FieldIndexer, SegmentWorker
from .query import Query
from .rows import (
    clean_title,
    load_object,
    message_from_row,
    session_from_row,
    session_values,
)
from .segment import Segmenter
from .store import (
    IMPORT_MODES,
    Hit,
    ImportResult,
    Message,
    NewMessage,
    NewSession,
    SearchFilters,
    SessionInfo,
    StoreStats,
)

__all__ = ["BaseSessionStore", "StatsRows"]

Batch = list[tuple[NewSession, Sequence[NewMessage]]]
"""Whole sessions of one import transaction."""
Imported = list[ImportResult]
"""What one batch did, per session."""
MetadataChanges = Callable[[str | None], list[tuple[str, Any]]]
"""From a session's stored metadata, the ``(column, value)`` pairs to write."""


class StatsRows(NamedTuple):
    """What a backend reads for :meth:`BaseSessionStore.stats`."""

    sessions: Sequence[Any]
    """``(count, oldest start, newest activity)`` of the sessions."""
    by_source: Sequence[Sequence[Any]]
    """``(source, sessions)``, most sessions first."""
    by_role: Sequence[Sequence[Any]]
    """``(role, messages, text bytes)``, most messages first."""
    db_bytes: int
    schema_version: int
    location: str


class BaseSessionStore(ABC):
    """The backend-neutral half of a session store (see the module docstring)."""

    segmenter: Segmenter
    segmenter_key: str
    tokenizer: str
    _fields: FieldIndexer
    _log: logging.Logger
    _index_name: str
    """How the index's log messages name the store."""
    _MARK: str
    """The SQL parameter placeholder of the backend (conditions built here use it)."""

    # --- the index -------------------------------------------------------------------
    def _check_index(self) -> None:
        """Rebuild the index when it was built with another segmenter or tokenizer."""
        rows = self._index_meta()
        want = {"segmenter": self.segmenter_key, "tokenizer": self.tokenizer}
        if all(rows.get(k) == v for k, v in want.items()):
            return
        self._log.warning(
            "%s was indexed with %s / %s; reindexing with %s / %s",
            self._index_name,
            rows.get("segmenter"),
            rows.get("tokenizer"),
            want["segmenter"],
            want["tokenizer"],
        )
        self.reindex()

    @abstractmethod
    def _index_meta(self) -> dict[str, str]:
        """The stored ``meta`` rows (segmenter and tokenizer of the index)."""

    @abstractmethod
    def reindex(self) -> int:
        """Rebuild the full-text index from the messages; return the number indexed."""

    # --- recording -------------------------------------------------------------------
    def start_session(self, session: NewSession | None = None, /, **fields: Any) -> str:
        """Create a session and return its id (``fields`` are :class:`NewSession` fields)."""
        spec = session if session is not None else NewSession(**fields)
        return self._insert_session(session_values(spec))

    @abstractmethod
    def _insert_session(self, values: tuple[Any, ...]) -> str:
        """Insert a :func:`~.rows.session_values` row; return its id
        (:class:`~mnemic.errors.SessionExists` if taken)."""

    def append_message(self, session_id: str, message: NewMessage) -> int:
        """Append one message durably; return its id."""
        return self.append_messages(session_id, [message])[0]

    @abstractmethod
    def append_messages(self, session_id: str, messages: Iterable[NewMessage]) -> list[int]:
        """Append messages in one transaction; return their ids."""

    def end_session(
        self, session_id: str, reason: str = "ended", *, ended_at: float | None = None
    ) -> None:
        """Mark a session ended with ``reason`` (e.g. ``user_exit``, ``compression``)."""
        self._end_session(session_id, reason, time.time() if ended_at is None else float(ended_at))

    @abstractmethod
    def _end_session(self, session_id: str, reason: str, when: float) -> None:
        """Set the end time and reason (and activity); :class:`SessionNotFound` if unknown."""

    def update_session(
        self,
        session_id: str,
        *,
        title: str | None = None,
        model: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        """Set the title or model, or merge ``metadata`` into the session's metadata."""

        def changes(stored: str | None) -> list[tuple[str, Any]]:
            out: list[tuple[str, Any]] = []
            if title is not None:
                out.append(("title", clean_title(title)))
            if model is not None:
                out.append(("model", model))
            if metadata:
                merged = load_object(stored)
                merged.update(metadata)
                out.append(("metadata", json.dumps(merged, ensure_ascii=False, default=str)))
            return out

        self._update_session(session_id, changes)

    @abstractmethod
    def _update_session(self, session_id: str, changes: MetadataChanges) -> None:
        """In one transaction: read the session's metadata (:class:`SessionNotFound` if
        there is no session), then set each column ``changes(metadata)`` names."""

    def import_sessions(
        self,
        items: Iterable[tuple[NewSession, Sequence[NewMessage]]],
        *,
        batch: int = 5000,
        workers: int | None = None,
        existing: str = "skip",
    ) -> Iterator[ImportResult]:
        """Bulk-insert sessions, committing about every ``batch`` messages.

        Yields an :class:`~.store.ImportResult` per session once committed. ``existing``
        (``skip``, ``merge`` or ``replace``) says what happens to a session id that
        exists; see :meth:`~.store.SessionStore.import_sessions`. Items are read lazily,
        so a generator keeps memory bounded; items of one id inside a batch are joined.
        When the input spans several batches, a worker process (``workers=0``: none)
        segments the next batch while this one is written. Afterwards the backend settles
        its index (SQLite merges it, so the appends that follow do not pay for merging
        the imported data piecemeal; PostgreSQL refreshes the planner's statistics).
        """
        if existing not in IMPORT_MODES:
            raise InvalidArgument(
                "existing", f"Unknown import mode {existing!r}; use one of {IMPORT_MODES}."
            )
        chunks = _chunks(items, max(1, batch))
        current = next(chunks, None)
        if current is None:
            return
        upcoming = next(chunks, None)
        worker = None
        if upcoming is not None and (workers is None or workers > 0):
            worker = SegmentWorker.start(self.segmenter)
        imported = 0
        replaced: set[str] = set()
        try:
            while current is not None:
                pending = None
                if worker is not None and upcoming is not None:
                    pending = worker.submit(m.content for _, msgs in upcoming for m in msgs)
                done = self._import_batch(current, existing, frozenset(replaced))
                self._fields.clear()
                for result in done:
                    imported += len(result.message_ids or ())
                    if result.status == "replaced":
                        replaced.add(result.session_id)
                yield from done
                if pending is not None:
                    result_set = pending()
                    if result_set is None:  # the worker died: segment in-process from now on
                        worker = None
                    else:
                        self._fields.preload(result_set)
                current, upcoming = upcoming, next(chunks, None)
        finally:
            self._fields.clear()
            if worker is not None:
                worker.close()
        if imported:
            self._settle_import(imported)

    @abstractmethod
    def _import_batch(self, items: Batch, existing: str, replaced: frozenset[str]) -> Imported:
        """Write one batch in one transaction (one item per session id): new sessions
        whole; a session that exists left alone (``skip``), given the messages it lacks
        (``merge``, and ``replace`` for ids in ``replaced``: replaced earlier in this
        import), or deleted and written anew (``replace``)."""

    @abstractmethod
    def _settle_import(self, imported: int) -> None:
        """After an import of ``imported`` messages: bring the index into shape."""

    # --- reading ---------------------------------------------------------------------
    def get_session(self, session_id: str) -> SessionInfo:
        """One session's metadata (:class:`SessionNotFound` if unknown)."""
        row = self._session_row(session_id)
        if row is None:
            raise SessionNotFound(session_id)
        return session_from_row(row)

    @abstractmethod
    def _session_row(self, session_id: str) -> Sequence[Any] | None:
        """The :data:`~.rows.SESSION_COLUMNS` of a session, or None."""

    @abstractmethod
    def has_session(self, session_id: str) -> bool:
        """Whether a session with this id exists."""

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
        """Sessions, most recent first; see :class:`~mnemic.sessions.store.SessionStore`."""
        where: list[str] = []
        params: list[Any] = []

        def add(clause: str, *values: Any) -> None:
            where.append(clause)
            params.extend(values)

        if sources is not None:
            add(*self._isin("source", sources))
        if exclude_sources:
            add(*self._isin("source", exclude_sources, negate=True))
        if exclude_sessions:
            add(*self._isin("id", exclude_sessions, negate=True))
        if roots_only:
            add("parent_id IS NULL")
        if before is not None:
            add(f"last_active < {self._MARK}", before)
        column = "started_at" if order == "started" else "last_active"
        rows = self._listed_rows(where, params, column, max(0, int(limit)), max(0, int(offset)))
        return [session_from_row(r) for r in rows]

    @staticmethod
    @abstractmethod
    def _isin(column: str, values: Sequence[str], negate: bool = False) -> tuple[Any, ...]:
        """``(condition, *parameters)``: ``column`` is (``negate``: is not) one of
        ``values``."""

    @abstractmethod
    def _listed_rows(
        self, where: list[str], params: list[Any], column: str, limit: int, offset: int
    ) -> list[Any]:
        """:data:`~.rows.SESSION_COLUMNS` rows of the sessions meeting every condition of
        ``where``, newest ``column`` first, one page."""

    def message(self, message_id: int) -> Message | None:
        """One message by id, or None."""
        row = self._message_row(int(message_id))
        return message_from_row(row[:-1], row[-1]) if row is not None else None

    @abstractmethod
    def _message_row(self, message_id: int) -> Sequence[Any] | None:
        """The :data:`~.rows.MESSAGE_COLUMNS` of a message followed by its session's id."""

    def edge_messages(
        self,
        session_id: str,
        *,
        before_seq: int | None = None,
        after_seq: int | None = None,
        count: int = 3,
        roles: Sequence[str] = ("user", "assistant"),
    ) -> list[Message]:
        """First ``count`` text messages before ``before_seq`` or last ones after
        ``after_seq`` (roles in ``roles``), in order."""
        if count <= 0 or (before_seq is None) == (after_seq is None):
            return []
        if before_seq is not None:
            rows = self._edge_rows(session_id, roles, before_seq, count, after=False)
        else:
            assert after_seq is not None
            rows = self._edge_rows(session_id, roles, after_seq, count, after=True)
            rows.reverse()
        return [message_from_row(r, session_id) for r in rows]

    @abstractmethod
    def _edge_rows(
        self, session_id: str, roles: Sequence[str], seq: int, count: int, *, after: bool
    ) -> list[Any]:
        """Up to ``count`` :data:`~.rows.MESSAGE_COLUMNS` rows of messages with text and a
        role in ``roles``: the first ones before ``seq`` in order, or (``after``) the last
        ones after ``seq``, newest first. :class:`SessionNotFound` if unknown."""

    def _root(self, session_id: str, cache: dict[str, str]) -> str:
        chain = [session_id]
        seen = {session_id}
        current = session_id
        while True:
            if current in cache:
                root = cache[current]
                break
            parent = self._parent(current)
            if parent is None or parent in seen or not self.has_session(parent):
                root = current
                break
            seen.add(parent)
            chain.append(parent)
            current = parent
        for sid in chain:
            cache[sid] = root
        return root

    @abstractmethod
    def _parent(self, session_id: str) -> str | None:
        """A session's ``parent_id`` (None: no parent, or no such session)."""

    def roots(self, session_ids: Iterable[str]) -> dict[str, str]:
        """Each session's lineage root (walking parent links, cycle-safe)."""
        cache: dict[str, str] = {}
        return {sid: self._root(sid, cache) for sid in session_ids}

    def lineage(self, session_id: str) -> list[str]:
        """The session, its ancestors up to the root and every descendant of the root."""
        ids = self._descendants(self._root(session_id, {}))
        if session_id not in ids:
            ids.append(session_id)
        return ids

    @abstractmethod
    def _descendants(self, root: str) -> list[str]:
        """``root`` and every session below it through parent links."""

    def find_title(self, title: str) -> SessionInfo | None:
        """The most recent session titled ``title`` (case-insensitive), or None."""
        cleaned = clean_title(title)
        if not cleaned:
            return None
        row = self._titled_row(cleaned)
        return session_from_row(row) if row is not None else None

    @abstractmethod
    def _titled_row(self, title: str) -> Sequence[Any] | None:
        """The :data:`~.rows.SESSION_COLUMNS` of the most recent session titled ``title``
        (the backend's case folding), or None."""

    def search(
        self, query: Query, filters: SearchFilters, *, limit: int = 50, sort: str = "rank"
    ) -> list[Hit]:
        """Ranked messages matching ``query`` within ``filters`` (``sort``: rank, newest,
        oldest); an empty query finds nothing."""
        if query.empty or limit <= 0:
            return []
        return self._search(query, filters, limit, sort)

    @abstractmethod
    def _search(self, query: Query, filters: SearchFilters, limit: int, sort: str) -> list[Hit]:
        """:meth:`search` with a query that has terms."""

    def stats(self) -> StoreStats:
        """Counts, sizes, sources and roles."""
        rows = self._stats_rows()
        return StoreStats(
            sessions=int(rows.sessions[0]),
            messages=sum(int(r[1]) for r in rows.by_role),
            text_bytes=sum(int(r[2]) for r in rows.by_role),
            db_bytes=rows.db_bytes,
            by_source={str(k): int(v) for k, v in rows.by_source},
            by_role={str(r[0]): int(r[1]) for r in rows.by_role},
            oldest=rows.sessions[1],
            newest=rows.sessions[2],
            schema_version=rows.schema_version,
            segmenter=self.segmenter_key,
            location=rows.location,
        )

    @abstractmethod
    def _stats_rows(self) -> StatsRows:
        """What :meth:`stats` reports, as read."""

    # --- removing --------------------------------------------------------------------
    @abstractmethod
    def delete_session(self, session_id: str) -> int:
        """Delete a session and its messages (index entries too); return messages removed."""

    def prune(self, older_than: float, *, dry_run: bool = False) -> list[str]:
        """Delete sessions last active before ``older_than`` (Unix time); return their ids.

        Each session is deleted in its own short transaction, so live writers are never
        held up for long. ``dry_run`` only lists them.
        """
        ids = self._inactive_since(float(older_than))
        if dry_run:
            return ids
        done = []
        for sid in ids:
            try:
                self.delete_session(sid)
            except SessionNotFound:
                continue
            done.append(sid)
        return done

    def forget(self, match: str, *, dry_run: bool = False) -> ForgetResult:
        """Delete every message that holds ``match`` in any column and rewrite every
        session column that holds it (ids included), with every derived copy (index
        entries, statistics); see :mod:`.forgetting`. ASCII letters match either case.
        ``dry_run`` only counts."""
        if not isinstance(match, str) or len(match.strip()) < 3:
            raise InvalidArgument(
                "match",
                "Give the text to forget (at least 3 characters); it is matched as a substring.",
            )
        return self._forget(needles(match), dry_run)

    @abstractmethod
    def _forget(self, forms: list[str], dry_run: bool) -> ForgetResult:
        """:meth:`forget` with the stored forms of the text (:func:`.forgetting.needles`)."""

    @abstractmethod
    def _inactive_since(self, when: float) -> list[str]:
        """Ids of the sessions last active before ``when``, least recent first."""

    @abstractmethod
    def close(self) -> None:
        """Release the store's connection."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _chunks(items: Iterable[tuple[NewSession, Sequence[NewMessage]]], size: int) -> Iterator[Batch]:
    """Batches of about ``size`` messages (whole items), items of one id joined."""
    chunk: dict[Any, tuple[NewSession, list[NewMessage]]] = {}
    count = 0
    for spec, messages in items:
        key: Any = spec.id or object()  # no id: a generated one, never joined
        found = chunk.get(key)
        if found is None:
            chunk[key] = (spec, list(messages))
        else:
            found[1].extend(messages)
        count += len(messages) + 1
        if count >= size:
            yield list(chunk.values())
            chunk, count = {}, 0
    if chunk:
        yield list(chunk.values())
