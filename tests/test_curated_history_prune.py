"""The versions past ``history_limit`` are dropped after each write from the listing its
history link made under the lock, not from a second listing of ``.history``
(docs/performance.md, "perf12"): the same versions kept as a prune that lists."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemic.backends.files import curated as files_curated
from mnemic.backends.files.flusher import drain
from mnemic.curated.memory import Memory
from mnemic.errors import WriteFailed


def _listings(monkeypatch: pytest.MonkeyPatch, history: Path) -> list[int]:
    """Counts the listings of ``history`` (one item per ``os.listdir`` of it)."""
    seen: list[int] = []
    real = os.listdir

    def counted(path: str | os.PathLike[str] = ".") -> list[str]:
        if os.fspath(path) == os.fspath(history):
            seen.append(1)
        return real(path)

    monkeypatch.setattr(os, "listdir", counted)
    return seen


def test_a_write_lists_the_history_once_and_still_drops_the_oldest(
    make_memory: Callable[..., Memory], home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = make_memory(history_limit=3)
    for i in range(6):
        mem.add("memory", f"Fact number {i}.")
    drain()
    history = home_path / "memories" / ".history"
    before = sorted(os.listdir(history))
    assert len(before) == 3
    with monkeypatch.context() as m:
        seen = _listings(m, history)
        mem.add("memory", "One more fact.")
        drain()
    assert len(seen) == 1  # the history link's; the prune after it reuses it
    after = sorted(os.listdir(history))
    assert len(after) == 3 and after[:2] == before[1:]


@pytest.fixture
def homes(tmp_path: Path) -> Iterator[Callable[[int], Path]]:
    made = iter(range(10**6))

    def make(limit: int) -> Path:
        home = tmp_path / f"h{next(made)}"
        home.mkdir()
        (home / "config.toml").write_text(f"[memory]\nhistory_limit = {limit}\n")
        return home

    yield make


steps = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),  # which session writes
        st.sampled_from(["memory", "user"]),
        st.sampled_from(["add", "remove", "fail", "drain"]),
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(limit=st.integers(1, 4), plan=steps)
def test_the_versions_kept_are_those_a_prune_that_lists_keeps(
    homes: Callable[[int], Path], limit: int, plan: list[tuple[str, str, str]]
) -> None:
    """Two sessions of one home writing in turn, prunes queued and run late, failed
    writes (their link taken back): after everything has run, a prune that lists
    ``.history`` finds nothing more to drop, and exactly the newest ``limit`` versions
    of each target are kept."""
    home = homes(limit)
    sessions = {"a": Memory.open(home), "b": Memory.open(home)}
    made: dict[str, int] = {"memory": 0, "user": 0}
    for who, target, what in plan:
        mem = sessions[who]
        if what == "drain":
            drain()
        elif what == "add":
            made[target] += 1
            mem.add(target, f"{target} fact {made[target]} by {who}.")
        elif what == "remove":
            live = mem.store.load(target)
            if live:
                mem.remove(target, live[0])
        else:
            with pytest.MonkeyPatch.context() as m:
                m.setattr(os, "replace", _fail)
                with pytest.raises(WriteFailed):
                    mem.add(target, f"a {target} fact that never commits")
    drain()
    history = home / "memories" / ".history"
    names = sorted(os.listdir(history)) if history.exists() else []
    backend = files_curated.FileBackend(home / "memories", history_limit=limit)
    for target in ("memory", "user"):
        backend._prune(target)  # the listing prune
        assert backend._history_names(target) == [
            n for n in names if n.startswith("MEMORY.md." if target == "memory" else "USER.md.")
        ]
        assert len(backend._history_names(target)) <= limit


def _fail(src: object, dst: object) -> None:
    raise OSError(5, "Input/output error")
