"""Recall 22 (a): the dev questions whose time reading changed, ranked before and after.

    .venv/bin/python bench/_beforeday.py

Every dev question of LoCoMo (English, ``zh``, ``xl``), the update fixture and the long
chat is read by ``read_timeframe`` as it was before recall 22 (``bench/_oldtime.py``) and
as it is; only the questions whose reading differs can rank differently (the ranking
reads the question's time through that function alone). Those are ranked in every mode
with both readings, and the rank of each evidence turn is printed (dev only).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _misses as mb
import recall as rb
from _metrics import Scores
from _vcache import CachedEmbedder
from mnemic.sessions.search.timeframe import read_timeframe

SETS = ["locomo", "zh", "xl"]
"""The sets with stores built (LoCoMo's dev conversations); the update fixture's and the
long chat's dev questions are read without stores (:func:`fixture_questions`): none of
them reads differently, so none can rank differently."""


def fixture_questions() -> list[rb.Question]:
    """The update fixture's and the long chat's dev questions (texts only)."""
    fixture = json.loads((rb.HERE / "data" / "updates.json").read_text(encoding="utf-8"))
    real = json.loads((rb.HERE / "data" / "updates-locomo.json").read_text(encoding="utf-8"))
    chats = json.loads((rb.HERE / "data" / "longchat.json").read_text(encoding="utf-8"))
    both = rb.updates_questions(fixture, real) + rb.longchat_questions(chats)
    return [q for q in both if q.split == "dev"]


def main() -> None:
    embedder = CachedEmbedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-beforeday-") as tmp:
        corpora, questions = mb._stores(SETS, "dev", embedder, Path(tmp))
        old = mb.VARIANTS["beforecut"]
        changed = []
        asked = questions + fixture_questions()
        with old():
            import mnemic.sessions.search.retrieval as r

            before = [r.read_timeframe(q.text) for q in asked]
        for q, b in zip(asked, before, strict=True):
            a = read_timeframe(q.text)
            if (a.intent, a.until, a.anchor) != (b.intent, b.until, b.anchor):
                changed.append((q, b, a))
        print(f"{len(changed)} of {len(asked)} dev questions read differently")
        out = []
        for q, b, a in changed:
            corpus = corpora[q.corpus]
            row = {"set": q.set, "question": q.text, "evidence": q.evidence,
                   "before": b.describe(), "after": a.describe()}  # fmt: skip
            for mode in ("lexical", "semantic", "hybrid"):
                for arm in ("before", "after"):
                    if arm == "before":
                        with old():
                            ranked = rb.ranking(corpus, q.text, mode, lambda: embedder, q.as_of)
                    else:
                        ranked = rb.ranking(corpus, q.text, mode, lambda: embedder, q.as_of)
                    keys = [corpus.keys.get(p, "") for p in ranked]
                    sc = Scores()
                    rb.score(q, corpus, ranked, sc)
                    r_ = sc.result()
                    row[f"{mode}_{arm}"] = {
                        "evidence_rank": [
                            keys.index(e) + 1 if e in keys else None for e in q.evidence
                        ],
                        **{
                            m: r_[m]["value"]
                            for m in ("turn@5", "turn@10", "turn@50", "session@5")
                            if m in r_
                        },
                    }
            print(json.dumps(row, ensure_ascii=False), flush=True)
            out.append(row)
        (rb.HERE / "results" / "recall22-beforeday.json").write_text(
            json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
