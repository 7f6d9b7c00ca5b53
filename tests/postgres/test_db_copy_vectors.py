"""``mnemic db copy`` carries the session vectors and the chat's words (mend 12): a home
copied into PostgreSQL and back ranks ``sessions search --retrieval hybrid`` as the
source did, without embedding anything again (the real embedder, a small chat)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import pg_config
from _talks import real_embedder
from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store, search_messages
from mnemic.sessions.search.embed import backfill

pytestmark = pytest.mark.postgres

CHAT = [
    ("user", "Long day: I fixed the kitchen sink, paid the electricity bill and finally "
             "picked up the red kayak from the shop."),
    ("assistant", "What a productive day."),
    ("user", "We went sailing on the lake last summer, the boat was blue."),
    ("assistant", "Sailing sounds fun, what colour were the sails?"),
    ("user", "White sails, and my brother painted his boat green."),
    ("assistant", "A green boat must stand out on the water."),
    ("user", "My neighbour's fishing boat is painted orange and black."),
    ("assistant", "Orange is a safe colour at sea."),
    ("user", "I want to paint the dinghy purple this spring."),
    ("assistant", "Purple would be unusual for a dinghy."),
]  # fmt: skip
QUESTIONS = [
    "我买的皮划艇是什么颜色？",  # the bridge: the chat's words
    "which colour did my brother give his boat",
    "Welche Farbe hat das Fischerboot des Nachbarn?",
]


class QueriesOnly:
    """The real embedder for questions only: embedding a message's text fails."""

    def __init__(self, embedder: Any) -> None:
        self.model_id = embedder.model_id
        self.dim = embedder.dim
        self._embedder = embedder

    def embed_queries(self, texts: Sequence[str]) -> Any:
        return self._embedder.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> Any:
        raise AssertionError(f"embedded {len(texts)} message text(s) again")


@pytest.fixture(scope="module")
def embedder() -> Any:
    return real_embedder()


def _rankings(home: Path, embedder: Any) -> list[list[tuple[str, int, float]]]:
    out = []
    with open_store(Home.open(home)) as store:
        assert store.vectors is not None and store.words is not None
        assert store.vectors.pending(embedder.model_id) == []
        assert store.words.missing(embedder.model_id) == 0
        for text in QUESTIONS:
            got = search_messages(
                store, text, mode="hybrid", limit=8, embedder_loader=lambda: QueriesOnly(embedder)
            )
            assert got.mode == "hybrid", got.notice
            out.append([(r.session_id, r.seq, round(r.score, 6)) for r in got.results])
    return out


def _copy(home: Path, source: str, destination: str, schema: str) -> dict[str, Any]:
    args = ["--home", str(home), "db", "copy", "--from", source, "--to", destination]
    result = CliRunner().invoke(main, [*args, "--schema", schema, "--json"])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.output)
    assert report["verified"] is True
    return report


def test_vectors_and_words_travel_into_the_database_and_back(
    tmp_path: Path, pg_dsn: str, pg_schema: str, embedder: Any
) -> None:
    source, host, back = tmp_path / "source", tmp_path / "host", tmp_path / "back"
    source.mkdir()
    with open_store(Home.open(source)) as store:
        for sid, at in (("a", 1_750_000_000.0), ("b", 1_750_100_000.0)):
            store.start_session(id=sid, started_at=at, source="cli")
            half = CHAT[:6] if sid == "a" else CHAT[6:]
            store.append_messages(sid, [NewMessage(r, t) for r, t in half])
        backfill(store, embedder)
        assert store.vectors is not None and store.words is not None
        vectors, words = store.vectors.count(), store.words.linked()
    assert vectors == len(CHAT) and words == len(CHAT)
    before = _rankings(source, embedder)

    report = _copy(source, str(source), pg_dsn, pg_schema)
    host.mkdir()
    (host / "config.toml").write_text(pg_config(pg_dsn, pg_schema), encoding="utf-8")
    there = _rankings(host, embedder)  # another full-text index: the same order
    assert [[r[:2] for r in got] for got in there] == [[r[:2] for r in got] for got in before]
    kinds = report["kinds"]
    assert kinds["vectors"]["source"] == kinds["vectors"]["copied"] == vectors
    assert kinds["message words"]["source"] == kinds["message words"]["copied"] == words
    assert any(embedder.model_id in note for note in report["notes"])

    report = _copy(source, pg_dsn, str(back), pg_schema)
    assert _rankings(back, embedder) == before
    assert report["kinds"]["vectors"]["copied"] == vectors
    assert report["kinds"]["message words"]["copied"] == words


def test_a_session_the_destination_already_has_keeps_its_own_vectors(
    tmp_path: Path, pg_dsn: str, pg_schema: str, embedder: Any
) -> None:
    source, host = tmp_path / "source", tmp_path / "host"
    source.mkdir()
    host.mkdir()
    (host / "config.toml").write_text(pg_config(pg_dsn, pg_schema), encoding="utf-8")
    for home, chat in ((source, CHAT[:4]), (host, CHAT[4:])):
        with open_store(Home.open(home)) as store:
            store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
            store.append_messages("a", [NewMessage(r, t) for r, t in chat])
            if home == source:
                store.start_session(id="b", started_at=1_750_100_000.0, source="cli")
                store.append_messages("b", [NewMessage(r, t) for r, t in CHAT[8:]])
            backfill(store, embedder)
    with open_store(Home.open(host)) as store:
        assert store.vectors is not None
        theirs = [(m, blob) for m, _, blob in store.vectors.of_messages(range(1, 99))]

    kinds = _copy(source, str(source), pg_dsn, pg_schema)["kinds"]
    with open_store(Home.open(host)) as store:
        assert store.vectors is not None and store.words is not None
        assert store.vectors.pending(embedder.model_id) == []  # session b's came along
        assert store.words.missing(embedder.model_id) == 0
        kept = [(m, blob) for m, _, blob in store.vectors.of_messages(range(1, 99))]
        assert kept[: len(theirs)] == theirs and len(kept) == len(theirs) + 2
    assert kinds["sessions"]["skipped"] == 1
    assert kinds["vectors"]["source"] == 6 and kinds["vectors"]["copied"] == 2
    assert kinds["vectors"]["skipped"] == 4
