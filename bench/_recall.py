"""Turn and session recall of ranked LoCoMo turns, overall and per question category
(the one scorer of ``./x bench locomo``, lexical and retrieval modes alike)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

TURN_K = (5, 10, 25, 50)
SESSION_K = (2, 5, 10)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
#: A LoCoMo turn id: ``D<session>:<turn>``.
DIA = re.compile(r"^D(\d+):(\d+)$")


def evidence(qa: dict[str, Any], known: set[str]) -> list[str]:
    """The turn ids of ``qa``'s evidence that are turns of its conversation (``known``),
    once each, in order: LoCoMo writes some as one string ("D1:3; D2:5")."""
    out = []
    for ev in qa.get("evidence") or []:
        for piece in re.split(r"[;,\s]+", str(ev)):
            if DIA.match(piece) and piece in known and piece not in out:
                out.append(piece)
    return out


class Tally:
    """Recall sums over questions: :meth:`add` one ranking, :meth:`result` the averages.

    A turn is named ``"D<session>:<turn>"`` (LoCoMo's dialogue ids); its session is the part
    before the colon. Turn recall@k is the share of a question's evidence turns in the top
    k turns; session recall@k the share of its evidence sessions among the first k distinct
    sessions of the ranking.
    """

    def __init__(self) -> None:
        self.turn: dict[int, float] = defaultdict(float)
        self.sess: dict[int, float] = defaultdict(float)
        self.cat_turn: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        self.cat_sess: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        self.cat_n: dict[int, int] = defaultdict(int)
        self.n = 0

    def add(self, category: int, evidence: Sequence[str], turns: Sequence[str]) -> None:
        """Score one question's ranked ``turns`` against its ``evidence`` turns."""
        self.n += 1
        self.cat_n[category] += 1
        ev = set(evidence)
        for k in TURN_K:
            value = len(ev & set(turns[:k])) / len(ev)
            self.turn[k] += value
            self.cat_turn[category][k] += value
        sessions = list(dict.fromkeys(t.split(":")[0] for t in turns))
        ev_sessions = {e.split(":")[0] for e in ev}
        for k in SESSION_K:
            value = len(ev_sessions & set(sessions[:k])) / len(ev_sessions)
            self.sess[k] += value
            self.cat_sess[category][k] += value

    def result(self) -> dict[str, Any]:
        """Averages: overall and ``by_category``, 4 decimals."""

        def fractions(acc: dict[int, float], ks: tuple[int, ...], count: int) -> dict[str, float]:
            return {str(k): round(acc[k] / count, 4) if count else 0.0 for k in ks}

        return {
            "questions": self.n,
            "turn_recall": fractions(self.turn, TURN_K, self.n),
            "session_recall": fractions(self.sess, SESSION_K, self.n),
            "by_category": {
                str(c): {
                    "name": CATEGORIES.get(c, "other"),
                    "questions": self.cat_n[c],
                    "turn_recall": fractions(self.cat_turn[c], TURN_K, self.cat_n[c]),
                    "session_recall": fractions(self.cat_sess[c], SESSION_K, self.cat_n[c]),
                }
                for c in sorted(self.cat_n)
            },
        }
