"""`sessions import DIR` of Claude Code transcripts and symlinks (mend15, item 1).

A ``*.jsonl`` symlink under the folder that leads out of it was followed: /etc/passwd
was read and its lines counted as bad. The Codex and ChatGPT importers refuse such a
link naming where it leads; the folder import now does the same, in the same words,
before anything is written. A link that stays inside the folder is still read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mnemic.cli import main
from mnemic.errors import IntegrationError
from mnemic.home import Home
from mnemic.sessions import import_path, open_store


def _transcript(path: Path, session: str) -> Path:
    base = {"sessionId": session, "cwd": "/repo", "version": "2.0"}
    rows: list[dict[str, Any]] = [
        {**base, "type": "user", "timestamp": "2026-01-02T03:04:05Z",
         "message": {"role": "user", "content": f"hello from {session}"}},
        {**base, "type": "assistant", "timestamp": "2026-01-02T03:04:06Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}},
    ]  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _folder_with_a_link_out(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "projects"
    _transcript(root / "-repo" / "s1.jsonl", "s1")
    outside = tmp_path / "secret.txt"
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    (root / "-repo" / "passwd.jsonl").symlink_to(outside)
    return root, outside


def test_a_jsonl_symlink_out_of_the_folder_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    root, outside = _folder_with_a_link_out(tmp_path)
    home = Home.open(tmp_path / "mnemic")
    with open_store(home) as store:
        with pytest.raises(IntegrationError) as caught:
            import_path(store, root)
        assert caught.value.problem == (
            f"a symlink out of the transcripts folder (to {outside.resolve()})"
        )
        assert caught.value.hint == "Copy what it points to into the folder, or remove the link."
        assert caught.value.path == str(root / "-repo" / "passwd.jsonl")
        assert store.list_sessions() == []


def test_a_directory_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    _transcript(root / "-repo" / "s1.jsonl", "s1")
    _transcript(tmp_path / "elsewhere" / "s2.jsonl", "s2")
    (root / "linked").symlink_to(tmp_path / "elsewhere")
    home = Home.open(tmp_path / "mnemic")
    with open_store(home) as store, pytest.raises(IntegrationError, match="symlink out of"):
        import_path(store, root)


def test_the_cli_says_where_the_link_leads_and_fails(tmp_path: Path) -> None:
    root, outside = _folder_with_a_link_out(tmp_path)
    result = CliRunner().invoke(
        main, ["--home", str(tmp_path / "mnemic"), "sessions", "import", str(root)]
    )
    assert result.exit_code == 1
    assert f"a symlink out of the transcripts folder (to {outside.resolve()})" in result.stderr
    assert "bad" not in result.stdout and "root:x" not in result.output


def test_a_symlink_that_stays_inside_the_folder_is_still_read(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    _transcript(root / "-repo" / "s1.jsonl", "s1")
    _transcript(root / "-other" / "s2.jsonl", "s2")
    (root / "-repo" / "s2-link.jsonl").symlink_to(root / "-other" / "s2.jsonl")
    home = Home.open(tmp_path / "mnemic")
    with open_store(home) as store:
        report = import_path(store, root)
        assert report.files == 3 and report.sessions == 2
        assert sorted(s.id for s in store.list_sessions()) == ["s1", "s2"]


def test_a_codex_folder_keeps_its_own_name_in_the_refusal(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    root.mkdir()
    outside = tmp_path / "x.jsonl"
    outside.write_text("{}\n", encoding="utf-8")
    (root / "rollout-x.jsonl").symlink_to(outside)
    home = Home.open(tmp_path / "mnemic")
    with open_store(home) as store, pytest.raises(IntegrationError) as caught:
        import_path(store, root, format="codex")
    assert "a symlink out of the Codex sessions folder" in caught.value.problem
