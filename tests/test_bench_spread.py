"""bench/_spread.py, recall 20's list variant (measured on dev and dropped,
``docs/recall.md``): a question that asks for several things gets its first ten spread
over the sessions that answer it, instead of one session's matches; a question about
one fact ranks as without the step."""

from __future__ import annotations

from pathlib import Path

import pytest

import mnemic.sessions.search.messages as messages
from _spread import after, asks_several, spread
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, search_messages
from mnemic.sessions.search.hybrid import FusedMessage

T0 = 1_750_000_000.0
DAY = 86_400.0

CROWDED = [
    "I want to visit more cities next year.",
    "Which cities should I visit first?",
    "Cities I could visit: maybe in the north.",
    "Big cities wear me out on a visit.",
    "My list of cities to visit keeps growing.",
    "I keep reading about cities to visit.",
    "Visit cities by train, a friend said.",
    "Cities at night are the best part of a visit.",
]
"""One session that talks about visiting cities at length and names none visited."""
VISITS = [
    "Back home: I visited Lisbon last week and loved the trams.",
    "Just got back after I visited Prague with my brother.",
    "I visited Oslo over the weekend, very cold.",
    "Short trip: I visited Rome and ate too much pasta.",
]
"""Four sessions, each with one city visited."""


def _store(path: Path) -> SQLiteSessionStore:
    store = SQLiteSessionStore(path)
    sessions = [CROWDED, *([v, "The weather here is grey today."] for v in VISITS)]
    for i, turns in enumerate(sessions):
        sid = f"s{i:02d}"
        store.start_session(id=sid, started_at=T0 + i * DAY)
        said = [NewMessage("user", t, timestamp=T0 + i * DAY + 60 * j) for j, t in enumerate(turns)]
        store.append_messages(sid, said)
    return store


def _head(
    store: SQLiteSessionStore, question: str, k: int, monkeypatch: pytest.MonkeyPatch | None
) -> list[tuple[str, int]]:
    """The first ``k`` positions of the lexical ranking, with the variant on when
    ``monkeypatch`` is given."""
    if monkeypatch is not None:
        monkeypatch.setattr(messages, "candidates", after(messages.candidates))
    found = search_messages(store, question, mode="lexical", limit=50, floor=False)
    return [(r.session_id, r.seq) for r in found.results[:k]]


def test_a_list_question_over_four_sessions_gets_each_of_them_into_the_first_eight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Which cities have I visited?": the four sessions that each name one city (each
    scoring under a quarter of the crowded session's turns) are in the first eight. Before,
    the crowded session's eight turns held the first eight places."""
    with _store(tmp_path / "s.db") as s:
        before = _head(s, "Which cities have I visited?", 8, None)
        head = _head(s, "Which cities have I visited?", 8, monkeypatch)
    assert {sid for sid, _ in before} == {"s00"}
    assert {sid for sid, _ in head} >= {"s01", "s02", "s03", "s04"}
    assert head[:2] == before[:2]


def test_a_single_fact_question_ranks_as_it_did_without_the_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Where did I go with my brother?" asks for one thing: its ranking is the same with
    the step switched off."""
    question = "Where did I go with my brother?"
    assert not asks_several(question)
    with _store(tmp_path / "s.db") as s:
        off = _head(s, question, 50, None)
        on = _head(s, question, 50, monkeypatch)
    assert on == off and on[0] == ("s02", 0)


@pytest.mark.parametrize(
    ("question", "several"),
    [
        ("Which cities has Jon visited?", True),
        ("What books has Melanie read?", True),
        ("What activities does Melanie partake in?", True),
        ("What are Joanna's hobbies?", True),
        ("How many times has Joanna found new hiking trails?", True),
        ("What movies have both Joanna and Nate seen?", True),
        ("What has Melanie painted?", True),
        ("¿Qué libros ha leído Melanie?", True),
        ("Quelles villes Jon a-t-il visitées ?", True),
        ("Welche Bücher hat Melanie gelesen?", True),
        ("Quali libri ha letto Melanie?", True),
        ("Quais cidades o Jon visitou?", True),
        ("Hoeveel katten heeft Nate?", True),
        ("Jakie książki czytała Melanie?", True),
        ("梅兰妮读过哪些书？", True),
        ("What did Caroline research?", False),
        ("When did Melanie paint a sunrise?", False),
        ("What is Caroline's relationship status?", False),
        ("Where did Caroline move from 4 years ago?", False),
        ("What does Melanie do to destress?", False),
        ("¿Cuándo pintó Melanie el amanecer?", False),
        ("卡罗琳什么时候去了支持小组？", False),
    ],
)
def test_a_question_asking_for_several_things_is_told_from_one_asking_for_one(
    question: str, several: bool
) -> None:
    assert asks_several(question) is several


def _fused(session: str, seq: int, score: float) -> FusedMessage:
    return FusedMessage(session, seq, score, (), None, None)


def test_the_first_places_and_everything_past_the_head_keep_their_order() -> None:
    """Only places 3 to 10 are re-ordered (the other session's message takes the third);
    a moved message says ``spread``."""
    fused = [_fused("a", i, 1.0 - i / 100) for i in range(12)] + [_fused("b", 0, 0.8)]
    out = spread(None, fused, "Which cities have I visited?")  # type: ignore[arg-type]
    assert out[:2] == fused[:2]
    assert out[2] == fused[12]._replace(notes=("spread",))
    assert [f.seq for f in out[3:12]] == list(range(2, 11)) and out[12] == fused[11]
