"""The held-out ``strangers1`` set of ``./x bench recall`` (issue 33): the files load in
LoCoMo's shape, are what the hand-written source builds, every evidence id is a turn of
its conversation, and every question is in the test split (nothing in it to tune on)."""

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
    source,
)

NAME = "strangers1"


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    build = builder(NAME)
    samples, xl = [], []
    for path in sorted(source(NAME).glob("*.txt")):
        sample, extra = build.parse(path)
        samples.append(sample)
        xl += extra
    assert (samples, xl) == load(NAME)


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    assert_conversations(NAME)


def test_every_evidence_id_is_a_turn_and_every_category_is_asked() -> None:
    data, xl = load(NAME)
    assert_categories(data, 55, 70)
    assert_other_languages(data, xl, {"zh", "es", "de"}, zh=1, each=1)


def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    assert_all_test_and_keys_of_their_store(NAME, tmp_path)
