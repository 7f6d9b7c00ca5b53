"""The shapes of ``session_search``: discovery, read, scroll and browse.

Backend-neutral: everything here goes through a :class:`~mnemic.sessions.store.SessionStore`.

* **discovery** (a query): ranked distinct conversations. Sessions linked by parent links
  (compression continuations) count as one conversation; each result carries the best
  matching message, a window of messages around it, and the first and last messages of the
  session ("bookends"). Automated sources (``demoted_sources``) rank after interactive
  ones; hidden sources never appear; the current session and its lineage are never
  returned as "the past". When no session holds every word, the search is relaxed to any
  word and says so. An optional summary per result (:mod:`.summarize`).
* **read** (a session id): the whole session, or its head and tail when it is long.
* **scroll** (a session id and a message id): a page of messages around that message.
* **browse** (nothing): the most recently active conversations.

Every response is a JSON-able dict bounded by :func:`bound` to a number of characters.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import InvalidArgument, MessageNotFound, SessionNotFound
from ...timefmt import local_time
from ..index.query import Query, match_spans, parse_query
from ..sql import SessionStore
from ..store import Message, SearchFilters, SessionInfo
from .explain import reasons, shown_text
from .floor import NO_GOOD_MATCH, judge
from .hybrid import FusedMessage
from .ranking import CANDIDATES, RankedMessage, rank
from .retrieval import (
    QueryEmbedder,
    SemanticState,
    candidates,
    check_mode,
    lexical_only,
    semantic_state as _semantic_state,
)
from .sequence import IN_TIME_ORDER, as_event, follow, read_order
from .summarize import Summarizer, SummaryRequest, summarize_all
from .timeframe import TimeFrame, at_time, read_timeframe

__all__ = [
    "SearchContext",
    "bound",
    "browse",
    "discover",
    "echoed",
    "rank_turns",
    "read_session",
    "scroll",
]

ECHO_CHARS = 300
"""How much of a query the answer repeats (``query``, ``searched``)."""


def echoed(text: str) -> str:
    """``text`` as the answer repeats it: a pasted document is cut to its start and says
    its length (whole, its two echoes filled the output budget and pushed every result
    out)."""
    if len(text) <= ECHO_CHARS:
        return text
    return f"{text[:ECHO_CHARS]}... ({len(text):,} chars in all)"


DEFAULT_LIMIT = 3
MAX_LIMIT = 10
DISCOVERY_WINDOW = 3
SCROLL_WINDOW = 8
MAX_WINDOW = 20
BOOKEND = 2
READ_WHOLE = 40
READ_HEAD = 20
READ_TAIL = 10
ANCHOR_CHARS = 1500
CONTEXT_CHARS = 500
TOOL_CHARS = 300
READ_CHARS = 1000
SNIPPET_CHARS = 240
MARK_OPEN, MARK_CLOSE = ">>>", "<<<"


@dataclass
class SearchContext:
    """What a search needs besides its arguments.

    ``current_session_id`` is the caller's live session: it and its lineage are excluded.
    """

    store: SessionStore
    current_session_id: str | None = None
    max_output_chars: int = 12000
    hidden_sources: Sequence[str] = ("subagent", "tool")
    demoted_sources: Sequence[str] = ("cron",)
    summarizer: Summarizer | None = None
    summarizer_loader: Callable[[], tuple[Summarizer | None, str | None]] | None = None
    """Makes ``summarizer`` (or says why there is none) when a summary is first asked
    for: a search that asks for none never builds an LLM client."""
    summary_timeout: float = 30.0
    summary_concurrency: int = 3
    summary_unavailable: str = "no LLM endpoint is configured"
    summary_default: bool = False
    embedder_loader: Callable[[], QueryEmbedder] | None = None
    """Loads the query embedder for semantic and hybrid search (None: lexical only)."""
    _lineage: frozenset[str] | None = field(default=None, repr=False)
    _semantic: SemanticState | None = field(default=None, repr=False)

    def load_summarizer(self) -> Summarizer | None:
        """The summarizer, made by ``summarizer_loader`` on first use."""
        loader, self.summarizer_loader = self.summarizer_loader, None
        if self.summarizer is None and loader is not None:
            self.summarizer, why = loader()
            if why:
                self.summary_unavailable = why
        return self.summarizer

    def semantic(self) -> SemanticState:
        """Whether semantic search can run here (checked once per context)."""
        if self._semantic is None:
            self._semantic = _semantic_state(self.store, self.embedder_loader)
        return self._semantic

    @property
    def lineage(self) -> frozenset[str]:
        """Ids of the current session's lineage (empty without a current session)."""
        if self._lineage is None:
            sid = self.current_session_id
            if sid and self.store.has_session(sid):
                self._lineage = frozenset(self.store.lineage(sid))
            else:
                self._lineage = frozenset([sid] if sid else [])
        return self._lineage

    def refuse_current(self, session_id: str) -> None:
        """Raise when ``session_id`` belongs to the current conversation."""
        if session_id in self.lineage:
            raise InvalidArgument(
                "session_id",
                f"Session {session_id!r} is the current conversation (or part of its "
                "compression lineage): it is already in your context, so session_search "
                "does not return it. Search for other sessions instead.",
            )


# --- formatting ----------------------------------------------------------------------


def when(ts: float | None) -> str | None:
    """Local ``YYYY-MM-DD HH:MM +HH:MM`` of a Unix time: with the offset of that moment,
    so a model (or a client in another zone) reads the time without guessing the zone."""
    if ts is None:
        return None
    return local_time(ts)


def _clip(text: str, limit: int, center: int | None = None) -> str:
    if len(text) <= limit:
        return text
    if center is None or center < limit // 2:
        return text[: max(0, limit - 3)].rstrip() + "..."
    start = max(0, min(center - limit // 3, len(text) - limit + 6))
    piece = text[start : start + limit - 6].strip()
    tail = "..." if start + limit - 6 < len(text) else ""
    return "..." + piece + tail


def snippet(text: str, query: Query, width: int = SNIPPET_CHARS) -> str:
    """A piece of ``text`` around its first match, matches marked ``>>>like this<<<``."""
    spans = match_spans(text, query)
    if not spans:
        return _clip(" ".join(text.split()), width)
    first = spans[0][0]
    start = max(0, first - width // 3)
    end = min(len(text), start + width)
    out = []
    pos = start
    for a, b in spans:
        if b <= start or a >= end:
            continue
        a, b = max(a, start), min(b, end)
        out.append(text[pos:a])
        out.append(MARK_OPEN + text[a:b] + MARK_CLOSE)
        pos = b
    out.append(text[pos:end])
    body = " ".join("".join(out).split())
    return ("..." if start > 0 else "") + body + ("..." if end < len(text) else "")


def message_dict(
    m: Message,
    *,
    limit: int = CONTEXT_CHARS,
    query: Query | None = None,
    anchor: bool = False,
) -> dict[str, Any]:
    """A message as a search result shows it (content clipped)."""
    text = m.content or ""
    cap = min(limit, TOOL_CHARS) if m.role == "tool" and not anchor else limit
    center = None
    if query is not None and len(text) > cap:
        spans = match_spans(text, query, limit=1)
        center = spans[0][0] if spans else None
    out: dict[str, Any] = {"id": m.id, "role": m.role, "content": _clip(text, cap, center)}
    out["time"] = when(m.timestamp)
    if m.name:
        out["name"] = m.name
    if m.tool_name:
        out["tool_name"] = m.tool_name
    if m.tool_calls:
        calls = []
        for c in m.tool_calls:
            inner = c.get("function")
            fn: dict[str, Any] = inner if isinstance(inner, dict) else c
            args = fn.get("arguments", fn.get("input", ""))
            if not isinstance(args, str):
                args = json.dumps(args, ensure_ascii=False)
            calls.append({"name": fn.get("name"), "arguments": _clip(args, 200)})
        out["tool_calls"] = calls
    if m.tool_call_id:
        out["tool_call_id"] = m.tool_call_id
    if anchor:
        out["match"] = True
    return out


def session_meta(info: SessionInfo) -> dict[str, Any]:
    """The session fields a result shows."""
    out: dict[str, Any] = {
        "session_id": info.id,
        "title": info.title,
        "source": info.source,
        "when": when(info.started_at),
        "last_active": when(info.last_active),
        "message_count": info.message_count,
    }
    if info.model:
        out["model"] = info.model
    if info.parent_id:
        out["parent_session_id"] = info.parent_id
    return out


# --- discovery -------------------------------------------------------------------------


def discover(
    ctx: SearchContext,
    text: str,
    *,
    limit: int = DEFAULT_LIMIT,
    window: int = DISCOVERY_WINDOW,
    roles: Sequence[str] | None = None,
    sources: Sequence[str] | None = None,
    since: float | None = None,
    until: float | None = None,
    sort: str = "relevance",
    summarize: bool = False,
    mode: str | None = None,
    as_of: float | None = None,
) -> dict[str, Any]:
    """The discovery shape: ranked distinct past conversations matching ``text``.

    ``as_of`` (Unix time) asks what held then: later messages are left out and the
    latest statement before it ranks first; time words in ``text`` ("as of March",
    "originally", "on 3 June 2023") are read the same way (:mod:`.timeframe`).

    ``mode`` (lexical, semantic, hybrid; None: hybrid when the semantic part can run,
    else lexical) picks the retrieval (:mod:`.semantic`); the response says which ran
    (``retrieval``), which part matched each message (``matched``) and, when semantic
    search was wanted but could not fully run, why (``notice``).
    """
    store = ctx.store
    mode = check_mode(mode)
    query = parse_query(text)
    if query.natural:
        query = query.with_match("any")
    base: dict[str, Any] = {"success": True, "mode": "discover", "query": echoed(text)}
    state = ctx.semantic() if mode != "lexical" else SemanticState(None)
    if query.empty and not (state.usable and text.strip()):
        return {
            **base,
            "results": [],
            "count": 0,
            "message": "The query has no searchable words. Pass words, a quoted phrase, an "
            "e-mail/URL/identifier, or omit query to browse recent sessions.",
        }
    filters = SearchFilters(
        roles=tuple(roles) if roles else ("user", "assistant"),
        sources=tuple(sources) if sources else None,
        exclude_sources=tuple(s for s in ctx.hidden_sources if not sources or s not in sources),
        exclude_sessions=tuple(sorted(ctx.lineage)),
        since=since,
        until=until,
    )
    order = {"relevance": "rank", "newest": "newest", "oldest": "oldest"}.get(sort, "rank")
    cue = read_order(text) if order == "rank" else None
    frame = at_time(as_event(read_timeframe(text), cue), as_of)
    if frame.until is not None and (until is None or frame.until < until):
        filters = replace(filters, until=frame.until)
    if order != "rank":  # time order: lexical matches only
        state = SemanticState(None, "sort=newest/oldest orders lexical matches only.")
    ranked, used, notice = _ranked(store, query, text, filters, order, mode, state, frame)
    relaxed = False
    if query.match == "all" and len(query.terms) > 1 and not any(r.hit for r in ranked):
        wider, used, notice = _ranked(
            store, query.with_match("any"), text, filters, order, mode, state, frame
        )
        relaxed = any(r.hit for r in wider)
        ranked = wider if relaxed or not ranked else ranked
    titled = None
    if order == "rank":
        titled = _title_match(ctx, text, filters)
    # below the floor (semantic, hybrid): "no good match" and the nearest result, weak
    model = state.embedder.model_id if state.embedder is not None else None
    strength = judge(store, ranked, query, used, model) if order == "rank" else None
    weak = strength is not None and not strength.good and titled is None
    shown = 1 if weak else limit
    cue = None if weak else cue
    if cue is not None:  # order of events: what came next joins, one thread may return
        ranked = follow(store, ranked, cue, filters, limit=len(ranked), question=text)
    chosen, roots = _choose_sessions(
        ctx, ranked, shown, titled, demote=order == "rank", threads=cue is None
    )
    matched = {(r.session_id, r.seq): list(r.matched) for r in ranked if r.matched}
    # what the results mark as matched: the other forms its words matched too
    seen = store.forms_of(query.with_match("any") if relaxed else query)
    results = _results(ctx, chosen, roots, seen, window, matched)
    if cue is not None:  # each keeps its place by relevance (IN_TIME_ORDER names it)
        for place, r in enumerate(results, 1):
            r["rank"] = place
        results.sort(key=_match_time)
    # below the floor on its own: weak too, when better results cleared it (one a session)
    faint = {
        sid
        for sid, a, by_title in chosen
        if a is not None and not by_title and strength is not None and strength.faint(a)
    }
    for r in results:
        if weak or r["session_id"] in faint:
            r["weak"] = True
    if summarize and results:
        _add_summaries(ctx, results, ranked, seen)
    # what was searched: the words, each followed by the other forms it matched too
    searched = echoed(replace(seen, match=query.match).describe())
    out = {**base, "searched": searched, "results": results, "count": len(results)}
    out["retrieval"] = used
    if strength is not None and used != "lexical":
        out["match"] = strength.to_dict()
    if weak and results:
        out["no_good_match"] = True
    if notice:
        out["notice"] = notice
    if query.dropped:
        out["ignored_words"] = list(query.dropped)
    if frame.words or as_of is not None:
        out["time"] = frame.describe()
    if weak and results:
        out["message"] = NO_GOOD_MATCH
    elif cue is not None and results:
        out["order"] = "time"
        out["message"] = IN_TIME_ORDER
    elif relaxed:
        out["message"] = "No session contains all the words; these contain some of them."
    elif not results:
        out["message"] = (
            "No matching past sessions. Try other or fewer words, a synonym, or an OR "
            "between alternatives; session_search only covers past conversations."
        )
    return out


def _ranked(
    store: SessionStore,
    query: Query,
    text: str,
    filters: SearchFilters,
    order: str,
    mode: str | None,
    state: SemanticState,
    frame: TimeFrame,
) -> tuple[list[FusedMessage], str, str | None]:
    if order == "rank":
        return candidates(store, query, text, filters, mode=mode, state=state, frame=frame)
    notice = state.notice if mode not in (None, "lexical") else None
    if query.empty:
        return [], "lexical", notice
    hits = store.search(query, filters, limit=CANDIDATES, sort=order)
    # keep the time order: turn positions into decreasing pseudo-scores
    n = len(hits)
    ranked = [RankedMessage(h.session_id, h.seq, float(n - i), h) for i, h in enumerate(hits)]
    return lexical_only(ranked), "lexical", notice


def _title_match(ctx: SearchContext, text: str, filters: SearchFilters) -> SessionInfo | None:
    """A past session whose title is the query, if it passes the filters."""
    titled = ctx.store.find_title(text.strip().strip("\"'`"))
    if titled is None or titled.id in ctx.lineage or titled.source in filters.exclude_sources:
        return None
    if filters.sources is not None and titled.source not in filters.sources:
        return None
    if filters.since is not None and titled.last_active < filters.since:
        return None
    if filters.until is not None and titled.started_at >= filters.until:
        return None
    return titled


def _choose_sessions(
    ctx: SearchContext,
    ranked: Sequence[FusedMessage],
    limit: int,
    titled: SessionInfo | None,
    *,
    demote: bool,
    threads: bool = True,
) -> tuple[list[tuple[str, FusedMessage | None, bool]], dict[str, str]]:
    """(session id, anchor, matched-by-title) for up to ``limit`` distinct lineages
    (``threads``; else distinct sessions, several of one lineage allowed), and the
    lineage roots of the candidates (read at once)."""
    anchors: dict[str, FusedMessage] = {}
    for r in ranked:
        if (r.direct or r.notes[-1:] in (("after",), ("before",))) and r.session_id not in anchors:
            anchors[r.session_id] = r
    order = [sid for sid in dict.fromkeys(r.session_id for r in ranked) if sid in anchors]
    demoted = set(ctx.demoted_sources) if demote else set()
    first = [s for s in order if anchors[s].source not in demoted]
    later = [s for s in order if anchors[s].source in demoted]
    candidates = ([titled.id] if titled is not None else []) + first + later
    roots = ctx.store.roots(candidates) if candidates else {}
    chosen: list[tuple[str, FusedMessage | None, bool]] = []
    seen_roots: set[str] = set()
    if titled is not None:
        seen_roots.add(roots[titled.id])
        chosen.append((titled.id, anchors.get(titled.id), True))
    for sid in first + later:
        if len(chosen) >= limit:
            break
        if (roots[sid] if threads else sid) in seen_roots:
            continue
        seen_roots.add(roots[sid] if threads else sid)
        chosen.append((sid, anchors[sid], False))
    return chosen, roots


def _results(
    ctx: SearchContext,
    chosen: Sequence[tuple[str, FusedMessage | None, bool]],
    roots: dict[str, str],
    query: Query,
    window: int,
    matched: dict[tuple[str, int], list[str]],
) -> list[dict[str, Any]]:
    """The shown results of the ``chosen`` sessions: their sessions, windows and
    bookends are read together (one statement each, one round trip to a server),
    whatever the number of results. A session deleted since the search is left out."""
    if not chosen:
        return []
    spans = []
    for sid, anchor, _ in chosen:
        seq = anchor.seq if anchor is not None else 0
        spans.append((sid, max(0, seq - window), seq + window + 1))
    infos, wins, ends = ctx.store.shown(spans, count=BOOKEND)
    return [
        _result(infos[sid], anchor, query, by_title, matched, roots, span, msgs, edges)
        for (sid, anchor, by_title), span, msgs, edges in zip(
            chosen, spans, wins, ends, strict=True
        )
        if sid in infos
    ]


def _match_time(result: dict[str, Any]) -> str:
    """A result's place in time: its matching message's (else its session's start)."""
    shown = next((m for m in result.get("messages", ()) if m.get("match")), None)
    return str((shown or result).get("time") or result.get("when") or "")


def _result(
    info: SessionInfo,
    anchor: FusedMessage | None,
    query: Query,
    by_title: bool,
    matched: dict[tuple[str, int], list[str]],
    roots: dict[str, str],
    span: tuple[str, int, int],
    msgs: list[Message],
    edges: tuple[list[Message], list[Message]],
) -> dict[str, Any]:
    session_id, lo, _ = span
    seq = anchor.seq if anchor is not None else 0
    anchor_msg = next((m for m in msgs if m.seq == seq), None)
    out = session_meta(info)
    if by_title and anchor is None:
        out["matched_role"] = "session_title"
        out["snippet"] = f"Session title matched: {info.title}"
    elif anchor_msg is not None:
        out["matched_role"] = anchor_msg.role
        out["match_message_id"] = anchor_msg.id
        out["snippet"] = snippet(shown_text(anchor_msg), query)
    if anchor is not None:
        out["score"] = round(anchor.score, 3)
        out["matched"] = list(anchor.matched)
        if anchor_msg is not None:
            out["why"] = list(reasons(anchor, shown_text(anchor_msg), query))
        if anchor.notes:
            out["notes"] = list(anchor.notes)
    root = roots.get(session_id, session_id)
    if root != session_id:
        out["lineage_root"] = root
    out["first_messages"] = [message_dict(m, query=query) for m in edges[0]]
    out["messages"] = [
        message_dict(m, query=query, anchor=m.seq == seq and anchor is not None,
                     limit=ANCHOR_CHARS if m.seq == seq else CONTEXT_CHARS)
        for m in msgs
    ]  # fmt: skip
    for m, shown in zip(msgs, out["messages"], strict=True):
        parts = matched.get((session_id, m.seq))
        if parts:
            shown["matched"] = parts
    last_seq = msgs[-1].seq if msgs else seq
    # the messages after the window: those after its last one (none between it and stop)
    out["last_messages"] = [message_dict(m, query=query) for m in edges[1]]
    out["messages_before"] = lo
    out["messages_after"] = max(0, info.message_count - last_seq - 1)
    return out


def _add_summaries(
    ctx: SearchContext,
    results: list[dict[str, Any]],
    ranked: Sequence[FusedMessage],
    query: Query,
) -> None:
    store = ctx.store
    spans: list[tuple[str, int, int]] = []
    owners: list[int] = []
    for i, res in enumerate(results):
        sid = res["session_id"]
        seqs = sorted({r.seq for r in ranked if r.session_id == sid and r.direct})[:8]
        for seq in seqs or [0]:
            spans.append((sid, max(0, seq - 3), seq + 4))
            owners.append(i)
    infos = store.get_sessions([res["session_id"] for res in results])
    picked: list[dict[int, Message]] = [{} for _ in results]
    for i, msgs in zip(owners, store.windows(spans), strict=True):
        picked[i].update((m.seq, m) for m in msgs)
    requests = []
    for res, found in zip(results, picked, strict=True):
        info = infos.get(res["session_id"])
        if info is None:  # deleted since the search
            raise SessionNotFound(res["session_id"])
        messages = [found[k] for k in sorted(found)]
        requests.append(SummaryRequest(query.text, info, messages, max_chars=1200))
    outcomes = summarize_all(
        ctx.load_summarizer(),
        requests,
        query,
        timeout=ctx.summary_timeout,
        concurrency=ctx.summary_concurrency,
        unavailable=ctx.summary_unavailable,
    )
    for res, outcome in zip(results, outcomes, strict=True):
        res["summary"] = outcome.text
        res["summary_kind"] = outcome.kind
        if outcome.note:
            res["summary_note"] = outcome.note
        # the summary replaces the bookends; keep the matched window short
        res.pop("first_messages", None)
        res.pop("last_messages", None)
        res["messages"] = [m for m in res["messages"] if m.get("match")]


# --- read, scroll, browse ----------------------------------------------------------------


def read_session(ctx: SearchContext, session_id: str) -> dict[str, Any]:
    """The read shape: a whole session, or its head and tail when long."""
    store = ctx.store
    info = store.get_session(session_id)
    ctx.refuse_current(session_id)
    n = info.message_count
    out: dict[str, Any] = {"success": True, "mode": "read", **session_meta(info)}
    if n <= READ_WHOLE:
        msgs = store.messages(session_id)
        out["messages"] = [message_dict(m, limit=READ_CHARS) for m in msgs]
        out["truncated"] = False
        return out
    head = store.messages(session_id, start=0, stop=READ_HEAD)
    tail = store.messages(session_id, start=n - READ_TAIL, stop=n)
    out["messages"] = [message_dict(m, limit=READ_CHARS) for m in head]
    out["omitted"] = {"count": n - READ_HEAD - READ_TAIL, "after_message_id": head[-1].id}
    out["messages"] += [message_dict(m, limit=READ_CHARS) for m in tail]
    out["truncated"] = True
    out["message"] = (
        f"Showing the first {READ_HEAD} and last {READ_TAIL} of {n} messages. To read the "
        f"middle, call session_search with session_id={session_id!r} and "
        f"around_message_id={head[-1].id} (then the last id shown, to page on)."
    )
    return out


def scroll(
    ctx: SearchContext, session_id: str, around_message_id: int, window: int = SCROLL_WINDOW
) -> dict[str, Any]:
    """The scroll shape: messages around one message of a session."""
    store = ctx.store
    info = store.get_session(session_id)
    ctx.refuse_current(session_id)
    anchor = store.message(around_message_id)
    if anchor is None or anchor.session_id != session_id:
        extra = {}
        if anchor is not None:
            extra["message_session_id"] = anchor.session_id
        raise MessageNotFound(around_message_id, session_id, **extra)
    lo, hi = max(0, anchor.seq - window), anchor.seq + window + 1
    msgs = store.messages(session_id, start=lo, stop=hi)
    out: dict[str, Any] = {"success": True, "mode": "scroll", **session_meta(info)}
    out["around_message_id"] = around_message_id
    out["messages"] = [
        message_dict(m, limit=READ_CHARS, anchor=m.id == around_message_id) for m in msgs
    ]
    out["messages_before"] = lo
    out["messages_after"] = max(0, info.message_count - (msgs[-1].seq if msgs else 0) - 1)
    if lo > 0:
        out["earlier_page"] = {"session_id": session_id, "around_message_id": msgs[0].id}
    if out["messages_after"] > 0:
        out["later_page"] = {"session_id": session_id, "around_message_id": msgs[-1].id}
    return out


def browse(
    ctx: SearchContext,
    *,
    limit: int = DEFAULT_LIMIT,
    sources: Sequence[str] | None = None,
    since: float | None = None,
    until: float | None = None,
) -> dict[str, Any]:
    """The browse shape: the most recently active past conversations."""
    store = ctx.store
    hidden = tuple(s for s in ctx.hidden_sources if not sources or s not in sources)
    candidates = store.list_sessions(
        limit=limit * 3 + len(ctx.lineage),
        sources=list(sources) if sources else None,
        exclude_sources=hidden,
        exclude_sessions=sorted(ctx.lineage),
        before=until,
    )
    candidates = [c for c in candidates if since is None or c.last_active >= since]
    roots = store.roots([info.id for info in candidates]) if candidates else {}
    picked: list[SessionInfo] = []
    seen: set[str] = set()
    for info in candidates:
        root = roots[info.id]
        if root in seen or root in ctx.lineage:
            continue
        seen.add(root)
        picked.append(info)
        if len(picked) >= limit:
            break
    top = 2**62  # the first user message of the whole session; nothing after it
    firsts = store.bookends([(i.id, top, top) for i in picked], count=1, roles=("user",))
    results = []
    for info, (first, _) in zip(picked, firsts, strict=True):
        meta = session_meta(info)
        meta["preview"] = _clip(" ".join((first[0].content or "").split()), 200) if first else ""
        results.append(meta)
    return {
        "success": True,
        "mode": "browse",
        "results": results,
        "count": len(results),
        "message": (
            (
                "The most recently active past session. Pass query= to search it, or "
                "session_id= to read it."
                if len(results) == 1
                else f"The {len(results)} most recently active past sessions. Pass query= to "
                "search them, or session_id= to read one."
            )
            if results
            else "There are no past sessions yet: nothing to search or read."
        ),
    }


# --- output bound ------------------------------------------------------------------------


def _size(obj: Any) -> int:
    return len(json.dumps(obj, ensure_ascii=False))


def _message_lists(resp: dict[str, Any]) -> list[list[dict[str, Any]]]:
    lists = []
    if isinstance(resp.get("messages"), list):
        lists.append(resp["messages"])
    for res in resp.get("results") or []:
        for key in ("messages", "first_messages", "last_messages"):
            if isinstance(res.get(key), list):
                lists.append(res[key])
    return lists


def bound(resp: dict[str, Any], max_chars: int) -> dict[str, Any]:
    """Shrink ``resp`` in place until its JSON fits ``max_chars`` characters.

    In order: clip message contents harder, drop bookends, narrow windows around the
    matched message, drop the lowest results, and finally cut the remaining text.
    ``truncated`` and a ``note`` tell the model what happened.
    """
    if _size(resp) <= max_chars:
        return resp
    resp["truncated"] = True
    resp["note"] = (
        f"Output shortened to fit {max_chars} characters. Read more with session_id (+ "
        "around_message_id to scroll), or narrow the search."
    )
    for cap in (600, 300, 150, 80):
        for msgs in _message_lists(resp):
            for m in msgs:
                limit = cap * 2 if m.get("match") else cap
                if isinstance(m.get("content"), str) and len(m["content"]) > limit:
                    m["content"] = _clip(m["content"], limit)
        if _size(resp) <= max_chars:
            return resp
    results = resp.get("results") or []
    for res in reversed(results):
        res.pop("first_messages", None)
        res.pop("last_messages", None)
        if _size(resp) <= max_chars:
            return resp
    for msgs in _message_lists(resp):
        while len(msgs) > 1 and _size(resp) > max_chars:
            idx = next((i for i, m in enumerate(msgs) if m.get("match")), len(msgs) // 2)
            msgs.pop(0 if idx > len(msgs) - 1 - idx else -1)
    while len(results) > 1 and _size(resp) > max_chars:
        results.pop()
        resp["count"] = len(results)
    if _size(resp) > max_chars:
        for msgs in _message_lists(resp):
            for m in msgs:
                m["content"] = _clip(str(m.get("content") or ""), 40)
        for res in results:
            for key in ("summary", "snippet", "title"):
                if isinstance(res.get(key), str):
                    res[key] = _clip(res[key], 200)
    if _size(resp) > max_chars:  # pathological: give up detail, keep the envelope
        keep: dict[str, Any] = {
            k: resp[k] for k in ("success", "mode", "count", "truncated", "note") if k in resp
        }
        keep["results"] = [
            {k: r.get(k) for k in ("session_id", "match_message_id", "when")} for r in results
        ]
        resp.clear()
        resp.update(keep)
    return resp


def rank_turns(
    store: SessionStore, text: str, filters: SearchFilters, *, limit: int = 50
) -> list[RankedMessage]:
    """Rank message positions for a natural-language question (used by benchmarks).

    The same ranking discovery uses, without grouping by session.
    """
    query = parse_query(text, match="any")
    return rank(store.search(query, filters, limit=CANDIDATES))[:limit]
