"""Entry-point discovery; built-ins registered the same way; nothing loads unless asked."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mnemic.errors import ProviderError, ProviderNotFound
from mnemic.home import Home
from mnemic.providers import RecallProvider, available_providers, load_provider
from mnemic.providers.discovery import ProviderEntry


def test_recall_is_registered_as_a_builtin() -> None:
    entries = available_providers()
    assert entries["recall"].value == "mnemic.providers.recall:RecallProvider"
    assert entries["recall"].builtin


def test_load_by_name(home_path: Path) -> None:
    provider = load_provider("recall", Home.open(home_path))
    assert isinstance(provider, RecallProvider) and provider.is_available()


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ProviderNotFound) as info:
        load_provider("no-such-provider")
    assert "recall" in info.value.to_llm()


def test_a_factory_that_fails_or_returns_junk(monkeypatch: pytest.MonkeyPatch) -> None:
    import mnemic.providers.discovery as disc

    entries = {
        "broken": ProviderEntry("broken", "mnemic.no_such_module:X", "thirdparty"),
        "junk": ProviderEntry("junk", "builtins:dict", "thirdparty"),
    }
    monkeypatch.setattr(disc, "available_providers", lambda: entries)
    with pytest.raises(ProviderError, match="could not be loaded"):
        disc.load_provider("broken")
    with pytest.raises(ProviderError, match="did not return a MemoryProvider"):
        disc.load_provider("junk")


def test_sessions_load_no_provider_unless_configured(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.agent import AgentSession

    # put back at teardown: a module imported again later would be a second copy, its
    # classes not those the package (and any caller) already holds
    monkeypatch.delitem(sys.modules, "mnemic.providers.recall", raising=False)
    with AgentSession.open(home_path) as session:
        assert session.providers.provider is None
        assert "mnemic.providers.recall" not in sys.modules
