"""Search queries built safely from user (or model) text.

The little language, forgiving by design:

* words are ANDed: ``docker compose error``
* ``"quoted phrase"`` keeps words together and in order (an unbalanced quote is ignored)
* ``OR`` (upper case) or ``|`` between two terms: either one
* ``NOT word`` or ``-word``: exclude messages containing it
* ``prefix*``: any word starting with ``prefix``
* e-mail addresses, URLs, paths, versions and ``dotted.or-dashed_names`` are one term, found
  whole; CJK text is found inside longer runs (see :mod:`.segment`).

:func:`parse_query` turns text into a backend-neutral :class:`Query`; each backend renders
it (:meth:`Query.to_fts5` here, a ``tsquery`` in PostgreSQL). Every token is quoted when
rendered, so no input can reach the engine as syntax: the column filter ``content:x``,
``NEAR(``, stray ``*`` or ``"`` are plain text. :func:`match_spans` finds where the terms
occur in a message, for snippets, highlighting and extractive summaries.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from .segment import CJK_RUN, CONNECTORS, QueryTokens, has_cjk, segment_query

__all__ = [
    "MAX_QUERY_CHARS",
    "MAX_TERMS",
    "VOCABULARY_LIMIT",
    "FUNCTION_WORDS",
    "QUESTION_WORDS",
    "STOP_WORDS",
    "Match",
    "Query",
    "Term",
    "fold_term",
    "form_origins",
    "function_weights",
    "leading_languages",
    "match_spans",
    "parse_query",
    "question_languages",
]

MAX_QUERY_CHARS = 2000
"""Longer queries are cut here (reported as ``truncated``)."""
MAX_TERMS = 32
"""Terms beyond this many are dropped (reported as ``truncated``)."""
VOCABULARY_LIMIT = 500
"""Index terms a store reads per stem it looks up (:func:`~.stems.inflected`), at most."""

Match = Literal["all", "any"]

STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren't",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "can't",
        "cannot",
        "could",
        "couldn't",
        "did",
        "didn't",
        "do",
        "does",
        "doesn't",
        "doing",
        "don't",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "hadn't",
        "has",
        "hasn't",
        "have",
        "haven't",
        "having",
        "he",
        "he'd",
        "he'll",
        "he's",
        "her",
        "here",
        "here's",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "i",
        "i'd",
        "i'll",
        "i'm",
        "i've",
        "if",
        "in",
        "into",
        "is",
        "isn't",
        "it",
        "it's",
        "its",
        "itself",
        "just",
        "let's",
        "me",
        "more",
        "most",
        "mustn't",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "ought",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "shan't",
        "she",
        "she'd",
        "she'll",
        "she's",
        "should",
        "shouldn't",
        "so",
        "some",
        "such",
        "than",
        "that",
        "that's",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "there's",
        "these",
        "they",
        "they'd",
        "they'll",
        "they're",
        "they've",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "wasn't",
        "we",
        "we'd",
        "we'll",
        "we're",
        "we've",
        "were",
        "weren't",
        "what's",
        "when's",
        "where's",
        "who's",
        "why's",
        "with",
        "won't",
        "would",
        "wouldn't",
        "you",
        "you'd",
        "you'll",
        "you're",
        "you've",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "also",
        "ever",
        "yet",
        "would",
        "like",
        "get",
        "got",
    ]
)
"""English function words dropped from natural-language queries."""

QUESTION_WORDS = frozenset(
    [
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "how",
        "whats",
        "hows",
        "kind",
        "sort",
        "type",
        "likely",
        "would",
        "might",
        "many",
        "much",
    ]
)
"""Question words dropped from natural-language queries (they never occur in the answer)."""

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(text.split())
    for lang, text in {
        "german": """
            der die das den dem des ein eine einen einem einer und oder aber ist sind war
            waren hat habe hast haben hatte hatten wird werden wurde ich du er sie es wir
            ihr mein meine meinen dein deine sein seine nicht wie was wer wo wann warum
            welche welcher welches wohin woher mit von zu zum zur im am auf für bei aus
            nach um noch schon auch jetzt früher vorher heute mich mir dich dir uns euch
        """,
        "spanish": """
            el la los las un una unos unas y o pero es son fue era eran está están estaba
            ha he han había yo tú él ella nosotros mi mis tu tus su sus que qué quién
            quien cómo como dónde donde cuándo cuando cuánto cuanto cuánta cuanta cuál
            cual por para con de del al en me te se lo le nos no antes ahora todavía ya muy
        """,
        "french": """
            le la les un une des et ou mais est sont était étaient a ai as ont avait je
            tu il elle nous vous ils elles mon ma mes ton ta tes son sa ses notre votre
            leur qui que quoi où quand comment combien quel quelle quels quelles pour avec
            dans sur au aux du de ce cette ces se ne pas plus avant maintenant encore déjà
        """,
        "italian": """
            il lo la gli le un uno una e o ma è sono era erano ha ho hai hanno aveva io
            tu lui lei noi voi loro mio mia miei mie tuo tua suo sua che chi cosa come
            dove quando quanto quanta quale quali per con di del della dei delle nel
            nella al alla da dal dalla in su se si non prima adesso ora ancora già
        """,
        "portuguese": """
            o a os as um uma uns umas e ou mas é são foi era eram está estão estava tem
            têm tinha eu tu ele ela nós vocês eles elas meu minha meus minhas seu sua
            seus suas que quem como onde quando quanto quanta qual quais por para com de
            do da dos das no na nos nas ao se não antes agora ainda já muito
        """,
        "russian": """
            и в во не что он она оно они на я с со как а то это так его её ее но да ты
            к у же вы мы за бы по от из о об для где когда кто какой какая какие мой моя
            мои мне меня наш наша ваш был была было были есть сколько почему раньше
        """,
    }.items()
}
"""Function words of the languages whose inflections a question's words are matched in
(beyond the index's English Porter stemming): a question whose function words are
mostly of one of them is taken to be written in it (:func:`question_languages`)."""


def function_weights(
    lists: Mapping[str, frozenset[str]], english: frozenset[str] | None = None
) -> dict[str, dict[str, float]]:
    """Word -> {language: weight} over the function-word ``lists`` and ``english``'s
    (by default English's stop and question words): a function word weighs ``1 / k`` in
    each of the ``k`` languages whose list holds it, so a word two languages share ("a",
    "e", "in", "was") decides for neither alone."""
    english = STOP_WORDS | QUESTION_WORDS if english is None else english
    holders: dict[str, list[str]] = {}
    for lang, words in {"english": english, **lists}.items():
        for word in words:
            holders.setdefault(word, []).append(lang)
    return {w: {lang: 1 / len(langs) for lang in langs} for w, langs in holders.items()}


_WEIGHTS = function_weights(FUNCTION_WORDS)


def leading_languages(
    text: str, weights: Mapping[str, Mapping[str, float]], counts: dict[str, float]
) -> tuple[str, ...]:
    """The languages whose function words (``weights``, as :func:`function_weights`
    makes them) weigh the most among ``text``'s words, added to ``counts`` (one entry per
    language, English's among them), provided they weigh more than English's (English
    wins a tie); ``()`` otherwise. Two or more when they tie."""
    for word in re.findall(r"[^\W\d_]+", text):
        for lang, weight in weights.get(word.casefold(), {}).items():
            counts[lang] += weight
    english = counts.pop("english")
    best = max(counts.values(), default=0.0)
    if best <= english + 1e-9:
        return ()
    return tuple(lang for lang, n in counts.items() if abs(n - best) < 1e-9)


def question_languages(text: str) -> tuple[str, ...]:
    """The languages a natural-language question may be written in, of those of
    :data:`FUNCTION_WORDS`: those whose function words weigh the most among the question's
    words, provided they weigh more than English's (English wins a tie, so an English
    question is never taken for another language); ``()`` otherwise (English, no function
    words). A word weighs ``1 / k`` in each of the ``k`` languages (English included)
    whose list holds it: the Italian "dove", "sono" outweigh the "a" it shares with
    English, French and Portuguese; an opening "¿" or "¡" weighs 1 for Spanish, which
    alone writes them. Two or more when they tie."""
    counts: dict[str, float] = {lang: 0.0 for lang in ("english", *FUNCTION_WORDS)}
    counts["spanish"] += text.count("¿") + text.count("¡")  # marks Spanish alone writes
    return leading_languages(text, _WEIGHTS, counts)


CJK_STOP_WORDS = tuple(
    sorted(
        [
            "什么",
            "为什么",
            "怎么样",
            "怎么",
            "怎样",
            "哪里",
            "哪儿",
            "哪个",
            "哪些",
            "哪家",
            "哪天",
            "哪位",
            "哪年",
            "哪月",
            "多少",
            "几个",
            "是不是",
            "有没有",
            "是否",
            "请问",
            "我们",
            "你们",
            "他们",
            "她们",
            "它们",
            "自己",
            "这个",
            "那个",
            "这些",
            "那些",
            "一下",
            "的",
            "了",
            "吗",
            "呢",
            "吧",
            "啊",
            "是",
            "我",
            "你",
            "他",
            "她",
            "它",
            "谁",
        ],
        key=len,
        reverse=True,
    )
)
"""Chinese function and question words cut out of a natural-language question, longest
first (a question is one run of characters; what is left are the words worth finding)."""
_CJK_STOP = re.compile("|".join(map(re.escape, CJK_STOP_WORDS)))
NATURAL_CJK_CHARS = 8
"""A run of CJK characters this long, with no operators around, is taken for a question."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
_SCAN = re.compile(r'"([^"]*)"|(\S+)')
_PUNCT_EDGES = "()[]{}<>,;!?'`^$\u3001\u3002\uff0c\uff1f\uff01\u201c\u201d\u2018\u2019"


@dataclass(frozen=True, slots=True)
class Term:
    """One search term: the user's text and its segmented form."""

    text: str
    tokens: tuple[str, ...]
    prefix: bool = False
    whole: str | None = None
    phrase: bool = False
    """The user quoted it."""

    def fts5(self) -> str:
        """This term as an FTS5 expression (every token quoted)."""
        core = _quote(" ".join(self.tokens)) + (" *" if self.prefix else "")
        if self.whole is None:
            return core
        whole = _quote(self.whole) + (" *" if self.prefix else "")
        return f"({whole} OR {core})"


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: AND of OR-groups of terms, minus excluded terms.

    ``match="any"`` ORs every positive term (ranking decides); ``natural`` tells that stop
    words and question words were dropped.
    """

    text: str
    groups: tuple[tuple[Term, ...], ...] = ()
    excluded: tuple[Term, ...] = ()
    match: Match = "all"
    natural: bool = False
    truncated: bool = False
    dropped: tuple[str, ...] = field(default=())
    languages: tuple[str, ...] = ()
    """The languages of a natural-language question other than English
    (:func:`question_languages`): a store also matches its words' other inflections in
    them (:func:`~.stems.inflected`)."""

    @property
    def empty(self) -> bool:
        """No positive term: nothing can be searched."""
        return not self.groups

    @property
    def terms(self) -> tuple[Term, ...]:
        """Every positive term, in order."""
        return tuple(t for g in self.groups for t in g)

    def with_match(self, match: Match) -> Query:
        """The same terms combined with ``match``."""
        return Query(
            self.text, self.groups, self.excluded, match, self.natural, self.truncated,
            self.dropped, self.languages,
        )  # fmt: skip

    def per_term(self) -> list[Query]:
        """One single-term query per positive term, each keeping the exclusions."""
        return [
            Query(self.text, ((t,),), self.excluded, "all", self.natural, self.truncated,
                  languages=self.languages)
            for t in self.terms
        ]  # fmt: skip

    def to_fts5(self) -> str:
        """The FTS5 MATCH expression ('' when the query is empty)."""
        if self.empty:
            return ""
        if self.match == "any":
            terms = [t.fts5() for t in self.terms]
            expr = terms[0] if len(terms) == 1 else "(" + " OR ".join(terms) + ")"
        else:
            parts = []
            for group in self.groups:
                inner = [t.fts5() for t in group]
                parts.append(inner[0] if len(inner) == 1 else "(" + " OR ".join(inner) + ")")
            expr = parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"
        if self.excluded:
            neg = [t.fts5() for t in self.excluded]
            expr = f"{expr} NOT " + (neg[0] if len(neg) == 1 else "(" + " OR ".join(neg) + ")")
        return expr

    def describe(self) -> str:
        """A short human form of what is searched (for responses and logs), in the query
        syntax. A word of a question in another language that also matches other forms
        (:func:`~.stems.inflected`) is followed by them in one group, whatever the match:
        "Wann OR hat OR Marco OR (gearbeitet OR arbeitet)"."""
        joiner = " OR " if self.match == "any" else " "
        origins = form_origins(self)
        groups = [" OR ".join(_show(t) for t in g) for g in self.groups]
        text = joiner.join(
            f"({text})"
            if " OR " in text
            and (self.match == "all" or any(fold_term(t.text) in origins for t in g[1:]))
            else text
            for g, text in zip(self.groups, groups, strict=True)
        )
        if self.excluded:
            text += " " + " ".join("-" + _show(t) for t in self.excluded)
        return text.strip()


def _show(term: Term) -> str:
    core = term.text
    if term.phrase or " " in core:
        core = f'"{core}"'
    return core + ("*" if term.prefix and not core.endswith("*") else "")


def _clean(text: str) -> tuple[str, bool]:
    truncated = len(text) > MAX_QUERY_CHARS
    text = text[:MAX_QUERY_CHARS]
    return _CONTROL.sub(" ", text), truncated


def _make_term(raw: str, *, phrase: bool) -> Term | None:
    text = raw.strip()
    prefix = False
    if not phrase:
        text = text.strip(_PUNCT_EDGES)
        if text.endswith("*"):
            prefix = True
        text = text.strip("*" + _PUNCT_EDGES)
    else:
        text = " ".join(text.replace("*", " ").split())
    if not text:
        return None
    qt: QueryTokens = segment_query(text)
    if not qt.tokens:
        return None
    tokens = qt.tokens
    whole = None if phrase else qt.whole
    # a prefix on a compound ends its last part; a CJK single char is a prefix by itself
    return Term(text, tokens, prefix or qt.prefix, whole, phrase)


def _is_stop(term: Term) -> bool:
    if term.phrase or term.prefix or term.whole is not None or len(term.tokens) != 1:
        return False
    word = term.text.lower().strip(".'")
    return word in STOP_WORDS or word in QUESTION_WORDS


_HYPHENATED = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")


def _open_compounds(groups: list[list[Term]], budget: int) -> list[list[Term]]:
    """A question's hyphenated words ("Node-Version", "follow-up") also match their
    parts: each part joins the word's group as an alternative ("the production's Node
    version" is asked as "Node-Version", stated as "Node 11.9"). Within ``budget``
    terms; single letters and stop words among the parts are left out."""
    count = sum(len(g) for g in groups)
    out = []
    for group in groups:
        grown = list(group)
        for term in group:
            if term.phrase or term.whole is None or not _HYPHENATED.fullmatch(term.whole):
                continue
            for part in term.whole.split("-"):
                extra = _make_term(part, phrase=False) if len(part) > 1 else None
                if extra is None or _is_stop(extra) or count >= budget:
                    continue
                if all(extra.tokens != t.tokens for t in grown):
                    grown.append(extra)
                    count += 1
        out.append(grown)
    return out


def _split_cjk(groups: list[list[Term]], budget: int) -> tuple[list[list[Term]], list[str]]:
    """A question's CJK terms as words: its function and question words cut out, each
    remaining piece's bigrams as terms of their own (a question written without spaces
    is one term, which as a phrase matches only a message repeating it whole).
    Returns the groups and the words cut out."""
    out: list[list[Term]] = []
    cut: list[str] = []
    count = 0
    for group in groups:
        terms: list[Term] = []
        for term in group:
            if term.phrase or not has_cjk(term.text) or len(term.text) <= 2:
                terms.append(term)
                continue
            cut += _CJK_STOP.findall(term.text)
            for piece in _CJK_STOP.split(term.text):
                for word in _cjk_words(piece):
                    made = _make_term(word, phrase=False)
                    if made is not None and made not in terms:
                        terms.append(made)
        for term in terms:
            if count >= budget:
                break
            out.append([term])
            count += 1
    return out, cut


def _cjk_words(piece: str) -> list[str]:
    """The bigrams of each CJK run of ``piece`` (a run of one character stays whole) and
    its other text as it is."""
    words: list[str] = []
    pos = 0
    for m in CJK_RUN.finditer(piece):
        words += piece[pos : m.start()].split()
        run = m.group()
        words += [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
        pos = m.end()
    words += piece[pos:].split()
    return words


def parse_query(text: str, *, match: Match = "all", natural: bool | None = None) -> Query:
    """Parse user text into a :class:`Query`. Never raises.

    ``natural=None`` detects natural-language questions (a ``?``, or five words or more
    without operators) and drops their stop words and question words; ``True`` always does,
    ``False`` never. Stop words are kept when nothing else would remain.
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    clean, truncated = _clean(text)
    groups: list[list[Term]] = []
    excluded: list[Term] = []
    pending_or = False
    pending_not = False
    operators = False
    for m in _SCAN.finditer(clean.replace("\u201c", '"').replace("\u201d", '"')):
        quoted, bare = m.group(1), m.group(2)
        if quoted is None and bare is not None:
            if bare in ("OR", "|", "||"):
                pending_or = bool(groups)
                operators = True
                continue
            if bare in ("AND", "&&", "+"):
                operators = True
                continue
            if bare == "NOT":
                pending_not = True
                operators = True
                continue
            if bare.startswith("-") and len(bare) > 1 and bare[1] not in "-" + CONNECTORS:
                pending_not = True
                operators = True
                bare = bare[1:]
            bare = bare.replace('"', " ")
            if bare.count("(") or bare.count(")"):
                bare = bare.replace("(", " ").replace(")", " ")
            # a bare token may hold several words once brackets/quotes are removed
            pieces = bare.split() or [""]
        else:
            pieces = [quoted or ""]
            operators = True
        for piece in pieces:
            term = _make_term(piece, phrase=quoted is not None)
            if term is None:
                continue
            if pending_not:
                excluded.append(term)
                pending_not = False
                continue
            if pending_or and groups:
                groups[-1].append(term)
            else:
                groups.append([term])
            pending_or = False
    count = 0
    limited: list[list[Term]] = []
    for group in groups:
        if count >= MAX_TERMS:
            truncated = True
            break
        limited.append(group[: MAX_TERMS - count])
        count += len(limited[-1])
    excluded = excluded[:MAX_TERMS]
    if natural is None:
        words = sum(len(g) for g in limited)
        long_cjk = any(len(r) >= NATURAL_CJK_CHARS for r in CJK_RUN.findall(clean))
        natural = "?" in clean or "\uff1f" in clean or ((words >= 5 or long_cjk) and not operators)
    dropped: list[str] = []
    if natural:
        kept = [[t for t in g if not _is_stop(t)] for g in limited]
        kept = [g for g in kept if g]
        if kept:
            dropped = [t.text for g in limited for t in g if _is_stop(t)]
            limited = kept
        limited, cut = _split_cjk(limited, MAX_TERMS)
        dropped += cut
        limited = _open_compounds(limited, MAX_TERMS)
    return Query(
        text,
        tuple(tuple(g) for g in limited),
        tuple(excluded),
        match,
        bool(natural),
        truncated,
        tuple(dropped),
        question_languages(clean) if natural else (),
    )


# --- where terms occur in a text -------------------------------------------------------


def _fold_with_map(text: str) -> tuple[str, list[int]]:
    """Case- and accent-folded ``text`` plus, per folded char, its index in ``text``."""
    if text.isascii():
        return text.lower(), list(range(len(text)))
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        if ch.isascii():
            folded = ch.lower()
        else:
            decomposed = unicodedata.normalize("NFKD", ch)
            folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
        for c in folded:
            out.append(c)
            index.append(i)
    return "".join(out), index


def _fold(text: str) -> str:
    return _fold_with_map(text)[0]


@lru_cache(maxsize=64)
def _needles(query: Query) -> tuple[tuple[str, bool], ...]:
    """(folded needle, word-start required) pairs for the positive terms (remembered per
    query: one ranking marks the words of 50-100 texts with the same query)."""
    out: dict[str, bool] = {}
    for term in query.terms:
        raw = _fold(term.text)
        if raw.strip():
            out.setdefault(raw, not has_cjk(raw))
        for tok in term.tokens:
            folded = _fold(tok)
            if has_cjk(folded):
                continue
            out.setdefault(folded, True)
        if has_cjk(term.text):
            for run in re.findall(r"\w+", raw):
                if has_cjk(run):
                    out.setdefault(run, False)
    return tuple(sorted(out.items(), key=lambda kv: -len(kv[0])))


def fold_term(text: str) -> str:
    """``text`` folded as the match marking folds it (case and accents): the key of
    :func:`form_origins`."""
    return _fold(text)


def form_origins(query: Query) -> dict[str, str]:
    """The other forms a question's words gained from the index (recall 13), each folded,
    mapped to the word asked ("arbeitet" -> "gearbeitet"): a form is a term after the
    first of its group that the question does not write. Empty for a question in English
    or a keyword search (no languages)."""
    if not query.languages:
        return {}
    asked = set(re.findall(r"\w+", _fold(query.text)))
    out: dict[str, str] = {}
    for group in query.groups:
        # the words of the group the question writes ("habitait-elle": habitait, elle)
        words = [w for w in re.findall(r"\w+", _fold(group[0].text)) if w in asked]
        for term in group[1:]:
            form = _fold(term.text)
            if form in asked or not words:
                continue
            out.setdefault(form, max(words, key=lambda w: _shared_head(w, form)))
    return out


def _shared_head(a: str, b: str) -> int:
    """How many first characters ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def match_spans(text: str, query: Query, *, limit: int = 200) -> list[tuple[int, int]]:
    """Sorted, non-overlapping ``(start, end)`` spans of ``text`` where query terms occur.

    Matching folds case and accents; Latin words match at word starts (so ``run`` marks the
    start of ``running``); CJK matches anywhere.
    """
    if not text or query.empty:
        return []
    folded, index = _fold_with_map(text)
    spans: list[tuple[int, int]] = []
    for needle, word_start in _needles(query):
        if not needle:
            continue
        start = 0
        while len(spans) < limit * 4:
            pos = folded.find(needle, start)
            if pos < 0:
                break
            start = pos + 1
            if word_start and pos > 0 and (folded[pos - 1].isalnum() or folded[pos - 1] == "_"):
                continue
            end = pos + len(needle)
            spans.append((index[pos], index[end - 1] + 1))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged[:limit]
