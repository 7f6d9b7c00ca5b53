"""bench/_apart.py, recall 23's variant: a question that names two speakers gets its
places in turn from each named speaker's list, so one speaker's matches cannot fill the
head; a question naming one speaker or none is untouched."""

from __future__ import annotations

from _apart import _named_in_order, apart, interleave
from mnemic.sessions.search.hybrid import FusedMessage


def _fused(n: int) -> list[FusedMessage]:
    return [FusedMessage("s", i, 1.0 - i / 10, ("lexical",), None, None) for i in range(n)]


def test_the_places_go_in_turn_to_each_named_speaker() -> None:
    fused = _fused(6)
    said = ["Ann", "Ann", "Ann", "Ann", "Bo", "Bo"]
    out = interleave(fused, said, ["Ann", "Bo"])
    assert [f.seq for f in out] == [0, 4, 1, 5, 2, 3]
    # the scores stay the list's own, best first, so later steps see it sorted
    assert [f.score for f in out] == sorted((f.score for f in fused), reverse=True)


def test_kept_places_stay_and_the_turns_start_after_them() -> None:
    out = interleave(_fused(6), ["Ann", "Ann", "Ann", "Ann", "Bo", "Bo"], ["Ann", "Bo"], 2)
    assert [f.seq for f in out] == [0, 1, 2, 4, 3, 5]


def test_positions_beyond_the_read_head_keep_their_places() -> None:
    out = interleave(_fused(5), ["Bo", "Ann", "Ann"], ["Ann", "Bo"])
    assert [f.seq for f in out] == [1, 0, 2, 3, 4]


def test_the_names_come_in_the_order_the_question_names_them() -> None:
    text = "What book did Melanie read from Caroline's suggestion?"
    assert _named_in_order(text, {"Caroline", "Melanie", "Mel"}) == ["Melanie", "Caroline"]


class _Store:
    def __init__(self, said: list[str]) -> None:
        self.said = said

    def speakers_at(self, positions: list[tuple[str, int]]) -> list[tuple[str, str]]:
        return [("user", self.said[seq]) for _, seq in positions]


class _Query:
    def __init__(self, text: str) -> None:
        self.text = text


def test_only_a_question_naming_two_speakers_is_moved() -> None:
    fused = _fused(4)
    store = _Store(["Ann", "Ann", "Bo", "Bo"])
    step = apart(lambda _store, f, _query, *_a: list(f))
    assert [f.seq for f in step(store, fused, _Query("What did Ann paint?"), None)] == [0, 1, 2, 3]
    both = step(store, fused, _Query("What have Bo and Ann both painted?"), None)
    assert [f.seq for f in both] == [2, 0, 3, 1]
