"""The words a query marks in a text (``match_spans``) are folded once per query, not
once per text: a ranking marks 50-100 texts with one query, and folding its terms
again for each was about 2 ms of a 100k-message hybrid call."""

from __future__ import annotations

from mnemic.sessions.index import query as query_module
from mnemic.sessions.index.query import match_spans, parse_query


def test_a_query_folds_its_terms_once_for_every_text_it_marks() -> None:
    q = parse_query("Crème brûlée in Lisbon?").with_match("any")
    texts = [f"Crème brûlée number {i}, LISBON style" for i in range(20)]
    query_module._needles.cache_clear()
    spans = [match_spans(t, q) for t in texts]
    info = query_module._needles.cache_info()
    assert (info.misses, info.hits) == (1, 19)
    # an equal query parsed again shares the folded terms and marks the same words
    again = parse_query("Crème brûlée in Lisbon?").with_match("any")
    assert match_spans(texts[0], again) == spans[0] == [(0, 5), (6, 12), (23, 29)]
    assert query_module._needles.cache_info().misses == 1
