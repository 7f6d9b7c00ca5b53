"""Numbers written in words, read as digits: "fifteen minutes" and "15 minutes", "zwei
Kinder" and "2 Kinder", "两个孩子" and "2个孩子" state one value (:func:`digits`).

Cardinal words of en, de, es, fr, pt, it and nl (reading version 2, tidy 37 and 39:
and of pl, cs, sk, hr, sr, sl, ru, uk, el, sv, fi, tr, ro) from two up, tens, hundreds and
thousands, one run of them one number ("two thousand": 2000, "twenty five": 25). Words
for one are articles as often as numbers ("a", "ein", "un", "um", "een") and are left as
written, as are number words that are also common words of another language: "due"
(Italian two, English owed), "sei" (Italian six, German be), "sept" (French seven,
September), "neuf" (French nine and new), "once" (Spanish eleven), "seize" (French
sixteen), "elf", "otto", "cent". Chinese and Japanese
numerals are read only before a counter ("两个", "一万歩"): alone they are parts of
words ("一起", "万一").

Tidy 24: a German number written as one word ("fünfundneunzig", "eintausendvierhundert-
fünfzig"), the hundreds of es, pt, it ("trescientos", "duzentos"), a joining word inside
one number ("four hundred and twelve", "treinta y dos", "mil e duzentos"; "three and
four" stay two), and digits of other scripts (٣ ३ ๓ ௩ ３) as ASCII digits.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .readings import version as reading_version

__all__ = ["AT", "MORE_COUNTERS", "MORE_JOIN", "MORE_WORDS", "digits", "durations"]


def _numbers(table: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in table.strip().splitlines():
        value, words = row.split(":")
        out |= dict.fromkeys(words.split(), int(value))
    return out


_WORDS = _numbers(
    """
    2: two zwei dos dois duas deux twee
    3: three drei tres três trois tre drie
    4: four vier cuatro quatro quatre quattro
    5: five fünf cinco cinq cinque vijf
    6: six sechs seis zes
    7: seven sieben siete sete sette zeven
    8: eight acht ocho oito huit
    9: nine neun nueve nove negen
    10: ten zehn diez dez dix dieci tien
    11: eleven onze undici
    12: twelve zwölf doce douze dodici twaalf
    13: thirteen dreizehn trece treize tredici dertien
    14: fourteen vierzehn catorce quatorze quattordici veertien
    15: fifteen fünfzehn quince quinze quindici vijftien
    16: sixteen sechzehn dieciséis sedici zestien
    17: seventeen siebzehn diecisiete dezessete diciassette zeventien
    18: eighteen achtzehn dieciocho dezoito diciotto achttien
    19: nineteen neunzehn diecinueve dezenove diciannove negentien
    20: twenty zwanzig veinte vinte vingt venti twintig
    30: thirty dreißig treinta trinta trente trenta dertig
    40: forty vierzig cuarenta quarenta quarante quaranta veertig
    50: fifty fünfzig cincuenta cinquenta cinquante vijftig
    60: sixty sechzig sesenta sessenta soixante zestig
    70: seventy siebzig setenta settanta zeventig
    80: eighty achtzig ochenta oitenta ottanta tachtig
    90: ninety neunzig noventa novanta negentig
    100: hundred hundert cien ciento cem cento honderd
    200: doscientos doscientas duzentos duzentas duecento deux-cents tweehonderd
    300: trescientos trescientas trezentos trezentas trecento trois-cents driehonderd
    400: cuatrocientos cuatrocientas quatrocentos quatrocentas quattrocento
    500: quinientos quinientas quinhentos quinhentas cinquecento
    600: seiscientos seiscientas seiscentos seiscentas seicento
    700: setecientos setecientas setecentos setecentas settecento
    800: ochocientos ochocientas oitocentos oitocentas ottocento
    900: novecientos novecientas novecentos novecentas novecento
    1000: thousand tausend mil mille duizend
    """
)
# Tidy 37: the cardinals of more languages the stores are written in, from each
# language's own counting (not from entries): Polish, Czech, Slovak, Croatian, Serbian
# and Slovene, Russian, Ukrainian and Serbian in Cyrillic, Greek, Swedish, Finnish,
# Turkish, Romanian, with the case forms a count takes (Polish "pięciu", Czech "pěti",
# Russian "пяти"). Left out as words of another language as often: "pet" (English),
# "sto" (Italian "I am"; Polish, Czech hundred), "sex", "on", "bin", "yüz" (Turkish
# face), "yedi" (Turkish ate), "opt", "nouă" (Romanian new), "mie" (Italian), "doi" (a
# DOI), "sexton", "tio" (Portuguese uncle), "lima" (the city; Indonesian five),
# Norwegian and Danish "to", "fire"; and counts built of parts a run cannot add
# (Indonesian "dua puluh", twenty). A value may take two lines; each word case folded as
# the text is (Greek "τρεις": "τρεισ").
MORE_WORDS = {
    w.casefold(): v
    for w, v in _numbers(
        """
    2: dwa dwie dwóch dva dvě dvou dve dvije два две двух дві δύο två kaksi kahden iki două
    3: trzy trzech tři tří tri troch три трёх трех τρία τρεις tre kolme kolmen üç trei
    4: cztery czterech čtyři čtyř štyri štyroch četiri štiri четыре четырёх четырех чотири
    4: четири τέσσερα τέσσερις fyra neljä dört patru
    5: pięć pięciu pět pěti päť пять пяти п'ять п’ять пет πέντε fem viisi beş cinci
    6: sześć sześciu šest šesti šesť шесть шести шість шест έξι kuusi altı şase șase
    7: siedem siedmiu sedm sedmi sedem sedam семь семи сім седам επτά εφτά sju seitsemän
    7: şapte șapte
    8: osiem ośmiu osm osmi osem osam восемь восьми вісім осам οκτώ οχτώ åtta kahdeksan sekiz
    9: dziewięć dziewięciu devět devíti deväť devet девять девяти дев'ять дев’ять девет εννέα
    9: εννιά nio yhdeksän dokuz
    10: dziesięć dziesięciu deset deseti desať десять десяти десет δέκα kymmenen zece
    11: jedenaście jedenáct jedenásť jedanaest enajst одиннадцать одинадцять έντεκα elva
    12: dwanaście dvanáct dvanásť dvanaest dvanajst двенадцать дванадцять δώδεκα tolv
    13: trzynaście třináct trinásť trinaest trinajst тринадцать тринадцять δεκατρία tretton
    14: czternaście čtrnáct štrnásť četrnaest štirinajst четырнадцать чотирнадцять fjorton
    15: piętnaście patnáct pätnásť petnaest petnajst пятнадцать п'ятнадцять femton
    16: szesnaście šestnáct šestnásť šesnaest šestnajst шестнадцать шістнадцять
    17: siedemnaście sedmnáct sedemnásť sedamnaest sedemnajst семнадцать сімнадцять sjutton
    18: osiemnaście osmnáct osemnásť osamnaest osemnajst восемнадцать вісімнадцять arton
    19: dziewiętnaście devatenáct devätnásť devetnaest devetnajst девятнадцать дев'ятнадцять
    19: nitton
    20: dwadzieścia dvacet dvadsať dvadeset dvajset двадцать двадцять είκοσι tjugo yirmi
    20: douăzeci
    30: trzydzieści třicet tridsať trideset тридцать тридцять τριάντα trettio otuz treizeci
    40: czterdzieści čtyřicet štyridsať četrdeset štirideset сорок σαράντα fyrtio kırk patruzeci
    50: pięćdziesiąt padesát päťdesiat pedeset petdeset пятьдесят п'ятдесят πενήντα femtio
    50: cincizeci
    60: sześćdziesiąt šedesát šesťdesiat šezdeset šestdeset шестьдесят шістдесят εξήντα sextio
    60: altmış
    70: siedemdziesiąt sedmdesát sedemdesiat sedamdeset sedemdeset семьдесят сімдесят εβδομήντα
    70: sjuttio yetmiş
    80: osiemdziesiąt osmdesát osemdesiat osamdeset osemdeset восемьдесят вісімдесят ογδόντα
    80: åttio seksen
    90: dziewięćdziesiąt devadesát deväťdesiat devedeset devetdeset девяносто дев'яносто
    90: ενενήντα nittio doksan
    100: сто εκατό hundra
    1000: tysiąc tisíc tisuću tisuća hiljadu тысяча тысячи тысяч тисяча тисячі тисяч χίλια tusen
    """
    ).items()
}
_JOIN = r"(?:and|und|y|e|en)"
"""A word that joins the parts of one number ("four hundred *and* twelve", "treinta *y*
dos", "mil *e* duzentos"): one number only when the part before is hundreds or tens and
the one after smaller (:func:`_latin`; "three and four" are two)."""
MORE_JOIN = r"(?:and|und|y|e|en|și|şi)"
"""Reading version 2 (tidy 37): Romanian "douăzeci *și* cinci" too."""
_GERMAN = _numbers(
    """
    1: ein eins
    2: zwei
    3: drei
    4: vier
    5: fünf
    6: sechs
    7: sieben
    8: acht
    9: neun
    10: zehn
    11: elf
    12: zwölf
    13: dreizehn
    14: vierzehn
    15: fünfzehn
    16: sechzehn
    17: siebzehn
    18: achtzehn
    19: neunzehn
    20: zwanzig
    30: dreißig
    40: vierzig
    50: fünfzig
    60: sechzig
    70: siebzig
    80: achtzig
    90: neunzig
    100: hundert
    1000: tausend
    0: und
    """
)
_GERMAN_PIECES = "|".join(sorted(_GERMAN, key=len, reverse=True))
_GERMAN_RUN = re.compile(rf"\b(?:{_GERMAN_PIECES}){{2,}}\b")
"""A German number written as one word ("fünfundneunzig", "zweihundertfünfzig",
"eintausendvierhundertfünfzig"): two pieces or more, every letter a piece's."""
_DIGITS = str.maketrans(
    {chr(zero + k): str(k) for zero in (0x0660, 0x06F0, 0x0966, 0x09E6, 0x0BE6, 0x0E50, 0xFF10)
     for k in range(10)} | {"\u066b": ".", "\u066c": ","}
)  # fmt: skip
"""Digits of other scripts as ASCII ones: Arabic-Indic ٣, Persian ۳, Devanagari ३, Bengali
৩, Tamil ௩, Thai ๓, full-width ３ (and the Arabic decimal and thousands marks)."""


def _run(words: dict[str, int], join: str) -> re.Pattern[str]:
    """A run of number ``words``, a joining word allowed between two (:func:`_latin`)."""
    alternation = "|".join(sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternation})(?:(?:[\s-]+{join})?[\s-]+(?:{alternation}))*\b")


_HAN = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
        "七": 7, "八": 8, "九": 9}  # fmt: skip
_HAN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000}
_COUNTER = "个位只次天年岁人台本枚回歩歳分周週時件"
MORE_COUNTERS = "点點"
"""Reading version 2 (tidy 37): a Chinese hour is a count too ("九点", 9 o'clock)."""


def _han_run(counters: str) -> re.Pattern[str]:
    return re.compile(f"[{''.join(_HAN)}{''.join(_HAN_UNITS)}]+(?=[{counters}]|小时|時間)")


class _Table(NamedTuple):
    """What one reading version (:mod:`.readings`) reads as numbers."""

    words: dict[str, int]
    run: re.Pattern[str]
    han_run: re.Pattern[str]


_TABLES = {
    1: _Table(_WORDS, _run(_WORDS, _JOIN), _han_run(_COUNTER)),
    2: _Table(
        _WORDS | MORE_WORDS,
        _run(_WORDS | MORE_WORDS, MORE_JOIN),
        _han_run(_COUNTER + MORE_COUNTERS),
    ),
}
"""Each reading version's number words, runs of them and Chinese counters: version 2
adds tidy 37's words, Romanian "și" and the counters 点 點."""


def _value(words: list[int]) -> int:
    total = current = 0
    for v in words:
        if v == 1000:
            total += max(current, 1) * 1000
            current = 0
        elif v == 100:
            current = max(current, 1) * 100
        else:
            current += v
    return total + current


def _latin(m: re.Match[str], words: dict[str, int]) -> str:
    """A run of number words as its numbers: one, or more where a joining word stands
    between two that are not one number's parts ("three and four": "3 and 4")."""
    out: list[str] = []
    part: list[int] = []
    joined = ""
    for w in re.split(r"[\s-]+", m.group(0)):
        if w not in words:
            joined = w
            continue
        v = words[w]
        if joined and not (part and (part[-1] >= 100 or (part[-1] % 10 == 0 and part[-1] >= 20))
                           and v < part[-1]):  # fmt: skip
            out += [str(_value(part)), joined]
            part = []
        joined = ""
        part.append(v)
    return " ".join([*out, str(_value(part))])


def _german(m: re.Match[str]) -> str:
    pieces = re.findall(_GERMAN_PIECES, m.group(0))
    if "".join(pieces) != m.group(0):
        return m.group(0)  # split another way than a number's pieces
    values = [_GERMAN[p] for p in pieces if p != "und"]
    # "fünfundneunzig": units before tens, as said; "einhundert": one hundred
    return str(_value(values))


def _han(m: re.Match[str]) -> str:
    run = m.group(0)
    if run == "一":  # one: an article as often as a number ("一个人")
        return run
    total = current = 0
    for ch in run:
        if ch in _HAN:
            current = current * 10 + _HAN[ch] if current else _HAN[ch]
        elif ch == "万":
            total = (total + max(current, 1)) * 10_000
            current = 0
        else:
            total += max(current, 1) * _HAN_UNITS[ch]
            current = 0
    return str(total + current)


def digits(folded: str, version: int | None = None) -> str:
    """``folded`` (case folded) text with its numbers written in words as digits, as
    reading ``version`` reads them (default: the one in force, :func:`.readings.version`)."""
    table = _TABLES[version or reading_version()]
    folded = _GERMAN_RUN.sub(_german, folded.translate(_DIGITS))
    return table.han_run.sub(_han, table.run.sub(lambda m: _latin(m, table.words), folded))


_MINUTES = "min mins minute minutes minuten minuto minutos minuti minuut"
_HOURS = "h hr hrs hour hours std stunde stunden hora horas heure heures ore uur"
_DAYS = "day days tage tagen día días dia dias jour jours giorno giorni dag dagen"
_WEEKS = "week weeks woche wochen semana semanas semaine semaines settimana settimane weken"
_UNIT = {w: (unit, factor) for words, unit, factor in (
    (_MINUTES, "minutes", 1), (_HOURS, "minutes", 60), (_DAYS, "days", 1), (_WEEKS, "days", 7),
) for w in words.split()}  # fmt: skip
_AMOUNT = re.compile(
    r"(?<![\w.,:/])(\d+(?:[.,]\d+)?)\s?("
    + "|".join(sorted(_UNIT, key=len, reverse=True))
    + r")\b(?![.,:]?\d)"
)
AT = re.compile(r"(?:\b(?:à|a|vers|dès|at|um|bis|ab|las|alle|om|jusqu'à)\s*)$")
"""Before a number, a word that makes "16h" a time of day ("à 16h", "um 16 h")."""
_HALF = r"(?:half|halbe|halben|media|demi|mezz|meia)"
_ARTICLE = r"(?:un'|(?:an|one|a|eine|einer|una|une|un|uma|een)[\s-]+)"
_ONE_HOUR = re.compile(
    rf"\b(?:(?P<half>{_HALF})[\s'-]*{_ARTICLE}?|{_ARTICLE}(?:(?P<halbe>{_HALF})[\s-]+)?)"
    r"(?:hour|stunde|hora|heure|ora|uur)\b"
)
"""An hour or half an hour said with an article: "an hour", "eine halbe Stunde", "media
hora", "une demi-heure", "mezz'ora", "un'ora", "een half uur"."""
_PER = re.compile(
    r"(?:\b(?:per|pro|por|par|a|an|each|every|jede|cada|chaque|ogni|elk|once|twice|times|"
    r"mal|einmal|zweimal|vez|veces|fois|volta|volte|keer|vezes|x|eur|usd|euro|euros|dollars?)"
    r"\s*|[$€£\d]\s*)$"
)
"""Before an hour, words that make it a rate ("50 EUR an hour", "once an hour")."""


def _amount(m: re.Match[str], text: str) -> str:
    unit, factor = _UNIT[m.group(2)]
    if factor == 60 and AT.search(text[: m.start()]):
        return m.group(0)  # "à 16h": a time of day
    value = float(m.group(1).replace(",", ".")) * factor
    return f"{value:g} {unit}"


def _hour(m: re.Match[str], text: str) -> str:
    if _PER.search(text[: m.start()]):
        return m.group(0)  # "50 EUR an hour", "once an hour": a rate
    return "30 minutes" if m.group("half") or m.group("halbe") else "60 minutes"


def durations(folded: str) -> str:
    """``folded`` text (numbers as digits) with each duration in the smallest unit it is
    usually said in: hours as minutes, weeks as days ("2 h" / "120 minutes", "eine
    Stunde" / "60 Minuten", "1,5 Stunden" / "90 min", "2 weeks" / "14 days"). A time of
    day ("à 16h") and a rate ("50 EUR an hour") stay as written."""
    folded = _ONE_HOUR.sub(lambda m: _hour(m, folded), folded)
    return _AMOUNT.sub(lambda m: _amount(m, folded), folded)
