"""The held-out ``strangers2`` set of ``./x bench recall`` (issue 33): the files are what the
hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive, dates
increasing), every evidence id is a turn of its conversation, every fact that changes has
its questions, and every question is in the test split (nothing in it to tune on)."""

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

NAME = "strangers2"
LANGS = {"zh", "es", "de", "fr", "pt", "it"}


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    assert builder(NAME).build() == load(NAME)


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    assert_conversations(NAME)


def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed() -> None:
    data, xl = load(NAME)
    assert_categories(data, 55, 80)
    assert_other_languages(data, xl, LANGS, zh=35, each=10)


def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    assert_all_test_and_keys_of_their_store(NAME, tmp_path)
