"""Hostile input to the importers (hostile2): ``mnemic sessions import`` (JSON Lines,
OpenAI, ChatGPT, Codex, Hermes share their field readers) and ``mnemic import chatgpt``.
A value no calendar holds, or JSON nested past what the reader can walk, is read as
what it is (no time; a bad line or a damaged file named with its place), never stored
to break every later listing, and never a traceback."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from _cli import cli
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.importing.formats import timestamp


def _line(**fields: object) -> str:
    return json.dumps({"session_id": "s1", "role": "user", "content": "hello there", **fields})


# what each value spells in the file (json.dumps writes 1e400 as Infinity)
ODD_TIMES = {
    "1e400": "1e400",  # Python's reader: inf
    "-1e300": "-1e300",
    "NaN": "NaN",
    "string inf": '"inf"',
    "milliseconds of year 10^9": "1e20",  # read as ms: 1e17 s, no local time
    "an integer past a float": "1" + "0" * 400,
}


@pytest.mark.parametrize("field", ["timestamp", "started_at", "ended_at"])
@pytest.mark.parametrize("spelled", list(ODD_TIMES.values()), ids=list(ODD_TIMES))
def test_a_time_no_calendar_holds_is_no_time_and_the_history_still_lists(
    home_path: Path, tmp_path: Path, field: str, spelled: str
) -> None:
    """`timestamp: 1e400` (or -1e300, "inf", 1e20 read as milliseconds) was stored as
    it came; every later `mnemic sessions list` then failed with "timestamp out of range
    for platform time_t" (a NaN was refused as a database error that named the history
    as unavailable)."""
    source = tmp_path / "in.jsonl"
    extra = ', "end_reason": "done"' if field == "ended_at" else ""
    source.write_text(_line()[:-1] + f', "{field}": {spelled}{extra}}}\n')
    result = cli("sessions", "import", str(source))
    assert result.exit_code == 0, result.output
    listed = cli("sessions", "list")
    assert listed.exit_code == 0, listed.output
    assert "s1" in listed.output
    shown = cli("sessions", "show", "s1")
    assert shown.exit_code == 0 and "hello there" in shown.output
    with open_store(Home.open(home_path)) as store:
        info = store.get_session("s1")
        times = [info.started_at, info.ended_at, *(m.timestamp for m in store.messages("s1"))]
    assert all(t is None or (math.isfinite(t) and abs(t) < 1e12) for t in times), times


def test_a_chatgpt_export_with_a_time_past_the_calendar_still_lists(
    home_path: Path, tmp_path: Path
) -> None:
    message = {
        "id": "m1",
        "author": {"role": "user"},
        "create_time": 1.0,
        "content": {"content_type": "text", "parts": ["hello"]},
    }
    conversation = {
        "title": "t",
        "create_time": 1.0,
        "id": "c1",
        "current_node": "n1",
        "mapping": {"n1": {"id": "n1", "message": message, "parent": None, "children": []}},
    }
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([conversation]).replace("1.0", "1e400"))
    result = cli("import", "chatgpt", str(export))
    assert result.exit_code == 0, result.output
    listed = cli("sessions", "list")
    assert listed.exit_code == 0 and "c1" in listed.output, listed.output


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1_700_000_000, 1_700_000_000.0),
        (1_700_000_000_000, 1_700_000_000.0),  # milliseconds
        ("2026-05-01T12:00:00Z", 1_777_636_800.0),
        ("9999-12-31T23:59:59+00:00", None),  # a zone east of it is in the year 10000
        ("0001-01-01T00:00:00+05:00", None),
        (float("inf"), None),
        (float("nan"), None),
        (10**400, None),
        ("1e400", None),
        (True, None),
    ],
    ids=lambda v: repr(v)[:24],
)
def test_timestamp_reads_only_times_of_the_calendar(value: object, expected: float | None) -> None:
    assert timestamp(value) == expected


DEEP = "[" * 100_000 + "]" * 100_000
"""Deeper than Python's JSON parser can recurse (it raised RecursionError)."""


def test_a_line_nested_too_deeply_is_a_bad_line_named_and_the_rest_imports(
    home_path: Path, tmp_path: Path
) -> None:
    source = tmp_path / "in.jsonl"
    lines = [_line(), _line()[:-1] + f', "metadata": {{"a": {DEEP}}}}}', _line(content="bye")]
    source.write_text("\n".join(lines) + "\n")
    result = cli("sessions", "import", str(source))
    assert result.exit_code == 0, result.output
    assert "nested too deeply" in result.output and "in.jsonl:2" in result.output
    strict = cli("--home", str(tmp_path / "other"), "sessions", "import", "--strict", str(source))
    assert strict.exit_code == 1, strict.output
    assert "nested too deeply" in strict.output and "Traceback" not in strict.output
    with open_store(Home.open(home_path)) as store:
        assert [m.content for m in store.messages("s1")] == ["hello there", "bye"]


def test_a_chatgpt_conversation_nested_too_deeply_stops_the_import_naming_it(
    home_path: Path, tmp_path: Path
) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(f'[{{"id": "c1", "mapping": {DEEP}}}]')
    result = cli("import", "chatgpt", str(export))
    assert result.exit_code == 1, result.output
    assert "nested too deeply" in result.output and "conversation 0" in result.output
    assert "Nothing more was imported" in result.output


@pytest.mark.parametrize(
    "document",
    [
        # one OpenAI conversation spread over lines, nested past the parser
        '{"messages": [{"role": "user", "content": "hi"}],\n "x": ' + DEEP + "}",
        # a first line too deep to tell the format by
        '{"messages": ' + DEEP + "}\n",
    ],
    ids=["openai document", "first line"],
)
def test_an_openai_document_nested_too_deeply_is_refused_naming_the_file(
    home_path: Path, tmp_path: Path, document: str
) -> None:
    source = tmp_path / "chat.json"
    source.write_text(document)
    result = cli("sessions", "import", "--format", "openai", str(source))
    assert result.exit_code == 1, result.output
    assert "chat.json" in result.output and "Traceback" not in result.output
    auto = cli("sessions", "import", str(source))
    assert auto.exit_code == 1 and "chat.json" in auto.output, auto.output


def test_a_hermes_state_db_with_deep_json_and_odd_times_imports_and_lists(
    home_path: Path, tmp_path: Path
) -> None:
    """Hermes keeps a multimodal message as JSON parts and tool calls as JSON text: one
    nested past the parser raised RecursionError out of the import; a REAL time of
    1e400 (SQLite keeps it as Inf) was stored and broke `sessions list`."""
    import sqlite3

    from _hermes_home import write_state_db

    (tmp_path / "hermes").mkdir()
    db = write_state_db(tmp_path / "hermes")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE messages SET content = ? WHERE id = 1", (DEEP,))
        conn.execute("UPDATE messages SET tool_calls = ? WHERE id = 2", (DEEP,))
        conn.execute("UPDATE messages SET timestamp = 1e400 WHERE id = 3")
        conn.execute("UPDATE sessions SET started_at = -1e400 WHERE id = '20260102_090000_c3'")
    result = cli("sessions", "import", "--no-embed", str(db))
    assert result.exit_code == 0, result.output
    listed = cli("sessions", "list")
    assert listed.exit_code == 0 and "20260102_090000_c3" in listed.output, listed.output
    shown = cli("sessions", "show", "20260101_100000_a1")
    assert shown.exit_code == 0 and "deployed in 42s" in shown.output, shown.output


def test_a_codex_output_nested_too_deeply_is_kept_without_its_failure_flag(
    home_path: Path, tmp_path: Path
) -> None:
    meta = {"type": "session_meta", "timestamp": "2026-05-01T12:00:00Z",
            "payload": {"id": "cx1", "timestamp": "2026-05-01T12:00:00Z", "cwd": "/w"}}  # fmt: skip
    said = {"type": "response_item", "timestamp": "2026-05-01T12:00:01Z",
            "payload": {"type": "message", "role": "user",
                        "content": [{"type": "input_text", "text": "run it"}]}}  # fmt: skip
    call = {"type": "response_item", "timestamp": "2026-05-01T12:00:02Z",
            "payload": {"type": "function_call", "name": "shell", "call_id": "k1",
                        "arguments": "{}"}}  # fmt: skip
    out = {"type": "response_item", "timestamp": "2026-05-01T12:00:03Z",
           "payload": {"type": "function_call_output", "call_id": "k1",
                       "output": "{" + '"a": ' * 1 + DEEP + "}"}}  # fmt: skip
    source = tmp_path / "rollout-2026-05-01T12-00-00-cx1.jsonl"
    source.write_text("".join(json.dumps(x) + "\n" for x in (meta, said, call, out)))
    result = cli("sessions", "import", str(source))
    assert result.exit_code == 0, result.output
    with open_store(Home.open(home_path)) as store:
        kept = [m for m in store.messages("cx1") if m.role == "tool"]
    assert len(kept) == 1 and kept[0].is_error is None


def test_a_hermes_archive_line_nested_too_deeply_is_skipped_and_named(
    home_path: Path, tmp_path: Path
) -> None:
    from _hermes_home import write_archive, write_memory

    hermes = tmp_path / "hermes"
    write_memory(hermes, "MEMORY.md", ["The blog deploys with make deploy."])
    write_archive(hermes, [f'{{"content": {DEEP}}}', {"content": "An older fact."}])
    result = cli("import", "hermes", str(hermes))
    assert result.exit_code == 0, result.output
    assert "ARCHIVE.jsonl:1 (line is not valid JSON)" in result.output
    assert "1 archived" in result.output


@pytest.mark.timeout(60)
@pytest.mark.parametrize("args", [[], ["--format", "jsonl"], ["--format", "openai"]])
def test_a_fifo_given_to_sessions_import_is_refused_naming_it_not_waited_on(
    home_path: Path, tmp_path: Path, args: list[str]
) -> None:
    """`mnemic sessions import FIFO` opened it to read and waited for a writer forever
    (the format guess and the import alike)."""
    fifo = tmp_path / "in.jsonl"
    os.mkfifo(fifo)
    result = cli("sessions", "import", *args, str(fifo))
    assert result.exit_code == 1, result.output
    assert "named pipe (FIFO)" in result.output and str(fifo) in result.output


@pytest.mark.timeout(60)
def test_a_fifo_given_as_a_chatgpt_export_is_named_as_what_it_is(
    home_path: Path, tmp_path: Path
) -> None:
    """It was refused as "no such file", which it is not."""
    fifo = tmp_path / "conversations.json"
    os.mkfifo(fifo)
    result = cli("import", "chatgpt", str(fifo))
    assert result.exit_code == 1, result.output
    assert "named pipe (FIFO)" in result.output and "no such file" not in result.output


@pytest.mark.timeout(60)
def test_a_fifo_among_codex_rollouts_is_refused_naming_it_not_waited_on(
    home_path: Path, tmp_path: Path
) -> None:
    """`mnemic import codex DIR` read every rollout file first to plan the import,
    with a plain open: a FIFO named rollout-*.jsonl waited for a writer forever."""
    folder = tmp_path / "sessions" / "2026" / "05"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "rollout-2026-05-01T12-00-00-cx1.jsonl")
    result = cli("import", "codex", str(tmp_path / "sessions"))
    assert result.exit_code == 1, result.output
    assert "named pipe (FIFO)" in result.output and "rollout-2026-05-01" in result.output


@pytest.mark.timeout(60)
@pytest.mark.parametrize("how", ["import hermes", "sessions import --format hermes"])
def test_a_fifo_in_place_of_hermes_state_db_is_refused_naming_it(
    home_path: Path, tmp_path: Path, how: str
) -> None:
    from _hermes_home import write_memory

    hermes = tmp_path / "hermes"
    write_memory(hermes, "MEMORY.md", ["The blog deploys with make deploy."])
    os.mkfifo(hermes / "state.db")
    where = str(hermes if how == "import hermes" else hermes / "state.db")
    result = cli(*how.split(), where)
    assert result.exit_code == 1, result.output
    assert "named pipe (FIFO)" in result.output and "state.db" in result.output


@pytest.mark.timeout(60)
def test_a_fifo_given_as_a_growing_transcript_is_refused_naming_it(
    home_path: Path, tmp_path: Path
) -> None:
    """The Claude Code hooks import a transcript from where they stopped
    (`import_growing`): a FIFO as its path was opened blocking and waited for a writer
    until the hook's time limit killed it."""
    from mnemic.errors import UnreadableFile
    from mnemic.sessions import import_growing

    fifo = tmp_path / "transcript.jsonl"
    os.mkfifo(fifo)
    with open_store(Home.open(home_path)) as store, pytest.raises(UnreadableFile) as info:
        import_growing(store, fifo, session_id="s1")
    assert "named pipe (FIFO)" in info.value.reason


def test_a_time_stored_before_imports_checked_it_is_shown_as_out_of_range(
    home_path: Path,
) -> None:
    """A session history imported by an earlier mnemic may keep `1e400` or a year 33658:
    `sessions list`, `show`, `stats`, `--json`, the agent's session_search tool and the
    console's Sessions pages all failed on it ("timestamp out of range for platform
    time_t"; the console answered 500). Each now shows the time as out of range."""
    from starlette.testclient import TestClient

    from mnemic.sessions.store import NewMessage
    from mnemic.ui.app import build_app
    from mnemic.ui.security import Access

    no_time = "(time out of range)"  # mnemic.timefmt.NO_TIME
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(id="old", title="kept from before", started_at=float("inf"))
        store.append_messages(sid, [NewMessage("user", "hello there", timestamp=1e300)])
        store.end_session(sid, "done", ended_at=-1e300)
    for args in (["sessions", "list"], ["sessions", "show", "old"], ["sessions", "stats"]):
        result = cli(*args)
        assert result.exit_code == 0, (args, result.output)
    assert no_time in cli("sessions", "show", "old").output
    listed = cli("sessions", "list", "--json")
    assert listed.exit_code == 0, listed.output
    strict = json.loads(listed.output, parse_constant=lambda c: pytest.fail(f"{c} in --json"))
    assert strict[0]["id"] == "old" and strict[0]["started_at"] is None
    found = cli("tool", "session_search", '{"query": "hello"}')
    assert found.exit_code == 0 and '"old"' in found.output, found.output
    token = "t" * 40
    app = build_app(Home.open(home_path), Access("127.0.0.1", 8767, token))
    client = TestClient(app, base_url="http://127.0.0.1:8767", raise_server_exceptions=False)
    client.get(f"/?token={token}")
    for page in ("/sessions", "/sessions?q=hello", "/sessions/view?id=old"):
        answer = client.get(page)
        assert answer.status_code == 200, (page, answer.text[:300])
    assert no_time in client.get("/sessions/view?id=old").text


@pytest.mark.timeout(60)
def test_a_hermes_skill_whose_skill_md_is_a_fifo_is_reported_skipped(
    home_path: Path, tmp_path: Path
) -> None:
    """The skill's folder was walked as a category and nothing was said: "skills/:
    nothing." (docs/interop.md: what is skipped is reported)."""
    from _hermes_home import write_memory

    hermes = tmp_path / "hermes"
    write_memory(hermes, "MEMORY.md", ["The blog deploys with make deploy."])
    (hermes / "skills" / "deploy").mkdir(parents=True)
    os.mkfifo(hermes / "skills" / "deploy" / "SKILL.md")
    result = cli("import", "hermes", str(hermes))
    assert result.exit_code == 0, result.output
    assert "deploy" in result.output and "named pipe (FIFO)" in result.output
