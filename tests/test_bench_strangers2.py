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
    assert_locomo_shape,
    builder,
    load,
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
    known = {
        str(s["sample_id"]): {t["dia_id"] for ts in turns_of(s).values() for t in ts} for s in data
    }
    counts: dict[int, int] = {}
    for sample in data:
        qa = sample["qa"]
        assert isinstance(qa, list) and 55 <= len(qa) <= 80
        assert len({q["question"] for q in qa}) == len(qa)
        for q in qa:
            counts[q["category"]] = counts.get(q["category"], 0) + 1
            ev = q["evidence"]
            assert ev and len(set(ev)) == len(ev) and set(ev) <= known[str(sample["sample_id"])]
            assert q["question"].strip() and (q.get("answer") or q.get("adversarial_answer"))
            if q["category"] == 1:  # multi-hop: evidence in two sessions or more
                assert len({e.split(":")[0] for e in ev}) >= 2, q["question"]
    total = sum(counts.values())
    assert set(counts) == {1, 2, 3, 4, 5}
    assert all(counts[c] / total >= 0.05 for c in counts)
    langs: dict[str, int] = {}
    for e in xl:
        langs[str(e["lang"])] = langs.get(str(e["lang"]), 0) + 1
        assert e["evidence"] and set(e["evidence"]) <= known[str(e["sample_id"])]
        assert e["question"].strip() and e["question"] != e["en"]
    assert langs["zh"] >= 35 and set(langs) == {"zh", "es", "de", "fr", "pt", "it"}
    assert all(n >= 10 for n in langs.values())


def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    assert_all_test_and_keys_of_their_store(NAME, tmp_path)
