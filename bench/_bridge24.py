"""Recall 24: the Chinese dev questions, where their evidence ranks, and English words for
their lexical side (dev only; the test conversations are never read here).

    .venv/bin/python bench/_bridge24.py where         # each zh dev question's evidence ranks
    .venv/bin/python bench/_bridge24.py near          # the chat's words nearest each question
    .venv/bin/python bench/_bridge24.py show --recipe bridgeseg2   # a recipe's words, ranks
    .venv/bin/python bench/_misses.py variants --sets zh --modes hybrid \\
        --variants oracle,bridge10,bridgeseg2         # the recipes as ranking variants

``where``: for every dev Chinese question, the best evidence turn's rank in the semantic
and hybrid lists (to 200) and the same for the English question of the same id.
``near``: the conversation's own words (letters only, no function words) embedded once
each as queries; for every dev Chinese question its nearest words, and how many of the
English question's content words are among them. ``show``: for every dev Chinese
question, the best evidence rank shipped and with a recipe, and the words it bridged.

**The bridge.** A question none of whose content words (those with letters) is in a
script the chat writes (what :func:`~mnemic.sessions.search.retrieval.readable_share`
reads as 0: Chinese over LoCoMo's English chats) gives its lexical side English words of
the chat's own vocabulary found through the embedder (each word embedded once as a query,
kept for the process); the lexical search runs with the question's text and those words
(any word), and the fusion weighs the lexical side by the recipe's share. Every other
question is untouched. Each recipe (:data:`RECIPES`) was written down before its run, in
the order listed; what each one changed after reading the previous one's words is in its
comment. **The rule for shipping** (written before the first run): zh hybrid turn@10
gains with a paired interval above 0, or @10 and @50 both gain and nothing else loses;
the test halves are run once after.

**A second dev set** (``dev2``; written after every recipe above had run, before any run
on it): 60 LoCoMo dev questions not in ``locomo-zh.json`` (20 a dev conversation, drawn
with seed 24, every category; ``bench/data/locomo-zh-dev2.json``), translated into
Chinese by this track's helper before any ranking of them was read. Shipped against
``bridgeseg2`` (the best rule), ``bridgeseg``, ``bridgeb`` and ``oracle``, once; the same
rule for shipping.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np

import recall as rb
from _vcache import CachedEmbedder
from mnemic.sessions import NewSession
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.index.stems import STOP_WORDS, words
from mnemic.sessions.search import retrieval
from mnemic.sessions.search.bridge import nearest_pieces
from mnemic.sessions.search.hybrid import fuse
from mnemic.sessions.search.speaker import scripts
from mnemic.sessions.search.timeframe import read_timeframe
from mnemic.sessions.store import SearchFilters

DEPTH = 200

NEAR = 30
"""Words nearest the whole question a piece's word must be among (check ``near30``)."""
FOUND = 50
"""Messages nearest the question one of which must write a piece's word (``found50``)."""


@dataclass(frozen=True)
class Recipe:
    """How a variant finds English words for a question and weighs the lexical side."""

    words: str
    """``whole``: the ``n`` words nearest the question's vector; ``apart``: the same with
    the span of the speakers' names' vectors taken from both sides and the names left
    out; ``pieces``: each CJK bigram's nearest word (a bigram nearer a speaker's name
    than any other word is the name: left out); ``segments``: only the bigrams whose
    nearest word is at least as near as both overlapping bigrams' (a word boundary:
    "琳研" of 卡罗琳研究 loses to 研究), over every word of the chat (function words and
    names too: a piece whose word is one is not asked about); ``oracle``: the English
    question of the same id (an upper bound, not a rule)."""
    n: int = 10
    checks: tuple[str, ...] = ()
    """A piece's word kept only if ``near30`` (among the :data:`NEAR` words nearest the
    whole question, names' span removed) and/or ``found50`` (written by one of the
    :data:`FOUND` messages nearest the question)."""
    share: float | None = 1.0
    """The lexical side's share of the blend; None: readable-share's fraction with the
    bridged pieces counted readable (the question's lettered words the lexical side
    reads, over all of them, Chinese counted in bigrams as the index reads it)."""
    dates: bool = False
    """The time step's words (2022年2月7日, 八月份) left out of the pieces."""
    local: bool = False
    """The vocabulary is the words of the :data:`FOUND` nearest messages and the names
    (bounded: what the hits already read), not the whole chat's."""


RECIPES: dict[str, Recipe] = {
    # 1. the rule first written; half share and 5 words as sensitivity checks
    "bridge10": Recipe("whole"),
    "bridge10half": Recipe("whole", share=0.5),
    "bridge5": Recipe("whole", n=5),
    # 2. after reading bridge10's words: the noise was the name's sound ("carrot", "caro"
    #    of 卡罗琳; "mel", "mentee" of 梅兰妮)
    "bridge10p": Recipe("apart"),
    "bridge10phalf": Recipe("apart", share=0.5),
    # 3. the ceiling: what English words would do
    "oracle": Recipe("oracle"),
    "oraclehalf": Recipe("oracle", share=0.5),
    # 4. the question read piece by piece, as the index reads it
    "bridgeb": Recipe("pieces"),
    "bridgex": Recipe("pieces", checks=("near30",)),
    "bridgexhalf": Recipe("pieces", checks=("near30",), share=0.5),
    # 5. the share as readable-share counts it (no weight chosen)
    "bridges": Recipe("pieces", checks=("near30",), share=None),
    "bridgebs": Recipe("pieces", share=None),
    # 6. a piece's word confirmed by the messages the meaning found ("ins" of 内特 is in none)
    "bridgesc": Recipe("pieces", checks=("near30", "found50"), share=None),
    "bridgebc": Recipe("pieces", checks=("found50",), share=None),
    # 7. pieces at word boundaries; function words and names not asked about
    "bridgeseg": Recipe("segments", checks=("found50",), share=None),
    "bridgesega": Recipe("segments", checks=("near30",), share=None),
    # 8. the time step's words its own ("day", "month" of 日, 月 were bridged)
    "bridgeseg2": Recipe("segments", checks=("found50",), share=None, dates=True),
    # 9. bridgeseg2 with a bounded vocabulary (the whole chat's is embedded once per process)
    "bridgeseg50": Recipe("segments", checks=("found50",), share=None, dates=True, local=True),
}
"""Name -> recipe, in the order they were written and run (each before its run)."""


DEV2 = rb.HERE / "data" / "locomo-zh-dev2.json"


def pairs(path: Path = rb.HERE / "data" / "locomo-zh.json") -> list[dict[str, Any]]:
    """The dev Chinese questions with their English wording."""
    dev = set(rb.LOCOMO_SPLIT["dev"])
    data = json.loads(path.read_text(encoding="utf-8"))
    return [e for e in data if e["sample_id"] in dev]


# --- the chat's words and their vectors (kept for the process) -------------------------

_CONTENT: dict[int, tuple[list[str], Any]] = {}
_EVERY: dict[int, tuple[list[str], Any, set[str]]] = {}
_NAMES: dict[int, tuple[list[str], Any, Any, Any, Any]] = {}
_FOUND: dict[tuple[int, bytes], set[str]] = {}


def _texts(store: Any) -> list[tuple[str, str]]:
    said = store.list_sessions(limit=1_000_000)
    return [(m.content or "", m.name or "") for i in said for m in store.messages(i.id)]


def content_words(store: Any, embedder: Any) -> tuple[list[str], Any]:
    """The chat's words with letters, no function words, and their vectors."""
    if id(store) not in _CONTENT:
        got = {w.casefold() for text, _ in _texts(store) for w in words(text)}
        ws = sorted(w for w in got if scripts(w) and w not in STOP_WORDS and len(w) > 1)
        _CONTENT[id(store)] = (ws, np.asarray(embedder.embed_queries(ws), np.float32))
    return _CONTENT[id(store)]


def every_word(store: Any, embedder: Any) -> tuple[list[str], Any, set[str]]:
    """Every word of the chat with letters (function words and names too), their
    vectors, and the speakers' names."""
    if id(store) not in _EVERY:
        got: set[str] = set()
        names: set[str] = set()
        for text, name in _texts(store):
            got |= {w.casefold() for w in words(text) if scripts(w)}
            names |= {w.casefold() for w in words(name)}
        ws = sorted(w for w in got | names if len(w) > 1)
        _EVERY[id(store)] = (ws, np.asarray(embedder.embed_queries(ws), np.float32), names)
    return _EVERY[id(store)]


def _names(store: Any, embedder: Any) -> tuple[list[str], Any, Any, Any, Any]:
    """The speakers' names, their vectors, an orthonormal basis of their span, the
    content words' vectors with that span removed, and which content words are names."""
    if id(store) not in _NAMES:
        names = sorted({name for _, name in _texts(store) if name})
        nv = np.asarray(embedder.embed_queries(names), np.float32)
        basis, _ = np.linalg.qr(nv.T)
        ws, mat = content_words(store, embedder)
        left = mat - (mat @ basis) @ basis.T
        left /= np.linalg.norm(left, axis=1, keepdims=True)
        folded = {n.casefold() for n in names}
        _NAMES[id(store)] = (names, nv, basis, left, np.array([w in folded for w in ws]))
    return _NAMES[id(store)]


def apart_from_names(store: Any, embedder: Any, vec: Any) -> Any:
    """Each content word's cosine to ``vec``, the names' span removed from both, the
    names themselves at -2."""
    _, _, basis, left, is_name = _names(store, embedder)
    q = np.asarray(vec, np.float32)
    q = q - basis @ (basis.T @ q)
    sims = left @ (q / np.linalg.norm(q))
    sims[is_name] = -2.0
    return sims


def found_words(store: Any, embedder: Any, vec: Any) -> set[str]:
    """The words of the :data:`FOUND` messages nearest ``vec``."""
    key = (id(store), np.asarray(vec, np.float32).tobytes())
    if key not in _FOUND:
        hits = store.vectors.search(vec, embedder.model_id, SearchFilters(), FOUND)
        said = store.messages_by_id([i for i, _ in hits])
        _FOUND[key] = {w.casefold() for m in said.values() for w in words(m.content or "")}
    return _FOUND[key]


# --- the recipes -----------------------------------------------------------------------


def _checked(
    store: Any, embedder: Any, vec: Any, chosen: list[str], checks: tuple[str, ...]
) -> list[str]:
    if "near30" in checks:
        ws, _ = content_words(store, embedder)
        sims = apart_from_names(store, embedder, vec)
        near = {ws[i] for i in np.argsort(-sims)[:NEAR]}
        chosen = [w for w in chosen if w in near]
    if "found50" in checks:
        held = found_words(store, embedder, vec)
        chosen = [w for w in chosen if w in held]
    return chosen


def piece_words(
    store: Any, embedder: Any, text: str, vec: Any, checks: tuple[str, ...]
) -> list[str]:
    """Recipe ``pieces``: each CJK bigram's nearest content word, name pieces left out."""
    ws, mat = content_words(store, embedder)
    grams = list(dict.fromkeys(w for w in words(text) if scripts(w) == {"CJK"}))
    if not grams:
        return []
    _, nv, _, _, is_name = _names(store, embedder)
    gv = np.asarray(embedder.embed_queries(grams), np.float32)
    to_words = np.where(is_name[None, :], -2.0, gv @ mat.T)
    best = to_words.argmax(axis=1)
    named = (gv @ nv.T).max(axis=1) >= to_words.max(axis=1)
    chosen = [ws[best[g]] for g in range(len(grams)) if not named[g]]
    return list(dict.fromkeys(_checked(store, embedder, vec, chosen, checks)))


def piece_share(store: Any, embedder: Any, text: str, vec: Any, checks: tuple[str, ...]) -> float:
    """Recipe ``pieces`` with share None: the lettered content words (bigrams for
    Chinese) that gave a bridged word, over all of them."""
    found = [w for w in dict.fromkeys(words(text)) if scripts(w) and w.casefold() not in STOP_WORDS]
    if not found:
        return 1.0
    read = sum(
        bool(piece_words(store, embedder, g, vec, checks)) for g in found if scripts(g) == {"CJK"}
    )
    return read / len(found)


def segment_words(
    store: Any, embedder: Any, text: str, vec: Any, recipe: Recipe
) -> tuple[list[str], float]:
    """Recipe ``segments``: the bridged words and readable-share's fraction."""
    ws, mat, names = every_word(store, embedder)
    if recipe.dates:
        for said in read_timeframe(text).words:
            text = text.replace(said.removeprefix("before "), " ")
    if recipe.local:
        near = found_words(store, embedder, vec) | {n for n in names if len(n) > 1}
        ws = sorted(w for w in near if scripts(w) and len(w) > 1)
        mat = np.asarray(embedder.embed_queries(ws), np.float32)
    pieces = nearest_pieces(text, ws, mat, embedder.embed_queries)
    content = [w for w in pieces if w not in STOP_WORDS and w not in names]
    bridged = _checked(store, embedder, vec, content, recipe.checks)
    other = [
        w
        for w in dict.fromkeys(words(text))
        if scripts(w) and scripts(w) != {"CJK"} and w.casefold() not in STOP_WORDS
    ]
    total = len(content) + len(other)
    share = (len(bridged) + len(other)) / total if total else 1.0
    return list(dict.fromkeys(bridged)), share


def english(store: Any, embedder: Any, text: str, vec: Any, recipe: Recipe) -> tuple[str, float]:
    """The text the lexical side searches under ``recipe`` and its share of the blend."""
    if recipe.words == "oracle":
        english_of = {e["zh"]: e["question"] for e in [*pairs(), *pairs(DEV2)]}
        return english_of[text], float(recipe.share or 1.0)
    if recipe.words == "segments":
        found, share = segment_words(store, embedder, text, vec, recipe)
        return " ".join([text, *found]), share
    if recipe.words == "pieces":
        found = piece_words(store, embedder, text, vec, recipe.checks)
        share = recipe.share
        if share is None:
            share = piece_share(store, embedder, text, vec, recipe.checks)
        return " ".join([text, *found]), share
    ws, mat = content_words(store, embedder)
    if recipe.words == "apart":
        sims = apart_from_names(store, embedder, vec)
    else:
        sims = mat @ np.asarray(vec, np.float32)
    found = [ws[i] for i in np.argsort(-sims)[: recipe.n]]
    return " ".join([text, *found]), float(recipe.share if recipe.share is not None else 1.0)


def bridged(recipe: Recipe) -> Callable[..., Any]:
    """``retrieval._retrieve`` with ``recipe``'s bridge for a question none of whose
    content words is in Latin letters (the bench's chats are English)."""
    orig = retrieval._retrieve

    def run(store: Any, query: Any, text: str, filters: Any, *, mode: Any, state: Any,
            frame: Any) -> Any:  # fmt: skip
        fused, used, notice, vec = orig(
            store, query, text, filters, mode=mode, state=state, frame=frame
        )
        lettered = [w for w in words(text) if scripts(w) and w.casefold() not in STOP_WORDS]
        if used != "hybrid" or vec is None or not lettered:
            return fused, used, notice, vec
        if any(scripts(w) <= {"LATIN"} for w in lettered):
            return fused, used, notice, vec
        searched, share = english(store, state.embedder, text, vec, recipe)
        asked = parse_query(searched).with_match("any")
        lexical = retrieval.rank_messages(store, asked, filters, candidates=retrieval.CANDIDATES)
        hits = retrieval._semantic_hits(
            store, state.embedder, vec, filters, retrieval.SEMANTIC_CANDIDATES
        )
        statements = retrieval.asked_role(text) == "user"
        return fuse(lexical, hits, statements=statements, readable=share), used, notice, vec

    return run


# --- the readings ----------------------------------------------------------------------


def best_rank(corpus: rb.Corpus, text: str, mode: str, loader: Any, evidence: list[str]) -> int:
    got = rb.ranked_results(corpus, text, mode, loader, None, depth=DEPTH)
    keys = [corpus.keys.get((r.session_id, r.seq)) for r in got]
    ranks = [i + 1 for i, k in enumerate(keys) if k in evidence]
    return min(ranks) if ranks else DEPTH + 1


def band(rank: int) -> str:
    return "1-10" if rank <= 10 else "11-50" if rank <= 50 else "51-200" if rank <= 200 else ">200"


def where(corpora: dict[str, rb.Corpus], loader: Any) -> None:
    tally: Counter[tuple[str, str]] = Counter()
    for e in pairs():
        corpus = corpora[e["sample_id"]]
        ev = list(e["evidence"])
        r = {
            (lang, mode): best_rank(corpus, text, mode, loader, ev)
            for lang, text in (("zh", e["zh"]), ("en", e["question"]))
            for mode in ("semantic", "hybrid")
        }
        for (lang, mode), v in r.items():
            tally[(f"{lang}-{mode}", band(v))] += 1
        print(f"{e['sample_id']} cat{e['category']} zh sem {r[('zh', 'semantic')]:3d} "
              f"hyb {r[('zh', 'hybrid')]:3d} | en sem {r[('en', 'semantic')]:3d} "
              f"hyb {r[('en', 'hybrid')]:3d} | {e['zh']} | {e['question']}")  # fmt: skip
    for arm in ("zh-semantic", "zh-hybrid", "en-semantic", "en-hybrid"):
        print(arm, {b: tally[(arm, b)] for b in ("1-10", "11-50", "51-200", ">200")})


def near(corpora: dict[str, rb.Corpus], embedder: CachedEmbedder, top: int) -> None:
    found = total = 0
    for e in pairs():
        ws, mat = content_words(corpora[e["sample_id"]].store, embedder)
        order = np.argsort(-(mat @ embedder.embed_queries([e["zh"]])[0]))
        nearest = [ws[i] for i in order[:top]]
        known = set(ws)
        asked = [w.casefold() for w in dict.fromkeys(words(e["question"]))]
        asked = [w for w in asked if w not in STOP_WORDS and w in known]
        rank = {ws[i]: n + 1 for n, i in enumerate(order[:2000])}
        found += sum(w in nearest for w in asked)
        total += len(asked)
        print(f"{e['zh']} | {e['question']}\n   near: {' '.join(nearest)}\n"
              f"   english ranks: {[(w, rank.get(w, '>2000')) for w in asked]}")  # fmt: skip
    print(f"English content words among the nearest {top}: {found} of {total}")


def show(corpora: dict[str, rb.Corpus], embedder: CachedEmbedder, name: str) -> None:
    from _misses import knobs

    recipe = RECIPES[name]
    loader = lambda: embedder  # noqa: E731
    for e in pairs():
        corpus = corpora[e["sample_id"]]
        ev = list(e["evidence"])
        before = best_rank(corpus, e["zh"], "hybrid", loader, ev)
        with knobs({"b": (retrieval, "_retrieve", bridged(recipe))}):
            after = best_rank(corpus, e["zh"], "hybrid", loader, ev)
        q = embedder.embed_queries([e["zh"]])[0]
        searched, share = english(corpus.store, embedder, e["zh"], q, recipe)
        added = searched.removeprefix(e["zh"]).strip()
        mark = "+" if after <= 10 < before else "-" if before <= 10 < after else " "
        print(f"{mark} {before:3d} -> {after:3d}  {e['question']}  [{added}] share {share:.2f}")


class _Timed:
    """The shipped embedder, with the CPU time of its passage and query calls counted."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.cpu = {"passages": 0.0, "queries": 0.0}
        self.texts = {"passages": 0, "queries": 0}

    def _timed(self, kind: str, fn: Any, texts: Any) -> Any:
        t0 = time.process_time()
        try:
            return fn(texts)
        finally:
            self.cpu[kind] += time.process_time() - t0
            self.texts[kind] += len(texts)

    def embed_passages(self, texts: Any) -> Any:
        return self._timed("passages", self.inner.embed_passages, texts)

    def embed_queries(self, texts: Any) -> Any:
        return self._timed("queries", self.inner.embed_queries, texts)


def cost(tmp: Path, questions: int) -> None:
    """Recall 25: the word table's cost at embed time (the dev conversations, the shipped
    embedder uncached: CPU of the passages and of the words, words per 1,000 messages as
    the history grows) and the bridge's at query time (dev zh questions, CPU of a hybrid
    search with the bridge and without, interleaved, the query vectors forgotten before
    each call)."""
    from mnemic.backends.files.sqlite import SQLiteSessionStore
    from mnemic.embedding.model import load_embedder
    from mnemic.sessions import search_messages
    from mnemic.sessions.importing.importers import locomo_sessions
    from mnemic.sessions.search import bridge, query_vectors
    from mnemic.sessions.search.embed import backfill
    from mnemic.sessions.sql.words import message_words

    data = json.loads(rb.LOCOMO.read_text(encoding="utf-8"))
    dev = [s for s in data if s["sample_id"] in rb.LOCOMO_SPLIT["dev"]]
    seen: set[str] = set()
    turns = 0
    for sample in dev:  # the vocabulary as one history grows
        for _, msgs in locomo_sessions(sample):
            for m in msgs:
                seen |= message_words(m.content, m.name)
                turns += 1
                if turns % 500 == 0:
                    print(f"growth: {turns} messages, {len(seen)} distinct words")
    print(f"growth: {turns} messages, {len(seen)} distinct words")
    real = _Timed(load_embedder())
    stores = {}
    for sample in dev:
        sid = str(sample["sample_id"])
        store = SQLiteSessionStore(tmp / f"cost-{sid}.db", durable=False)
        items = [(NewSession(s.id, s.source, s.title, started_at=s.started_at), msgs)
                 for s, msgs in locomo_sessions(sample)]  # fmt: skip
        for _ in store.import_sessions(items, workers=0):
            pass
        before = dict(real.cpu), dict(real.texts)
        t0 = time.process_time()
        backfill(store, real, batch=64)  # type: ignore[arg-type]
        total = time.process_time() - t0
        assert store.words is not None
        print(f"embed {sid}: {real.texts['passages'] - before[1]['passages']} passages "
              f"{real.cpu['passages'] - before[0]['passages']:.1f} s CPU; "
              f"{real.texts['queries'] - before[1]['queries']} words "
              f"{real.cpu['queries'] - before[0]['queries']:.1f} s CPU; backfill {total:.1f} s "
              f"CPU; words held {store.words.count(real.model_id)}")  # fmt: skip
        stores[sid] = store
    asked = pairs()[:questions]
    spent: dict[bool, list[float]] = {True: [], False: []}
    for n, e in enumerate(asked):
        for on in (n % 2 == 0, n % 2 == 1):
            bridge.BRIDGE = on
            query_vectors._vectors.clear()
            t0 = time.process_time()
            search_messages(stores[e["sample_id"]], e["zh"], mode="hybrid", limit=10,
                            embedder_loader=lambda: real)  # fmt: skip
            spent[on].append(time.process_time() - t0)
    bridge.BRIDGE = True
    for on, ts in spent.items():
        ts.sort()
        print(
            f"query {'bridge' if on else 'before'}: n {len(ts)} CPU median "
            f"{ts[len(ts) // 2] * 1000:.0f} ms, p90 {ts[int(len(ts) * 0.9)] * 1000:.0f} ms"
        )
    for store in stores.values():
        store.close()


def main() -> None:
    from _misses import _stores

    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("where", "near", "show", "dev2", "cost"))
    parser.add_argument("--questions", type=int, default=59)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--variants", default="bridgeseg2,bridgeseg,bridgeb,oracle")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--recipe", default="bridgeseg2", choices=sorted(RECIPES))
    args = parser.parse_args()
    if args.what == "cost":
        with tempfile.TemporaryDirectory(prefix="mnemic-bridge-") as tmp:
            cost(Path(tmp), args.questions)
        return
    embedder = CachedEmbedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-bridge-") as tmp:
        corpora, _ = _stores(["locomo", "zh"], "dev", embedder, Path(tmp))
        if args.what == "where":
            where(corpora, lambda: embedder)
        elif args.what == "dev2":
            from _misses import variants

            asked = [
                rb.Question("zh2", "dev", e["sample_id"], e["zh"],
                            [rb.CATEGORIES[int(e["category"])]], list(e["evidence"]))
                for e in pairs(DEV2)
            ]  # fmt: skip
            names = args.variants.split(",")
            variants(corpora, asked, lambda: embedder, names, args.save, ("hybrid",))
        elif args.what == "near":
            near(corpora, embedder, args.top)
        else:
            show(corpora, embedder, args.recipe)
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
