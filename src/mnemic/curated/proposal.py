"""Memory writes as the approval machinery sees them: described, staged, replayed.

A staged memory write keeps its operations as a plain payload::

    {"target": "memory", "batch": false, "allow_empty": false,
     "operations": [{"action": "replace", "old_text": "...", "content": "...",
                     "target": "user"}]}

Approving it replays the payload through :meth:`Memory.apply` (lock, re-read, drift,
budget, threat scan), so an approval can still fail cleanly against the current state.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from ..errors import InvalidArgument
from ..governance.held import tidy_sentence
from .changes import Reason
from .entries import FILENAMES, serialize
from .operations import NO_EXPIRY, OpResult, recorded_expiry
from .store import Commit, Op

__all__ = ["archive_reasons", "describe", "ops_from_payload", "payload_of", "tidy_words"]

_LABELS = {"memory": "memory", "user": "user profile"}
_SUMMARY_WIDTH = 120


def _short(text: str | None, width: int = 80) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def payload_of(target: str, ops: Sequence[Op], *, batch: bool, allow_empty: bool) -> dict[str, Any]:
    """The replayable form of a memory write."""
    operations = []
    for op in ops:
        item: dict[str, Any] = {"action": op.action}
        if op.content is not None:
            item["content"] = op.content
        if op.old_text is not None:
            item["old_text"] = op.old_text
        if op.target is not None and op.target != target:
            item["target"] = op.target
        if op.expires is not None:
            item["expires"] = recorded_expiry(op.expires)
        operations.append(item)
    return {"target": target, "batch": batch, "allow_empty": allow_empty, "operations": operations}


def ops_from_payload(payload: dict[str, Any]) -> tuple[str, list[Op], bool, bool]:
    """(target, operations, batch, allow_empty) from a payload; raises on a bad one."""
    target = payload.get("target")
    operations = payload.get("operations")
    if not isinstance(target, str) or not isinstance(operations, list) or not operations:
        raise InvalidArgument("payload", "The staged write has no target or no operations.")
    ops: list[Op] = []
    for raw in operations:
        if not isinstance(raw, dict) or not isinstance(raw.get("action"), str):
            raise InvalidArgument("payload", "A staged operation is not an object with an action.")
        for key in ("content", "old_text", "target"):
            if raw.get(key) is not None and not isinstance(raw[key], str):
                raise InvalidArgument("payload", f"A staged operation's {key} is not a string.")
        until = raw.get("expires", ...)  # absent: none given (payloads before it had none)
        if (
            until is not ...
            and until is not None
            and (isinstance(until, bool) or not isinstance(until, int | float))
        ):
            raise InvalidArgument("payload", "A staged operation's expires is not a number.")
        expires = None if until is ... else NO_EXPIRY if until is None else float(until)
        op = Op(raw["action"], raw.get("content"), raw.get("old_text"), raw.get("target"), expires)
        ops.append(op)
    return target, ops, bool(payload.get("batch")), bool(payload.get("allow_empty"))


_TIDY_REASONS = {"merge": "merged", "supersede": "superseded"}
"""The archive reason of the entries a tidy proposal of each kind drops."""


def archive_reasons(payload: dict[str, Any], ops: Sequence[Op]) -> dict[str, Reason]:
    """Why the entries a staged tidy proposal removes leave, by the handle its operations
    name them with: a merge's ``merged`` and a supersede's ``superseded``, each naming
    the kept entry (the text its first replace writes). Empty for any other write (a
    stale entry, or a write that is no tidy proposal, leaves as ``removed``)."""
    tidy = payload.get("tidy")
    why = _TIDY_REASONS.get(str(tidy.get("kind"))) if isinstance(tidy, dict) else None
    kept = next((op.content for op in ops if op.action == "replace"), None)
    if why is None or kept is None:
        return {}
    return {
        op.old_text: (why, kept) for op in ops if op.action == "remove" and op.old_text is not None
    }


def tidy_words(payload: dict[str, Any], results: Sequence[OpResult], *, done: bool) -> str | None:
    """A staged tidy proposal (``payload["tidy"]``) in the tidy's words, from what its
    operations did or would do (``results``): :func:`~mnemic.governance.held.tidy_sentence`.
    None for any other write, which keeps the tool's wording."""
    tidy = payload.get("tidy")
    if not isinstance(tidy, dict):
        return None
    replaced = next((r for r in results if r.status == "replaced"), None)
    dropped = [r.previous for r in results if r.status == "removed" and r.previous is not None]
    return tidy_sentence(
        str(tidy.get("kind")),
        replaced.previous if replaced is not None else None,
        replaced.entry if replaced is not None else None,
        dropped,
        done=done,
    )


def describe(
    target: str,
    ops: Sequence[Op],
    commits: Sequence[Commit],
    payload: dict[str, Any] | None = None,
) -> tuple[str, str]:
    """(one-line summary, full detail with a diff per file) of a memory write; a staged
    tidy proposal (``payload``) is told in the tidy's words (:func:`tidy_words`) in place
    of a line per operation, since its operations name entries by handle."""
    steps = None
    if payload is not None:
        steps = tidy_words(payload, [r for c in commits for r in c.results], done=False)
    targets = sorted({c.target for c in commits}) or [target]
    where = " and ".join(_LABELS[t] for t in targets)
    if len(ops) == 1:
        op = ops[0]
        label = _LABELS[op.target or target]
        if op.action == "add":
            summary = f"add to {label}: {_short(op.content)}"
        elif op.action == "replace":
            summary = f"replace in {label}: {_short(op.old_text, 40)} -> {_short(op.content)}"
        else:
            summary = f"remove from {label}: {_short(op.old_text)}"
    else:
        summary = f"apply {len(ops)} operations to {where}"
    lines = [steps] if steps is not None else [_step(i, op, target) for i, op in enumerate(ops, 1)]
    for c in commits:
        if c.after == c.before:
            continue
        name = FILENAMES[c.target]
        diff = difflib.unified_diff(
            serialize(c.before).splitlines(keepends=True),
            serialize(c.after).splitlines(keepends=True),
            fromfile=f"{name} (now)",
            tofile=f"{name} (after approval)",
        )
        lines.append("")
        lines.extend(line.rstrip("\n") for line in diff)
    return _short(summary, _SUMMARY_WIDTH), "\n".join(lines)


def _step(i: int, op: Op, target: str) -> str:
    """Operation number ``i`` of a write, a line."""
    t = op.target or target
    if op.action == "add":
        return f"{i}. add [{t}]: {op.content}"
    if op.action == "replace":
        return f"{i}. replace [{t}]: {op.old_text!r} -> {op.content}"
    return f"{i}. remove [{t}]: {op.old_text!r}"
