"""Recall 28: the evidence before its reply and its neighbour (issue 33; docs/recall.md).

    .venv/bin/python bench/_recall28.py run --sets locomo --forms exchange,exchangeswap,pair
    .venv/bin/python bench/_recall28.py run --sets longchat,updates
    .venv/bin/python bench/_recall28.py run --sets strangers5 --forms exchange
    .venv/bin/python bench/_recall28.py cost --sets locomo --forms exchange

Recall 27 put 6.4 points of LoCoMo dev hybrid turn R@10 (0.817, 562 questions) on two
causes of one shape: the top 10 holds a turn of the same exchange as the evidence, the
other speaker's reply (3.2) or the same speaker's next or previous turn (3.2), and the
evidence itself ranks 11-50 (53 of those 57 turns). This module's rule reads the
exchange a winning turn belongs to and chooses, inside it, the turn that holds the
question's content. Written **before any dev run of it** (the rule, its forms and what
ships are fixed here and committed first).

**The rule, ``exchange``** (hybrid only: lexical is the baseline hybrid must not fall
below; a step on the fused list, after :func:`~mnemic.sessions.search.hybrid.fuse` and
before the shipped steps after it: repeats, speaker, freshness, which act on its output
as on the fused list):

1. The winners are the first :data:`TOP` (10) positions of the fused list, best first.
2. A winner's exchange is the turns of its session within :data:`SPAN` (2) of it (the
   span of the shipped neighbour context, both sides), read in one window read.
3. Each turn's own match is what the blend gives the turn by itself, without the
   neighbour context or the session prior: ``a * L + (1 - a) * S``, where ``L`` is its
   own bm25 over the best bm25 of the question's lexical hits (0 without a hit of its
   own), ``S`` its own cosine rescaled between the worst and the best semantic candidate
   (0 when it is not one), ``a`` the shipped lexical share (``BLEND_ALPHA`` times the
   share of the question the lexical side can read). Then:

   * a turn that asks (its text ends with a question mark) keeps :data:`ASK_SHARE`
     (0.5, the shipped share for first-person questions) of it: a question in the chat
     echoes the words of what is asked about, and the turn that answers it, or the one it
     asks about, holds the fact;
   * when the question names exactly one of the exchange's speakers (literally, as the
     shipped speaker step reads a name), a turn of another speaker keeps ``NAMED_SHARE``
     (0.8); when it asks about the user's or the assistant's side (first person / "did
     you ..."), a turn of the other side keeps ``OTHER_SHARE`` (0.6): the shipped
     speaker step's shares, read for the choice inside an exchange.

   A turn's length is not weighed again: bm25 already normalises by it and the cosine
   reads the whole turn.
4. The exchange's choice is the turn of the highest own match (ties: the winner). When
   it is another turn than the winner and ranks below it, it is placed directly above the
   winner (it takes the winner's score, plus a hair so the order is strict) and the winner
   and every position below it move down one place. The winners are handled best first;
   a turn is moved at most once, and a winner that was itself moved above another winner
   chooses no further. Every other question and every mode other than hybrid is left as
   it is.

**Forms** (fixed with the rule, all run in the same first dev run):

* ``exchange``: the rule as written (the choice inserted above the winner);
* ``exchangeswap``: the choice and the winner swap places (each takes the other's score):
  the top 10 keeps its count of turns from other exchanges;
* ``pair``: only the question-answer pair, no own-match comparison: a winner that asks
  has the next turn of its session, said by another speaker and not itself asking,
  placed directly above it.

**What ships, and on what** (written with the rule):

1. *LoCoMo dev* (562 questions): a form passes when its hybrid turn@10 gains over the
   shipped ranking with a paired bootstrap 95 % interval above 0, no other figure
   (turn@5/25/50, session@2/5/10) has a paired interval entirely below 0, and hybrid
   stays at or above lexical at every k. Of the forms that pass, the largest turn@10 gain
   goes on.
2. *The long chat and the update fixture* (dev splits): no figure of the chosen form has
   a paired interval entirely below 0, and hybrid stays at or above lexical at every k
   (turn@5/10/25/50; fresh_first, past_first, as_of_first).
3. *strangers5* (a stranger's dev set, recall data 5; merged when its data commit lands):
   turn@10, turn@50 and session@5 have no paired interval entirely below 0. If it is not
   there by 08:30 UTC, the form ships without this check and the report says so.
4. *Cost*: a hybrid question's CPU median (interleaved with the shipped ranking in the
   same minutes, ``cost``) rises by at most 25 %.
5. If no form passes step 1, one more round of forms may be written after reading the
   first round's cases (a second look at the same dev questions, reported as such); a
   form of that round must pass steps 1-4 as well, strangers5 included (it is the check
   against the second look).

**Round 1** (the three forms above, one run, 07:14-07:19 UTC; ``recall28-locomo-dev1``):
none passes step 1. Hybrid turn@10 (562): shipped 0.817; ``exchange`` 0.815, paired
-0.001 [-0.007, +0.004] (+4/-4), turn@5 -0.011 [-0.022, -0.001]; ``exchangeswap``
0.815, -0.002 [-0.007, +0.004] (+4/-6); ``pair`` 0.823, +0.006 [-0.002, +0.016] (+8/-6),
turn@5 +0.018 [+0.003, +0.034] (+20/-10). Read (``moved``): the pair's gains are the
answer to a question that echoes the words ("Anything you're excited for in the adoption
process?" -> "I'm thrilled to make a family ..."), its losses a question that is itself
evidence ("Is that your third one?") and a list question's tenth place pushed out. The
implementation of round 1 gave every position the score of the place it came to hold,
not what step 4 says (only the moved turn's score changes): a position below a moved turn
lost its gap to the next, which the speaker step after it reads.

**Round 2** (step 5: written after reading round 1's cases, before its run; a second look
at the same dev questions; strangers5 must pass too). Three forms of the pair, each with
step 4 as written (every score kept but the moved turn's):

* ``pair2``: ``pair`` (the answer placed directly above the winner that asks);
* ``pairswap``: the answer and the asking winner swap places and scores (the top 10
  keeps its count of turns from elsewhere: the list question's tenth place stays);
* ``pairbelow``: the answer placed directly below the asking winner (a hair under its
  score): the question keeps its place (annotators mark it as evidence too).

What ships is chosen by steps 1-4 as above, over the forms of round 2 only.

**Round 2's result** (one run, 07:23-07:28 UTC; ``recall28-locomo-dev2``): none passes
step 1, so **nothing ships**. Hybrid turn@10 (562), paired against shipped 0.817:
``pair2`` 0.824, +0.007 [-0.002, +0.018] (+9/-5), turn@5 +0.020 [+0.008, +0.033]
(+17/-5); ``pairbelow`` 0.824, +0.007 [-0.002, +0.018] (+9/-5), turn@5 +0.019;
``pairswap`` 0.819, +0.002 [-0.009, +0.014] (+9/-10). No form lowers any figure beyond
its interval. The long chat, the update fixture, strangers5 and the cost were run after
for ``pair2`` (and ``pairbelow``) as information for a later track, not as a pass.

Only then does the form move into ``src/`` (on by default, with an off switch for the
ablation) and the LoCoMo test split (and the Chinese test twins) get run once.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mnemic.sessions.search.retrieval as retrieval_module
import recall as rb
from _metrics import Scores
from _misses import _stores, paired, print_figures
from _vcache import CachedEmbedder
from mnemic.sessions.search.hybrid import ASK_SHARE, BLEND_ALPHA, FusedMessage
from mnemic.sessions.search.speaker import NAMED_SHARE, OTHER_SHARE, asked_role

TOP = 10
"""Winners whose exchange is read."""
SPAN = 2
"""Turns either side of a winner that belong to its exchange."""
FORMS = ("exchange", "exchangeswap", "pair")
ROUND2 = ("pair2", "pairswap", "pairbelow")
HAIR = 1e-9


def asks(text: str | None) -> bool:
    """Whether a turn is a question (its text ends with a question mark)."""
    return (text or "").rstrip().endswith(("?", "？"))


def _named(text: str, names: set[str]) -> set[str]:
    return {n for n in names if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text)}


def own_matches(fused: Sequence[FusedMessage], readable: float) -> dict[tuple[str, int], float]:
    """Each fused position's own match (step 3 before the shares): the blend of its own
    bm25 and its own cosine, without context or session prior."""
    raw = [-f.hit.score for f in fused if f.hit is not None]
    top_lex = max(raw, default=0.0) or 1.0
    cos = [f.semantic.cosine for f in fused if f.semantic is not None]
    best, worst = (max(cos), min(cos)) if cos else (1.0, 0.0)
    span = best - worst
    a = BLEND_ALPHA * readable
    out = {}
    for f in fused:
        lex = max(-f.hit.score, 0.0) / top_lex if f.hit is not None else 0.0
        sem = 0.0
        if f.semantic is not None:
            sem = (f.semantic.cosine - worst) / span if span > 0 else 1.0
        out[(f.session_id, f.seq)] = a * lex + (1 - a) * sem
    return out


def exchange_step(
    store: Any, fused: list[FusedMessage], text: str, readable: float, form: str
) -> list[FusedMessage]:
    """The rule (module docstring) on a hybrid fused list, best first."""
    if not fused:
        return fused
    winners = [(f.session_id, f.seq) for f in fused[:TOP]]
    spans = [(sid, max(0, seq - SPAN), seq + SPAN + 1) for sid, seq in winners]
    said: dict[tuple[str, int], Any] = {}
    for window in store.windows(spans):
        for m in window:
            said[(m.session_id, m.seq)] = m
    own = own_matches(fused, readable)
    names = {m.name for m in said.values() if m.name and m.role in ("user", "assistant")}
    literal = _named(text, names) if len(names) > 1 else set()
    named = next(iter(literal)) if len(literal) == 1 else None
    role = asked_role(text)

    def weighed(pos: tuple[str, int]) -> float:
        m = said.get(pos)
        value = own.get(pos, 0.0)
        if m is None:
            return value
        if asks(m.content):
            value *= ASK_SHARE
        if role is not None and m.role in ("user", "assistant") and m.role != role:
            value *= OTHER_SHARE
        elif named is not None and m.name and m.name != named:
            value *= NAMED_SHARE
        return value

    order = [(f.session_id, f.seq) for f in fused]
    by_pos = {(f.session_id, f.seq): f for f in fused}
    kept = form in ROUND2
    score = {pos: f.score for pos, f in by_pos.items()}
    moved: set[tuple[str, int]] = set()
    for w in winners:
        if w in moved:
            continue
        sid, seq = w
        if form.startswith("pair"):
            m, nxt = said.get(w), said.get((sid, seq + 1))
            if m is None or nxt is None or not asks(m.content) or asks(nxt.content):
                continue
            if (nxt.name or nxt.role) == (m.name or m.role):
                continue
            choice = (sid, seq + 1)
        else:
            members = [(sid, j) for j in range(max(0, seq - SPAN), seq + SPAN + 1)]
            members = [p for p in members if p in said]
            best = max(weighed(p) for p in members)
            if weighed(w) >= best:
                continue
            choice = next(p for p in members if weighed(p) == best)
        if choice in moved:
            continue
        at_w = order.index(w)
        at_c = order.index(choice) if choice in by_pos else len(order)
        if at_c < at_w:
            continue
        if choice not in by_pos:
            by_pos[choice] = FusedMessage(sid, choice[1], 0.0, (), None, None)
            score[choice] = 0.0
            order.append(choice)
        if form in ("exchangeswap", "pairswap"):
            order[at_w], order[at_c] = choice, w
            score[choice], score[w] = score[w], score[choice]
        elif form == "pairbelow":
            order.pop(at_c)
            order.insert(at_w + 1, choice)
            score[choice] = score[w] - HAIR
        else:
            order.pop(at_c)
            order.insert(at_w, choice)
            score[choice] = score[w] + HAIR
        moved.add(choice)
        moved.add(w)
    if kept:  # round 2: every score kept but the moved turns' (module docstring)
        out = [by_pos[pos]._replace(score=score[pos]) for pos in order]
        out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
        return out
    # round 1, as it ran: scores follow the new order, each position taking the score of
    # the place it holds (not what step 4 says: every position below a moved turn lost
    # the gap to the next, which the speaker step after it reads)
    scores = sorted((f.score for f in by_pos.values()), reverse=True)
    out = []
    for i, pos in enumerate(order):
        f = by_pos[pos]
        value = scores[i] if i < len(scores) else 0.0
        out.append(f._replace(score=value + HAIR * (len(order) - i)))
    return out


@contextmanager
def variant(form: str) -> Iterator[None]:
    """The shipped ranking with the rule's ``form`` applied in hybrid."""
    orig_retrieve = retrieval_module._retrieve
    orig_fuse = retrieval_module.fuse
    seen: dict[str, float] = {}

    def fuse(*args: Any, **kw: Any) -> Any:
        seen["readable"] = kw.get("readable", 1.0)
        return orig_fuse(*args, **kw)

    def retrieve(
        store: Any, query: Any, text: str, filters: Any, *, mode: Any, state: Any, frame: Any
    ) -> Any:
        seen.clear()
        fused, used, notice, vec = orig_retrieve(
            store, query, text, filters, mode=mode, state=state, frame=frame
        )
        both = any(f.hit is not None for f in fused) and any(f.semantic for f in fused)
        if used == "hybrid" and "readable" in seen and both:
            fused = exchange_step(store, fused, text, seen["readable"], form)
        return fused, used, notice, vec

    retrieval_module._retrieve = retrieve
    retrieval_module.fuse = fuse
    try:
        yield
    finally:
        retrieval_module._retrieve = orig_retrieve
        retrieval_module.fuse = orig_fuse


STRANGER_DEV = {
    "strangers5": (
        rb.HERE / "data" / "recall_strangers5.json",
        rb.HERE / "data" / "recall_strangers5-xl.json",
    )
}


def stores(
    sets: list[str], split: str, embedder: Any, work: Path
) -> tuple[dict[str, rb.Corpus], list[rb.Question]]:
    """``bench/_misses.py``'s dev stores, and strangers5 (every question, whatever split
    its file gives it: it is a dev set)."""
    corpora, questions = _stores(sets, split, embedder, work)
    for name, (path, xl_path) in {**rb.STRANGER_SETS, **STRANGER_DEV}.items():
        if name in sets and path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            xl = json.loads(xl_path.read_text(encoding="utf-8")) if xl_path.exists() else []
            corpora.update(rb.locomo_corpora(data, work, embedder))
            questions += rb.strangers_questions(data, xl, corpora, sets, name)
    return corpora, questions


def run(
    corpora: dict[str, rb.Corpus],
    questions: list[rb.Question],
    loader: Any,
    forms: list[str],
    save: Path | None,
    step: Callable[[str], Any] | None = None,
) -> None:
    """Lexical and hybrid shipped, and hybrid with each form, question by question;
    ``step`` is the context manager that applies a form (this module's :func:`variant`
    unless another rule's, e.g. recall 29's)."""
    apply = variant if step is None else step
    table: dict[tuple[str, str, str], Scores] = {}
    runs: list[tuple[str, str, Callable[[], Any] | None]] = [
        ("lexical", "shipped", None),
        ("hybrid", "shipped", None),
        *(("hybrid", f, lambda f=f: apply(f)) for f in forms),
    ]
    for q in questions:
        corpus = corpora[q.corpus]
        for mode, name, factory in runs:
            if factory is None:
                ranked = rb.ranking(corpus, q.text, mode, loader, q.as_of)
            else:
                with factory():
                    ranked = rb.ranking(corpus, q.text, mode, loader, q.as_of)
            rb.score(q, corpus, ranked, table.setdefault((q.set, mode, name), Scores()))
    out: dict[str, Any] = {}
    for (set_, mode, name), sc in sorted(table.items()):
        r = sc.result()
        base = table.get((set_, mode, "shipped"))
        if name != "shipped" and base is not None:
            r["paired"] = paired(sc, base)
        out.setdefault(set_, {}).setdefault(mode, {})[name] = r
        print_figures(f"{set_:10s} {mode:8s} {name:13s}", r, ci=name == "shipped")
        if "paired" in r:
            print("    paired (form - shipped): " + "  ".join(
                f"{m} {v['diff']['value']:+.3f} [{v['diff']['ci95'][0]:+.3f},"
                f"{v['diff']['ci95'][1]:+.3f}] +{v['better']}/-{v['worse']}"
                for m, v in r["paired"].items() if m != "by"))  # fmt: skip
    if save is not None:
        save.write_text(json.dumps(out, indent=1), encoding="utf-8")


def cost(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, forms: list[str]
) -> None:
    """CPU time of a hybrid call (top 50), shipped against each form and a second shipped
    arm, interleaved question by question over two rounds with the order rotated."""
    runs: list[tuple[str, Callable[[], Any] | None]] = [
        ("shipped", None), ("shipped2", None), *((f, lambda f=f: variant(f)) for f in forms)
    ]  # fmt: skip
    times: dict[str, list[float]] = {n: [] for n, _ in runs}
    chosen = questions[:200]
    for round_ in range(2):
        turn = round_ % len(runs)
        for q in chosen:
            for name, factory in runs[turn:] + runs[:turn]:
                with factory() if factory is not None else _nothing():
                    t0 = time.process_time()
                    rb.ranked_results(corpora[q.corpus], q.text, "hybrid", loader, q.as_of, 50)
                    times[name].append(time.process_time() - t0)
    base = statistics.median(times["shipped"])
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:13s} n {len(ts)} CPU median {med * 1000:.1f} ms ({med / base:.3f})")


def moved(
    corpora: dict[str, rb.Corpus],
    questions: list[rb.Question],
    loader: Any,
    form: str,
    k: int,
    step: Callable[[str], Any] | None = None,
) -> None:
    """Every question whose top ``k`` holds more or less evidence with ``form`` (applied
    by ``step``, as in :func:`run`): both heads, each turn's key, speaker, evidence mark
    and text."""
    apply = variant if step is None else step
    gained = lost = 0
    for q in questions:
        if q.kind != "recall":
            continue
        corpus = corpora[q.corpus]
        base = rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of, 50)
        with apply(form):
            new = rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of, 50)
        ev = set(q.evidence)

        def found(res: list[Any], corpus: rb.Corpus = corpus, ev: set[str] = ev) -> int:
            return sum(corpus.keys.get((r.session_id, r.seq)) in ev for r in res[:k])

        diff = found(new) - found(base)
        if not diff:
            continue
        gained += diff > 0
        lost += diff < 0
        print("=" * 70)
        sign = "+" if diff > 0 else "-"
        print(f"{sign} {q.set} {q.groups[0]} | {q.text} | evidence {q.evidence}")
        for label, res in (("shipped", base), (form, new)):
            print(f"  {label}")
            for i, r in enumerate(res[: k + 2]):
                key = corpus.keys.get((r.session_id, r.seq), "?")
                mark = "*" if key in ev else " "
                sid, seq = r.session_id, r.seq
                m = corpus.store.messages(sid)[seq]
                said = (m.content or "").replace("\n", " ")[:100]
                print(f"    {i + 1:2d} {mark} {key:7s} {m.name or m.role:9s} {said}")
    print(f"gained {gained} lost {lost} at @{k}")


def why(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any) -> None:
    """For every LoCoMo dev evidence turn the shipped hybrid top 10 misses while a turn
    within :data:`SPAN` of it in its session is in that top 10 (recall 27's ``reply`` and
    ``neighbour`` causes): what the exchange rule reads of it and of that winner (own
    match with the shares, whether each asks, who said it, its length), counted."""
    from collections import Counter

    seen: dict[str, Any] = {}
    orig = exchange_step

    def spy(store: Any, fused: list[FusedMessage], text: str, readable: float, form: str) -> Any:
        seen["fused"], seen["readable"] = list(fused), readable
        return fused

    tally: Counter[str] = Counter()
    globals()["exchange_step"] = spy
    try:
        for q in questions:
            if q.set != "locomo" or q.kind != "recall":
                continue
            corpus = corpora[q.corpus]
            seen.clear()
            with variant("spy"):
                res = rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of, 50)
            if "fused" not in seen:
                continue
            key_of = {v: k for k, v in corpus.keys.items()}
            top = [(r.session_id, r.seq) for r in res[:10]]
            own = own_matches(seen["fused"], seen["readable"])
            for ev in q.evidence:
                pos = key_of.get(ev)
                if pos is None or pos in top:
                    continue
                near = [p for p in top if p[0] == pos[0] and 0 < abs(p[1] - pos[1]) <= SPAN]
                if not near:
                    continue
                w = near[0]
                msgs = corpus.store.messages(pos[0])
                e_m, w_m = msgs[pos[1]], msgs[w[1]]
                tally["turns"] += 1
                kind = "reply" if e_m.name != w_m.name else "neighbour"
                tally[kind] += 1
                eo, wo = own.get(pos, 0.0), own.get(w, 0.0)
                ea, wa = asks(e_m.content), asks(w_m.content)
                tally[f"{kind}: evidence own > winner own"] += eo > wo
                tally[f"{kind}: with the ask share"] += eo * (ASK_SHARE if ea else 1) > wo * (
                    ASK_SHARE if wa else 1
                )
                tally[f"{kind}: winner asks"] += wa
                tally[f"{kind}: evidence asks"] += ea
                tally[f"{kind}: evidence right after an asking winner"] += wa and pos[1] == w[1] + 1
                tally[f"{kind}: winner has no own match"] += wo == 0
                tally[f"{kind}: evidence has no own match"] += eo == 0
                tally[f"{kind}: evidence longer"] += len(e_m.content or "") > len(w_m.content or "")
                print(
                    f"{kind:9s} {q.groups[0]:11s} ev {ev} own {eo:.2f} asks {ea:d} | "
                    f"winner d{w[1] - pos[1]:+d} own {wo:.2f} asks {wa:d} | {q.text}"
                )
    finally:
        globals()["exchange_step"] = orig
    for k, v in sorted(tally.items()):
        print(f"{k}: {v}")


def stranger_causes(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, save: Path | None
) -> None:
    """Recall 27's cause table (``bench/_recall27.py causes``) on a stranger's dev set, and
    for every evidence turn lexical finds at @10 and hybrid does not, the first cause that
    fits it in hybrid's top 10 (where hybrid loses to words)."""
    import dataclasses
    from collections import Counter

    from _recall27 import _keys, causes, first_cause, fitting

    asked = [dataclasses.replace(q, set="locomo") for q in questions if q.set == "strangers5"]
    got = causes(corpora, asked, loader)
    behind: Counter[str] = Counter()
    for q in asked:
        corpus = corpora[q.corpus]
        key_of = {v: k for k, v in corpus.keys.items()}
        tops = {
            mode: [(r.session_id, r.seq) for r in rb.ranked_results(
                corpus, q.text, mode, loader, q.as_of, 10)]
            for mode in ("lexical", "hybrid")
        }  # fmt: skip
        for ev in q.evidence:
            pos = key_of.get(ev)
            if pos is None or pos not in tops["lexical"] or pos in tops["hybrid"]:
                continue
            msgs = corpus.store.messages(pos[0])
            speakers = {p: msgs[p[1]].name for p in tops["hybrid"] if p[0] == pos[0]}
            shares = bool(_keys(q.text) & _keys(msgs[pos[1]].content or ""))
            fits = fitting(pos, msgs[pos[1]].name, tops["hybrid"], speakers, set(), False, shares)
            behind[f"{q.groups[0]}: {first_cause(fits)}"] += 1
            behind[f"all: {first_cause(fits)}"] += 1
            print(f"lexical only: {q.groups[0]} | {q.text} | {ev} | {first_cause(fits)}")
    for k, v in sorted(behind.items()):
        print(f"{k}: {v}")
    if save is not None:
        got["lexical_only_at_10"] = dict(behind)
        save.write_text(json.dumps(got, indent=1), encoding="utf-8")


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("run", "cost", "moved", "why", "causes"))
    parser.add_argument("--sets", default="locomo")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    embedder = CachedEmbedder()
    sets = args.sets.split(",")
    forms = [f for f in args.forms.split(",") if f]
    with tempfile.TemporaryDirectory(prefix="mnemic-recall28-") as tmp:
        t0 = time.perf_counter()
        corpora, questions = stores(sets, args.split, embedder, Path(tmp))
        print(f"{len(questions)} questions ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        if args.what == "run":
            run(corpora, questions, lambda: embedder, forms, args.save)
        elif args.what == "causes":
            stranger_causes(corpora, questions, lambda: embedder, args.save)
        elif args.what == "why":
            why(corpora, questions, lambda: embedder)
        elif args.what == "moved":
            moved(corpora, questions, lambda: embedder, forms[0], args.k)
        else:
            cost(corpora, questions, lambda: embedder, forms)
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
