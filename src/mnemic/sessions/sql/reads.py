"""Batched reads of the SQL session store: what a search shows, a few statements per query.

A discovery result shows its session, a window of messages around the matched one, the
first and last messages of the session ("bookends"), and groups sessions by lineage
root. Asked one session at a time that is four to six statements per result; a database
server pays a round trip for each. These functions answer them for many sessions in one
statement each (a ``UNION ALL`` of small index range reads, or a recursive walk of the
parent links of every session at once), in the shared spelling of :mod:`.tables`,
so SQLite and PostgreSQL run the same path.

Each function takes the store (its :class:`~.tables.Engine`) and returns plain
values; :class:`~.store.SqlSessionStore` exposes them as its batched calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..store import Message, MessagePreview, SearchFilters, SessionInfo, Shown, Span
from .lexical import filter_condition
from .rows import MESSAGE_COLUMNS, SESSION_COLUMNS, message_from_row, session_from_row
from .tables import Engine

__all__ = [
    "bookends",
    "flagged_failures",
    "message_keys",
    "message_previews",
    "messages_by_id",
    "parent_links",
    "roles_at",
    "sessions_by_id",
    "shown",
    "speakers_at",
    "walk_roots",
    "windows",
]

PER_STATEMENT = 100
"""Spans per statement (SQLite allows 500 terms in a compound ``SELECT``)."""
_SID = "(SELECT sid FROM {s}.sessions WHERE id = ?)"


def _chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


Statement = tuple[str, list[Any]]
"""A read in the shared spelling and its parameters."""


def _session_reads(store: Engine[Any], ids: Sequence[str]) -> list[Statement]:
    out = []
    for chunk in _chunks(list(dict.fromkeys(ids)), 500):
        where, params = store.dialect.isin("id", chunk)
        out.append((f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions WHERE {where}", params))
    return out


def _sessions_from(results: Iterable[list[Any]]) -> dict[str, SessionInfo]:
    infos = (session_from_row(row) for rows in results for row in rows)
    return {info.id: info for info in infos}


def _window_reads(store: Engine[Any], spans: Sequence[Span]) -> list[Statement]:
    out = []
    top = store.dialect.seq_limit
    for base in range(0, len(spans), PER_STATEMENT):
        chunk = spans[base : base + PER_STATEMENT]
        parts, params = [], []
        for k, (sid, start, stop) in enumerate(chunk):
            parts.append(
                f"SELECT {base + k} AS k, {MESSAGE_COLUMNS} FROM {{s}}.messages m "
                f"WHERE m.sid = {_SID} AND m.seq >= ? AND m.seq < ?"
            )
            params += [sid, min(max(0, start), top), min(max(0, stop), top)]
        out.append((" UNION ALL ".join(parts), params))
    return out


def _windows_from(spans: Sequence[Span], results: Iterable[list[Any]]) -> list[list[Message]]:
    out: list[list[Message]] = [[] for _ in spans]
    for rows in results:
        for row in rows:
            k = int(row[0])
            out[k].append(message_from_row(row[1:], spans[k][0]))
    for msgs in out:
        msgs.sort(key=lambda m: m.seq)
    return out


def _bookend_reads(
    store: Engine[Any], spans: Sequence[Span], count: int, roles: Sequence[str]
) -> list[Statement]:
    if count <= 0 or not roles:
        return []
    out = []
    top = store.dialect.seq_limit
    role_is, role_params = store.dialect.isin("m.role", roles)
    for base in range(0, len(spans), PER_STATEMENT // 2):
        chunk = spans[base : base + PER_STATEMENT // 2]
        parts, params = [], []
        for k, (sid, start, stop) in enumerate(chunk):
            for side, (cond, order) in enumerate((("m.seq < ?", "ASC"), ("m.seq >= ?", "DESC"))):
                parts.append(
                    f"SELECT * FROM (SELECT {base + k} AS k, {side} AS side, {MESSAGE_COLUMNS} "
                    f"FROM {{s}}.messages m WHERE m.sid = {_SID} AND {role_is} AND m.content "
                    f"IS NOT NULL AND m.content != '' AND {cond} ORDER BY m.seq {order} "
                    f"LIMIT ?) AS e{k}_{side}"
                )
                seq = min(max(0, start if side == 0 else stop), top)
                params += [sid, *role_params, seq, count]
        out.append((" UNION ALL ".join(parts), params))
    return out


def _bookends_from(
    spans: Sequence[Span], results: Iterable[list[Any]]
) -> list[tuple[list[Message], list[Message]]]:
    out: list[tuple[list[Message], list[Message]]] = [([], []) for _ in spans]
    for rows in results:
        for row in rows:
            k, side = int(row[0]), int(row[1])
            out[k][side].append(message_from_row(row[2:], spans[k][0]))
    for first, last in out:
        first.sort(key=lambda m: m.seq)
        last.sort(key=lambda m: m.seq)
    return out


def sessions_by_id(store: Engine[Any], session_ids: Iterable[str]) -> dict[str, SessionInfo]:
    """The sessions of ``session_ids`` that exist, by id."""
    return _sessions_from(store._read_many(_session_reads(store, list(session_ids))))


def message_keys(store: Engine[Any], message_ids: Iterable[int]) -> dict[int, str | None]:
    """The import key (``source_id``) of each of ``message_ids`` that exists, by id (None:
    recorded live, or imported before keys were kept)."""
    ids = list(dict.fromkeys(int(i) for i in message_ids))
    reads = []
    for chunk in _chunks(ids, 500):
        where, params = store.dialect.isin("m.id", chunk)
        reads.append((f"SELECT m.id, m.source_id FROM {{s}}.messages m WHERE {where}", params))
    return {int(r[0]): r[1] for rows in store._read_many(reads) for r in rows}


def roles_at(store: Engine[Any], positions: Sequence[tuple[str, int]]) -> list[str | None]:
    """The role of the message at each ``(session_id, seq)`` (None where there is none):
    one read of the roles only, whatever the messages' length."""
    return [said[0] if said is not None else None for said in speakers_at(store, positions)]


def speakers_at(
    store: Engine[Any], positions: Sequence[tuple[str, int]]
) -> list[tuple[str, str | None] | None]:
    """``(role, name)`` of the message at each ``(session_id, seq)`` (None where there is
    none): one read of the roles and names only, whatever the messages' length."""
    out: list[tuple[str, str | None] | None] = [None] * len(positions)
    reads = []
    for base in range(0, len(positions), PER_STATEMENT):
        chunk = positions[base : base + PER_STATEMENT]
        parts, params = [], []
        for k, (sid, seq) in enumerate(chunk):
            parts.append(
                f"SELECT {base + k} AS k, m.role, m.name FROM {{s}}.messages m "
                f"WHERE m.sid = {_SID} AND m.seq = ?"
            )
            params += [sid, int(seq)]
        reads.append((" UNION ALL ".join(parts), params))
    for rows in store._read_many(reads) if reads else []:
        for k, role, name in rows:
            out[int(k)] = (str(role), str(name) if name else None)
    return out


def messages_by_id(store: Engine[Any], message_ids: Iterable[int]) -> dict[int, Message]:
    """The messages of ``message_ids`` that exist, by id."""
    ids = list(dict.fromkeys(int(i) for i in message_ids))
    reads = []
    for chunk in _chunks(ids, 500):
        where, params = store.dialect.isin("m.id", chunk)
        reads.append(
            (
                f"SELECT {MESSAGE_COLUMNS}, s.id FROM {{s}}.messages m "
                f"JOIN {{s}}.sessions s ON s.sid = m.sid WHERE {where}",
                params,
            )
        )
    found = (message_from_row(r[:-1], r[-1]) for rows in store._read_many(reads) for r in rows)
    return {m.id: m for m in found}


def message_previews(
    store: Engine[Any], session_id: str, start: int, stop: int, max_chars: int
) -> list[MessagePreview]:
    """The messages of ``session_id`` with ``start <= seq < stop``, their content cut to
    ``max_chars`` characters by the database (the whole text never reaches Python) and
    their tool calls left out when longer, with both full lengths."""
    sql = (
        "SELECT m.id, m.seq, m.role, substr(m.content, 1, CAST(? AS INTEGER)), m.ts, "
        "m.tool_name, "
        "CASE WHEN length(m.tool_calls) <= ? THEN m.tool_calls END, m.tool_call_id, "
        "m.tokens, m.name, m.is_error, coalesce(length(m.content), 0), "
        "coalesce(length(m.tool_calls), 0) "
        f"FROM {{s}}.messages m WHERE m.sid = {_SID} AND m.seq >= ? AND m.seq < ? "
        "ORDER BY m.seq"
    )
    bound = max(0, int(max_chars))
    rows = store._read(sql, (bound, bound, session_id, start, stop))
    return [
        MessagePreview(message_from_row(r[:11], session_id), int(r[11]), int(r[12])) for r in rows
    ]


def flagged_failures(
    store: Engine[Any], filters: SearchFilters, limit: int
) -> list[tuple[str, int]]:
    """``(session id, seq)`` of the newest ``limit`` messages within ``filters`` whose
    source flagged them failed (``is_error``; a partial index holds just those)."""
    found = filter_condition(filters, "m.is_error")
    if found is None or limit <= 0:
        return []
    where, params = found
    rows = store._read(
        f"SELECT s.id, m.seq FROM {{s}}.messages m JOIN {{s}}.sessions s ON s.sid = m.sid "
        f"WHERE {where} ORDER BY m.id DESC LIMIT ?",
        [*params, int(limit)],
    )
    return [(str(r[0]), int(r[1])) for r in rows]


def windows(store: Engine[Any], spans: Sequence[Span]) -> list[list[Message]]:
    """For each ``(session_id, start, stop)``: its messages with ``start <= seq < stop``
    in order (empty for an unknown session)."""
    return _windows_from(spans, store._read_many(_window_reads(store, spans)))


def bookends(
    store: Engine[Any],
    spans: Sequence[Span],
    *,
    count: int,
    roles: Sequence[str],
) -> list[tuple[list[Message], list[Message]]]:
    """For each ``(session_id, start, stop)``: the first ``count`` messages with text and
    a role in ``roles`` before seq ``start``, and the last ``count`` from seq ``stop`` on
    (each in order)."""
    return _bookends_from(spans, store._read_many(_bookend_reads(store, spans, count, roles)))


def shown(
    store: Engine[Any],
    spans: Sequence[Span],
    *,
    count: int,
    roles: Sequence[str],
) -> Shown:
    """The sessions, windows and bookends of ``spans`` read together: one round trip
    where the backend pipelines its reads (``_read_many``)."""
    reads = [
        _session_reads(store, [sid for sid, _, _ in spans]),
        _window_reads(store, spans),
        _bookend_reads(store, spans, count, roles),
    ]
    results = store._read_many([r for group in reads for r in group])
    a, b = len(reads[0]), len(reads[0]) + len(reads[1])
    return Shown(
        _sessions_from(results[:a]),
        _windows_from(spans, results[a:b]),
        _bookends_from(spans, results[b:]),
    )


def parent_links(store: Engine[Any], session_ids: Sequence[str]) -> dict[str, str | None]:
    """``id -> parent_id`` of every existing session on the parent chains of
    ``session_ids`` (one recursive statement per 500 ids; cycles end it)."""
    links: dict[str, str | None] = {}
    for chunk in _chunks(list(dict.fromkeys(session_ids)), 500):
        where, params = store.dialect.isin("id", chunk)
        rows = store._read(
            "WITH RECURSIVE up(id, parent) AS ("
            f"SELECT id, parent_id FROM {{s}}.sessions WHERE {where} UNION "
            "SELECT s.id, s.parent_id FROM {s}.sessions s JOIN up ON s.id = up.parent) "
            "SELECT id, parent FROM up",
            params,
        )
        links.update({str(r[0]): (str(r[1]) if r[1] else None) for r in rows})
    return links


def walk_roots(session_ids: Iterable[str], links: dict[str, str | None]) -> dict[str, str]:
    """Each session's lineage root through ``links`` (``id -> parent``, existing sessions
    only): the last ancestor before a missing parent, a missing session or a cycle.
    Sessions walked earlier answer for the chains of later ones."""
    cache: dict[str, str] = {}
    out: dict[str, str] = {}
    for session_id in session_ids:
        chain = [session_id]
        seen = {session_id}
        current = session_id
        while True:
            if current in cache:
                root = cache[current]
                break
            parent = links.get(current)
            if parent is None or parent in seen or parent not in links:
                root = current
                break
            seen.add(parent)
            chain.append(parent)
            current = parent
        for sid in chain:
            cache[sid] = root
        out[session_id] = root
    return out
