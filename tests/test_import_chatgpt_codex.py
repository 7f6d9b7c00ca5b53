"""``mnemic import chatgpt`` and ``mnemic import codex``: another assistant's history
into sessions, ChatGPT's saved memories into the approval queue.

The inputs are built in each test from the formats' documentation: ChatGPT's data
export ``conversations.json`` (a list of conversations, each a ``mapping`` of node id to
``{message, parent, children}`` with a ``current_node``), and Codex CLI's
``sessions/YYYY/MM/DD/rollout-*.jsonl`` (``{timestamp, type, payload}`` records:
``session_meta``, ``turn_context``, ``response_item``, ``event_msg``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.errors import ImportFailed, IntegrationError
from mnemic.home import Home
from mnemic.integrations.chat_exports import CHATGPT_ORIGIN, import_chatgpt, import_codex
from mnemic.integrations.hermes_import.memory import source_of
from mnemic.ops.review import PendingQueue
from mnemic.sessions import import_path, open_store, run_session_search

T0 = 1_767_000_000.0


def _node(
    nid: str,
    parent: str | None,
    children: list[str],
    role: str | None = None,
    text: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    message = None
    if role is not None:
        content = extra.pop("content", {"content_type": "text", "parts": [text or ""]})
        message = {
            "id": nid,
            "author": {"role": role, "name": extra.pop("name", None), "metadata": {}},
            "create_time": extra.pop("create_time", None),
            "update_time": None,
            "content": content,
            "status": "finished_successfully",
            "end_turn": True,
            "weight": 1.0,
            "metadata": extra.pop("metadata", {}),
            "recipient": extra.pop("recipient", "all"),
        }
    return {"id": nid, "message": message, "parent": parent, "children": children}


def _conversations() -> list[dict[str, Any]]:
    """Two conversations: one with an edited question (two branches; the user saw the
    second), hidden context and a tool call; one plain."""
    mapping = {
        "root": _node("root", None, ["sys"]),
        "sys": _node("sys", "root", ["ctx"], "system", ""),
        "ctx": _node(
            "ctx",
            "sys",
            ["q1", "q1b"],
            "user",
            content={"content_type": "user_editable_context", "user_profile": "I am Ada"},
        ),
        "q1": _node("q1", "ctx", ["a1"], "user", "How tall is Mont Blanc?", create_time=T0),
        "a1": _node("a1", "q1", [], "assistant", "About 4,800 m.", create_time=T0 + 5),
        "q1b": _node(
            "q1b", "ctx", ["call"], "user", "How tall is K2 in feet?", create_time=T0 + 60
        ),
        "call": _node(
            "call",
            "q1b",
            ["out"],
            "assistant",
            recipient="python",
            content={"content_type": "code", "language": "python", "text": "8611 * 3.28084"},
            create_time=T0 + 61,
        ),
        "out": _node(
            "out",
            "call",
            ["a1b"],
            "tool",
            name="python",
            content={"content_type": "execution_output", "text": "28251.3"},
            create_time=T0 + 62,
        ),
        "a1b": _node(
            "a1b",
            "out",
            [],
            "assistant",
            content={
                "content_type": "multimodal_text",
                "parts": [
                    "About 28,251 ft.",
                    {"content_type": "image_asset_pointer", "asset_pointer": "file-service://x"},
                ],
            },
            create_time=T0 + 63,
        ),
        "hidden": _node(
            "hidden",
            "a1b",
            [],
            "assistant",
            "a note ChatGPT hides",
            metadata={"is_visually_hidden_from_conversation": True},
        ),
    }
    mapping["a1b"]["children"] = ["hidden"]
    first = {
        "title": "Mountain heights",
        "create_time": T0,
        "update_time": T0 + 63,
        "mapping": mapping,
        "current_node": "hidden",
        "conversation_id": "conv-1",
        "id": "conv-1",
        "default_model_slug": "gpt-4o",
    }
    second = {
        "title": "Greeting",
        "create_time": T0 + 3600,
        "mapping": {
            "r": _node("r", None, ["u"]),
            "u": _node("u", "r", ["a"], "user", "Hello!", create_time=T0 + 3600),
            "a": _node("a", "u", [], "assistant", "Hi, how can I help?", create_time=T0 + 3601),
        },
        "current_node": "a",
        "id": "conv-2",
    }
    return [first, second]


def _export(tmp_path: Path) -> Path:
    folder = tmp_path / "chatgpt-export"
    folder.mkdir(exist_ok=True)
    path = folder / "conversations.json"
    path.write_text(json.dumps(_conversations()), encoding="utf-8")
    return path


MISSING = "it is not in the export folder"


def test_chatgpt_conversations_become_sessions_of_the_branch_the_user_saw(
    tmp_path: Path,
) -> None:
    home = Home.open(tmp_path / "mnemic")
    report = import_chatgpt(home, _export(tmp_path).parent).to_dict()
    assert report["sessions"]["sessions"] == 2
    with open_store(home) as store:
        first = store.get_session("conv-1")
        assert (first.source, first.title, first.model, first.started_at) == (
            "chatgpt",
            "Mountain heights",
            "gpt-4o",
            T0,
        )
        msgs = store.messages("conv-1")
        assert [(m.role, m.content) for m in msgs] == [
            ("user", "How tall is K2 in feet?"),
            ("assistant", ""),
            ("tool", "28251.3"),
            ("assistant", f"About 28,251 ft.\n[image: x — not kept: {MISSING}]"),
        ]
        assert msgs[1].tool_calls[0]["function"] == {
            "name": "python",
            "arguments": "8611 * 3.28084",
        }
        assert msgs[2].tool_name == "python"
        assert [m.timestamp for m in msgs] == [T0 + 60, T0 + 61, T0 + 62, T0 + 63]
        assert [m.content for m in store.messages("conv-2")] == ["Hello!", "Hi, how can I help?"]
    reasons = {s["reason"] for s in report["sessions"]["skipped"]}
    assert reasons == {
        "system message",
        "message ChatGPT does not show (context, reasoning)",
        "attachment not kept",  # the image's file is not in this export's folder
    }
    again = import_chatgpt(home, _export(tmp_path)).to_dict()
    assert (again["sessions"]["sessions"], again["sessions"]["messages"]) == (0, 0)


def test_a_cut_short_chatgpt_export_stops_before_anything_is_written(tmp_path: Path) -> None:
    path = _export(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 300])
    home = Home.open(tmp_path / "mnemic")
    with pytest.raises(ImportFailed, match="damaged or cut short") as caught:
        import_chatgpt(home, path)
    assert str(path) in str(caught.value)
    with open_store(home) as store:
        assert store.list_sessions() == []


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ('{"conversations": []}', "expected a JSON array"),
        ('[{"title": "x", "messages": []}]', "without a 'mapping'"),
        ('["just text"]', "not a JSON object"),
    ],
    ids=["object", "foreign-schema", "not-objects"],
)
def test_a_file_that_is_not_a_chatgpt_export_is_named(
    tmp_path: Path, body: str, match: str
) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ImportFailed, match=match):
        import_chatgpt(Home.open(tmp_path / "mnemic"), path)


def test_a_conversations_json_linked_from_outside_the_export_folder_is_refused(
    tmp_path: Path,
) -> None:
    real = _export(tmp_path)
    folder = tmp_path / "other-export"
    folder.mkdir()
    (folder / "conversations.json").symlink_to(real)
    with pytest.raises(IntegrationError, match="symlink out of the export folder"):
        import_chatgpt(Home.open(tmp_path / "mnemic"), folder)


def test_saved_memories_wait_for_approval_as_user_entries_with_their_line(
    tmp_path: Path,
) -> None:
    pasted = tmp_path / "memories.txt"
    pasted.write_text(
        "- Is a vegetarian.\n\n* Lives in Lyon.\n3. Prefers metric units.\n- Is a vegetarian.\n",
        encoding="utf-8",
    )
    home = Home.open(tmp_path / "mnemic")
    report = import_chatgpt(home, memories=pasted).to_dict()
    assert report["memories"]["counts"] == {"staged": 3, "present": 1}
    assert Memory.open(home).entries("user") == []
    queue = PendingQueue.open(home)
    governor = Memory.open(home).governor
    assert governor is not None
    records = governor.pending("memory").listing().records
    assert [r.origin for r in records] == [
        source_of(CHATGPT_ORIGIN, pasted, n)[0] for n in (1, 3, 4)
    ]
    again = import_chatgpt(home, memories=pasted).to_dict()
    assert again["memories"]["counts"] == {"present": 4}
    queue.approve("all")
    assert Memory.open(home).entries("user") == [
        "Is a vegetarian.",
        "Lives in Lyon.",
        "Prefers metric units.",
    ]


def _rollout(folder: Path, sid: str = "0199a0b1-0000-7000-8000-000000000001") -> Path:
    day = folder / "2026" / "01" / "15"
    day.mkdir(parents=True, exist_ok=True)
    path = day / f"rollout-2026-01-15T10-00-00-{sid}.jsonl"
    ts = "2026-01-15T10:00:0{}.000Z"

    def rec(n: int, kind: str, payload: dict[str, Any]) -> str:
        return json.dumps({"timestamp": ts.format(n), "type": kind, "payload": payload})

    env = "<environment_context>\n  <cwd>/work/blog</cwd>\n</environment_context>"
    meta = {
        "id": sid,
        "timestamp": ts.format(0),
        "cwd": "/work/blog",
        "originator": "codex_cli_rs",
        "cli_version": "0.50.0",
        "source": "cli",
        "git": {"branch": "main"},
    }
    call = {
        "type": "function_call",
        "name": "shell",
        "arguments": '{"command":["ls","posts"]}',
        "call_id": "call_1",
    }
    output = {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": '{"output":"hello.md\\n","metadata":{"exit_code":0}}',
    }
    lines = [
        rec(0, "session_meta", meta),
        rec(1, "response_item", {"type": "message", "role": "user",
                                 "content": [{"type": "input_text", "text": env}]}),
        rec(1, "turn_context", {"cwd": "/work/blog", "model": "gpt-5-codex"}),
        rec(2, "response_item", {"type": "message", "role": "user",
                                 "content": [{"type": "input_text", "text": "List the posts"}]}),
        rec(2, "event_msg", {"type": "user_message", "message": "List the posts"}),
        rec(3, "response_item", {"type": "reasoning", "summary": [], "encrypted_content": "gA"}),
        rec(4, "response_item", call),
        rec(5, "response_item", output),
        rec(6, "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "There is one post: hello.md."}]}),
        rec(6, "event_msg", {"type": "token_count", "info": None}),
    ]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_codex_rollout_files_become_sessions_with_their_tool_calls(tmp_path: Path) -> None:
    sessions = tmp_path / "codex" / "sessions"
    _rollout(sessions)
    home = Home.open(tmp_path / "mnemic")
    report = import_codex(home, environ={"CODEX_HOME": str(tmp_path / "codex")}).to_dict()
    assert (report["files"], report["sessions"]["sessions"]) == (1, 1)
    sid = "0199a0b1-0000-7000-8000-000000000001"
    with open_store(home) as store:
        session = store.get_session(sid)
        assert (session.source, session.model) == ("codex", "gpt-5-codex")
        assert session.metadata["codex"]["cwd"] == "/work/blog"
        msgs = store.messages(sid)
        assert [m.role for m in msgs] == ["user", "assistant", "tool", "assistant"]
        assert msgs[1].tool_calls[0]["function"]["name"] == "shell"
        assert (msgs[2].tool_call_id, msgs[2].tool_name) == ("call_1", "shell")
        assert "hello.md" in (msgs[2].content or "")
        assert msgs[3].content == "There is one post: hello.md."
    reasons = {s["reason"] for s in report["sessions"]["skipped"]}
    assert reasons == {"context Codex adds to the conversation", "reasoning item"}
    again = import_codex(home, sessions).to_dict()
    assert (again["sessions"]["sessions"], again["sessions"]["messages"]) == (0, 0)
    with open_store(home) as store:
        assert len(store.messages(sid)) == 4


def test_a_codex_call_that_failed_is_flagged_and_found_as_failed(tmp_path: Path) -> None:
    """Codex's shell output carries its exit code in ``metadata``; an output object may
    say ``success: false``. Both become the tool message's ``is_error``."""
    path = _rollout(tmp_path / "sessions")
    sid = "0199a0b1-0000-7000-8000-000000000001"
    failing = [
        {"type": "function_call", "name": "shell", "call_id": "call_2",
         "arguments": '{"command":["cat","drafts/todo.md"]}'},
        {"type": "function_call_output", "call_id": "call_2",
         "output": '{"output":"cat: drafts/todo.md: No such file or directory\\n",'
                   '"metadata":{"exit_code":1}}'},
        {"type": "custom_tool_call", "name": "apply_patch", "call_id": "call_3",
         "input": "*** Begin Patch"},
        {"type": "custom_tool_call_output", "call_id": "call_3",
         "output": {"content": "patch rejected", "success": False}},
    ]  # fmt: skip
    with path.open("a", encoding="utf-8") as f:
        for n, payload in enumerate(failing, start=7):
            ts = f"2026-01-15T10:00:{n:02d}.000Z"
            f.write(json.dumps({"timestamp": ts, "type": "response_item", "payload": payload}))
            f.write("\n")
    home = Home.open(tmp_path / "mnemic")
    import_codex(home, tmp_path / "sessions")
    with open_store(home) as store:
        flags = [m.is_error for m in store.messages(sid) if m.role == "tool"]
        assert flags == [False, True, True]
        resp = run_session_search(store, {"failed": True, "limit": 10})
        got = {(r["tool"], r.get("exit_code"), r["error"]) for r in resp["results"]}
        assert got == {
            ("shell", 1, "cat: drafts/todo.md: No such file or directory"),
            ("apply_patch", None, "patch rejected"),
        }


def test_a_codex_line_cut_short_is_skipped_and_named(tmp_path: Path) -> None:
    path = _rollout(tmp_path / "sessions")
    lines = path.read_bytes().split(b"\n")  # ends in an empty piece: the final newline
    path.write_bytes(b"\n".join([*lines[:-3], lines[-3][:30]]))  # the answer's line, cut
    home = Home.open(tmp_path / "mnemic")
    report = import_codex(home, path).to_dict()
    skipped = {s["reason"]: s["count"] for s in report["sessions"]["skipped"]}
    assert any("cut short" in r for r in skipped)
    with open_store(home) as store:
        assert [m.role for m in store.messages("0199a0b1-0000-7000-8000-000000000001")] == [
            "user",
            "assistant",
            "tool",
        ]


@pytest.mark.parametrize(
    "first",
    ['{"type": "response_item", "payload": {}}', '{"session_id": "x", "role": "user"}', "{cut"],
    ids=["no-meta", "foreign", "truncated"],
)
def test_a_file_that_is_not_a_codex_session_stops_before_anything_is_written(
    tmp_path: Path, first: str
) -> None:
    folder = tmp_path / "sessions"
    good = _rollout(folder)
    bad = good.with_name("rollout-2026-01-15T11-00-00-bad.jsonl")
    bad.write_text(first + "\n", encoding="utf-8")
    home = Home.open(tmp_path / "mnemic")
    with pytest.raises(ImportFailed, match="not a Codex") as caught:
        import_codex(home, folder)
    assert bad.name in str(caught.value)
    with open_store(home) as store:
        assert store.list_sessions() == []


def test_a_symlink_out_of_the_codex_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    _rollout(folder)
    elsewhere = _rollout(tmp_path / "elsewhere", "0199a0b1-0000-7000-8000-000000000002")
    (folder / "2026" / "rollout-linked.jsonl").symlink_to(elsewhere)
    with pytest.raises(IntegrationError, match="symlink out of the Codex sessions folder"):
        import_codex(Home.open(tmp_path / "mnemic"), folder)


def test_sessions_import_recognises_both_formats(tmp_path: Path) -> None:
    home = Home.open(tmp_path / "mnemic")
    with open_store(home) as store:
        assert import_path(store, _export(tmp_path)).format == "chatgpt"
        assert import_path(store, _rollout(tmp_path / "sessions")).format == "codex"


def test_cli_imports_chatgpt_and_codex_with_a_summary(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"MNEMIC_HOME": str(tmp_path / "mnemic"), "CODEX_HOME": str(tmp_path / "codex")}
    export = _export(tmp_path)
    dry = runner.invoke(main, ["import", "chatgpt", str(export), "--dry-run"], env=env)
    assert dry.exit_code == 0, dry.output
    assert "Dry run: nothing was written" in dry.output
    assert "would import 2 sessions, 6 messages" in dry.output
    assert "skipped 1: system message" in dry.output
    done = runner.invoke(main, ["import", "chatgpt", str(export), "--json"], env=env)
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["sessions"]["messages"] == 6
    _rollout(tmp_path / "codex" / "sessions")
    codex = runner.invoke(main, ["import", "codex"], env=env)
    assert codex.exit_code == 0, codex.output
    assert "(1 files): imported 1 sessions, 4 messages" in codex.output
    (tmp_path / "empty").mkdir()
    bad = runner.invoke(main, ["import", "codex", str(tmp_path / "empty")], env=env)
    assert bad.exit_code == 1 and "no rollout-*.jsonl session file" in bad.output
