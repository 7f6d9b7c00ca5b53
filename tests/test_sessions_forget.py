"""``forget --sessions`` on every backend: it matches what search matches, and what it
forgot stays forgotten when the same input is imported again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from _backends import Kit
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.ops import forget_sessions
from mnemic.sessions import NewMessage, SearchFilters, import_path, open_store, parse_query


def _home(backend: Kit) -> Home:
    return Home.open(backend.write_config())


def _contents(home: Home, session_id: str) -> list[str | None]:
    with open_store(home) as store:
        return [m.content for m in store.messages(session_id)]


def test_forget_matches_case_and_width_as_search_does(backend: Kit) -> None:
    """``Müller`` forgets MÜLLER, a decomposed Mu\\u0308ller and an ASCII-escaped name in
    tool arguments; ``quagga77`` forgets full-width ＱＵＡＧＧＡ７７: search finds all of
    them, so forgetting must too."""
    home = _home(backend)
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "note", "arguments": json.dumps({"who": "Frau MÜLLER"})},
    }
    with open_store(home) as store:
        sid = store.start_session(source="cli", title="Notes")
        store.append_messages(
            sid,
            [
                NewMessage("user", "a letter from MÜLLER arrived"),
                NewMessage("user", "signed Mu\u0308ller, in decomposed form"),
                NewMessage("assistant", None, tool_calls=[call]),
                NewMessage("user", "the password is ＱＵＡＧＧＡ７７"),
                NewMessage("user", "nothing to forget in this one"),
            ],
        )
        assert "\\u00dc" in json.dumps(call["function"])  # stored as an ASCII escape
        for word in ("Müller", "quagga77"):
            assert store.search(parse_query(word), SearchFilters()), word

    assert forget_sessions(home, "Müller").messages == 3
    assert forget_sessions(home, "quagga77").messages == 1
    assert _contents(home, sid) == ["nothing to forget in this one"]
    with open_store(home) as store:
        for word in ("Müller", "MÜLLER", "quagga77", "ＱＵＡＧＧＡ７７"):
            assert store.search(parse_query(word), SearchFilters()) == [], word


def test_forget_rewrites_a_session_field_in_another_case(backend: Kit) -> None:
    home = _home(backend)
    with open_store(home) as store:
        sid = store.start_session(source="cli", title="Besuch bei Herrn MÜLLER", model="m")
        store.append_message(sid, NewMessage("user", "an ordinary line"))
    report = forget_sessions(home, "müller")
    assert (report.messages, report.sessions) == (0, 1)
    with open_store(home) as store:
        assert store.get_session(sid).title is None


def test_an_ascii_look_alike_is_not_forgotten(backend: Kit, tmp_path: Path) -> None:
    """Forgetting ``Müller`` removes what folds to it, not ``Muller``: accents are not
    dropped (that would delete other people's names)."""
    home = _home(backend)
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        store.append_messages(
            sid, [NewMessage("user", "Muller, no umlaut"), NewMessage("user", "Müller")]
        )
    assert forget_sessions(home, "Müller").messages == 1
    assert _contents(home, sid) == ["Muller, no umlaut"]


# -- what was forgotten stays forgotten ---------------------------------------------------

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "claude_code_transcript.jsonl"
SESSION = "3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e1c55"


def _hook(home: Home, transcript: Path, event: str = "PreCompact") -> str:
    payload = {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": event}
    result = run_claude_code_hook(json.dumps(payload).encode(), home_path=str(home.root))
    assert result.ok, result.message
    return result.stdout


def test_a_forgotten_message_does_not_come_back_with_the_transcript(
    backend: Kit, tmp_path: Path
) -> None:
    """Claude Code's hook imports the same transcript again at every compaction and at
    the end: what ``forget --sessions`` removed stays out, and so does a plain import."""
    home = _home(backend)
    transcript = tmp_path / f"{SESSION}.jsonl"
    shutil.copy(FIXTURE, transcript)
    _hook(home, transcript)
    assert len(_contents(home, SESSION)) == 6
    assert forget_sessions(home, "PYTEST with xdist").messages == 1
    assert forget_sessions(home, "module globals").messages == 2
    kept = _contents(home, SESSION)
    assert len(kept) == 3 and not any("pytest" in (c or "") for c in kept)

    with transcript.open("a") as fh:  # the session goes on
        fh.write(_claude_line("a0000000-0000-4000-8000-000000000007", "one more question"))
    assert "1 new message(s)" in _hook(home, transcript, "SessionEnd")
    with open_store(home) as store:
        report = import_path(store, transcript, format="claude")  # the whole file again
    assert (report.messages, report.forgotten) == (0, 3)
    assert _contents(home, SESSION) == [*kept, "one more question"]


def test_a_message_stored_without_a_key_stays_forgotten(backend: Kit, tmp_path: Path) -> None:
    """A message recorded live has no import key: its tombstone is its stored fields,
    so the transcript's copy of it (keyed by uuid) is recognised too."""
    home = _home(backend)
    with open_store(home) as store:
        store.start_session(id=SESSION, source="claude-code")
        store.append_message(
            SESSION,
            NewMessage(
                "user",
                "The checkout test fails one run in ten. We use pytest with xdist; "
                "please find out why.",
            ),
        )
    assert forget_sessions(home, "with xdist").messages == 1
    transcript = tmp_path / f"{SESSION}.jsonl"
    shutil.copy(FIXTURE, transcript)
    _hook(home, transcript)
    contents = _contents(home, SESSION)
    assert len(contents) == 5 and not any("pytest" in (c or "") for c in contents)


def test_keyless_input_stays_forgotten(backend: Kit, tmp_path: Path) -> None:
    """Messages of a JSONL file without message ids are keyed by position and content."""
    home = _home(backend)
    path = tmp_path / "chat.jsonl"
    rows = [("user", "plain words"), ("assistant", "Herr MÜLLER called"), ("user", "more")]
    path.write_text(
        "".join(
            json.dumps({"session_id": "k", "role": r, "content": c}, ensure_ascii=False) + "\n"
            for r, c in rows
        )
    )
    with open_store(home) as store:
        assert import_path(store, path).messages == 3
    forget_sessions(home, "müller")
    with open_store(home) as store:
        again = import_path(store, path)
    assert (again.messages, again.forgotten) == (0, 1)
    assert _contents(home, "k") == ["plain words", "more"]


def test_a_forgotten_title_and_session_id_stay_forgotten(backend: Kit, tmp_path: Path) -> None:
    """A cleared title is not filled in again by the transcript's summary line; a session
    whose id held the text is renamed, and the transcript under the old id is left out."""
    home = _home(backend)
    transcript = tmp_path / f"{SESSION}.jsonl"
    shutil.copy(FIXTURE, transcript)
    _hook(home, transcript)
    forget_sessions(home, "flaky checkout")
    with open_store(home) as store:
        assert import_path(store, transcript, format="claude").messages == 0
        assert store.get_session(SESSION).title is None

    assert forget_sessions(home, SESSION[:8]).messages == 0
    with open_store(home) as store:
        assert not store.has_session(SESSION)
        (renamed,) = store.list_sessions()
        report = import_path(store, transcript, format="claude")
        assert (report.sessions, report.forgotten_sessions, report.forgotten) == (0, 1, 6)
        assert [s.id for s in store.list_sessions()] == [renamed.id]
        assert store.get_session(renamed.id).message_count == 6


def _claude_line(uuid: str, text: str) -> str:
    line = {
        "type": "user",
        "sessionId": SESSION,
        "uuid": uuid,
        "timestamp": "2026-11-30T09:10:00.000Z",
        "message": {"role": "user", "content": text},
    }
    return json.dumps(line) + "\n"
