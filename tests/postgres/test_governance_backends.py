"""The pending queue and the audit journal where PostgreSQL keeps them.

The governance behaviour suites (``tests/test_governance_*.py``) run on both backends
through the ``backend`` fixture; what is left here looks at the tables themselves: the
queue and the journal live in the database, forgetting empties every table that held
the text, a staging id the table already holds is not reused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _backends import PostgresKit
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
from mnemic.home import Home
from mnemic.ops import PendingQueue

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(home_path: Path, pg_dsn: str, pg_schema: str) -> PostgresKit:
    """The test home on the database, staging unattended memory writes."""
    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    kit.write_config('[approval]\nmemory_background = "stage"\n')
    return kit


def test_queue_and_journal_live_in_the_database(pg: PostgresKit) -> None:
    bg = Memory.open(pg.home, actor="background", origin="review")
    res = bg.add("memory", "staged fact")
    assert res.staged and res.pending_id
    assert not (pg.home / "pending").exists() and not (pg.home / "audit").exists()
    assert pg.sql("SELECT subsystem, id FROM {s}.pending") == [("memory", res.pending_id)]
    queue = PendingQueue.open(pg.home)
    [outcome] = queue.approve(res.pending_id)
    assert outcome.ok and Memory.open(pg.home).entries("memory") == ["staged fact"]
    assert pg.sql("SELECT count(*) FROM {s}.pending") == [(0,)]
    actions = [(r["action"], r["result"]) for r in pg.journal().records()]
    assert actions == [("add", "staged"), ("approve", "ok")]
    assert pg.sql("SELECT count, hash FROM {s}.audit_head") == [
        (2, pg.journal().verify().last_hash)
    ]


def test_forget_user_in_the_database(pg: PostgresKit) -> None:
    from mnemic.ops import forget_user

    mem = Memory.open(pg.home)
    mem.add("user", "Name: Ada")
    mem.replace("user", "Ada", "Name: Ada L.")
    Memory.open(pg.home, actor="background", origin="review").batch(
        "user", [Op("remove", old_text="Ada")], allow_empty=True
    )
    report = forget_user(pg.home)
    assert report.pending and report.files
    for table in ("curated", "curated_versions", "curated_backups", "pending"):
        assert pg.sql(f"SELECT count(*) FROM {{s}}.{table}") == [(0,)]
    assert pg.journal().verify().ok


def test_forget_sessions_drops_the_versions_that_held_a_memory_text(pg: PostgresKit) -> None:
    """A removed entry's text lives on in the earlier versions of MEMORY.md: forgetting
    it drops those rows and keeps the versions that never held it (docs/first-week.md)."""
    from mnemic.ops import forget_sessions

    mem = Memory.open(pg.home)
    mem.add("memory", "Unrelated first fact.")
    mem.add("memory", "The old staging host is quagga-77.internal.")
    mem.remove("memory", "quagga-77")
    mem.add("memory", "Unrelated later fact.")
    held = ("SELECT count(*) FROM {s}.curated_versions WHERE body LIKE %s", ("%quagga-77%",))
    (before,) = pg.sql(*held)
    assert before[0] >= 1
    (total,) = pg.sql("SELECT count(*) FROM {s}.curated_versions")
    report = forget_sessions(pg.home, "quagga-77")
    assert len(report.copies) == before[0]
    assert pg.sql(*held) == [(0,)]
    assert pg.sql("SELECT count(*) FROM {s}.curated_versions") == [(total[0] - before[0],)]
    assert pg.journal().verify().ok


def test_forget_sessions_in_the_database(pg: PostgresKit) -> None:
    from mnemic.ops import forget_sessions
    from mnemic.sessions import NewMessage, open_store

    with open_store(Home.open(pg.home)) as store:
        sid = store.start_session(id="s", title="about the secret-project")
        store.append_messages(
            sid, [NewMessage("user", "the SECRET-PROJECT code"), NewMessage("user", "other")]
        )
    report = forget_sessions(pg.home, "secret-project")
    assert (report.messages, report.sessions) == (1, 1)
    assert pg.sql("SELECT content FROM {s}.messages") == [("other",)]
    assert pg.sql("SELECT title FROM {s}.sessions") == [(None,)]
