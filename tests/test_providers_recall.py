"""The built-in recall provider over the session store."""

from __future__ import annotations

from pathlib import Path

from mnemic.config import AgentSettings
from mnemic.home import Home
from mnemic.providers import ProviderManager, RecallProvider
from mnemic.sessions import NewMessage, open_store


def seed(home: Home) -> None:
    store = open_store(home)
    talks = [
        ("old-1", "The staging host for billing is stg-billing-2.", "Noted: stg-billing-2."),
        ("old-2", "Let's plan the holiday party menu.", "Pizza and salad it is."),
        ("old-3", "Billing deploys need a reviewer on the staging host.", "Understood."),
    ]
    for sid, user, reply in talks:
        store.start_session(id=sid, source="cli")
        store.append_messages(sid, [NewMessage("user", user), NewMessage("assistant", reply)])
    store.start_session(id="current", source="cli")
    store.append_messages(
        "current",
        [NewMessage("user", "staging host staging host billing"), NewMessage("assistant", "x")],
    )
    store.start_session(id="current-child", source="cli", parent_id="current")
    store.close()


def test_recalls_relevant_exchanges_within_budget(home_path: Path) -> None:
    home = Home.open(home_path)
    seed(home)
    p = RecallProvider(home)
    p.initialize("current-child")
    text = p.prefetch("what was the staging host for billing?", session_id="current-child")
    assert "stg-billing-2" in text and "reviewer" in text
    assert "holiday" not in text
    assert "staging host staging host" not in text  # the current lineage is excluded
    assert len(text) <= home.settings.agent.recall_chars


def test_budget_and_count_are_respected(home_path: Path) -> None:
    (home_path).mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[agent]\nrecall_results = 1\nrecall_chars = 150\n")
    home = Home.open(home_path)
    seed(home)
    text = RecallProvider(home).prefetch("staging host billing", session_id="none")
    assert text.count("- ") == 1 and len(text) <= 150


def test_nothing_relevant_or_trivial(home_path: Path) -> None:
    home = Home.open(home_path)
    seed(home)
    p = RecallProvider(home)
    assert p.prefetch("quantum chromodynamics lattice", session_id="x") == ""
    m = ProviderManager(AgentSettings())
    m.add(p)
    m.initialize("x")
    assert m.prefetch("thanks!", session_id="x") == ""
    assert "Recall is on" in m.system_prompt_block()
    m.shutdown()
