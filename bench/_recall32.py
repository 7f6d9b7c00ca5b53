"""Recall 32: a word bridge for a question in another language than its chat, any script
(issue 33; docs/recall.md "recall 32").

    .venv/bin/python bench/_recall32.py run --sets strangers5-xl,strangers6-xl --save OUT.json
    .venv/bin/python bench/_recall32.py cost --sets strangers5-xl,strangers6-xl --save OUT.json

Recall 31 found that of the 380 evidence turns of the dev questions asked in another
language than their chat, 64 are in neither the lexical nor the semantic top 50, and that
the lexical side of a Latin-script (or Cyrillic, Arabic...) question reads its names only:
the CJK bridge (recall 24/25, :mod:`mnemic.sessions.search.bridge`) reads CJK questions
only.

**The rule (the word bridge, ``bridge.WORDS``; hybrid only).** It runs for a question when

  (a) the store holds word vectors of the embedder's model (``chat_words``, filled at
      embed time since recall 25: nothing new is indexed) and the model has a floor
      (``bridge.WORD_FLOOR``; another embedder: no word bridge);
  (b) the CJK bridge does not run for it and the scripts of the nearest messages are known;
  (c) its readable share (the shipped :func:`~mnemic.sessions.search.retrieval.readable_share`:
      content words written in a script of the nearest messages and held by the store's
      full-text index, over its content words) is below ``bridge.OTHER_SHARE`` = 0.5 (the
      majority; not tuned).

Its content words (lettered, not an English stop word, not a function word of any
language of ``FUNCTION_WORDS``, the time step's words left out) are split into *read*
(the readable ones: names, cognates) and *unread*. Of the unread words of 3 characters
or more (``MIN_CHARS``), casefolded, the ``MAX_WORDS`` = 1 longest (ties: the first) is
embedded as a query and compared with every chat word; it brings its ``NEIGHBOURS`` = 3
nearest chat words at cosine >= ``WORD_FLOOR`` = 0.86 that are no English stop word, no
speaker's name word, and written by one of the 50 messages nearest the question (the
semantic candidates, read once by the semantic arm). The lexical side then searches the
read words and the brought words, any of them (bm25 weighs each alternative by its
rarity); the fusion weighs it by (read words + unread words that brought one) / content
words. A question with nothing to search has no lexical list (semantic alone). Every
other question (English, CJK, one whose share is 0.5 or more), and every store without
word vectors, ranks as before. A question a bridge may read (CJK letters, or a share
below 0.5 counting every script of the question as written) has its own lexical search
run after the semantic arm, only when no bridge reads it (the CJK bridge threw it away
too): the same ranking, one lexical search instead of two.

**Bounds, picked on dev only** (``tune``; strangers5-xl and strangers6-xl, 90 each, at
``263aef7a`` + this rule; LoCoMo zh dev is the CJK bridge's and the word bridge never runs
for it: zh dev identical, 59 questions +0/-0 at every figure). Pooled (180) hybrid
turn@10 against off (0.537):

* every unread word (up to 8), 3 neighbours: floor 0.84 +0.022 (+11/-8), 0.86 +0.034
  (+13/-6), 0.88 +0.021, 0.90 +0.025, 0.92 +0.004; turn@5 +0.070 / +0.083 / +0.070 /
  +0.038 / +0.015. The nearest words of a translated word sit at 0.90-0.96 ("canción" ->
  song 0.945, "Reparatur" -> repair 0.945, "año" -> year 0.95), the noise at 0.85-0.92
  ("pies" -> pieces 0.94): the 50-nearest-messages check does most of the filtering.
* CPU: embedding a word costs 7-8 ms (the shipped engine; a batch gains nothing; the
  question itself 21 ms), so every word cost 49 -> 89 ms median CPU per bridged search
  (1.8x, strangers5-xl), the 2 longest 50 -> 79 ms (1.57x), 1 longest 50 -> 66-68 ms
  (1.32-1.36x): out of the 1.3x budget. Reading the nearest messages' texts from the
  semantic arm (not again) and not running the question's own lexical search when a
  bridge replaces it bring the 1 longest word to 52.2 -> 65.7 ms (1.26x; strangers5-xl +
  strangers6-xl, 116 bridged questions, ``cost``, the machine under a load of 8-16).
* The word count at 0.86, 3 neighbours: 8 words +0.034, the 3 longest +0.021, the 2
  longest +0.031 (+10/-5; 2 neighbours +0.028), the 1 longest +0.031 [+0.008, +0.059]
  (+9/-3; turn@5 +0.039 +9/-0; floor 0.84 the same, 0.88 +0.025), the 1 first +0.030.
  Chosen: the 1 longest word, 3 neighbours, floor 0.86 (the best pooled @10 at the
  least CPU; 0.84 ties, the higher floor kept). Per set: strangers5-xl +0.050 [+0.010,
  +0.099] (+7/-1), strangers6-xl +0.012 [-0.011, +0.044] (+2/-2).
* A variant with no word embedded (the chat words nearest the question's own vector):
  +0.000 to +0.008 pooled, dropped.
* English dev sets strangers5 (199) and strangers6 (195): identical (the bridge ran for
  none of their questions).

**Gates** (written with the rule, before any judging run; one ``run`` of strangers7 and
strangers7-xl, unread until then, and LoCoMo dev; off and the word bridge interleaved
question by question, paired bootstrap 95 % intervals):

1. strangers7-xl (90): hybrid turn@10 paired (words - off) point gain > 0 and its 95 %
   interval's lower end >= 0.
2. strangers7 (220, English): at turn@5, turn@10, turn@50 and session@5 the word bridge's
   figure identical to off's or not below the lower end of off's 95 % interval.
3. LoCoMo dev (562 English): hybrid turn@10 with the word bridge >= off (point); zh dev
   (59) and LoCoMo's xl dev (150) are reported, not gates.
4. CPU per hybrid search (``cost``: the shipped embedder uncached, query vectors
   forgotten before each call, off and on interleaved), median over the questions the
   word bridge runs for on strangers5-xl + strangers6-xl + strangers7-xl: on / off <=
   1.3. The index it reads is recall 25's word table (no new index); its size per 1,000
   messages is reported.

If all pass: the rule ships (on, ``bridge.WORDS`` the ablation switch), a test that failed
before, docs/recall.md "recall 32", README, then the LoCoMo test split once. If not:
nothing ships and the cases are reported.

**Result** (one ``run`` of each at ``477cdda9``, the rule as committed there, reverted
after; ``bench/results/recall32-*``): **nothing ships**, gates 1 and 3 fail. Paired
(words - off):

1. strangers7-xl (90; the word bridge ran for 61): turn@10 0.556 -> 0.559, +0.003
   [-0.031, +0.038] (+3/-2): a point gain, the interval's lower end below 0: **fails**.
   turn@5 -0.027 [-0.067, +0.005] (+2/-5), turn@25 -0.005, turn@50 -0.011 [-0.030,
   +0.003] (+1/-3), session@5 -0.006 (+1/-2), session@10 +0.013.
2. strangers7 (220, English): identical at every figure (the bridge ran for none): passes.
3. LoCoMo dev (562, English): turn@10 0.8154 -> 0.8145 (+0/-1): **fails**. The bridge ran
   for two English questions most of whose words the conversation lacks ("Which city have
   both Jean and John visited?": a second evidence turn 8th -> 15th; "What underlying
   condition might Joanna have based on her allergies?": 19th -> 22nd). Every other
   figure identical. zh dev (59) identical; LoCoMo's xl dev (150, Spanish, German, French,
   Portuguese, Italian; information): turn@5 +0.040 [+0.007, +0.080] (+7/-1), turn@10
   +0.009 [-0.009, +0.032] (+3/-2), turn@25 +0.028 (+5/-0), turn@50 -0.016 (+3/-4).
4. CPU (``cost``, strangers5-xl + 6-xl + 7-xl, the 177 questions the bridge ran for):
   median 52.5 -> 64.3 ms per hybrid search (1.23x), p90 73.5 -> 90.5: passes. Over all
   270 questions 60.1 -> 74.2 ms. Index: none new; the chat-word table it reads (recall
   25's, filled at embed time, 7.4 ms a word) holds 1,367-1,981 words for each of these
   240-258-message conversations (recall 25: 2,360 words at 1,000 messages, about 17 s
   of CPU per 1,000 messages, already paid).

The cases (strangers7-xl, ``cases`` in the saved JSON): the gains come from a word near
what the evidence writes (Polish "zrobione" -> made, create: the masts' wood 3rd -> 1st;
Swedish "stegen" -> step: Hamish's fall 23rd -> 7th; German "Studium" -> academic,
student: 47th -> 16th; Arabic "الطيران" -> flights: two evidence turns up; Spanish
"velas" -> ve, vessel, weeks: 3rd -> 1st, more luck than meaning). The losses are the
longest word being a verb or an inflected form whose neighbours are common English verbs
that many turns write: Portuguese "planejava" -> planned, plan, plans (the launch's
first evidence turn 5th -> 18th), "sabemos" -> know,
Indonesian "dilakukan" -> doing, making, French "monitrice" -> mention, instructor,
moments, German "umgedreht" -> oughtred, gutted (noise). The CPU budget allows one
embedded word, and length does not pick the content word; the dev gain (+0.031 pooled,
strangers5-xl +0.050) did not carry to the unread set. What might: choosing the word by
what the chat's words say of it (the unread word whose nearest chat word is rarest, at no
extra embedding), and a trigger that leaves an English question alone (LoCoMo's two).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mnemic.sessions.search.bridge as bridge_module
import mnemic.sessions.search.query_vectors as query_vectors_module
import mnemic.sessions.search.retrieval as retrieval_module
import recall as rb
from _metrics import Scores
from _misses import _stores, paired, print_figures

STRANGERS = ("strangers5", "strangers6", "strangers7")
OTHER = ("strangers5-xl", "strangers6-xl", "strangers7-xl", "zh", "xl")
"""The other-language sets; the dev ones (tuned on) also pooled as ``pooled-dev-xl``."""
DEV_OTHER = ("strangers5-xl", "strangers6-xl")


def stores(sets: list[str], split: str, embedder: Any, work: Path,
           strangers: tuple[str, ...] = STRANGERS) -> tuple[
    dict[str, rb.Corpus], list[rb.Question]
]:  # fmt: skip
    """LoCoMo (``locomo``, ``zh``, ``xl``) and the strangers' sets ``strangers`` (5-7 here;
    ``strangersN``, ``strangersN-xl``; every question, whatever split its file gives it:
    dev sets)."""
    corpora, questions = _stores(sets, split, embedder, work)
    for name in strangers:
        if name in sets or f"{name}-xl" in sets:
            path, xl_path = rb.STRANGER_SETS[name]
            data = json.loads(path.read_text(encoding="utf-8"))
            xl = json.loads(xl_path.read_text(encoding="utf-8"))
            corpora.update(rb.locomo_corpora(data, work, embedder))
            questions += rb.strangers_questions(data, xl, corpora, sets, name)
    return corpora, questions


AT = "477cdda9"
"""The commit the knobs are at (the rule did not ship); the scripts that import this one
set their own (``_recall33``: ``02677563``)."""


def knob(module: Any, name: str) -> Any:
    """A knob of the word bridge (present at :data:`AT` only: the rule did not ship)."""
    if not hasattr(module, name):
        raise SystemExit(f"{module.__name__}.{name} is gone: run this at {AT}")
    return getattr(module, name)


@contextmanager
def words(on: bool, log: dict[str, Any] | None = None) -> Iterator[None]:
    """The ranking with the word bridge on or off (``bridge.WORDS``); ``log["bridged"]``
    says whether it ran, ``log["searched"]`` what the lexical side searched."""
    before, orig = knob(bridge_module, "WORDS"), knob(retrieval_module, "word_bridge")

    def spy(*a: Any, **kw: Any) -> Any:
        got = orig(*a, **kw)
        if log is not None:
            log["bridged"] = got is not None
            log["searched"] = got
        return got

    setattr(bridge_module, "WORDS", on)  # noqa: B010
    setattr(retrieval_module, "word_bridge", spy)  # noqa: B010
    try:
        yield
    finally:
        setattr(bridge_module, "WORDS", before)  # noqa: B010
        setattr(retrieval_module, "word_bridge", orig)  # noqa: B010


def run(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
        save: Path, dev: tuple[str, ...] = DEV_OTHER,
        modes: tuple[tuple[str, str, bool], ...] = (
            ("semantic", "semantic", True), ("off", "hybrid", False),
            ("words", "hybrid", True))) -> None:  # fmt: skip
    """Semantic, hybrid without the word bridge (``off``) and with it (``words``),
    question by question; the bridge's paired difference from ``off``, per set (and the
    dev other-language sets pooled)."""
    table: dict[tuple[str, str], Scores] = {}
    cases = []
    for q in questions:
        corpus = corpora[q.corpus]
        sets = [q.set, "pooled-dev-xl"] if q.set in dev else [q.set]
        got: dict[str, list[Any]] = {}
        log: dict[str, Any] = {}
        for name, mode, on in modes:
            with words(on, log if name == "words" else None):
                got[name] = rb.ranking(corpus, q.text, mode, loader, q.as_of)
            for set_ in sets:
                rb.score(q, corpus, got[name], table.setdefault((set_, name), Scores()))
        if log.get("bridged"):
            ev = set(q.evidence)

            def rank(ranked: list[Any], corpus: rb.Corpus = corpus, ev: set[str] = ev) -> list[int]:
                return [i + 1 for i, p in enumerate(ranked) if corpus.keys.get(tuple(p)) in ev]

            row = {"set": q.set, "groups": q.groups, "text": q.text, "searched": log["searched"]}
            cases.append(row | {name: rank(ranked) for name, ranked in got.items()})
    out: dict[str, Any] = {"cases": cases}
    for (set_, name), sc in sorted(table.items()):
        r = sc.result()
        if name == "words":
            r["paired"] = paired(sc, table[(set_, "off")])
        out.setdefault(set_, {})[name] = r
        print_figures(f"{set_:14s} {name:9s}", r, ci=True)
        if "paired" in r:
            print("    paired (words - off): " + "  ".join(
                f"{m} {v['diff']['value']:+.3f} [{v['diff']['ci95'][0]:+.3f},"
                f"{v['diff']['ci95'][1]:+.3f}] +{v['better']}/-{v['worse']}"
                for m, v in r["paired"].items() if m != "by"))  # fmt: skip
    print(f"bridged questions: {len(cases)}")
    save.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")


@contextmanager
def variant(spec: str) -> Iterator[None]:
    """``word:F:K:M:ORDER``: the word bridge with floor F, K neighbours, M words at most,
    the ``longest`` or the ``first`` (``question:...``, the chat words nearest the
    question's own vector, was tried at ``263aef7a`` and dropped: see the docstring)."""
    _, floor, k, most, order = ([*spec.split(":"), "8", "first"])[:5]
    names = ("WORD_FLOOR", "NEIGHBOURS", "MAX_WORDS", "LONGEST")
    floors = knob(bridge_module, "WORD_FLOOR")
    before = dict(floors), *(knob(bridge_module, n) for n in names[1:])
    for model in floors:
        floors[model] = float(floor)
    for name, value in zip(names[1:], (int(k), int(most), order == "longest"), strict=True):
        setattr(bridge_module, name, value)
    try:
        yield
    finally:
        floors.update(before[0])
        for name, value in zip(names[1:], before[1:], strict=True):
            setattr(bridge_module, name, value)


def tune(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
         specs: list[str], save: Path, dev: tuple[str, ...] = DEV_OTHER,
         variant: Any = variant) -> None:  # fmt: skip
    """Dev only: hybrid off and each variant, question by question; each variant's
    paired difference from ``off``."""
    table: dict[tuple[str, str], Scores] = {}
    for q in questions:
        corpus = corpora[q.corpus]
        sets = [q.set, "pooled-dev-xl"] if q.set in dev else [q.set]
        for name in ("off", *specs):
            if name == "off":
                with words(False):
                    ranked = rb.ranking(corpus, q.text, "hybrid", loader, q.as_of)
            else:
                with words(True), variant(name):
                    ranked = rb.ranking(corpus, q.text, "hybrid", loader, q.as_of)
            for set_ in sets:
                rb.score(q, corpus, ranked, table.setdefault((set_, name), Scores()))
    out: dict[str, Any] = {}
    for (set_, name), sc in sorted(table.items()):
        r = sc.result()
        if name != "off":
            r["paired"] = paired(sc, table[(set_, "off")])
        out.setdefault(set_, {})[name] = r
        p = r.get("paired", {})
        print(f"{set_:14s} {name:18s} " + "  ".join(
            f"{m} {r[m]['value']:.3f}" + (f" ({p[m]['diff']['value']:+.3f} +{p[m]['better']}"
                                          f"/-{p[m]['worse']})" if m in p else "")
            for m in ("turn@5", "turn@10", "turn@50", "session@5") if m in r))  # fmt: skip
    save.write_text(json.dumps(out, indent=1), encoding="utf-8")


def cost(corpora: dict[str, rb.Corpus], questions: list[rb.Question], save: Path) -> None:
    """CPU time of one hybrid search, word bridge off and on, interleaved question by
    question, with the shipped embedder uncached (query vectors forgotten before each
    call): median and p90 over every question and over those the bridge ran for; and
    what the word table the bridge reads holds per 1,000 messages of each store."""
    from mnemic.embedding.model import load_embedder
    from mnemic.sessions.search.retrieval import semantic_state

    real = load_embedder()
    for c in corpora.values():
        c.state = semantic_state(c.store, lambda: real, max_age=1e9)
    cpu: dict[str, list[float]] = {"off": [], "words": []}
    bridged: dict[str, list[float]] = {"off": [], "words": []}
    for q in questions:
        corpus = corpora[q.corpus]
        seen: dict[str, float] = {}
        log: dict[str, Any] = {}
        for name, on in (("off", False), ("words", True)):
            query_vectors_module._vectors.clear()
            with words(on, log if on else None):
                t0 = time.process_time()
                rb.ranked_results(corpus, q.text, "hybrid", lambda: real, q.as_of)
                seen[name] = time.process_time() - t0
        for name, t in seen.items():
            cpu[name].append(t)
            if log.get("bridged"):
                bridged[name].append(t)

    def stats(xs: list[float]) -> dict[str, float]:
        if not xs:
            return {}
        xs = sorted(xs)
        return {"n": len(xs), "median_ms": 1000 * statistics.median(xs),
                "p90_ms": 1000 * xs[int(0.9 * (len(xs) - 1))]}  # fmt: skip

    out: dict[str, Any] = {
        "all": {k: stats(v) for k, v in cpu.items()},
        "bridged": {k: stats(v) for k, v in bridged.items()},
        "stores": {},
    }
    for name, c in corpora.items():
        messages = sum(len(c.store.messages(s.id)) for s in c.store.list_sessions(limit=10_000))
        held = c.store.words.count(real.model_id) if c.store.words is not None else 0
        out["stores"][name] = {"messages": messages, "words": held,
                               "words_per_1000": 1000 * held / max(1, messages)}  # fmt: skip
    print(json.dumps({k: out[k] for k in ("all", "bridged")}, indent=1))
    save.write_text(json.dumps(out, indent=1), encoding="utf-8")


def cli(stores_fn: Any, run_fn: Any, tune_fn: Any, prefix: str) -> None:
    """The command line of recall 32 and of the scripts built on it (recall 33): ``run``,
    ``tune`` or ``cost`` over the stores ``stores_fn`` builds, with that script's own
    ``run_fn`` and ``tune_fn`` (same signatures as :func:`run` and :func:`tune` here)."""
    from _vcache import CachedEmbedder

    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("run", "cost", "tune"))
    parser.add_argument("--variants", default="word:0.90:3")
    parser.add_argument("--sets", default="strangers5-xl,strangers6-xl")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--save", type=Path, required=True)
    args = parser.parse_args()
    embedder = CachedEmbedder()
    sets = args.sets.split(",")
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        t0 = time.perf_counter()
        corpora, questions = stores_fn(sets, args.split, embedder, Path(tmp))
        print(f"{len(questions)} questions ({time.perf_counter() - t0:.0f} s, "
              f"embedded now {embedder.embedded})", file=sys.stderr)  # fmt: skip
        if args.what == "run":
            run_fn(corpora, questions, lambda: embedder, args.save)
        elif args.what == "tune":
            tune_fn(corpora, questions, lambda: embedder, args.variants.split(","), args.save)
        else:
            cost(corpora, questions, args.save)
        for c in corpora.values():
            c.store.close()


def main() -> None:
    cli(stores, run, tune, "mnemic-recall32-")


if __name__ == "__main__":
    main()
