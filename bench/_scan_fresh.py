"""A fresh held-out set for scanner 3: hand-written rows, split once by family x language.

``bench/data/scan_fresh.jsonl`` holds attacks and honest look-alikes written for the
scanner-4 work before the scanner was changed, in wording that shares no template with
``scan_families.json``: one JSON object a line, ``{text, label, family, lang, source,
split}`` and, for a split instruction (two entries, each harmless alone), ``context``:
the entries already stored that the text is read with. ``label`` is ``attack`` or
``benign``.

:func:`deal` assigns every (label, family, language) group to ``dev`` or ``test``: per
(label, family) its languages are dealt in a seeded order (:data:`SEED`), balancing
languages and families between the halves, so every family and every language has rows
in both while a test row never shares its family *and* language (and so its wording)
with a dev row. The split is written into
the file once; :func:`load` refuses a file whose split differs from what :func:`deal`
gives, so a row cannot be moved between halves by hand.

The scanner is tuned on ``dev`` only; ``test`` is reported once, at the end.

    .venv/bin/python bench/_scan_fresh.py [--split dev] [--level balanced] [--misses]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

from _scan_v3 import wilson
from mnemic.scan import scan_in_context, scan_text

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["BASELINE", "FRESH", "SEED", "deal", "figures", "load"]

#: The seed of the split (issue 29, scanner 4).
SEED = 2904
FRESH = ROOT / "bench" / "data" / "scan_fresh.jsonl"
#: Figures of the scanner before any scanner-4 change, per half and level.
BASELINE = ROOT / "bench" / "data" / "scan_fresh_baseline.json"
_HALVES = ("dev", "test")


def deal(rows: list[dict[str, Any]], seed: int = SEED) -> dict[str, str]:
    """``{source: "dev" | "test"}``: every (label, family, language) group to one half.

    Families and, within each, languages are visited in a seeded order; a group goes to
    the half holding fewer groups of its language so far (then fewer of its family, then
    a seeded coin), so both halves see every language and every family."""
    groups: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for r in rows:
        groups[r["label"]][r["family"]].add(r["lang"])
    half: dict[tuple[str, str, str], str] = {}
    for label, by_family in sorted(groups.items()):
        rng = random.Random(f"{seed}:{label}")
        per_lang: dict[tuple[str, str], int] = defaultdict(int)
        families = sorted(by_family)
        rng.shuffle(families)
        for family in families:
            per_family = dict.fromkeys(_HALVES, 0)
            langs = sorted(by_family[family])
            rng.shuffle(langs)
            for lang in langs:
                tie = rng.random()
                pick = min(
                    _HALVES,
                    key=lambda h: (per_lang[(lang, h)], per_family[h], tie if h == "dev" else 0.5),
                )
                half[(label, family, lang)] = pick
                per_lang[(lang, pick)] += 1
                per_family[pick] += 1
    return {r["source"]: half[(r["label"], r["family"], r["lang"])] for r in rows}


def load(path: Path = FRESH) -> list[dict[str, Any]]:
    """The rows of ``path``; ``ValueError`` when a row's split is not the dealt one."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    dealt = deal(rows)
    moved = [r["source"] for r in rows if r.get("split") != dealt[r["source"]]]
    if moved:
        raise ValueError(f"{path}: rows not in their dealt half: {moved[:5]}")
    return rows


def verdict(row: dict[str, Any], level: str = "balanced") -> str:
    """The scanner's verdict on a row (a split instruction read with its context)."""
    if row.get("context"):
        return scan_in_context(row["text"], row["context"], "memory", level).verdict
    return scan_text(row["text"], "memory", level).verdict


def _count(verdicts: list[str]) -> dict[str, Any]:
    count = {v: verdicts.count(v) for v in ("block", "hold", "allow")}
    return {
        "n": len(verdicts),
        "verdicts": count,
        "caught": wilson(count["block"] + count["hold"], len(verdicts)),
        "blocked": wilson(count["block"], len(verdicts)),
        "held": wilson(count["hold"], len(verdicts)),
    }


def _by(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    groups: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r["verdict"])
    return {g: _count(v) for g, v in sorted(groups.items())}


def figures(
    half: str, level: str = "balanced", *, misses: bool = False, path: Path = FRESH
) -> dict[str, Any]:
    """One half's figures: attacks and honest notes by verdict, per family and language
    (``misses``: also the attacks allowed and the honest notes held or blocked)."""
    rows = [dict(r) for r in load(path) if r["split"] == half]
    for r in rows:
        r["verdict"] = verdict(r, level)
    att = [r for r in rows if r["label"] == "attack"]
    ben = [r for r in rows if r["label"] == "benign"]
    out: dict[str, Any] = {
        "half": half,
        "level": level,
        "seed": SEED,
        "attacks": _count([r["verdict"] for r in att]),
        "honest": _count([r["verdict"] for r in ben]),
        "attacks_by_family": _by(att, "family"),
        "attacks_by_language": _by(att, "lang"),
        "honest_by_family": _by(ben, "family"),
        "honest_by_language": _by(ben, "lang"),
    }
    if misses:
        out["misses"] = [
            {"family": r["family"], "lang": r["lang"], "text": r["text"]}
            for r in att
            if r["verdict"] == "allow"
        ]
        out["honest_not_allowed"] = [
            {"family": r["family"], "lang": r["lang"], "verdict": r["verdict"], "text": r["text"]}
            for r in ben
            if r["verdict"] != "allow"
        ]
    return out


def summary(fig: dict[str, Any]) -> str:
    """One line: caught / blocked / held attacks, honest held / blocked."""
    a, h = fig["attacks"], fig["honest"]
    return (
        f"fresh {fig['half']} ({fig['level']}): attacks caught {a['caught']['k']}/{a['n']} "
        f"{a['caught']['pct']}% {a['caught']['ci95']} (blocked {a['verdicts']['block']}, "
        f"held {a['verdicts']['hold']}); honest held {h['verdicts']['hold']}/{h['n']}, "
        f"blocked {h['verdicts']['block']}/{h['n']}"
    )


def record_baseline() -> None:
    """Write the figures of the scanner as it is (both halves, every level, no row texts)."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    out: dict[str, Any] = {"commit": commit, "note": "the scanner before scanner-4 changed it"}
    for level in ("balanced", "strict", "lenient"):
        out[level] = {half: figures(half, level) for half in _HALVES}
        for half in _HALVES:
            print(summary(out[level][half]))
    BASELINE.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=_HALVES, default="dev")
    ap.add_argument("--level", default="balanced")
    ap.add_argument("--misses", action="store_true", help="list misses (dev half only)")
    ap.add_argument(
        "--record-baseline",
        action="store_true",
        help=f"write both halves' figures (no texts) at every level to {BASELINE.name}",
    )
    args = ap.parse_args()
    if args.record_baseline:
        record_baseline()
        return
    if args.misses and args.split != "dev":
        ap.error("misses are listed for the dev half only (the test half stays unread)")
    fig = figures(args.split, args.level, misses=args.misses)
    print(summary(fig))
    for key in ("attacks_by_family", "attacks_by_language"):
        print(key, {g: f"{v['caught']['k']}/{v['n']}" for g, v in fig[key].items()})
    for m in fig.get("misses", []):
        print("  miss", m["family"], m["lang"], m["text"])
    for m in fig.get("honest_not_allowed", []):
        print("  honest", m["verdict"], m["family"], m["lang"], m["text"])


if __name__ == "__main__":
    main()
