"""``forget --sessions`` on every backend: it matches what search matches, and what it
forgot stays forgotten when the same input is imported again."""

from __future__ import annotations

import json
from pathlib import Path

from _backends import Kit
from mnemic.home import Home
from mnemic.ops import forget_sessions
from mnemic.sessions import NewMessage, SearchFilters, open_store, parse_query


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
