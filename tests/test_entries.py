"""The entry format: parse, serialise, drift, validation and matching rules."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mnemic.curated.entries import (
    DELIMITER,
    char_count,
    detect_drift,
    entry_handle,
    find_entry,
    parse,
    read_entries,
    serialize,
    validate_content,
)
from mnemic.errors import AmbiguousMatch, ContentRejected, NoMatch


def test_parse_splits_on_full_delimiter_only() -> None:
    raw = "first line\nsecond line\n§\nuses § inline\n§\nthird"
    assert parse(raw) == ["first line\nsecond line", "uses § inline", "third"]


def test_parse_strips_drops_blank_and_collapses_duplicates() -> None:
    raw = "  a  \n§\n\n§\nb\n§\na\n§\n   "
    assert parse(raw) == ["a", "b"]


def test_parse_blank_file_is_empty() -> None:
    assert parse("") == []
    assert parse(" \n\t\n") == []


def test_parse_normalises_crlf() -> None:
    assert parse("a\r\n§\r\nb\r\nc") == ["a", "b\nc"]


def test_serialize_has_no_trailing_newline_and_empty_is_empty() -> None:
    assert serialize(["a", "b"]) == "a\n§\nb"
    assert serialize([]) == ""


def test_char_count_includes_delimiters() -> None:
    assert char_count([]) == 0
    assert char_count(["abc"]) == 3
    assert char_count(["abc", "de"]) == 3 + len(DELIMITER) + 2
    assert char_count(["abc", "de"]) == len(serialize(["abc", "de"]))


def test_drift_clean_file_is_not_drift() -> None:
    assert detect_drift("a\n§\nb", 100) is None
    assert detect_drift("", 100) is None
    assert detect_drift("a\r\n§\r\nb", 100) is None


def test_drift_blank_segment() -> None:
    drift = detect_drift("a\n§\n\n§\nb", 100)
    assert drift is not None and "blank" in drift.reason


def test_drift_whitespace_around_entries() -> None:
    drift = detect_drift("a \n§\nb", 100)
    assert drift is not None and "whitespace" in drift.reason


def test_drift_oversized_entry() -> None:
    drift = detect_drift("short\n§\n" + "x" * 101, 100)
    assert drift is not None and "101" in drift.reason


def test_duplicates_alone_are_not_drift() -> None:
    assert detect_drift("a\n§\na", 100) is None


def test_validate_content_strips_and_accepts_multiline() -> None:
    assert validate_content("  line one\nline two  ") == "line one\nline two"


@pytest.mark.parametrize(
    "content",
    ["a\n§\nb", "§\nstarts with a delimiter line", "ends with one\n§", "x\r\n§\r\ny"],
)
def test_validate_content_refuses_delimiter(content: str) -> None:
    with pytest.raises(ContentRejected) as info:
        validate_content(content)
    assert info.value.reason == "delimiter"


def test_validate_content_refuses_empty_and_controls() -> None:
    with pytest.raises(ContentRejected) as info:
        validate_content("   ")
    assert info.value.reason == "empty"
    for bad in ("bell\x07", "escape \x1b[2J", "8-bit CSI \x9b2J", "delete\x7f"):
        with pytest.raises(ContentRejected) as info:
            validate_content(bad)
        assert info.value.reason == "control_character"
    assert validate_content("tab\tok") == "tab\tok"
    assert validate_content("two\nlines") == "two\nlines"


def test_find_exact_whole_entry_beats_substring() -> None:
    entries = ["deploy to staging first", "deploy"]
    assert find_entry(entries, "deploy", "memory") == 1


def test_find_substring_unique() -> None:
    assert find_entry(["alpha beta", "gamma"], "mma", "memory") == 1


def test_find_is_case_sensitive() -> None:
    with pytest.raises(NoMatch):
        find_entry(["Alpha"], "alpha", "memory")


def test_find_ambiguous_distinct_entries_gives_previews() -> None:
    with pytest.raises(AmbiguousMatch) as info:
        find_entry(["use tabs here", "use spaces there"], "use", "user")
    assert len(info.value.previews) == 2
    assert info.value.extra["matches"] == ["use tabs here", "use spaces there"]


def test_find_identical_matches_pick_first() -> None:
    assert find_entry(["same", "x", "same"], "sam", "memory") == 0


def test_find_by_handle() -> None:
    entries = ["one", "two"]
    assert find_entry(entries, entry_handle("two"), "memory") == 1


def test_ambiguity_previews_use_show_function() -> None:
    with pytest.raises(AmbiguousMatch) as info:
        find_entry(["secret one", "secret two"], "secret", "memory", show=lambda e: "HIDDEN")
    assert info.value.previews == ("HIDDEN", "HIDDEN")


entry_text = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="§"),
        min_size=1,
        max_size=40,
    )
    .map(str.strip)
    .filter(bool)
)


@given(st.lists(entry_text, max_size=12, unique=True))
def test_round_trip(entries: list[str]) -> None:
    assert parse(serialize(entries)) == entries
    assert detect_drift(serialize(entries), 10_000) is None


@given(st.text(max_size=200))
def test_parse_never_raises_and_is_idempotent(raw: str) -> None:
    once = parse(raw)
    assert parse(serialize(once)) == once


@given(st.text(max_size=3000), st.integers(min_value=20, max_value=400))
def test_split_to_fit_keeps_every_non_space_char(text: str, limit: int) -> None:
    from mnemic.curated.admin import split_to_fit

    parts = split_to_fit(text, limit)
    assert all(0 < len(p) <= limit for p in parts)
    assert "".join("".join(parts).split()) == "".join(text.split())


# Texts made of the characters the format turns on: delimiters, blank and CRLF pieces.
format_text = st.text(alphabet=" \n\r\t\u00a7ab", max_size=80)


@given(format_text)
def test_parse_keeps_the_first_of_equal_entries_in_file_order(raw: str) -> None:
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    expected: list[str] = []
    for piece in text.split(DELIMITER):
        if piece.strip() and piece.strip() not in expected:
            expected.append(piece.strip())
    assert parse(raw) == expected


@given(format_text, st.integers(min_value=1, max_value=6))
def test_read_entries_is_parse_and_drift_of_the_same_text(raw: str, limit: int) -> None:
    entries, drift = read_entries(raw, limit)
    expected = detect_drift(raw, limit)
    assert entries == parse(raw)
    assert (drift and drift.reason) == (expected and expected.reason)
