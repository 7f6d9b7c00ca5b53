"""Retrieval modes of session search: lexical, semantic and hybrid candidates from a store.

:func:`candidates` is the one place that turns a query into ranked message positions for
``session_search`` discovery and the ``recall`` provider:

* ``lexical``: bm25 with neighbour context and the session prior (:mod:`.ranking`);
* ``semantic``: the messages nearest the query's embedding (the search of the store's
  ``vectors``), resolved to positions;
* ``hybrid``: both, fused (:func:`~.hybrid.fuse`); the lexical side weighs by the share
  of the question's words it can read at all (:func:`readable_share`).

The semantic part needs an embedder (the ``semantic`` extra) and a store with vectors of
that embedder's model. :func:`semantic_state` checks both once per search context and
says why semantic search cannot run or is incomplete; a search asked for a mode it cannot
serve returns lexical results with that ``notice``, never an error. The default mode is
hybrid when the semantic part can run, else lexical.

Nothing here imports numpy or loads the model: the embedder comes from a loader the
caller passes (:func:`default_embedder_loader` for a home).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ...embedding.model import load_embedder
from ...errors import EmbeddingModelDamaged, InvalidArgument, MnemicError, SemanticExtraMissing
from ...tooling import json_shown
from ..index.query import Query, Term
from ..index.stems import STOP_WORDS, words
from ..sql import SessionStore
from ..store import Message, SearchFilters
from .bridge import applies, bridge_words, bridged_query
from .freshness import freshen
from .hybrid import FusedMessage, SemanticHit, fuse
from .query_vectors import query_vectors
from .ranking import CANDIDATES, RankedMessage, rank_messages
from .repeats import discount_repeats
from .speaker import (
    NameMatcher,
    asked_role,
    place_statements,
    prefer_named,
    prefer_role,
    scripts,
    yield_replies,
)
from .timeframe import TimeFrame, read_timeframe

__all__ = [
    "ENABLE_HINT",
    "MODES",
    "SEMANTIC_CANDIDATES",
    "STATE_MAX_AGE",
    "QueryEmbedder",
    "SemanticState",
    "candidates",
    "check_mode",
    "default_embedder_loader",
    "lexical_only",
    "readable_share",
    "semantic_state",
]

MODES = ("lexical", "semantic", "hybrid")
"""The retrieval modes of ``session_search``."""
SEMANTIC_CANDIDATES = 50
"""Messages the vector search returns per query (fused with the lexical candidates)."""
QUERY_CHARS = 500
"""Characters of a query that are embedded. A pasted log as a "query" would otherwise be
windowed through the model in full (seconds, not milliseconds: the demo's 9,333-character
paste took 12 s and timed the recall provider out); its meaning is in its start
(about 128 tokens of prose), and the lexical part still searches every word."""
NAMED_SPEAKERS = True
"""Whether a question in the third person that names one speaker of a conversation
prefers that speaker's words (:func:`~.speaker.prefer_named`; off: the ranking before it,
for the benches' ablation)."""
NAMES_BY_MEANING = True
"""Whether a question written in another script than the speakers' names ("卡罗琳…" of
"Caroline") finds the speaker it names through the embedder
(:class:`~.speaker.NameMatcher`; off: literal names only, for the benches' ablation)."""
REPEATS = True
"""Whether a sentence that recurs across the best matches (a template reply, an echo of
the user's words) counts for less (:func:`~.repeats.discount_repeats`; off: the ranking
before it, for the benches' ablation)."""
STATEMENTS = True
"""Whether hybrid places the user's statement directly above an assistant reply among the
best ten that answers it (:func:`~.speaker.place_statements`, recall 30; off: the ranking
before it, for the benches' ablation)."""
REPLIES = True
"""Whether hybrid lets an assistant's reply give way to the user's statement it follows
when that ranks above it (:func:`~.speaker.yield_replies`, recall 35; off: the ranking
before it, for the benches' ablation)."""
READABLE = True
"""Whether the lexical side weighs only by the share of the question's words it can
match at all (:func:`readable_share`; off: its full weight, for the benches' ablation)."""
HELD = True
"""Whether a word of the question the store's full-text index holds nowhere counts as
unreadable too (:func:`readable_share`'s ``held``; off: the script alone decides, for the
benches' ablation)."""
SCRIPT_SAMPLE = 5
"""The nearest messages by meaning whose scripts stand for the store's (:func:`readable_share`)."""
SCRIPT_CHARS = 300
"""Characters of each of them read for its scripts."""
ENABLE_HINT = (
    "To search by meaning: pip install 'mnemic[semantic]', then run `mnemic sessions embed`."
)


class QueryEmbedder(Protocol):
    """What search needs of an embedder (``mnemic.embedding``'s ``Embedder`` has it)."""

    model_id: str

    def embed_queries(self, texts: Sequence[str]) -> Any:
        """(n, dim) L2-normalised vectors."""
        ...


EmbedderLoader = Callable[[], QueryEmbedder]


def default_embedder_loader() -> QueryEmbedder:
    """The shipped embedder (``mnemic.embedding.model.load_embedder``), loaded once.

    Raises ``ImportError`` when the embedding package or the extra is absent, and the
    package's typed errors (a :class:`~mnemic.errors.MnemicError`) for a damaged model.
    """
    embedder: QueryEmbedder = load_embedder()
    return embedder


@dataclass(frozen=True)
class SemanticState:
    """Whether the semantic part can run for one store, and what to tell the model."""

    embedder: QueryEmbedder | None
    notice: str | None = None
    """Why semantic search is off or incomplete, and how to fix it (None: all good)."""
    installed: bool = False
    """Whether the extra is installed (the embedder loaded, or failed as a damaged
    model): the default mode then reports problems, not only an explicit request."""
    code: str | None = None
    """What the notice is about: ``off``, ``extra_missing``, ``model_damaged``,
    ``unsupported`` (the store keeps no vectors), ``stale`` (messages without a vector),
    ``failed`` (None: no notice)."""

    @property
    def usable(self) -> bool:
        """Whether semantic candidates can be searched at all."""
        return self.embedder is not None


STATE_MAX_AGE = 30.0
"""Seconds a store's vector counts are reused by :func:`semantic_state` (counting scans
the messages; a search must not pay that every time). The store drops its count as soon
as vectors are written, so a backfill in this process is seen at once."""


def semantic_state(
    store: SessionStore, loader: EmbedderLoader | None, *, max_age: float = STATE_MAX_AGE
) -> SemanticState:
    """Check the embedder and the store's vectors (see the module docstring).

    The embedder is loaded once per process by the shipped loader; the counts come from
    the status cache of the store's ``vectors`` (at most ``max_age`` seconds old, dropped by any
    vector write). There is no other cache: the answer always reflects this process's
    own writes.
    """
    if loader is None:
        return SemanticState(
            None,
            'Semantic search is switched off here ([sessions] semantic = "off", or no '
            "embedder was given); results are lexical. " + ENABLE_HINT,
            code="off",
        )
    try:
        embedder = loader()
    except ImportError:
        return SemanticState(
            None,
            "Semantic search needs the optional 'semantic' extra. " + ENABLE_HINT,
            code="extra_missing",
        )
    except MnemicError as exc:  # the typed error says what is wrong and how to repair it
        # the embedding package's "extra not installed" error is the quiet default
        missing = isinstance(exc, SemanticExtraMissing)
        damaged = isinstance(exc, EmbeddingModelDamaged)
        return SemanticState(
            None,
            f"{exc} {ENABLE_HINT}",
            not missing,
            code="extra_missing" if missing else "model_damaged" if damaged else "failed",
        )
    except Exception as exc:  # any other failure of the model must not reach the model
        return SemanticState(
            None,
            f"The embedding model failed to load ({type(exc).__name__}: {exc}); reinstall "
            "it with pip install --force-reinstall 'mnemic[semantic]'. Showing lexical "
            "results.",
            True,
            code="failed",
        )
    vectors = store.vectors
    if vectors is None:
        return SemanticState(
            None,
            "This session store keeps no vectors, so only lexical search runs.",
            True,
            code="unsupported",
        )
    try:
        status = vectors.status(embedder.model_id, max_age=max_age)
    except Exception as exc:
        return SemanticState(
            None,
            f"The vector index cannot be read ({type(exc).__name__}: {exc}).",
            True,
            code="failed",
        )
    embedded, total, other = status.embedded, status.total, status.other_models
    if total and not embedded:
        why = (
            f"none of the {total:,} messages has a vector of the current model yet"
            if not other
            else f"the {other:,} stored vectors were made by another model (never mixed)"
        )
        return SemanticState(
            None,
            f"Semantic search is installed but {why}; run `mnemic sessions embed` to embed "
            "them now (`mnemic chat` and Hermes through `mnemic integrate hermes` embed only "
            "the messages they record). Showing lexical results.",
            True,
            code="stale",
        )
    if embedded < total:
        return SemanticState(
            embedder,
            f"{total - embedded:,} of {total:,} messages have no vector yet, so meaning-based "
            "matches may miss them; `mnemic sessions embed` completes the index.",
            True,
            code="stale",
        )
    return SemanticState(embedder, None, True)


def check_mode(mode: Any) -> str | None:
    """``mode`` validated (None: the default)."""
    if mode is None or mode == "":
        return None
    if not isinstance(mode, str) or mode.strip().lower() not in MODES:
        raise InvalidArgument(
            "mode",
            f"mode must be one of {', '.join(MODES)} (or omitted), not {json_shown(mode)}.",
        )
    return mode.strip().lower()


def lexical_only(ranked: Sequence[RankedMessage]) -> list[FusedMessage]:
    """Lexical ranked positions in the fused shape."""
    return [
        FusedMessage(r.session_id, r.seq, r.score, ("lexical",) if r.hit else (), r.hit, None)
        for r in ranked
    ]


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _query_vector(embedder: QueryEmbedder, text: str) -> Any:
    """The vector of ``text`` (its first :data:`QUERY_CHARS` characters), remembered
    between calls of this process (:mod:`.query_vectors`)."""
    return query_vectors(embedder, [text[:QUERY_CHARS]])[0]


def _semantic_soon(
    store: SessionStore, embedder: QueryEmbedder, text: str, filters: SearchFilters
) -> Future[tuple[Any, list[SemanticHit], set[str] | None]]:
    """The semantic arm on a helper thread while the lexical search runs: the query's
    vector (the model's engine releases the GIL), the vector search (numpy releases it
    for the matrix work) and the hits' positions; the store serialises its reads.
    Its result is (the query's vector, the hits, the scripts of the nearest hits'
    texts): the vector also serves the speaker step (:class:`.speaker.NameMatcher`),
    the scripts the fusion (:func:`readable_share`)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mnemic-embed")

    def arm() -> tuple[Any, list[SemanticHit], set[str] | None]:
        vec = _query_vector(embedder, text)
        read: dict[int, Message] = {}
        hits = _semantic_hits(store, embedder, vec, filters, SEMANTIC_CANDIDATES, read)
        return vec, hits, _nearest_scripts(hits, read) if READABLE else None

    return _pool.submit(arm)


def _nearest_scripts(hits: Sequence[SemanticHit], read: dict[int, Message]) -> set[str]:
    """The scripts of the :data:`SCRIPT_SAMPLE` messages nearest by meaning (their first
    :data:`SCRIPT_CHARS` characters; ``read``: their texts, as the hits' read found
    them): the scripts the store writes in, where the question is."""
    near = (read.get(h.message_id) for h in hits[:SCRIPT_SAMPLE])
    return scripts("".join((m.content or "")[:SCRIPT_CHARS] for m in near if m is not None))


def readable_share(
    text: str,
    written: set[str] | None,
    held: Callable[[list[str]], list[str]] | None = None,
) -> float:
    """The share of ``text``'s content words (those with letters) whose letters are all
    of the scripts in ``written`` and that ``held`` keeps (the ones the store's index
    holds somewhere: :func:`_held_by`): the words the lexical side can match at all. A
    question in Chinese over an English chat reads none (0.0): its lexical matches are
    digits and stray Latin words, no evidence of its meaning; one in Spanish reads its
    names and the few words the chat also writes. 1.0 when ``written`` is None
    (unknown) or the question has no such words."""
    if written is None:
        return 1.0
    found = [w for w in dict.fromkeys(words(text)) if w.casefold() not in STOP_WORDS]
    lettered = [w for w in found if scripts(w)]
    if not lettered:
        return 1.0
    seen = [w for w in lettered if scripts(w) <= written]
    if held is not None and seen:
        seen = held(seen)
    return len(seen) / len(lettered)


def _held_by(
    store: SessionStore, query: Query, frame: TimeFrame
) -> Callable[[list[str]], list[str]]:
    """Those of some words of the question that the store's full-text index holds
    somewhere (:meth:`~mnemic.sessions.sql.SqlSessionStore.holds`: one probe per word,
    the word alone: "Caroline" of "Caroline's" is held wherever the name is written; a
    word of a question in another language when one of its forms there is: "gearbeitet"
    where the chat writes "arbeitet", :func:`~..index.stems.inflected`). A
    word none of ``query``'s terms searches (a question word the parser left out) is
    kept: the lexical side never asked for it; so is a word of what the question says
    about time (``frame``: "October" of "on October 6, 2022" is the time step's, and a
    chat rarely writes its own dates)."""

    def held(asked: list[str]) -> list[str]:
        timed = {w.casefold() for said in frame.words for w in words(said)}
        searched = {w.casefold() for t in query.terms for w in words(t.text)} - timed
        probed = list(dict.fromkeys(w for w in asked if w.casefold() in searched))
        asked_for = [Query(w, ((Term(w, (w,)),),), languages=query.languages) for w in probed]
        holds = store.holds(asked_for)
        unheld = {w for w, ok in zip(probed, holds, strict=True) if not ok}
        return [w for w in asked if w not in unheld]

    return held


def _semantic_hits(
    store: SessionStore,
    embedder: QueryEmbedder,
    vec: Any,
    filters: SearchFilters,
    limit: int,
    read: dict[int, Message] | None = None,
) -> list[SemanticHit]:
    """The vector search's hits resolved to positions; ``read`` (when given) gets the
    hits' messages by id."""
    if store.vectors is None:  # semantic_state said it keeps vectors: it no longer does
        return []
    found = store.vectors.search(vec, embedder.model_id, filters, limit)
    # the hits' messages and their sessions: two reads, whatever the number of hits
    messages = store.messages_by_id([message_id for message_id, _ in found])
    if read is not None:
        read.update(messages)
    infos = store.get_sessions(m.session_id for m in messages.values())
    out = []
    for message_id, cosine in found:
        m = messages.get(message_id)
        info = infos.get(m.session_id) if m is not None else None
        if m is None or info is None:  # deleted meanwhile
            continue
        out.append(
            SemanticHit(
                message_id,
                m.session_id,
                m.seq,
                float(cosine),
                info.message_count,
                info.source,
                (m.content or "").rstrip().endswith(("?", "？")),
            )
        )
    return out


def candidates(
    store: SessionStore,
    query: Query,
    text: str,
    filters: SearchFilters,
    *,
    mode: str | None,
    state: SemanticState,
    limit: int | None = None,
    frame: TimeFrame | None = None,
) -> tuple[list[FusedMessage], str, str | None]:
    """Ranked positions for ``text`` (parsed as ``query``) in ``mode``.

    Returns (positions best first, the mode that ran, a notice or None). A semantic or
    hybrid request that cannot run falls back to lexical and says why; the default mode
    (``None``) is hybrid when possible and silent when the extra is simply not set up.
    ``frame`` (default: read from ``text``, :mod:`.timeframe`) says what the question
    asks about time: its "as of" date cuts later messages out, and the latest statement
    of a subject ranks first unless it asks about the past (:mod:`.freshness`). A
    question in the first person prefers the user's messages, one about what the
    assistant said the assistant's, one that names a speaker that speaker's
    (:mod:`.speaker`).
    """
    frame = read_timeframe(text) if frame is None else frame
    if frame.until is not None and (filters.until is None or frame.until < filters.until):
        filters = replace(filters, until=frame.until)
    fused, used, notice, vec = _retrieve(
        store, query, text, filters, mode=mode, state=state, frame=frame
    )
    read: dict[int, Message] = {}  # texts read by one step, for the next
    if REPEATS:
        fused = discount_repeats(store, fused, query, read)
    meaning = None
    if vec is not None and state.embedder is not None and NAMES_BY_MEANING:
        meaning = NameMatcher(state.embedder, vec)
    role = asked_role(text)
    if role is not None:
        fused = prefer_role(store, fused, role)
    elif NAMED_SPEAKERS:
        fused = prefer_named(store, fused, text, meaning)
    fused = freshen(store, fused, query, frame, read)
    if STATEMENTS and used == "hybrid":
        fused = place_statements(store, fused, text, meaning)
    if REPLIES and used == "hybrid":
        fused = yield_replies(store, fused, text)
    return (fused if limit is None else fused[:limit]), used, notice


def _retrieve(
    store: SessionStore,
    query: Query,
    text: str,
    filters: SearchFilters,
    *,
    mode: str | None,
    state: SemanticState,
    frame: TimeFrame,
) -> tuple[list[FusedMessage], str, str | None, Any]:
    """(positions, the mode that ran, a notice, the query's vector or None)."""
    want = mode or "hybrid"
    notice = None
    if want != "lexical":
        notice = state.notice
        if not state.usable:
            want = "lexical"
            if mode is None and not state.installed:
                notice = None  # lexical is simply the default without the extra
    lexical: list[RankedMessage] = []
    pending = None
    if state.embedder is not None and want != "lexical":
        pending = _semantic_soon(store, state.embedder, text, filters)
    try:
        if want != "semantic" and not query.empty:
            lexical = rank_messages(store, query, filters, candidates=CANDIDATES)
    except BaseException:
        if pending is not None:  # the arm reads the store: done before the caller goes on
            wait([pending])
        raise
    if want == "lexical" or pending is None:
        return lexical_only(lexical), want, notice, None
    try:
        vec, hits, written = pending.result()
    except Exception as exc:  # a failing model or index degrades to lexical
        if not lexical and not query.empty:
            lexical = rank_messages(store, query, filters, candidates=CANDIDATES)
        return (
            lexical_only(lexical),
            "lexical",
            f"Semantic search failed ({type(exc).__name__}: {exc}); showing lexical results.",
            None,
        )
    statements = asked_role(text) == "user"
    if want != "hybrid":
        return fuse([], hits, statements=statements), want, notice, vec
    if state.embedder is not None and applies(text, written):
        got = bridge_words(store, state.embedder, text, vec, filters)
        if got is not None:  # the store has the chat's words: the bridge (.bridge)
            searched, share = got
            lexical = rank_messages(store, bridged_query(searched), filters, candidates=CANDIDATES)
            return fuse(lexical, hits, statements=statements, readable=share), want, notice, vec
    held = _held_by(store, query, frame) if HELD else None
    readable = readable_share(text, written, held) if lexical else 1.0
    return fuse(lexical, hits, statements=statements, readable=readable), want, notice, vec
