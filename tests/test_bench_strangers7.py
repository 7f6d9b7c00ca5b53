"""The ``strangers7`` set of ``./x bench recall`` (issue 33), the strangers' third DEV set
(a fourth dev set after LoCoMo's dev split, strangers5 and strangers6): the files are what the
hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive, dates
increasing over four to ten months), one user talking to an assistant whose replies are
long next to the user's short facts, every evidence id is a turn of its conversation,
multi-hop evidence spans sessions (often three or more), every other-language question is
one of the English ones with the same evidence, and every question is in the dev split,
so ``--split dev`` builds its stores and ``--split test`` does not."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

from _strangers_sets import (
    assert_all_in_split_and_keys_of_their_store,
    assert_categories,
    assert_conversations,
    assert_long_replies,
    assert_other_languages,
    builder,
    load,
    spread_lists,
    turns_of,
)
from recall import asks

NAME = "strangers7"
LANGS = {"zh", "es", "de", "fr", "pt", "it", "nl", "pl", "tr", "vi", "id", "sv", "ja", "ru", "ar"}


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    assert builder(NAME).build() == load(NAME)


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    data = assert_conversations(NAME)
    turns = sum(len(ts) for s in data for ts in turns_of(s).values())
    assert 700 <= turns <= 800


def test_no_turn_is_copied_from_the_earlier_dev_sets() -> None:
    ours, _ = load(NAME)
    mine = {t["text"] for s in ours for ts in turns_of(s).values() for t in ts}
    for other in ("strangers5", "strangers6"):
        theirs, _ = load(other)
        assert not mine & {t["text"] for s in theirs for ts in turns_of(s).values() for t in ts}


def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed() -> None:
    data, _ = load(NAME)
    counts = assert_categories(data, 60, 75)
    total = sum(counts.values())
    assert 200 <= total <= 225
    assert counts[1] / total >= 0.18 and counts[2] / total >= 0.18  # multi-hop, temporal
    assert counts[5] / total >= 0.1  # adversarial: asked about what was never said
    assert spread_lists(data) >= 25  # lists spread over three sessions or more


def test_the_assistant_writes_long_replies_next_to_short_user_facts() -> None:
    assert_long_replies(load(NAME)[0])


def test_other_language_questions_are_english_ones_asked_again() -> None:
    data, xl = load(NAME)
    assert_other_languages(data, xl, LANGS, zh=20, each=5)
    assert len(xl) >= 90


def test_every_question_is_dev_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    assert_all_in_split_and_keys_of_their_store(NAME, tmp_path, "dev")


def test_a_dev_run_builds_this_set_and_a_test_run_does_not() -> None:
    data, _ = load(NAME)
    assert asks(data, "dev") and asks(data, "all") and not asks(data, "test")
