"""The strangers' DEV sets of ``./x bench recall`` (issue 33): ``strangers5`` (the first,
a second dev set after LoCoMo's dev split), ``strangers6``, ``strangers7`` and
``strangers8``, each written by a new hand to check a recall rule on before any held-out
run. For each: the files are
what the hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive,
dates increasing over four to ten months), one user talking to an assistant whose replies
are long next to the user's short facts, no turn copied from an earlier dev set, every
evidence id is a turn of its conversation, multi-hop evidence spans sessions (often three
or more), every other-language question is one of the English ones with the same
evidence, and every question is in the dev split, so ``--split dev`` builds its stores and
``--split test`` does not (the held-out ``strangers4`` the other way round)."""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class DevSet:
    """What one dev set's writer was asked for and wrote."""

    name: str
    langs: frozenset[str]
    zh: int  # questions asked again in Chinese
    each: int  # ... and in each other language
    questions: tuple[int, int]  # English questions, fewest and most
    earlier: tuple[str, ...]  # the dev sets written before it


_LANGS5 = frozenset({"zh", "es", "de", "fr", "pt", "ru", "ja", "ko", "ar", "hi", "tr", "pl"})
_LANGS6 = _LANGS5 | {"it", "nl", "vi"}
_LANGS7 = frozenset(
    {"zh", "es", "de", "fr", "pt", "it", "nl", "pl", "tr", "vi", "id", "sv", "ja", "ru", "ar"}
)
_LANGS8 = frozenset(
    {"zh", "es", "de", "fr", "pt", "it", "nl", "pl", "tr", "cs", "ro", "sv", "ja", "ru", "ar",
     "hi"}
)  # fmt: skip

SETS = [
    DevSet(
        "strangers5",
        _LANGS5,
        zh=24, each=6, questions=(170, 210), earlier=(),
    ),
    DevSet(
        "strangers6",
        _LANGS6,
        zh=20, each=5, questions=(170, 210), earlier=("strangers5",),
    ),
    DevSet(
        "strangers7",
        _LANGS7,
        zh=20, each=5, questions=(200, 225), earlier=("strangers5", "strangers6"),
    ),
    DevSet(
        "strangers8",
        _LANGS8,
        zh=20, each=5, questions=(210, 225),
        earlier=("strangers5", "strangers6", "strangers7"),
    ),
]  # fmt: skip

each_set = pytest.mark.parametrize("dev", SETS, ids=[s.name for s in SETS])


def _texts(name: str) -> set[str]:
    data, _ = load(name)
    return {t["text"] for s in data for ts in turns_of(s).values() for t in ts}


@each_set
def test_the_files_are_what_the_hand_written_source_builds(dev: DevSet) -> None:
    assert builder(dev.name).build() == load(dev.name)


@each_set
def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates(
    dev: DevSet,
) -> None:
    data = assert_conversations(dev.name)
    turns = sum(len(ts) for s in data for ts in turns_of(s).values())
    assert 700 <= turns <= 800


@pytest.mark.parametrize("dev", [s for s in SETS if s.earlier], ids=lambda s: s.name)
def test_no_turn_is_copied_from_an_earlier_dev_set(dev: DevSet) -> None:
    mine = _texts(dev.name)
    for other in dev.earlier:
        assert not mine & _texts(other), other


@each_set
def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed(dev: DevSet) -> None:
    data, _ = load(dev.name)
    counts = assert_categories(data, 60, 75)
    total = sum(counts.values())
    low, high = dev.questions
    assert low <= total <= high
    assert counts[1] / total >= 0.18 and counts[2] / total >= 0.18  # multi-hop, temporal
    assert counts[5] / total >= 0.1  # adversarial: asked about what was never said
    assert spread_lists(data) >= 25  # lists spread over three sessions or more


@each_set
def test_the_assistant_writes_long_replies_next_to_short_user_facts(dev: DevSet) -> None:
    assert_long_replies(load(dev.name)[0])


@each_set
def test_other_language_questions_are_english_ones_asked_again(dev: DevSet) -> None:
    data, xl = load(dev.name)
    assert_other_languages(data, xl, set(dev.langs), zh=dev.zh, each=dev.each)
    assert len(xl) >= 90


@each_set
def test_every_question_is_dev_and_its_evidence_is_a_key_of_its_store(
    dev: DevSet, tmp_path: Path
) -> None:
    assert_all_in_split_and_keys_of_their_store(dev.name, tmp_path, "dev")


@each_set
def test_a_dev_run_builds_this_set_and_a_test_run_does_not(dev: DevSet) -> None:
    data, _ = load(dev.name)
    assert asks(data, "dev") and asks(data, "all") and not asks(data, "test")


def test_the_held_out_strangers4_is_built_by_a_test_run_only() -> None:
    held_out, _ = load("strangers4")
    assert asks(held_out, "test") and not asks(held_out, "dev")
