"""Tidy 36: the cross-language gate's weak anchors (issue 26; fresh10-13 DEV halves only).

Tidy 35 shipped an anchored floor (0.88, with the embedder only) for pairs read as two
languages and carried by a value both write (:func:`mnemic.ops.tidy.across.anchored`).
It left, from its dev reading and its one held-out look: (1) a first word both sides
write in the same place counted as an anchor (the items of an Irish agenda, "Rudaí le
plé ag an gcruinniú: cíos na bplotaí" / "...: an leithreas nua", merged); (2)
:func:`.quantities.language`, which knows seven languages, trusted for languages it does
not know (Irish "le" read as French, "an" as English: two languages); (3) a number alone
anchored a pair whatever it counts ("Passwords must be at least 12 characters" / "Le
cluster a 12 nœuds", "3000 гривень" / "3000円"); (4) of 742,762 unrelated cross-row
two-language pairs of every dev set, 61 newly merged, about 48 of them carried by a
single number or name.

**The rule changes** (with the embedder only, the anchored floor only: tidy 18's 0.925
gate, its reading of two languages and its vetoes stay; offline nothing reads them):

1. **A first word both write in the same place is no anchor**: a side's first word
   (written with a capital) anchors only where the other side writes it elsewhere than
   as its own first word (:func:`.across._named`); a name both write anywhere else
   anchors as before.
2. **Two languages surely** (:func:`.across.surely_two`), for the anchored floor: two
   main scripts, or no script in common, or one side read as English and the other as
   another language by the function words of **every** language
   :data:`.across._FUNCTION` holds (34, Irish, Maltese, Romanian among them; the one
   that leads alone, :func:`.across._read`). A pair read as two languages only by
   :func:`.quantities.language` (or by :func:`.across.two_languages`' English-against-
   other when the full table reads otherwise or ties) keeps tidy 18's 0.925.
3. **A number alone needs the same measure**: a number both state anchors only when
   :func:`.quantities.reading` reads an amount, time of day or date on both sides in one
   dimension with a value in common ("80 L" / "80 litres" anchors; "12 characters" /
   "12 nœuds" does not); a month or weekday both state anchors as before (it is its own
   measure); numbers must still be the same on both sides.

**Keep-rule, written before the measure** (``python bench/_tidy35.py dump OUT`` under
main's ``src`` at the branch point ``80c24a04`` and under this branch, in the same
minutes; ``python bench/_tidy36.py diff BEFORE AFTER``), every pair through ``plan``
with the embedder's cosine, rules and the shipped pair model, fresh10-13's DEV halves;
and for unrelated pairs every dev row's a against every other row's b of the same set,
read as two languages (tidy 35's reading), cosine ≥ 0.88. Ship when all hold:

* (a) the **unrelated cross-row pairs merged fall** (after < before);
* (b) the paired excess of honest pairs joined (after − before) has its 95 % lower end
  at most 0 (tidy 34's interval);
* (c) **rewordings flagged do not fall beyond their interval**: the paired change in
  rewordings flagged (after − before) has its 95 % upper end at least 0;
* (d) offline (rules + model) every verdict is identical.

Measured once; a repeat (a crash, a wrong tree) is reported. No held-out run this round:
fresh12's and fresh13's test halves were read by tidy 35, and fresh10/11's are kept for
a later round.

**Measured once** (both dumps in the same minutes, ``bench/results/tidy36.json``), with
the embedder, rules and the shipped model, fresh10-13 dev: rewordings flagged 124 ->
**120** of 285 (4 lost, none won: after − before 95 % [−7.9, −0.1]); updates 76 / 76,
contradictions 48 / 48; honest joined 20 -> 20 of 299 (excess [0, 0]); rules alone,
rewordings 113 -> 108; offline every verdict identical; unrelated cross-row pairs merged
120 -> **70** of 742,762 (50 unmerged, none new). (a), (b), (d) hold, **(c) fails: not
shipped**; the rule was taken out of ``src`` (it is in this branch's first commit).
Read after the decision, by which change: the 4 rewordings lost, 3 to rule 3 (a count,
"120 pupils" / "120 تلميذًا"; "8 percent" / "8 प्रतिशत", percent read by no table; a gate
code, "4471") and 1 to rule 1 ("Priya ..." / "Priya amekuwa ...", Swahili); the 50
unrelated pairs unmerged, 28 by rule 3, 17 by rule 2 (none of them a lost rewording;
some are one fact the sets write twice, "Il coro ha 42 membri" / "The choir has 42
members"), 5 by rule 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import _tidy35 as t35
import _tidy_pairfit33 as t33


def _paired(rows: list[dict[str, Any]], kind: str, n: int) -> dict[str, Any]:
    """The paired change after − before of one kind flagged, from the changed pairs."""
    lost = sum(1 for p in rows if p["kind"] == kind and p["_lost"])
    won = sum(1 for p in rows if p["kind"] == kind and not p["_lost"])
    lo, hi = t33.paired(lost, won, n)
    return {"lost": lost, "won": won, "n": n, "after_minus_before_ci95": [-hi, -lo]}


def diff(before: Path, after: Path) -> dict[str, Any]:
    """The keep-rule's counts and the decision (tidy 35's counts, with this round's rule)."""
    out = t35.diff(before, after)
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    merged = {}
    for name, side in (("before", a), ("after", b)):
        merged[name] = sum(1 for s in side["unrelated"].values()
                           for x in s["judged"] if x[3] == "merge")  # fmt: skip
    m = out["modes"]["model_e"]
    changed = [{**p, "_lost": True} for p in m["lost"]] + [{**p, "_lost": False} for p in m["won"]]
    n_rew = m["total_before_after"]["rewording"]["n"]
    rew = _paired(changed, "rewording", n_rew)
    for p in (*m["lost"], *m["won"]):
        p.pop("_lost", None)
    offline_same = a["labelled"]["model"] == b["labelled"]["model"]
    keep = {
        "a_unrelated_merged_fall": merged["after"] < merged["before"],
        "b_honest_excess_low_le_0": m["honest_excess"]["ci95"][0] <= 0,
        "c_rewordings_change_high_ge_0": rew["after_minus_before_ci95"][1] >= 0,
        "d_offline_identical": offline_same,
    }
    out["unrelated"]["merged"] = merged
    out["rewordings"] = rew
    out["keep_tidy35"] = out.pop("keep")
    out["keep"] = {**keep, "ship": all(keep.values())}
    return out


def _main(argv: list[str]) -> None:  # pragma: no cover - a tool for a round's check
    if argv[0] == "diff":
        result = diff(Path(argv[1]), Path(argv[2]))
        text = json.dumps(result, ensure_ascii=False, indent=1)
        if len(argv) > 3:
            Path(argv[3]).write_text(text + "\n", "utf-8")
        print(text)


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
