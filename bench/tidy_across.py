"""Tidy 27: what :mod:`mnemic.ops.tidy.across` changes, on dev data only.

    ./x bench tidy_across [--before REV] [--offline] [--generated] [--save NAME]

The module's two rules only ever return a verdict (:func:`~mnemic.ops.tidy.detect.judge`
goes on as before when both return None), so a pair's verdict can differ from the code
at ``REV`` only where :func:`~mnemic.ops.tidy.across.across` or
:func:`~mnemic.ops.tidy.across.another_value` fires on it (either order). This bench
reads every dev row :mod:`tidy_vetoes` reads (the strangers' ``a``-``f`` whole, every
fresh set's dev half; never a test half), counts where the rules fire by kind, and sends
those rows through :func:`mnemic.ops.tidy.plan.plan` alone with the code at ``REV``
(default ``fd947dea``, tidy 27's branch point: ``git archive`` of its ``src``, a child
process) and with this checkout's, in the four modes of :mod:`tidy_vetoes` (rules, rules
and the pair model, offline and with the embedder's cosine, one pair embedded at a
time). Every other row keeps its verdict by construction. ``--generated`` also counts the
pairs of the 150 generated dev stores where the rules fire. Prints one JSON object on the
last line and saves ``bench/results/tidy_across.json`` (``--save NAME``: ``NAME.json``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))


def fires(a: str, b: str) -> bool:
    """Whether tidy 27's rules give the pair ``a``, ``b`` a verdict, in either order."""
    from mnemic.ops.tidy.across import across, another_value
    from mnemic.ops.tidy.signals import profile

    pa, pb = profile(a), profile(b)
    return any(
        f(x, y) is not None for f in (across, another_value) for x, y in ((pa, pb), (pb, pa))
    )


def generated() -> dict[str, int]:
    """The pairs of the generated dev stores, and how many the rules fire on."""
    from _tidy_fixtures import build_stores, split
    from tidy import SEEDS

    pairs = fired = 0
    for st in build_stores(split()["dev"], 150, SEEDS["dev"]):
        for a, b in itertools.combinations(st.entries, 2):
            pairs += 1
            fired += fires(a, b)
    return {"pairs": pairs, "fired": fired}


def main() -> None:
    import tidy_vetoes

    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="fd947dea", help="the code to compare with")
    parser.add_argument("--offline", action="store_true", help="skip the embedder")
    parser.add_argument("--generated", action="store_true", help="count the generated stores")
    parser.add_argument("--save", default="tidy_across", help="bench/results/NAME.json")
    args = parser.parse_args()
    rs = tidy_vetoes.rows()
    hit = [r for r in rs if fires(r["a"], r["b"])]
    cosines = None
    if not args.offline:
        from mnemic.sessions.search.retrieval import default_embedder_loader

        embedder = default_embedder_loader()
        cosines = []
        for r in hit:
            vecs = embedder.embed_passages([r["a"], r["b"]])
            cosines.append(float(vecs[0] @ vecs[1]))
    with tempfile.TemporaryDirectory() as tmp:
        given, got = Path(tmp) / "rows.json", Path(tmp) / "before.json"
        given.write_text(json.dumps({"rows": hit, "cosines": cosines}), encoding="utf-8")
        tidy_vetoes._child(args.before, given, got)
        before = json.loads(got.read_text(encoding="utf-8"))
    after = tidy_vetoes.verdicts(hit, cosines)
    modes = list(after[0]) if after else []
    changed: Counter[str] = Counter()
    lines = []
    for k, (r, b, a) in enumerate(zip(hit, before, after, strict=True)):
        for m in modes:
            if b[m] != a[m]:
                changed[f"{m} {r['kind']} {b[m]} -> {a[m]}"] += 1
                cos = "" if cosines is None else f" cos {cosines[k]:.3f}"
                lines.append(
                    f"{r['set']} {r.get('id', '')} {r['kind']}/{r['subtype']} [{m}]{cos} "
                    f"{b[m]} -> {a[m]}: {r['a']!r} / {r['b']!r}"
                )
    result: dict[str, Any] = {
        "what": "tidy 27's rules: the dev rows they fire on, through plan before and after "
        f"(before = {args.before}, after = this checkout); every other row keeps its verdict",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "rows": len(rs),
        "rows_by_kind": dict(Counter(r["kind"] for r in rs)),
        "fired_by_kind": dict(Counter(r["kind"] for r in hit)),
        "changed": dict(sorted(changed.items())),
        "pairs": lines,
    }
    if args.generated:
        result["generated_dev"] = generated()
    for line in lines:
        print(line)
    out = ROOT / "results" / f"{args.save}.json"
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "pairs"}))


if __name__ == "__main__":
    main()
