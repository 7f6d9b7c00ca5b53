"""Scanner 25: a refit with the sixth strangers' set, judged beyond its own fold (issue 29;
protocol written and committed before any figure was read).

**Protocol.**

1. *Folds.* Every strangers' training set (``scan_strangers/a-f.jsonl``) and the seven
   fresh sets trained on (fresh1-7): thirteen folds. For each fold X and each recipe:
   fit the recipe's rows without X (none of its rows), choose the thresholds by the
   shipped rule (1 % of the dev rows no stranger wrote, floor 0.5), install the model
   and score X's **dev rows** with the whole scanner at ``balanced`` (a split row read
   with its context), by :mod:`_scan_loso22`'s machinery. Pooled over the folds: attacks
   caught (blocked or held), honest held and blocked, per set, family and language, n
   and 95 % Wilson intervals. Each fit also scores the public corpus's dev benign rows.
2. *Beyond the fold.* A fit of each recipe on everything scores the **dev halves** of
   the eighth, ninth and tenth fresh sets (never a test half; ``scan_fresh11*`` is
   never opened), the public dev benign rows and every dev benign row the thresholds
   are chosen on. A recipe that gains only in its own fold does not ship.
3. *Recipes* (same rows otherwise: fresh1-7, dev rows in the fit, a strangers' row
   weighing 2, split pairs in the fit, the shipped function words):
   ``today``: scanner 22's fit as shipped (strangers a-e), the baseline in the same loop;
   ``f``: today's recipe with ``f.jsonl`` as training rows, weighing as a-e;
   ``f+ar``: ``f`` with Arabic's nominal negation "عدم" read as a negation and the verbal
   noun "حفظ" as *keep* by the intent layer, as scanner 23 proposed (so "عدم" leaves the
   classifier's function words: whole scanner and features change together);
   ``f+ar+shapes``: ``f+ar`` with the shape features on (``SHAPES_ON``), run last and only
   if the machine's time allows; not run, it cannot ship.
4. *Rule.* A recipe ships only if, against ``today`` in the same run: pooled caught (the
   thirteen folds) rises; honest blocked rises on no set (nor pooled); pooled honest held
   rises by at most one percentage point of the pooled honest rows; the public corpus's
   dev benign rows keep today's blocks at ``balanced`` in every fit; the fit on
   everything blocks no more of the dev benign rows the thresholds are chosen on; p50 per
   entry <= 2 ms; and, in the fit on everything, the eighth-to-tenth dev halves' caught
   (pooled over the three) does not fall and their honest blocked does not rise. Among
   the recipes that pass, the most pooled (fold) attacks caught wins; ties: fewer honest
   held, then the simpler. None passes: the model stays as it is, and the report says so.
5. *Shapes.* On only if a passing recipe uses them; otherwise they leave the product
   (``scan/features.py``) for ``bench/``, where a recipe can still build them.

    .venv/bin/python bench/_scan_loso25.py [--recipes today,f] [--folds ...]
        [--out bench/results/scan25_loso.json]
    .venv/bin/python bench/_scan_loso25.py --p50 OLD_MODEL --out FILE  # per-entry time
    .venv/bin/python bench/_scan_loso25.py --rule --out FILE  # each recipe against the rule
    .venv/bin/python bench/_scan_loso22.py --merge A.json,B.json --out FILE  # one table
    .venv/bin/python bench/_scan_loso22.py --table set|family|lang --out FILE

Writes the result after every fold; prints one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import _scan_fresh as fresh
import _scan_loso20 as loso20
import _scan_loso22 as loso22
from mnemic import scan as _scan
from mnemic.scan import _terms, classifier, features, intent, lexicon

ROOT = Path(__file__).resolve().parent.parent
STRANGERS_AE = ("a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl", "e.jsonl")
STRANGERS_AF = (*STRANGERS_AE, "f.jsonl")
#: The Arabic words scanner 23 proposed for the lexicon, by concept.
ARABIC = {"keep": "حفظ", "neg": "عدم"}
_AR_STOP = frozenset(w.encode() for w in ARABIC.values())
#: The function words before the Arabic words joined the lexicon (those of the shipped
#: model), and after.
STOP_WITHOUT_AR = features.STOP_WORDS | frozenset({"عدم".encode()})
STOP_WITH_AR = STOP_WITHOUT_AR - _AR_STOP
_CONCEPTS = dict(lexicon.CONCEPTS)


class Recipe(NamedTuple):
    strangers: tuple[str, ...]
    arabic: bool
    shapes: bool


RECIPES = {
    "today": Recipe(STRANGERS_AE, False, False),
    "f": Recipe(STRANGERS_AF, False, False),
    "f+ar": Recipe(STRANGERS_AF, True, False),
    "f+ar+shapes": Recipe(STRANGERS_AF, True, True),
}
#: The recipe shipped (chosen by the rule; docs/scanner.md, Scanner 25).
SHIPPED = "today"
#: The sets the fit on everything is judged on beyond the folds (their dev halves).
BEYOND = (fresh.EIGHTH, fresh.NINTH, fresh.TENTH)


def _keys(block: str) -> list[str]:
    return [k.strip() for k in block.split(";") if k.strip()]


def concepts(arabic: bool) -> dict[str, str]:
    """The lexicon's concepts with the Arabic words of :data:`ARABIC` in (``arabic``) or
    out, whichever the shipped lexicon has."""
    out = dict(_CONCEPTS)
    for concept, word in ARABIC.items():
        keys = [k for k in _keys(out[concept]) if k != word]
        out[concept] = "; ".join([*keys, word] if arabic else keys)
    return out


def configure(recipe: Recipe) -> None:
    """Features, fit, whole-store scan and intent lexicon of ``recipe`` (module
    switches; one recipe at a time in a process)."""
    loso22.configure(loso22.Recipe(recipe.shapes, True, True))
    features.STOP_WORDS = STOP_WITH_AR if recipe.arabic else STOP_WITHOUT_AR
    table = concepts(recipe.arabic)
    intent.CONCEPTS = table  # type: ignore[misc]
    intent._lexicon = None
    _terms.CONCEPTS = table  # type: ignore[misc]
    _terms._generic_words = None
    _terms._memo.clear()
    _scan._memo.clear()


def _before_after(old: Path) -> Iterator[tuple[str, classifier.Model]]:
    """``("before", the model file ``old`` under today's recipe)``, then ``("after", the
    shipped model under the shipped recipe)``, each installed (scan memo cleared)."""
    for tag, recipe, model in (
        ("before", RECIPES["today"], loso22._load_any(old)),
        ("after", RECIPES[SHIPPED], classifier.Model.load(classifier.MODEL_PATH)),
    ):
        configure(recipe)
        classifier._model = model
        _scan._memo.clear()
        yield tag, model


def rule(res: dict[str, Any]) -> dict[str, list[str]]:
    """Each recipe's failures of the protocol's rule (step 4) against ``today`` in a
    (merged) result file, the p50 aside; an empty list passes."""
    pooled, full, folds = res["pooled"], res.get("full", {}), res["folds"]
    base_full = full.get("today")
    out: dict[str, list[str]] = {}
    for name in pooled:
        if name == "today":
            continue
        why: list[str] = []
        both = [r for r in folds.values() if name in r and "today" in r]
        if len(both) < len(folds):
            why.append(f"only {len(both)} of {len(folds)} folds run")
        gained = sum(
            r[name]["attacks"]["caught"]["k"] - r["today"]["attacks"]["caught"]["k"] for r in both
        )
        if gained <= 0:
            why.append(f"pooled caught {gained:+d}")
        for fold, recipes in folds.items():
            if name in recipes and "today" in recipes:
                mine_f, today_f = recipes[name], recipes["today"]
                if mine_f["honest"]["block"] > today_f["honest"]["block"]:
                    why.append(f"{fold} honest blocked rose")
                if mine_f["public_dev_benign"]["block"] > today_f["public_dev_benign"]["block"]:
                    why.append(f"{fold} public dev benign blocked more")
        held = sum(r[name]["honest"]["hold"] - r["today"]["honest"]["hold"] for r in both)
        n_honest = sum(r["today"]["honest"]["n"] for r in both)
        if held > 0.01 * n_honest:
            why.append(f"pooled honest held +{held} of {n_honest}")
        mine = full.get(name)
        if mine is None or base_full is None:
            why.append("no fit on everything to judge beyond the folds")
        else:
            if mine["public_dev_benign"]["block"] > base_full["public_dev_benign"]["block"]:
                why.append("public dev benign blocked more (fit on everything)")
            if mine["fit_dev_benign"]["block"] > base_full["fit_dev_benign"]["block"]:
                why.append("fit dev benign blocked more")
            b, m = base_full["beyond_pooled"], mine["beyond_pooled"]
            if m["attacks"]["caught"]["k"] < b["attacks"]["caught"]["k"]:
                lost = b["attacks"]["caught"]["k"] - m["attacks"]["caught"]["k"]
                why.append(f"fresh8-10 dev caught -{lost}")
            if m["honest"]["block"] > b["honest"]["block"]:
                why.append("fresh8-10 dev honest blocked rose")
        out[name] = why
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recipes", default="today,f,f+ar")
    ap.add_argument("--folds", default=",".join(loso20.FRESH_FOLDS + STRANGERS_AF))
    ap.add_argument("--no-full", action="store_true", help="skip the fits on everything")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan25_loso.json")
    ap.add_argument("--p50", type=Path, help="time a previous model file against the shipped one")
    ap.add_argument("--rule", action="store_true", help="each recipe's failures in --out")
    args = ap.parse_args()
    if args.rule:
        res = rule(json.loads(args.out.read_text(encoding="utf-8")))
        print(json.dumps(res))
        return
    if args.p50:
        res = loso22.p50(args.p50, models=_before_after)
        configure(RECIPES[SHIPPED])
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        print(json.dumps(res))
        return
    chosen = {k: RECIPES[k] for k in args.recipes.split(",")}
    folds = args.folds.split(",")
    out: dict[str, Any] = {
        "protocol": "docs/scanner.md, Scanner 25 (bench/_scan_loso25.py)",
        "recipes": {k: r._asdict() for k, r in chosen.items()},
        "folds": {},
        "full": {},
    }
    beyond = None if args.no_full else loso22.held_dev_halves(BEYOND)
    loso22.fold_loop(
        args.out,
        out,
        chosen,
        folds,
        configure,
        lambda r: r.strangers,
        beyond,
        pooled=("beyond_pooled", "fresh8-10 dev"),
    )


if __name__ == "__main__":
    main()
