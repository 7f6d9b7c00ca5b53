"""What the tests of the strangers' held-out recall sets share (``bench/recall.py``,
``STRANGER_SETS``): loading a set and its other-language questions, running its
hand-written source's builder, the sessions of a conversation, LoCoMo's shape, the checks
of the conversations, of their questions and of the questions in other languages, and the
check that every question is a test question whose evidence is a key of its store."""

from __future__ import annotations

import datetime as dt
import functools
import importlib.util
import json
import re
from collections import Counter
from pathlib import Path
from types import ModuleType

from recall import STRANGER_SETS, locomo_corpora, strangers_questions

Sample = dict[str, object]


def source(name: str) -> Path:
    """The folder of the hand-written text the set's JSON files are built from."""
    return STRANGER_SETS[name][0].parent / name


def _load(build_py: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{build_py.parent.name}_build", build_py)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def builder(name: str) -> ModuleType:
    """The set's builder: its own ``build.py`` loaded as a module (strangers1-3), or, for a
    set that has none (strangers4 on: a row of ``strangers3/build.py``'s ``SETS``), a
    module whose ``build()`` is ``strangers3/build.py``'s ``build_set(name)``."""
    own = source(name) / "build.py"
    if own.exists():
        return _load(own)
    shared = _load(source("strangers3") / "build.py")
    assert name in shared.SETS, f"{name}: no build.py and no row of strangers3's SETS"
    module = ModuleType(f"{name}_build")
    module.build = functools.partial(shared.build_set, name)  # type: ignore[attr-defined]
    return module


def load(name: str) -> tuple[list[Sample], list[Sample]]:
    """The set's conversations and its questions in other languages, as stored."""
    data_path, xl_path = STRANGER_SETS[name]
    data = json.loads(data_path.read_text(encoding="utf-8"))
    xl = json.loads(xl_path.read_text(encoding="utf-8"))
    return data, xl


def turns_of(sample: Sample) -> dict[str, list[dict[str, str]]]:
    """``session_N`` -> its turns."""
    conv = sample["conversation"]
    assert isinstance(conv, dict)
    return {k: v for k, v in conv.items() if re.fullmatch(r"session_\d+", k)}


def assert_locomo_shape(sample: Sample) -> tuple[dt.datetime, dt.datetime]:
    """16-22 sessions of 15-25 turns by the two speakers, dia ids ``D<session>:<turn>``
    consecutive, session dates increasing; returns the first and last session's date."""
    conv = sample["conversation"]
    assert isinstance(conv, dict)
    speakers = {conv["speaker_a"], conv["speaker_b"]}
    sessions = turns_of(sample)
    assert 16 <= len(sessions) <= 22
    dates: list[dt.datetime] = []
    for n in range(1, len(sessions) + 1):
        when = dt.datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
        assert not dates or when > dates[-1]
        dates.append(when)
        turns = sessions[f"session_{n}"]
        assert 15 <= len(turns) <= 25
        assert [t["dia_id"] for t in turns] == [f"D{n}:{i}" for i in range(1, len(turns) + 1)]
        assert all(t["speaker"] in speakers and t["text"].strip() for t in turns)
    return dates[0], dates[-1]


def assert_all_test_and_keys_of_their_store(name: str, tmp_path: Path) -> None:
    """Every question of the set and of its other-language file is in the test split,
    names its set, and its evidence ids are keys of its conversation's store; asking for
    the English set alone gives only its questions."""
    assert_all_in_split_and_keys_of_their_store(name, tmp_path, "test")


def assert_all_in_split_and_keys_of_their_store(name: str, tmp_path: Path, split: str) -> None:
    """Every question of the set and of its other-language file is in ``split``, names its
    set, and its evidence ids are keys of its conversation's store; asking for the English
    set alone gives only its questions."""
    data, xl = load(name)
    corpora = locomo_corpora(data, tmp_path, None)
    try:
        sets = [name, f"{name}-xl"]
        questions = strangers_questions(data, xl, corpora, sets, name)
        assert len(questions) == sum(len(s["qa"]) for s in data) + len(xl)  # type: ignore[arg-type]
        assert {q.split for q in questions} == {split}
        assert {q.set for q in questions} == set(sets)
        for q in questions:
            keys = set(corpora[q.corpus].keys.values())
            assert q.evidence and set(q.evidence) <= keys
        only = strangers_questions(data, xl, corpora, [name], name)
        assert {q.set for q in only} == {name}
    finally:
        for c in corpora.values():
            c.store.close()


def turn_ids(sample: Sample) -> set[str]:
    """The dia ids of one conversation's turns."""
    return {t["dia_id"] for ts in turns_of(sample).values() for t in ts}


def assert_questions(sample: Sample, least: int, most: int) -> Counter[int]:
    """One conversation's questions: ``least`` to ``most`` of them, none asked twice, each
    with an answer and its own evidence (turns of this conversation, none named twice), an
    adversarial answer only to an adversarial question (category 5), a multi-hop
    question's evidence in two sessions or more; returns how many of each category it
    asks."""
    qa = sample["qa"]
    assert isinstance(qa, list) and least <= len(qa) <= most
    assert len({q["question"] for q in qa}) == len(qa)
    known = turn_ids(sample)
    counts: Counter[int] = Counter()
    for q in qa:
        counts[q["category"]] += 1
        ev = q["evidence"]
        assert ev and len(set(ev)) == len(ev) and set(ev) <= known
        assert q["question"].strip() and (q.get("answer") or q.get("adversarial_answer"))
        assert ("adversarial_answer" in q) == (q["category"] == 5)
        if q["category"] == 1:  # multi-hop: evidence in two sessions or more
            assert len({e.split(":")[0] for e in ev}) >= 2, q["question"]
    return counts


def assert_conversations(name: str) -> list[Sample]:
    """The set's conversations ``<name>-a`` to ``-c``, each in LoCoMo's shape over four to
    ten months, none saying a sentence (of more than three words) twice, no turn copied
    between them; returns them."""
    data, _ = load(name)
    assert [s["sample_id"] for s in data] == [f"{name}-{c}" for c in "abc"]
    seen: set[str] = set()
    for sample in data:
        first, last = assert_locomo_shape(sample)
        assert 120 <= (last - first).days <= 310  # four to ten months
        texts = [t["text"] for ts in turns_of(sample).values() for t in ts]
        long = [t for t in texts if len(t.split()) > 3]  # "Men." "Men." is chat
        assert len(set(long)) == len(long)  # no sentence said twice
        assert not set(texts) & seen  # nor copied between conversations
        seen |= set(texts)
    return data


def assert_categories(data: list[Sample], least: int, most: int) -> Counter[int]:
    """Each conversation's questions (:func:`assert_questions`, ``least`` to ``most`` of
    them) ask all five categories, and each category is 5 % of the set's questions or
    more; returns how many of each category the set asks."""
    counts: Counter[int] = Counter()
    for sample in data:
        asked = assert_questions(sample, least, most)
        assert set(asked) == {1, 2, 3, 4, 5}, sample["sample_id"]
        counts += asked
    total = sum(counts.values())
    assert all(counts[c] / total >= 0.05 for c in counts)
    return counts


def assert_other_languages(
    data: list[Sample], xl: list[Sample], langs: set[str], zh: int, each: int
) -> None:
    """Every other-language question is one of its conversation's English questions (its
    ``en``) asked again, reworded, with the same category and evidence, none asked twice;
    the languages are ``langs``, Chinese asked ``zh`` times or more, each language
    ``each`` times or more."""
    english = {
        (str(s["sample_id"]), q["question"]): (q["category"], q["evidence"])
        for s in data
        for q in s["qa"]  # type: ignore[attr-defined]
    }
    for e in xl:
        assert english[(str(e["sample_id"]), str(e["en"]))] == (e["category"], e["evidence"])
        assert str(e["question"]).strip() and e["question"] != e["en"]
    assert len({(e["sample_id"], e["question"]) for e in xl}) == len(xl)
    asked = Counter(str(e["lang"]) for e in xl)
    assert set(asked) == langs and asked["zh"] >= zh
    assert all(n >= each for n in asked.values())


def spread_lists(data: list[Sample]) -> int:
    """How many multi-hop questions (category 1) have evidence in three sessions or more."""
    return sum(
        1
        for s in data
        for q in s["qa"]  # type: ignore[attr-defined]
        if q["category"] == 1 and len({e.split(":")[0] for e in q["evidence"]}) >= 3
    )


def assert_long_replies(data: list[Sample]) -> None:
    """Each conversation is one user talking to "Assistant", whose median reply is 25
    words or more and twice the user's median turn or more."""
    for sample in data:
        conv = sample["conversation"]
        assert isinstance(conv, dict) and conv["speaker_b"] == "Assistant"
        words: dict[str, list[int]] = {conv["speaker_a"]: [], "Assistant": []}
        for ts in turns_of(sample).values():
            for t in ts:
                words[t["speaker"]].append(len(t["text"].split()))
        user, bot = (sorted(words[k]) for k in (conv["speaker_a"], "Assistant"))
        assert bot[len(bot) // 2] >= 2 * user[len(user) // 2] and bot[len(bot) // 2] >= 25
