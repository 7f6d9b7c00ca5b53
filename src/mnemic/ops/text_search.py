"""Rank a few short texts against a query by words and, with the ``semantic`` extra, by meaning.

This is the one ranker behind ``mnemic memory search`` (memory entries) and skills by
meaning (``skills_list`` with a ``query``, ``mnemic skills search``). Both search a few
dozen to a few hundred short texts, so nothing is indexed:

* **words**: the query's words found in a text, each weighted by its rarity among the
  texts; the score is the weighed share of the query's words a text holds. Words are
  compared by their Snowball stems in English, German, French, Spanish, Italian,
  Portuguese and Russian (``snowballstemmer``, :mod:`mnemic.sessions.index.stems`), so
  "deployed" finds "deploying" and "Wohnungen" finds "Wohnung"; function words ("the",
  "der", "les", "и") are not searched; CJK text is matched by bigrams (and a one-character
  query word by its character), ``matplotlib-styling`` by its parts;
* **meaning**: the texts embedded on the fly (cached per process, model and text, and,
  given a scope and a loader that carries one, between processes in the home's vector
  cache: :mod:`mnemic.embedding.vector_cache`) and compared with the query's embedding
  (its first 500 characters, as session search does);
* ``hybrid`` blends the two as session search does: ``BLEND_ALPHA`` (0.6) of the word
  score plus 0.4 of the cosine rescaled between the farthest and the nearest text (0..1).
  The shipped model's cosines sit in a narrow band (about 0.75-0.9 for any pair), so used
  raw they barely separate the texts, and a text sharing only a common word ("the",
  "my") with the query would outrank the one the query means.

Modes and notices follow ``session_search``: ``lexical``, ``semantic``, ``hybrid`` (the
default when the embedder loads); a mode that cannot run (extra absent, model damaged,
switched off, the model failing) falls back to words with a ``notice`` saying why, never
an error. A lexical hit shares at least one word with the query; in the semantic and
hybrid modes the ``limit`` texts nearest in meaning count too.

**No good match.** Semantic and hybrid always have a nearest text, however unrelated
("zzzqqq" asked of a store of skills still gets one). Below the floor for short texts
(:data:`mnemic.sessions.search.floor.SHORT_FLOOR_COSINES`: the best cosine of any text
under it and no text holding a word of the query), the ranking keeps only the nearest
text and says so (:attr:`TextRanking.no_good_match`, its signals in
:attr:`TextRanking.strength`), as session search does. A text holding a query word is
never floored. ``floor=False`` keeps every result (the verdict is still given).
"""

from __future__ import annotations

import math
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..embedding.vector_cache import CachedLoader, VectorCache
from ..errors import InvalidArgument, MnemicError
from ..sessions.index.segment import CJK_RUN
from ..sessions.index.stems import STOP_WORDS, text_keys, word_keys, words
from ..sessions.search.floor import Strength, short_floor
from ..sessions.search.hybrid import BLEND_ALPHA
from ..sessions.search.retrieval import ENABLE_HINT, QUERY_CHARS, QueryEmbedder, check_mode

__all__ = [
    "EmbedderLoader",
    "TextHit",
    "TextRanking",
    "loader_cache",
    "passage_vectors",
    "rank_texts",
    "text_ranker",
]

EmbedderLoader = Callable[[], QueryEmbedder]

#: Texts whose vectors a process keeps; past this the cache starts afresh (texts that were
#: edited or deleted would otherwise pile up in a long-running server).
CACHE_TEXTS = 4096


@dataclass(frozen=True)
class TextHit:
    """One text that matched: its position in the ranked texts, how well, and why."""

    index: int
    score: float
    matched: tuple[str, ...]
    """``lexical``, ``semantic`` or both: what found this text."""
    weak: bool = False
    """It holds no word of the query and its cosine is below the floor: by the floor's
    own test, probably unrelated (listed all the same; the archive search marks it)."""


@dataclass(frozen=True)
class TextRanking:
    """The hits, best first; the mode that ran; why another mode could not (or None);
    how well the best match (None: no floor applies); whether nothing cleared the floor."""

    hits: list[TextHit] = field(default_factory=list)
    retrieval: str = "lexical"
    notice: str | None = None
    strength: Strength | None = None
    """The floor's verdict and its signals (best cosine, best share of the query's words);
    None in lexical mode or with a model no floor was calibrated for."""
    no_good_match: bool = False
    """Nothing cleared the floor: the one hit left is the nearest text, weak."""


def _query_words(query: str) -> list[frozenset[str]]:
    """The keys (stems) of each searched word of ``query``, function words left out."""
    out: dict[frozenset[str], None] = {}
    for word in words(unicodedata.normalize("NFKC", query)):
        if word.casefold() not in STOP_WORDS:
            out.setdefault(word_keys(word))
    return list(out)


def _text_keys(text: str) -> frozenset[str]:
    """The keys of every word of ``text`` and its CJK characters (a one-character query
    word is found inside a longer run)."""
    return text_keys(text, limit=len(text)) | frozenset(
        c for run in CJK_RUN.findall(text) for c in run
    )


_vectors: dict[tuple[str, str], Any] = {}
_vectors_lock = threading.Lock()
_marks: dict[str, str | None] = {}
"""The generation of each home's vector cache the memo last saw (a ``forget`` sets a new
one: the memo is then dropped, so a long-running server keeps no forgotten text's vector
in memory either)."""


def passage_vectors(
    embedder: QueryEmbedder,
    texts: Sequence[str],
    *,
    cache: VectorCache | None = None,
    scope: str | None = None,
) -> list[Any]:
    """Vectors of ``texts``, embedded once per process, model and text; with a ``cache``
    and a ``scope``, the vectors kept by earlier processes are used and the file of
    ``scope`` is brought up to date (:mod:`mnemic.embedding.vector_cache`). A ``cache``
    made after a ``forget`` its home saw drops the per-process memo first."""
    model = embedder.model_id
    with _vectors_lock:
        if cache is not None:
            seen = _marks.setdefault(str(cache.directory), cache.since)
            if seen != cache.since:  # a forget came since: drop what the memo kept
                _vectors.clear()
                _marks[str(cache.directory)] = cache.since
        have = {t: _vectors[(model, t)] for t in texts if (model, t) in _vectors}
    missing = [t for t in dict.fromkeys(texts) if t not in have]
    if missing:
        embed = embedder.embed_passages  # type: ignore[attr-defined]
        if cache is not None and scope is not None:
            dim = getattr(embedder, "dim", None)
            got = cache.vectors(model, dim if isinstance(dim, int) else None, scope, texts, embed)
            have.update((t, got[t]) for t in missing)
        else:
            have.update(zip(missing, embed(missing), strict=True))
        with _vectors_lock:
            if len(_vectors) + len(missing) > CACHE_TEXTS:
                _vectors.clear()
            for text in missing:
                _vectors[(model, text)] = have[text]
    return [have[t] for t in texts]


def loader_cache(loader: EmbedderLoader | None) -> VectorCache | None:
    """The vector cache ``loader`` carries (:func:`mnemic.sessions.embedder_loader_for`
    gives one for a files home), else None."""
    return loader.cache if isinstance(loader, CachedLoader) else None


def _load(
    loader: EmbedderLoader | None, mode: str | None
) -> tuple[QueryEmbedder | None, str | None]:
    """The embedder, or None and the notice to give (none when the default mode is quiet)."""
    if loader is None:
        why = 'Semantic search is switched off ([sessions] semantic = "off"); results are lexical.'
        return None, why if mode else None
    try:
        return loader(), None
    except ImportError:
        return None, (
            f"Semantic search needs the optional 'semantic' extra. {ENABLE_HINT}" if mode else None
        )
    except MnemicError as exc:
        quiet = getattr(exc, "code", "") == "semantic_extra_missing" and not mode
        return None, None if quiet else f"{exc} Showing lexical results."


def _check_limit(limit: Any) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidArgument(
            "limit", f"limit must be a whole number of at least 1, not {limit!r}."
        )
    return limit


def rank_texts(
    query: str,
    texts: Sequence[str],
    *,
    mode: str | None = None,
    limit: int = 5,
    embedder_loader: EmbedderLoader | None = None,
    floor: bool = True,
    vector_scope: str | None = None,
) -> TextRanking:
    """The ``limit`` texts that best match ``query``, best first (see the module docstring).

    ``mode`` is ``lexical``, ``semantic``, ``hybrid`` or None (hybrid when the embedder
    loads, else lexical, quietly). Equal scores keep the texts' order. Below the floor
    (semantic and hybrid) only the nearest text is kept and ``no_good_match`` is set;
    ``floor=False`` keeps them all. Raises ``InvalidArgument`` for an unknown mode or a
    ``limit`` below 1. ``vector_scope`` names what ``texts`` are (the live entries of
    some targets, an archive) for the loader's vector cache, if it carries one.
    A hit that holds no word of the query and whose cosine is below the floor is marked
    :attr:`TextHit.weak` (semantic and hybrid, a calibrated model), floor on or off.
    """
    want = check_mode(mode)
    limit = _check_limit(limit)
    query_words = _query_words(query)
    text_words = [_text_keys(t) for t in texts]
    # lexical: the share of the query's words a text holds, rarer words weighing more
    holds = [[bool(w & keys) for w in query_words] for keys in text_words]
    df = [sum(row[i] for row in holds) for i in range(len(query_words))]
    weight = [math.log(1 + (len(texts) + 1) / (n + 0.5)) for n in df]
    total = sum(weight) or 1.0
    lexical = [sum(w for w, held in zip(weight, row, strict=True) if held) / total for row in holds]

    notice = None
    embedder = None
    ran = "lexical"
    if want != "lexical" and texts and query.strip():
        embedder, notice = _load(embedder_loader, want)
    semantic = [0.0] * len(texts)
    strength = [0.0] * len(texts)
    near: set[int] = set()
    verdict = None
    if embedder is not None:
        try:
            qvec = embedder.embed_queries([query[:QUERY_CHARS]])[0]
            cache = loader_cache(embedder_loader)
            vecs = passage_vectors(embedder, texts, cache=cache, scope=vector_scope)
            semantic = [float(v @ qvec) for v in vecs]
            near = set(sorted(range(len(texts)), key=lambda i: -semantic[i])[:limit])
            low, span = min(semantic), max(semantic) - min(semantic)
            strength = [(c - low) / span if span > 0 else 1.0 for c in semantic]
            ran = want or "hybrid"
            verdict = _judge(query, embedder.model_id, semantic, holds, len(query_words))
        except Exception as exc:  # a failing model degrades to lexical, never to an error
            notice = (
                f"Semantic search failed ({type(exc).__name__}: {exc}); showing lexical results."
            )
    cut = short_floor(embedder.model_id, query) if verdict is not None and embedder else None
    hits: list[TextHit] = []
    for i in range(len(texts)):
        matched = tuple(
            m
            for m, on in (
                ("lexical", lexical[i] > 0 and ran != "semantic"),
                ("semantic", i in near),
            )
            if on
        )
        if not matched:
            continue
        if ran == "lexical":
            score = lexical[i]
        elif ran == "semantic":
            score = semantic[i]
        else:
            score = BLEND_ALPHA * lexical[i] + (1 - BLEND_ALPHA) * strength[i]
        far = cut is not None and not any(holds[i]) and semantic[i] < cut
        hits.append(TextHit(i, score, matched, far))
    hits.sort(key=lambda h: (-h.score, h.index))
    weak = floor and verdict is not None and not verdict.good and bool(hits)
    return TextRanking(hits[: 1 if weak else limit], ran, notice, verdict, weak)


def _judge(
    query: str, model: str, cosines: Sequence[float], holds: Sequence[Sequence[bool]], n: int
) -> Strength | None:
    """The floor's verdict on one ranking (None: no floor for ``model``): good when a
    text holds a word of the query or the best cosine reaches the floor."""
    cut = short_floor(model, query)
    if cut is None or not cosines:
        return None
    best = max(cosines)
    words = max(sum(row) for row in holds) / n if n else None
    return Strength(best >= cut or bool(words), best, words)


def text_ranker(
    embedder_loader: EmbedderLoader | None, *, floor: bool = True
) -> Callable[..., TextRanking]:
    """:func:`rank_texts` with its embedder loader and ``floor`` bound (what the skills
    tool is given).

    The result takes ``(query, texts, *, mode, limit)``.
    """

    def rank(
        query: str, texts: Sequence[str], *, mode: str | None = None, limit: int = 5
    ) -> TextRanking:
        return rank_texts(
            query, texts, mode=mode, limit=limit, embedder_loader=embedder_loader, floor=floor
        )

    return rank
