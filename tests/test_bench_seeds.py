"""bench/_seeds.py, recall 15's seeded second retrieval (measured on dev and dropped,
``docs/recall.md``): the top hit's rare words the question does not hold find another
session's message, which enters no higher than the place it is scored against."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _seeds import seeded
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, NewSession
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.search.ranking import rank_messages
from mnemic.sessions.search.retrieval import lexical_only
from mnemic.sessions.search.timeframe import TimeFrame
from mnemic.sessions.store import SearchFilters

FILLER = [f"Weekend plan number {n}: groceries, laundry and a walk." for n in range(30)]


def _store(path: Path) -> SQLiteSessionStore:
    store = SQLiteSessionStore(path)
    first = [NewMessage("user", "After the concert I adopted a puppy called Luna.", name="Mel")]
    second = [NewMessage("user", "Luna chewed through my favourite sneakers.", name="Mel")]
    third = [NewMessage("user", "The concert was loud and the puppy slept.", name="Mel")]
    sessions = [
        (NewSession("s1", "cli"), first + [NewMessage("user", t, name="Mel") for t in FILLER]),
        (NewSession("s2", "cli"), second),
        (NewSession("s3", "cli"), third),
    ]
    for _ in store.import_sessions(sessions, workers=0):
        pass
    return store


def _ranked(store: SQLiteSessionStore, text: str, place: int) -> list[Any]:
    query = parse_query(text, match="any")
    fused = lexical_only(rank_messages(store, query, SearchFilters()))

    def shipped(_store: Any, fused: Any, _query: Any, _frame: Any, _read: Any = None) -> Any:
        return list(fused)

    return list(seeded(shipped, place)(store, fused, query, TimeFrame(), None))


def test_the_top_hits_rare_word_finds_another_sessions_message_below_its_place(
    tmp_path: Path,
) -> None:
    with _store(tmp_path / "s.db") as store:
        out = _ranked(store, "What was adopted after the concert?", place=2)
    keys = [(f.session_id, f.seq) for f in out]
    assert keys[0] == ("s1", 0)  # the seed: its rare word "Luna" is not the question's
    assert ("s2", 0) in keys
    at = keys.index(("s2", 0))
    assert "seeded" in out[at].notes
    assert at >= 2 and out[at].score <= out[1].score  # never above the second place
    assert not any("seeded" in f.notes for f in out if f.session_id == "s1")


def test_nothing_is_seeded_when_the_list_is_shorter_than_the_place(tmp_path: Path) -> None:
    with _store(tmp_path / "s.db") as store:
        out = _ranked(store, "What was adopted after the concert?", place=500)
    assert not any("seeded" in f.notes for f in out)
    assert ("s2", 0) not in [(f.session_id, f.seq) for f in out]
