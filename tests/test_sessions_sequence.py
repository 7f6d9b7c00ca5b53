"""Order of events: a question about what came after or before something, or how a
thing changed over the sessions, is answered in time order with dates, and "after X"
finds the event that followed X although it shares no word with the question."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from _backends import Kit
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.cli import main
from mnemic.errors import InvalidArgument
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store, run_session_search, search_messages
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from mnemic.sessions.search.sequence import event_of, follow, read_order, subject_of
from mnemic.sessions.store import SearchFilters

T0 = 1_750_000_000.0
DAY = 86_400.0
REPLY = "That sounds like a big step. Take it one day at a time and keep notes."

# (session, day, the user's message); each session: the user, the assistant, "Thanks!"
EVENTS = [
    ("s1", 0, "I passed my driving test this morning, first try."),
    ("s2", 5, "I adopted a rescue dog yesterday, a beagle called Scout."),
    ("s3", 9, "My plan for the garden is to grow tomatoes on the balcony."),
    ("s4", 14, "I started a pottery class on Tuesdays this week."),
    ("s5", 20, "New plan for the garden: herbs instead of tomatoes, less sun there."),
    ("s6", 27, "I went camping at the lake with friends this weekend."),
    ("s7", 33, "The garden plan changed again: a small raised bed for salad."),
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db")
    for sid, day, text in EVENTS:
        start = T0 + day * DAY
        s.start_session(id=sid, started_at=start)
        turns = [("user", text), ("assistant", REPLY), ("user", "Thanks!")]
        s.append_messages(
            sid, [NewMessage(r, t, timestamp=start + 60 * i) for i, (r, t) in enumerate(turns)]
        )
    yield s
    s.close()


def _one_a_day(path: Path, prefix: str, said: list[str]) -> SQLiteSessionStore:
    """A store holding each of ``said`` as the user's one message of a session of its own
    (``{prefix}0``, ``{prefix}1``, ...), a day after the one before."""
    s = SQLiteSessionStore(path)
    for i, text in enumerate(said):
        s.start_session(id=f"{prefix}{i}", started_at=T0 + i * DAY)
        s.append_messages(f"{prefix}{i}", [NewMessage("user", text, timestamp=T0 + i * DAY)])
    return s


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What did I do after I passed my driving test?", "after"),
        ("Was habe ich nach dem Umzug gemacht?", "after"),
        ("¿Qué hice después de la boda?", "after"),
        ("Qu'ai-je fait après le déménagement ?", "after"),
        ("我考完驾照之后做了什么？", "after"),
        ("What happened before the move?", "before"),
        ("Was war vor dem Umzug?", "before"),
        ("¿Qué pasó antes de la mudanza?", "before"),
        ("搬家以前我住在哪里？", "before"),
        ("升级之前生产环境用的是哪个版本？", "before"),
        ("Where did Marco work before?", None),
        ("What was our monthly budget before, roughly?", None),
        ("Où travaillait Marco avant ?", None),
        ("我们以前每月的预算是多少？", None),
        ("以前我住在哪里？", None),
        ("How did my plan for the garden change over the sessions?", "sequence"),
        ("Wie hat sich mein Plan im Laufe der Zeit verändert?", "sequence"),
        ("¿Cómo cambió mi plan a lo largo de las sesiones?", "sequence"),
        ("Comment mon plan a évolué au fil des séances ?", "sequence"),
        ("我的计划有什么变化？", "sequence"),
        ("Where do I work now?", None),
        ("Wann flog ich nach Berlin?", None),
        ("What is the name of my dog?", None),
    ],
)
def test_the_order_cue_is_read_in_five_languages(question: str, kind: str | None) -> None:
    cue = read_order(question)
    assert (cue.kind if cue else None) == kind


def test_after_x_finds_the_event_that_followed_x(store: SQLiteSessionStore) -> None:
    ranking = search_messages(
        store, "What did I do after I passed my driving test?", mode="lexical", limit=5
    )
    assert ranking.order == "time"
    texts = [r.snippet for r in ranking.results]
    # the next thing the user said (not "Thanks!") is found, listed after the match
    assert texts.index(EVENTS[0][2]) < texts.index(EVENTS[1][2])
    followed = ranking.results[texts.index(EVENTS[1][2])]
    assert followed.matched == ()
    assert any("after" in w for w in followed.why)
    times = [r.time for r in ranking.results]
    assert times == sorted(times)


def test_before_x_finds_the_event_that_preceded_x(store: SQLiteSessionStore) -> None:
    ranking = search_messages(
        store, "What did I do before I went camping at the lake?", mode="lexical", limit=5
    )
    texts = [r.snippet for r in ranking.results]
    assert texts.index(EVENTS[4][2]) < texts.index(EVENTS[5][2])


def test_a_sequence_question_lists_its_matches_oldest_first_with_dates(
    store: SQLiteSessionStore,
) -> None:
    question = "How did my plan for the garden change over the sessions?"
    ranking = search_messages(store, question, mode="lexical", limit=3)
    assert [r.snippet for r in ranking.results] == [EVENTS[2][2], EVENTS[4][2], EVENTS[6][2]]
    assert ranking.to_dict()["order"] == "time"
    assert ranking.to_dict()["order_words"] == ["change over the sessions"] or ranking.order_words
    assert all(r.to_dict()["date"].count("-") == 2 for r in ranking.results)
    # relevance still picks which: the ranks are not the listing's positions
    assert sorted(r.rank for r in ranking.results) == [1, 2, 3]
    plain = search_messages(store, question, mode="lexical", limit=3, order="relevance")
    assert plain.order == "relevance"
    assert [r.rank for r in plain.results] == [1, 2, 3]
    assert {r.snippet for r in plain.results} == {r.snippet for r in ranking.results}


def test_a_question_without_a_cue_is_listed_best_first(store: SQLiteSessionStore) -> None:
    ranking = search_messages(store, "What did I name the beagle?", mode="lexical")
    assert ranking.order == "relevance"
    assert [r.rank for r in ranking.results] == list(range(1, len(ranking.results) + 1))


def test_an_unknown_order_is_refused(store: SQLiteSessionStore) -> None:
    with pytest.raises(InvalidArgument, match="order"):
        search_messages(store, "garden", order="sideways")


def test_the_cli_lists_an_order_question_in_time_order(
    store: SQLiteSessionStore, tmp_path: Path
) -> None:
    store.close()
    out = CliRunner().invoke(
        main,
        [
            "--home",
            str(tmp_path),
            "sessions",
            "search",
            "--messages",
            "--json",
            "--mode",
            "lexical",
            "How did my plan for the garden change over the sessions?",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["order"] == "time"
    times = [r["time"] for r in data["results"]]
    assert times == sorted(times)


def test_session_search_answers_an_order_question_in_time_order(
    store: SQLiteSessionStore,
) -> None:
    resp = run_session_search(
        store,
        {"query": "How did my plan for the garden change over the sessions?", "mode": "lexical"},
    )
    assert resp["order"] == "time" and "in time order" in resp["message"].lower()
    assert [r["session_id"] for r in resp["results"]] == ["s3", "s5", "s7"]


def test_session_search_brings_the_session_that_followed(store: SQLiteSessionStore) -> None:
    resp = run_session_search(
        store,
        {"query": "What did I do after I passed my driving test?", "mode": "lexical", "limit": 3},
    )
    ids = [r["session_id"] for r in resp["results"]]
    assert ids.index("s1") < ids.index("s2")


def test_discovery_returns_several_sessions_of_one_thread_for_an_order_question(
    tmp_path: Path,
) -> None:
    s = SQLiteSessionStore(tmp_path / "thread.db")
    plans = [
        "My plan for the garden is tomatoes on the balcony.",
        "The garden plan is now herbs, the balcony gets too little sun.",
        "Final garden plan: a raised bed for salad.",
    ]
    parent = None
    for i, text in enumerate(plans):
        sid = f"part{i}"
        s.start_session(id=sid, started_at=T0 + i * DAY, parent_id=parent)
        s.append_messages(sid, [NewMessage("user", text, timestamp=T0 + i * DAY)])
        s.end_session(sid, "compression", ended_at=T0 + i * DAY + 60)
        parent = sid
    question = {"query": "garden plan", "mode": "lexical"}
    assert run_session_search(s, question)["count"] == 1  # one conversation
    resp = run_session_search(
        s, {"query": "How did my garden plan change over time?", "mode": "lexical"}
    )
    assert [r["session_id"] for r in resp["results"]] == ["part0", "part1", "part2"]
    s.close()


def test_before_x_anchors_on_x_not_on_the_first_mention_of_its_subject(tmp_path: Path) -> None:
    """ "before" asks about the event before X, not about the earliest statement of X's
    subject (what "before" means in a question about the past)."""
    said = [
        "I finished the Berlin marathon in just under four hours!",
        "I finished reading a long novel on the train.",
        "The builder measured the kitchen for the renovation.",
        "I adopted a rescue dog yesterday, a beagle called Scout.",
        "We tore out the old kitchen cabinets this weekend.",
        "I went camping at the lake with friends.",
        "The kitchen renovation is finished, the builder did a great job.",
    ]
    s = _one_a_day(tmp_path / "kitchen.db", "k", said)
    ranking = search_messages(
        s, "What did I do before I finished the renovation?", mode="lexical", limit=3
    )
    texts = [r.snippet for r in ranking.results]
    assert texts[-2:] == [said[5], said[6]]
    s.close()


def test_a_before_that_names_no_event_asks_for_the_earlier_value(tmp_path: Path) -> None:
    """ "Where did Marco work before?" asks what held previously: the first statement
    ranks first, best first, and no message joins as "what preceded" the best match."""
    said = [
        "Marco works at Vandelay as a data engineer.",
        "I adopted a rescue dog yesterday, a beagle called Scout.",
        "My flight to Chicago is on February 20, window seat booked.",
        "Marco works at Hooli now, on the data platform team.",
    ]
    s = _one_a_day(tmp_path / "before.db", "b", said)
    ranking = search_messages(s, "Where did Marco work before?", mode="lexical", limit=3)
    assert ranking.order == "relevance"
    assert [r.snippet for r in ranking.results[:2]] == [said[0], said[3]]
    assert not any("before" in " ".join(r.why) for r in ranking.results)
    s.close()


def test_before_a_change_ranks_the_state_it_replaced_above_the_change(tmp_path: Path) -> None:
    """ "Which Python version did production run before the upgrade?" names the change as
    its event: the best match is the upgrade, and the statement it superseded is the
    answer, so it ranks above the upgrade (not below the messages told just before it)."""
    said = [
        "Production runs Python 3.9 on the old cluster.",
        "I adopted a rescue dog yesterday, a beagle called Scout.",
        "My flight to Chicago is on February 20, window seat booked.",
        "I went camping at the lake with friends this weekend.",
        "We finally upgraded production to Python 3.12, the upgrade went smoothly.",
    ]
    s = _one_a_day(tmp_path / "upgrade.db", "u", said)
    question = "Which Python version did production run before the upgrade?"
    ranking = search_messages(s, question, mode="lexical", limit=5)
    by_rank = [r.snippet for r in sorted(ranking.results, key=lambda r: r.rank)]
    assert by_rank[:2] == [said[0], said[4]]
    assert any("earlier" in w for w in ranking.results[0].why)
    # the messages told just before the change still join it
    preceding = [r.snippet for r in ranking.results if "before" in " ".join(r.why)]
    assert preceding == [said[2], said[3]]
    s.close()


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Which Python version did production run before the upgrade?", "python version"),
        ("Before the move, where did I live?", "where did i live"),
        ("Welche Python-Version lief vor dem Update in der Produktion?", "welche python"),
        ("¿Qué versión de Python usaba producción antes de actualizar?", "versión de python"),
        ("升级之前生产环境用的是哪个版本的Python？", "生产环境用的是哪个版本"),
        ("What did I do before I finished the renovation?", "what did i do"),
    ],
)
def test_the_subject_of_a_before_question_leaves_out_the_event_it_names(
    question: str, subject: str
) -> None:
    got = subject_of(question, read_order(question)).lower()
    assert subject in got
    assert not any(
        w in got for w in ("upgrade", "move", "update", "actualizar", "升级", "finished")
    )


def test_after_x_passes_over_questions_the_user_asked(tmp_path: Path) -> None:
    """A question asks for help; it tells of nothing the user did."""
    said = [
        "I passed my driving test this morning, first try.",
        "How do I clean a cast iron pan without ruining it?",
        "Can you suggest a podcast for a long drive?",
        "I adopted a rescue dog yesterday, a beagle called Scout.",
    ]
    s = _one_a_day(tmp_path / "asked.db", "a", said)
    ranking = search_messages(
        s, "What did I do after I passed my driving test?", mode="lexical", limit=3
    )
    followed = [r.snippet for r in ranking.results if "after" in " ".join(r.why)]
    assert followed[0] == said[3]
    s.close()


def test_order_of_events_works_the_same_on_every_backend(backend: Kit) -> None:
    with open_store(Home.open(backend.write_config())) as s:
        for sid, day, text in EVENTS:
            start = T0 + day * DAY
            s.start_session(id=sid, started_at=start)
            said = [("user", text, start), ("assistant", REPLY, start + 60)]
            s.append_messages(sid, [NewMessage(r, t, timestamp=ts) for r, t, ts in said])
        after = search_messages(
            s, "What did I do after I went camping at the lake?", mode="lexical", limit=4
        )
        texts = [r.snippet for r in after.results]
        assert texts.index(EVENTS[5][2]) < texts.index(EVENTS[6][2])
        seq = search_messages(
            s, "How did my plan for the garden change over the sessions?", mode="lexical", limit=3
        )
        assert [r.snippet for r in seq.results] == [EVENTS[2][2], EVENTS[4][2], EVENTS[6][2]]


def test_an_order_answer_gives_each_result_its_place_by_relevance(
    store: SQLiteSessionStore, tmp_path: Path
) -> None:
    """The time-order message says "rank is each one's place by relevance": discovery's
    results carried no rank (only ``--messages`` had one), so the place the message
    names could not be read, by a model or in the CLI."""
    question = "What did I do after I passed my driving test?"
    resp = run_session_search(store, {"query": question, "mode": "lexical", "limit": 3})
    assert resp["order"] == "time" and "rank" in resp["message"]
    ranks = [r["rank"] for r in resp["results"]]
    assert sorted(ranks) == list(range(1, len(ranks) + 1))
    assert resp["results"][0]["session_id"] == "s1" and resp["results"][0]["rank"] == 1
    plain = run_session_search(store, {"query": "driving test", "mode": "lexical"})
    assert "order" not in plain and all("rank" not in r for r in plain["results"])
    store.close()
    out = CliRunner().invoke(
        main, ["--home", str(tmp_path), "sessions", "search", question, "--mode", "lexical"]
    )
    assert out.exit_code == 0, out.output
    assert "rank 1" in out.output and "rank 2" in out.output


def test_a_time_order_answer_dates_each_result_by_its_event_not_its_session(
    tmp_path: Path,
) -> None:
    """Results in time order are sorted by their matching message's time, but the CLI
    (and the console) dated each by its session's start: a long session that began
    first and told its event last looked out of order."""
    s = SQLiteSessionStore(tmp_path / "sessions.db")
    told = [  # (session, session start day, day the event is told, the event)
        ("long", 0, 12, "After the driving test I bought a used Volvo."),
        ("short", 5, 5, "I passed my driving test this morning, first try."),
    ]
    for sid, start, day, text in told:
        s.start_session(id=sid, started_at=T0 + start * DAY)
        s.append_messages(
            sid,
            [NewMessage("user", "Hello again.", timestamp=T0 + start * DAY),
             NewMessage("user", text, timestamp=T0 + day * DAY)],
        )  # fmt: skip
    s.close()
    question = "What did I do after I passed my driving test?"
    out = CliRunner().invoke(
        main, ["--home", str(tmp_path), "sessions", "search", question, "--mode", "lexical"]
    )
    assert out.exit_code == 0, out.output
    import datetime as dt

    def shown(day: int) -> str:
        return dt.datetime.fromtimestamp(T0 + day * DAY).strftime("%Y-%m-%d")

    at = [out.output.find(shown(day)) for day in (5, 12)]
    assert -1 not in at and at == sorted(at), out.output
    assert shown(0) not in out.output


def test_the_event_of_an_after_question_is_the_match_that_tells_of_it(tmp_path: Path) -> None:
    """ "What did I do after I ran my first half marathon?": the best match by meaning is
    the marathon goal, but the message that tells of the event holds the clause's words
    (ran, first, half, marathon); what followed *it* joins the results. Before, what
    followed the goal did (the balcony), and the budget the question asks about did not."""
    said = [
        "My goal for the marathon is to finish under 7 hours.",
        "My balcony faces north-east, so it gets sun only part of the day.",
        "I ran my first half marathon on Saturday!",
        "Help me set up a monthly budget, I never know where my money goes.",
    ]
    s = _one_a_day(tmp_path / "after.db", "e", said)
    rows = {m.session_id: m for i in range(4) for m in s.messages(f"e{i}")}

    def at(sid: str, score: float) -> FusedMessage:
        m = rows[sid]
        return FusedMessage(sid, 0, score, ("semantic",), None, SemanticHit(m.id, sid, 0, score))

    question = "What did I do after I ran my first half marathon?"
    cue = read_order(question)
    assert event_of(question, cue).split() == ["I", "ran", "my", "first", "half", "marathon"]
    out = follow(
        s, [at("e0", 0.8), at("e2", 0.75)], cue, SearchFilters(), limit=10, question=question
    )
    followed = [f.session_id for f in out if "after" in f.notes]
    assert followed[0] == "e3"
    assert "e1" not in followed
    s.close()


@pytest.mark.parametrize(
    ("question", "event"),
    [
        ("What did I do after I ran my first half marathon?", "I ran my first half marathon"),
        ("Which Python version did production run before the upgrade?", "the upgrade"),
        ("升级之前生产环境用的是哪个版本的Python？", "升级"),
        ("What did Caroline research?", ""),
    ],
)
def test_the_clause_that_names_the_event(question: str, event: str) -> None:
    assert event_of(question, read_order(question)).strip() == event
