"""Where the milliseconds of one hybrid ``search_messages`` call go, at 100,000 messages.

    ./x bench hybrid_stages                       # the store of ./x bench recall100k
    ./x bench hybrid_stages --keep /tmp/h100k.db  # build once, reuse on later runs
    ./x bench hybrid_stages --profile             # and one cProfile of the calls

The store is ``bench/recall100k.py``'s (the LoCoMo dev conversations among replicas of
the test ones, every message with its passage vectors). Each dev question is ranked
through ``search_messages`` (hybrid, floor off, limit 50, the query embedded live) with
a timer around each stage: the stage functions are wrapped for this run only (the
wrappers cost about a microsecond a call). Stages nest (the vector search runs inside
the semantic hits, the matmul inside the vector search): the table says which. The
semantic arm (the query's embedding, then, since 2026-12-05, the vector search and the
hits' rows) runs on a helper thread beside the lexical search, so the call's wall time
is not the sum of its stages. ``PYTHONPATH=OTHER/src`` times another code tree.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import json
import pstats
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import percentile
from _semantic import embedder
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import search_messages
from mnemic.sessions.search.retrieval import semantic_state
from recall import LOCOMO, LOCOMO_SPLIT

EMBEDDING = "query embedding (helper thread)"
R = "mnemic.sessions.search.retrieval"
C = "mnemic.sessions.sql.vector_cache"
S = "mnemic.backends.files.sqlite"
M = "mnemic.sessions.search.messages"
# (label, module, attribute, class): what is timed, indented under what it runs inside
STAGES = [
    ("lexical candidates (FTS + bm25)", R, "rank_messages", None),
    ("semantic hits (total; helper thread)", R, "_semantic_hits", None),
    ("  vector cache refresh", C, "refresh", "VectorCache"),
    ("  filter mask", C, "mask", "VectorCache"),
    ("  top-k (sign-code prefilter + matmul)", C, "prefiltered_topk", None),
    ("  top-k exact (matmul + select)", C, "topk", None),
    ("  pieces of the 200 best", C, "_best_of_pieces", "VectorCache"),
    ("  hits still stored (SQL)", C, "_still_stored", None),
    ("  hit rows (SQL)", S, "messages_by_id", "SQLiteSessionStore"),
    ("  hit sessions (SQL)", S, "get_sessions", "SQLiteSessionStore"),
    ("fusion", R, "fuse", None),
    ("speaker (named)", R, "prefer_named", None),
    ("speaker (role)", R, "prefer_role", None),
    ("repeats", R, "discount_repeats", None),
    ("freshness", R, "freshen", None),
    ("floor verdict", M, "judge", None),
    ("sequence (follow)", M, "follow", None),
    ("rows of the final list (SQL)", M, "_resolve", None),
]


def _instrument(spent: dict[str, list[float]]) -> None:
    """Wrap every stage so each call adds its duration to ``spent[label]``."""
    import importlib

    for label, module_name, attr, owner in STAGES:
        module = importlib.import_module(module_name)
        if not hasattr(module, owner or attr):  # another code tree without the stage
            continue
        holder: Any = getattr(module, owner) if owner else module
        if owner:  # a method may live on a base class: wrap where it is looked up
            holder = next(c for c in holder.__mro__ if attr in c.__dict__)
        inner = getattr(holder, attr)

        def timed(*a: Any, _inner: Any = inner, _into: list[float] = spent[label], **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return _inner(*a, **k)
            finally:
                _into.append(time.perf_counter() - t)

        functools.update_wrapper(timed, inner)
        setattr(holder, attr, timed)


def _time_embedding(emb: Any, into: list[float]) -> None:
    """Time every query the embedder embeds (on the helper thread: the instance's own
    method is wrapped, so the vectors stay its own)."""
    inner = emb.embed_queries

    def embed_queries(texts: Any) -> Any:
        t = time.perf_counter()
        try:
            return inner(texts)
        finally:
            into.append(time.perf_counter() - t)

    emb.embed_queries = embed_queries


def questions() -> list[str]:
    """The LoCoMo dev questions (what ``./x bench recall100k`` asks)."""
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    dev = set(LOCOMO_SPLIT["dev"])
    return [str(qa["question"]) for d in data if d["sample_id"] in dev for qa in d["qa"]]


def open_store(keep: Path | None, messages: int) -> SQLiteSessionStore:
    """The 100k store of ``./x bench recall100k`` (built, or reopened from ``keep``)."""
    if keep is not None and keep.exists():
        return SQLiteSessionStore(keep, durable=False)
    from recall100k import build

    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    dev = set(LOCOMO_SPLIT["dev"])
    planted = [d for d in data if d["sample_id"] in dev]
    others = [d for d in data if d["sample_id"] not in dev]
    path = keep or Path(tempfile.mkdtemp(prefix="mnemic-stages-")) / "big.db"
    store, n = build(planted, others, messages, path)
    print(f"built {n:,} messages with vectors at {path}", file=sys.stderr)
    return store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, default=None, help="store path to build / reuse")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--profile", action="store_true", help="a cProfile (main thread only)")
    args = parser.parse_args()
    store = open_store(args.keep, args.messages)
    emb = embedder()
    state = semantic_state(store, lambda: emb, max_age=1e9)
    qs = questions()
    picked = qs[:: max(1, len(qs) // args.queries)][: args.queries]
    for q in ("warm up the matrix", "and the model", "and the page cache"):  # not asked
        search_messages(store, q, mode="hybrid", limit=50, floor=False, state=state)
    spent: dict[str, list[float]] = defaultdict(list)
    _instrument(spent)
    _time_embedding(emb, spent[EMBEDDING])
    calls: list[float] = []
    prof = cProfile.Profile() if args.profile else None
    for q in picked:
        t = time.perf_counter()
        if prof is not None:
            prof.enable()
        search_messages(store, q, mode="hybrid", limit=50, floor=False, state=state)
        if prof is not None:
            prof.disable()
        calls.append(time.perf_counter() - t)
    n = len(picked)
    p50, p99, mean = percentile(calls, 50) * 1e3, percentile(calls, 99) * 1e3, sum(calls) / n * 1e3
    print(f"{n} hybrid calls; whole call p50 {p50:.1f} ms, p99 {p99:.1f} ms, mean {mean:.1f} ms")
    print(f"| {'stage':40s} | mean ms/call | p50 ms | p99 ms |  (p50 / p99: of the calls it ran)")
    print(f"|{'-' * 42}|-------------:|-------:|-------:|")
    for label in [EMBEDDING] + [s[0] for s in STAGES]:
        got = spent.get(label, [])
        if not got:
            continue
        per_call = sum(got) / n * 1e3
        print(f"| {label:40s} | {per_call:12.2f} | {percentile(got, 50) * 1e3:6.2f} | "
              f"{percentile(got, 99) * 1e3:6.2f} |")  # fmt: skip
    if prof is not None:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    store.close()


if __name__ == "__main__":
    main()
