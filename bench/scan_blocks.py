"""Scanner 17: honest notes blocked, and what moved, on dev rows only (issue 29).

Verdicts at ``balanced`` (scope memory) of the scanner in this tree and of the scanner at
:data:`BASE_COMMIT` (its ``src`` extracted with ``git archive`` and run in a child process
on the same rows, in the same run), on:

* every fresh set's **dev** half (``bench/_scan_fresh.py``; the test halves are never read
  here),
* the strangers' training rows (``bench/data/scan_strangers/*.jsonl``; ``honest`` rows are
  the honest notes),
* the public corpus's dev split (``threats/train``, split by ``bench/data/scan_split.json``)
  and its benign rows; its train split, and the train and dev rows of the generated
  families (``scan_families.json``, ``scan_generated``, ``scan_generated_unfitted``), so
  that a verdict moved by accident shows.

For each: attacks detected (blocked or held), blocked, held; honest notes blocked and held;
each with n and a 95 % Wilson interval, per family and (scanner 23) per language; and the
rows whose verdict moved (attacks from block to hold are still detected). Prints one JSON
object on its last line and saves ``bench/results/scan_blocks.json``.

Scanner 23 reads every fresh set's dev half (``--skip ''``) and a strangers' context
given as one string as one stored entry (:func:`verdict`).

Scanner 21 added ``--level`` (``strict`` as well as ``balanced``), ``--skip`` (fresh sets
left unread: by default the eighth and ninth, whose halves scanner 21 was not to read) and
p50 / p95 ms per entry of both scanners over the strangers' rows, each timed in its own
process in the same run (``timing``).

    ./x bench scan_blocks [--data DIR] [--base COMMIT] [--level strict] [--skip fresh8,...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent
#: The commit scanner 17 started from (main after the seventh fresh set was merged).
BASE_COMMIT = "61a16da"
DEFAULT_DATA = Path(os.environ.get("MNEMIC_DATA_DIR", ROOT.parent / "shared" / "data"))
STRANGERS = ROOT / "bench" / "data" / "scan_strangers"


#: Fresh sets not read unless asked (their halves are another track's or a later test).
SKIP = ("fresh8", "fresh9")


def rows(data: Path, skip: tuple[str, ...] = SKIP) -> list[dict[str, Any]]:
    """Every dev row: ``{group, label (attack|honest), family, text, context?}``."""
    import _scan_corpus as scan_corpus
    import _scan_families as families
    import _scan_fresh as fresh
    import _scan_training as training
    from _scan_generated import UNFITTED
    from _scan_v3 import FAMILIES

    out: list[dict[str, Any]] = []
    for name, which in fresh.SETS.items():
        if name in skip:
            continue
        for r in fresh.load(which.path, which.seed):
            if r["split"] == "dev":
                label = "attack" if r["label"] == "attack" else "honest"
                out.append({"group": f"{name}_dev", **r, "label": label})
    for path in sorted(STRANGERS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out.append({"group": f"strangers_{path.stem}", **r})
    train_dir = data / "threats" / "train"
    corpus = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    split = training.read_split(ROOT / "bench" / "data" / "scan_split.json", corpus)
    for c in corpus:
        if split[c.source] in ("dev", "train"):
            label = "attack" if c.label == "attack" else "honest"
            group = f"public_{split[c.source]}"
            out.append({"group": group, "text": c.text, "label": label, "family": c.category})
    # The rows written for the learned layer (train and dev; their test halves unread):
    # no verdict of theirs should move by accident.
    for r in families.expand(FAMILIES):
        if r["split"] in ("dev", "train"):
            label = "attack" if r["label"] == "attack" else "honest"
            out.append({**r, "group": f"families_{r['split']}", "label": label})
    generated = ROOT / "bench" / "data" / "scan_generated"
    for half in ("dev", "train"):
        got = scan_corpus.expand_generated(generated, half)
        got += scan_corpus.expand_generated(UNFITTED, half, frames_from=generated)
        for r in got:
            label = "attack" if r["label"] == "attack" else "honest"
            out.append({**r, "group": f"generated_{half}", "label": label})
    return out


def verdict(row: dict[str, Any], level: str = "balanced") -> str:
    """The scanner's verdict on one row, read with its ``context`` (the entries stored
    before it: a list, or in the strangers' files one string, which is one entry)."""
    from mnemic.scan import scan_in_context, scan_text

    context = row.get("context")
    if not context:
        return scan_text(row["text"], "memory", level).verdict
    neighbours = [context] if isinstance(context, str) else list(context)
    return scan_in_context(row["text"], neighbours, "memory", level).verdict


def verdicts(data: Path, level: str = "balanced", skip: tuple[str, ...] = SKIP) -> list[str]:
    """The scanner's verdict on each of :func:`rows`, in order."""
    return [verdict(r, level) for r in rows(data, skip)]


def timing(data: Path, level: str = "balanced") -> dict[str, float]:
    """p50 / p95 ms per entry over the strangers' rows (each scanned once, memo cleared)."""
    import mnemic.scan as scan_mod

    texts = [r["text"] for r in rows(data) if r["group"].startswith("strangers_")]
    times = []
    for t in texts:
        scan_mod._memo.clear()
        t0 = time.perf_counter()
        scan_mod.scan_text(t, "memory", level)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "n": len(times),
        "p50_ms": round(times[len(times) // 2], 3),
        "p95_ms": round(times[int(len(times) * 0.95)], 3),
    }


def _base_verdicts(
    data: Path, base: str, level: str = "balanced", skip: tuple[str, ...] = SKIP
) -> tuple[list[str], dict[str, float]]:
    """:func:`verdicts` of the scanner at ``base``, run in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", base, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                "--data",
                str(data),
                "--level",
                level,
                "--skip",
                ",".join(skip),
            ],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout
    child = json.loads(out.splitlines()[-1])
    if not str(child["module"]).startswith(tmp):
        raise RuntimeError(f"the child read {child['module']}, not the extracted {base}")
    return list(child["verdicts"]), dict(child["timing"])


def _rate(vs: list[str], which: tuple[str, ...]) -> dict[str, Any]:
    from _scan_v3 import wilson

    return wilson(sum(1 for v in vs if v in which), len(vs))


def _figures(vs: list[str]) -> dict[str, Any]:
    return {
        "n": len(vs),
        "verdicts": {v: vs.count(v) for v in ("block", "hold", "allow")},
        "detected": _rate(vs, ("block", "hold")),
        "blocked": _rate(vs, ("block",)),
        "held": _rate(vs, ("hold",)),
    }


def _short(fig: dict[str, Any]) -> str:
    v = fig["verdicts"]
    return f"{v['block']}b/{v['hold']}h/{fig['n']}"


def compare(
    data: Path, base: str, level: str = "balanced", skip: tuple[str, ...] = SKIP
) -> dict[str, Any]:
    """Figures before (``base``) and after (this tree) per group, label and family."""
    every = rows(data, skip)
    before, base_timing = _base_verdicts(data, base, level, skip)
    after = verdicts(data, level, skip)
    after_timing = timing(data, level)
    groups: dict[str, dict[str, Any]] = defaultdict(dict)
    cells: dict[tuple[str, str, str], list[tuple[str, str]]] = defaultdict(list)
    moved: Counter[str] = Counter()
    changed = []
    for r, b, a in zip(every, before, after, strict=True):
        cells[(r["group"], r["label"], "*")].append((b, a))
        cells[(r["group"], r["label"], r["family"])].append((b, a))
        if r.get("lang"):
            cells[(r["group"], r["label"], "lang:" + str(r["lang"]))].append((b, a))
        if a != b:
            moved[f"{r['group']} {r['label']} {b}->{a}"] += 1
            if not r["group"].startswith("public_"):  # not ours to print
                changed.append(
                    {
                        "group": r["group"],
                        "label": r["label"],
                        "family": r["family"],
                        "move": f"{b}->{a}",
                        "text": r["text"][:160],
                    }
                )
    for (group, label, family), pairs in sorted(cells.items()):
        entry = {
            "before": _figures([b for b, _ in pairs]),
            "after": _figures([a for _, a in pairs]),
        }
        if family == "*":
            groups[group][label] = entry
        elif family.startswith("lang:"):
            groups[group].setdefault(f"{label}_by_lang", {})[family[5:]] = entry
        else:
            groups[group].setdefault(f"{label}_by_family", {})[family] = entry
    return {
        "base_commit": base,
        "level": level,
        "skipped": list(skip),
        "timing": {
            "before": base_timing,
            "after": after_timing,
            "p50_ratio": round(after_timing["p50_ms"] / base_timing["p50_ms"], 3),
        },
        "scope": "memory",
        "note": "dev halves, strangers' training rows, the public dev and train splits and "
        "the generated families' train and dev rows; no test half is read",
        "groups": dict(groups),
        "moved": dict(sorted(moved.items())),
        "changed_rows": changed,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared data directory")
    ap.add_argument("--base", default=BASE_COMMIT, help="the commit to compare against")
    ap.add_argument("--level", default="balanced", choices=("strict", "balanced", "lenient"))
    ap.add_argument("--skip", default=",".join(SKIP), help="fresh sets not read (comma list)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    skip = tuple(s for s in args.skip.split(",") if s)
    if args.child:
        import mnemic

        out = {
            "module": mnemic.__file__,
            "verdicts": verdicts(args.data, args.level, skip),
            "timing": timing(args.data, args.level),
        }
        print(json.dumps(out))
        return
    from _common import emit

    result = compare(args.data, args.base, args.level, skip)
    for group, labels in result["groups"].items():
        line = [group]
        for label in ("attack", "honest"):
            if label in labels:
                e = labels[label]
                line.append(f"{label} {_short(e['before'])} -> {_short(e['after'])}")
        print("  ".join(line))
    for key, n in result["moved"].items():
        print(f"  moved {key}: {n}")
    print(f"  p50 ms per entry: {result['timing']}")
    emit("scan_blocks" if args.level == "balanced" else f"scan_blocks_{args.level}", result)


if __name__ == "__main__":
    main()
