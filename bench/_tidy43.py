"""Tidy 43: the pair model's merges vetoed when each side names a place the other does
not write in its own language (:func:`mnemic.ops.tidy.exonyms.other_places`), measured
on DEV halves only (issue 26).

``python bench/_tidy43.py dump OUT`` writes the verdicts of tidy_fresh10-17's DEV halves
in four modes (rules + the shipped model and rules alone, offline and with the
embedder); run it under each tree (before: main's ``src`` exported on ``PYTHONPATH``;
after: this branch) in the same minutes, then ``python bench/_tidy43.py diff BEFORE
AFTER [RESULT]``: each kind's count (flagged rewordings, updates and contradictions
superseded, honest pairs joined) with Wilson 95 %, and every verdict that moved. No
test half is read.

**Measured** (``bench/results/tidy43.json``; before main ``21bf727c``, after this
branch; multilingual-e5-small): n 511 rewordings / 292 updates / 183 contradictions /
520 honest; no verdict moved in any mode (offline with the model: 155 / 104 / 70,
honest joined 19; with the embedder: 213 / 104 / 71, honest 29).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import _tidy_fresh

SETS = tuple(f"fresh{k}" for k in range(10, 18))
MODES = ("model", "rules", "model_e", "rules_e")


def dump(out: Path) -> None:
    """One side: every DEV pair's verdict in each of :data:`MODES`."""
    import tidy_pairs

    pairs = {s: list(_tidy_fresh.load_halves(_tidy_fresh.SETS[s])["dev"]) for s in SETS}
    texts = [t for ps in pairs.values() for p in ps for t in (p.a, p.b)]
    cosine, model_id = tidy_pairs.embedder_cosine(texts)
    if cosine is None:
        raise SystemExit("the embedder is needed")
    got: dict[str, Any] = {
        "embedder": model_id,
        "pairs": {
            s: [[p.id, p.kind, p.subtype, p.lang, p.a, p.b] for p in ps] for s, ps in pairs.items()
        },
        "v": {},
    }
    for how, cos, learned in (("model", None, True), ("rules", None, False),
                              ("model_e", cosine, True), ("rules_e", cosine, False)):  # fmt: skip
        got["v"][how] = {
            s: [_tidy_fresh.verdict(p, cos, learned) for p in ps] for s, ps in pairs.items()
        }
        print(how, flush=True)
    out.write_text(json.dumps(got, ensure_ascii=False))


def _good(kind: str, v: str) -> bool:
    if kind in ("update", "contradiction"):
        return v == "supersede"
    return v != "none"  # a rewording flagged, an honest pair joined


def diff(before: Path, after: Path) -> dict[str, Any]:
    b, a = json.loads(before.read_text()), json.loads(after.read_text())
    res: dict[str, Any] = {}
    for mode in MODES:
        counts: dict[str, list[int]] = {}
        moved = []
        for s, ps in b["pairs"].items():
            for p, vb, va in zip(ps, b["v"][mode][s], a["v"][mode][s], strict=True):
                c = counts.setdefault(p[1], [0, 0, 0])
                c[0] += 1
                c[1] += _good(p[1], vb)
                c[2] += _good(p[1], va)
                if vb != va:
                    moved.append([s, p[0], p[1], vb, va, p[4], p[5]])
        res[mode] = {
            "counts": {
                k: {
                    "n": n,
                    "before": x,
                    "after": y,
                    "ci95_before": _tidy_fresh.wilson(x, n),
                    "ci95_after": _tidy_fresh.wilson(y, n),
                }
                for k, (n, x, y) in counts.items()
            },
            "moved": moved,
        }
    return res


def _main(argv: list[str]) -> None:  # pragma: no cover - a tool for a round's check
    if argv[0] == "dump":
        dump(Path(argv[1]))
    elif argv[0] == "diff":
        res = diff(Path(argv[1]), Path(argv[2]))
        text = json.dumps(res, ensure_ascii=False, indent=1)
        if len(argv) > 3:
            Path(argv[3]).write_text(text + "\n")
        print(text)


if __name__ == "__main__":
    _main(sys.argv[1:])
