"""Tidy in the background review (``[agent] review_tidy``): proposals are staged for
approval, as the review, only when a target is nearly full, and never twice."""

from __future__ import annotations

from pathlib import Path

from mnemic.agent import AgentSession
from mnemic.curated.memory import Memory
from mnemic.ops.review import PendingQueue
from mnemic.testing import FakeChatClient

ENTRIES = [
    "User prefers tea over coffee.",
    "user prefers tea over coffee",
    "The backend uses Python 3.10.",
    "The backend is now on Python 3.12.",
    "Deploys go through staging first, then production.",
]  # 182 of 200 chars: 91 %


def start(home: Path, *, tidy: bool = True, limit: int = 200) -> AgentSession:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f"[memory]\nmemory_char_limit = {limit}\n\n"
        f"[agent]\nreview_every = 1\nreview_tidy = {str(tidy).lower()}\n"
    )
    mem = Memory.open(home)
    for entry in ENTRIES:
        mem.add("memory", entry)
    return AgentSession.open(home, client=FakeChatClient(), provider=None)


def turn(session: AgentSession, text: str) -> None:
    session.begin_turn(text)
    session.add_assistant("ok")
    session.end_turn()
    assert session.wait_background(30)


def test_a_review_stages_tidy_proposals_when_memory_is_nearly_full(home_path: Path) -> None:
    session = start(home_path)
    turn(session, "hello")
    [report] = session.reviews
    staged = [t for t in report.tidy if t.get("pending_id")]
    assert len(staged) == 2 and "2 tidy proposals staged" in report.summary()
    records = PendingQueue.open(home_path).records()
    assert {(r.actor, r.origin) for r in records} == {("background", "review")}
    assert sorted(r.id for r in records) == sorted(t["pending_id"] for t in staged)
    assert all(r.summary.startswith("tidy: ") for r in records)
    assert Memory.open(home_path).entries("memory") == ENTRIES  # proposed, not applied

    turn(session, "again")  # the next review finds the same proposals already pending
    second = session.reviews[1]
    assert [t["pending_id"] for t in second.tidy] == [None, None]
    assert all(str(t["skipped"]).startswith("already pending") for t in second.tidy)
    assert len(PendingQueue.open(home_path).records()) == 2
    session.close()


def test_a_review_leaves_memory_with_room_alone(home_path: Path) -> None:
    session = start(home_path, limit=2200)
    turn(session, "hello")
    assert session.reviews[0].tidy == []
    assert PendingQueue.open(home_path).records() == []
    session.close()


def test_review_tidy_can_be_switched_off(home_path: Path) -> None:
    session = start(home_path, tidy=False)
    turn(session, "hello")
    assert session.reviews[0].tidy == []
    assert PendingQueue.open(home_path).records() == []
    session.close()
