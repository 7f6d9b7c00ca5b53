"""Order-of-events questions: ``./x bench order``.

The fixture (``bench/_events.py``, ``bench/data/events.json``): six users' months of
sessions with eight threads of events each (a move, a new job, a marathon...), four events
per thread in order, interleaved; questions "What did I do after I ...?", "... before I
...?" and "How did ... go over the sessions?". Each history is imported into its own
store and every question ranked through the public ranking API
(:func:`mnemic.sessions.search_messages`; lexical, or ``--mode hybrid`` with the
history embedded by the product's backfill), twice in the same run: as listed
before order of events was read (``order="relevance"``: best first, nothing joins the
best match) and as now (``order="auto"``). Per question, over the first ``k`` listed:

* ``neighbour@k`` (after / before): the event named is listed, and the first event listed
  after it (before it, for "before") is the right one (the one the user told of next);
* ``in_order@k`` (sequence): every event of the thread is listed, in the order they
  happened;
* ``held@k``: the share of the evidence among the first ``k``, whatever the order.

Figures on the test split (template families never tuned on) and the dev split, with n
and a 95 % bootstrap interval (``bench/_metrics.py``).
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

from _common import emit
from _events import DATA, build
from _metrics import Scores, recall_at
from _vcache import CachedEmbedder
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import search_messages
from mnemic.sessions.search.embed import backfill
from mnemic.sessions.search.retrieval import SemanticState, semantic_state
from recall import history_items

KS = (5, 10)
ORDERS = {"before": "relevance", "after": "auto"}
"""Label of the run -> the ``order`` search_messages is asked with."""


def load() -> dict[str, Any]:
    if DATA.exists():
        data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
        return data
    return build()


def make_store(
    hist: dict[str, Any], path: Path, embedder: CachedEmbedder | None
) -> tuple[SQLiteSessionStore, dict[Any, str]]:
    store = SQLiteSessionStore(path, durable=False)
    items, keys = history_items(hist)
    for _ in store.import_sessions(items, workers=0):
        pass
    if embedder is not None:
        backfill(store, embedder, batch=64)  # type: ignore[arg-type]
    return store, keys


def score(
    q: dict[str, Any], listed: list[str | None], k: int, events: set[str]
) -> dict[str, float]:
    """The question's figures over the first ``k`` of ``listed`` (fixture keys or None)."""
    top = listed[:k]
    out = {f"held@{k}": recall_at(set(q["evidence"]), top, k)}
    shown = [key for key in top if key in events]
    if q["kind"] == "sequence":
        want = q["evidence"]
        out[f"in_order@{k}"] = float([key for key in shown if key in want] == want)
    else:
        ok = 0.0
        if q["named"] in shown:
            at = shown.index(q["named"])
            side = shown[at + 1 :] if q["kind"] == "after" else shown[:at][::-1]
            ok = float(bool(side) and side[0] == q["evidence"][0])
        out[f"neighbour@{k}"] = ok
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("lexical", "hybrid"), default="lexical")
    mode = parser.parse_args().mode
    t0 = time.perf_counter()
    data = load()
    embedder = CachedEmbedder() if mode == "hybrid" else None
    misses: list[dict[str, Any]] = []
    runs = {label: {"dev": Scores(), "test": Scores()} for label in ORDERS}
    with tempfile.TemporaryDirectory(prefix="mnemic-order-") as tmp:
        stores = {}
        states: dict[str, SemanticState | None] = {}
        for hist in data["histories"]:
            store, keys = make_store(hist, Path(tmp) / f"{hist['id']}.db", embedder)
            stores[hist["id"]] = (store, keys)
            loader = (lambda: embedder) if embedder is not None else None
            states[hist["id"]] = semantic_state(store, loader, max_age=1e9) if loader else None
        events = {q["named"] for q in data["questions"] if "named" in q}
        events |= {k for q in data["questions"] for k in q["evidence"]}
        for q in data["questions"]:
            store, keys = stores[q["history"]]
            for label, order in ORDERS.items():
                for k in KS:  # asked for k results, as a reader would: the listing's order
                    ranking = search_messages(
                        store,
                        q["question"],
                        mode=mode,
                        limit=k,
                        order=order,
                        state=states[q["history"]],
                        floor=False,
                    )
                    listed = [keys.get((r.session_id, r.seq)) for r in ranking.results]
                    got = score(q, listed, k, events)
                    for metric, value in got.items():
                        runs[label][q["split"]].add(metric, value, [q["kind"]])
                    ordered = [v for m, v in got.items() if not m.startswith("held")]
                    shown = label == "after" and k == max(KS) and q["split"] == "dev"
                    if shown and not all(ordered):
                        misses.append(
                            {"question": q["question"], "history": q["history"],
                             "want": q["evidence"], "named": q.get("named"), "got": listed}
                        )  # fmt: skip
        for store, _ in stores.values():
            store.close()
    results = {
        label: {split: s.result() for split, s in splits.items()} for label, splits in runs.items()
    }
    for split in ("test", "dev"):
        for label in ORDERS:
            r = results[label][split]
            by = r["by"]
            line = "  ".join(
                f"{m} {by[kind][m]['value']:.3f} (n={by[kind][m]['n']})"
                for kind, m in (("after", "neighbour@10"), ("before", "neighbour@10"),
                                ("sequence", "in_order@10"))
                if kind in by
            )  # fmt: skip
            print(f"  {split:4s} {label:6s} {line}", flush=True)
    emit(
        "order" if mode == "lexical" else f"order-{mode}",
        {
            "questions": len(data["questions"]),
            "mode": mode,
            "runs": {label: f"search_messages(order={o!r})" for label, o in ORDERS.items()},
            "results": results,
            "dev_misses": misses[:10],
            "seconds": round(time.perf_counter() - t0, 1),
        },
    )


if __name__ == "__main__":
    main()
