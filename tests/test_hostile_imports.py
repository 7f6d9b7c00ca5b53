"""Hostile input to the importers (hostile2): ``mnemic sessions import`` (JSON Lines,
OpenAI, ChatGPT, Codex, Hermes share their field readers) and ``mnemic import chatgpt``.
A value no calendar holds, or JSON nested past what the reader can walk, is read as
what it is (no time; a bad line or a damaged file named with its place), never stored
to break every later listing, and never a traceback."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from _cli import cli
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.importing.formats import timestamp


def _line(**fields: object) -> str:
    return json.dumps({"session_id": "s1", "role": "user", "content": "hello there", **fields})


# what each value spells in the file (json.dumps writes 1e400 as Infinity)
ODD_TIMES = {
    "1e400": "1e400",  # Python's reader: inf
    "-1e300": "-1e300",
    "NaN": "NaN",
    "string inf": '"inf"',
    "milliseconds of year 10^9": "1e20",  # read as ms: 1e17 s, no local time
    "an integer past a float": "1" + "0" * 400,
}


@pytest.mark.parametrize("field", ["timestamp", "started_at", "ended_at"])
@pytest.mark.parametrize("spelled", list(ODD_TIMES.values()), ids=list(ODD_TIMES))
def test_a_time_no_calendar_holds_is_no_time_and_the_history_still_lists(
    home_path: Path, tmp_path: Path, field: str, spelled: str
) -> None:
    """`timestamp: 1e400` (or -1e300, "inf", 1e20 read as milliseconds) was stored as
    it came; every later `mnemic sessions list` then failed with "timestamp out of range
    for platform time_t" (a NaN was refused as a database error that named the history
    as unavailable)."""
    source = tmp_path / "in.jsonl"
    extra = ', "end_reason": "done"' if field == "ended_at" else ""
    source.write_text(_line()[:-1] + f', "{field}": {spelled}{extra}}}\n')
    result = cli("sessions", "import", str(source))
    assert result.exit_code == 0, result.output
    listed = cli("sessions", "list")
    assert listed.exit_code == 0, listed.output
    assert "s1" in listed.output
    shown = cli("sessions", "show", "s1")
    assert shown.exit_code == 0 and "hello there" in shown.output
    with open_store(Home.open(home_path)) as store:
        info = store.get_session("s1")
        times = [info.started_at, info.ended_at, *(m.timestamp for m in store.messages("s1"))]
    assert all(t is None or (math.isfinite(t) and abs(t) < 1e12) for t in times), times


def test_a_chatgpt_export_with_a_time_past_the_calendar_still_lists(
    home_path: Path, tmp_path: Path
) -> None:
    message = {
        "id": "m1",
        "author": {"role": "user"},
        "create_time": 1.0,
        "content": {"content_type": "text", "parts": ["hello"]},
    }
    conversation = {
        "title": "t",
        "create_time": 1.0,
        "id": "c1",
        "current_node": "n1",
        "mapping": {"n1": {"id": "n1", "message": message, "parent": None, "children": []}},
    }
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([conversation]).replace("1.0", "1e400"))
    result = cli("import", "chatgpt", str(export))
    assert result.exit_code == 0, result.output
    listed = cli("sessions", "list")
    assert listed.exit_code == 0 and "c1" in listed.output, listed.output


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1_700_000_000, 1_700_000_000.0),
        (1_700_000_000_000, 1_700_000_000.0),  # milliseconds
        ("2026-05-01T12:00:00Z", 1_777_636_800.0),
        ("9999-12-31T23:59:59+00:00", None),  # a zone east of it is in the year 10000
        ("0001-01-01T00:00:00+05:00", None),
        (float("inf"), None),
        (float("nan"), None),
        (10**400, None),
        ("1e400", None),
        (True, None),
    ],
    ids=lambda v: repr(v)[:24],
)
def test_timestamp_reads_only_times_of_the_calendar(value: object, expected: float | None) -> None:
    assert timestamp(value) == expected
