"""A full target: the refusal names what to drop first, with handles and why.

Behaviour on both backends (``backend``: files and a throwaway PostgreSQL server).
Times come from the memory's clock, so "oldest" is decided by the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _backends import Kit
from mnemic.curated.entries import entry_handle
from mnemic.curated.memory import Memory
from mnemic.curated.provenance import entry_key
from mnemic.curated.store import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView

T0 = 1_000_000.0
DAY = 86_400.0
OLD = "The build server runs Debian 12 with Python 3.11 installed."
NEWER = "Releases are tagged on the main branch every second Tuesday."
CONFIRMED = "The staging database listens on port 6543, not 5432."
COPY = "staging database listens on port 6543"


def _mem(home: Path, t: float) -> Memory:
    return Memory.open(home, origin="agent", session_id="s1", clock=lambda: t)


def _full_home(backend: Kit) -> Path:
    """MEMORY.md nearly full: OLD written first, NEWER a day later, CONFIRMED first
    written before both but added again (confirmed) on day 3, COPY a near copy of it."""
    limit = len(OLD) + len(NEWER) + len(CONFIRMED) + len(COPY) + 3 * 3 + 20
    home = backend.write_config(memory_char_limit=limit)
    _mem(home, T0).add("memory", CONFIRMED)
    _mem(home, T0 + DAY).add("memory", OLD)
    _mem(home, T0 + 2 * DAY).add("memory", NEWER)
    _mem(home, T0 + 2 * DAY).add("memory", COPY)
    confirm = _mem(home, T0 + 3 * DAY).add("memory", CONFIRMED)
    assert not confirm.written
    return home


def test_re_adding_an_entry_or_replacing_it_by_itself_confirms_it(backend: Kit) -> None:
    home = _full_home(backend)
    prov = dict(MemoryView.open(home).provenance("memory"))
    assert prov[CONFIRMED].updated == T0
    assert prov[CONFIRMED].last_confirmed == T0 + 3 * DAY
    assert prov[OLD].last_confirmed == T0 + DAY
    _mem(home, T0 + 5 * DAY).replace("memory", "Debian 12", OLD)
    prov = dict(MemoryView.open(home).provenance("memory"))
    assert prov[OLD].confirmed == T0 + 5 * DAY
    assert prov[OLD].created == T0 + DAY  # confirming rewrites nothing


def test_an_add_that_overflows_lists_candidates_with_handles_and_reasons(backend: Kit) -> None:
    home = _full_home(backend)
    mem = _mem(home, T0 + 4 * DAY)
    new = "Deploys need the VPN profile named corp-eu-west."
    resp = run_memory_tool(mem, {"action": "add", "content": new})
    assert resp["error_code"] == "budget_exceeded"
    cands = resp["candidates"]
    assert [c["entry"] for c in cands] == [COPY, OLD, NEWER, CONFIRMED]
    assert cands[0]["reasons"][0] == f"duplicate of {entry_handle(CONFIRMED)}"
    # an age needs no zone: the model and the person read the same words (refused on day 4)
    assert cands[1]["reasons"] == ["oldest unconfirmed: last written or confirmed 3 days ago"]
    assert cands[3]["reasons"][-1] == "unconfirmed: last written or confirmed 1 day ago"
    assert cands[3]["last_confirmed"] == "1970-01-15T13:46Z"  # a machine form: UTC, Z
    assert all(c["handle"] == entry_handle(c["entry"]) for c in cands)
    assert resp["free_at_least"] > 0
    assert f"{cands[0]['handle']} (duplicate of" in resp["error"]
    # the model frees room in one call, naming the candidate by its handle
    ops = [
        {"action": "remove", "old_text": cands[0]["handle"]},
        {"action": "add", "content": new},
    ]
    done = run_memory_tool(mem, {"operations": ops})
    assert done["success"], done
    assert Memory.open(home).entries("memory") == [CONFIRMED, OLD, NEWER, new]


def test_a_refusal_not_about_room_lists_no_candidates(backend: Kit) -> None:
    home = _full_home(backend)
    mem = _mem(home, T0 + 4 * DAY)
    resp = run_memory_tool(mem, {"action": "remove", "old_text": "no such entry"})
    assert resp["error_code"] == "no_match"
    assert "candidates" not in resp
    huge = run_memory_tool(mem, {"action": "add", "content": "x" * 5000})
    assert huge["error_code"] == "budget_exceeded"
    assert "candidates" not in huge  # it can never fit: nothing to drop helps


def test_a_batch_that_overflows_lists_candidates(backend: Kit) -> None:
    home = _full_home(backend)
    mem = _mem(home, T0 + 4 * DAY)
    ops = [Op("add", "A first new fact about the deploy pipeline and its secrets vault.")]
    ops.append(Op("add", "A second new fact about the release calendar of the mobile app."))
    resp = run_memory_tool(
        mem, {"operations": [{"action": o.action, "content": o.content} for o in ops]}
    )
    assert resp["error_code"] == "budget_exceeded"
    assert resp["candidates"][0]["handle"] == entry_handle(COPY)


def test_the_cli_refusal_names_what_to_drop_and_the_command(backend: Kit) -> None:
    from tests.e2e import run_mnemic

    home = _full_home(backend)
    done = run_mnemic(home, "memory", "add", "Deploys need the VPN profile named corp-eu-west.")
    assert done.returncode == 1
    assert "`mnemic memory remove HANDLE`" in done.stderr
    # each candidate on its own line: its handle, the start of its text, why
    line = next(x for x in done.stderr.splitlines() if entry_handle(COPY) in x)
    assert repr(COPY[:60]) in line or repr(COPY) in line, line
    assert f"(duplicate of {entry_handle(CONFIRMED)}" in line


# -- [memory] on_full: evict into the archive ----------------------------------------------
def _archived(home: Path) -> dict[str, str]:
    from mnemic.curated import archive

    return {a.text or "": a.reason for a in archive.listing(Memory.open(home))}


def _evicting_home(backend: Kit, **settings: object) -> Path:
    """MEMORY.md of four entries written a day apart, 10 chars below its limit."""
    facts = [f"Fact {i}: the service number {i} listens on port 80{i}0 today." for i in range(4)]
    limit = sum(len(f) for f in facts) + 3 * 3 + 10
    home = backend.write_config(memory_char_limit=limit, **settings)
    for i, fact in enumerate(facts):
        _mem(home, T0 + i * DAY).add("memory", fact)
    return home


def test_archive_oldest_evicts_the_oldest_into_the_archive_in_the_same_write(
    backend: Kit,
) -> None:
    home = _evicting_home(backend, on_full="archive_oldest")
    before = Memory.open(home).entries("memory")
    new = "The deploy key rotates on the first Monday of each month."
    resp = run_memory_tool(_mem(home, T0 + 9 * DAY), {"action": "add", "content": new})
    assert resp["success"], resp
    # the oldest two leave: one makes room, the second the headroom below the limit
    assert [e["entry"] for e in resp["evicted"]] == before[:2]
    assert {e["reason"] for e in resp["evicted"]} == {"evicted"}
    assert "archive_search" in resp["evicted_note"]
    mem = Memory.open(home)
    assert mem.entries("memory") == [*before[2:], new]
    usage = mem.usage("memory")
    assert usage.chars <= usage.limit - usage.limit // 10
    assert _archived(home) == {before[0]: "evicted", before[1]: "evicted"}
    # one journal record holds the write and its evictions
    rec = [r for r in backend.journal().records() if r.get("action") == "add"][-1]
    change = rec["changes"]["memory"]
    assert [r["reason"] for r in change["removed"]] == ["evicted", "evicted"]
    assert [a["text"] for a in change["added"]] == [new]
    # the headroom: the next small add fits without evicting again
    again = run_memory_tool(_mem(home, T0 + 10 * DAY), {"action": "add", "content": "Short."})
    assert again["success"] and "evicted" not in again


def test_archive_least_used_evicts_what_mattered_in_fewest_sessions(backend: Kit) -> None:
    from mnemic.curated.usage_log import update_counts

    home = _evicting_home(backend, on_full="archive_least_used")
    facts = Memory.open(home).entries("memory")
    used = {entry_key(facts[0]): T0 + 5 * DAY, entry_key(facts[1]): T0 + 5 * DAY}
    assert update_counts(home, lambda c: c.count("s9", 10, 10, used))
    new = "The deploy key rotates on the first Monday of each month."
    resp = run_memory_tool(_mem(home, T0 + 9 * DAY), {"action": "add", "content": new})
    assert [e["entry"] for e in resp["evicted"]] == [facts[2], facts[3]]


def test_an_eviction_never_takes_what_the_write_adds_or_replaces(backend: Kit) -> None:
    home = _evicting_home(backend, on_full="archive_oldest")
    facts = Memory.open(home).entries("memory")
    longer = facts[0] + " It moved there after the outage of the old rack in March."
    result = _mem(home, T0 + 9 * DAY).replace("memory", "Fact 0", longer)
    assert longer in Memory.open(home).entries("memory")
    assert [e for _, e, _ in result.evicted] and longer not in [e for _, e, _ in result.evicted]
    # what does not fit even with every other entry evicted is refused, and nothing leaves
    kept = Memory.open(home).entries("memory")
    half = "word " * (Memory.open(home).limit("memory") // 8)
    ops = [{"action": "add", "content": f"One {half}"}, {"action": "add", "content": f"Two {half}"}]
    resp = run_memory_tool(_mem(home, T0 + 10 * DAY), {"operations": ops})
    assert resp["error_code"] == "budget_exceeded"
    assert Memory.open(home).entries("memory") == kept


def test_user_md_is_evicted_only_by_its_own_policy(backend: Kit) -> None:
    home = _evicting_home(backend, on_full="archive_oldest", user_char_limit=100)
    name, work = "Name: Ada Lovelace, mathematician.", "Works on the Analytical Engine in London."
    _mem(home, T0).add("user", name)
    _mem(home, T0 + DAY).add("user", work)
    tea = {"target": "user", "action": "add", "content": "Prefers tea, never coffee."}
    refused = run_memory_tool(_mem(home, T0 + 2 * DAY), tea)
    assert refused["error_code"] == "budget_exceeded"
    assert refused["candidates"][0]["entry"] == name
    home = backend.write_config(
        memory_char_limit=500, user_char_limit=100, on_full_user="archive_oldest"
    )
    resp = run_memory_tool(_mem(home, T0 + 3 * DAY), tea)
    assert [e["entry"] for e in resp["evicted"]] == [name]
    assert _archived(home)[name] == "evicted"
    assert Memory.open(home).entries("user") == [work, tea["content"]]


def test_a_memory_without_a_journal_refuses_rather_than_evict(backend: Kit) -> None:
    """A memory opened on a bare backend keeps no record: nothing could reach the archive."""
    from mnemic.curated.view import open_backend
    from mnemic.errors import BudgetExceeded
    from mnemic.home import Home

    home = _evicting_home(backend, on_full="archive_oldest")
    opened = Home.open(home)
    bare = Memory(open_backend(opened), opened.settings)
    with pytest.raises(BudgetExceeded):
        bare.add("memory", "The deploy key rotates on the first Monday of each month.")
    assert len(Memory.open(home).entries("memory")) == 4


def test_the_console_refusal_names_what_to_drop_first(backend: Kit) -> None:
    from html import unescape

    from test_ui import client_for, post

    home = _full_home(backend)
    client = client_for(home)
    r = post(client, "/memory/add", target="memory", content="Deploys need the corp-eu VPN.")
    assert r.status_code == 409  # type: ignore[attr-defined]
    text = unescape(r.text)  # type: ignore[attr-defined]
    # by their texts: the page shows no handles (docs/first-week.md #29)
    line = next(x for x in text.splitlines() if repr(COPY) in x)
    assert f"(duplicate of {CONFIRMED[:40] + '...'!r}" in line, line
    assert entry_handle(COPY) not in line and entry_handle(CONFIRMED) not in line


@pytest.mark.usefixtures("either_commit")
@pytest.mark.slow
def test_an_evicting_write_killed_at_any_call_leaves_live_and_archive_whole(
    tmp_path: Path,
) -> None:
    """SIGKILL before each file-system call of an add that evicts: after the kill, and
    after the next write, the entries are as before with nothing archived, or as after
    with the evicted ones archived; never an entry lost or archived twice."""
    from collections import Counter

    from _backends import FilesKit
    from _forker import shared
    from _killpoints import killed

    new = "The deploy key rotates on the first Monday of each month."
    completed = False
    for k in range(1, 80):
        home = _evicting_home(FilesKit(tmp_path / f"kill-{k}"), on_full="archive_oldest")
        base = Memory.open(home, clock=lambda: T0).entries("memory")
        # _mem(home, T0 + 9 * DAY).add("memory", new), the writer opened before the kill
        # is armed, in a child forked from a small process
        status = shared("kill_actions").run_killed_at(
            k, "opened_add", str(home), T0 + 9 * DAY, "agent", "s1", new
        )
        entries = MemoryView.open(home).entries("memory")
        if entries == base:
            assert _archived(home) == {}, k
        else:
            assert entries == [*base[2:], new], k
            assert _archived(home) == {base[0]: "evicted", base[1]: "evicted"}, k
        _mem(home, T0 + 10 * DAY).add("memory", "Short.")
        view = MemoryView.open(home)
        live = Counter(view.entries("memory"))
        from mnemic.curated import archive

        kept = Counter(a.text for a in archive.listing(view) if a.text is not None)
        assert live + kept - Counter(["Short."]) in (Counter(base), Counter([*base, new])), k
        if not killed(status):
            completed = True
            break
    assert completed and k > 10


def test_entries_that_differ_in_their_numbers_are_not_called_duplicates(backend: Kit) -> None:
    """Structured facts share most of their words ("service 19 listens on port 8019",
    "service 20 ... 8020"): naming one a duplicate of the other would tell the model to
    drop a fact no other entry holds. A near copy that holds the same numbers still is."""
    facts = [
        f"Service {n} of the fleet listens on port {8000 + n} and is owned by team {n}, "
        f"with its runbook on the wiki page of the same name."
        for n in (18, 19, 20)
    ]
    copy = (
        "service 20 of the fleet listens on port 8020 and is owned by team 20, "
        "with its runbook on the wiki page of that name"
    )
    home = backend.write_config(memory_char_limit=sum(map(len, facts)) + len(copy) + 12)
    for i, text in enumerate([*facts, copy]):
        _mem(home, T0 + i * DAY).add("memory", text)
    resp = run_memory_tool(
        _mem(home, T0 + 9 * DAY), {"action": "add", "content": "Deploys need the VPN."}
    )
    assert resp["error_code"] == "budget_exceeded"
    dups = {c["entry"]: c["duplicate_of"] for c in resp["candidates"]}
    assert dups[facts[0]] is None and dups[facts[1]] is None
    # the third fact and its near copy: the older of the two is the one to drop
    assert dups[facts[2]] == entry_handle(copy) and dups[copy] is None
