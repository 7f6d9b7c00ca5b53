"""Latency of a whole hybrid ``session_search`` discovery call at 100,000 embedded messages.

    ./x bench hybrid                      # 100k messages, 200 questions per mode
    ./x bench hybrid --messages 20000

The corpus is the 5 LoCoMo dev conversations replicated under new session ids up to
``--messages``; each replica's vectors are the conversation's real passage vectors (the
shipped recipe, cached in bench/.cache by ``./x bench locomo``) plus small seeded noise,
so the search does the work it would do on real vectors without embedding 100k passages
(5 passages/s on this machine). The store is the real SQLite store; its vector search is
exact numpy over an in-memory float32 matrix with the role and session filters applied as
masks (what the store's vector cache does). Each call is ``run_session_search`` end to end:
the query is embedded live (nothing cached), lexical and vector candidates are fused, the
results are read and bounded. Reported: p50/p99 per mode, and the parts (query embedding,
vector search) alone.
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

from _common import emit, summarize_ms
from _semantic import RECIPES, cached_vectors, embedder, store_turns
from mnemic.sessions import NewSession, SearchFilters, SQLiteSessionStore, run_session_search
from mnemic.sessions.hybrid import PASSAGE_RECIPE
from mnemic.sessions.importers import locomo_sessions

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
)


class MatrixStore(SQLiteSessionStore):
    """The SQLite store with exact vector search over an in-memory matrix."""

    ids: Any
    matrix: Any
    roles: Any
    session_of: Any
    session_index: dict[str, int]
    model_id: str

    def vector_status(self, model_id: str) -> Any:
        n = len(self.ids)
        return type("Status", (), {"embedded": n, "total": n, "other_models": 0})()

    def vector_search(
        self, query_vec: Any, model_id: str, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        scores = self.matrix @ np.asarray(query_vec, dtype=np.float32)
        mask = None
        if filters.roles:
            mask = np.isin(self.roles, [r == "user" for r in filters.roles])
        if filters.exclude_sessions:
            index = self.session_index
            gone = [index[s] for s in filters.exclude_sessions if s in index]
            if gone:
                keep = ~np.isin(self.session_of, gone)
                mask = keep if mask is None else mask & keep
        if mask is not None:
            scores = np.where(mask, scores, -2.0)
        k = min(limit, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self.ids[i]), float(scores[i])) for i in top if scores[i] > -2.0]


def build(data: list[dict[str, Any]], target: int, path: Path) -> tuple[MatrixStore, list[str]]:
    """The replicated corpus and its vectors; returns the store and the questions."""
    store = MatrixStore(path, durable=False)
    emb = embedder()
    recipe = RECIPES[PASSAGE_RECIPE]
    base: dict[tuple[str, int], Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, sample in enumerate(data):
            one = SQLiteSessionStore(Path(tmp) / f"{n}.db", durable=False)
            items = [(NewSession(s.id, s.source, s.title, started_at=s.started_at), m)
                     for s, m in locomo_sessions(sample)]  # fmt: skip
            for _ in one.import_sessions(items, workers=0):
                pass
            _, pos, turns = store_turns(one)
            vecs = cached_vectors(
                "passage",
                [recipe(t) for t in turns],
                label=f"locomo-{sample['sample_id']}-{PASSAGE_RECIPE}",
            )
            base.update(zip(pos, vecs, strict=True))
            one.close()
    total = replica = 0
    while total < target:
        for sample in data:
            items = []
            for spec, msgs in locomo_sessions(sample):
                new = NewSession(f"r{replica:03d}-{spec.id}", spec.source, spec.title,
                                 started_at=spec.started_at)  # fmt: skip
                items.append((new, msgs))
                total += len(msgs)
            for _ in store.import_sessions(items, workers=0):
                pass
            if total >= target:
                break
        replica += 1
    rng = np.random.default_rng(7)
    ids, rows, roles, session_of = [], [], [], []
    session_ids = sorted(s.id for s in store.list_sessions(limit=1_000_000))
    store.session_index = {s: i for i, s in enumerate(session_ids)}
    for sid in session_ids:
        for m in store.messages(sid):
            ids.append(m.id)
            rows.append(base[(sid[5:], m.seq)])
            roles.append(m.role == "user")
            session_of.append(store.session_index[sid])
    matrix = np.stack(rows).astype(np.float32)
    matrix += rng.standard_normal(matrix.shape).astype(np.float32) * 0.02
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    store.ids = np.asarray(ids, dtype=np.int64)
    store.matrix = np.ascontiguousarray(matrix)
    store.roles = np.asarray(roles, dtype=bool)
    store.session_of = np.asarray(session_of, dtype=np.int32)
    store.model_id = emb.model_id
    questions = [str(qa["question"]) for s in data for qa in s.get("qa") or []]
    return store, questions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    data = json.loads(args.data.read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    emb = embedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-hybrid-") as tmp:
        store, questions = build(data, args.messages, Path(tmp) / "sessions.db")
        n = len(store.ids)
        print(f"corpus: {n:,} messages with vectors ({time.perf_counter() - t0:.0f} s)")
        step = max(1, len(questions) // args.queries)
        picked = questions[::step][: args.queries]
        zh_path = Path(__file__).resolve().parent / "data" / "locomo-zh.json"
        zh = [e["zh"] for e in json.loads(zh_path.read_text(encoding="utf-8"))]

        def loader() -> Any:
            return emb

        out: dict[str, Any] = {"messages": n, "model": emb.model_id, "queries": len(picked)}
        emb.embed_queries(["warm up"])
        run_session_search(store, {"query": "warm up"}, embedder_loader=loader)
        embed_t, search_t = [], []
        for q in picked:
            a = time.perf_counter()
            vec = emb.embed_queries([q])[0]
            b = time.perf_counter()
            store.vector_search(vec, emb.model_id, SearchFilters(roles=("user", "assistant")), 100)
            embed_t.append(b - a)
            search_t.append(time.perf_counter() - b)
        out["query_embedding"] = summarize_ms(embed_t)
        out["vector_search_exact_numpy"] = summarize_ms(search_t)
        for label, qs, mode in (
            ("lexical", picked, "lexical"),
            ("hybrid", picked, "hybrid"),
            ("semantic", picked, "semantic"),
            ("hybrid_chinese", zh, "hybrid"),
        ):
            times = []
            for q in qs:
                a = time.perf_counter()
                resp = run_session_search(store, {"query": q, "mode": mode}, embedder_loader=loader)
                times.append(time.perf_counter() - a)
                assert resp.get("success"), resp
                assert resp.get("retrieval") == mode, resp.get("notice")
            out[label] = summarize_ms(times)
            r = out[label]
            print(f"  {label:15s} p50 {r['p50_ms']:.1f} ms  p99 {r['p99_ms']:.1f} ms", flush=True)
        store.close()
    out["aim_ms"] = {"p50": 25, "p99": 50}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit("hybrid", out)


if __name__ == "__main__":
    main()
