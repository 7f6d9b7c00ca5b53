"""The session store: one class over SQL, every operation written once.

:class:`SqlSessionStore` (also known as :data:`SessionStore`, the type every part of
mnemic holds a session store as) is the whole session history over the tables and dialect
of :mod:`.tables`: creating sessions and appending messages (validated by :mod:`.rows`),
merging metadata, bulk imports and forgetting (:mod:`.writes`), the batched reads of
search results (:mod:`.reads`), tombstones and import marks (:mod:`.marks`), lineage
walking, edge windows, title lookup, statistics and pruning; its vectors are a component
(:attr:`SqlSessionStore.vectors`, :mod:`.vectors`).

A backend is a subclass that passes its :class:`~.tables.Dialect` and supplies the
:class:`~.tables.Engine` members (its connection and transactions, how rows go in, its
full-text index): :class:`~mnemic.backends.files.sqlite.SQLiteSessionStore` (WAL, FTS5
fed by triggers) and :class:`~mnemic.backends.postgres.PostgresSessionStore` (a pool, row
locks, ``tsvector`` columns written with the rows).
"""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Self

from ...errors import InvalidArgument, SessionExists, SessionNotFound
from ..forgetting import needles
from ..index.fields import FieldIndexer
from ..index.query import Query
from ..index.segment import Segmenter
from ..store import (
    IMPORT_MODES,
    Attachment,
    ForgetResult,
    Hit,
    ImportMark,
    ImportResult,
    Message,
    MessagePreview,
    NewMessage,
    NewSession,
    SearchFilters,
    SessionInfo,
    Shown,
    Span,
    StoreStats,
)
from . import marks
from .attachments import AttachmentLink, find_links, insert_links, links_of, used_hashes
from .reads import (
    bookends,
    flagged_failures,
    message_keys,
    message_previews,
    messages_by_id,
    parent_links,
    roles_at,
    sessions_by_id,
    shown,
    speakers_at,
    walk_roots,
    windows,
)
from .rows import (
    MESSAGE_COLUMNS,
    SESSION_COLUMNS,
    clean_title,
    load_object,
    message_from_row,
    session_from_row,
    session_values,
)
from .tables import (
    Counters,
    Cursor,
    Dialect,
    Engine,
    bump,
    create_session,
    lock_session_messages,
    message_rows,
    next_seq,
    sid_of,
)
from .vectors import SqlVectors
from .words import SqlWords
from .writes import forget_rows, import_stream

__all__ = ["SessionStore", "SqlSessionStore"]

log = logging.getLogger(__name__)

_SID = "(SELECT sid FROM {s}.sessions WHERE id = ?)"
FORMS_KEPT = 64
"""Searched queries whose other forms a store remembers for showing results (:meth:`~
SqlSessionStore.forms_of`)."""


class SqlSessionStore(Engine[Any]):
    """The session history in one SQL database (see the module docstring).

    Writes are atomic and safe against concurrent writers (other threads and processes);
    a backend retries contention internally and raises
    :class:`~mnemic.errors.SessionStoreBusy` only when its time limit is exhausted.
    Unknown session ids raise :class:`~mnemic.errors.SessionNotFound`. Use as a context
    manager or call :meth:`close`.
    """

    _INDEXED: tuple[str, str] | None = None

    def __init__(
        self,
        dialect: Dialect,
        location: str,
        *,
        timeout: float,
        segmenter: Segmenter,
        tokenizer: str,
        weights: tuple[float, float],
    ) -> None:
        self.dialect = dialect
        self.location = location
        self.timeout = timeout
        self.segmenter = segmenter
        self.segmenter_key = f"{segmenter.id}/{segmenter.version}"
        self.tokenizer = tokenizer
        self.weights = weights
        self._fields = FieldIndexer(segmenter)
        self.vectors: SqlVectors | None = SqlVectors(self)
        """The message vectors beside the text (None: this store keeps none)."""
        self.words: SqlWords | None = None
        """The chat's words and their vectors (None: this store keeps none; SQLite's
        and PostgreSQL's, :mod:`.words`)."""
        self._forms: dict[Query, Query] = {}
        """The latest searches' queries with the other forms they matched (:meth:`forms_of`)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- statements in the shared spelling --------------------------------------------
    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read statement in the shared spelling."""
        return self._fetch(self.dialect.sql(sql), params)

    def _read_many(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """The rows of several read statements (shared spelling), in order."""
        return [self._read(sql, params) for sql, params in statements]

    def _run(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """One statement in the shared spelling, inside a transaction."""
        result: Cursor = conn.execute(self.dialect.sql(sql), params)
        return result

    # --- the index -------------------------------------------------------------------
    def _index_meta(self) -> dict[str, str]:
        """The stored ``meta`` rows (segmenter and tokenizer of the index)."""
        return {str(k): str(v) for k, v in self._read("SELECT key, value FROM {s}.meta")}

    def _check_index(self) -> None:
        """Rebuild the index when it was built with another segmenter or tokenizer."""
        rows = self._index_meta()
        want = {"segmenter": self.segmenter_key, "tokenizer": self.tokenizer}
        if all(rows.get(k) == v for k, v in want.items()):
            return
        log.warning(
            "%s was indexed with %s / %s; reindexing with %s / %s",
            self.location,
            rows.get("segmenter"),
            rows.get("tokenizer"),
            want["segmenter"],
            want["tokenizer"],
        )
        self.reindex()

    # --- recording -------------------------------------------------------------------
    def start_session(self, session: NewSession | None = None, /, **fields: Any) -> str:
        """Create a session and return its id (``fields`` are :class:`NewSession` fields)."""
        values = session_values(session if session is not None else NewSession(**fields))

        def insert(conn: Any) -> str:
            if create_session(self, conn, values, Counters(0, 0, 0), values[6]) is None:
                raise SessionExists(str(values[0]))
            return str(values[0])

        return self._write(insert)

    def append_message(self, session_id: str, message: NewMessage) -> int:
        """Append one message durably; return its id."""
        return self.append_messages(session_id, [message])[0]

    def append_messages(self, session_id: str, messages: Iterable[NewMessage]) -> list[int]:
        """Append messages after the session's last, in one transaction; return their ids."""
        batch = list(messages)
        if not batch:
            return []
        rows, counts, last = message_rows(self, batch, time.time())

        def append(conn: Any) -> list[int]:
            sid = sid_of(self, conn, session_id, lock=True)
            first = next_seq(self, conn, sid)
            ids = self._insert_messages(conn, [(sid, first + i, *r) for i, r in enumerate(rows)])
            insert_links(self, conn, ids, batch)
            bump(self, conn, sid, counts, last)
            self._index_appended(conn)
            return ids

        return self._write(append)

    def end_session(
        self, session_id: str, reason: str = "ended", *, ended_at: float | None = None
    ) -> None:
        """Mark a session ended with ``reason`` (e.g. ``user_exit``, ``compression``)."""
        when = time.time() if ended_at is None else float(ended_at)

        def end(conn: Any) -> None:
            cur = self._run(
                conn,
                "UPDATE {s}.sessions SET ended_at = ?, end_reason = ?, "
                "last_active = GREATEST(last_active, ?) WHERE id = ?",
                (when, reason, when, session_id),
            )
            if cur.rowcount == 0:
                raise SessionNotFound(session_id)

        self._write(end)

    def update_session(
        self,
        session_id: str,
        *,
        title: str | None = None,
        model: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        """Set the title or model, or merge ``metadata`` into the session's metadata."""
        changes: list[tuple[str, Any]] = []
        if title is not None:
            changes.append(("title", clean_title(title)))
        if model is not None:
            changes.append(("model", model))

        def update(conn: Any) -> None:
            sql = "SELECT metadata FROM {s}.sessions WHERE id = ? FOR UPDATE"
            row = self._run(conn, sql, (session_id,)).fetchone()
            if row is None:
                raise SessionNotFound(session_id)
            merged = [("metadata", _merged(row[0], metadata))] if metadata else []
            for column, value in [*changes, *merged]:
                self._run(
                    conn,
                    f"UPDATE {{s}}.sessions SET {column} = ? WHERE id = ?",
                    (value, session_id),
                )

        self._write(update)

    def import_sessions(
        self,
        items: Iterable[tuple[NewSession, Sequence[NewMessage]]],
        *,
        batch: int = 5000,
        workers: int | None = None,
        existing: str = "skip",
    ) -> Iterator[ImportResult]:
        """Bulk-insert sessions, committing about every ``batch`` messages.

        Yields an :class:`~..store.ImportResult` per session once committed. ``existing``
        (one of :data:`~..store.IMPORT_MODES`) says what happens to a session id that
        already exists: ``skip`` leaves it alone; ``merge`` appends the messages whose
        ``source_id`` it does not hold yet; ``replace`` deletes it in the same transaction
        that writes the new copy (a later item with the same id in the same call is then
        merged into that copy). Every session is written whole in one transaction.
        Items are read lazily, so a generator keeps memory bounded; items of one id
        inside a batch are joined.
        When the input spans several batches, a worker process (``workers=0``: none)
        computes the next batch's full-text columns while this one is written.
        Afterwards the backend settles its index (SQLite merges it, so the appends that
        follow do not pay for merging the imported data piecemeal; PostgreSQL refreshes
        the planner's statistics).
        """
        if existing not in IMPORT_MODES:
            raise InvalidArgument(
                "existing", f"Unknown import mode {existing!r}; use one of {IMPORT_MODES}."
            )
        yield from import_stream(self, items, batch=batch, workers=workers, existing=existing)

    # --- reading ---------------------------------------------------------------------
    def get_session(self, session_id: str) -> SessionInfo:
        """One session's metadata (:class:`SessionNotFound` if unknown)."""
        rows = self._read(
            f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions WHERE id = ?", (session_id,)
        )
        if not rows:
            raise SessionNotFound(session_id)
        return session_from_row(rows[0])

    def has_session(self, session_id: str) -> bool:
        """Whether a session with this id exists."""
        return bool(self._read("SELECT 1 FROM {s}.sessions WHERE id = ?", (session_id,)))

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
        """Sessions, most recent first (``order``: ``last_active`` or ``started``);
        ``before`` keeps sessions last active before that time."""
        conditions = []
        if sources is not None:
            conditions.append(self.dialect.isin("source", sources))
        if exclude_sources:
            conditions.append(self.dialect.isin("source", exclude_sources, negate=True))
        if exclude_sessions:
            conditions.append(self.dialect.isin("id", exclude_sessions, negate=True))
        if roots_only:
            conditions.append(("parent_id IS NULL", []))
        if before is not None:
            conditions.append(("last_active < ?", [before]))
        column = "started_at" if order == "started" else "last_active"
        sql = f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions"
        if conditions:
            sql += " WHERE " + " AND ".join(c for c, _ in conditions)
        sql += f" ORDER BY {column} DESC, sid DESC LIMIT ? OFFSET ?"
        params = [p for _, ps in conditions for p in ps]
        rows = self._read(sql, [*params, max(0, int(limit)), max(0, int(offset))])
        return [session_from_row(r) for r in rows]

    def count_sessions(self, *, sources: Sequence[str] | None = None) -> int:
        """How many sessions :meth:`list_sessions` with these ``sources`` could list (a
        listing's total: "20 of 500")."""
        sql = "SELECT COUNT(*) FROM {s}.sessions"
        params: list[Any] = []
        if sources is not None:
            condition, params = self.dialect.isin("source", sources)
            sql += " WHERE " + condition
        return int(self._read(sql, params)[0][0])

    def source_counts(self) -> dict[str, int]:
        """How many sessions each source holds (sessions only: no message is read)."""
        rows = self._read("SELECT source, COUNT(*) FROM {s}.sessions GROUP BY source")
        return {str(k): int(v) for k, v in rows}

    def sessions_near(self, when: float, *, later: bool, limit: int = 4) -> list[SessionInfo]:
        """The ``limit`` sessions nearest ``when`` on one side: active after it (``later``;
        earliest started first) or last active before it (latest first)."""
        if later:
            sql = "WHERE last_active > ? ORDER BY started_at, sid"
        else:
            sql = "WHERE last_active < ? ORDER BY last_active DESC, sid DESC"
        rows = self._read(
            f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions {sql} LIMIT ?",
            (when, max(0, int(limit))),
        )
        return [session_from_row(r) for r in rows]

    def messages(
        self, session_id: str, *, start: int = 0, stop: int | None = None
    ) -> list[Message]:
        """Messages of a session with ``start <= seq < stop``, in order."""
        top = self.dialect.seq_limit
        rows = self._read(
            f"SELECT {MESSAGE_COLUMNS} FROM {{s}}.messages m WHERE m.sid = {_SID} "
            "AND m.seq >= ? AND m.seq < ? ORDER BY m.seq",
            (session_id, max(0, start), top if stop is None else min(stop, top)),
        )
        if not rows and not self.has_session(session_id):
            raise SessionNotFound(session_id)
        return [message_from_row(r, session_id) for r in rows]

    def message_previews(
        self, session_id: str, *, start: int = 0, stop: int | None = None, max_chars: int
    ) -> list[MessagePreview]:
        """Messages with ``start <= seq < stop``, each cut to ``max_chars`` (one read)."""
        top = self.dialect.seq_limit
        found = message_previews(
            self, session_id, max(0, start), top if stop is None else min(stop, top), max_chars
        )
        if not found and not self.has_session(session_id):
            raise SessionNotFound(session_id)
        return found

    def message(self, message_id: int) -> Message | None:
        """One message by id, or None."""
        rows = self._read(
            f"SELECT {MESSAGE_COLUMNS}, s.id FROM {{s}}.messages m "
            "JOIN {s}.sessions s ON s.sid = m.sid WHERE m.id = ?",
            (int(message_id),),
        )
        return message_from_row(rows[0][:-1], rows[0][-1]) if rows else None

    def messages_by_id(self, message_ids: Iterable[int]) -> dict[int, Message]:
        """The messages of ``message_ids`` that exist, by id (one read)."""
        return messages_by_id(self, message_ids)

    # --- attachments -----------------------------------------------------------------
    def _has_attachments(self) -> bool:
        """Whether the database has the ``message_attachments`` table (an older file
        read as it is has none)."""
        return True

    def attachments(self, message_ids: Iterable[int]) -> dict[int, list[Attachment]]:
        """The attachments of each of ``message_ids`` that has any (one read per few
        hundred ids), in the order their message gave them."""
        return links_of(self, message_ids) if self._has_attachments() else {}

    def find_attachments(
        self, *, session_id: str | None = None, query: str | None = None, limit: int = 100
    ) -> list[AttachmentLink]:
        """Attachments with the message holding each, newest first: of one session
        and/or whose name, media type or caption holds ``query`` (ASCII case folded)."""
        if session_id is not None and not self.has_session(session_id):
            raise SessionNotFound(session_id)
        if not self._has_attachments():
            return []
        return find_links(self, session_id=session_id, query=query, limit=limit)

    def attachment_hashes(self) -> set[str]:
        """The hash of every attachment a message still holds (what a collection of the
        attachment store keeps)."""
        return used_hashes(self) if self._has_attachments() else set()

    def message_keys(self, message_ids: Iterable[int]) -> dict[int, str | None]:
        """The import key (``source_id``: a transcript line's uuid, a JSONL
        ``message_id``, a LoCoMo dia id) of each of ``message_ids`` that exists (one read)."""
        return message_keys(self, message_ids)

    def roles_at(self, positions: Sequence[tuple[str, int]]) -> list[str | None]:
        """The role of the message at each ``(session_id, seq)``, None where there is
        none (one read of the roles alone)."""
        return roles_at(self, positions)

    def speakers_at(
        self, positions: Sequence[tuple[str, int]]
    ) -> list[tuple[str, str | None] | None]:
        """``(role, name)`` of the message at each ``(session_id, seq)``, None where
        there is none (one read of the roles and names alone)."""
        return speakers_at(self, positions)

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
        role_is, role_params = self.dialect.isin("m.role", roles)
        base = (
            f"SELECT {MESSAGE_COLUMNS} FROM {{s}}.messages m WHERE m.sid = {_SID} AND "
            f"{role_is} AND m.content IS NOT NULL AND m.content != '' "
        )
        if after_seq is not None:
            sql = base + "AND m.seq > ? ORDER BY m.seq DESC LIMIT ?"
            seq = after_seq
        else:
            assert before_seq is not None
            sql = base + "AND m.seq < ? ORDER BY m.seq LIMIT ?"
            seq = min(before_seq, self.dialect.seq_limit)
        rows = self._read(sql, (session_id, *role_params, seq, count))
        if not rows and not self.has_session(session_id):
            raise SessionNotFound(session_id)
        if after_seq is not None:
            rows.reverse()
        return [message_from_row(r, session_id) for r in rows]

    def get_sessions(self, session_ids: Iterable[str]) -> dict[str, SessionInfo]:
        """The sessions of ``session_ids`` that exist, by id (one read)."""
        return sessions_by_id(self, session_ids)

    def windows(self, spans: Sequence[Span]) -> list[list[Message]]:
        """For each ``(session_id, start, stop)``: its messages in that range (one read)."""
        return windows(self, spans)

    def flagged_failures(self, filters: SearchFilters, *, limit: int) -> list[tuple[str, int]]:
        """``(session id, seq)`` of the newest messages within ``filters`` their source
        flagged failed (a tool result's ``is_error``), newest first."""
        return flagged_failures(self, filters, limit)

    def bookends(
        self,
        spans: Sequence[Span],
        *,
        count: int = 2,
        roles: Sequence[str] = ("user", "assistant"),
    ) -> list[tuple[list[Message], list[Message]]]:
        """First ``count`` text messages before each span and last ``count`` after it
        (one read): what a search result shows around its window."""
        return bookends(self, spans, count=count, roles=roles)

    def shown(
        self,
        spans: Sequence[Span],
        *,
        count: int = 2,
        roles: Sequence[str] = ("user", "assistant"),
    ) -> Shown:
        """:meth:`get_sessions`, :meth:`windows` and :meth:`bookends` of ``spans`` at
        once (one round trip to a database server)."""
        return shown(self, spans, count=count, roles=roles)

    def roots(self, session_ids: Iterable[str]) -> dict[str, str]:
        """Each session's lineage root (walking parent links, cycle-safe; one read)."""
        ids = list(session_ids)
        return walk_roots(ids, parent_links(self, ids)) if ids else {}

    def lineage(self, session_id: str) -> list[str]:
        """The session, its ancestors up to the root and every descendant of the root."""
        rows = self._read(
            "WITH RECURSIVE down(id) AS (SELECT CAST(? AS TEXT) UNION "
            "SELECT s.id FROM {s}.sessions s JOIN down ON s.parent_id = down.id) "
            "SELECT id FROM down",
            (self.roots([session_id])[session_id],),
        )
        ids = [str(r[0]) for r in rows]
        if session_id not in ids:
            ids.append(session_id)
        return ids

    def find_title(self, title: str) -> SessionInfo | None:
        """The most recent session titled ``title`` (ASCII case-insensitive), or None."""
        cleaned = clean_title(title)
        if not cleaned:
            return None
        rows = self._read(
            f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions WHERE {self.dialect.title_is} "
            "ORDER BY started_at DESC LIMIT 1",
            (cleaned,),
        )
        return session_from_row(rows[0]) if rows else None

    def search(
        self, query: Query, filters: SearchFilters, *, limit: int = 50, sort: str = "rank"
    ) -> list[Hit]:
        """Ranked messages matching ``query`` within ``filters`` (``sort``: rank, newest,
        oldest); an empty query finds nothing."""
        if query.empty or limit <= 0:
            return []
        return self._search(self._inflected([query])[0], filters, limit, sort)

    def holds(self, queries: Sequence[Query]) -> list[bool]:
        """Whether any message of the store (whatever its session or time) matches each
        of ``queries``: the words of a question the full-text index can match at all
        (:func:`~mnemic.sessions.search.retrieval.readable_share`). One probe a query
        that stops at the first match; an empty query holds nothing. A word of a
        question in another language is held when another of its forms is."""
        asked = self._inflected([q for q in queries if not q.empty])
        found = iter(self._holds(asked) if asked else [])
        return [False if q.empty else next(found) for q in queries]

    def _inflected(self, queries: list[Query]) -> list[Query]:
        """``queries`` whose words of a question in another language than English also
        match their other inflections the index holds (:func:`~..index.stems.inflected`,
        with one read of the index's terms for all of them); the others as they are."""
        if not any(q.languages for q in queries):
            return queries
        from ..index.stems import inflected  # Snowball: loaded by the first such question

        found = inflected(queries, self._vocabulary)
        for asked, grown in zip(queries, found, strict=True):
            if grown is not asked:
                self._forms.pop(asked, None)  # the newest last: the oldest go first
                self._forms[asked] = grown
        while len(self._forms) > FORMS_KEPT:
            self._forms.pop(next(iter(self._forms)))
        return found

    def forms_of(self, query: Query) -> Query:
        """``query`` with the other forms of its words a recent search of it matched
        (:meth:`_inflected`): what a result's snippet marks and its ``why`` lists as the
        words it holds ("arbeitet" for "gearbeitet"); ``query`` itself when it had none.
        Reads nothing."""
        return self._forms.get(query, query)

    def stats(self) -> StoreStats:
        """Counts, sizes, sources and roles."""
        sessions = self._read(
            "SELECT COUNT(*), MIN(started_at), MAX(last_active) FROM {s}.sessions"
        )
        by_source = self._read(
            "SELECT source, COUNT(*) FROM {s}.sessions GROUP BY source ORDER BY 2 DESC"
        )
        by_role = self._read(
            f"SELECT role, COUNT(*), COALESCE(SUM({self.dialect.octets}), 0) "
            "FROM {s}.messages GROUP BY role ORDER BY 2 DESC"
        )
        return StoreStats(
            sessions=int(sessions[0][0]),
            messages=sum(int(r[1]) for r in by_role),
            text_bytes=sum(int(r[2]) for r in by_role),
            db_bytes=self._db_bytes(),
            by_source={str(k): int(v) for k, v in by_source},
            by_role={str(r[0]): int(r[1]) for r in by_role},
            oldest=sessions[0][1],
            newest=sessions[0][2],
            schema_version=self._schema_version(),
            segmenter=self.segmenter_key,
            location=self.location,
        )

    # --- removing --------------------------------------------------------------------
    def delete_session(self, session_id: str) -> int:
        """Delete a session, its messages (index entries too) and its import marks;
        return the number of messages removed."""

        def delete(conn: Any) -> int:
            sid = sid_of(self, conn, session_id)
            # its messages locked in id order first, as every writer of their words and
            # vectors takes them (a DELETE takes them in the order its plan reads them)
            lock_session_messages(self, conn, [sid])
            n = self._run(conn, "DELETE FROM {s}.messages WHERE sid = ?", (sid,)).rowcount
            self._run(conn, "DELETE FROM {s}.sessions WHERE sid = ?", (sid,))
            # its transcript is then imported whole again, not from where it stopped
            sql = "DELETE FROM {s}.import_marks WHERE scope = ?"
            self._run(conn, sql, (marks.scope_of(session_id),))
            self._index_deleted(conn)
            return int(n or 0)

        return self._write(delete)

    def prune(self, older_than: float, *, dry_run: bool = False) -> list[str]:
        """Delete sessions last active before ``older_than`` (Unix time); return their ids.

        Each session is deleted in its own short transaction, so live writers are never
        held up for long. ``dry_run`` only lists them.
        """
        rows = self._read(
            "SELECT id FROM {s}.sessions WHERE last_active < ? ORDER BY last_active",
            (float(older_than),),
        )
        ids = [str(r[0]) for r in rows]
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
        entries, statistics); see :mod:`..forgetting`. Matched as search matches: NFKC
        and Unicode case folding (``Müller`` forgets ``MÜLLER``). Leaves tombstones, so
        that an import of the same input leaves out what was forgotten. ``dry_run`` only
        counts."""
        if not isinstance(match, str) or len(match.strip()) < 3:
            raise InvalidArgument(
                "match",
                "Give the text to forget (at least 3 characters); it is matched as a substring.",
            )
        return self._forget(needles(match), dry_run)

    def _forget(self, forms: list[str], dry_run: bool) -> ForgetResult:
        """:meth:`forget` with the stored forms of the text (:func:`..forgetting.needles`):
        rows in one transaction (:func:`.writes.forget_rows`), then compaction."""
        run = functools.partial(forget_rows, self, forms=forms, dry_run=dry_run)
        messages, sessions, renamed, held = self._write(run)
        notes = self._compact(not dry_run and sessions > 0)
        return ForgetResult(messages, sessions, renamed, notes, held)

    # --- what the store remembers about its inputs (:mod:`.marks`) -----------------------
    def tombstones(self) -> list[tuple[str, str]]:
        """The tombstones :meth:`forget` left, as ``(scope, digest)`` hashes (for a copy
        of the history)."""
        return marks.tombstones(self)

    def keep_tombstones(self, rows: Iterable[tuple[str, str]]) -> None:
        """Add the :meth:`tombstones` of another store (a copy of the history); known ones
        stay once."""
        marks.keep_tombstones(self, rows)

    def import_mark(self, session_id: str, source: str) -> ImportMark | None:
        """The :class:`~..store.ImportMark` of ``source`` (a file's path) for
        ``session_id`` (None: none yet, or one this version cannot read). Deleting the
        session deletes its marks."""
        return marks.import_mark(self, session_id, source)

    def save_import_mark(self, session_id: str, source: str, mark: ImportMark) -> None:
        """Save the mark of ``source`` for ``session_id``, replacing the one before."""
        marks.save_import_mark(self, session_id, source, mark)


def _merged(stored: str | None, metadata: Mapping[str, Any]) -> str:
    """``metadata`` merged into a session's stored metadata, as stored."""
    merged = load_object(stored)
    merged.update(metadata)
    return json.dumps(merged, ensure_ascii=False, default=str)


SessionStore = SqlSessionStore
"""What every part of mnemic holds a session store as: the one store class (a backend is a
subclass of it; see :class:`~.tables.Engine`)."""
