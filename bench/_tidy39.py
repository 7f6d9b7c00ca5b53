"""Tidy 39: tidy 37's step B readings shipped through reading versions (issue 26).

Tidy 37's step B readings (numbers in words in 13 more languages, East Asian and
Vietnamese clock times, month names of 25 more languages, litres and cubic feet) could
not ship without a refit of the pair model (``tests/test_tidy_pairmodel_rebuild.py``),
and the refit lost rewordings and joined an honest pair (tidy 38). This round gives
the readings a version (:mod:`mnemic.ops.tidy.readings`): the rules read version 2 (B's
readings), the pair model reads its features with version 1, the one it was fitted on
(:data:`mnemic.ops.tidy.pairmodel.READING`), so ``pair_model.bin`` keeps its bytes and
its probe digest. A text no reading of version 2 can match is read once
(:func:`mnemic.ops.tidy.quantities.read_alike`); a pair with a side version 2 reads
otherwise is read again, for the model only, with version 1 (its sides, signals and the
rules' verdict).

**The rule, written and committed before any measure of this round** (the code it
judges is committed before it):

*Before*: the branch point's tree (main ``9b7f0ac3``: B's readings out, the shipped
model). *After*: this branch. Both dumped in the same minutes with ``python
bench/_tidy39.py dump OUT`` (tidy 38's dump: every pair of the DEV halves of
tidy_fresh10-15 through ``plan``, rules + the shipped model and rules alone, offline
and with the embedder; the unrelated cross-row two-language pairs of fresh15 dev).
``python bench/_tidy39.py diff BEFORE AFTER`` decides. Ship when, in EACH mode
(offline and with the embedder), rules + the shipped model, over fresh10-15 dev:

* (a) **no honest pair newly joined** (joined after, not before);
* (b) **no rewording lost** (flagged before, not after);
* (c) **wins ≥ 0**: of rewordings, updates and contradictions, won − lost ≥ 0;
* (d) unrelated cross-row two-language pairs merged (fresh15 dev) do not rise.

The rules alone are reported beside (tidy 38 measured them: fresh15 dev +1 rewording
each mode, fresh10-14 dev +3 / +2 rewordings, +4 contradictions, nothing lost). Known
before any run: fresh10-14 dev were read by tidy 37 and 38 (the readings were written
after reading fresh10-13), fresh15 dev by tidy 38 (nothing lost, no honest pair moved,
rules alone); what this round adds over tidy 38 is the model reading version 1 beside
rules reading version 2, which no run has measured.

**Then, with the rule and the code frozen and committed, once**: tidy_fresh15's TEST
half (unread by any tidy rule) and, as a second look, tidy_fresh14's test half (read
once by tidy 37), before and after, offline and with the embedder, rules + the shipped
model, per kind with Wilson 95 % intervals (``python bench/_tidy39.py heldout OUT``
under each tree, ``python bench/_tidy39.py held BEFORE AFTER``). Reported whatever it
shows; it decides nothing.

**The freeze itself** (``python bench/_tidy39.py names OUT`` under each tree, compared
for equality): the pair model's offline feature names of every pair of fresh10-15 dev
(the fit's recipe pairs: the probe digest), read after the rules' verdict of the same
pair (the product's order, the caches warm with version 2) must be the same under both
trees.

**Measured once** (``bench/results/tidy39.json``; before: main ``9b7f0ac3``): fresh10-15
dev (n 393 / 235 / 142 / 407), rules + the shipped model, offline rewordings 120 -> 124,
contradictions 56 -> 60, updates 91, honest joined 18 -> 18 (won 8, lost 0, none newly
joined); with multilingual-e5-small rewordings 161 -> 164, contradictions 57 -> 61,
honest 24 -> 24 (won 7, lost 0); unrelated merged 0 -> 0 (49 of 16,648 judged): (a)-(d)
hold, **shipped**; every win is the rules' (the rules alone win the same pairs).
**Held out, once** (``bench/results/tidy39_heldout.json``): fresh15 test (n 51 / 28 / 19 /
61) every verdict the same in both modes; fresh14 test one rewording more in each mode
(Polish "31 grudnia 2028" / "31.12.2028"), the rest the same.

Usage::

    python bench/_tidy39.py dump OUT
    python bench/_tidy39.py diff BEFORE AFTER [RESULT]
    python bench/_tidy39.py names OUT
    python bench/_tidy39.py heldout OUT
    python bench/_tidy39.py held BEFORE AFTER [RESULT]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import _tidy37 as t37
import _tidy38 as t38
import _tidy_fresh
import _tidy_pairfit33 as t33

DEV_SETS = ("fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15")
HELD = ("fresh15", "fresh14")
"""The test halves read once, after the rule: fresh15 (unread), fresh14 (a second look,
read once by tidy 37)."""
SIDES = (("offline", "model", "rules"), ("embedder", "model_e", "rules_e"))


def _dev(name: str) -> list[Any]:
    return list(_tidy_fresh.load_halves(_tidy_fresh.SETS[name])["dev"])


def dump(out: Path) -> None:
    """One side: tidy 38's dump of :data:`DEV_SETS`' dev halves (four modes; the
    unrelated pairs of the last, fresh15)."""
    t38.dump(out, DEV_SETS)


def _mode(a: dict[str, Any], b: dict[str, Any], how: str) -> dict[str, Any]:
    won: list[dict[str, str]] = []
    lost: list[dict[str, str]] = []
    honest_new: list[dict[str, str]] = []
    honest_gone: list[dict[str, str]] = []
    totals: dict[str, dict[str, int]] = {}
    for s in DEV_SETS:
        for i, p in enumerate(_dev(s)):
            vo, vn = a["labelled"][how][s][i], b["labelled"][how][s][i]
            fo, fn = _tidy_fresh.outcome(p, vo), _tidy_fresh.outcome(p, vn)
            t = totals.setdefault(p.kind, {"n": 0, "before": 0, "after": 0})
            t["n"] += 1
            what = "flagged" if p.kind in t33.THREE else "joined"
            t["before"] += fo[what]
            t["after"] += fn[what]
            row = {"set": s, "kind": p.kind, "a": p.a, "b": p.b, "before": vo, "after": vn}
            if p.kind in t33.THREE and fo["flagged"] != fn["flagged"]:
                (lost if fo["flagged"] else won).append(row)
            elif p.kind not in t33.THREE and fo["joined"] != fn["joined"]:
                (honest_new if fn["joined"] else honest_gone).append(row)
    n3 = sum(v["n"] for k, v in totals.items() if k in t33.THREE)
    lo, hi = t33.paired(len(won), len(lost), n3)
    return {"totals": totals, "won": won, "lost": lost, "honest_newly_joined": honest_new,
            "honest_no_longer_joined": honest_gone,
            "won_minus_lost_ci95": [round(lo, 2), round(hi, 2)]}  # fmt: skip


def diff(before: Path, after: Path) -> dict[str, Any]:
    """The rule's decision (see the module docstring)."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    assert tuple(a["sets"]) == tuple(b["sets"]) == DEV_SETS
    out: dict[str, Any] = {"embedder": b["embedder"], "sets": list(DEV_SETS)}
    ok = True
    for side, model, rules in SIDES:
        m = _mode(a, b, model)
        lost_rewordings = [p for p in m["lost"] if p["kind"] == "rewording"]
        keep = {"a_no_honest_newly_joined": not m["honest_newly_joined"],
                "b_no_rewording_lost": not lost_rewordings,
                "c_wins_ge_0": len(m["won"]) - len(m["lost"]) >= 0}  # fmt: skip
        out[side] = {"rules_and_model": m, "rules_alone": _mode(a, b, rules), "keep": keep}
        ok = ok and all(keep.values())
    unrelated = t37._unrelated(a, b)
    out["unrelated"] = unrelated
    no_rise = unrelated["merged"]["after"] <= unrelated["merged"]["before"]
    out["keep_d_unrelated_no_rise"] = no_rise
    out["ship"] = ok and no_rise
    return out


def names(out: Path) -> None:
    """The pair model's offline feature names of every pair of fresh10-15 dev, each read
    after the rules' verdict of the same pair (the fit's recipe pairs: the probe digest,
    ``tests/test_tidy_pairmodel_rebuild.py``)."""
    import _tidy_pairfit as tp

    pairs: list[Any] = [p for s in DEV_SETS for p in _dev(s)]
    got = []
    for p in pairs:
        _tidy_fresh.verdict(p, None, False)  # the rules first, as plan reads a store
        got.append(tp.names(p, None, False))
    out.write_text(json.dumps(got, ensure_ascii=False))
    print(len(got), "pairs", flush=True)


def heldout(out: Path) -> None:
    """One side of the held-out look: :data:`HELD`'s test halves through ``plan`` with
    the tree's shipped model, offline and with the embedder."""
    import tidy_pairs

    got: dict[str, Any] = {}
    for name in HELD:
        ps = list(_tidy_fresh.load_halves(_tidy_fresh.SETS[name])["test"])
        cosine, model_id = tidy_pairs.embedder_cosine([t for p in ps for t in (p.a, p.b)])
        if cosine is None:
            raise SystemExit("the embedder is needed")
        got["embedder"] = model_id
        for how, cos in (("offline", None), ("semantic", cosine)):
            vs = [_tidy_fresh.verdict(p, cos, True) for p in ps]
            got[f"{name}/{how}"] = vs
            print(name, how, _tidy_fresh.line(name, _tidy_fresh.summary(ps, vs)), flush=True)
    out.write_text(json.dumps(got, ensure_ascii=False))


def held(before: Path, after: Path) -> dict[str, Any]:
    """Both sides of the held-out look: per kind, k of n with Wilson 95 % (English and
    other languages apart), and the pairs whose verdict moved."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    out: dict[str, Any] = {"embedder": b["embedder"]}
    for name in HELD:
        ps = list(_tidy_fresh.load_halves(_tidy_fresh.SETS[name])["test"])
        for how in ("offline", "semantic"):
            key = f"{name}/{how}"
            rows: dict[str, Any] = {}
            for side, got in (("before", a), ("after", b)):
                per: dict[str, Any] = {}
                for kind in ("rewording", "update", "contradiction", "honest"):
                    what = "flagged" if kind in t33.THREE else "joined"
                    for group, keep in (("all", lambda p: True),
                                        ("en", lambda p: p.lang == "en"),
                                        ("other", lambda p: p.lang != "en")):  # fmt: skip
                        sel = [(p, v) for p, v in zip(ps, got[key], strict=True)
                               if p.kind == kind and keep(p)]  # fmt: skip
                        k = sum(_tidy_fresh.outcome(p, v)[what] for p, v in sel)
                        per[f"{kind}/{group}"] = _tidy_fresh.share(k, len(sel))
                    merged = sum(v == "merge" for p, v in zip(ps, got[key], strict=True)
                                 if p.kind == "honest")  # fmt: skip
                    per["honest/merged"] = merged
                rows[side] = per
            moved = [{"kind": p.kind, "lang": p.lang, "a": p.a, "b": p.b, "before": vo,
                      "after": vn}
                     for p, vo, vn in zip(ps, a[key], b[key], strict=True) if vo != vn]  # fmt: skip
            rows["moved"] = moved
            out[key] = rows
    return out


def _main(argv: list[str]) -> None:  # pragma: no cover - a tool for a round's check
    if argv[0] == "dump":
        dump(Path(argv[1]))
    elif argv[0] == "names":
        names(Path(argv[1]))
    elif argv[0] == "heldout":
        heldout(Path(argv[1]))
    elif argv[0] in ("diff", "held"):
        fn = diff if argv[0] == "diff" else held
        _tidy_fresh.show(fn(Path(argv[1]), Path(argv[2])), argv[3:])


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
