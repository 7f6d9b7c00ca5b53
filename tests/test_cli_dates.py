"""One rule for times (docs/cli.md, "Times"): people read local time with its offset from
UTC, in every command. Run in a zone that is not UTC and has a half-hour offset, so
that a UTC time or a local one without its offset cannot pass for the rule."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from _cli import cli, cli_json
from _zone import KOLKATA, in_zone
from mnemic.timefmt import (
    NO_TIME,
    ago,
    local_day,
    local_time,
    parse_iso,
    utc_minute,
    utc_seconds,
)

ZONE = KOLKATA
STAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?Z?(?: [+-]\d\d:\d\d)?")


@pytest.fixture
def zone() -> Iterator[None]:
    with in_zone(ZONE):
        yield


@pytest.fixture
def home(home_path: Path, tmp_path: Path, zone: None) -> dict[str, str]:
    env = {"MNEMIC_HOME": str(home_path)}
    for text in ("The repo builds with make -j2.", "Tests run with ./x test."):
        assert cli("memory", "add", text, env=env).exit_code == 0
    assert cli("memory", "remove", "make -j2", env=env).exit_code == 0  # archived
    lines = tmp_path / "s.jsonl"
    lines.write_text(
        '{"session_id": "s-deploy", "role": "user", "content": "Deploy with make"}\n'
        '{"session_id": "s-deploy", "role": "assistant", "content": "Noted."}\n'
    )
    assert cli("sessions", "import", str(lines), "--no-embed", env=env).exit_code == 0
    (home_path / "config.toml").write_text('[approval]\nmemory_foreground = "stage"\n')
    call = '{"action": "add", "target": "memory", "content": "Deploys need staging."}'
    assert cli("tool", "memory", call, env=env).exit_code == 0
    return env


def _resolve(arg: str, env: dict[str, str]) -> str:
    """The id of the one pending write or archived entry the home holds."""
    if arg == "PENDING":
        return str(cli_json("pending", "list", env=env)["pending"][0]["id"])
    if arg == "ARCHIVED":
        return str(cli_json("memory", "archive", "list", env=env)["entries"][0]["id"])
    return arg


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "show", "--long"),
        ("memory", "history"),
        ("memory", "archive", "list"),
        ("memory", "archive", "show", "ARCHIVED"),
        ("audit", "list"),
        ("sessions", "list"),
        ("sessions", "show", "s-deploy"),
        ("sessions", "stats"),
        ("sessions", "search", "Deploy"),
        ("pending", "list"),
        ("pending", "show", "PENDING"),
    ],
    ids=" ".join,
)
def test_every_time_people_read_is_local_with_its_offset(
    home: dict[str, str], args: tuple[str, ...]
) -> None:
    args = tuple(_resolve(a, home) for a in args)
    r = cli(*args, env=home)
    assert r.exit_code == 0, r.output
    stamps = STAMP.findall(r.output)
    assert stamps, r.output
    for stamp in stamps:
        assert stamp.endswith(" +05:30"), (stamp, r.output)


def test_audit_list_shows_the_journals_utc_time_in_local_time(home: dict[str, str]) -> None:
    first = cli_json("audit", "list", env=home)[0]
    assert first["time"].endswith("Z")  # the journal and --json keep UTC
    ts = parse_iso(first["time"])
    assert ts is not None
    row = cli("audit", "list", env=home).output.splitlines()[1]
    assert local_time(ts, seconds=True) in row


def test_the_offset_follows_the_zone(zone: None) -> None:
    ts = parse_iso("2026-12-06T00:36:19Z")
    assert ts is not None
    assert local_time(ts) == "2026-12-06 06:06 +05:30"
    assert local_time(ts, seconds=True) == "2026-12-06 06:06:19 +05:30"
    assert parse_iso("2026-12-06 06:06") is None  # no offset: not a moment


def test_an_age_needs_no_zone() -> None:
    now = 1_000_000.0
    assert ago(now - 3600, now) == "today"
    assert ago(now - 86_400, now) == "1 day ago"
    assert ago(now - 12.5 * 86_400, now) == "12 days ago"
    assert ago(now + 60, now) == "today"  # a clock that moved back: not "-1 days ago"


def test_the_console_shows_times_the_same_way(zone: None) -> None:
    from mnemic.ui.render import when

    ts = parse_iso("2026-12-06T00:36:19Z")
    assert when(ts) == "2026-12-06 06:06 +05:30"


_NOW = 1_765_000_000.0
_FORMATTERS = {
    "ago": lambda ts: ago(ts, _NOW),
    "ago, now out of range": lambda ts: ago(_NOW, ts),
    "local_time": local_time,
    "local_time seconds": lambda ts: local_time(ts, seconds=True),
    "local_day": local_day,
    "utc_minute": utc_minute,
    "utc_seconds": utc_seconds,
}


@pytest.mark.parametrize("name", list(_FORMATTERS))
@pytest.mark.parametrize("ts", [math.inf, -math.inf, math.nan, 1e300, 1e12], ids=str)
def test_every_formatter_shows_a_time_out_of_the_calendar_as_such(name: str, ts: float) -> None:
    # NO_TIME's promise: an infinite, NaN or year-33658 time reads "(time out of range)"
    # in every formatter, never an OverflowError/ValueError, nor "today" for year 33658
    assert _FORMATTERS[name](ts) == NO_TIME == "(time out of range)"
