"""bench/_tidy_fresh.py, the hand-written held-out sets of ``./x bench tidy``: the second
to ninth sets' size and coverage, that each split file is the seeded deal by
(domain, language) cell, that a cell or a pair moved by hand is refused, and that
``--misses`` refuses the test half. Nothing here runs tidy on the pairs."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

import _tidy_fresh
import tidy
from _tidy_fresh import (
    EIGHTH,
    FIFTH,
    FIRST,
    FOURTH,
    NINTH,
    SECOND,
    SETS,
    SEVENTH,
    SIXTH,
    THIRD,
    FreshSet,
    load,
    load_halves,
    make_split,
)

_LANGS_2 = {"en", "de", "es", "fr", "pt", "it", "nl", "zh", "ja", "ko", "ru", "pl", "tr", "mixed"}
_LANGS_3 = _LANGS_2 | {"sv", "uk", "ar", "hi", "vi"}
_DOMAINS_3 = {"legal", "pets", "cars", "gardening", "music", "sports", "education", "government"}
_LANGS_4 = _LANGS_3 | {"da", "fi", "he", "id"}
_DOMAINS_4 = {
    "insurance", "hobbies", "food", "childcare", "research", "hardware", "games", "volunteering"
}  # fmt: skip
#: the languages the fifth set added, none of them in an earlier set
_LANGS_5_NEW = {"hu", "ro", "bg", "sr", "hr", "sk", "ca", "ms", "tl", "el", "lt", "sw", "bn", "ur"}


def test_the_second_set_has_every_kind_language_and_ten_domains() -> None:
    pairs = load(SECOND.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds["rewording"] >= 130 and kinds["update"] >= 60
    assert kinds["contradiction"] >= 35 and kinds["honest"] >= 140
    assert {p.lang for p in pairs} == _LANGS_2
    assert 0.35 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.45
    assert len({p.domain for p in pairs}) >= 10
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_second_set_shares_no_sentence_with_the_first() -> None:
    old = {t.lower() for p in load(FIRST.pairs) for t in (p.a, p.b)}
    assert not [t for p in load(SECOND.pairs) for t in (p.a, p.b) if t.lower() in old]


def test_the_third_set_has_every_kind_eighteen_languages_and_new_domains() -> None:
    pairs = load(THIRD.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds["rewording"] >= 130 and kinds["update"] >= 80
    assert kinds["contradiction"] >= 50 and kinds["honest"] >= 140
    assert {p.lang for p in pairs} == _LANGS_3
    assert 0.35 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.45
    assert {p.domain for p in pairs} >= _DOMAINS_3 and len({p.domain for p in pairs}) >= 12
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_third_set_shares_no_sentence_with_the_earlier_ones() -> None:
    old = {t.lower() for s in (FIRST, SECOND) for p in load(s.pairs) for t in (p.a, p.b)}
    assert not [t for p in load(THIRD.pairs) for t in (p.a, p.b) if t.lower() in old]


def test_the_fourth_set_has_every_kind_twenty_one_languages_and_new_domains() -> None:
    pairs = load(FOURTH.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds["rewording"] >= 130 and kinds["update"] >= 80
    assert kinds["contradiction"] >= 50 and kinds["honest"] >= 140
    assert {p.lang for p in pairs} == _LANGS_4
    assert 0.35 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.45
    assert {p.domain for p in pairs} >= _DOMAINS_4 and len({p.domain for p in pairs}) >= 12
    # the updates only world knowledge reads as such are there, not only marked ones
    assert {"role_holder", "tool_switch", "city_move"} <= {
        p.subtype for p in pairs if p.kind == "update"
    }
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_fourth_set_shares_no_sentence_with_the_earlier_ones() -> None:
    old = {t.lower() for s in (FIRST, SECOND, THIRD) for p in load(s.pairs) for t in (p.a, p.b)}
    assert not [t for p in load(FOURTH.pairs) for t in (p.a, p.b) if t.lower() in old]


def test_the_fifth_set_has_every_kind_thirty_five_languages_and_plain_updates() -> None:
    pairs = load(FIFTH.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds == {"rewording": 130, "update": 80, "contradiction": 50, "honest": 140}
    langs = {p.lang for p in pairs}
    assert langs >= _LANGS_5_NEW and len(langs - {"en", "mixed"}) == 35
    earlier = {p.lang for s in (FIRST, SECOND, THIRD, FOURTH) for p in load(s.pairs)}
    assert not _LANGS_5_NEW & earlier
    assert 0.30 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.40
    assert {p.domain for p in pairs} >= _DOMAINS_4 and len({p.domain for p in pairs}) >= 12
    # updates told as people tell them: most without a marker word
    updates = Counter(p.subtype for p in pairs if p.kind == "update")
    assert {"new_holder", "tool_switch", "moved", "no_marker"} <= set(updates)
    assert updates["marker"] + updates["stopped"] < sum(updates.values()) / 4
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_fifth_set_shares_no_sentence_with_the_earlier_ones() -> None:
    old = {
        t.lower() for s in (FIRST, SECOND, THIRD, FOURTH) for p in load(s.pairs) for t in (p.a, p.b)
    }
    assert not [t for p in load(FIFTH.pairs) for t in (p.a, p.b) if t.lower() in old]


#: the sixth set's vocabulary of its own: a translator's and a fire brigade's notes
_DOMAINS_6 = _DOMAINS_4 | {"clients", "rates", "immigration", "rota", "training", "equipment"}


def test_the_sixth_set_has_every_kind_fifteen_languages_and_world_knowledge_updates() -> None:
    pairs = load(SIXTH.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds == {"rewording": 130, "update": 80, "contradiction": 50, "honest": 140}
    assert len({p.lang for p in pairs} - {"en", "mixed"}) >= 14
    assert 0.28 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.40
    assert {p.domain for p in pairs} >= _DOMAINS_6 and len({p.domain for p in pairs}) >= 12
    # updates only world knowledge reads as such: a role's new holder, a tool, a city
    updates = Counter(p.subtype for p in pairs if p.kind == "update")
    assert {"world_role", "world_tool", "world_city", "none"} <= set(updates)
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_sixth_set_shares_no_sentence_with_the_earlier_ones() -> None:
    old = {
        t.lower()
        for s in (FIRST, SECOND, THIRD, FOURTH, FIFTH)
        for p in load(s.pairs)
        for t in (p.a, p.b)
    }
    assert not [t for p in load(SIXTH.pairs) for t in (p.a, p.b) if t.lower() in old]


#: the seventh set's vocabulary of its own: a veterinarian-breeder's and a PhD student-bassist's
_DOMAINS_7 = {"clinic", "horses", "drugs", "suppliers", "lab", "thesis", "band", "gigs"}


def test_the_seventh_set_has_every_kind_language_switches_and_world_knowledge_updates() -> None:
    pairs = load(SEVENTH.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds == {"rewording": 135, "update": 85, "contradiction": 52, "honest": 144}
    langs = {p.lang for p in pairs}
    assert langs >= _LANGS_5_NEW and len(langs - {"en", "mixed"}) >= 14
    assert 0.30 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.40
    assert {p.domain for p in pairs} >= _DOMAINS_7 and len({p.domain for p in pairs}) >= 12
    # a sixth of the rewordings at least say one fact in two languages
    rewordings = [p for p in pairs if p.kind == "rewording"]
    switches = [p for p in rewordings if p.subtype == "language_switch"]
    assert len(switches) >= len(rewordings) / 6 and {p.lang for p in switches} == {"mixed"}
    updates = Counter(p.subtype for p in pairs if p.kind == "update")
    assert {"new_holder", "tool_switch", "move", "no_marker"} <= set(updates)
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_seventh_set_shares_no_sentence_with_the_earlier_ones() -> None:
    old = {
        t.lower()
        for s in (FIRST, SECOND, THIRD, FOURTH, FIFTH, SIXTH)
        for p in load(s.pairs)
        for t in (p.a, p.b)
    }
    assert not [t for p in load(SEVENTH.pairs) for t in (p.a, p.b) if t.lower() in old]


#: the eighth set's vocabulary of its own: a structural engineer's and a retired teacher's
_DOMAINS_8 = {
    "sites", "loads", "contractors", "inspections", "permits", "deadlines",
    "garden", "choir", "grandchildren", "medication", "foodbank",
}  # fmt: skip
#: languages the eighth set added, none of them in an earlier set
_LANGS_8_NEW = {"ka", "hy", "az", "lv", "et"}


def test_the_eighth_set_has_every_kind_language_switches_and_plain_updates() -> None:
    pairs = load(EIGHTH.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds == {"rewording": 130, "update": 82, "contradiction": 50, "honest": 142}
    langs = {p.lang for p in pairs}
    assert langs >= _LANGS_5_NEW | _LANGS_8_NEW and len(langs - {"en", "mixed"}) >= 14
    earlier = {p.lang for s in SETS.values() if s is not EIGHTH for p in load(s.pairs)}
    assert not _LANGS_8_NEW & earlier
    assert 0.30 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.40
    assert {p.domain for p in pairs} >= _DOMAINS_8 | _DOMAINS_4 and len(
        {p.domain for p in pairs}
    ) >= 12
    rewordings = [p for p in pairs if p.kind == "rewording"]
    switches = [p for p in rewordings if p.subtype == "language_switch"]
    assert len(switches) >= len(rewordings) / 6 and {p.lang for p in switches} == {"mixed"}
    assert {"units", "time_format", "date_format", "currency", "number_words"} <= {
        p.subtype for p in rewordings
    }
    # most updates carry no marker word: only world knowledge or the value says so
    updates = Counter(p.subtype for p in pairs if p.kind == "update")
    assert {"new_holder", "tool_switch", "move", "number", "no_marker"} <= set(updates)
    assert updates["marker"] + updates["since"] + updates["stopped"] < sum(updates.values()) / 3
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_eighth_set_shares_no_sentence_with_the_earlier_ones() -> None:
    old = {
        t.lower()
        for s in (FIRST, SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH)
        for p in load(s.pairs)
        for t in (p.a, p.b)
    }
    assert not [t for p in load(EIGHTH.pairs) for t in (p.a, p.b) if t.lower() in old]


#: the ninth set's vocabulary of its own: a nurse on rotating shifts who runs marathons,
#: and a family vineyard that exports
_DOMAINS_9 = {
    "shifts", "wards", "colleagues", "certifications", "running", "shoes", "physio",
    "grapes", "parcels", "harvest", "barrels", "importers", "customs", "pricing", "labels",
    "tastings",
}  # fmt: skip
#: languages earlier sets used little or not at all, each written natively in the ninth
_LANGS_9 = {
    "is", "ga", "cy", "eu", "gl", "mt", "sq", "mk", "bs", "sl", "be", "mn", "kk", "uz", "ne",
    "si", "ta", "te", "mr", "am", "sw", "yo", "tl",
}  # fmt: skip


def test_the_ninth_set_has_every_kind_language_switches_and_plain_updates() -> None:
    pairs = load(NINTH.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert kinds == {"rewording": 130, "update": 81, "contradiction": 50, "honest": 141}
    langs = {p.lang for p in pairs}
    assert langs >= _LANGS_9 and len(langs - {"en", "mixed"}) >= 14
    assert 0.30 <= sum(p.lang == "en" for p in pairs) / len(pairs) <= 0.40
    domains = {p.domain for p in pairs}
    assert domains >= _DOMAINS_9 and len(domains) >= 12
    rewordings = [p for p in pairs if p.kind == "rewording"]
    switches = [p for p in rewordings if p.subtype == "language_switch"]
    # a switch is tagged with its other language: one side English, the other not
    assert len(switches) >= len(rewordings) / 6 and len({p.lang for p in switches}) >= 20
    assert {"units", "clock", "date_format", "currency", "numbers_in_words"} <= {
        p.subtype for p in rewordings
    }
    # most updates carry no marker: a new holder, a new best, a moved date, a switch, a move
    updates = Counter(p.subtype for p in pairs if p.kind == "update")
    assert {"new_holder", "personal_best", "moved_date", "tool_switch", "city_move"} <= set(updates)
    assert updates["marker"] < sum(updates.values()) / 3
    honest = {p.subtype for p in pairs if p.kind == "honest"}
    assert {"two_places", "two_races", "two_people", "rule_exception", "one_word"} <= honest
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


def test_the_ninth_set_shares_no_sentence_with_the_earlier_ones() -> None:
    old = {
        t.lower()
        for s in SETS.values()
        if s is not NINTH
        for p in load(s.pairs)
        for t in (p.a, p.b)
    }
    assert not [t for p in load(NINTH.pairs) for t in (p.a, p.b) if t.lower() in old]


def test_a_new_set_leaves_the_earlier_splits_and_seeds_alone() -> None:
    assert {h: len(v) for h, v in load_halves(SECOND).items()} == {"dev": 252, "test": 163}
    assert {h: len(v) for h, v in load_halves(THIRD).items()} == {"dev": 184, "test": 223}
    assert {h: len(v) for h, v in load_halves(FOURTH).items()} == {"dev": 185, "test": 225}
    assert {h: len(v) for h, v in load_halves(FIFTH).items()} == {"dev": 208, "test": 192}
    assert {h: len(v) for h, v in load_halves(SIXTH).items()} == {"dev": 186, "test": 214}
    assert {h: len(v) for h, v in load_halves(SEVENTH).items()} == {"dev": 208, "test": 208}
    assert {h: len(v) for h, v in load_halves(EIGHTH).items()} == {"dev": 199, "test": 205}
    assert {h: len(v) for h, v in load_halves(NINTH).items()} == {"dev": 219, "test": 183}
    assert len({s.seed for s in SETS.values()}) == len(SETS) == 9
    doc = json.loads(THIRD.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261207 and doc["cells"] == make_split(load(THIRD.pairs), THIRD.seed)
    doc = json.loads(FOURTH.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261209
    assert doc["cells"] == make_split(load(FOURTH.pairs), FOURTH.seed)
    doc = json.loads(FIFTH.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261210
    assert doc["cells"] == make_split(load(FIFTH.pairs), FIFTH.seed)
    doc = json.loads(SIXTH.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261211
    assert doc["cells"] == make_split(load(SIXTH.pairs), SIXTH.seed)
    doc = json.loads(SEVENTH.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261212
    assert doc["cells"] == make_split(load(SEVENTH.pairs), SEVENTH.seed)
    doc = json.loads(EIGHTH.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261213
    assert doc["cells"] == make_split(load(EIGHTH.pairs), EIGHTH.seed)
    doc = json.loads(NINTH.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261220
    assert doc["cells"] == make_split(load(NINTH.pairs), NINTH.seed)


def test_the_first_set_keeps_its_split() -> None:
    dealt = load_halves(FIRST)
    assert {h: len(v) for h, v in dealt.items()} == {"dev": 211, "test": 161}
    doc = json.loads(FIRST.split.read_text(encoding="utf-8"))
    assert doc["seed"] == 20261205 and doc["cells"] == make_split(load(FIRST.pairs))


@pytest.mark.parametrize("which", list(SETS.values()), ids=list(SETS))
def test_each_cell_lies_in_one_half_and_both_halves_see_every_kind(which: FreshSet) -> None:
    dealt = load_halves(which)
    cells = {h: {f"{p.domain}/{p.lang}" for p in v} for h, v in dealt.items()}
    assert not cells["dev"] & cells["test"]
    for half in dealt.values():
        assert {p.kind for p in half} == set(_tidy_fresh.KINDS)


def _copy(which: FreshSet, tmp_path: Path, lines: list[str] | None = None) -> FreshSet:
    pairs = tmp_path / "pairs.jsonl"
    text = "\n".join(lines) + "\n" if lines else which.pairs.read_text(encoding="utf-8")
    pairs.write_text(text, encoding="utf-8")
    split = tmp_path / "split.json"
    split.write_text(which.split.read_text(encoding="utf-8"), encoding="utf-8")
    return dataclasses.replace(which, pairs=pairs, split=split)


@pytest.mark.parametrize("which", list(SETS.values()), ids=list(SETS))
def test_a_pair_moved_to_a_cell_of_the_other_half_is_refused(
    which: FreshSet, tmp_path: Path
) -> None:
    lines = which.pairs.read_text(encoding="utf-8").splitlines()
    doc = json.loads(which.split.read_text(encoding="utf-8"))
    row = json.loads(lines[0])
    half = next(h for h, ids in doc["pairs"].items() if row["id"] in ids)
    other = "test" if half == "dev" else "dev"
    row["domain"], row["lang"] = doc["cells"][other][0].split("/")
    moved = _copy(which, tmp_path, [json.dumps(row, ensure_ascii=False), *lines[1:]])
    with pytest.raises(ValueError, match="pairs not in their dealt half"):
        load_halves(moved)


@pytest.mark.parametrize("which", list(SETS.values()), ids=list(SETS))
def test_a_cell_moved_in_the_split_file_is_refused(which: FreshSet, tmp_path: Path) -> None:
    moved = _copy(which, tmp_path)
    doc = json.loads(moved.split.read_text(encoding="utf-8"))
    doc["cells"]["dev"].append(doc["cells"]["test"].pop())
    moved.split.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match="cells not in their dealt half"):
        load_halves(moved)


def test_a_split_dealt_with_another_seed_is_refused(tmp_path: Path) -> None:
    moved = _copy(SECOND, tmp_path)
    with pytest.raises(ValueError, match="seed"):
        load_halves(dataclasses.replace(moved, seed=FIRST.seed))


def test_a_set_is_dealt_and_its_baseline_taken_once(tmp_path: Path) -> None:
    copy = _copy(SECOND, tmp_path)
    with pytest.raises(SystemExit, match="dealt once"):
        _tidy_fresh.write_split(copy)
    copy.baseline.parent.mkdir(exist_ok=True)
    taken = dataclasses.replace(copy, baseline=copy.split)
    with pytest.raises(SystemExit, match="measured once"):
        tidy.record_baseline(taken, offline=True)


@pytest.mark.parametrize(
    "which",
    [SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH, EIGHTH, NINTH],
    ids=["fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9"],
)
@pytest.mark.parametrize("half", [None, "test"])
def test_misses_are_listed_for_the_dev_half_only(half: str | None, which: FreshSet) -> None:
    with pytest.raises(SystemExit, match="dev half only"):
        tidy.fresh_only(half, True, True, which)


def test_a_set_other_than_the_first_is_reported_under_its_own_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kinds = {
        "rewording": ("CI runs on Woodpecker", "Woodpecker runs the CI"),
        "update": ("The wiki runs MediaWiki 1.39", "The wiki now runs MediaWiki 1.41"),
        "contradiction": ("The office cat is called Miso", "The office cat is called Tofu"),
        "honest": ("The office cat is called Miso", "The office dog is called Pixel"),
    }
    rows = [
        {"id": f"{kind[0]}{i}", "kind": kind, "subtype": "plain", "lang": "en", "domain": dom,
         "a": a, "b": b}
        for i, dom in enumerate(("home", "work"))
        for kind, (a, b) in kinds.items()
    ]  # fmt: skip
    which = dataclasses.replace(
        SECOND,
        name="tiny",
        pairs=tmp_path / "tiny.jsonl",
        split=tmp_path / "tiny_split.json",
    )
    which.pairs.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    _tidy_fresh.write_split(which)
    out = tidy.fresh(("dev", "test"), None, which)
    assert out["n"] == {"dev": 4, "test": 4}
    assert set(out["modes"]) == {"offline"}
    assert set(out["modes"]["offline"]["dev"]) == set(_tidy_fresh.KINDS)
    printed = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in printed] == ["tiny offline dev", "tiny offline test"]
    tidy.fresh_only("dev", True, True, which)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("tiny offline dev:")
    assert all(line.split()[0] in {r["id"] for r in rows} for line in printed[1:] if line)


def test_dev_only_reports_every_dev_half_and_no_test_half(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tidy.dev_only(2, offline=True)
    assert set(out["generated"]) == {"offline"}
    assert out["generated"]["offline"]["honest"]["false_merge"]["n"] > 0
    for which in SETS.values():
        assert set(out[which.name]["n"]) == {"dev"}
        assert set(out[which.name]["modes"]["offline"]) == {"dev"}
    assert "test" not in capsys.readouterr().out
