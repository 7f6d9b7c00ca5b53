"""The archive: every entry that leaves MEMORY.md or USER.md is kept, out of the prompt.

Behaviour on both backends (``backend``: files and a throwaway PostgreSQL server);
crash and byte-level checks on files. Times come from the memory's clock.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from _backends import FilesKit, Kit
from _forker import shared
from _killpoints import killed
from mnemic.curated import archive
from mnemic.curated.admin import text_hash, write_edited
from mnemic.curated.entries import serialize
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.errors import BudgetExceeded

T0 = 1_000_000.0


def _mem(home: Path, t: float = T0, origin: str = "agent", session: str = "s1") -> Memory:
    return Memory.open(home, origin=origin, session_id=session, clock=lambda: t)


def _archived(home: Path) -> list[tuple[str, str | None, str]]:
    return [(a.target, a.text, a.reason) for a in archive.listing(Memory.open(home))]


def _everything(home: Path) -> Counter[str]:
    mem = Memory.open(home)
    live = [e for t in ("memory", "user") for e in mem.entries(t)]
    return Counter(live + [a.text for a in archive.listing(mem) if a.text is not None])


def test_every_entry_that_leaves_memory_is_archived_with_why_and_who(backend: Kit) -> None:
    home = backend.write_config()
    _mem(home, T0).batch("memory", [Op("add", "alpha"), Op("add", "beta"), Op("add", "gamma")])
    later = _mem(home, T0 + 10, origin="cli", session="s2")
    later.replace("memory", "beta", "beta revised")
    later.remove("memory", "gamma")
    later.batch("memory", [Op("remove", None, "alpha"), Op("add", "delta")])
    items = {a.text: a for a in archive.listing(Memory.open(home))}
    assert set(items) == {"alpha", "beta", "gamma"}
    beta = items["beta"]
    assert (beta.reason, beta.target, beta.archived_at) == ("replaced", "memory", T0 + 10)
    assert beta.by == ("cli", "cli", "s2")
    assert (beta.provenance.created, beta.provenance.actor) == (T0, "model")
    assert items["gamma"].reason == items["alpha"].reason == "removed"
    assert _everything(home) == Counter(["alpha", "beta", "gamma", "beta revised", "delta"])


def test_an_edit_and_a_restore_archive_what_they_drop(backend: Kit) -> None:
    home = backend.write_config()
    mem = _mem(home)
    mem.batch("memory", [Op("add", "one"), Op("add", "two")])
    raw = mem.backend.read("memory")
    write_edited(mem, "memory", text_hash(raw), serialize(["one", "three"]))
    assert ("memory", "two", "edited") in _archived(home)
    from mnemic.curated.admin import restore

    first = mem.backend.history("memory")[0].id
    restore(Memory.open(home), "memory", first)  # back to one, two
    reasons = {text: why for _, text, why in _archived(home)}
    assert reasons == {"two": "edited", "three": "restored"}
    assert _everything(home) == Counter(["one", "two", "two", "three"])


def test_a_hand_edit_that_drops_an_entry_is_archived(backend: Kit) -> None:
    home = backend.write_config()
    _mem(home).batch("memory", [Op("add", "kept"), Op("add", "dropped by hand")])
    backend.edit("memory", serialize(["kept"]))
    # seen by a reader before any writer recorded it
    [pending] = archive.listing(Memory.open(home))
    assert (pending.text, pending.reason, pending.archived_at) == (
        "dropped by hand",
        "hand_edit",
        None,
    )
    _mem(home, T0 + 5).add("memory", "next")
    [item] = archive.listing(Memory.open(home))
    assert (item.text, item.reason, item.archived_at) == ("dropped by hand", "hand_edit", T0 + 5)
    assert item.provenance.created == T0


def test_restore_brings_an_entry_back_and_takes_it_out_of_the_archive(backend: Kit) -> None:
    home = backend.write_config()
    mem = _mem(home)
    mem.add("memory", "Staging DB is db-2.")
    _mem(home, T0 + 50).remove("memory", "db-2")
    [item] = archive.listing(Memory.open(home))
    result = archive.restore(_mem(home, T0 + 90), item.id)
    assert result.written
    back = Memory.open(home)
    assert back.entries("memory") == ["Staging DB is db-2."]
    assert archive.listing(back) == []
    [(_, p)] = back.provenance("memory")
    assert (p.created, p.updated) == (T0, T0 + 90)  # created kept, restored now


def test_a_restore_that_does_not_fit_says_what_to_drop(backend: Kit) -> None:
    home = backend.write_config(memory_char_limit=100)
    mem = _mem(home)
    mem.add("memory", "The first fact, sixty characters long, padded to that size..")
    mem.remove("memory", "first fact")
    mem.add("memory", "The other fact, sixty characters long, padded to that size..")
    [item] = archive.listing(Memory.open(home))
    with pytest.raises(BudgetExceeded) as caught:
        archive.restore(Memory.open(home), item.id)
    assert caught.value.limit == 100
    resp = run_memory_tool(Memory.open(home), {"action": "add", "content": item.text})
    assert resp["current_entries"] == [
        "The other fact, sixty characters long, padded to that size.."
    ]
    assert len(archive.listing(Memory.open(home))) == 1  # still archived


def test_the_archive_never_enters_the_system_prompt(backend: Kit) -> None:
    from mnemic.curated.snapshot import render_snapshot

    home = backend.write_config()
    mem = _mem(home)
    mem.add("memory", "ARCHIVED-ONLY-FACT")
    mem.replace("memory", "ARCHIVED", "live fact")
    mem.add("user", "ARCHIVED-USER-FACT")
    mem.remove("user", "ARCHIVED-USER")
    assert len(archive.listing(Memory.open(home))) == 2
    assert "ARCHIVED" not in Memory.open(home).snapshot.text
    assert "ARCHIVED" not in render_snapshot(str(home))
    assert "live fact" in render_snapshot(str(home))


def test_the_tool_searches_the_archive(backend: Kit) -> None:
    home = backend.write_config()
    mem = _mem(home)
    mem.add("memory", "Staging database host is db-2.internal")
    mem.replace("memory", "db-2", "Staging database host is db-3.internal")
    resp = run_memory_tool(mem, {"action": "archive_search", "query": "staging host"})
    assert resp["success"] and resp["done"]
    assert [r["text"] for r in resp["results"]] == ["Staging database host is db-2.internal"]
    assert resp["results"][0]["reason"] == "replaced"
    bad = run_memory_tool(mem, {"action": "archive_search"})
    assert not bad["success"] and "query" in bad["error"]


def test_forget_user_removes_the_archived_profile_byte_for_byte(home_path: Path) -> None:
    from mnemic.ops.forget import forget_user

    FilesKit(home_path).write_config()
    mem = _mem(home_path)
    mem.add("user", "Lives at 221B Baker Street")
    mem.replace("user", "221B", "Lives at 10 Downing Street")
    mem.add("memory", "Deploys go through CI")
    mem.remove("memory", "Deploys")
    Memory.open(home_path).provenance("memory")  # a fold is cached
    report = forget_user(home_path)
    assert report.archived == 3  # added, removed and added again
    for root, _, files in os.walk(home_path):
        for name in files:
            data = (Path(root) / name).read_bytes()
            assert b"Baker" not in data and b"Downing" not in data, name
    assert sorted(_archived(home_path), key=str) == [
        ("memory", "Deploys go through CI", "removed"),
        ("user", None, "replaced"),  # the item stays, its text is gone
    ]
    from mnemic.backends.files.journal import AuditJournal

    assert AuditJournal(home_path / "audit").verify().ok


def test_forget_sessions_removes_matching_archived_text(backend: Kit) -> None:
    from mnemic.ops.forget import forget_sessions

    home = backend.write_config()
    mem = _mem(home)
    mem.add("memory", "Project codename quagga77 ships in May")
    mem.remove("memory", "quagga77")
    mem.add("memory", "Unrelated fact")
    mem.remove("memory", "Unrelated")
    forget_sessions(home, "QUAGGA77")
    texts = [a.text for a in archive.listing(Memory.open(home))]
    assert texts == ["Unrelated fact", None]  # the item stays, its text is gone
    assert not any(b"quagga77" in line for line in backend.journal_lines())
    assert backend.journal().verify().ok


def test_gc_drops_archived_text_older_than_archive_days(backend: Kit) -> None:
    from mnemic.ops.retention import collect_garbage

    home = backend.write_config("\n[retention]\narchive_days = 30\n")
    day = 86400.0
    _mem(home, T0).add("memory", "old fact")
    _mem(home, T0 + 1 * day).remove("memory", "old fact")
    _mem(home, T0 + 40 * day).add("memory", "recent fact")
    _mem(home, T0 + 41 * day).remove("memory", "recent fact")
    collect_garbage(home, clock=lambda: T0 + 45 * day)
    texts = {a.text for a in archive.listing(Memory.open(home))}
    assert texts == {None, "recent fact"}
    assert not any(b"old fact" in line for line in backend.journal_lines())


@pytest.mark.usefixtures("either_commit")
@pytest.mark.slow
def test_a_write_killed_at_any_call_leaves_live_and_archive_whole(tmp_path: Path) -> None:
    """SIGKILL before each file-system call of a replace + remove + add in turn: after
    the kill, and after the next write, live entries plus the archive are every entry
    ever written, and the archive holds exactly what the committed change dropped."""
    base = ["alpha fact", "beta fact", "gamma fact"]
    change = [
        Op("replace", "beta fact, revised", "beta fact"),
        Op("remove", None, "gamma fact"),
        Op("add", "delta fact"),
    ]
    completed = False
    for k in range(1, 80):
        home = tmp_path / f"kill-{k}"
        home.mkdir()
        _mem(home).batch("memory", [Op("add", e) for e in base])
        # _mem(home, T0 + 1, origin="cli").batch("memory", change), the writer opened
        # before the kill is armed, in a child forked from a small process
        fields = [{f: getattr(op, f) for f in op.__slots__} for op in change]
        status = shared("kill_actions").run_killed_at(
            k, "opened_batch", str(home), T0 + 1, "cli", "s1", fields
        )
        everything = Counter([*base, "beta fact, revised", "delta fact"])
        entries = Memory.open(home).entries("memory")
        if entries == base:
            assert _archived(home) == [], k
        else:
            assert entries == ["alpha fact", "beta fact, revised", "delta fact"], k
            assert _everything(home) == everything, k
        _mem(home, T0 + 2).add("memory", "epsilon fact")
        seen = _everything(home)
        assert seen - Counter(["epsilon fact"]) in (Counter(base), everything), k
        if not killed(status):
            completed = True
            break
    assert completed and k > 10


def test_archive_show_says_who_removed_an_entry_as_the_console_does(home_path: Path) -> None:
    """`mnemic memory archive show` names the remover as `actor / origin, session S`, the
    words the console's Archive page uses (it printed the parts run together before)."""
    from click.testing import CliRunner

    from mnemic.cli import main
    from mnemic.ops.archive_search import removed_by_text

    mem = _mem(home_path, session="s-remover")
    mem.add("memory", "The build cache lives in /var/cache/ci.")
    mem.remove("memory", "build cache")
    (item,) = archive.listing(Memory.open(home_path))
    shown = CliRunner().invoke(
        main, ["--home", str(home_path), "memory", "archive", "show", item.id]
    )
    assert shown.exit_code == 0, shown.output
    by = {"actor": "model", "origin": "agent", "session": "s-remover"}
    assert f"by {removed_by_text(by)}" in shown.output
    assert "by model / agent, session s-remover" in shown.output
    assert removed_by_text({"actor": None, "origin": None, "session": None}) == "unknown"


def test_a_batch_that_removes_an_entry_and_adds_it_back_keeps_its_place(backend: Kit) -> None:
    """Remove X, add X back in one batch is no change: nothing archived, no change in
    its journal record, and X stays where it was (it moved to the end before, a reorder
    the record did not name and a prompt whose bytes changed for no change)."""
    home = backend.write_config()
    mem = _mem(home)
    mem.batch("memory", [Op("add", "alpha"), Op("add", "beta"), Op("add", "gamma")])
    before = mem.backend.read("memory")
    result = mem.batch("memory", [Op("remove", None, "alpha"), Op("add", "alpha")])
    assert not result.written
    assert mem.backend.read("memory") == before
    assert _archived(home) == []
    ops = [{"action": "remove", "old_text": "beta"}, {"action": "add", "content": "beta"}]
    resp = run_memory_tool(mem, {"target": "memory", "operations": ops})
    assert resp["success"] and "removed_entries" not in resp  # the model is told no removal
    assert mem.backend.read("memory") == before
    # with a real change beside it: only the real change shows, the rest keeps its order
    mem.batch(
        "memory",
        [
            Op("remove", None, "beta"),
            Op("replace", "alpha two", "alpha"),
            Op("add", "delta"),
            Op("add", "beta"),
        ],
    )
    assert mem.entries("memory") == ["alpha two", "beta", "gamma", "delta"]
    assert _archived(home) == [("memory", "alpha", "replaced")]
