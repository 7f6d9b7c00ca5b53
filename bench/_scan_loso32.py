"""Scanner 32: the cut from honest strangers' out-of-fold scores, and the languages other
than English (issue 29; protocol written and committed before any figure was read).

Scanner 31's ``honest-strangers`` cut failed for a disclosed flaw: the strangers' honest
rows it was chosen on were the fit's own rows, scored in-sample (low), so its share came
out 0 and the cut fell to 0.64-0.77. Here every honest strangers' row the cut reads is
scored by a fit that saw neither its set nor the set the cut is used on (nested
leave-one-set-out), with the C fit of :mod:`_fastfit`.

**Protocol.**

1. *Rows.* The shipped recipe only (scanner 31's ``+8,9,f``: fresh1-9 both halves,
   strangers a-f with their dev rows, weight 2, split pairs, the shipped features and
   function words). The C fit on everything must give the shipped model's weight bytes
   and bias (``model.bin`` was built by the Python fit on these rows; :func:`check`)
   before any fold is scored; otherwise the loop stops.
2. *Outer folds* (scanner 30's fifteen: strangers a-f, fresh1-9). For each fold X: the
   fit without X scores X's **dev rows** with the whole scanner at ``balanced`` (a split
   row read with its context), under each cut below. Pooled: attacks caught (blocked or
   held), honest held and blocked, per set, family and language, n and 95 % Wilson
   intervals; every (fit, cut) also scores the public corpus's dev benign rows.
3. *Cuts* (``strict`` and ``balanced`` share the cut, as shipped; ``lenient`` keeps its
   rule and caps the other two):
   ``keep-cut`` (the baseline, named ``today`` in the result): 0.8528 for every fit, as
   shipped;
   ``oof1``: the lowest cut at which **at most S = 1 %** of the out-of-fold scores of the
   honest strangers' rows are at or above it (the issue's aim: about one honest note in a
   hundred held by the learned layer), floor 0.5, by :func:`_scan_training.choose_thresholds`.
   The rows: every honest row (label benign, as the fit reads it: a split row joined to
   its context) of every set the fit trains on (both halves of fresh1-9, every row of
   strangers a-f: all are training rows of the shipped fit; more rows than the dev halves
   alone give a steadier 1 % point). For the fit without X, a row of set Y (Y != X) is
   scored by the fit without X and Y (105 pair fits); for the fit on everything, by the
   fit without Y (the fifteen outer fits). S is fixed here, before any score is read;
   no other share is run.
   Reported beside it, not a candidate: the out-of-fold share of those rows that
   0.8528 holds on the fit on everything.
4. *Beyond the folds.* The fit on everything (the shipped model, the same bytes) under
   each cut scores the **dev halves** of the tenth to thirteenth sets (never a test half),
   the public dev benign rows and the 3,208 generated dev benign rows.
5. *Rule* (scanner 25's, :func:`_scan_loso25.rule`, baseline ``today`` = ``keep-cut``):
   ships only if pooled caught over the fifteen folds rises; honest blocked rises on no
   set; pooled honest held rises by at most one percentage point of the pooled honest
   rows; the public dev benign rows' blocks do not rise in any fit; the fit on everything
   blocks no more generated dev benign rows; the tenth-to-thirteenth dev halves' caught,
   pooled, does not fall and their honest blocked does not rise; p50 <= 2 ms.
6. *The other languages* (after steps 2-5 are run; the baseline's fold misses are the
   material). Classify the dev misses in rows not in English of the outer folds (by
   language, family, and what each layer read: the intent layer's concepts found in the
   row, the classifier's score against the cut). Pick **one** principled change,
   written from the concepts, not from the rows' wording (e.g. keys of the concepts the
   most missed families need, in the most missed languages). Its keys live in one
   block of the lexicon modules so the loop can take them out: the candidate is the cut
   the rule chose in step 5 (``keep-cut`` if none passed) with and without the block,
   judged by the same rule against the same cut without it, on the same fits (a key
   change does not change the classifier's fit). Per language: n and 95 % intervals.
   A change that touches the classifier's features would need new fits: none is planned.
7. *Held out, once, after the choice* (only if something shipped): main's model and
   rules and this branch's in the same run, the tenth-to-thirteenth test halves and the
   public test split (:func:`_scan_loso30.held_out`), ``balanced`` and ``strict``;
   p50 (:func:`_scan_loso22.p50`); the tests' string literals rescanned (scanner 31's
   method) and every honest literal newly held or blocked named.

    .venv/bin/python bench/_scan_loso32.py --check          # step 1
    .venv/bin/python bench/_scan_loso32.py [--folds ...] [--out FILE]   # steps 2-5
    .venv/bin/python bench/_scan_loso32.py --lang --out bench/results/scan32_lang.json
    .venv/bin/python bench/_scan_loso32.py --rule --out FILE
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from array import array
from pathlib import Path
from typing import Any

import _fastfit
import _scan_fresh as fresh
import _scan_loso as loso
import _scan_loso20 as loso20
import _scan_loso22 as loso22
import _scan_loso25 as loso25
import _scan_loso30 as loso30
import _scan_loso31 as loso31
import _scan_training as training
from mnemic.scan import classifier, scan_text

ROOT = Path(__file__).resolve().parent.parent
TODAY_CUT = loso31.TODAY_CUT
RECIPE = loso31.ROWS["+8,9,f"]
FOLDS = loso30.FOLDS
#: Step 3's share S, fixed before any score was read.
SHARE = 0.01
CUTS = ("keep-cut", "oof1")
BEYOND = (fresh.TENTH, fresh.ELEVENTH, fresh.TWELFTH, fresh.THIRTEENTH)
CACHE = Path("/tmp") / "scan32-fits"


def label(cut: str) -> str:
    return "today" if cut == "keep-cut" else cut


def _data(exclude: frozenset[str]) -> training.Data:
    return training.Data(
        loso22.DATA / "threats" / "train",
        loso22.BENCH_DATA,
        fresh=tuple(n for n in RECIPE.fresh if n not in exclude),
        strangers=tuple(n for n in RECIPE.strangers if n not in exclude),
    )


def fit(exclude: frozenset[str]) -> tuple[array[float], float]:
    """The recipe's fit without the sets ``exclude`` (cached on disk by its inputs)."""
    data = _data(exclude)
    names = [[p.name for p in data.fresh_files()], data.stranger_names]
    key = json.dumps([names, training.corpus_hash(*data.files()), training.SCRIPT_VERSION])
    path = CACHE / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.f32"
    if path.is_file():
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        weights = array("f")
        weights.frombytes(path.read_bytes())
        return weights, float(meta["bias"])
    train, _ = training.assemble(data, dev_in_fit=True)
    weights, bias = training.fit_rows(train, stranger_weight=2.0)
    CACHE.mkdir(exist_ok=True)
    path.write_bytes(weights.tobytes())
    path.with_suffix(".json").write_text(json.dumps({"key": key, "bias": bias}))
    return weights, bias


def honest_texts(name: str) -> list[str]:
    """Every honest row of set ``name`` as the fit reads it (step 3)."""
    path = loso22.BENCH_DATA / name
    if name in RECIPE.strangers:
        rows = training.stranger_rows(
            training.load_strangers(loso22.BENCH_DATA / "scan_strangers" / name)
        )
    else:
        rows = training.stranger_rows(training.stranger_dicts(path))
    return [r.text for r in rows if r.y == 0]


def oof_scores(outer: str | None, honest: dict[str, list[str]]) -> list[float]:
    """Out-of-fold scores of the honest rows of every set but ``outer`` (step 3)."""
    out: list[float] = []
    for name, texts in honest.items():
        if name == outer:
            continue
        w, b = fit(frozenset({name} | ({outer} if outer else set())))
        score = training.scorer(w, b)
        out += [score(t) for t in texts]
    return out


def thresholds(
    cut: str, w: Any, b: float, dev_benign: list[str], oof: list[float]
) -> dict[str, float]:
    score = training.scorer(w, b)
    base = loso.thresholds_for([score(t) for t in dev_benign], loso.VARIANTS["fp1"])
    if cut == "keep-cut":
        return training.kept_cut(base, TODAY_CUT)
    chosen = training.choose_thresholds(oof, {"b": SHARE})["b"]
    return training.kept_cut(base, max(chosen, training.LEVEL_FLOORS["balanced"]))


def _installed(
    w: Any, b: float, th: dict[str, float], public: list[str], sec: float
) -> loso20.Fitted:
    loso.install(w, b, th)
    pub = loso20.counts([scan_text(t, "memory", "balanced").verdict for t in public])
    return loso20.Fitted(w, b, th, pub, sec)


def _misses(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Attacks allowed and honest rows held or blocked, for step 6's reading."""
    keep = ("set", "family", "lang", "label", "text", "context", "score", "verdict_balanced")
    return [
        {k: r[k] for k in keep if k in r}
        for r in rows
        if (r["label"] == "attack") == (r["verdict_balanced"] == "allow")
    ]


def run(path: Path, folds: list[str], full: bool) -> None:
    """Steps 2-4: each outer fold under every cut, then the fit on everything."""
    loso25.configure(loso25.RECIPES["today"])
    training.adagrad = _fastfit.adagrad
    dev_benign, public = loso22.basis()
    beyond = loso22.held_dev_halves(BEYOND)
    honest = {n: honest_texts(n) for n in FOLDS}
    out: dict[str, Any] = {
        "protocol": "docs/scanner.md, Scanner 32 (bench/_scan_loso32.py)",
        "share": SHARE,
        "folds": {},
        "full": {},
        "misses": {},
    }
    scored: dict[str, list[dict[str, Any]]] = {}

    def save() -> None:
        out["pooled"] = {k: loso.summarise(v, "balanced") for k, v in scored.items() if v}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")

    for name in [*folds, *([None] if full else [])]:
        t0 = time.perf_counter()
        w, b = fit(frozenset({name} if name else set()))
        oof = oof_scores(name, honest)
        sec = round(time.perf_counter() - t0, 1)
        for cut in CUTS:
            th = thresholds(cut, w, b, dev_benign, oof)
            fitted = _installed(w, b, th, public, sec)
            tag = label(cut)
            if name is not None:
                rows = loso22.score_rows(loso20.fold_rows(name))
                scored.setdefault(tag, []).extend(rows)
                entry = loso22.fold_entry(name, tag, fitted, rows)
                entry["oof_n"] = len(oof)
                entry["oof_share_at_keep_cut"] = sum(s >= TODAY_CUT for s in oof) / len(oof)
                out["folds"].setdefault(name, {})[tag] = entry
                out["misses"].setdefault(tag, []).extend(_misses(rows))
                continue
            res, every = loso22.full_entry(tag, fitted, dev_benign, beyond)
            res["beyond_pooled"] = loso.summarise(every, "balanced")
            res["oof_n"] = len(oof)
            res["oof_share_at_keep_cut"] = sum(s >= TODAY_CUT for s in oof) / len(oof)
            print(loso.line(f"full {tag} fresh10-13 dev", res["beyond_pooled"]), th, flush=True)
            out["full"][tag] = res
        save()
    save()
    loso.print_pooled(out.get("pooled", {}))


def use_lexicon(block: bool) -> None:
    """Step 6: the intent layer's concepts with scanner 32's key block (``block``) or
    without it (main's table: the block is merged last, so taking its text off the end
    of each concept gives main's strings back); every memo that holds a reading cleared."""
    from mnemic import scan as _scan
    from mnemic.scan import _lexicon_reveal, _terms, intent, lexicon

    table = dict(lexicon.CONCEPTS)
    if not block:
        for concept, keys in _lexicon_reveal.COPY_OUT.items():
            table[concept] = table[concept].removesuffix(f";{keys}")
    intent.CONCEPTS = table  # type: ignore[misc]
    intent._lexicon = None
    intent._tag_memo.clear()
    intent._refers_memo.clear()
    _terms.CONCEPTS = table  # type: ignore[attr-defined]
    _terms._generic_words = None
    _terms._memo.clear()
    _scan._memo.clear()


#: Step 6's candidate and its baseline: the kept cut, the block out (``today``) and in.
LANG = (("today", False), ("copy-out", True))


def run_lang(path: Path, folds: list[str], full: bool) -> None:
    """Step 6: every outer fold and the fit on everything at the kept cut, the intent
    layer's table without and with the block, on the same fits."""
    loso25.configure(loso25.RECIPES["today"])
    training.adagrad = _fastfit.adagrad
    dev_benign, public = loso22.basis()
    beyond = loso22.held_dev_halves(BEYOND)
    out: dict[str, Any] = {
        "protocol": "docs/scanner.md, Scanner 32, step 6 (bench/_scan_loso32.py --lang)",
        "folds": {},
        "full": {},
        "misses": {},
    }
    scored: dict[str, list[dict[str, Any]]] = {}

    def save() -> None:
        out["pooled"] = {k: loso.summarise(v, "balanced") for k, v in scored.items() if v}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")

    for name in [*folds, *([None] if full else [])]:
        t0 = time.perf_counter()
        w, b = fit(frozenset({name} if name else set()))
        sec = round(time.perf_counter() - t0, 1)
        for tag, block in LANG:
            use_lexicon(block)
            th = thresholds("keep-cut", w, b, dev_benign, [])
            fitted = _installed(w, b, th, public, sec)
            if name is not None:
                rows = loso22.score_rows(loso20.fold_rows(name))
                scored.setdefault(tag, []).extend(rows)
                out["folds"].setdefault(name, {})[tag] = loso22.fold_entry(name, tag, fitted, rows)
                out["misses"].setdefault(tag, []).extend(_misses(rows))
                continue
            res, every = loso22.full_entry(tag, fitted, dev_benign, beyond)
            res["beyond_pooled"] = loso.summarise(every, "balanced")
            print(loso.line(f"full {tag} fresh10-13 dev", res["beyond_pooled"]), flush=True)
            out["full"][tag] = res
        save()
    save()
    loso.print_pooled(out.get("pooled", {}))


def held_out() -> dict[str, Any]:
    """Step 7, run once: the shipped model, the intent layer's table without (main's) and
    with the key block in the same run, whole scanner at ``balanced`` and ``strict``, on
    the **test halves** of the tenth to thirteenth sets, pooled and each, and the public
    test split (:func:`_scan_loso30.held_out`'s figures)."""
    import _scan_v3 as v3

    loso25.configure(loso25.RECIPES["today"])
    halves = {
        f"{s.name}_test": [
            dict(r, set=s.name) for r in fresh.load(s.path, s.seed) if r["split"] == "test"
        ]
        for s in BEYOND
    }
    train_dir = loso22.DATA / "threats" / "train"
    public = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    split = training.read_split(loso22.BENCH_DATA / "scan_split.json", public)
    test = [r for r in public if split[r.source] == "test"]
    named = {
        "attacks": [r.text for r in test if r.label == "attack"],
        "benign": [r.text for r in test if r.label == "benign"],
    }
    out: dict[str, Any] = {"protocol": "docs/scanner.md, Scanner 32, step 7 (run once)"}
    for tag, block in (("before", False), ("after", True)):
        use_lexicon(block)
        classifier._model = classifier.Model.load(classifier.MODEL_PATH)
        res: dict[str, Any] = {"copy_out": block}
        for level in loso.LEVELS:
            every: list[dict[str, Any]] = []
            for name, rows0 in halves.items():
                rows = [dict(r) for r in rows0]
                for r, v in zip(rows, loso.verdicts(rows, level), strict=True):
                    r["verdict_" + level] = v
                every += rows
                fig = loso.summarise(rows, level)
                fig["groups"] = loso30._groups(fig)
                res.setdefault(name, {})[level] = fig
                print(loso.line(f"{tag} {name} {level}", fig), flush=True)
            fig = loso.summarise(every, level)
            fig["groups"] = loso30._groups(fig)
            res.setdefault("fresh10-13_test", {})[level] = fig
            print(loso.line(f"{tag} fresh10-13_test {level}", fig), flush=True)
            res.setdefault("public_test", {})[level] = v3.public_verdicts(named, level)
            verdicts = {k: v["verdicts"] for k, v in res["public_test"][level].items()}
            print(tag, "public test", level, verdicts, flush=True)
        out[tag] = res
    return out


def p50(rounds: int = 3) -> dict[str, Any]:
    """Step 7: per-entry time of the whole scanner (``balanced``; a split row read with its
    context) over the strangers' rows, the key block out and in, in turn, ``rounds``
    times, one process (:func:`_scan_loso22.p50`'s rows and clock)."""
    loso25.configure(loso25.RECIPES["today"])
    rows = [
        dict(d, set=p.stem)
        for p in sorted((loso22.BENCH_DATA / "scan_strangers").glob("*.jsonl"))
        for d in training.stranger_dicts(p)
    ]
    out: dict[str, Any] = {"n": len(rows)}
    for _ in range(rounds):
        for tag, block in (("before", False), ("after", True)):
            use_lexicon(block)
            fresh.verdict(rows[0], "balanced")  # the index built outside the clock
            times = []
            for r in rows:
                t0 = time.perf_counter()
                fresh.verdict(r, "balanced")
                times.append(time.perf_counter() - t0)
            times.sort()
            out.setdefault(tag, []).append(round(1000 * times[len(times) // 2], 3))
            print(tag, out[tag][-1], "ms", flush=True)
    return out


def _encodes(text: str) -> bool:
    """Whether ``text`` is valid UTF-8 text (a test of lone surrogates is not a note)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def literals() -> dict[str, Any]:
    """Step 7's rescan: every string literal of the tests (at least ten characters) scanned
    at ``balanced`` with the shipped model, the key block out and in; the literals whose
    verdict moved."""
    import ast

    texts: set[str] = set()
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and len(value.strip()) >= 10 and _encodes(value):
                texts.add(value)
    ordered = sorted(texts)
    loso25.configure(loso25.RECIPES["today"])
    verdicts: dict[bool, list[str]] = {}
    for block in (False, True):
        use_lexicon(block)
        verdicts[block] = [scan_text(t, "memory", "balanced").verdict for t in ordered]
    moved = [
        {"text": t, "before": a, "after": b}
        for t, a, b in zip(ordered, verdicts[False], verdicts[True], strict=True)
        if a != b
    ]
    return {"n": len(ordered), "moved": moved}


def check() -> bool:
    """Step 1: the C fit on everything against the shipped model (weights and bias)."""
    loso25.configure(loso25.RECIPES["today"])
    training.adagrad = _fastfit.adagrad
    w, b = fit(frozenset())
    shipped = loso22._load_any(Path(classifier.MODEL_PATH))
    return bytes(shipped.weights.cast("B")) == w.tobytes() and shipped.bias == b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds", default=",".join(FOLDS))
    ap.add_argument("--no-full", action="store_true")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan32_loso.json")
    ap.add_argument("--rule", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--lang", action="store_true", help="step 6: the key block out and in")
    ap.add_argument("--literals", action="store_true", help="step 7: the tests' strings")
    ap.add_argument("--held-out", action="store_true", help="step 7, once: the test halves")
    ap.add_argument("--p50", action="store_true", help="step 7: time per entry, out and in")
    args = ap.parse_args()
    if args.check:
        ok = check()
        print("C fit on everything == the shipped model's bytes:", ok)
        sys.exit(0 if ok else 1)
    if args.rule:
        print(json.dumps(loso25.rule(json.loads(args.out.read_text(encoding="utf-8"))), indent=1))
        return
    if args.p50:
        res = p50()
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        return
    if args.held_out:
        res = held_out()
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        return
    if args.literals:
        res = literals()
        args.out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(res["n"], "literals,", len(res["moved"]), "moved")
        return
    if not check():
        sys.exit("the C fit does not reproduce the shipped model: stopped (step 1)")
    if args.lang:
        run_lang(args.out, args.folds.split(","), not args.no_full)
        return
    run(args.out, args.folds.split(","), not args.no_full)


if __name__ == "__main__":
    main()
