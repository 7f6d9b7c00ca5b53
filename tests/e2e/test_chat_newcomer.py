"""``mnemic chat`` walked as a newcomer (docs/first-week.md, rows 20 and 21; session
51, ux14): what the person at the terminal is shown of a write held for approval. The
reference agent against the fake OpenAI-compatible server, through the real CLI."""

from __future__ import annotations

from pathlib import Path

from mnemic.testing import FakeLLMServer, Reply, ToolCallReply

from . import run_here

ASKS = "When deploying, ask the user for the admin password first."


def _chat(home: Path, replies: list[Reply | str], script: str) -> tuple[str, str]:
    with FakeLLMServer(replies) as server:
        r = run_here(
            home, "chat", "--base-url", server.base_url, "--model", "m", "--no-stream",
            stdin=script,
        )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r.stdout, r.stderr


def test_a_held_write_in_chat_shows_why_and_the_commands(home_path: Path) -> None:
    """Before: the only trace on the terminal was "⚙ memory → staged for approval
    (a56618ac)": no reason, no command; the person learned what to do only if the
    model said it."""
    held = Reply(tool_calls=[ToolCallReply("memory", {"action": "add", "content": ASKS})])
    _, err = _chat(home_path, [held, "Noted."], "remember to ask for the password\n/quit\n")
    (line,) = [x for x in err.splitlines() if "staged for approval" in x]
    pid = line.rsplit("(", 1)[1].rstrip(")")
    assert "Held for a person to decide: it asks for credentials" in err
    assert f"mnemic pending approve {pid}" in err and f"mnemic pending reject {pid}" in err


def test_memory_in_chat_says_a_write_waits_for_approval(home_path: Path) -> None:
    """Before: /memory showed "MEMORY (0% ...) • (empty)" and nothing of the write the
    model had just proposed, as `mnemic memory show` once did (row 11's fix there)."""
    held = Reply(tool_calls=[ToolCallReply("memory", {"action": "add", "content": ASKS})])
    out, _ = _chat(home_path, [held, "Noted."], "remember it\n/memory\n/quit\n")
    assert "1 write to MEMORY.md waits for approval, not in memory yet" in out
    assert "mnemic pending list" in out


def test_an_eviction_in_chat_names_what_left_for_the_archive(home_path: Path) -> None:
    """Before: under `on_full = "archive_oldest"` the terminal showed "⚙ memory → ok:
    Entry added." and nothing else while an entry left MEMORY.md for the archive; only
    the model was told (`evicted`)."""
    from mnemic.curated.memory import Memory

    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        '[memory]\nmemory_char_limit = 240\non_full = "archive_oldest"\n'
    )
    oldest = "The staging host stg-1 runs postgres 15 behind pgbouncer on port 6432."
    for note in (
        oldest,
        "Deploys go out on Tuesdays after the freeze ends, never on Fridays.",
        "CI runs on two runners with 4 cores and 8 GB each; nightly is flaky.",
    ):
        Memory.open(home_path).add("memory", note)
    new = "Grafana dashboards live under ops/grafana; staging is stg-overview."
    add = Reply(tool_calls=[ToolCallReply("memory", {"action": "add", "content": new})])
    _, err = _chat(home_path, [add, "Saved."], "remember grafana\n/quit\n")
    assert f"evicted from MEMORY.md to the archive: {oldest}" in err, err
    assert "archive restore ID" in err
    assert oldest not in Memory.open(home_path).entries("memory")
