"""A role with one holder, named plainly with another name (tidy 21).

"The food bank coordinator is Sheila" / "Food bank coordinator: Raj Patel",
"Inspektorem nadzoru na Długiej jest pan Nowak" / "... jest pani Zielińska",
"孫の担任は田中先生" / "... 佐藤先生": the two entries say the same key, a copula (a word,
or ":" and a dash) and a person's name after it, and differ only in the name. A key
that says which role ("the X", "X of Y is", "X は") holds one name at a time: the
newer entry names its new holder, with no "new" and no marker of change.

Tidy 22 reads two more ways of writing it: a detail after the name's comma, with or
without a marker before the name ("Our landlord is now Mr Okafor, from the agency", "Le
chef de centre est Aylin Demir, élue en février"; after a word copula only, the detail
opening with a small letter and no word of a list), and the name first ("Femke is de
penningmeester van de vereniging", "Raj Patel is our food bank coordinator": a key made
definite by its first word, with no digit, after a name that is no word of the lexicon
and no day).

Apart: a key that differs in a word (two sites, two people's dentists, "los martes" /
"los jueves"), a key whose head is a person someone has many of ("her *friend* is
Anna" / "... is Maria": two friends; :func:`.people.relatives` not in
:data:`.people.ONE_HELD`), a name the other also says ("Dr. Patel" / "Dr. Anil Patel":
the same person), a list ("... are Tom and Ann"), "also", a negation. Two inflections
or genders of one key word ("Vedoucím" / "Vedoucí", "síndico" / "síndica",
"Координатор" / "Координаторка") are one key.

:func:`holder_swap` gives the reason, or None.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .attributes import MANY
from .languages import ALSO
from .lexicon import STOP_WORDS, fold, stem
from .memo import per_reading, searched
from .people import ONE_HELD, relatives
from .phrases import UPDATE
from .signals import GENERIC, Profile, profile

__all__ = ["holder_swap"]


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_TOKEN = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*\.?|[:—–]")
_COPULAS = frozenset(
    _listed(
        """
    is ist es est é è jest je är er ir adalah ialah ay là
    : — –
        """
    )
)
"""A copula, or the colon and dash a note writes for one ("Coordinator: Raj Patel"), in
the languages whose notes the sets hold (en, de, es, fr, pt, it, pl, cs, sk, sv, da,
no, uk (a dash), lv, id, ms, tl, vi, nl); not Finnish "on", which English reads as
"on Saturdays"."""
_HONORIFICS = frozenset(
    _listed(
        """
    dr dr. dra dra. mr mr. mrs mrs. ms ms. miss prof prof. doc doc. ing ing. mgr mgr.
    herr herrn frau sr sr. sra sra. señor señora mme mlle dott dott. dottoressa dokter
    doktor pan pani panem panią seu dona si sina chị anh cô ông bà bác ibu bapak pak bu
    fru o a m. mme. mlle. mr.
        """
    )
)
"""Titles and forms of address before a name ("pan Nowak", "si Dr. Santos", "chị Lan",
"o seu Antônio"); "o" and "a" are Portuguese articles before a name."""
_ARTICLES = frozenset(
    _listed("the a an our der die das den dem el la los las le les l' o os il lo de het")
)
_WORD_COPULAS = _COPULAS - {":", "—", "–"}
_DEFINITE = frozenset(
    _listed(
        """
    the our my his her their your de het der die das den dem des le la l' les el los las
    o os il lo unser unsere unserer notre nos nuestro nuestra nosso nossa nostro nostra
    onze vår vårt vores vores naš naša nasz nasza
        """
    )
)
"""Words that make a key definite after a name and its copula ("Femke is *de*
penningmeester", "Raj Patel is *our* coordinator"): one holder. English "a" and "an"
name a kind ("Ana is a nurse"); Portuguese "a" after "é" is the definite article."""
_CJK = re.compile(
    r"^(?P<key>.+?)(?P<cop>是|は|는|은|：|:)\s*"
    r"(?P<name>[\u4e00-\u9fff\u30a0-\u30ff\uac00-\ud7af]{1,3}?|[A-Z][\w.]*(?: [A-Z][\w.]*)*)"
    r"\s*(?P<title>先生|医生|医師|老师|老師|さん|様|선생님|씨|의사)?$"
)
_CJK_TITLED = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ff\uac00-\ud7af]")
_LISTED = re.compile(r"[,;/()\"'‘’“”„«»]")
"""Punctuation a name does not hold: a list, a quoted variety, a note in brackets."""
_LIST = frozenset(_listed("and und y et e en и i oraz och og và dan at"))


def _capital(token: str) -> bool:
    return token[:1].isupper()


_OURS = frozenset(
    _listed(
        """
    our my unser unsere unserer mein meine notre nos mon ma mes nuestro nuestra mi nosso
    nossa meu minha nostro nostra mio mia onze mijn vår vårt min mitt vores nasz nasza
    naszego mój moja
        """
    )
)
"""Possessives of the one who keeps the notes ("*our* vet", "*unser* Ansprechpartner"):
"our X" and "the X" name one role in the notes the user keeps (tidy 30); "their",
"his", "her" name someone else's."""
_AT_FIRM = re.compile(
    r"(?<=\w)\s+(?:at|from|of|bei|von|chez|presso|bij|från|hos)\s+"
    r"(?:the\s+)?[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|&|and|und))*\s*[.!]?$"
)
"""Where a holder works, after the name at the end of the sentence ("Kev *at Riverside
Motors*", "Harriet Cole *at Cole & Co*", "Frau Kessler *von der* ..." is not: a small
word after it): a detail of the holder, not a second name (tidy 30)."""


def _firm_cut(text: str) -> str:
    """``text`` without the firm its holder's name is said with (:data:`_AT_FIRM`)."""
    return _AT_FIRM.sub("", text.strip())


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def _split(text: str) -> tuple[list[str], tuple[str, ...]] | None:
    """The key (folded words before the copula, articles left out) and the name after it
    (folded words, titles left out), or None when ``text`` does not end in a name after a
    copula. An update marker may stand between the copula and the name ("is *now* Mr
    Okafor"); after a word copula (never ":" or a dash, which write lists) a detail may
    follow the name after a comma, when it opens with a small letter and no word of a
    list ("Aylin Demir, *élue en février*")."""
    text = _firm_cut(text).rstrip(".!")
    split = _key_first(text)
    if split is not None:
        return split[:2]
    head, comma, tail = text.partition(",")
    if not comma or not _detail(tail):
        return None
    split = _key_first(head.strip())
    if split is None or split[2] not in _WORD_COPULAS:
        return None
    return split[:2]


def _detail(tail: str) -> bool:
    """Whether ``tail``, the words after a name's comma, is a detail about the holder
    ("élue à la réunion de février", "from the agency"), not more items of a list
    ("Sonnencreme", "and Ann") or another clause of its own."""
    words = tail.split()
    return bool(words) and words[0][:1].islower() and fold(words[0]) not in _LIST


def _key_first(text: str) -> tuple[list[str], tuple[str, ...], str] | None:
    """The key, the name and the copula of "KEY COPULA [marker] NAME", or None."""
    matches = list(_TOKEN.finditer(text))
    tokens = [m.group(0) for m in matches]
    i = len(tokens)
    named = False
    while i > 0:
        token = tokens[i - 1]
        low = fold(token)
        if low in _HONORIFICS:
            i -= 1
            continue
        if _capital(token) and low not in _COPULAS:
            named = True
            i -= 1
            continue
        break
    end = i  # where the name starts
    while i > 1 and UPDATE.fullmatch(fold(tokens[i - 1])) and fold(tokens[i - 1]) not in _COPULAS:
        i -= 1  # "is *now* Mr Okafor"
    if not named or i < 2 or fold(tokens[i - 1]) not in _COPULAS:
        return None
    if _LISTED.search(text, matches[end].start()):
        return None  # "Packliste: Adapter, Sonnencreme", "Erbsen 'Kelvedon Wonder'": items
    key = [fold(t) for t in tokens[: i - 1] if fold(t) not in _ARTICLES]
    if key and key[0] in _OURS:
        key = key[1:]  # "*Unser* Ansprechpartner ist ..." / "Ansprechpartnerin ist ..."
    name = tuple(
        fold(t).rstrip(".") for t in tokens[end:] if fold(t) not in _HONORIFICS and _capital(t)
    )
    if not key or any(w in _LIST for w in key[-1:]):
        return None
    return key, name, fold(tokens[i - 1])


@per_reading
def _name_first(text: str) -> tuple[list[str], tuple[str, ...]] | None:
    """The key and the name of "NAME COPULA [marker] the KEY" ("Femke is de
    penningmeester van de vereniging", "Raj Patel is our food bank coordinator"), or
    None. The name is capitalised words at the head, none of them a word of the lexicon
    or a day (a slot: "Samstags ist der Laden ..."); the copula is a word; the key opens
    with a word that makes it definite ("the", "de", "our", "the user's": one holder;
    "a nurse" names a kind of person, which many are) and holds no digit (a role is named
    by words; "bis 16 Uhr offen" is a state). A detail after a comma is left out as in
    :func:`_split`."""
    text = text.strip().rstrip(".!")
    head, comma, tail = text.partition(",")
    if comma:
        if not _detail(tail):
            return None
        text = head.strip()
    tokens = _TOKEN.findall(text)
    k, name = 0, []
    while k < len(tokens) and (fold(tokens[k]) in _HONORIFICS or _capital(tokens[k])):
        low = fold(tokens[k])
        if low not in _HONORIFICS:
            if low in _COPULAS or low in STOP_WORDS or low in _ARTICLES or stem(low) in GENERIC:
                return None
            if profile(tokens[k]).slots:
                return None  # "Dinsdag", "Samstags": when, not who
            name.append(low.rstrip("."))
        k += 1
    if not name or k >= len(tokens) or fold(tokens[k]) not in _WORD_COPULAS:
        return None
    copula, k = fold(tokens[k]), k + 1
    while k < len(tokens) and UPDATE.fullmatch(fold(tokens[k])):
        k += 1  # "is now the treasurer"
    if k >= len(tokens):
        return None
    first = fold(tokens[k])
    definite = (
        first in _DEFINITE
        or first.endswith(("'s", "’s"))
        or (
            first == "a" and copula == "é"  # Portuguese "é a chefe": the definite article
        )
    )
    rest = tokens[k:]
    if not definite or any(c.isdigit() for t in rest for c in t):
        return None
    if _LISTED.search(" ".join(rest)):
        return None
    key = [fold(t) for t in rest if fold(t) not in _ARTICLES]
    if not key or key[-1] in _LIST:
        return None
    return key, tuple(name)


@lru_cache(maxsize=4096)
def _cjk(text: str) -> tuple[list[str], tuple[str, ...]] | None:
    """The key and name of a Chinese, Japanese or Korean note ("孫の担任は田中先生"): a
    name of up to three characters with a title after it, or a name in Latin letters."""
    m = _CJK.match(text.strip().rstrip("。."))
    if m is None:
        return None
    name = m.group("name")
    if _CJK_TITLED.match(name) and m.group("title") is None:
        return None  # "用户的手机是华为": a thing, not a person
    return [m.group("key")], (name,)


def _one_word(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are one word in two inflections or genders: equal, or a
    shared start of five letters or more with at most three letters more on either."""
    if x == y:
        return True
    common = 0
    for cx, cy in zip(x, y, strict=False):
        if cx != cy:
            break
        common += 1
    return common >= 5 and max(len(x), len(y)) - common <= 3


def _typo(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` differ by one letter changed, added or left out."""
    if abs(len(x) - len(y)) > 1 or min(len(x), len(y)) < 4:
        return False
    i = 0
    while i < min(len(x), len(y)) and x[i] == y[i]:
        i += 1
    return x[i + 1 :] == y[i + 1 :] or x[i + 1 :] == y[i:] or x[i:] == y[i + 1 :]


def _many_held(key: list[str], text: str) -> bool:
    """Whether the key's head (its first or last word) is a person someone has many of
    ("her *friend*", "los *hijos*", :data:`.attributes.MANY`: "the user's *client*"), or,
    in Chinese or Japanese, ends with one."""
    if MANY.search(" ".join(key)):
        return True  # "the user's *client* is Acme" / "... is Globex": two clients
    many = relatives(text) - ONE_HELD
    if not many:
        return False
    ends = {key[0], key[-1]}
    return any(w in ends or key[-1].endswith(w) for w in many)


def holder_swap(a: Profile, b: Profile) -> str | None:
    """The reason ``a`` and ``b`` give one role two holders (see the module docstring),
    or None."""
    if a.negated or b.negated or searched(ALSO, a.folded) or searched(ALSO, b.folded):
        return None
    sa = _split(a.text) or _name_first(a.text) or _cjk(a.text)
    sb = _split(b.text) or _name_first(b.text) or _cjk(b.text)
    if sa is None or sb is None:
        return None
    (ka, na), (kb, nb) = sa, sb
    if len(ka) != len(kb) or not all(_one_word(x, y) for x, y in zip(ka, kb, strict=True)):
        return None
    if set(na) & set(nb) or not na or not nb:
        return None  # "Dr. Patel" / "Dr. Anil Patel": the same person
    if any(_typo(x, y) for x in na for y in nb):
        return None  # "Jordan" / "Jordon": one name misspelt
    if _many_held(ka, a.text) or _many_held(kb, b.text):
        return None
    key = " ".join(ka)
    return f"one holder of '{key}': {' '.join(na)} / {' '.join(nb)}"
