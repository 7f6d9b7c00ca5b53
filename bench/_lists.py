"""Where list questions miss (``bench/_misses.py lists``; ``docs/recall.md``, *Lists across
sessions (recall 20)*). Dev only.

For every dev question (LoCoMo, its Chinese and other-language versions): whether it
reads as asking for several things (``bench/_spread.py``),
counted per set and category. For the multi-hop and open-domain ones: how many evidence
turns and sessions, how many are in the hybrid top 10, where the missed ones rank (11-50,
51-200, beyond the pool of 200), and what holds the top 10 instead: evidence, a neighbour
of evidence (same session, at most two turns away), another turn of an evidence session,
a turn of a session without evidence; and whether a place repeats a place above it in
the same session (a near-duplicate: most of its word keys already shown).

``compare`` (``bench/_misses.py compare --variants NAME``): every list question of the
chosen sets whose hybrid top 10 holds more or less evidence with a variant of
``bench/_misses.py``: its evidence's ranks before and after, and both heads.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any

import recall as rb
from _spread import asks_several
from mnemic.sessions.index.stems import text_keys

DEPTH = 200


def _keys(text: str) -> frozenset[str]:
    return text_keys(text, limit=len(text))


def lists(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any) -> None:
    cues: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for q in questions:
        if q.kind != "recall":
            continue
        c = cues[(q.set, q.groups[0])]
        c["n"] += 1
        c["list cue"] += asks_several(q.text)
    print("--- list cue per set and category (dev)")
    for (set_, cat), c in sorted(cues.items()):
        print(f"{set_:8s} {cat:12s} n {c['n']:4d}  list cue {c['list cue']:4d}")
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    ratios: dict[str, list[float]] = defaultdict(list)
    shown = 0
    for q in questions:
        asked = q.groups[0] in ("multi-hop", "open-domain")
        if q.set != "locomo" or q.kind != "recall" or not asked:
            continue
        corpus = corpora[q.corpus]
        key_of = {v: k for k, v in corpus.keys.items()}
        res = rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of, depth=DEPTH)
        keys = [corpus.keys.get((r.session_id, r.seq), "?") for r in res]
        rank = {k: i + 1 for i, k in reversed(list(enumerate(keys)))}
        ev = [e for e in q.evidence if e in key_of]
        ev_pos = {key_of[e] for e in ev}
        ev_sessions = {p[0] for p in ev_pos}
        tag = f"{q.groups[0]}/{'list' if asks_several(q.text) else 'other'}"
        st = stats[tag]
        st["questions"] += 1
        st["evidence turns"] += len(ev)
        st["evidence sessions"] += len(ev_sessions)
        st["several sessions"] += len(ev_sessions) > 1
        for e in ev:
            r = rank.get(e, 10_000)
            band = ("top 10" if r <= 10 else "11-50" if r <= 50
                    else "51-200" if r <= DEPTH else "beyond 200")  # fmt: skip
            st[f"evidence {band}"] += 1
            if 10 < r <= 50 and res[9].score > 0:
                ratios[tag].append(res[r - 1].score / res[9].score)
        found_sessions = {key_of[e][0] for e in ev if rank.get(e, 10_000) <= 10}
        st["evidence sessions in top 10"] += len(found_sessions)
        seen: list[tuple[str, frozenset[str]]] = []
        texts = {}
        for r in res[:10]:
            pos = (r.session_id, r.seq)
            if pos in ev_pos:
                kind = "evidence"
            elif any(p[0] == r.session_id and abs(p[1] - r.seq) <= 2 for p in ev_pos):
                kind = "evidence neighbour"
            elif r.session_id in ev_sessions:
                kind = "evidence session"
            else:
                kind = "session without evidence"
            st[f"top10: {kind}"] += 1
            st[f"top10: {'direct' if r.matched else 'context'}"] += 1
            text = corpus.store.messages(r.session_id)[r.seq].content or ""
            texts[pos] = text
            k = _keys(text)
            dup = any(s == r.session_id and k and len(k & o) / len(k) >= 0.6 for s, o in seen)
            st["top10: near-duplicate of a place above"] += dup
            seen.append((r.session_id, k))
        st["top10 sessions"] += len({r.session_id for r in res[:10]})
        crowd = Counter(r.session_id for r in res[:10]).most_common(1)
        st["top10 from its best session"] += crowd[0][1] if crowd else 0
        missed = [e for e in ev if rank.get(e, 10_000) > 10]
        if missed and shown < 40 and asks_several(q.text):
            shown += 1
            print(f"== {tag}: {q.text}")
            for e in ev:
                sid, seq = key_of[e]
                txt = (corpus.store.messages(sid)[seq].content or "")[:90]
                print(f"   ev {e:8s} rank {rank.get(e, '>200')!s:5s} {txt!r}")
            for i, r in enumerate(res[:10]):
                mark = "*" if (r.session_id, r.seq) in ev_pos else " "
                key = corpus.keys.get((r.session_id, r.seq), "?")
                how = "".join(m[0] for m in r.matched) or "-"
                said = texts[(r.session_id, r.seq)][:80]
                print(f"   {i + 1:2d}{mark} {key:8s} {r.score:.3f} {how:2s} {said!r}")
    print("--- multi-hop and open-domain, hybrid (dev)")
    for tag, st in sorted(stats.items()):
        print(tag, dict(st))
        if ratios[tag]:
            close = sum(x >= 0.8 for x in ratios[tag])
            print(f"   missed at 11-50: score / tenth's, n {len(ratios[tag])}, median "
                  f"{statistics.median(ratios[tag]):.3f}, >= 0.8: {close}")  # fmt: skip


def compare(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, variant: Any
) -> None:
    """Every list question whose evidence in the hybrid top 10 changes with ``variant``:
    the evidence's ranks before and after, and the head after (``*`` evidence)."""
    moved = Counter()
    for q in questions:
        if q.kind != "recall" or not asks_several(q.text):
            continue
        corpus = corpora[q.corpus]
        before = rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of, depth=50)
        with variant():
            after = rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of, depth=50)
        kb = [corpus.keys.get((r.session_id, r.seq), "?") for r in before]
        ka = [corpus.keys.get((r.session_id, r.seq), "?") for r in after]
        ev = set(q.evidence)
        nb, na = len(ev & set(kb[:10])), len(ev & set(ka[:10]))
        if nb == na:
            continue
        moved["better" if na > nb else "worse"] += 1
        print(f"== {q.groups[0]} {'+' if na > nb else '-'}: {q.text}")
        for e in q.evidence:
            rbf = kb.index(e) + 1 if e in kb else ">50"
            raf = ka.index(e) + 1 if e in ka else ">50"
            print(f"   ev {e:7s} {rbf!s:>4s} -> {raf!s:>4s}")
        for i in range(10):
            b, a = before[i], after[i]
            mb = "*" if kb[i] in ev else " "
            ma = "*" if ka[i] in ev else " "
            print(f"   {i + 1:2d} {mb}{kb[i]:7s} {b.score:.3f} | {ma}{ka[i]:7s} {a.score:.3f} "
                  f"{''.join(m[0] for m in a.matched) or '-':2s} {a.snippet[:60]!r}")  # fmt: skip
    print(dict(moved))
