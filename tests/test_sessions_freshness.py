"""Fresh facts first: a later statement of a subject ranks above the earlier one it
replaces, unless the question asks about the past or "as of" an earlier date; what a
question says about time (timeframe) and the CLI's --as-of."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.cli import main
from mnemic.sessions import (
    NewMessage,
    SessionStore,
    open_store,
    run_session_search,
    search_messages,
)
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.search.freshness import freshen
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from mnemic.sessions.search.timeframe import read_timeframe

DAY = 86400.0
T0 = dt.datetime(2024, 1, 8, 9, 0).timestamp()


def day(n: int) -> str:
    return dt.date.fromtimestamp(T0 + n * DAY).isoformat()


def session(store: SessionStore, sid: str, start: float, turns: list[tuple[str, str]]) -> None:
    store.start_session(id=sid, started_at=start)
    store.append_messages(
        sid,
        [NewMessage(role, text, timestamp=start + 60 * i) for i, (role, text) in enumerate(turns)],
    )


def history(store: SessionStore) -> None:
    """A deadline stated on day 0 (and repeated by the assistant), moved on day 30; other
    deadlines and budgets around it; small talk in between."""
    session(store, "s00", T0, [
        ("user", "Can you suggest a quick dinner with chickpeas?"),
        ("assistant", "A chickpea curry takes twenty minutes."),
        ("user", "The deadline for the billing launch is March 3."),
        ("assistant", "Noted. The deadline for the billing launch is March 3."),
        ("user", "Our monthly budget for groceries is 400 euros."),
        ("assistant", "Okay."),
    ])  # fmt: skip
    session(store, "s10", T0 + 10 * DAY, [
        ("user", "The deadline for the pricing page is April 9."),
        ("assistant", "Got it."),
        ("user", "How do I undo the last git commit?"),
        ("assistant", "git reset --soft HEAD~1 keeps the changes staged."),
    ])  # fmt: skip
    session(store, "s30", T0 + 30 * DAY, [
        ("user", "Heads up: the billing launch deadline moved to March 17, we have more time now."),
        ("assistant", "Thanks for the update."),
        ("user", "Our monthly budget for marketing is 900 euros."),
        ("assistant", "Noted."),
    ])  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db")
    history(s)
    yield s
    s.close()


def first_match(store: SessionStore, args: dict[str, Any]) -> str:
    resp = run_session_search(store, {"mode": "lexical", **args})
    assert resp["success"], resp
    best = resp["results"][0]
    text = next(m["content"] for m in best["messages"] if m.get("match"))
    return str(text)


def test_an_update_ranks_above_the_statement_it_replaces(store: SQLiteSessionStore) -> None:
    got = first_match(store, {"query": "When is the deadline for the billing launch?"})
    assert got.startswith("Heads up: the billing launch deadline moved to March 17")


def test_the_update_says_why_it_moved(store: SQLiteSessionStore) -> None:
    resp = run_session_search(
        store, {"query": "When is the deadline for the billing launch?", "mode": "lexical"}
    )
    anchor = resp["results"][0]
    assert "fresh" in anchor["notes"]


def test_a_question_about_the_first_value_finds_the_earlier_statement(
    store: SQLiteSessionStore,
) -> None:
    got = first_match(store, {"query": "What was the original deadline for the billing launch?"})
    assert "March 3" in got and "March 17" not in got


def test_as_of_leaves_later_messages_out(store: SQLiteSessionStore) -> None:
    args = {"query": "When is the deadline for the billing launch?", "as_of": day(20)}
    resp = run_session_search(store, {"mode": "lexical", **args, "limit": 10})
    shown = [m["content"] for r in resp["results"] for m in r["messages"]]
    assert not any("March 17" in text for text in shown)
    assert "March 3" in first_match(store, args)
    assert resp["time"]["until"].startswith(day(21))


def test_as_of_written_in_the_question(store: SQLiteSessionStore) -> None:
    got = first_match(store, {"query": f"billing launch deadline as of {day(20)}"})
    assert "March 3" in got


def test_another_thing_of_the_same_kind_does_not_supersede(store: SQLiteSessionStore) -> None:
    got = first_match(store, {"query": "What is our monthly budget for groceries?"})
    assert "groceries" in got


def test_a_question_about_an_event_keeps_the_ranking_by_relevance(
    store: SQLiteSessionStore,
) -> None:
    # asked in the past tense: what happened then, not a state a later message replaces
    got = first_match(store, {"query": "What did I say the deadline for the billing launch was?"})
    assert got.startswith("The deadline for the billing launch is March 3")


def test_as_of_must_be_a_readable_time(store: SQLiteSessionStore) -> None:
    resp = run_session_search(store, {"query": "deadline", "as_of": "soonish"})
    assert resp["success"] is False and resp["error_code"] == "invalid_argument"
    assert "as_of" in resp["error"]


def test_the_cli_asks_as_of_a_date(home_path: Path) -> None:
    from mnemic.home import Home

    with open_store(Home.open()) as s:
        history(s)
    query = "When is the deadline for the billing launch?"
    out = CliRunner().invoke(
        main, ["sessions", "search", query, "--as-of", day(20), "--mode", "lexical", "--json"]
    )
    assert out.exit_code == 0, out.output
    resp = json.loads(out.output)
    top = next(m for m in resp["results"][0]["messages"] if m.get("match"))
    assert "March 3" in top["content"]


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("Where does my sister live now?", "now"),
        ("Where does my sister live?", "any"),
        ("Where did my sister live before?", "past"),
        ("What was the original deadline?", "past"),
        ("When did Caroline go to the support group?", "event"),
        ("我姐姐以前住在哪里？", "past"),
        ("我姐姐现在住在哪里？", "now"),
        ("Wo hat meine Schwester früher gewohnt?", "past"),
        ("Was ist unser Ziel für den Sommerurlaub?", "any"),
        ("¿Dónde vive ahora mi hermana?", "now"),
        # recall 21: Chinese says what English tense and time words say
        ("卡罗琳研究了什么？", "event"),
        ("他为了什么去北京？", "any"),
        ("内特第一次赢得比赛是什么时候？", "past"),
        ("内特正在玩什么游戏？", "now"),
    ],
)
def test_what_a_question_asks_about_time(question: str, intent: str) -> None:
    assert read_timeframe(question).intent == intent


@pytest.mark.parametrize(
    ("question", "start", "end", "until"),
    [
        ("What did Joanna finish on 23 January, 2022?", "2022-01-23", "2022-01-24", None),
        ("What did Mel paint in July 2023?", "2023-07-01", "2023-08-01", None),
        ("2023年6月3日讨论了什么？", "2023-06-03", "2023-06-04", None),
        ("Was war am 3. März 2024 geplant?", "2024-03-03", "2024-03-04", None),
        ("How many tournaments had Nate won by July 10, 2022?", None, None, "2022-07-11"),
        ("截至2024年3月10日的截止日期是哪天？", None, None, "2024-03-11"),
        ("the deadline as of 2024-05-02", None, None, "2024-05-03"),
        # recall 21: a month without a year or a day, as "in August"
        ("卡罗琳八月份参加了什么游行？", "2024-08-01", "2024-09-01", None),
        ("他十二月去了哪里？", "2024-12-01", "2025-01-01", None),
        ("9月的计划是什么？", "2024-09-01", "2024-10-01", None),
        ("他三个月前搬家了吗？", None, None, None),
    ],
)
def test_dates_in_a_question(
    question: str, start: str | None, end: str | None, until: str | None
) -> None:
    frame = read_timeframe(question, now=dt.datetime(2024, 12, 1).timestamp())

    def iso(day: str) -> float:
        return dt.datetime.fromisoformat(day).timestamp()

    assert frame.anchor == ((iso(start), iso(end)) if start and end else None)
    assert frame.until == (iso(until) if until else None)


def test_a_date_the_question_names_lifts_the_messages_of_that_day(tmp_path: Path) -> None:
    with SQLiteSessionStore(tmp_path / "s.db") as s:
        for n, when in enumerate((T0, T0 + 40 * DAY, T0 + 80 * DAY)):
            session(s, f"d{n}", when, [("user", f"I painted a sunset picture, number {n}.")])
        named = dt.date.fromtimestamp(T0 + 40 * DAY)
        question = f"What did I paint on {named.day} {named.strftime('%B')} {named.year}?"
        got = first_match(s, {"query": question})
    assert got.endswith("number 1.")


def test_a_long_reply_holding_the_words_apart_states_nothing_new(tmp_path: Path) -> None:
    """A later reply that holds the question's words in different sentences (a tip
    about daily practice, another about small steps) is no new statement of the fact."""
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    try:
        session(store, "s00", T0, [
            ("user", "My daily step goal is 10,000 steps."),
            ("assistant", "Good target."),
        ])  # fmt: skip
        session(store, "s20", T0 + 20 * DAY, [
            ("user", "How do I get better at the guitar?"),
            ("assistant", "Practise a little every day: daily practice beats a long weekly "
             "session. Learn one chord change at a time. Small, consistent steps matter more "
             "than a perfect plan. Set a goal you can reach in a month, and record yourself "
             "once a week to hear what improved."),
        ])  # fmt: skip
        ranking = search_messages(store, "What is my daily step goal?", mode="lexical")
    finally:
        store.close()
    first = ranking.results[0]
    assert first.snippet == "My daily step goal is 10,000 steps."
    assert all("fresh" not in " ".join(r.why) for r in ranking.results)


def test_copies_of_a_template_sentence_do_not_make_its_word_common(tmp_path: Path) -> None:
    """An assistant that repeats one sentence in many replies ("Small, consistent steps
    matter more than a perfect plan") made "step" look as common as "goal", so "goal"
    became the update's most specific word and a later message about another goal (a
    road bike) moved above the step goal's update as if it replaced it (long chat dev,
    "What is my daily step goal?", hybrid: the stale goal first, the bike second, the
    update third). The copies are one holder of the sentence's words. The fused order
    and scores are those a hybrid ranking gave (the step reorders any ranking)."""
    tip = "Small, consistent steps matter more than a perfect plan."
    question = "What is my daily step goal?"
    with SQLiteSessionStore(tmp_path / "sessions.db") as store:
        session(store, "s00", T0, [
            ("user", "My daily step goal is 12,000 steps."),
            ("user", "My goal for the marathon is to finish under 4 hours."),
        ])  # fmt: skip
        for n in range(1, 7):
            session(store, f"s{n:02d}", T0 + n * DAY, [
                ("user", f"How should I train in week {n}?"),
                ("assistant", f"Happy to help. {tip} Rest on day {n}."),
            ])  # fmt: skip
        session(
            store, "s20", T0 + 20 * DAY, [("user", "I raised my step goal to 7,500 steps a day.")]
        )
        session(store, "s40", T0 + 40 * DAY, [
            ("user", "I am saving for a new road bike, that is my big goal this year."),
        ])  # fmt: skip
        ranked = [("s00", 0, 0.92), ("s20", 0, 0.80), ("s00", 1, 0.40), ("s40", 0, 0.36)]
        ranked += [(f"s{n:02d}", 1, 0.30) for n in range(1, 7)]
        fused = []
        for sid, seq, strength in ranked:
            m = store.messages(sid)[seq]
            hit = SemanticHit(m.id, sid, seq, 0.85)
            fused.append(FusedMessage(sid, seq, strength, ("semantic",), None, hit))
        out = freshen(store, fused, parse_query(question), read_timeframe(question))
    texts = [f"{f.session_id}#{f.seq}" for f in out]
    assert texts[:3] == ["s00#0", "s20#0", "s00#1"], texts
    assert all("fresh" not in f.notes for f in out if f.session_id == "s40"), out


def test_the_cli_says_how_it_read_the_time_in_a_question(home_path: Path) -> None:
    """The time a question names ("as of January 2024", ``--as-of``) cuts later messages
    out; the JSON said so (``time``) but the table did not, so a person could not tell
    that the update was left out on purpose, nor a date misread."""
    from mnemic.home import Home

    with open_store(Home.open()) as s:
        history(s)
    words = "When was the deadline for the billing launch as of January 2024?"
    for extra in ([], ["--messages"]):
        out = CliRunner().invoke(main, ["sessions", "search", words, "--mode", "lexical", *extra])
        assert out.exit_code == 0, out.output
        said = " ".join(out.output.split())
        assert "Time: as of January 2024 → only messages before 2024-02-01" in said, said
    plain = "When is the deadline for the billing launch?"
    out = CliRunner().invoke(
        main, ["sessions", "search", plain, "--as-of", day(20), "--mode", "lexical"]
    )
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    read = f"Time: --as-of → only messages before {day(21)} 00:00 +"
    assert read in said, said
    out = CliRunner().invoke(main, ["sessions", "search", plain, "--mode", "lexical"])
    assert "Time:" not in out.output


# recall 22: "before <a day>" keeps the day named (an event told that day happened before
# it: "...was shown on the big screen last Sunday", said on 25 October, answers "on the
# Sunday before October 25"); a month or a year is cut at its start; a time of day is
# strict; Chinese puts 之前 / 以前 / 前 after the date.
@pytest.mark.parametrize(
    ("question", "until"),
    [
        ("What had I decided before 3 May 2023?", "2023-05-04"),
        ("What was shown on the Sunday before October 25, 2022?", "2022-10-26"),
        ("Was hatten wir vor dem 3. Mai 2023 beschlossen?", "2023-05-04"),
        ("¿Qué decidimos antes del 3 de mayo de 2023?", "2023-05-04"),
        ("What had I decided before 2023-05-03?", "2023-05-04"),
        ("What had I decided before May 2023?", "2023-05-01"),
        ("2022年10月25日之前的那个星期天，放映了什么？", "2022-10-26"),
        ("在2023年5月3日以前我们决定了什么？", "2023-05-04"),
        ("5月3日前我们决定了什么？", "2024-05-04"),
        ("2023年5月之前的预算是多少？", "2023-05-01"),
        ("What had I decided before 2023-05-03T14:30?", "2023-05-03T14:30"),
        ("What had I decided before 3 May 2023 at 14:30?", "2023-05-03T14:30"),
        ("2023年5月3日14:30之前我们决定了什么？", "2023-05-03T14:30"),
        ("2023年5月3日14点之前我们决定了什么？", "2023-05-03T14:00"),
        ("the deadline as of 2023-05-03 14:30", "2023-05-03T14:30"),
        ("2023年5月3日14点之前和6月1日的计划是什么？", "2023-05-03T14:00"),  # two dates
    ],
)
def test_before_a_day_keeps_the_day_and_a_time_of_day_is_strict(question: str, until: str) -> None:
    frame = read_timeframe(question, now=dt.datetime(2024, 12, 1).timestamp())
    assert frame.until == dt.datetime.fromisoformat(until).timestamp(), frame


def test_before_a_day_is_its_cut_and_its_messages_lifted_not_the_past() -> None:
    """A "before <date>" reads as "as of" does (what held then, the latest first); the day
    named is lifted as any date named is (a month before which is cut is not); a bare
    "before" still asks for the earlier statement."""
    frame = read_timeframe("2022年10月25日之前的那个星期天，乔安娜的什么作品在大银幕上放映了？")
    day = dt.datetime(2022, 10, 25)
    assert frame.anchor == (day.timestamp(), (day + dt.timedelta(days=1)).timestamp())
    assert frame.until == frame.anchor[1]
    assert frame.words == ("before 2022年10月25日",)
    assert read_timeframe("What had I decided before May 2023?").anchor is None
    around = read_timeframe("2023年5月3日前后我们决定了什么？")  # 前后: "around", no cut
    assert around.until is None and around.anchor is not None
    assert frame.intent == read_timeframe("What had I decided before 3 May 2023?").intent == "now"
    assert read_timeframe("Where did my sister live before?").intent == "past"


def test_before_a_day_the_question_names_keeps_what_was_said_that_day(tmp_path: Path) -> None:
    """The message said ON the named day is found, in English and Chinese; the day after
    is left out; before a time of that day, what was said after it is left out."""
    noon = dt.datetime(2023, 5, 3, 12, 0).timestamp()
    with SQLiteSessionStore(tmp_path / "s.db") as s:
        session(s, "a", noon - 2 * DAY, [("user", "We decided the venue: the old mill, number 1.")])
        session(s, "b", noon, [("user", "We decided the venue: the harbour hall, number 2.")])
        session(s, "c", noon + DAY, [("user", "We decided the venue: the city park, number 3.")])

        def found(question: str, **extra: Any) -> list[str]:
            args = {"query": question, "mode": "lexical", "limit": 10, **extra}
            resp = run_session_search(s, args)
            assert resp["success"], resp
            return [
                m["content"][-9:] for r in resp["results"] for m in r["messages"] if m.get("match")
            ]

        for question in (
            "Which venue had we decided before 3 May 2023?",
            "2023年5月3日之前 decided venue",
        ):
            got = found(question)
            assert "number 2." in got and "number 3." not in got, (question, got)
        got = found("Which venue had we decided before 2023-05-03T11:00?")
        assert "number 1." in got and "number 2." not in got, got
        # --as-of a day keeps that day, as "before <the day>" does; --as-of a time is strict
        assert sorted(found("Which venue had we decided?", as_of="2023-05-03")) == sorted(
            found("Which venue had we decided before 3 May 2023?")
        )
        got = found("Which venue had we decided?", as_of="2023-05-03T11:00")
        assert "number 1." in got and "number 2." not in got, got
