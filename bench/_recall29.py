"""Recall 29: the fact a winning reply answers (issue 33; docs/recall.md).

    .venv/bin/python bench/_recall29.py run --sets strangers5
    .venv/bin/python bench/_recall29.py run --sets locomo
    .venv/bin/python bench/_recall29.py run --sets longchat,updates
    .venv/bin/python bench/_recall29.py moved --sets strangers5 --forms statement

Recall 28 found, on strangers5 (the strangers' dev set: one user, an assistant that
writes long replies echoing the user's words), that the largest cause of hybrid's misses
at @10 is the reply (7.9 of 26.5 points), and that 13 of the 20 evidence turns lexical
finds at @10 and hybrid does not are the assistant's reply, by meaning, to the user's
statement just before it: the reply restates the fact in the question's sense and wins,
the user's statement that holds the fact ranks below it. This is the other direction of
LoCoMo's question-then-answer pair (recall 28's ``pair``). Written **before any run of
it** (the rule, its forms and what ships are fixed here and committed first).

**The rule, ``statement``** (hybrid only; a step on the fused list, where recall 28's
step sat: after :func:`~mnemic.sessions.search.hybrid.fuse`, before the repeats, speaker
and freshness steps, which read its output as the fused list):

1. The winners are the first :data:`TOP` (10) positions of the fused list, best first.
2. A winner qualifies when it is an ``assistant`` turn, the turn right before it in its
   session (``seq - 1``) is a ``user`` turn that does not ask (its text does not end with
   a question mark: a statement), and that statement has its own lexical match to the
   question (it is a lexical hit of the fused list: a word of the question in the turn
   itself, not through its neighbours). Roles are the store's roles; in LoCoMo's import
   the first speaker is ``user`` and the second ``assistant``, so there the rule reads one
   direction of each conversation only.
3. When the statement ranks below the winner, it is placed directly above the winner (it
   takes the winner's score plus a hair); every other position keeps its score (recall
   28's round 2 implementation). The winners are handled best first; a turn is moved at
   most once and a winner that was moved (or is a moved statement) chooses no further.
   No weight: nothing is tuned to a set.

**Forms** (fixed with the rule, both in the same first run of each set):

* ``statement``: the rule as written (the statement inserted above the reply);
* ``statementswap``: the statement and the reply swap places and scores (the top 10
  keeps its count: a list question's tenth place stays).

**What ships** (written with the rule; one run per dev set, no second round):

1. *strangers5 dev* (199 questions): hybrid turn@10 gains over the shipped ranking with a
   paired bootstrap 95 % interval above 0, and no other figure there (turn@5/25/50,
   session@2/5/10) has a paired interval entirely below 0.
2. *LoCoMo dev* (562): turn@10 does not fall beyond its interval (its paired interval is
   not entirely below 0), nor does any other figure.
3. *The long chat and the update fixture* (dev): hybrid stays at or above lexical at
   every k (turn@5/10/25/50) and no figure has a paired interval entirely below 0.
4. Of the forms that pass, the larger strangers5 turn@10 gain ships (ties: ``statement``).
   strangers5-xl (the 90 asked in other languages) is run as information, not a gate.

**Result** (one run per set; ``bench/results/recall29-*``; docs/recall.md): **nothing
ships**. strangers5 (199): ``statement`` turn@10 0.735 -> 0.772, paired +0.037
[+0.009, +0.067] (+17/-3), turn@5 +0.067 [+0.037, +0.096], but session@2 -0.021
[-0.044, -0.003] (gate 1); ``statementswap`` turn@10 +0.041 [+0.012, +0.071], session@2
-0.018 [-0.038, -0.000]. LoCoMo dev (562): turn@10 -0.001 [-0.007, +0.005] and -0.004
[-0.013, +0.005], but turn@5 -0.012 [-0.025, -0.001] and -0.021 [-0.037, -0.006]
(gate 2). The long chat and the update fixture pass gate 3 (no long-chat question
moves; past_first +1/-0). The moved statement takes the reply's score before the speaker step, which
then discounts the reply and not the statement; LoCoMo's losses are questions that name
the second speaker (imported as ``assistant``).

Then the form moves into ``src/`` (on by default, with an off switch for the ablation),
with a test that failed before, and the LoCoMo test split is run once. If no form passes,
nothing ships and the cases are reported.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mnemic.sessions.search.retrieval as retrieval_module
from _recall28 import asks, moved, run, stores
from mnemic.sessions.search.hybrid import FusedMessage

TOP = 10
"""Winners whose previous turn is read."""
FORMS = ("statement", "statementswap")
HAIR = 1e-9


def statement_step(store: Any, fused: list[FusedMessage], form: str) -> list[FusedMessage]:
    """The rule (module docstring) on a hybrid fused list, best first."""
    if not fused:
        return fused
    winners = [(f.session_id, f.seq) for f in fused[:TOP]]
    spans = [(sid, max(0, seq - 1), seq + 1) for sid, seq in winners]
    said: dict[tuple[str, int], Any] = {}
    for window in store.windows(spans):
        for m in window:
            said[(m.session_id, m.seq)] = m
    order = [(f.session_id, f.seq) for f in fused]
    by_pos = {(f.session_id, f.seq): f for f in fused}
    score = {pos: f.score for pos, f in by_pos.items()}
    moved: set[tuple[str, int]] = set()
    for w in winners:
        if w in moved:
            continue
        sid, seq = w
        m, prev = said.get(w), said.get((sid, seq - 1))
        if m is None or prev is None or m.role != "assistant" or prev.role != "user":
            continue
        choice = (sid, seq - 1)
        if asks(prev.content) or choice in moved:
            continue
        f = by_pos.get(choice)
        if f is None or f.hit is None:
            continue
        at_w, at_c = order.index(w), order.index(choice)
        if at_c < at_w:
            continue
        if form == "statementswap":
            order[at_w], order[at_c] = choice, w
            score[choice], score[w] = score[w], score[choice]
        else:
            order.pop(at_c)
            order.insert(at_w, choice)
            score[choice] = score[w] + HAIR
        moved.add(choice)
        moved.add(w)
    out = [by_pos[pos]._replace(score=score[pos]) for pos in order]
    out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
    return out


@contextmanager
def variant(form: str) -> Iterator[None]:
    """The shipped ranking with the rule's ``form`` applied in hybrid."""
    orig_retrieve = retrieval_module._retrieve

    def retrieve(
        store: Any, query: Any, text: str, filters: Any, *, mode: Any, state: Any, frame: Any
    ) -> Any:
        fused, used, notice, vec = orig_retrieve(
            store, query, text, filters, mode=mode, state=state, frame=frame
        )
        if used == "hybrid":
            fused = statement_step(store, fused, form)
        return fused, used, notice, vec

    retrieval_module._retrieve = retrieve
    try:
        yield
    finally:
        retrieval_module._retrieve = orig_retrieve


def main() -> None:
    from _vcache import CachedEmbedder

    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("run", "moved"))
    parser.add_argument("--sets", default="strangers5")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    embedder = CachedEmbedder()
    sets = args.sets.split(",")
    forms = [f for f in args.forms.split(",") if f]
    with tempfile.TemporaryDirectory(prefix="mnemic-recall29-") as tmp:
        t0 = time.perf_counter()
        corpora, questions = stores(sets, args.split, embedder, Path(tmp))
        print(f"{len(questions)} questions ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        if args.what == "run":
            run(corpora, questions, lambda: embedder, forms, args.save, step=variant)
        else:
            moved(corpora, questions, lambda: embedder, forms[0], args.k, step=variant)
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
