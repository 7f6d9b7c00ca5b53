"""Forgetting text in the session history: what to delete and what to rewrite.

Text is compared as search compares it (:func:`fold`: NFKC, then Unicode case folding),
so ``Müller`` forgets ``MÜLLER`` and a decomposed ``Mu\\u0308ller``, ``quagga77`` forgets
``ＱＵＡＧＧＡ７７``, and an escape such as ``\\u00fc`` in stored JSON counts as the
character it stands for. Both
backends find candidate rows in SQL (:meth:`~.sql.tables.Dialect.holds`: a superset that
needs no Unicode support from the database) and then decide here, in Python:

* a **message** holding the text in any column (content, participant name, tool name,
  tool calls and their arguments, tool call id, source key) is deleted;
* a **session** holding it is rewritten, column by column: an id that contains it gets a
  fresh id (its children follow); a source becomes ``redacted``; a title or model is
  cleared; an end reason becomes ``ended``; metadata loses every key whose name or value
  contains it (nested objects and lists too); a parent link that contains it follows its
  parent's new id, or is cleared when that parent does not exist.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .store import new_session_id

__all__ = [
    "MESSAGE_TEXT_COLUMNS",
    "SESSION_SCRUB_COLUMNS",
    "SessionRewrite",
    "contains",
    "fold",
    "needles",
    "plan_rewrites",
    "scrub_metadata",
]

MESSAGE_TEXT_COLUMNS = ("content", "name", "tool_name", "tool_calls", "tool_call_id", "source_id")
"""Every text column of ``messages``: a message holding the text in one is deleted."""
SESSION_SCRUB_COLUMNS = (
    "id",
    "source",
    "title",
    "model",
    "metadata",
    "parent_id",
    "end_reason",
)
"""Every text column of ``sessions`` (the rows :func:`plan_rewrites` reads start with
``sid`` and end with ``started_at``)."""
REDACTED_SOURCE = "redacted"

_ESCAPE = re.compile(
    r"\\+u([dD][89abAB][0-9a-fA-F]{2})\\+u([dD][c-fC-F][0-9a-fA-F]{2})|\\+u([0-9a-fA-F]{4})"
)
"""A JSON ``\\uXXXX`` escape (a surrogate pair as one), after any number of backslashes:
JSON inside JSON (tool-call arguments) doubles them."""


class SessionRewrite(NamedTuple):
    """The new values of one session's columns."""

    sid: int
    changes: dict[str, Any]


def fold(text: str) -> str:
    """``text`` as forgetting compares it: NFKC (full-width letters, ligatures, composed
    accents), Unicode case folding, NFKC again (what search does before its tokenizer
    folds case); ASCII text is only lower-cased."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def needles(match: str) -> list[str]:
    """``match`` folded (:func:`fold`) as it can be stored: raw, JSON-escaped, and
    JSON-escaped twice (tool-call arguments are JSON inside JSON). ASCII escapes need no
    form of their own: :func:`contains` reads them as the characters they stand for."""
    folded = fold(match)
    once = json.dumps(folded, ensure_ascii=False)[1:-1]
    twice = json.dumps(once, ensure_ascii=False)[1:-1]
    return list(dict.fromkeys((folded, once, twice)))


def _char(m: re.Match[str]) -> str:
    if m[3] is not None:
        return chr(int(m[3], 16))
    high, low = int(m[1], 16), int(m[2], 16)
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def contains(text: Any, forms: Sequence[str]) -> bool:
    """Whether ``text`` (a string, or a number written out) holds one of ``forms`` (from
    :func:`needles`) once both are folded, reading JSON ``\\uXXXX`` escapes in ``text``
    as their characters too."""
    if text is None or isinstance(text, bool):
        return False
    raw = text if isinstance(text, str) else str(text)
    folded = fold(raw)
    if any(f in folded for f in forms):
        return True
    if "\\u" not in folded:
        return False
    decoded = fold(_ESCAPE.sub(_char, raw))
    return any(f in decoded for f in forms)


def _scrub(value: Any, forms: Sequence[str]) -> Any:
    """``value`` without what holds one of ``forms`` (``_DROP`` when all of it does)."""
    if isinstance(value, dict):
        return {
            k: v
            for k, v in ((k, _scrub(v, forms)) for k, v in value.items() if not contains(k, forms))
            if v is not _DROP
        }
    if isinstance(value, list):
        return [v for v in (_scrub(v, forms) for v in value) if v is not _DROP]
    return _DROP if contains(value, forms) else value


_DROP: Any = object()


def scrub_metadata(text: str | None, forms: Sequence[str]) -> str:
    """Stored metadata JSON without the keys and list items that hold the text; ``{}``
    when it is not a JSON object or the text would survive anyway."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return "{}"
    if not isinstance(value, dict):
        return "{}"
    out = json.dumps(_scrub(value, forms), ensure_ascii=False, default=str)
    return "{}" if contains(out, forms) else out


def plan_rewrites(
    rows: Sequence[Sequence[Any]], forms: Sequence[str], taken: Callable[[str], bool]
) -> tuple[list[SessionRewrite], dict[str, str]]:
    """The rewrite of each candidate session and the renamed ids (old to new).

    ``rows`` are ``(sid, *SESSION_SCRUB_COLUMNS, started_at)``; ``taken(id)`` says whether
    an id is in use (a new id is never one).
    """
    renames: dict[str, str] = {}
    for row in rows:
        old = str(row[1])
        if contains(old, forms):
            new = new_session_id(float(row[-1]))
            while taken(new) or new in renames.values() or contains(new, forms):
                new = new_session_id(float(row[-1]))
            renames[old] = new
    out: list[SessionRewrite] = []
    for row in rows:
        sid, sess_id, source, title, model, metadata, parent, reason = row[:8]
        changes: dict[str, Any] = {}
        if sess_id in renames:
            changes["id"] = renames[sess_id]
        if contains(source, forms):
            changes["source"] = REDACTED_SOURCE
        if contains(title, forms):
            changes["title"] = None
        if contains(model, forms):
            changes["model"] = None
        if contains(metadata, forms):
            changes["metadata"] = scrub_metadata(metadata, forms)
        if contains(parent, forms):
            changes["parent_id"] = renames.get(parent)
        if contains(reason, forms):
            changes["end_reason"] = "ended"
        if changes:
            out.append(SessionRewrite(int(sid), changes))
    return out, renames
