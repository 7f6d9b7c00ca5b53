"""Two values of a single-valued attribute: the same sentence with one value swapped.

"The primary database is in Frankfurt" and "the primary database is in Dublin" say one
frame with another word in one place, and so do "the user's team uses Jira for tickets" /
"... Linear for tickets", but so do two true facts: "has a subscription to Netflix" /
"... to Spotify" (a list), "the *search* cluster has 3 nodes" / "the *cache* cluster ..."
(two subjects). The embedder rates both kinds alike; what tells them apart is the
attribute the changed place is the value of, read from the words right before it. A
small table of **attribute kinds** (not of values) says which hold one value at a time:

* **where** a thing is or a person lives: "lives in", "is based in", "is hosted on",
  "wohnt in", "vive en", "habite à", "mora em", "abita a", "woont in", "живёт в",
  "mieszka w" (tidy 26: "live in", "run on", "wohnen in", "bor i", "bydlí v", "живе у",
  "tem sede em"); the copular forms ("is in", "ist in", "está en", "jest w", "zit in")
  only when the subject is a thing both name ("the primary database *is in*"), not the
  user alone ("the user is in a choir" / "is in Berlin");
* **where** one was born (tidy 25): "was born in", "nació en", "nasceu em", "è nato a",
  "est né à", "is geboren in", "urodził się w", "родился в", "s-a născut la": one place
  for life;
* **where** a person works: "works at", "works for", "arbeitet bei", "trabaja en",
  "travaille chez", "trabalha na", "lavora presso", "werkt bij", "работает в",
  "pracuje w" (a department may stand between: "pracuje w dziale *sprzedaży*");
* **what** a thing is about: "is about", "handelt von", "trata de", "porte sur", "é
  sobre", "parla di", "gaat over", "dotyczy";
* **which tool** serves one purpose: "uses *X* for tickets", "nutzt *X* für", "usa *X*
  para", "utilise *X* pour", "gebruikt *X* voor", with the purpose both say after it
  (two tools used for two things, or a tool alone, "uses ripgrep" / "uses fzf", are a
  list);
* **which provider** a service or function goes through (tidy 26): "card payments go
  *through* SumUp", "broadband *is with* BT", "banks with", "is insured with", "ist bei
  der", "läuft über", "par", "przez", "через", "är med", the name written with a capital
  (anywhere in it: "iPhone") on both sides, after a thing both name; "with", "mit",
  "con", "met", "cu" only before a thing (an indefinite article, a possessive, a word of
  its kind: "with *a* Garmin", "cu *aparatul* Omron", "with the DKV *card*"), since "plays
  tennis with Marco" names a companion; a model's number ending the entry is part of
  the name ("a Garmin Forerunner *255*");
* **who or which name** a key of the subject is: "the user's *home airport* is
  Gatwick", "the user's GP is Dr. Patel", a copula right before a value both sides
  write as a name, after a key both say; a person's key only when someone has one of
  them at a time ("the user's *manager* is Tom" / "... is Anna", a GP, a landlord, a
  spouse: :data:`.people.ONE_HELD`), never a relative, friend or client of which a user
  may have two ("the user's sister is Anna", "the user's client is Acme").

:func:`value_swap` is the rule; its vetoes: one side negated, either saying it adds
("also", "auch", "也"), a slot that differs (the slot rules' case), a value one side
spells out as the other's acronym, or misspells.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

from .acronyms import spelled
from .frames import common_ends
from .languages import ALSO
from .lexicon import STOP_WORDS, stem
from .meaning import misspelt
from .memo import searched
from .people import one_held, relatives
from .signals import GENERIC, Profile
from .slots import CJK_LETTER

__all__ = ["MANY", "Swap", "value_swap"]

_ART = (
    r"(?: (?:a|an|the|der|die|das|den|dem|ein|eine|einem|einer|el|la|los|las|un|una|le|"
    r"les|l|une|o|os|as|um|uma|il|lo|gli|i|de|het|een))?"
)
"""An article between the attribute and its value ("is in *the* cloud")."""

_PLACE = (
    r"lives (?:in|at)|is (?:based|located|hosted|deployed|stored|kept) (?:in|on|at|to)|"
    r"are (?:based|located|hosted|deployed|stored|kept) (?:in|on|at|to)|runs on|"
    r"roda (?:em|no|na)|corre (?:em|no|na)|gira su|draait op|se ejecuta en|tourne sur|"
    r"wohnt (?:in|im)|lebt (?:in|im)|sitzt (?:in|im)|läuft (?:in|im|auf)|"
    r"vive (?:en|em|no|na|a|in)|reside en|habite (?:à|a|en|au)|vit (?:à|a|en|au)|"
    r"mora (?:em|no|na)|abita (?:a|in)|woont (?:in|op)|"
    r"живёт (?:в|во)|живет (?:в|во)|проживает (?:в|во)|mieszka (?:w|we|na)|"
    r"live (?:in|at)|run on|wohnen (?:in|im)|leben (?:in|im)|bor (?:i|på)|bydlí (?:v|ve)|"
    r"býva (?:v|vo)|živi (?:u|v)|живее (?:в|във)|живе (?:в|у)|живут (?:в|во)|viu (?:a|en|al)|"
    r"is headquartered in|tem sede (?:em|no|na)|tiene (?:su )?sede en|"
    r"hat (?:seinen|ihren) sitz (?:in|im)|a son siège (?:à|a|en|au)"
)
"""Where a person lives or a thing runs, whoever the subject."""
_WHERE_IS = (
    r"is (?:in|on|at)|ist (?:in|im)|liegt (?:in|im)|está (?:en|em|no|na)|se encuentra en|"
    r"est (?:à|en|au)|se trouve (?:à|en|au)|fica (?:em|no|na)|è (?:a|in)|si trova (?:a|in)|"
    r"staat in|zit in|находится (?:в|во)|jest (?:w|we)|znajduje się (?:w|we)"
)
"""Where a thing is, said with a copula: only beside a subject both name."""
_EMPLOYER = (
    r"works (?:at|for|in)|is employed (?:at|by)|arbeitet (?:bei|für|in|im)|"
    r"trabaja (?:en|para)|travaille (?:chez|pour|à)|trabalha (?:na|no|em|para)|"
    r"lavora (?:presso|per|da|a|in)|werkt (?:bij|voor|in|op)|работает (?:в|во|на)|"
    r"pracuje (?:w|we|dla|na)"
)
_TOPIC = (
    r"is about|are about|handelt von|es sobre|trata (?:de|sobre)|porte sur|é sobre|"
    r"fala sobre|parla di|riguarda|gaat over|dotyczy|jest o"
)
_TOOL = (
    r"uses?|nutzt|verwendet|benutzt|usa|utiliza|utilise|utilisent|gebruikt|gebruiken|"
    r"używa|использует"
)
_BORN = (
    r"(?:was|is) born (?:in|at)|nació en|nasceu (?:em|no|na)|è nat[oa] (?:a|in)|"
    r"est née? (?:à|a|en|au)|is geboren in|urodził(?:a)? się (?:w|we)|"
    r"родил(?:ся|ась) (?:в|во)|s a născut (?:la|în)"
)
"""Where one was born: one place for life (tidy 25; "were born", several people, is not
read)."""
_MEANS = (
    r"through|(?<!in )via|über|par|à travers|a través de|mediante|tramite|attraverso|através de|"
    r"przez|za pośrednictwem|přes|cez|prostřednictvím|через|prin|genom|gjennom|igennem|"
    r"lewat|melalui|kwa|"
    r"(?:is|are|banks|bank|is insured|are insured) with|(?:ist|sind|läuft) bei|"
    r"(?:ist|sind) versichert bei|(?:est|sont) chez|chez|(?:è|sono) con|(?:está|es) con|"
    r"(?:é|está) com|(?:er|är) (?:med|hos)|(?:is|zit) bij|is van|"
    r"with|mit|con|avec|met|med|com|cu|bei"
)
"""Tidy 26: the means or provider a function goes through ("card payments go *through*
SumUp", "broadband *is with* BT", "the vineyard *banks with* Abanca", "die
Kfz-Versicherung *ist bei der* HUK", "la chorale communique *par* WhatsApp", "paczki
wysyłamy *przez* InPost"); "with", "mit", "con"... only with a word between them and the
name ("tracks runs with *a* Garmin", "cu *aparatul* Omron": a thing; "plays tennis with
Marco" is a companion, of whom a user may have several)."""
_WITH = frozenset(("with", "mit", "con", "avec", "met", "med", "com", "cu", "bei"))
"""The means words that also say "together with" someone: read only with a word between
them and the value (:data:`_MEANS`)."""
_A_THING = frozenset((
    "a", "an", "ein", "eine", "einem", "einer", "un", "una", "une", "um", "uma", "een", "en",
    "ett", "et", "his", "her", "their", "my", "our", "its", "sein", "seine", "seinem", "seiner",
    "ihr", "ihre", "ihrem", "ihrer", "su", "sus", "son", "sa", "ses", "leur", "leurs", "haar",
    "zijn", "hun", "hans", "hennes", "deras", "seu", "sua", "suo"
))  # fmt: skip
"""An indefinite article or a possessive before a name: a thing one has ("with *a*
Garmin", "met *haar* Canon"), where "with the Smiths" may be people."""
_ROUTE = frozenset((
    "pass", "passes", "passe", "passent", "passa", "passano", "passam", "drive", "drives",
    "travel", "travels", "fly", "flies", "route", "routes", "stop", "stops", "transits",
    "fährt", "fahren", "fliegt", "fliegen", "reist", "reisen", "viaja", "viajan", "vuela",
    "vuelan", "voyage", "voyagent", "vole", "volent", "viaggia", "vola", "rijdt", "vliegt",
    "jedzie", "jadą", "leci", "едет", "едут", "летит", "проходит"
))  # fmt: skip
"""Verbs of travelling (tidy 26): "through", "via", "par", "über" after one name the
places a route passes, a list of stops, not a provider."""
_PURPOSE = frozenset(("for", "für", "para", "pour", "per", "voor", "do", "для"))
_COPULA = r"is|ist|es|est|é|è|jest"

_KINDS = (
    ("where", re.compile(rf"(?:^| )({_PLACE}){_ART}$"), False),
    ("where", re.compile(rf"(?:^| )({_WHERE_IS}){_ART}$"), True),
    ("employer", re.compile(rf"(?:^| )({_EMPLOYER}){_ART}$"), False),
    ("topic", re.compile(rf"(?:^| )({_TOPIC}){_ART}$"), False),
    ("tool", re.compile(rf"(?:^| )({_TOOL}){_ART}$"), False),
    ("name", re.compile(rf"(?:^| )({_COPULA}){_ART}$"), True),
    ("born", re.compile(rf"(?:^| )({_BORN}){_ART}$"), False),
    ("provider", re.compile(rf"(?:^| )({_MEANS}){_ART}$"), True),
)
"""Each attribute kind: the words that end right before its value, and whether the
subject before them must be a content word both sides say (a thing, not the user)."""

_AFTER = (
    ("where", re.compile(r"^(?:de|da|te|ta|nde|nda) (yaşıyor|oturuyor|yaşar|oturur)\b")),
    ("employer", re.compile(r"^(?:de|da|te|ta|nde|nda) (çalışıyor|çalışır)\b")),
)
"""Turkish says the attribute after its value, the value's case ending written apart
once folded ("İzmir'*de yaşıyor*", "Aselsan'*da çalışıyor*")."""

MANY = re.compile(
    r"\b(?:friends?|colleagues?|co-?workers?|teammates?|neighbou?rs?|child(?:ren)?|kids?|"
    r"clients?|customers?|students?|patients?|kund(?:e|in|en)|klient(?:in|en|a)?|clientes?|"
    r"klant(?:en)?|клиент(?:а|ы|ов)?|客户|顾客)\b"
)
"""Whom a person has several of (friends, colleagues, neighbours, children, clients):
"the user's client is Acme" / "... is Globex" are two clients. Those someone has one
of at a time are :data:`.people.ONE_HELD`."""


@dataclass(frozen=True, slots=True)
class Swap:
    """The value each side gives one attribute: ``kind`` (``where``, ``born``, ``employer``,
    ``topic``, ``tool``, ``provider``, ``name``), the words said before it, and the two
    values."""

    kind: str
    tie: str
    was: tuple[str, ...]
    now: tuple[str, ...]


def _place(a: Profile, b: Profile) -> tuple[int, int, int, int] | None:
    """The one place where the content words of ``a`` and ``b`` differ (``a.order[i1:i2]``
    against ``b.order[j1:j2]``), each side holding words there; None when they differ in
    more places, or in none."""
    ops = difflib.SequenceMatcher(a=a.order, b=b.order, autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = changed[0]
    return i1, i2, j1, j2


def _kept(x: tuple[str, ...], y: tuple[str, ...]) -> int:
    """How many words ``x`` and ``y`` share at their start plus at their end (the two
    runs may overlap). When :func:`_place` finds one place ``x[i1:i2]`` / ``y[j1:j2]``,
    the words before it are one run (``i1 == j1``) and those after it another, so this is
    at least ``len(x) - (i2 - i1)`` and ``len(y) - (j2 - j1)``: a value of at most
    ``limit`` words on each side needs at least the longer side's length less ``limit``
    (tidycost: the bound is read before the sequence matcher, and no verdict changes)."""
    n = min(len(x), len(y))
    head = next((k for k in range(n) if x[k] != y[k]), n)
    tail = next((k for k in range(n) if x[-1 - k] != y[-1 - k]), n)
    return head + tail


def _tokens_before(p: Profile, word: str) -> list[str] | None:
    """The folded tokens ``p`` says before the content word ``word`` (a stem), None when
    it is not found or is CJK."""
    if word[:1] >= "\u3000":
        return None
    tokens = p.folded.split()
    at = next((i for i, t in enumerate(tokens) if stem(t) == word), None)
    return None if at is None else tokens[:at]


def _tie(before: list[str]) -> tuple[str, str, bool, int] | None:
    """The attribute that ends right before a value (``before``: the tokens before it):
    its kind, its words, whether its subject must be a shared thing, and where it starts;
    a word of the value's own ("w dziale *sprzedaży*": department) may stand between."""
    for skip in (0, 1, 2):
        if skip and (len(before) <= skip or before[-skip] in STOP_WORDS):
            break
        text = " ".join(before[: len(before) - skip])
        for kind, pattern, thing in _KINDS:
            if skip == 2 and kind != "provider":
                continue  # "through the *freight forwarder* Transgalicia": a kind of provider
            m = pattern.search(text)
            if m is not None:
                start = len(text[: m.start(1)].split())
                return kind, m.group(1), thing, start
    return None


_CJK_BEFORE = (
    ("where", re.compile(r"(?:住在|居住在|位于|部署在|托管在|运行在)$"), False),
    ("employer", re.compile(r"(?:就职于|任职于|供职于)$"), False),
    ("topic", re.compile(r"(?:是关于|是有关)$"), False),
    ("where", re.compile(r"在$"), True),
    (
        "name",
        re.compile(
            r"(?:经理|上司|老板|领导|家庭医生|牙医|房东|丈夫|妻子|老公|老婆|手机|汽车|车)是$"
        ),
        False,
    ),
    (  # ja, ko: a key someone has one of, then "は" / "은, 는" (tidy 14: "の車は", "의 차는")
        "name",
        re.compile(
            r"の(?:車|携帯|スマホ|上司|主治医|かかりつけ医|歯医者|大家さん|夫|妻)は$"
            r"|의 ?(?:차|자동차|휴대폰|핸드폰|상사|주치의|집주인|남편|아내)(?:은|는) ?$"
        ),
        False,
    ),
)
"""Chinese: the words that end right before a value ("住在*北京*", "主数据库在*法兰克福*",
"用户的经理是*王伟*": a role or thing someone has one of; "ユーザーの車は*マツダ*",
"사용자의 차는 *소나타*"), and whether a thing both name must stand
before them ("在" alone: "用户在北京" may say where the user is today)."""
_CJK_AFTER = (
    ("employer", re.compile(r"^(?:工作|上班)"), re.compile(r"在$")),
    (
        "where",
        re.compile(r"^(?:に住|にある|にあり|に置いて|에 산|에 살|에서 산|에서 살|에 있)"),
        None,
    ),
    ("employer", re.compile(r"^(?:で働|に勤め|に勤務|에서 일|에 다니|에 다닌)"), None),
)
"""Japanese, Korean and Chinese: the words right after a value, when the attribute is
said after it ("*大阪*に住んでいる", "*부산*에 산다", "在*腾讯*工作"; the last with the
word that must stand before it)."""
_CJK_TIME = re.compile(r"[周月日年点時时曜]|星期|요일|[0-9]")
"""A value that names a time ("在周一工作", "月曜日に"): a schedule, which holds lists."""
_PUNCT = re.compile(r"[^\w\s]+")


def _cjk_swap(a: Profile, b: Profile) -> Swap | None:
    """:func:`value_swap` for text with CJK characters, read by character: the two texts
    differ in one run right after (or before) the attribute's words."""
    fa, fb = (" ".join(_PUNCT.sub(" ", unicodedata.normalize("NFKC", p.text).casefold()).split())
              for p in (a, b))  # fmt: skip
    p, q = common_ends(fa, fb)  # characters shared at the start, then at the end
    for back in range(3):  # "住在北京" / "住在北海道": the shared "北" is the value's
        for ahead in range(3):
            pa, qa = p - back, q - ahead
            if pa < 1 or qa < 0:
                continue
            va, vb = fa[pa : len(fa) - qa], fb[pa : len(fb) - qa]
            found = _cjk_tie(fa[:pa], fa[len(fa) - qa :], a)
            if found is None or not va.strip() or not vb.strip():
                continue
            if va in vb or vb in va or len(va) > 10 or len(vb) > 10:
                return None  # "北京" / "北京市": one value written longer
            if _CJK_TIME.search(va) or _CJK_TIME.search(vb):
                return None
            return Swap(found[0], found[1], (va.strip(),), (vb.strip(),))
    return None


def _cjk_tie(before: str, after: str, a: Profile) -> tuple[str, str] | None:
    """The attribute kind and words around a CJK value (``before`` and ``after`` it)."""
    for kind, pattern, thing in _CJK_BEFORE:
        m = pattern.search(before)
        if m is not None and not after.strip():
            if thing and not (set(CJK_LETTER.findall(before[: m.start()])) - set("用户的我们")):
                return None  # "用户在北京": the user, not a thing
            return kind, m.group(0)
    for kind, pattern, needs in _CJK_AFTER:
        m = pattern.search(after)
        if m is not None and (needs is None or needs.search(before)):
            return kind, m.group(0)
    return None


def value_swap(a: Profile, b: Profile, limit: int) -> Swap | None:
    """Whether ``a`` and ``b`` give one single-valued attribute two values (see the
    module docstring): the same content words but in one place of at most ``limit``
    words on each side, standing right after the same attribute words of a kind of
    :data:`_KINDS`. None when they do not, or a veto holds."""
    if limit <= 0 or a.negated or b.negated:
        return None
    numbered = a.stated != b.stated  # only a provider's model number may differ (below)
    if numbered and (searched(CJK_LETTER, a.text) or searched(CJK_LETTER, b.text)):
        return None
    if searched(ALSO, a.folded) or searched(ALSO, b.folded):
        return None
    if relatives(a.text) != relatives(b.text):
        return None
    if searched(CJK_LETTER, a.text) or searched(CJK_LETTER, b.text):
        return _cjk_swap(a, b)
    if _kept(a.order, b.order) < max(len(a.order), len(b.order)) - limit:
        return None  # more than ``limit`` words changed: no one place (before difflib)
    place = _place(a, b)
    if place is None:
        return None
    i1, i2, j1, j2 = place
    was, now = a.order[i1:i2], b.order[j1:j2]
    if len(was) > limit or len(now) > limit or set(was) & set(b.order) or set(now) & set(a.order):
        return None
    if len(was) == len(now) and all(map(_one_word, was, now)):
        return None  # "Gloabl" / "Global", "Amex Gol" / "Amex Gold": one value mistyped
    if not (_adjacent(a, set(was)) and _adjacent(b, set(now))):
        return None  # "in Frankfurt *for* staging" / "in Dublin for production": two places
    ba, bb = _tokens_before(a, was[0]), _tokens_before(b, now[0])
    if ba is None or bb is None:
        return None
    ta, tb = _tie(ba), _tie(bb)
    if ta is None and tb is None:
        after = _tie_after(a, was[-1]), _tie_after(b, now[-1])
        if after[0] is not None and after[0] == after[1] and not numbered:
            return Swap(after[0][0], after[0][1], tuple(was), tuple(now))
    if ta is None or tb is None or ta[0] != tb[0] or ta[1].split()[0] != tb[1].split()[0]:
        return None  # one kind and verb: "находится *во* Франкфурте" / "*в* Дублине"
    kind, tie, thing, start = ta
    key = [w for w in a.order[:i1] if w not in GENERIC]
    if thing and not (key and set(_content(ba[:start])) & set(key)):
        return None  # "the user is in Berlin" / "... in a choir": the user, not a thing
    if kind == "tool" and not (i2 < len(a.order) and _purpose_follows(a, was[-1])):
        return None  # "uses ripgrep" / "uses fzf": a list of tools, not one purpose
    brand = kind == "provider"
    if _named(a, set(was), brand) != _named(b, set(now), brand):
        return None  # "lives in *a flat*" / "lives in *London*": two kinds of value
    if numbered and not (
        kind == "provider"
        and _numbered(a, was[-1], a.stated - b.stated)
        and _numbered(b, now[-1], b.stated - a.stated)
    ):
        return None  # a number of the fact's own differs: the slot rules' case
    if kind == "provider":
        if tie in _WITH and not _a_thing(ba[start + 1 :], i2 < len(a.order)):
            return None  # "plays tennis with Marco", "with the Smiths": companions
        if not (_named(a, set(was), brand) and _named(b, set(now), brand)):
            return None  # "pays through the app" / "through the bank": no provider named
        if _ROUTE & set(ba[:start]):
            return None  # "the train passes through Lyon" / "... Dijon": a route's stops
    if kind == "name":
        if i2 != len(a.order) or j2 != len(b.order):
            return None  # the value ends the sentence: "home airport is Gatwick"
        if not (_named(a, set(was)) and _named(b, set(now))):
            return None  # "the team is small" / "... remote": adjectives, a list
        if searched(MANY, a.folded) or (relatives(a.text) and not one_held(a.text)):
            return None  # "the user's sister is Anna": a user may have two; one manager
    if spelled(a.text, b.text) is not None:
        return None  # "lives in New York" / "lives in NYC": one value spelled two ways
    return Swap(kind, tie, tuple(was), tuple(now))


def _a_thing(between: list[str], kind_after: bool) -> bool:
    """Whether the words ``between`` "with" (:data:`_WITH`) and a name say the name is a
    thing: a word of its kind ("cu *aparatul* Omron"), an indefinite article or a
    possessive (:data:`_A_THING`), or a kind said after the name (``kind_after``: "with
    the DKV *card*")."""
    if not between:
        return False
    return kind_after or between[-1] in _A_THING or any(w not in STOP_WORDS for w in between)


def _numbered(p: Profile, last: str, own: frozenset[str]) -> bool:
    """Whether the one slot ``own`` (the one only ``p`` states) is written right after the
    value ending in the content word ``last``, ending the entry with no comma between: a
    model's number, part of its name ("a Garmin Forerunner *255*" / "a Coros Pace *3*"),
    not a value of the fact's own ("with EE, 30 GB")."""
    tokens = p.folded.split()
    at = max((i for i, t in enumerate(tokens) if stem(t) == last), default=None)
    if at is None:
        return False
    values = [v.partition(":")[2] for v in own]
    if len(values) != 1 or tokens[at + 1 :] != values:
        return False  # the number ends the entry, right after the name
    raw = p.text.rstrip(" .!")
    head = raw[: -len(values[0])]
    return raw.endswith(values[0]) and head.endswith(" ") and head.rstrip()[-1:].isalpha()


def _one_word(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are one word mistyped: misspelt (:func:`.meaning.misspelt`)
    or cut short ("Gol" for "Gold")."""
    return misspelt(x, y) or (min(len(x), len(y)) >= 3 and (x.startswith(y) or y.startswith(x)))


def _adjacent(p: Profile, words: set[str]) -> bool:
    """Whether the content ``words`` of ``p`` are written one after the other, no word
    between them: one value ("New York", "energia solar"), not a value and a word of
    another place joined by a function word ("Frankfurt for staging")."""
    tokens = [stem(t) for t in p.folded.split()]
    at = [i for i, t in enumerate(tokens) if t in words]
    return bool(at) and all(t in words for t in tokens[at[0] : at[-1] + 1])


def _tie_after(p: Profile, last: str) -> tuple[str, str] | None:
    """The attribute said right after a value ending in the content word ``last``
    (:data:`_AFTER`): its kind and its verb."""
    tokens = p.folded.split()
    at = next((i for i, t in enumerate(tokens) if stem(t) == last), None)
    if at is None:
        return None
    rest = " ".join(tokens[at + 1 :])
    for kind, pattern in _AFTER:
        m = pattern.match(rest)
        if m is not None:
            return kind, m.group(1)
    return None


def _named(p: Profile, words: set[str], inside: bool = False) -> bool:
    """Whether each of the content ``words`` of ``p`` is written with a capital, its
    first word aside (a name: "Dr. *Weber*", where :attr:`Profile.names` reads a word
    after a full stop as a sentence's first); with ``inside``, a capital anywhere in the
    word counts (a brand: "*iPhone*", "*sevDesk*")."""
    tokens = _NAME_TOKEN.findall(unicodedata.normalize("NFKC", p.text))[1:]
    capital = {
        stem(t.casefold()) for t in tokens if t[:1].isupper() or (inside and t != t.casefold())
    }
    return words <= capital


_NAME_TOKEN = re.compile(r"[^\W\d_]+")


def _content(tokens: list[str]) -> list[str]:
    """The stems of ``tokens`` that are no function words."""
    return [stem(t) for t in tokens if t not in STOP_WORDS]


def _purpose_follows(p: Profile, last: str) -> bool:
    """Whether a word of purpose ("for", "für", "para") follows the value ending in the
    content word ``last``, with a content word after it ("uses Jira *for tickets*")."""
    tokens = p.folded.split()
    at = max((i for i, t in enumerate(tokens) if stem(t) == last), default=None)
    if at is None:
        return False
    rest = tokens[at + 1 :]
    return bool(rest) and rest[0] in _PURPOSE and any(t not in STOP_WORDS for t in rest[1:])
