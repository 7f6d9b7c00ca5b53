"""The fast config reader accepts only what tomllib reads the same way."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemic import simple_toml
from mnemic.config import load_settings
from mnemic.errors import ConfigError

# Pieces of lines, valid and not, so that random documents often land in the subset and
# often just outside it.
KEYS = st.sampled_from(["a", "b", "memory_char_limit", "x-y", "k_2", "1", "a.b", '"q"', ""])
VALUES = st.one_of(
    st.sampled_from(
        [
            "true",
            "false",
            "True",
            "0",
            "-0",
            "+7",
            "42",
            "007",
            "1_000",
            "1.5",
            "-0.25",
            "1.",
            ".5",
            "01.5",
            "1e3",
            "inf",
            "nan",
            '"x"',
            '"a#b"',
            '"tab\there"',
            '"esc\\n"',
            '"""m"""',
            "'lit\\eral'",
            "'''m'''",
            "[1, 2]",
            "{a = 1}",
            '"open',
            "",
            "truex",
            '"a" "b"',
        ]
    ),
    st.integers(-(10**20), 10**20).map(str),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=8).map(
        lambda s: f'"{s}"'
    ),
)
SPACE = st.sampled_from(["", " ", "  ", "\t"])
COMMENT = st.sampled_from(["", " # note", "# x", "#", ' # "quoted" ['])


@st.composite
def lines(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["kv", "kv", "kv", "table", "blank", "comment", "junk"]))
    sp = draw(SPACE)
    if kind == "kv":
        return f"{sp}{draw(KEYS)}{draw(SPACE)}={draw(SPACE)}{draw(VALUES)}{draw(COMMENT)}"
    if kind == "table":
        name = draw(st.sampled_from(["memory", "scan", "a", "b", "a.b", "[a]", "", " c "]))
        return f"{sp}[{name}]{draw(st.sampled_from(['', ']', ' # t', 'x']))}"
    if kind == "blank":
        return sp
    if kind == "comment":
        return f"{sp}# {draw(st.text(max_size=6))}"
    return draw(st.text(max_size=12))


@st.composite
def documents(draw: st.DrawFn) -> str:
    sep = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return sep.join(draw(st.lists(lines(), max_size=8)))


def _tomllib(text: str) -> object:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "error"


@settings(max_examples=1500, deadline=None)
@given(documents())
def test_whatever_it_accepts_it_reads_as_tomllib_does(text: str) -> None:
    fast = simple_toml.parse(text)
    if fast is not None:
        assert fast == _tomllib(text)
        assert repr(fast) == repr(tomllib.loads(text))  # same types (True is not 1)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_is_never_misread(text: str) -> None:
    fast = simple_toml.parse(text)
    if fast is not None:
        assert repr(fast) == repr(tomllib.loads(text))


def test_a_typical_config_file_is_in_the_subset() -> None:
    text = (
        "# my home\n"
        "store = 'files'\n"
        "\n"
        "[memory]\n"
        "memory_char_limit = 2200   # chars\n"
        "lock_timeout = 2.5\n"
        "audit_fsync = false\n"
        "\n"
        "[scan]\n"
        'level = "strict"\n'
    )
    assert simple_toml.parse(text) == tomllib.loads(text)
    assert simple_toml.parse(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\na = 2\n",  # duplicate key
        "[m]\n[m]\n",  # duplicate table
        "a = 1\n[a]\n",  # key and table of one name
        "a = 1e3\n",
        "a = [1, 2]\n",
        'a = "x\\ty"\n',
        "a = 1_000\n",
        "[a.b]\n",
        'a = "caf\u00e9"\n',
        "a = 1\rb = 2\n",
    ],
)
def test_constructs_outside_the_subset_are_left_to_tomllib(text: str) -> None:
    assert simple_toml.parse(text) is None


def test_config_files_outside_the_subset_still_load_and_errors_still_name_the_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "config.toml").write_text(
        '[memory]\nmemory_char_limit = 1_800\n[scan]\nlevel = "stri\\u0063t"\n'
    )
    s = load_settings(tmp_path, environ={})
    assert s.memory.memory_char_limit == 1800
    assert s.scan.level == "strict"
    duplicate = "[memory]\nmemory_char_limit = 1\nmemory_char_limit = 2\n"
    (tmp_path / "config.toml").write_text(duplicate)
    with pytest.raises(ConfigError, match="not valid TOML") as info:
        load_settings(tmp_path, environ={})
    assert info.value.source == str(tmp_path / "config.toml")
