"""Usage: in how many sessions each memory entry mattered, counted from the history.

Behaviour on both backends (``backend``: the memory and the session history on files and
SQLite, and on a throwaway PostgreSQL server). The counts are a sidecar cache of the
home (``cache/entry-usage.json``), read back through the library.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import Result
from tests.e2e import run_mnemic

from _backends import Kit
from _cli import cli
from mnemic.agent import AgentSession
from mnemic.curated.memory import Memory
from mnemic.curated.provenance import entry_key
from mnemic.curated.scope import open_project
from mnemic.curated.usage_log import read_counts, usage_path
from mnemic.home import Home
from mnemic.ops.entry_usage import count_usage, distinctive_terms
from mnemic.sessions import open_store
from mnemic.sessions.store import NewMessage, NewSession
from mnemic.timefmt import local_day
from test_ui import client_for

T0 = 1_700_000_000.0
PORT = "The staging database listens on port 6543, not 5432."
CI = "Deploys go through the Jenkins pipeline named ci-eu-west."


def _home(backend: Kit) -> Path:
    home = backend.write_config()
    mem = Memory.open(home, origin="agent", session_id="w", clock=lambda: T0)
    mem.add("memory", PORT)
    mem.add("memory", CI)
    return home


def _session(home: Path, messages: list[NewMessage], sid: str | None = None) -> str:
    with open_store(Home.open(home)) as store:
        if sid is None:
            sid = store.start_session(NewSession(source="test"))
        store.append_messages(sid, messages)
    return sid


def _count(home: Path) -> None:
    with open_store(Home.open(home)) as store:
        assert count_usage(Home.open(home), store).written


def _cli(home: Path, *args: str) -> Result:
    """``mnemic ARGS`` on ``home`` in this process (click's runner): the commands' own
    process boundary is tests/e2e's; here, what they count and show (an interpreter a
    call was most of these tests' time, session 50). The hook keeps its real process.
    The imports here pass ``--no-embed``: usage is counted before the first share is
    embedded, which would load the embedder into this process."""
    return cli(*args, env={"MNEMIC_HOME": str(home), "COLUMNS": "160"})


def _uses(home: Path, entry: str) -> tuple[int, float | None]:
    use = read_counts(home).of(entry_key(entry))
    return use.uses, use.last_used


def test_an_entry_matters_when_a_message_holds_its_distinctive_terms(backend: Kit) -> None:
    home = _home(backend)
    sid = _session(
        home,
        [
            NewMessage("user", "Jenkins pipeline ci-eu-west is down again", timestamp=T0 - 60),
            NewMessage("user", "which port does the staging database use?", timestamp=T0 + 10),
            NewMessage("tool", CI, tool_name="memory", timestamp=T0 + 20),
            NewMessage("assistant", "It is the usual one.", timestamp=T0 + 30),
        ],
    )
    _count(home)
    # the first message was written before the entry existed, the tool result is an echo
    assert _uses(home, PORT) == (1, T0 + 10)
    assert _uses(home, CI) == (0, None)
    _count(home)  # counting again adds nothing
    _session(home, [NewMessage("assistant", "Port 6543 on staging.", timestamp=T0 + 40)], sid)
    _count(home)
    assert _uses(home, PORT) == (1, T0 + 40)  # once per session, however often it matched
    _session(home, [NewMessage("user", "the ci-eu-west Jenkins pipeline", timestamp=T0 + 50)])
    _session(home, [NewMessage("user", "staging database port?", timestamp=T0 + 60)])
    _count(home)
    assert _uses(home, PORT) == (2, T0 + 60)
    assert _uses(home, CI) == (1, T0 + 50)


def test_the_counts_are_a_cache_rebuilt_when_deleted_and_read_as_none_when_damaged(
    backend: Kit,
) -> None:
    home = _home(backend)
    _session(home, [NewMessage("user", "staging database port?", timestamp=T0 + 10)])
    _count(home)
    path = usage_path(home)
    first = json.loads(path.read_text())
    path.write_text("{not json")
    assert not read_counts(home).counted  # damaged: nothing counted, never an error
    path.unlink()
    _count(home)
    assert json.loads(path.read_text()) == first


def test_words_every_entry_shares_are_not_distinctive() -> None:
    entries = [f"The build host {n} runs Debian with the nightly {w} job." for n, w in
               [("alpha", "backup"), ("bravo", "report"), ("charlie", "vacuum"),
                ("delta", "rotate")]]  # fmt: skip
    terms = distinctive_terms(entries)
    assert terms[0] == {"alpha", "backup"}
    assert all("debian" not in t and "the" not in t for t in terms)


def test_a_session_that_ends_is_counted_and_memory_show_long_says_so(backend: Kit) -> None:
    home = _home(backend)
    session = AgentSession.open(home, provider=None, cwd=home)
    session.begin_turn("Which port does the staging database listen on?")
    session.add_assistant("Port 6543.")
    session.end_turn()
    session.close()
    assert _uses(home, PORT)[0] == 1
    shown = _cli(home, "memory", "show", "--long")
    assert shown.exit_code == 0, shown.stderr
    assert f"last confirmed {local_day(T0)}; mattered in 1 session, last " in shown.stdout
    assert "mattered in no counted session" in shown.stdout
    data = json.loads(_cli(home, "memory", "show", "--long", "--json").stdout)
    assert [u["uses"] for u in data["memory"]["use"]] == [1, 0]
    page = client_for(home).get("/memory").text
    assert f"last confirmed {local_day(T0)}; mattered in 1 session, last " in page


def test_sessions_import_counts_what_it_imported(backend: Kit, tmp_path: Path) -> None:
    home = _home(backend)
    shown = _cli(home, "memory", "show", "--long")
    assert "usage not counted yet" in shown.stdout
    lines = [
        {"session_id": "imp", "role": "user", "content": "Jenkins ci-eu-west pipeline?"},
        {"session_id": "imp", "role": "assistant", "content": "It deploys everything."},
    ]
    path = tmp_path / "talk.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = _cli(home, "sessions", "import", str(path), "--format", "jsonl", "--no-embed")
    assert done.exit_code == 0, done.stderr
    assert _uses(home, CI)[0] == 1 and _uses(home, PORT)[0] == 0


def test_the_claude_code_hook_counts_the_session_it_imported(backend: Kit) -> None:
    home = _home(backend)
    fixtures = "Prefers fixtures over module globals in tests."
    Memory.open(home, origin="agent", session_id="w", clock=lambda: T0).add("memory", fixtures)
    fixture = Path(__file__).resolve().parent / "fixtures" / "claude_code_transcript.jsonl"
    payload = {
        "session_id": "3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e1c55",
        "transcript_path": str(fixture),
        "hook_event_name": "SessionEnd",
    }
    done = run_mnemic(home, "hook", "claude-code", stdin=json.dumps(payload))
    assert done.returncode == 0 and "new message(s)" in done.stdout, done.stderr
    assert _uses(home, fixtures)[0] == 1
    assert _uses(home, PORT)[0] == 0


def test_sessions_import_with_a_project_counts_the_projects_entries_too(tmp_path: Path) -> None:
    """A project's store keeps its own counts; an import for that project counts them
    (before, only the global store's entries were counted)."""
    home = tmp_path / "home"
    repo = tmp_path / "repo"
    repo.mkdir()
    assert _cli(home, "memory", "add", CI).exit_code == 0
    added = _cli(home, "--project", str(repo), "memory", "add", PORT)
    assert added.exit_code == 0, added.stderr
    lines = [
        {"session_id": "imp", "role": "user", "content": "Is staging on port 6543 now?"},
        {"session_id": "imp", "role": "user", "content": "And ci-eu-west for Jenkins?"},
    ]
    path = tmp_path / "talk.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = _cli(home, "sessions", "import", str(path), "--format", "jsonl",
                "--project", str(repo), "--no-embed")  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert _uses(home, CI)[0] == 1
    store = open_project(Home.open(home), repo, create=False)
    assert read_counts(store.root).of(entry_key(PORT)).uses == 1
    shown = _cli(home, "--project", str(repo), "memory", "show", "--long")
    assert "mattered in 1 session" in shown.stdout
