"""Property: live entries plus the archive are every entry ever written, minus what was
forgotten, byte for byte (as a multiset), after every step of random sequences of add,
replace, remove, batch, restore, forget, expiry (an entry written with a valid-until time
that the memory's clock then passes), ``memory move`` between the global store and a
project's and an archived entry added back (the archive keeps it, and marks it
``in_memory`` exactly while its text is live); and with small budgets and an ``on_full``
policy, of the evictions those writes make. The global store and the project store each
keep the invariant on their own: a move is an add to one and an archiving remove from the
other."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.pressure import due
from mnemic.curated.scope import open_project
from mnemic.curated.store import Op
from mnemic.errors import ToolError
from mnemic.home import Home
from mnemic.ops.forget import forget_sessions
from mnemic.ops.move import move_entry

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
START = 1_780_000_000.0  # the memories' clock (2026-05-28T20:26Z); a step takes a minute
TICK = 60.0


def _fact(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)} fact {rng.randrange(6)}"


@dataclass
class Store:
    """One store (global, or the project's), its targets and what was ever written to it."""

    name: str
    mem: Memory
    targets: tuple[str, ...]
    written: Counter[str] = field(default_factory=Counter)

    def live(self) -> Counter[str]:
        return Counter(e for t in self.targets for e in self.mem.entries(t))

    def check(self) -> None:
        """Live entries and the archive are everything written; an archived entry is
        marked in memory exactly while its text is a live entry of its file."""
        found = archive.archive_listing(self.mem)
        live = {t: self.mem.entries(t) for t in self.targets}
        kept = Counter(a.text for a in found.items if a.text is not None)
        assert Counter(e for t in self.targets for e in live[t]) + kept == self.written
        for a in found.items:
            back = a.text is not None and a.text in live.get(a.target, ())
            assert found.in_memory(a) == back, a


@dataclass
class World:
    home: Path
    repo: Path
    clock: list[float]
    stores: tuple[Store, Store]
    back: random.Random
    """Draws the adds of an archived text (apart: the other steps draw as before)."""
    done: Counter[str] = field(default_factory=Counter)
    """How often each kind of step changed something (the run's coverage)."""


def _open(home: Path, repo: Path, seed: int = 0) -> World:
    clock = [START]
    glob = Memory.open(home, origin="cli", session_id="prop", clock=lambda: clock[0])
    proj_home = open_project(Home.open(home), repo, create=True)
    proj = Memory.open(proj_home, origin="cli", session_id="prop", clock=lambda: clock[0])
    return World(home, repo, clock, (Store("global", glob, ("memory", "user")),
                                     Store("project", proj, ("memory",))),
                 random.Random(~seed))  # fmt: skip


def _step(w: World, rng: random.Random) -> None:
    w.clock[0] += TICK
    here = rng.choice(w.stores)
    there = w.stores[1] if here is w.stores[0] else w.stores[0]
    mem, written = here.mem, here.written
    t = rng.choice(here.targets)
    live = mem.entries(t)
    roll = rng.random()
    if roll < 0.28 or not live:
        text = _fact(rng)
        if rng.random() < 0.3:  # valid for a few minutes (steps)
            until = w.clock[0] + TICK * rng.randrange(1, 30)
            if mem.apply(t, [Op("add", text, expires=until)]).written:
                written[text] += 1
                w.done["add_expiring"] += 1
        else:
            gone = []
            if w.back.random() < 0.3:  # an archived entry added back, as the tool says to
                gone = [a.text for a in archive.listing(mem, t) if a.text and a.text not in live]
            if gone:
                text = w.back.choice(gone)
            if mem.add(t, text).written:
                written[text] += 1
                w.done["added_back"] += bool(gone)
    elif roll < 0.44:
        old, new = rng.choice(live), _fact(rng)
        if new != old:
            until = w.clock[0] + TICK * rng.randrange(1, 30) if rng.random() < 0.2 else None
            mem.apply(t, [Op("replace", new, old, expires=until)])
            if new not in live:
                written[new] += 1
    elif roll < 0.58:
        mem.remove(t, rng.choice(live))
    elif roll < 0.66:
        old, new = rng.choice(live), _fact(rng)
        mem.batch(t, [Op("remove", None, old), Op("add", new)], allow_empty=True)
        if new not in live:  # removing X and adding X back nets out: nothing archived
            written[new] += 1
    elif roll < 0.76:
        items = [a for a in archive.listing(mem) if a.text is not None]
        if items:
            archive.restore(mem, rng.choice(items).id)  # moves it: nothing new written
    elif roll < 0.86:
        entries = mem.entries("memory")
        if entries:  # USER.md is global only: MEMORY.md entries move
            entry = rng.choice(entries)
            to = "project" if here.name == "global" else "global"
            moved = move_entry(Home.open(w.home), w.repo, entry, to=to)
            if moved.added.written:  # the source archives it: its own count stays
                there.written[entry] += 1
            w.done["move"] += moved.done
    elif roll < 0.96:
        now = w.clock[0]
        for store in w.stores:
            gone = store.mem.expire()
            assert due(store.mem, now) == {}, store.name
            expired = {a.text for a in archive.listing(store.mem) if a.reason == "expired"}
            for target, entry in gone:
                assert entry not in store.mem.entries(target) and entry in expired
            w.done["expired"] += len(gone)
    else:
        word = rng.choice(WORDS)
        forget_sessions(w.home, word, clock=lambda: w.clock[0])
        for store in w.stores:
            alive = store.live()
            for text in list(store.written):
                if word in text:
                    store.written[text] = alive[text]
            store.written += Counter()  # drop zero counts


ROOMY = (
    "[memory]\nmemory_char_limit = 100000\nuser_char_limit = 100000\n"
    "[project]\nmemory_char_limit = 100000\n"
)
EVICTING = (
    "[memory]\nmemory_char_limit = 160\nuser_char_limit = 120\n"
    'on_full = "archive_oldest"\non_full_user = "archive_least_used"\n'
    "[project]\nmemory_char_limit = 100\n"
)


def _run(factory: pytest.TempPathFactory, config: str, seed: int, steps: int) -> World:
    rng = random.Random(seed)
    home = factory.mktemp("home")
    (home / "config.toml").write_text(config)
    repo = factory.mktemp("repo")
    w = _open(home, repo, seed)
    for step in range(steps):
        try:
            _step(w, rng)
        except ToolError as exc:  # a refusal changes nothing (oscillation, no match...)
            assert exc.code in ("loop_stopped", "oscillation", "no_match"), exc.code
        for store in w.stores:
            try:
                store.check()
            except AssertionError as exc:
                raise AssertionError(f"step {step}, {store.name} store: {exc}") from exc
    return w


def _evicted(w: World) -> list[bool]:
    """Whether each store's archive holds an eviction (global, project)."""
    return [any(a.reason == "evicted" for a in archive.listing(s.mem)) for s in w.stores]


STEPS = 300
"""Steps of each example: enough for every kind of step to change something at least
:data:`AT_LEAST` times in each (10 to 36 times in four seeds tried, session 50), and for
the evicting budgets to evict in both stores. 600 before session 50: the roomy stores
grow with the run and every step's check reads them, so the run's time grew faster than
its length (45 s for the roomy four under load)."""
AT_LEAST = 5


@pytest.mark.slow
@pytest.mark.parametrize("config", [ROOMY, EVICTING], ids=["roomy", "evicting"])
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_live_and_archive_are_everything_written_but_what_was_forgotten(
    tmp_path_factory: pytest.TempPathFactory, config: str, seed: int
) -> None:
    w = _run(tmp_path_factory, config, seed, STEPS)
    assert _evicted(w) == [config == EVICTING] * 2
    assert min(w.done[k] for k in ("add_expiring", "move", "expired")) >= AT_LEAST, w.done


def test_a_short_run_over_both_stores_keeps_the_invariant(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The quick suite's share: one seed, 150 steps, small budgets."""
    w = _run(tmp_path_factory, EVICTING, 26, 150)
    assert _evicted(w)[0]
    assert min(w.done[k] for k in ("add_expiring", "move", "expired", "added_back")) > 0, w.done
