"""Latency of a whole hybrid ``session_search`` discovery call at 100,000 embedded messages.

    ./x bench hybrid                      # 100k messages, 200 questions per mode
    ./x bench hybrid --messages 20000

The corpus is the 5 LoCoMo dev conversations replicated under new session ids up to
``--messages``; each replica's vectors are the conversation's real passage vectors (see
below) plus small seeded noise, so the search does the work it would do on real vectors
without embedding 100k passages (5 passages/s on this machine). They are written through
the store's own vector write (``vectors.put``) and searched by the store's own
``vectors.search`` (the vector cache: numpy over an in-memory float32 matrix, filters as
masks, hits re-checked against the table). Each call is ``run_session_search`` end to end:
the query is embedded live (nothing cached), lexical and vector candidates are fused, the
results are read and bounded. Reported: p50/p99 per mode, and the parts (query embedding,
vector search) alone.

Each message's vectors are those of the shipped passage recipe (its whole passage, and
for a long one its pieces: ``mnemic.embedding.passage.passage_texts``), made by
``bench/_vcache.py``'s cached embedder; ``--passages SPEC`` measures another recipe
(``bench/_passages.py``: ``off``, ``size=``, ``pieces=``, ``from=``, ``rescored=``;
``mean=`` only changes what a backfill stores, not these vectors).
Every vector search and every semantic or hybrid call is timed twice per query, in
alternating order: with the store's cache as it is, and with the same cache stripped to
each message's first vector (the search before passage vectors), so the cost of the
pieces is a ratio within one run, not a difference between two runs of a busy machine.
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
from _common import emit, summarize_ms
from _passages import install, strip_pieces
from _semantic import embedder, store_turns
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewSession, SearchFilters, run_session_search
from mnemic.sessions.importing.importers import locomo_sessions
from mnemic.sessions.sql.vector_cache import EXACT_MAX, VectorCache, encode

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
)


def passage_vectors(turns: list[Any], spec: str) -> list[Any]:
    """Each turn's passage vectors, ``(k, dim)`` (``--passages``; empty: the shipped
    recipe)."""
    from _passages import parse, texts_of
    from _vcache import CachedEmbedder
    from mnemic.sessions.sql.vectors import PendingText

    knobs = parse(spec) if spec else {}
    texts = [texts_of(PendingText(0, "user", t[0], None, t[2], t[1], t[3]), knobs)
             for t in turns]  # fmt: skip
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
    base: dict[tuple[str, int], Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, sample in enumerate(data):
            one = SQLiteSessionStore(Path(tmp) / f"{n}.db", durable=False)
            items = [(NewSession(s.id, s.source, s.title, started_at=s.started_at), m)
                     for s, m in locomo_sessions(sample)]  # fmt: skip
            for _ in one.import_sessions(items, workers=0):
                pass
            _, pos, turns = store_turns(one)
            vecs = passage_vectors(turns, passages)
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
    print(f"passages {passages or 'shipped'}: {stored:,} vectors for {written:,} messages")
    return store, questions, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--passages", default="", help="another recipe (bench/_passages.py)")
    args = parser.parse_args()
    install(args.passages)  # the search's knob (rescored=); the vectors are written below
    query_vectors.QUERY_CACHE = 0  # every call embeds its query live (each is asked twice)
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
        cache = store.vectors._cache
        assert cache is not None
        stripped = VectorCache(emb.model_id, dim=emb.dim)
        stripped.refresh(store)
        strip_pieces(stripped)
        exact = VectorCache(emb.model_id, exact_max=10**12, dim=emb.dim)  # every row scored
        exact.refresh(store)
        everyone = SearchFilters(roles=("user", "assistant"))
        embed_t, kept10, kept50 = [], [], []
        times: dict[str, list[float]] = {"with": [], "without": [], "exact": []}
        for n, q in enumerate(picked):
            a = time.perf_counter()
            vec = emb.embed_queries([q])[0]
            embed_t.append(time.perf_counter() - a)
            got: dict[str, list[int]] = {}
            for label, c in (("with", cache), ("without", stripped), ("exact", exact))[
                :: 1 if n % 2 else -1
            ]:
                a = time.perf_counter()
                got[label] = [i for i, _ in c.search(store, vec, everyone, 50)]
                times[label].append(time.perf_counter() - a)
            kept10.append(len(set(got["with"][:10]) & set(got["exact"][:10])) / 10)
            kept50.append(len(set(got["with"]) & set(got["exact"])) / 50)
        out["query_embedding"] = summarize_ms(embed_t)
        out["vector_search"] = summarize_ms(times["with"])
        out["vector_search_first_vectors_only"] = summarize_ms(times["without"])
        out["vector_search_exact"] = summarize_ms(times["exact"])
        out["vector_search_kept_of_exact"] = {
            "at_10": round(float(np.mean(kept10)), 4),
            "at_50": round(float(np.mean(kept50)), 4),
            "exact_max": EXACT_MAX,
            "note": "share of the exact top 10 / top 50 (first vectors, every row scored, "
            "then the pieces of the best) the store's search returned (sign-code "
            "prefilter past exact_max messages)",
        }
        w, wo = out["vector_search"]["p50_ms"], out["vector_search_first_vectors_only"]["p50_ms"]
        print(
            f"  vector search   p50 {w:.2f} ms, first vectors only {wo:.2f} ms (x {w / wo:.2f});"
            f" exact {out['vector_search_exact']['p50_ms']:.1f} ms, kept {np.mean(kept10):.1%}"
            " of the exact top 10",
            flush=True,
        )
        for label, qs, mode in (
            ("lexical", picked, "lexical"),
            ("hybrid", picked, "hybrid"),
            ("semantic", picked, "semantic"),
            ("hybrid_chinese", zh, "hybrid"),
        ):
            runs: dict[str, list[float]] = {"with": [], "without": []}
            for n, q in enumerate(qs):
                sides = ("with", "without") if mode != "lexical" else ("with",)
                for side in sides[:: 1 if n % 2 else -1]:
                    store.vectors._cache = cache if side == "with" else stripped
                    a = time.perf_counter()
                    resp = run_session_search(store, {"query": q, "mode": mode},
                                              embedder_loader=loader)  # fmt: skip
                    runs[side].append(time.perf_counter() - a)
                    assert resp.get("success"), resp
                    assert resp.get("retrieval") == mode, resp.get("notice")
            store.vectors._cache = cache
            out[label] = summarize_ms(runs["with"])
            r = out[label]
            line = f"  {label:15s} p50 {r['p50_ms']:.1f} ms  p99 {r['p99_ms']:.1f} ms"
            if runs["without"]:
                b = out[f"{label}_first_vectors_only"] = summarize_ms(runs["without"])
                line += (f"; first vectors only p50 {b['p50_ms']:.1f} ms p99 {b['p99_ms']:.1f}"
                         f" ms (p50 x {r['p50_ms'] / b['p50_ms']:.3f})")  # fmt: skip
            print(line, flush=True)
        store.close()
    out["aim_ms"] = {"p50": 25, "p99": 50}
    out["passages"] = args.passages or "shipped"
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit(f"hybrid-passages-{args.passages}" if args.passages else "hybrid", out)


if __name__ == "__main__":
    main()
