"""First week, row 8 (``docs/first-week.md``): ``memory tidy`` proposed "supersede: keep
stg-6, drop stg-5" for templated notes about two different hosts, and missed the real
duplicate ("the staging host stg-4 runs postgres 15" said twice). Two members of one
numbered series ("stg-4" / "stg-6", "web-9" / "web-10") named in one sentence are two
subjects, not one value changed: tidy keeps them apart and merges the note said twice.
Every test here failed before the fix (the supersede grouped every host)."""

from __future__ import annotations

import pytest

from _tidy_pairs import pair_kind
from mnemic.ops.tidy import plan

DAY = 86_400.0
NOW = 1_800_000_000.0
HOST = "The staging host stg-{} runs postgres 15 behind pgbouncer on port 6432."
HOSTS = [HOST.format(i) for i in range(1, 7)]


def _plan(entries: list[str], *, learned: bool) -> list[tuple[str, tuple[str, ...]]]:
    times = [NOW - (len(entries) - k) * DAY for k in range(len(entries))]
    got = plan("memory", entries, times, now=NOW, stale_after_days=90, verbose_chars=280,
               learned=learned)  # fmt: skip
    return [(p.kind, p.entries) for p in got]


@pytest.mark.parametrize("learned", [False, True])
def test_templated_notes_about_numbered_hosts_are_not_superseded(learned: bool) -> None:
    """Six hosts, one template, and stg-4's note said again (a trailing dot dropped):
    the only proposal merges stg-4's two notes."""
    again = HOSTS[3].rstrip(".")
    got = _plan([*HOSTS, again], learned=learned)
    assert [(kind, set(entries)) for kind, entries in got] == [("merge", {HOSTS[3], again})]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The staging host stg-5 runs postgres 15", "The staging host stg-6 runs postgres 15"),
        ("Server web-9 has 16 GB of memory", "Server web-10 has 16 GB of memory"),
        ("Deploys of api-2 need a second reviewer", "Deploys of api-3 need a second reviewer"),
    ],
)  # fmt: skip
def test_two_members_of_a_numbered_series_are_two_facts(a: str, b: str) -> None:
    assert pair_kind(a, b) == "none"
    assert pair_kind(a, b, learned=True) == "none"


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        # the identifier after a copula or an update marker is the value: it changed
        ("The staging host is stg-7", "The staging host is stg-8", "supersede"),
        ("The staging host is stg-7", "The staging host is now stg-8", "supersede"),
    ],
)  # fmt: skip
def test_an_identifier_that_is_the_value_still_changes(a: str, b: str, kind: str) -> None:
    assert pair_kind(a, b) == kind
