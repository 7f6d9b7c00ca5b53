"""One fact said in two languages, read by its attribute (tidy 27): :func:`across`.

Tidy 23's :func:`.conversions.switched` joins a fact said in two languages where its
names and numbers carry it; where an attribute word carries it as well ("User is
allergic to penicillin" / "Kullanıcı penisiline alerjik", "The user's rent is 650
euros a month" / "De huur van de gebruiker is 650 euro per maand") it had nothing to
read. This module names **attribute kinds** in many languages (:data:`CONCEPTS`: where
one lives, works, was born; allergic to, takes, speaks; a birthday, a name one is called
by, a doctor, a vet, a contact person, rent, an insurer, a school), never values, and
reads a pair in two languages by principle, as one language is read:

* **two languages**: :func:`.languages.two_languages_strict` (two scripts, or English and one
  of the six others :func:`.quantities.language` tells), or English against one of the
  Latin-letter languages :data:`_FUNCTION` reads by their function words (Polish, Czech,
  Turkish, Finnish, Swedish, Indonesian, ...; two languages both other than English are
  not told apart, as before);
* **the same attribute**: the same non-empty set of :data:`CONCEPTS` on both sides (a
  sentence that also says where one works is another fact than one that says where one
  lives);
* **the same values**: the same numbers (digits, numbers in words read as digits), and
  every name one side writes with a capital is written on the other (letter for letter
  but an ending in one script, by transliteration across two: "Lolo" / "Lola" are two
  people); a title ("Dr", "Mme", "Pan") is no name, nor a German noun the other side does
  not write ("Gangplatz"; in capitals, "DEVK", it is one);
* **enough said twice**: a list attribute (allergic, takes, speaks, owns, flies, pays)
  holds several values, so two things both say besides it, one of them what the list
  holds (a name, a number, or a word both write alike: "permethrin" / "permetrina");
  one value at a time (where one lives, a doctor, rent) needs one;
* neither is negated, says it changed, or says it adds ("also").

Then the two are one fact (a merge). :func:`another_value` is the same reading for an
attribute of one value at a time said with **another value**: the same attribute, the
same subject (a name both write, or the user alone on both sides), no number differs,
and each side names one person or organisation the other does not ("Harbourline
contact is Odette Lund" / "Le contact chez Harbourline est Yann Peretti"): a
contradiction, the later written kept, as :mod:`.attributes` reads it in one language.
Only attributes whose values are names of people and organisations (a contact, a
doctor, a vet, an insurer, a school, what one is called): a place has a name in each
language ("Munich" / "München", "Germany" / "Allemagne"), so two places said in two
languages are never read as two values.

The vetoes (:mod:`.vetoes`, two people, a plan beside a fact) have run before, as for
every rule; both rules run where no other rule gave a verdict.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ...unicode_script import script
from .exonyms import places, unwritten, values
from .languages import ALSO, scripts_of, two_languages_strict
from .memo import by_text, searched
from .numerals import digits
from .quantities import FUNCTION_WORDS, latin, same_name
from .signals import GENERIC, Profile

__all__ = [
    "CONCEPTS",
    "across",
    "anchored",
    "another_value",
    "colours",
    "concepts",
    "english_and_another",
    "other_colour",
    "surely_two",
    "two_languages_loose",
]

_FUNCTION = {
    **FUNCTION_WORDS,
    **{
        lang: frozenset(words.split())
        for lang, words in (
            ("pl", "jest są się na od że nie dla przez z ze w we użytkownik użytkowniczka"),
            ("cs", "je jsou se na od že ne pro přes z ze v ve uživatel uživatelka"),
            ("sk", "je sú sa na od že nie pre cez z zo v vo používateľ používateľka"),
            ("hr", "je su se na od da ne za kroz iz korisnik korisnica"),
            ("sl", "je se na od da ne za skozi iz v uporabnik"),
            ("ro", "este sunt se pe la de și nu pentru cu din în utilizatorul utilizatoarea"),
            ("hu", "az egy és nem van vannak hogy felhasználó"),
            ("fi", "on ovat ja ei se että joka käyttäjä käyttäjän"),
            ("et", "on ja ei et kasutaja"),
            ("sv", "är och inte för med av på till den det en ett användaren"),
            ("da", "er og ikke for med af på til den det en et brugeren"),
            ("no", "er og ikke for med av på til den det en et brukeren"),
            ("tr", "ve bir bu için ile değil da de kullanıcı kullanıcının"),
            ("id", "di ke dari untuk dengan tidak adalah pengguna ini itu"),
            ("tl", "ang ng mga sa na si ay"),
            ("sw", "na ya wa kwa za cha la ni si mtumiaji"),
            ("vi", "và của là không có cho với người dùng"),
            ("cy", "yn y yr ac mae ei ar gyda defnyddiwr"),
            ("eu", "eta da dira ez"),
            ("ca", "el els les és són del amb un una per"),
            ("gl", "o os as é son e do da dos das cun unha en na por para non"),
            ("mt", "il ta huwa hija fuq ma mhux"),
            ("is", "er og ekki á í með fyrir til"),
            ("ga", "tá agus na ar le níl"),
            ("sq", "është dhe në të për nga nuk"),
            ("lt", "yra ir ne į su iš už"),
            ("lv", "ir un ne uz ar"),
        )
    },
}
"""Function words of Latin-letter languages, English among them (the seven
:func:`.quantities.language` reads, and more), without the words English also writes
("do", "no", "me", "so", "an", "a"): enough to say whether a short entry is English."""


@lru_cache(maxsize=4096)
def _leading(text: str) -> str:
    """``en`` when English function words of :data:`_FUNCTION` lead in ``text``,
    ``other`` when another language's do, empty when none leads (two languages other
    than English are not told apart)."""
    words = re.findall(r"[^\W\d_]+", text.casefold())
    english = sum(w in _FUNCTION["en"] for w in words)
    other = max(sum(w in fw for w in words) for lang, fw in _FUNCTION.items() if lang != "en")
    if english > other:
        return "en"
    return "other" if other > english else ""


def two_languages_loose(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` are written in two languages, read loosely (see the module
    docstring): :func:`.languages.two_languages_strict`, or a main script each that is
    not the same, or English against a Latin-letter language :data:`_FUNCTION` reads
    by its function words. Every pair the strict reading tells, this one tells too."""
    if two_languages_strict(a, b):
        return True
    return _keys_two(_key(a.text), _key(b.text))


@lru_cache(maxsize=1 << 16)
def _keys_two(ka: tuple[str, str], kb: tuple[str, str]) -> bool:
    """The rest of :func:`two_languages_loose`, of two texts' keys (kept per pair of keys)."""
    (da, la), (db, lb) = ka, kb
    # two main scripts: "Перед границей Руи ... DKV" / "Rui fills up at the DKV station"
    return bool(da and db and da != db) or bool(la and lb and la != lb and "en" in (la, lb))


@by_text
def _key(text: str) -> tuple[str, str]:
    """What :func:`two_languages_loose` reads of one text besides
    :func:`.languages.two_languages_strict`: its main script and the language its function
    words lead with. Kept per text, the answer per two keys (tidycost 2)."""
    return _script(text), _leading(text)


@lru_cache(maxsize=4096)
def _script(text: str) -> str:
    """The script most of ``text``'s letters are written in (Han, hiragana and katakana
    as one), when three quarters are; empty otherwise."""
    counts: dict[str, int] = {}
    for ch in text:
        if ch.isalpha():
            name = script(ch)
            name = "CJK" if name in ("HIRAGANA", "KATAKANA", "CJK") else name
            counts[name] = counts.get(name, 0) + 1
    total = sum(counts.values())
    best = max(counts, key=counts.__getitem__, default="")
    return best if best and counts[best] * 4 >= total * 3 else ""


@dataclass(frozen=True, slots=True)
class Concept:
    """An attribute kind: its name, whether it holds one value at a time, whether its
    values are names of people or organisations (:func:`another_value`), and its words."""

    name: str
    single: bool
    named: bool
    words: re.Pattern[str]


def _concept(name: str, single: bool, named: bool, latin_: str, other: str = "") -> Concept:
    # Latin and Cyrillic words by their start (an inflection follows); other scripts as
    # written, anywhere
    pattern = rf"(?<![^\W\d_])(?:{latin_})"
    if other:
        pattern += f"|{other}"
    return Concept(name, single, named, re.compile(pattern))


CONCEPTS = (
    _concept(
        "lives",
        True,
        False,
        r"lives? (?:in|at|with)|resides|wohnt|lebt in|vive(?:n)? (?:en|em|in|a|no|na)|"
        r"reside en|habite|vit (?:à|a|en|au)|mora(?:m)? (?:em|no|na)|abita|woont|mieszka|"
        r"живёт|живет|проживает|живе |мешкає|yaşıyor|oturuyor|bor (?:i|på)|asuu|bydlí|"
        r"býva|lakik|locuiește|tinggal|anaishi|sống ở|živi u|živi v",
        r"रहता|रहती|रहते|يعيش|تعيش|يسكن|تسكن|住在|に住|에 살|에 산",
    ),
    _concept(
        "works",
        True,
        False,
        r"works? (?:at|for|in|as|nights|days)|employed|arbeitet|trabaja|travaille|"
        r"trabalha|lavora|werkt|pracuje|работает|працює|çalışıyor|çalışır|arbetar|"
        r"jobbar|arbejder|jobber|työskentelee|dolgozik|lucrează|bekerja|anafanya kazi|"
        r"làm việc|radi u|radi kao|gweithio",
        r"काम कर|يعمل|تعمل|工作|で働|에서 일",
    ),
    _concept(
        "born",
        True,
        False,
        r"(?:was|were|is) born|\bbred in|geboren|gezüchtet|nació|nacida|nacido|née?\b|"
        r"élevée?s? en|nasceu|nata\b|nato\b|urodził|родил|народив|doğdu|född|født|"
        r"syntyi|narodil|született|născut|lahir|alizaliwa|sinh ra|rođen",
        r"जन्म|وُلد|ولد في|ولدت|出生|生まれ|태어",
    ),
    _concept(
        "birthday",
        True,
        False,
        r"birthday|geburtstag|cumpleaños|anniversaire|aniversário|compleanno|verjaardag|"
        r"urodziny|день рождения|doğum günü|födelsedag|fødselsdag|bursdag|"
        r"syntymäpäivä|narozeniny|születésnap|ziua de naștere|ulang tahun|sinh nhật|"
        r"rođendan",
        r"जन्मदिन|عيد ميلاد|生日|誕生日|생일",
    ),
    _concept(
        "called",
        True,
        True,
        r"is called|is named|named|heißt|se llama|s'appelle|chama-se|se chama|si chiama|"
        r"heet |nazywa się|зовут|звуть|adı |heter|hedder|nimi on|jmenuje|hívják|"
        r"se numește|bernama|anaitwa|tên là|zove se",
        r"नाम|اسمه|اسمها|اسمش|叫|名前|이름",
    ),
    _concept(
        "doctor",
        True,
        True,
        r"gp\b|doctor|physician|hausarzt|hausärztin|médico de (?:cabecera|família|familia)|"
        r"médecin|medico di base|huisarts|lekarz|lekár|lékař|врач|лікар|aile hekimi|"
        r"läkare|læge|lege |lääkäri|háziorvos|medic de familie|dokter|daktari|bác sĩ",
        r"डॉक्टर|طبيب|医生|主治医|かかりつけ医|주치의",
    ),
    _concept(
        "vet",
        True,
        True,
        r"vet\b|vets\b|veterinar|tierarzt|tierärztin|vétérinaire|dierenarts|weteryn|"
        r"ветеринар|veteriner|veterinär|dyrlæge|eläinlääkäri|veterinář|állatorvos|"
        r"daktari wa mifugo|bác sĩ thú y",
        r"पशु चिकित्सक|طبيب بيطري|兽医|獣医|수의사",
    ),
    _concept(
        "contact",
        True,
        True,
        r"contact|ansprechpartner|kontakt|contacto|contato|contatto|контакт|irtibat|"
        r"yhteyshenkilö|kapcsolattartó|kontak|liên hệ",
        r"संपर्क|جهة الاتصال|联系人|担当者|담당자",
    ),
    _concept(
        "insurance",
        True,
        True,
        r"insur|[a-zäöü]*versicherung|seguro|assurance|assicura|verzeker|ubezpiecz|"
        r"страхов|sigorta|försäkring|forsikring|vakuutus|pojišt|poistenie|biztosít|"
        r"asigurare|asuransi|bima|bảo hiểm|osiguranje",
        r"बीमा|تأمين|保险|保険|보험",
    ),
    _concept(
        "school",
        True,
        True,
        r"school|schule|escuela|colegio|école|escola|scuola|szkoł|школ|okul|skola|skole|"
        r"koulu|škol|iskol|școal|sekolah|shule|trường|[a-z]*primary\b",
        r"स्कूल|مدرسة|学校|학교",
    ),
    _concept(
        "rent",
        True,
        False,
        r"rent\b|miete|alquiler|loyer|aluguel|aluguer|affitto|huur\b|czynsz|аренд|"
        r"квартплат|оренд|kira\b|hyra|husleje|husleie|vuokra|nájem|nájom|bérleti|chirie|"
        r"sewa\b|kodi ya nyumba|tiền thuê|najamnina|stanarina",
        r"किराया|إيجار|房租|租金|家賃|월세",
    ),
    _concept(
        "allergic",
        False,
        False,
        r"allerg|alérg|alerg|alerj|uczulon|аллерг|алерг|mzio|dị ứng",
        r"एलर्जी|حساسية|过敏|アレルギー|알레르기",
    ),
    _concept(
        "takes",
        False,
        False,
        r"takes|is on \d|nimmt|toma |prend |prende |toma |neemt|przyjmuje|принимает|"
        r"приймає|alıyor|kullanıyor|tar |tager |ottaa|užívá|užíva|szed|ia |minum|"
        r"anatumia|anakunywa|uống|uzima",
        r"लेत|يتناول|تتناول|تأخذ|يأخذ|服用|飲んで|복용",
    ),
    _concept(
        "speaks",
        False,
        False,
        r"speaks?|spricht|habla|parle|fala |parla |spreekt|mówi|говорит|говорить|"
        r"розмовляє|konuşuyor|konuşur|talar|taler|puhuu|mluví|hovorí|beszél|vorbește|"
        r"berbicara|bicara|anaongea|anazungumza|nói",
        r"बोलत|يتحدث|تتحدث|说|話す|話せ|말하|말한",
    ),
    _concept(
        "owns",
        False,
        False,
        r"owns|besitzt|posee|possède|possui|possiede|bezit|posiada|владеет|володіє|"
        r"sahibi|äger|ejer|eier|omistaa|vlastní|birtokol|deține|memiliki|anamiliki|sở hữu",
        r"मालिक|يملك|تملك|拥有|所有して|소유",
    ),
    _concept(
        "flies",
        False,
        False,
        r"fl(?:ies|ew|ights?|ying) |fly to|fliegt|flug |vuela|vuelo|vole|vol\b|voa|voo\b|"
        r"vola|volo\b|"
        r"vliegt|vlucht|leci|lot\b|летит|перелёт|перелет|летить|uçuyor|uçuş|flyger|"
        r"flyver|flyr|lentää|lento|letí|let\b|repül|zboară|zbor|terbang|penerbangan|"
        r"anasafiri kwa ndege|bay đến|chuyến bay",
        r"उड़ान|يطير|تطير|رحلة|飞|飛|비행",
    ),
    _concept(
        "pays",
        False,
        False,
        r"pays?|paid|zahlt|bezahlt|paga|pagado|paie|payé|pago|betaalt|płaci|платит|"
        r"платить|платять|öder|ödüyor|betalar|betaler|maksaa|platí|fizet|plătește|"
        r"membayar|bayar|analipa|hulipwa|trả",
        r"भुगतान|يدفع|تدفع|付|支付|払|지불",
    ),
)
"""The attribute kinds, in the words each language says them with (see the module
docstring): kinds of fact, never their values."""


def concepts(text: str) -> frozenset[str]:
    """The :data:`CONCEPTS` ``text`` says (case folded, NFKC)."""
    folded = unicodedata.normalize("NFKC", text).casefold() + " "
    return frozenset(c.name for c in CONCEPTS if c.words.search(folded))


_SINGLE = frozenset(c.name for c in CONCEPTS if c.single)
_NAMED = frozenset(c.name for c in CONCEPTS if c.named)

_MONTHS = {
    prefix: k + 1
    for k, prefixes in enumerate(
        (
            "janu janv enero genna stycz ledn leden ianuar tammik ocak sichn sichen ianoya",
            "febr fevr lutego luty unor helmik subat ljut pebrer",
            "march marz mars marzo marco maart marca brezn brezen marec martie maalisk mart "
            "berez maret machi marso marci",
            "april avril abril kwiec duben dubna huhtik nisan aprel kvit",
            "may mai mayo maggio maio mei maj maja kveten kvetn toukok mayis travn traven",
            "june juni juin junio giugno junho czerw cerven cervna kesak haziran ijun cherv "
            "ioyni hunyo iunie jun",
            "july juli juillet julio luglio julho lipiec lipca cervenc heinak temmuz "
            "ijul lipen lipnj ioyli hulyo iulie julai jul",
            "august aout agost sierp srpen srpna elokuu agust avgust serpen serpn aygoyst aug",
            "septem settem setem wrzes zari syysk eylul sentjab veres setyem sep sept",
            "octob oktob ottob outub pazdz rijen rijna octomb lokak ekim oktjab zhovt oktov "
            "oktub oct",
            "novem noviem listop noiemb marrask kasim nojab noemv nobyem nov",
            "decem dezem dicem grudz prosin decemb joulu aralik dekab grudn dekemv desem "
            "disyem dec",
        )
    )
    for prefix in prefixes.split()
}
"""Month names in the languages of :data:`_FUNCTION`, Cyrillic and Greek (in Latin
letters, :func:`.quantities.latin`) by their start, and their number: "14 May" and
"14. toukokuuta" say one date. Three letters or fewer are whole words ("may", "jun")."""


def _month(token: str) -> int:
    """The month ``token`` (case folded, in Latin letters) names; 0 when none."""
    for cut in (7, 6, 5, 4):
        k = _MONTHS.get(token[:cut]) if len(token) >= cut else None
        if k:
            return k
    return _MONTHS.get(token, 0)


_WEEKDAYS = {
    word: k + 1
    for k, words in enumerate(
        (
            "monday mondays montag montags lundi lundis lunes lunedi lunedì segunda maandag "
            "poniedziałek poniedziałki pondelok pondělí ponedjeljak ponedeljek luni lunea "
            "hétfő maanantai maanantaina mandag måndag pazartesi senin jumatatu понедельник "
            "понеділок δευτέρα",
            "tuesday tuesdays dienstag dienstags mardi martes martedì terça dinsdag wtorek "
            "wtorki úterý utorok utorak torek marți kedd tiistai tiistaina tirsdag tisdag "
            "salı selasa jumanne вторник вівторок τρίτη",
            "wednesday wednesdays mittwoch mittwochs mercredi miércoles mercoledì quarta "
            "woensdag środa środę środy streda středa srijeda sreda miercuri szerda "
            "keskiviikko keskiviikkona onsdag çarşamba rabu jumatano среда среду середа "
            "τετάρτη",
            "thursday thursdays donnerstag donnerstags jeudi jeudis jueves giovedì quinta "
            "donderdag czwartek czwartki čtvrtek štvrtok četvrtak četrtek joi csütörtök "
            "torstai torstaina torsdag perşembe kamis alhamisi четверг четвер πέμπτη",
            "friday fridays freitag freitags vendredi vendredis viernes venerdì sexta vrijdag "
            "piątek piątki pátek piatok petak vineri péntek perjantai perjantaina fredag "
            "cuma jumat ijumaa пятница пятницу пʼятниця παρασκευή",
            "saturday saturdays samstag samstags sonnabend samedi samedis sábado sabato "
            "zaterdag sobota sobotu soboty subota sâmbătă sâmbăta szombat lauantai "
            "lauantaina lørdag lördag cumartesi sabtu jumamosi суббота субботу субота "
            "σάββατο",
            "sunday sundays sonntag sonntags dimanche dimanches domingo domenica zondag "
            "niedziela niedzielę niedziele neděle nedeľa nedjelja nedelja duminică "
            "duminica vasárnap sunnuntai sunnuntaina søndag söndag pazar minggu jumapili "
            "воскресенье неділя κυριακή",
        )
    )
    for word in words.split()
}
"""Weekday names, as written (case folded), and their day: "on Saturdays" and "v
sobotu" say one day; "Saturday" and "Montag" two."""
_WEEKDAYS_LATIN = {latin(w): k for w, k in _WEEKDAYS.items()}


def _weekday(token: str) -> int:
    """The weekday ``token`` (case folded, in Latin letters) names; 0 when none."""
    return _WEEKDAYS_LATIN.get(token, 0)


_TITLES = frozenset(
    re.findall(
        r"\S+",
        "dr dra drs mr mrs ms mme mlle m herr frau hr fr sr sra srta sig sigra pan pani "
        "prof st saint sankt san santa sant mister miss madame monsieur doktor doctor "
        "user nutzer usuario usuaria utilisateur utilisatrice utente gebruiker",
    )
)
"""Titles and the user's own word, written with a capital but naming nobody."""
_TOKEN = re.compile(r"[^\W\d_]+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_SEPARATED = re.compile(r"(?<=\d)[,. \u00a0\u202f](?=\d{3}\b)")


@dataclass(frozen=True, slots=True)
class _Side:
    tokens: tuple[str, ...]
    """Every word, case folded, in Latin letters where a transliteration is known."""
    names: tuple[str, ...]
    """The words written with a capital (:func:`_names`), as :attr:`tokens` are."""
    initial: str
    """The first word's, when written with a capital (a sentence's first, or a name)."""
    numbers: frozenset[str]
    german: bool
    capitals: frozenset[str] = frozenset()
    """The names written in capitals ("DEVK"): names in German too."""


def _side(text: str) -> _Side:
    text = unicodedata.normalize("NFKC", text)
    found = list(_TOKEN.finditer(text))
    tokens = tuple(latin(m.group(0).casefold()) for m in found)
    names, initial, capitals = [], "", set()
    months = {f"month {_month(t)}" for t in tokens if _month(t)}
    months |= {f"day {_weekday(t)}" for t in tokens if _weekday(t)}
    for k, m in enumerate(found):
        word = m.group(0)
        if _weekday(tokens[k]) or _month(tokens[k]) or concepts(word):
            continue  # a month or day is a number; an attribute's word ("GP") is no name
        if not word[:1].isupper() or len(word) < 2 or latin(word.casefold()) in _TITLES:
            continue
        before = text[: m.start()].rstrip()
        if k == 0 or before[-1:] in (".", "!", "?", ":", "—", "-", "→", "«", '"', "'"):
            initial = initial or latin(word.casefold())
            continue
        names.append(latin(word.casefold()))
        if word.isupper():
            capitals.add(names[-1])
    plain = _SEPARATED.sub("", digits(text.casefold()))
    numbers = frozenset(n.replace(",", ".") for n in _NUMBER.findall(plain)) | months
    return _Side(tokens, tuple(names), initial, numbers, _german(text), frozenset(capitals))


def _german(text: str) -> bool:
    """Whether ``text`` reads as German (its nouns are written with a capital)."""
    from .quantities import language

    return language(text) == "de"


def _written(name: str, other: _Side) -> bool:
    """Whether ``name`` is written in ``other``: the same word or its inflection ("Lviv"
    / "Lvivi") in one script, a transliteration (:func:`.quantities.same_name`) across
    two; its first four letters must be the same word's ("Lolo" / "Lola" are not)."""
    for w in other.tokens:
        if w == name:
            return True
        if len(name) >= 4 and len(w) >= 4 and name[:4] == w[:4] and same_name(name, w):
            return True
    return False


def _alike(x: str, y: str) -> bool:
    """Two lower-case words written alike in two languages ("permethrin" /
    "permetrina", "amlodipine" / "amlodipina"): six letters or more, the same first four."""
    return len(x) >= 6 and len(y) >= 6 and x[:4] == y[:4] and same_name(x, y)


def _unwritten(p: _Side, q: _Side, strict: bool = False) -> list[str]:
    """The names ``p`` writes that ``q`` does not (a German noun, title case, left out
    unless ``strict``)."""
    out = []
    for name in p.names:
        if _written(name, q):
            continue
        if p.german and name not in p.capitals and not strict:
            continue  # "Gangplatz", "Schicht": a noun, as German writes it
        out.append(name)
    return out


def _names(p: _Side, q: _Side) -> set[str]:
    """The names and the first word of ``p`` written in ``q``."""
    out = {n for n in p.names if _written(n, q)}
    if p.initial and _written(p.initial, q):
        out.add(p.initial)
    return out


def _matched(p: _Side, q: _Side) -> set[str]:
    """The names and the first word of ``p`` written in ``q``, and the long lower-case
    words both write alike."""
    out = _names(p, q)
    long_p = {t for t in p.tokens if len(t) >= 6 and t.isalpha() and t not in out}
    long_p = {t for t in long_p if not concepts(t)}  # the attribute's own word is no value
    out |= {x for x in long_p for y in q.tokens if x != y and _alike(x, y)}
    out |= {x for x in long_p if x in q.tokens and x.isascii()}
    return out


def _blocked(a: Profile, b: Profile) -> bool:
    return bool(
        a.negated or b.negated or a.update or b.update
        or searched(ALSO, a.folded) or searched(ALSO, b.folded)
    )  # fmt: skip


def across(a: Profile, b: Profile) -> str | None:
    """Why ``a`` and ``b`` say one fact in two languages by its attribute (see the
    module docstring); None when they do not."""
    if _blocked(a, b) or not two_languages_loose(a, b):
        return None
    ca, cb = concepts(a.text), concepts(b.text)
    if ca != cb:
        return None
    sa, sb = _side(a.text), _side(b.text)
    if sa.numbers != sb.numbers or _unwritten(sa, sb) or _unwritten(sb, sa):
        return None
    if not ca:  # tidy 23's rule, read with this module's names, dates and scripts
        if _unwritten(sa, sb, strict=True) or _unwritten(sb, sa, strict=True):
            return None  # "Familienauto": with no attribute, a German noun may be a name
        carried = _names(sa, sb) | set(sa.numbers)
        smaller = min(len(a.words - GENERIC), len(b.words - GENERIC))
        if len(carried) < 2 or len(carried) * 3 < smaller:
            return None
        return "one fact in two languages: the same names, numbers and dates"
    anchors = _matched(sa, sb) | set(sa.numbers)
    if a.words & GENERIC and b.words & GENERIC:
        anchors.add("user")  # the subject both name: the user
    if len(anchors) < (1 if ca <= _SINGLE else 2):
        return None
    said = ", ".join(sorted(ca))
    return f"one fact in two languages: the same attribute ({said}) and values"


def another_value(a: Profile, b: Profile) -> str | None:
    """Why ``a`` and ``b`` give an attribute of one value at a time two values in two
    languages (see the module docstring); None when they do not."""
    if _blocked(a, b) or not two_languages_loose(a, b):
        return None
    ca, cb = concepts(a.text), concepts(b.text)
    if not ca or ca != cb or not ca <= _NAMED:
        return None
    sa, sb = _side(a.text), _side(b.text)
    if sa.numbers != sb.numbers:
        return None
    was, now = _unwritten(sa, sb), _unwritten(sb, sa)
    if not was or not now or len(was) > 2 or len(now) > 2:
        return None
    if any(x[:1] == y[:1] or same_name(x, y) for x in was for y in now):
        return None  # one name spelled two ways, not two names
    shared = _matched(sa, sb)
    if not shared and not (a.words & GENERIC and b.words & GENERIC):
        return None
    said = ", ".join(sorted(ca))
    return f"same {said}, another value in another language: {' '.join(was)} vs {' '.join(now)}"


def anchored(a: Profile, b: Profile) -> bool:
    """Whether a value both write carries ``a`` and ``b`` (said in two languages) and no
    value read in either language tells them apart (tidy 35, the embedder's anchored
    floor, :attr:`.Thresholds.meaning_cosine_anchored`): the same numbers, months and
    weekdays on both sides; no name one writes that the other does not (a German noun
    counted as a name unless both read the same attribute, as :func:`across` reads it);
    and at least one name both write or one number, month or weekday both state. Tidy
    37: the two languages must be read surely (:func:`surely_two`). Tidy 42: a weekday,
    month or number in Arabic, Persian, Urdu, Hindi or Thai words is a value
    (:func:`.exonyms.values`), and a place, people or feast the other side writes in its
    own language is written there, and a value both write (:func:`.exonyms.place`)."""
    if not surely_two(a, b):
        return False
    sa, sb = _side(a.text), _side(b.text)
    numbers = sa.numbers | values(a.text)  # tidy 42: in more scripts
    if numbers != sb.numbers | values(b.text):
        return False
    ca = concepts(a.text)
    strict = not (ca and ca == concepts(b.text))
    pa, pb = places(sa.tokens), places(sb.tokens)
    if unwritten(_unwritten(sa, sb, strict), pb) or unwritten(_unwritten(sb, sa, strict), pa):
        return False
    return bool(numbers or _names(sa, sb) or _names(sb, sa) or pa & pb)


@lru_cache(maxsize=4096)
def _read(text: str) -> str:
    """The language ``text`` reads as by the function words of every language
    :data:`_FUNCTION` holds (English among them): the one that leads, alone; empty
    when none leads or two tie."""
    words = re.findall(r"[^\W\d_]+", text.casefold())
    scores = sorted(((sum(w in fw for w in words), lang) for lang, fw in _FUNCTION.items()),
                    reverse=True)  # fmt: skip
    if scores[0][0] == 0 or scores[0][0] == scores[1][0]:
        return ""
    return scores[0][1]


def surely_two(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` are surely in two languages (tidy 36's rule 2, shipped
    alone by tidy 37, for the anchored floor only): two main scripts, or no script in
    common, or one read as English and the other as another language by the function
    words of every language :data:`_FUNCTION` holds (:func:`_read`).
    :func:`.quantities.language` knows seven languages and reads Irish "le" as French
    and "an" as English: two languages it alone tells keep tidy 18's 0.925. Tidy 40:
    or English against a text that writes no English word (:func:`english_and_another`)."""
    (da, _), (db, _) = _key(a.text), _key(b.text)
    if da and db and da != db:
        return True
    xa, xb = scripts_of(a.text), scripts_of(b.text)
    if xa and xb and not xa & xb:
        return True
    la, lb = _read(a.text), _read(b.text)
    if la and lb and la != lb and "en" in (la, lb):
        return True
    return english_and_another(a, b)  # tidy 40


_MORE_ENGLISH = (
    "in were been had its that these those not does did she they you his her their our your "
    "my will would can could which who what when there into about after before every each "
    "than then also only but or he we"
)
_ENGLISH = FUNCTION_WORDS["en"] | frozenset(_MORE_ENGLISH.split())
"""English words a sentence in another language does not write (tidy 40): the function
words :data:`_FUNCTION` reads English by, and more; one letter words ("a", "i") left
out, Hungarian, Swedish, Polish and Italian write them."""


@dataclass(frozen=True, slots=True)
class _Plain:
    english: bool
    """The text writes two words of :data:`_ENGLISH` or more, and more of them than of any
    other language's function words (:data:`_FUNCTION`)."""
    writes_english: bool
    """It writes a word of :data:`_ENGLISH`."""
    count: int
    """Its words of letters."""
    lower: frozenset[str]
    """Its words of three letters or more written in lower case, months and weekdays
    left out (values, which both sides write)."""
    words: frozenset[str]
    """Every word, case folded."""


@by_text
def _plain(text: str) -> _Plain:
    """What :func:`english_and_another` reads of one text (kept per text)."""
    found = _TOKEN.findall(unicodedata.normalize("NFKC", text))
    folded = [w.casefold() for w in found]
    lower = frozenset(
        w for w in found if len(w) >= 3 and w == w.casefold() and not _month(latin(w))
        and not _weekday(latin(w))
    )  # fmt: skip
    english = sum(w in _ENGLISH for w in folded)
    other = max(sum(w in fw for w in folded) for lang, fw in _FUNCTION.items() if lang != "en")
    return _Plain(english >= 2 and english > other, english > 0, len(found), lower,
                  frozenset(folded))  # fmt: skip


def english_and_another(a: Profile, b: Profile) -> bool:
    """Whether one of ``a`` and ``b`` reads as English and the other, of three words or
    more and two of them or more in lower case (:attr:`_Plain.lower`), writes no English
    word (:data:`_ENGLISH`) and none of the first's words in lower case (tidy 40, with
    the embedder only: the anchored floor and the cosine's reading of two languages).
    Basque, Lithuanian, Hungarian, Faroese, Vietnamese, Javanese and many more have no
    function words here, and a Polish "na" ties with Swahili's: "The chess club has 22
    members this year" / "Xake klubak 22 kide ditu aurten" was read as one language, so
    the anchored floor never held. An English note without function words ("Boiler
    serviced in October") writes "in", shares a word with the English side it is set
    against, or is mostly names ("Greenfield Garage: tyres, October")."""
    pa, pb = _plain(a.text), _plain(b.text)
    return _english_against(pa, pb) or _english_against(pb, pa)


def _english_against(en: _Plain, other: _Plain) -> bool:
    return (
        en.english and not other.writes_english and other.count >= 3
        and len(other.lower) >= 2 and not other.lower & en.words
    )  # fmt: skip


_COLOUR_WORDS = (
    (
        "red",
        "red rot rote roter rotes roten rouge rouges rojo roja rojos rojas rosso rossa "
        "rossi rosse vermelho vermelha vermelhos rood rode czerwony czerwona czerwone "
        "czerwonego červený červená červené röd röda rött rød røde красный красная красное "
        "красного червоний червона kırmızı punainen piros roșu roșie",
        "赤|红|紅|빨간|빨강",
    ),
    (
        "blue",
        "blue blau blaue blauer blaues blauen bleu bleue bleus azul azules blu blauw "
        "blauwe niebieski niebieska niebieskie modrý modrá modré blå blått blåa синий синяя "
        "синее синего голубой синій синя блакитний mavi sininen kék albastru albastră",
        "青|蓝|藍|파란|파랑",
    ),
    (
        "green",
        "green grün grüne grüner grünes grünen vert verte verts vertes verde verdes "
        "groen groene zielony zielona zielone zelený zelená zelené grön gröna grönt grøn "
        "grønne grønn зелёный зеленый зелёная зеленая зелений зелена yeşil vihreä zöld",
        "緑|绿|綠|초록|녹색",
    ),
    (
        "yellow",
        "yellow gelb gelbe gelber gelbes gelben jaune jaunes amarillo amarilla "
        "giallo gialla amarelo amarela geel gele żółty żółta żółte žlutý žlutá gul gult gula "
        "жёлтый желтый жёлтая желтая жовтий жовта sarı keltainen sárga galben galbenă",
        "黄|黃|노란|노랑",
    ),
    (
        "black",
        "black schwarz schwarze schwarzer schwarzes schwarzen noir noire noirs negro "
        "negra negros nero nera neri preto preta zwart zwarte czarny czarna czarne černý "
        "černá černé svart svarta sorte чёрный черный чёрная черная чорний чорна siyah "
        "musta fekete negru neagră",
        "黒|黑|검은|검정",
    ),
    (
        "white",
        "white weiß weiss weiße weisse weißer weißes weißen blanc blanche blanco "
        "blanca bianco bianca branco branca wit witte biały biała białe bílý bílá bílé vit "
        "vita vitt hvid hvide hvit hvite белый белая белое білий біла beyaz valkoinen fehér "
        "alb albă",
        "白|흰|하얀",
    ),
    (
        "grey",
        "grey gray grau graue grauer graues grauen gris grise grises grigio grigia "
        "cinza grijs grijze szary szara szare šedý šedá šedé grå gråa серый серая серое "
        "сірий сіра gri harmaa szürke",
        "灰|회색",
    ),
    (
        "brown",
        "brown braun braune brauner braunes braunen marron brun brune marrón "
        "castaño marrone castanho bruin bruine brązowy brązowa hnědý hnědá brun bruna brunt "
        "коричневый коричнева коричневий kahverengi ruskea barna maro",
        "茶色|棕|褐|갈색",
    ),
    (
        "orange",
        "orange orangefarben naranja arancione laranja oranje pomarańczowy "
        "pomarańczowa oranžový oranžová оранжевый помаранчевий turuncu oranssi narancs "
        "portocaliu",
        "橙|オレンジ|주황",
    ),
    (
        "purple",
        "purple lila violett violet violette morado morada viola roxo roxa "
        "paars fioletowy fioletowa fialový fialová фиолетовый фіолетовий violetti",
        "紫|보라",
    ),
    (
        "pink",
        "pink rosa rosado rosada różowy różowa růžový růžová rosé "
        "розовый рожевий pembe vaaleanpunainen rózsaszín roz",
        "ピンク|粉红|粉紅|분홍",
    ),
    (
        "silver",
        "silver silbern silberne silberner argenté argentée plateado plateada "
        "argento argentato prateado zilver zilveren srebrny srebrna stříbrný серебристый "
        "сріблястий gümüş hopea ezüst argintiu",
        "銀|银|은색",
    ),
    (
        "gold",
        "gold golden goldene goldener doré dorée dorado dorada dorato oro dourado "
        "goud gouden złoty złota zlatý золотой золотистый золотий altın kulta arany auriu",
        "金色|金黄|금색",
    ),
)
_COLOURS = tuple(
    (name, re.compile(rf"(?<![^\W\d_])(?:{'|'.join(words.split())})(?![^\W\d_])|{other}"))
    for name, words, other in _COLOUR_WORDS
)
"""Colour words of the languages tidy reads, whole words (Latin, Cyrillic), and the
characters other scripts write them with, by the colour they name."""


@by_text
def colours(text: str) -> frozenset[str]:
    """The colours ``text`` names (:data:`_COLOURS`, case folded, NFKC)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return frozenset(name for name, words in _COLOURS if words.search(folded))


def other_colour(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` both name colours and not the same ones ("The family car
    is a grey Skoda Octavia" / "Unser Familienauto ist ein blauer Skoda Octavia": two
    cars); a colour one side alone names says nothing (its language may be unread)."""
    ca, cb = colours(a.text), colours(b.text)
    return bool(ca and cb and ca != cb)
