"""bench/_scan_fresh.py, the fresh held-out sets of ``./x bench scan``: their size and
coverage, that each split is the seeded deal by family x language (every group in one
half, every family and language in both) and that a row moved by hand is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import _scan_training as training
from _scan_fresh import (
    EIGHTH,
    ELEVENTH,
    FIFTH,
    FOURTH,
    FRESH,
    NINTH,
    SECOND,
    SETS,
    SEVENTH,
    SIXTH,
    TENTH,
    THIRD,
    TRAINED_ON,
    FreshSet,
    deal,
    load,
    role,
)

_ATTACK_FAMILIES = {
    "concealment",
    "credential_harvesting",
    "persistence",
    "tool_abuse",
    "split_instruction",
    "safety_override",
    "exfiltration",
}
_LANGS = {"en", "de", "es", "fr", "ru", "zh", "ja", "ar", "mixed"}


def test_the_fresh_set_covers_every_family_and_language_with_enough_rows() -> None:
    rows = load()
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 120 and len(honest) >= 120
    assert {r["family"] for r in attacks} == _ATTACK_FAMILIES
    assert {r["lang"] for r in attacks} == _LANGS == {r["lang"] for r in honest}
    assert len({r["source"] for r in rows}) == len(rows)
    pairs = {"split_instruction", "split_lookalike"}
    assert all(r["context"] for r in rows if r["family"] in pairs)


_LANGS_2 = _LANGS | {"pt", "it", "ko"}
_STYLES_2 = {
    "story",
    "quoted_note",
    "checklist",
    "conditional",
    "config",
    "table",
    "translation",
    "typo",
    "split",
    "plain",
}


def test_the_second_set_covers_twelve_languages_and_the_new_framings() -> None:
    rows = load(SECOND.path, SECOND.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 100 and len(honest) >= 100
    assert {r["family"] for r in attacks} == _ATTACK_FAMILIES
    assert {r["lang"] for r in attacks} == _LANGS_2 == {r["lang"] for r in honest}
    assert {r["style"] for r in attacks} == _STYLES_2
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["context"] for r in rows if r["style"] == "split")


def test_the_second_set_shares_no_sentence_with_the_first_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    old = json.dumps(doc, ensure_ascii=False).lower() + FRESH.read_text(encoding="utf-8").lower()
    assert not [r["text"] for r in load(SECOND.path, SECOND.seed) if r["text"].lower() in old]


@pytest.mark.parametrize("which", list(SETS.values()), ids=list(SETS))
def test_each_family_and_language_group_lies_in_one_half_and_both_halves_see_all(
    which: FreshSet,
) -> None:
    rows = load(which.path, which.seed)
    halves: dict[tuple[str, str, str], set[str]] = {}
    for r in rows:
        halves.setdefault((r["label"], r["family"], r["lang"]), set()).add(r["split"])
    assert all(len(h) == 1 for h in halves.values())
    for label in ("attack", "benign"):
        mine = [r for r in rows if r["label"] == label]
        for key in ("family", "lang"):
            for value in {r[key] for r in mine}:
                groups = {(r["family"], r["lang"]) for r in mine if r[key] == value}
                # a language written in one family only is one group: it cannot be split
                if len(groups) > 1:
                    assert {r["split"] for r in mine if r[key] == value} == {"dev", "test"}


def test_the_fresh_wording_shares_no_sentence_with_the_generated_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    old = json.dumps(doc, ensure_ascii=False).lower()
    assert not [r["text"] for r in load() if r["text"].lower() in old]


@pytest.mark.parametrize("which", list(SETS.values()), ids=list(SETS))
def test_a_row_moved_to_the_other_half_is_refused(tmp_path: Path, which: FreshSet) -> None:
    lines = which.path.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[0])
    row["split"] = "test" if row["split"] == "dev" else "dev"
    moved = tmp_path / "fresh.jsonl"
    moved.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not in their dealt half"):
        load(moved, which.seed)


def test_the_deal_depends_on_the_seed_only() -> None:
    rows = load()
    assert deal(rows) == deal(list(reversed(rows)))
    assert deal(rows, seed=1) != deal(rows)


_LANGS_3 = _LANGS_2 | {"nl", "pl", "uk", "tr", "hi"}
_STYLES_3 = {
    "plain",
    "second_person",
    "user_wants",
    "past_agreement",
    "faq",
    "code_comment",
    "commit_message",
}


def test_the_third_set_weights_harvesting_and_exfiltration_in_seventeen_languages() -> None:
    rows = load(THIRD.path, THIRD.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 100 and len(honest) >= 100
    assert {r["family"] for r in attacks} == _ATTACK_FAMILIES
    assert {r["lang"] for r in attacks} == _LANGS_3 == {r["lang"] for r in honest}
    assert {r["style"] for r in attacks} == _STYLES_3 == {r["style"] for r in honest}
    per_family = {f: sum(r["family"] == f for r in attacks) for f in _ATTACK_FAMILIES}
    weak = {"credential_harvesting", "exfiltration"}
    assert min(per_family[f] for f in weak) > max(n for f, n in per_family.items() if f not in weak)
    assert len({r["source"] for r in rows}) == len(rows)
    pairs = {"split_instruction", "split_lookalike"}
    assert all(r["context"] for r in rows if r["family"] in pairs)


def test_the_third_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    old = (
        json.dumps(doc, ensure_ascii=False)
        + FRESH.read_text(encoding="utf-8")
        + SECOND.path.read_text(encoding="utf-8")
    ).lower()
    assert not [r["text"] for r in load(THIRD.path, THIRD.seed) if r["text"].lower() in old]


_FAMILIES_4 = _ATTACK_FAMILIES | {
    "prompt_exfiltration",
    "social_engineering",
    "payment_redirection",
    "security_weakening",
    "supply_chain",
    "tracking",
}
_NEW_FRAMINGS_4 = {
    "email_signature",
    "meeting_minutes",
    "ticket_comment",
    "slack",
    "recipe_list",
    "poem",
    "lessons_learned",
    "todo",
    "shell_history",
    "env_line",
    "json",
    "toml",
    "calendar",
    "changelog",
}


def test_the_fourth_set_covers_new_families_languages_and_framings() -> None:
    rows = load(FOURTH.path, FOURTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 120 and len(honest) >= 120
    assert {r["family"] for r in attacks} == _FAMILIES_4
    langs = {r["lang"] for r in attacks}
    assert langs == {r["lang"] for r in honest}
    assert len(langs - {"en", "mixed"}) >= 12 and "mixed" in langs
    # about half English, in both labels
    for mine in (attacks, honest):
        assert 0.4 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.6
    both = {r["style"] for r in attacks} & {r["style"] for r in honest}
    assert not _NEW_FRAMINGS_4 - both
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh4@scanfresh4:") for r in rows)
    assert all(r["context"] for r in rows if r["style"] == "split")
    assert {r["label"] for r in rows if r["style"] == "split"} == {"attack", "benign"}


def test_the_fourth_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    old = (
        json.dumps(doc, ensure_ascii=False)
        + "".join(p.read_text(encoding="utf-8") for p in (FRESH, SECOND.path, THIRD.path))
    ).lower()
    assert not [r["text"] for r in load(FOURTH.path, FOURTH.seed) if r["text"].lower() in old]


@pytest.mark.parametrize(
    "which",
    [FOURTH, FIFTH, SIXTH, SEVENTH, EIGHTH, NINTH, TENTH, ELEVENTH],
    ids=["fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11"],
)
def test_the_later_baselines_hold_figures_not_texts(which: FreshSet) -> None:
    base = json.loads(which.baseline.read_text(encoding="utf-8"))
    texts = [r["text"] for r in load(which.path, which.seed)]
    raw = which.baseline.read_text(encoding="utf-8")
    assert not [t for t in texts if json.dumps(t, ensure_ascii=True)[1:-1] in raw]
    for level in ("balanced", "strict", "lenient"):
        for half in ("dev", "test"):
            fig = base[level][half]
            assert fig["set"] == which.name and fig["seed"] == which.seed
            assert fig["attacks"]["n"] + fig["honest"]["n"] == sum(
                r["split"] == half for r in load(which.path, which.seed)
            )


_FAMILIES_5 = _FAMILIES_4 | {
    "sabotage",
    "manipulation",
    "memory_poisoning",
    "evidence_hiding",
    "impersonation",
}
#: Ways text reaches memory without an attacker typing it, and framings new in the fifth set.
_NEW_FRAMINGS_5 = {
    "web_page",
    "readme",
    "email_summary",
    "pdf_hidden",
    "alt_text",
    "customer_message",
    "tweet",
    "form_field",
    "crontab",
    "ini",
    "yaml",
    "it_note",
    "quote_user",
}


def test_the_fifth_set_covers_eighteen_families_and_the_ways_text_reaches_memory() -> None:
    rows = load(FIFTH.path, FIFTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 130 and len(honest) >= 125
    assert {r["family"] for r in attacks} == _FAMILIES_5
    langs = {r["lang"] for r in attacks}
    assert langs == {r["lang"] for r in honest}
    assert len(langs - {"en", "mixed"}) >= 14 and "mixed" in langs
    # about 40 % English, in both labels
    for mine in (attacks, honest):
        assert 0.3 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.5
    # every framing is used by both labels
    assert {r["style"] for r in attacks} == {r["style"] for r in honest} >= _NEW_FRAMINGS_5
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh5@scanfresh5:") for r in rows)
    assert all(r["context"] for r in rows if r["style"] == "split")
    assert {r["label"] for r in rows if r["style"] == "split"} == {"attack", "benign"}


def test_the_fifth_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    old = (
        json.dumps(doc, ensure_ascii=False)
        + "".join(p.read_text(encoding="utf-8") for p in (FRESH, SECOND.path, THIRD.path))
        + FOURTH.path.read_text(encoding="utf-8")
    ).lower()
    assert not [r["text"] for r in load(FIFTH.path, FIFTH.seed) if r["text"].lower() in old]


_FAMILIES_6 = _ATTACK_FAMILIES | {
    "prompt_exfiltration",
    "payment_redirection",
    "contact_abuse",
    "decision_steering",
    "surveillance",
    "sabotage",
    "memory_poisoning",
    "evidence_tampering",
    "impersonation",
    "security_weakening",
    "account_takeover",
}
#: Requests worded as something else, and ways text reaches memory unbidden.
_FRAMINGS_6 = {
    "preference",
    "favour",
    "policy",
    "team_decision",
    "user_fact",
    "changelog",
    "it_note",
    "legal_note",
    "quote_user",
    "conditional",
    "delayed",
    "readme",
    "issue_comment",
    "support_ticket",
    "email_summary",
    "transcript",
    "pdf_hidden",
    "web_page",
    "calendar",
}


def test_the_sixth_set_covers_eighteen_families_thirty_languages_and_its_framings() -> None:
    rows = load(SIXTH.path, SIXTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 130 and len(honest) >= 125
    assert {r["family"] for r in attacks} == _FAMILIES_6
    langs = {r["lang"] for r in attacks}
    assert langs == {r["lang"] for r in honest}
    assert len(langs - {"en", "mixed"}) >= 14 and "mixed" in langs
    for mine in (attacks, honest):
        assert 0.3 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.5
    assert {r["style"] for r in attacks} == {r["style"] for r in honest} >= _FRAMINGS_6
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh6@scanfresh6:") for r in rows)
    assert all(r["context"] for r in rows if r["style"] == "split")
    assert {r["label"] for r in rows if r["style"] == "split"} == {"attack", "benign"}


def test_the_sixth_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    earlier = (FRESH, SECOND.path, THIRD.path, FOURTH.path, FIFTH.path)
    rows = "".join(p.read_text(encoding="utf-8") for p in earlier)
    old = (json.dumps(doc, ensure_ascii=False) + rows).lower()
    assert not [r["text"] for r in load(SIXTH.path, SIXTH.seed) if r["text"].lower() in old]


def test_the_sets_the_classifier_trains_on_are_reported_as_trained_on() -> None:
    # Scanner 16: the first five sets are training data; scanner 20: the sixth and seventh
    # too (their test halves spent); the eighth stays held out.
    assert {SETS[name].path.name for name in TRAINED_ON} == set(training.FRESH_TRAINED)
    assert role(SIXTH) == role(SEVENTH) == "trained on"
    assert role(EIGHTH) == role(NINTH) == role(TENTH) == "held out"
    assert [role(SETS[name]) for name in sorted(TRAINED_ON)] == ["trained on"] * 7


#: The harms of the seventh set that read as ordinary preferences or facts, and to others.
_FAMILIES_7_NEW = {
    "shipping_redirection",
    "standing_approval",
    "trusted_domain",
    "report_diversion",
    "patient_harm",
    "customer_harm",
    "colleague_harm",
}
#: Languages no earlier set had.
_LANGS_7_NEW = {"hu", "fi", "sv", "ca", "hr", "sk", "bg"}


def test_the_seventh_set_covers_its_families_and_twenty_four_languages() -> None:
    rows = load(SEVENTH.path, SEVENTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 130 and len(honest) >= 125
    assert {r["family"] for r in attacks} >= _ATTACK_FAMILIES | _FAMILIES_7_NEW
    langs = {r["lang"] for r in attacks}
    assert langs == {r["lang"] for r in honest}
    assert len(langs - {"en", "mixed"}) >= 16 and "mixed" in langs and langs >= _LANGS_7_NEW
    for mine in (attacks, honest):
        assert 0.25 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.45
    assert {r["style"] for r in attacks} == {r["style"] for r in honest}
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh7@scanfresh7:") for r in rows)
    pairs = {"split_instruction", "split_lookalike"}
    assert all(r["context"] for r in rows if r["family"] in pairs)


def test_the_seventh_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    earlier = (FRESH, SECOND.path, THIRD.path, FOURTH.path, FIFTH.path, SIXTH.path)
    rows = "".join(p.read_text(encoding="utf-8") for p in earlier)
    old = (json.dumps(doc, ensure_ascii=False) + rows).lower()
    assert not [r["text"] for r in load(SEVENTH.path, SEVENTH.seed) if r["text"].lower() in old]


#: The harms of the eighth set to elderly relatives and community groups.
_FAMILIES_8_NEW = {
    "payment_redirection",
    "contact_abuse",
    "decision_steering",
    "tech_support_scam",
    "surveillance",
    "sabotage",
    "memory_poisoning",
    "evidence_tampering",
    "impersonation",
    "account_takeover",
}


def test_the_eighth_set_covers_its_families_and_twenty_nine_languages() -> None:
    rows = load(EIGHTH.path, EIGHTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 130 and len(honest) >= 125
    assert {r["family"] for r in attacks} == _ATTACK_FAMILIES | _FAMILIES_8_NEW | {
        "prompt_exfiltration"
    }
    assert {r["family"] for r in honest} == {r["family"] for r in attacks}
    langs = {r["lang"] for r in attacks}
    assert langs == {r["lang"] for r in honest}
    assert len(langs - {"en", "mixed"}) >= 14 and "mixed" in langs
    for mine in (attacks, honest):
        assert 0.25 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.45
    assert {r["style"] for r in attacks} == {r["style"] for r in honest}
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh8@scanfresh8:") for r in rows)
    assert all(r["context"] for r in rows if r["family"] == "split_instruction")


def test_the_eighth_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    earlier = (FRESH, SECOND.path, THIRD.path, FOURTH.path, FIFTH.path, SIXTH.path, SEVENTH.path)
    rows = "".join(p.read_text(encoding="utf-8") for p in earlier)
    old = (json.dumps(doc, ensure_ascii=False) + rows).lower()
    assert not [r["text"] for r in load(EIGHTH.path, EIGHTH.seed) if r["text"].lower() in old]


#: The harms of the ninth set, worded as routine by a logistics manager and a home-lab parent.
_FAMILIES_9_NEW = _FAMILIES_8_NEW - {"decision_steering", "tech_support_scam"} | {
    "steering_decisions",
    "weakening_security",
    "unauthorised_purchases",
}
#: Languages the session-45 brief asked for that earlier sets used less.
_LANGS_9_NEW = {
    "hu",
    "ro",
    "bg",
    "sr",
    "hr",
    "sk",
    "ca",
    "lt",
    "lv",
    "et",
    "te",
    "mr",
    "am",
    "ha",
    "yo",
}
#: Ways text reaches memory without an attacker typing it, in both attacks and honest notes.
_FRAMINGS_9 = {"changelog", "readme", "issue_comment", "calendar_invite", "pdf", "transcript"}


def test_the_ninth_set_covers_its_families_and_forty_three_languages() -> None:
    rows = load(NINTH.path, NINTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= 130 and len(honest) >= 125
    assert {r["family"] for r in attacks} == _ATTACK_FAMILIES | _FAMILIES_9_NEW | {
        "prompt_exfiltration"
    }
    assert {r["family"] for r in honest} == {r["family"] for r in attacks}
    langs = {r["lang"] for r in attacks}
    assert langs == {r["lang"] for r in honest}
    assert len(langs - {"en", "mixed"}) >= 40 and "mixed" in langs and langs >= _LANGS_9_NEW
    for mine in (attacks, honest):
        assert 0.3 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.4
    assert {r["style"] for r in attacks} == {r["style"] for r in honest} >= _FRAMINGS_9
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh9@scanfresh9:") for r in rows)
    assert all(r["context"] for r in rows if r["family"] == "split_instruction")


def test_the_ninth_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    earlier = [s.path for s in SETS.values() if s is not NINTH]
    rows = "".join(p.read_text(encoding="utf-8") for p in earlier)
    old = (json.dumps(doc, ensure_ascii=False) + rows).lower()
    assert not [r["text"] for r in load(NINTH.path, NINTH.seed) if r["text"].lower() in old]


#: The harms of the tenth set beyond the issue's seven families and prompt exfiltration.
_FAMILIES_10_NEW = {
    "payment_redirection",
    "contact_abuse",
    "steering_decisions",
    "surveillance",
    "sabotage",
    "memory_poisoning",
    "evidence_tampering",
    "impersonation",
    "account_takeover",
    "unauthorised_purchase",
}
#: Languages the session-46 brief asked for that earlier sets used less.
_LANGS_10_NEW = {"ne", "si", "km", "my", "ka", "hy", "az", "kk", "uz", "sw", "tl", "ms", "ta"}
#: Ways text reaches memory without an attacker typing it, in both attacks and honest notes.
_FRAMINGS_10 = {
    "web_page",
    "readme",
    "changelog",
    "issue_comment",
    "email_summary",
    "calendar_invite",
    "pdf_line",
    "transcript",
    "support_ticket",
    "review",
    "form_field",
}


def test_the_tenth_set_pairs_every_attack_with_an_honest_note_in_fifty_one_languages() -> None:
    rows = load(TENTH.path, TENTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) == len(honest) >= 150
    assert {r["family"] for r in attacks} == _ATTACK_FAMILIES | _FAMILIES_10_NEW | {
        "prompt_exfiltration"
    }
    # one honest look-alike for each attack, in the same family, language and framing
    pairs = [(r["family"], r["lang"], r["style"]) for r in attacks]
    assert sorted(pairs) == sorted((r["family"], r["lang"], r["style"]) for r in honest)
    langs = {r["lang"] for r in attacks}
    assert len(langs - {"en", "mixed"}) >= 50 and "mixed" in langs and langs >= _LANGS_10_NEW
    for mine in (attacks, honest):
        assert 0.3 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.4
    assert {r["style"] for r in attacks} >= _FRAMINGS_10
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh10@scanfresh10:") for r in rows)
    assert all(r["context"] for r in rows if r["family"] == "split_instruction")
    # six languages have one attack and one honest note each, so each lies in one half of
    # its label; every other language has rows in both halves of both labels
    for mine in (attacks, honest):
        once = {g for g in langs if len({r["family"] for r in mine if r["lang"] == g}) == 1}
        assert once == {"cs", "fa", "hi", "sv", "th", "vi"}


def test_the_tenth_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    earlier = [s.path for s in SETS.values() if s is not TENTH]
    rows = "".join(p.read_text(encoding="utf-8") for p in earlier)
    old = (json.dumps(doc, ensure_ascii=False) + rows).lower()
    assert not [r["text"] for r in load(TENTH.path, TENTH.seed) if r["text"].lower() in old]


_FAMILIES_11 = _ATTACK_FAMILIES | {
    "prompt_exfiltration",
    "payment_redirection",
    "contact_abuse",
    "steering_purchases",
    "surveillance",
    "sabotage",
    "memory_poisoning",
    "evidence_tampering",
    "impersonation",
    "account_takeover",
    "weakening_security",
}
#: The languages the earlier sets used less, each written in the eleventh set.
_LANGS_11_NEW = {
    *("is", "ga", "cy", "eu", "gl", "mt", "sq", "mk", "bs", "sl", "be", "mn", "ps", "ku"),
    *("sd", "gu", "kn", "ml", "pa", "lo", "zu", "xh", "ig", "so", "mg", "ky", "tg"),
}
#: Ways text reaches memory without an attacker typing it, in the eleventh set.
_UNBIDDEN_11 = {
    "web_page",
    "readme",
    "changelog",
    "issue_comment",
    "email_summary",
    "calendar",
    "pdf_line",
    "transcript",
    "support_ticket",
    "review",
    "form",
}


def test_the_eleventh_set_pairs_every_attack_with_an_honest_note_in_forty_languages() -> None:
    rows = load(ELEVENTH.path, ELEVENTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) == len(honest) >= 150
    assert {r["family"] for r in attacks} == _FAMILIES_11 == {r["family"] for r in honest}
    # one honest look-alike for each attack, in the same family, language and framing
    pairs = [(r["family"], r["lang"], r["style"]) for r in attacks]
    assert sorted(pairs) == sorted((r["family"], r["lang"], r["style"]) for r in honest)
    langs = {r["lang"] for r in attacks}
    assert len(langs - {"en", "mixed"}) >= 40 and "mixed" in langs and langs >= _LANGS_11_NEW
    for mine in (attacks, honest):
        assert 0.3 <= sum(r["lang"] == "en" for r in mine) / len(mine) <= 0.4
    assert {r["style"] for r in attacks} >= _UNBIDDEN_11
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith("mnemic/fresh11@scanfresh11:") for r in rows)
    assert all(r["context"] for r in rows if r["family"] == "split_instruction")
    assert {r["split"] for r in attacks} == {"dev", "test"} == {r["split"] for r in honest}


def test_the_eleventh_set_shares_no_sentence_with_the_earlier_sets_or_the_families() -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    earlier = [s.path for s in SETS.values() if s is not ELEVENTH]
    rows = "".join(p.read_text(encoding="utf-8") for p in earlier)
    old = (json.dumps(doc, ensure_ascii=False) + rows).lower()
    assert not [r["text"] for r in load(ELEVENTH.path, ELEVENTH.seed) if r["text"].lower() in old]
