"""Where hybrid misses on LoCoMo dev, and ranking variants measured in the same run.

    .venv/bin/python bench/_misses.py misses             # the table of docs/recall.md
    .venv/bin/python bench/_misses.py variants --sets locomo,longchat,updates
    .venv/bin/python bench/_misses.py latency --sets locomo,zh --variants nomeaning
    .venv/bin/python bench/_misses.py losses --sets longchat,updates --k 5
    .venv/bin/python bench/_misses.py seeds
    .venv/bin/python bench/_misses.py ahead --sets locomo,xl --modes lexical,semantic,hybrid

``misses``: for every dev question whose evidence turn is not in the hybrid top 10, the
evidence turn's rank in the lexical, semantic and hybrid rankings (up to 200), and what
ranks above it in the hybrid top 10: a neighbour of the evidence (same session, at most
two turns away), another turn of its session, or a turn of another session; direct
matches or context-only neighbours. Dev only: the test conversations are never looked at.

``variants``: every question of the chosen dev sets ranked by the shipped ranking and by
each variant in :data:`VARIANTS` (module knobs switched for one call), interleaved
question by question, scored as ``./x bench recall`` scores them.

``losses``: every dev question where the lexical ranking finds more of the evidence in
its top ``--k`` than the hybrid one (for the update fixture: the message the question asks
about first in lexical, not in hybrid), with both heads: each message's key, role,
score and why it ranks there (the words it holds, its cosine, what moved it).

``classify``: every dev evidence turn (LoCoMo and the Chinese questions) that hybrid misses
at ``--k`` (10 and 50 by default), put in the first class that fits: ``cross-lingual``
(a question in Chinese over the English chat), ``words absent`` (the turn holds none of
the question's content words but the speakers' names: a paraphrase), ``date named``
(the question names a date or a time, and the turn shares no word with it but the
date's), ``short turn`` (the turn
is under 80 characters and a neighbour of it, at most two turns away, ranks above it),
``spread`` (the question's evidence is two turns or more and another of them is found),
else ``outranked`` (words shared, other matches above). Per category, counts and the
share of each class.

``hops``: for every dev question (LoCoMo), how many of the hybrid top 10 come from its
best session and how many sessions the top 10 holds; for one whose evidence lies in two
sessions or more, where the second evidence session's best turn ranks (top 10, 11-50,
51-200, beyond the pool of 200) and, at 11-50, its score against the tenth place's.

``seeds``: for every dev question (LoCoMo) whose evidence lies in two sessions or more,
what the hybrid top hit holds that the best evidence turn of another session also holds
(names, numbers, other words; rare or common in the conversation), against the other
sessions' turns that are no evidence, and where a search seeded by the top hit's rare
words would rank that turn (``bench/_seeds.py``; seeded by the top hit, by it and its
neighbours, and by the first evidence turn itself as an upper bound).

``ahead``: every set, category and k where hybrid's mean is below lexical's or
semantic's, and every question where hybrid's top 10 holds less evidence than one of
theirs, with each evidence turn's rank in the two lists the fusion got
(``bench/_ahead.py``, recall 19).

``latency``: the p50 and p99 of a hybrid call (top 50) per set, shipped against each variant and
against a second shipped arm (the noise between two identical arms), interleaved call by
call over four rounds with the order rotated. Query vectors come from the bench's cache:
what is timed is the ranking, not the model.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _spread as spread_module
import mnemic.sessions.search.bridge as bridge_module
import mnemic.sessions.search.hybrid as hybrid_module
import mnemic.sessions.search.messages as messages_module
import mnemic.sessions.search.repeats as repeats_module
import mnemic.sessions.search.retrieval as retrieval_module
import mnemic.sessions.search.sequence as sequence_module
import mnemic.sessions.search.shapes as shapes_module
import mnemic.sessions.search.speaker as speaker_module
import mnemic.sessions.sql.store as store_module
import recall as rb
from _ahead import ahead as behind_others
from _apart import KEEP, apart
from _bridge24 import RECIPES, bridged
from _lists import compare, lists
from _metrics import Scores, figure
from _near import hop as hop_seeded, near as near_words
from _oldlang import old_reading
from _oldtime import read_timeframe as old_timeframe, read_timeframe_before_recall22
from _room import after
from _seeds import TALLY, seeded, seeds
from _spread import after as spread_after
from _standing import standing, trusted
from _vcache import CachedEmbedder

DEPTH = 200
OLD_BEFORE = re.compile(
    r"\b(?:before|prior\s+to|"
    r"vor\s+(?:dem|der|den|meinem|meiner|meinen|unserem|unserer|seinem|seiner|ihrem|"
    r"ihrer)|bevor|antes\s+de|avant(?:\s+de)?)\b|之前|以前|此前",
    re.I,
)
"""The ``before`` cue before a "before" had to name its event (variant ``oldbefore``)."""


@contextmanager
def knobs(changes: dict[str, tuple[Any, str, Any]]) -> Iterator[None]:
    """Set ``module.attr = value`` for each entry, restore after."""
    saved = []
    for module, attr, value in changes.values():
        saved.append((module, attr, getattr(module, attr)))
        setattr(module, attr, value)
    try:
        yield
    finally:
        for module, attr, value in reversed(saved):
            setattr(module, attr, value)


_NAMES: dict[int, set[str]] = {}


def _without_names(store: Any, query: Any, *args: Any, **kw: Any) -> Any:
    """The lexical search with the question's terms that name a speaker of the store
    left out (variant ``nonames``: a name says whose words, not what about)."""
    import dataclasses

    if id(store) not in _NAMES:
        said = store.list_sessions(limit=1_000_000)
        _NAMES[id(store)] = {(m.name or "").casefold() for i in said for m in store.messages(i.id)}
    names = _NAMES[id(store)] - {""}
    groups = tuple(
        kept for g in query.groups
        if (kept := tuple(t for t in g if t.text.casefold().removesuffix("'s") not in names))
    )  # fmt: skip
    if groups and groups != query.groups:
        query = dataclasses.replace(query, groups=groups)
    return _RANK(store, query, *args, **kw)


_RANK = retrieval_module.rank_messages
_HITS = retrieval_module._semantic_hits


def _centred_hits(store: Any, embedder: Any, vec: Any, *args: Any, **kw: Any) -> Any:
    """The vector search for a question the lexical side cannot read (its letters in no
    script of the store: here, CJK over the English LoCoMo chats) with the store's mean
    vector taken from the question's (variant ``centred``: the language both share is
    the common direction, not the meaning)."""
    import numpy as np

    cache = getattr(store.vectors, "_cache", None)
    if cache is not None and cache.matrix.shape[0] and _QUESTION[0]:
        centred = np.asarray(vec, np.float32) - cache.matrix.astype(np.float32).mean(axis=0)
        vec = centred / float(np.linalg.norm(centred))
    return _HITS(store, embedder, vec, *args, **kw)


_QUESTION = [False]
_SOON = retrieval_module._semantic_soon


_ASKED: list[str] = [""]
_ORIG_QUERY_VECTOR = retrieval_module._query_vector
_ORIG_SEMANTIC_HITS = retrieval_module._semantic_hits


def _remember_text(embedder: Any, text: str) -> Any:
    _ASKED[0] = text
    return _ORIG_QUERY_VECTOR(embedder, text)


def _asked_knobs(hits: Callable[..., Any]) -> Any:
    """The vector search replaced by ``hits``, which reads the question's text."""
    return knobs(
        {
            "q": (retrieval_module, "_query_vector", _remember_text),
            "s": (retrieval_module, "_semantic_hits", hits),
        }
    )


def _feedback_hits(k: int) -> Callable[..., Any]:
    """Variant ``prf3``/``prf5`` (recall 21, dropped): for a question in a script none of
    its 5 nearest messages writes (what ``readable_share`` reads as 0), the vector search
    run again with the question's vector plus the mean of its ``k`` nearest messages'
    first vectors (pseudo-relevance feedback, equal weights: the query moved into the
    region the chat's language occupies). SQLite's in-memory matrix only."""
    import numpy as np

    orig = retrieval_module._semantic_hits

    def hits(
        store: Any, embedder: Any, vec: Any, filters: Any, limit: int, read: Any = None
    ) -> Any:
        got = orig(store, embedder, vec, filters, limit, read)
        asked = retrieval_module.scripts(_ASKED[0])
        near = store.messages_by_id([h.message_id for h in got[:5]])
        written = retrieval_module.scripts("".join((m.content or "")[:300] for m in near.values()))
        cache = getattr(store.vectors, "_cache", None)
        if not got or cache is None or not asked or asked & written:
            return got
        rows = [int(np.flatnonzero(cache.ids == h.message_id)[0]) for h in got[:k]]
        q = np.asarray(vec, np.float32)
        moved = q / np.linalg.norm(q) + cache.matrix[rows].mean(axis=0)
        moved = moved / np.linalg.norm(moved)
        return orig(store, embedder, moved, filters, limit, read)

    return hits


def _anchored_hits(k: int) -> Callable[..., Any]:
    """Variant ``dated10`` (recall 21, dropped): for a question naming a date (its
    anchor, :mod:`.timeframe`) in a script none of its 5 nearest messages writes, the
    ``k`` nearest messages of that date join the vector search's hits: the candidates an
    English question's lexical side finds by the date's words, which the Chinese one
    cannot."""
    import dataclasses

    from mnemic.sessions.search.timeframe import read_timeframe

    orig = retrieval_module._semantic_hits

    def hits(
        store: Any, embedder: Any, vec: Any, filters: Any, limit: int, read: Any = None
    ) -> Any:
        got = orig(store, embedder, vec, filters, limit, read)
        anchor = read_timeframe(_ASKED[0]).anchor
        asked = retrieval_module.scripts(_ASKED[0])
        near = store.messages_by_id([h.message_id for h in got[:5]])
        written = retrieval_module.scripts("".join((m.content or "")[:300] for m in near.values()))
        if not got or anchor is None or not asked or asked & written:
            return got
        dated = dataclasses.replace(filters, since=anchor[0], until=anchor[1])
        seen = {h.message_id for h in got}
        extra = [h for h in orig(store, embedder, vec, dated, k, read) if h.message_id not in seen]
        return sorted([*got, *extra], key=lambda h: -h.cosine)

    return hits


def _named_hits(
    store: Any, embedder: Any, vec: Any, filters: Any, limit: int, read: Any = None
) -> Any:
    """Variant ``latinname`` (recall 21, dropped): for a question in a script none of its 5
    nearest messages writes, the speaker it names by meaning (:class:`.speaker.NameMatcher`)
    written before it as the chat writes the name ("Caroline: 卡罗琳研究了什么？"), and
    the vector search run with that text's vector."""
    orig = _ORIG_SEMANTIC_HITS
    got = orig(store, embedder, vec, filters, limit, read)
    asked = retrieval_module.scripts(_ASKED[0])
    near = store.messages_by_id([h.message_id for h in got])
    written = retrieval_module.scripts(
        "".join((m.content or "")[:300] for m in list(near.values())[:5])
    )
    if not got or not asked or asked & written:
        return got
    names = {m.name for m in near.values() if m.name}
    name = speaker_module.NameMatcher(embedder, vec)(_ASKED[0], names) if len(names) > 1 else None
    if name is None:
        return got
    moved = _ORIG_QUERY_VECTOR(embedder, f"{name}: {_ASKED[0]}")
    return orig(store, embedder, moved, filters, limit, read)


def _soon_marking(store: Any, embedder: Any, text: str, *args: Any, **kw: Any) -> Any:
    """Marks whether the question is written in CJK (for ``_centred_hits``, on the
    helper thread: calls run one at a time here)."""
    _QUESTION[0] = bool(re.search(r"[\u4e00-\u9fff]", text))
    return _SOON(store, embedder, text, *args, **kw)


_FRESHEN = retrieval_module.freshen
_CANDIDATES = messages_module.candidates

VARIANTS: dict[str, Callable[[], Any]] = {
    "centred": lambda: knobs(
        {
            "h": (retrieval_module, "_semantic_hits", _centred_hits),
            "c": (retrieval_module, "_semantic_soon", _soon_marking),
        }
    ),
    "nonames": lambda: knobs({"n": (retrieval_module, "rank_messages", _without_names)}),
    "unnamed": lambda: knobs({"named": (retrieval_module, "NAMED_SPEAKERS", False)}),
    "named0.6": lambda: knobs({"share": (speaker_module, "NAMED_SHARE", 0.6)}),
    "oldbefore": lambda: knobs({"cue": (sequence_module, "_BEFORE", OLD_BEFORE)}),
    "sem100": lambda: knobs({"n": (retrieval_module, "SEMANTIC_CANDIDATES", 100)}),
    "sem200": lambda: knobs({"n": (retrieval_module, "SEMANTIC_CANDIDATES", 200)}),
    "lex200": lambda: knobs({"n": (retrieval_module, "CANDIDATES", 200)}),
    "asks1": lambda: knobs({"a": (hybrid_module, "ASK_SHARE", 1.0)}),
    "standing": standing,
    "standingabsent": lambda: standing(absent_only=True),
    "trusted": trusted,
    "noevent": lambda: knobs({"e": (sequence_module, "EVENT_ANCHOR", False)}),
    "repeats50": lambda: knobs({"c": (repeats_module, "CANDIDATES", 50)}),
    "norepeats": lambda: knobs({"r": (retrieval_module, "REPEATS", False)}),
    "nomeaning": lambda: knobs({"m": (retrieval_module, "NAMES_BY_MEANING", False)}),
    "noreadable": lambda: knobs({"r": (retrieval_module, "READABLE", False)}),
    "noheld": lambda: knobs({"r": (retrieval_module, "HELD", False)}),
    "nostatements": lambda: knobs({"s": (retrieval_module, "STATEMENTS", False)}),
    "noreplies": lambda: knobs({"r": (retrieval_module, "REPLIES", False)}),
    "oldlang": old_reading,
    "noinflect": lambda: knobs(
        {"i": (store_module.SqlSessionStore, "_inflected", lambda _store, queries: queries)}
    ),
    "room": lambda: knobs({"r": (retrieval_module, "freshen", after(_FRESHEN, 0.85))}),
    "room0.7": lambda: knobs({"r": (retrieval_module, "freshen", after(_FRESHEN, 0.7))}),
    "roomctx": lambda: knobs(
        {"r": (retrieval_module, "freshen", after(_FRESHEN, 0.85, context_only=True))}
    ),
    "seed5": lambda: knobs({"s": (retrieval_module, "freshen", seeded(_FRESHEN, 5))}),
    "seed10": lambda: knobs({"s": (retrieval_module, "freshen", seeded(_FRESHEN, 10))}),
    "spread": lambda: knobs({"s": (messages_module, "candidates", spread_after(_CANDIDATES))}),
    "spread3": lambda: knobs(
        {
            "s": (messages_module, "candidates", spread_after(_CANDIDATES)),
            "f": (spread_module, "FREE", 3),
        }
    ),
    "spreaddup": lambda: knobs(
        {
            "s": (messages_module, "candidates", spread_after(_CANDIDATES)),
            "b": (spread_module, "BY_SESSION", False),
        }
    ),
    "nostatebefore": lambda: knobs(
        {"s": (sequence_module, "state_before", lambda _store, fused, _q, _e: list(fused))}
    ),
}
"""Name -> a context manager switching the variant on."""

VARIANTS.update(
    {  # recall 21
        "oldtime": lambda: knobs(
            {
                m.__name__: (m, "read_timeframe", old_timeframe)
                for m in (retrieval_module, messages_module, shapes_module)
            }
        ),
        "prf3": lambda: _asked_knobs(_feedback_hits(3)),
        "prf5": lambda: _asked_knobs(_feedback_hits(5)),
        "dated10": lambda: _asked_knobs(_anchored_hits(10)),
        "latinname": lambda: _asked_knobs(_named_hits),
    }
)
VARIANTS.update(
    {  # recall 23: a question naming two speakers, each one's list in turn
        "apart": lambda: knobs({"a": (retrieval_module, "freshen", apart(_FRESHEN))}),
        "apart2": lambda: knobs({"a": (retrieval_module, "freshen", apart(_FRESHEN, KEEP))}),
    }
)
VARIANTS.update(
    {  # recall 24: English words for a question the lexical side cannot read
        name: (lambda recipe=recipe: knobs({"b": (retrieval_module, "_retrieve", bridged(recipe))}))
        for name, recipe in RECIPES.items()
    }
)
VARIANTS.update(
    {  # recall 27 (bench/_near.py): words of the same meaning; a list's second hop
        "near": lambda: near_words(),
        "near92": lambda: near_words(0.92, 2),
        "hop": lambda: hop_seeded(),
        "nearq": lambda: near_words(whole=True),
        "hopq": lambda: hop_seeded(scaled=True),
        "nearpool": lambda: near_words(0.92, 2, pool=True),
        "nears": lambda: near_words(written=True),
        "nearrare": lambda: near_words(written=True, rare=0.01),
    }
)
VARIANTS["nobridge"] = lambda: knobs(  # recall 25: the shipped bridge off (as before it)
    {"b": (bridge_module, "BRIDGE", False)}
)
VARIANTS["beforecut"] = lambda: knobs(  # recall 22: "before <a day>" cut the day named
    {
        m.__name__: (m, "read_timeframe", read_timeframe_before_recall22)
        for m in (retrieval_module, messages_module, shapes_module)
    }
)


def _stores(sets: list[str], split: str, embedder: CachedEmbedder | None, work: Path) -> tuple[
    dict[str, rb.Corpus], list[rb.Question]
]:  # fmt: skip
    corpora: dict[str, rb.Corpus] = {}
    questions: list[rb.Question] = []
    data = json.loads(rb.LOCOMO.read_text(encoding="utf-8"))
    if {"locomo", "zh", "xl", "updates"} & set(sets):
        if "updates" not in sets:
            dev = set(rb.LOCOMO_SPLIT["dev"])
            data = [d for d in data if (d["sample_id"] in dev) == (split == "dev")]
        corpora.update(rb.locomo_corpora(data, work, embedder))
        if {"locomo", "zh", "xl"} & set(sets):
            questions += rb.locomo_questions(data, corpora)
    if "updates" in sets:
        fixture = json.loads((rb.HERE / "data" / "updates.json").read_text(encoding="utf-8"))
        real = json.loads((rb.HERE / "data" / "updates-locomo.json").read_text(encoding="utf-8"))
        corpora.update(rb.updates_corpora(fixture, work, embedder))
        questions += rb.updates_questions(fixture, real)
    if "longchat" in sets:
        chats = json.loads((rb.HERE / "data" / "longchat.json").read_text(encoding="utf-8"))
        asked = {q["history"] for q in chats["questions"] if q["split"] == split}
        chats["histories"] = [h for h in chats["histories"] if h["id"] in asked]
        corpora.update(rb.longchat_corpora(chats, work, embedder))
        questions += rb.longchat_questions(chats)
    questions = [q for q in questions if q.split == split and q.set in sets]
    return corpora, questions


def _ranked(corpus: rb.Corpus, text: str, mode: str, loader: Any, as_of: str | None) -> list[Any]:
    return rb.ranked_results(corpus, text, mode, loader, as_of, depth=DEPTH)


def misses(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any) -> None:
    rows = []
    for q in questions:
        if q.set != "locomo":
            continue
        corpus = corpora[q.corpus]
        key_of = {v: k for k, v in corpus.keys.items()}
        ranks = {}
        hyb = []
        for mode in ("lexical", "semantic", "hybrid"):
            res = _ranked(corpus, q.text, mode, loader, None)
            keys = [corpus.keys.get((r.session_id, r.seq), "?") for r in res]
            ranks[mode] = {k: i + 1 for i, k in reversed(list(enumerate(keys)))}
            if mode == "hybrid":
                hyb = res
        for ev in q.evidence:
            h = ranks["hybrid"].get(ev)
            if h is not None and h <= 10:
                continue
            sid, seq = key_of[ev]
            above = Counter()
            for r in hyb[:10]:
                if r.session_id == sid and abs(r.seq - seq) <= 2:
                    kind = "neighbour"
                elif r.session_id == sid:
                    kind = "same-session"
                else:
                    kind = "other-session"
                above[kind] += 1
                above["context-only" if not r.matched else "direct"] += 1
                above["lex-matched" if "lexical" in r.matched else "no-lex"] += 1
            rows.append({
                "cat": q.groups[0], "q": q.text, "ev": ev,
                "lex": ranks["lexical"].get(ev), "sem": ranks["semantic"].get(ev), "hyb": h,
                "above": dict(above), "text": corpus.store.messages(sid)[seq].content[:100],
            })  # fmt: skip
    n_q = Counter(q.groups[0] for q in questions if q.set == "locomo")
    print(json.dumps({"questions": n_q, "missed_evidence": len(rows)}))
    random.Random(5).shuffle(rows)
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_cat[r["cat"]].append(r)
    for cat, rs in sorted(by_cat.items()):

        def share(pred: Callable[[dict[str, Any]], bool], rs: list[dict[str, Any]] = rs) -> str:
            return f"{sum(map(pred, rs))}/{len(rs)}"

        tot = Counter()
        for r in rs:
            tot.update(r["above"])
        print(
            f"{cat}: missed {len(rs)}; lex<=10 {share(lambda r: (r['lex'] or 999) <= 10)}; "
            f"sem<=10 {share(lambda r: (r['sem'] or 999) <= 10)}; "
            f"lex<=50 {share(lambda r: (r['lex'] or 999) <= 50)}; "
            f"sem<=50 {share(lambda r: (r['sem'] or 999) <= 50)}; "
            f"neither<=50 {share(lambda r: (r['lex'] or 999) > 50 and (r['sem'] or 999) > 50)}; "
            f"hyb 11-50 {share(lambda r: (r['hyb'] or 999) <= 50)}; above(top10) {dict(tot)}"
        )
    for r in rows[:45]:
        print(json.dumps(r, ensure_ascii=False))


MONTHS = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|week(?:end)?s?|"
    r"month|year|yesterday|today|ago|last|\d{4})\b",
    re.I,
)
"""Words that name a date or a time in a LoCoMo question (classify's ``date named``)."""
SHORT = 80
"""Characters under which an evidence turn counts as short (classify's ``short turn``)."""


def classify(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, ks: list[int]
) -> dict[str, Any]:
    from mnemic.sessions.index.stems import content_word_keys

    def keys_of(text: str) -> set[str]:
        return {k for ks_ in content_word_keys([text]) for k in ks_}

    table: dict[int, dict[str, Counter[str]]] = {k: defaultdict(Counter) for k in ks}
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[tuple[int, str], list[str]] = defaultdict(list)
    names: dict[str, set[str]] = {}  # the speakers' names: a shared name is no shared topic
    for q in questions:
        if q.set not in ("locomo", "zh"):
            continue
        corpus = corpora[q.corpus]
        key_of = {v: k for k, v in corpus.keys.items()}
        res = _ranked(corpus, q.text, "hybrid", loader, None)
        keys = [corpus.keys.get((r.session_id, r.seq), "?") for r in res]
        rank = {k: i + 1 for i, k in reversed(list(enumerate(keys)))}
        sem = _ranked(corpus, q.text, "semantic", loader, None)
        sem_rank = {corpus.keys.get((r.session_id, r.seq), "?"): i + 1 for i, r in enumerate(sem)}
        cat = q.groups[0] if q.set == "locomo" else "zh " + q.groups[0]
        totals[cat]["evidence"] += len(q.evidence)
        if q.corpus not in names:
            said = corpus.store.list_sessions(limit=1_000_000)
            who = {m.name or "" for info in said for m in corpus.store.messages(info.id)}
            names[q.corpus] = keys_of(" ".join(who))
        qkeys = keys_of(q.text) - names[q.corpus]
        dkeys = keys_of(" ".join(MONTHS.findall(q.text)))
        sessions = {key_of[e][0] for e in q.evidence}
        for k in ks:
            found = [e for e in q.evidence if rank.get(e, 999) <= k]
            for ev in q.evidence:
                r = rank.get(ev, 999)
                if r <= k:
                    continue
                sid, seq = key_of[ev]
                text = corpus.store.messages(sid)[seq].content or ""
                shared = qkeys & keys_of(text)
                above = [key_of[p] for p in keys[: min(r - 1, k)] if p in key_of]
                near = [p for p in above if p[0] == sid and abs(p[1] - seq) <= 2]
                if q.set == "zh":
                    why = "cross-lingual"
                elif not shared:
                    why = "words absent"
                elif dkeys and not (shared - dkeys) and MONTHS.search(q.text):
                    why = "date named"
                elif len(text) < SHORT and near:
                    why = "short turn"
                elif len(q.evidence) > 1 and found:
                    why = "spread"
                else:
                    why = "outranked"
                if len(sessions) > 1:
                    table[k][cat]["(several sessions)"] += 1
                table[k][cat][why] += 1
                if why in (
                    "words absent",
                    "cross-lingual",
                ):  # would a deeper vector search reach it?
                    depth = sem_rank.get(ev, 999)
                    table[k][cat][
                        f"{why}: semantic 51-200" if depth <= DEPTH else f"{why}: beyond"
                    ] += depth > 50
                table[k][cat]["missed"] += 1
                if len(examples[(k, why)]) < 4 and random.Random(len(q.text)).random() < 0.3:
                    examples[(k, why)].append(f"{q.text} | {ev} r{r} | {text[:90]}")
    out: dict[str, Any] = {}
    for k in ks:
        print(f"--- hybrid misses at @{k} (dev evidence turns)")
        for cat in sorted(table[k]):
            row = table[k][cat]
            n = totals[cat]["evidence"]
            cells = "  ".join(f"{c} {v}" for c, v in sorted(row.items()) if c != "missed")
            print(f"{cat:16s} evidence {n:4d} missed {row['missed']:4d}  {cells}")
        out[f"@{k}"] = {c: dict(v) for c, v in table[k].items()}
        for (kk, why), ex in sorted(examples.items()):
            if kk == k:
                for e in ex:
                    print(f"    [{why}] {e}")
    out["evidence"] = {c: v["evidence"] for c, v in totals.items()}
    return out


def hops(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any) -> None:
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    ratios: list[float] = []
    for q in questions:
        if q.set != "locomo" or q.kind != "recall" or not q.evidence:
            continue
        corpus = corpora[q.corpus]
        res = _ranked(corpus, q.text, "hybrid", loader, q.as_of)
        keys = [corpus.keys.get((r.session_id, r.seq), f"{r.session_id}#{r.seq}") for r in res]
        key_of = {v: k for k, v in corpus.keys.items()}
        by_session: dict[str, list[str]] = defaultdict(list)
        for e in q.evidence:
            if e in key_of:
                by_session[key_of[e][0]].append(e)
        st = stats[q.groups[0]]
        st["questions"] += 1
        top10 = [r.session_id for r in res[:10]]
        if top10:
            st["top10 from the best session"] += Counter(top10).most_common(1)[0][1]
            st["top10 sessions"] += len(set(top10))
        if len(by_session) < 2:
            continue
        st["evidence in several sessions"] += 1
        rank = {k: i + 1 for i, k in reversed(list(enumerate(keys)))}
        best = sorted(min(rank.get(e, 999) for e in es) for es in by_session.values())
        second = best[1]
        where = ("top 10" if second <= 10 else "11-50" if second <= 50
                 else "51-200" if second <= DEPTH else "beyond 200")  # fmt: skip
        st[f"second session {where}"] += 1
        st["every session in top 10"] += best[-1] <= 10
        if 10 < second <= 50 and res[9].score > 0:
            ratios.append(res[second - 1].score / res[9].score)
            st["(11-50) top 10 from the best session"] += Counter(top10).most_common(1)[0][1]
            st["(11-50) top 10 from sessions without evidence"] += sum(
                s not in by_session for s in top10
            )
    for cat, st in sorted(stats.items()):
        print(cat, json.dumps(dict(st)))
    if ratios:
        print(json.dumps({
            "second session at 11-50: its score / the tenth's": {
                "n": len(ratios), "median": round(statistics.median(ratios), 3),
                "at least 0.85": sum(r >= 0.85 for r in ratios)},
        }))  # fmt: skip


def _first(q: rb.Question, keys: list[str]) -> bool:
    """Whether the message an update question asks about ranks above the other values."""
    place = {k: i for i, k in reversed(list(enumerate(keys)))}
    inf = len(keys) + 1
    upd = place.get(q.update or "", inf)
    stale = [place.get(s, inf) for s in q.stale]
    if q.kind == "now":
        return upd < inf and all(upd < s for s in stale)
    return stale[0] < inf and stale[0] < upd


def losses(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, k: int
) -> None:
    lost = Counter()
    for q in questions:
        corpus = corpora[q.corpus]
        heads = {}
        for mode in ("lexical", "hybrid"):
            res = _ranked(corpus, q.text, mode, loader, q.as_of)
            heads[mode] = [(corpus.keys.get((r.session_id, r.seq), f"{r.session_id}#{r.seq}"), r)
                           for r in res]  # fmt: skip
        keys = {m: [key for key, _ in h] for m, h in heads.items()}
        if q.kind == "recall":
            ev = set(q.evidence)
            found = {m: len(ev & set(ks[:k])) for m, ks in keys.items()}
            worse = found["lexical"] > found["hybrid"]
            mark = {e: "*" for e in ev}
        else:
            worse = _first(q, keys["lexical"]) and not _first(q, keys["hybrid"])
            mark = {q.update or "": "U", **{s: "S" for s in q.stale}}
        if not worse:
            continue
        lost[(q.set, q.kind, q.groups[0])] += 1
        print("=" * 80)
        print(f"{q.set} {q.kind} {q.groups[0]}: {q.text}")
        for mode, head in heads.items():
            print(f"  {mode}")
            for i, (key, r) in enumerate(head[: k + 1]):
                why = "; ".join(r.why)
                print(f"    {i + 1:2d} {mark.get(key, ' ')} {key} {r.role} {r.score:.3f} {why}")
                print(f"         {r.snippet[:110]!r}")
    ahead = {" ".join(key): n for key, n in sorted(lost.items())}
    print(json.dumps({"k": k, "lexical_ahead": ahead}))


FIGURES = ("turn@5", "turn@10", "turn@25", "turn@50", "session@2", "session@5", "session@10",
           "fresh_first", "past_first", "as_of_first")  # fmt: skip
"""The figures a variant's line prints, those its result holds, in this order."""


def print_figures(label: str, r: dict[str, Any], *, ci: bool = False,
                  figures: Sequence[str] = FIGURES) -> None:  # fmt: skip
    """One line of ``label`` and ``r``'s figures (with their intervals when ``ci``), then
    one of turn@10 / session@5 per category (with its n when ``ci``)."""

    def fig(m: str) -> str:
        v = r[m]
        return f"{m} {v['value']:.3f}" + (f" [{v['ci95'][0]:.2f},{v['ci95'][1]:.2f}]" if ci else "")

    print(f"{label} " + "  ".join(fig(m) for m in figures if m in r))
    cats = {g: v for g, v in r["by"].items() if "turn@10" in v}
    if cats:
        print("    " + "  ".join(
            f"{g}" + (f"({v['turn@10']['n']})" if ci else "") + " "
            f"{v['turn@10']['value']:.3f}/{v['session@5']['value']:.3f}"
            for g, v in sorted(cats.items())))  # fmt: skip


def variants(
    corpora: dict[str, rb.Corpus],
    questions: list[rb.Question],
    loader: Any,
    names: list[str],
    save: Path | None = None,
    modes: tuple[str, ...] = ("lexical", "hybrid"),
) -> None:
    table: dict[tuple[str, str, str], Scores] = {}
    out: dict[str, Any] = {}
    runs = [("shipped", None), *((n, VARIANTS[n]) for n in names)]
    for q in questions:
        corpus = corpora[q.corpus]
        for mode in modes:
            for name, factory in runs:
                if factory is None:
                    ranked = rb.ranking(corpus, q.text, mode, loader, q.as_of)
                else:
                    with factory():
                        ranked = rb.ranking(corpus, q.text, mode, loader, q.as_of)
                rb.score(q, corpus, ranked, table.setdefault((q.set, mode, name), Scores()))
    for (set_, mode, name), sc in sorted(table.items()):
        r = sc.result()
        base = table.get((set_, mode, "shipped"))
        if name != "shipped" and base is not None:
            r["paired"] = paired(sc, base)
        out.setdefault(set_, {}).setdefault(mode, {})[name] = r
        print_figures(f"{set_:8s} {mode:8s} {name:14s}", r)
        if "paired" in r:
            print("    paired (variant - shipped): " + "  ".join(
                f"{m} {v['diff']['value']:+.3f} [{v['diff']['ci95'][0]:+.3f},"
                f"{v['diff']['ci95'][1]:+.3f}] +{v['better']}/-{v['worse']}"
                for m, v in r["paired"].items() if m in FIGURES))  # fmt: skip
    if save is not None:
        save.write_text(json.dumps(out, indent=1), encoding="utf-8")


def paired(variant: Scores, shipped: Scores) -> dict[str, Any]:
    """Question by question (both ran the same questions in the same order): per metric,
    the variant's value minus the shipped one (mean and bootstrap 95 % interval), and
    how many questions each side scores higher; the same per group (``by``)."""
    out: dict[str, Any] = _paired_values(variant.values, shipped.values)
    out["by"] = {
        g: _paired_values(ms, shipped.groups.get(g, {})) for g, ms in sorted(variant.groups.items())
    }
    return out


def _paired_values(
    variant: dict[str, list[float]], shipped: dict[str, list[float]]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for metric, values in variant.items():
        base = shipped.get(metric, [])
        if len(base) != len(values):
            continue
        diffs = [v - b for v, b in zip(values, base, strict=True)]
        out[metric] = {
            "diff": figure(diffs),
            "better": sum(d > 0 for d in diffs),
            "worse": sum(d < 0 for d in diffs),
        }
    return out


def latency(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, names: list[str]
) -> None:
    runs: list[tuple[str, Callable[[], Any] | None]] = [
        ("shipped", None), ("shipped2", None), *((n, VARIANTS[n]) for n in names)
    ]  # fmt: skip
    for set_ in sorted({q.set for q in questions}):
        chosen = [q for q in questions if q.set == set_][:120]
        times: dict[str, list[float]] = defaultdict(list)
        for round_ in range(4):
            turn = round_ % len(runs)
            for q in chosen:
                for name, factory in runs[turn:] + runs[:turn]:
                    with factory() if factory is not None else knobs({}):
                        t0 = time.perf_counter()
                        rb.ranked_results(corpora[q.corpus], q.text, "hybrid", loader, q.as_of, 50)
                        times[name].append(time.perf_counter() - t0)
        p50 = {name: statistics.median(ts) * 1000 for name, ts in times.items()}
        p99 = {name: statistics.quantiles(ts, n=100)[98] * 1000 for name, ts in times.items()}
        base = p50.pop("shipped")
        ratios = "  ".join(f"{name} {ms:.1f} ms ({ms / base:.3f})" for name, ms in p50.items())
        print(f"{set_:8s} n {len(chosen)} p50 shipped {base:.1f} ms  {ratios}")
        base99 = p99.pop("shipped")
        ratios = "  ".join(f"{name} {ms:.1f} ms ({ms / base99:.3f})" for name, ms in p99.items())
        print(f"{set_:8s} n {len(chosen)} p99 shipped {base99:.1f} ms  {ratios}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "what",
        choices=(
            "misses",
            "variants",
            "latency",
            "losses",
            "classify",
            "hops",
            "seeds",
            "ahead",
            "lists",
            "compare",
        ),
    )
    parser.add_argument("--k", type=int, default=5, help="losses: the depth compared")
    parser.add_argument("--sets", default="locomo")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--variants", default="")
    parser.add_argument("--modes", default="lexical,hybrid")
    parser.add_argument("--save", type=Path, default=None, help="every figure as JSON")
    args = parser.parse_args()
    modes = tuple(args.modes.split(","))
    embedder = CachedEmbedder() if modes != ("lexical",) else None
    sets = args.sets.split(",")
    with tempfile.TemporaryDirectory(prefix="mnemic-misses-") as tmp:
        corpora, questions = _stores(sets, args.split, embedder, Path(tmp))
        if args.what == "misses":
            misses(corpora, questions, lambda: embedder)
        elif args.what == "classify":
            got = classify(corpora, questions, lambda: embedder, [10, 50])
            if args.save is not None:
                args.save.write_text(json.dumps(got, indent=1), encoding="utf-8")
        elif args.what == "hops":
            hops(corpora, questions, lambda: embedder)
        elif args.what == "compare":
            compare(corpora, questions, lambda: embedder, VARIANTS[args.variants])
        elif args.what == "lists":
            lists(corpora, questions, lambda: embedder)
        elif args.what == "seeds":
            seeds(corpora, questions, lambda: embedder)
        elif args.what == "ahead":
            behind_others(corpora, questions, lambda: embedder, args.save)
        elif args.what == "losses":
            losses(corpora, questions, lambda: embedder, args.k)
        elif args.what == "latency":
            names = [n for n in args.variants.split(",") if n]
            latency(corpora, questions, lambda: embedder, names)
        else:
            names = [n for n in args.variants.split(",") if n] or list(VARIANTS)
            variants(corpora, questions, lambda: embedder, names, args.save, modes)
            if TALLY:
                print(json.dumps({"seeded": dict(TALLY)}))
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
