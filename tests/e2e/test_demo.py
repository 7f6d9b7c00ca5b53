"""``mnemic demo`` (what ``./x run`` runs): the whole story, against the local stand-in."""

from __future__ import annotations

import re
from pathlib import Path

from . import run_mnemic


def test_demo_runs_and_tells_the_story(tmp_path: Path) -> None:
    r = run_mnemic(tmp_path / "unused", "demo", env={"NO_COLOR": "1"}, timeout=180)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Traceback" not in out + r.stderr
    for phrase in (
        "identical bytes: True",  # frozen snapshot despite writes
        "Memory notice:",  # others' changes reach the session through the user message
        "(flush) memory",  # the flush saved something before compressing
        "Wants SQL examples for PostgreSQL",  # ...and the next session sees it
        "Created skill 'ops/rotate-billing-db-password'",
        "skill_view name='rotate-billing-db-password'",
        "session_search query=",
        "Earlier exchanges that may be relevant",  # provider recall
        "refused (drift_detected)",
        "$ mnemic memory adopt",
        "staged for approval",
        "refused (budget_exceeded)",
        "Applied 2 operation(s)",
        "reused prefix",
        "MEMORY.md",
    ):
        assert phrase in out, phrase
    rows = re.findall(r"^  ([12]) +(\d+) +(\d+)  ([0-9a-f]{10}) (same|rebuilt)", out, re.M)
    assert len(rows) == 11
    assert [row[4] for row in rows].count("rebuilt") == 1
    reused = re.findall(r"(\d+)%$", out, re.M)
    assert reused.count("100") == 8  # every turn but the first of each day and the rebuild
    # the Anthropic chapter: breakpoints after the tools and the frozen system prompt, and
    # the same cached prefix on every request of the session, across a memory write
    assert "Cached prefix identical on every request: True" in out
    row = (
        r"^  ([1-9]) +tools\[4\] \+ system\[0\] +([\d,]+) B ([0-9a-f]{10}) "
        r"(first|same bytes|CHANGED) +([\d,]+) +([\d,]+)$"
    )
    api_rows = re.findall(row, out, re.M)
    assert [row[3] for row in api_rows] == ["first"] + ["same bytes"] * (len(api_rows) - 1)
    assert len(api_rows) == 4 and len({row[2] for row in api_rows}) == 1
    assert api_rows[0][5] == "0" and all(row[5] != "0" for row in api_rows[1:])
    assert not (tmp_path / "unused").exists()  # the demo works in its own throwaway home
