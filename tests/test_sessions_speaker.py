"""Who said it: a question in the first person finds the user's own words before the
assistant's long replies on the same topic; one about what the assistant said finds the
assistant's reply first; a question about someone else changes nothing."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mnemic.sessions.search.speaker as speaker_module
from _backends import Kit
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store, search_messages
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from mnemic.sessions.search.speaker import (
    NameMatcher,
    asked_role,
    named_speaker,
    place_statements,
    scripts,
    yield_replies,
)
from mnemic.sessions.store import Hit
from test_sessions_search_modes import VectorStore, real_embedder

T0 = 1_750_000_000.0
REPLY = (
    "Cats scratch to mark territory, so give your cat a scratching post by the sofa. "
    "An adopted cat from a shelter needs a week or two to settle; a cat named after "
    "a favourite food is a fine tradition. Reward the cat when she uses the post."
)
FACT = "I adopted a kitten last weekend, she is called Miso."


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db")
    s.start_session(id="cat", started_at=T0)
    turns = [
        ("user", "How do I stop my kitten from ruining the sofa?"),
        ("assistant", REPLY),
        ("user", FACT),
        (
            "assistant",
            "Lovely. Miso will settle in soon; a tall sisal scratching post works best.",
        ),
        ("user", "I bought a scratching post."),
    ]
    s.append_messages(
        "cat", [NewMessage(r, t, timestamp=T0 + 60 * i) for i, (r, t) in enumerate(turns)]
    )
    yield s
    s.close()


def test_a_question_in_the_first_person_finds_the_users_words_first(
    store: SQLiteSessionStore,
) -> None:
    ranking = search_messages(store, "What is the name of the cat I adopted?", mode="lexical")
    first = ranking.results[0]
    assert (first.role, first.snippet) == ("user", FACT)
    reply = next(r for r in ranking.results if r.snippet.startswith("Cats scratch"))
    assert "other side: the question asks about the other speaker's words" in reply.why


def test_a_question_about_what_the_assistant_said_finds_its_reply_first(
    store: SQLiteSessionStore,
) -> None:
    ranking = search_messages(store, "Which scratching post did you recommend?", mode="lexical")
    # both replies that name a scratching post, then the user's own post
    assert [r.role for r in ranking.results[:3]] == ["assistant", "assistant", "user"]
    assert ranking.results[2].snippet == "I bought a scratching post."


@pytest.mark.parametrize(
    ("question", "role"),
    [
        ("Which cities did I visit for long weekends?", "user"),
        ("Where do I work now?", "user"),
        ("Do you remember where my sister lives?", "user"),
        ("Can you tell me where I parked last week?", "user"),
        ("Which book would you recommend for my flight?", "assistant"),
        ("How long did you say my first long run should be?", "assistant"),
        ("What was your recommendation for the balcony plants?", "assistant"),
        ("Wie heißt mein Hund?", "user"),
        ("我姑姑住在哪里？", "user"),
        ("你推荐的书是哪本？", "assistant"),
        ("What did Caroline research?", None),
        ("When is the deadline for the billing launch?", None),
    ],
)
def test_whose_words_a_question_asks_about(question: str, role: str | None) -> None:
    assert asked_role(question) == role


def test_the_roles_of_positions_are_read_on_both_backends(backend: Kit) -> None:
    with open_store(Home.open(backend.write_config())) as s:
        s.start_session(id="a", started_at=T0)
        s.append_messages("a", [NewMessage("user", "hi"), NewMessage("assistant", "hello")])
        got = s.roles_at([("a", 1), ("a", 0), ("a", 7), ("nope", 0)])
    assert got == ["assistant", "user", None, None]


def test_the_speakers_of_positions_are_read_on_both_backends(backend: Kit) -> None:
    with open_store(Home.open(backend.write_config())) as s:
        s.start_session(id="a", started_at=T0)
        s.append_messages(
            "a", [NewMessage("user", "hi", name="Nate"), NewMessage("assistant", "hello")]
        )
        got = s.speakers_at([("a", 1), ("a", 0), ("a", 7), ("nope", 0)])
    assert got == [("assistant", None), ("user", "Nate"), None, None]


def _chat(path: Path, names: tuple[str | None, str | None]) -> SQLiteSessionStore:
    """Two people talking about ice cream: the reply of the one a question does not name
    holds more of the question's words than the message of the one it names."""
    s = SQLiteSessionStore(path)
    s.start_session(id="chat", started_at=T0)
    turns = [
        (0, "Yesterday I made coconut ice cream from scratch."),
        (1, "Ice cream from scratch! I made coconut ice cream from scratch last summer too, "
            "and mango ice cream."),
        (0, "It came out rich and creamy."),
        (1, "Sounds lovely."),
    ]  # fmt: skip
    s.append_messages(
        "chat",
        [
            NewMessage(
                "user" if who == 0 else "assistant", text, name=names[who], timestamp=T0 + 60 * i
            )
            for i, (who, text) in enumerate(turns)
        ],
    )
    return s


NATES = "Yesterday I made coconut ice cream from scratch."


def test_a_question_naming_one_speaker_finds_that_speakers_words_first(tmp_path: Path) -> None:
    with _chat(tmp_path / "s.db", ("Nate", "Joanna")) as s:
        ranking = search_messages(s, "What ice cream did Nate make from scratch?", mode="lexical")
        joanna = search_messages(s, "What ice cream did Joanna make from scratch?", mode="lexical")
    assert ranking.results[0].snippet == NATES
    joannas = [r for r in ranking.results if r.role == "assistant"]
    assert joannas and all(
        "other side: the question asks about the other speaker's words" in r.why for r in joannas
    )
    assert joanna.results[0].snippet.startswith("Ice cream from scratch!")


def test_a_question_naming_both_speakers_or_none_is_not_weighed(tmp_path: Path) -> None:
    """The reply with more of the words stays first: the question names both speakers,
    or the messages have no speaker names (a chat with an assistant)."""
    with _chat(tmp_path / "named.db", ("Nate", "Joanna")) as s:
        both = search_messages(
            s, "What ice cream did Nate and Joanna make from scratch?", mode="lexical"
        )
    with _chat(tmp_path / "plain.db", (None, None)) as s:
        plain = search_messages(s, "What ice cream did Nate make from scratch?", mode="lexical")
    for ranking in (both, plain):
        assert [r.seq for r in ranking.results[:2]] == [1, 0]
        assert not any("other side" in w for r in ranking.results for w in r.why)


def test_a_tools_name_is_not_a_speaker(tmp_path: Path) -> None:
    """Tool results carry their tool's name (the ChatGPT importer): a question naming a
    tool weighs no message down."""
    s = SQLiteSessionStore(tmp_path / "s.db")
    s.start_session(id="t", started_at=T0)
    s.append_messages(
        "t",
        [
            NewMessage("user", "Find coconut ice cream recipes.", timestamp=T0),
            NewMessage(
                "tool", "coconut ice cream recipes: 12 found", name="search", timestamp=T0 + 1
            ),
            NewMessage("tool", "coconut ice cream page opened", name="browser", timestamp=T0 + 2),
        ],
    )
    with s:
        ranking = search_messages(
            s, "What did the browser find about coconut ice cream recipes?",
            mode="lexical", roles=("user", "assistant", "tool"),
        )  # fmt: skip
    assert len(ranking.results) == 3
    assert not any("other side" in w for r in ranking.results for w in r.why)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What recipes has Nate made?", "Nate"),
        ("What inspired Nate's painting?", "Nate"),
        ("What did Nate recommend to Joanna?", None),
        ("What did Natalie paint?", None),
        ("What is the weather like?", None),
    ],
)
def test_which_speaker_a_question_names(question: str, named: str | None) -> None:
    assert named_speaker(question, {"Nate", "Joanna"}) == named


CAKES = [
    ("Nate", "I baked a lemon cake for my friends last weekend."),
    ("Joanna", "I baked a chocolate cake for my friends last weekend, they loved the cake!"),
    ("Nate", "They finished it in ten minutes."),
    ("Joanna", "Sounds like a great party."),
]


def test_a_question_naming_a_speaker_in_another_script_finds_that_speakers_words_first(
    tmp_path: Path,
) -> None:
    """The names are written in Latin letters, the question in Chinese ("What cake did
    Nate bake for his friends?"): Joanna's reply holds more of its meaning, yet Nate's
    message ranks first, found through the shipped embedder (skipped without it)."""
    embedder = real_embedder()
    with VectorStore(tmp_path / "s.db") as s:
        s.start_session(id="chat", started_at=T0)
        s.append_messages(
            "chat",
            [
                NewMessage("user" if i % 2 == 0 else "assistant", t, name=n, timestamp=T0 + i)
                for i, (n, t) in enumerate(CAKES)
            ],
        )
        s.embed(embedder)

        def ranking(question: str) -> list[Any]:
            found = search_messages(s, question, mode="hybrid", embedder_loader=lambda: embedder)
            assert found.mode == "hybrid", found.notice
            return list(found.results)

        nate = ranking("内特给朋友烤了什么蛋糕？")
        joanna = ranking("乔安娜给朋友烤了什么蛋糕？")
        english = ranking("What cake did Nate bake for his friends?")
    assert nate[0].seq == 0
    assert any("other side" in w for r in nate if r.seq == 1 for w in r.why)
    assert joanna[0].seq == 1  # the one it names said the most of it: nothing moves
    assert not any("other side" in w for r in joanna if r.seq == 1 for w in r.why)
    assert english[0].seq == 0  # named in its own script: the literal name, as before


class NameTable:
    """A stand-in embedder (no model needed): fixed vectors for the speaker names,
    counting what it is asked to embed."""

    model_id = "name-table-1"

    def __init__(self, vectors: dict[str, list[float]], *, failing: bool = False) -> None:
        self.vectors = vectors
        self.asked: list[str] = []
        self.failing = failing

    def embed_queries(self, texts: Sequence[str]) -> Any:
        self.asked += texts
        if self.failing:
            raise RuntimeError("model failed")
        return np.asarray([self.vectors[t] for t in texts], np.float32)


def test_whom_a_question_in_another_script_names_by_meaning() -> None:
    table = NameTable({"Nate": [1.0, 0.0, 0.0], "Joanna": [0.0, 1.0, 0.0]})
    near_nate = np.asarray([0.8, 0.2, 0.5], np.float32)
    between = np.asarray([0.5, 0.49, 0.7], np.float32)
    assert NameMatcher(table, near_nate)("内特做了什么？", {"Nate", "Joanna"}) == "Nate"
    # too close to call, one name only, or the question in the names' own script: none
    assert NameMatcher(table, between)("他们做了什么？", {"Nate", "Joanna"}) is None
    assert NameMatcher(table, near_nate)("内特做了什么？", {"Nate"}) is None
    assert NameMatcher(table, near_nate)("What did he make?", {"Nate", "Joanna"}) is None
    assert sorted(table.asked) == ["Joanna", "Nate"]  # each name embedded once


def test_a_model_failing_on_the_names_leaves_the_question_unweighed() -> None:
    failing = NameTable({}, failing=True)
    failing.model_id = "name-table-failing"
    vector = np.asarray([1.0, 0.0], np.float32)
    assert NameMatcher(failing, vector)("内特做了什么？", {"Nate", "Joanna"}) is None
    assert failing.asked == ["Joanna", "Nate"]


def test_the_scripts_of_a_text() -> None:
    assert scripts("Nate 内特, 2022!") == {"LATIN", "CJK"}
    assert scripts("Ça va, Zoë?") == {"LATIN"}
    assert scripts("Наташа") == {"CYRILLIC"}


CITY_CHAT = [
    ("user", "Which city should I visit on a long weekend in spring?"),
    ("assistant", "Porto, Ghent or Tallinn are all easy by train or a short flight."),
    ("user", "I visited Ghent for a long weekend."),
    ("assistant", "The canals at night are worth it."),
    ("user", "What cities are good for a weekend away with kids?"),
    ("assistant", "Copenhagen and Vienna have great parks and museums."),
    ("user", "Are long weekends better in cities or in the countryside?"),
    ("assistant", "It depends on what rests you more: museums or walks."),
]


def test_a_first_person_question_finds_what_the_user_stated_before_what_they_asked(
    tmp_path: Path,
) -> None:
    """A question "Which cities did I visit…?" is as near in meaning to the user's own question
    about cities as to their statement; the statement ranks first (hybrid), found
    through the shipped embedder (skipped without it). Before, the user's question
    ranked first."""
    embedder = real_embedder()
    with VectorStore(tmp_path / "s.db") as s:
        s.start_session(id="chat", started_at=T0)
        s.append_messages(
            "chat", [NewMessage(r, t, timestamp=T0 + i) for i, (r, t) in enumerate(CITY_CHAT)]
        )
        s.embed(embedder)

        def ranking(question: str, mode: str) -> list[int]:
            found = search_messages(s, question, mode=mode, embedder_loader=lambda: embedder)
            assert found.mode == mode, found.notice
            return [r.seq for r in sorted(found.results, key=lambda r: r.rank)]

        hybrid = ranking("Which cities did I visit for long weekends?", "hybrid")
        semantic = ranking("Which cities did I visit for long weekends?", "semantic")
    assert hybrid[0] == 2
    assert semantic.index(2) < semantic.index(0)


DOG = [
    ("user", "We picked up the greyhound from the rescue on Saturday. We're calling him Parsnip."),
    ("assistant", "Congratulations on adopting Parsnip. Retired racing greyhounds are gentle, "
     "quiet dogs that usually settle well into a home, though the first weeks are a big change."),
    ("user", "Parsnip is terrified of the hoover. He ran behind the sofa when I switched it on."),
    ("assistant", "Fear of the vacuum cleaner is very common in ex-racing dogs. Loud household "
     "appliances are new to them: run it in another room first and reward him for calm."),
]  # fmt: skip


def test_the_users_statement_ranks_above_the_reply_that_answers_it(tmp_path: Path) -> None:
    """ "What did we call the retired racing greyhound?": the assistant's reply restates
    the adoption in the question's words and wins by meaning; the user's statement before
    it holds the name and now ranks first, the reply below it (hybrid, the shipped embedder;
    skipped without it; since recall 35 the reply gives way to the next statement too).
    Before, the reply ranked first."""
    embedder = real_embedder()
    with VectorStore(tmp_path / "s.db") as s:
        s.start_session(id="dog", started_at=T0)
        s.append_messages(
            "dog", [NewMessage(r, t, timestamp=T0 + 60 * i) for i, (r, t) in enumerate(DOG)]
        )
        s.embed(embedder)
        found = search_messages(
            s, "What did we call the retired racing greyhound?", mode="hybrid",
            embedder_loader=lambda: embedder,
        )  # fmt: skip
    assert found.mode == "hybrid", found.notice
    ranked = sorted(found.results, key=lambda r: r.rank)
    seqs = [r.seq for r in ranked]
    assert seqs[0] == 0 and seqs.index(1) > 0
    assert any(w.startswith("stated:") for w in ranked[0].why)


def _fused(*rows: tuple[int, float, bool]) -> list[FusedMessage]:
    """(seq in session "c", final score, whether it matched a word of the question itself)."""
    out = []
    for seq, score, lexical in rows:
        hit = Hit(seq + 1, "c", seq, "user", T0, "cli", -3.0, 4) if lexical else None
        out.append(FusedMessage("c", seq, score, ("lexical",) if lexical else ("semantic",), hit,
                                SemanticHit(seq + 1, "c", seq, 0.8, 4)))  # fmt: skip
    return out


@pytest.fixture
def pressure(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db")
    s.start_session(id="c", started_at=T0)
    turns = [
        ("user", "Callum", "The doctor flagged my blood pressure: 145 over 92."),
        ("assistant", "Assistant", "A blood pressure of 145 over 92 is borderline high."),
        ("user", "Callum", "Is that bad for the medical?"),
        ("assistant", "Assistant", "Borderline blood pressure rarely fails a medical."),
    ]
    s.append_messages(
        "c", [NewMessage(r, t, name=n, timestamp=T0 + i) for i, (r, n, t) in enumerate(turns)]
    )
    yield s
    s.close()


def _placed(store: SQLiteSessionStore, text: str, *rows: tuple[int, float, bool]) -> list[int]:
    return [f.seq for f in place_statements(store, _fused(*rows), text)]


def test_a_statement_takes_its_replys_final_score(pressure: SQLiteSessionStore) -> None:
    """The step reads the scores the speaker step left: a reply discounted to 0.66 lifts
    its statement to 0.66 and a hair, under another match at 0.70."""
    placed = place_statements(
        pressure, _fused((2, 0.70, True), (1, 0.66, False), (0, 0.30, True)), "blood pressure?"
    )
    assert [f.seq for f in placed] == [2, 0, 1]
    assert 0.66 < placed[1].score < 0.70 and "stated" in placed[1].notes


def test_a_statement_without_its_own_words_a_question_or_a_named_replier_stays(
    pressure: SQLiteSessionStore,
) -> None:
    rows = ((1, 0.9, False), (0, 0.5, True))
    assert _placed(pressure, "What was the blood pressure?", (1, 0.9, False), (0, 0.5, False)) == [
        1, 0,
    ]  # fmt: skip
    assert _placed(pressure, "Was it bad?", (3, 0.9, False), (2, 0.5, True)) == [3, 2]
    assert _placed(pressure, "What did Assistant say about blood pressure?", *rows) == [1, 0]
    assert _placed(pressure, "What did you say about my blood pressure?", *rows) == [1, 0]
    assert _placed(pressure, "What was Callum's blood pressure?", *rows) == [0, 1]


FARM = {
    "s1": [
        ("user", "Our old dog Nell died on Sunday, in her sleep in front of the Rayburn."),
        ("assistant", "I am so sorry about Nell. Losing an old working sheepdog after so many "
         "years on the hill is hard; a good collie is part of the family and the farm both."),
        ("user", "The vet says the ewes look well for tupping."),
        ("assistant", "Good body condition before tupping pays off at scanning time."),
    ],
    "s2": [
        ("user", "I bought a pup! A collie bitch from a breeder in Tregaron, we call her Fly."),
        ("assistant", "A new collie pup is exciting. Training a young sheepdog takes patience: "
         "short sessions, lots of praise, and an older dog to learn from helps a great deal."),
        ("user", "The hay is in, forty bales."),
        ("assistant", "Forty bales should see you through a good part of the winter."),
    ],
}  # fmt: skip


def test_a_question_over_two_sessions_finds_both_statements_before_a_reply(
    tmp_path: Path,
) -> None:
    """ "Which dogs came and went on the farm?" is answered by two of the user's
    statements a month apart (the old dog died, a pup was bought). The assistant's reply
    to the first restates it and took the second place, pushing the second session's
    statement to the fourth; with one place per exchange both statements are in the first
    three (hybrid, the shipped embedder; skipped without it). Before (recall 35), the
    first three held only the first statement."""
    embedder = real_embedder()
    with VectorStore(tmp_path / "s.db") as s:
        for day, (sid, turns) in enumerate(FARM.items()):
            start = T0 + 30 * 86400 * day
            s.start_session(id=sid, started_at=start)
            s.append_messages(sid, [
                NewMessage(role, text, name="Gwen" if role == "user" else "Assistant",
                           timestamp=start + 60 * i)
                for i, (role, text) in enumerate(turns)
            ])  # fmt: skip
        s.embed(embedder)
        found = search_messages(
            s, "Which dogs came and went on the farm?", mode="hybrid",
            embedder_loader=lambda: embedder,
        )  # fmt: skip
    assert found.mode == "hybrid", found.notice
    ranked = [(r.session_id, r.seq) for r in sorted(found.results, key=lambda r: r.rank)]
    assert {("s1", 0), ("s2", 0)} <= set(ranked[:3])
    assert ranked.index(("s1", 1)) > ranked.index(("s2", 0))


def _yielded(store: SQLiteSessionStore, text: str, *rows: tuple[int, float, bool]) -> list[int]:
    return [f.seq for f in yield_replies(store, _fused(*rows), text)]


def test_a_reply_below_the_statement_it_follows_gives_way(pressure: SQLiteSessionStore) -> None:
    """The reply (1) to the statement ranked above it (0) keeps half its score and falls
    below the next match (2); the reply (3) to the user's question (2) keeps its place."""
    placed = yield_replies(
        pressure,
        _fused((0, 0.9, True), (1, 0.8, False), (2, 0.7, True), (3, 0.6, False)),
        "blood pressure?",
    )
    assert [f.seq for f in placed] == [0, 2, 3, 1]
    assert placed[3].score == pytest.approx(0.4) and "reply" in placed[3].notes
    assert "reply" not in placed[2].notes


def test_a_reply_gives_way_when_the_message_after_it_is_not_among_the_best(
    pressure: SQLiteSessionStore,
) -> None:
    """The step reads each reply with the message before it. Before recall 36 it read
    only the message before (a window stops before its end), so a reply was known only
    when the message after it was among the best too: the reply (1) kept its place above
    the next match (3) whenever the user's question (2) ranked nowhere."""
    rows = ((0, 0.9, True), (1, 0.8, False), (3, 0.7, False))
    assert _yielded(pressure, "blood pressure?", *rows) == [0, 3, 1]


def test_a_reply_above_its_statement_gives_it_its_place(
    pressure: SQLiteSessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recall 36: the reply (1) ranked above the statement it follows (0), or with the
    statement not ranked at all, gives its place to the statement (its score and a hair)
    and keeps half its own; before (``REPLY_LIFTS`` off) the reply stayed first and the
    unranked statement stayed out. A question asking what the assistant said moves
    nothing."""
    placed = yield_replies(pressure, _fused((1, 0.9, False), (0, 0.8, True)), "blood pressure?")
    assert [f.seq for f in placed] == [0, 1]
    assert placed[0].score > 0.9 and "stated" in placed[0].notes
    assert placed[1].score == pytest.approx(0.45) and "reply" in placed[1].notes
    assert _yielded(pressure, "blood pressure?", (1, 0.9, False), (2, 0.7, True)) == [0, 2, 1]
    rows = ((0, 0.9, True), (1, 0.8, False), (2, 0.7, True))
    assert _yielded(pressure, "What did you say about my blood pressure?", *rows) == [0, 1, 2]
    monkeypatch.setattr(speaker_module, "REPLY_LIFTS", False)
    assert _yielded(pressure, "blood pressure?", (1, 0.9, False), (0, 0.8, True)) == [1, 0]
    assert _yielded(pressure, "blood pressure?", (1, 0.9, False), (2, 0.7, True)) == [1, 2]


def test_a_named_persons_reply_is_no_assistants(tmp_path: Path) -> None:
    """In a dialogue between two people (LoCoMo's, the second stored as the assistant)
    the reply carries news of its own: it keeps its place."""
    with _chat(tmp_path / "s.db", ("Nate", "Joanna")) as s:
        rows = [FusedMessage("chat", seq, score, ("lexical",), None, None)
                for seq, score in ((0, 0.9), (1, 0.8), (2, 0.7))]  # fmt: skip
        assert [f.seq for f in yield_replies(s, rows, "ice cream?")] == [0, 1, 2]
    with _chat(tmp_path / "t.db", (None, None)) as s:
        assert [f.seq for f in yield_replies(s, rows, "ice cream?")] == [0, 2, 1]
