"""The held-out ``strangers9`` and ``strangers10`` sets of ``./x bench recall`` (issue 33),
judge sets each written by a new hand and unread by any rule (one row each): the files are
what the hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive,
dates increasing over four to ten months), one user talking to an assistant whose replies
are long next to the user's short facts, no turn copied from an earlier strangers set,
every evidence id is a turn of its conversation, multi-hop evidence spans sessions (40
questions or more, often over three sessions or more), its large other-language file (the
judge set of a cross-language rule: 30 in Chinese and 9 in each of twenty other
languages) asks English questions again with the same evidence, and every question is in
the test split, so ``--split test`` builds its stores and ``--split dev`` does not."""

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
    turns_of,
)
from recall import STRANGER_SETS, asks

SETS = ["strangers9", "strangers10"]
LANGS = {
    "zh", "es", "de", "fr", "pt", "it", "nl", "pl", "tr", "cs", "ro", "sv", "ja", "ru", "ar",
    "hi", "id", "vi", "uk", "ko", "el",
}  # fmt: skip

by_set = pytest.mark.parametrize("name", SETS)


def _earlier(name: str) -> list[str]:
    """The strangers sets written before ``name``."""
    return [f"strangers{n}" for n in range(1, int(name.removeprefix("strangers")))]


def _texts(name: str) -> set[str]:
    data, _ = load(name)
    return {t["text"] for s in data for ts in turns_of(s).values() for t in ts}


@by_set
def test_the_files_are_what_the_hand_written_source_builds(name: str) -> None:
    assert builder(name).build() == load(name)


@by_set
def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates(name: str) -> None:
    data = assert_conversations(name)
    turns = sum(len(ts) for s in data for ts in turns_of(s).values())
    assert 700 <= turns <= 800


@by_set
def test_no_turn_is_copied_from_an_earlier_strangers_set(name: str) -> None:
    earlier = _earlier(name)
    assert len(earlier) >= 8 and set(earlier) < set(STRANGER_SETS)
    mine = _texts(name)
    for other in earlier:
        assert not mine & _texts(other), other


@by_set
def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed(name: str) -> None:
    data, _ = load(name)
    counts = assert_categories(data, 70, 85)
    total = sum(counts.values())
    assert 215 <= total <= 240
    assert counts[1] / total >= 0.18 and counts[2] / total >= 0.18  # multi-hop, temporal
    assert counts[1] >= 40  # multi-hop: evidence in two sessions or more
    assert counts[5] / total >= 0.1  # adversarial: asked about what was never said
    assert spread_lists(data) >= 25  # lists spread over three sessions or more


@by_set
def test_the_assistant_writes_long_replies_next_to_short_user_facts(name: str) -> None:
    assert_long_replies(load(name)[0])


@by_set
def test_a_large_other_language_set_asks_english_questions_again(name: str) -> None:
    data, xl = load(name)
    assert_other_languages(data, xl, LANGS, zh=30, each=9)
    assert len(xl) >= 200


@by_set
def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(
    name: str, tmp_path: Path
) -> None:
    assert_all_test_and_keys_of_their_store(name, tmp_path)


@by_set
def test_a_test_run_builds_this_set_and_a_dev_run_does_not(name: str) -> None:
    data, _ = load(name)
    assert asks(data, "test") and asks(data, "all") and not asks(data, "dev")
