"""Tidy 35: one fact said again in another language, with the embedder (issue 26 §3).

**What was read before the rule was written** (fresh10-13's DEV halves, and for the
unrelated pairs every dev row: the strangers' ``a``-``f`` whole and every fresh set's
dev half; no test half). With multilingual-e5-small, the pairs that change language
(the writers' ``language_switch``, ``code_mix``, ``transliteration`` tags, ``lang``
``mixed``) are mostly left apart: of fresh10-13 dev's 74 such rewordings 13 were flagged
with the embedder (rules and model), their cosines 0.795-0.974, median 0.885. The gate of
tidy 18 joins two languages from 0.925. Of the 43 rewordings that
:func:`mnemic.ops.tidy.across.two_languages` reads as two languages and the embedder
still missed, 20 pass the vetoes (numbers, names, negation, slots) and sit at 0.82-0.95;
the rest are kept apart by a number, month or weekday the other language writes in words
or a script no table reads (10), a name not transliterated (6), a slot or negation (6);
21 more are not read as two languages at all (languages without a function-word table,
code-mixed entries). Cross-language honest pairs, updates and contradictions are few
(fresh10-13 dev: 5 honest tagged ``mixed``, 0.86-0.98, all kept apart by a number or a
name; across every dev row 27 honest, 14 updates, 11 contradictions read as two
languages). The decisive figure is what e5 gives **unrelated** entries of one store in
two languages: over every dev set, an entry against another row's entry (a of one pair,
b of another), two scripts, median 0.80, 99th percentile 0.874, 99.9th 0.898. A floor
lowered alone to 0.88 would join hundreds of them; most of those name nothing both
write, so the floor may drop only where a value carries the pair.

**The rule** (:func:`mnemic.ops.tidy.meaning.same_meaning`, with the embedder only;
offline nothing changes, so the pair model's probe digest and file stay):

1. *Two languages* is read as before (:func:`.meaning.languages_differ`) **or** by
   :func:`.across.two_languages` (a main script each, three quarters of the letters; or
   English against one of 33 Latin-letter languages by their function words).
2. Such a pair keeps tidy 18's floor (``meaning_cosine_across``, 0.925) and vetoes
   (numbers and slots, negation, an update marker, "also", look-alike identifiers,
   names the other side does not write in Latin letters).
3. **New, anchored floor** ``Thresholds.meaning_cosine_anchored`` = **0.88** when the pair
   is carried by a value both write and no value read in each language tells them apart:
   at least one anchor (a name both write, letter for letter in one script, by
   transliteration across two, or a number, month or weekday both state:
   :func:`.across._side`), the same numbers, months and weekdays on both sides, no name
   one writes that the other does not (:func:`.across._unwritten`; a German noun counted
   as a name unless both sides read the same attribute, as :func:`.across.across` does),
   besides the vetoes of 2.
4. A **colour veto** for every pair judged across languages (2 and 3): both name a colour
   (a table of colour words in the languages tidy reads) and not the same ones ("grey
   Skoda Octavia" / "blauer Skoda Octavia": two cars).

**Keep-rule, written before the measure** (``python bench/_tidy35.py dump OUT`` under
main's ``src`` at the branch point, ``a076d140``, and under this branch; then
``python bench/_tidy35.py diff BEFORE AFTER``), each pair through ``plan`` with the
embedder's cosine, rules and the shipped pair model (what a user of ``mnemic[semantic]``
gets), fresh10-13's dev halves:

* (a) rewordings, updates and contradictions flagged together rise (after − before > 0);
* (b) the paired excess of honest pairs joined (after − before) has its 95 % lower end at
  most 0 (the interval of tidy 34: (b − c) ± 1.96 √(b + c − (b − c)² / n));
* (c) **unrelated entries** (added by this round, because the labelled pairs hold almost
  no cross-language look-alike): every dev row's a against every other row's b of the
  same set, read as two languages by the rule's reading, cosine ≥ 0.88 (below it no
  verdict can move); the pairs merged after and not before are at most **0.01 %** of all
  those cross-row two-language pairs (the generated stores' unrelated false-merge share).

Ship when (a), (b) and (c) hold; else take the rule out and report it. Measured once; a
repeat (a crash, a wrong tree) is reported. Offline figures are reported (they must not
move). The held-out runs (fresh13's and fresh12's test halves, before and after, offline
and with the embedder) come once, after everything is final.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import _tidy_fresh
import _tidy_pairfit33 as t33
import _tidy_pairfit34 as t34

SETS = ("fresh10", "fresh11", "fresh12", "fresh13")
"""The keep-rule's labelled data: these sets' dev halves."""
UNRELATED_FLOOR = 0.88
"""Below this cosine no verdict of the rule can move: unrelated pairs under it are
counted in the denominator only."""


def _dev(name: str) -> list[Any]:
    return list(_tidy_fresh.load_halves(_tidy_fresh.SETS[name])["dev"])


def _unrelated_rows() -> dict[str, list[dict[str, Any]]]:
    """Every dev row by set (the strangers' files whole, every fresh set's dev half)."""
    import tidy_vetoes

    out: dict[str, list[dict[str, Any]]] = {}
    for r in tidy_vetoes.rows():
        out.setdefault(r["set"], []).append(r)
    return out


def _two(ta: str, tb: str) -> bool:
    """The rule's reading of two languages (step 1), the same under both trees."""
    from mnemic.ops.tidy.across import two_languages
    from mnemic.ops.tidy.meaning import languages_differ
    from mnemic.ops.tidy.signals import profile

    a, b = profile(ta), profile(tb)
    return languages_differ(a, b) or two_languages(a, b)


def dump(out: Path) -> None:
    """One side of the keep-rule: verdicts of fresh10-13's dev halves (with the embedder
    and offline, rules and model, rules alone) and of the unrelated cross-row pairs."""
    import numpy as np

    import tidy_pairs

    pairs = {s: _dev(s) for s in SETS}
    rows = _unrelated_rows()
    texts = [t for s in SETS for p in pairs[s] for t in (p.a, p.b)]
    texts += [t for rs in rows.values() for r in rs for t in (r["a"], r["b"])]
    cosine, model_id = tidy_pairs.embedder_cosine(texts)
    if cosine is None:
        raise SystemExit("the embedder is needed")
    got: dict[str, Any] = {"embedder": model_id, "labelled": {}, "unrelated": {}}
    for how, cos, learned in (("model_e", cosine, True), ("rules_e", cosine, False),
                              ("model", None, True)):  # fmt: skip
        got["labelled"][how] = {
            s: [_tidy_fresh.verdict(p, cos, learned) for p in pairs[s]] for s in SETS
        }
        print(how, flush=True)
    from mnemic.sessions.search.retrieval import default_embedder_loader

    emb = default_embedder_loader()

    def matrix(ts: list[str]) -> Any:
        vs = [emb.embed_passages(ts[i : i + 64]) for i in range(0, len(ts), 64)]
        return np.concatenate([np.asarray(v) for v in vs])

    total = 0
    for s, rs in rows.items():
        left, right = matrix([r["a"] for r in rs]), matrix([r["b"] for r in rs])
        cos = left @ right.T
        count, judged = 0, []
        for i, r in enumerate(rs):
            for j, q in enumerate(rs):
                if i == j or r["a"] == q["b"] or not _two(r["a"], q["b"]):
                    continue
                count += 1
                c = float(cos[i, j])
                if c >= UNRELATED_FLOOR:
                    p = _tidy_fresh.FreshPair("", "unrelated", "", "", "", r["a"], q["b"])
                    fixed = lambda x, y, c=c: c  # noqa: E731 - the pair's own cosine
                    judged.append([r["a"], q["b"], round(c, 4),
                                   _tidy_fresh.verdict(p, fixed, True)])  # fmt: skip
        total += count
        got["unrelated"][s] = {"pairs": count, "judged": judged}
        print(s, count, len(judged), flush=True)
    got["unrelated_pairs"] = total
    out.write_text(json.dumps(got, ensure_ascii=False))


def diff(before: Path, after: Path) -> dict[str, Any]:
    """The keep-rule's counts: (a) and (b) per mode, (c) the unrelated pairs merged after
    and not before, and the decision."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    out: dict[str, Any] = {"embedder": b["embedder"], "modes": {}}
    for how in ("model_e", "rules_e", "model"):
        cmp = t33.compare(a["labelled"][how], b["labelled"][how], SETS, _dev)
        excess = t34.honest_excess(cmp)
        fl = cmp["flagged"]
        out["modes"][how] = {
            "total_before_after": cmp["total"],
            "flagged": {"before": fl["old"], "after": fl["rebuilt"], "n": fl["n"],
                        "after_minus_before_ci95": [-x for x in reversed(fl["old_lead_ci95"])]},
            "honest_excess": excess,
            "lost": cmp["rebuilt_worse_pairs"],
            "won": cmp["rebuilt_better_pairs"],
        }  # fmt: skip
    new, gone = [], []
    for s, side in b["unrelated"].items():
        old = {(x[0], x[1]): x[3] for x in a["unrelated"][s]["judged"]}
        for ta, tb, c, v in side["judged"]:
            was = old.get((ta, tb), "none")
            if v == "merge" and was != "merge":
                new.append({"set": s, "a": ta, "b": tb, "cosine": c, "before": was})
            elif was == "merge" and v != "merge":
                gone.append({"set": s, "a": ta, "b": tb, "cosine": c, "after": v})
    n = b["unrelated_pairs"]
    m = out["modes"]["model_e"]
    keep = {
        "a_flagged_rise": m["flagged"]["after"] - m["flagged"]["before"] > 0,
        "b_honest_excess_low_le_0": m["honest_excess"]["ci95"][0] <= 0,
        "c_unrelated_new_merges_share_le_0.0001": len(new) <= 0.0001 * n,
    }
    out["unrelated"] = {"pairs": n, "new_merges": len(new), "share": len(new) / n if n else None,
                        "unmerged": len(gone), "new": new, "gone": gone}  # fmt: skip
    out["keep"] = {**keep, "ship": all(keep.values())}
    return out


HELD_OUT = ("fresh13", "fresh12")
"""The test halves read once, after everything is final (before: main's tree at the
branch point; after: this branch's)."""


def heldout(out: Path) -> None:
    """One side of the held-out look: :data:`HELD_OUT`'s test halves, each pair through
    ``plan`` with the tree's shipped model, offline and with the embedder; verdicts and
    per-kind summaries (Wilson 95 %) into ``out``."""
    import tidy_pairs

    halves = {s: list(_tidy_fresh.load_halves(_tidy_fresh.SETS[s])["test"]) for s in HELD_OUT}
    texts = [t for ps in halves.values() for p in ps for t in (p.a, p.b)]
    cosine, model_id = tidy_pairs.embedder_cosine(texts)
    if cosine is None:
        raise SystemExit("the embedder is needed")
    got: dict[str, Any] = {"embedder": model_id}
    for s, ps in halves.items():
        for how, cos in (("offline", None), ("semantic", cosine)):
            vs = [_tidy_fresh.verdict(p, cos, True) for p in ps]
            summary = _tidy_fresh.summary(ps, vs)
            got[f"{s}/{how}"] = {"verdicts": vs, "summary": tidy_pairs.brief(summary)}
            print(s, how, _tidy_fresh.line(s, summary), flush=True)
    out.write_text(json.dumps(got, ensure_ascii=False, indent=1))


def _main(argv: list[str]) -> None:  # pragma: no cover - a tool for a round's check
    if argv[0] == "dump":
        dump(Path(argv[1]))
    elif argv[0] == "heldout":
        heldout(Path(argv[1]))
    elif argv[0] == "diff":
        _tidy_fresh.show(diff(Path(argv[1]), Path(argv[2])), argv[3:])


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
