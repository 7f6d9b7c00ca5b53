"""``mnemic chat``, ``mnemic prompt`` and ``mnemic provider``, run as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

from mnemic.testing import Fail, FakeAnthropicServer, FakeLLMServer, Reply, ToolCallReply
from mnemic.testing.anthropic_server import breakpoints

from . import run_here, run_mnemic


def test_chat_session_with_tools_and_slash_commands(home_path: Path) -> None:
    replies = [
        Reply(tool_calls=[ToolCallReply("memory", {"action": "add", "target": "user",
                                                   "content": "Drinks green tea."})]),
        "Noted: green tea.",
        Reply(tool_calls=[ToolCallReply("memory", "{broken json")]),
        "That did not work, sorry.",
        "Fresh start.",
    ]  # fmt: skip
    script = (
        "I drink green tea\n/memory\nsave this {\n/search green tea\n/skills\n/new\nhi\n/quit\n"
    )
    with FakeLLMServer(replies) as server:
        r = run_mnemic(
            home_path, "chat", "--base-url", server.base_url, "--model", "m", stdin=script
        )
    assert r.returncode == 0, r.stderr
    out, err = r.stdout, r.stderr
    assert "Noted: green tea." in out and "That did not work, sorry." in out
    assert "• Drinks green tea." in out  # /memory shows the live entry
    assert "No skills yet." in out and "New session" in out and "Fresh start." in out
    assert "memory → ok" in err and "refused (invalid_argument)" in err
    # /new started a new prompt that contains the write
    last_system = server.requests[-1]["messages"][0]["content"]
    assert "Drinks green tea." in last_system
    assert "Drinks green tea." not in server.requests[0]["messages"][0]["content"]


def test_chat_over_the_anthropic_messages_api_with_a_memory_tool_and_cache_report(
    home_path: Path,
) -> None:
    save = {"action": "add", "target": "user", "content": "Drinks green tea."}
    replies = [Reply(tool_calls=[ToolCallReply("memory", save)]), "Noted: green tea.", "Tea."]
    with FakeAnthropicServer(replies, api_key="sk-ant-e2e") as server:
        r = run_here(
            home_path,
            "chat",
            "--api",
            "anthropic",
            "--base-url",
            server.base_url,
            "--model",
            "claude-test",
            "--show-cache",
            stdin="I drink green tea\nWhat do I drink?\n/memory\n/quit\n",
            env={"ANTHROPIC_API_KEY": "sk-ant-e2e"},
        )
    assert r.returncode == 0, r.stderr
    assert "Noted: green tea." in r.stdout and "Tea." in r.stdout
    assert "• Drinks green tea." in r.stdout and "memory → ok" in r.stderr
    assert len(server.requests) == 3 and all(q["stream"] for q in server.requests)
    assert {bp for q in server.requests for bp in breakpoints(q)} == {"tools[4]", "system[0]"}
    assert len(set(server.prefixes)) == 1  # the same cached bytes on every request
    # --show-cache: the first call wrote the prefix to the cache, the next ones read it
    lines = [ln for ln in r.stderr.splitlines() if "cache, call" in ln]
    assert len(lines) == 3 and ", 0 read from the cache" in lines[0]
    assert all(", 0 read" not in ln and ", 0 written" in ln for ln in lines[1:])


def test_chat_api_from_config_and_a_bad_api_value(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    config = home_path / "config.toml"
    with FakeAnthropicServer(["From config."]) as server:
        config.write_text(f'[llm]\napi = "anthropic"\nbase_url = "{server.base_url}"\n')
        r = run_here(home_path, "chat", stdin="hi\n")
        assert r.returncode == 2 and "pass --model" in r.stderr and "--base-url" not in r.stderr
        r = run_here(home_path, "chat", "--model", "m", stdin="hi\n")
    assert r.returncode == 0 and "From config." in r.stdout, r.stderr
    config.write_text('[llm]\napi = "claude"\n')
    r = run_here(home_path, "chat", "--model", "m", stdin="hi\n")
    assert r.returncode == 2 and "llm.api" in r.stderr and "openai, anthropic" in r.stderr
    assert "Traceback" not in r.stderr


def test_chat_without_an_endpoint_is_a_usage_error(home_path: Path) -> None:
    r = run_here(home_path, "chat", stdin="")
    assert r.returncode == 2 and "--base-url" in r.stderr


def _sessions(home: Path) -> list[dict[str, object]]:
    r = run_here(home, "sessions", "list", "--json")
    assert r.returncode == 0, r.stderr
    return list(json.loads(r.stdout))


def test_chat_whose_endpoint_fails_exits_1_and_keeps_no_session(home_path: Path) -> None:
    with FakeLLMServer() as server:
        url = server.base_url  # closed on leaving the block: nothing listens there now
    script = "hello\nstill there?\n/quit\n"
    r = run_here(home_path, "chat", "--base-url", url, "--model", "m", stdin=script)
    assert r.returncode == 1 and r.stderr.count("model could not answer") == 2, r.stderr
    assert "endpoint failed on 2 turn(s)" in r.stderr and "No session was kept" in r.stderr
    assert "Traceback" not in r.stderr
    assert _sessions(home_path) == []


def test_chat_that_says_nothing_keeps_no_session(home_path: Path) -> None:
    with FakeLLMServer(["unused"]) as server:
        for script in ("", "/new\n/quit\n"):
            r = run_here(
                home_path, "chat", "--base-url", server.base_url, "--model", "m", stdin=script
            )
            assert r.returncode == 0, r.stderr
        assert server.requests == []
    assert _sessions(home_path) == []


def test_a_failed_turn_before_an_answer_exits_1_and_keeps_the_conversation(
    home_path: Path,
) -> None:
    with FakeLLMServer([Fail(400, "bad request (scripted)"), "Hello again."]) as server:
        r = run_here(
            home_path,
            "chat",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            stdin="hello\nhello?\n",
        )
    assert r.returncode == 1 and "endpoint failed on 1 turn(s)" in r.stderr, r.stderr
    assert "Hello again." in r.stdout and "No session was kept" not in r.stderr
    (kept,) = _sessions(home_path)
    assert kept["message_count"] == 4  # both of the user's lines, the note and the answer


def test_prompt_shows_layers(home_path: Path) -> None:
    r = run_here(home_path, "memory", "add", "--target", "user", "Name: Ada.")
    assert r.returncode == 0, r.stderr
    r = run_here(home_path, "prompt", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    names = [la["name"] for la in data["layers"]]
    assert names[:3] == ["identity", "tool_guidance", "provider"] and names[-1] == "session"
    assert "Name: Ada." in data["text"] and data["chars"] == len(data["text"])
    assert data["tools"][0] == "memory" and data["provider"] is None
    r = run_here(home_path, "prompt")
    assert r.returncode == 0 and "System prompt of a new session" in r.stdout
    assert "Name: Ada." in r.stdout


def test_provider_use_keeps_comments_and_off(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    config = home_path / "config.toml"
    config.write_text("# my settings\n[memory]\nmemory_char_limit = 3000  # roomy\n")
    r = run_here(home_path, "provider", "list", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["providers"][0]["name"] == "recall"
    r = run_here(home_path, "provider", "use", "recall")
    assert r.returncode == 0, r.stderr
    text = config.read_text()
    assert "# my settings" in text and "memory_char_limit = 3000  # roomy" in text
    assert 'provider = "recall"' in text
    r = run_here(home_path, "provider", "status", "--json")
    data = json.loads(r.stdout)
    assert data["provider"] == "recall" and data["active"] is True
    r = run_here(home_path, "prompt", "--json")
    assert json.loads(r.stdout)["provider"] == "recall"
    r = run_here(home_path, "provider", "use", "nope")
    assert r.returncode == 1 and "recall" in r.stderr
    r = run_here(home_path, "provider", "off")
    assert r.returncode == 0 and 'provider = ""' in config.read_text()
    assert "# my settings" in config.read_text()
    r = run_here(home_path, "provider", "status")
    assert "No memory provider is active" in r.stdout


def test_provider_use_refused_by_an_invalid_setting_names_the_real_file_and_keeps_it(
    home_path: Path,
) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    config = home_path / "config.toml"
    before = "# mine\n[agent]\nrecall_results = 0  # out of range\n"
    config.write_text(before)
    for args in (("provider", "use", "recall"), ("provider", "off")):
        r = run_here(home_path, *args)
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith(f"mnemic: {config}: agent.recall_results: "), r.stderr
        assert "not changed" in r.stderr and "Traceback" not in r.stderr
        assert config.read_text() == before


def test_chat_sends_a_claimed_save_back_once_and_says_so(home_path: Path) -> None:
    save = {"action": "add", "target": "user", "content": "Cat: Miso."}
    replies = ["Got it, I'll remember that.", Reply(tool_calls=[ToolCallReply("memory", save)]),
               "Saved: your cat is Miso."]  # fmt: skip
    with FakeLLMServer(replies) as server:
        r = run_here(
            home_path, "chat", "--base-url", server.base_url, "--model", "m",
            stdin="My cat is called Miso\n/quit\n",
        )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "memory check: that answer claims a save this turn never made" in r.stderr
    assert "Got it, I'll remember that.\nSaved: your cat is Miso." in r.stdout
    assert "memory → ok" in r.stderr
    assert server.requests[1]["messages"][-1]["content"].startswith("[mnemic: memory check]")
