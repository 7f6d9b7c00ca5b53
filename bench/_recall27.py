"""Recall 27: where LoCoMo dev misses at @10, by cause, and the rules written for the two
largest causes (issue 33; docs/recall.md, recall 27).

    .venv/bin/python bench/_recall27.py causes            # the table, dev only
    .venv/bin/python bench/_recall27.py next              # the reply and neighbour turns
    .venv/bin/python bench/_recall27.py moved --variant nears   # what a variant moves

``causes``: every evidence turn of a LoCoMo **dev** question that the shipped hybrid
ranking leaves out of its top 10, put in the first cause that fits, in this order (the
brief's list, LoCoMo's two speakers standing for the user and the assistant):

1. ``reply``: a turn of the *other* speaker at most two turns from it ranks in the top 10
   (the reply outranks the fact);
2. ``neighbour``: a turn of the same speaker at most two turns from it does;
3. ``second hop``: the question's evidence lies in two sessions or more, an evidence turn
   of another session is in the top 10 and no turn of this one's session is (the first
   hop found, the second not);
4. ``date``: the question names a date or a time (a month, a year, a weekday, "last
   week": what :func:`~mnemic.sessions.search.timeframe.read_timeframe` reads, or a
   month's name);
5. ``words differ``: the turn holds none of the question's content words (the speakers'
   names left out): a paraphrase;
6. ``outranked``: it shares words with the question and other matches rank above it.

Each cause is counted in turns, in questions (a question with such a turn) and in the
points of turn R@10 it costs (each missed turn weighs one over its question's evidence
turns, as the metric does), per category; and every cause is counted again without the
order (a turn can fit several), so the overlaps show.

The rules written for the two largest causes (before they were run) are
``bench/_near.py``'s docstring; its variants run through ``bench/_misses.py variants``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall as rb
from _misses import DEPTH, MONTHS, _ranked, _stores
from _vcache import CachedEmbedder
from mnemic.sessions.index.stems import content_word_keys
from mnemic.sessions.search.timeframe import read_timeframe

ORDER = ("reply", "neighbour", "second hop", "date", "words differ", "outranked")
DATED = re.compile(
    r"\b(?:19|20)\d\d\b|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"weekend|yesterday|ago|last\s+(?:week|month|year))\b",
    re.I,
)


def _keys(text: str) -> set[str]:
    return {k for ks in content_word_keys([text]) for k in ks}


def fitting(
    turn: tuple[str, int],
    speaker: str | None,
    top: list[tuple[str, int]],
    speakers: dict[tuple[str, int], str | None],
    found_sessions: set[str],
    dated: bool,
    shares_words: bool,
) -> dict[str, bool]:
    """Which of :data:`ORDER`'s causes a missed evidence ``turn`` (its position and
    ``speaker``) fits, given the top ``k`` positions, the speakers of those in its
    session, the sessions of the question's evidence found, whether the question names
    a date and whether the turn shares a content word with it."""
    sid, seq = turn
    near = [p for p in top if p[0] == sid and 0 < abs(p[1] - seq) <= 2]
    return {
        "reply": any(speakers.get(p) != speaker for p in near),
        "neighbour": any(speakers.get(p) == speaker for p in near),
        "second hop": bool(found_sessions - {sid}) and all(p[0] != sid for p in top),
        "date": dated,
        "words differ": not shares_words,
        "outranked": True,
    }


def first_cause(fits: dict[str, bool]) -> str:
    """The first of :data:`ORDER` that ``fits``."""
    return next(c for c in ORDER if fits[c])


def causes(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, k: int = 10
) -> dict[str, Any]:
    """The table of the module docstring (printed, and returned as a dict)."""
    first: dict[str, Counter[str]] = defaultdict(Counter)
    points: dict[str, Counter[str]] = defaultdict(Counter)
    asked: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    every: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    found_sum: Counter[str] = Counter()
    names: dict[str, set[str]] = {}
    sem_depth: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    bands: dict[str, Counter[str]] = defaultdict(Counter)
    for q in questions:
        if q.set != "locomo" or q.kind != "recall" or not q.evidence:
            continue
        corpus = corpora[q.corpus]
        key_of = {v: kk for kk, v in corpus.keys.items()}
        evidence = [e for e in q.evidence if e in key_of]
        if not evidence:
            continue
        cat = q.groups[0]
        totals[cat] += 1
        totals["all"] += 1
        res = _ranked(corpus, q.text, "hybrid", loader, q.as_of)
        top = [(r.session_id, r.seq) for r in res[:k]]
        rank = {
            corpus.keys.get((r.session_id, r.seq), "?"): i + 1
            for i, r in reversed(list(enumerate(res)))
        }
        if q.corpus not in names:
            said = corpus.store.list_sessions(limit=1_000_000)
            who = {m.name or "" for info in said for m in corpus.store.messages(info.id)}
            names[q.corpus] = _keys(" ".join(who))
        qkeys = _keys(q.text) - names[q.corpus]
        dated = bool(read_timeframe(q.text).words or MONTHS.search(q.text) or DATED.search(q.text))
        found = [e for e in evidence if rank.get(e, 999) <= k]
        found_sum[cat] += len(found) / len(evidence)
        found_sum["all"] += len(found) / len(evidence)
        found_sessions = {key_of[e][0] for e in found}
        sem = None
        for ev in evidence:
            if rank.get(ev, 999) <= k:
                continue
            sid, seq = key_of[ev]
            msgs = corpus.store.messages(sid)
            me = msgs[seq]
            speakers = {p: msgs[p[1]].name for p in top if p[0] == sid}
            fits = fitting(
                (sid, seq),
                me.name,
                top,
                speakers,
                found_sessions,
                dated,
                bool(qkeys & _keys(me.content or "")),
            )
            why = first_cause(fits)
            r = rank.get(ev, 999)
            band = "11-50" if r <= 50 else "51-200" if r <= DEPTH else "beyond 200"
            bands[why][band] += 1
            bands["all"][band] += 1
            for c in (cat, "all"):
                first[c][why] += 1
                points[c][why] += 1 / len(evidence)
                asked[c][why].add(q.text)
                for c2, ok in fits.items():
                    every[c][c2] += ok
            if why == "words differ":
                if sem is None:
                    sem = {
                        corpus.keys.get((r.session_id, r.seq), "?"): i + 1
                        for i, r in enumerate(_ranked(corpus, q.text, "semantic", loader, None))
                    }
                d = sem.get(ev, 999)
                band = "1-50" if d <= 50 else "51-200" if d <= DEPTH else "beyond 200"
                sem_depth[cat][band] += 1
                sem_depth["all"][band] += 1
            if len(examples[why]) < 6 and hash(q.text) % 3 == 0:
                examples[why].append(
                    f"{cat}: {q.text} | {ev} r{rank.get(ev, 999)} | {(me.content or '')[:100]}"
                )
    out: dict[str, Any] = {"k": k, "categories": {}}
    print(f"LoCoMo dev, hybrid as shipped: missed evidence turns at @{k}, first cause that fits")
    print(f"{'category (questions)':24s} R@{k}   " + "  ".join(f"{c:>20s}" for c in ORDER))
    for cat in sorted(totals, key=lambda c: (c == "all", c)):
        n = totals[cat]
        cells = "  ".join(
            f"{first[cat][c]:4d} t {len(asked[cat][c]):3d} q {100 * points[cat][c] / n:5.1f} pt"
            for c in ORDER
        )
        print(f"{cat + f' ({n})':24s} {found_sum[cat] / n:.3f}  {cells}")
        out["categories"][cat] = {
            "questions": n,
            "recall": found_sum[cat] / n,
            "turns": dict(first[cat]),
            "questions_with": {c: len(v) for c, v in asked[cat].items()},
            "points": {c: 100 * v / n for c, v in points[cat].items()},
            "fits_any_order": dict(every[cat]),
            "words_differ_semantic_rank": dict(sem_depth[cat]),
        }
    print("every cause a missed turn fits (not first-fit):")
    for cat in sorted(every, key=lambda c: (c == "all", c)):
        print(f"  {cat:16s} " + "  ".join(f"{c} {every[cat][c]}" for c in ORDER))
    print("the missed turn's hybrid rank, by cause (turns):")
    for why in (*ORDER, "all"):
        print(
            f"  {why:16s} "
            + "  ".join(f"{b} {bands[why][b]}" for b in ("11-50", "51-200", "beyond 200"))
        )
    out["hybrid_rank"] = {w: dict(v) for w, v in bands.items()}
    print("words differ: the turn's rank in the semantic list:")
    for cat in sorted(sem_depth, key=lambda c: (c == "all", c)):
        print(f"  {cat:16s} " + "  ".join(f"{b} {v}" for b, v in sorted(sem_depth[cat].items())))
    for why, ex in examples.items():
        for e in ex:
            print(f"    [{why}] {e}")
    return out


def moved(
    corpora: dict[str, rb.Corpus],
    questions: list[rb.Question],
    loader: Any,
    variant: Any,
    k: int = 10,
) -> Counter[str]:
    """Every dev question whose evidence in the hybrid top ``k`` changes with ``variant``:
    the evidence's ranks before and after, and the words rule A searched."""
    from _near import SEEN

    tally: Counter[str] = Counter()
    for q in questions:
        if q.set != "locomo" or q.kind != "recall":
            continue
        corpus = corpora[q.corpus]
        before = _ranked(corpus, q.text, "hybrid", loader, q.as_of)
        with variant():
            after = _ranked(corpus, q.text, "hybrid", loader, q.as_of)
        kb = [corpus.keys.get((r.session_id, r.seq), "?") for r in before]
        ka = [corpus.keys.get((r.session_id, r.seq), "?") for r in after]
        ev = set(q.evidence)
        nb, na = len(ev & set(kb[:k])), len(ev & set(ka[:k]))
        if nb == na:
            continue
        sign = "+" if na > nb else "-"
        tally[f"{q.groups[0]} {sign}"] += 1
        ranks = ", ".join(
            f"{e} {kb.index(e) + 1 if e in kb else '>'} -> {ka.index(e) + 1 if e in ka else '>'}"
            for e in q.evidence
        )
        print(f"{sign} {q.groups[0]}: {q.text} | {ranks} | words {SEEN.get(q.text)}")
    print(dict(tally))
    return tally


def next_to(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, k: int = 10
) -> None:
    """Every dev evidence turn outside the hybrid top ``k`` with a turn at most two away
    inside it (the reply and neighbour causes): both turns, their ranks, scores, what
    matched and who said them."""
    n = 0
    for q in questions:
        if q.set != "locomo" or q.kind != "recall":
            continue
        corpus = corpora[q.corpus]
        key_of = {v: kk for kk, v in corpus.keys.items()}
        res = _ranked(corpus, q.text, "hybrid", loader, q.as_of)
        pos = [(r.session_id, r.seq) for r in res]
        for ev in q.evidence:
            if ev not in key_of:
                continue
            sid, seq = key_of[ev]
            r = pos.index((sid, seq)) + 1 if (sid, seq) in pos else 999
            near = [
                (i + 1, p)
                for i, p in enumerate(pos[:k])
                if p[0] == sid and 0 < abs(p[1] - seq) <= 2
            ]
            if r <= k or not near:
                continue
            msgs = corpus.store.messages(sid)
            e = res[r - 1] if r < 999 else None
            print(f"{q.groups[0]} | {q.text}")
            print(
                f"   evidence {ev} r{r} {e.matched if e else ()} {e.score if e else 0:.3f} "
                f"[{msgs[seq].name}] {(msgs[seq].content or '')[:110]!r}"
            )
            for i, p in near:
                f = res[i - 1]
                print(
                    f"   top r{i} d{p[1] - seq:+d} {f.matched} {f.score:.3f} "
                    f"evidence={corpus.keys.get(p) in q.evidence} [{msgs[p[1]].name}] "
                    f"{(msgs[p[1]].content or '')[:110]!r}"
                )
            n += 1
    print(n, "turns")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("causes", "moved", "next"))
    parser.add_argument("--variant", default="near")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--save", type=Path, default=None)
    args = parser.parse_args()
    embedder = CachedEmbedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-recall27-") as tmp:
        corpora, questions = _stores(["locomo"], "dev", embedder, Path(tmp))
        if args.what == "next":
            next_to(corpora, questions, lambda: embedder, args.k)
            return
        if args.what == "moved":
            from _misses import VARIANTS

            moved(corpora, questions, lambda: embedder, VARIANTS[args.variant], args.k)
            return
        got = causes(corpora, questions, lambda: embedder, args.k)
        if args.save is not None:
            args.save.write_text(json.dumps(got, indent=1), encoding="utf-8")
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
