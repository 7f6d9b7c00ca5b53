"""The tidy benchmark's hand-written held-out set: ``bench/data/tidy_fresh.jsonl``.

Pairs of memory entries written as an agent would write them, one pair a line, each
tagged with its kind, subtype, language and domain:

* ``rewording``: one fact said twice (synonym verbs, a verb against a noun, passive
  against active, clauses reordered, abbreviations, numbers in words, free paraphrase);
  **flagged** when one proposal joins both;
* ``update`` and ``contradiction``: ``b`` (the later entry) changes ``a``'s value,
  with a marker of change or without one, or says it stopped being true; **flagged**
  when one proposal supersedes ``a`` with ``b``, a **false merge** when it merges them;
* ``honest``: two true facts about the same subject (another slot of the same frame,
  another item of a list, two people, two projects, another fact, another key's
  update); **joined** when any proposal holds both, a **false merge** when a merge does.

The set was written after the generated families (:mod:`_tidy_families`), avoiding
their templates, and split once into dev and test by (domain, language) cell with a
fixed seed (``bench/data/tidy_fresh_split.json``): a cell's pairs all land in one half,
so test wordings are in domain and language combinations dev never showed. Each pair
goes through :func:`mnemic.ops.tidy.plan.plan` alone, as
``plan("memory", [a, b], [1.0, 2.0], now=3.0, ...)``.

``bench/data/tidy_fresh2.jsonl`` (:data:`SECOND`) is a second set in the same format,
written by a writer who had read neither the tidy rules nor the first set's pairs (but
the first three lines, for the format): rewordings (synonyms, word order, passive,
abbreviations, units, numbers in words, register, typos, paraphrase), updates (with a
marker, "since ...", "switched to ...", or none), contradictions (another value, a
negation) and honest pairs (another attribute, two people, two projects, a preference
and its exception, a rule and a case, an "also", negations of different things, two
items of a list), in English and twelve more languages and mixed text, over eleven
domains. It is dealt the same way with its own seed into its own split file.

``bench/data/tidy_fresh3.jsonl`` (:data:`THIRD`) is a third set, by a third writer who
had read neither the tidy rules, their tests, nor either earlier set's pairs (but the
first two lines of the second, for the format): rewordings (synonyms, paraphrase,
abbreviations against the full name, units, numbers in words, register, typos, a detail
dropped that changes nothing, transliteration, word order), updates (a marker, "since",
"as of", "was X, now Y", moved, upgraded, quit, "no longer", a relative date, none),
contradictions (an attribute swapped, a yes/no flipped, a number changed) and honest
pairs (another attribute, two people, two environments, a rule and its exception, an
"also", a plan beside a fact, a past event beside a preference, similar numbers of
different things), in English and seventeen more languages and mixed text, over
eighteen domains (legal, pets, cars, gardening, music, sports, education and government
forms among them). It is dealt with its own seed into its own split file.

``bench/data/tidy_fresh4.jsonl`` (:data:`FOURTH`) is a fourth set, by a fourth writer
who had read neither the tidy rules, their tests, nor any earlier set's pairs (but the
first two lines of the third, for the format): 130 rewordings (synonyms, paraphrase,
abbreviations, units, numbers in words, register, typos, word order, a detail dropped,
transliteration, another script), 85 updates (a marker, "since", "as of", stopped, a
number changed, and ones only world knowledge reads as updates: a new holder of a
one-person role named without "new", a switch between two tools of one kind, a move
between two cities), 53 contradictions (another value, a negation, another number) and
142 honest pairs (another attribute, two people, two environments, a rule and its
exception, an addition, a plan beside a fact, a past event beside a preference, similar
numbers of different things, two items of a list), English for 40 % and 21 more
languages and mixed text, over fifteen domains (insurance, hobbies, food, childcare,
research, hardware, games and volunteering among them). It is dealt with its own seed
into its own split file.

``bench/data/tidy_fresh5.jsonl`` (:data:`FIFTH`) is a fifth set, by a fifth writer who
had read neither the tidy rules, their tests, nor any earlier set's pairs (but the first
two lines of the fourth, for the format), written as the notes an assistant kept for two
years for a household of three adults, one of them running a bakery: 130 rewordings
(synonyms, paraphrase, register, abbreviations, units, numbers in words, typos, word
order, a detail dropped, transliteration, a note saved first in English and later in the
user's language), 80 updates told the way people tell them, mostly without a marker (a
new dentist, teacher or accountant named plainly, a school or supplier changed, a loan
refinanced, a shift pattern changed, a diagnosis revised, a price raised, a move between
two cities, a switch between two tools of one kind, something stopped), 50
contradictions (another value, a negation, another number) and 140 honest pairs that
mostly share their words and differ in the one fact that matters (another attribute, two
people, two places or businesses, a rule and its exception, an addition, a plan beside a
fact, a past event beside a preference, similar numbers of different things, two items
of a list, one word changed), English for 36 % and 35 more languages (Hungarian,
Romanian, Bulgarian, Serbian, Croatian, Slovak, Catalan, Malay, Tagalog, Greek,
Lithuanian, Swahili, Bengali and Urdu among them) and mixed text, over fifteen domains.
It is dealt with its own seed into its own split file.

``bench/data/tidy_fresh6.jsonl`` (:data:`SIXTH`) is a sixth set, by a sixth writer who
had read neither the tidy rules, their tests, the pair model, its training data nor any
earlier set's pairs (but the first two lines of the fifth, for the format), written as
the notes an assistant keeps for a freelance translator who lives between Lisbon,
Leipzig and Oaxaca and for a volunteer fire brigade: 130 rewordings (synonyms,
paraphrase, register, abbreviations, units, numbers in words, typos, word order, a
detail dropped, transliteration, another script, a note saved in English and later in
another language), 80 updates (rates, clients, housing, visas, equipment, rotas and
certifications; a marker, "since", "as of", stopped, a number changed with no marker,
and ones only world knowledge reads as updates: a new holder of a one-person role, a
switch between two tools of one kind, a move between two cities), 50 contradictions
(another value, a negation, another number) and 140 honest pairs that share most words
and differ in the fact that matters (another attribute, two people, two places, a rule
and its exception, an addition, a plan beside a fact, a past event beside a preference,
similar numbers of different things, two items of a list, one word changed), English
for 30 % and 24 more languages (Czech, Indonesian, Thai and Persian among them) and
mixed text, over eighteen domains. It is dealt with its own seed into its own split
file.

``bench/data/tidy_fresh7.jsonl`` (:data:`SEVENTH`) is a seventh set, by a seventh writer
who had read neither the tidy rules, their tests, the pair model, its training data nor
any earlier set's pairs (but the first two lines of the sixth, for the format), written
as the notes an assistant keeps for a small-practice veterinarian who also breeds horses
and for a PhD student who plays bass in a band: 135 rewordings (synonyms, paraphrase,
register, abbreviations, units: kg/lb, °C/°F, km/miles, hands/cm, 24h/12h clocks;
numbers in words, typos, word order, a detail dropped, transliteration, another script,
and 25 language switches: the same fact once in English and once in another language),
85 updates (clinic hours, suppliers, drug doses, lab equipment, supervisors, deadlines,
gigs, flatmates; a marker, "since", stopped, a number changed with no marker, and ones
only world knowledge reads as updates: a new holder of a one-person role, a switch
between two tools of one kind, a move between two cities), 52 contradictions (another
value, a negation, another number) and 144 honest pairs that share most words and
differ in the fact that matters (another attribute, two people or animals, two
environments, a rule and its exception, an addition, a plan beside a fact, a past event
beside a preference, similar numbers of different things, two items of a list, one word
changed), English for 34 % and 38 more languages and mixed text, over twenty domains.
It is dealt with its own seed into its own split file.

``bench/data/tidy_fresh8.jsonl`` (:data:`EIGHTH`) is an eighth set, by an eighth writer
who had read neither the tidy rules, their tests, the pair model, its training data nor
any earlier set's pairs (but the first two lines of the seventh, for the format), written
as the notes an assistant keeps for a structural engineer at a construction firm and for
a retired teacher who gardens, sings in a choir and volunteers at a food bank: 130
rewordings (synonyms, paraphrase, register, abbreviations, units: kN/t, mm/in, m²/ft²,
°C/°F, litres/gallons; 24h/12h clocks, dates in two formats, currencies, numbers in
words, typos, word order, a detail dropped, transliteration, another script, and 26
language switches: the same fact once in English and once in another language), 82
updates (most without a marker: a new holder of a one-person role named plainly, a
switch between two tools of one kind, a move between two cities, another number or
value; and a marker, "since", stopped), 50 contradictions (another value, a negation,
another number, no time marker) and 142 honest pairs that share most words and differ
in the fact that matters (two sites, two grandchildren, two choirs, another attribute, a
rule and its exception, an addition, a plan beside a fact, a past event beside a
preference, similar numbers of different things, two items of a list, one word
changed), English for 35 % and 43 more languages (Georgian, Armenian, Azerbaijani,
Latvian and Estonian among them) and mixed text, over 22 domains. It is dealt with its
own seed into its own split file.

``bench/data/tidy_fresh9.jsonl`` (:data:`NINTH`) is a ninth set, by a ninth writer who
had read neither the tidy rules, their tests, the pair model, its training data nor any
earlier set's pairs (but the first two lines of the eighth, for the format), written as
the notes an assistant keeps for a hospital nurse on rotating shifts who trains for a
marathon and for the owner of a small family vineyard that sells abroad: 130 rewordings
(synonyms, paraphrase, register, abbreviations, units: km/mi, min/km and min/mi, hl/L,
kg/lb, °C/°F, ha/m²; 24h/12h clocks, dates in two formats, currencies, numbers in words,
typos, word order, a detail dropped, transliteration, and 26 language switches: the same
fact once in English and once in another language, tagged with the other language), 81
updates (a new holder of a one-person role named plainly, a new personal best, a moved
date, a switch between two tools of one kind, a move between two cities, another price
or number, and a marker, "since", stopped), 50 contradictions (another value, a negation,
another number, no time marker) and 141 honest pairs that share most words and differ in
the fact that matters (two wards, two parcels, two races, two importers, two people,
another attribute, a rule and its exception, an addition, a plan beside a fact, a past
event beside a preference, similar numbers of different things, two items of a list, one
word changed), English for 38 % and 44 more languages (Icelandic, Irish, Welsh, Basque,
Galician, Maltese, Albanian, Macedonian, Bosnian, Slovene, Belarusian, Mongolian, Kazakh,
Uzbek, Nepali, Sinhala, Tamil, Telugu, Marathi, Amharic and Yoruba among them) and mixed
text, over 24 domains. It is dealt with its own seed into its own split file.

``bench/data/tidy_fresh10.jsonl`` (:data:`TENTH`) is a tenth set, by a tenth writer who
had read neither the tidy rules, their tests nor any earlier set's pairs (but the first
three lines of the ninth, for the format), written as the notes an assistant keeps for a
secondary-school chemistry teacher who coaches the school chess team and for a
two-person bicycle repair co-op: 137 rewordings (synonyms, paraphrase, abbreviations,
units: mol/dm³ and M, m²/sq ft, bar/psi, kg/lb, m/ft; 24h/12h clocks, dates d.m.y and in
words, local currencies, numbers in words, word order, typos, and 26 language switches:
one fact once in English and once in another language, tagged with the other language),
82 updates (mostly plain: another number or price, a new holder of a one-person role, a
switch between two tools of one kind, a moved date, a move between two places; a few
with a marker or stopped), 51 contradictions (another value, another number, a
negation) and 148 honest pairs (another attribute, two people, a plan and its result, a
list and one of its items, one word changed, two dates of different events, a rule and
its exception, similar numbers of different things, two places), English for 33 % and
51 more languages (Icelandic, Basque, Maltese, Albanian, Swahili, Yoruba, Tagalog,
Thai, Estonian, Latvian, Lithuanian, Persian and Bengali among them) and mixed text,
over 24 domains. It is dealt with its own seed into its own split file.

``bench/data/tidy_fresh11.jsonl`` (:data:`ELEVENTH`) is an eleventh set, by an eleventh
writer who had read neither the tidy rules, their tests nor any earlier set's pairs (but
the first three lines of the tenth, for the format), written as the notes an assistant
keeps for an offshore saturation diver who races homing pigeons with his father and for
two sisters who run a travelling marionette theatre: 139 rewordings (synonyms,
paraphrase, abbreviations, units: m/ft, bar and metres of seawater, °C/°F, kg/lb, L/US
gal, m²/sq ft, km/mi; 24h/12h clocks, dates in two formats, currencies, numbers in words,
word order, typos, register, and 26 language switches tagged with the other language),
86 updates told in many ways (another number, a new holder of a one-person role, a tool
switch, a postponed or brought-forward date, a move, cancelled, replaced, stopped or
dropped; a marker word in under an eighth), 52 contradictions (another value, another
number, a negation) and 146 honest pairs (another attribute, two people, two places, a
plan and its result, a list and one item with a detail the list lacks, one word changed,
two dates, a rule and its exception, similar numbers of different things, two birds or
two puppets), English for 34 % and 72 more languages and mixed text, over 24 domains.
It is dealt with its own seed into its own split file.

``bench/data/tidy_fresh12.jsonl`` (:data:`TWELFTH`) is a twelfth set, by a twelfth writer
who had read neither the tidy rules, their tests nor any earlier set's pairs (but the
first four lines of the eleventh, for the format), written as the notes an assistant
keeps for a beekeeper who also restores antique clocks and for a family that runs the
café on a small island ferry: 145 rewordings (synonyms, paraphrase, word order, a pronoun
for a name, abbreviations, units: kg/lb, cm/in, L/gal, m/ft, mm in words; 24h/12h clocks,
dates in two formats, currencies, numbers in words, typos, register, a detail dropped,
four mixed-language notes, and 39 language switches: one fact once in English and once
in another language, tagged with the other language), 88 updates (another price, count or
weight, a new holder of a one-person role, a tool or supplier switched, a date moved, a
move, cancelled, replaced, resumed, stopped; a marker word in under an eighth), 53
contradictions (another value, another number, a negation) and 150 honest pairs (two
hives, clocks, people, places or dates, two keys of one thing, a rule and its exception,
a list and one item with a detail the list lacks, a target or quote beside the result,
one word changed), English for 34 % and 56 more languages (Esperanto new to the sets;
Luxembourgish, Scottish Gaelic, Yoruba, Zulu, Georgian, Armenian, Nepali and Urdu among
the less written) and mixed text, over 20 domains. It is dealt with its own seed into its
own split file.

``bench/data/tidy_fresh13.jsonl`` (:data:`THIRTEENTH`) is a thirteenth set, by a
thirteenth writer who had read neither the tidy rules, their tests nor any earlier set's
pairs (but the first four lines of the twelfth, for the format), written as the notes an
assistant keeps for a hospital night-shift midwife who keeps an allotment and for a
two-person bicycle courier co-op with a cargo-bike repair bench: 152 rewordings
(synonyms, paraphrase, word order, a pronoun for a name, abbreviations, a shortened note,
a note restated with one detail added, units: m²/sq ft, L/cu ft, kg/lb, km/mi, £/km and
£/mi; 24h/12h clocks, dates in two formats, currencies, numbers in words, typos,
register, a transliteration, seven mixed-language notes, and 38 language switches: one
fact once in English and once in another language, tagged with the other language), 100
updates (another price, count or reading, a new holder of a one-person role, a tool or
supplier switched, a date moved, a move, cancelled, replaced, resumed, stopped; a marker
word or "stopped" in under a tenth), 55 contradictions (another value, number, date or
person for a fact that does not change, a negation) and 158 honest pairs (two people,
things, places, dates or keys of one thing, a rule and its exception, two items of one
list, a plan or target beside the result, one word changed, the same words about another
subject), English for 34 % and 76 more languages (Gujarati, Kannada, Hausa, Igbo, Somali,
Māori, Faroese, Breton and Occitan new to the sets) and mixed text, over 21 domains. It
is dealt with its own seed into its own split file.

``bench/data/tidy_fresh14.jsonl`` (:data:`FOURTEENTH`) is a fourteenth set, by a
fourteenth writer who had read neither the tidy rules, their tests nor any earlier set's
pairs (but the first four lines of the thirteenth, for the format), written as the notes
an assistant keeps for a ship's cook on a North Sea supply vessel who restores
motorcycles and for a two-person translation agency in Bremen that also runs German
classes for refugees: 103 rewordings (paraphrase, synonyms, word order, a pronoun for a
name, abbreviations, a shortened note, a note restated with one detail added or one
dropped, units: kg/lb, psi/bar, m²/sq ft; 24h/12h clocks, dates in two formats,
currencies, numbers in words, a typo, register, a transliteration, five mixed-language
notes, and 27 language switches: one fact once in English and once in another language,
tagged with the other language), 63 updates (another price, count or reading, a new
holder of a one-person role, a supplier or tool switched, a date moved, a move, a plan
changed, cancelled, replaced, resumed, stopped; "stopped" in under a tenth), 37
contradictions (another value, number, date or person for a fact that does not change, a
negation) and 105 honest pairs (two people, things, places, dates, prices, readings or
keys of one thing, a rule and its exception, two items of one list, a target or plan
beside the result, the same words about another subject), English for 36 % and 66 more
languages (Tigrinya, Pashto and Kurmanji among them) and mixed text, over 15 domains. It
is dealt with its own seed into its own split file.

``bench/data/tidy_fresh15.jsonl`` (:data:`FIFTEENTH`) is a fifteenth set, by a
fifteenth writer who had read neither the tidy rules, their tests nor any earlier set's
pairs (but the first four lines of the fourteenth, for the format), written as the notes
an assistant keeps for a primary-school teacher in the Scottish Highlands who volunteers
with a mountain-rescue team and for a family-run campsite in the Jura with a shop and
bike hire: 114 rewordings (paraphrase, synonyms, word order, a pronoun or a relation for
a name, abbreviations, a shortened note, a note restated with one detail added, units:
kg/lb, °C/°F, m²/sq ft, m³/litres, Wh and km/miles; 24h/12h clocks and times of day in
words, dates in two formats and month names, currencies, numbers in words in many
languages, a typo, register, four mixed-language notes, and 28 language switches: one
fact once in English and once in another language, tagged with the other language),
66 updates (another price, count or fee, a new
holder of a one-person role, a tool or supplier switched, a date moved, a move, a thing
replaced, a plan cancelled, changed or resumed; "stopped" or a marker word in under a
tenth), 38 contradictions (another value, number, date or person for a fact that does
not change, a negation) and 122 honest pairs (two people, things, places, dates, prices
or keys of one thing, a rule and its exception, a list and one item with a detail the
list lacks, a target beside the result, one word changed, the same words about another
subject), English for 34 % and 74 more languages (Romansh and Northern Sámi new to the sets) and
mixed text, over 16 domains. It is dealt with its own seed into its own split file.

``bench/data/tidy_fresh16.jsonl`` (:data:`SIXTEENTH`) is a sixteenth set, by a
sixteenth writer who had read neither the tidy rules, their tests nor any earlier set's
pairs (but the first fifteen lines of the fifteenth, for the format), written as the
notes an assistant keeps for a Vienna tram driver (lines 49 and 5, Rudolfsheim depot,
the depot's union health-and-safety rep) who is an amateur astronomer in a club with an
observatory hut, and for a volunteer-run community radio station in Marseille (Radio
Calanque: schedule, presenters, transmitter, studio kit, licences, donations, listeners):
115 rewordings (paraphrase, synonyms, word order, a pronoun for a name, abbreviations, a
shortened note, a note restated with one detail added, units: mm/inches, kg/lb, m/ft,
W/kW; 24h/12h clocks and times of day in words, dates in two formats, currencies,
numbers in words in many languages, typos, register, four mixed-language notes, and 28
language switches tagged with the other language, Latin and Javanese among them), 65
updates (another price, count or fee, a new holder of a one-person role, a tool
switched, a date moved, a move, a thing replaced, a plan cancelled, changed or resumed;
"stopped" or a marker word in 4), 41 contradictions (another value, number, date or
person for a fact that does not change, a negation) and 120 honest pairs (two people,
things, places, dates, prices or keys, a rule and its exception, a list and one item
with a detail the list lacks, a target beside the result, one word changed, the same
words about another subject), English for 35 % and 79 more languages (Latin, Javanese
and Kyrgyz new to the sets) and mixed text, over 16 domains. It is dealt with its own
seed into its own split file.

``bench/data/tidy_fresh17.jsonl`` (:data:`SEVENTEENTH`) is a seventeenth set, by a
seventeenth writer who had read neither the tidy rules, their tests nor any earlier set's
pairs (but the first fifteen lines of the sixteenth, for the format), written as the
notes an assistant keeps for a Ljubljana piano tuner who is a sport climber (her clients,
the pianos, her tuning kit, crags, climbing and its gear, her family) and for a 1930s
single-screen cinema in Porto run as a cooperative (Cinema Aurora: screenings,
projection, film rights, box office, staff and volunteers, the bar, the building, the
cooperative's admin): 115 rewordings (paraphrase, synonyms, word order, a pronoun for a
name, abbreviations, a shortened note, a note with one detail added, units: m/ft, mm/in,
cm/in, g/oz, kg/lb, km/miles, °C/°F; 24h/12h clocks and times of day in words, dates in
two formats, currencies, numbers in words, typos, register, four mixed-language notes
and 28 language switches tagged with the other language), 65 updates (another price,
count or fee, a new holder of a one-person role, a tool switched, a date moved, a move, a
thing replaced, a plan cancelled, changed or resumed; "stopped" or a marker word in 4),
40 contradictions (another value, number, date or person for a fact that does not
change, a negation) and 120 honest pairs (two people, things, places, dates, prices or
keys, a rule and its exception, a list and one item with a detail the list lacks, a
target beside the result, one word changed, the same words about another subject),
English for 35 % and 89 more languages (Haitian Creole, Cebuano and Corsican new to the
sets) and mixed text, over 15 domains. No fact is stated in two pairs. It is dealt with
its own seed into its own split file.

**fresh1-3 are training data since tidy 15** (:data:`TRAINED_ON`): the shipped pair
model (:mod:`mnemic.ops.tidy.pairmodel`, fitted by ``bench/tidy_pairs.py --fit``) was
fitted on both halves of each, so their figures with the model say how well it fits
them, not how it carries; ``bench/tidy.py`` reports them as "trained on". fresh4's and
fresh5's test halves are spent (tidy 17 put both halves of each in the train share of
its candidate fits, which were not shipped); fresh6 and the sets after it stay held out.

A split file holds the seed, the cells of each half and the ids of each half's pairs;
:func:`halves` refuses a file whose cells are not the seeded deal (a cell moved by hand)
or whose ids are not where the pairs' cells put them (a pair moved by hand, e.g. by
editing its domain or language).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _metrics import wilson
from mnemic.ops.tidy.pairmodel import PairModel
from mnemic.ops.tidy.plan import plan

DATA = Path(__file__).resolve().parent / "data"
PAIRS = DATA / "tidy_fresh.jsonl"
SPLIT = DATA / "tidy_fresh_split.json"
SEED = 20261205
KINDS = ("rewording", "update", "contradiction", "honest")
HALVES = ("dev", "test")


@dataclass(frozen=True)
class FreshSet:
    """A hand-written set: its pairs, its split file and seed, its untouched baseline."""

    name: str
    pairs: Path
    split: Path
    seed: int
    baseline: Path


FIRST = FreshSet("fresh", PAIRS, SPLIT, SEED, DATA / "tidy_fresh_baseline.json")
#: The second set, by a new hand, dealt with its own seed.
SECOND = FreshSet(
    "fresh2",
    DATA / "tidy_fresh2.jsonl",
    DATA / "tidy_fresh2_split.json",
    20261206,
    DATA / "tidy_fresh2_baseline.json",
)
#: The third set, by a third hand, dealt with its own seed.
THIRD = FreshSet(
    "fresh3",
    DATA / "tidy_fresh3.jsonl",
    DATA / "tidy_fresh3_split.json",
    20261207,
    DATA / "tidy_fresh3_baseline.json",
)
#: The fourth set, by a fourth hand, dealt with its own seed.
FOURTH = FreshSet(
    "fresh4",
    DATA / "tidy_fresh4.jsonl",
    DATA / "tidy_fresh4_split.json",
    20261209,
    DATA / "tidy_fresh4_baseline.json",
)
#: The fifth set, by a fifth hand, dealt with its own seed.
FIFTH = FreshSet(
    "fresh5",
    DATA / "tidy_fresh5.jsonl",
    DATA / "tidy_fresh5_split.json",
    20261210,
    DATA / "tidy_fresh5_baseline.json",
)
#: The sixth set, by a sixth hand, dealt with its own seed.
SIXTH = FreshSet(
    "fresh6",
    DATA / "tidy_fresh6.jsonl",
    DATA / "tidy_fresh6_split.json",
    20261211,
    DATA / "tidy_fresh6_baseline.json",
)
#: The seventh set, by a seventh hand, dealt with its own seed.
SEVENTH = FreshSet(
    "fresh7",
    DATA / "tidy_fresh7.jsonl",
    DATA / "tidy_fresh7_split.json",
    20261212,
    DATA / "tidy_fresh7_baseline.json",
)
#: The eighth set, by an eighth hand, dealt with its own seed.
EIGHTH = FreshSet(
    "fresh8",
    DATA / "tidy_fresh8.jsonl",
    DATA / "tidy_fresh8_split.json",
    20261213,
    DATA / "tidy_fresh8_baseline.json",
)
#: The ninth set, by a ninth hand, dealt with its own seed.
NINTH = FreshSet(
    "fresh9",
    DATA / "tidy_fresh9.jsonl",
    DATA / "tidy_fresh9_split.json",
    20261220,
    DATA / "tidy_fresh9_baseline.json",
)
#: The tenth set, by a tenth hand, dealt with its own seed.
TENTH = FreshSet(
    "fresh10",
    DATA / "tidy_fresh10.jsonl",
    DATA / "tidy_fresh10_split.json",
    20261230,
    DATA / "tidy_fresh10_baseline.json",
)
#: The eleventh set, by an eleventh hand, dealt with its own seed.
ELEVENTH = FreshSet(
    "fresh11",
    DATA / "tidy_fresh11.jsonl",
    DATA / "tidy_fresh11_split.json",
    20261311,
    DATA / "tidy_fresh11_baseline.json",
)
#: The twelfth set, by a twelfth hand, dealt with its own seed.
TWELFTH = FreshSet(
    "fresh12",
    DATA / "tidy_fresh12.jsonl",
    DATA / "tidy_fresh12_split.json",
    20261412,
    DATA / "tidy_fresh12_baseline.json",
)
#: The thirteenth set, by a thirteenth hand, dealt with its own seed.
THIRTEENTH = FreshSet(
    "fresh13",
    DATA / "tidy_fresh13.jsonl",
    DATA / "tidy_fresh13_split.json",
    20261513,
    DATA / "tidy_fresh13_baseline.json",
)
#: The fourteenth set, by a fourteenth hand, dealt with its own seed.
FOURTEENTH = FreshSet(
    "fresh14",
    DATA / "tidy_fresh14.jsonl",
    DATA / "tidy_fresh14_split.json",
    20261514,
    DATA / "tidy_fresh14_baseline.json",
)
#: The fifteenth set, by a fifteenth hand, dealt with its own seed.
FIFTEENTH = FreshSet(
    "fresh15",
    DATA / "tidy_fresh15.jsonl",
    DATA / "tidy_fresh15_split.json",
    20261515,
    DATA / "tidy_fresh15_baseline.json",
)
#: The sixteenth set, by a sixteenth hand, dealt with its own seed.
SIXTEENTH = FreshSet(
    "fresh16",
    DATA / "tidy_fresh16.jsonl",
    DATA / "tidy_fresh16_split.json",
    20261616,
    DATA / "tidy_fresh16_baseline.json",
)
#: The seventeenth set, by a seventeenth hand, dealt with its own seed.
SEVENTEENTH = FreshSet(
    "fresh17",
    DATA / "tidy_fresh17.jsonl",
    DATA / "tidy_fresh17_split.json",
    20261717,
    DATA / "tidy_fresh17_baseline.json",
)
SETS = {
    s.name: s
    for s in (
        FIRST, SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH, EIGHTH, NINTH, TENTH, ELEVENTH,
        TWELFTH, THIRTEENTH, FOURTEENTH, FIFTEENTH, SIXTEENTH, SEVENTEENTH,
    )
}  # fmt: skip
TRAINED_ON = ("fresh", "fresh2", "fresh3")
"""The sets the shipped pair model was fitted on (every half): training data, not held out."""


@dataclass(frozen=True)
class FreshPair:
    id: str
    kind: str
    subtype: str
    lang: str
    domain: str
    a: str
    b: str


def load(path: Path = PAIRS) -> list[FreshPair]:
    return [FreshPair(**json.loads(line)) for line in path.read_text("utf-8").splitlines() if line]


def make_split(pairs: Sequence[FreshPair], seed: int = SEED) -> dict[str, list[str]]:
    """Each (domain, language) cell to dev or test: the cells shuffled with ``seed``,
    then dealt alternately (written once to SPLIT; later runs read the file)."""
    cells = sorted({f"{p.domain}/{p.lang}" for p in pairs})
    random.Random(seed).shuffle(cells)
    return {"dev": sorted(cells[0::2]), "test": sorted(cells[1::2])}


def split_doc(pairs: Sequence[FreshPair], seed: int) -> dict[str, Any]:
    """What a split file holds: the seed, each half's cells and each half's pair ids."""
    cells = make_split(pairs, seed)
    where = {cell: half for half, names in cells.items() for cell in names}
    ids: dict[str, list[str]] = {h: [] for h in HALVES}
    for p in pairs:
        ids[where[f"{p.domain}/{p.lang}"]].append(p.id)
    return {"seed": seed, "by": "domain/language", "cells": cells, "pairs": ids}


def write_split(which: FreshSet) -> None:
    """Deal ``which`` once into its split file; refuses to deal a set twice."""
    if which.split.exists():
        raise SystemExit(f"{which.split} exists: a set is dealt once (delete it by hand "
                         "only if the pairs file was never measured)")  # fmt: skip
    doc = split_doc(load(which.pairs), which.seed)
    which.split.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "utf-8")


def halves(
    pairs: Sequence[FreshPair], path: Path = SPLIT, seed: int = SEED
) -> dict[str, list[FreshPair]]:
    """The pairs of each half as ``path`` deals them; ``ValueError`` when the file is not
    the seeded deal of these pairs: a cell or a pair moved by hand, a pair added since."""
    doc = json.loads(path.read_text("utf-8"))
    if doc.get("seed") != seed:
        raise ValueError(f"{path}: dealt with seed {doc.get('seed')}, the set's is {seed}")
    dealt = split_doc(pairs, seed)
    moved = sorted(
        cell
        for half in HALVES
        for cell in set(doc["cells"].get(half, [])) ^ set(dealt["cells"][half])
    )
    if moved:
        raise ValueError(f"{path}: cells not in their dealt half: {moved[:5]} (the split "
                         "is dealt once by make_split, never edited by hand)")  # fmt: skip
    if "pairs" in doc:
        moved = sorted(
            i
            for half in HALVES
            for i in set(doc["pairs"].get(half, [])) ^ set(dealt["pairs"][half])
        )
        if moved:
            raise ValueError(f"{path}: pairs not in their dealt half: {moved[:5]} (a pair's "
                             "domain or language changed, or a pair was added or removed, "
                             "after the set was dealt)")  # fmt: skip
    where = {cell: half for half, names in doc["cells"].items() for cell in names}
    out: dict[str, list[FreshPair]] = {h: [] for h in HALVES}
    for p in pairs:
        out[where[f"{p.domain}/{p.lang}"]].append(p)
    return out


def load_halves(which: FreshSet = FIRST) -> dict[str, list[FreshPair]]:
    """The set's pairs, dealt by its split file (checked as :func:`halves` does)."""
    return halves(load(which.pairs), which.split, which.seed)


def verdict(
    p: FreshPair | Any,
    cosine: Callable[[str, str], float] | None = None,
    learned: PairModel | bool = True,
) -> str:
    """What tidy proposes for the pair: "merge", "supersede" (b keeps, a goes),
    "supersede-old" (a keeps) or "none". ``learned``: the pair model beside the rules
    (True: the shipped one; False: the rules alone)."""
    cos = None if cosine is None else [[1.0, cosine(p.a, p.b)], [cosine(p.a, p.b), 1.0]]
    for q in plan("memory", [p.a, p.b], [1.0, 2.0], now=3.0, stale_after_days=90,
                  verbose_chars=10_000, cosines=cos, learned=learned):  # fmt: skip
        if set(q.entries) >= {p.a, p.b} and p.a != p.b:
            if q.kind == "merge":
                return "merge"
            if q.kind == "supersede":
                return "supersede" if q.entries[0] == p.b else "supersede-old"
    return "none"


def share(k: int, n: int) -> dict[str, Any]:
    """k of n as the tidy results write it: the share and its interval."""
    return {"n": n, "k": k, "share": round(k / n, 4) if n else None, "ci95": wilson(k, n)}


def outcome(p: FreshPair, v: str) -> dict[str, bool]:
    """The pair's counts: flagged (rewordings, updates, contradictions), false_merge
    (updates, contradictions, honest pairs), joined (honest pairs: any proposal)."""
    if p.kind == "rewording":
        return {"flagged": v != "none"}
    if p.kind in ("update", "contradiction"):
        return {"flagged": v == "supersede", "false_merge": v == "merge"}
    return {"joined": v != "none", "false_merge": v == "merge"}


def summary(pairs: Sequence[FreshPair], verdicts: Sequence[str]) -> dict[str, Any]:
    c: Counter[str] = Counter()
    for p, v in zip(pairs, verdicts, strict=True):
        for group in (p.kind, f"{p.kind}.{p.subtype}", f"{p.kind}@{p.lang}"):
            c[f"{group}.n"] += 1
            for what, hit in outcome(p, v).items():
                c[f"{group}.{what}"] += hit
    out: dict[str, Any] = {}
    for kind in KINDS:
        whats = ("joined", "false_merge") if kind == "honest" else ("flagged",)
        if kind in ("update", "contradiction"):
            whats = ("flagged", "false_merge")
        subs = sorted({p.subtype for p in pairs if p.kind == kind})
        langs = sorted({p.lang for p in pairs if p.kind == kind})
        out[kind] = {
            **{w: share(c[f"{kind}.{w}"], c[f"{kind}.n"]) for w in whats},
            "by_subtype": {
                s: {w: share(c[f"{kind}.{s}.{w}"], c[f"{kind}.{s}.n"]) for w in whats} for s in subs
            },
            "by_language": {
                lang: {w: share(c[f"{kind}@{lang}.{w}"], c[f"{kind}@{lang}.n"]) for w in whats}
                for lang in langs
            },
        }
    return out


def misses(pairs: Sequence[FreshPair], verdicts: Sequence[str]) -> list[str]:
    """One line per pair tidy got wrong (for reading the dev half only)."""
    out = []
    for p, v in zip(pairs, verdicts, strict=True):
        o = outcome(p, v)
        if not o.get("flagged", True) or o.get("joined") or o.get("false_merge"):
            out.append(f"{p.id} {p.kind}/{p.subtype} {p.lang} [{v}]: {p.a!r} / {p.b!r}")
    return out


def line(name: str, s: dict[str, Any]) -> str:
    def pct(d: dict[str, Any]) -> str:
        return f"{100 * d['share']:.1f} % of {d['n']}"

    return (f"{name}: rewordings {pct(s['rewording']['flagged'])}, "
            f"updates {pct(s['update']['flagged'])}, "
            f"contradictions {pct(s['contradiction']['flagged'])}, "
            f"honest joined {pct(s['honest']['joined'])} "
            f"(merged {pct(s['honest']['false_merge'])})")  # fmt: skip


def show(result: dict[str, Any], to: Sequence[str] = ()) -> None:
    """Print a round's ``result`` as JSON and, when ``to`` names a file (its first item),
    write it there too (the ``diff``/``held`` commands of the tidy rounds' benches)."""
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if to:
        Path(to[0]).write_text(text + "\n", "utf-8")
    print(text)
