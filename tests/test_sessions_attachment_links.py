"""Which message holds which attachment, on every backend: links written with their
messages (appended or imported), read back in order, listed and searched by name, media
type and caption, and gone with their message."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from _backends import Kit
from mnemic.home import Home
from mnemic.sessions import NewMessage, NewSession, open_store
from mnemic.sessions.attachments import AttachmentStore
from mnemic.sessions.store import Attachment
from test_sessions_attachments import tiny_png


def _home(backend: Kit) -> Home:
    return Home.open(backend.write_config())


def _message(text: str, *links: Attachment) -> NewMessage:
    body = "\n".join([text, *(a.placeholder() for a in links)])
    return NewMessage("user", body, attachments=links)


def test_appended_links_read_back_in_order_and_go_with_their_session(backend: Kit) -> None:
    home = _home(backend)
    files = AttachmentStore.of_home(home)
    red = files.put(tiny_png(255), name="red.png", caption="a red dot")
    doc = files.put(b"%PDF-1.4 tiny", name="notes.pdf")
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        sent = [_message("look", red, doc), NewMessage("assistant", "seen"), _message("again", red)]
        first, second, third = store.append_messages(sid, sent)
        held = store.attachments([first, second, third])
        assert held == {first: [red, doc], third: [red]}
        assert store.attachment_hashes() == {red.sha256, doc.sha256}
        store.delete_session(sid)
        assert store.attachments([first, third]) == {}
        assert store.attachment_hashes() == set()


def test_imported_links_follow_their_messages(backend: Kit) -> None:
    home = _home(backend)
    link = AttachmentStore.of_home(home).put(tiny_png(), name="dot.png")
    item = (
        NewSession("imp-1", source="import"),
        [NewMessage("assistant", "hello", source_id="k0"), _message("see", link)],
    )
    with open_store(home) as store:
        [result] = list(store.import_sessions([item]))
        assert result.message_ids is not None
        assert store.attachments(result.message_ids) == {result.message_ids[1]: [link]}
        # the same input again adds neither a message nor a link
        [again] = list(store.import_sessions([item], existing="merge"))
        assert again.status == "unchanged"
        assert len(store.find_attachments(session_id="imp-1")) == 1
        # replaced: the old links went with the old messages, the new ones came in
        [swapped] = list(store.import_sessions([item], existing="replace"))
        assert swapped.message_ids is not None
        assert [a.message_id for a in store.find_attachments()] == [swapped.message_ids[1]]


def test_links_are_found_by_name_media_type_and_caption(backend: Kit) -> None:
    home = _home(backend)
    files = AttachmentStore.of_home(home)
    cat = files.put(tiny_png(1), name="Cat.PNG", caption="My Tabby on the sofa")
    pdf = files.put(b"%PDF-1.4", name="invoice.pdf")
    with open_store(home) as store:
        a = store.start_session(source="cli")
        b = store.start_session(source="cli")
        store.append_messages(a, [_message("pet", cat)])
        store.append_messages(b, [_message("bill", pdf)])

        def names(**how: str) -> list[str]:
            return [link.attachment.name for link in store.find_attachments(**how)]

        assert names() == ["invoice.pdf", "Cat.PNG"]  # newest first
        assert names(query="cat.png") == ["Cat.PNG"]
        assert names(query="tabby") == ["Cat.PNG"]
        assert names(query="application/pdf") == ["invoice.pdf"]
        assert names(query="image/") == ["Cat.PNG"]
        assert names(session_id=a) == ["Cat.PNG"]
        assert names(session_id=a, query="invoice") == []
        found = store.find_attachments(query="tabby")[0]
        assert (found.session_id, found.seq, found.role) == (a, 0, "user")
        assert found.to_dict()["caption"] == "My Tabby on the sofa"


def test_a_sessions_db_of_version_5_gains_the_link_table_keeping_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.backends.files.sqlite import SQLiteSessionStore, store as sqlite_store

    db = tmp_path / "sessions.db"
    with monkeypatch.context() as m:
        m.setattr(sqlite_store, "MIGRATIONS", sqlite_store.MIGRATIONS[:5])
        m.setattr(sqlite_store, "SCHEMA_VERSION", 5)
        with SQLiteSessionStore(db) as old:
            sid = old.start_session(source="cli")
            [before] = old.append_messages(sid, [NewMessage("user", "older words")])
            assert not old._read("SELECT 1 FROM sqlite_master WHERE name = 'message_attachments'")
    link = AttachmentStore(tmp_path / "attachments").put(tiny_png(), name="dot.png")
    with SQLiteSessionStore(db) as store:  # migrates
        assert store.stats().schema_version == sqlite_store.SCHEMA_VERSION
        assert [m.content for m in store.messages(sid)] == ["older words"]
        assert store.attachments([before]) == {}
        [after] = store.append_messages(sid, [_message("newer", link)])
        assert store.attachments([before, after]) == {after: [link]}


@pytest.mark.postgres
def test_a_postgres_schema_of_version_9_gains_the_link_table_keeping_its_rows(
    pg_dsn: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import psycopg

    from mnemic.backends.postgres import migrations
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    name = "v9_" + uuid.uuid4().hex[:10]
    db = Database(pg_dsn, schema=name)
    try:
        with monkeypatch.context() as m:
            m.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:9])
            m.setattr(migrations, "SCHEMA_VERSION", 9)
            assert migrations.migrate(db)[-1] == 9
        with db.raw_connection() as conn:
            conn.execute(db.sql(
                "INSERT INTO {s}.sessions (id, source, started_at, last_active, message_count) "
                "VALUES ('old', 'cli', 1, 1, 1)"
            ))  # fmt: skip
            conn.execute(db.sql(
                "INSERT INTO {s}.messages (sid, seq, ts, role, content) "
                "SELECT sid, 0, 1, 'user', 'older words' FROM {s}.sessions"
            ))  # fmt: skip
        # version 10 adds the link table (and later versions follow it)
        assert migrations.migrate(db) == list(range(10, migrations.SCHEMA_VERSION + 1))
        link = AttachmentStore(tmp_path / "attachments").put(tiny_png(), name="dot.png")
        store = PostgresSessionStore(db)
        [before] = store.messages("old")
        assert before.content == "older words"
        assert store.attachments([before.id]) == {}
        [after] = store.append_messages("old", [_message("newer", link)])
        assert store.attachments([before.id, after]) == {after: [link]}
        store.close()
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@pytest.mark.postgres
def test_db_copy_carries_the_links_into_the_database(
    home_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    from mnemic.backends.postgres.copy import copy_memory, open_side
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    home = Home.open(home_path)
    link = AttachmentStore.of_home(home).put(tiny_png(), name="dot.png", caption="a dot")
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        store.append_messages(sid, [NewMessage("user", "plain"), _message("see", link)])
    report = copy_memory(
        open_side(str(home_path)), open_side(pg_dsn, schema=pg_schema, migrate=True)
    )
    assert report.verified
    copied = PostgresSessionStore(Database(pg_dsn, schema=pg_schema))
    try:
        [found] = copied.find_attachments(session_id=sid)
        assert (found.seq, found.attachment) == (1, link)
    finally:
        copied.close()
