"""bench/_recall30.py, recall 30 (issue 33, ``docs/recall.md``): recall 29's rule on the
final list (after the speaker and freshness steps), skipped when the question names the
reply's speaker or asks what the assistant said."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from _recall30 import statement_step
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from mnemic.sessions.store import Hit


class _Said(NamedTuple):
    session_id: str
    seq: int
    role: str
    content: str
    name: str | None


class _Store:
    def __init__(self, turns: Sequence[tuple[str, str, str, str]]) -> None:
        self.said: dict[tuple[str, int], _Said] = {}
        counts: dict[str, int] = {}
        for sid, role, text, name in turns:
            seq = counts.get(sid, 0)
            counts[sid] = seq + 1
            self.said[(sid, seq)] = _Said(sid, seq, role, text, name)

    def windows(self, spans: Sequence[tuple[str, int, int]]) -> list[list[Any]]:
        return [
            [m for (s, q), m in sorted(self.said.items()) if s == sid and start <= q < stop]
            for sid, start, stop in spans
        ]

    def speakers_at(self, positions: Sequence[tuple[str, int]]) -> list[Any]:
        return [
            (self.said[p].role, self.said[p].name) if p in self.said else None for p in positions
        ]


def _fused(*rows: tuple[str, int, float, bool]) -> list[FusedMessage]:
    """(session, seq, final score, whether it is a lexical hit of its own), best first."""
    out = []
    for sid, seq, score, lexical in rows:
        hit = Hit(seq, sid, seq, "user", 0.0, "cli", -3.0, 6) if lexical else None
        sem = SemanticHit(seq, sid, seq, 0.8, 6)
        matched = ("lexical", "semantic") if lexical else ("semantic",)
        out.append(FusedMessage(sid, seq, score, matched, hit, sem))
    return out


TURNS = [
    ("a", "user", "My blood pressure was 128 over 82 at the medical.", "Callum"),
    ("a", "assistant", "Blood pressure of 128 over 82 at a medical is fine.", "Assistant"),
    ("b", "user", "The doctor took my blood pressure twice at the medical.", "Callum"),
    ("b", "assistant", "Taking blood pressure twice at a medical is usual.", "Assistant"),
]  # fmt: skip


def _order(ranked: list[FusedMessage], text: str, by_meaning: Any = None) -> list[tuple[str, int]]:
    return [(f.session_id, f.seq) for f in statement_step(_Store(TURNS), ranked, text, by_meaning)]


def test_the_statement_takes_the_replys_final_score_not_its_score_before_the_speaker_step() -> None:
    # the speaker step already discounted both replies (0.82 -> 0.66, 0.81 -> 0.65):
    # their statements go directly above them, under the user's own evidence at 0.70
    ranked = _fused(("b", 0, 0.70, True), ("a", 1, 0.66, False), ("b", 1, 0.65, False),
                    ("a", 0, 0.40, True))  # fmt: skip
    got = statement_step(_Store(TURNS), ranked, "What was the blood pressure at the medical?")
    assert [(f.session_id, f.seq) for f in got] == [("b", 0), ("a", 0), ("a", 1), ("b", 1)]
    assert got[1].score > got[2].score and got[1].score < 0.70


def test_a_question_naming_the_replys_speaker_or_asking_what_you_said_moves_nothing() -> None:
    ranked = _fused(("a", 1, 0.9, False), ("a", 0, 0.5, True))
    assert _order(ranked, "What did Callum say about his blood pressure?") == [("a", 0), ("a", 1)]
    assert _order(ranked, "What did Assistant say about blood pressure?") == [("a", 1), ("a", 0)]
    assert _order(ranked, "What did you say about my blood pressure?") == [("a", 1), ("a", 0)]


def test_a_speaker_named_in_another_script_is_read_by_meaning() -> None:
    ranked = _fused(("a", 1, 0.9, False), ("a", 0, 0.5, True))

    def says(name: str | None) -> Any:
        return lambda text, names: name

    assert _order(ranked, "助手说了血压什么？", says("Assistant")) == [("a", 1), ("a", 0)]
    assert _order(ranked, "卡勒姆的血压是多少？", says("Callum")) == [("a", 0), ("a", 1)]
