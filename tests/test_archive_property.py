"""Property: live entries plus the archive are every entry ever written, minus what was
forgotten, byte for byte (as a multiset), after every step of random sequences of add,
replace, remove, batch, restore and forget; and with small budgets and an ``on_full``
policy, of the evictions those writes make."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
from mnemic.errors import ToolError
from mnemic.ops.forget import forget_sessions

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
TARGETS = ("memory", "user")


def _fact(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)} fact {rng.randrange(6)}"


def _everything(mem: Memory) -> Counter[str]:
    live = [e for t in TARGETS for e in mem.entries(t)]
    kept = [a.text for a in archive.listing(mem) if a.text is not None]
    return Counter(live + kept)


def _step(mem: Memory, home: Path, rng: random.Random, written: Counter[str]) -> None:
    t = rng.choice(TARGETS)
    live = mem.entries(t)
    roll = rng.random()
    if roll < 0.35 or not live:
        text = _fact(rng)
        if mem.add(t, text).written:
            written[text] += 1
    elif roll < 0.55:
        old, new = rng.choice(live), _fact(rng)
        if new != old:
            mem.replace(t, old, new)
            if new not in live:
                written[new] += 1
    elif roll < 0.75:
        mem.remove(t, rng.choice(live))
    elif roll < 0.85:
        old, new = rng.choice(live), _fact(rng)
        mem.batch(t, [Op("remove", None, old), Op("add", new)], allow_empty=True)
        if new not in live or new == old:
            written[new] += 1
    elif roll < 0.97:
        items = [a for a in archive.listing(mem) if a.text is not None]
        if items:
            archive.restore(mem, rng.choice(items).id)  # moves it: nothing new written
    else:
        word = rng.choice(WORDS)
        forget_sessions(home, word)
        alive = Counter(e for target in TARGETS for e in mem.entries(target))
        for text in list(written):
            if word in text:
                written[text] = alive[text]
        written += Counter()  # drop zero counts


ROOMY = "[memory]\nmemory_char_limit = 100000\nuser_char_limit = 100000\n"
EVICTING = (
    "[memory]\nmemory_char_limit = 160\nuser_char_limit = 120\n"
    'on_full = "archive_oldest"\non_full_user = "archive_least_used"\n'
)


@pytest.mark.slow
@pytest.mark.parametrize("config", [ROOMY, EVICTING], ids=["roomy", "evicting"])
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_live_and_archive_are_everything_written_but_what_was_forgotten(
    tmp_path_factory: pytest.TempPathFactory, config: str, seed: int
) -> None:
    rng = random.Random(seed)
    home = tmp_path_factory.mktemp("home")
    (home / "config.toml").write_text(config)
    mem = Memory.open(home, origin="cli", session_id="prop")
    written: Counter[str] = Counter()
    for step in range(600):
        try:
            _step(mem, home, rng, written)
        except ToolError as exc:  # a refusal changes nothing (oscillation, no match...)
            assert exc.code in ("loop_stopped", "oscillation", "no_match"), exc.code
        assert _everything(mem) == written, step
    evicted = [a for a in archive.listing(mem) if a.reason == "evicted"]
    assert bool(evicted) == (config == EVICTING)
