"""Session history: every conversation kept, found on demand with ``session_search``.

Record::

    from mnemic.sessions import NewMessage, open_store
    store = open_store(home)                    # <home>/sessions.db (SQLite, WAL)
    sid = store.start_session(source="cli", model="qwen3")
    store.append_message(sid, NewMessage("user", "deploy v2.3.1 to staging"))
    store.end_session(sid, "user_exit")

Search (the tool a model calls)::

    from mnemic.sessions import SESSION_SEARCH_TOOL, run_session_search
    tools = [SESSION_SEARCH_TOOL.openai()]
    run_session_search(store, {"query": "staging deploy"}, current_session_id=sid)

Rank messages (the public ranking API: evaluations, programs)::

    from mnemic.sessions import search_messages
    ranking = search_messages(store, "when is the billing deadline?", limit=10)
    for r in ranking.results:            # session_id, message_id, source_id, time, role,
        print(r.rank, r.score, r.why)    # score, matched, why, snippet

The store is one class over SQL (:class:`SessionStore`, :mod:`.sql`) with a subclass per
database: ``sessions.db`` in the home (:mod:`mnemic.backends.files.sqlite`) or PostgreSQL
(:mod:`mnemic.backends.postgres`); :func:`open_store` asks :mod:`mnemic.registry` which.

Wings: :mod:`.index` (segmentation, the indexed fields, the query language),
:mod:`.sql` (the store: tables and dialect, reads, writes, tombstones and import marks,
rows, vectors, lexical ranking), :mod:`.search` (the tool, its shapes, ranking, the
retrieval modes and their fusion, semantic search and embedding, summaries) and
:mod:`.importing` (the import driver, one reader per format, growing files); beside them
:mod:`.store` (the value types), :mod:`.keys` (what identifies a message across imports)
and :mod:`.forgetting` (what forgetting matches and rewrites).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .._moved import first_use, moved

if TYPE_CHECKING:
    from ..home import Home
    from .importing.importers import (
        FORMATS,
        ImportProgress,
        ImportReport,
        export_session,
        import_path,
    )
    from .importing.resume import GrowingImport, import_growing
    from .index.query import Query, Term, match_spans, parse_query
    from .index.segment import (
        DEFAULT_SEGMENTER,
        BigramSegmenter,
        QueryTokens,
        Segmented,
        Segmenter,
        segment,
        segment_query,
    )
    from .search.messages import MessageRanking, RankedResult, search_messages
    from .search.ranking import RankedMessage, rank, rank_messages
    from .search.retrieval import MODES as SEARCH_MODES, QueryEmbedder
    from .search.shapes import SearchContext, rank_turns
    from .search.summarize import (
        LLMSummarizer,
        Summarizer,
        SummaryOutcome,
        SummaryRequest,
        extractive_summary,
        summarize_all,
    )
    from .search.tool import SESSION_SEARCH_TOOL, parse_time, run_session_search
    from .sql import SessionStore, SqlSessionStore
    from .store import (
        IMPORT_MODES,
        ROLES,
        ForgetResult,
        Hit,
        ImportMark,
        ImportResult,
        Message,
        NewMessage,
        NewSession,
        SearchFilters,
        SessionInfo,
        StoreStats,
        estimate_tokens,
        new_session_id,
    )

__all__ = [
    "DEFAULT_SEGMENTER",
    "FORMATS",
    "IMPORT_MODES",
    "ROLES",
    "SEARCH_MODES",
    "SESSION_SEARCH_TOOL",
    "BigramSegmenter",
    "ForgetResult",
    "GrowingImport",
    "Hit",
    "ImportMark",
    "ImportProgress",
    "ImportReport",
    "ImportResult",
    "LLMSummarizer",
    "Message",
    "MessageRanking",
    "NewMessage",
    "NewSession",
    "Query",
    "QueryEmbedder",
    "QueryTokens",
    "RankedMessage",
    "RankedResult",
    "SearchContext",
    "SearchFilters",
    "Segmented",
    "Segmenter",
    "SessionInfo",
    "SessionStore",
    "SqlSessionStore",
    "StoreStats",
    "Summarizer",
    "SummaryOutcome",
    "SummaryRequest",
    "Term",
    "embedder_loader_for",
    "estimate_tokens",
    "export_session",
    "extractive_summary",
    "import_growing",
    "import_path",
    "match_spans",
    "new_session_id",
    "open_store",
    "parse_query",
    "parse_time",
    "rank",
    "rank_messages",
    "rank_turns",
    "run_session_search",
    "search_messages",
    "search_messages_for",
    "search_tool_for",
    "segment",
    "segment_query",
    "summarize_all",
    "summarizer_for",
    "text_floor_for",
]

log = logging.getLogger(__name__)


def open_store(home: Home) -> SessionStore:
    """The session store of ``home``, created on first use.

    The embedded default is ``<home>/sessions.db`` (SQLite); with ``store =
    "postgresql://..."`` it is the shared database (:mod:`mnemic.backends.postgres`).
    """
    from ..registry import backend_for

    return backend_for(home.settings).sessions(home)


def summarizer_for(home: Home) -> tuple[Summarizer | None, str | None]:
    """The LLM summarizer configured in ``[llm]``, or (None, why not)."""
    from ..llm.select import client_from_settings, missing_setting
    from .search.summarize import LLMSummarizer

    llm = home.settings.llm
    missing = missing_setting(llm)
    if missing is not None:
        return None, f"no LLM endpoint is configured (llm.{missing} is empty)"
    return LLMSummarizer(client_from_settings(llm)), None


def search_tool_for(
    home: Home,
    store: SessionStore,
    arguments: str | Mapping[str, Any] | None,
    *,
    current_session_id: str | None = None,
) -> dict[str, Any]:
    """Run ``session_search`` with the settings and LLM endpoint of ``home`` (the LLM
    client is made only when the call asks for summaries)."""
    from .search.tool import run_session_search

    return run_session_search(
        store,
        arguments,
        settings=home.settings.sessions,
        current_session_id=current_session_id,
        summarizer_loader=lambda: summarizer_for(home),
        embedder_loader=embedder_loader_for(home),
    )


def search_messages_for(
    home: Home, store: SessionStore, text: str, **options: Any
) -> MessageRanking:
    """:func:`search_messages` with the embedder ``home``'s settings allow (``options``:
    its keyword arguments)."""
    from .search.messages import search_messages

    return search_messages(store, text, embedder_loader=embedder_loader_for(home), **options)


def text_floor_for(home: Home) -> bool:
    """Whether memory, archive and skills search by meaning apply their "no good match"
    floor (``[sessions] text_floor``)."""
    return home.settings.sessions.text_floor != "off"


def embedder_loader_for(home: Home) -> Callable[[], QueryEmbedder] | None:
    """The query-embedder loader of ``home`` (None when ``[sessions] semantic = "off"``).
    For a files home it carries the home's vector cache of curated and archived texts
    (:mod:`mnemic.embedding.vector_cache`), which writes only if no ``forget`` came
    since this call: make the loader before reading the texts it will rank."""
    if home.settings.sessions.semantic == "off":
        return None
    from ..embedding.vector_cache import CachedLoader, cache_for
    from .search.retrieval import default_embedder_loader

    cache = cache_for(home)
    return (
        default_embedder_loader if cache is None else CachedLoader(default_embedder_loader, cache)
    )


_LAZY = {
    "FORMATS": ("importing.importers", "FORMATS"),
    "ImportProgress": ("importing.importers", "ImportProgress"),
    "ImportReport": ("importing.importers", "ImportReport"),
    "export_session": ("importing.importers", "export_session"),
    "import_path": ("importing.importers", "import_path"),
    "GrowingImport": ("importing.resume", "GrowingImport"),
    "import_growing": ("importing.resume", "import_growing"),
    "Query": ("index.query", "Query"),
    "Term": ("index.query", "Term"),
    "match_spans": ("index.query", "match_spans"),
    "parse_query": ("index.query", "parse_query"),
    "DEFAULT_SEGMENTER": ("index.segment", "DEFAULT_SEGMENTER"),
    "BigramSegmenter": ("index.segment", "BigramSegmenter"),
    "QueryTokens": ("index.segment", "QueryTokens"),
    "Segmented": ("index.segment", "Segmented"),
    "Segmenter": ("index.segment", "Segmenter"),
    "segment": ("index.segment", "segment"),
    "segment_query": ("index.segment", "segment_query"),
    "MessageRanking": ("search.messages", "MessageRanking"),
    "RankedResult": ("search.messages", "RankedResult"),
    "search_messages": ("search.messages", "search_messages"),
    "RankedMessage": ("search.ranking", "RankedMessage"),
    "rank": ("search.ranking", "rank"),
    "rank_messages": ("search.ranking", "rank_messages"),
    "SEARCH_MODES": ("search.retrieval", "MODES"),
    "QueryEmbedder": ("search.retrieval", "QueryEmbedder"),
    "SearchContext": ("search.shapes", "SearchContext"),
    "rank_turns": ("search.shapes", "rank_turns"),
    "LLMSummarizer": ("search.summarize", "LLMSummarizer"),
    "Summarizer": ("search.summarize", "Summarizer"),
    "SummaryOutcome": ("search.summarize", "SummaryOutcome"),
    "SummaryRequest": ("search.summarize", "SummaryRequest"),
    "extractive_summary": ("search.summarize", "extractive_summary"),
    "summarize_all": ("search.summarize", "summarize_all"),
    "SESSION_SEARCH_TOOL": ("search.tool", "SESSION_SEARCH_TOOL"),
    "parse_time": ("search.tool", "parse_time"),
    "run_session_search": ("search.tool", "run_session_search"),
    "SessionStore": ("sql", "SessionStore"),
    "SqlSessionStore": ("sql", "SqlSessionStore"),
    "IMPORT_MODES": ("store", "IMPORT_MODES"),
    "ROLES": ("store", "ROLES"),
    "ForgetResult": ("store", "ForgetResult"),
    "Hit": ("store", "Hit"),
    "ImportMark": ("store", "ImportMark"),
    "ImportResult": ("store", "ImportResult"),
    "Message": ("store", "Message"),
    "NewMessage": ("store", "NewMessage"),
    "NewSession": ("store", "NewSession"),
    "SearchFilters": ("store", "SearchFilters"),
    "SessionInfo": ("store", "SessionInfo"),
    "StoreStats": ("store", "StoreStats"),
    "estimate_tokens": ("store", "estimate_tokens"),
    "new_session_id": ("store", "new_session_id"),
}
"""Where each public name lives (module of this package, name there). The package
imports none of them itself: a name is imported when first asked for, so a caller of one
wing (the hook's import, the prompt's segmenter) does not pay for every other — importing
them all took about 90 ms."""


_MOVED = {"SQLiteSessionStore": "mnemic.backends.files.sqlite"}
"""Names this package no longer holds, and where they are now."""


def __getattr__(name: str) -> Any:
    """A public name (:data:`_LAZY`), imported on first use and kept; or a name that
    moved (:data:`_MOVED`): found there, with a DeprecationWarning naming the new import
    (looked up by name, as :mod:`mnemic.registry` finds backends: a backend sits above
    the domain it stores)."""
    if name in _LAZY:
        return first_use(__name__, _LAZY, name, globals())
    return moved(__name__, _MOVED, name)
