"""What the first hit of a multi-hop question shares with its second evidence turn
(``bench/_misses.py seeds``; ``docs/recall.md``, *The second session found by what the
first names (recall 15)*). Dev only.

For every LoCoMo dev question whose evidence lies in two sessions or more: the hybrid
top hit's words that the question does not hold (no function word, no speaker's name),
each with its document frequency in the conversation (messages holding its stem). Of
those, the ones the best-ranked evidence turn of *another* session than the top hit's
also holds ("carried"), by kind: ``name`` (written capitalised inside a sentence),
``number`` (digits), ``word`` (the rest), and rare (held by at most :data:`RARE` of the
conversation's messages) or common. Against it, the same count for the turns of
the other sessions that are not evidence (the base rate a seed would also pull in), and
the rank of the second turn among every message of the other sessions when they are
scored by the summed idf of the rare words they share with the top hit (what a second
retrieval seeded by them could reach), against its rank in the shipped hybrid list.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter, defaultdict
from typing import Any

import recall as rb
from mnemic.sessions.index.stems import STOP_WORDS, words

RARE = 0.01
"""The share of a conversation's messages under which a stem counts as rare."""

_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+)")


def _stem() -> Any:
    import snowballstemmer

    s = snowballstemmer.stemmer("english")
    return lambda w: s.stemWord(w.casefold())


def seeds(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any) -> None:
    for seed in ("top hit", "top hit and its neighbours", "first evidence turn (oracle)"):
        print(f"=== seeded by the {seed}")
        _seeds(corpora, questions, loader, seed)


def _seeds(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any, seed: str
) -> None:
    stem = _stem()
    cache: dict[str, Any] = {}
    tally: Counter[str] = Counter()
    second_ranks: list[tuple[int, int]] = []
    base_rare: list[float] = []
    examples: list[str] = []
    for q in questions:
        if q.set != "locomo" or q.kind != "recall":
            continue
        corpus = corpora[q.corpus]
        if q.corpus not in cache:
            msgs: dict[tuple[str, int], str] = {}
            names: set[str] = set()
            for info in corpus.store.list_sessions(limit=1_000_000):
                for m in corpus.store.messages(info.id):
                    msgs[(info.id, m.seq)] = m.content or ""
                    names.add(stem(m.name or ""))
            keys = {p: {stem(w) for w in words(t) if w.casefold() not in STOP_WORDS}
                    for p, t in msgs.items()}  # fmt: skip
            df: Counter[str] = Counter(k for ks in keys.values() for k in ks)
            cache[q.corpus] = (msgs, keys, df, names)
        msgs, keys, df, names = cache[q.corpus]
        key_of = {v: k for k, v in corpus.keys.items()}
        ev = [key_of[e] for e in q.evidence if e in key_of]
        if len({s for s, _ in ev}) < 2:
            continue
        res = rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of, depth=200)
        if not res:
            continue
        cat = q.groups[0]
        tally[f"{cat} questions"] += 1
        top = (res[0].session_id, res[0].seq)
        place = {(r.session_id, r.seq): i + 1 for i, r in reversed(list(enumerate(res)))}
        if seed.startswith("first evidence"):
            top = min(ev, key=lambda p: place.get(p, 999))
        others = [p for p in ev if p[0] != top[0]]
        if not others:
            continue
        tally[f"{cat} top hit is evidence"] += top in ev
        target = min(others, key=lambda p: place.get(p, 999))
        qkeys = {stem(w) for w in words(q.text)}
        around = [top]
        if "neighbours" in seed:
            around += [(top[0], top[1] + d) for d in (-1, 1) if (top[0], top[1] + d) in msgs]
        text = " ".join(msgs[p] for p in around)
        named = {stem(w) for w in _NAME.findall(text)}
        n = len(msgs)
        own = set().union(*(keys[p] for p in around)) - qkeys - names - {""}
        rare = {k for k in own if df[k] <= max(2, RARE * n)}
        carried = own & keys[target]
        tally[f"{cat} with a second session"] += 1
        tally[f"{cat} top hit: distinctive words"] += len(own)
        tally[f"{cat} top hit: rare words"] += len(rare)
        for k in carried:
            kind = "name" if k in named else "number" if k.isdigit() else "word"
            tally[f"{cat} carried {kind} {'rare' if k in rare else 'common'}"] += 1
        tally[f"{cat} second turn holds a rare word of the top hit"] += bool(carried & rare)
        tally[f"{cat} second turn holds any word of the top hit"] += bool(carried)
        outside = [p for p in msgs if p[0] != top[0] and p not in set(ev)]
        base_rare.append(sum(bool(keys[p] & rare) for p in outside) / max(1, len(outside)))
        idf = {k: math.log(n / df[k]) for k in rare}
        scored = sorted(
            ((sum(idf[k] for k in keys[p] & rare), p) for p in msgs if p[0] != top[0]),
            key=lambda sp: -sp[0],
        )
        seed_rank = next((i + 1 for i, (s, p) in enumerate(scored) if p == target and s > 0), 999)
        second_ranks.append((place.get(target, 999), seed_rank))
        if carried & rare and len(examples) < 12:
            examples.append(
                f"[{cat}] {q.text} | top {text[:70]!r} | second r{place.get(target, 999)} "
                f"seed r{seed_rank} {msgs[target][:70]!r} | carried {sorted(carried & rare)}"
            )
    for k, v in sorted(tally.items()):
        print(f"{k}: {v}")
    if base_rare:
        mid, mean = statistics.median(base_rare), statistics.mean(base_rare)
        print(
            "share of other sessions' non-evidence turns holding a rare word of the top hit: "
            f"median {mid:.3f}, mean {mean:.3f}"
        )
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for hyb, seed in second_ranks:
        band = ("top 10" if hyb <= 10 else "11-50" if hyb <= 50 else "51-200" if hyb <= 200
                else "beyond 200")  # fmt: skip
        by[band]["n"] += 1
        by[band]["seed top 10"] += seed <= 10
        by[band]["seed top 50"] += seed <= 50
    for band, c in by.items():
        print(f"second turn hybrid {band}: {dict(c)}")
    for e in examples:
        print("   ", e)


# --- the seeded second retrieval (variants ``seed5`` / ``seed10`` of _misses.py) ---------

SEED_WORDS = 8
"""Distinctive words of the seed searched, at most (the rarest first)."""
SEED_HITS = 50
"""Hits of the seeded search."""
_STORES: dict[int, tuple[int, set[str]]] = {}
TALLY: Counter[str] = Counter()
"""Questions a seeded search ran for, and the seeded messages that reached the top 10."""


def _store_facts(store: Any) -> tuple[int, set[str]]:
    """(messages, the speakers' names casefolded) of ``store``, read once."""
    if id(store) not in _STORES:
        n, names = 0, set()
        for info in store.list_sessions(limit=1_000_000):
            for m in store.messages(info.id):
                n += 1
                names.add((m.name or "").casefold())
        _STORES[id(store)] = (n, names - {""})
    return _STORES[id(store)]


def seeded(step: Any, place: int) -> Any:
    """``step`` (``retrieval.freshen``) followed by the seeded second retrieval of the
    rule in ``docs/recall.md`` (recall 15), seeded messages scored against the fused
    score of the ``place``-th result."""
    import snowballstemmer

    from mnemic.sessions.index.query import parse_query
    from mnemic.sessions.search.hybrid import FusedMessage
    from mnemic.sessions.store import SearchFilters

    porter = snowballstemmer.stemmer("porter")

    def wrapped(store: Any, fused: Any, query: Any, frame: Any, read: Any = None) -> Any:
        out = list(step(store, fused, query, frame, read))
        if len(out) < place:
            return out
        seed = next((f for f in out if f.direct and f.message_id is not None), None)
        if seed is None:
            return out
        m = (read or {}).get(seed.message_id) or store.messages_by_id([seed.message_id]).get(
            seed.message_id
        )
        if m is None:
            return out
        n, names = _store_facts(store)
        asked = {porter.stemWord(w.casefold()) for w in words(query.text)}
        cands: dict[str, str] = {}
        for w in words(m.content or ""):
            low = w.casefold()
            if low in STOP_WORDS or low in names or not w.isalpha() or len(w) < 3:
                continue
            key = porter.stemWord(low)
            if key not in asked:
                cands.setdefault(key, w)
        if not cands:
            return out
        vocab = store._vocabulary(list(cands))
        cap = max(2, RARE * n)
        df = {k: next((c for t, c in vocab.get(k, []) if t == k), 0) for k in cands}
        rare = sorted((k for k in cands if 0 < df[k] <= cap), key=lambda k: (df[k], k))
        rare = rare[:SEED_WORDS]
        if not rare:
            return out
        q2 = parse_query(" ".join(cands[k] for k in rare), match="any", natural=False)
        hits = store.search(q2, SearchFilters(until=frame.until), limit=SEED_HITS)
        hits = [h for h in hits if h.session_id != seed.session_id]
        if not hits:
            return out
        best = max(-h.score for h in hits) or 1.0
        anchor = out[place - 1].score
        at = {(f.session_id, f.seq): i for i, f in enumerate(out)}
        for h in hits:
            s = max(-h.score, 0.0) / best * anchor
            pos = (h.session_id, h.seq)
            if pos in at:
                f = out[at[pos]]
                if s > f.score:
                    out[at[pos]] = f._replace(score=s, notes=(*f.notes, "seeded"))
            else:
                at[pos] = len(out)
                out.append(FusedMessage(h.session_id, h.seq, s, (), h, None, ("seeded",)))
        order = sorted(range(len(out)), key=lambda i: (-out[i].score, i))
        out = [out[i] for i in order]
        TALLY["seeded questions"] += 1
        TALLY["seeded in the top 10"] += sum("seeded" in f.notes for f in out[:10])
        return out

    return wrapped
