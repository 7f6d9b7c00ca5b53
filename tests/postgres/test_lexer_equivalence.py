"""The PostgreSQL store's vectors are FTS5's tokens, whatever shortcut builds them.

Bulk imports spend most of their client time building vectors (:mod:`mnemic.backends.
postgres.lexer`). Two shortcuts make that cheaper: chunks made only of CJK ideographs
skip the FTS5 tokenizer (they are one token, themselves), and the vector of a message
that fits the position limit is laid out in one pass with shared position literals.
These tests hold both to the straightforward path: FTS5 asked about every chunk, and
the layout written out token by token (the code the store used before).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemic.backends.postgres import lexer as lexer_module
from mnemic.backends.postgres.lexer import MAX_EXTRA_LEXEMES, MAX_POSITION, Lexer, quote
from mnemic.sessions.index.fields import DEFAULT_TOKENIZER

pytestmark = pytest.mark.postgres

IDEOGRAPHS = [*range(0x3400, 0x4DB6), *range(0x4E00, 0x9FA6)]


def _fts5_tokens(texts: list[str]) -> list[list[str]]:
    """FTS5's tokens of each text, from a table with the store's tokenizer."""
    with closing(sqlite3.connect(":memory:")) as conn:
        tok = DEFAULT_TOKENIZER.replace('"', "")
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, content='', tokenize=\"{tok}\")")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
        conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", enumerate(texts, 1))
        found: dict[int, list[tuple[int, str]]] = {}
        for term, doc, offset in conn.execute("SELECT term, doc, offset FROM v"):
            found.setdefault(int(doc), []).append((int(offset), str(term)))
    return [[t for _, t in sorted(found.get(i, []))] for i in range(1, len(texts) + 1)]


def test_every_ideograph_of_the_shortcut_is_one_token_itself_in_fts5() -> None:
    chars = [chr(c) for c in IDEOGRAPHS]
    assert _fts5_tokens(chars) == [[c] for c in chars]
    assert all(lexer_module._IDEOGRAPHS(c) for c in chars)
    # the neighbours of the ranges are not taken by the shortcut
    for c in (0x33FF, 0x4DB6, 0x4DFF, 0x9FA6, 0x3002, 0xFF0C):
        assert not lexer_module._IDEOGRAPHS(chr(c))


def _reference_tokens(text: str) -> list[str]:
    """Tokens of ``text`` asking FTS5 about every whitespace chunk (no shortcut)."""
    chunks = text.split()
    if not chunks:
        return []
    per_chunk = _fts5_tokens(chunks)
    return [lexer_module._fit(t) for tokens in per_chunk for t in tokens]


def _reference_index(body: str, aux: str) -> tuple[str, int, int]:
    """The vector laid out token by token, as the store first wrote it."""
    aux_tokens, body_tokens = _reference_tokens(aux), _reference_tokens(body)
    ntok = len(aux_tokens) + len(body_tokens)
    if not ntok:
        return "", 0, 0
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
        pos += 1
    parts = [f"{quote(lex)}:{','.join(where[:256])}" for lex, where in spots.items()]
    parts.extend(quote(lex) for lex in extra if lex not in spots)
    return " ".join(parts), ntok, min(len(aux_tokens), MAX_POSITION)


_SAMPLES = [
    "running", "Connections", "é", "naïve", "Straße", "ｆｕｌｌ", "〇", "々", "、", "。", "，",
    "user@example.com", "v1.2.3", "a-b_c", "https://x.y/z?q=1", "'quote'", "it's", "—",
    "\u200b", "ＡＢ", "가나다", "カタカナ", "ひらがな", "a" * 400, "丂" * 400, "🙂", "#tag", "50%",
]  # fmt: skip
_PIECES = st.one_of(
    st.text(alphabet=st.sampled_from([chr(c) for c in IDEOGRAPHS[::97]]), min_size=1, max_size=6),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ0123456789", min_size=1, max_size=12),
    st.sampled_from(_SAMPLES),
    st.text(min_size=1, max_size=5),
)
_TEXT = st.lists(st.tuples(_PIECES, st.sampled_from([" ", "", "\n", "  ", "\t"])), max_size=25).map(
    lambda parts: "".join(p + sep for p, sep in parts)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=_TEXT, aux=_TEXT)
def test_vectors_equal_the_tokenizer_asked_chunk_by_chunk(body: str, aux: str) -> None:
    lexer = Lexer()
    try:
        got = lexer.index(body, aux)
        assert (got.tsvector, got.ntok, got.naux) == _reference_index(body, aux)
        # learned ahead in bulk (the import's way), the same again
        bulk = Lexer()
        bulk.learn([body, aux])
        again = bulk.index(body, aux)
        assert (again.tsvector, again.ntok, again.naux) == (got.tsvector, got.ntok, got.naux)
        bulk.close()
    finally:
        lexer.close()


def test_a_message_longer_than_the_position_limit_keeps_the_same_layout() -> None:
    body = " ".join(f"w{i % 5000} 字{chr(0x4E00 + i % 300)}" for i in range(9000))
    aux = " ".join(chr(0x4E00 + i) for i in range(50))
    lexer = Lexer()
    got = lexer.index(body, aux)
    assert (got.tsvector, got.ntok, got.naux) == _reference_index(body, aux)
    lexer.close()
