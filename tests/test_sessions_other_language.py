"""A question in another language than the chat: its semantic candidates lend their
neighbours more (recall 37, ``hybrid.SEMANTIC_CONTEXT_OTHER``), and an English question is
never read as one (``retrieval.english`` / ``other_language``)."""

from __future__ import annotations

from mnemic.sessions.search.hybrid import SemanticHit, fuse
from mnemic.sessions.search.retrieval import english, other_language


def _hits() -> list[SemanticHit]:
    # the best hit at seq 5 (strength 1), a second at seq 20 (0.6), the worst at seq 40 (0)
    return [
        SemanticHit(1, "s", 5, 0.90, 60),
        SemanticHit(2, "s", 20, 0.86, 60),
        SemanticHit(3, "s", 40, 0.80, 60),
    ]


def _order(**kw: bool) -> list[int]:
    return [f.seq for f in fuse([], _hits(), **kw)]


def test_the_turn_beside_the_best_hit_outranks_a_weaker_hit_for_another_language() -> None:
    other = _order(other=True)
    assert other.index(6) < other.index(20)
    assert other.index(4) < other.index(20)


def test_a_question_in_the_chats_own_language_keeps_its_order() -> None:
    same = _order()
    assert same.index(20) < same.index(6)
    assert same == _order(other=False)


def test_english_questions_are_english() -> None:
    for text in (
        "What did Caroline research?",
        "Which city have both Jean and John visited?",
        "How many ewes does Gwen have now?",
        "Toby's asthma during the move?",
    ):
        assert english(text), text


def test_questions_in_other_languages_are_not() -> None:
    for text in (
        "¿Qué enfermedad tiene Toby?",
        "卡罗琳研究了什么？",
        "Ile owiec ma teraz Gwen?",
        "Was hat Caroline erforscht?",
        "Кто такой Родри?",
    ):
        assert not english(text), text


def test_other_language_reads_the_chat() -> None:
    english_chat = "I finally got the new saw sharpened and the client paid on time."
    german_chat = "Ich habe die Säge geschärft und der Kunde hat pünktlich bezahlt."
    latin = {"LATIN"}
    assert other_language("¿Qué enfermedad tiene Toby?", latin, lambda: english_chat)
    assert not other_language("Was hat der Kunde bezahlt?", latin, lambda: german_chat)
    assert other_language("卡罗琳研究了什么？", latin, lambda: german_chat)
    assert not other_language("What did the client pay?", latin, lambda: english_chat)
    assert not other_language("¿Qué enfermedad tiene Toby?", None, lambda: english_chat)
