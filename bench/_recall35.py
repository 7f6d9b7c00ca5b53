"""Recall 35: one exchange, one place: an assistant's reply gives way to the user's
statement it follows (issue 33, multi-hop; docs/recall.md "recall 35").

    .venv/bin/python bench/_recall35.py tune --sets strangers5,strangers6,strangers7,strangers8 \
        --variants reply:0.7,reply:0.5,reply:0.3 --save OUT.json
    .venv/bin/python bench/_recall35.py run --sets strangers9 --split test --save OUT.json
    .venv/bin/python bench/_recall35.py cost --sets strangers8 --save OUT.json

The stores and the command line are ``bench/_recall32.py``'s (``cli``, ``stores`` with
the strangers' sets 5-9); the paired figures are ``bench/_misses.py``'s.

**What the dev misses say** (strangers8, 41 multi-hop questions, hybrid as on main at
``019a8cb5``, each ranking to 200): every evidence turn of the strangers' multi-hop
questions is the user's (130 of 130 found in the lists; the other categories too), yet
174 of the 410 top-10 places are the assistant's long replies, and 117 of those 174 sit
below the user's statement they answer (the reply restates it: "Snow on Monday. We lost
six lambs" and the assistant's paragraph on snow and lambs). The top 10 spans 4.0
sessions for 2.95 evidence sessions a question; 76 evidence turns are missed at @10 (36
at 11-50, 34 at 51-200), 32 of them in a session the top 10 already holds. A list over
the year needs one place per session's statement, and each exchange takes two. Lexical
(strangers5-8, 159 multi-hop questions): 356 evidence turns missed at @10, all the
user's; only 26 share a rare word (2 % of the messages or fewer, not the question's) with
an evidence turn found in the top 10, so following a thread by its words (recall 15's
seed, recall 32-34's bridge) reaches few of them; a session cap in the top 10 (at most 2
or 3 places a session: recall 14 and 20 on LoCoMo) lost on strangers8 too (turn@10
-0.037 and -0.086, read offline from the same lists).

**The rule** (:func:`mnemic.sessions.search.speaker.yield_replies`, hybrid only, after
the statement step of recall 30; ``retrieval.REPLIES``): among the best
``speaker.REPLY_TOP`` = 50, an assistant's reply whose preceding message is the user's
statement (not a question) ranked above it keeps ``speaker.REPLY_SHARE`` of its score.
Only an assistant: a speaker with a person's name (LoCoMo's dialogues between two
people, where the second speaker is stored as the assistant) is left alone, so LoCoMo
ranks as on main by construction; a question that asks what the assistant said, or names
the reply's speaker, changes nothing. Every question, no cue for lists (recall 20's cue
was brittle). Lexical is untouched (the baseline).

**Tuning (dev only, ``tune``)**: ``reply:S`` for S in 0.7, 0.5, 0.3 against off, on the
strangers' English dev sets embedded in the session (strangers5-8). Protocol, written
before the tuning figures are read (strangers8's lists were read offline with S 0.6, 0.3
and 0 while choosing the rule): the S with the best pooled turn@10 paired gain; ties
(within 0.002) to the larger S (the gentler).

**Gates, written before the judging run** (``run``, once, on strangers9 English, split
test, 231 questions, read before only by its baseline; off, on and lexical question by
question; paired bootstrap 95 %):

0. (dev, before judging) pooled dev turn@10 gain's interval above 0, multi-hop turn@10
   up, no category down by more than its interval, hybrid >= lexical at every k.
1. Ship when the judge's hybrid turn@10 paired gain has its 95 % interval above 0, or
   its multi-hop turn@10 rises with overall turn@10 not falling (point).
2. With the step, hybrid >= lexical at every turn and session k on strangers9.
3. No category's turn@10 down by more than its paired interval.
4. Cost: CPU of a hybrid search, off and on interleaved (``cost``), p50 and p95.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _recall32 as r32
import mnemic.sessions.search.retrieval as retrieval_module
import mnemic.sessions.search.speaker as speaker_module
import recall as rb
from _metrics import Scores
from _misses import paired, print_figures

STRANGERS = ("strangers5", "strangers6", "strangers7", "strangers8", "strangers9")
POOLED = "pooled-dev"
SHOWN = ("turn@5", "turn@10", "turn@50", "session@5")
FIGS = ("turn@5", "turn@10", "turn@25", "turn@50", "session@2", "session@5", "session@10")


def stores(sets: list[str], split: str, embedder: Any, work: Path) -> tuple[
    dict[str, rb.Corpus], list[rb.Question]
]:  # fmt: skip
    """The strangers' sets 5-9 (and LoCoMo's) through recall 32's ``stores``; only the
    questions of ``split``."""
    corpora, questions = r32.stores(sets, split, embedder, work, strangers=STRANGERS)
    return corpora, [q for q in questions if q.split == split or split == "all"]


@contextmanager
def replies(on: bool, share: float | None = None) -> Iterator[None]:
    """The ranking with the step on or off (``retrieval.REPLIES``), at ``share``."""
    before = retrieval_module.REPLIES, speaker_module.REPLY_SHARE
    retrieval_module.REPLIES = on
    if share is not None:
        speaker_module.REPLY_SHARE = share
    try:
        yield
    finally:
        retrieval_module.REPLIES, speaker_module.REPLY_SHARE = before


def _line(set_: str, name: str, r: dict[str, Any]) -> None:
    print_figures(f"{set_:12s} {name:10s}", r, ci=True, figures=FIGS)
    if "paired" in r:
        p = r["paired"]
        print("    paired (on - off): " + "  ".join(
            f"{m} {v['diff']['value']:+.3f} [{v['diff']['ci95'][0]:+.3f},"
            f"{v['diff']['ci95'][1]:+.3f}] +{v['better']}/-{v['worse']}"
            for m, v in p.items() if m in SHOWN))  # fmt: skip
        by = {g: v["turn@10"] for g, v in p["by"].items() if "turn@10" in v}
        print("    by category turn@10: " + "  ".join(
            f"{g} {v['diff']['value']:+.3f} [{v['diff']['ci95'][0]:+.3f},"
            f"{v['diff']['ci95'][1]:+.3f}] +{v['better']}/-{v['worse']}"
            for g, v in by.items()))  # fmt: skip


def _table(questions: list[rb.Question], rank: Any, names: tuple[str, ...], save: Path,
           cases: list[dict[str, Any]] | None = None) -> None:  # fmt: skip
    table: dict[tuple[str, str], Scores] = {}
    for q in questions:
        sets = [q.set, POOLED] if q.split == "dev" else [q.set]
        for name in names:
            ranked = rank(q, name)
            for set_ in sets:
                scores = table.setdefault((set_, name), Scores())
                rb.score(q, rank.corpora[q.corpus], ranked, scores)
    out: dict[str, Any] = {"cases": cases or []}
    for (set_, name), sc in sorted(table.items()):
        r = sc.result()
        if name not in ("off", "lexical"):
            r["paired"] = paired(sc, table[(set_, "off")])
        out.setdefault(set_, {})[name] = r
        _line(set_, name, r)
    save.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")


class _Ranker:
    def __init__(self, corpora: dict[str, rb.Corpus], loader: Any,
                 cases: list[dict[str, Any]] | None = None) -> None:  # fmt: skip
        self.corpora, self.loader, self.cases = corpora, loader, cases
        self.seen: dict[str, list[Any]] = {}

    def __call__(self, q: rb.Question, name: str) -> list[Any]:
        corpus = self.corpora[q.corpus]
        if name == "lexical":
            return rb.ranking(corpus, q.text, "lexical", self.loader, q.as_of)
        share = float(name.split(":")[1]) if name.startswith("reply:") else None
        with replies(name != "off", share):
            got = rb.ranking(corpus, q.text, "hybrid", self.loader, q.as_of)
        self.seen[name] = got
        if self.cases is not None and name == "on":
            ev = set(q.evidence)

            def at(ranked: list[Any]) -> list[int]:
                return [i + 1 for i, p in enumerate(ranked) if corpus.keys.get(tuple(p)) in ev]

            before, after = at(self.seen["off"]), at(got)
            if before != after:
                self.cases.append({"set": q.set, "groups": q.groups, "text": q.text,
                                   "off": before, "on": after})  # fmt: skip
        return got


def run(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
        save: Path) -> None:  # fmt: skip
    """Lexical, hybrid off and hybrid with the step (``on``, the shipped share), question
    by question; the step's paired difference from off per set and category, and the
    questions whose evidence places changed."""
    cases: list[dict[str, Any]] = []
    _table(questions, _Ranker(corpora, loader, cases), ("lexical", "off", "on"), save, cases)
    print(f"questions whose evidence moved: {len(cases)}")
    for c in cases:
        moved = f"{c['off'][:4]} -> {c['on'][:4]}"
        print(f"  {c['set']} {c['groups'][0]:12s} {moved}  {c['text'][:80]}")


def tune(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
         specs: list[str], save: Path) -> None:  # fmt: skip
    """Dev only: lexical, off and each ``reply:S``; each variant's paired difference."""
    if any(q.split != "dev" for q in questions):
        raise SystemExit("tune reads dev questions only")
    _table(questions, _Ranker(corpora, loader), ("lexical", "off", *specs), save)


def cost(corpora: dict[str, rb.Corpus], questions: list[rb.Question], save: Path) -> None:
    """CPU of one hybrid search with the step off and on, interleaved question by
    question, the shipped embedder uncached (query vectors forgotten before each call):
    p50 and p95 and their ratio."""
    from mnemic.embedding.model import load_embedder
    from mnemic.sessions.search import query_vectors as qv
    from mnemic.sessions.search.retrieval import semantic_state

    real = load_embedder()
    for c in corpora.values():
        c.state = semantic_state(c.store, lambda: real, max_age=1e9)
    cpu: dict[str, list[float]] = {"off": [], "on": []}
    for q in questions:
        corpus = corpora[q.corpus]
        for name in ("off", "on") if len(cpu["off"]) % 2 == 0 else ("on", "off"):
            qv._vectors.clear()
            with replies(name == "on"):
                t0 = time.process_time()
                rb.ranked_results(corpus, q.text, "hybrid", lambda: real, q.as_of)
                cpu[name].append(time.process_time() - t0)

    def stats(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        return {"n": len(xs), "p50_ms": 1000 * statistics.median(xs),
                "p95_ms": 1000 * xs[int(0.95 * (len(xs) - 1))]}  # fmt: skip

    out = {k: stats(v) for k, v in cpu.items()}
    out["ratio"] = {m: out["on"][m] / out["off"][m] for m in ("p50_ms", "p95_ms")}  # type: ignore[assignment]
    print(json.dumps(out, indent=1))
    save.write_text(json.dumps(out, indent=1), encoding="utf-8")


def main() -> None:
    r32.cost = cost  # the command line's ``cost`` is this step's
    r32.cli(stores, run, tune, "mnemic-recall35-")


if __name__ == "__main__":
    main()
