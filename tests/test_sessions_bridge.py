"""The cross-language bridge (:mod:`mnemic.sessions.search.bridge`) and the chat's words it
reads (:mod:`mnemic.sessions.sql.words`): filled when messages are embedded, gone with the
last message holding them, read only for a question in a script the chat does not write.
On both backends: SQLite's schema 7 and PostgreSQL's migration 14 (recall 26)."""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from _backends import pg_config
from _talks import real_embedder
from mnemic.embedding.standin import StandinEmbedder
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store, search_messages
from mnemic.sessions.search import bridge
from mnemic.sessions.search.embed import backfill, embed_pending
from mnemic.sessions.sql.words import message_words

CHAT = [
    ("user", "Long day: I fixed the kitchen sink, paid the electricity bill, called the bank "
             "about my card, answered a pile of emails, and finally picked up the red kayak "
             "from the shop."),
    ("assistant", "What a productive day."),
    ("user", "We went sailing on the lake last summer, the boat was blue."),
    ("assistant", "Sailing sounds fun, what colour were the sails?"),
    ("user", "White sails, and my brother painted his boat green."),
    ("assistant", "A green boat must stand out on the water."),
    ("user", "The rowing club has yellow boats for beginners."),
    ("assistant", "Yellow boats are easy to spot."),
    ("user", "My neighbour's fishing boat is painted orange and black."),
    ("assistant", "Orange is a safe colour at sea."),
    ("user", "The ferry to the island was white and red."),
    ("assistant", "Ferries are often painted like that."),
    ("user", "I want to paint the dinghy purple this spring."),
    ("assistant", "Purple would be unusual for a dinghy."),
    ("user", "At the harbour all the boats were grey in the fog."),
    ("assistant", "Fog makes everything look grey."),
]  # fmt: skip
ASKED = "我买的皮划艇是什么颜色？"
"""What colour is the kayak I bought? (the evidence: CHAT's first message)"""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def home(request: pytest.FixtureRequest, home_path: Path) -> Path:
    """The test home on each backend (PostgreSQL: its config.toml names this test's
    schema)."""
    home_path.mkdir(parents=True, exist_ok=True)
    if request.param == "postgres":
        dsn, schema = request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
        (home_path / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    return home_path


_FILLED: dict[bool, Path] = {}
"""SQLite homes of :func:`_store`, filled once a worker (by ``words``)."""


def _store(home: Path, embedder: Any, *, words: bool = True) -> Any:
    """The store of ``home`` holding :data:`CHAT`, embedded (``words``: with the chat's
    words). On SQLite a copy of one filled once a worker: filling it embeds every message
    and word, 1.1 s of CPU (session 55); each test may change its copy."""
    if (home / "config.toml").exists():  # PostgreSQL: this test's own schema
        return _filled(home, embedder, words=words)
    filled = _FILLED.get(words)
    if filled is None:
        filled = Path(tempfile.mkdtemp(prefix="bridge-", dir=home.parent.parent)) / "home"
        _filled(filled, embedder, words=words).close()
        _FILLED[words] = filled
    shutil.copytree(filled, home, dirs_exist_ok=True)
    return open_store(Home.open(home))


def _filled(home: Path, embedder: Any, *, words: bool) -> Any:
    store = open_store(Home.open(home))
    store.start_session(id="c", started_at=1_750_000_000.0, source="cli")
    store.append_messages("c", [NewMessage(r, t) for r, t in CHAT])
    if words:
        backfill(store, embedder)
    else:  # embedded as before the word table: vectors only
        assert store.vectors is not None
        embed_pending(store.vectors, embedder, store.vectors.pending(embedder.model_id, limit=99))
    return store


@pytest.fixture(scope="module")
def embedder() -> Any:
    return real_embedder()


@pytest.fixture
def bridge_off() -> Iterator[None]:
    bridge.BRIDGE = False
    try:
        yield
    finally:
        bridge.BRIDGE = True


def _seqs(store: Any, text: str, embedder: Any, limit: int = 3) -> list[int]:
    got = search_messages(store, text, mode="hybrid", limit=limit, embedder_loader=lambda: embedder)
    assert got.mode == "hybrid", got.notice
    return [r.seq for r in got.results]


def test_a_chinese_question_finds_the_english_evidence_through_the_chats_words(
    home: Path, embedder: Any
) -> None:
    with _store(home, embedder) as store:
        assert store.words is not None and store.words.count(embedder.model_id) > 50
        assert 0 in _seqs(store, ASKED, embedder)
        bridge.BRIDGE = False
        try:
            assert 0 not in _seqs(store, ASKED, embedder)  # what the search found before
        finally:
            bridge.BRIDGE = True


def test_a_store_without_word_vectors_ranks_as_before(home: Path, embedder: Any) -> None:
    with _store(home, embedder, words=False) as store:
        assert store.words is not None and store.words.count(embedder.model_id) == 0
        shipped = _seqs(store, ASKED, embedder, 16)
        bridge.BRIDGE = False
        try:
            assert _seqs(store, ASKED, embedder, 16) == shipped
        finally:
            bridge.BRIDGE = True
        assert 0 not in shipped[:3]
        # `mnemic sessions embed` (the backfill) fills the words of an old store
        assert store.words.missing(embedder.model_id) == len(CHAT)
        backfill(store, embedder)
        assert store.words.missing(embedder.model_id) == 0
        assert 0 in _seqs(store, ASKED, embedder)


def test_a_question_in_the_chats_own_script_ranks_as_before(home: Path, embedder: Any) -> None:
    vocabulary = sorted({w for _, t in CHAT for w in message_words(t, None)})
    rng = random.Random(25)
    asked = [" ".join(rng.sample(vocabulary, rng.randint(1, 5))) for _ in range(12)]
    asked += ["What colour is the kayak?", "which boat was painted green"]
    with _store(home, embedder) as store:
        shipped = {q: _seqs(store, q, embedder, 16) for q in asked}
        bridge.BRIDGE = False
        try:
            assert {q: _seqs(store, q, embedder, 16) for q in asked} == shipped
        finally:
            bridge.BRIDGE = True


def _words(store: Any) -> dict[str, int]:
    """The word table's ``word: refs`` as the database holds it."""
    rows = store._read("SELECT word, refs FROM {s}.chat_words")
    return {str(w): int(n) for w, n in rows}


def _left_in_postgres(db: Any, mark: str) -> list[str]:
    """Every ``table.column`` of the store's schema whose text holds ``mark``, and every
    column whose planner statistics do (``tests/postgres/test_sessions_forget.py``)."""
    schema = db.schema
    found = []
    with db.connection() as conn:
        columns = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = %s",
            (schema,),
        ).fetchall()
        assert {"chat_words", "message_words"} <= {str(t) for t, _ in columns}
        for table, column in columns:
            row = conn.execute(
                f'SELECT count(*) FROM "{schema}"."{table}" '
                f'WHERE strpos(lower("{column}"::text), %s) > 0',
                (mark,),
            ).fetchone()
            if row and row[0]:
                found.append(f"{table}.{column}")
        stats = conn.execute(
            "SELECT tablename, attname FROM pg_stats WHERE schemaname = %s AND "
            "strpos(lower(concat(most_common_vals::text, histogram_bounds::text)), %s) > 0",
            (schema, mark),
        ).fetchall()
        found.extend(f"pg_stats {t}.{c}" for t, c in stats)
    return found


def test_forget_removes_the_words_of_the_last_message_holding_them(home: Path) -> None:
    from mnemic.ops.forget import forget_sessions

    standin = StandinEmbedder()
    with open_store(Home.open(home)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        store.append_messages("a", [
            NewMessage("user", "Project codename quagga77 ships in May"),
            NewMessage("assistant", "Noted: the project ships in May."),
        ])  # fmt: skip
        backfill(store, standin)
        held = _words(store)
        if type(store).__name__ == "PostgresSessionStore":  # statistics that sample words
            with store.db.connection() as conn:
                for table in ("chat_words", "message_words"):
                    conn.execute(store.db.sql(f"ANALYZE {{s}}.{table}"))
            assert {"chat_words.word", "pg_stats chat_words.word"} <= set(
                _left_in_postgres(store.db, "quagga")
            )
    assert held["quagga"] == 1 and held["ships"] == 2 and held["noted"] == 1
    forget_sessions(home, "quagga77")
    with open_store(Home.open(home)) as store:
        held = _words(store)
        if type(store).__name__ == "PostgresSessionStore":  # no column holds it
            assert _left_in_postgres(store.db, "quagga") == []
    assert "quagga" not in held and "codename" not in held
    assert held["ships"] == 1 and held["noted"] == 1
    for path in home.rglob("*"):
        if path.is_file():
            assert b"quagga" not in path.read_bytes(), path


def test_sessions_embed_fills_the_words_of_a_store_embedded_before_them(home: Path) -> None:
    from click.testing import CliRunner

    from mnemic.cli import main

    standin = StandinEmbedder()
    with open_store(Home.open(home)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        store.append_messages("a", [NewMessage(r, t) for r, t in CHAT[:4]])
        assert store.vectors is not None
        embed_pending(store.vectors, standin, store.vectors.pending(standin.model_id, limit=9))
    status = ["--home", str(home), "sessions", "embed", "--status", "--embedder", "standin"]
    shown = CliRunner().invoke(main, status)
    assert shown.exit_code == 0, shown.output
    assert "4 embedded messages have their words not yet embedded" in shown.output
    run = CliRunner().invoke(main, ["--home", str(home), "sessions", "embed",
                                    "--embedder", "standin"])  # fmt: skip
    assert run.exit_code == 0, run.output
    assert "Nothing to embed: every message has its vector" in run.output
    made = len({w for _, t in CHAT[:4] for w in message_words(t, None)})
    assert f"Embedded {made} words of the chat" in run.output
    shown = CliRunner().invoke(main, [*status, "--json"])
    assert '"words_missing": 0' in shown.output


@pytest.mark.postgres
def test_both_backends_rank_a_chinese_question_alike(
    home_path: Path, tmp_path: Path, embedder: Any, request: pytest.FixtureRequest
) -> None:
    """Issue 33's parity: the same chat on SQLite and PostgreSQL, the same ranking of a
    Chinese question (the bridge off on PostgreSQL before recall 26: the evidence
    missing from its top three, where SQLite ranks it)."""
    pg = home_path
    pg.mkdir(parents=True, exist_ok=True)
    dsn, schema = request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
    (pg / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    sq = tmp_path / "sqlite-home"
    sq.mkdir()
    asked = [ASKED, "皮划艇", "我哥哥的船是什么颜色？"]
    with _store(sq, embedder) as a, _store(pg, embedder) as b:
        assert type(b).__name__ == "PostgresSessionStore"
        assert _words(a) == _words(b)
        ranked = {q: (_seqs(a, q, embedder, 16), _seqs(b, q, embedder, 16)) for q in asked}
    for q, (on_sqlite, on_postgres) in ranked.items():
        assert on_sqlite == on_postgres, q
    assert 0 in ranked[ASKED][1][:3]


def test_a_changed_text_or_a_deleted_session_takes_its_words(home: Path) -> None:
    """The triggers on both backends: a message whose text changes loses its links (a
    word only it held goes; the next embedding links its new words), and deleting a
    session takes the words only its messages held; no link is left after the last."""
    standin = StandinEmbedder()
    with open_store(Home.open(home)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        store.start_session(id="b", started_at=1_750_000_100.0, source="cli")
        ids = store.append_messages("a", [NewMessage("user", "the wombat sleeps")])
        store.append_messages("b", [NewMessage("user", "the platypus sleeps")])
        backfill(store, standin)
        assert _words(store) == {"the": 2, "wombat": 1, "sleeps": 2, "platypus": 1}

        def edit(conn: Any) -> None:
            sql = "UPDATE {s}.messages SET content = ? WHERE id = ?"
            store._run(conn, sql, ("the echidna sleeps", ids[0]))

        store._write(edit)
        assert _words(store) == {"the": 1, "sleeps": 1, "platypus": 1}
        assert backfill(store, standin).done == 1  # the changed message, and its words
        assert _words(store) == {"the": 2, "echidna": 1, "sleeps": 2, "platypus": 1}
        store.delete_session("b")
        assert _words(store) == {"the": 1, "echidna": 1, "sleeps": 1}
        store.delete_session("a")
        assert _words(store) == {}
        assert store._read("SELECT count(*) FROM {s}.message_words")[0][0] == 0


def _while_deleted(dsn: str, schema: str, mid: int, put: Callable[[], object]) -> None:
    """Run ``put`` in a thread while another transaction has deleted message ``mid`` and
    not committed; commit the deletion once the writer waits for its lock (or is done:
    the code before waited for nothing), then let the writer finish."""
    import threading

    import psycopg

    with psycopg.connect(dsn) as deleting, psycopg.connect(dsn, autocommit=True) as watch:
        deleting.execute(f'DELETE FROM "{schema}".messages WHERE id = %s', (mid,))
        writer = threading.Thread(target=put)
        writer.start()
        while writer.is_alive():  # until the writer waits for the deletion's lock
            waiting = watch.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            ).fetchone()
            if waiting and waiting[0]:
                break
            writer.join(0.01)
        deleting.commit()
        writer.join()


@pytest.mark.postgres
def test_pg_words_of_a_message_deleted_meanwhile_are_never_linked(
    home_path: Path, request: pytest.FixtureRequest
) -> None:
    """A message deleted by another transaction while its words are put: the writer
    waits for the deletion (the message's row lock) and finds it gone, so no word is
    left linked to a message that is no more (before: it read the message as there,
    linked its words after the deletion's trigger had run, and they stayed for good)."""
    dsn, schema = request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    standin = StandinEmbedder()
    with open_store(Home.open(home_path)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        (mid,) = store.append_messages("a", [NewMessage("user", "the wombat sleeps")])
        assert store.vectors is not None and store.words is not None
        embed_pending(store.vectors, standin, store.vectors.pending(standin.model_id))
        words = store.words
        held = [(mid, message_words("the wombat sleeps", None))]
        _while_deleted(
            dsn, schema, mid, lambda: words.put(standin.model_id, held, standin.embed_queries)
        )
        assert _words(store) == {}
        assert store._read("SELECT count(*) FROM {s}.message_words")[0][0] == 0


@pytest.mark.postgres
def test_pg_a_vector_of_a_message_deleted_meanwhile_is_never_kept(
    home_path: Path, request: pytest.FixtureRequest
) -> None:
    """The vectors' writer as the words' one above: a message deleted by another
    transaction while its vector is put. The writer waits for the deletion (the
    message's row lock) and then finds it gone, so no vector outlives its text (before:
    its ``WHERE EXISTS`` still saw the message, the vector was written after the
    deletion's trigger had run, and stayed: a forgotten message's vector kept for good)."""
    dsn, schema = request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    standin = StandinEmbedder()
    with open_store(Home.open(home_path)) as store:
        store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
        (mid,) = store.append_messages("a", [NewMessage("user", "the wombat sleeps")])
        assert store.vectors is not None
        vectors = store.vectors
        pending = vectors.pending(standin.model_id)
        assert [p.message_id for p in pending] == [mid]
        _while_deleted(dsn, schema, mid, lambda: embed_pending(vectors, standin, pending))
        assert store._read("SELECT count(*) FROM {s}.message_vectors")[0][0] == 0
