"""Failed tool calls found by ``session_search``: ``./x bench toolcalls``.

The fixture (``bench/_toolcalls.py``): ten repositories of Claude Code transcripts, eight
sessions of 20-30 tool calls each, about one call in six failing; five questions per
repository ("when did pytest last fail", an older failure of one test file, one found by
its error text, the last failed read...), 50 in all, each answered by one failing call.
Each repository is imported into its own store with the product's Claude Code importer
and each question asked through ``run_session_search`` (the tool's own code); a question
counts when its call is among the first 3 results. Figures with n and a 95 % bootstrap
interval, overall and per kind of question.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _metrics import Scores
from _toolcalls import build
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import import_path, run_session_search

TOP = 3


def main() -> None:
    t0 = time.perf_counter()
    scores = Scores()
    misses: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mnemic-toolcalls-") as tmp:
        dirs, cases = build(Path(tmp) / "repos")
        stores = {}
        for where in dirs:
            store = SQLiteSessionStore(Path(tmp) / f"{where.name}.db", durable=False)
            import_path(store, where, format="claude")
            stores[where.name] = store
        for case in cases:
            resp = run_session_search(stores[case.repo], {**case.args, "limit": TOP})
            got = [(r["session_id"], r["arguments"]) for r in resp.get("results", [])]
            hit = any(sid == case.session and case.command in args for sid, args in got)
            scores.add(f"top{TOP}", hit, [case.kind])
            scores.add("top1", bool(got) and got[0][0] == case.session
                       and case.command in got[0][1], [case.kind])  # fmt: skip
            if not hit:
                misses.append({"repo": case.repo, "kind": case.kind, "args": case.args,
                               "want": [case.session, case.command], "got": got})  # fmt: skip
        for store in stores.values():
            store.close()
    result = scores.result()
    print(f"  {len(cases)} questions: top{TOP} {result[f'top{TOP}']['value']:.3f} "
          f"top1 {result['top1']['value']:.3f}", flush=True)  # fmt: skip
    for kind, r in result["by"].items():
        print(f"    {kind:12s} top{TOP} {r[f'top{TOP}']['value']:.3f} (n={r[f'top{TOP}']['n']})")
    emit(
        "toolcalls",
        {"cases": len(cases), "results": result, "misses": misses[:10],
         "seconds": round(time.perf_counter() - t0, 1)},
    )  # fmt: skip


if __name__ == "__main__":
    main()
