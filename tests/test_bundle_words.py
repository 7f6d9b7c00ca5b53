"""A bundle exported ``--with-vectors`` carries the chat's words too (mend 13, issue 26/32):
the ``chat_words`` the cross-language bridge reads and each message's links to them
(``message_words``), so the imported home searches (hybrid, a question in a script the
chat does not write) as the source did, with nothing to embed again. Before, the vectors
came and the words did not: every imported message was missing its words until
``mnemic sessions embed`` ran with the embedder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import pg_config
from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store, search_messages

CHAT = [
    ("user", "I picked up the red kayak from the shop on Tuesday."),
    ("assistant", "A red kayak will be easy to spot on the lake."),
    ("user", "My brother painted his sailing boat green last summer."),
    ("assistant", "Green boats stand out on the water."),
    ("user", "The neighbour's fishing boat is orange and black."),
    ("assistant", "Orange is a safe colour at sea."),
]
QUESTIONS = ["我买的皮划艇是什么颜色？", "which colour is my brother's boat"]


def _cli(home: Path, *args: str) -> Any:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output) if "--json" in args else result.output


def _words(home: Path) -> tuple[list[tuple[str, str, bytes]], list[tuple[str, int, list[str]]]]:
    """The chat's words (word, model, vector) and each message's words, by session and
    position (message ids are each store's own)."""
    with open_store(Home.open(home)) as store:
        rows = store._read("SELECT id, word, model, vec FROM {s}.chat_words")  # type: ignore[attr-defined]
        name = {int(r[0]): str(r[1]) for r in rows}
        linked = store._read(  # type: ignore[attr-defined]
            "SELECT s.id, m.seq, w.ids FROM {s}.message_words w JOIN {s}.messages m "
            "ON m.id = w.message_id JOIN {s}.sessions s ON s.sid = m.sid"
        )
    words = sorted((str(r[1]), str(r[2]), bytes(r[3])) for r in rows)
    links = sorted(
        (str(s), int(q), sorted(name[i] for i in json.loads(ids))) for s, q, ids in linked
    )
    return words, links


def _rankings(home: Path, embedder: Any) -> list[list[tuple[str, int, float]]]:
    out = []
    with open_store(Home.open(home)) as store:
        assert store.vectors is not None and store.words is not None
        assert store.vectors.pending(embedder.model_id) == []
        assert store.words.missing(embedder.model_id) == 0  # nothing to embed again
        for text in QUESTIONS:
            got = search_messages(
                store, text, mode="hybrid", limit=6, embedder_loader=lambda: embedder
            )
            assert got.mode == "hybrid", got.notice
            out.append([(r.session_id, r.seq, round(r.score, 6)) for r in got.results])
    return out


@pytest.fixture(params=["files", pytest.param("postgres", marks=pytest.mark.postgres)])
def destination(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    home = tmp_path / "destination"
    if request.param == "postgres":
        dsn, schema = request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
        home.mkdir()
        (home / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    return home


def test_the_chats_words_travel_with_the_vectors(tmp_path: Path, destination: Path) -> None:
    pytest.importorskip("numpy")
    from mnemic.embedding.standin import StandinEmbedder
    from mnemic.sessions.search.embed import backfill

    embedder = StandinEmbedder()
    source = tmp_path / "source"
    source.mkdir()
    with open_store(Home.open(source)) as store:
        for sid, half in (("a", CHAT[:4]), ("b", CHAT[4:])):
            store.start_session(id=sid, started_at=1_750_000_000.0, source="cli")
            store.append_messages(sid, [NewMessage(r, t) for r, t in half])
        assert backfill(store, embedder).done == len(CHAT)
    words, links = _words(source)
    assert len(links) == len(CHAT) and "kayak" in {w for w, _, _ in words}
    before = _rankings(source, embedder)

    bundle = tmp_path / "home.mnemic"
    report = _cli(source, "export", "--bundle", str(bundle), "--with-vectors", "--json")
    _cli(destination, "import", "--bundle", str(bundle))
    assert _words(destination) == (words, links)
    assert _rankings(destination, embedder) == before
    assert report["counts"]["chat_words"] == len(words)
    assert report["counts"]["message_words"] == len(CHAT)


def test_a_bundle_without_vectors_carries_no_words(tmp_path: Path) -> None:
    """The words are the vectors' companions: a plain bundle has neither."""
    pytest.importorskip("numpy")
    from mnemic.embedding.standin import StandinEmbedder
    from mnemic.sessions.search.embed import backfill

    source = tmp_path / "source"
    source.mkdir()
    with open_store(Home.open(source)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        store.append_messages("a", [NewMessage(r, t) for r, t in CHAT])
        backfill(store, StandinEmbedder())
    bundle = tmp_path / "plain.mnemic"
    counts = _cli(source, "export", "--bundle", str(bundle), "--json")["counts"]
    assert "chat_words" not in counts and "message_words" not in counts
    _cli(tmp_path / "other", "import", "--bundle", str(bundle))
    assert _words(tmp_path / "other") == ([], [])


def test_a_bundle_made_before_the_words_travelled_says_what_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bundle with vectors and no words (an older mnemic's): the import says the words
    are missing and which command links them; the messages keep their vectors."""
    pytest.importorskip("numpy")
    import mnemic.ops.bundle.export as export
    from mnemic.embedding.standin import StandinEmbedder
    from mnemic.sessions.search.embed import backfill

    embedder = StandinEmbedder()
    source = tmp_path / "source"
    source.mkdir()
    with open_store(Home.open(source)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        store.append_messages("a", [NewMessage(r, t) for r, t in CHAT])
        backfill(store, embedder)
    bundle = tmp_path / "old.mnemic"
    monkeypatch.setattr(export, "_write_words", lambda *args: None)  # as before mend 13
    _cli(source, "export", "--bundle", str(bundle), "--with-vectors")
    monkeypatch.undo()
    dest = tmp_path / "dest"
    out = _cli(dest, "import", "--bundle", str(bundle))
    assert "without the chat's words" in out and "`mnemic sessions embed` links them" in out
    with open_store(Home.open(dest)) as store:
        assert store.vectors is not None and store.words is not None
        assert store.vectors.pending(embedder.model_id) == []
        assert store.words.missing(embedder.model_id) == len(CHAT)  # what the note is about
    # a bundle that carries them says nothing of it
    fresh = tmp_path / "new.mnemic"
    _cli(source, "export", "--bundle", str(fresh), "--with-vectors")
    report = _cli(tmp_path / "other", "import", "--bundle", str(fresh), "--json")
    assert report["notes"] == []
