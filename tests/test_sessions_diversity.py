"""Room for a second session: where one session holds three of the first ten places,
another session's match of close score goes before its fourth (``make_room``)."""

from __future__ import annotations

from pathlib import Path

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, search_messages
from mnemic.sessions.search.diversity import make_room
from mnemic.sessions.search.hybrid import FusedMessage

T0 = 1_750_000_000.0
DAY = 86_400.0


def _ranked(*rows: tuple[str, int, float]) -> list[FusedMessage]:
    return [FusedMessage(sid, seq, score, ("lexical",), None, None) for sid, seq, score in rows]


def _places(fused: list[FusedMessage]) -> list[tuple[str, int]]:
    return [(f.session_id, f.seq) for f in fused]


def test_a_close_match_of_another_session_goes_before_the_crowded_sessions_fourth() -> None:
    """Five of session a, then session b's match at 0.9 of the best: b takes the fourth
    place; a's messages keep their order after it. Before, b was sixth."""
    ranked = _ranked(("a", 4, 1.0), ("a", 3, 0.99), ("a", 5, 0.98), ("a", 2, 0.97),
                     ("a", 6, 0.96), ("b", 7, 0.9), ("c", 1, 0.5))  # fmt: skip
    out = make_room(ranked)
    assert _places(out) == [("a", 4), ("a", 3), ("a", 5), ("b", 7), ("a", 2), ("a", 6), ("c", 1)]
    assert sorted(out) == sorted(ranked)  # nothing lost, nothing rescored


def test_a_distant_match_of_another_session_leaves_the_neighbours_in_place() -> None:
    """A question answered in one session keeps that session's neighbours: b at half
    the crowded message's score stays where it was."""
    ranked = _ranked(("a", 4, 1.0), ("a", 3, 0.99), ("a", 5, 0.98), ("a", 2, 0.97),
                     ("b", 7, 0.5))  # fmt: skip
    assert make_room(ranked) == ranked


def test_only_the_head_is_reordered_and_sessions_within_the_cap_are_untouched() -> None:
    ranked = _ranked(("a", 1, 1.0), ("b", 1, 0.99), ("a", 2, 0.98), ("b", 2, 0.97),
                     ("a", 3, 0.96), ("b", 3, 0.95), ("c", 1, 0.94))  # fmt: skip
    assert make_room(ranked) == ranked
    deep = _ranked(*(("a", i, 1.0 - i / 100) for i in range(12)), ("b", 0, 0.85))
    out = make_room(deep, head=10)
    assert _places(out)[3] == ("b", 0)
    assert _places(out)[4:] == [("a", i) for i in range(3, 12)]


def test_search_lists_a_second_sessions_answer_among_the_first_ten(tmp_path: Path) -> None:
    """Through the public search (lexical): one session says "clarinet reeds" in five
    turns, another once at 0.87 of the fourth's score; the other session's turn is
    fourth. Before, it was sixth, behind five turns of the first session."""
    first = [
        turn
        for i in range(5)
        for turn in (("user", f"Day {i}: new clarinet reeds."), ("user", f"Lunch was soup {i}."))
    ]
    second = [
        ("user", "We went hiking by the lake on Sunday."),
        ("user", "Day 9: new clarinet reeds."),
        ("user", "The kids loved the picnic."),
    ]
    with SQLiteSessionStore(tmp_path / "s.db") as s:
        for n, turns in enumerate((first, second)):
            sid = f"s{n}"
            s.start_session(id=sid, started_at=T0 + n * DAY)
            at = T0 + n * DAY
            s.append_messages(
                sid, [NewMessage(r, t, timestamp=at + 60 * j) for j, (r, t) in enumerate(turns)]
            )
        found = search_messages(s, "clarinet reeds", mode="lexical", limit=10, floor=False)
    places = [(r.session_id, r.seq) for r in found.results]
    assert ("s1", 1) in places[:4], places
