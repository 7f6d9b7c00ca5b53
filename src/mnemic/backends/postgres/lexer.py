"""Full-text lexemes for PostgreSQL, identical to the tokens of the SQLite index.

The SQLite store indexes two columns per message (``body`` and ``aux``, built by
:class:`~mnemic.sessions.index.fields.FieldIndexer` from the shared segmentation) with the FTS5
tokenizer ``porter unicode61 remove_diacritics 2 tokenchars '-_.@/:+~#%?=&'``: words are
split on Unicode categories, case and accents are folded, English suffixes are stemmed,
and the connector characters keep compounds (e-mail addresses, URLs, versions) whole.

PostgreSQL's own parsers do none of this the same way, so the PostgreSQL store does not
let the server tokenize. :class:`Lexer` produces the very tokens FTS5 produces, by asking
FTS5 itself (an in-memory SQLite table with the same tokenizer) once per distinct
whitespace-separated chunk and remembering the answer. Whitespace always separates
tokens, so tokenizing chunk by chunk is exact, and after warm-up almost every chunk is
a dictionary lookup. The tokens become a stored ``tsvector`` (:meth:`Lexer.tsvector`)
and queries become a ``tsquery`` over the same lexemes (:meth:`Lexer.tsquery`), so a
query matches exactly the messages it matches in SQLite: CJK bigrams, single CJK
characters, whole compounds, stems and folded accents alike.

Layout of a vector: ``aux`` tokens first (weight B), a gap of one position, then ``body``
tokens (weight A), so no phrase spans the two columns. PostgreSQL keeps at most 16,383
positions per vector and 256 per lexeme: tokens past the position limit are kept as
lexemes without positions (found by word queries, not inside phrases), up to
:data:`MAX_EXTRA_LEXEMES` of them. Tokens longer than :data:`MAX_LEXEME_BYTES` are
replaced by a digest on both sides, so they still match exactly.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...sessions.index.fields import DEFAULT_TOKENIZER
from ...sessions.index.query import Query, Term
from ...sessions.index.segment import DEFAULT_SEGMENTER, Segmenter

__all__ = [
    "MAX_POSITION",
    "IndexedText",
    "Lexer",
    "Phrase",
    "index_meta",
    "phrase_lexemes",
    "phrase_sql",
    "shared_lexer",
]

MAX_POSITION = 16383
"""PostgreSQL's largest tsvector position."""
MAX_EXTRA_LEXEMES = 20000
"""Distinct lexemes kept (without positions) beyond the position limit."""
MAX_LEXEME_BYTES = 1000
"""Longer tokens are stored as a digest (PostgreSQL refuses lexemes over 2 KB)."""
_CACHE_MAX = 400_000
_AT_A = [f"{p}A" for p in range(MAX_POSITION + 1)]
_AT_B = [f"{p}B" for p in range(MAX_POSITION + 1)]
"""Position literals of a vector, by position (built once: a message has dozens)."""
_IDEOGRAPHS = re.compile("[\u3400-\u4db5\u4e00-\u9fa5]+").fullmatch
"""A chunk made only of CJK ideographs (the unified block of Unicode 1.1 and extension A
of 3.0, in every SQLite's Unicode tables) is one token, itself: unicode61 counts them as
letters, they have no case or diacritics, and the porter stemmer rewrites ASCII
suffixes only. Such chunks (most of a CJK text's bigrams) skip the tokenizer; the tests
check every one of those characters against FTS5."""
_NEVER = "  "
"""A lexeme no text produces (tokens never contain spaces): a phrase without tokens."""


@dataclass(frozen=True, slots=True)
class Phrase:
    """Lexemes that must follow each other; ``prefix``: the last one is a prefix."""

    lexemes: tuple[str, ...]
    prefix: bool = False


@dataclass(frozen=True, slots=True)
class IndexedText:
    """What the store keeps for one message: the vector literal and its token count."""

    tsvector: str
    ntok: int
    naux: int = 0
    """Positions 1..naux are the aux column, the rest (after a gap) the body."""


def quote(lexeme: str) -> str:
    """A lexeme as a quoted tsvector / tsquery literal."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _fit(token: str) -> str:
    if len(token) * 4 <= MAX_LEXEME_BYTES or len(token.encode("utf-8")) <= MAX_LEXEME_BYTES:
        return token
    return hashlib.sha256(token.encode("utf-8")).hexdigest() + " long"


class Lexer:
    """FTS5's tokens of any text, memoised per chunk (see the module docstring)."""

    def __init__(self, tokenizer: str = DEFAULT_TOKENIZER) -> None:
        self.tokenizer = tokenizer
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[str, ...]] = {}
        self._quoted: dict[str, str] = {}
        self._conn = sqlite3.connect(":memory:", check_same_thread=False)
        tok = tokenizer.replace('"', "")
        self._conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, content='', tokenize=\"{tok}\")")
        self._conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")

    # -- tokens ----------------------------------------------------------------------
    def learn(self, texts: Iterable[str | None]) -> None:
        """Tokenize every chunk of ``texts`` not seen yet, in one pass (bulk loads)."""
        missing: set[str] = set()
        cache = self._cache
        for text in texts:
            if text:
                missing.update(c for c in text.split() if c not in cache)
        if missing:
            self._learn(missing)

    def _learn(self, chunks: set[str]) -> None:
        with self._lock:
            if len(self._cache) + len(chunks) > _CACHE_MAX:
                self._cache.clear()
            cache = self._cache
            todo = []
            for c in chunks:
                if c in cache:
                    continue
                if _IDEOGRAPHS(c):  # one token, itself (see _IDEOGRAPHS)
                    cache[c] = (_fit(c),)
                else:
                    todo.append(c)
            if not todo:
                return
            conn = self._conn
            conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", enumerate(todo, 1))
            found: dict[int, list[tuple[int, str]]] = {}
            for term, doc, offset in conn.execute("SELECT term, doc, offset FROM v"):
                found.setdefault(int(doc), []).append((int(offset), _fit(str(term))))
            conn.execute("INSERT INTO t (t) VALUES ('delete-all')")
            for i, chunk in enumerate(todo, 1):
                tokens = found.get(i)
                self._cache[chunk] = tuple(t for _, t in sorted(tokens)) if tokens else ()

    def tokens(self, text: str | None) -> list[str]:
        """The tokens of ``text`` in order, as the FTS5 tokenizer emits them."""
        if not text:
            return []
        chunks = text.split()
        get = self._cache.get
        out: list[str] = []
        for chunk in chunks:
            hit = get(chunk)
            if hit is None:
                return self._tokens_learning(chunks)
            out.extend(hit)
        return out

    def _tokens_learning(self, chunks: list[str]) -> list[str]:
        """:meth:`tokens` of ``chunks`` when some are not known yet."""
        cache = self._cache
        if any(c not in cache for c in chunks):
            self._learn({c for c in chunks if c not in cache})
            cache = self._cache
        out: list[str] = []
        for chunk in chunks:
            hit = cache.get(chunk)
            if hit is None:  # evicted meanwhile by another thread
                self._learn({chunk})
                hit = self._cache.get(chunk, ())
            out.extend(hit)
        return out

    # -- documents -------------------------------------------------------------------
    def index(self, body: str, aux: str) -> IndexedText:
        """The ``tsvector`` literal and token count of a message's two index columns."""
        aux_tokens = self.tokens(aux)
        body_tokens = self.tokens(body)
        naux = len(aux_tokens)
        ntok = naux + len(body_tokens)
        if not ntok:
            return IndexedText("", 0, 0)
        if ntok + 1 > MAX_POSITION:
            return self._index_long(aux_tokens, body_tokens)
        # every token has a position: aux 1..naux (B), a gap, body from naux + 2 (A)
        spots: dict[str, list[str]] = {}
        get = spots.get
        for pos, token in enumerate(aux_tokens, 1):
            where = get(token)
            if where is None:
                spots[token] = [_AT_B[pos]]
            else:
                where.append(_AT_B[pos])
        for pos, token in enumerate(body_tokens, naux + 2):
            where = get(token)
            if where is None:
                spots[token] = [_AT_A[pos]]
            else:
                where.append(_AT_A[pos])
        quoted = self._quoted
        parts = []
        for lex, where in spots.items():
            q = quoted.get(lex)
            if q is None:
                q = quoted[lex] = quote(lex)
                if len(quoted) > _CACHE_MAX:
                    quoted.clear()
            parts.append(q + ":" + ",".join(where if len(where) <= 256 else where[:256]))
        return IndexedText(" ".join(parts), ntok, naux)

    def _index_long(self, aux_tokens: list[str], body_tokens: list[str]) -> IndexedText:
        """:meth:`index` of a message with more tokens than positions."""
        spots: dict[str, list[str]] = {}
        extra: dict[str, None] = {}
        pos = 0
        for tokens, weight in ((aux_tokens, "B"), (body_tokens, "A")):
            for token in tokens:
                pos += 1
                if pos <= MAX_POSITION:
                    spots.setdefault(token, []).append(f"{pos}{weight}")
                elif token not in spots and len(extra) < MAX_EXTRA_LEXEMES:
                    extra[token] = None
            pos += 1  # the gap between the columns
        parts = [f"{quote(lex)}:{','.join(where[:256])}" for lex, where in spots.items()]
        parts.extend(quote(lex) for lex in extra if lex not in spots)
        ntok = len(aux_tokens) + len(body_tokens)
        return IndexedText(" ".join(parts), ntok, min(len(aux_tokens), MAX_POSITION))

    # -- queries ---------------------------------------------------------------------
    def phrases(self, term: Term) -> list[Phrase]:
        """The phrases of one query term: its tokens, or its whole compound or tokens."""
        core = Phrase(tuple(self.tokens(" ".join(term.tokens))), term.prefix)
        if term.whole is None:
            return [core]
        return [Phrase(tuple(self.tokens(term.whole)), term.prefix), core]

    def term_sql(self, term: Term) -> str:
        """A term as a tsquery expression."""
        rendered = [phrase_sql(p) for p in self.phrases(term)]
        return rendered[0] if len(rendered) == 1 else "(" + " | ".join(rendered) + ")"

    def tsquery(self, query: Query) -> str:
        """``query`` as tsquery text (the PostgreSQL rendering of :meth:`Query.to_fts5`)."""
        if query.empty:
            return ""
        if query.match == "any":
            terms = [self.term_sql(t) for t in query.terms]
            expr = terms[0] if len(terms) == 1 else "(" + " | ".join(terms) + ")"
        else:
            parts = []
            for group in query.groups:
                inner = [self.term_sql(t) for t in group]
                parts.append(inner[0] if len(inner) == 1 else "(" + " | ".join(inner) + ")")
            expr = parts[0] if len(parts) == 1 else "(" + " & ".join(parts) + ")"
        if query.excluded:
            neg = [self.term_sql(t) for t in query.excluded]
            expr = f"{expr} & !" + (neg[0] if len(neg) == 1 else "(" + " | ".join(neg) + ")")
        return expr

    def positive_phrases(self, query: Query) -> list[Phrase]:
        """Every phrase of the query's positive terms, in order (what bm25 scores)."""
        return [p for t in query.terms for p in self.phrases(t)]

    def close(self) -> None:
        """Release the in-memory tokenizer database."""
        self._conn.close()


def phrase_sql(phrase: Phrase) -> str:
    """A phrase as a tsquery expression (a phrase without tokens matches nothing)."""
    if not phrase.lexemes:
        return quote(_NEVER)
    items = [quote(lex) for lex in phrase.lexemes]
    if phrase.prefix:
        items[-1] += ":*"
    return items[0] if len(items) == 1 else "(" + " <-> ".join(items) + ")"


def phrase_lexemes(phrases: Sequence[Phrase]) -> tuple[list[str], list[str]]:
    """(exact lexemes, prefixes) a set of phrases looks up."""
    exact: dict[str, None] = {}
    prefixes: dict[str, None] = {}
    for p in phrases:
        for i, lex in enumerate(p.lexemes):
            if p.prefix and i == len(p.lexemes) - 1:
                prefixes[lex] = None
            else:
                exact[lex] = None
    return list(exact), list(prefixes)


_LEXERS: dict[str, Lexer] = {}
_LEXERS_LOCK = threading.Lock()


def shared_lexer(tokenizer: str = DEFAULT_TOKENIZER) -> Lexer:
    """One :class:`Lexer` per tokenizer and process (its cache is worth sharing)."""
    with _LEXERS_LOCK:
        lexer = _LEXERS.get(tokenizer)
        if lexer is None:
            lexer = _LEXERS[tokenizer] = Lexer(tokenizer)
        return lexer


def index_meta(segmenter: Segmenter = DEFAULT_SEGMENTER) -> dict[str, str]:
    """The ``meta`` rows describing how the stored vectors are built."""
    return {"segmenter": f"{segmenter.id}/{segmenter.version}", "tokenizer": DEFAULT_TOKENIZER}
