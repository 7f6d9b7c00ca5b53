"""The recall bench's fixtures and its plain FTS5 baseline (issue 33): each committed
fixture is what its generator makes (so a report can be reproduced from the seed), of
the size and spread the issue asks, and the baseline is plain bm25 over the question's
words OR-ed, with nothing of the product's around it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import _events
import _longchat
import _updates
from mnemic.sessions import NewMessage, NewSession
from recall import LOCOMO, fts5_ranking, make_corpus

DATA = Path(__file__).resolve().parent.parent / "bench" / "data"


def _committed(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("module", "name"), [(_updates, "updates"), (_longchat, "longchat"), (_events, "events")]
)
def test_each_fixture_is_what_its_generator_makes(module: Any, name: str) -> None:
    assert module.build() == _committed(name)


def test_the_update_fixture_has_the_size_and_spread_the_issue_asks() -> None:
    cases = _committed("updates")["cases"]
    assert len(cases) >= 200
    assert Counter(c["lang"] for c in cases) == {"en": 50, "de": 50, "es": 50, "zh": 50}
    assert len({c["domain"] for c in cases}) == 9 and len({c["source"] for c in cases}) == 10
    assert {c["style"] for c in cases} == {"marked", "plain"}  # a change word, or none
    assert sum(c["echo"] for c in cases) == 80  # the assistant repeats two facts in five
    dev = {c["source"] for c in cases if c["split"] == "dev"}
    test = {c["source"] for c in cases if c["split"] == "test"}
    assert (len(dev), len(test)) == (6, 4) and not dev & test  # split by template
    for c in cases:
        assert c["state_time"] < c["as_of"] < c["update_time"]
    assert len(_committed("updates-locomo")) == 6  # real updates from LoCoMo dev


def test_the_long_chat_and_order_fixtures_have_their_reported_sizes() -> None:
    chat = _committed("longchat")
    assert len(chat["histories"]) == 10
    kinds = Counter(q["category"] for q in chat["questions"])
    assert set(kinds) == {"user-fact", "assistant", "multi-session", "order", "update"}
    assert sum(kinds.values()) == 390
    events = _committed("events")
    assert (len(events["histories"]), len(events["questions"])) == (6, 420)


def test_the_latin_script_questions_cover_five_languages_on_both_splits() -> None:
    """``xl`` (recall 12): LoCoMo questions asked in Spanish, German, French, Portuguese
    and Italian, 30 of each on the dev conversations, 8 on the test ones; the evidence
    ids are the original question's."""
    xl = _committed("locomo-xl")
    dev = {"conv-26", "conv-30", "conv-42"}
    langs = {"es", "de", "fr", "pt", "it"}
    assert Counter(e["lang"] for e in xl if e["sample_id"] in dev) == dict.fromkeys(langs, 30)
    assert Counter(e["lang"] for e in xl if e["sample_id"] not in dev) == dict.fromkeys(langs, 8)
    assert len({(e["sample_id"], e["qa_index"]) for e in xl}) == len(xl)
    for e in xl:
        assert e["xl"] != e["question"] and e["evidence"]
    if LOCOMO.exists():  # the shared data: the evidence is the original question's
        data = json.loads(LOCOMO.read_text(encoding="utf-8"))
        qa = {(s["sample_id"], i): q for s in data for i, q in enumerate(s["qa"])}
        for e in xl:
            assert qa[(e["sample_id"], e["qa_index"])]["evidence"] == e["evidence"]


def test_the_plain_fts5_baseline_ors_the_words_without_stemming(tmp_path: Path) -> None:
    texts = [
        "The billing launch deadline moved to April.",
        "We deploy the billing service on Fridays.",
        "Deploys of the search service are manual.",
    ]
    items = [
        (NewSession(f"s{i}", "cli", started_at=1_750_000_000.0 + i),
         [NewMessage("user", t, timestamp=1_750_000_000.0 + i)])
        for i, t in enumerate(texts)
    ]  # fmt: skip
    corpus = make_corpus("tiny", items, {}, tmp_path, None)
    found = fts5_ranking(corpus, "When do we deploy billing?")
    # any word matches (OR): both billing messages; the one holding two words first
    assert found[:2] == [("s1", 0), ("s0", 0)]
    assert ("s2", 0) not in found  # "deploys" is not "deploy": no stemming
    assert fts5_ranking(corpus, "?!") == []
