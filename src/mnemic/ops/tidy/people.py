"""Which people an entry names: two entries about two people are two facts.

"The user's father is allergic to nuts" and "the user's son is allergic to nuts" differ in
one word, and the word lists read "son" as a function word (Spanish "they are", French
"his"); "mother" and "mother-in-law" differ in a word the content words barely weigh. So
tidy reads the people an entry names apart (relatives, partners, friends, colleagues,
neighbours), by whole word (a hyphenated word whole: "mother-in-law", "grand-mère",
"belle-mère"), in the languages the word lists cover and in Russian, Ukrainian, Polish,
Swedish, Turkish, Arabic, Hindi and Vietnamese; Chinese and Japanese by their characters,
Korean by the stem of each word (its particle cut off: "아들이", not "딸기"), Arabic with its
article, conjunction and pronoun ending cut off ("والدته", "وزوجة"). A few words of one
person are one ("mum", "mom" and "mother").

:func:`other_relatives` is a veto: no verdict joins two entries that name different
people, nor two where one says whose the fact is ("*User's partner* drives a grey
Yaris", "*la madre de* la usuaria", "用户*妻子的*", "*아내의*", "*والدة* المستخدم": a
person among its first words, :func:`holders`) and the other names nobody, unless the
other says all the rest and more, as it names the same relation in its own words ("User's
wife is Elena" / "User is married to Elena").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .hangul import hangul_stem
from .lexicon import REPORTS_TO, fold
from .memo import per_reading
from .signals import GENERIC, profile

__all__ = ["ONE_HELD", "holders", "one_held", "other_relatives", "relatives"]


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_KIN = frozenset(
    _listed(
        """
    father mother dad mum mom son sons daughter daughters brother brothers sister sisters
    wife husband aunt uncle niece nephew cousin grandfather grandmother grandma grandpa
    grandson granddaughter stepfather stepmother stepson stepdaughter father-in-law
    mother-in-law son-in-law daughter-in-law brother-in-law sister-in-law
    partner spouse boyfriend girlfriend fiance fiancé fiancee fiancée child children kid
    kids baby parents sibling siblings twin grandchild grandchildren grandparents friend
    roommate flatmate housemate neighbour neighbor colleague coworker co-worker boss
    vater mutter sohn tochter bruder schwester ehefrau ehemann tante onkel nichte neffe
    cousine großvater großmutter oma opa enkel enkelin schwiegermutter schwiegervater
    schwiegersohn schwiegertochter partnerin freundin kinder eltern geschwister kollege
    kollegin nachbar nachbarin schwager schwägerin
    padre madre hijo hija hermano hermana esposa esposo marido tía tío sobrino sobrina
    abuelo abuela nieto nieta suegra suegro mamá papá pareja novio novia hijos hijas
    padres amigo amiga compañero compañera vecino vecina jefe jefa cuñado cuñada
    père mère fils fille frère sœur soeur épouse époux mari oncle nièce neveu grand-père
    grand-mère belle-mère beau-père belle-fille beau-fils belle-sœur beau-frère conjoint
    conjointe compagne compagnon copain copine enfant enfants ami amie collègue voisin
    voisine petit-fils petite-fille
    pai mãe filho filha irmão irmã tia tio sobrinho sobrinha avô avó sogra sogro namorado
    namorada companheiro companheira filhos vizinho vizinha cunhado cunhada neto neta
    figlio figlia fratello sorella moglie marito zia zio nipote cugino cugina nonno nonna
    suocera suocero fidanzato fidanzata compagno compagna amico amica figli genitori
    collega cognato cognata
    vader moeder zoon dochter broer zus oom neef schoonmoeder schoonvader echtgenote
    echtgenoot vriend vriendin kinderen ouders buurman buurvrouw
    отец отца мать матери сын сына сыновей сыновья дочь дочери брат брата сестра сестры
    жена жены мужа муж тётя тетя дядя племянник племянница бабушка дедушка свекровь тёща
    тесть внук внучка мама папа партнёр партнер подруга коллега сосед соседка
    батько батька матір матері донька доньки дочка дочки дружина дружини чоловік
    чоловіка тітка дядько бабуся бабусі дідусь дідуся онук онука теща свекор свекруха
    племінниця
    ojciec ojca matka matki syn syna córka córki brat siostra siostry żona żony mąż męża
    ciocia wujek babcia babci dziadek dziadka teściowa teść partnerka chłopak dziewczyna
    dzieci dziecko rodzice przyjaciel przyjaciółka koleżanka sąsiad sąsiadka wnuk wnuczka
    siostrę siostrą siostrze córkę córką córce żonę żoną żonie mężem mężowi mamę mamą mamie
    babcię babcią ciocię teściową wnuczkę przyjaciółkę koleżankę sąsiadkę partnerkę
    pappa mamma dotter bror syster fru maka sambo pojkvän flickvän mormor farmor
    morfar farfar kusin svärmor svärfar granne
    """
    )
)
_GREEK = frozenset(
    unicodedata.normalize("NFKC", w).casefold()
    for w in _listed(
        """
    μητέρα μητέρας μαμά πατέρας πατέρα μπαμπάς γιος γιου κόρη κόρης αδελφή αδερφή αδελφός
    αδερφός σύζυγος σύζυγο γυναίκα άντρας γιαγιά παππούς θεία θείος εγγονός εγγονή ανιψιός
    ανιψιά ξάδερφος ξαδέρφη φίλος φίλη γείτονας γειτόνισσα συνάδελφος παιδί παιδιά γονείς
    """
    )
)
"""Greek people (folded: a final sigma is "σ"); "γυναίκα" and "άντρας" are also "woman"
and "man", read as a wife and a husband as the other languages' owned forms are not,
since a Greek note names a woman by her name."""
_SAME = {
    "mum": "mother", "mom": "mother", "dad": "father", "grandma": "grandmother",
    "grandpa": "grandfather", "neighbor": "neighbour", "fiance": "fiancé",
    "fiancee": "fiancée", "co-worker": "coworker", "soeur": "sœur", "тетя": "тётя",
    "партнер": "партнёр",
}  # fmt: skip
"""Words of one person in one language: "mum", "mom" and "mother" are one."""
_TURKISH = (
    "baba", "anne", "oğl", "oğul", "amca", "dayı", "teyze", "dede", "yeğen", "eş", "kız",
    "kardeş", "abla", "ağabey", "abi", "arkadaş", "sevgili", "çocuk", "çocuğ", "kuzen",
    "komşu", "torun", "kayınvalide", "kayınpeder",
)  # fmt: skip
"""Turkish people by their start (possessive endings follow: "babası", "amcası")."""
_TURKISH_ENDINGS = frozenset(
    [
        "",
        *_listed(
            "m n i ı u ü im ım um üm in ın un ün si sı su sü mız miz muz müz nız niz "
            "ları leri sini sını sinin sının siyle sıyla lar ler"
        ),
    ]
)
"""The possessive and case endings a Turkish relative takes ("baba*sı*", "oğl*u*",
"dayı*m*"): "annex" and "annealing" are no mother."""
_HAN = _listed(
    "父亲 母亲 爸爸 妈妈 儿子 女儿 哥哥 弟弟 姐姐 妹妹 妻子 丈夫 老公 老婆 爷爷 奶奶 外公 外婆 "
    "叔叔 阿姨 侄子 侄女 婆婆 岳母 岳父 父 母 息子 娘 兄 姉 祖父 祖母 夫 妻 "
    "表哥 表姐 表弟 表妹 堂哥 堂姐 舅舅 姑姑 孙子 孙女 孩子 女婿 儿媳 男朋友 女朋友 朋友 同事 "
    "伴侣 老板 邻居 弟 妹 孫 彼氏 友人 友達 同僚 上司 奥さん 旦那 義母 義父 配偶者"
)
_HANGUL = _listed(
    "아버지 어머니 아빠 엄마 아들 딸 형 누나 오빠 언니 남동생 여동생 아내 남편 삼촌 이모 고모 "
    "할머니 할아버지 조카 시어머니 장모 친구 동료 상사 남자친구 여자친구 배우자 부모님 부모 "
    "아버님 어머님 손자 손녀 동생 사촌 부인 와이프 장인 이웃"
)
_ARABIC = frozenset(
    _listed(
        "والد والدة أب ابن ابنة بنت أخ أخت زوج زوجة جد جدة عم عمة خال خالة حفيد حفيدة "
        "صديق صديقة شريك شريكة طفل أطفال أولاد جارة زميل زميلة"
    )
)
_ARABIC_OWNED = frozenset(_listed("أم"))
"""An Arabic person said only with its article or a pronoun ("الأم", "أمه"): "أم" alone
is also "or"."""
_DEVANAGARI = frozenset(
    _listed(
        "पिता माता माँ मां बेटा बेटी बेटे भाई बहन पत्नी पति दादा दादी नाना नानी चाचा चाची मामा "
        "मामी मौसी बुआ पोता पोती दोस्त बच्चे बच्चा सास ससुर पड़ोसी"
    )
)
_BENGALI = frozenset(
    _listed(
        "মা বাবা ভাই বোন স্বামী স্ত্রী ছেলে মেয়ে দাদা দিদি দাদু দিদিমা ঠাকুমা কাকা কাকি মামা মামি "
        "মাসি পিসি বন্ধু শ্বশুর শাশুড়ি প্রতিবেশী সহকর্মী"
    )
)
"""Bengali relatives (tidy 28: "রাহুলের *বোনের* রেটিং", Rahul's sister's rating), read with
their case ending cut off (:data:`_BENGALI_ENDINGS`)."""
_BENGALI_ENDINGS = ("ের", "র", "কে", "েরা", "রা", "দের", "ে")
_VIETNAMESE = re.compile(
    r"\b(?:vợ|chồng|con gái|con trai|bố|mẹ|anh trai|chị gái|em trai|em gái|ông nội|bà nội|"
    r"ông ngoại|bà ngoại|bạn gái|bạn trai|người yêu|đồng nghiệp|hàng xóm|bạn thân)\b"
)
_ROLES = frozenset(
    _listed(
        "manager doctor dentist landlord landlady lawyer accountant therapist teacher tutor "
        "coach mentor assistant gp physio nanny babysitter mann frau femme"
    )
)
"""People by their role, read as a person only when someone's ("the user's *manager*",
"her *dentist*"): "the package manager", "a teacher" name nobody."""
ONE_HELD = frozenset(
    _listed(
        """
    manager boss gp doctor dentist landlord landlady spouse wife husband partner boyfriend
    girlfriend fiancé fiancée jefe jefa ehefrau ehemann partnerin esposa esposo marido pareja
    novio novia épouse époux mari conjoint conjointe compagne compagnon moglie marito
    fidanzato fidanzata compagno compagna companheiro companheira namorado namorada
    echtgenote echtgenoot жена жены муж мужа дружина дружини żona żony mąż męża fru maka
    sambo 妻子 丈夫 老公 老婆 老板 上司 伴侣 配偶者 夫 妻 奥さん 旦那 아내 남편 상사 배우자 부인
    와이프 زوج زوجة पत्नी पति vợ chồng
    """
    )
)
"""People someone has one of at a time (a manager, a GP, a dentist, a landlord, a
spouse or partner), as :func:`relatives` names them: "the user's manager is Tom" and
"... is Anna" give one role two values. Friends, colleagues, neighbours, children,
siblings and the roles a person may have several of (a lawyer, a teacher, a coach) are
not among them: "the user's friend is Tom" / "... is Anna" are two friends."""
_OWNER = re.compile(
    r"(?:'s|s'|\b(?:my|his|her|their|our|your)|\b(?:mein|dein|sein|ihr|unser|eur)(?:e|em|en|er|es)?"
    r"|\beuer|\b(?:ma|mon|ta|ton|sa|son|notre|votre|leur))\s+$"
)
"""What says the next word is someone's: "user's", "my", "their", "ihr", "sa" (German
and French: "*Ihr* Mann", "*sa* femme", where "Mann" and "femme" alone are "man" and
"woman")."""
_TOKEN = re.compile(r"[\u0600-\u06ff]+|[\u0900-\u097f]+|[\u0980-\u09ff]+|[^\W_]+(?:[-'][^\W_]+)*")
_HAN_CHAR = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_HANGUL_CHAR = re.compile(r"[\uac00-\ud7af]")
_ARABIC_CHAR = re.compile(r"[\u0600-\u06ff]")
HOLDER_WORDS = 3
"""A person among an entry's first this many words says whose the fact is ("User's
*partner* drives", "La *madre* de", "*Батько* користувача", "Kullanıcının *annesi*")."""
HOLDER_CHARS = 8
"""The same for Chinese and Japanese, in characters ("用户的*妻子*", "ユーザーの*父*は")."""


def _arabic(token: str) -> str | None:
    """The Arabic person ``token`` names, its conjunction, article and pronoun ending
    cut off ("والدته", "وزوجة", "الأم"), or None."""
    starts = [token] + ([token[1:]] if token[:1] in "وف" and len(token) > 3 else [])
    for start in starts:
        owned = start.startswith("ال")
        bare = start[2:] if owned else start
        for ending in ("", "هما", "هم", "ها", "ه", "ي", "ك", "نا"):
            if ending and not (bare.endswith(ending) and len(bare) > len(ending) + 1):
                continue
            base = bare[: len(bare) - len(ending)]
            for form in (base, base[:-1] + "ة" if ending and base.endswith("ت") else base):
                if form in _ARABIC or (form in _ARABIC_OWNED and (owned or ending)):
                    return form
    return None


def _person(token: str) -> str | None:
    """The person one ``token`` (folded) names, or None."""
    if token in _KIN:
        return _SAME.get(token, token)
    if token in _GREEK:
        return token
    if _HANGUL_CHAR.match(token):
        word = hangul_stem(token)
        return word if word in _HANGUL else None
    if _ARABIC_CHAR.match(token):
        return _arabic(token)
    if token in _DEVANAGARI:
        return token
    if "\u0980" <= token[:1] <= "\u09ff":
        forms = [token] + [token[: -len(e)] for e in _BENGALI_ENDINGS if token.endswith(e)]
        return next((f for f in forms if f in _BENGALI), None)
    if token.startswith(_TURKISH):
        return next(
            (k for k in _TURKISH if token.startswith(k) and token[len(k) :] in _TURKISH_ENDINGS),
            None,
        )
    return None


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def _found(folded: str) -> tuple[tuple[int, int, str], ...]:
    """Where ``folded`` text names a person: (start, end, the person), in order."""
    out: list[tuple[int, int, str]] = []
    for m in _TOKEN.finditer(folded):
        start = m.start()
        for part in m.group(0).split("'"):  # "l'oncle", "sister's"
            who = _person(part)
            if who is None and part in _ROLES and _OWNER.search(folded[:start]):
                who = part
            if who is not None:
                out.append((start, start + len(part), who))
            start += len(part) + 1
    out += [(m.start(), m.end(), m.group(0)) for m in _VIETNAMESE.finditer(folded)]
    # "reports to Marek" names the manager, as "the user's manager is Anna" does
    out += [(m.start(), m.end(), "manager") for m in REPORTS_TO.finditer(folded)]
    rest = folded
    for word in sorted(_HAN, key=len, reverse=True):  # 父亲 before 父
        for m in re.finditer(re.escape(word), rest):
            out.append((m.start(), m.end(), word))
        rest = rest.replace(word, "\0" * len(word))
    return tuple(sorted(out))


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def relatives(text: str) -> frozenset[str]:
    """The people ``text`` names, folded ("mother-in-law", "сын", "父亲", "babası": "baba")."""
    return frozenset(who for _, _, who in _found(fold(text)))


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def holders(text: str) -> frozenset[str]:
    """The people ``text`` names among its first words (:data:`HOLDER_WORDS`; Chinese and
    Japanese: :data:`HOLDER_CHARS`) or as someone's ("time zone of *the user's
    manager*"): whose the fact is ("*User's partner* drives")."""
    folded = fold(text)
    return frozenset(
        who
        for start, _, who in _found(folded)
        if (
            start < HOLDER_CHARS
            if _HAN_CHAR.match(folded[start])
            else len(folded[:start].split()) < HOLDER_WORDS
            or _OWNER.search(folded[:start]) is not None
        )
    )


def one_held(text: str) -> bool:
    """Whether ``text`` (the words before a value: "the user's *manager* is") names a
    person, and only people someone has one of at a time (:data:`ONE_HELD`): "the
    user's manager", not "the user's friend" nor "the manager of the user's friend"."""
    found = relatives(text)
    return bool(found) and found <= ONE_HELD


@per_reading
def _rest(text: str) -> frozenset[str]:
    """The content words of ``text`` once the people it names are left out."""
    folded = fold(text)
    for start, end, _ in reversed(_found(folded)):
        folded = folded[:start] + " " + folded[end:]
    return profile(folded).words - GENERIC


@per_reading
def _said(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The content words of ``text``, and those of them written as names."""
    p = profile(text)
    return p.words - GENERIC, p.names


def other_relatives(a: str, b: str) -> bool:
    """Whether entries ``a`` and ``b`` are about two people: both name people, and not the
    same ones; or one says whose the fact is (:func:`holders`) and the other names nobody,
    and does not say all the rest and more (a relation in its own words: "married to";
    a name more is a value: "User's wife has a US visa" / "User has a *Canadian* visa")."""
    ra, rb = relatives(a), relatives(b)
    if ra and rb:
        return ra != rb
    if not (ra or rb):
        return False
    named, other = (a, b) if ra else (b, a)
    if not holders(named):
        return False
    rest, (said, names) = _rest(named), _said(other)
    return not (rest < said and not (said - rest) & names)
