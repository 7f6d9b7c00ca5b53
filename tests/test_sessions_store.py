"""The SQLite session store: recording, reading, lineage, deletion, migrations, the index."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.backends.files.sqlite.schema import PENDING_MAX, SCHEMA_VERSION
from mnemic.errors import (
    InvalidArgument,
    SessionExists,
    SessionNotFound,
    SessionStoreError,
)
from mnemic.home import Home
from mnemic.sessions import (
    NewMessage,
    NewSession,
    SearchFilters,
    SessionStore,
    StoreStats,
    estimate_tokens,
    open_store,
    parse_query,
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db")
    yield s
    s.close()


def find(store: SQLiteSessionStore, text: str, **filters: object) -> list[tuple[str, int]]:
    hits = store.search(parse_query(text), SearchFilters(**filters), limit=10_000)  # type: ignore[arg-type]
    return sorted((h.session_id, h.seq) for h in hits)


def test_recording_api(store: SQLiteSessionStore) -> None:
    assert isinstance(store, SessionStore)
    sid = store.start_session(
        source="cli", title="  Deploy\tplan \x07", model="qwen3", started_at=50.0
    )
    call = {"id": "c1", "type": "function", "function": {"name": "terminal", "arguments": "{}"}}
    m1 = store.append_message(sid, NewMessage("user", "deploy v2.3.1 to staging", timestamp=100.0))
    m2 = store.append_message(sid, NewMessage("assistant", "", tool_calls=[call], timestamp=101.0))
    m3 = store.append_message(
        sid, NewMessage("tool", "ok", tool_call_id="c1", tool_name="terminal", timestamp=102.0)
    )
    assert m1 < m2 < m3
    store.end_session(sid, "user_exit", ended_at=200.0)
    info = store.get_session(sid)
    assert info.title == "Deploy plan"  # control characters and runs of space cleaned
    assert info.model == "qwen3" and info.source == "cli"
    assert info.message_count == 3 and info.tool_call_count == 1
    assert info.token_count == sum(estimate_tokens(t) for t in ("deploy v2.3.1 to staging", "ok"))
    assert info.end_reason == "user_exit" and info.ended_at == 200.0 and info.last_active == 200.0
    msgs = store.messages(sid)
    assert [m.seq for m in msgs] == [0, 1, 2]
    assert msgs[1].tool_calls == [call] and msgs[2].tool_call_id == "c1"
    assert store.message(m3) == msgs[2]
    assert store.messages(sid, start=1, stop=2) == [msgs[1]]


def test_ids_are_generated_unique_and_checked(store: SQLiteSessionStore) -> None:
    a = store.start_session()
    b = store.start_session()
    assert a != b and len(a) == len("20260517-232811-3f9a1c")
    store.start_session(id="fixed")
    with pytest.raises(SessionExists):
        store.start_session(id="fixed")
    with pytest.raises(SessionNotFound):
        store.append_message("nope", NewMessage("user", "x"))
    with pytest.raises(SessionNotFound):
        store.end_session("nope")
    with pytest.raises(SessionNotFound):
        store.get_session("nope")
    with pytest.raises(InvalidArgument):
        store.append_message(a, NewMessage("robot", "x"))
    store.append_message(a, NewMessage("developer", "rules"))  # alias of system
    assert store.messages(a)[0].role == "system"


def test_update_session_merges_metadata(store: SQLiteSessionStore) -> None:
    sid = store.start_session(metadata={"a": 1})
    store.update_session(sid, title="T", metadata={"b": 2})
    info = store.get_session(sid)
    assert info.title == "T" and info.metadata == {"a": 1, "b": 2}


def test_index_covers_content_tool_names_and_arguments(store: SQLiteSessionStore) -> None:
    sid = store.start_session(id="s")
    call = {
        "id": "c1",
        "type": "function",
        "function": {
            "name": "web_search",
            "arguments": json.dumps({"query": "kubernetes ingress", "n": 5}),
        },
    }
    store.append_message(sid, NewMessage("assistant", "searching", tool_calls=[call]))
    store.append_message(sid, NewMessage("tool", "results", tool_name="web_search"))
    store.append_message(sid, NewMessage("user", "thanks", name="Caroline"))
    assert find(store, "kubernetes") == [("s", 0)]
    assert find(store, "web_search") == [("s", 0), ("s", 1)]
    assert find(store, "caroline") == [("s", 2)]


def test_pending_queue_is_folded_before_search(store: SQLiteSessionStore) -> None:
    sid = store.start_session(id="s")
    for i in range(PENDING_MAX + 5):
        store.append_message(sid, NewMessage("user", f"message number{i}"))
    pending = store._read("SELECT COUNT(*) FROM fts_pending")[0][0]
    assert 0 < pending < PENDING_MAX  # folded once, some still queued
    assert find(store, f"number{PENDING_MAX + 4}") == [("s", PENDING_MAX + 4)]
    assert store._read("SELECT COUNT(*) FROM fts_pending")[0][0] == 0


def test_delete_removes_index_rows_queued_or_not(store: SQLiteSessionStore) -> None:
    a = store.start_session(id="a")
    b = store.start_session(id="b")
    for i in range(PENDING_MAX):
        store.append_message(a, NewMessage("user", f"alpha {i}"))  # folded into the index
    store.append_message(b, NewMessage("user", "alpha queued"))  # still queued
    assert len(find(store, "alpha")) == PENDING_MAX + 1
    assert store.delete_session("a") == PENDING_MAX
    assert find(store, "alpha") == [("b", 0)]
    assert store.delete_session("b") == 1
    assert find(store, "alpha") == []
    check = store._read(
        "INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 0)"
    )
    assert check == []
    with pytest.raises(SessionNotFound):
        store.delete_session("a")


def test_prune_by_last_activity(store: SQLiteSessionStore) -> None:
    old = store.start_session(id="old", started_at=1000.0)
    store.append_message(old, NewMessage("user", "ancient", timestamp=1000.0))
    new = store.start_session(id="new", started_at=5000.0)
    store.append_message(new, NewMessage("user", "recent", timestamp=5000.0))
    assert store.prune(2000.0, dry_run=True) == ["old"]
    assert store.has_session("old")
    assert store.prune(2000.0) == ["old"]
    assert not store.has_session("old") and store.has_session("new")
    assert find(store, "ancient") == []


def assert_lineage_and_roots(store: SessionStore) -> None:
    """Sessions ``root`` > ``c1`` > ``c2``, ``root`` > ``side`` and ``other``: a session's
    lineage is its whole tree, its root the tree's first session (backend-neutral, run on
    PostgreSQL too)."""
    store.start_session(id="root")
    store.start_session(id="c1", parent_id="root")
    store.start_session(id="c2", parent_id="c1")
    store.start_session(id="side", parent_id="root")
    store.start_session(id="other")
    assert sorted(store.lineage("c2")) == ["c1", "c2", "root", "side"]
    assert store.roots(["c2", "side", "other"]) == {"c2": "root", "side": "root", "other": "other"}


def test_lineage_and_roots(store: SQLiteSessionStore) -> None:
    assert_lineage_and_roots(store)
    # a cycle (possible with imported data) does not hang
    store._write(lambda c: c.execute("UPDATE sessions SET parent_id = 'c2' WHERE id = 'root'"))
    assert set(store.lineage("c1")) >= {"c1", "c2", "root"}
    assert store.roots(["c1"])["c1"] in {"c1", "c2", "root"}


def test_list_sessions_orders_and_filters(store: SQLiteSessionStore) -> None:
    for i, source in enumerate(["cli", "cron", "cli"]):
        sid = store.start_session(id=f"s{i}", source=source, started_at=100.0 * i)
        store.append_message(sid, NewMessage("user", "hi", timestamp=100.0 * i + 1))
    assert [s.id for s in store.list_sessions()] == ["s2", "s1", "s0"]
    assert [s.id for s in store.list_sessions(sources=["cron"])] == ["s1"]
    assert [s.id for s in store.list_sessions(exclude_sources=["cron"], limit=1)] == ["s2"]
    assert [s.id for s in store.list_sessions(before=150.0)] == ["s1", "s0"]
    assert [s.id for s in store.list_sessions(limit=2, offset=1)] == ["s1", "s0"]
    # the total a listing says ("Sessions 1-20 of 500")
    assert store.count_sessions() == 3
    assert store.count_sessions(sources=["cron"]) == 1
    assert store.count_sessions(sources=["cli", "cron"]) == 3


def test_edge_messages(store: SQLiteSessionStore) -> None:
    sid = store.start_session(id="s")
    roles = ["system", "user", "assistant", "tool", "user", "assistant", "user"]
    store.append_messages(sid, [NewMessage(r, f"{r} {i}") for i, r in enumerate(roles)])
    first = store.edge_messages(sid, before_seq=5, count=2)
    assert [m.seq for m in first] == [1, 2]
    last = store.edge_messages(sid, after_seq=1, count=2)
    assert [m.seq for m in last] == [5, 6]


def test_find_title(store: SQLiteSessionStore) -> None:
    store.start_session(id="a", title="Kitchen renovation", started_at=1.0)
    store.start_session(id="b", title="kitchen RENOVATION", started_at=2.0)
    found = store.find_title("Kitchen Renovation")
    assert found is not None and found.id == "b"
    assert store.find_title("nothing") is None


def recorded_stats(store: SessionStore) -> StoreStats:
    """The stats of ``store`` once one message is recorded in one session: they count the
    session, the message, its text's bytes, by source and by role, in a database of some
    size (backend-neutral, run on PostgreSQL too); returned for the backend's own checks."""
    sid = store.start_session(source="telegram")
    store.append_message(sid, NewMessage("user", "héllo"))
    s = store.stats()
    assert s.sessions == 1 and s.messages == 1 and s.text_bytes == len("héllo".encode())
    assert s.by_source == {"telegram": 1} and s.by_role == {"user": 1}
    assert s.db_bytes > 0
    return s


def test_stats(store: SQLiteSessionStore) -> None:
    s = recorded_stats(store)
    assert s.schema_version == SCHEMA_VERSION
    assert s.to_dict()["bytes_per_text_byte"] > 0


def test_import_sessions_bulk_and_idempotent(store: SQLiteSessionStore) -> None:
    items = [
        (
            NewSession(id=f"s{i}", source="import"),
            [NewMessage("user", f"bulk{i} x{j}") for j in range(30)],
        )
        for i in range(10)
    ]
    done = list(store.import_sessions(items, batch=50))
    assert [r.session_id for r in done] == [f"s{i}" for i in range(10)]
    assert {r.status for r in done} == {"created"}
    all_ids = [i for r in done for i in r.message_ids or []]
    assert len(all_ids) == 300 and len(set(all_ids)) == 300
    assert find(store, "bulk7") == [("s7", j) for j in range(30)]
    again = [r[:3] for r in store.import_sessions(items[:2])]
    assert again == [("s0", None, "skipped"), ("s1", None, "skipped")]
    assert store.get_session("s3").message_count == 30


def test_import_with_worker_process(store: SQLiteSessionStore) -> None:
    items = [
        (NewSession(id=f"w{i}"), [NewMessage("user", f"记忆文件 worker{i} {j}") for j in range(20)])
        for i in range(30)
    ]
    done = list(store.import_sessions(items, batch=100, workers=1))
    assert sum(len(r.message_ids or []) for r in done) == 600
    assert len(find(store, "忆文")) == 600
    assert find(store, "worker17") == [("w17", j) for j in range(20)]


def _keyed(prefix: str, keys: range, text: str = "") -> list[NewMessage]:
    return [NewMessage("user", f"{prefix} {text}{k}", source_id=f"{prefix}-{k}") for k in keys]


def _contents(store: SessionStore, sid: str) -> list[str]:
    return [m.content or "" for m in store.messages(sid)]


def test_import_merge_adds_only_the_messages_a_session_lacks(store: SessionStore) -> None:
    first = list(store.import_sessions([(NewSession(id="t", title=None), _keyed("t", range(3)))]))
    assert [(r.status, len(r.message_ids or [])) for r in first] == [("created", 3)]
    grown = (NewSession(id="t", title="Late title"), _keyed("t", range(5)))
    again = list(store.import_sessions([grown], existing="merge"))
    assert again[0].status == "extended" and len(again[0].message_ids or []) == 2
    assert _contents(store, "t") == [f"t {k}" for k in range(5)]
    assert [m.seq for m in store.messages("t")] == [0, 1, 2, 3, 4]
    info = store.get_session("t")
    assert info.message_count == 5 and info.title == "Late title"  # a missing title fills in
    assert list(store.import_sessions([grown], existing="merge")) == [("t", [], "unchanged", 0)]
    assert find(store, "t") == [("t", k) for k in range(5)]  # indexed once each
    # repeats of a key inside one input are written once, whatever the mode
    twice = _keyed("d", range(2)) + _keyed("d", range(2))
    list(store.import_sessions([(NewSession(id="d"), twice)]))
    assert _contents(store, "d") == ["d 0", "d 1"]


def test_import_merge_recognises_messages_stored_without_a_key(store: SessionStore) -> None:
    """Messages recorded live, or imported before keys were kept, match by content."""
    sid = store.start_session(id="live")
    store.append_messages(sid, [NewMessage("user", "hello"), NewMessage("assistant", "hi")])
    incoming = [
        NewMessage("user", "hello", source_id="u1"),
        NewMessage("assistant", "hi", source_id="u2"),
        NewMessage("user", "hello", source_id="u3"),  # said again: a new message
    ]
    done = list(store.import_sessions([(NewSession(id="live"), incoming)], existing="merge"))
    assert len(done[0].message_ids or []) == 1
    assert _contents(store, "live") == ["hello", "hi", "hello"]
    # the matched messages now carry their key: a second run matches by key alone
    assert list(store.import_sessions([(NewSession(id="live"), incoming)], existing="merge")) == [
        ("live", [], "unchanged", 0)
    ]


def test_import_replace_swaps_whole_sessions_and_merges_later_parts(
    store: SessionStore,
) -> None:
    old = [(NewSession(id=f"r{i}"), _keyed(f"r{i}", range(4), "old")) for i in range(6)]
    list(store.import_sessions(old))
    store.start_session(id="child", parent_id="r1")
    new = [
        (NewSession(id=f"r{i}", title="new"), _keyed(f"r{i}", range(2), "new")) for i in range(6)
    ]
    tail = [(NewSession(id=f"r{i}"), _keyed(f"r{i}", range(2, 3), "new")) for i in range(6)]
    done = list(store.import_sessions([*new, *tail], existing="replace", batch=4))
    statuses = {r.session_id: r.status for r in done if r.status == "replaced"}
    assert sorted(statuses) == [f"r{i}" for i in range(6)]  # each replaced once
    for i in range(6):
        assert _contents(store, f"r{i}") == [f"r{i} new{k}" for k in range(3)]
        assert store.get_session(f"r{i}").title == "new"
    assert find(store, "old") == []
    assert store.lineage("child") == ["r1", "child"]  # children keep their parent link
    with pytest.raises(InvalidArgument):
        list(store.import_sessions(new, existing="overwrite"))


def test_append_after_a_gap_in_seq(store: SessionStore) -> None:
    """The next message goes after the last one even when an earlier one was forgotten."""
    sid = store.start_session(id="gap")
    store.append_messages(sid, [NewMessage("user", w) for w in ("alpha", "bravo", "charlie")])
    assert store.forget("bravo").messages == 1
    store.append_message(sid, NewMessage("user", "delta"))
    assert [(m.seq, m.content) for m in store.messages(sid)] == [
        (0, "alpha"), (2, "charlie"), (3, "delta"),
    ]  # fmt: skip
    list(store.import_sessions([(NewSession(id="gap"), _keyed("g", range(1)))], existing="merge"))
    assert [m.seq for m in store.messages(sid)] == [0, 2, 3, 4]


def test_import_gives_message_ids_in_the_order_of_the_items(store: SessionStore) -> None:
    """Ids grow with the input order, whatever each item does (merge into a session that
    exists, create one whose id sorts first or last): the "most recent" of every ranking
    is the same in every backend."""
    store.start_session(id="m")
    store.append_messages("m", _keyed("m", range(1)))
    items = [
        (NewSession(id="z"), _keyed("z", range(2))),
        (NewSession(id="m"), _keyed("m", range(3))),
        (NewSession(id="a"), _keyed("a", range(2))),
    ]
    done = list(store.import_sessions(items, existing="merge"))
    assert [(r.session_id, r.status) for r in done] == [
        ("z", "created"), ("m", "extended"), ("a", "created"),
    ]  # fmt: skip
    ids = [i for r in done for i in r.message_ids or ()]
    assert len(ids) == 6 and ids == sorted(ids)
    assert [store.message(i).content for i in ids] == [  # type: ignore[union-attr]
        "z 0", "z 1", "m 1", "m 2", "a 0", "a 1",
    ]  # fmt: skip


def test_reads_follow_a_session_another_connection_replaced(tmp_path: Path) -> None:
    """A session deleted and written anew by another writer (a replacing import) is read
    as it is now, not through the row id it had when this store last read it."""
    path = tmp_path / "sessions.db"
    reader, writer = SQLiteSessionStore(path), SQLiteSessionStore(path)
    reader.start_session(id="x")
    reader.start_session(id="later")  # the new copy of x gets another row id
    reader.append_messages("x", [NewMessage("user", "old question"), NewMessage("user", "old")])
    assert _contents(reader, "x") == ["old question", "old"]
    assert [m.content for m in reader.edge_messages("x", before_seq=9)] == ["old question", "old"]
    fresh = [NewMessage("user", "new question"), NewMessage("assistant", "new answer")]
    done = list(writer.import_sessions([(NewSession(id="x"), fresh)], existing="replace"))
    assert done[0].status == "replaced"
    assert _contents(reader, "x") == ["new question", "new answer"]
    edges = reader.edge_messages("x", before_seq=9)
    assert [m.content for m in edges] == ["new question", "new answer"]
    writer.delete_session("x")
    with pytest.raises(SessionNotFound):
        reader.messages("x")
    reader.close()
    writer.close()


def test_file_is_private_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "x" / "sessions.db"
    s = SQLiteSessionStore(path)
    s.start_session()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert s._read("PRAGMA journal_mode")[0][0] == "wal"
    s.close()


def test_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(SessionStoreError) as info:
        SQLiteSessionStore(path)
    assert "not" in info.value.reason
    assert path.read_bytes().startswith(b"this is not sqlite")  # untouched


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    SQLiteSessionStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _migrations VALUES (999, 'future', 0)")
    conn.commit()
    conn.close()
    with pytest.raises(SessionStoreError, match="newer"):
        SQLiteSessionStore(path)


def test_segmenter_change_triggers_reindex(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    s = SQLiteSessionStore(path)
    sid = s.start_session(id="s")
    s.append_message(sid, NewMessage("user", "会话历史 stays findable"))
    s.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = 'old-segmenter/0' WHERE key = 'segmenter'")
    conn.execute("DROP TABLE messages_fts")  # an index the new segmenter cannot read
    conn.execute("CREATE VIRTUAL TABLE messages_fts USING fts5(body, aux, content='')")
    conn.commit()
    conn.close()
    s = SQLiteSessionStore(path)
    assert find(s, "会话") == [("s", 0)]
    assert s._read("SELECT value FROM meta WHERE key = 'segmenter'")[0][0] == s.segmenter_key
    s.close()


def test_open_store_uses_home_settings(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[sessions]\nwrite_timeout = 2.5\n", encoding="utf-8")
    home = Home.open(home_path)
    with open_store(home) as s:
        assert s.path == home.sessions_db and s.timeout == 2.5 and s.durable


def test_two_connections_see_each_other(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    a = SQLiteSessionStore(path)
    b = SQLiteSessionStore(path)
    sid = a.start_session(id="shared")
    b.append_message(sid, NewMessage("user", "written by b"))
    assert find(a, "written") == [("shared", 0)]
    b.delete_session("shared")
    with pytest.raises(SessionNotFound):
        a.append_message("shared", NewMessage("user", "x"))
    a.start_session(id="shared")  # re-created: a's cached row id must not be reused
    a.append_message("shared", NewMessage("user", "again"))
    assert b.get_session("shared").message_count == 1
    a.close()
    b.close()


def test_the_sqlite_store_is_still_found_under_its_old_name_with_a_warning() -> None:
    """``mnemic.sessions.SQLiteSessionStore`` moved to ``mnemic.backends.files.sqlite``:
    the old name still gives the class, with a DeprecationWarning naming the new import;
    a name that never existed is still an AttributeError."""
    import mnemic.sessions as sessions

    with pytest.warns(
        DeprecationWarning,
        match=r"use `from mnemic\.backends\.files\.sqlite import SQLiteSessionStore`",
    ):
        moved = sessions.SQLiteSessionStore
    assert moved is SQLiteSessionStore
    with pytest.raises(AttributeError, match="NoSuchStore"):
        sessions.NoSuchStore  # noqa: B018


def test_each_backend_is_one_level_below_the_shared_store_and_its_vectors_a_part() -> None:
    """The session store is one class: a backend subclasses it (over the Engine protocol
    it supplies) and holds its vectors as a component, not through more base classes."""
    from mnemic.sessions import SessionStore, SqlSessionStore
    from mnemic.sessions.sql.tables import Engine
    from mnemic.sessions.sql.vectors import SqlVectors

    backends: list[type] = [SQLiteSessionStore]
    try:
        from mnemic.backends.postgres.sessions import PostgresSessionStore
    except ImportError:  # the postgres extra is not installed
        pass
    else:
        backends.append(PostgresSessionStore)
    assert SessionStore is SqlSessionStore
    for backend in backends:
        chain = [k for k in backend.__mro__ if k.__module__.startswith("mnemic.")]
        assert chain == [backend, SqlSessionStore, Engine]
        assert not any(issubclass(k, SqlVectors) for k in backend.__mro__)
