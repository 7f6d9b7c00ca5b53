"""The words' writer changes each word's row once a call, not once a message (mend 12):
linking many messages that share words used to update a shared word's row (and, through
its trigger, the words' counter) once for every message holding it, which on PostgreSQL
made a copy of 2,000 messages spend 39 s in this writer (0.6 s now). The links and
counts are the same as before, on both backends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from _backends import pg_config
from mnemic.embedding.standin import StandinEmbedder
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store
from mnemic.sessions.search.embed import embed_pending
from mnemic.sessions.sql.words import message_words

TEXTS = ["the red kayak", "the blue kayak", "the red boat", "a green boat", "the kayak"]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def home(request: pytest.FixtureRequest, home_path: Path) -> Path:
    home_path.mkdir(parents=True, exist_ok=True)
    if request.param == "postgres":
        dsn, schema = request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
        (home_path / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    return home_path


def _changes(store: Any) -> int:
    return int(store._read("SELECT value FROM {s}.meta WHERE key = 'word_changes'")[0][0])


def test_each_words_row_changes_once_a_call_and_the_counts_hold(home: Path) -> None:
    standin = StandinEmbedder()
    with open_store(Home.open(home)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        ids = store.append_messages("a", [NewMessage("user", t) for t in TEXTS])
        assert store.vectors is not None and store.words is not None
        embed_pending(store.vectors, standin, store.vectors.pending(standin.model_id))
        held = [(i, message_words(t, None)) for i, t in zip(ids, TEXTS, strict=True)]
        every = set().union(*(ws for _, ws in held))
        before = _changes(store)
        store.words.put(standin.model_id, held, standin.embed_queries)
        # each word inserted once and its count set once: two row changes a word
        assert _changes(store) - before == 2 * len(every)
        refs = dict(store._read("SELECT word, refs FROM {s}.chat_words"))
        assert refs == {w: sum(w in ws for _, ws in held) for w in every}
        word_of = {int(i): str(w) for i, w in store._read("SELECT id, word FROM {s}.chat_words")}
        links = dict(store._read("SELECT message_id, ids FROM {s}.message_words"))
        assert {mid: {word_of[i] for i in json.loads(links[mid])} for mid in ids} == dict(held)
        again = _changes(store)
        store.words.put(standin.model_id, held, standin.embed_queries)  # all linked: nothing
        assert _changes(store) == again
