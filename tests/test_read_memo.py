"""What a store remembers of the text it last read or wrote: reused only for that exact
text, or for it with entries appended, and then the same as reading the text afresh."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings, strategies as st

from mnemic.curated.entries import DELIMITER, read_entries
from mnemic.curated.read_memo import ReadMemo

# Texts made of the characters the format turns on (delimiters, blank and CRLF pieces)
format_text = st.text(alphabet=" \n\r\t\u00a7ab", max_size=40)
piece = st.text(alphabet=" \n\u00a7ab", min_size=0, max_size=6)
# what an add appends (a delimiter, then entries), and texts that only look like it
entry = st.text(alphabet="\n\u00a7ab", min_size=1, max_size=6).map(str.strip).filter(bool)
joined = st.one_of(st.lists(entry, min_size=1, max_size=10), st.lists(piece, min_size=1)).map(
    DELIMITER.join
)
appended = st.one_of(joined.map(lambda text: DELIMITER + text), format_text)


def _afresh(raw: str, limit: int) -> tuple[list[str], str | None, str]:
    entries, drift = read_entries(raw, limit)
    return entries, drift and drift.reason, hashlib.sha256(raw.encode()).hexdigest()


def _memo(memo: ReadMemo, raw: str, limit: int) -> tuple[list[str], str | None, str]:
    got = memo.parse("memory", raw, limit)
    return got.entries, got.drift and got.drift.reason, got.digest.hexdigest()


@settings(max_examples=800, deadline=None)
@given(st.one_of(joined, format_text), appended, st.integers(1, 8), st.booleans())
def test_a_text_read_after_one_known_parses_as_read_afresh(
    first: str, more: str, limit: int, wrote: bool
) -> None:
    """Whatever was known (a text read, or one written) and whatever was appended to it
    or found instead, the entries, drift and hash are those of the text found."""
    memo = ReadMemo()
    if wrote:
        entries, drift = read_entries(first, limit)
        if drift is not None:
            return
        memo.wrote("memory", first, limit, entries, hashlib.sha256(first.encode()))
    else:
        assert _memo(memo, first, limit) == _afresh(first, limit)
    for raw in (first + more, more, first + more):
        assert _memo(memo, raw, limit) == _afresh(raw, limit)


def test_the_known_entries_are_a_copy_the_caller_may_change() -> None:
    memo = ReadMemo()
    memo.parse("memory", "a\n§\nbc", 10).entries.append("c")
    assert memo.parse("memory", "a\n§\nbc", 10).entries == ["a", "bc"]
    assert memo.parse("memory", "a\n§\nbc", 1).drift is not None  # another budget
    assert memo.parse("user", "a\n§\nbc", 10).entries == ["a", "bc"]
