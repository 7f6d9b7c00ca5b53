"""The importers' reads of another agent's text files (integrations.foreign): Claude
Code's memory files, a Hermes home's MEMORY.md and ChatGPT's pasted saved memories are
read alike, and a file that cannot be read is refused alike, each with its own hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemic.errors import IntegrationError
from mnemic.integrations.chat_exports import saved_memories
from mnemic.integrations.claude_memory.source import read_file
from mnemic.integrations.hermes_import.source import HermesHome


def _hermes(path: Path) -> list[str] | None:
    home = path.parent.parent  # <home>/memories/MEMORY.md
    return HermesHome(home).memory_entries("memory")


READERS = {
    "claude-code-memory": (read_file, "save it as UTF-8 text"),
    "hermes": (_hermes, "Repair it in Hermes"),
    "chatgpt": (saved_memories, "Save the pasted memories as UTF-8 text"),
}


@pytest.mark.parametrize("source", READERS)
def test_an_unreadable_file_of_another_agent_is_refused_naming_it_why_and_what_to_do(
    tmp_path: Path, source: str
) -> None:
    read, hint = READERS[source]
    path = tmp_path / "memories" / "MEMORY.md"
    path.parent.mkdir()
    path.write_bytes(b"- caf\xe9 au lait\n")  # Latin-1, not UTF-8
    with pytest.raises(IntegrationError) as info:
        read(path)
    assert info.value.path == str(path)
    assert info.value.problem.startswith("cannot be read (") and "UTF-8" in info.value.problem
    assert hint in info.value.hint
    path.write_text("- Prefers tea.\n", encoding="utf-8")
    assert "Prefers tea." in str(read(path))


@pytest.mark.parametrize("source", READERS)
def test_a_file_past_eight_mebibytes_is_refused(tmp_path: Path, source: str) -> None:
    read, _ = READERS[source]
    path = tmp_path / "memories" / "MEMORY.md"
    path.parent.mkdir()
    path.write_bytes(b"x" * ((8 << 20) + 1))
    with pytest.raises(IntegrationError, match="cannot be read"):
        read(path)


def test_a_symlink_out_of_the_folder_is_refused_alike_by_each_importer(tmp_path: Path) -> None:
    """Hermes's parts, Codex's rollout folder and Claude Code's memory files refuse a path
    whose real path leaves its folder with one message, each with its own hint."""
    from mnemic.integrations.chat_exports import codex_files
    from mnemic.integrations.foreign import check_inside

    outside = tmp_path / "outside.md"
    outside.write_text("- planted\n")
    hermes = tmp_path / "hermes"
    (hermes / "memories").mkdir(parents=True)
    (hermes / "memories" / "MEMORY.md").symlink_to(outside)
    codex = tmp_path / "codex"
    codex.mkdir()
    (codex / "rollout-1.jsonl").symlink_to(outside)
    claude = tmp_path / "claude"
    claude.mkdir()
    (claude / "CLAUDE.md").symlink_to(outside)
    refusals = {
        "the Hermes home": (
            lambda: HermesHome(hermes).memory_entries("memory"),
            "into the home",
        ),
        "the Codex sessions folder": (lambda: codex_files(codex), "into the folder"),
        "Claude Code's folder": (
            lambda: check_inside(claude / "CLAUDE.md", claude, "Claude Code's folder"),
            "into place",
        ),
    }
    for what, (refuse, hint) in refusals.items():
        with pytest.raises(IntegrationError) as info:
            refuse()
        assert info.value.problem == f"a symlink out of {what} (to {outside})"
        assert hint in info.value.hint
