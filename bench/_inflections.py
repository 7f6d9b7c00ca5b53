"""What matching a question's other inflections costs (recall 13), on SQLite and PostgreSQL.

    .venv/bin/python bench/_inflections.py            # both backends (PostgreSQL: a scratch server)
    .venv/bin/python bench/_inflections.py --sqlite   # SQLite only

The LoCoMo dev conversations are imported into one store per backend (the bench's
importer, no vectors: this times the lexical side), and the questions of the dev sets
that carry another language than English (``xl`` and the update fixture's German and
Spanish ones over their own histories) are searched as hybrid's lexical side searches
them (``match="any"``, 200 candidates) and probed word by word as its held share probes
them, with the forms (shipped) and without (``_inflected`` the identity), interleaved
call by call over four rounds with the order rotated. Prints the p50 of each arm, its
ratio to the other, the p50 of the vocabulary read alone, and the store's size (nothing
is stored, so the same); one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall as rb
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions.index.query import Query, Term, parse_query
from mnemic.sessions.index.stems import _inflectable, _stems
from mnemic.sessions.sql.store import SqlSessionStore
from mnemic.sessions.store import SearchFilters

ROUNDS = 4


def _questions() -> list[tuple[str, str]]:
    """``(conversation or history, question)`` of the dev questions in another language."""
    out = []
    dev = set(rb.LOCOMO_SPLIT["dev"])
    for q in json.loads((rb.HERE / "data" / "locomo-xl.json").read_text(encoding="utf-8")):
        if q["sample_id"] in dev:
            out.append((q["sample_id"], q["xl"]))
    fixture = json.loads((rb.HERE / "data" / "updates.json").read_text(encoding="utf-8"))
    for case in fixture["cases"]:
        if case["split"] == "dev" and case["lang"] in ("de", "es"):
            out += [(f"updates-{case['lang']}", case[k]) for k in ("now", "past")]
    return [(c, q) for c, q in out if parse_query(q).languages]


def _calls(store: SqlSessionStore, text: str) -> Callable[[], Any]:
    query = parse_query(text, match="any")
    words = [t.text for t in query.terms]
    probes = [Query(w, ((Term(w, (w,)),),), languages=query.languages) for w in words]

    def call() -> Any:
        store.search(query, SearchFilters(), limit=200)
        return store.holds(probes)

    return call


def _vocabulary(store: SqlSessionStore, text: str) -> Callable[[], Any]:
    query = parse_query(text, match="any")
    stems = sorted(
        {
            s
            for t in query.terms
            if _inflectable(t, query.languages)
            for lang in query.languages
            for s in _stems(t.text, lang)
        }
    )
    return lambda: store._vocabulary(stems)


def _time(
    stores: dict[str, SqlSessionStore], asked: list[tuple[str, str]]
) -> dict[str, dict[str, float]]:
    arms: dict[str, Callable[[SqlSessionStore, str], Callable[[], Any]]] = {
        "forms": _calls,
        "none": _calls,
        "vocabulary": _vocabulary,
    }
    times: dict[str, list[float]] = {name: [] for name in arms}
    names = list(arms)
    for round_ in range(ROUNDS):
        order = names[round_ % len(names) :] + names[: round_ % len(names)]
        for corpus, text in asked:
            store = stores[corpus]
            for name in order:
                call = arms[name](store, text)
                original = SqlSessionStore._inflected
                if name == "none":
                    SqlSessionStore._inflected = lambda _s, queries: queries  # type: ignore[method-assign]
                try:
                    t0 = time.perf_counter()
                    call()
                    times[name].append(time.perf_counter() - t0)
                finally:
                    SqlSessionStore._inflected = original  # type: ignore[method-assign]
    p50 = {name: statistics.median(ts) * 1000 for name, ts in times.items()}
    return {
        "p50_ms": {k: round(v, 3) for k, v in p50.items()},
        "ratio_forms_to_none": round(p50["forms"] / p50["none"], 3),
        "n": len(asked),
    }


def _stores(kind: str, work: Path, dsn: str | None) -> dict[str, SqlSessionStore]:
    data = json.loads(rb.LOCOMO.read_text(encoding="utf-8"))
    dev = set(rb.LOCOMO_SPLIT["dev"])
    items = {d["sample_id"]: d for d in data if d["sample_id"] in dev}
    fixture = json.loads((rb.HERE / "data" / "updates.json").read_text(encoding="utf-8"))
    fixture["histories"] = [h for h in fixture["histories"] if h["lang"] in ("de", "es")]
    corpora = {
        **rb.locomo_corpora(list(items.values()), work / kind, None),
        **rb.updates_corpora(fixture, work / kind, None),
    }
    if kind == "sqlite":
        return {name: c.store for name, c in corpora.items()}
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import migrate
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    out: dict[str, SqlSessionStore] = {}
    for i, (name, c) in enumerate(corpora.items()):
        db = Database(dsn or "", schema=f"inflect{i}")
        migrate(db)
        store = PostgresSessionStore(db)
        sessions = []
        for info in c.store.list_sessions(limit=1_000_000):
            sessions.append((info, c.store.messages(info.id)))
        from mnemic.sessions.store import NewMessage, NewSession

        batch = [
            (
                NewSession(info.id, info.source, started_at=info.started_at),
                [NewMessage(m.role, m.content, timestamp=m.timestamp) for m in msgs],
            )
            for info, msgs in sorted(sessions, key=lambda s: s[0].started_at)
        ]
        for _ in store.import_sessions(batch):
            pass
        store.analyze()
        out[name] = store
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sqlite", action="store_true", help="SQLite only")
    args = parser.parse_args()
    asked = _questions()
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="mnemic-inflect-") as tmp:
        work = Path(tmp)
        (work / "sqlite").mkdir()
        stores = _stores("sqlite", work, None)
        asked = [(c, q) for c, q in asked if c in stores]
        result["sqlite"] = _time(stores, asked)
        result["sqlite"]["bytes"] = sum(
            s.stats().db_bytes for s in stores.values() if isinstance(s, SQLiteSessionStore)
        )
        print("sqlite", json.dumps(result["sqlite"]), flush=True)
        if not args.sqlite:
            from _pgserver import scratch_server

            (work / "postgres").mkdir()
            with scratch_server() as server:
                pg = _stores("postgres", work, server.dsn)
                result["postgres"] = _time(pg, asked)
                print("postgres", json.dumps(result["postgres"]), flush=True)
                for s in pg.values():
                    s.close()
        for s in stores.values():
            s.close()
    out = Path(__file__).resolve().parent / "results" / "inflections.json"
    out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
