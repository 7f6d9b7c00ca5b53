"""`mnemic integrate hermes` and the provider it installs, end to end.

The tests marked ``hermes`` run the real Hermes Agent (hermes-agent 0.19.0, in a venv of
its own: mnemic is not importable there) on a Hermes home of the test's own: Hermes's
``AIAgent`` reads ``memory.provider`` from its ``config.yaml``, discovers the plugin in
``$HERMES_HOME/plugins/mnemic/`` and activates it through its own code path, then runs a
real conversation against a local OpenAI-compatible server (mnemic.testing's): the
model's requests show the recalled context and the tool's answer, and mnemic's session
store (read from mnemic's side) shows the recorded turn. No stand-in of Hermes.

The Hermes interpreter: ``MNEMIC_HERMES_PYTHON``, else ``.cache/hermes-venv/bin/python``
in the repository (``.ci/run`` makes it), else ``/tmp/hermes-venv/bin/python``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tests.e2e import run_here, run_mnemic

from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.store import NewMessage, NewSession
from mnemic.testing import FakeLLMServer, Reply, ToolCallReply

REPO = Path(__file__).resolve().parents[2]
INSTALL_HINT = (
    "Hermes Agent is not installed: python3 -m venv .cache/hermes-venv && "
    ".cache/hermes-venv/bin/pip install hermes-agent==0.19.0 (or set MNEMIC_HERMES_PYTHON "
    "to the python of a venv that has it)"
)


def _find_hermes_python() -> str | None:
    """Read at import: the conftest's isolation removes MNEMIC_* variables from tests."""
    for candidate in (
        os.environ.get("MNEMIC_HERMES_PYTHON"),
        str(REPO / ".cache" / "hermes-venv" / "bin" / "python"),
        "/tmp/hermes-venv/bin/python",
    ):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


HERMES_PYTHON = _find_hermes_python()
needs_hermes = pytest.mark.skipif(HERMES_PYTHON is None, reason=INSTALL_HINT)

# A config.yaml as a user has it: comments, another provider, settings around it.
USER_CONFIG = (
    "# Hermes settings (mine)\n"
    "model:\n"
    "  default: some/model   # the one I like\n"
    "  provider: auto\n"
    "memory:\n"
    "  memory_enabled: true\n"
    "  user_profile_enabled: true\n"
    "  provider: ''   # none yet\n"
    "\n"
    "terminal:\n"
    "  backend: local\n"
)

# Run in Hermes's interpreter: Hermes's own agent, its config, its plugin discovery.
DRIVER = r"""
import json, logging, sys
records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append(record.getMessage())
logging.getLogger().addHandler(Keep(level=logging.WARNING))
from run_agent import AIAgent
db = None
if len(sys.argv) > 3:  # keep the session in state.db, as Hermes's CLI does
    from hermes_state import SessionDB
    db = SessionDB()
agent = AIAgent(base_url=sys.argv[1], api_key="test", model="fake", quiet_mode=True,
                skip_context_files=True, enabled_toolsets=["memory"], platform="cli",
                max_iterations=4, session_db=db)
manager = agent._memory_manager
out = {
    "providers": [p.name for p in manager.providers] if manager else None,
    "session_id": agent.session_id,
    "tools": [t["function"]["name"] for t in agent.tools or []],
}
result = agent.run_conversation(sys.argv[2])
out["final"] = result.get("final_response")
agent.shutdown_memory_provider(result.get("messages"))
out["warnings"] = [r for r in records if "mnemic memory provider" in r]
if db is not None:
    db.close()
print(json.dumps(out))
"""

QUESTION = "What port does staging use for the database?"
FACT = "The staging database listens on port 6543 (pgbouncer)."


@pytest.fixture
def home(home_path: Path) -> Path:
    """mnemic's home of this test (``MNEMIC_HOME``)."""
    return home_path


def _respond(request: dict[str, Any]) -> Any:
    """The model: calls mnemic_session_search once, then answers; other calls (titles)
    get a short text."""
    names = [t["function"]["name"] for t in request.get("tools") or []]
    if any(m.get("role") == "tool" for m in request["messages"]):
        return "It is port 6543."
    if "mnemic_session_search" in names:
        args = {"query": "staging database port"}
        return Reply(tool_calls=[ToolCallReply("mnemic_session_search", args)])
    return "Staging database port"


def _plant(home: Path) -> None:
    """A fact in mnemic's history, from another agent (Claude Code)."""
    store = open_store(Home.open(home))
    try:
        store.start_session(NewSession(id="cc-1", source="claude-code"))
        store.append_messages(
            "cc-1",
            [
                NewMessage("user", "Which port does the staging database listen on?"),
                NewMessage("assistant", FACT),
            ],
        )
    finally:
        store.close()


def _hermes_home(tmp_path: Path, config: str | None = USER_CONFIG) -> Path:
    root = tmp_path / "hermes-home"
    root.mkdir()
    if config is not None:
        (root / "config.yaml").write_text(config, encoding="utf-8")
    return root


def _run_hermes(
    hermes_home: Path,
    server: FakeLLMServer,
    tmp_path: Path,
    question: str = QUESTION,
    *,
    state_db: bool = False,
) -> dict[str, Any]:
    """One conversation in the real Hermes, in an environment with no trace of mnemic:
    no MNEMIC_* variable, a PATH without mnemic's venv. ``state_db``: Hermes keeps the
    session in its ``state.db`` too."""
    assert HERMES_PYTHON is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMIC_")}
    env.update(HERMES_HOME=str(hermes_home), PATH="/usr/bin:/bin", HOME=str(tmp_path))
    done = subprocess.run(
        [HERMES_PYTHON, "-c", DRIVER, server.base_url, question, *(["db"] if state_db else [])],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _user_turns(server: FakeLLMServer) -> list[dict[str, Any]]:
    """The model requests of the conversation (those offering the provider's tools)."""
    return [
        r
        for r in server.requests
        if any(t["function"]["name"] == "mnemic_session_search" for t in r.get("tools") or [])
    ]


@pytest.mark.hermes
@needs_hermes
def test_hermes_activates_the_provider_and_recalls_syncs_and_searches_through_mnemic(
    home: Path, tmp_path: Path
) -> None:
    _plant(home)
    hermes_home = _hermes_home(tmp_path)
    installed = run_mnemic(home, "integrate", "hermes", "--hermes-home", str(hermes_home))
    assert installed.returncode == 0, installed.stderr

    with FakeLLMServer(_respond) as server:
        out = _run_hermes(hermes_home, server, tmp_path)
    assert out["providers"] == ["mnemic"]  # memory.provider of config.yaml, activated
    assert {"mnemic_session_search", "mnemic_archive_search"} <= set(out["tools"])
    assert out["final"] == "It is port 6543."
    assert out["warnings"] == []

    first, second = _user_turns(server)
    # prefetch: the planted fact recalled into the user's message, in Hermes's fence
    asked = first["messages"][-1]["content"]
    assert asked.startswith(QUESTION) and "<memory-context>" in asked
    assert FACT in asked and "session cc-1" in asked
    # the provider's tool: mnemic's session_search answered the model
    tool_answer = json.loads(next(m for m in second["messages"] if m["role"] == "tool")["content"])
    assert tool_answer["success"] is True
    assert tool_answer["results"][0]["session_id"] == "cc-1"

    # turn sync and session end, read from mnemic's side
    store = open_store(Home.open(home, create=False))
    try:
        info = store.get_session(out["session_id"])
        messages = [(m.role, m.content) for m in store.messages(out["session_id"])]
    finally:
        store.close()
    assert info.source == "hermes"
    assert messages == [("user", QUESTION), ("assistant", "It is port 6543.")]
    assert info.end_reason == "hermes:session_end"


@pytest.mark.hermes
@needs_hermes
@pytest.mark.parametrize("broken", ["mnemic uninstalled", "home missing"])
def test_a_mnemic_hermes_cannot_reach_leaves_hermes_working_and_says_why(
    home: Path, tmp_path: Path, broken: str
) -> None:
    _plant(home)
    hermes_home = _hermes_home(tmp_path)
    installed = run_mnemic(home, "integrate", "hermes", "--hermes-home", str(hermes_home))
    assert installed.returncode == 0, installed.stderr
    if broken == "mnemic uninstalled":
        settings_path = hermes_home / "plugins" / "mnemic" / "mnemic.json"
        settings = json.loads(settings_path.read_text())
        settings["command"][0] = str(tmp_path / "gone" / "mnemic")  # what uninstalling leaves
        settings_path.write_text(json.dumps(settings))
        why = "cannot start"
    else:
        home.rename(tmp_path / "moved-away")
        why = "No mnemic home at"

    with FakeLLMServer(_respond) as server:
        out = _run_hermes(hermes_home, server, tmp_path)
    assert out["providers"] == ["mnemic"]
    assert out["final"] == "It is port 6543."  # the conversation went on
    first, second = _user_turns(server)
    assert "<memory-context>" not in first["messages"][-1]["content"]  # empty recall
    tool_answer = json.loads(next(m for m in second["messages"] if m["role"] == "tool")["content"])
    assert tool_answer["success"] is False
    assert tool_answer["error_code"] == "mnemic_unavailable"
    assert out["warnings"], "no warning in Hermes's log"
    assert all(why in w for w in out["warnings"]), out["warnings"]
    # once per kind of problem, not once per hook call
    assert len(out["warnings"]) == len(set(out["warnings"])) == 1


@pytest.mark.hermes
@needs_hermes
def test_importing_the_hermes_home_after_the_provider_recorded_it_duplicates_nothing(
    home: Path, tmp_path: Path
) -> None:
    _plant(home)
    hermes_home = _hermes_home(tmp_path)
    installed = run_mnemic(home, "integrate", "hermes", "--hermes-home", str(hermes_home))
    assert installed.returncode == 0, installed.stderr
    with FakeLLMServer(_respond) as server:
        out = _run_hermes(hermes_home, server, tmp_path, state_db=True)
    sid = out["session_id"]

    reports = []
    for _ in range(2):  # a second import adds nothing
        imported = run_mnemic(home, "import", "hermes", str(hermes_home), "--json")
        assert imported.returncode == 0, imported.stderr
        reports.append(json.loads(imported.stdout)["sessions"])
    store = open_store(Home.open(home, create=False))
    try:
        messages = [(m.role, m.content or "") for m in store.messages(sid)]
    finally:
        store.close()
    # Hermes's own record of the session, in its order: the provider's turn once, and
    # the tool call and its result the provider did not record in their place
    db = sqlite3.connect(hermes_home / "state.db")
    try:
        hermes = db.execute(
            "SELECT role, coalesce(content, '') FROM messages WHERE session_id = ? "
            "ORDER BY timestamp, id",
            (sid,),
        ).fetchall()
    finally:
        db.close()
    assert [r for r, _ in hermes] == ["user", "assistant", "tool", "assistant"]
    assert messages == hermes
    assert [r["merged_recorded_sessions"] for r in reports] == [1, 0]
    assert reports[1]["messages"] == 0


OLD_FACT = "The office wifi password rotates every Monday."
NEW_FACT = "The office wifi password rotates on the first Monday of the month."
GONE_FACT = "The user's standup is at 09:30 Berlin time."
KEPT_FACT = "The user prefers short answers."
KEPT_NEW = "The user prefers short answers with one example."
ADDED_FACT = "Staging deploys need a change ticket."
MEMORY_CALLS: list[dict[str, Any]] = [
    {"action": "add", "target": "memory", "content": ADDED_FACT},
    {"action": "replace", "target": "memory", "old_text": "rotates every", "content": NEW_FACT},
    {  # Hermes's batch shape: one call, one commit, one mirrored write per operation
        "target": "user",
        "operations": [
            {"action": "remove", "old_text": "standup is at"},
            {"action": "replace", "old_text": "short answers", "content": KEPT_NEW},
        ],
    },
]


def _remember(request: dict[str, Any]) -> Any:
    """The model: Hermes's own memory tool (add, replace, a batch); then answers."""
    names = [t["function"]["name"] for t in request.get("tools") or []]
    if "memory" not in names:
        return "Memory notes"
    done = sum(1 for m in request["messages"] if m.get("role") == "tool")
    if done < len(MEMORY_CALLS):
        return Reply(tool_calls=[ToolCallReply("memory", MEMORY_CALLS[done])])
    return "Noted."


@pytest.mark.hermes
@needs_hermes
def test_hermes_memory_tool_writes_reach_mnemic_audit_and_archive(
    home: Path, tmp_path: Path
) -> None:
    assert run_mnemic(home, "init").returncode == 0
    hermes_home = _hermes_home(tmp_path)
    memories = hermes_home / "memories"  # what Hermes remembered before mnemic came
    memories.mkdir()
    (memories / "MEMORY.md").write_text(OLD_FACT, encoding="utf-8")
    (memories / "USER.md").write_text(f"{KEPT_FACT}\n§\n{GONE_FACT}", encoding="utf-8")
    installed = run_mnemic(home, "integrate", "hermes", "--hermes-home", str(hermes_home))
    assert installed.returncode == 0, installed.stderr

    with FakeLLMServer(_remember) as server:
        out = _run_hermes(hermes_home, server, tmp_path, "Remember the wifi rule.")
    assert out["final"] == "Noted." and out["warnings"] == []
    # Hermes's own files hold Hermes's writes, as Hermes made them
    assert (memories / "MEMORY.md").read_text(encoding="utf-8") == f"{NEW_FACT}\n§\n{ADDED_FACT}"
    assert (memories / "USER.md").read_text(encoding="utf-8") == KEPT_NEW

    memory = Memory.open(Home.open(home, create=False))
    assert memory.journal is not None
    mirrored = [r for r in memory.journal.records() if r.get("subsystem") == "hermes"]
    assert [(r["action"], r["target"]) for r in mirrored] == [
        ("add", "memory"),
        ("replace", "memory"),
        ("remove", "user"),
        ("replace", "user"),
    ]
    assert {(r["origin"], r["session"], r["decision"]) for r in mirrored} == {
        ("hermes", out["session_id"], "mirror")
    }
    sha = lambda t: hashlib.sha256(t.encode()).hexdigest()  # noqa: E731
    assert [(r.get("content_sha256"), r.get("old_sha256")) for r in mirrored] == [
        (sha(ADDED_FACT), None),
        (sha(NEW_FACT), sha(OLD_FACT)),
        (None, sha(GONE_FACT)),
        (sha(KEPT_NEW), sha(KEPT_FACT)),
    ]
    assert all(OLD_FACT not in json.dumps(r) for r in mirrored)  # hashes, never the text
    # what Hermes let go is in mnemic's archive, written by hermes; nothing became live
    gone = {(a.target, a.text, a.reason, a.by[1]) for a in archive.listing(memory)}
    assert gone == {
        ("memory", OLD_FACT, "replaced", "hermes"),
        ("user", GONE_FACT, "removed", "hermes"),
        ("user", KEPT_FACT, "replaced", "hermes"),
    }
    assert memory.entries("memory") == [] and memory.entries("user") == []


# --- the install itself (no Hermes needed) ----------------------------------------------------


def _integrate(
    home: Path, hermes_home: Path, *args: str, process: bool = False
) -> subprocess.CompletedProcess[str]:
    """``mnemic integrate hermes``: in this process (:func:`run_here`: the files it writes
    are what is checked), or with ``process`` in a process of its own."""
    run = run_mnemic if process else run_here
    return run(home, "integrate", "hermes", "--hermes-home", str(hermes_home), *args)


def test_install_sets_the_provider_line_only_and_twice_changes_nothing(
    home: Path, tmp_path: Path
) -> None:
    hermes_home = _hermes_home(tmp_path)
    assert _integrate(home, hermes_home, process=True).returncode == 0
    config = hermes_home / "config.yaml"
    assert config.read_text() == USER_CONFIG.replace(
        "  provider: ''   # none yet\n", "  provider: mnemic\n"
    )
    plugin = hermes_home / "plugins" / "mnemic"
    settings = json.loads((plugin / "mnemic.json").read_text())
    assert settings["command"][-2:] == ["hook", "hermes"]
    assert os.path.isabs(settings["command"][0])
    assert settings["command"][1:5] == ["--home", str(home), "--profile", "default"]
    stamps = {p.name: p.stat().st_mtime_ns for p in [config, *plugin.iterdir()]}

    again = _integrate(home, hermes_home)
    assert again.returncode == 0 and "already installed" in again.stdout
    assert {p.name: p.stat().st_mtime_ns for p in [config, *plugin.iterdir()]} == stamps


@pytest.mark.parametrize(
    "original",
    [
        USER_CONFIG,
        "model: x\r\nmemory:\r\n    provider: honcho\r\n    nudge_interval: 5\r\n",  # CRLF, 4
        "model:\n  default: x\n",  # no memory section: one is added
        "",  # empty file
    ],
    ids=["comments", "crlf", "no-memory", "empty"],
)
def test_remove_gives_config_yaml_back_byte_for_byte(
    home: Path, tmp_path: Path, original: str
) -> None:
    hermes_home = _hermes_home(tmp_path, None)
    config = hermes_home / "config.yaml"
    config.write_bytes(original.encode())
    assert _integrate(home, hermes_home).returncode == 0
    assert config.read_bytes() != original.encode()

    removed = _integrate(home, hermes_home, "--remove")
    assert removed.returncode == 0, removed.stderr
    assert config.read_bytes() == original.encode()
    assert [p.name for p in hermes_home.iterdir()] == ["config.yaml"]


def test_remove_after_the_user_edited_config_yaml_reverts_the_provider_line_only(
    home: Path, tmp_path: Path
) -> None:
    hermes_home = _hermes_home(tmp_path, "memory:\n  provider: honcho\n")
    assert _integrate(home, hermes_home).returncode == 0
    config = hermes_home / "config.yaml"
    config.write_text(config.read_text() + "display:\n  skin: mono\n")

    assert _integrate(home, hermes_home, "--remove").returncode == 0
    assert config.read_text() == "memory:\n  provider: honcho\ndisplay:\n  skin: mono\n"


def test_remove_leaves_files_it_did_not_write(home: Path, tmp_path: Path) -> None:
    hermes_home = _hermes_home(tmp_path)
    assert _integrate(home, hermes_home).returncode == 0
    mine = hermes_home / "plugins" / "mnemic" / "notes.txt"
    mine.write_text("mine")
    assert _integrate(home, hermes_home, "--remove").returncode == 0
    assert [p.name for p in mine.parent.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("memory:\n  provider: [mnemic\n", "is not valid YAML (line 3)"),
        ("- a list\n", "holds a YAML list, not a mapping"),
        ("memory: on\n", '"memory" is a bool, not a mapping'),
        ("memory:\n  provider: 3\n", '"memory.provider" is not a string'),
        ("memory: {provider: honcho}\n", "could not be changed safely"),
    ],
)
def test_a_config_yaml_that_cannot_be_edited_safely_is_refused_untouched(
    home: Path, tmp_path: Path, text: str, problem: str
) -> None:
    hermes_home = _hermes_home(tmp_path, text)
    done = _integrate(home, hermes_home)
    assert done.returncode == 1
    assert problem in done.stderr and "Nothing was changed" in done.stderr
    assert (hermes_home / "config.yaml").read_text() == text
    assert not (hermes_home / "plugins").exists()


def test_a_missing_hermes_home_is_a_clear_error(home: Path, tmp_path: Path) -> None:
    done = _integrate(home, tmp_path / "no-hermes")
    assert done.returncode == 1
    assert "is not a Hermes home (no such directory)" in done.stderr
    assert "--hermes-home" in done.stderr
    assert not (tmp_path / "no-hermes").exists()


def test_a_plugin_folder_mnemic_did_not_write_is_refused(home: Path, tmp_path: Path) -> None:
    hermes_home = _hermes_home(tmp_path)
    other = hermes_home / "plugins" / "mnemic"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("# someone else's provider\n")
    done = _integrate(home, hermes_home)
    assert done.returncode == 1 and "did not install" in done.stderr
    assert (other / "__init__.py").read_text() == "# someone else's provider\n"
    assert (hermes_home / "config.yaml").read_text() == USER_CONFIG


def test_dry_run_writes_nothing(home: Path, tmp_path: Path) -> None:
    hermes_home = _hermes_home(tmp_path)
    done = _integrate(home, hermes_home, "--dry-run", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["config"] == "updated" and report["changed"] is True
    assert (hermes_home / "config.yaml").read_text() == USER_CONFIG
    assert not (hermes_home / "plugins").exists()


def test_a_missing_config_yaml_is_created_and_removed_again(home: Path, tmp_path: Path) -> None:
    hermes_home = _hermes_home(tmp_path, None)
    assert _integrate(home, hermes_home).returncode == 0
    assert (hermes_home / "config.yaml").read_text() == "memory:\n  provider: mnemic\n"
    assert _integrate(home, hermes_home, "--remove").returncode == 0
    assert list(hermes_home.iterdir()) == []


def test_a_config_yaml_that_is_not_utf8_is_refused_untouched(home: Path, tmp_path: Path) -> None:
    hermes_home = _hermes_home(tmp_path, None)
    (hermes_home / "config.yaml").write_bytes(b"memory:\n  provider: \xff\n")
    done = _integrate(home, hermes_home)
    assert done.returncode == 1 and "is not UTF-8 text (byte 20)" in done.stderr
    assert (hermes_home / "config.yaml").read_bytes() == b"memory:\n  provider: \xff\n"
