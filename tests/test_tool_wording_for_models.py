"""What a model reads when a tool call goes wrong: JSON's words for what it sent (a
number, a list, "many"), never Python's (int, list, 'many', None)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from _cli import cli
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store

PYTHON_WORDS = re.compile(r"\b(None|NoneType|True|False|int|str|dict|bool|float)\b|\['|\{'")


def _error(home: Path, tool: str, args: dict[str, object]) -> str:
    r = cli("tool", tool, json.dumps(args), env={"MNEMIC_HOME": str(home)})
    assert r.exit_code == 1, r.output
    answer = json.loads(r.output)
    assert answer["error_code"] == "invalid_argument"
    return str(answer["error"])


@pytest.mark.parametrize(
    ("tool", "args", "said"),
    [
        ("memory", {"action": "add", "content": 42}, "content must be a string, got a number."),
        ("memory", {"action": "add", "content": ["a"]}, "got a list."),
        ("skill_manage", {}, "Missing action; use one of create"),
        (
            "memory",
            {"action": 5},
            "Unknown action 5. Use add, replace, remove, read, archive_search",
        ),
        ("memory", {}, "Missing action: give action (add, replace, remove, read, archive_search)"),
        ("memory", {"operations": []}, "operations is empty: give at least one"),
        ("skill_manage", {"action": "make", "name": "x"}, 'Unknown action "make"; use one of'),
        (
            "skill_manage",
            {
                "action": "patch",
                "name": "x",
                "old_string": "a",
                "new_string": "b",
                "replace_all": "yes",
            },
            "replace_all must be true or false, got a string.",
        ),
        ("skill_view", {"name": "x", "file_path": 3}, "got a number"),
        ("session_search", {"limit": "many"}, 'limit must be an integer, got "many".'),
        ("session_search", {"role": {"a": 1}}, 'got {"a": 1}.'),
        ("session_search", {"failed": [1]}, "failed must be true or false, got [1]."),
        ("session_search", {"query": 7}, "query must be a string, got a number."),
        ("session_search", {"query": "x", "mode": True}, "not true."),
        ("skills_list", {"query": "x", "mode": 3}, "mode must be a string, got a number."),
        (
            "memory",
            {"action": "add", "content": "x", "target": ["user"]},
            'Invalid target ["user"]',
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_a_wrong_argument_is_told_in_jsons_words(
    home_path: Path, tool: str, args: dict[str, object], said: str
) -> None:
    error = _error(home_path, tool, args)
    assert said in error, error
    assert not PYTHON_WORDS.search(error), error


def test_browsing_one_past_session_speaks_of_one(home_path: Path) -> None:
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(source="cli")
        store.append_message(sid, NewMessage("user", "the deploy failed"))
        store.end_session(sid, "user_exit")
    r = cli("tool", "session_search", "{}", env={"MNEMIC_HOME": str(home_path)})
    answer = json.loads(r.output)
    assert answer["count"] == 1
    assert answer["message"].startswith("The most recently active past session."), answer


@pytest.mark.parametrize(
    ("target", "meant"),
    [("Memory", "memory"), ("USER.md", "user"), ("MEMORY.md", "memory"), (" User ", "user")],
)
def test_a_target_in_other_letters_is_refused_naming_the_one_meant(
    home_path: Path, target: str, meant: str
) -> None:
    """A model that wrote the file's name or a capital letter was told only "Invalid target
    'USER.md'. Use 'memory' ... or 'user' ...": now which one it meant (nothing is saved)."""
    error = _error(home_path, "memory", {"action": "add", "target": target, "content": "x"})
    assert f"(did you mean '{meant}'? The names are lower case)" in error
    assert not (home_path / "memories" / "USER.md").exists()
    plain = _error(home_path, "memory", {"action": "add", "target": "notes", "content": "x"})
    assert "did you mean" not in plain


def test_operations_written_as_json_text_say_to_pass_the_list_itself(home_path: Path) -> None:
    """A model that put the operations list inside a string ('[{"action": "add", ...}]')
    was told "operations must be a list of ... objects", which it believed it had sent."""
    as_text = json.dumps([{"action": "add", "content": "Fact."}])
    error = _error(home_path, "memory", {"target": "memory", "operations": as_text})
    assert "got a string" in error
    assert "It is a string holding JSON text: pass the list itself, not quoted." in error
    error = _error(home_path, "memory", {"target": "memory", "operations": {"action": "add"}})
    assert "got an object." in error and "JSON text" not in error
    assert not (home_path / "memories" / "MEMORY.md").exists()


@pytest.mark.parametrize(
    ("raw", "kind"), [("[1, 2]", "a list"), ("5", "a number"), ("null", "null")]
)
def test_arguments_that_are_not_an_object_are_told_in_jsons_words(
    home_path: Path, raw: str, kind: str
) -> None:
    """`mnemic tool memory '[1,2]'` said "must be a JSON object, got list" (Python's word);
    null said "got NoneType"."""
    r = cli("tool", "memory", raw, env={"MNEMIC_HOME": str(home_path)})
    assert r.exit_code == 1, r.output
    said = json.loads(r.output)["error"]
    assert said == f"The tool arguments must be a JSON object, got {kind}."
