"""The held-out ``strangers2`` set of ``./x bench recall`` (issue 33): the files are what the
hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive, dates
increasing), every evidence id is a turn of its conversation, every fact that changes has
its questions, and every question is in the test split (nothing in it to tune on)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from _strangers_sets import (
    assert_all_test_and_keys_of_their_store,
    assert_locomo_shape,
    assert_questions,
    builder,
    load,
    turn_ids,
    turns_of,
)

NAME = "strangers2"


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    assert builder(NAME).build() == load(NAME)


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    data, _ = load(NAME)
    assert [s["sample_id"] for s in data] == ["strangers2-a", "strangers2-b", "strangers2-c"]
    seen: set[str] = set()
    for sample in data:
        first, last = assert_locomo_shape(sample)
        assert 120 <= (last - first).days <= 310  # four to ten months
        texts = {t["text"] for ts in turns_of(sample).values() for t in ts}
        assert not texts & seen  # no turn copied between conversations
        seen |= texts


def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed() -> None:
    data, xl = load(NAME)
    counts = sum((assert_questions(sample, 55, 80) for sample in data), Counter[int]())
    total = sum(counts.values())
    assert set(counts) == {1, 2, 3, 4, 5}
    assert all(counts[c] / total >= 0.05 for c in counts)
    known = {str(s["sample_id"]): turn_ids(s) for s in data}
    langs: dict[str, int] = {}
    for e in xl:
        langs[str(e["lang"])] = langs.get(str(e["lang"]), 0) + 1
        assert e["evidence"] and set(e["evidence"]) <= known[str(e["sample_id"])]
        assert e["question"].strip() and e["question"] != e["en"]
    assert langs["zh"] >= 35 and set(langs) == {"zh", "es", "de", "fr", "pt", "it"}
    assert all(n >= 10 for n in langs.values())


def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    assert_all_test_and_keys_of_their_store(NAME, tmp_path)
