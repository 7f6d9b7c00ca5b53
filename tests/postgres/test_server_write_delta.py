"""perf19: a write in the server reads the entries of the text it found from what its
store last found or left (``ServerTexts``: the same text, or that text with other
writers' entries appended, parsed in its appended part only). Several sessions of one
home write at random in turn, each through the server, so each finds its own last text,
that text with others' adds after it (a few, or more than a set is made for), or a text
others removed from: every write's entries are those of the text it found, parsed whole,
and every session's answer and view are what the text in the database says."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemic.curated.entries import parse
from mnemic.curated.memory import Memory
from mnemic.curated.read_memo import ServerTexts
from mnemic.curated.store import Op
from mnemic.curated.usage import Usage

pytestmark = pytest.mark.postgres


def _body(dsn: str, schema: str) -> str:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            f"SELECT body FROM \"{schema}\".curated WHERE target = 'memory' AND project = ''"
        ).fetchone()
    assert row is not None
    return str(row[0])


@pytest.mark.parametrize("seed", [1, 2])
def test_the_entries_a_server_write_reads_are_the_whole_parse(
    seed: int,
    pg_home: Callable[..., Path],
    pg_dsn: str,
    pg_schema: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mnemic.backends.postgres.curated as pg_curated
    import mnemic.curated.read_memo as read_memo

    how: Counter[str] = Counter()
    real_entries, real_parse = ServerTexts.entries, read_memo.parse

    def whole(raw: str) -> list[str]:
        how["parsed whole"] += 1
        return real_parse(raw)

    def checked(self: ServerTexts, target: str, raw: str) -> tuple[str, ...]:
        kept = self._known.get(target)
        got = real_entries(self, target, raw)
        assert got == tuple(real_parse(raw))  # what parsing the whole text gives
        if kept is not None and raw == kept[0]:
            how["same" if got is kept[1] else "same, another tuple"] += 1
        elif kept is not None and raw.startswith(kept[0]):
            how["appended" if len(got) - len(kept[1]) <= 8 else "appended, a set"] += 1
        else:
            how["other"] += 1
        return got

    monkeypatch.setattr(read_memo, "parse", whole)
    monkeypatch.setattr(ServerTexts, "entries", checked)
    outcomes: Counter[str] = Counter()
    real_write = pg_curated.PostgresBackend.server_write

    def counted(*args: Any, **kwargs: Any) -> Any:
        done = real_write(*args, **kwargs)
        outcomes["off" if done is None else done.outcome.split(":")[0]] += 1
        return done

    monkeypatch.setattr(pg_curated.PostgresBackend, "server_write", counted)
    home = pg_home(memory_char_limit=1_000_000)
    Memory.open(home).apply("memory", [Op("add", "seed")])
    sessions = [Memory.open(home) for _ in range(3)]
    rng = random.Random(seed)
    mine: list[list[str]] = [[] for _ in sessions]
    for k in range(120):
        w = rng.randrange(len(sessions)) if rng.random() < 0.6 else 0
        mem = sessions[w]
        burst = rng.choice([1, 1, 3, 12]) if w else 1  # adds pile up between two of 0
        for b in range(burst):
            if mine[w] and burst == 1 and rng.random() < 0.3:
                gone = mine[w].pop(rng.randrange(len(mine[w])))
                if rng.random() < 0.5:
                    op = Op("remove", old_text=gone)
                else:
                    op = Op("replace", f"w{w} n{k}.{b} (was {gone})", gone)
                    mine[w].append(op.content or "")
            else:
                op = Op("add", f"w{w} n{k}.{b} {'x' * rng.randrange(30)}")
                mine[w].append(op.content or "")
            done = mem.apply("memory", [op])
            assert done.written
            body = _body(pg_dsn, pg_schema)
            now = tuple(parse(body))
            assert mem._known["memory"] == now  # the session's view is the text's
            assert done.usage == Usage.of("memory", now, 1_000_000)
    # all but the first write (no text yet) decided in the server
    assert outcomes["ok"] > 200 and outcomes["fallback"] <= 1
    assert set(outcomes) <= {"ok", "fallback"}
    assert how["same"] > 20 and how["appended"] > 20 and how["appended, a set"] > 3, how
    assert how["same, another tuple"] == 0, how
    # parsed whole: only the texts others removed from or replaced in, and each
    # session's first
    assert how["parsed whole"] == how["other"] <= outcomes["ok"] // 3, how
