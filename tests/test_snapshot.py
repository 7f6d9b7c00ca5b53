"""The frozen snapshot block: format, caps, blocked entries, the light-weight path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import given, strategies as st

from mnemic import render_snapshot
from mnemic.curated.entries import serialize
from mnemic.curated.memory import Memory
from mnemic.curated.snapshot import RULE, render_block
from mnemic.curated.store import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.usage import Usage, estimate_tokens

MakeMemory = Callable[..., Memory]


def test_header_format_matches_spec() -> None:
    entries = ["x" * 1471]
    usage = Usage.of("memory", entries, 2200)
    block = render_block("memory", entries, usage)
    lines = block.text.split("\n")
    assert lines[0] == RULE and len(RULE) == 46 and set(RULE) == {"═"}
    assert lines[1] == "MEMORY (your personal notes) [66% — 1,471/2,200 chars]"
    assert lines[2] == RULE
    usage = Usage.of("user", ["y" * 1000], 1375)
    assert render_block("user", ["y" * 1000], usage).text.split("\n")[1] == (
        "USER PROFILE (who the user is) [72% — 1,000/1,375 chars]"
    )


def test_empty_target_has_no_block(make_memory: MakeMemory) -> None:
    mem = make_memory()
    mem.add("user", "Name: Ada")
    snap = mem.new_session()
    assert snap.block("memory") == ""
    assert snap.text.startswith(RULE + "\nUSER PROFILE")


def test_blocks_order_and_separation(make_memory: MakeMemory) -> None:
    mem = make_memory()
    mem.add("user", "u1")
    mem.add("memory", "m1")
    text = mem.new_session().text
    assert text.index("MEMORY (your") < text.index("USER PROFILE")
    assert "m1\n\n" + RULE in text


def test_disabled_targets_are_left_out(make_memory: MakeMemory) -> None:
    mem = make_memory(user_profile_enabled=False)
    mem.add("user", "u1")
    mem.add("memory", "m1")
    text = mem.new_session().text
    assert "USER PROFILE" not in text and "m1" in text
    # the tool may still write the disabled target
    assert run_memory_tool(mem, {"action": "add", "target": "user", "content": "u2"})["success"]


def test_over_budget_file_is_capped_and_marked(make_memory: MakeMemory, home_path: Path) -> None:
    make_memory()
    entries = [f"entry {i} " + "z" * 90 for i in range(100)]  # ~10,000 chars
    (home_path / "memories" / "MEMORY.md").write_text("\n§\n".join(entries), encoding="utf-8")
    snap = Memory.open(home_path).snapshot
    block = snap.blocks["memory"]
    assert "⚠ OVER BUDGET" in block.text.split("\n")[1]
    assert block.truncated_chars > 0
    assert len(block.text) < 4400 + 400  # cap max(2*2200, 4000) plus header and marker
    assert "chars not shown" in block.text
    assert block.text.rstrip().endswith(entries[-1])  # the tail is kept


def test_render_cap_setting(make_memory: MakeMemory) -> None:
    mem = make_memory(render_cap=50)
    mem.batch("memory", [Op("add", "a" * 40), Op("add", "b" * 40)])
    block = mem.new_session().blocks["memory"]
    assert block.truncated_chars == 83 - 35 - 10


def test_render_snapshot_equals_session_snapshot(make_memory: MakeMemory, home_path: Path) -> None:
    mem = make_memory()
    mem.add("memory", "m1")
    mem.add("user", "u1")
    assert render_snapshot(str(home_path)) == Memory.open(home_path).snapshot.text
    assert render_snapshot() == Memory.open().snapshot.text  # via MNEMIC_HOME


def test_render_snapshot_of_empty_home(home_path: Path) -> None:
    assert render_snapshot(str(home_path / "nowhere")) == ""


def test_token_estimate_knows_cjk_costs_more() -> None:
    english = "remember the user prefers metric units"
    chinese = "用户喜欢使用公制单位并且希望回答简洁明了"
    assert estimate_tokens(english) <= len(english) // 3
    assert estimate_tokens(chinese) >= len(chinese)
    usage = Usage.of("memory", [chinese], 2200)
    assert usage.tokens >= len(chinese)


@given(st.lists(st.text(alphabet="ab §é用\n"), max_size=6))
def test_usage_estimates_the_tokens_of_the_text_its_entries_make(entries: list[str]) -> None:
    """Entries all ASCII are counted without joining them (only their delimiters are
    not ASCII); whichever way, the estimate is that of the text the file holds."""
    usage = Usage.of("memory", entries, 2200)
    assert usage.tokens == estimate_tokens(serialize(entries))
