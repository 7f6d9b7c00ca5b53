"""Tidy 41: tidy 40's reading of English against another language, judged once on
tidy_fresh16's TEST half with check (d) redefined (issue 26).

**Where it starts.** Tidy 40 (``bench/_tidy40.py``, its code at ``f3706d5e``) read a
pair as two languages, with the embedder only, when one side reads as English and the
other writes three words or more, two or more in lower case, no English word and none
of the English side's lower-case words (:func:`mnemic.ops.tidy.across.english_and_another`).
On fresh10-16 DEV it won 7 rewordings, lost 0, joined no honest pair, offline unchanged;
its check (d), "unrelated cross-row pairs merged do not rise", failed by one pair:
fresh16 r062's a "Yacine prepares his show the evening before" against r111's b, "Një
mbrëmje më parë e përgatit Yacine emisionin e tij": one fact the set writes in two rows
(r062 in Vietnamese, r111 in Albanian), so not an unrelated pair.

**Disclosed: the DEV outcome of (d) was known when (d) was redefined here** (the one
pair above, read by tidy 40 after its decision). The new definition is written so that
it can be applied mechanically to pairs nobody has read (the test half's), not as a
list of dev pairs.

**(d), redefined (the rule, committed before the judging run).** A cross-row pair (row
i's a against row j's b, cosine >= 0.88, as tidy 40's ``unrelated``) counts as
*unrelated* unless the two rows state **the same fact** by this test:

* both rows are rewordings in the set (each row's a and b are one fact by its label,
  so each row has one fact), and
* the embedder reads the rows' four texts as one cluster: every cross cosine between
  {a_i, b_i} and {a_j, b_j} is >= 0.88 (tidy 35's ``UNRELATED_FLOOR``, the same floor
  the pool is drawn at), and
* the four texts write the same numbers (the multiset of digit runs of a_i equals that
  of a_j, b_i and b_j: two rows of one template with another number are two facts).

**Looked at on DEV before this rule was committed (disclosed)**: fresh16 dev's 224
cross-row pairs at cosine >= 0.88 (58 in pool *two*, 166 in *rest*), 18 of them
between two rewording rows; the test marks two, r062's a / r111's b (merged after,
cross cosines 0.905 / 0.911 / 0.891 / 0.897) and r111's a / r062's b (not merged).
(d) redefined on dev: pool *two* 0 -> 0 of 57, *rest* 3 -> 3 of 165 (tidy 40's: 0 -> 1
of 58, 3 -> 3 of 166). No other dev half and no test pair was read for it.

Pairs that fail the test stay in (d) exactly as tidy 40 counted them (pools *two* and
*rest*). Tidy 40's own (d) is reported beside it (``d_tidy40``), not a ship condition.

**Ship conditions, on fresh16's TEST half** (read once, both modes, rules + the
shipped model; before: main's src ``e814183f``, after: this branch with ``f3706d5e``'s
``across.py`` and ``meaning.py``; dumped the same minutes):

* (a) no honest pair newly joined (offline and with the embedder);
* (b) no rewording lost (either mode);
* (c) won - lost >= 0 over rewordings, updates and contradictions (either mode);
* (d) unrelated cross-row pairs of the test half merged (by the definition above) do
  not rise, pool *two* nor pool *rest*;
* (e) offline verdicts unchanged (every pair).

Commands: ``python bench/_tidy40.py heldout OUT`` and ``python bench/_tidy41.py
unrelated OUT`` under each tree, then ``python bench/_tidy41.py judge HB HA UB UA
[RESULT]``; ``python bench/_tidy41.py unrelated OUT dev`` for the dev look at the
redefinition (dev only, disclosed above).

**Measured once** (``bench/results/tidy41.json``; before main ``e814183f``, after
``e5d13f50``, the same minutes; multilingual-e5-small): fresh16 test (n 56 / 37 / 19 /
61 rewordings / updates / contradictions / honest). No verdict of the 173 pairs moved in
either mode (offline 14 / 7 / 7, honest joined 2; with the embedder 15 / 7 / 7, honest
joined 3; cross-language rewordings 2 of 18, 11.1 % [3.1, 32.8]): (a), (b), (c), (e)
hold. Unrelated cross-row pairs merged, by the definition above: pool *two* 4 -> 4 of
60, pool *rest* 4 -> **5** of 215: **(d) fails, not shipped**; ``src`` is main's (so
``unrelated`` under this tree is main's; the step is ``f3706d5e``). Read after the
decision: the pair is "Ilse is on five shifts a week" (u009's a, an update row) / "Ilse
má pět směn týdně" (r059's b; r059's a "Ilse works five shifts a week"), one fact the
set writes in two rows, not marked because u009 is not a rewording row. The rule was
not changed after the run. Tidy 40's (d) on the same dump: 5 -> 5 / 4 -> 5.

Usage::

    python bench/_tidy41.py unrelated OUT [test|dev]
    python bench/_tidy41.py judge HELD_BEFORE HELD_AFTER UNREL_BEFORE UNREL_AFTER [RESULT]
    python bench/_tidy41.py devlook UNREL_BEFORE UNREL_AFTER [RESULT]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import _tidy37 as t37
import _tidy40 as t40
import _tidy_fresh
import _tidy_pairfit33 as t33

SET = "fresh16"
FLOOR = t37.t35.UNRELATED_FLOOR
_DIGITS = re.compile(r"\d+")


def _half(half: str) -> list[Any]:
    return list(_tidy_fresh.load_halves(_tidy_fresh.SETS[SET])[half])


def unrelated(out: Path, half: str = "test") -> None:
    """One side: every cross-row pair of fresh16's ``half`` (a_i against b_j) at cosine
    >= 0.88 through ``plan`` with the embedder, rules + the shipped model; each with its
    pool (tidy 35's reading: *two* or *rest*), the rows' kinds and the four cross
    cosines the same-fact test reads."""
    import numpy as np

    ps = _half(half)
    vecs = t37._vectors([p.a for p in ps] + [p.b for p in ps])
    va = np.asarray([np.asarray(v) for v in vecs[: len(ps)]])
    vb = np.asarray([np.asarray(v) for v in vecs[len(ps) :]])
    ab, aa, ba, bb = va @ vb.T, va @ va.T, vb @ va.T, vb @ vb.T
    judged = []
    for i, r in enumerate(ps):
        for j, q in enumerate(ps):
            c = float(ab[i, j])
            if i == j or r.a == q.b or c < FLOOR:
                continue
            p = _tidy_fresh.FreshPair("", "unrelated", "", "", "", r.a, q.b)
            fixed = lambda x, y, c=c: c  # noqa: E731 - the pair's own cosine
            cross = [c, float(aa[i, j]), float(ba[i, j]), float(bb[i, j])]
            judged.append({
                "i": r.id, "j": q.id, "a": r.a, "b": q.b, "cosine": round(c, 4),
                "pool": "two" if t37._two(r.a, q.b) else "rest",
                "kinds": [r.kind, q.kind], "cross": [round(x, 4) for x in cross],
                "digits": [sorted(_DIGITS.findall(t)) for t in (r.a, r.b, q.a, q.b)],
                "verdict": _tidy_fresh.verdict(p, fixed, True),
            })  # fmt: skip
    out.write_text(json.dumps({"half": half, "pairs": judged}, ensure_ascii=False))
    print(SET, half, len(judged), flush=True)


def same_fact(x: dict[str, Any]) -> bool:
    """The same-fact test of the module docstring (decided from the dump alone)."""
    return (
        x["kinds"] == ["rewording", "rewording"]
        and min(x["cross"]) >= FLOOR
        and all(d == x["digits"][0] for d in x["digits"])
    )


def _unrelated(a: dict[str, Any], b: dict[str, Any], redefined: bool) -> dict[str, Any]:
    old = {(x["i"], x["j"]): x["verdict"] for x in a["pairs"]}
    out: dict[str, Any] = {}
    for pool in ("two", "rest"):
        merged, new, gone, n, left_out = {"before": 0, "after": 0}, [], [], 0, 0
        for x in b["pairs"]:
            if x["pool"] != pool:
                continue
            if redefined and same_fact(x):
                left_out += 1
                continue
            n += 1
            was, v = old[(x["i"], x["j"])], x["verdict"]
            merged["before"] += was == "merge"
            merged["after"] += v == "merge"
            row = {k: x[k] for k in ("i", "j", "a", "b", "cosine", "cross")}
            if v == "merge" and was != "merge":
                new.append(row | {"before": was})
            elif was == "merge" and v != "merge":
                gone.append(row | {"after": v})
        out[pool] = {"judged": n, "same_fact_left_out": left_out, "merged": merged,
                     "new": new, "gone": gone}  # fmt: skip
    return out


def judge(hb: Path, ha: Path, ub: Path, ua: Path) -> dict[str, Any]:
    """The rule's decision on the test half (see the module docstring)."""
    t40.t39.HELD = t40.HELD
    out = t40.held(hb, ha)
    a, b = json.loads(hb.read_text()), json.loads(ha.read_text())
    ps = _half("test")
    keep: dict[str, bool] = {}
    for how in ("offline", "semantic"):
        key = f"{SET}/{how}"
        won = lost = lost_rw = honest_new = 0
        for p, vo, vn in zip(ps, a[key], b[key], strict=True):
            fo, fn = _tidy_fresh.outcome(p, vo), _tidy_fresh.outcome(p, vn)
            if p.kind in t33.THREE and fo["flagged"] != fn["flagged"]:
                won += fn["flagged"]
                lost += fo["flagged"]
                lost_rw += fo["flagged"] and p.kind == "rewording"
            elif p.kind not in t33.THREE:
                honest_new += fn["joined"] and not fo["joined"]
        n3 = sum(p.kind in t33.THREE for p in ps)
        lo, hi = t33.paired(won, lost, n3)
        out[key]["won_lost"] = {"won": won, "lost": lost, "n": n3,
                                "paired_ci95": [round(lo, 2), round(hi, 2)]}  # fmt: skip
        kinds = Counter(p.kind for p in ps)
        out[key]["n_by_kind"] = dict(kinds)
        keep[f"{how}/a_no_honest_newly_joined"] = honest_new == 0
        keep[f"{how}/b_no_rewording_lost"] = lost_rw == 0
        keep[f"{how}/c_wins_ge_0"] = won - lost >= 0
    keep["e_offline_unchanged"] = a[f"{SET}/offline"] == b[f"{SET}/offline"]
    u0, u1 = json.loads(ub.read_text()), json.loads(ua.read_text())
    assert u0["half"] == u1["half"] == "test"
    d = _unrelated(u0, u1, redefined=True)
    out["unrelated"] = d
    out["d_tidy40"] = _unrelated(u0, u1, redefined=False)
    keep["d_unrelated_no_rise"] = all(
        d[p]["merged"]["after"] <= d[p]["merged"]["before"] for p in d
    )
    out["keep"] = keep
    out["ship"] = all(keep.values())
    return out


def dev_look(ub: Path, ua: Path) -> dict[str, Any]:
    """The redefinition on fresh16's dev half (disclosed: tidy 40's outcome was known)."""
    u0, u1 = json.loads(ub.read_text()), json.loads(ua.read_text())
    assert u0["half"] == u1["half"] == "dev"
    return {"redefined": _unrelated(u0, u1, True), "d_tidy40": _unrelated(u0, u1, False)}


def _main(argv: list[str]) -> None:  # pragma: no cover - a tool for a round's check
    if argv[0] == "unrelated":
        unrelated(Path(argv[1]), argv[2] if len(argv) > 2 else "test")
        return
    if argv[0] == "judge":
        res, rest = judge(*(Path(x) for x in argv[1:5])), argv[5:]
    else:
        res, rest = dev_look(Path(argv[1]), Path(argv[2])), argv[3:]
    text = json.dumps(res, ensure_ascii=False, indent=1)
    if rest:
        Path(rest[0]).write_text(text + "\n", "utf-8")
    print(text)


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
