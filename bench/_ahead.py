"""Where hybrid is behind lexical or semantic on dev, question by question (recall 19).

    .venv/bin/python bench/_misses.py ahead --sets locomo,xl,zh,longchat,updates

For every dev question, the lexical, semantic and hybrid rankings (top 200, through the
public API, as ``./x bench recall`` ranks them) and, inside the hybrid call, the two lists
the fusion got (the lexical ranking and the semantic candidates with their neighbours):

* a table of every set, category and k where hybrid's mean turn recall is below
  lexical's or semantic's (with the questions each side wins), and for the update
  fixture every question the lexical or semantic order gets right and hybrid does not;
* every question where hybrid's top 10 holds less evidence than one of the others': each
  evidence turn's rank in the lexical and semantic rankings, in the two lists the fusion
  got (with each list's normalised strength), in the fused list and in the final one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import mnemic.sessions.search.hybrid as hybrid_module
import mnemic.sessions.search.retrieval as retrieval_module
import recall as rb

KS = (5, 10, 25, 50)
DEPTH = 200
MODES = ("lexical", "semantic", "hybrid")

Pos = tuple[str, int]


@contextmanager
def captured(into: dict[str, Any]) -> Iterator[None]:
    """Record what :func:`~mnemic.sessions.search.hybrid.fuse` gets and returns."""
    real = retrieval_module.fuse

    def spy(lexical: Any, semantic: Any, **kw: Any) -> Any:
        out = real(lexical, semantic, **kw)
        if lexical:  # the hybrid call (semantic mode fuses an empty lexical list)
            into.update(lexical=list(lexical), semantic=list(semantic), kw=kw, fused=out)
        return out

    retrieval_module.fuse = spy  # type: ignore[assignment]
    try:
        yield
    finally:
        retrieval_module.fuse = real  # type: ignore[assignment]


def _place(keys: list[str]) -> dict[str, int]:
    return {k: i + 1 for i, k in reversed(list(enumerate(keys)))}


def _first(q: rb.Question, keys: list[str]) -> bool:
    place = _place(keys)
    inf = 10**6
    upd = place.get(q.update or "", inf)
    stale = [place.get(s, inf) for s in q.stale]
    if q.kind == "now":
        return upd < inf and all(upd < s for s in stale)
    return stale[0] < inf and stale[0] < upd


def ahead(
    corpora: dict[str, rb.Corpus],
    questions: list[rb.Question],
    loader: Callable[[], Any],
    save: Any = None,
) -> None:
    table: dict[tuple[str, str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    rows: list[dict[str, Any]] = []
    for q in questions:
        corpus = corpora[q.corpus]
        keys: dict[str, list[str]] = {}
        inside: dict[str, Any] = {}
        for mode in MODES:
            with captured(inside) if mode == "hybrid" else nullcontext():
                res = rb.ranked_results(corpus, q.text, mode, loader, q.as_of, depth=DEPTH)
            keys[mode] = [corpus.keys.get((r.session_id, r.seq), f"{r.session_id}#{r.seq}")
                          for r in res]  # fmt: skip
        cat = q.groups[0]
        if q.kind != "recall":
            got = {m: _first(q, keys[m]) for m in MODES}
            t = table[(q.set, f"{q.kind}:{cat}", 0)]
            t["n"] += 1
            for m in MODES:
                t[m] += got[m]
            t["hyb<lex"] += got["lexical"] and not got["hybrid"]
            t["hyb<sem"] += got["semantic"] and not got["hybrid"]
            t["hyb>lex"] += got["hybrid"] and not got["lexical"]
            t["hyb>sem"] += got["hybrid"] and not got["semantic"]
            if got["lexical"] > got["hybrid"] or got["semantic"] > got["hybrid"]:
                rows.append({"set": q.set, "cat": f"{q.kind}:{cat}", "q": q.text,
                             "got": got, **_evidence_ranks(corpus, [q.update or "", *q.stale],
                                                            keys, inside)})  # fmt: skip
            continue
        ev = set(q.evidence)
        for k in KS:
            r = {m: rb.recall_at(ev, keys[m], k) for m in MODES}
            for group in (cat, "all"):
                t = table[(q.set, group, k)]
                t["n"] += 1
                for m in MODES:
                    t[m] += r[m]
                t["hyb<lex"] += r["hybrid"] < r["lexical"]
                t["hyb<sem"] += r["hybrid"] < r["semantic"]
                t["hyb>lex"] += r["hybrid"] > r["lexical"]
                t["hyb>sem"] += r["hybrid"] > r["semantic"]
        r10 = {m: rb.recall_at(ev, keys[m], 10) for m in MODES}
        if r10["hybrid"] < max(r10["lexical"], r10["semantic"]):
            rows.append({"set": q.set, "cat": cat, "q": q.text, "r10": r10,
                         **_evidence_ranks(corpus, q.evidence, keys, inside)})  # fmt: skip
    print("set, category, k: n, lexical / semantic / hybrid mean, questions hybrid < and > each")
    for (set_, group, k), t in sorted(table.items()):
        n = t["n"]
        lex, sem, hyb = (t[m] / n for m in MODES)
        flag = ("  HYB<LEX" if hyb < lex - 1e-9 else "") + ("  HYB<SEM" if hyb < sem - 1e-9 else "")
        print(f"{set_:9s} {group:22s} @{k:<2d} n {int(n):4d}  {lex:.3f} / {sem:.3f} / {hyb:.3f}"
              f"  <lex {int(t['hyb<lex'])} >lex {int(t['hyb>lex'])}"
              f"  <sem {int(t['hyb<sem'])} >sem {int(t['hyb>sem'])}{flag}")  # fmt: skip
    print(f"--- {len(rows)} questions where hybrid's top 10 (or first) holds less than another's")
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))
    if save is not None:
        save.write_text(json.dumps({"table": {" ".join(map(str, k)): v for k, v in table.items()},
                                    "rows": rows}, ensure_ascii=False, indent=1),
                        encoding="utf-8")  # fmt: skip


def _evidence_ranks(
    corpus: rb.Corpus, evidence: list[str], keys: dict[str, list[str]], inside: dict[str, Any]
) -> dict[str, Any]:
    """Each evidence turn's rank in every mode's ranking and in the fusion's inputs."""
    pos_of = {v: k for k, v in corpus.keys.items()}
    lex_in: dict[Pos, tuple[int, float]] = {}
    sem_in: dict[Pos, tuple[int, float]] = {}
    fused_in: dict[Pos, tuple[int, float]] = {}
    if inside:
        lex_in, _ = hybrid_module._lexical_side(inside["lexical"])
        share = hybrid_module.ASK_SHARE if inside["kw"].get("statements") else 1.0
        sem_in, _ = hybrid_module._semantic_side(
            inside["semantic"], hybrid_module.SEMANTIC_CONTEXT, share
        )
        fused_in = {(f.session_id, f.seq): (i + 1, f.score) for i, f in enumerate(inside["fused"])}
    places = {m: _place(keys[m]) for m in MODES}
    out = []
    for e in evidence:
        pos = pos_of.get(e)
        text = ""
        if pos is not None:
            msgs = corpus.store.messages(pos[0])
            text = (msgs[pos[1]].content or "")[:90] if pos[1] < len(msgs) else ""
        li, si, fi = lex_in.get(pos or ("", -1)), sem_in.get(pos or ("", -1)), fused_in.get(
            pos or ("", -1))  # fmt: skip
        out.append({
            "ev": e, **{m[:3]: places[m].get(e) for m in MODES},
            "lex_in": li and [li[0], round(li[1], 3)], "sem_in": si and [si[0], round(si[1], 3)],
            "fused_in": fi and [fi[0], round(fi[1], 3)], "text": text,
        })  # fmt: skip
    return {"evidence": out, "readable": inside.get("kw", {}).get("readable")}
