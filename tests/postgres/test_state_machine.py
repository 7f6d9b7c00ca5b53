"""The curated store's hypothesis state machine, run against PostgreSQL too."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import settings
from hypothesis.stateful import invariant, run_state_machine_as_test

from mnemic.config import MemorySettings, Settings
from mnemic.curated.entries import char_count, parse
from mnemic.curated.memory import Memory
from test_curated_state_machine import LIMIT, CuratedModel

pytestmark = pytest.mark.postgres


def test_state_machine_on_postgres(pg_db: Any) -> None:
    from mnemic.backends.postgres.curated import PostgresBackend

    class PostgresModel(CuratedModel):
        def __init__(self) -> None:
            super().__init__()
            with pg_db.connection() as conn:
                conn.execute(pg_db.sql("TRUNCATE {s}.curated, {s}.curated_versions"))
            cfg = Settings(memory=MemorySettings(memory_char_limit=LIMIT, history_limit=1000))
            self.mem = Memory(PostgresBackend(pg_db, history_limit=1000), cfg)

        @invariant()
        def disk_matches_model(self) -> None:
            raw = self.mem.backend.read("memory") or ""
            assert parse(raw) == self.model
            assert char_count(self.model) <= LIMIT

    run_state_machine_as_test(
        PostgresModel,
        settings=settings(max_examples=25, stateful_step_count=25, deadline=None),
    )
