"""How sessions and messages become table rows and back, the same in every backend.

Both backends store the same columns (see :mod:`.sqlite_schema` and
:mod:`mnemic.backends.postgres.migrations`): this module cleans and validates what is
written (roles, titles, sources, counters) and decodes what is read, so a session or a
message looks the same whichever database holds it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from typing import Any

from ...errors import InvalidArgument
from ..store import (
    ROLES,
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
    "fingerprint",
    "load_object",
    "message_fingerprint",
    "message_from_row",
    "message_values",
    "normalize_role",
    "opaque_hash",
    "plan_merge",
    "position_key",
    "session_from_row",
    "session_values",
    "stored_call_count",
    "stored_fields",
]

ROLE_ALIASES = {"developer": "system", "function": "tool", "human": "user", "ai": "assistant"}
MAX_TITLE = 200

SESSION_COLUMNS = (
    "id, source, title, started_at, ended_at, end_reason, parent_id, model, message_count, "
    "tool_call_count, token_count, last_active, metadata"
)
"""The ``sessions`` columns :func:`session_from_row` decodes, in order."""
MESSAGE_COLUMNS = (
    "m.id, m.seq, m.role, m.content, m.ts, m.tool_name, m.tool_calls, m.tool_call_id, "
    "m.tokens, m.name"
)
"""The ``messages m`` columns :func:`message_from_row` decodes, in order."""
LEGACY_COLUMNS = "id, role, content, name, tool_name, tool_calls, tool_call_id"
"""What :func:`plan_merge` needs of a stored message without a ``source_id``: its id,
then the :func:`fingerprint` fields."""


# --- writing ---------------------------------------------------------------------------


def normalize_role(role: str) -> str:
    """The stored role of ``role`` (aliases folded); :class:`InvalidArgument` if unknown."""
    role = ROLE_ALIASES.get(role, role)
    if role not in ROLES:
        raise InvalidArgument(
            "role", f"Unknown message role {role!r}; use one of {', '.join(ROLES)}."
        )
    return role


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
    name, tool_name, tool_calls, tool_call_id, ts, tokens, source_id)``. A message
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
        rows.append((*stored_fields(msg), ts, est, msg.source_id))
    return rows, tokens, calls, last


def stored_fields(
    msg: NewMessage,
) -> tuple[str, str | None, str | None, str | None, str | None, str | None]:
    """``(role, content, name, tool_name, tool_calls, tool_call_id)`` of a message as
    stored (role aliases folded, ``tool_calls`` as JSON text): what :func:`fingerprint`
    hashes."""
    return (
        normalize_role(msg.role),
        msg.content,
        msg.name,
        msg.tool_name,
        msg.tool_calls_json(),
        msg.tool_call_id,
    )


# --- message keys: what a re-import recognises ---------------------------------------------


def fingerprint(
    role: str,
    content: str | None,
    name: str | None,
    tool_name: str | None,
    tool_calls: str | None,
    tool_call_id: str | None,
) -> str:
    """A short hash of a message's stored fields (its role stored form, ``tool_calls`` as
    stored JSON text); timestamps are left out, so a re-read of the same line matches.
    Stored in position keys: it never changes between versions."""
    data = "|".join(
        "-" if p is None else f"{len(p)}:{p}"
        for p in (role, content, name, tool_name, tool_calls, tool_call_id)
    )
    return hashlib.blake2b(data.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def opaque_hash(kind: str, *parts: str) -> str:
    """A 32-hex-digit hash of ``parts`` for ``kind`` (``scope``, ``forgotten``,
    ``import``, ``position``): BLAKE2b over the length-prefixed parts, personalised per
    kind. What a store keeps about its inputs without keeping their text."""
    data = "".join(f"{len(p)}:{p}" for p in parts).encode("utf-8", "surrogatepass")
    person = f"mnemic-{kind}"[:16].encode()
    return hashlib.blake2b(data, digest_size=16, person=person).hexdigest()


def message_fingerprint(msg: NewMessage) -> str:
    """:func:`fingerprint` of a message about to be stored."""
    return fingerprint(*stored_fields(msg))


def position_key(position: int, msg: NewMessage) -> str:
    """The key of a message from a source without message ids: its position among the
    imported messages of its session, and its :func:`message_fingerprint`
    (``"12:3f9a1c0b7d2e4a61"``)."""
    return f"{position}:{message_fingerprint(msg)}"


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
    )
