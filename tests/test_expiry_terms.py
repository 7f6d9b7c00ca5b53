"""The midnight rule read back in one place (:func:`mnemic.curated.pressure.given_as`):
a date given as ``expires`` is valid through that day, so it expires at the next UTC
midnight, and that instant reads back as the date given: in words
(:func:`describe_expires`: the CLI, the console's entries) and in the console's "Valid
until" field (:func:`until_input`), which gives back what :func:`parse_expires` took."""

from __future__ import annotations

import pytest

from mnemic.curated.pressure import describe_expires, given_as, parse_expires
from mnemic.ui.memory import until_input

NOW = 1_780_000_000.0  # 2026-05-28T20:26Z


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("2030-06-30", "valid through 2030-06-30 UTC"),
        ("20301231", "valid through 2030-12-31 UTC"),  # another ISO form of a day
        ("2030-06-30T12:30", "expires 2030-06-30 12:30 UTC"),
        ("2030-07-01T00:00", "valid through 2030-06-30 UTC"),  # a midnight is a date's end
        ("2030-06-30T23:00-01:00", "valid through 2030-06-30 UTC"),  # its UTC midnight
        ("9999-12-30", "valid through 9999-12-30 UTC"),
    ],
)
def test_an_expiry_reads_back_as_given(given: str, words: str) -> None:
    when = parse_expires(given, NOW)
    assert describe_expires(when) == words
    shown = until_input(when)
    assert shown == given_as(when)
    assert parse_expires(shown, NOW) == when  # the field saved as shown keeps it


def test_an_expiry_past_the_calendar_is_told_and_kept_by_the_field() -> None:
    assert given_as(1e12) is None
    assert describe_expires(1e12) == "expires after 9999-12-31 UTC"
    assert until_input(1e12).startswith("33658-")  # shown as its time, not emptied
    assert until_input(None) == ""
