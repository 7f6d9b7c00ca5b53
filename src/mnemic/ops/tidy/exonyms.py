"""What two languages each write their own way, for the embedder's anchored floor only
(tidy 42, issue 26): a country, a people or language, a city and a feast by its name in
each language (:func:`place`), and weekdays, months and numbers in the scripts
:mod:`.numerals` and :mod:`.across` do not read (:func:`values`).

Tidy 40's dev misses (fresh10-16 dev, cross-language rewordings at cosine >= 0.88 read
surely as two languages and still apart) were, first, a name one side writes that the
other writes as its own language does: "Norway" / "Norge", "Christmas" / "Noel" /
"Natal", "Polish" / "na polski", "Turkish" / "Türkçeye", "Spanish tour" / "gira por
España", "Aleppo" / "حلب"; then a weekday, month or number in Arabic, Persian, Urdu,
Hindi or Thai letters ("جمعرات", Thursday; "ژوئیه", July; "ثلاثين", thirty). Such a name
is no other name (two people, two places): it is the same one, so the anchored floor
reads it as a value both write; a feast, a country or a city said as another one stays
another ("Christmas" / "Páscoa", "Norway" / "Sverige").

A language's name and its country's are one row, but, tidy 44, two kinds
(:data:`_LANDS`): a country ties to a country, a language or people to a language or
people ("translates into Polish" / "tłumaczy na polski"), never one to the other
("lived in Norway" / "snakker norsk" are two facts). Read by the embedder
(:func:`.across.anchored` and :mod:`.meaning`'s test of two names), and, tidy 43, by
:func:`other_places` for the pair model's merges in both modes (the offline model
merged "registered in Norway" / "registrerad i Sverige"). One rule for all three:
:func:`unwritten`, a name the other side does not write in its own language either.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .quantities import latin

__all__ = ["named", "other_places", "place", "places", "unwritten", "values", "words"]

_PLACES = (
    # feasts
    "christmas xmas weihnachten noel navidad natal natale kerstmis kerst vanoce karacsony "
    "craciun rozhdestvo rizdvo christougenna krismasi nollaig nadolig",
    "easter ostern paques pascua pascoa pasqua pasen wielkanoc velikonoce paasiainen "
    "paske paskalya paskha velykden pascha",
    # countries with their languages and peoples
    "norway norwegian norge norsk norsku noreg norwegen norwegisch norvege norvegien "
    "norvegienne noruega noruego noruega norvegia norvegese noorwegen noors norja norwegia "
    "norweski norsko norveska norveç",
    "sweden swedish sverige svensk svenska schweden schwedisch suede suedois suecia sueco "
    "svezia svedese zweden zweeds ruotsi szwecja szwedzki svedsko isvec",
    "denmark danish danmark dansk daenemark daenisch danemark danois dinamarca danes "
    "danimarca danese denemarken deens tanska dania dunski dansko danimarka",
    "finland finnish suomi suomeksi finnland finnisch finlande finnois finlandia "
    "finlandes finlandese finland finlandia finski finsko finlandiya",
    "germany german deutschland deutsch deutsche allemagne allemand allemande alemania "
    "aleman alemana germania tedesco tedesca duitsland duits saksa niemcy niemiecki "
    "nemecko nemcina almanya almanca",
    "france french frankreich franzoesisch franzosisch francais francaise francia "
    "francesa francese frankrijk frans ranska francja francuski francie "
    "francouzsky francji fransa fransizca",
    "spain spanish spanien spanisch espagne espagnol espagnole espana espanol espanola "
    "spagna spagnolo espanha espanhol spanje spaans espanja hiszpania hiszpanski "
    "spanelsko ispanya ispanyolca",
    "italy italian italien italienisch italie italienne italia italiano italiana italie "
    "italiaans italia wlochy wloski italie italsky italya italyanca",
    "portugal portuguese portugiesisch portugais portuguesa portugues portoghese "
    "portugees portugali portugalia portugalski portekiz portekizce",
    "poland polish polen polnisch pologne polonais polonaise polonia polaco polaca "
    "polonia polacco polonia polones polen pools puola polska polski polsku polskiego "
    "polsko polsky polonya lehce",
    "netherlands dutch holland niederlande niederlaendisch pays-bas neerlandais "
    "neerlandes olanda olandese holanda nederland nederlands alankomaat "
    "holandia holenderski nizozemsko hollanda",
    "turkey turkish turkei tuerkei turkisch tuerkisch turquie turc turque turquia turco "
    "turca turchia turkije turks turkki turcja turecki turecko turkiye turkce turkceye "
    "turkceden turkcesi",
    "greece greek griechenland griechisch grece grec grecque grecia griego griega grecia "
    "greco greca griekenland grieks kreikka grecja grecki recko yunanistan yunanca ellada "
    "ellinika",
    "ukraine ukrainian ukrainisch ukrainien ukrainienne ucrania ucraniano ucraina ucraino "
    "ucrania oekraine oekraiens ukraina ukrainski ukrajina yukrayna ukrayna",
    "russia russian russland russisch russie russe rusia ruso rusa russo russa rusland "
    "russisch venaja rosja rosyjski rusko rusya rusca rossiya russkiy",
    "japan japanese japanisch japon japonais japonaise japones japonesa giappone "
    "giapponese japao japanese japans japani japonia japonski japonsko japonya japonca",
    "china chinese chinesisch chine chinois chinoise chino china cina cinese chines "
    "chinees kiina chiny chinski cina cince",
    "england english englisch angleterre anglais anglaise inglaterra ingles inglesa "
    "inghilterra inglese engeland engels englanti anglia angielski anglie ingiltere "
    "ingilizce",
    "scotland scottish schottland schottisch ecosse ecossais escocia escoces scozia "
    "scozzese schotland schots skotlanti szkocja skotsko iskocya",
    "ireland irish irland irisch irlande irlandais irlanda irlandes irlandese ierland "
    "irlanti irlandia irsko irlanda eire",
    "wales welsh walisisch gallois gales gales galles gallese cymru",
    "austria austrian oesterreich osterreich autriche autrichien austria austriaco "
    "oostenrijk itavalta austria rakousko avusturya",
    "switzerland swiss schweiz suisse suiza suizo svizzera svizzero suica zwitserland "
    "sveitsi szwajcaria svycarsko isvicre",
    "belgium belgian belgien belgisch belgique belge belgica belga belgio belgie "
    "belgia belgie belcika",
    "czechia czech tschechien tschechisch tcheque chequia checo ceco cechia tsjechie "
    "tsjechisch tsekki czechy czeski cesko cesky ceska ceske ceskem ceskou ceskeho cestina "
    "cekya",
    "croatia croatian kroatien kroatisch croatie croate croacia croata croazia kroatie "
    "kroatia chorwacja chorwacki hrvatska hrvatski chorvatsko hirvatistan",
    # cities written otherwise in their own language or another's
    "munich muenchen munchen munique monachium mnichov",
    "cologne koeln koln keulen kolonia",
    "vienna wien vienne viena vienna wenen wieden wiednia wiedniu viden",
    "prague prag praha praga pradze pragi",
    "warsaw warschau varsovie varsovia varsavia warschau warszawa warszawie warszawy varsava",
    "lisbon lissabon lisbonne lisboa lisbona",
    "rome roma rooma rzym",
    "venice venedig venise venecia venezia veneza venetie wenecja benatky",
    "florence florenz firenze florencia florenca florencja",
    "naples neapel napoli napoles napoles napels neapol",
    "milan mailand milano milao milaan mediolan",
    "moscow moskau moscou moscu moskou moskwa moskva",
    "athens athen athenes atenas atene athene ateny athina",
    "brussels bruessel brussel bruxelles bruselas bruxelas bruksela",
    "copenhagen kopenhagen copenhague copenaghen kopenhaga kobenhavn",
    "gothenburg goeteborg goteborg",
    "geneva genf geneve ginebra ginevra genebra genewa",
    "aleppo alep alepo halab حلب",
    "damascus damaskus damas damasco dimashq دمشق",
    "cairo kairo caire qahira القاهرة",
    "beirut beyrouth beirute bayrut بيروت",
    "baghdad bagdad بغداد",
    "tehran teheran téhéran تهران",
    "kabul kaboul کابل",
)
"""One place, people or feast a row, by its names in many languages (case folded, in
Latin letters as :func:`.quantities.latin` writes them, accents dropped; Arabic-script
city names as written)."""


_LANDS = (
    "norway norge noreg norwegen norvege noruega norvegia noorwegen norja norwegia norsko "
    "norveska norveç sweden sverige schweden suede suecia svezia zweden ruotsi szwecja "
    "svedsko isvec denmark danmark daenemark danemark dinamarca danimarca denemarken tanska "
    "dania dansko danimarka finland suomi finnland finlande finlandia finsko finlandiya "
    "germany deutschland allemagne alemania germania duitsland saksa niemcy nemecko almanya "
    "france frankreich francia frankrijk ranska francja francie francji fransa "
    "spain spanien espagne espana spagna espanha spanje espanja hiszpania spanelsko ispanya "
    "italy italien italie italia wlochy italya portugal portugali portugalia portekiz "
    "poland polen pologne polonia puola polska polski polonya netherlands holland "
    "niederlande olanda holanda nederland alankomaat holandia nizozemsko hollanda "
    "turkey turkei tuerkei turquie turquia turchia turkije turkki turcja turecko turkiye "
    "greece griechenland grece grecia kreikka grecja recko yunanistan ellada "
    "ukraine ucrania ucraina oekraine ukraina ukrajina yukrayna ukrayna "
    "russia russland russie rusia rusland venaja rosja rusko rusya rossiya "
    "japan japon giappone japao japani japonia japonsko japonya china chine cina chiny kiina "
    "england angleterre inglaterra inghilterra engeland englanti anglia anglie ingiltere "
    "scotland schottland ecosse escocia scozia schotland skotlanti szkocja skotsko iskocya "
    "ireland irland irlande irlanda ierland irlanti irlandia irsko eire wales gales galles "
    "cymru austria oesterreich osterreich autriche oostenrijk itavalta rakousko avusturya "
    "switzerland schweiz suisse suiza svizzera suica zwitserland sveitsi szwajcaria "
    "svycarsko isvicre belgium belgien belgique belgica belgio belgie belgia belcika "
    "czechia tschechien chequia cechia tsjechie tsekki czechy cesko croatia kroatien "
    "croatie croacia croazia kroatie kroatia chorwacja hrvatska chorvatsko hirvatistan"
)
"""Tidy 44 (issue 26): the words of a country's row that name the country, not its
language or people. A country ties only to a country, a language or people's adjective
only to its like: "lived in Norway" / "snakker norsk", "teaches Spanish" / "vive en
España" are two facts. :data:`_BOTH` are words that are both in their own language."""
_BOTH = (
    # Polish "do Polski" (the country's genitive) and "na polski" (the language);
    # "polska" the country and an adjective; Spanish "china", French "suisse", German
    # "Italien" / French "italien", Croatian "hrvatska"; Finnish writes a country and
    # its language alike ("Suomi" / "suomi", "Ruotsi" / "ruotsi")
    "polski polska china suisse italien hrvatska suomi norja ruotsi tanska saksa ranska "
    "espanja italia portugali puola turkki kreikka venaja kiina japani englanti tsekki "
    "kroatia"
)


def _table() -> tuple[dict[str, int], dict[str, frozenset[int]]]:
    """Each word's row, and its kinds as ``2 * row`` (a place, feast, city or country)
    and ``2 * row + 1`` (a language or people) (tidy 44)."""
    rows: dict[str, int] = {}
    kinds: dict[str, frozenset[int]] = {}

    def fold(w: str) -> str:
        return latin(unicodedata.normalize("NFKC", w).casefold())

    lands, both = {fold(w) for w in _LANDS.split()}, {fold(w) for w in _BOTH.split()}
    for k, row in enumerate(_PLACES):
        countries = any(fold(w) in lands for w in row.split())
        for w in map(fold, row.split()):
            if w in rows:
                continue
            rows[w] = k
            if not countries or w in both:
                kinds[w] = frozenset({2 * k, 2 * k + 1} if countries else {2 * k})
            else:
                kinds[w] = frozenset({2 * k if w in lands else 2 * k + 1})
    return rows, kinds


_PLACE, _KIND = _table()
_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=8192)
def _entry(token: str) -> str:
    k = _PLACE.get(token)
    if k is not None:
        return token
    for cut in range(len(token) - 1, max(4, len(token) - 4), -1):
        if token[:cut] in _PLACE:
            return token[:cut]
    return ""


def place(token: str) -> int:
    """The row of :data:`_PLACES` a word (case folded, in Latin letters) names, or -1:
    the word itself or, for names of five letters or more, the name with an ending of
    three letters or fewer ("Norges", "polskiego", "İzmir'de" aside: "Türkçeye")."""
    e = _entry(token)
    return _PLACE[e] if e else -1


def named(token: str) -> frozenset[int]:
    """What a word names, as :func:`place` reads it, by row and kind (tidy 44): a
    country (``2 * row``) or its language or people (``2 * row + 1``), both for a word
    that is both ("polski", "suomi"); a city or feast is a place. Empty for none."""
    e = _entry(token)
    return _KIND[e] if e else frozenset()


def places(tokens: tuple[str, ...] | list[str]) -> frozenset[int]:
    """What ``tokens`` name (:func:`named`): a row and kind each."""
    return frozenset(k for t in tokens for k in named(t))


def unwritten(names: list[str] | tuple[str, ...], theirs: frozenset[int]) -> list[str]:
    """The ``names`` (case folded, in Latin letters) the other side, which names
    ``theirs`` (:func:`places`), does not write in its own language either: "Norway"
    against "Norge" is written, against "Sverige" not (tidy 42), nor, tidy 44, against
    "norsk" (a country is not its language); a word no row holds is never written so."""
    return [n for n in names if not named(n) & theirs]


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    """The words of letters of ``text``, case folded, in Latin letters as :func:`place`
    reads them."""
    return tuple(latin(w) for w in _LETTERS.findall(unicodedata.normalize("NFKC", text).casefold()))


def other_places(a: str, b: str) -> str:
    """Why ``a`` and ``b`` name two places (tidy 43): each names a country, people or
    language, city or feast of :data:`_PLACES` the other does not write in its own
    language (:func:`unwritten`), "registered in Norway" / "registrerad i Sverige";
    empty when not. One side naming one more ("from Sweden to Norway" / "to Norway")
    is no second place."""
    wa, wb = words(a), words(b)
    xa = unwritten([w for w in wa if place(w) >= 0], places(wb))
    xb = unwritten([w for w in wb if place(w) >= 0], places(wa))
    return f"'{xa[0]}' / '{xb[0]}'" if xa and xb else ""


def _rows(table: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for row in table.strip().splitlines():
        value, words = row.split(":")
        out |= dict.fromkeys(words.split(), value.strip())
    return out


_WORDS = _rows(
    """
    day 1: الاثنين الإثنين دوشنبه سوموار सोमवार सोमबार
    day 2: الثلاثاء سه‌شنبه منگل मंगलवार मंगलबार
    day 3: الأربعاء الاربعاء چهارشنبه بدھ बुधवार बुधबार
    day 4: الخميس پنجشنبه پنج‌شنبه جمعرات गुरुवार बृहस्पतिवार बिहीबार
    day 5: الجمعة جمعه جمعہ शुक्रवार शुक्रबार
    day 6: السبت शनिवार शनिबार
    day 7: الأحد الاحد یکشنبه یک‌شنبه اتوار रविवार आइतबार
    month 1: يناير ژانویه جنوری जनवरी
    month 2: فبراير فوریه فروری फ़रवरी फरवरी
    month 3: مارس مارچ मार्च
    month 4: أبريل ابريل آوریل اپریل अप्रैल
    month 5: مايو مئی
    month 6: يونيو يونيه ژوئن जून
    month 7: يوليو يوليه ژوئیه جولای جولائی जुलाई
    month 8: أغسطس اغسطس اوت آگوست اگست अगस्त
    month 9: سبتمبر سپتامبر ستمبر सितंबर सितम्बर
    month 10: أكتوبر اكتوبر اکتبر اکتوبر अक्टूबर अक्तूबर
    month 11: نوفمبر نوامبر نومبر नवंबर नवम्बर
    month 12: ديسمبر دسامبر دسمبر दिसंबर दिसम्बर
    3: ثلاثة ثلاث تین तीन
    4: أربعة أربع چهار چار चार
    5: خمسة خمس پنج پانچ पाँच पांच
    6: ستة شش چھ छह
    7: سبعة سبع هفت सात
    8: ثمانية ثماني هشت آٹھ आठ
    9: تسعة تسع नौ
    10: عشرة عشر दस
    20: عشرين عشرون بیست बीस
    30: ثلاثين ثلاثون تیس तीस
    40: أربعين أربعون چهل चालीस
    50: خمسين خمسون پنجاه پچاس पचास
    """
)
"""Weekdays, months (as the Gregorian calendar's, borrowed) and numbers in Arabic,
Persian, Urdu, Hindi and Nepali, as whole words (a Persian "سه‌شنبه", Tuesday, is one
word, never three and Saturday). Left out as words of another meaning: Persian "دو"
and Urdu "دو" (two; also "runs"), "نه" (nine; no), "ده" (ten; village), "سه" (three;
Persian "سه شنبه", Tuesday, written apart), Urdu "ہفتہ" (Saturday; week), "پیر"
(Monday; old man, saint), Arabic "اثنين" (two; Monday)."""
_THAI = _rows(
    """
    day 1: วันจันทร์
    day 2: วันอังคาร
    day 3: วันพุธ
    day 4: วันพฤหัสบดี วันพฤหัส
    day 5: วันศุกร์
    day 6: วันเสาร์
    day 7: วันอาทิตย์
    month 1: มกราคม
    month 2: กุมภาพันธ์
    month 3: มีนาคม
    month 4: เมษายน
    month 5: พฤษภาคม
    month 6: มิถุนายน
    month 7: กรกฎาคม
    month 8: สิงหาคม
    month 9: กันยายน
    month 10: ตุลาคม
    month 11: พฤศจิกายน
    month 12: ธันวาคม
    """
)
"""Thai weekdays and months: Thai writes no space between words, so read inside one."""
_AROUND = r"[\s.,;:!?()\[\]\"'«»،؛۔।]"
_WORD = re.compile(
    rf"(?:(?<={_AROUND})|^)(?:{'|'.join(sorted(map(re.escape, _WORDS), key=len, reverse=True))})"
    rf"(?={_AROUND}|$)"
)
_THAI_WORD = re.compile("|".join(sorted(_THAI, key=len, reverse=True)))


@lru_cache(maxsize=8192)
def values(text: str) -> frozenset[str]:
    """The weekdays ("day 4"), months ("month 7") and numbers ("30") ``text`` writes in
    Arabic, Persian, Urdu, Hindi, Nepali or Thai words, as :func:`.across._side` names
    them."""
    text = unicodedata.normalize("NFC", text)
    found = {_WORDS[m.group(0)] for m in _WORD.finditer(text)}
    found |= {_THAI[m.group(0)] for m in _THAI_WORD.finditer(text)}
    return frozenset(found)
