"""A question in another language than English matches its words' other inflections
(recall 13, :func:`mnemic.sessions.index.stems.inflected`): the index stems English only
(FTS5's Porter), so "Wo hat Marco früher gearbeitet?" found nothing where the chat
writes "arbeitet", nor "¿Cuánto tomaba?" where it writes "toma". English questions and
keyword searches are searched exactly as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions.index.query import Query, Term, parse_query, question_languages
from mnemic.sessions.index.stems import FORMS, inflected
from mnemic.sessions.search.messages import search_messages
from mnemic.sessions.search.retrieval import _held_by
from mnemic.sessions.search.timeframe import read_timeframe
from mnemic.sessions.store import NewMessage, SearchFilters

CHAT = [
    "Marco arbeitet bei Acme Robotics als Data Engineer.",
    "Ana toma café con leche cada mañana.",
    "We adopted a golden retriever puppy in June.",
    "Our neighbour works at the bakery on Sundays.",
    "The Sunday market sells tomatoes and working boots.",
]


@pytest.fixture
def store(tmp_path: Path) -> SQLiteSessionStore:
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    store.start_session(id="chat", started_at=1_750_000_000.0)
    store.append_messages("chat", [NewMessage("user", text) for text in CHAT])
    return store


def _found(store: SQLiteSessionStore, question: str) -> list[int]:
    """The positions a question's words find (any of them), best first."""
    hits = store.search(parse_query(question, match="any"), SearchFilters(), limit=10)
    return [h.seq for h in hits]


def test_the_language_of_a_question_is_read_from_its_function_words() -> None:
    assert question_languages("Wo hat Marco früher gearbeitet?") == ("german",)
    assert question_languages("¿Cuánto café tomaba Ana al principio?") == ("spanish",)
    assert question_languages("Onde a Ana trabalhava antes?") == ("portuguese",)
    assert question_languages("Where did Marco work before?") == ()
    assert question_languages("Was Marco at the bakery?") == ()  # "was": English wins a tie
    assert question_languages("arbeitet Marco") == ()  # no function words
    # only natural-language questions carry it: a keyword search is searched as typed
    assert parse_query("Wo hat Marco früher gearbeitet?").languages == ("german",)
    assert parse_query("gearbeitet Marco", natural=False).languages == ()
    per_term = parse_query("Wo hat Marco früher gearbeitet?").per_term()
    assert {q.languages for q in per_term} == {("german",)}


@pytest.mark.parametrize(
    ("question", "languages"),
    [
        # failed before: the two "a" (English, French, Italian and Portuguese write it)
        # counted as two English words and tied "dove", "sono": read as English
        ("Dove sono andato a fare escursioni a luglio?", ("italian",)),
        # failed before: "como", "se", "de" counted for Spanish as much as for Portuguese
        # (a tie, so Spanish inflections too)
        ("Como se faz a declaração de impostos?", ("portuguese",)),
        # failed before: "le", "la", "a", "de" tied French; "¿" is written by Spanish alone
        ("¿Qué tal le va a la tienda de Ana?", ("spanish",)),
        # English questions with words other lists share stay English
        ("Did Caroline go to a concert in a park?", ()),
        ("Is it a la carte or a buffet?", ()),
        ("Did Gina say no to a dog in the house?", ()),
    ],
)
def test_a_word_several_languages_write_decides_for_none_of_them_alone(
    question: str, languages: tuple[str, ...]
) -> None:
    assert question_languages(question) == languages
    assert parse_query(question).languages == languages


def test_a_german_participle_finds_the_present_form_the_chat_writes(
    store: SQLiteSessionStore,
) -> None:
    # failed before: "gearbeitet" is held nowhere, so only "Marco" could match, and the
    # word itself found nothing
    assert _found(store, "Wo hat er früher gearbeitet?") == [0]
    asked = [Query("gearbeitet", ((Term("gearbeitet", ("gearbeitet",)),),), languages=("german",))]
    assert store.holds(asked) == [True]
    assert store.holds([parse_query("gearbeitet")]) == [False]  # no language: as typed


def test_a_spanish_imperfect_finds_the_present_form_the_chat_writes(
    store: SQLiteSessionStore,
) -> None:
    # failed before: "tomaba" is held nowhere (the chat writes "toma")
    assert _found(store, "¿Qué tomaba él?") == [1]
    query = inflected([parse_query("¿Qué tomaba Ana?")], store._vocabulary)[0]
    forms = {t.text for g in query.groups for t in g if g[0].text == "tomaba"}
    assert "toma" in forms and "tomatoes" not in forms and "tomato" not in forms


def test_an_english_question_is_searched_exactly_as_before(store: SQLiteSessionStore) -> None:
    for question in (
        "Where does our neighbour work on Sundays?",
        "What did we adopt in June?",
        "Which boots were sold at the market?",
    ):
        query = parse_query(question, match="any")
        assert query.languages == ()
        assert inflected([query], store._vocabulary) == [query]
        # the store's own search is the engine's search of the very same query
        assert store.search(query, SearchFilters(), limit=10) == store._search(
            query, SearchFilters(), 10, "rank"
        )


def test_a_word_matches_at_most_a_few_other_forms(tmp_path: Path) -> None:
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    store.start_session(id="s")
    forms = ["arbeite", "arbeitest", "arbeiten", "arbeitete", "arbeiteten", "arbeitetest"]
    store.append_messages("s", [NewMessage("user", f"Wir {f} heute") for f in forms * 2])
    query = inflected([parse_query("Wo hat sie gearbeitet?")], store._vocabulary)[0]
    group = next(g for g in query.groups if g[0].text == "gearbeitet")
    assert 1 < len(group) <= 1 + FORMS


def test_the_held_share_counts_a_word_whose_other_form_the_index_holds(
    store: SQLiteSessionStore,
) -> None:
    question = "Wo hat Marco früher gearbeitet und gewohnt?"
    held = _held_by(store, parse_query(question, match="any"), read_timeframe(question))
    # failed before: "gearbeitet" counted as held nowhere ("gewohnt": no form is held)
    assert held(["Marco", "gearbeitet", "gewohnt"]) == ["Marco", "gearbeitet"]


def test_the_vocabulary_is_the_connections_own_and_survives_a_reindex(
    store: SQLiteSessionStore, tmp_path: Path
) -> None:
    assert store._vocabulary(["arbeit", "tom", "zzz"]) == {
        "arbeit": [("arbeitet", 1)],
        "tom": [("toma", 1), ("tomato", 1)],
        "zzz": [],
    }
    store.reindex()
    assert store._vocabulary(["arbeit"]) == {"arbeit": [("arbeitet", 1)]}
    assert _found(store, "Wo hat er früher gearbeitet?") == [0]
    store.close()
    # nothing of it is written to the file (a temp table of the connection)
    with sqlite3.connect(f"file:{tmp_path / 'sessions.db'}?mode=ro", uri=True) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert not any("vocabulary" in n for n in names)


@pytest.mark.parametrize(
    ("said", "question"),
    [
        ("Иван работает в Яндексе с прошлого года.", "Где раньше работал он?"),
        ("Marco lavora a Milano da due anni.", "Dove lavorava lui prima?"),
        ("A Ana trabalha no hospital central.", "Onde ela trabalhava antes?"),
        # "habite" is held as Porter's "habit", whose own French stem is "hab"
        ("Marie habite à Lyon depuis mars.", "Où habitait-elle avant?"),
    ],
)
def test_each_stemmed_language_finds_another_form(tmp_path: Path, said: str, question: str) -> None:
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    store.start_session(id="s")
    store.append_messages("s", [NewMessage("user", said), NewMessage("user", "Nothing here.")])
    assert _found(store, question) == [0]  # failed before: the verb's form is held nowhere
    # the result names the word asked beside the form it holds, not the compound it is
    # written in ("habit (a form of habitait-elle)" before)
    (asked,) = (w for w in ("работал", "lavorava", "trabalhava", "habitait") if w in question)
    (why,) = search_messages(store, question, mode="lexical").results[0].why
    assert why.startswith("words: ") and f"(a form of {asked})" in why, why


def test_a_name_in_a_romance_question_is_not_inflected(tmp_path: Path) -> None:
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    store.start_session(id="s")
    store.append_messages("s", [NewMessage("user", "On part en vacances en mars.")])
    # "Marie" and "mars" share the French stem "mar"; a capitalised word is a name there
    asked = parse_query("Où habitait Marie avant?")
    assert inflected([asked], store._vocabulary) == [asked]


def test_a_cyrillic_stem_keeps_its_letters_as_the_index_does(tmp_path: Path) -> None:
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    store.start_session(id="s")
    store.append_messages("s", [NewMessage("user", "Мы говорим на английском языке.")])
    # failed before: "английский" was looked up as "англииск" (й taken apart)
    assert _found(store, "Какой английский знает Иван?") == [0]


def test_a_result_shows_the_other_form_it_matched(store: SQLiteSessionStore) -> None:
    from mnemic.sessions.search.messages import search_messages
    from mnemic.sessions.search.shapes import SearchContext, discover

    found = search_messages(store, "Wo hat er früher gearbeitet?", mode="lexical")
    first = found.results[0]
    # failed before: "words" listed nothing the message holds, the snippet marked nothing
    # and since: "words: arbeitet" alone left a person to guess why a word they did not
    # type matched; the word asked is named beside the form held
    assert first.seq == 0 and "words: arbeitet (a form of gearbeitet)" in first.why
    out = discover(SearchContext(store), "Wo hat er früher gearbeitet?", mode="lexical")
    assert "words: arbeitet (a form of gearbeitet)" in out["results"][0]["why"]
    assert ">>>arbeitet<<<" in out["results"][0]["snippet"]
    assert store.forms_of(parse_query("Where did he work?")) == parse_query("Where did he work?")
