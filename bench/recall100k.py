"""Recall and latency of session search in a store of 100,000 messages.

    ./x bench recall100k                     # 100k messages, the LoCoMo dev questions
    ./x bench recall100k --messages 20000

The store holds the three LoCoMo dev conversations once (the planted ones: their
questions are asked) among replicas of the two test conversations (other people's
chats, about 50 copies each) up to ``--messages``. Every message carries the vectors the
shipped passage recipe makes (``bench/hybrid.py``'s ``passage_vectors``: the cached
embedder of ``bench/_vcache.py``); a replica's are its conversation's plus small seeded
noise, as ``./x bench hybrid`` builds them. Each dev question is ranked through
``search_messages`` (floor off) in the same run:

* in a store of the planted conversations alone (what ``./x bench recall`` sees);
* in the 100k store, with the pieces of the ``RESCORED`` (200) best messages scored, as
  shipped;
* in the 100k store with every message's pieces scored (``RESCORED`` past the store's
  size: the max-sim over every vector);

and scored as ``./x bench recall`` scores LoCoMo (turn recall @10/@50, session@5). The
shipped hybrid call at 100k is timed (p50 / p99; the two variants alternate per question;
the query vector is embedded for each call: the process's cache of query vectors is off).
The replicas are not the planted people's own history: their names differ, so a
question's name still points at the planted conversation. A store of one person's
100k messages would be harder; this measures what the 100k-message vector search and
the 200 rescored messages lose, not a real history.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np

import mnemic.sessions.search.query_vectors as query_vectors
import mnemic.sessions.sql.vector_cache as cache_module
from _common import emit, summarize_ms
from _metrics import Scores, recall_at, session_recall_at
from _recall import CATEGORIES, evidence
from _semantic import embedder, store_turns
from hybrid import passage_vectors
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewSession, search_messages
from mnemic.sessions.importing.importers import locomo_sessions
from mnemic.sessions.search.retrieval import semantic_state
from mnemic.sessions.sql.vector_cache import encode
from recall import LOCOMO, LOCOMO_SPLIT

Pos = tuple[str, int]


def _items(sample: dict[str, Any], prefix: str = "") -> list[Any]:
    return [
        (NewSession(prefix + s.id, s.source, s.title, started_at=s.started_at), m)
        for s, m in locomo_sessions(sample)
    ]


def _base_vectors(sample: dict[str, Any], tmp: Path) -> dict[Pos, Any]:
    one = SQLiteSessionStore(tmp / f"{sample['sample_id']}.db", durable=False)
    for _ in one.import_sessions(_items(sample), workers=0):
        pass
    _, pos, turns = store_turns(one)
    one.close()
    return dict(zip(pos, passage_vectors(turns, ""), strict=True))


def build(
    planted: list[dict[str, Any]], others: list[dict[str, Any]], target: int, path: Path
) -> tuple[SQLiteSessionStore, int]:
    """The planted conversations once, the others replicated up to ``target`` messages,
    every message's vectors written through the store's own vector write."""
    store = SQLiteSessionStore(path, durable=False)
    emb = embedder()
    base: dict[Pos, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for sample in planted + others:
            base.update(_base_vectors(sample, Path(tmp)))
    total = 0
    for sample in planted:
        items = _items(sample)
        total += sum(len(m) for _, m in items)
        for _ in store.import_sessions(items, workers=0):
            pass
    replica = 0
    while total < target:
        for sample in others:
            items = _items(sample, f"r{replica:03d}-")
            total += sum(len(m) for _, m in items)
            for _ in store.import_sessions(items, workers=0):
                pass
        replica += 1
    rng = np.random.default_rng(7)
    where: dict[int, tuple[Pos, bool]] = {}
    for info in store.list_sessions(limit=1_000_000):
        copy = info.id.startswith("r") and info.id[4:5] == "-"
        for m in store.messages(info.id):
            where[m.id] = ((info.id[5:] if copy else info.id, m.seq), copy)
    written, after = 0, 0
    assert store.vectors is not None
    while True:
        pending = store.vectors.pending(emb.model_id, after=after, limit=5000)
        if not pending:
            break
        rows = []
        for p in pending:
            pos, copy = where[p.message_id]
            mat = np.array(base[pos], np.float32).reshape(-1, emb.dim)
            if copy:
                mat += rng.standard_normal(mat.shape).astype(np.float32) * 0.02
                mat /= np.linalg.norm(mat, axis=1, keepdims=True)
            rows.append((p, encode(mat)))
        written += store.vectors.put(emb.model_id, rows)
        after = pending[-1].message_id
    return store, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--modes", default="lexical,hybrid")
    args = parser.parse_args()
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    dev = set(LOCOMO_SPLIT["dev"])
    planted = [d for d in data if d["sample_id"] in dev]
    others = [d for d in data if d["sample_id"] not in dev]
    t0 = time.perf_counter()
    emb = embedder()

    def loader() -> Any:
        return emb

    modes = args.modes.split(",")
    query_vectors.QUERY_CACHE = 0  # each variant embeds its question live (asked twice here)
    with tempfile.TemporaryDirectory(prefix="mnemic-recall100k-") as tmp:
        small, _ = build(planted, [], 0, Path(tmp) / "small.db")
        big, n = build(planted, others, args.messages, Path(tmp) / "big.db")
        print(f"stores: {n:,} messages with vectors ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr)  # fmt: skip
        states = {id(s): semantic_state(s, loader, max_age=1e9) for s in (small, big)}
        questions = []
        for sample in planted:
            keys = {}
            for spec, _ in locomo_sessions(sample):
                number = int(spec.id.rsplit("-s", 1)[1])
                for i, turn in enumerate(sample["conversation"][f"session_{number}"]):
                    keys[str(turn.get("dia_id"))] = (spec.id, i)
            for qa in sample.get("qa") or []:
                found = evidence(qa, set(keys))
                if found:
                    cat = CATEGORIES.get(int(qa.get("category") or 0), "other")
                    questions.append((str(qa["question"]), cat, {keys[e] for e in found}))
        table: dict[tuple[str, str], Scores] = {}
        times: dict[str, list[float]] = {"rescored 200": [], "every piece": []}
        runs = [("alone", small, 200), ("100k, rescored 200", big, 200),
                ("100k, every piece", big, 10**9)]  # fmt: skip
        for k, (text, cat, ev) in enumerate(questions):
            for mode in modes:
                for label, store, rescored in runs[:: 1 if k % 2 else -1]:
                    if mode == "lexical" and rescored != 200:
                        continue
                    cache_module.RESCORED = rescored
                    a = time.perf_counter()
                    ranked = search_messages(store, text, mode=mode, limit=50, floor=False,
                                             state=states[id(store)] if mode != "lexical"
                                             else None)  # fmt: skip
                    took = time.perf_counter() - a
                    if store is big and mode == "hybrid":
                        times["rescored 200" if rescored == 200 else "every piece"].append(took)
                    got = [(r.session_id, r.seq) for r in sorted(ranked.results,
                                                                 key=lambda r: r.rank)]  # fmt: skip
                    sc = table.setdefault((mode, label), Scores())
                    sc.add("turn@10", recall_at(ev, got, 10), [cat])
                    sc.add("turn@50", recall_at(ev, got, 50), [cat])
                    sessions = [p[0] for p in got]
                    sc.add("session@5", session_recall_at({p[0] for p in ev}, sessions, 5), [cat])
        cache_module.RESCORED = 200
        small.close()
        big.close()
    out: dict[str, Any] = {"messages_with_vectors": n, "questions": len(questions),
                           "model": emb.model_id}  # fmt: skip
    for (mode, label), sc in sorted(table.items()):
        r = sc.result()
        out.setdefault(mode, {})[label] = r
        print(f"  {mode:8s} {label:20s} " + "  ".join(
            f"{m} {r[m]['value']:.3f}" for m in ("turn@10", "turn@50", "session@5")),
            flush=True)  # fmt: skip
    out["hybrid_call_100k"] = {label: summarize_ms(t) for label, t in times.items()}
    for label, s in out["hybrid_call_100k"].items():
        print(f"  hybrid call at 100k, {label}: p50 {s['p50_ms']:.1f} ms  p99 {s['p99_ms']:.1f} ms")
    out["aim_ms"] = {"p50": 25, "p99": 50}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit("recall100k", out)


if __name__ == "__main__":
    main()
