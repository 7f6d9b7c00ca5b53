"""bench/recall.py scores session recall over sessions: a message the set gives no key
(small talk, a reply no question is about) still belongs to its session."""

from __future__ import annotations

from pathlib import Path

from _metrics import Scores
from mnemic.backends.files.sqlite import SQLiteSessionStore
from recall import Corpus, Question, score


def test_a_message_without_a_key_counts_as_its_session(tmp_path: Path) -> None:
    with SQLiteSessionStore(tmp_path / "s.db") as store:
        corpus = Corpus("c", store, keys={("s01", 1): "s01:fact", ("s02", 0): "s02:fact"})
        q = Question("longchat", "dev", "c", "q", ["all"], evidence=["s02:fact"])
        scores = Scores()
        # three unkeyed messages of s01 before the evidence session: s01 is one session
        score(q, corpus, [("s01", 1), ("s01", 3), ("s01", 4), ("s02", 0)], scores)
        got = scores.result()
    assert got["session@2"]["value"] == 1.0
