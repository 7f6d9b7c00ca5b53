"""Recall 36: recall 35's reply step read as written, measured on the long-chat and update
fixtures, the strangers' dev sets and judged once on strangers10 (issue 33; docs/recall.md
"recall 36").

    .venv/bin/python bench/_recall36.py fixtures --sets longchat,updates --save OUT.json
    .venv/bin/python bench/_recall36.py tune --sets strangers7 --save OUT.json
    .venv/bin/python bench/_recall36.py run --sets strangers10 --split test --save OUT.json
    .venv/bin/python bench/_recall36.py cost --sets strangers7 --save OUT.json
    .venv/bin/python bench/_recall36.py dump --sets strangers7,strangers8 --save OUT.json

**What was found.** Recall 35's :func:`mnemic.sessions.search.speaker.yield_replies`
(an assistant's reply among the best 50, ranked below the user's statement it follows,
keeps 0.5 of its score) read each position with ``store.windows((sid, seq - 1, seq))``,
and a window stops *before* its end: it read the message before each position, never the
position itself. A reply was known only when the message after it was among the best 50
too (its own window then held the reply). So the step ran for some of the replies its
rule names, and its share (0.5), its dev figures and its judging run on strangers9 are
those of that partial reading. Recall 36 reads the window to ``seq + 1`` (the reply and
the message before it), the rule as written; nothing else changes (the share, the depth,
who is an assistant, the questions asking what the assistant said).

**The lift (multi-hop; ``speaker.REPLY_LIFTS``).** The dev misses (``dump`` of
strangers7's 41 multi-hop questions with the window fixed, read offline): 158 evidence
turns, every one the user's; 85 found at @10, 47 at 11-50, 24 at 51-200, 2 beyond. Of
the 73 missed within 200, **42 rank below the assistant's reply that follows them** (25
of the 47 at 11-50: 8 with the reply in the top 10, 17 with it at 11-50): the reply
restates the user's fact in the question's sense and holds the exchange's place, the
statement that is the evidence lies under it, and recall 35's step only acts when the
statement is already above. Recall 30 lifts such a statement in the top 10 only when it
is a lexical hit; a multi-hop question's abstract words ("Which professionals...",
"How has X helped?") rarely are. The rule: among the best 50, an assistant's reply (no
person's name) that follows the user's statement (not a question) ranked below it or
not ranked gives its place to the statement: the statement takes the reply's score and
a hair (``stated``), the reply keeps ``REPLY_SHARE`` (0.5, as recall 35). One exchange,
one place, and the place is the statement's. Same exclusions as recall 35 (a question
asking what the assistant said, a named speaker: LoCoMo ranks as on main by
construction). Offline on the dumped multi-hop lists (before this rule was written into
the product): multi-hop turn@10 0.552 -> 0.647 (+14/-0); the other categories were not
read before the commit of this rule.

**Variants** (hybrid; lexical is untouched): ``before`` (main at ``354ef55a``: the
window as it was, reproduced by a store whose ``windows`` stop one message earlier, no
lift), ``fixed`` (the window to ``seq + 1``, no lift), ``lift`` (the window and the
lift: this branch as shipped), ``noreplies`` (the step off, recall 35's ablation).

**Gates, written before the dev figures of ``fixed`` (and, for ``lift``, before its dev
figures of any category but the offline multi-hop one) and before the judging run**
(paired bootstrap 95 %, question by question; each of ``fixed`` and ``lift`` against
``before``):

0. Dev: the long-chat and update fixtures (dev split) and strangers7 (220, English;
   strangers8 could not be embedded in the session: the machine at a load of 25-35
   embeds 0.2-0.6 passages a second, and this was changed before any figure of the
   fix was read): strangers7 turn@10 paired point >= 0; no category's turn@10 down by
   more than its paired interval (its upper end below 0) on any set; the fixtures'
   update figures (fresh/past/as-of first) not below ``before``'s point; hybrid >=
   lexical at every turn and session k on each set (the fixtures' figures, the
   strangers' turn@5-50, session@2-10).
1. Judge, once, strangers10 English (225, test, read before only by its baseline):
   a variant ships when its hybrid turn@10 paired has its 95 % interval's lower end
   >= 0 and its point > 0, or its multi-hop turn@10 rises with overall turn@10 not
   falling (point).
2. With it, hybrid >= lexical at every turn and session k on strangers10.
3. No category's turn@10 down by more than its paired interval on strangers10.
4. Cost: CPU of a hybrid search, ``before`` and the shipped variant interleaved
   (``cost``), p50 and p95.

``lift`` ships if it passes 0-3; else ``fixed`` if it does; else the ranking stays
``before`` (the window is still a defect; the report says which gate failed).

``dump`` (dev only): every multi-hop question's hybrid, semantic and lexical rankings to
200 and the stores' texts, read offline for the multi-hop study.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _misses
import _recall32 as r32
import mnemic.sessions.search.retrieval as retrieval_module
import mnemic.sessions.search.speaker as speaker_module
import recall as rb
from _metrics import Scores
from _misses import paired, print_figures

STRANGERS = ("strangers5", "strangers6", "strangers7", "strangers8", "strangers9", "strangers10")
POOLED = "pooled-dev"
SHOWN = ("turn@5", "turn@10", "turn@50", "session@5")
FIGS = ("turn@5", "turn@10", "turn@25", "turn@50", "session@2", "session@5", "session@10")


class _Before:
    """A store whose ``windows`` stop one message earlier: main's reading before recall
    36 (``(sid, seq - 1, seq)`` held only the message before each position)."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def windows(self, spans: Sequence[tuple[str, int, int]]) -> Any:
        return self._store.windows([(sid, start, stop - 1) for sid, start, stop in spans])

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@contextmanager
def _lifts(on: bool) -> Iterator[None]:
    was = speaker_module.REPLY_LIFTS
    speaker_module.REPLY_LIFTS = on
    try:
        yield
    finally:
        speaker_module.REPLY_LIFTS = was


@contextmanager
def before() -> Iterator[None]:
    """The reply step as on main before recall 36 (the window as it was, no lift)."""
    shipped = retrieval_module.yield_replies

    def old(store: Any, fused: Any, text: str) -> Any:
        return speaker_module.yield_replies(_Before(store), fused, text)

    retrieval_module.yield_replies = old
    try:
        with _lifts(False):
            yield
    finally:
        retrieval_module.yield_replies = shipped


@contextmanager
def fixed() -> Iterator[None]:
    """The window read to ``seq + 1``, no lift."""
    with _lifts(False):
        yield


@contextmanager
def lift() -> Iterator[None]:
    """The window fixed and the lift (``speaker.REPLY_LIFTS``, this branch)."""
    with _lifts(True):
        yield


@contextmanager
def _off() -> Iterator[None]:
    was = retrieval_module.REPLIES
    retrieval_module.REPLIES = False
    try:
        yield
    finally:
        retrieval_module.REPLIES = was


RANKINGS = {"before": before, "fixed": fixed, "lift": lift, "noreplies": _off}


def stores(sets: list[str], split: str, embedder: Any, work: Path) -> tuple[
    dict[str, rb.Corpus], list[rb.Question]
]:  # fmt: skip
    """The strangers' sets 5-10 (and LoCoMo's) through recall 32's ``stores``; only the
    questions of ``split``."""
    corpora, questions = r32.stores(sets, split, embedder, work, strangers=STRANGERS)
    return corpora, [q for q in questions if q.split == split or split == "all"]


def _line(set_: str, name: str, r: dict[str, Any]) -> None:
    print_figures(f"{set_:12s} {name:10s}", r, ci=True, figures=(*FIGS, *_misses.FIGURES[7:]))
    if "paired" in r:
        p = r["paired"]
        print("    paired (- before): " + "  ".join(
            f"{m} {v['diff']['value']:+.3f} [{v['diff']['ci95'][0]:+.3f},"
            f"{v['diff']['ci95'][1]:+.3f}] +{v['better']}/-{v['worse']}"
            for m, v in p.items() if m in (*SHOWN, *_misses.FIGURES[7:])))  # fmt: skip
        by = {g: v["turn@10"] for g, v in p["by"].items() if "turn@10" in v}
        print("    by category turn@10: " + "  ".join(
            f"{g} {v['diff']['value']:+.3f} [{v['diff']['ci95'][0]:+.3f},"
            f"{v['diff']['ci95'][1]:+.3f}] +{v['better']}/-{v['worse']}"
            for g, v in sorted(by.items())))  # fmt: skip


def table(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
          names: tuple[str, ...], save: Path) -> None:  # fmt: skip
    """Lexical and each ranking of ``names``, question by question; each ranking's
    paired difference from ``before`` per set (and pooled over the dev sets), per
    category; the questions whose evidence places moved between before and fixed."""
    scores: dict[tuple[str, str], Scores] = {}
    cases: list[dict[str, Any]] = []
    for q in questions:
        corpus = corpora[q.corpus]
        sets = [q.set, POOLED] if q.split == "dev" and q.set.startswith("strangers") else [q.set]
        seen: dict[str, list[Any]] = {}
        for name in ("lexical", *names):
            if name == "lexical":
                got = rb.ranking(corpus, q.text, "lexical", loader, q.as_of)
            else:
                with RANKINGS[name]():
                    got = rb.ranking(corpus, q.text, "hybrid", loader, q.as_of)
            seen[name] = got
            for set_ in sets:
                rb.score(q, corpus, got, scores.setdefault((set_, name), Scores()))
        if q.kind == "recall" and "before" in seen and "lift" in seen:
            ev = set(q.evidence)

            def at(ranked: list[Any], corpus: rb.Corpus = corpus, ev: set[str] = ev) -> list[int]:
                return [i + 1 for i, p in enumerate(ranked) if corpus.keys.get(tuple(p)) in ev]

            b, f, lf = at(seen["before"]), at(seen["fixed"]), at(seen["lift"])
            if b != lf or b != f:
                cases.append({"set": q.set, "groups": q.groups, "text": q.text,
                              "before": b, "fixed": f, "lift": lf})  # fmt: skip
    out: dict[str, Any] = {"cases": cases}
    for (set_, name), sc in sorted(scores.items()):
        r = sc.result()
        if name not in ("before", "lexical") and (set_, "before") in scores:
            r["paired"] = paired(sc, scores[(set_, "before")])
        out.setdefault(set_, {})[name] = r
        _line(set_, name, r)
    print(f"questions whose evidence moved (before -> fixed / lift): {len(cases)}")
    for c in cases:
        print(f"  {c['set']} {c['groups'][0]:12s} {c['before'][:4]} -> {c['fixed'][:4]}"
              f" / {c['lift'][:4]}  {c['text'][:70]}")  # fmt: skip
    save.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")


def dump(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
         save: Path, groups: tuple[str, ...] = ("multi-hop",)) -> None:  # fmt: skip
    """Dev only: each question of ``groups`` with its three rankings to 200."""
    if any(q.split != "dev" for q in questions):
        raise SystemExit("dump reads dev questions only")
    out = []
    for q in questions:
        if q.kind != "recall" or not set(q.groups) & set(groups):
            continue
        corpus = corpora[q.corpus]
        row: dict[str, Any] = {"set": q.set, "corpus": q.corpus, "text": q.text,
                               "groups": q.groups, "evidence": q.evidence}  # fmt: skip
        for mode in ("hybrid", "semantic", "lexical"):
            res = rb.ranked_results(corpus, q.text, mode, loader, q.as_of, depth=200)
            row[mode] = [
                [corpus.keys.get((r.session_id, r.seq), f"{r.session_id}#{r.seq}"),
                 r.role, round(r.score, 5), list(r.why)]
                for r in res
            ]  # fmt: skip
        out.append(row)
    texts: dict[str, dict[str, Any]] = {}
    for name, c in corpora.items():
        for s in c.store.list_sessions(limit=10_000):
            for m in c.store.messages(s.id):
                key = c.keys.get((s.id, m.seq), f"{s.id}#{m.seq}")
                texts.setdefault(name, {})[key] = [m.role, m.content]
    save.write_text(json.dumps({"questions": out, "texts": texts}, ensure_ascii=False),
                    encoding="utf-8")  # fmt: skip
    print(f"{len(out)} questions dumped")


def cost(corpora: dict[str, rb.Corpus], questions: list[rb.Question], save: Path) -> None:
    """CPU of one hybrid search, ``before`` and ``lift`` interleaved question by
    question, the shipped embedder uncached (query vectors forgotten before each call):
    p50 and p95 and their ratio."""
    from mnemic.embedding.model import load_embedder
    from mnemic.sessions.search import query_vectors as qv
    from mnemic.sessions.search.retrieval import semantic_state

    real = load_embedder()
    for c in corpora.values():
        c.state = semantic_state(c.store, lambda: real, max_age=1e9)
    cpu: dict[str, list[float]] = {"before": [], "lift": []}
    for q in questions:
        corpus = corpora[q.corpus]
        for name in ("before", "lift") if len(cpu["before"]) % 2 == 0 else ("lift", "before"):
            qv._vectors.clear()
            with RANKINGS[name]():
                t0 = time.process_time()
                rb.ranked_results(corpus, q.text, "hybrid", lambda: real, q.as_of)
                cpu[name].append(time.process_time() - t0)

    def stats(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        return {"n": len(xs), "p50_ms": 1000 * statistics.median(xs),
                "p95_ms": 1000 * xs[int(0.95 * (len(xs) - 1))]}  # fmt: skip

    out: dict[str, Any] = {k: stats(v) for k, v in cpu.items()}
    out["ratio"] = {m: out["lift"][m] / out["before"][m] for m in ("p50_ms", "p95_ms")}
    print(json.dumps(out, indent=1))
    save.write_text(json.dumps(out, indent=1), encoding="utf-8")


def main() -> None:
    from _vcache import CachedEmbedder

    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("fixtures", "tune", "run", "cost", "dump", "embed"))
    parser.add_argument("--sets", default="strangers7,strangers8")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--save", type=Path, required=True)
    args = parser.parse_args()
    embedder = CachedEmbedder()
    sets = args.sets.split(",")
    if args.what in ("tune", "dump", "fixtures") and args.split != "dev":
        raise SystemExit(f"{args.what} reads dev questions only")
    with tempfile.TemporaryDirectory(prefix="mnemic-recall36-") as tmp:
        t0 = time.perf_counter()
        if args.what == "fixtures":
            corpora, questions = _misses._stores(sets, args.split, embedder, Path(tmp))
        else:
            corpora, questions = stores(sets, args.split, embedder, Path(tmp))
        print(f"{len(questions)} questions ({time.perf_counter() - t0:.0f} s, "
              f"embedded now {embedder.embedded})", file=sys.stderr)  # fmt: skip
        loader = lambda: embedder  # noqa: E731
        if args.what in ("fixtures", "tune", "run"):
            table(corpora, questions, loader, ("before", "fixed", "lift", "noreplies"), args.save)
        elif args.what == "dump":
            dump(corpora, questions, loader, args.save)
        elif args.what == "cost":
            cost(corpora, questions, args.save)
        # ``embed``: the stores built (their vectors cached), no question ranked
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
