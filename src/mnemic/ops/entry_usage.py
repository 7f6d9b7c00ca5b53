"""Which memory entries mattered in a session: the usage signal, counted from the history.

MEMORY.md and USER.md are in every system prompt, so every entry is "read" every turn:
a read count says nothing. The signal counted here is explicit and measurable:

* an entry's **distinctive terms** are its words (the session index's segmentation:
  CJK text by bigrams, host names and paths whole and by their parts, case folded) of
  three characters or more (two with a digit, CJK bigrams), less a few function words,
  less the words more than half of its target's entries share (with four entries or
  more), the rarest :data:`MAX_TERMS` of them;
* an entry **mattered** in a session when one of the session's user or assistant
  messages, written when the entry already existed, holds at least half of its terms
  and at least two of them (every one, when it has fewer); tool calls, tool results and
  system messages are never read (the memory tool's answers echo entries, and the
  prompt holds them all);
* **uses** is the number of sessions it mattered in (once per session, however often
  a session is counted), **last used** the time of the latest message that matched.

:func:`count_usage` counts the messages of each session that were not counted yet, and
is run when a session ends (``AgentSession.close``, ``/new``), after ``mnemic sessions
import``, and by the Claude Code hook after its import at compaction and session end
(``mnemic hook claude-code``). The counts live in a sidecar cache
(:mod:`mnemic.curated.usage_log`).
"""

from __future__ import annotations

import logging
import math
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..curated.entries import TARGETS
from ..curated.provenance import entry_key
from ..curated.usage_log import UsageCounts, update_counts
from ..curated.view import MemoryView
from ..errors import MnemicError
from ..home import Home
from ..sessions.index.segment import has_cjk, segment
from ..sessions.sql import SessionStore
from ..sessions.store import SessionInfo

__all__ = ["MAX_TERMS", "UsageReport", "count_usage", "distinctive_terms", "mattered"]

log = logging.getLogger(__name__)

MAX_TERMS = 8
"""Distinctive terms kept per entry (the rarest among its target's entries)."""
ROLES = ("user", "assistant")
_PAGE = 500
_PUNCT = string.punctuation + "«»“”‘’„…"
_SESSIONS_PAGE = 200
_FUNCTION_TEXT = (
    "the and for with that this from are was were has have had not but you your our "
    "its his her they them their there here when what which who how why all any can "
    "will would should could into onto over under than then also just only very more "
    "most some such each other been being does did done use uses used through about "
    "after before where while these those named called"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())


def _words(text: str) -> set[str]:
    """The words of ``text`` (punctuation around a word dropped), and its compounds."""
    seg = segment(text)
    words = (w.strip(_PUNCT) for w in (*seg.body.split(), *seg.compounds))
    return {w.casefold() for w in words if w}


def _keep(word: str) -> bool:
    if word in _FUNCTION_WORDS:
        return False
    if has_cjk(word):
        return True
    return len(word) >= 3 or (len(word) == 2 and any(c.isdigit() for c in word))


def distinctive_terms(entries: Sequence[str]) -> list[frozenset[str]]:
    """The distinctive terms of each of ``entries`` (one target's, in order)."""
    words = [{w for w in _words(e) if _keep(w)} for e in entries]
    df: dict[str, int] = {}
    for ws in words:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    common = len(entries) / 2 if len(entries) >= 4 else math.inf
    out = []
    for ws in words:
        rare = sorted((w for w in ws if df[w] <= common), key=lambda w: (df[w], -len(w), w))
        out.append(frozenset(rare[:MAX_TERMS]))
    return out


def mattered(terms: frozenset[str], words: set[str]) -> bool:
    """Whether a message with ``words`` holds enough of an entry's ``terms``."""
    if not terms:
        return False
    need = min(len(terms), max(2, math.ceil(len(terms) / 2)))
    return len(terms & words) >= need


@dataclass(frozen=True, slots=True)
class UsageReport:
    """What one count read: sessions and messages, and the uses it added."""

    sessions: int = 0
    messages: int = 0
    uses: int = 0
    written: bool = True


@dataclass(frozen=True, slots=True)
class _Entry:
    key: str
    terms: frozenset[str]
    created: float | None


def _entries(home: Home) -> list[_Entry]:
    view = MemoryView.open(home)
    out: list[_Entry] = []
    for target in TARGETS:
        listed = view.listing(target)
        for entry, terms, prov in zip(
            listed.entries, distinctive_terms(listed.entries), listed.provenance, strict=True
        ):
            out.append(_Entry(entry_key(entry), terms, prov.created))
    return out


def count_usage(
    home: Home, store: SessionStore, *, session_ids: Iterable[str] | None = None
) -> UsageReport:
    """Count the messages not counted yet of ``session_ids`` (default: every session
    whose message count moved since it was counted) against the live entries; see the
    module docstring. Best-effort: a failure is logged and reported as not written."""
    try:
        entries = [e for e in _entries(home) if e.terms]
    except MnemicError as exc:
        log.warning("entry usage not counted: memory cannot be read: %s", exc)
        return UsageReport(written=False)
    if not entries:  # nothing to match: a later count still reads these sessions
        return UsageReport()
    totals = [0, 0, 0]

    def count(counts: UsageCounts) -> None:
        ids = list(session_ids) if session_ids is not None else None
        for sid, total in _sessions(store, counts, ids):
            start = counts.next_message(sid)
            matched: dict[str, float] = {}
            read = 0
            while True:
                batch = store.messages(sid, start=start, stop=start + _PAGE)
                if not batch:
                    break
                for m in batch:
                    read += 1
                    if m.role not in ROLES or not m.content:
                        continue
                    words = _words(m.content)
                    for e in entries:
                        fresh = e.created is None or m.timestamp >= e.created
                        if fresh and mattered(e.terms, words):
                            matched[e.key] = max(matched.get(e.key, m.timestamp), m.timestamp)
                start = batch[-1].seq + 1
            totals[2] += counts.count(sid, start, total, matched)
            totals[0] += 1
            totals[1] += read

    try:
        written = update_counts(home.root, count)
    except MnemicError as exc:  # the session store failed midway: nothing was written
        log.warning("entry usage not counted: %s", exc)
        written = False
    return UsageReport(totals[0], totals[1], totals[2], written)


def _sessions(
    store: SessionStore, counts: UsageCounts, ids: list[str] | None
) -> Iterable[tuple[str, int]]:
    """``(session id, its message count now)`` of the sessions with messages to count."""
    infos = store.get_sessions(ids).values() if ids is not None else _all_sessions(store)
    for info in infos:
        if not counts.unchanged(info.id, info.message_count):
            yield info.id, info.message_count


def _all_sessions(store: SessionStore) -> Iterable[SessionInfo]:
    offset = 0
    while True:
        page = store.list_sessions(limit=_SESSIONS_PAGE, offset=offset, order="started")
        yield from page
        if len(page) < _SESSIONS_PAGE:
            return
        offset += len(page)
