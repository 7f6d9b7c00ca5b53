"""Phrases tidy reads for what they say about time and change, in en, de, es, fr and zh
(negations and update markers also in pt, it, nl and ja): the words that negate an entry
or mark it as an update, the names of months and weekdays (values, read as slots), a
phrase of since when a fact
holds ("since October", "seit 2024", "自10月起": when, not what), and the words an
update uses to name the value it replaced ("moved *from Berlin* to Munich", "Linear now,
*not Jira*", "*instead of* Jira").
"""

from __future__ import annotations

import re

from .negation import NEGATION

__all__ = [
    "ADDITIVE",
    "CALENDAR",
    "CHANGE_VERB",
    "FAVOURITE",
    "HABITUAL",
    "MONTH_NAMES",
    "NEGATION",
    "OLD_VALUE",
    "REPLACEMENT",
    "SINCE",
    "UPDATE",
    "WHEN",
    "calendar_value",
    "day_lists",
    "day_month",
    "negation_in",
    "negation_said",
]


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_MONTHS = _listed(
    "january february march april may june july august september october november december "
    "januar februar märz april mai juni juli august september oktober november dezember "
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre "
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre "
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro "
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre januari februari maart april mei juni juli augustus september oktober november "
    "december"
)
_WEEKDAYS = _listed(
    "monday tuesday wednesday thursday friday saturday sunday "
    "montag dienstag mittwoch donnerstag freitag samstag sonntag "
    "lunes martes miércoles jueves viernes sábado domingo "
    "lundi mardi mercredi jeudi vendredi samedi dimanche "
    "segunda terça quarta quinta sexta sábado domingo "
    "lunedì martedì mercoledì giovedì venerdì sabato domenica "
    "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag "
    "pazartesi salı çarşamba perşembe cuma cumartesi pazar "
    "poniedziałek wtorek środa czwartek piątek sobota niedziela "
    "понедельник вторник среда четверг пятница суббота воскресенье"
)
# Polish and Russian months, and the forms a date or a "since" puts them in (genitive:
# "od *października*", "с *января*"; accusative days: "w *środę*", "в *пятницу*"), each
# read as its name, so "w środę" and "środa" are one value.
_SLAVIC_MONTHS = _listed(
    "styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik "
    "listopad grudzień январь февраль март апрель май июнь июль август сентябрь октябрь "
    "ноябрь декабрь"
)
_SLAVIC_FORMS = dict(
    zip(_listed("stycznia lutego marca kwietnia maja czerwca lipca sierpnia września "
                "października listopada grudnia января февраля марта апреля мая июня июля "
                "августа сентября октября ноября декабря środę sobotę niedzielę среду "
                "пятницу субботу"),
        _SLAVIC_MONTHS + _listed("środa sobota niedziela среда пятница суббота"),
        strict=True)
)  # fmt: skip
# Abbreviations with one reading ("Tue", "Sept"; not "mon", French for "my", nor "jan",
# "mar", "sat", "sun": names and words).
_FORMS = dict(
    zip(_listed("tue tues wed thu thur thurs fri feb aug sep sept oct nov dec"),
        _listed("tuesday tuesday wednesday thursday thursday thursday friday february "
                "august september september october november december"),
        strict=True)
)  # fmt: skip
_FORMS |= _SLAVIC_FORMS
HABITUAL = {day + "s": day for day in _WEEKDAYS if not day.endswith("s")}
MONTH_NAMES = frozenset(_MONTHS + _SLAVIC_MONTHS)
"""The months' names as :func:`calendar_value` gives them: a calendar value not among them
is a weekday."""
"""A weekday said as a habit ("Mondays", "montags", "maandags", "às segundas"): its day
is a value, and also a content word, a habit's day being its key as often ("Sport
montags: Laufen" / "Sport mittwochs: Laufen" are two facts, each with a word of its
own)."""
CALENDAR = frozenset(_MONTHS + _WEEKDAYS + _SLAVIC_MONTHS) | frozenset(_FORMS) | frozenset(HABITUAL)
"""Month and weekday names (folded), in en, de, es, fr, pt, it and nl (weekdays also in
tr, pl and ru, months in pl and ru, with their genitive forms), their
unambiguous abbreviations and the plurals of weekdays: a value, not a content word
(but :data:`HABITUAL`)."""


_GERMAN_MONTHS = _MONTHS[12:24]
DAY_MONTH = re.compile(
    r"\b(am|vom|bis|ab|zum|seit|bis zum|den|und|–|-)\s+"
    r"(0?[1-9]|[12]\d|3[01])\.(0?[1-9]|1[0-2])\.(?!\d)"
)
"""A German day and month in digits after a word of dates ("am 3.8.", "vom 3.8. bis
17.8."): the date, not the version 3.8 ("Python 3.8." stays one)."""


def day_month(folded: str) -> str:
    """``folded`` text with each German day and month in digits written with the
    month's name ("am 3.8.": "am 3. august"), as the other wording of that date says it."""
    return DAY_MONTH.sub(
        lambda m: f"{m.group(1)} {int(m.group(2))}. {_GERMAN_MONTHS[int(m.group(3)) - 1]} ", folded
    )


_ABBREVIATED = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
DAY_LIST = re.compile(
    rf"\b{_ABBREVIATED}(?:\s*(?:,|and|&|/|-|–|to|bis|und|y|et)\s*{_ABBREVIATED})+\b"
)
"""A list or range of abbreviated weekdays ("Mon and Wed", "Sat/Sun", "Mon–Fri"): there
"mon", "sat" and "sun" are days too (alone they are words: "mon" is French for my)."""
_DAY_WORD = {"mon": "monday", "sat": "saturday", "sun": "sunday"}


def day_lists(folded: str) -> str:
    """``folded`` text with "mon", "sat" and "sun" in a list of weekdays (:data:`DAY_LIST`)
    written out."""
    return DAY_LIST.sub(
        lambda m: re.sub(r"\b(?:mon|sat|sun)\b", lambda d: _DAY_WORD[d.group(0)], m.group(0)),
        folded,
    )


def calendar_value(word: str) -> str:
    """The name a month or weekday name in ``CALENDAR`` stands for: "thu", "thursdays"
    and "thursday" are one value."""
    return _FORMS.get(word) or HABITUAL.get(word, word)


_POINT = (  # a point in time: "october", "march 3, 2025", "last week", "2024", "01.10.2025"
    r"(?:(?:early|mid|late|the|end of|beginning of|last|this|next|past|anfang|mitte|ende|"
    r"letzte[nmr]?|diese[nmr]?|el|la|le|principios de|mediados de|finales de|fin|début|"
    r"mi)\s+)*"
    r"(?:\d{1,2}(?:st|nd|rd|th|\.)?\s+(?:of\s+|de\s+)?)?"
    rf"(?:{'|'.join(sorted(CALENDAR, key=len, reverse=True))}|week|month|year|quarter|"
    r"woche|monat|jahr|semana|mes|año|semaine|mois|année|today|yesterday|heute|gestern|"
    r"hoy|ayer|hier|aujourd'hui|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?|"
    r"(?:19|20)\d{2})"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?(?:,?\s+(?:de\s+)?(?:19|20)\d{2})?"
)
_SINCE_SLAVIC = "|".join(sorted(list(_SLAVIC_FORMS)[:24], key=len, reverse=True))
"""The months' genitives ("od *maja*", "с *мая*"): the first 24 forms, longest first (the
longest 24 of all the forms left out the short months, "maja", "мая", "июня")."""
SINCE = re.compile(
    rf"\b(?:since|as of|starting|seit|ab|desde|a partir de|depuis|à partir d[e']|dès|sinds|"
    rf"vanaf|dal|dalla|da|a partire da)\s+{_POINT}"
    rf"\b|\bfrom\s+{_POINT}\s+on(?:wards?)?\b|\bvon\s+{_POINT}\s+an\b"
    # since the last event: "since the last check-up" (not "since parking is ...": a cause)
    r"|\bsince (?:the |their |his |her |my )?(?:last|previous|latest|most recent) [^\W\d_][\w-]*\b"
    # nl, pt, it: "sinds vorige maand", "desde o ano passado", "dal mese scorso"
    r"|\b(?:sinds|vanaf) (?:vorige|afgelopen|deze) (?:week|maand)\b|\b(?:sinds|vanaf) "
    r"(?:vorig|afgelopen|dit) jaar\b"
    r"|\bdesde (?:o|a) (?:semana|mês|ano) passad[oa]\b"
    r"|\b(?:dal|dalla|dall') ?(?:settimana|mese|anno) scors[oa]\b"
    # pl, ru: "od października", "od zeszłego roku", "с января", "с нового года"
    rf"|\b(?:od|с|со|начиная с) (?:{_SINCE_SLAVIC})\b"
    r"|\bod (?:zeszłego|ubiegłego|tego|nowego|przyszłego) (?:roku|miesiąca|tygodnia)\b"
    r"|\b(?:с|со|начиная с) (?:нового|прошлого|этого|следующего) (?:года|месяца)\b"
    r"|\b(?:с|со) (?:прошлой|этой|следующей) недели\b"
    r"|\b(?:od|с) (?:19|20)\d{2}(?: (?:roku|года|г))?\b"
    # tr: "geçen aydan beri", "ocaktan beri", "2023'ten itibaren"
    r"|\b(?:(?:geçen|bu|önceki) )?[^\W\d_]+(?:dan|den|tan|ten) (?:beri|itibaren)\b"
    r"|\b(?:19|20)\d{2}'?(?:dan|den|tan|ten) (?:beri|itibaren)\b"
    r"|[自从]\s*(?:\d{4}年)?(?:\d{1,2}月)?(?:\d{1,2}[日号])?\s*(?:起|开始)"
    r"|[自从](?:上周|上个月|今年|去年|本月|本周)(?:起|开始)|(?:上周|上个月|今年|去年)以来"
    # ja, ko: "先月から", "4月から", "지난달부터"
    r"|(?:先月|先週|今月|今年|去年|昨年|\d{1,2}月|\d{4}年)から"
    r"|(?:지난달|지난주|이번 달|올해|작년|\d{1,2}월)부터"
    # ar: "منذ الشهر الماضي" (since last month), "منذ 2023"
    r"|(?<![\u0600-\u06ff])منذ\s+[\u0600-\u06ff0-9]+(?:\s+ال[\u0600-\u06ff]+)?"
)
"""A phrase saying since when a fact holds ("since October", "as of 2025", "from March
on", "since the last check-up", "seit Oktober", "desde octubre", "depuis mars", "sinds
vorige maand", "od października", "с нового года", "geçen aydan beri", "自10月起",
"先月から", "지난달부터"): an entry that says it marks a new value, an update."""
WHEN = re.compile(
    rf"{SINCE.pattern}"
    # a recent time said alone: "moved to Fly.io *last month*", "seit *letzter Woche*"
    r"|\b(?:last|this|past) (?:week|month|year|quarter)\b|\b(?:yesterday|today|recently|lately)\b"
    r"|\b(?:letzte[nmr]?|vorige[nmr]?) (?:woche|monat|jahr)\b|\b(?:gestern|heute)\b"
    r"|\b(?:la semana|el mes|el año) pasad[oa]\b|\b(?:ayer|hoy)\b"
    r"|\b(?:la semaine|le mois|l'année) derni[eè]re?\b|\baujourd'hui\b"
    r"|上周|上个月|昨天|今天|最近"
)
"""A phrase of since when a fact holds (:data:`SINCE`), or a recent time said alone
("last month", "yesterday", "上个月"): when, not what."""

_OLD_TOKENS = r"([^\W\d_][\w+#.'-]*(?:\s+[^\W\d_][\w+#.'-]*){0,2}?)"
REPLACEMENT = (
    r"\b(?:replaced|swapped|trocou|substituiu|sustituyó|reemplazó|cambió|remplacé|remplacée|"
    r"sostituito|sostituita|cambiato|cambiata|verving)\s+(?:(?:the|its|their|o|a|os|as|el|la|"
    r"los|las|le|les|l'|il|lo|i|gli|de|het)\s+)?"
    rf"{_OLD_TOKENS}\s+(?:with|for|by|pelo|pela|pelos|pelas|por|par|con|col|door)\s"
)
"""A replacement, which names what it replaced first: "replaced Jira with Linear", "swapped
Jira for Linear", "trocou o Trello pelo Notion", "sustituyó Jira por", "a remplacé Jira
par". What it names may be the old value or the key ("replaced *the Nest thermostat*
with a tado one"), so it never says the pair is about two subjects."""
OLD_VALUE = re.compile(
    # a move names the old value and the new one: "moved from Berlin to Munich", "von
    # Jira auf Linear", "pasó de Jira a Linear", "passé de Jira à Linear"
    r"(?:\bfrom|\bvon|(?:cambió|cambiado|pasó|pasado|migró|movió|mudó|mudado|passé|passée|"
    r"migré|changé|déménagé|basculé)(?:\s+\w+)?\s+(?:de|desde|d'))"
    rf"\s*{_OLD_TOKENS}\s+(?:to|into|auf|zu|nach|a|à|au|hacia)\s"
    # a new value that negates the old one: "Linear now, not Jira", "instead of Jira"
    rf"|(?:[,;(–—]|\s-)\s*(?:but\s+)?(?:not|no longer|nicht mehr|nicht|ya no|no|pas)\s+"
    rf"{_OLD_TOKENS}\s*(?:[.,;:)!]|$)"
    r"|\b(?:instead of|rather than|in place of|no longer|statt|anstatt|anstelle von|"
    rf"en lugar de|en vez de|au lieu de|plutôt que)\s+{_OLD_TOKENS}(?=\s*(?:[.,;:)!]|$))"
    r"|从([\u4e00-\u9fff\w]{1,8}?)(?:改成|改为|换成|换到|迁移到|搬到|改到)|而不是([\u4e00-\u9fff\w]{1,8})"
    # pl, vi, de: "wymienił *ThinkPada T480* na" ("na" before a name reads "em", as the
    # Portuguese "no"/"na" does), "đổi *xe Vision* sang", "hat *den alten
    # Corsa* gegen einen Skoda eingetauscht"
    rf"|\bwymienił[ao]?\s+{_OLD_TOKENS}\s+(?:na|em)\s|\bđổi\s+{_OLD_TOKENS}\s+sang\s"
    rf"|\b(?:den|die|das)\s+(?:alten?\s+|bisherigen?\s+)?{_OLD_TOKENS}\s+gegen\s"
    r"(?=.*\b(?:ein|um)?getauscht\b)"
    rf"|{REPLACEMENT}"
)
"""Where an update names the value it replaces (the groups hold its words; a "from X
to Y" of English or German counts only beside a verb of change, :data:`CHANGE_VERB`)."""

CHANGE_VERB = re.compile(
    r"\b(?:mov(?:ed|es|ing)|switch(?:ed|es|ing)|migrat(?:ed|es|ing)|chang(?:ed|es|ing)|"
    r"upgraded|downgraded|relocated|transferred|went|umgestiegen|gewechselt|gezogen|"
    r"umgezogen|migriert|umgestellt|verschoben|verlegt|geändert|wechselt|zieht)\b"
)
"""A verb saying a value changed: "from Potsdam to Berlin" beside it is a move, beside
"commutes" a route."""

UPDATE = re.compile(
    r"\b(?:now|nowadays|currently|no longer|anymore|any more|switched|moved|migrated|"
    r"changed|upgraded|downgraded|updated|replaced|renamed|instead|as of|from now on|"
    # "Switch chat replies to French": the imperative, only with the "to" of its value
    r"switch(?:es|ing)?(?=(?:\s+[^\s.,;:!?]+){0,3}\s+(?:to|over to)\b)|"
    # an amount changed: "raised the rent to 1350", "cut from 30 to 14 days", with its particle
    r"(?:raised|lowered|increased|decreased|reduced|cut|bumped)"
    r"(?=(?:\s+[^\s.,;:!?]+){0,5}\s+(?:to|from|by)\b)|"
    r"erhöht|gesenkt|angehoben|subió|bajó|aumentó|redujo|augmenté|augmentée|baissé|baissée|"
    r"subiu|aumentou|baixou|reduziu|aumentato|aumentata|ridotto|ridotta|verhoogd|verlaagd|"
    r"ersetzt|reemplazó|remplacé|remplacée|swapped|sustituyó|substituiu|sostituito|sostituita|"
    r"vervangen|verving|"
    r"jetzt|nun|inzwischen|mittlerweile|gewechselt|umgestiegen|umgestellt|umgezogen|"
    r"verschoben|verlegt|geändert|migriert|gezogen|stattdessen|nicht mehr|ab sofort|"
    r"ahora|actualmente|ya no|cambió|cambiado|pasó|migró|movió|movieron|en lugar de|"
    r"a partir de ahora|"
    r"maintenant|désormais|actuellement|déplacé|déplacée|déménagé|passé|passée|migré|"
    r"au lieu de|"
    r"agora|atualmente|passou|mudou|trocou|mudado|trocado|"
    r"adesso|ora|ormai|attualmente|passato|passata|spostato|spostata|trasferito|"
    r"trasferita|cambiato|cambiata|"
    r"nu|tegenwoordig|inmiddels|overgestapt|verplaatst|verhuisd|gewijzigd|veranderd|"
    # ru, pl, tr: "now", "switched to", "moved to" (not "уже", "już": "already visited")
    r"теперь|сейчас|перешёл|перешел|перешла|переехал|переехала|сменил|сменила|"
    r"teraz|obecnie|przeszedł|przeszła|przeprowadził|przeprowadziła|zmienił|zmieniła|"
    r"artık|şimdi|geçti|taşındı|"
    # sv, uk, pl, de, vi, ar, hi: "now", "moved", "switched", "traded in"
    r"numera|flyttat|flyttade|bytt|bytte|gått över|"
    r"тепер|зараз|переїхав|переїхала|перейшов|перейшла|змінив|змінила|"
    r"wymienił|wymieniła|eingetauscht|getauscht|umgetauscht|"
    r"bây giờ|hiện nay|hiện giờ|đã đổi|đổi sang|chuyển sang|đã chuyển|"
    r"الآن|حاليا|حالياً|انتقل|انتقلت|"
    r"अब|शिफ्ट)\b"
    r"|现在|目前|如今|改用|改成|改为|改到|换成|换到|迁移|升级|不再|今は|変更|アップグレード"
    r"|涨到|涨至|降到|降至|提高到|提高至|增加到|减少到|调整为|调整到|调到"
    r"|乗り換え|買い替え|引っ越し|に変えた|に替えた"  # ja: "switched", "bought a new", "moved"
    r"|이제|요즘|지금은|바꿨|바뀌었|옮겼|올랐|내렸|이사했|이사하셨|이사 갔",  # ko
    re.IGNORECASE,
)
"""Markers of an update ("now", "switched to", "jetzt", "ahora", "agora", "adesso", "nu",
"现在", "改用"): the entry says a value changed."""

ADDITIVE = re.compile(
    r"\b(?:also|too|as well|additionally|auch|zusätzlich|ebenfalls|también|además|aussi|"
    r"également|anche|inoltre|também|ook|eveneens)\b|也|还"
)
"""Words that add a value beside the other rather than replace it ("now *also* speaks
Dutch", "spricht *auch* Niederländisch", "也"): no change of the value."""

FAVOURITE = re.compile(
    r"\b(?:favou?rite|fave|lieblings?\w*|favorit[oa]s?|préférée?s?|preferit[oa]|"
    r"favoriet\w*)\b|最喜欢|お気に入り|一番好き"
)
"""A key that holds one value at a time: "the user's *favourite* cuisine", "su color
*favorito*", "最喜欢的": another value for it replaces the first, marker or not."""


def negation_in(folded: str) -> re.Match[str] | None:
    """Where ``folded`` text is negated (None: it is not), update markers read first. In
    Portuguese text (:data:`PORTUGUESE`) "no" is "in the" ("mora *no* Porto"), never a
    negation ("não" is)."""
    text = UPDATE.sub(_keep_negation, folded)
    if PORTUGUESE.search(text):
        text = re.sub(r"\bno\b", "  ", text)
    return NEGATION.search(text)


PORTUGUESE = re.compile(r"\b(?:não|em|dos|das|uma|é|são|usuário|usuária|você)\b|ção\b|ões\b")
"""Words only Portuguese writes among the languages tidy reads (not "do", "da", "no":
English and Spanish words too)."""


def negation_said(folded: str, m: re.Match[str] | None) -> str:
    """The words that negate ``folded`` (``m``: the negation found once update markers
    were read), as written: "no longer" rather than the "not" it was read as."""
    if m is None:
        return ""
    if m.group(0) == "not" and "not" not in re.findall(r"[^\W_]+", folded):
        marker = next((u for u in UPDATE.findall(folded) if _keep_negation_word(u)), None)
        return marker or "not"
    return m.group(0)


def _keep_negation(m: re.Match[str]) -> str:
    """Update markers that are negations too ("no longer", "nicht mehr", "不再", "ya no")
    keep counting as negations; the others ("now", "现在") are removed first so that
    a character such as 不 inside them is not read as one."""
    return " not " if _keep_negation_word(m.group(0)) else " "


def _keep_negation_word(word: str) -> bool:
    return word.casefold() in ("no longer", "nicht mehr", "不再", "ya no", "anymore")
