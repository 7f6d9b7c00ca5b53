"""perf19: a write in the server (``server_write``) reads the entries of the text it
found from what its store last found or left (``ServerTexts``): the same text, or that
text with pieces appended (other writers' adds), is parsed in its appended part only.
Whatever the texts, the entries given are ``parse``'s."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemic.curated.entries import DELIMITER, parse
from mnemic.curated.read_memo import ServerTexts

# pieces with what can move a split or a parse: whitespace at the edges, a section
# sign, a delimiter's halves, a carriage return, duplicates (few letters)
piece = st.one_of(
    st.text(alphabet="ab", min_size=1, max_size=3),
    st.sampled_from(["", " a", "a ", "\n", "§", "\n§", "§\n", "a\r", "\r\nb", "a\n§", " "]),
)
pieces = st.lists(piece, max_size=12)


@settings(max_examples=500, deadline=None)
@given(pieces, st.lists(pieces, min_size=1, max_size=4), st.booleans())
def test_the_entries_given_are_parse_s(
    first: list[str], later: list[list[str]], write: bool
) -> None:
    """A store's texts in turn, each the last one with pieces appended (or, for an
    empty list, a text of its own), some written by the store itself: each text's
    entries are ``tuple(parse(text))``."""
    texts = ServerTexts()
    raw = DELIMITER.join(first)
    got = texts.entries("memory", raw)
    assert got == tuple(parse(raw))
    for more in later:
        if write and got and raw == DELIMITER.join(got) and "\r" not in raw and raw[-2:] != "\n§":
            # an add the store wrote, to a text the server's function accepts (clean: its
            # pieces are the entries): the text found with one entry appended
            new = f"new {len(raw)}"
            after = (*got, new) if new not in got else got
            raw = f"{raw}{DELIMITER}{new}" if new not in got else raw
            texts.wrote("memory", raw, after, got if new not in got else None)
            assert after == tuple(parse(raw))
        raw = raw + DELIMITER + DELIMITER.join(more) if more else DELIMITER.join(later[0])
        got = texts.entries("memory", raw)
        assert got == tuple(parse(raw)), (raw, got)


def test_the_same_text_gives_the_same_tuple_and_an_appended_one_parses_its_tail() -> None:
    """The tuple of the text last left is given again (so a session's view compares it by
    identity); a text with entries appended gives those after the same entries, a
    tail longer than a few entries through a set kept with them."""
    texts = ServerTexts()
    entries = tuple(f"note {k}" for k in range(50))
    raw = DELIMITER.join(entries)
    texts.wrote("memory", raw, entries, None)
    assert texts.entries("memory", raw) is entries
    more = (*(f"other {k}" for k in range(12)), "note 3")  # one already there
    grown = texts.entries("memory", raw + DELIMITER + DELIMITER.join(more))
    assert grown == entries + more[:-1]
    assert grown[: len(entries)] == entries
    again = texts.entries("memory", raw + DELIMITER + DELIMITER.join(more) + DELIMITER + "x")
    assert again == (*grown, "x")
    assert texts.entries("user", raw) == entries  # another target: nothing kept, parsed
