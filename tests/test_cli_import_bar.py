"""Every `mnemic import` source shows the progress bar under one rule: on a terminal,
for a real import printed for a person; never with --dry-run or --json."""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import mnemic.cli.importing as importing
from _cli import cli


class _Terminal:
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "source", ["hermes", "chatgpt", "codex", "--bundle"], ids=lambda s: s.strip("-")
)
def test_the_bar_shows_only_for_a_real_import_printed_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    shown: list[bool] = []

    @contextlib.contextmanager
    def bar(enabled: bool) -> Iterator[None]:
        shown.append(enabled)
        yield None

    monkeypatch.setattr(importing, "import_bar", bar)
    monkeypatch.setattr(importing, "sys", types.SimpleNamespace(stderr=_Terminal()))
    given = tmp_path / "conversations.json"
    given.write_text("[]")
    where = ["--bundle", str(tmp_path / "none.bundle")] if source == "--bundle" else [source]
    if source != "--bundle":
        where.append(str(given if source == "chatgpt" else tmp_path))
    for extra in ([], ["--dry-run"], ["--json"]):
        cli("--home", str(tmp_path / "home"), "import", *where, *extra)
    assert shown == [True, False, False]
