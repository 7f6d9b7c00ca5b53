"""How sessions and messages become table rows and back, the same in every backend.

Both backends store the same columns (see :mod:`mnemic.backends.files.sqlite.schema` and
:mod:`mnemic.backends.postgres.migrations`): this module cleans and validates what is
written (roles, titles, sources, counters) and decodes what is read, so a session or a
message looks the same whichever database holds it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from ..keys import fingerprint, message_fingerprint, stored_fields
from ..store import (
    Message,
    NewMessage,
    NewSession,
    SessionInfo,
    estimate_tokens,
    new_session_id,
)

__all__ = [
    "LEGACY_COLUMNS",
    "MESSAGE_COLUMNS",
    "SESSION_COLUMNS",
    "clean_title",
    "dedupe",
    "load_object",
    "message_from_row",
    "message_values",
    "plan_merge",
    "session_from_row",
    "session_values",
    "stored_call_count",
]

MAX_TITLE = 200

SESSION_COLUMNS = (
    "id, source, title, started_at, ended_at, end_reason, parent_id, model, message_count, "
    "tool_call_count, token_count, last_active, metadata"
)
"""The ``sessions`` columns :func:`session_from_row` decodes, in order."""
MESSAGE_COLUMNS = (
    "m.id, m.seq, m.role, m.content, m.ts, m.tool_name, m.tool_calls, m.tool_call_id, "
    "m.tokens, m.name, m.is_error"
)
"""The ``messages m`` columns :func:`message_from_row` decodes, in order."""
LEGACY_COLUMNS = "id, role, content, name, tool_name, tool_calls, tool_call_id"
"""What :func:`plan_merge` needs of a stored message without a ``source_id``: its id,
then the :func:`fingerprint` fields."""


# --- writing ---------------------------------------------------------------------------


def clean_title(title: str | None) -> str | None:
    """A title as stored: one line of printable text, at most 200 characters, or None."""
    if title is None:
        return None
    cleaned = "".join(ch if ch.isprintable() else " " for ch in title)
    cleaned = " ".join(cleaned.split())[:MAX_TITLE]
    return cleaned or None


def session_values(spec: NewSession) -> tuple[Any, ...]:
    """``(id, source, title, started_at, parent_id, model, last_active, metadata)`` of a
    new session (id generated and times set to now when not given)."""
    now = time.time() if spec.started_at is None else float(spec.started_at)
    source = (spec.source or "cli").strip()[:64] or "cli"
    return (
        spec.id or new_session_id(now),
        source,
        clean_title(spec.title),
        now,
        spec.parent_id or None,
        spec.model,
        now,
        json.dumps(dict(spec.metadata or {}), ensure_ascii=False, default=str),
    )


def message_values(
    messages: Sequence[NewMessage], now: float
) -> tuple[list[tuple[Any, ...]], int, int, float]:
    """The stored fields of ``messages`` and the session counters they add.

    Returns ``(rows, tokens, tool calls, last active)``; each row is ``(role, content,
    name, tool_name, tool_calls, tool_call_id, ts, tokens, source_id, is_error)``. A message
    without a timestamp gets ``now``; last active is the latest timestamp (``now`` when
    empty).
    """
    rows = []
    tokens = calls = 0
    last = now
    for i, msg in enumerate(messages):
        ts = now if msg.timestamp is None else float(msg.timestamp)
        est = msg.token_estimate
        if est is None:
            est = estimate_tokens(msg.content)
        tokens += est
        calls += msg.tool_call_count
        last = max(last, ts) if i else ts
        rows.append((*stored_fields(msg), ts, est, msg.source_id, msg.is_error))
    return rows, tokens, calls, last


def plan_merge(
    messages: Sequence[NewMessage], keys: set[str], legacy: Sequence[Sequence[Any]]
) -> tuple[list[NewMessage], list[tuple[str, int]]]:
    """Which of ``messages`` a stored session lacks.

    ``keys`` are the session's stored ``source_id`` values; ``legacy`` its messages
    stored without one (:data:`LEGACY_COLUMNS` rows: recorded live, or imported before
    keys were kept). A message is present when its key is stored, or else when a legacy
    message has its :func:`fingerprint` (each legacy message matches once). Returns the
    messages to add, in order, and ``(source_id, message id)`` pairs giving matched
    legacy messages their key, so the next import matches them by key.
    """
    pool: dict[str, list[int]] = {}
    for row in legacy:
        pool.setdefault(fingerprint(*row[1:7]), []).append(int(row[0]))
    seen = set(keys)
    new: list[NewMessage] = []
    backfill: list[tuple[str, int]] = []
    for msg in messages:
        key = msg.source_id
        if key is not None and key in seen:
            continue
        if pool:
            matches = pool.get(message_fingerprint(msg))
            if matches:
                mid = matches.pop(0)
                if key is not None:
                    backfill.append((key, mid))
                    seen.add(key)
                continue
        if key is not None:
            seen.add(key)
        new.append(msg)
    return new, backfill


def dedupe(messages: Sequence[NewMessage]) -> list[NewMessage]:
    """``messages`` without the repeats of a ``source_id`` (the first one is kept)."""
    if all(m.source_id is None for m in messages):
        return list(messages)
    return plan_merge(messages, set(), ())[0]


def stored_call_count(tool_calls: str | None) -> int:
    """How many tool calls a stored ``tool_calls`` text holds (what its session counted)."""
    if not tool_calls:
        return 0
    try:
        calls = json.loads(tool_calls)
    except ValueError:
        return 0
    return len(calls) if isinstance(calls, list) else 1


# --- reading ---------------------------------------------------------------------------


def load_object(text: str | None) -> dict[str, Any]:
    """A stored JSON object (``{}`` for anything else)."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def session_from_row(row: Sequence[Any]) -> SessionInfo:
    """A :class:`SessionInfo` from a :data:`SESSION_COLUMNS` row."""
    return SessionInfo(
        id=row[0],
        source=row[1],
        title=row[2],
        started_at=float(row[3]),
        ended_at=None if row[4] is None else float(row[4]),
        end_reason=row[5],
        parent_id=row[6],
        model=row[7],
        message_count=int(row[8]),
        tool_call_count=int(row[9]),
        token_count=int(row[10]),
        last_active=float(row[11]),
        metadata=load_object(row[12]),
    )


def message_from_row(row: Sequence[Any], session_id: str) -> Message:
    """A :class:`Message` of ``session_id`` from a :data:`MESSAGE_COLUMNS` row."""
    calls = None
    if row[6]:
        try:
            decoded = json.loads(row[6])
        except ValueError:
            decoded = None
        if isinstance(decoded, list):
            calls = [c for c in decoded if isinstance(c, dict)]
    return Message(
        id=int(row[0]),
        session_id=session_id,
        seq=int(row[1]),
        role=row[2],
        content=row[3],
        timestamp=float(row[4]),
        tool_name=row[5],
        tool_calls=calls,
        tool_call_id=row[7],
        token_estimate=int(row[8] or 0),
        name=row[9],
        is_error=None if row[10] is None else bool(row[10]),
    )
