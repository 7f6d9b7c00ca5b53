"""Hostile skill files on disk and the skill tools' answers about them: a SKILL.md that
cannot be read (binary, not UTF-8, a FIFO, a directory, too large) or front matter of
the wrong type is refused in words that point at the command that shows what is wrong,
and nothing is written."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _skills import make_store
from mnemic.skills import SkillStore, run_skill_tool


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink() and not str(p).endswith(".lock")
    }


def _write(store: SkillStore, name: str, data: bytes) -> Path:
    directory = Path(store.root) / name
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "SKILL.md"
    path.write_bytes(data)
    return path


def _call(store: SkillStore, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    resp = run_skill_tool(store, tool, args)
    json.dumps(resp)
    return resp


UNREADABLE = {
    "binary": b"\x00\x01\xff\xfe---\nname: binary\n---\n",
    "latin1": b"---\nname: latin1\ndescription: caf\xe9 au lait\n---\nBody\n",
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_an_unreadable_skill_points_at_skills_lint_not_memory_doctor(
    home_path: Path, name: str
) -> None:
    """`mnemic memory doctor` says "No problems found" for a home whose SKILL.md cannot be
    read: the refusal sent the model, and through it the person, to the wrong command."""
    store = make_store(home_path)
    _write(store, name, UNREADABLE[name])
    before = _tree(Path(store.root))
    resp = _call(store, "skill_view", {"name": name})
    assert resp["success"] is False and resp["error_code"] == "unreadable_file"
    assert "mnemic skills lint" in resp["error"] and "memory doctor" not in resp["error"]
    listed = _call(store, "skills_list", {})
    assert name not in [s["name"] for s in listed["skills"]]
    info = next(i for i in store.skills() if i.name == name)
    assert info.error is not None and "mnemic skills lint" in info.error
    assert "memory doctor" not in info.error
    assert _tree(Path(store.root)) == before


def test_a_skill_md_that_is_a_fifo_or_a_directory_points_at_skills_lint(home_path: Path) -> None:
    store = make_store(home_path)
    fifo = Path(store.root) / "piped"
    fifo.mkdir(parents=True)
    os.mkfifo(fifo / "SKILL.md")
    (Path(store.root) / "dirred" / "SKILL.md").mkdir(parents=True)
    for name in ("piped", "dirred"):
        resp = _call(store, "skill_view", {"name": name})
        assert resp["error_code"] == "unreadable_file", resp
        assert "mnemic skills lint" in resp["error"] and "memory doctor" not in resp["error"]


@pytest.mark.parametrize(
    ("field", "value", "kind"),
    [
        ("description", "2026-01-01", "a date"),
        ("description", "[use it, often]", "a list"),
        ("description", "{a: b}", "a mapping"),
        ("description", "42", "a number"),
        ("description", "yes", "true or false"),
        ("name", "123", "a number"),
    ],
)
def test_a_field_yaml_reads_as_no_text_says_so(
    home_path: Path, field: str, value: str, kind: str
) -> None:
    """`description: 2026-01-01` was refused as "needs a non-empty 'description' field",
    which sent the writer looking for a field that is there; on disk the skill was
    listed unusable with the same words."""
    store = make_store(home_path)
    fields = {"name": "typed", "description": "Restart the app. Use when it hangs."}
    fields[field] = value
    content = "---\n" + "".join(f"{k}: {v}\n" for k, v in fields.items()) + "---\nBody\n"
    resp = _call(store, "skill_manage", {"action": "create", "name": "typed", "content": content})
    assert resp["success"] is False and resp["error_code"] == "skill_invalid", resp
    assert kind in resp["error"] and "quotes" in resp["error"], resp["error"]
    assert not (Path(store.root) / "typed").exists()
    _write(store, "typed", content.encode())
    info = next(i for i in store.skills() if i.name == "typed")
    assert info.error is not None and kind in info.error


@pytest.fixture
def deep_home(home_path: Path) -> Iterator[Path]:
    """The home, its skills removed after the test without recursion: a tree 1,100
    levels deep left behind broke pytest's own clean-up of old temporary directories
    (shutil.rmtree: RecursionError) in every later session on this machine."""
    yield home_path
    from mnemic.skills.apply import _remove_tree

    _remove_tree(str(home_path / "skills"))
    assert not (home_path / "skills").exists()


def test_a_supporting_directory_nested_past_the_recursion_limit_is_listed(
    deep_home: Path,
) -> None:
    """references/a/a/.../f.md 1,100 levels deep: os.walk (recursive in Python 3.11)
    raised RecursionError, skill_view answered internal_error and `mnemic skills lint`
    ended with a traceback."""
    from mnemic.skills.lint import lint_skills

    store = make_store(deep_home)
    _deep_skill(store)
    resp = _call(store, "skill_view", {"name": "deep"})
    assert resp["success"] is True, resp
    assert [f["path"] for f in resp["files"]] == ["references/" + "a/" * 1100 + "f.md"]
    problems = lint_skills(store)
    assert any("deep" in str(p) for p in problems)


def _deep_skill(store: SkillStore) -> None:
    """Skill ``deep`` with references/a/a/.../f.md 1,100 levels down."""
    _write(store, "deep", b"---\nname: deep\ndescription: Deep. Use it.\n---\nBody\n")
    here = os.open(Path(store.root) / "deep", os.O_RDONLY)
    try:
        os.mkdir("references", dir_fd=here)
        fd = os.open("references", os.O_RDONLY, dir_fd=here)
        for _ in range(1100):
            os.mkdir("a", dir_fd=fd)
            inner = os.open("a", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        leaf = os.open("f.md", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)
        os.write(leaf, b"x")
        os.close(leaf)
        os.close(fd)
    finally:
        os.close(here)


def test_deleting_a_skill_nested_past_the_recursion_limit_deletes_it_and_writes_go_on(
    deep_home: Path,
) -> None:
    """shutil.rmtree (recursive in Python 3.11) raised RecursionError after the skill had
    moved to the trash: the model was told the delete failed, and every later write
    failed the same way clearing that trash."""
    store = make_store(deep_home)
    _deep_skill(store)
    gone = _call(store, "skill_manage", {"action": "delete", "name": "deep"})
    assert gone["success"] is True, gone
    assert sorted(os.listdir(store.root)) == [".lock"]
    made = _call(
        store,
        "skill_manage",
        {
            "action": "create",
            "name": "other",
            "content": "---\nname: other\ndescription: Other. Use it.\n---\nBody\n",
        },
    )
    assert made["success"] is True, made
