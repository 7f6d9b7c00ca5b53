"""bench/_tidy_fresh.py, the hand-written held-out sets of ``./x bench tidy``: the second
to thirteenth sets' size and coverage, that each split file is the seeded deal by
(domain, language) cell, that a cell or a pair moved by hand is refused, and that
``--misses`` refuses the test half. Nothing here runs tidy on the pairs.

What each set holds is one row of :data:`FACTS`; a new set adds its row there (and its
name to ``SETS``), and every test here reads it."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

import _tidy_fresh
import tidy
from _tidy_fresh import (
    EIGHTH,
    ELEVENTH,
    FIFTEENTH,
    FIFTH,
    FIRST,
    FOURTEENTH,
    FOURTH,
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
    TWELFTH,
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


#: the sixth set's vocabulary of its own: a translator's and a fire brigade's notes
_DOMAINS_6 = _DOMAINS_4 | {"clients", "rates", "immigration", "rota", "training", "equipment"}
#: the seventh set's vocabulary of its own: a veterinarian-breeder's and a PhD student-bassist's
_DOMAINS_7 = {"clinic", "horses", "drugs", "suppliers", "lab", "thesis", "band", "gigs"}
#: the eighth set's vocabulary of its own: a structural engineer's and a retired teacher's
_DOMAINS_8 = {
    "sites", "loads", "contractors", "inspections", "permits", "deadlines",
    "garden", "choir", "grandchildren", "medication", "foodbank",
}  # fmt: skip
#: languages the eighth set added, none of them in an earlier set
_LANGS_8_NEW = {"ka", "hy", "az", "lv", "et"}
_NONE: frozenset[str] = frozenset()
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
#: the tenth set's vocabulary of its own: a chemistry teacher who coaches chess, and a
#: two-person bicycle repair co-op
_DOMAINS_10 = {
    "lessons", "lab_safety", "reagents", "exams", "timetable", "pupils", "chess_club",
    "tournaments", "ratings", "openings", "parents", "school_trips", "workshop",
    "spare_parts", "repairs", "rates", "bookings", "members", "rent", "tools", "bike_sales",
    "accounts", "wheels", "cargo_bikes",
}  # fmt: skip
#: languages the tenth set holds beside English, many of them uncommon, each written natively
_LANGS_10 = {
    "is", "eu", "mt", "sq", "sw", "yo", "tl", "vi", "th", "id", "ms", "uk", "ro", "hu", "fi",
    "et", "lv", "lt", "sk", "sl", "hr", "bg", "el", "he", "ar", "fa", "hi", "bn", "ta", "ko",
    "ja", "zh", "cy", "ga", "af", "nb", "ka", "ur",
}  # fmt: skip
#: the eleventh set's vocabulary of its own: an offshore saturation diver who races homing
#: pigeons, and two sisters who run a travelling marionette theatre
_DOMAINS_11 = {
    "rotations", "dive_medical", "dive_kit", "heliport", "pay", "vessel", "training", "loft",
    "races", "pigeon_health", "race_club", "home", "marionettes", "tours", "venues", "van",
    "carving", "costumes", "scripts", "grants", "school_shows", "festivals", "sound_lights",
    "storage",
}  # fmt: skip
#: languages no earlier set has, each written natively in the eleventh
_LANGS_11_NEW = {"gd", "fy", "lb", "pa", "ml", "zu"}
#: the twelfth set's vocabulary of its own: a beekeeper who restores clocks, and a family
#: that runs the café on a small island ferry
_DOMAINS_12 = {
    "hives", "honey", "swarms", "varroa", "apiary_sites", "clocks", "clock_parts",
    "clock_clients", "workshop", "markets", "ferry", "boat", "cafe_menu", "cafe_suppliers",
    "cafe_staff", "till", "licences", "kids_school", "family_health", "events",
}  # fmt: skip
#: the thirteenth set's vocabulary of its own: a night-shift midwife who keeps an allotment,
#: and a two-person bicycle courier co-op with a cargo-bike repair bench
_DOMAINS_13 = {
    "night_shifts", "delivery_suite", "ward_colleagues", "registration", "hospital_admin",
    "allotment", "allotment_crops", "allotment_society", "family", "home", "deliveries",
    "courier_clients", "courier_rates", "cargo_bikes", "repair_bench", "bike_parts",
    "coop_admin", "courier_insurance", "routes", "riding_kit", "repair_customers",
}  # fmt: skip
#: languages no earlier set has, each written natively in the thirteenth
_LANGS_13_NEW = {"gu", "kn", "ha", "ig", "so", "mi", "fo", "br", "oc"}
#: the fourteenth set's vocabulary of its own: a ship's cook on a North Sea supply vessel
#: who restores motorcycles, and a two-person translation agency that teaches refugees
_DOMAINS_14 = {
    "galley", "rotation", "motorcycles", "parts", "agency_clients", "classes", "students",
    "certification",
}  # fmt: skip
#: the fifteenth set's vocabulary of its own: a primary-school teacher who volunteers in
#: mountain rescue, and a family-run campsite with a shop and bike hire
_DOMAINS_15 = {
    "callouts", "rescue_kit", "rescue_training", "rescue_team", "classroom", "school_staff",
    "school_calendar", "pupils", "home", "pitches", "camp_shop", "bike_hire", "camp_staff",
    "camp_bookings", "camp_upkeep", "camp_admin",
}  # fmt: skip
#: the sixteenth set's vocabulary of its own: a Vienna tram driver who is an amateur
#: astronomer, and a volunteer-run community radio station in Marseille
_DOMAINS_16 = {
    "tram_shifts", "tram_routes", "depot", "union", "telescopes", "observing", "astro_club",
    "household", "radio_schedule", "presenters", "transmitter", "studio_kit", "licences",
    "donations", "listeners", "radio_admin",
}  # fmt: skip
#: the seventeenth set's vocabulary of its own: a Ljubljana piano tuner who is a sport
#: climber, and a cooperative-run single-screen cinema in Porto
_DOMAINS_17 = {
    "tuning_clients", "pianos", "tuning_kit", "crags", "climbing", "climb_gear", "family",
    "screenings", "projection", "film_rights", "box_office", "cinema_staff", "cinema_bar",
    "cinema_building", "cinema_admin",
}  # fmt: skip
_EVERY = ("rewording", "update", "contradiction", "honest")


@dataclass(frozen=True)
class Facts:
    """What one set holds: the sizes of its dealt halves and its split's seed, and, for
    the sets after the first, what it is written to cover. Every pair has its own id and
    two different texts."""

    which: FreshSet
    #: The number of pairs in each half, as dealt once.
    halves: dict[str, int]
    #: The seed its split file records.
    split_seed: int
    #: Pairs of each kind: at least so many, or exactly (``only_kinds``).
    kinds: tuple[int, int, int, int] | None = None
    only_kinds: bool = False
    #: The languages: at least these, or exactly (``only_langs``).
    langs: set[str] | frozenset[str] = _NONE
    only_langs: bool = False
    #: Languages besides English and "mixed": between these many.
    other_langs: tuple[int, int] = (0, 999)
    #: Languages that no earlier set has.
    new_langs: set[str] | frozenset[str] = _NONE
    #: The share of English pairs lies in this range.
    english: tuple[float, float] = (0.0, 1.0)
    #: Domains: at least these, and at least ``least_domains`` of them.
    domains: set[str] | frozenset[str] = _NONE
    least_domains: int = 0
    #: Kinds of update and of rewording there are, at least.
    updates: set[str] | frozenset[str] = _NONE
    rewordings: set[str] | frozenset[str] = _NONE
    #: Updates of these subtypes (with a marker word) are under this share of the updates.
    marked: tuple[frozenset[str], float] | None = None
    #: A sixth of the rewordings at least say one fact in two languages ("mixed").
    switches: bool = False
    #: As ``switches``, but each switch tagged with its other language (one side is
    #: English, or "mixed" where both sides mix): at least this many such languages.
    switch_langs: int = 0
    #: Kinds of honest pair there are, at least.
    honest: set[str] | frozenset[str] = _NONE


FACTS = [
    Facts(FIRST, {"dev": 211, "test": 161}, 20261205),
    # every kind, every language and ten domains
    Facts(SECOND, {"dev": 252, "test": 163}, 20261206, kinds=(130, 60, 35, 140),
          langs=_LANGS_2, only_langs=True, english=(0.35, 0.45), least_domains=10),
    # every kind, eighteen languages and new domains
    Facts(THIRD, {"dev": 184, "test": 223}, 20261207, kinds=(130, 80, 50, 140),
          langs=_LANGS_3, only_langs=True, english=(0.35, 0.45), domains=_DOMAINS_3,
          least_domains=12),
    # every kind, twenty-one languages and new domains; the updates only world knowledge
    # reads as such are there, not only marked ones
    Facts(FOURTH, {"dev": 185, "test": 225}, 20261209, kinds=(130, 80, 50, 140),
          langs=_LANGS_4, only_langs=True, english=(0.35, 0.45), domains=_DOMAINS_4,
          least_domains=12, updates={"role_holder", "tool_switch", "city_move"}),
    # every kind, thirty-five languages and plain updates: updates told as people tell
    # them, most without a marker word
    Facts(FIFTH, {"dev": 208, "test": 192}, 20261210, kinds=(130, 80, 50, 140),
          only_kinds=True, langs=_LANGS_5_NEW, other_langs=(35, 35), new_langs=_LANGS_5_NEW,
          english=(0.30, 0.40), domains=_DOMAINS_4, least_domains=12,
          updates={"new_holder", "tool_switch", "moved", "no_marker"},
          marked=(frozenset({"marker", "stopped"}), 1 / 4)),
    # every kind, fifteen languages and updates only world knowledge reads as such: a
    # role's new holder, a tool, a city
    Facts(SIXTH, {"dev": 186, "test": 214}, 20261211, kinds=(130, 80, 50, 140),
          only_kinds=True, other_langs=(14, 999), english=(0.28, 0.40), domains=_DOMAINS_6,
          least_domains=12, updates={"world_role", "world_tool", "world_city", "none"}),
    # every kind, language switches and world-knowledge updates
    Facts(SEVENTH, {"dev": 208, "test": 208}, 20261212, kinds=(135, 85, 52, 144),
          only_kinds=True, langs=_LANGS_5_NEW, other_langs=(14, 999), english=(0.30, 0.40),
          domains=_DOMAINS_7, least_domains=12, switches=True,
          updates={"new_holder", "tool_switch", "move", "no_marker"}),
    # every kind, language switches, rewordings of units and formats, and plain updates:
    # most carry no marker word, only world knowledge or the value says so
    Facts(EIGHTH, {"dev": 199, "test": 205}, 20261213, kinds=(130, 82, 50, 142),
          only_kinds=True, langs=_LANGS_5_NEW | _LANGS_8_NEW, other_langs=(14, 999),
          new_langs=_LANGS_8_NEW, english=(0.30, 0.40), domains=_DOMAINS_8 | _DOMAINS_4,
          least_domains=12, switches=True,
          rewordings={"units", "time_format", "date_format", "currency", "number_words"},
          updates={"new_holder", "tool_switch", "move", "number", "no_marker"},
          marked=(frozenset({"marker", "since", "stopped"}), 1 / 3)),
    # every kind, language switches tagged with their other language, units and formats,
    # and plain updates: a new holder, a new best, a moved date, a switch, a move
    Facts(NINTH, {"dev": 219, "test": 183}, 20261220, kinds=(130, 81, 50, 141),
          only_kinds=True, langs=_LANGS_9, other_langs=(14, 999), english=(0.30, 0.40),
          domains=_DOMAINS_9, least_domains=12, switch_langs=20,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words"},
          updates={"new_holder", "personal_best", "moved_date", "tool_switch", "city_move"},
          marked=(frozenset({"marker"}), 1 / 3),
          honest={"two_places", "two_races", "two_people", "rule_exception", "one_word"}),
    # every kind in 40 and more languages, switches tagged with their other language, units
    # and local formats, plain updates (a marker or "stopped" in under a tenth), and honest
    # pairs of a plan and its result, a list and its item, two dates, two people
    Facts(TENTH, {"dev": 212, "test": 206}, 20261230, kinds=(137, 82, 51, 148),
          only_kinds=True, langs=_LANGS_10, other_langs=(40, 999), new_langs={"af", "nb"},
          english=(0.30, 0.40), domains=_DOMAINS_10, least_domains=24, switch_langs=24,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "city_move"},
          marked=(frozenset({"marker", "stopped"}), 1 / 10),
          honest={"plan_result", "list_item", "two_dates", "two_people", "one_word"}),
    # every kind in 70 and more languages, switches tagged with their other language, units
    # and formats, updates told many ways (postponed, cancelled, replaced, dropped, a tool,
    # a place, a number; a marker or "stopped" in under an eighth), honest pairs of two
    # places, two people, two birds or puppets, a plan and its result, a list and its item
    Facts(ELEVENTH, {"dev": 188, "test": 235}, 20261311, kinds=(139, 86, 52, 146),
          only_kinds=True, langs=_LANGS_11_NEW, other_langs=(70, 999),
          new_langs=_LANGS_11_NEW, english=(0.30, 0.40), domains=_DOMAINS_11,
          least_domains=24, switch_langs=24,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "place_move",
                   "cancelled", "replaced"},
          marked=(frozenset({"marker", "stopped"}), 1 / 8),
          honest={"plan_result", "list_item", "two_places", "two_people", "two_things",
                  "one_word"}),
    # every kind in 50 and more languages (Esperanto new), switches tagged with their other
    # language in 30 and more, units and formats, updates told many ways (a new holder, a
    # number, a moved date, a tool, a place, cancelled, replaced, resumed; a marker or
    # "stopped" in under an eighth), honest pairs of two things, people, places, dates and
    # keys of one thing, a rule and its exception, a list and its item, a plan and its result
    Facts(TWELFTH, {"dev": 227, "test": 209}, 20261412, kinds=(145, 88, 53, 150),
          only_kinds=True, other_langs=(50, 999), new_langs={"eo"}, english=(0.30, 0.40),
          domains=_DOMAINS_12, least_domains=20, switch_langs=30,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "place_move",
                   "cancelled", "replaced", "resumed"},
          marked=(frozenset({"marker", "stopped"}), 1 / 8),
          honest={"two_things", "two_people", "two_places", "two_dates", "two_keys",
                  "rule_exception", "list_item", "plan_result", "one_word"}),
    # every kind in 70 and more languages (nine new to the sets), switches tagged with their
    # other language in 35 and more, a few mixed notes, units and formats, a shortened note
    # and one with a detail added, updates told many ways (a marker or "stopped" in under a
    # tenth), honest pairs of two things, people, places, dates and keys of one thing, a rule
    # and its exception, two items of a list, a plan beside its result, the same words
    # about another subject
    Facts(THIRTEENTH, {"dev": 239, "test": 226}, 20261513, kinds=(152, 100, 55, 158),
          only_kinds=True, other_langs=(70, 999), new_langs=_LANGS_13_NEW,
          english=(0.30, 0.40), domains=_DOMAINS_13, least_domains=21, switch_langs=35,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words",
                      "shortened", "detail_added", "pronoun", "code_mix"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "place_move",
                   "cancelled", "replaced", "resumed"},
          marked=(frozenset({"marker", "stopped"}), 1 / 10),
          honest={"two_things", "two_people", "two_places", "two_dates", "two_keys",
                  "rule_exception", "list_item", "plan_result", "one_word", "same_words"}),
    # every kind in 60 and more languages, switches tagged with their other language in 25
    # and more, a few mixed notes, units and formats, a shortened note and one with a detail
    # added, updates told many ways ("stopped" in under a tenth), honest pairs of two things,
    # people, places, dates and keys of one thing, a rule and its exception, two items of a
    # list, a plan beside its result, the same words about another subject
    Facts(FOURTEENTH, {"dev": 130, "test": 178}, 20261514, kinds=(103, 63, 37, 105),
          only_kinds=True, other_langs=(60, 999), english=(0.30, 0.40),
          domains=_DOMAINS_14, least_domains=15, switch_langs=25,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words",
                      "shortened", "detail_added", "pronoun", "code_mix"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "place_move",
                   "cancelled", "replaced", "resumed"},
          marked=(frozenset({"marker", "stopped"}), 1 / 10),
          honest={"two_things", "two_people", "two_places", "two_dates", "two_keys",
                  "rule_exception", "list_item", "plan_result", "same_words"}),
    # every kind in 70 and more languages (Romansh and Northern Sámi new), switches tagged
    # with their other language in 25 and more, a few mixed notes, units, clocks, dates and
    # numbers in words, updates told many ways ("stopped" or a marker in under a tenth),
    # honest pairs of two people, things, places, dates, prices and keys of one thing, a
    # rule and its exception, a list and its item, a target beside the result, one word
    # changed, the same words about another subject
    Facts(FIFTEENTH, {"dev": 181, "test": 159}, 20261515, kinds=(114, 66, 38, 122),
          only_kinds=True, other_langs=(70, 999), new_langs={"rm", "se"},
          english=(0.30, 0.40), domains=_DOMAINS_15, least_domains=16, switch_langs=25,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words",
                      "shortened", "detail_added", "pronoun", "code_mix"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "place_move",
                   "cancelled", "replaced", "resumed"},
          marked=(frozenset({"marker", "stopped"}), 1 / 10),
          honest={"two_things", "two_people", "two_places", "two_dates", "two_keys",
                  "two_prices", "rule_exception", "list_item", "plan_result", "one_word",
                  "same_words"}),
    # every kind in 79 languages besides English (Latin, Javanese and Kyrgyz new), 28
    # switches each tagged with its own other language, four mixed notes, units, clocks,
    # dates and numbers in words, updates told many ways ("stopped" or a marker in 4 of
    # 65), honest pairs of every kind the fifteenth has
    Facts(SIXTEENTH, {"dev": 168, "test": 173}, 20261616, kinds=(115, 65, 41, 120),
          only_kinds=True, other_langs=(75, 999), new_langs={"la", "jv", "ky"},
          english=(0.30, 0.40), domains=_DOMAINS_16, least_domains=16, switch_langs=28,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words",
                      "shortened", "detail_added", "pronoun", "code_mix", "typo", "register",
                      "abbreviation", "synonym", "word_order", "paraphrase"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "place_move",
                   "cancelled", "replaced", "resumed", "plan_changed"},
          marked=(frozenset({"marker", "stopped"}), 1 / 10),
          honest={"two_things", "two_people", "two_places", "two_dates", "two_keys",
                  "two_prices", "rule_exception", "list_item", "plan_result", "one_word",
                  "same_words"}),
    # every kind in 89 languages besides English (Haitian Creole, Cebuano and Corsican
    # new), 28 switches each tagged with its own other language, four mixed notes, units,
    # clocks, dates and numbers in words, updates told many ways ("stopped" or a marker in
    # 4 of 65), honest pairs of every kind the sixteenth has
    Facts(SEVENTEENTH, {"dev": 161, "test": 179}, 20261717, kinds=(115, 65, 40, 120),
          only_kinds=True, other_langs=(85, 999), new_langs={"ht", "ceb", "co"},
          english=(0.30, 0.40), domains=_DOMAINS_17, least_domains=15, switch_langs=28,
          rewordings={"units", "clock", "date_format", "currency", "numbers_in_words",
                      "shortened", "detail_added", "pronoun", "code_mix", "typo", "register",
                      "abbreviation", "synonym", "word_order", "paraphrase"},
          updates={"new_holder", "number", "moved_date", "tool_switch", "place_move",
                   "cancelled", "replaced", "resumed", "plan_changed"},
          marked=(frozenset({"marker", "stopped"}), 1 / 10),
          honest={"two_things", "two_people", "two_places", "two_dates", "two_keys",
                  "two_prices", "rule_exception", "list_item", "plan_result", "one_word",
                  "same_words"}),
]  # fmt: skip
_COVERED = [f for f in FACTS if f.kinds is not None]


@pytest.mark.parametrize("f", _COVERED, ids=[f.which.name for f in _COVERED])
def test_each_set_has_every_kind_and_its_languages_domains_and_subtypes(f: Facts) -> None:
    pairs = load(f.which.pairs)
    kinds = Counter(p.kind for p in pairs)
    assert f.kinds is not None
    wanted = dict(zip(_EVERY, f.kinds, strict=True))
    if f.only_kinds:
        assert kinds == wanted
    else:
        assert all(kinds[k] >= n for k, n in wanted.items())
    langs = {p.lang for p in pairs}
    if f.only_langs:
        assert langs == f.langs
    else:
        assert langs >= f.langs
    low, high = f.other_langs
    assert low <= len(langs - {"en", "mixed"}) <= high
    earlier = list(SETS.values())[: list(SETS.values()).index(f.which)]
    assert not f.new_langs & {p.lang for s in earlier for p in load(s.pairs)}
    low, high = f.english
    assert low <= sum(p.lang == "en" for p in pairs) / len(pairs) <= high
    domains = {p.domain for p in pairs}
    assert domains >= f.domains and len(domains) >= f.least_domains
    rewordings = [p for p in pairs if p.kind == "rewording"]
    if f.switches:
        switches = [p for p in rewordings if p.subtype == "language_switch"]
        assert len(switches) >= len(rewordings) / 6 and {p.lang for p in switches} == {"mixed"}
    if f.switch_langs:
        switches = [p for p in rewordings if p.subtype == "language_switch"]
        langs_of = {p.lang for p in switches}
        assert len(switches) >= len(rewordings) / 6
        assert len(langs_of) >= f.switch_langs and "en" not in langs_of
    assert f.rewordings <= {p.subtype for p in rewordings}
    updates = Counter(p.subtype for p in pairs if p.kind == "update")
    assert f.updates <= set(updates)
    if f.marked is not None:
        marked, share = f.marked
        assert sum(updates[m] for m in marked) < sum(updates.values()) * share
    assert f.honest <= {p.subtype for p in pairs if p.kind == "honest"}
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(p.a != p.b for p in pairs)


@pytest.mark.parametrize("which", list(SETS.values())[1:], ids=list(SETS)[1:])
def test_each_set_shares_no_sentence_with_the_earlier_ones(which: FreshSet) -> None:
    earlier = list(SETS.values())[: list(SETS.values()).index(which)]
    old = {t.lower() for s in earlier for p in load(s.pairs) for t in (p.a, p.b)}
    assert not [t for p in load(which.pairs) for t in (p.a, p.b) if t.lower() in old]


def test_every_set_has_its_row_of_facts_and_its_own_seed() -> None:
    assert [f.which for f in FACTS] == list(SETS.values())
    assert len({s.seed for s in SETS.values()}) == len(SETS)


@pytest.mark.parametrize("f", FACTS, ids=list(SETS))
def test_a_new_set_leaves_the_earlier_splits_and_seeds_alone(f: Facts) -> None:
    assert {h: len(v) for h, v in load_halves(f.which).items()} == f.halves
    doc = json.loads(f.which.split.read_text(encoding="utf-8"))
    assert doc["seed"] == f.split_seed
    assert doc["cells"] == make_split(load(f.which.pairs), f.which.seed)


@pytest.mark.parametrize("which", list(SETS.values()), ids=list(SETS))
def test_each_baseline_counts_the_halves_as_dealt_in_both_modes(which: FreshSet) -> None:
    base = json.loads(which.baseline.read_text(encoding="utf-8"))
    dealt = load_halves(which)
    assert base["n"] == {h: len(v) for h, v in dealt.items()}
    assert set(base["modes"]) == {"offline", "semantic"}
    for half, pairs in dealt.items():
        kinds = Counter(p.kind for p in pairs)
        for mode in base["modes"].values():
            got = {k: mode[half][k]["joined" if k == "honest" else "flagged"]["n"] for k in kinds}
            assert got == dict(kinds)


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


@pytest.mark.parametrize("which", list(SETS.values())[1:], ids=list(SETS)[1:])
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
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which halves ``--dev-only`` reads and prints; each set's dev half cut to its first
    two pairs of each kind, which tidy still judges (all of them, about 2,250 pairs, are
    ``./x bench tidy --dev-only``'s work: 47 s here under load before session 50)."""
    load_halves = _tidy_fresh.load_halves

    def first_of_each_kind(which: FreshSet) -> dict[str, list[_tidy_fresh.FreshPair]]:
        out: dict[str, list[_tidy_fresh.FreshPair]] = {}
        for half, pairs in load_halves(which).items():
            seen: Counter[str] = Counter()
            out[half] = []
            for pair in pairs:
                seen[pair.kind] += 1
                if seen[pair.kind] <= 2:
                    out[half].append(pair)
        return out

    monkeypatch.setattr(_tidy_fresh, "load_halves", first_of_each_kind)
    out = tidy.dev_only(2, offline=True)
    assert set(out["generated"]) == {"offline"}
    assert out["generated"]["offline"]["honest"]["false_merge"]["n"] > 0
    for which in SETS.values():
        assert set(out[which.name]["n"]) == {"dev"}
        assert set(out[which.name]["modes"]["offline"]) == {"dev"}
        assert out[which.name]["n"]["dev"] == 2 * len(_tidy_fresh.KINDS)
    assert "test" not in capsys.readouterr().out
