"""Message-level ranking: the one public ranking API.

``session_search`` answers with whole conversations; an evaluation, a benchmark or a
program that wants to know *which messages* answer a question asks
:func:`search_messages`: the same retrieval (lexical, semantic or hybrid, fused, fresh
facts first, :func:`~.retrieval.candidates`) without grouping by session, each result a
message with its session, ids, time, role, score and why it ranked there. ``mnemic
sessions search --messages --json`` prints exactly this (:meth:`MessageRanking.to_dict`);
``./x bench recall`` ranks every question through it.

Neighbours count: a message that ranks only because the message next to it matched (an
answer after the question that holds the words) is a result like any other, with
``matched`` empty and ``why`` saying whose neighbour it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import InvalidArgument
from ..index.query import Query, match_spans, parse_query
from ..sql import SessionStore
from ..store import ROLES, Message, SearchFilters
from .explain import reasons, shown_text
from .floor import NO_GOOD_MATCH, Strength, judge
from .hybrid import FusedMessage
from .retrieval import QueryEmbedder, SemanticState, candidates, check_mode, semantic_state
from .sequence import IN_TIME_ORDER, OrderCue, as_event, follow, read_order
from .timeframe import TimeFrame, at_time, read_timeframe

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "ORDERS",
    "MessageRanking",
    "RankedResult",
    "search_messages",
]

DEFAULT_LIMIT = 20
MAX_LIMIT = 200
SNIPPET_CHARS = 200
ORDERS = ("auto", "relevance", "time")
"""How results are listed: ``time`` (in time order), ``relevance`` (best first) or
``auto`` (in time order when the question asks about the order of events, :mod:`.sequence`)."""


@dataclass(frozen=True, slots=True)
class RankedResult:
    """One ranked message."""

    rank: int
    """1 for the best (also when the results are listed in time order)."""
    session_id: str
    message_id: int
    seq: int
    """Its place in its session (0 for the first message)."""
    role: str
    time: float
    """Unix seconds."""
    score: float
    """Higher is better; comparable within one ranking only."""
    source_id: str | None
    """Its key in the file it was imported from (a transcript line's uuid, a JSONL
    ``message_id``, a LoCoMo dia id); None for a message recorded live."""
    matched: tuple[str, ...]
    """What matched the message itself: ``lexical``, ``semantic``, both, or none (it
    ranks as the neighbour of a match)."""
    why: tuple[str, ...]
    """Why it ranks here, for people: the query words it holds, its meaning, whose
    neighbour it is, and what the time-aware step did (``fresh``, ``superseded``...)."""
    snippet: str
    weak: bool = False
    """Shown although below the floor: the nearest message when nothing matches well."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        out: dict[str, Any] = {
            "rank": self.rank,
            "session_id": self.session_id,
            "message_id": self.message_id,
            "seq": self.seq,
            "source_id": self.source_id,
            "time": self.time,
            "date": _date(self.time),
            "role": self.role,
            "score": round(self.score, 4),
            "matched": list(self.matched),
            "why": list(self.why),
            "snippet": self.snippet,
        }
        if self.weak:
            out["weak"] = True
        return out


@dataclass(frozen=True, slots=True)
class MessageRanking:
    """The ranked messages of one query, and how they were found."""

    query: str
    mode: str
    """The retrieval that ran: ``lexical``, ``semantic`` or ``hybrid``."""
    results: list[RankedResult] = field(default_factory=list)
    notice: str | None = None
    """Why semantic search could not (fully) run, when it could not."""
    time: dict[str, Any] | None = None
    """What the query said about time (:meth:`~.timeframe.TimeFrame.describe`)."""
    strength: Strength | None = None
    """How well the best results match (:mod:`.floor`; None in lexical mode)."""
    order: str = "relevance"
    """How :attr:`results` are listed: ``relevance`` (best first) or ``time`` (oldest
    first: a question about the order of events, :mod:`.sequence`)."""
    order_words: tuple[str, ...] = ()
    """The words that asked for time order."""

    @property
    def no_good_match(self) -> bool:
        """Whether nothing cleared the floor (the one result left is the nearest, weak)."""
        return self.strength is not None and not self.strength.good

    @property
    def message(self) -> str | None:
        """What to tell a reader about the results as a whole (None: nothing)."""
        if self.no_good_match:
            return NO_GOOD_MATCH
        return IN_TIME_ORDER if self.order == "time" else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what ``mnemic sessions search --messages --json`` prints)."""
        out: dict[str, Any] = {
            "query": self.query,
            "retrieval": self.mode,
            "count": len(self.results),
            "order": self.order,
            "results": [r.to_dict() for r in self.results],
        }
        if self.order_words:
            out["order_words"] = list(self.order_words)
        if self.strength is not None:
            out["match"] = self.strength.to_dict()
        if self.no_good_match:
            out["no_good_match"] = True
        if self.message:
            out["message"] = self.message
        if self.notice:
            out["notice"] = self.notice
        if self.time:
            out["time"] = self.time
        return out


def search_messages(
    store: SessionStore,
    text: str,
    *,
    mode: str | None = None,
    limit: int = DEFAULT_LIMIT,
    roles: Sequence[str] | None = ("user", "assistant"),
    sources: Sequence[str] | None = None,
    since: float | None = None,
    until: float | None = None,
    as_of: float | None = None,
    exclude_sessions: Sequence[str] = (),
    embedder_loader: Callable[[], QueryEmbedder] | None = None,
    state: SemanticState | None = None,
    floor: bool = True,
    order: str = "auto",
) -> MessageRanking:
    """The ``limit`` messages of ``store`` that best answer ``text``, best first.

    ``mode`` (lexical, semantic, hybrid; None: hybrid when the semantic part can run)
    and the filters are those of ``session_search``; the query's words are ORed (a
    message holding more of them ranks higher). ``as_of`` (Unix time) asks what held
    then. ``embedder_loader`` loads the query embedder (None: lexical only); ``state``
    reuses a :class:`~.retrieval.SemanticState` checked before (many queries, one
    check). In the semantic and hybrid modes a ranking whose best matches are below the
    floor (:mod:`.floor`) keeps only its first message, marked ``weak``, and says
    ``no_good_match``; ``floor=False`` keeps every result (the verdict is still given:
    what the recall benches rank with).

    A question about the order of events ("What did I do after ...?", "How did my plan
    change over the sessions?", :mod:`.sequence`) is listed in time order (``order``:
    ``time``; each result keeps its relevance ``rank``), and for "after" / "before" the
    messages that came next (before) the best match join it. ``order`` (``auto``,
    ``relevance``, ``time``) overrides what the question says. Raises
    :class:`~mnemic.errors.InvalidArgument` for a bad ``mode``, role or ``order``.
    """
    mode = check_mode(mode)
    bad = [r for r in roles or () if r not in ROLES]
    if bad:
        raise InvalidArgument("role", f"Unknown role {bad[0]!r}; use some of: {', '.join(ROLES)}.")
    if order not in ORDERS:
        raise InvalidArgument("order", f"Unknown order {order!r}; use one of: {', '.join(ORDERS)}.")
    limit = max(1, min(MAX_LIMIT, int(limit)))
    query = parse_query(text).with_match("any")
    cue = _order_cue(text, order)
    if state is None:
        state = semantic_state(store, embedder_loader) if mode != "lexical" else SemanticState(None)
    frame = at_time(as_event(read_timeframe(text), cue), as_of)
    filters = SearchFilters(
        roles=tuple(roles) if roles else None,
        sources=tuple(sources) if sources else None,
        exclude_sessions=tuple(exclude_sessions),
        since=since,
        until=until,
    )
    fused, used, notice = candidates(
        store, query, text, filters, mode=mode, state=state, frame=frame
    )
    model = state.embedder.model_id if state.embedder is not None else None
    strength = judge(store, fused, query, used, model) if used != "lexical" else None
    weak = floor and strength is not None and not strength.good
    if weak or cue is None:
        head = fused[: 1 if weak else limit]
    else:
        head = follow(store, fused, cue, replace(filters, until=_until_of(filters, frame)),
                      limit=limit, question=text)  # fmt: skip
    faint = strength.faint if floor and strength is not None else None
    results = _resolve(store, head, store.forms_of(query), weak=weak, faint=faint)
    listed = "relevance"
    if cue is not None and not weak:
        results.sort(key=lambda r: (r.time, r.session_id, r.seq))
        listed = "time"
    described = frame.describe() if frame.words or as_of is not None else None
    words = cue.words if cue is not None and not weak else ()
    return MessageRanking(text, used, results, notice, described, strength, listed, words)


def _order_cue(text: str, order: str) -> OrderCue | None:
    if order == "relevance":
        return None
    cue = read_order(text)
    if cue is None and order == "time":
        return OrderCue("sequence", ())
    return cue


def _until_of(filters: SearchFilters, frame: TimeFrame) -> float | None:
    """The earlier of the filters' and the question's "until"."""
    if frame.until is None:
        return filters.until
    return frame.until if filters.until is None else min(filters.until, frame.until)


def _date(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def _resolve(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    query: Query,
    *,
    weak: bool = False,
    faint: Callable[[FusedMessage], bool] | None = None,
) -> list[RankedResult]:
    """The messages at the ranked positions (two reads: the rows, their import keys);
    ``weak`` marks them all, ``faint`` each one below the floor on its own."""
    spans = [(f.session_id, f.seq, f.seq + 1) for f in fused]
    rows = store.windows(spans) if spans else []
    found: list[tuple[FusedMessage, Message]] = [
        (f, msgs[0]) for f, msgs in zip(fused, rows, strict=True) if msgs
    ]
    keys = store.message_keys(m.id for _, m in found)
    by_pos = {(f.session_id, f.seq): m for f, m in found}
    out: list[RankedResult] = []
    for f, m in found:
        out.append(
            RankedResult(
                rank=len(out) + 1,
                session_id=f.session_id,
                message_id=m.id,
                seq=m.seq,
                role=m.role,
                time=m.timestamp,
                score=f.score,
                source_id=keys.get(m.id),
                matched=f.matched,
                why=_why(f, m, query, by_pos),
                snippet=_snippet(shown_text(m), query),
                weak=weak or (faint is not None and faint(f)),
            )
        )
    return out


def _why(
    f: FusedMessage, m: Message, query: Query, by_pos: dict[tuple[str, int], Message]
) -> tuple[str, ...]:
    near = [
        by_pos[(f.session_id, f.seq + d)].id
        for d in (-1, 1, -2, 2)
        if (f.session_id, f.seq + d) in by_pos
    ]
    return reasons(f, shown_text(m), query, neighbour=near[0] if near else None)


def _snippet(text: str, query: Query) -> str:
    flat = " ".join(text.split())
    spans = match_spans(flat, query, limit=1)
    start = max(0, spans[0][0] - SNIPPET_CHARS // 3) if spans else 0
    piece = flat[start : start + SNIPPET_CHARS]
    return ("..." if start else "") + piece + ("..." if start + SNIPPET_CHARS < len(flat) else "")
