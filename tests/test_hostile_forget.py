"""Hostile ``mnemic forget`` command lines (issue 32, hostile1): a refusal forgets
nothing, and comes before the question."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _cli import cli
from mnemic.curated import archive
from mnemic.curated.memory import Memory


def _archived_texts(home: Path) -> list[str | None]:
    return [a.text for a in archive.archive_listing(Memory.open(home)).items]


@pytest.mark.parametrize("text", ["ab", "   ", " a "])
def test_a_refused_text_with_user_forgets_nothing(home_path: Path, text: str) -> None:
    """`forget --user --text ab --yes` refused the text (exit 1) after it had already
    dropped the user profile's texts from the journal, for good."""
    assert cli("memory", "add", "--target", "user", "Prefers tabs.").exit_code == 0
    assert cli("memory", "remove", "--target", "user", "tabs").exit_code == 0
    assert _archived_texts(home_path) == ["Prefers tabs."]
    result = cli("forget", "--user", "--text", text, "--yes", "--json")
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["error_code"] == "invalid_argument" and "at least 3 characters" in answer["error"]
    assert _archived_texts(home_path) == ["Prefers tabs."]


def test_a_refused_text_is_refused_before_the_question(home_path: Path) -> None:
    assert cli("memory", "add", "A fact.").exit_code == 0
    result = cli("forget", "--text", "ab")
    assert result.exit_code == 1
    assert "Permanently forget" not in result.output
    assert "at least 3 characters" in result.stderr
