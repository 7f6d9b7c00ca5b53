"""Tidy 18: the same fact in two languages, with the embedder, on dev data only.

    ./x bench tidy_languages

Every pair of the strangers' files (``bench/data/tidy_strangers/a-f.jsonl``, whole: they
are dev and train data) and of fresh1-7's **dev** halves (never a test half) goes
through :func:`mnemic.ops.tidy.plan.plan` with the embedder's cosine, twice in one run:
with :attr:`Thresholds.meaning_cosine_across` off (**before**: 1.01) and at the
library's default (**after**). Per set and pooled, k/n with Wilson 95 % intervals:
rewordings that switch language (subtypes ``other_language``, ``language_switch``,
``cross_language``, ``transliteration``) flagged; all rewordings flagged; honest pairs
joined and merged, all and those :func:`mnemic.ops.tidy.meaning.languages_differ` reads
as two languages; updates and contradictions merged. Also a grid of floors (0.90 to
0.965), pooled: how the default was chosen (the lowest floor at which no honest pair,
update or contradiction read as two languages is merged). Prints one JSON object on the
last line and saves ``bench/results/tidy_languages.json``.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import _tidy_fresh
from _metrics import wilson
from mnemic.ops.tidy import detect
from mnemic.ops.tidy.meaning import languages_differ
from mnemic.ops.tidy.plan import plan
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.thresholds import THRESHOLDS, Thresholds

ROOT = Path(__file__).resolve().parent
STRANGERS = ROOT / "data" / "tidy_strangers"
SWITCH = ("other_language", "language_switch", "cross_language", "transliteration")
GRID = (0.9, 0.91, 0.915, 0.92, 0.925, 0.93, 0.94, 0.95, 0.965)


def rows() -> list[dict[str, Any]]:
    """The dev rows: the strangers' files whole, fresh1-7's dev halves."""
    out: list[dict[str, Any]] = []
    for name in "abcdef":
        for line in (STRANGERS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append({**json.loads(line), "set": name})
    for which in _tidy_fresh.SETS.values():
        for p in _tidy_fresh.load_halves(which)["dev"]:
            out.append({"kind": p.kind, "subtype": p.subtype, "a": p.a, "b": p.b,
                        "set": which.name})  # fmt: skip
    return out


def verdict(r: dict[str, Any], t: Thresholds) -> str:
    """What tidy proposes for the pair with thresholds ``t``, the learned layer's
    feature for the rules' verdict (:func:`detect.judge` at its defaults) read with
    ``t`` too: with the floor off, tidy as it was before tidy 18."""
    detect.judge.__defaults__ = (t,)
    try:
        return _verdict(r, t)
    finally:
        detect.judge.__defaults__ = (THRESHOLDS,)


def _verdict(r: dict[str, Any], t: Thresholds) -> str:
    c = r["cos"]
    for q in plan("memory", [r["a"], r["b"]], [1.0, 2.0], now=3.0, stale_after_days=90,
                  verbose_chars=10_000, cosines=[[1.0, c], [c, 1.0]], thresholds=t):  # fmt: skip
        if set(q.entries) >= {r["a"], r["b"]}:
            return "merge" if q.kind == "merge" else "supersede"
    return "none"


def counts(rs: list[dict[str, Any]], key: str) -> Counter[str]:
    c: Counter[str] = Counter()
    for r in rs:
        v, k, x = r[key], r["kind"], r["across"]
        c[f"{k}.n"] += 1
        if k == "rewording":
            c["rewording.flagged"] += v != "none"
            if r["subtype"] in SWITCH:
                c["switch.n"] += 1
                c["switch.flagged"] += v != "none"
        elif k == "honest":
            c["honest.joined"] += v != "none"
            c["honest.merged"] += v == "merge"
            if x:
                c["honest_across.n"] += 1
                c["honest_across.joined"] += v != "none"
                c["honest_across.merged"] += v == "merge"
        else:
            c[f"{k}.merged"] += v == "merge"
            if x:
                c[f"{k}_across.n"] += 1
                c[f"{k}_across.merged"] += v == "merge"
    return c


def figures(c: Counter[str]) -> dict[str, Any]:
    def share(k: str, n: str) -> dict[str, Any]:
        return {"k": c[k], "n": c[n], "ci95": wilson(c[k], c[n])}

    return {
        "switch_flagged": share("switch.flagged", "switch.n"),
        "rewordings_flagged": share("rewording.flagged", "rewording.n"),
        "honest_joined": share("honest.joined", "honest.n"),
        "honest_merged": share("honest.merged", "honest.n"),
        "honest_across_joined": share("honest_across.joined", "honest_across.n"),
        "honest_across_merged": share("honest_across.merged", "honest_across.n"),
        "updates_merged": share("update.merged", "update.n"),
        "contradictions_merged": share("contradiction.merged", "contradiction.n"),
        "updates_across_merged": share("update_across.merged", "update_across.n"),
        "contradictions_across_merged": share(
            "contradiction_across.merged", "contradiction_across.n"
        ),
    }


def main() -> None:
    from mnemic.sessions.search.retrieval import default_embedder_loader

    embedder = default_embedder_loader()
    rs = rows()
    for r in rs:  # one pair at a time, as bench/tidy.py's fresh sets
        vecs = embedder.embed_passages([r["a"], r["b"]])
        r["cos"] = float(vecs[0] @ vecs[1])
        r["across"] = languages_differ(profile(r["a"]), profile(r["b"]))
    off = dataclasses.replace(THRESHOLDS, meaning_cosine_across=1.01)
    for r in rs:
        r["before"] = verdict(r, off)
        r["after"] = verdict(r, THRESHOLDS)
    sets = sorted({r["set"] for r in rs}, key=lambda s: (len(s) > 1, s))
    result: dict[str, Any] = {
        "what": "tidy 18: two languages, with the embedder; dev rows only (strangers a-f "
        "whole, fresh1-7 dev halves); before = meaning_cosine_across off, after = default",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "embedder": embedder.model_id,
        "floor": THRESHOLDS.meaning_cosine_across,
        "pooled": {w: figures(counts(rs, w)) for w in ("before", "after")},
        "per_set": {
            s: {
                w: figures(counts([r for r in rs if r["set"] == s], w)) for w in ("before", "after")
            }
            for s in sets
        },
        "changed": [
            f"{r['set']} {r['kind']}/{r['subtype']} {r['cos']:.3f} {r['before']} -> "
            f"{r['after']}: {r['a']!r} / {r['b']!r}"
            for r in rs
            if r["before"] != r["after"]
        ],
    }
    grid = {}
    for floor in GRID:
        t = dataclasses.replace(THRESHOLDS, meaning_cosine_across=floor)
        for r in rs:
            r["grid"] = verdict(r, t) if r["across"] else r["before"]
        grid[str(floor)] = figures(counts(rs, "grid"))
    result["grid"] = grid
    for w in ("before", "after"):
        f = result["pooled"][w]
        sw, rw, hj = f["switch_flagged"], f["rewordings_flagged"], f["honest_joined"]
        print(
            f"{w}: language switches flagged {sw['k']}/{sw['n']}, rewordings "
            f"{rw['k']}/{rw['n']}, honest joined {hj['k']} merged "
            f"{f['honest_merged']['k']} of {hj['n']}",
            flush=True,
        )
    out = ROOT / "results" / "tidy_languages.json"
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(result["pooled"]))


if __name__ == "__main__":
    main()
