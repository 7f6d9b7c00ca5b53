"""The held-out ``strangers1`` set of ``./x bench recall`` (issue 33): the files load in
LoCoMo's shape, are what the hand-written source builds, every evidence id is a turn of
its conversation, and every question is in the test split (nothing in it to tune on)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")

from recall import STRANGERS, STRANGERS_XL, locomo_corpora, strangers_questions

SOURCE = STRANGERS.parent / "strangers1"


def builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strangers1_build", SOURCE / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    data = json.loads(STRANGERS.read_text(encoding="utf-8"))
    xl = json.loads(STRANGERS_XL.read_text(encoding="utf-8"))
    return data, xl


def turns_of(sample: dict[str, object]) -> dict[str, list[dict[str, str]]]:
    conv = sample["conversation"]
    assert isinstance(conv, dict)
    return {k: v for k, v in conv.items() if re.fullmatch(r"session_\d+", k)}


def test_the_files_are_what_the_hand_written_source_builds() -> None:
    build = builder()
    samples, xl = [], []
    for path in sorted(SOURCE.glob("*.txt")):
        sample, extra = build.parse(path)
        samples.append(sample)
        xl += extra
    assert (samples, xl) == load()


def test_conversations_have_locomo_shape_consecutive_ids_and_increasing_dates() -> None:
    data, _ = load()
    assert [s["sample_id"] for s in data] == ["strangers1-a", "strangers1-b", "strangers1-c"]
    for sample in data:
        conv = sample["conversation"]
        assert isinstance(conv, dict)
        speakers = {conv["speaker_a"], conv["speaker_b"]}
        sessions = turns_of(sample)
        assert 16 <= len(sessions) <= 22
        last = None
        for n in range(1, len(sessions) + 1):
            when = dt.datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
            assert last is None or when > last
            last = when
            turns = sessions[f"session_{n}"]
            assert 15 <= len(turns) <= 25
            assert [t["dia_id"] for t in turns] == [f"D{n}:{i}" for i in range(1, len(turns) + 1)]
            assert all(t["speaker"] in speakers and t["text"].strip() for t in turns)


def test_every_evidence_id_is_a_turn_and_every_category_is_asked() -> None:
    data, xl = load()
    known = {
        str(s["sample_id"]): {t["dia_id"] for ts in turns_of(s).values() for t in ts} for s in data
    }
    for sample in data:
        qa = sample["qa"]
        assert isinstance(qa, list) and 55 <= len(qa) <= 70
        assert {q["category"] for q in qa} == {1, 2, 3, 4, 5}
        for q in qa:
            assert q["evidence"] and set(q["evidence"]) <= known[str(sample["sample_id"])]
            assert q["question"].strip() and (q.get("answer") or q.get("adversarial_answer"))
            if q["category"] == 1:  # multi-hop: evidence in two sessions or more
                assert len({e.split(":")[0] for e in q["evidence"]}) >= 2, q["question"]
    assert {e["lang"] for e in xl} == {"zh", "es", "de"}
    for e in xl:
        assert e["evidence"] and set(e["evidence"]) <= known[str(e["sample_id"])]


def test_every_question_is_test_and_its_evidence_is_a_key_of_its_store(tmp_path: Path) -> None:
    data, xl = load()
    corpora = locomo_corpora(data, tmp_path, None)
    try:
        questions = strangers_questions(data, xl, corpora, ["strangers1", "strangers1-xl"])
        assert len(questions) == sum(len(s["qa"]) for s in data) + len(xl)  # type: ignore[arg-type]
        assert {q.split for q in questions} == {"test"}
        for q in questions:
            keys = set(corpora[q.corpus].keys.values())
            assert q.evidence and set(q.evidence) <= keys
        only = strangers_questions(data, xl, corpora, ["strangers1"])
        assert {q.set for q in only} == {"strangers1"}
    finally:
        for c in corpora.values():
            c.store.close()
