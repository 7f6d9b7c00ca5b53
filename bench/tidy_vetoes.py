"""Tidy 20: the rules' honest joins, before and after its vetoes, on dev data only.

    ./x bench tidy_vetoes [--before REV] [--offline] [--save NAME]

Every pair of the strangers' files (``bench/data/tidy_strangers/a-f.jsonl``, whole: they
are dev and train data) and of every fresh set's **dev** half (never a test half) goes
through :func:`mnemic.ops.tidy.plan.plan` alone, rules alone and with the shipped pair
model, offline and with the embedder's cosine (one pair embedded at a time), twice in
one run: with the code at ``REV`` (**before**; default ``main``, where a branch started from:
``git archive`` of its ``src`` into a temporary directory, run in a child process) and
with this checkout's (**after**). Per set and pooled, k/n with Wilson 95 % intervals:
rewordings flagged, updates and contradictions flagged (superseded, the newer kept) and
merged, honest pairs joined (any proposal) and merged. Lists every pair whose verdict
changed. Prints one JSON object on the last line and saves
``bench/results/tidy_vetoes.json`` (``--save NAME``: ``NAME.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
MODES = ("rules", "model", "rules_e", "model_e")
"""Rules alone and with the pair model, offline and with the embedder (``_e``)."""


def rows() -> list[dict[str, Any]]:
    """The dev rows: the strangers' files whole, every fresh set's dev half (never a test half)."""
    import _tidy_fresh

    out: list[dict[str, Any]] = []
    for name in "abcdef":
        path = ROOT / "data" / "tidy_strangers" / f"{name}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append({**json.loads(line), "set": name})
    for which in _tidy_fresh.SETS.values():
        for p in _tidy_fresh.load_halves(which)["dev"]:
            out.append({"id": p.id, "kind": p.kind, "subtype": p.subtype, "a": p.a, "b": p.b,
                        "set": which.name})  # fmt: skip
    return out


def verdicts(rs: list[dict[str, Any]], cosines: list[float] | None) -> list[dict[str, str]]:
    """What tidy proposes for each row, per mode (``merge``, ``supersede``: b kept,
    ``supersede-old``: a kept, ``none``)."""
    from mnemic.ops.tidy.plan import plan

    def one(r: dict[str, Any], learned: bool, cos: float | None) -> str:
        m = None if cos is None else [[1.0, cos], [cos, 1.0]]
        for q in plan("memory", [r["a"], r["b"]], [1.0, 2.0], now=3.0, stale_after_days=90,
                      verbose_chars=10_000, cosines=m, learned=learned):  # fmt: skip
            if set(q.entries) >= {r["a"], r["b"]}:
                if q.kind == "merge":
                    return "merge"
                return "supersede" if q.entries[0] == r["b"] else "supersede-old"
        return "none"

    out = []
    for k, r in enumerate(rs):
        v = {"rules": one(r, False, None), "model": one(r, True, None)}
        if cosines is not None:
            v["rules_e"], v["model_e"] = one(r, False, cosines[k]), one(r, True, cosines[k])
        out.append(v)
    return out


def counts(rs: list[dict[str, Any]], vs: list[dict[str, str]], mode: str) -> dict[str, Any]:
    from _metrics import wilson

    c: Counter[str] = Counter()
    for r, v in zip(rs, vs, strict=True):
        k, x = r["kind"], v[mode]
        c[f"{k}.n"] += 1
        if k == "rewording":
            c[f"{k}.flagged"] += x != "none"
        elif k == "honest":
            c[f"{k}.joined"] += x != "none"
            c[f"{k}.merged"] += x == "merge"
        else:
            c[f"{k}.flagged"] += x == "supersede"
            c[f"{k}.merged"] += x == "merge"

    def share(what: str, kind: str) -> dict[str, Any]:
        k, n = c[f"{kind}.{what}"], c[f"{kind}.n"]
        return {"k": k, "n": n, "ci95": wilson(k, n)}

    return {
        "rewordings_flagged": share("flagged", "rewording"),
        "updates_flagged": share("flagged", "update"),
        "updates_merged": share("merged", "update"),
        "contradictions_flagged": share("flagged", "contradiction"),
        "contradictions_merged": share("merged", "contradiction"),
        "honest_joined": share("joined", "honest"),
        "honest_merged": share("merged", "honest"),
    }


def _per_set(
    rs: list[dict[str, Any]],
    name: str,
    before: list[dict[str, str]],
    after: list[dict[str, str]],
    modes: list[str],
) -> dict[str, Any]:
    """One set's counts, per mode, before and after."""
    mine = [k for k, r in enumerate(rs) if r["set"] == name]
    rows_of = [rs[k] for k in mine]
    return {
        m: {
            w: counts(rows_of, [vs[k] for k in mine], m)
            for w, vs in (("before", before), ("after", after))
        }
        for m in modes
    }


def _child(rev: str, rows_file: Path, out: Path) -> None:
    """Run this script's verdicts with the code at ``rev`` in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "src.tar"
        subprocess.run(["git", "archive", "-o", str(archive), rev, "src"], cwd=ROOT.parent,
                       check=True)  # fmt: skip
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        subprocess.run([sys.executable, __file__, "--child", str(rows_file), str(out)], env=env,
                       check=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="main", help="the code compared with")
    parser.add_argument("--offline", action="store_true", help="skip the embedder")
    parser.add_argument(
        "--save", default="tidy_vetoes", help="the results file's name (bench/results/NAME.json)"
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # rows (with cosines) in, verdicts out
        given = json.loads(Path(args.child[0]).read_text(encoding="utf-8"))
        vs = verdicts(given["rows"], given["cosines"])
        Path(args.child[1]).write_text(json.dumps(vs), encoding="utf-8")
        return
    rs = rows()
    cosines = None
    embedder_id = None
    if not args.offline:
        from mnemic.sessions.search.retrieval import default_embedder_loader

        embedder = default_embedder_loader()
        embedder_id = embedder.model_id
        cosines = []
        for r in rs:  # one pair at a time, as bench/tidy.py's fresh sets
            vecs = embedder.embed_passages([r["a"], r["b"]])
            cosines.append(float(vecs[0] @ vecs[1]))
    with tempfile.TemporaryDirectory() as tmp:
        given, got = Path(tmp) / "rows.json", Path(tmp) / "before.json"
        given.write_text(json.dumps({"rows": rs, "cosines": cosines}), encoding="utf-8")
        _child(args.before, given, got)
        before = json.loads(got.read_text(encoding="utf-8"))
    after = verdicts(rs, cosines)
    modes = [m for m in MODES if m in after[0]]
    sets = sorted({r["set"] for r in rs}, key=lambda s: (len(s) > 1, s))
    result: dict[str, Any] = {
        "what": "tidy's verdicts before and after a change; dev rows only (strangers a-f "
        f"whole, every fresh set's dev half); before = {args.before}, after = this checkout",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "embedder": embedder_id,
        "pooled": {
            m: {"before": counts(rs, before, m), "after": counts(rs, after, m)} for m in modes
        },
        "per_set": {s: _per_set(rs, s, before, after, modes) for s in sets},
        "changed": [
            f"{r['set']} {r.get('id', '')} {r['kind']}/{r['subtype']} [{m}] {b[m]} -> {a[m]}: "
            f"{r['a']!r} / {r['b']!r}"
            for r, b, a in zip(rs, before, after, strict=True)
            for m in modes
            if b[m] != a[m]
        ],
    }
    for line in result["changed"]:
        print(line)
    for m in modes:
        for w in ("before", "after"):
            f = result["pooled"][m][w]
            print(
                f"{m} {w}: rewordings {f['rewordings_flagged']['k']}, updates "
                f"{f['updates_flagged']['k']}, contradictions {f['contradictions_flagged']['k']}"
                f", honest joined {f['honest_joined']['k']} merged {f['honest_merged']['k']} "
                f"of {f['honest_joined']['n']}",
                flush=True,
            )
    out = ROOT / "results" / f"{args.save}.json"
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(result["pooled"]))


if __name__ == "__main__":
    main()
