"""Loop guards for memory calls: a per-turn breaker and two guards across turns.

1. Circuit breaker (per turn): counted failures (no match, over budget, a failed batch)
   in a row; past the limit the call gets a terminal answer telling the model to stop and
   reply to the user, and further writes this turn are refused without being attempted.
2. Repeat guard (across turns): a call identical to one that already failed against the
   same memory state would fail the same way, so it is stopped with an explanation.
3. Oscillation guard (across turns): a write that would flip the same entry in or out
   of a target once more after it already flipped three times in this session (add X,
   remove X, add X, then remove X again) is refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import LoopStopped, ToolError
from .entries import flipped

__all__ = ["LoopGuard", "call_signature", "state_key"]


def call_signature(args: dict[str, Any]) -> str:
    """A canonical form of tool arguments, to recognise a repeated call."""
    return json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)


def state_key(raw: str | None) -> int:
    """A key identifying a target's content (its exact text)."""
    return hash(raw)


class LoopGuard:
    """Per-session guard state. One instance per :class:`~mnemic.curated.Memory`."""

    def __init__(self, max_failures_per_turn: int = 3, max_flips: int = 3) -> None:
        self.max_failures = max_failures_per_turn
        self.max_flips = max_flips
        self.turn = 1
        self.failures = 0
        self.tripped = False
        self._failed: dict[str, tuple[int, str, int, int]] = {}
        self._flips: dict[tuple[str, str], int] = {}

    def begin_turn(self) -> None:
        """A new user turn: the per-turn breaker re-arms (cross-turn guards do not)."""
        self.turn += 1
        self.failures = 0
        self.tripped = False

    # -- breaker ----------------------------------------------------------------
    def check_breaker(self) -> None:
        """Refuse a write when the breaker tripped earlier in this turn."""
        if self.tripped:
            raise self._terminal()

    def _terminal(self) -> LoopStopped:
        return LoopStopped(
            f"Memory writes failed {self.failures} times in a row this turn, so memory is "
            "paused until the next turn. Stop calling the memory tool now, leave memory as "
            "it is, and continue your reply to the user. The fact can be saved in a later "
            "turn with one operations call that frees room first.",
            reason="circuit_breaker",
        )

    # -- repeat guard -------------------------------------------------------------
    def failed_before(self, signature: str) -> bool:
        """Whether an identical call failed earlier in this session."""
        return signature in self._failed

    def check_repeat(self, signature: str, current_state: int | None) -> None:
        """Refuse a call that already failed against this same state."""
        seen = self._failed.get(signature)
        if seen is None or current_state is None:
            return
        count, code, state, turn = seen
        if state == current_state:
            when = "earlier in this turn" if turn == self.turn else f"in turn {turn}"
            raise LoopStopped(
                f"This exact memory call already failed {count} time(s) ({code}, {when}) and "
                "memory has not changed since, so it would fail again. Do not repeat it: "
                "change the call (read the error and current_entries), or leave memory as it "
                "is and answer the user.",
                reason="repeated_failure",
                previous_error_code=code,
            )

    def record_failure(self, signature: str, state: int | None, error: ToolError) -> ToolError:
        """Count a refusal; return the error to report (terminal once the breaker trips)."""
        if isinstance(error, LoopStopped):
            return error
        if state is not None and not error.retry_may_succeed:
            count = self._failed.get(signature, (0, "", 0, 0))[0] + 1
            self._failed[signature] = (count, error.code, state, self.turn)
        if error.counts_as_failure:
            self.failures += 1
            if self.failures > self.max_failures:
                self.tripped = True
                return self._terminal()
        return error

    def record_success(self) -> None:
        """A successful call ends a run of failures."""
        self.failures = 0

    # -- oscillation guard ----------------------------------------------------------
    def check_oscillation(self, target: str, before: Sequence[str], after: Sequence[str]) -> None:
        """Refuse a write that flips an entry that already flipped too often."""
        for entry in flipped(before, after):
            flips = self._flips.get((target, entry), 0)
            if flips >= self.max_flips:
                raise LoopStopped(
                    f"This write would add or remove the same {target} entry for the "
                    f"{flips + 1}th time in this session: it is being added and removed (or "
                    "replaced) back and forth. Nothing was changed. Decide once whether the "
                    "fact belongs in memory, ask the user if unsure, and stop editing it.",
                    reason="oscillation",
                )

    def frozen(self, target: str) -> tuple[str, ...]:
        """The entries of ``target`` :meth:`check_oscillation` refuses to flip again."""
        return tuple(e for (t, e), n in self._flips.items() if t == target and n >= self.max_flips)

    def note_write(self, target: str, before: Sequence[str], after: Sequence[str]) -> None:
        """Record which entries this session's committed write added or removed."""
        for entry in flipped(before, after):
            key = (target, entry)
            self._flips[key] = self._flips.get(key, 0) + 1
