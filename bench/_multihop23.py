"""Multi-hop and open-domain misses on LoCoMo dev, evidence turn by evidence turn (recall 23).

    .venv/bin/python bench/_multihop23.py table            # the table of docs/recall.md
    .venv/bin/python bench/_multihop23.py table --rows     # and every missed turn

``table``: for every LoCoMo dev question of ``--cats`` (multi-hop and open-domain), each
evidence turn's rank in the lexical, semantic and hybrid rankings (to 200), which of the
question's content words it holds (by stem; the speakers' names apart), which of them
the hybrid top 10 holds, and what sits in that top 10 (evidence, a neighbour of evidence
within two turns, another turn of an evidence session, a session without evidence).
Every turn hybrid misses at @10 goes in the first class that fits:

* ``no word``: it holds none of the question's content words but the names (a
  paraphrase); split by its semantic rank (1-50, 51-200, beyond);
* ``session found``: another evidence turn of its own session is in the top 10 (the
  session is found, this turn of it is not);
* ``other words``: it holds a content word of the question that no turn of the top 10
  holds (the top 10 is filled by the question's other words);
* ``both names``: the question names two speakers and the turn is in a session the top 10
  does not hold;
* ``outranked``: it shares words the top 10 also holds, and ranks below.

For each class also the turn's rank in a lexical search of each of its shared words
alone (its best such rank): what a search per word of the question would give it.
``speakers``: for every LoCoMo dev question that names two speakers, who said each of the
hybrid top 10 (one letter each) as shipped and with ``bench/_apart.py``'s rule, who said
each evidence turn, and the evidence turns' places in both.

Dev only: the test conversations are never read here.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall as rb
from _misses import _stores
from _vcache import CachedEmbedder
from mnemic.sessions.index.stems import content_word_keys, words

DEPTH = 200
NEAR = 2
"""Turns either side that count as a neighbour of evidence."""


def _word_keys(text: str) -> list[tuple[str, frozenset[str]]]:
    """The content words of ``text`` with their keys, once each; a one-letter piece of
    a contraction ("s" of "Caroline's", "t" of "wouldn't") is none."""
    seen: dict[frozenset[str], str] = {}
    for w in words(text):
        ks = content_word_keys([w]) if len(w) > 1 else []
        if ks and ks[0] not in seen:
            seen[ks[0]] = w
    return [(w, k) for k, w in seen.items()]


def _holds(text_keys: set[str], keys: frozenset[str]) -> bool:
    return bool(text_keys & keys)


def _flat(text: str) -> set[str]:
    return {k for ks in content_word_keys([text]) for k in ks}


def table(
    corpora: dict[str, rb.Corpus],
    questions: list[rb.Question],
    loader: Any,
    cats: set[str],
    show_rows: bool,
) -> dict[str, Any]:
    names: dict[str, set[str]] = {}
    name_words: dict[str, set[str]] = {}
    per_cat: dict[str, Counter[str]] = defaultdict(Counter)
    solo: dict[str, list[int]] = defaultdict(list)
    rows: list[dict[str, Any]] = []
    for q in questions:
        if q.set != "locomo" or q.groups[0] not in cats:
            continue
        cat = q.groups[0]
        corpus = corpora[q.corpus]
        store = corpus.store
        key_of = {v: k for k, v in corpus.keys.items()}
        if q.corpus not in names:
            said = store.list_sessions(limit=1_000_000)
            who = {m.name or "" for info in said for m in store.messages(info.id)} - {""}
            name_words[q.corpus] = {w.casefold() for w in who}
            names[q.corpus] = _flat(" ".join(who))
        ranks: dict[str, dict[str, int]] = {}
        heads: dict[str, list[rb.Pos]] = {}
        for mode in ("lexical", "semantic", "hybrid"):
            res = rb.ranked_results(corpus, q.text, mode, loader, None, depth=DEPTH)
            pos = [(r.session_id, r.seq) for r in res]
            heads[mode] = pos
            ranks[mode] = {}
            for i, p in enumerate(pos):
                ranks[mode].setdefault(corpus.keys.get(p, "?"), i + 1)
        qwords = [(w, k) for w, k in _word_keys(q.text) if not (k & names[q.corpus])]
        named = [w for w in words(q.text) if w.casefold() in name_words[q.corpus]]
        two_names = len({w.casefold() for w in named}) >= 2
        ev_pos = {e: key_of[e] for e in q.evidence if e in key_of}
        ev_sessions = {p[0] for p in ev_pos.values()}
        top = heads["hybrid"][:10]
        texts = {p: store.messages(p[0])[p[1]].content or "" for p in top}
        top_keys = {p: _flat(t) for p, t in texts.items()}
        c = per_cat[cat]
        c["questions"] += 1
        c["evidence"] += len(ev_pos)
        c["questions naming two speakers"] += two_names
        c["evidence sessions"] += len(ev_sessions)
        for p in top:
            if p in ev_pos.values():
                c["top10: evidence"] += 1
            elif any(p[0] == e[0] and abs(p[1] - e[1]) <= NEAR for e in ev_pos.values()):
                c["top10: neighbour of evidence"] += 1
            elif p[0] in ev_sessions:
                c["top10: other turn of an evidence session"] += 1
            else:
                c["top10: session without evidence"] += 1
        found_sessions = {key_of[e][0] for e in q.evidence if ranks["hybrid"].get(e, 999) <= 10}
        for e, (sid, seq) in ev_pos.items():
            h = ranks["hybrid"].get(e, 999)
            if h <= 10:
                c["found @10"] += 1
                continue
            text = store.messages(sid)[seq].content or ""
            tk = _flat(text)
            shared = [w for w, k in qwords if _holds(tk, k)]
            top_held = [w for w, k in qwords if any(_holds(t, k) for t in top_keys.values())]
            sem = ranks["semantic"].get(e, 999)
            if not shared:
                why = "no word"
                why += (
                    " (sem 1-50)"
                    if sem <= 50
                    else " (sem 51-200)"
                    if sem <= DEPTH
                    else " (sem beyond)"
                )
            elif sid in found_sessions:
                why = "session found"
            elif [w for w in shared if w not in top_held]:
                why = "other words"
            elif two_names and sid not in {p[0] for p in top}:
                why = "both names"
            else:
                why = "outranked"
            c["missed @10"] += 1
            c[why] += 1
            c["missed @10, hybrid 11-50"] += h <= 50
            c["missed @10, hybrid 51-200"] += 50 < h <= DEPTH
            c["missed @10, beyond 200"] += h > DEPTH
            best_solo = 999
            for w in shared:
                res = rb.ranked_results(corpus, w, "lexical", loader, None, depth=DEPTH)
                for i, r in enumerate(res):
                    if (r.session_id, r.seq) == (sid, seq):
                        best_solo = min(best_solo, i + 1)
                        break
            if shared:
                solo[why].append(best_solo)
            rows.append({
                "cat": cat, "q": q.text, "ev": e, "why": why,
                "lex": ranks["lexical"].get(e), "sem": ranks["semantic"].get(e), "hyb": h,
                "shared": shared, "question words": [w for w, _ in qwords],
                "top10 holds": top_held, "best alone": best_solo,
                "text": " ".join(text.split())[:140],
            })  # fmt: skip
    out: dict[str, Any] = {"per category": {k: dict(v) for k, v in per_cat.items()}}
    for cat, cnt in sorted(per_cat.items()):
        print(f"== {cat}")
        for k, v in sorted(cnt.items()):
            print(f"   {k}: {v}")
    print("== best rank of a missed turn in a lexical search of one of its shared words alone")
    solo_out = {}
    for why, rs in sorted(solo.items()):
        bands = Counter(
            "1-3" if r <= 3 else "4-10" if r <= 10 else "11-50" if r <= 50 else ">50" for r in rs
        )
        solo_out[why] = dict(bands)
        print(f"   {why}: n {len(rs)} {dict(sorted(bands.items()))}")
    out["alone"] = solo_out
    out["rows"] = rows
    if show_rows:
        for r in sorted(rows, key=lambda r: (r["cat"], r["why"], r["q"])):
            print(json.dumps(r, ensure_ascii=False))
    return out


def speakers(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any) -> None:
    from _apart import _named_in_order
    from _misses import VARIANTS

    tally: Counter[str] = Counter()
    for q in questions:
        if q.set != "locomo":
            continue
        corpus = corpora[q.corpus]
        store = corpus.store
        said = [m for info in store.list_sessions(limit=1_000_000) for m in store.messages(info.id)]
        if len(_named_in_order(q.text, {m.name for m in said if m.name})) < 2:
            continue
        key_of = {v: k for k, v in corpus.keys.items()}

        def who(pos: rb.Pos, store: Any = store) -> str:
            return str(store.messages(pos[0])[pos[1]].name or "?")

        shipped = rb.ranking(corpus, q.text, "hybrid", loader, None)[:10]
        with VARIANTS["apart"]():
            moved = rb.ranking(corpus, q.text, "hybrid", loader, None)[:10]
        ev = [key_of[e] for e in q.evidence if e in key_of]
        tally[q.groups[0]] += 1
        tally["evidence in the top 10, shipped"] += sum(p in shipped for p in ev)
        tally["evidence in the top 10, apart"] += sum(p in moved for p in ev)
        print(f"{q.groups[0]} | {q.text}")
        print(
            "    evidence said by", [who(p) for p in ev],
            "| shipped", "".join(who(p)[0] for p in shipped),
            "| apart", "".join(who(p)[0] for p in moved),
            "| places (shipped, apart)",
            [(shipped.index(p) + 1 if p in shipped else None,
              moved.index(p) + 1 if p in moved else None) for p in ev],
        )  # fmt: skip
    print(json.dumps(dict(tally)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("table", "speakers"))
    parser.add_argument("--cats", default="multi-hop,open-domain")
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--save", type=Path, default=None)
    args = parser.parse_args()
    embedder = CachedEmbedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-mh23-") as tmp:
        corpora, questions = _stores(["locomo"], "dev", embedder, Path(tmp))
        if args.what == "speakers":
            speakers(corpora, questions, lambda: embedder)
        else:
            cats = set(args.cats.split(","))
            got = table(corpora, questions, lambda: embedder, cats, args.rows)
            if args.save is not None:
                text = json.dumps(got, indent=1, ensure_ascii=False)
                args.save.write_text(text, encoding="utf-8")
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
