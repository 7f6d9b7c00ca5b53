"""Latency of a whole hybrid ``session_search`` discovery call at 100,000 embedded messages.

    ./x bench hybrid                      # 100k messages, 200 questions per mode
    ./x bench hybrid --messages 20000

The corpus is the 5 LoCoMo dev conversations replicated under new session ids up to
``--messages``; each replica's vectors are the conversation's real passage vectors (the
shipped recipe, cached in bench/.cache by ``./x bench locomo``) plus small seeded noise,
so the search does the work it would do on real vectors without embedding 100k passages
(5 passages/s on this machine). They are written through the store's own vector write
(``put_vectors``) and searched by the store's own ``vector_search`` (the vector cache:
exact numpy over an in-memory float32 matrix, filters as masks, hits re-checked against
the table). Each call is ``run_session_search`` end to end:
the query is embedded live (nothing cached), lexical and vector candidates are fused, the
results are read and bounded. Reported: p50/p99 per mode, and the parts (query embedding,
vector search) alone.

``--passages CHARS[:whole]`` stores each message's passage vectors instead (the
experiment of ``bench/_passages.py``, vectors from ``bench/_vcache.py``'s cache): the
cost of the larger matrix a search then scores.
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
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewSession, SearchFilters, run_session_search
from mnemic.sessions.importing.importers import locomo_sessions
from mnemic.sessions.search.hybrid import PASSAGE_RECIPE
from mnemic.sessions.sql.vector_cache import EXACT_MAX, VectorCache, encode

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
)


def passage_vectors(turns: list[Any], spec: str) -> list[Any]:
    """Each turn's passage vectors, ``(k, dim)`` (``--passages``)."""
    from _passages import passages_of
    from _vcache import CachedEmbedder
    from mnemic.sessions.sql.vectors import PendingText

    size, _, how = spec.partition(":")
    texts = [
        passages_of(PendingText(0, "user", t[0], None, t[2], t[1], t[3]), int(size),
                    whole=how == "whole")
        for t in turns
    ]  # fmt: skip
    flat = CachedEmbedder().embed_passages([x for ts in texts for x in ts])
    out, at = [], 0
    for ts in texts:
        out.append(flat[at : at + len(ts)])
        at += len(ts)
    return out


def build(
    data: list[dict[str, Any]], target: int, path: Path, passages: str = ""
) -> tuple[SQLiteSessionStore, list[str], int]:
    """The replicated corpus and its vectors written to the store's vector table; returns
    the store, the questions and how many vectors were written."""
    store = SQLiteSessionStore(path, durable=False)
    emb = embedder()
    recipe = RECIPES[PASSAGE_RECIPE]
    base: dict[tuple[str, int], Any] = {}
    if passages:
        from _passages import use_passages

        use_passages(store, emb.model_id, emb.dim)
    with tempfile.TemporaryDirectory() as tmp:
        for n, sample in enumerate(data):
            one = SQLiteSessionStore(Path(tmp) / f"{n}.db", durable=False)
            items = [(NewSession(s.id, s.source, s.title, started_at=s.started_at), m)
                     for s, m in locomo_sessions(sample)]  # fmt: skip
            for _ in one.import_sessions(items, workers=0):
                pass
            _, pos, turns = store_turns(one)
            if passages:
                vecs = passage_vectors(turns, passages)
            else:
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
    where: dict[int, tuple[str, int]] = {}
    for info in store.list_sessions(limit=1_000_000):
        for m in store.messages(info.id):
            where[m.id] = (info.id[5:], m.seq)
    written, after, stored = 0, 0, 0
    while True:  # the real write path, in batches: what `mnemic sessions embed` stores
        pending = store.vectors.pending(emb.model_id, after=after, limit=5000)
        if not pending:
            break
        parts = [np.asarray(base[where[p.message_id]], np.float32).reshape(-1, emb.dim)
                 for p in pending]  # fmt: skip
        mat = np.concatenate(parts)
        mat += rng.standard_normal(mat.shape).astype(np.float32) * 0.02
        mat /= np.linalg.norm(mat, axis=1, keepdims=True)
        rows, at = [], 0
        for p, part in zip(pending, parts, strict=True):
            rows.append((p, encode(mat[at : at + len(part)])))
            at += len(part)
        written += store.vectors.put(emb.model_id, rows)
        stored += at
        after = pending[-1].message_id
    questions = [str(qa["question"]) for s in data for qa in s.get("qa") or []]
    if passages:
        print(f"passages {passages}: {stored:,} vectors for {written:,} messages")
    return store, questions, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--passages", default="", help="experiment: CHARS[:whole] (see above)")
    args = parser.parse_args()
    data = json.loads(args.data.read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    emb = embedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-hybrid-") as tmp:
        store, questions, n = build(data, args.messages, Path(tmp) / "sessions.db", args.passages)
        print(f"corpus: {n:,} messages with vectors ({time.perf_counter() - t0:.0f} s)")
        step = max(1, len(questions) // args.queries)
        picked = questions[::step][: args.queries]
        zh_path = Path(__file__).resolve().parent / "data" / "locomo-zh.json"
        zh = [e["zh"] for e in json.loads(zh_path.read_text(encoding="utf-8"))]

        def loader() -> Any:
            return emb

        out: dict[str, Any] = {"vectors": n, "model": emb.model_id, "queries": len(picked)}
        emb.embed_queries(["warm up"])
        run_session_search(store, {"query": "warm up"}, embedder_loader=loader)
        embed_t, search_t, exact_t, kept10, kept50 = [], [], [], [], []
        if args.passages:
            from _passages import PassageCache

            exact: VectorCache = PassageCache(emb.model_id, exact_max=10**12, dim=emb.dim)
        else:
            exact = VectorCache(emb.model_id, exact_max=10**12)  # every vector scored
        exact.refresh(store)
        everyone = SearchFilters(roles=("user", "assistant"))
        for q in picked:
            a = time.perf_counter()
            vec = emb.embed_queries([q])[0]
            b = time.perf_counter()
            got = [i for i, _ in store.vectors.search(vec, emb.model_id, everyone, 50)]
            c = time.perf_counter()
            truth = [i for i, _ in exact.search(store, vec, everyone, 50)]
            exact_t.append(time.perf_counter() - c)
            embed_t.append(b - a)
            search_t.append(c - b)
            kept10.append(len(set(got[:10]) & set(truth[:10])) / 10)
            kept50.append(len(set(got) & set(truth)) / 50)
        out["query_embedding"] = summarize_ms(embed_t)
        out["vector_search"] = summarize_ms(search_t)
        out["vector_search_exact"] = summarize_ms(exact_t)
        out["vector_search_kept_of_exact"] = {
            "at_10": round(float(np.mean(kept10)), 4),
            "at_50": round(float(np.mean(kept50)), 4),
            "exact_max": EXACT_MAX,
            "note": "share of the exact top 10 / top 50 the store's search returned "
            "(sign-code prefilter past exact_max vectors)",
        }
        print(
            f"  vector search   p50 {out['vector_search']['p50_ms']:.1f} ms (exact "
            f"{out['vector_search_exact']['p50_ms']:.1f} ms), kept {np.mean(kept10):.1%} "
            "of the exact top 10",
            flush=True,
        )
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
    out["passages"] = args.passages or None
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit("hybrid-passages" if args.passages else "hybrid", out)


if __name__ == "__main__":
    main()
