"""bench/_scan_fresh.py, the fresh held-out sets of ``./x bench scan``: their size and
coverage, that each split is the seeded deal by family x language (every group in one
half, every family and language in both) and that a row moved by hand is refused.

What each set is written to cover is one row of :data:`COVERS`; a new set adds its row
there (and its name to ``SETS``), and every test here reads it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import _scan_training as training
from _scan_fresh import (
    EIGHTEENTH,
    EIGHTH,
    ELEVENTH,
    FIFTEENTH,
    FIFTH,
    FIRST,
    FOURTEENTH,
    FOURTH,
    FRESH,
    NINETEENTH,
    NINTH,
    SECOND,
    SETS,
    SEVENTEENTH,
    SEVENTH,
    SIXTEENTH,
    SIXTH,
    TENTH,
    THIRD,
    THIRTEENTH,
    TRAINED_ON,
    TWELFTH,
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

_FAMILIES_11_NEW = {
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

#: The languages the session-48 brief listed as less written, each in the twelfth set.
_LANGS_12_NEW = {
    *("is", "ga", "cy", "eu", "mt", "sq", "xh", "ig", "ky", "ps", "yo", "zu", "am", "ha"),
    *("so", "uz", "az", "ka", "hy", "mn", "km", "si", "ne", "ta", "bn", "ur", "fa", "lb"),
}
#: Ways text reaches memory without an attacker typing it, in the twelfth set.
_UNBIDDEN_12 = {
    "tool_output",
    "web_page",
    "readme",
    "meeting_notes",
    "chat_export",
    "invoice",
    "ocr_letter",
    "voicemail",
    "email_summary",
    "support_ticket",
}

#: The widely spoken languages the session-49 brief named, each in the thirteenth set.
_LANGS_13_WIDE = {"es", "pt", "fr", "de", "it", "ru", "zh", "ja", "ko", "ar", "hi", "tr", "id"}
_LANGS_13_WIDE |= {"vi", "pl"}
#: The less-written languages of the thirteenth set.
_LANGS_13_LESS = {
    *("is", "cy", "ga", "eu", "et", "lv", "lt", "sl", "sq", "sw", "tl", "bn", "ur", "fa"),
    *("ka", "af", "hy"),
}
#: Requests worded as something else, and text that reaches memory unbidden, in the
#: thirteenth set.
_FRAMINGS_13 = {
    "favour",
    "preference",
    "standing_instruction",
    "minutes",
    "memo",
    "quoted_document",
    "tool_output",
    "email_summary",
    "sms",
    "chat_message",
    "work_order",
    "web_page",
    "readme",
    "review",
    "support_ticket",
    "invoice",
    "voicemail",
    "letter",
    "form_field",
    "pair",
}

#: The widely spoken languages of the fourteenth set (the thirteenth's fifteen), and its
#: less-written ones: each written in two families.
_LANGS_14_WIDE = _LANGS_13_WIDE
_LANGS_14_LESS = {
    *("nl", "sv", "uk", "el", "he", "th", "ro", "hu", "cs", "fi", "da", "no", "is", "cy"),
    *("ga", "eu", "sw", "tl", "bn", "ur", "fa", "ka", "hy", "am", "yo", "ta", "te", "ms"),
    *("ne", "si", "mn", "lt", "sl"),
}
#: Requests worded as something else, and text that reaches memory unbidden, in the
#: fourteenth set (new: handover notes, ward orders, a newsletter).
_FRAMINGS_14 = {
    "favour",
    "preference",
    "standing_instruction",
    "memo",
    "minutes",
    "handover_note",
    "ward_order",
    "quoted_document",
    "newsletter",
    "tool_output",
    "email_summary",
    "sms",
    "chat_message",
    "voicemail",
    "web_page",
    "review",
    "support_ticket",
    "invoice",
    "form_field",
    "pair",
}

#: The framings the fifteenth to nineteenth sets all hold (requests worded as something
#: else, text that reaches memory unbidden); each set adds its own below.
_FRAMINGS_LATER = {
    "favour",
    "preference",
    "standing_instruction",
    "policy",
    "memo",
    "minutes",
    "quoted_document",
    "tool_output",
    "email_summary",
    "sms",
    "chat_message",
    "voicemail",
    "web_page",
    "review",
    "support_ticket",
    "invoice",
    "form_field",
    "pair",
}

#: The languages of the fifteenth set: the fourteenth's fifteen widely spoken ones and
#: thirty-three others, each written in two families.
_LANGS_15 = _LANGS_13_WIDE | {
    *("nl", "sv", "uk", "el", "he", "th", "ro", "hu", "cs", "fi", "da", "no", "is", "cy"),
    *("ga", "eu", "sw", "tl", "bn", "ur", "fa", "ka", "hy", "ms", "ca", "hr", "sk", "bg"),
    *("sr", "lt", "lv", "et", "af"),
}
#: Requests worded as something else, and text that reaches memory unbidden, in the
#: fifteenth set (new: dispatch notes, rehearsal notes).
_FRAMINGS_15 = _FRAMINGS_LATER | {"dispatch_note", "rehearsal_notes", "work_order", "newsletter"}

#: The languages of the sixteenth set: the fifteen widely spoken ones and thirty-three
#: others, each written in two families.
_LANGS_16 = _LANGS_13_WIDE | {
    *("nl", "sv", "da", "no", "fi", "uk", "el", "he", "th", "ro", "hu", "cs", "hr", "sl"),
    *("bg", "sq", "ca", "gl", "eu", "cy", "is", "mt", "sw", "zu", "am", "tl", "bn", "ur"),
    *("fa", "mr", "ta", "ka", "az"),
}
#: Requests worded as something else, and text that reaches memory unbidden, in the
#: sixteenth set (new: booking notes, spray-diary entries).
_FRAMINGS_16 = _FRAMINGS_LATER | {"booking_note", "spray_diary"}

#: The languages of the seventeenth set: the fifteen widely spoken ones and thirty-three
#: others, each written in two families.
_LANGS_17 = _LANGS_13_WIDE | {
    *("nl", "sv", "da", "no", "fi", "uk", "el", "he", "th", "cs", "sk", "ro", "hu", "hr"),
    *("sr", "bg", "lt", "lv", "et", "ca", "eu", "gl", "cy", "ga", "is", "sw", "tl", "ms"),
    *("bn", "ur", "fa", "af", "ne"),
}
#: Requests worded as something else, and text that reaches memory unbidden, in the
#: seventeenth set (new: a plumber's job sheets, a library's branch log).
_FRAMINGS_17 = _FRAMINGS_LATER | {"job_sheet", "branch_log"}

#: The languages of the eighteenth set: the fifteen widely spoken ones and thirty-three
#: others (Danish, Finnish, Estonian, Dutch and Hungarian among them), each written in two
#: families.
_LANGS_18 = _LANGS_13_WIDE | {
    *("nl", "da", "fi", "et", "hu", "sv", "no", "uk", "el", "he", "th", "cs", "ro", "hr"),
    *("sr", "bg", "lt", "lv", "sk", "sl", "ca", "eu", "cy", "ga", "is", "sw", "tl", "ms"),
    *("bn", "ur", "fa", "ta", "ka"),
}
#: Requests worded as something else, and text that reaches memory unbidden, in the
#: eighteenth set (new: a physiotherapist's treatment notes, a climbing club's notices, a
#: yarn shop's order notes).
_FRAMINGS_18 = _FRAMINGS_LATER | {"treatment_note", "club_notice", "order_note"}

#: The languages of the nineteenth set: the fifteen widely spoken ones and thirty-three
#: others (Afrikaans, Albanian, Armenian, Azerbaijani, Macedonian, Galician, Marathi, Telugu
#: and Nepali new to the later sets), each written in two families.
_LANGS_19 = _LANGS_13_WIDE | {
    *("nl", "da", "fi", "hu", "sv", "no", "uk", "el", "he", "th", "cs", "ro", "hr", "bg"),
    *("lt", "sk", "ca", "cy", "sw", "tl", "ms", "bn", "fa", "ta", "af", "sq", "hy", "az"),
    *("mk", "gl", "mr", "te", "ne"),
}
#: Requests worded as something else, and text that reaches memory unbidden, in the
#: nineteenth set (new: a wedding photographer's shoot briefs, a bakery's bake sheets, a
#: photographers' group notice).
_FRAMINGS_19 = _FRAMINGS_LATER | {"shoot_brief", "bake_sheet", "order_note", "group_notice"}

#: The families whose rows come in two parts: the part stored earlier is the row's context.
_SPLIT_FAMILIES = {"split_instruction", "split_lookalike"}
_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Covers:
    """What one set is written to cover. Both labels always use the same languages,
    "mixed" among them; every row has its own source; every split row (a split family,
    or framed as "split") has its context."""

    which: FreshSet
    #: At least this many attacks and honest notes.
    attacks: int
    honest: int
    #: The attacks' families: these exactly, or at least these (``more_families``).
    families: set[str]
    #: How every row's source starts.
    source: str
    more_families: bool = False
    #: The honest notes are of the attacks' families exactly.
    honest_families: bool = False
    #: The languages: at least these, or exactly (``only_langs``).
    langs: set[str] | frozenset[str] = _NONE
    only_langs: bool = False
    #: At least this many languages besides English and "mixed".
    other_langs: int = 0
    #: The share of English rows in each label lies in this range.
    english: tuple[float, float] | None = None
    #: Framings the attacks use: at least these, or exactly (``only_styles``).
    styles: set[str] | frozenset[str] = _NONE
    only_styles: bool = False
    #: Framings the honest notes use, at least.
    honest_styles: set[str] | frozenset[str] = _NONE
    #: The honest notes use the attacks' framings exactly.
    same_styles: bool = False
    #: Some rows are framed as "split", in both labels.
    split_style: bool = False
    #: These families have more attacks each than any other family.
    weighted: frozenset[str] = _NONE
    #: Every attack has one honest look-alike in the same family, language and framing.
    paired: bool = False
    #: The languages written in one family only (in each label), when the set says so.
    one_family_langs: frozenset[str] | None = None


COVERS = [
    Covers(FIRST, 120, 120, _ATTACK_FAMILIES, "mnemic/fresh@scan4:", langs=_LANGS,
           only_langs=True),
    # twelve languages and the new framings
    Covers(SECOND, 100, 100, _ATTACK_FAMILIES, "mnemic/fresh2@scan6:", langs=_LANGS_2,
           only_langs=True, styles=_STYLES_2, only_styles=True, split_style=True),
    # harvesting and exfiltration weighted, in seventeen languages
    Covers(THIRD, 100, 100, _ATTACK_FAMILIES, "mnemic/fresh3@scan7:", langs=_LANGS_3,
           only_langs=True, styles=_STYLES_3, only_styles=True, same_styles=True,
           weighted=frozenset({"credential_harvesting", "exfiltration"})),
    # new families, languages and framings; about half English
    Covers(FOURTH, 120, 120, _FAMILIES_4, "mnemic/fresh4@scanfresh4:", other_langs=12,
           english=(0.4, 0.6), styles=_NEW_FRAMINGS_4, honest_styles=_NEW_FRAMINGS_4,
           split_style=True),
    # eighteen families and the ways text reaches memory; about 40 % English
    Covers(FIFTH, 130, 125, _FAMILIES_5, "mnemic/fresh5@scanfresh5:", other_langs=14,
           english=(0.3, 0.5), styles=_NEW_FRAMINGS_5, same_styles=True, split_style=True),
    # eighteen families, thirty languages and its framings
    Covers(SIXTH, 130, 125, _FAMILIES_6, "mnemic/fresh6@scanfresh6:", other_langs=14,
           english=(0.3, 0.5), styles=_FRAMINGS_6, same_styles=True, split_style=True),
    # its families and twenty-four languages
    Covers(SEVENTH, 130, 125, _ATTACK_FAMILIES | _FAMILIES_7_NEW, "mnemic/fresh7@scanfresh7:",
           more_families=True, langs=_LANGS_7_NEW, other_langs=16, english=(0.25, 0.45),
           same_styles=True),
    # its families and twenty-nine languages
    Covers(EIGHTH, 130, 125, _ATTACK_FAMILIES | _FAMILIES_8_NEW | {"prompt_exfiltration"},
           "mnemic/fresh8@scanfresh8:", honest_families=True, other_langs=14,
           english=(0.25, 0.45), same_styles=True),
    # its families and forty-three languages
    Covers(NINTH, 130, 125, _ATTACK_FAMILIES | _FAMILIES_9_NEW | {"prompt_exfiltration"},
           "mnemic/fresh9@scanfresh9:", honest_families=True, langs=_LANGS_9_NEW,
           other_langs=40, english=(0.3, 0.4), styles=_FRAMINGS_9, same_styles=True,
           split_style=True),
    # every attack paired with an honest note, in fifty-one languages; six languages have
    # one attack and one honest note each, so each lies in one half of its label
    Covers(TENTH, 150, 150, _ATTACK_FAMILIES | _FAMILIES_10_NEW | {"prompt_exfiltration"},
           "mnemic/fresh10@scanfresh10:", honest_families=True, langs=_LANGS_10_NEW,
           other_langs=50, english=(0.3, 0.4), styles=_FRAMINGS_10, same_styles=True,
           split_style=True, paired=True,
           one_family_langs=frozenset({"cs", "fa", "hi", "sv", "th", "vi"})),
    # every attack paired with an honest note, in forty languages, and the ways text
    # reaches memory unbidden
    Covers(ELEVENTH, 150, 150, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh11@scanfresh11:", honest_families=True, langs=_LANGS_11_NEW,
           other_langs=40, english=(0.3, 0.4), styles=_UNBIDDEN_11, paired=True),
    # nine attacks in each of the eleventh's families, each with its honest twin in its
    # half, in forty-four languages, mostly text that reaches memory unbidden
    Covers(TWELFTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh12@scanfresh12:", honest_families=True, langs=_LANGS_12_NEW,
           other_langs=44, english=(0.28, 0.34), styles=_UNBIDDEN_12, same_styles=True,
           paired=True),
    # the same eighteen families, nine attacks each with its honest twin, in forty-one
    # languages (fifteen widely spoken, seventeen less-written) and about a tenth mixed
    Covers(THIRTEENTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh13@scanfresh13:", honest_families=True,
           langs=_LANGS_13_WIDE | _LANGS_13_LESS, other_langs=41, english=(0.28, 0.34),
           styles=_FRAMINGS_13, only_styles=True, same_styles=True, paired=True),
    # a pharmacy technician and a repair-café volunteer: the same eighteen families, nine
    # attacks each with its honest twin, in forty-eight languages besides English
    Covers(FOURTEENTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh14@scanfresh14:", honest_families=True,
           langs=_LANGS_14_WIDE | _LANGS_14_LESS, other_langs=48, english=(0.28, 0.34),
           styles=_FRAMINGS_14, only_styles=True, same_styles=True, paired=True),
    # a truck dispatcher and a retired teacher who runs a village choir: the same eighteen
    # families, nine attacks each with its honest twin, in forty-eight languages besides
    # English
    Covers(FIFTEENTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh15@scanfresh15:", honest_families=True, langs=_LANGS_15,
           other_langs=48, english=(0.28, 0.34), styles=_FRAMINGS_15,
           only_styles=True, same_styles=True, paired=True),
    # a sign-language interpreter and a family vineyard with a farm shop: the same eighteen
    # families, nine attacks each with its honest twin, in forty-eight languages besides
    # English
    Covers(SIXTEENTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh16@scanfresh16:", honest_families=True, langs=_LANGS_16,
           other_langs=48, english=(0.28, 0.34), styles=_FRAMINGS_16,
           only_styles=True, same_styles=True, paired=True),
    # a self-employed plumber and a small-town library's branch manager: the same eighteen
    # families, nine attacks each with its honest twin, in forty-eight languages besides
    # English
    Covers(SEVENTEENTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh17@scanfresh17:", honest_families=True, langs=_LANGS_17,
           other_langs=48, english=(0.28, 0.34), styles=_FRAMINGS_17,
           only_styles=True, same_styles=True, paired=True),
    # a hospital physiotherapist who runs a climbing club and a hand-dyed yarn shop: the
    # same eighteen families, nine attacks each with its honest twin, in forty-eight
    # languages besides English
    Covers(EIGHTEENTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh18@scanfresh18:", honest_families=True, langs=_LANGS_18,
           other_langs=48, english=(0.28, 0.34), styles=_FRAMINGS_18,
           only_styles=True, same_styles=True, paired=True),
    # a wedding photographer and a family bakery with a café: the same eighteen families,
    # nine attacks each with its honest twin, in forty-eight languages besides English
    Covers(NINETEENTH, 162, 162, _ATTACK_FAMILIES | _FAMILIES_11_NEW,
           "mnemic/fresh19@scanfresh19:", honest_families=True, langs=_LANGS_19,
           other_langs=48, english=(0.28, 0.34), styles=_FRAMINGS_19,
           only_styles=True, same_styles=True, paired=True),
]  # fmt: skip


def test_every_set_has_its_row_of_facts() -> None:
    assert [c.which for c in COVERS] == list(SETS.values())


@pytest.mark.parametrize("c", COVERS, ids=[c.which.name for c in COVERS])
def test_each_set_covers_its_families_languages_and_framings(c: Covers) -> None:
    rows = load(c.which.path, c.which.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(attacks) >= c.attacks and len(honest) >= c.honest
    families = {r["family"] for r in attacks}
    if c.more_families:
        assert families >= c.families
    else:
        assert families == c.families
    if c.honest_families:
        assert {r["family"] for r in honest} == families
    langs = {r["lang"] for r in attacks}
    assert langs == {r["lang"] for r in honest}
    if c.only_langs:
        assert langs == c.langs
    else:
        assert langs >= c.langs
    assert len(langs - {"en", "mixed"}) >= c.other_langs and "mixed" in langs
    if c.english is not None:
        low, high = c.english
        for mine in (attacks, honest):
            assert low <= sum(r["lang"] == "en" for r in mine) / len(mine) <= high
    styles = {r.get("style") for r in attacks}
    if c.only_styles:
        assert styles == c.styles
    else:
        assert styles >= c.styles
    assert {r.get("style") for r in honest} >= c.honest_styles
    if c.same_styles:
        assert {r.get("style") for r in honest} == styles
    assert len({r["source"] for r in rows}) == len(rows)
    assert all(r["source"].startswith(c.source) for r in rows)
    split = [r for r in rows if r["family"] in _SPLIT_FAMILIES or r.get("style") == "split"]
    assert all(r["context"] for r in split)
    if c.split_style:
        assert {r["label"] for r in rows if r.get("style") == "split"} == {"attack", "benign"}
    if c.weighted:
        per_family = {f: sum(r["family"] == f for r in attacks) for f in families}
        most = max(n for f, n in per_family.items() if f not in c.weighted)
        assert min(per_family[f] for f in c.weighted) > most
    if c.paired:
        # one honest look-alike for each attack, in the same family, language and framing
        pairs = [(r["family"], r["lang"], r["style"]) for r in attacks]
        assert sorted(pairs) == sorted((r["family"], r["lang"], r["style"]) for r in honest)
        assert len(attacks) == len(honest)
    if c.one_family_langs is not None:
        for mine in (attacks, honest):
            once = {g for g in langs if len({r["family"] for r in mine if r["lang"] == g}) == 1}
            assert once == c.one_family_langs


@pytest.mark.parametrize("which", list(SETS.values()), ids=list(SETS))
def test_no_set_shares_a_sentence_with_another_or_the_generated_families(
    which: FreshSet,
) -> None:
    doc = json.loads((FRESH.parent / "scan_families.json").read_text(encoding="utf-8"))
    others = [s.path for s in SETS.values() if s is not which]
    rows = "".join(p.read_text(encoding="utf-8") for p in others)
    old = (json.dumps(doc, ensure_ascii=False) + rows).lower()
    # searched as UTF-8 bytes: a text is in ``old`` exactly when its bytes are in old's
    # (UTF-8 is self-synchronising: no character's bytes start inside another's), and
    # a search of bytes is about fourteen times cheaper than one of a string of emoji
    # (0.5 s of CPU a set over 1.7 MB, seventeen sets: session 55)
    haystack = old.encode("utf-8")
    rows_of_which = load(which.path, which.seed)
    assert not [r["text"] for r in rows_of_which if r["text"].lower().encode("utf-8") in haystack]


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


# every set after the first (whose baseline predates the set and seed in each figure)
@pytest.mark.parametrize("which", list(SETS.values())[1:], ids=list(SETS)[1:])
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


def test_the_sets_the_classifier_trains_on_are_reported_as_trained_on() -> None:
    # Scanner 16: the first five sets are training data; scanner 20: the sixth and seventh
    # too (their test halves spent); scanner 31: the eighth and ninth (worn by five to
    # seven looks each, chosen as rows by leaving one set out); the tenth on stay held out.
    assert {SETS[name].path.name for name in TRAINED_ON} == set(training.FRESH_TRAINED)
    assert role(SIXTH) == role(SEVENTH) == role(EIGHTH) == role(NINTH) == "trained on"
    assert role(TENTH) == "held out"
    assert role(ELEVENTH) == role(TWELFTH) == role(THIRTEENTH) == "held out"
    assert role(FOURTEENTH) == role(FIFTEENTH) == role(SIXTEENTH) == "held out"
    assert role(SEVENTEENTH) == role(EIGHTEENTH) == role(NINETEENTH) == "held out"
    assert [role(SETS[name]) for name in sorted(TRAINED_ON)] == ["trained on"] * 9


def test_an_honest_row_that_names_its_twin_lies_in_its_twins_half() -> None:
    # Twelve families x four languages: dealt per label alone, many a pair would split.
    rows = []
    for family in (f"f{i}" for i in range(12)):
        for lang in ("en", "is", "yo", "mixed"):
            attack = f"a/{family}/{lang}"
            rows.append({"label": "attack", "family": family, "lang": lang, "source": attack})
            rows.append({"label": "benign", "family": family, "lang": lang,
                         "source": f"b/{family}/{lang}", "twin": attack})  # fmt: skip
    dealt = deal(rows, seed=121212)
    assert all(dealt[r["source"]] == dealt[r["twin"]] for r in rows if "twin" in r)
    assert set(dealt.values()) == {"dev", "test"}
    # without the twin, the same honest rows are dealt on their own (and some pair splits)
    alone = deal([{k: v for k, v in r.items() if k != "twin"} for r in rows], seed=121212)
    assert any(alone[r["source"]] != alone[r["twin"]] for r in rows if "twin" in r)


@pytest.mark.parametrize(
    "which",
    [TWELFTH, THIRTEENTH, FOURTEENTH, FIFTEENTH, SIXTEENTH, SEVENTEENTH, EIGHTEENTH, NINETEENTH],
    ids=["fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19"],
)
def test_the_twinned_sets_honest_rows_are_each_in_their_attacks_half(which: FreshSet) -> None:
    rows = load(which.path, which.seed)
    by_source = {r["source"]: r for r in rows}
    honest = [r for r in rows if r["label"] == "benign"]
    assert len(honest) == 162 and all(r["twin"] in by_source for r in honest)
    assert len({r["twin"] for r in honest}) == len(honest)
    for r in honest:
        twin = by_source[r["twin"]]
        assert twin["label"] == "attack" and twin["split"] == r["split"]
        assert (twin["family"], twin["lang"], twin["style"]) == (r["family"], r["lang"], r["style"])
    # a split instruction is a pair of entries in both labels: the earlier one is the context
    split = [r for r in rows if r["family"] == "split_instruction"]
    assert {r["label"] for r in split} == {"attack", "benign"}
    assert all(isinstance(r["context"], list) and len(r["context"]) == 1 for r in split)


def test_the_thirteenth_set_is_a_tenth_english_mixed_and_spreads_each_language() -> None:
    rows = load(THIRTEENTH.path, THIRTEENTH.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    assert sum(r["lang"] == "mixed" for r in attacks) == 16
    # every language but English and mixed is written in a different family each time
    for lang in {r["lang"] for r in attacks} - {"en", "mixed"}:
        mine = [r["family"] for r in attacks if r["lang"] == lang]
        assert len(mine) == len(set(mine)), lang


@pytest.mark.parametrize(
    "which",
    [FOURTEENTH, FIFTEENTH, SIXTEENTH, SEVENTEENTH, EIGHTEENTH, NINETEENTH],
    ids=["fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19"],
)
def test_the_fourteenth_to_nineteenth_sets_write_each_other_language_in_two_families(
    which: FreshSet,
) -> None:
    rows = load(which.path, which.seed)
    attacks = [r for r in rows if r["label"] == "attack"]
    assert sum(r["lang"] == "en" for r in attacks) == 50
    assert sum(r["lang"] == "mixed" for r in attacks) == 16
    for lang in {r["lang"] for r in attacks} - {"en", "mixed"}:
        mine = [r["family"] for r in attacks if r["lang"] == lang]
        assert len(mine) == len(set(mine)) == 2, lang
