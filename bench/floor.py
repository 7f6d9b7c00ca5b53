"""The "no good match" floor of semantic and hybrid search: ``./x bench floor``.

    ./x bench floor                 # the shipped floor on dev and test
    ./x bench floor --calibrate     # the dev split only: every candidate floor, best first

Two kinds of question are asked of each LoCoMo conversation (the split of
``bench/recall.py``: conv-26, conv-30, conv-42 dev; conv-41, conv-43 test):

* **answerable**: LoCoMo's own questions with valid evidence (and the 100 translated into
  Chinese, ``bench/data/locomo-zh.json``, reported apart): a "no good match" is wrong;
* **unrelated**: the 40 questions of ``bench/data/offtopic.json`` (software, science,
  administration; English, Chinese, German, Spanish), asked of every conversation: "no good
  match" is right.

Every question is asked through the public ranking API (``search_messages``), which
gives the verdict (:mod:`mnemic.sessions.search.floor`) and the two signals it is read
from (best cosine, best share of the query's words). ``--calibrate`` tries every floor
on a grid over the dev questions and lists those that floor at most 5 % of the answerable
ones, most unrelated ones caught first, then fewest answerable ones floored; the floor is
chosen there and never on test.
Figures come with n and a 95 % bootstrap interval (``bench/_metrics.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _metrics import Scores
from _vcache import CachedEmbedder
from mnemic.sessions import search_messages
from mnemic.sessions.index.segment import has_cjk
from mnemic.sessions.search import floor as floor_module
from recall import LOCOMO, LOCOMO_SPLIT, locomo_corpora, locomo_questions, semantic_state

HERE = Path(__file__).resolve().parent
MODES = ("semantic", "hybrid")
MAX_FLOORED = 0.05
"""The calibration's bound: at most this share of answerable dev questions floored."""


Asked = tuple[str, str, str, str, str]
"""(kind, split, set, corpus, question)."""


def signals(corpora: dict[str, Any], questions: list[Asked], embedder: Any) -> list[dict[str, Any]]:
    """Per question and mode: its kind, split, set and the verdict's signals."""
    out = []
    for kind, split, set_, corpus_name, text in questions:
        corpus = corpora[corpus_name]
        if corpus.state is None:
            corpus.state = semantic_state(corpus.store, lambda: embedder, max_age=1e9)
        for mode in MODES:
            ranked = search_messages(
                corpus.store, text, mode=mode, limit=1, state=corpus.state, floor=False
            )
            s = ranked.strength
            assert s is not None
            out.append({"kind": kind, "split": split, "set": set_, "mode": mode,
                        "cjk": has_cjk(text), "cosine": s.cosine, "words": s.words,
                        "good": s.good})  # fmt: skip
    return out


def passes(row: dict[str, Any], cosine: float, words: float) -> bool:
    """Whether ``row`` clears the floor (``cosine``, ``words``)."""
    c, w = row["cosine"], row["words"]
    return (c is not None and c >= cosine) or (w is not None and w >= words)


def calibrate(rows: list[dict[str, Any]], cjk: bool) -> list[dict[str, Any]]:
    """Every floor of the grid on dev for the questions written in CJK (``cjk``) or not,
    those within :data:`MAX_FLOORED` best first."""
    dev = [r for r in rows if r["split"] == "dev" and r["cjk"] == cjk]
    out = []
    for ci in range(130, 192):
        cosine = ci / 200
        for words in (0.34, 0.5, 0.6, 0.67, 0.75, 0.8, 1.0, 1.01):
            row: dict[str, Any] = {"cosine": cosine, "words": words}
            for mode in MODES:
                ans = [r for r in dev if r["mode"] == mode and r["kind"] == "answerable"]
                off = [r for r in dev if r["mode"] == mode and r["kind"] == "unrelated"]
                row[mode] = {
                    "answerable_floored": sum(not passes(r, cosine, words) for r in ans) / len(ans),
                    "unrelated_caught": sum(not passes(r, cosine, words) for r in off) / len(off),
                }
            worst = max(row[m]["answerable_floored"] for m in MODES)
            if worst <= MAX_FLOORED:
                out.append(row)
    out.sort(
        key=lambda r: (
            -min(r[m]["unrelated_caught"] for m in MODES),
            max(r[m]["answerable_floored"] for m in MODES),
            -r["cosine"],
        )
    )
    return out


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The shipped floor per split, mode and set: unrelated caught, answerable floored."""
    table: dict[tuple[str, str], Scores] = {}
    for r in rows:
        sc = table.setdefault((r["split"], r["mode"]), Scores())
        if r["kind"] == "unrelated":
            script = "cjk" if r["cjk"] else "other"
            sc.add(f"unrelated_{script}_no_good_match", not r["good"])
            sc.add("unrelated_no_good_match", not r["good"])
        else:
            sc.add(f"{r['set']}_answerable_floored", not r["good"])
    out: dict[str, Any] = {}
    for (split, mode), sc in sorted(table.items()):
        res = sc.result()
        res.pop("by", None)
        out.setdefault(split, {})[mode] = res
    return out


def distribution(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Quantiles of the best cosine per kind and script on dev (what the floor separates)."""
    out: dict[str, Any] = {}
    for kind in ("answerable", "unrelated"):
        for cjk in (False, True):
            cos = sorted(
                r["cosine"]
                for r in rows
                if (r["split"], r["mode"], r["kind"], r["cjk"]) == ("dev", "hybrid", kind, cjk)
                and r["cosine"] is not None
            )
            if cos:
                q = [cos[int(p * (len(cos) - 1))] for p in (0.05, 0.25, 0.5, 0.75, 0.95)]
                out[f"{kind}/{'cjk' if cjk else 'other'}"] = [round(x, 4) for x in q]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calibrate", action="store_true", help="dev only: try every floor")
    parser.add_argument("--data", type=Path, default=LOCOMO, help="the LoCoMo file")
    parser.add_argument("--max-questions", type=int, default=0, help="per set (0: all)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    embedder = CachedEmbedder()
    split_of = {c: s for s, cs in LOCOMO_SPLIT.items() for c in cs}
    offtopic = json.loads((HERE / "data" / "offtopic.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="mnemic-floor-") as tmp:
        data = json.loads(args.data.read_text(encoding="utf-8"))
        corpora = locomo_corpora(data, Path(tmp), embedder)
        questions: list[Asked] = []
        for q in locomo_questions(data, corpora):
            questions.append(("answerable", q.split, q.set, q.corpus, q.text))
        for name, split in split_of.items():
            for text in offtopic["questions"]:
                questions.append(("unrelated", split, "offtopic", name, text))
        if args.calibrate:
            questions = [q for q in questions if q[1] == "dev"]
        if args.max_questions:
            kept: dict[tuple[str, str], int] = {}
            limited = []
            for q in questions:
                key = (q[1], q[2])
                kept[key] = kept.get(key, 0) + 1
                if kept[key] <= args.max_questions:
                    limited.append(q)
            questions = limited
        print(f"{len(questions)} questions ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        rows = signals(corpora, questions, embedder)
        for c in corpora.values():
            c.store.close()
    out: dict[str, Any] = {
        "floor": {
            "cosine": floor_module.FLOOR_COSINES.get(embedder.model_id),
            "cosine_cjk": floor_module.FLOOR_COSINES_CJK.get(embedder.model_id),
            "words": floor_module.FLOOR_WORDS,
        },
        "model": embedder.model_id,
        "dev_best_cosine_quantiles_5_25_50_75_95": distribution(rows),
    }
    if args.calibrate:
        for cjk in (False, True):
            name = "cjk" if cjk else "other"
            out[f"candidates_{name}"] = calibrate(rows, cjk)[:15]
            for c in out[f"candidates_{name}"][:5]:
                print(name, json.dumps(c), flush=True)
    else:
        out["results"] = report(rows)
        for split, modes in out["results"].items():
            for mode, r in modes.items():
                figs = [f"{m} {v['value']:.3f} (n={v['n']})" for m, v in r.items()]
                print(f"  {split:4s} {mode:8s} " + "  ".join(figs), flush=True)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    partial = "floor-partial" if args.max_questions else "floor"
    emit("floor-calibration" if args.calibrate else partial, out)


if __name__ == "__main__":
    main()
