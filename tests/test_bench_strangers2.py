"""The held-out ``strangers2`` set of ``./x bench recall`` (issue 33): the files are what the
hand-written source builds, in LoCoMo's shape (dia ids unique and consecutive, dates
increasing), every evidence id is a turn of its conversation, every fact that changes has
its questions, and every question is in the test split (nothing in it to tune on)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")

from recall import STRANGER_SETS, locomo_corpora, strangers_questions

DATA, DATA_XL = STRANGER_SETS["strangers2"]
SOURCE = DATA.parent / "strangers2"


def builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strangers2_build", SOURCE / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    xl = json.loads(DATA_XL.read_text(encoding="utf-8"))
    return data, xl


def turns_of(sample: dict[str, object]) -> dict[str, list[dict[str, str]]]:
    conv = sample["conversation"]
    assert isinstance(conv, dict)
    return {k: v for k, v in conv.items() if re.fullmatch(r"session_\d+", k)}


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    assert builder().build() == load()


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    data, _ = load()
    assert [s["sample_id"] for s in data] == ["strangers2-a", "strangers2-b", "strangers2-c"]
    seen: set[str] = set()
    for sample in data:
        conv = sample["conversation"]
        assert isinstance(conv, dict)
        speakers = {conv["speaker_a"], conv["speaker_b"]}
        sessions = turns_of(sample)
        assert 16 <= len(sessions) <= 22
        first = last = None
        for n in range(1, len(sessions) + 1):
            when = dt.datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
            assert last is None or when > last
            first, last = first or when, when
            turns = sessions[f"session_{n}"]
            assert 15 <= len(turns) <= 25
            assert [t["dia_id"] for t in turns] == [f"D{n}:{i}" for i in range(1, len(turns) + 1)]
            assert all(t["speaker"] in speakers and t["text"].strip() for t in turns)
        assert first is not None and last is not None
        assert 120 <= (last - first).days <= 310  # four to ten months
        texts = {t["text"] for ts in sessions.values() for t in ts}
        assert not texts & seen  # no turn copied between conversations
        seen |= texts


def test_every_evidence_id_is_a_turn_and_the_categories_are_mixed() -> None:
    data, xl = load()
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
    data, xl = load()
    corpora = locomo_corpora(data, tmp_path, None)
    try:
        sets = ["strangers2", "strangers2-xl"]
        questions = strangers_questions(data, xl, corpora, sets, "strangers2")
        assert len(questions) == sum(len(s["qa"]) for s in data) + len(xl)  # type: ignore[arg-type]
        assert {q.split for q in questions} == {"test"}
        assert {q.set for q in questions} == set(sets)
        for q in questions:
            keys = set(corpora[q.corpus].keys.values())
            assert q.evidence and set(q.evidence) <= keys
        only = strangers_questions(data, xl, corpora, ["strangers2"], "strangers2")
        assert {q.set for q in only} == {"strangers2"}
    finally:
        for c in corpora.values():
            c.store.close()
