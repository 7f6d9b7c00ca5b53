"""The query a server write sends is the one psycopg's composition made, byte for byte:
its arguments are quoted by ``curated_server._arguments`` as ``sql.Literal(value)
.as_string(conn)`` quotes them, without composing one psycopg object per value (the
client's largest cost of a write after the threat scan; docs/postgres.md, "perf15")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings, strategies as st
from psycopg import sql

from mnemic.backends.postgres import curated_server

pytestmark = pytest.mark.postgres  # a real server's connection (``pg_dsn``), as every file here


def _composed(values: tuple[Any, ...], conn: Any) -> str:
    """The arguments as the code before composed them."""

    def array(items: list[str]) -> Any:
        inner = ",".join('"' + i.replace("\\", "\\\\").replace('"', '\\"') + '"' for i in items)
        return sql.Composed([sql.Literal("{" + inner + "}"), sql.SQL("::text[]")])

    parts = []
    for value, kind in zip(values, curated_server.ARGUMENT_TYPES, strict=True):
        if value is None:
            parts.append(sql.SQL(f"NULL::{kind}"))
        elif kind == "text[]":
            parts.append(array(value))
        else:
            parts.append(sql.Literal(value))
    return sql.SQL(", ").join(parts).as_string(conn)


texts = st.text(
    st.one_of(
        st.sampled_from(["'", "\\", '"', "{", "}", ",", "§", "\n", "\t", "é", "東"]),
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    ),
    max_size=12,
)
lists = st.lists(texts, max_size=4)
numbers = st.integers(min_value=-(2**63), max_value=2**63 - 1)
moments = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


@pytest.fixture(scope="module")
def conn(pg_dsn: str) -> Any:
    with psycopg.connect(pg_dsn) as c:
        yield c


arguments = st.tuples(
    texts, texts, numbers, texts, texts, st.none() | texts, st.none() | lists, lists,
    numbers, numbers, moments, lists, lists, lists, lists,
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(values=arguments)
def test_the_arguments_are_quoted_as_psycopg_quotes_them(
    conn: Any, values: tuple[Any, ...]
) -> None:
    assert curated_server._arguments(values) == _composed(values, conn)


def test_the_quoted_arguments_read_back_as_the_values(conn: Any) -> None:
    """What the server makes of them (the quoting argued by the comparison above)."""
    values = ("a'b", "back\\slash 'q' \"d\"", ['x\\"y', "{,}", ""], 1733555555.123456, -5)
    got = conn.execute(
        "SELECT "
        + ", ".join(
            [
                curated_server._literal(values[0]),
                curated_server._literal(values[1]),
                curated_server._array(values[2]),
                curated_server._literal(values[3]) + "::float8",
                curated_server._literal(values[4]) + "::bigint",
            ]
        )
    ).fetchone()
    assert got == values


def test_a_text_postgresql_cannot_hold_is_refused_as_before() -> None:
    with pytest.raises(psycopg.DataError):
        curated_server._literal("a\x00b")
    with pytest.raises(psycopg.DataError):
        curated_server._array(["ok", "a\x00b"])


def test_a_server_write_does_not_hash_its_record_in_the_client(
    pg_home: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server fills the record's hash: the client's template built the whole record
    with ``make_record``, hashing it and encoding its line, then threw both away."""
    from mnemic.curated.memory import Memory
    from mnemic.governance import chain

    mem = Memory.open(pg_home())
    mem.add("memory", "The build cache lives on the second disk.")  # the store is made
    hashed: list[object] = []
    real = chain.record_hash

    def counted(record: dict[str, Any]) -> str:
        hashed.append(record)
        return real(record)

    monkeypatch.setattr(chain, "record_hash", counted)
    served: list[str] = []
    real_write = curated_server.server_write

    def written(*args: Any, **kwargs: Any) -> Any:
        got = real_write(*args, **kwargs)
        served.append(got.outcome)
        return got

    monkeypatch.setattr(type(mem.backend), "server_write", written)
    assert mem.add("memory", "Deploys go out on Thursdays.").written
    mem.remove("memory", "Deploys go out")
    assert served == ["ok", "ok"]  # both decided by the server
    assert hashed == []
    assert mem.governor is not None and mem.governor.journal.verify().ok
