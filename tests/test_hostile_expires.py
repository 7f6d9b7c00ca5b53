"""Hostile ``expires`` values (issue 32, hostile1): odd forms through the memory tool and
the CLI are refused with what to give, or mean what the documented form means; an
expiry already kept in a journal is always shown, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from _cli import cli
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.pressure import describe_expires
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView

NOW = 1_780_000_000.0  # 2026-05-28T20:26Z


def _mem(home: Path) -> Memory:
    home.mkdir(parents=True, exist_ok=True)
    return Memory.open(home, clock=lambda: NOW)


@pytest.mark.parametrize(
    "value", ["9999-12-31T23:59-12:00", "9999-12-31T23:59:59-14:00", "9999-12-31T20:00-05:00"]
)
def test_a_time_past_the_calendar_end_is_refused_and_nothing_written(
    home_path: Path, value: str
) -> None:
    """A time on 9999-12-31 with a negative offset is in the year 10000 in UTC: it was
    saved, then `mnemic memory show --long` (and the add's own line at the CLI) failed
    with "year 10000 is out of range"."""
    mem = _mem(home_path)
    resp = run_memory_tool(mem, {"action": "add", "content": "A far fact.", "expires": value})
    assert resp["success"] is False and resp["error_code"] == "invalid_argument"
    assert "9999-12-31" in resp["error"] and "leave expires out" in resp["error"]
    assert mem.entries("memory") == []
    result = cli("memory", "add", "Another far fact.", "--expires", value)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "--expires" in result.output and "earlier time" in result.output
    assert MemoryView.open(home_path).entries("memory") == []


def test_an_expiry_past_9999_already_in_the_journal_is_shown(home_path: Path) -> None:
    """Journals written before the refusal may hold such a time (and a Python caller's
    ``Op.expires`` is a number): `memory show --long` shows it instead of failing."""
    mem = _mem(home_path)
    mem.apply("memory", [Op("add", "A fact kept too long.", expires=253_402_343_940.0)])
    result = cli("memory", "show", "--long")
    assert result.exit_code == 0, result.output
    assert "A fact kept too long." in result.output
    assert "expires after 9999-12-31 UTC" in result.output
    assert describe_expires(1e300) == "expires after 9999-12-31 UTC"


@pytest.mark.parametrize("compact", ["20301231", " 20301231 "])
def test_a_compact_date_is_valid_through_that_day_like_the_dashed_one(
    home_path: Path, compact: str
) -> None:
    """``20301231`` was read as a time (Python 3.11's ``fromisoformat``): it expired at
    the day's first instant, a whole day before ``2030-12-31`` did."""
    mem = _mem(home_path)
    for text, value in (("Dashed date fact.", "2030-12-31"), ("Compact date fact.", compact)):
        resp = run_memory_tool(mem, {"action": "add", "content": text, "expires": value})
        assert resp["success"], resp
    prov = dict(MemoryView.open(home_path).provenance("memory"))
    assert prov["Compact date fact."].expires == prov["Dashed date fact."].expires
    assert describe_expires(prov["Compact date fact."].expires or 0) == (
        "valid through 2030-12-31 UTC"
    )


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("2026-02-30", "must be a date YYYY-MM-DD"),
        ("2030-01-01T00:00+25:00", "must be a date YYYY-MM-DD"),
        ("2030-01-01\x00", "must be a date YYYY-MM-DD"),
        ("2026-05-27", "not in the future"),
        ("0001-01-01", "not in the future"),
        ("9999-12-31", "calendar's last day"),
        ("", "must be a date YYYY-MM-DD"),
    ],
)
def test_odd_expires_values_are_refused_with_what_to_give(
    home_path: Path, value: str, says: str
) -> None:
    mem = _mem(home_path)
    resp = run_memory_tool(mem, {"action": "add", "content": "A fact.", "expires": value})
    assert resp["success"] is False and resp["error_code"] == "invalid_argument"
    assert says in resp["error"]
    assert mem.entries("memory") == []


@pytest.mark.parametrize("value", [20301231, 1.5, True, ["2030-12-31"], {"date": "2030-12-31"}])
def test_expires_of_another_type_is_refused(home_path: Path, value: object) -> None:
    mem = _mem(home_path)
    resp = run_memory_tool(mem, {"action": "add", "content": "A fact.", "expires": value})
    assert resp["error_code"] == "invalid_argument"
    assert 'expires must be a string such as "2026-06-30"' in resp["error"]
    batch = {"operations": [{"action": "add", "content": "A fact.", "expires": value}]}
    resp = run_memory_tool(mem, batch)
    assert resp["error_code"] == "invalid_argument"
    assert "operations[1].expires must be a string" in resp["error"]
    assert mem.entries("memory") == []
