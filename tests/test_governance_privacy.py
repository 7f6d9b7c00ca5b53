"""Privacy: forgetting leaves no byte behind under the home; homes are private and
profiles are separate."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from mnemic.backends.files.journal import AuditJournal
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.errors import InvalidArgument
from mnemic.home import Home
from mnemic.ops import PendingQueue, forget_sessions, forget_user
from mnemic.sessions import (
    NewMessage,
    SearchFilters,
    SessionStore,
    import_path,
    open_store,
    parse_query,
)

MARK = "Quagmirevalley"  # a word that appears nowhere else


def grep(root: Path, needle: str) -> list[str]:
    """Every file under ``root`` whose bytes contain ``needle`` (any case)."""
    hits = []
    forms = {needle.encode(), needle.lower().encode(), needle.upper().encode()}
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as fh:
                data = fh.read()
            if any(f in data or f in data.lower() for f in forms):
                hits.append(path)
    return hits


# -- forget --user ------------------------------------------------------------------------


def test_forget_user_leaves_no_copy_anywhere(home_path: Path) -> None:
    mem = Memory.open(home_path, origin="cli")
    mem.add("memory", "Project notes stay")
    mem.add("user", f"Lives in {MARK}")
    mem.add("user", "Prefers tea")
    mem.replace("user", MARK, f"Lives in {MARK} since 2020")  # history versions
    d = home_path / "memories"
    (d / "USER.md").write_text((d / "USER.md").read_text() + f"\n\n§\n\n{MARK} by hand")
    resp = run_memory_tool(mem, {"action": "remove", "target": "user", "old_text": "tea"})
    assert resp["error_code"] == "drift_detected"  # a backup holding the profile now exists
    Memory.open(home_path).apply(
        "user", [Op("add", "placeholder")], gate=False
    )  # adds still work on a drifted file
    bg = Memory.open(home_path, origin="review")
    (d / "USER.md").write_text(f"Lives in {MARK} since 2020\n§\nPrefers tea")
    staged = bg.remove("user", "Prefers tea")
    assert staged.staged
    memory_only = bg.replace("memory", "Project notes", "Project notes moved")
    assert memory_only.staged
    (home_path / f"USER.md.edit.{1_700_000_000}").write_text(f"my edit with {MARK}")
    (d / f".USER.md.{'ab' * 6}.tmp").write_text(f"half a write of {MARK}")
    assert len(grep(home_path, MARK)) >= 6

    report = forget_user(home_path)

    assert grep(home_path, MARK) == []
    assert not (d / "USER.md").exists()
    assert Memory.open(home_path).entries("memory") == ["Project notes stay"]
    assert [r.id for r in PendingQueue.open(home_path).records()] == [memory_only.pending_id]
    assert staged.pending_id in report.pending
    audit = AuditJournal(home_path / "audit")
    assert audit.verify().ok
    last = list(audit.records())[-1]
    assert (last["action"], last["target"], last["after"]) == ("forget", "user", {"user": None})
    # and the profile can start again from nothing
    Memory.open(home_path).add("user", "Prefers coffee")
    assert Memory.open(home_path).entries("user") == ["Prefers coffee"]


def test_forget_user_dry_run_removes_nothing(home_path: Path) -> None:
    Memory.open(home_path).add("user", f"Name: {MARK}")
    report = forget_user(home_path, dry_run=True)
    assert report.files and grep(home_path, MARK)


# -- forget --sessions ----------------------------------------------------------------------


def record_sessions(home: Home) -> tuple[int, list[str]]:
    store = open_store(home)
    ids = []
    for i in range(12):
        title = f"Trip to {MARK}" if i == 4 else f"chat {i}"
        sid = store.start_session(source="cli", title=title)
        ids.append(sid)
        store.append_message(sid, NewMessage("user", f"message {i}: the build is green " * 8))
        if i % 3 == 0:
            store.append_message(sid, NewMessage("user", f"I grew up in {MARK}, remember that"))
            store.append_message(
                sid,
                NewMessage(
                    "assistant",
                    None,
                    tool_calls=[
                        {
                            "id": f"call{i}",
                            "type": "function",
                            "function": {
                                "name": "memory",
                                "arguments": json.dumps(
                                    {"action": "add", "target": "user", "content": f"From {MARK}"}
                                ),
                            },
                        }
                    ],
                ),
            )
        store.append_message(sid, NewMessage("assistant", f"reply {i} about compilers"))
    total = store.stats().messages
    store.close()
    return total, ids


def test_forget_sessions_leaves_no_byte_in_the_database(home_path: Path) -> None:
    home = Home.open(home_path)
    total, ids = record_sessions(home)
    assert grep(home_path, MARK)
    report = forget_sessions(home, MARK)
    assert report.messages == 8 and report.sessions == 5
    assert grep(home_path, MARK) == [], "the forgotten text is still on disk"
    store = open_store(home)
    try:
        assert store.stats().messages == total - 8
        assert store.get_session(ids[0]).message_count == 2
        assert store.get_session(ids[4]).title is None
        assert store.search(parse_query(MARK.lower()), SearchFilters()) == []
        hits = store.search(parse_query("compilers"), SearchFilters(), limit=100)
        assert len(hits) == 12  # the rest of the history is intact and searchable
        sid = store.start_session(source="cli")
        store.append_message(sid, NewMessage("user", "after forgetting, zebra crossing"))
        assert store.search(parse_query("zebra"), SearchFilters())
    finally:
        store.close()
    last = list(AuditJournal(home_path / "audit").records())[-1]
    assert (last["subsystem"], last["action"]) == ("sessions", "forget")
    assert last["removed"] == {"messages": 8, "sessions": 5}


def record_every_field(store: SessionStore, tmp_path: Path) -> str:
    """Sessions holding MARK in every column there is (ids, source, model, metadata
    keys and values, title, end reason, parent link; message text, name, tool name, tool
    calls, tool call id, source key), in either case; return the id of the session that
    holds it in its id."""
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "memory", "arguments": json.dumps({"note": f"from {MARK}"})},
    }
    sid = store.start_session(
        id=f"trip-{MARK.lower()}-1",
        source=f"src-{MARK}",
        model=f"model-{MARK.upper()}",
        title="an ordinary title",
        metadata={
            "cwd": f"/home/{MARK}/repo",
            "nested": {"k": MARK, "keep": "yes"},
            "list": ["a", f"x{MARK}x"],
            MARK: "under a key named after it",
            "transcript": "/tmp/t.jsonl",
        },
    )
    store.append_messages(
        sid,
        [
            NewMessage("user", "an ordinary question about compilers"),
            NewMessage("user", f"we met in {MARK.upper()}"),
            NewMessage("user", "said by someone", name=f"{MARK}er"),
            NewMessage("assistant", None, tool_calls=[call]),
            NewMessage("tool", "a result", tool_name=f"tool_{MARK}", tool_call_id="c1"),
            NewMessage("tool", "another result", tool_call_id=f"call-{MARK}"),
            NewMessage("assistant", "an ordinary answer about compilers"),
        ],
    )
    child = store.start_session(id="child-1", parent_id=sid, source="cli")
    store.append_message(child, NewMessage("user", "the conversation goes on"))
    store.end_session(child, f"closed in {MARK}")
    path = tmp_path / "keys.jsonl"
    path.write_text(
        json.dumps({"session_id": "keyed", "role": "user", "content": "plain words",
                    "message_id": f"msg-{MARK}"}) + "\n"
        + json.dumps({"session_id": "keyed", "role": "user", "content": "more plain words"})
        + "\n"
    )  # fmt: skip
    assert import_path(store, path).messages == 2
    return sid


def check_every_field_forgotten(store: SessionStore, renamed_from: str) -> None:
    """What forgetting MARK leaves: the rest of every session, under new names where the
    name held it."""
    infos = {i.id: i for i in store.list_sessions(limit=100)}
    assert renamed_from not in infos and "child-1" in infos and "keyed" in infos
    (new_id,) = [i for i in infos if i not in ("child-1", "keyed")]
    info = infos[new_id]
    assert (info.source, info.model, info.title) == ("redacted", None, "an ordinary title")
    assert info.metadata == {
        "nested": {"keep": "yes"},
        "list": ["a"],
        "transcript": "/tmp/t.jsonl",
    }
    assert [m.content for m in store.messages(new_id)] == [
        "an ordinary question about compilers",
        "an ordinary answer about compilers",
    ]
    assert info.message_count == 2
    child = infos["child-1"]
    assert child.parent_id == new_id and child.end_reason == "ended"
    assert store.lineage("child-1") == [new_id, "child-1"]
    assert [m.content for m in store.messages("keyed")] == ["more plain words"]
    assert store.search(parse_query("compilers"), SearchFilters())


def test_forget_sessions_rewrites_every_field_that_holds_the_text(
    home_path: Path, tmp_path: Path
) -> None:
    home = Home.open(home_path)
    with open_store(home) as store:
        renamed_from = record_every_field(store, tmp_path)
    assert grep(home_path, MARK)
    report = forget_sessions(home, MARK)
    assert grep(home_path, MARK) == [], "the forgotten text is still on disk"
    assert (report.messages, report.sessions) == (6, 3)
    assert any("new ids" in n for n in report.notes)
    with open_store(home) as store:
        check_every_field_forgotten(store, renamed_from)
        store.append_message("child-1", NewMessage("user", "still recording"))


def test_forget_sessions_says_which_audit_records_keep_a_session_id(home_path: Path) -> None:
    home = Home.open(home_path)
    Memory.open(home, session_id=f"chat-{MARK}").add("memory", "Project uses make")
    report = forget_sessions(home, MARK)
    assert any("1 audit record(s) name a writing session" in n for n in report.notes)
    assert AuditJournal(home_path / "audit").verify().ok


def test_forget_sessions_dry_run_and_short_match(home_path: Path) -> None:
    home = Home.open(home_path)
    record_sessions(home)
    report = forget_sessions(home, MARK, dry_run=True)
    assert report.messages == 8 and grep(home_path, MARK)
    with pytest.raises(InvalidArgument):
        forget_sessions(home, "ab")
    assert forget_sessions(home, "no such text anywhere").messages == 0


def test_forget_user_points_at_session_copies(home_path: Path) -> None:
    home = Home.open(home_path)
    Memory.open(home).add("user", f"I grew up in {MARK}, remember that")
    record_sessions(home)
    report = forget_user(home)
    assert any("forget --text" in n for n in report.notes)
    forget_sessions(home, MARK)
    assert grep(home_path, MARK) == []


# -- private homes, separate profiles -------------------------------------------------------


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_governance_files_are_private(home_path: Path) -> None:
    home_path.mkdir()
    (home_path / "config.toml").write_text('[approval]\nmemory_foreground = "stage"\n')
    pid = Memory.open(home_path).add("user", "Prefers tea").pending_id
    for d in (home_path / "pending", home_path / "pending" / "memory", home_path / "audit"):
        assert mode(d) == 0o700, d
    for f in [home_path / "pending" / "memory" / f"{pid}.json", *(home_path / "audit").iterdir()]:
        assert mode(f) == 0o600, f


def test_profiles_never_see_each_other(home_path: Path) -> None:
    home_path.mkdir()
    (home_path / "config.toml").write_text('[approval]\nmemory_foreground = "stage"\n')
    main_pid = Memory.open(home_path).add("user", "main profile fact").pending_id
    work = Home.open(home_path, "work")
    Memory.open(work).add("user", f"work profile {MARK}")
    assert PendingQueue.open(work).records() == []
    assert [r.id for r in PendingQueue.open(home_path).records()] == [main_pid]
    assert len(list(AuditJournal(work.root / "audit").records())) == 1
    forget_user(work)
    assert grep(work.root, MARK) == []
    assert [r.id for r in PendingQueue.open(home_path).records()] == [main_pid]
