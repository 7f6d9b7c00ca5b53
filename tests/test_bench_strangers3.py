"""The held-out ``strangers3`` set of ``./x bench recall`` (issue 33): the files are what the
hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive, dates
increasing over four to ten months), every evidence id is a turn of its conversation,
multi-hop evidence spans sessions, every other-language question is one of the English
ones with the same evidence, and every question is in the test split (nothing to tune on)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

from _strangers_sets import (
    assert_all_test_and_keys_of_their_store,
    assert_categories,
    assert_conversations,
    assert_other_languages,
    builder,
    load,
)

NAME = "strangers3"
LANGS = {"zh", "es", "de", "fr", "pt", "it", "nl", "pl"}


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    assert builder(NAME).build() == load(NAME)


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    assert_conversations(NAME)


def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed() -> None:
    data, _ = load(NAME)
    counts = assert_categories(data, 55, 80)
    total = sum(counts.values())
    assert counts[1] / total >= 0.18 and counts[2] / total >= 0.18  # multi-hop, temporal


def test_other_language_questions_are_english_ones_asked_again() -> None:
    data, xl = load(NAME)
    assert_other_languages(data, xl, LANGS, zh=35, each=8)


def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    assert_all_test_and_keys_of_their_store(NAME, tmp_path)
