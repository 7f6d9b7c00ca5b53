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
