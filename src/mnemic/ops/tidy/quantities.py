"""What two entries in different units, formats or scripts share, read without a
translator (tidy 17): the pair model's ``q:``, ``nw:`` and ``xs:`` features.

* :func:`quantities`: each measured amount in one unit per dimension (mass in kg,
  temperature in °C, distance in km, volume in litres, area in m²; tidy 23: tonnes,
  hectolitres, areas, a running pace in seconds per km, a sum of money by its currency,
  "6,200" and "2.000" with their thousands separators; tidy 24: m³, pressure in bar,
  energy in kWh, speed in km/h, stone, a duration in minutes, "half a mile", "four and a
  half kilos", a pace "par mile"; reading version 2, tidy 37 and 39: cubic feet, litres
  in more languages), each time of day in minutes after midnight (12 h and 24 h clocks;
  "07:30" is a 24 h clock), each date as month and day (ISO, day-first and month-first
  numbers, month names in en, de, fr, es, it, pt, nl, and 3月5日; version 2: in 25 more
  languages, "12 maja", "14. syyskuuta"). Numbers said in words are read first
  (:func:`.numerals.digits`).
  :func:`reading` also gives where each was read, the units and the other numbers (the
  rule of :mod:`.conversions`).
* :func:`language`: which of seven languages written in Latin letters an entry reads
  as (en, de, fr, es, pt, it, nl; none when they tie or none is found), by its most
  common function words and its word for the user: a rewording that switches language
  shares few words, and the model can weigh that against the names and numbers it
  still shares.
* :func:`latin`: a word of Cyrillic or Greek letters in Latin letters, accents dropped
  ("Мюнхен" -> "mjunhen", "Αθήνα" -> "athina"), so that a name written in two scripts
  can be matched by its opening letters.

The pair model weighs these as features (version 2); :mod:`.conversions` (tidy 23)
reads them as a rule, with the conditions it states.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from .numerals import AT, MORE_WORDS, digits
from .readings import LATEST, version as reading_version

__all__ = [
    "FUNCTION_WORDS",
    "Reading",
    "language",
    "latin",
    "quantities",
    "read_alike",
    "reading",
    "same_name",
]

_NUM = r"((?<![\d.,])[1-9]\d{0,2}(?:[,.\u202f\u00a0 ]\d{3})+(?![\d.,]\d)|\d+(?:[.,]\d+)?)"
"""A number: with thousands separated ("6,200", "2.000", "38 500": groups of three after
a first group that is no zero) or a decimal comma or point."""
_UNITS: dict[str, tuple[str, float]] = {}
for _words, _dim, _factor in (
    ("kg kgs kilo kilos kilogram kilograms kilogramm kilogramme kilogrammes kilogramos "
     "quilos кг 公斤 キロ", "mass", 1.0),
    ("g gram grams gramm gramos grammes grammi г 克 グラム", "mass", 0.001),
    ("lb lbs pound pounds pfund libras livres фунтов", "mass", 0.45359),
    ("oz ounce ounces unzen onzas", "mass", 0.02835),
    ("t tonne tonnes tonnen toneladas тонны тонн тонна 吨 トン", "mass", 1000.0),
    ("斤", "mass", 0.5),
    ("km kms kilometer kilometers kilometre kilometres kilómetros quilômetros "
     "chilometri км 公里 キロメートル", "distance", 1.0),
    ("mi mile miles meile meilen millas milles miglia миль", "distance", 1.60934),
    ("m meter meters metre metres metros metri метров 米 メートル", "distance", 0.001),
    ("cm zentimeter centimeters centimetres centímetros см 厘米", "distance", 0.00001),
    ("ft feet foot fuß pies", "distance", 0.0003048),
    ("inch inches zoll pulgadas pouces", "distance", 0.0000254),
    ("l liter liters litre litres litros litri литр литров л 升", "volume", 1.0),
    ("hl hektoliter hektoliters hectolitre hectolitres hectolitro hectolitros ettolitri "
     "гектолитр гектолитров", "volume", 100.0),
    ("ml milliliter millilitres мл 毫升", "volume", 0.001),
    ("gal gallon gallons galones", "volume", 3.78541),
    # tidy 24: cubic metres, pressure, energy, speed, stone
    ("m³|m3|cubic metre|cubic metres|cubic meter|cubic meters|kubikmeter|metros cúbicos|"
     "mètres cubes|metri cubi|куб. м", "volume", 1000.0),
    ("litrů litry litrem", "volume", 1.0),
    ("bar bars", "pressure", 1.0),
    ("mbar millibar hpa", "pressure", 0.001),
    ("kpa", "pressure", 0.01),
    ("psi", "pressure", 0.0689476),
    ("atm", "pressure", 1.01325),
    ("kwh", "energy", 1.0),
    ("wh", "energy", 0.001),
    ("mwh", "energy", 1000.0),
    ("km/h kmh kph km/t км/ч", "speed", 1.0),
    ("mph", "speed", 1.60934),
    ("knot knots knoten nudos nœuds nodi", "speed", 1.852),
    ("m/s", "speed", 3.6),
    ("stone", "mass", 6.35029),
):  # fmt: skip
    for _w in _words.split("|") if "|" in _words else _words.split():  # "|": multi-word units
        _UNITS[_w] = (_dim, _factor)
MORE_UNITS: dict[str, tuple[str, float]] = {}
for _words, _dim, _factor in (
    ("lítear lítir litra litru litrów litrov litraa litrat lítrar lítra литра литри літрів "
     "літри", "volume", 1.0),
    ("cu ft|cu. ft.|cubic feet|cubic foot|ft³|ft3", "volume", 28.3168),
):  # fmt: skip
    for _w in _words.split("|") if "|" in _words else _words.split():
        MORE_UNITS[_w] = (_dim, _factor)
"""Reading version 2 (tidy 37): litres as more languages write them, cubic feet."""


def _amount(units: dict[str, tuple[str, float]]) -> re.Pattern[str]:
    return re.compile(
        _NUM + r"\s?(" + "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
        + r")(?![^\W\d_])"
    )  # fmt: skip


_TEMP = re.compile(
    r"(-?\d+(?:[.,]\d+)?)\s?(?:°|º|degrees?|grad|grados|degrés|gradi|graus)?\s?"
    r"(℃|℉|°c|°f|ºc|ºf|celsius|fahrenheit|(?<=°)c|(?<=°)f|(?<=º)c|(?<=º)f)"
    r"(?![^\W\d_])"
)
_CLOCK = re.compile(
    r"(?<![\d.,:/])(\d{1,2})(?:[:.h](\d{2}))?\s?(a\.?m\.?|p\.?m\.?|uhr|h\b|時|点|點)?"
    r"(?![\d/])"
)
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_NUMERIC_DATE = re.compile(r"(?<![\d.])(\d{1,2})[./](\d{1,2})(?:[./](\d{2,4}))?(?![\d])")
_HAN_DATE = re.compile(r"(\d{1,2})月(\d{1,2})[日号號]")
_MONTHS = {
    m: k + 1
    for k, names in enumerate(
        (
            "january jan januar janvier enero gennaio janeiro januari",
            "february feb februar février febrero febbraio fevereiro februari",
            "march mar märz mars marzo março maart",
            "april apr avril abril aprile",
            "may mai mayo maggio maio mei",
            "june jun juni juin junio giugno junho",
            "july jul juli juillet julio luglio julho",
            "august aug août agosto augustus",
            "september sep sept septembre septiembre settembre setembro",
            "october oct oktober octobre octubre ottobre outubro",
            "november nov novembre noviembre novembro",
            "december dec dezember décembre diciembre dicembre dezembro",
        )
    )
    for m in names.split()
}
# Tidy 37: the months of more languages, as a date writes them after its day (case forms
# where the language inflects: Polish "12 maja", Ukrainian "21 листопада", Finnish "14.
# syyskuuta") or before it (Hungarian "május 12"); written from each language's calendar.
# Left out: a word that is one month in one language and another in a second (Croatian
# "listopad", October, is November in Polish and Czech: read as November), and names of
# more than one word (Irish "Meán Fómhair").
MORE_MONTHS: dict[str, int] = {}
"""Reading version 2 (tidy 37): the months of 25 more languages (see above)."""
for _k, _names in enumerate(
    (
        "styczeń stycznia leden ledna január januára siječanj siječnja januar januarja "
        "январь января січень січня јануар ianuarie januari tammikuu tammikuuta január "
        "ocak ιανουάριος ιανουαρίου gener janúar sausio sausis janvāris janvārī jaanuar "
        "janar urtarrila eanáir ionawr",
        "luty lutego únor února február februára veljača veljače februar februarja "
        "февраль февраля лютий лютого фебруар februarie helmikuu helmikuuta február "
        "şubat subat φεβρουάριος φεβρουαρίου febrer febrúar vasario vasaris februāris "
        "februārī veebruar shkurt otsaila feabhra chwefror",
        "marzec marca březen března marec marca ožujak ožujka mart марта март березень "
        "березня март martie maret maaliskuu maaliskuuta március μάρτιος μαρτίου "
        "març marts kovo kovas marts martā märts mars martxoa márta mawrth",
        "kwiecień kwietnia duben dubna apríl apríla travanj travnja aprila апрель апреля "
        "квітень квітня април aprilie huhtikuu huhtikuuta április nisan απρίλιος απριλίου "
        "abril apríl balandžio balandis aprīlis aprīlī aprill prill apirila aibreán ebrill",
        "maj maja květen května máj mája svibanj svibnja мая май травень травня мај mei "
        "toukokuu toukokuuta május mayıs mayis μάιος μαΐου μαΐου maig maí gegužės gegužė "
        "maijs maijā maiatza bealtaine",
        "czerwiec czerwca červen června jún júna lipanj lipnja junij junija июнь июня "
        "червень червня јун iunie juni kesäkuu kesäkuuta június haziran ιούνιος ιουνίου "
        "juny júní birželio birželis jūnijs jūnijā juuni qershor ekaina meitheamh mehefin",
        "lipiec lipca červenec července júl júla srpanj srpnja julij julija июль июля "
        "липень липня јул iulie julai heinäkuu heinäkuuta július temmuz ιούλιος ιουλίου "
        "juliol júlí liepos liepa jūlijs jūlijā juuli korrik uztaila iúil gorffennaf",
        "sierpień sierpnia srpen srpna augusta kolovoz kolovoza avgust avgusta август "
        "августа серпень серпня augusti agustus ogos elokuu elokuuta augusztus ağustos "
        "agustos αύγουστος αυγούστου agost ágúst rugpjūčio rugpjūtis augusts augustā "
        "gusht abuztua lúnasa awst",
        "wrzesień września září september septembra rujan rujna septembar сентябрь "
        "сентября вересень вересня септембар septembrie syyskuu syyskuuta szeptember "
        "eylül eylul σεπτέμβριος σεπτεμβρίου setembre rugsėjo rugsėjis septembris "
        "septembrī shtator iraila medi",
        "październik października říjen října október októbra oktobra oktobar октябрь "
        "октября жовтень жовтня октобар octombrie lokakuu lokakuuta ekim οκτώβριος "
        "οκτωβρίου octubre október spalio spalis oktobris oktobrī oktoober tetor urria "
        "hydref",
        "listopad listopada listopadu novembra novembar ноябрь ноября листопад листопада "
        "новембар noiembrie marraskuu marraskuuta kasım kasim νοέμβριος νοεμβρίου "
        "nóvember lapkričio lapkritis novembris novembrī nëntor azaroa samhain tachwedd "
        "studeni studenoga studenog",
        "grudzień grudnia prosinec prosince december decembra prosinac prosinca decembar "
        "декабрь декабря грудень грудня децембар decembrie desember desember joulukuu "
        "joulukuuta aralık aralik δεκέμβριος δεκεμβρίου desembre disember gruodžio "
        "gruodis decembris decembrī detsember dhjetor abendua nollaig rhagfyr",
    )
):
    for _m in _names.split():
        if _m.casefold() not in _MONTHS:  # as the text is: "ιανουάριοσ"
            MORE_MONTHS.setdefault(_m.casefold(), _k + 1)


def _dates(months: dict[str, int], of: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A day before its month's name ("12 maja"; ``of``: the words between, "de"), and
    the month's name before its day ("May 12")."""
    names = "|".join(sorted(months, key=len, reverse=True))
    return (
        re.compile(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th|er|\.|º)?\s(?:{of})?({names})\b"),
        re.compile(rf"\b({names})\.?\s(\d{{1,2}})(?:st|nd|rd|th)?(?!\d)"),
    )


_AM = ("上午", "早上", "早晨", "凌晨", "午前", "오전", "sáng")
_PM = ("下午", "晚上", "傍晚", "午後", "오후", "chiều", "tối")
_EAST_CLOCK = re.compile(
    rf"(?:({'|'.join(_AM + _PM)})\s?)?(?<![\d.,:])(\d{{1,2}})\s?(?:点|點|時(?!間)|시(?!간))"
    r"(?:\s?(\d{1,2})\s?(?:分|분)|(半|반))?"
    rf"|(?<![\d.,:])(\d{{1,2}})\s?giờ(?:\s?(\d{{1,2}})(?:\s?phút)?)?(?:\s({'|'.join(_AM + _PM)}))?"
)
"""Reading version 2 (tidy 37): a time of day as Chinese, Japanese, Korean and
Vietnamese write it, with the part of the day before the hour or after it ("上午9点",
"午後5時半", "오후 5시 30분", "7 giờ 30 sáng"): read as a clock with am or pm
(:func:`_east`). Not "5時間", "5시간" (hours); "giờ" only with minutes or a part of
the day ("3 giờ" is as often three hours)."""


def _east(m: re.Match[str]) -> str:
    if m.group(2) is not None:
        part, hour, minute = m.group(1), m.group(2), m.group(3) or ("30" if m.group(4) else "00")
    else:
        part, hour, minute = m.group(7), m.group(5), m.group(6)
        if not part and not minute:
            return m.group(0)
        minute = minute or "00"
    mark = " am" if part in _AM else " pm" if part in _PM else ""
    return f" {int(hour)}:{int(minute):02d}{mark} "


_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:[,.\u202f\u00a0 ]\d{3})+")


def _number(text: str) -> float:
    if _THOUSANDS.fullmatch(text):
        return float(re.sub(r"\D", "", text))
    return float(text.replace(",", "."))


_AREA: dict[str, float] = {}
for _words, _factor in (
    ("m²|m2|㎡|qm|sqm|square metre|square metres|square meter|square meters|quadratmeter|"
     "quadratmetern|metros cuadrados|mètres carrés|metri quadrati|metros quadrados|"
     "кв. метра|кв. метров|кв. м|平方米|平米", 1.0),
    ("ha|hektar|hectare|hectares|hectárea|hectáreas|ettari|hekta|хектара|гектар", 10_000.0),
    ("декара|декар|decare|decares", 1000.0),
    ("acre|acres|ekari", 4046.86),
    ("sq ft|square feet|square foot|pies cuadrados|pieds carrés", 0.092903),
):  # fmt: skip
    _AREA |= dict.fromkeys(_words.split("|"), _factor)
_AREA_AMOUNT = re.compile(
    _NUM + r"\s?(" + "|".join(re.escape(u) for u in sorted(_AREA, key=len, reverse=True))
    + r")(?![^\W\d_])"
)  # fmt: skip
_CURRENCIES = {
    c: code
    for code, names in (
        ("EUR", "€ eur euro euros evro евро யூரோ ዩሮ 유로 ユーロ 欧元"),
        ("USD", "$ usd us$ dollar dollars dólar dólares dollari доллар долларов 달러 ドル 美元"),
        ("BRL", "r$ brl real reais"),
        ("GBP", "£ gbp"),
        ("CHF", "chf fr. franken|swiss francs|francs suisses|franchi svizzeri"),
        ("SEK", "sek kr kronor kronur kroner kronen"),
        ("JPY", "¥ jpy yen 円"),
        ("CNY", "cny rmb yuan 元"),
        ("PLN", "pln zł złotych złote złoty"),
        ("INR", "₹ inr rupees rupee"),
    )
    for c in (names.split("|")[0].split() + names.split("|")[1:])
}
_CURRENCY = "|".join(re.escape(c) for c in sorted(_CURRENCIES, key=len, reverse=True))
_MONEY = re.compile(rf"(?<![^\W\d_])({_CURRENCY})\s?{_NUM}|{_NUM}\s?({_CURRENCY})(?![^\W\d_])")
_PACE_UNITS = {"km": 1.0, "kilometre": 1.0, "kilometer": 1.0, "kilomètre": 1.0,
               "kilómetro": 1.0, "chilometro": 1.0, "mi": 1.60934, "mile": 1.60934,
               "milla": 1.60934}  # fmt: skip
_PACE = re.compile(
    r"(?<![\d:])(\d{1,2})(?::(\d{2})|\s?min\s?(\d{2})?)\s?(?:min\s?)?"
    r"(?:/|per|a|au|al|por|pro|je|par)\s?(?:le\s|el\s)?("
    + "|".join(sorted(_PACE_UNITS, key=len, reverse=True)) + r")(?![^\W\d_])"
)  # fmt: skip
"""A running pace: minutes and seconds per kilometre or mile ("6:00 per km", "8:27/mi",
"4 min 40 au kilomètre"), in seconds per kilometre."""
_DURATION_UNITS: dict[str, float] = {}
for _words, _minutes in (
    ("min mins minute minutes minuten minuto minutos minuti minuut минут минуты", 1.0),
    ("hour hours hr hrs std stunde stunden hora horas heure heures ore uur часа часов", 60.0),
    ("day days tag tage tagen día días dia dias jour jours giorno giorni dag dagen дней дня "
     "dni", 1440.0),
    ("week weeks woche wochen semana semanas semaine semaines settimana settimane weken "
     "недели недель tygodnie tygodni", 10_080.0),
    ("fortnight fortnights", 20_160.0),
    ("month months monat monate monaten mes meses mois mese mesi maand maanden месяца "
     "месяцев miesiące miesięcy", 43_830.0),
):  # fmt: skip
    _DURATION_UNITS |= dict.fromkeys(_words.split(), _minutes)
_DURATION = re.compile(
    r"(?<![\d.,:/])(\d+(?:[.,]\d+)?)\s?("
    + "|".join(sorted(_DURATION_UNITS, key=len, reverse=True)) + r")(?![^\W\d_])"
    r"|(?<![\d.,:/])(\d+[.,]\d+)\s?h(?![^\W\d_])"
)  # fmt: skip
"""A duration (tidy 24): a number and a unit of time ("90 Tage", "3 months", "1.5 h": a
bare "h" only after a decimal, as "16h" is a time of day), in minutes (a month is 30.44
days). Hours after a word that makes them a time of day ("à 10 heures",
:data:`.numerals.AT`) are not one."""


def _half_of(units: dict[str, tuple[str, float]]) -> re.Pattern[str]:
    """Half a unit ("half a mile", "half an hour"): 0.5 of it."""
    return re.compile(
        r"\b(?:a\s)?half\san?\s(?=(?:"
        + "|".join(re.escape(u) for u in sorted({*units, *_DURATION_UNITS}, key=len, reverse=True))
        + r")(?![^\W\d_]))"
    )  # fmt: skip


class _Table(NamedTuple):
    """What one reading version (:mod:`.readings`) reads as amounts and dates."""

    units: dict[str, tuple[str, float]]
    amount: re.Pattern[str]
    half_of: re.Pattern[str]
    months: dict[str, int]
    day_month: re.Pattern[str]
    month_day: re.Pattern[str]
    east_clock: bool


def _table(units: dict[str, tuple[str, float]], months: dict[str, int], of: str,
           east_clock: bool) -> _Table:  # fmt: skip
    return _Table(units, _amount(units), _half_of(units), months, *_dates(months, of), east_clock)


_TABLES = {
    1: _table(_UNITS, _MONTHS, r"de\s", False),
    2: _table(_UNITS | MORE_UNITS, _MONTHS | MORE_MONTHS, r"de\s|d'|d’", True),
}
"""Each reading version's units, months and clocks: version 2 adds tidy 37's litres
and cubic feet, the months of 25 more languages ("12 d'agost" too) and East Asian and
Vietnamese clock times (:data:`_EAST_CLOCK`)."""


_LATER = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(w)
        for w in sorted(
            {*MORE_WORDS, *MORE_MONTHS, *(u for u in MORE_UNITS if u.isalpha()), "și", "şi"},
            key=len,
            reverse=True,
        )
    )
    + r")\b|cu\.?\s?ft|ft[³3]|cubic\s+f|[点點時시]|giờ|\d\S{0,2}\sd['’]"
)
"""Where a reading of version 2 may read what version 1 does not: one of its number
words, months or units as a word (some version 1 reads too, the same: a superset),
Romanian "și" joining two numbers, cubic feet, the characters of an East Asian clock
or a Chinese count, Vietnamese "giờ", a day before "d'" (Catalan "12 d'agost")."""


@lru_cache(maxsize=8192)
def read_alike(text: str) -> bool:
    """Whether every reading version reads ``text`` alike (:mod:`.readings`: a version
    adds readings): none of version 2's (:data:`_LATER`) can match it, in its case
    folded form or in tidy's (NFKC, case folded, "’" as "'", :func:`.lexicon.fold`)."""
    folded = text.casefold()
    if _LATER.search(folded):
        return False
    tidy = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    return tidy == folded or not _LATER.search(tidy)


_AND_A_HALF = re.compile(r"(?<![\d.,])(\d+)\s(?:and a half|und ein halb|y medio|e mezzo|e meio)\b")
"""A number and a half ("four and a half kilos"): its decimal."""
_FORTNIGHT = re.compile(r"\b(?:a|one)\s(?=fortnight\b)")


class Reading(NamedTuple):
    """What :func:`reading` reads in one text."""

    values: dict[str, frozenset[float]]
    """:func:`quantities`."""
    spans: tuple[str, ...]
    """Where it read them, as written (case folded, numbers in words as digits)."""
    units: dict[str, frozenset[str]]
    """The units it read in each dimension (a conversion factor, a currency code, a
    temperature scale; a time of day or date has none)."""
    rest: tuple[str, ...]
    """The numbers the text states besides those (sorted): "Parcel *4*", "*2022* Reserva"."""


def reading(text: str, version: int | None = None) -> Reading:
    """What :func:`quantities` reads in ``text``, with the spans it read them from, the
    units it read in each dimension and the numbers ``text`` states besides them, as
    reading ``version`` reads them (default: the one in force,
    :func:`.readings.version`)."""
    v = version or reading_version()
    if v != LATEST and read_alike(text):
        v = LATEST  # read once: no later reading can tell the versions apart here
    return _reading(text, v)


@lru_cache(maxsize=4096)
def _reading(text: str, version: int) -> Reading:
    table = _TABLES[version]
    t = digits(text.casefold(), version)
    if table.east_clock:
        t = _EAST_CLOCK.sub(_east, t)
    t = _AND_A_HALF.sub(r"\1.5", table.half_of.sub("0.5 ", _FORTNIGHT.sub("1 ", t)))
    out: dict[str, set[float]] = {}
    spans: list[str] = []
    units: dict[str, set[str]] = {}

    def took(m: re.Match[str], dim: str = "", unit: str = "") -> None:
        nonlocal t
        spans.append(m.group(0).strip())
        if dim:
            units.setdefault(dim, set()).add(unit)
        t = t[: m.start()] + " " * (m.end() - m.start()) + t[m.end() :]

    for m in list(_PACE.finditer(t)):
        per = _PACE_UNITS[m.group(4)]
        seconds = int(m.group(1)) * 60 + int(m.group(2) or m.group(3) or 0)
        out.setdefault("pace", set()).add(round(seconds / per, 1))
        took(m, "pace", str(per))
    for m in list(_MONEY.finditer(t)):
        if m.group(1):
            code, value = _CURRENCIES[m.group(1)], m.group(2)
        else:
            code, value = _CURRENCIES[m.group(4)], m.group(3)
        out.setdefault(f"money:{code}", set()).add(_number(value))
        took(m, f"money:{code}", code)
    for m in list(_TEMP.finditer(t)):
        v = _number(m.group(1))
        unit = m.group(2)
        c = (v - 32) * 5 / 9 if unit in ("℉", "fahrenheit") or unit.endswith("f") else v
        out.setdefault("temperature", set()).add(round(c, 0))
        took(m, "temperature", "f" if c != v else "c")
    for m in list(_AREA_AMOUNT.finditer(t)):
        out.setdefault("area", set()).add(_number(m.group(1)) * _AREA[m.group(2)])
        took(m, "area", str(_AREA[m.group(2)]))
    for m in list(_DURATION.finditer(t)):
        number, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), "hour")
        minutes = _DURATION_UNITS[unit]
        if minutes == 60.0 and AT.search(t[: m.start()]):
            continue  # "à 10 heures": a time of day
        out.setdefault("duration", set()).add(_number(number) * minutes)
        took(m, "duration", str(minutes))
    for m in list(table.amount.finditer(t)):
        dim, factor = table.units[m.group(2)]
        out.setdefault(dim, set()).add(_number(m.group(1)) * factor)
        took(m, dim, str(factor))
    for m in list(_CLOCK.finditer(t)):
        hour, minute, mark = int(m.group(1)), m.group(2), (m.group(3) or "").replace(".", "")
        if (minute is None and not mark) or hour > 24 or int(minute or 0) > 59:
            continue
        if minute is not None and m.group(0)[len(m.group(1))] == "." and not mark:
            continue  # "1.5" is a number, not half past one
        base = (hour % 12) * 60 + int(minute or 0)
        if mark.startswith("p"):
            times = {base + 720}
        elif mark.startswith("a"):
            times = {base}
        else:
            times = {hour * 60 + int(minute or 0)}
            if 1 <= hour <= 12 and not m.group(1).startswith("0"):  # "07:30": a 24 h clock
                times.add((hour % 12) * 60 + int(minute or 0) + 720)
        out.setdefault("clock", set()).update(float(x % 1440) for x in times)
        took(m)
    dates: set[float] = set()
    years: list[str] = []  # a year said inside a date is a number the text states
    for m in list(_ISO.finditer(t)):
        dates.add(int(m.group(2)) * 100 + int(m.group(3)))
        years.append(m.group(1))
        took(m)
    for m in list(_NUMERIC_DATE.finditer(t)):
        a, b = int(m.group(1)), int(m.group(2))
        if m.group(3) is None and "." in m.group(0):
            continue  # "3.5" is a number
        found = [(mo, d) for mo, d in ((b, a), (a, b)) if 1 <= mo <= 12 and 1 <= d <= 31]
        dates.update(mo * 100 + d for mo, d in found)
        if found:
            if m.group(3) is not None:
                years.append(str(int(m.group(3)) + (2000 if len(m.group(3)) == 2 else 0)))
            took(m)
    for m in list(_HAN_DATE.finditer(t)):
        dates.add(int(m.group(1)) * 100 + int(m.group(2)))
        took(m)
    for m in list(table.day_month.finditer(t)):
        dates.add(table.months[m.group(2)] * 100 + int(m.group(1)))
        took(m)
    for m in list(table.month_day.finditer(t)):
        dates.add(table.months[m.group(1)] * 100 + int(m.group(2)))
        took(m)
    if dates:
        out["date"] = dates
    rest = sorted(_number(n) for n in [*re.findall(r"\d+(?:[.,]\d+)?", t), *years])
    return Reading(
        {k: frozenset(v) for k, v in out.items()},
        tuple(spans),
        {k: frozenset(v) for k, v in units.items()},
        tuple(f"{n:g}" for n in rest),
    )


def quantities(text: str, version: int | None = None) -> dict[str, frozenset[float]]:
    """The amounts, times of day and dates ``text`` states, by dimension, each in one
    unit (see the module docstring); a time of day said without am/pm on a 12-hour
    clock is both readings. Cached by text: a store's entries are read once per pair
    (the dict returned is shared; do not change it)."""
    return reading(text, version).values


def close(xs: frozenset[float], ys: frozenset[float]) -> bool:
    """Whether one value of ``xs`` is one of ``ys`` within 4 % (a conversion is rounded:
    "5 km" and "three miles" are 3.4 % apart)."""
    return any(abs(x - y) <= 0.04 * max(abs(x), abs(y), 1e-9) for x in xs for y in ys)


_TO_LATIN = str.maketrans(
    {
        **dict(zip("абвгдезийклмнопрстуфхцы", "abvgdezijklmnoprstufhcy", strict=True)),
        "ё": "e", "ж": "zh", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ь": "",
        "э": "e", "ю": "ju", "я": "ja", "є": "je", "і": "i", "ї": "ji", "ґ": "g",
        "ђ": "dj", "ј": "j", "љ": "lj", "њ": "nj", "ћ": "c", "џ": "dz",
        **dict(zip("αβγδεζηικλμνξοπρστυφχω", "avgdeziiklmnxoprstyfho", strict=True)),
        "θ": "th", "ψ": "ps", "ς": "s",
    }
)  # fmt: skip


@lru_cache(maxsize=8192)
def latin(word: str) -> str:
    """``word`` (case folded) in Latin letters without accents (see the module
    docstring); a word of another script comes back as it was."""
    plain = "".join(
        ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch)
    )
    return unicodedata.normalize("NFC", plain).translate(_TO_LATIN)


def same_name(x: str, y: str) -> bool:
    """Whether two words (case folded, in Latin letters) read as one name: the same, or
    the same first three letters and most of the rest ("mjunhen" / "munchen" do not;
    "berlin" / "berlin", "moskva" / "moskau" do)."""
    if len(x) < 3 or len(y) < 3:
        return False
    if x == y:
        return True
    if x[:3] != y[:3]:
        return False
    from difflib import SequenceMatcher

    return SequenceMatcher(None, x, y).ratio() >= 0.7


FUNCTION_WORDS = {
    lang: frozenset(words.split())
    for lang, words in (
        ("en", "the is are an of to and on with at for has have was from by it this user"),
        (
            "de",
            "der die das des ist sind und mit am im um auf ein eine nicht von zu für bei nutzer",
        ),
        (
            "fr",
            "le la les est sont et du des une un à au aux pour avec dans sur pas ne utilisateur",
        ),
        ("es", "el los las es son y del con un una en por para al lo se no usuario"),
        ("pt", "o os as é são e do da dos das com um uma em no na por para não usuário"),
        ("it", "il lo gli è sono del della con un una per nel nella non di da utente"),
        ("nl", "het zijn een van met op voor niet bij naar aan gebruiker"),
    )
}
"""Function words of the seven Latin-letter languages :func:`language` reads (also the
first rows of :data:`.across._FUNCTION`, which reads more)."""


@lru_cache(maxsize=4096)
def language(text: str) -> str:
    """The language ``text`` reads as by its function words (see the module docstring);
    empty when none leads."""
    words = re.findall(r"[^\W\d_]+", text.casefold())
    scores = sorted(((sum(w in fw for w in words), lang) for lang, fw in FUNCTION_WORDS.items()),
                    reverse=True)  # fmt: skip
    if not scores or scores[0][0] == 0 or scores[0][0] == scores[1][0]:
        return ""
    return scores[0][1]
