"""The unattended writers of a session with a project: the flush and the background
review write the project's store with ``scope="project"``, and the review's tidy looks at
it too, each store's proposals staged in its own queue (a scripted client stands in for
the model: :class:`~mnemic.testing.FakeChatClient`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mnemic.agent import FLUSH_INSTRUCTION, REVIEW_INSTRUCTION, AgentSession
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.view import MemoryView
from mnemic.home import Home
from mnemic.llm import ChatResult, ToolCall
from mnemic.ops.review import PendingQueue
from mnemic.testing import FakeChatClient


def _calls(*args: dict[str, Any]) -> ChatResult:
    return ChatResult(
        None, tuple(ToolCall(f"c{i}", "memory", json.dumps(a)) for i, a in enumerate(args)), "x"
    )


class Script(FakeChatClient):
    """Answers the flush and the review with scripted memory calls, once each."""

    def __init__(self, flush: ChatResult | None = None, review: ChatResult | None = None) -> None:
        super().__init__()
        self.scripted = {"flush": flush, "review": review}

    def complete(self, messages: Any, **kw: Any) -> ChatResult:
        super().complete(messages, **kw)
        text = " ".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")
        kind = "flush" if FLUSH_INSTRUCTION in text else ""
        kind = "review" if REVIEW_INSTRUCTION in text else kind
        reply = self.scripted.get(kind)
        self.scripted[kind] = None
        return reply if reply is not None else ChatResult("Nothing to save.", (), "stop")


def _setup(home_path: Path, tmp_path: Path, config: str) -> tuple[Home, Path]:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(config)
    directory = tmp_path / "repo"
    directory.mkdir()
    return Home.open(home_path), directory


def _project_entries(home: Home, directory: Path) -> list[str]:
    return MemoryView.open(open_project(home, directory, create=False)).entries("memory")


def test_the_flush_and_the_review_write_the_sessions_project_with_scope_project(
    home_path: Path, tmp_path: Path
) -> None:
    config = "[agent]\nreview_every = 1\nreview_tidy = false\nkeep_recent_messages = 2\n"
    home, directory = _setup(home_path, tmp_path, config)
    client = Script(
        review=_calls(
            {"action": "add", "scope": "project", "content": "Builds with make."},
            {"action": "add", "content": "Prefers short answers."},
        ),
        flush=_calls({"action": "add", "scope": "project", "content": "CI runs on push."}),
    )
    session = AgentSession.open(home, client=client, provider=None, project=directory)
    session.begin_turn("hello " + "word " * 10)
    session.add_assistant("ok")
    session.end_turn()
    assert session.wait_background(30)
    [review] = session.reviews
    assert (review.saved, review.refused) == (2, 0), review.calls
    memory_tool = next(t for t in client.calls[0]["tools"] if t["function"]["name"] == "memory")
    assert "scope" in memory_tool["function"]["parameters"]["properties"]
    for n in range(2):
        session.begin_turn(f"more {n} " + "word " * 10)
        session.add_assistant("ok")
        session.end_turn()
    assert session.wait_background(30)
    report = session.compress()
    assert report.flush is not None and report.flush.saved == 1, report.flush
    session.close()
    assert _project_entries(home, directory) == ["Builds with make.", "CI runs on push."]
    assert MemoryView.open(home).entries("memory") == ["Prefers short answers."]
    where = open_project(home, directory, create=False)
    origins = [p.origin for _, p in MemoryView.open(where).provenance("memory")]
    assert origins == ["review", "flush"]


def test_the_reviews_tidy_stages_a_full_projects_proposals_in_its_own_queue(
    home_path: Path, tmp_path: Path
) -> None:
    config = "[project]\nmemory_char_limit = 200\n\n[agent]\nreview_every = 1\nreview_tidy = true\n"
    home, directory = _setup(home_path, tmp_path, config)
    where = open_project(home, directory, create=True)
    mem = Memory.open(where)
    for entry in (
        "Tests run with pytest -q in the repo root.",
        "tests run with pytest -q in the repo root",
        "Deploys go through staging first, then production.",
        "The backend uses Python 3.10 in this repo.",
    ):
        mem.add("memory", entry)
    session = AgentSession.open(home, client=Script(), provider=None, project=directory)
    session.begin_turn("hello")
    session.add_assistant("ok")
    session.end_turn()
    assert session.wait_background(30)
    [report] = session.reviews
    staged = [t["pending_id"] for t in report.tidy if t.get("pending_id")]
    assert staged, report.tidy
    session.close()
    assert sorted(r.id for r in PendingQueue.open(where).records()) == sorted(staged)
    assert PendingQueue.open(home).records() == []  # the global store had room
    assert len(_project_entries(home, directory)) == 4  # proposed, not applied
