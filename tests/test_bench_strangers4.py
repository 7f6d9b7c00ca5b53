"""The held-out ``strangers4`` set of ``./x bench recall`` (issue 33): the files are what the
hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive, dates
increasing over four to ten months), one user talking to an assistant whose replies are
long next to the user's short facts, every evidence id is a turn of its conversation,
multi-hop evidence spans sessions (often three or more), every other-language question is
one of the English ones with the same evidence, and every question is in the test split
(nothing to tune on)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

from _strangers_sets import (
    assert_all_test_and_keys_of_their_store,
    assert_categories,
    assert_conversations,
    assert_long_replies,
    assert_other_languages,
    builder,
    load,
    spread_lists,
)

NAME = "strangers4"
LANGS = {"zh", "es", "de", "fr", "pt", "it", "nl", "pl", "ru", "ja", "ko", "tr"}


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    assert builder(NAME).build() == load(NAME)


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    assert_conversations(NAME)


def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed() -> None:
    data, _ = load(NAME)
    counts = assert_categories(data, 70, 85)
    total = sum(counts.values())
    assert counts[1] / total >= 0.18 and counts[2] / total >= 0.18  # multi-hop, temporal
    assert counts[5] / total >= 0.1  # adversarial: asked about what was never said
    assert spread_lists(data) >= 30  # lists spread over three sessions or more


def test_the_assistant_writes_long_replies_next_to_short_user_facts() -> None:
    assert_long_replies(load(NAME)[0])


def test_other_language_questions_are_english_ones_asked_again() -> None:
    data, xl = load(NAME)
    assert_other_languages(data, xl, LANGS, zh=30, each=6)
    assert len(xl) >= 100


def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    assert_all_test_and_keys_of_their_store(NAME, tmp_path)
