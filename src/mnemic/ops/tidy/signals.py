"""What tidy reads in a memory entry, and how two entries compare, without a model.

Entries are short (a line or two) and written in any language, so nothing here parses
grammar. An entry becomes a :class:`Profile`:

* its **text folded** (NFKC, case folded, punctuation dropped) and the set of its
  character 3-grams (**shingles**: Graphiti's signal for short names, robust to case,
  punctuation and small edits in any script);
* its **content words**: Latin words by their stem (:func:`.lexicon.stem`, the Snowball
  English stem cut to six letters: "prefers" and "preferred", "logs" and "log" meet),
  CJK text in bigrams, minus the function words, frame words
  (everyday verbs: ``goes``, ``trinkt``, ``toma``, ``喝``) and names of its values'
  kinds (``version`` beside 3.11) of :mod:`.lexicon`; the frame words it held are kept
  apart (:attr:`Profile.frame`) to say why two wordings are one fact;
* its **slots**: the values a fact can change while the sentence stays the same, each
  with its kind: numbers, versions (``3.10``), times (``9:30``), dates and month or
  weekday names, paths, URLs, e-mail addresses, identifiers mixing letters and digits
  (``host-7``, ``UTC+1``, ``Q3``), time zones named without an offset (``UTC``), read by
  :mod:`.slots`;
* whether it is **negated** (``not``, ``no longer``, ``stopped``, ``dejó de``, ``不``...) and
  whether it says it is an **update** (``now``, ``switched to``, ``jetzt``, ``ahora``,
  ``现在``, ``改用``...), and then the content words right after that marker, or after
  the particle that follows it ("changed dinner *to*"): where an update names its new
  value (**changed to**), and the value it names as replaced (**was**: "moved *from
  Berlin* to", "*not Jira*", "*instead of* Jira");
* **when**: the slots of a phrase of since when it holds ("since *October*", "seit
  *2024*"; :mod:`.phrases`), whose words are not content words; such a phrase also
  marks the entry as an update whose whole text is the new value.

:func:`compare` gives the pair signals :mod:`.detect` decides on: shingle Jaccard,
content-word overlap, the words only one side has, whether the slots differ, whether
one side is negated. Two entries that differ only in a slot or a negation are the same
subject with a different value (a contradiction), however similar they look: that is the
case embeddings rate 0.94 and more.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from .hangul import HANGUL, USER as HANGUL_USER, hangul_stem
from .lexicon import (
    FRAME_NOUNS,
    FRAME_STEMS,
    FRAME_ZH,
    KIND_NAMES,
    REPORTS_TO,
    STOP_CHARS,
    STOP_WORDS,
    concepts,
    in_charge,
    read_moves,
    same_verb,
    spelled_out,
    stem,
    two_words,
    verb_links,
)
from .numerals import digits, durations
from .phrases import (
    CALENDAR,
    CHANGE_VERB,
    HABITUAL,
    NEGATION,
    OLD_VALUE,
    SINCE,
    UPDATE,
    WHEN,
    calendar_value,
    day_lists,
    day_month,
    negation_in,
    negation_said,
)
from .readings import LATEST, version as reading_version
from .slots import CJK, read_slots

__all__ = ["GENERIC", "PairSignals", "Profile", "compare", "profile", "said"]

AFTER_UPDATE = 3
"""Content words read after an update marker as the value it changed to."""
TO_WITHIN = 3
"""How far after an update marker a particle ("to", "a", "auf", "成") says the value
comes next."""
_TO = re.compile(r"to|into|a|al|à|au|aux|auf|zu|zum|zur|成|为|到")
_REPLACED = re.compile(
    r"replaced|swapped|ersetzt|reemplazó|sustituyó|remplacé|remplacée|trocou|substituiu|"
    r"sostituito|sostituita|vervangen|verving"
)
"""A marker that names the key first and the new value after its own particle
(:data:`_BY`), however far: "replaced *the Monday workout* with yoga"."""
_BY = re.compile(r"with|by|for|durch|mit|por|pelo|pela|con|col|par|door")

_CJK_CHAR = re.compile(f"[{CJK}]")
_INDIC = "\u0900-\u0dff"
"""Devanagari and the other Indic scripts, whose vowel signs are no word characters to
``re``: a word is its whole run ("उपयोगकर्ता", not "उपय" and "गकर")."""
_WORD = re.compile(rf"用户|ユーザー|{HANGUL.pattern}|[{CJK}]|[{_INDIC}]+|[^\W_{CJK}]+", re.UNICODE)

# Who most entries are about: a subject too common to make two entries the same subject
# ("user", "Nutzer", "usuario", "utilisateur", "utilizador", "utente", "gebruiker")
GENERIC = frozenset(
    {"user", "nutzer", "benutz", "usuari", "utilis", "utiliz", "utent", "gebrui"}
    | {"kullan", "пользо", "uzytko"}  # tr kullanıcı, ru пользователь, pl użytkownik
    # sv användare, uk користувач, ar المستخدم, hi उपयोगकर्ता, vi người dùng
    | {"anvand", "корист", "المستخ", "उपयोगक", "người", "dung"}
    | {"用户", "ユーザー", HANGUL_USER}
)

_FRAME_ZH = re.compile("|".join(FRAME_ZH))
_KANA_GRAMMAR = re.compile(
    r"(?<=[\u3400-\u9fff])[\u3040-\u309f]+|(?<![\u3040-\u309f])[\u3040-\u309f](?![\u3040-\u309f])"
)
"""Japanese grammar in hiragana: a run right after a kanji (its ending and auxiliaries:
"飲*んでいる*", "佐藤*さんです*") or a lone character (a particle: "コーヒー*を*"). A
longer run elsewhere is a word written in hiragana ("*すし*が好き")."""


@dataclass(frozen=True, slots=True)
class Profile:
    """What tidy reads in one entry (see the module docstring)."""

    text: str
    folded: str
    shingles: frozenset[str]
    words: frozenset[str]
    """Content words (stems; CJK characters), function words and slots left out."""
    slots: frozenset[str]
    negated: bool
    update: bool
    changed_to: tuple[str, ...] = ()
    """The first :data:`AFTER_UPDATE` content words after its update marker, in order
    ("switched to *Sublime Text*", "now uses *vim*"): where an update names what it
    changed to."""
    order: tuple[str, ...] = ()
    """Its content words in the order it says them (:attr:`words`, repeats kept)."""
    frame: frozenset[str] = frozenset()
    """The frame words it holds (:mod:`.frame`: everyday verbs, names of its values'
    kinds), left out of :attr:`words`."""
    negation: str = ""
    """The words that negate it ("no longer", "dejó de"), when it is negated."""
    after_update: tuple[str, ...] = ()
    """Every content word after its update marker (or after the particle that follows
    it), in order: where an update says what it changed to (:attr:`changed_to` holds
    the first few)."""

    when: frozenset[str] = frozenset()
    """The slots it says in a phrase of since when it holds ("since *October*", "seit
    *2024*", "自*10*月起"), also in :attr:`slots`; that phrase's words are not in
    :attr:`words`."""

    was: tuple[str, ...] = ()
    """The content words an update names as the value it replaces: "moved *from
    Berlin* to Munich", "Linear now, *not Jira*", "*instead of* Jira", "从*Jira*换成"."""

    forms: tuple[tuple[str, str], ...] = ()
    """Each Latin content word as written (folded), by its stem: ("kunden",
    "kundendaten"), so two words of one stem can be told apart (:func:`compare`)."""

    names: frozenset[str] = frozenset()
    """Its content words written with a capital inside a sentence (stems): names, and
    German nouns ("writes chat replies in *Spanish*", "switched to *VS Code*")."""

    marked: bool = False
    """Whether a word marks it as an update ("now", "switched to", :data:`.phrases.UPDATE`),
    not only a phrase of since when: then the words after that word are its new value,
    and those before it its key, which the rules that read a rewording need."""

    reading: int = LATEST
    """The reading version it was read with (:mod:`.readings`; :data:`.readings.LATEST`
    for a text every version reads alike): the per-entry readings keep it apart
    (:func:`.memo.per_entry`)."""

    @property
    def stated(self) -> frozenset[str]:
        """Its slots but those of since when it holds: the values it states (kept per
        value of the two sets, whose hashes Python keeps: tidycost 2)."""
        key = (self.slots, self.when)
        try:
            return _STATED[key]
        except KeyError:
            pass
        if len(_STATED) >= 1 << 14:
            _STATED.clear()
        out = _STATED[key] = self.slots - self.when
        return out

    @property
    def kinds(self) -> frozenset[str]:
        """The kinds of its slots (``version``, ``time``, ``path``...), kept per set of
        slots (tidycost 2)."""
        try:
            return _KINDS[self.slots]
        except KeyError:
            pass
        if len(_KINDS) >= 1 << 14:
            _KINDS.clear()
        out = _KINDS[self.slots] = frozenset(v.partition(":")[0] for v in self.slots)
        return out

    @property
    def specific(self) -> int:
        """How much the entry says: content words plus slots."""
        return len(self.words) + len(self.slots)


_STATED: dict[tuple[frozenset[str], frozenset[str]], frozenset[str]] = {}
_KINDS: dict[frozenset[str], frozenset[str]] = {}

_IN_THE = re.compile(r"(?<=\w )n[oa](?= [A-ZÀ-ÖØ-Þ])")
"""Portuguese "no" / "na" ("in the") before a name inside a sentence ("mora *no* Porto",
"roda *na* Vercel"): read as "em", not as the negation "no" of English and Spanish
("has no car", "no come carne" precede a common word)."""


def _fold(text: str) -> str:
    """``text`` compared as tidy reads it: NFKC, case folded; Turkish "İ" is "i" (case
    folding writes it "i" and a combining dot, which split the word: "İzmir" read "zmir")."""
    text = unicodedata.normalize("NFKC", text).replace("\u0130", "i")
    return text.casefold().replace("\u2019", "'")


def said(p: Profile, words: frozenset[str] | set[str]) -> str:
    """The content ``words`` (stems, CJK characters and runs) of ``p`` as its text spells
    them, in order: ``Sublime Text`` for ``sublim, text``."""
    text = unicodedata.normalize("NFKC", p.text)
    spans = [
        (m.start(), m.end())
        for m in _WORD.finditer(text)
        if not _CJK_CHAR.match(m.group(0))
        and (stem(_fold(m.group(0))) in words or _fold(m.group(0)) in words)
    ]
    for w in (w for w in words if _CJK_CHAR.match(w)):  # every place the run is written
        spans += [(m.start(), m.end()) for m in re.finditer(re.escape(w), text)]
    out: list[str] = []
    last = -1
    for start, end in sorted(spans):  # CJK runs that meet, "gluten-free": one word
        if out and ((start <= last and _CJK_CHAR.match(text[start])) or text[last:start] == "-"):
            out[-1] += text[last:end]
        else:
            out.append(text[start:end])
        last = max(last, end)
    return " ".join(dict.fromkeys(out))


def _capitalised(text: str) -> frozenset[str]:
    """The words (folded) written with a capital inside a sentence: names and German
    nouns ("macht *Laufen*", "writes *Go*"), which are never frame words."""
    text = unicodedata.normalize("NFKC", text)
    return frozenset(
        _fold(m.group(0))
        for m in _WORD.finditer(text)
        if m.group(0)[:1].isupper()
        and text[: m.start()].rstrip()[-1:] not in ("", ".", "!", "?")
        and not (len(m.group(0)) == 1 and text[m.end() : m.end() + 1] == "-")  # "E-Mails"
    )


def _gap(m: re.Match[str]) -> str:
    """What a marker cut out of the text leaves: a function character after CJK (so the
    characters on either side are not read as one word), else a space."""
    return "的" if _CJK_CHAR.match(m.group(0)) else " "


def _is_frame(word: str, names: frozenset[str]) -> bool:
    """Whether ``word`` (folded, Latin) is a frame word: listed, and not written as a
    name (``names``), unless it is a noun of the lists ("Getränk")."""
    key = stem(word)
    return key in FRAME_STEMS and (word not in names or key in FRAME_NOUNS)


def _words(text: str, names: frozenset[str] = frozenset()) -> list[str]:
    """The content words of ``text`` in their order (a word may repeat); ``names``:
    words that are content even where a frame word is spelled the same."""
    out: list[str] = []
    run: list[str] = []  # consecutive CJK characters: compared by bigrams

    def flush() -> None:
        if len(run) == 1:
            out.append(run[0])
        out.extend(run[i] + run[i + 1] for i in range(len(run) - 1))
        run.clear()

    # a frame word ends a run of CJK characters as a function character does, and so
    # does Japanese grammar written in hiragana, and anything else between two characters
    # (a space, a number read as a value: "每月 欧元" is no word "月欧")
    end = 0
    for m in _WORD.finditer(_KANA_GRAMMAR.sub("的", _FRAME_ZH.sub("的", text))):
        token, gap, end = m.group(0), m.start() != end, m.end()
        if HANGUL.fullmatch(token):  # Korean: a word by its stem (:mod:`.hangul`)
            flush()
            if word := hangul_stem(token):
                out.append(word)
            continue
        if token in GENERIC:  # 用户: one word, although 用 alone is a function character
            flush()
            out.append(token)
            continue
        if _CJK_CHAR.fullmatch(token):
            if gap:
                flush()
            if token in STOP_CHARS:
                flush()
            else:
                run.append(token)
            continue
        flush()
        if token in HABITUAL:  # "Mondays": a value and a content word
            out.append(stem(HABITUAL[token]))
            continue
        if len(token) < 2 and token in names and token != "i" and token.isalpha():
            out.append(token)  # "Project *A*", "项目A": a letter written as a name
            continue
        if len(token) < 2 or token in STOP_WORDS or token.isdigit() or token in CALENDAR:
            continue  # a month or weekday is a value (a date): a slot
        if _is_frame(token, names):
            continue
        out.append(stem(token))
    flush()
    return out


def _after_update(folded: str, names: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The content words after the update marker of ``folded``, in order (none without
    one). When a particle follows the marker within
    :data:`TO_WITHIN` tokens ("changed *dinner* to low-carb", "cambió a", "改成"), or
    anywhere after "replaced" ("replaced *the Monday workout* with yoga"), the value is
    what comes after it; the words before it name the key. An entry whose only marker is
    a phrase of since when (:data:`.phrases.SINCE`: "since October the user lives in
    Munich", "... lives in Munich since October") says all of itself is new as of then:
    every content word but that phrase's."""
    marker = UPDATE.search(folded)
    if marker is None:
        if SINCE.search(folded) is None:
            return ()
        return tuple(_words(_joined(_WORD.findall(WHEN.sub(" ", folded))), names))
    end = marker.end()
    for when in WHEN.finditer(folded):  # "as of 2025, ...": the value follows the phrase
        if when.start() <= marker.start() < when.end():
            end = when.end()
    tokens = _WORD.findall(UPDATE.sub(_gap, WHEN.sub(" ", folded[end:])))
    if _REPLACED.fullmatch(marker.group(0)):  # "replaced the Monday workout *with* yoga"
        to = next((i for i, t in enumerate(tokens) if _BY.fullmatch(t)), None)
    else:
        to = next((i for i, t in enumerate(tokens[:TO_WITHIN]) if _TO.fullmatch(t)), None)
    after = tokens if to is None else tokens[to + 1 :]
    return tuple(_words(_joined(after), names))


def _joined(tokens: list[str]) -> str:
    """``tokens`` of :data:`_WORD` as text again: CJK characters that stood together
    together (one run), the others apart."""
    out = ""
    for token in tokens:
        apart = out and not (_CJK_CHAR.match(out[-1]) and _CJK_CHAR.match(token))
        out += (" " if apart else "") + token
    return out


def _old_value(folded: str, names: frozenset[str]) -> tuple[str, ...]:
    """The content words ``folded`` (an update) names as the value it replaces, in
    order (:data:`OLD_VALUE`)."""
    out: list[str] = []
    for m in OLD_VALUE.finditer(folded):
        if m.group(1) and m.group(0)[:1] in "fv" and not CHANGE_VERB.search(folded):
            continue  # "now commutes from Potsdam to Berlin": a route, not a move
        words = _words(next(g for g in m.groups() if g), names)
        if m.group(m.re.groups):  # "replaced *the Mondays workout* with": a habit's key
            words = [w for w in words if w not in _DAYS]
        out += words
    return tuple(out)


_DAYS = frozenset(stem(day) for day in HABITUAL.values())
"""A weekday said as a habit, read as a content word (:data:`.phrases.HABITUAL`)."""


def profile(text: str) -> Profile:
    """The :class:`Profile` of one entry (a function of its text and of the reading
    version in force, :mod:`.readings`: kept by them; a text every version reads alike,
    :func:`.quantities.read_alike`, is read once)."""
    v = reading_version()
    if v != LATEST:
        from .quantities import read_alike

        if read_alike(text):
            v = LATEST
    return _profile(text, v)


@lru_cache(maxsize=8192)  # rules read the profile of a text cut or rewritten per pair
def _profile(text: str, version: int) -> Profile:
    folded = durations(digits(spelled_out(_fold(_IN_THE.sub("em", text))), version))
    folded = in_charge(REPORTS_TO.sub("manager is", folded))
    folded = day_lists(day_month(concepts(read_moves(folded))))
    slots, rest = read_slots(folded)
    when: set[str] = set()
    phrases = WHEN.findall(folded)
    for phrase in phrases:
        when |= read_slots(phrase)[0]
        when |= {f"calendar:{calendar_value(w)}" for w in _WORD.findall(phrase) if w in CALENDAR}
    what = WHEN.sub(" ", folded) if phrases else folded  # its words: what, not since when
    if phrases:
        rest = read_slots(what)[1]
    slots |= {f"calendar:{calendar_value(w)}" for w in _WORD.findall(folded) if w in CALENDAR}
    marked = bool(UPDATE.search(folded))
    update = marked or bool(SINCE.search(folded))  # "since October": a new value
    negation = negation_in(folded)
    plain = UPDATE.sub(_gap, rest)
    plain = NEGATION.sub(_gap, plain)
    names = _capitalised(text)
    after = _after_update(folded, names) if update else ()
    was = _old_value(what, names) if update else ()
    named = frozenset().union(*(KIND_NAMES.get(v.partition(":")[0], ()) for v in slots))
    frame = {w for w in _WORD.findall(plain) if _is_frame(w, names) or stem(w) in named}
    frame |= set(_FRAME_ZH.findall(plain)) | {n for n in named if n[0] >= "\u3000" and n in plain}
    for name in sorted((n for n in named if n[0] >= "\u3000"), key=len, reverse=True):
        plain = plain.replace(name, "的")  # a CJK name of a kind present: a function word
    order = [w for w in _words(plain, names) if w not in named]
    flat = " ".join(_WORD.findall(folded))
    grams = {flat[i : i + 3] for i in range(max(1, len(flat) - 2))} if flat else set()
    return Profile(
        text,
        flat,
        frozenset(grams),
        frozenset(order),
        frozenset(slots),
        negation is not None,
        update,
        after[:AFTER_UPDATE],
        tuple(order),
        frozenset(w if w[0] >= "\u3000" else stem(w) for w in frame),
        negation_said(folded, negation),
        after,
        frozenset(when),
        was,
        tuple(sorted(_forms(plain, frozenset(order)))),
        frozenset(stem(n) for n in names) & frozenset(order),
        marked,
        version,
    )


def _forms(plain: str, words: frozenset[str]) -> set[tuple[str, str]]:
    """The Latin words of ``plain`` (folded) that are content ``words``, by stem."""
    return {
        (stem(t), t)
        for t in _WORD.findall(plain)
        if len(t) > 6 and not _CJK_CHAR.match(t) and stem(t) in words
    }


@dataclass(frozen=True, slots=True)
class PairSignals:
    """How two entries compare (see :func:`compare`)."""

    shingle_jaccard: float
    """Jaccard of the character 3-gram sets of the folded texts."""
    word_overlap: float
    """Shared content words over the smaller side's (1.0: one says nothing the other
    does not); the generic subject ("user", "用户") is not counted."""
    word_jaccard: float
    """Shared content words and slots over all of them."""
    shared: int
    """Content words both have (the generic subject not counted)."""
    only_a: frozenset[str]
    only_b: frozenset[str]
    slots_differ: bool
    """Both hold slot values of one kind (versions, times, numbers, dates, paths...) and
    they are not the same (3.10 vs 3.12, June 15 vs 22); a time beside a port is not."""
    slots_subset: bool
    """The slots of one are all in the other (equal, or one has none)."""
    negation_differs: bool
    update: bool
    """One of them says it is an update ("now", "switched to", "现在")."""
    cosine: float | None = None
    """Cosine of their embeddings, when the embedder ran."""

    @property
    def contained(self) -> float:
        """How much of the smaller entry the other holds (shingles or content words)."""
        return max(self.shingle_jaccard, self.word_overlap)

    @property
    def alike(self) -> float:
        """How alike the two are as a whole (shingles or content words and slots)."""
        return max(self.shingle_jaccard, self.word_jaccard)


def compare(a: Profile, b: Profile, cosine: float | None = None) -> PairSignals:
    """The signals of the pair ``a``, ``b`` (``cosine``: of their embeddings, if any)."""
    # sizes of unions by inclusion and exclusion, not built (tidycost 2): the same counts
    inter = len(a.shingles & b.shingles)
    union = len(a.shingles) + len(b.shingles) - inter
    jac = inter / union if union else 0.0
    a_words = _as_in(a.words, b.words)
    b_words = b.words
    two = {w for w in a_words & b_words if _two_words(a, b, w)}
    if two:  # "Kundendaten" / "Kundenkonten": one stem, two words, each as written
        a_words = (a_words - two) | {t for w, t in a.forms if w in two}
        b_words = (b_words - two) | {t for w, t in b.forms if w in two}
    a_words, b_words = _compounds(a, a_words, b_words), _compounds(b, b_words, a_words)
    shared = (a_words & b_words) - GENERIC
    kinds = a.kinds & b.kinds
    if kinds:
        ka, kb = _slots_by_kind(a), _slots_by_kind(b)
        differ = any(ka[k] != kb[k] for k in kinds)
    else:
        differ = False
    smaller = min(len(a_words - GENERIC), len(b_words - GENERIC))
    overlap = len(shared) / smaller if smaller else 0.0
    every_a, every_b = a_words | a.slots, b_words | b.slots
    both = len(every_a & every_b)
    together = len(every_a) + len(every_b) - both
    return PairSignals(
        jac,
        overlap,
        both / together if together else 0.0,
        len(shared),
        a_words - b_words,
        b_words - a_words,
        differ,
        a.slots <= b.slots or b.slots <= a.slots,
        a.negated != b.negated,
        a.update or b.update,
        cosine,
    )


_LINK = ("", "s", "n", "en", "e", "es")
"""What may join the head of a compound to its tail ("Produktion*s*datenbank", "Kunde*n*",
"klant*en*"), read past or added to meet the other entry's word."""


def _compounds(p: Profile, words: frozenset[str], other: frozenset[str]) -> frozenset[str]:
    """``words`` (of ``p``) with each compound the ``other`` entry says as two words
    read as those words: "Produktionsdatenbank" beside "Prod-DB" (production, database),
    "Kundendatenbank" beside "Datenbank der Kunden"."""
    out = set(words)
    for w, t in p.forms:
        if w in other or w not in words or len(t) < 8:
            continue
        parts = _parts(t, other)
        if parts:
            out = (out - {w}) | set(parts)
    return frozenset(out)


def _parts(word: str, other: frozenset[str]) -> tuple[str, str] | None:
    """The stems of the two words of ``other`` that ``word`` is made of, head then tail
    (a linking letter read past), None when it is not."""
    for heads, tail in _splits(word):
        if tail in other:
            head = next((h for h in heads if h in other), None)
            if head is not None:
                return head, tail
    return None


@lru_cache(maxsize=1 << 14)
def _splits(word: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Each way to cut ``word`` in two: the stems its head may stand for (a linking
    letter read past or added) and its tail's stem."""
    out = []
    for i in range(3, len(word) - 2):
        tail = stem(word[i:])
        head = word[:i]
        forms = {head[: len(head) - len(k)] for k in _LINK if head.endswith(k)}
        stems = {stem(h) for h in forms | {head + k for k in _LINK} if len(h) >= 3} - {tail}
        out.append((tuple(sorted(stems)), tail))
    return tuple(out)


def _two_words(a: Profile, b: Profile, w: str) -> bool:
    """Whether ``a`` and ``b`` write the stem ``w`` as two words (:func:`.lexicon.two_words`)."""
    fa, fb = _forms_of(a.forms).get(w, ()), _forms_of(b.forms).get(w, ())
    return bool(fa and fb) and all(two_words(x, y) for x in fa for y in fb)


_FORMS_OF: dict[tuple[tuple[str, str], ...], dict[str, tuple[str, ...]]] = {}


def _forms_of(forms: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, ...]]:
    """An entry's :attr:`Profile.forms` by stem, each stem's forms in their order, kept
    per value of ``forms`` (tidycost 2: :func:`_two_words` read the whole list for each
    shared word of each pair)."""
    try:
        return _FORMS_OF[forms]
    except KeyError:
        pass
    out: dict[str, list[str]] = {}
    for x, t in forms:
        out.setdefault(x, []).append(t)
    if len(_FORMS_OF) >= 8192:
        _FORMS_OF.clear()
    kept = _FORMS_OF[forms] = {x: tuple(ts) for x, ts in out.items()}
    return kept


def _as_in(words: frozenset[str], other: frozenset[str]) -> frozenset[str]:
    """``words`` with each word the other side says in another form of its verb (a
    participle, an infinitive: :func:`.lexicon.same_verb`) spelled as the other says it.

    A word no word of the other side links to, and that links to none of them
    (:func:`.lexicon.verb_links`), stays as it is without asking :func:`same_verb` of
    each (tidycost 2); any other is read as before, the first of the other's words in
    their order."""
    if not (_links_of(other) & words or _links_of(words) & other):
        return words  # no word of one side links to any of the other's: all stay
    theirs = other - words
    if not theirs:
        return frozenset(words)
    linked: set[str] = set()
    for t in theirs:
        linked |= verb_links(t)
    return frozenset(
        w
        if w in other or (w not in linked and not verb_links(w) & theirs)
        else next((t for t in theirs if same_verb(w, t)), w)
        for w in words
    )


_LINKS_OF: dict[frozenset[str], frozenset[str]] = {}


def _links_of(words: frozenset[str]) -> frozenset[str]:
    """Every stem a word of ``words`` links to (:func:`.lexicon.verb_links`), kept per
    set of words (an entry's: its hash is kept by Python)."""
    try:
        return _LINKS_OF[words]
    except KeyError:
        pass
    if len(_LINKS_OF) >= 8192:
        _LINKS_OF.clear()
    out = _LINKS_OF[words] = frozenset(x for w in words for x in verb_links(w))
    return out


_BY_KIND: dict[str, dict[str, frozenset[str]]] = {}


def _slots_by_kind(p: Profile) -> dict[str, frozenset[str]]:
    """``p``'s slots of each of its kinds (those of kind ``k`` start ``k:``), kept per
    text: :func:`compare` asked it of both sides for each kind they share, per pair
    (tidycost 2), and per reading version (:attr:`Profile.reading`)."""
    key = p.text if p.reading == LATEST else f"\x00{p.reading}\x00{p.text}"
    try:
        return _BY_KIND[key]
    except KeyError:
        pass
    if len(_BY_KIND) >= 8192:
        _BY_KIND.clear()
    out = _BY_KIND[key] = {
        k: frozenset(v for v in p.slots if v.startswith(k + ":")) for k in p.kinds
    }
    return out
