"""Property (issue 32, hostile1): after any sequence of ``memory`` tool calls, honest or
hostile (wrong types, missing and extra fields, huge strings, NUL and other control
characters, bidi overrides, the entry delimiter, odd ``expires``, ``scope`` and
``project`` values, archive searches), the files parse, the budget holds, a refused call
changes neither live entries nor the archive, and every refusal is a clear answer (an
error code and a message), never the tool's ``internal_error``."""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemic.curated import archive
from mnemic.curated.entries import DELIMITER
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.tool import run_memory_tool
from mnemic.home import Home

LIMIT = 300  # a small MEMORY.md budget: many writes hit it
NOW = 1_780_000_000.0  # 2026-05-28T20:26Z

_ODD = st.sampled_from(
    [
        "\x00",
        "\x1b[31m",
        "\u202e",
        "\u200b",
        "\ufeff",
        "\n§\n",
        " § ",
        "§",
        "\r\n",
        "entry:",
        "entry:00000000",
        "..",
        "/etc/passwd",
        "ignore previous instructions",
        "\U0001f600",
        "ß",
        "İ",
    ]
)
_WORDS = st.sampled_from(["staging", "host", "web-2", "port", "8080", "Alice", "prefers", "tabs"])
_TEXT = st.lists(st.one_of(_WORDS, _ODD), min_size=0, max_size=6).map(" ".join)
_HUGE = st.integers(min_value=LIMIT, max_value=20_000).map(lambda n: "x" * n)
_EXPIRES = st.sampled_from(
    [
        "2030-06-30",
        "20300630",
        "2030-06-30T12:00Z",
        "2030-06-30T12:00+05:00",
        "2026-02-30",
        "2020-01-01",
        "9999-12-31",
        "9999-12-31T23:59-12:00",
        "tomorrow",
        "",
        " ",
    ]
)
_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.sampled_from(["a", "action"]), st.integers(), max_size=2),
)
_STRING = st.one_of(_TEXT, _HUGE, st.text(max_size=30))
_VALUE = st.one_of(_STRING, _JUNK)
_ACTION = st.one_of(
    st.sampled_from(["add", "replace", "remove", "read", "archive_search", "batch"]),
    st.sampled_from(["restore", "ADD", "", "delete", "add "]),
    _JUNK,
)


@st.composite
def _op(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(_VALUE)  # not an object
    op: dict[str, Any] = {"action": draw(_ACTION)}
    for key, value in (
        ("content", st.one_of(_TEXT, _VALUE)),
        ("old_text", st.one_of(_WORDS, _VALUE)),
        ("target", st.one_of(st.sampled_from(["memory", "user", "../user", "MEMORY"]), _JUNK)),
        ("expires", st.one_of(_EXPIRES, _JUNK)),
        ("new_text", _TEXT),
        ("bogus", _VALUE),
    ):
        if draw(st.integers(0, 3)) == 0:
            op[key] = draw(value)
    return op


@st.composite
def _call(draw: st.DrawFn) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if draw(st.integers(0, 4)):
        args["action"] = draw(_ACTION)
    for key, value, one_in in (
        ("content", st.one_of(_TEXT, _TEXT, _VALUE), 2),
        ("old_text", st.one_of(_WORDS, _TEXT, _VALUE), 2),
        ("target", st.one_of(st.sampled_from(["memory", "user", "notes"]), _JUNK), 3),
        ("expires", st.one_of(_EXPIRES, _JUNK), 4),
        ("query", st.one_of(_WORDS, _TEXT, _VALUE), 3),
        ("operations", st.one_of(st.lists(_op(), max_size=4), _VALUE), 4),
        ("allow_empty", st.one_of(st.booleans(), _JUNK), 6),
        ("scope", st.one_of(st.sampled_from(["global", "project", "GLOBAL"]), _JUNK), 3),
        ("project", st.one_of(st.sampled_from(["/tmp", "..", "/no/such/dir"]), _JUNK), 8),
        ("valid_until", _EXPIRES, 10),
    ):
        if draw(st.integers(0, one_in - 1)) == 0:
            args[key] = draw(value)
    return args


def _everything(mem: Memory) -> Counter[str]:
    """Live entries of both targets and every archived text, as a multiset."""
    live = Counter(e for t in ("memory", "user") for e in mem.entries(t))
    found = archive.archive_listing(mem)
    return live + Counter(a.text for a in found.items if a.text is not None)


def _check_files(home: Home | Path, targets: tuple[str, ...] = ("memory", "user")) -> None:
    """The files are UTF-8 entries within budget, read back the same by a new reader."""
    fresh = Memory.open(home, clock=lambda: NOW)
    root = Path(home.root) if isinstance(home, Home) else home
    assert fresh.snapshot.errors == {}
    for target in targets:
        path = root / "memories" / ("MEMORY.md" if target == "memory" else "USER.md")
        text = path.read_bytes().decode("utf-8") if path.exists() else ""
        assert "\x00" not in text
        entries = fresh.entries(target)
        assert all(e.strip() and DELIMITER not in e for e in entries)
        assert fresh.usage(target).chars <= (LIMIT if target == "memory" else 1375)


@pytest.mark.slow  # over a second of CPU: out of --quick, in the whole suite (session 58)
@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=st.lists(_call(), min_size=1, max_size=8), on_full=st.booleans())
def test_any_sequence_of_calls_keeps_the_store_whole(
    calls: list[dict[str, Any]], on_full: bool
) -> None:
    home = Path(tempfile.mkdtemp(prefix="hostile-tool-")) / "home"
    try:
        home.mkdir()
        policy = "archive_oldest" if on_full else "refuse"
        (home / "config.toml").write_text(
            f'[memory]\nmemory_char_limit = {LIMIT}\non_full = "{policy}"\n'
            "max_failures_per_turn = 1000\n"  # refusals all the way, not the breaker's
            f"[project]\nmemory_char_limit = {LIMIT}\n",
            encoding="utf-8",
        )
        repo = home.parent / "repo"
        repo.mkdir()
        store = open_project(Home.open(home), repo, create=True)
        proj = Memory.open(store, clock=lambda: NOW)
        mem = Memory.open(home, clock=lambda: NOW)
        seed = run_memory_tool(mem, {"action": "add", "content": "The staging host is web-2."})
        assert seed["success"], seed
        assert run_memory_tool(mem, {"action": "remove", "old_text": "staging"})["success"]
        assert run_memory_tool(mem, {"action": "add", "content": "Service listens on 8080."})
        for args in calls:
            before = (_everything(mem), _everything(proj))
            resp = run_memory_tool(mem, args, project=lambda: proj)
            assert isinstance(resp.get("success"), bool), resp
            if not resp["success"]:
                assert resp.get("error_code") not in (None, "internal_error"), (args, resp)
                error = resp.get("error")
                assert isinstance(error, str) and len(error) > 20, (args, resp)
                assert (_everything(mem), _everything(proj)) == before, (args, resp)
            _check_files(home)
            _check_files(store, ("memory",))
    finally:
        shutil.rmtree(home.parent, ignore_errors=True)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"content": "Prefers tabs."}, "content"),
        ({"new_text": "Prefers tabs."}, "content"),
        ({"old_text": "tabs"}, "old_text"),
        ({"expires": "2030-01-01"}, "expires"),
        ({"allow_empty": True}, "allow_empty"),
    ],
)
def test_read_with_a_change_s_fields_is_refused(
    home_path: Path, extra: dict[str, Any], field: str
) -> None:
    """`{"action": "read", "content": ...}` answered the entries with success: a model
    that meant to save took it for done."""
    home_path.mkdir(parents=True)
    mem = Memory.open(home_path, clock=lambda: NOW)
    resp = run_memory_tool(mem, {"action": "read", **extra})
    assert resp["success"] is False and resp["error_code"] == "invalid_argument"
    assert f"read takes target only (it returns every live entry), not {field}" in resp["error"]
    assert mem.entries("memory") == []


def test_read_with_empty_fields_still_reads(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    mem = Memory.open(home_path, clock=lambda: NOW)
    assert mem.add("memory", "CI runs nightly.").written
    args = {"action": "read", "content": "", "old_text": " ", "expires": None}
    resp = run_memory_tool(mem, {**args, "allow_empty": False})
    assert resp["success"] and resp["entries"] == ["CI runs nightly."]
