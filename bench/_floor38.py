"""Floor 38 (issue 33): the unrelated side of the widened cross-language floor detection.
Dev only.

    .venv/bin/python bench/_floor38.py

Asks every question of ``bench/data/offtopic_xl2.json`` (unrelated questions in Polish,
Dutch, Swedish, Czech, Romanian, Turkish, Indonesian, Vietnamese, Arabic, Hindi, Greek)
and the dev half of ``offtopic_xl.json`` of every LoCoMo dev conversation (hybrid, floor
on) and counts, per language, how many pass the floor (a wrong answer: they are
unrelated), before (the floor's detection of recall 17: ``floor_languages`` reads
nothing, no other-script test) and after, with n and a 95 % Wilson interval.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _recall37 as r37
from _metrics import wilson
from _vcache import CachedEmbedder
from mnemic.sessions.search import floor as floor_module, retrieval as retrieval_module
from mnemic.sessions.search.messages import search_messages

HERE = Path(__file__).resolve().parent


def main() -> None:
    xl2 = json.loads((HERE / "data" / "offtopic_xl2.json").read_text(encoding="utf-8"))
    xl = json.loads((HERE / "data" / "offtopic_xl.json").read_text(encoding="utf-8"))
    asked = [(q["lang"], q["text"]) for q in xl2["questions"]] + [
        (f"xl-{q['lang']}", q["text"]) for q in xl["questions"] if q["split"] == "dev"
    ]
    embedder = CachedEmbedder()
    by: dict[str, Counter[str]] = defaultdict(Counter)
    with tempfile.TemporaryDirectory(prefix="mnemic-floor38-") as tmp:
        corpora, _ = r37.stores(["locomo"], "dev", embedder, Path(tmp))
        for corpus in corpora.values():
            corpus.state = retrieval_module.semantic_state(
                corpus.store, lambda: embedder, max_age=1e9
            )
            for lang, text in asked:
                after = search_messages(corpus.store, text, mode="hybrid", limit=10,
                                        floor=True, state=corpus.state)  # fmt: skip
                with (
                    mock.patch.object(floor_module, "floor_languages", lambda t: ()),
                    mock.patch.object(floor_module, "_other_script", lambda t, m: False),
                ):
                    before = search_messages(corpus.store, text, mode="hybrid", limit=10,
                                             floor=True, state=corpus.state)  # fmt: skip
                group = "new languages" if not lang.startswith("xl-") else "recall 17 (xl dev)"
                for g in (lang, group):
                    by[g]["n"] += 1
                    by[g]["before"] += not before.no_good_match
                    by[g]["after"] += not after.no_good_match
            corpus.store.close()
    for g, c in sorted(by.items()):
        n = c["n"]
        print(f"{g:20s} n {n:4d} answered before {c['before']:3d} {c['before'] / n:.3f} "
              f"{wilson(c['before'], n)} after {c['after']:3d} {c['after'] / n:.3f} "
              f"{wilson(c['after'], n)}")  # fmt: skip


if __name__ == "__main__":
    main()
