"""Segmentation: CJK bigrams, whole compounds, and agreement between index and query forms."""

from __future__ import annotations

import re
import sqlite3

import pytest
from hypothesis import given, settings, strategies as st

from mnemic.backends.files.sqlite.store import DEFAULT_TOKENIZER
from mnemic.sessions.index.segment import (
    DEFAULT_SEGMENTER,
    SEGMENTER_ID,
    SEGMENTER_VERSION,
    Segmenter,
    has_cjk,
    segment,
    segment_query,
)


def test_cjk_run_becomes_bigrams_and_last_char() -> None:
    assert segment("记忆文件").body.split() == ["记忆", "忆文", "文件", "件"]
    assert segment("我").body.split() == ["我"]


def test_mixed_text_keeps_latin_words() -> None:
    body = segment("sqlite历史记录 works").body.split()
    assert body == ["sqlite", "历史", "史记", "记录", "录", "works"]


def test_compounds_are_split_and_kept_whole() -> None:
    seg = segment("Mail alice@example.com about v2.3.1, see https://x.org/a?b=1 and foo_bar.")
    assert "alice@example.com" in seg.compounds
    assert "v2.3.1" in seg.compounds
    assert "https://x.org/a?b=1" in seg.compounds
    assert "foo_bar" in seg.compounds
    words = seg.body.split()
    for part in ("alice", "example", "com", "v2", "3", "1", "foo", "bar"):
        assert part in words


def test_full_width_text_is_normalised() -> None:
    assert segment("ＡＢＣ１２３").body.split() == ["ABC123"]


def test_query_forms() -> None:
    assert segment_query("记忆").tokens == ("记忆",)
    one = segment_query("记")
    assert one.tokens == ("记",) and not one.prefix  # matched among the indexed chars
    assert segment("记忆文件").chars == ("记", "忆", "文", "件")
    tail = segment_query("b记")
    assert tail.tokens == ("b", "记") and tail.prefix
    assert segment_query("记忆文件").tokens == ("记忆", "忆文", "文件")
    inner = segment_query("a记忆b")
    assert inner.tokens == ("a", "记忆", "忆", "b") and not inner.prefix
    mail = segment_query("alice@example.com")
    assert mail.whole == "alice@example.com" and mail.tokens == ("alice", "example", "com")
    assert segment_query('"').tokens == ()


def test_has_cjk() -> None:
    assert has_cjk("abc 文") and has_cjk("カタカナ") and has_cjk("한국어")
    assert not has_cjk("café") and not has_cjk("")


def test_segmenter_protocol_and_identity() -> None:
    assert isinstance(DEFAULT_SEGMENTER, Segmenter)
    assert DEFAULT_SEGMENTER.key == f"{SEGMENTER_ID}/{SEGMENTER_VERSION}"


# --- index and query agree: any substring of a CJK run is found ----------------------------

CJK = st.text(
    alphabet=st.sampled_from("记忆文件会话历史数据库错误超时我们的こんにちは한국어"), min_size=1
)


def _tokens(conn: sqlite3.Connection, text: str) -> list[str]:
    """Tokens the FTS tokenizer produces for ``text`` (via a throwaway index)."""
    conn.execute("DELETE FROM t")
    conn.execute("INSERT INTO t(rowid, x) VALUES (1, ?)", (text,))
    rows = conn.execute("SELECT term, offset FROM v ORDER BY offset").fetchall()
    return [r[0] for r in rows]


@pytest.fixture(scope="module")
def fts() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute(f'CREATE VIRTUAL TABLE t USING fts5(x, tokenize="{DEFAULT_TOKENIZER}")')
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    return conn


def _phrase_found(index: list[str], query: list[str], prefix: bool) -> bool:
    n = len(query)
    for i in range(len(index) - n + 1):
        window = index[i : i + n]
        if window[:-1] != query[:-1]:
            continue
        last = window[-1]
        if last == query[-1] or (prefix and last.startswith(query[-1])):
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(text=CJK, data=st.data())
def test_every_cjk_substring_is_found(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    needle = text[start:end]
    seg = segment(text)
    q = segment_query(needle)
    if len(needle) == 1:
        assert q.tokens == (needle,) and needle in seg.chars
    else:
        index = seg.body.split()
        assert _phrase_found(index, list(q.tokens), q.prefix), (text, needle, index, q)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_segmentation_is_deterministic_and_normalisation_idempotent(text: str) -> None:
    first = segment(text)
    assert segment(text) == first
    import unicodedata

    norm = unicodedata.normalize("NFKC", text)
    assert segment(norm) == segment(unicodedata.normalize("NFKC", norm))


@settings(max_examples=100, deadline=None)
@given(
    left=st.text(alphabet="abc xyz.", max_size=10),
    parts=st.lists(
        st.text(alphabet="abcdefgh0123", min_size=1, max_size=5), min_size=2, max_size=4
    ),
    sep=st.sampled_from(list("-_.@/:")),
    right=st.text(alphabet="abc xyz", max_size=10),
)
def test_compounds_found_whole_in_context(
    left: str, parts: list[str], sep: str, right: str
) -> None:
    compound = sep.join(parts)
    text = f"{left} {compound} {right}"
    seg = segment(text)
    assert compound in seg.compounds
    q = segment_query(compound)
    assert q.whole == compound
    assert _phrase_found(seg.body.split(), list(q.tokens), False)


def test_fts_tokenizer_keeps_whole_compounds(fts: sqlite3.Connection) -> None:
    assert _tokens(fts, "alice@example.com") == ["alice@example.com"]
    assert _tokens(fts, "Café RÉSUMÉ") == ["cafe", "resum"]  # folded, Porter-stemmed
    assert _tokens(fts, segment("记忆文件").body) == ["记忆", "忆文", "文件", "件"]
    assert re.fullmatch(r"[a-z.]+", _tokens(fts, "Memory.MD")[0])
