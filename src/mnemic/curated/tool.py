"""The ``memory`` tool: its schema (written for the model) and its dispatcher.

:func:`run_memory_tool` takes the raw JSON arguments of one tool call and returns the
JSON response; it never raises. Refusals come back as ``success: false`` with a
message that says what to do next, plus the state needed to do it (current entries,
usage). Successes are terminal ("done") and do not echo the store, so a model does not
go looking for more to fix.
"""

from __future__ import annotations

import logging
from typing import Any

from ..errors import (
    BatchFailed,
    InvalidArgument,
    MnemicError,
    StorageError,
    ToolError,
)
from ..tooling import ToolSpec, parse_arguments
from .entries import TARGETS
from .guard import call_signature, state_key
from .memory import Memory, WriteResult
from .provenance import brief
from .snapshot import display_entry
from .store import ACTIONS, Op, check_target

__all__ = ["MEMORY_TOOL", "memory_tool_spec", "run_memory_tool"]

log = logging.getLogger(__name__)

_DESCRIPTION = """\
Save durable facts to your persistent memory. Memory is shown in the system prompt of \
every future session, so keep it small, factual and high-signal. Writes are saved at once \
but the current system prompt keeps showing the snapshot taken at session start.

TARGETS: "user" = who the user is (name, role, preferences, communication style, \
corrections they gave you). "memory" = your own notes (environment facts, project \
conventions, tool quirks, lessons learned).

WHEN TO SAVE (without being asked): the user corrects you or says "remember" / "don't do \
that again"; the user states a preference, habit or personal detail; you learn a stable \
fact about the environment, a convention or an API quirk that will matter again. \
Priority: user preferences and corrections > environment facts > procedures.

DO NOT SAVE: task progress, what you did this session, temporary TODOs, raw data or \
logs, things easy to look up again, secrets or credentials. Past conversations are \
searchable with session_search; reusable step-by-step procedures belong in a skill. \
Write each entry as one declarative fact (1-2 sentences), not as an instruction.

HOW: action="add" with content; action="replace" with old_text (a short unique substring \
of the entry, or the whole entry) and content (the full new entry); action="remove" with \
old_text. To make several changes, omit action and pass operations=[{action, content, \
old_text}, ...]: applied in order, all-or-nothing, and the size limit is checked only on \
the final result, so one call can free room and add. An operation may name its own \
target ("memory" or "user"); a list spanning both files commits both or neither.

IF FULL: an add is refused with current_entries; answer with ONE operations call that \
removes or merges stale entries and then adds the new fact. A success response means the \
change is saved: do not repeat it. A response with staged=true means the change waits \
for a person's approval and is NOT saved yet: do not repeat it either.

Example: {"target": "user", "operations": [{"action": "remove", "old_text": "prefers \
tabs"}, {"action": "add", "content": "Prefers 4-space indentation in Python."}]}"""

_READ_NOTE = (
    ' action="read" returns the live entries and usage of a target (use it if you '
    "suspect another session changed memory)."
)


def memory_tool_spec(*, read_action: bool = True) -> ToolSpec:
    """The ``memory`` tool spec; ``read_action`` adds ``action="read"``."""
    actions = [*ACTIONS, "read"] if read_action else list(ACTIONS)
    description = _DESCRIPTION + (_READ_NOTE if read_action else "")
    op_schema = {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": list(ACTIONS)},
            "content": {"type": "string", "description": "Entry text (add, replace)."},
            "old_text": {
                "type": "string",
                "description": "Unique substring of the entry to change (replace, remove).",
            },
            "target": {
                "type": "string",
                "enum": list(TARGETS),
                "description": "This operation's file (default: the call's target).",
            },
        },
        "required": ["action"],
    }
    return ToolSpec(
        name="memory",
        description=description,
        parameters={
            "type": "object",
            "properties": {
                "action": {
                    "type": "string",
                    "enum": actions,
                    "description": "One change (omit when passing operations).",
                },
                "target": {
                    "type": "string",
                    "enum": list(TARGETS),
                    "description": (
                        "'user' = the user profile, 'memory' = your notes (the default, also "
                        "for operations that do not name their own)."
                    ),
                },
                "content": {
                    "type": "string",
                    "description": "Full entry text; required for add and replace.",
                },
                "old_text": {
                    "type": "string",
                    "description": (
                        "Required for replace and remove: a short substring that appears "
                        "in exactly one entry (or the whole entry)."
                    ),
                },
                "operations": {
                    "type": "array",
                    "items": op_schema,
                    "description": "Several changes applied all-or-nothing, in order.",
                },
                "allow_empty": {
                    "type": "boolean",
                    "description": "Let an operations list remove every entry (default false).",
                },
            },
        },
    )


MEMORY_TOOL = memory_tool_spec()
"""The ``memory`` tool with the read action (the default configuration)."""

_KEYS = {"action", "target", "content", "old_text", "operations", "allow_empty"}
_ALIASES = ("new_content", "new_text")
_OP_KEYS = {"action", "content", "old_text", "target", *_ALIASES}


def run_memory_tool(memory: Memory, arguments: str | dict[str, Any] | None) -> dict[str, Any]:
    """Run one ``memory`` tool call and return its JSON response (never raises).

    Every attempt is audited once: :meth:`Memory.apply` records what reaches it; a call
    refused before (bad arguments, the repeat guard) is recorded here.
    """
    signature = ""
    target: str | None = None
    targets: list[str] = []
    ops: list[Op] = []
    applying = False
    try:
        args = parse_arguments(arguments)
        signature = call_signature(args)
        target, kind, ops, allow_empty = _parse(memory, args)
        if kind == "read":
            return _read_response(memory, target)
        targets = sorted({op.target or target for op in ops})
        if memory.guard.failed_before(signature):
            memory.guard.check_repeat(signature, _state(memory, target, targets))
        applying = True
        result = memory.apply(
            target, ops, batch=kind == "batch", allow_empty=allow_empty, guarded=True
        )
        memory.guard.record_success()
        return _success(memory, result)
    except ToolError as exc:
        if not applying:
            _audit_refusal(memory, target, exc)
        state = _state(memory, target, targets) if target else None
        reported = memory.guard.record_failure(signature, state, exc)
        return _failure(memory, _failed_target(exc, target, ops), reported)
    except MnemicError as exc:
        if not applying:
            _audit_refusal(memory, target, exc)
        return exc.to_response()
    except Exception as exc:  # a bug must not break the agent's turn
        log.exception("memory tool failed unexpectedly")
        return {
            "success": False,
            "error": f"Internal error in the memory tool ({type(exc).__name__}). Memory was "
            "not changed. Continue without saving; the error was logged.",
            "error_code": "internal_error",
        }


def _parse(memory: Memory, args: dict[str, Any]) -> tuple[str, str, list[Op], bool]:
    for alias in _ALIASES:
        if alias in args and "content" not in args:
            args = {**args, "content": args[alias]}
    unknown = sorted(set(args) - _KEYS - set(_ALIASES))
    if unknown:
        raise InvalidArgument(
            unknown[0],
            f"Unknown argument(s) {', '.join(unknown)}. Allowed: action, target, content, "
            "old_text, operations, allow_empty.",
        )
    action = args.get("action")
    operations = args.get("operations")
    # A missing or null target means "memory" (as in the system we start from); each
    # operation of a list may still name its own.
    target = "memory" if args.get("target") is None else check_target(args["target"])
    allow_empty = args.get("allow_empty", False)
    if not isinstance(allow_empty, bool):
        raise InvalidArgument("allow_empty", "allow_empty must be true or false.")
    if operations is not None and operations != []:
        if action not in (None, "batch"):
            raise InvalidArgument(
                "action",
                "Pass either action (one change) or operations (several), not both.",
            )
        if not isinstance(operations, list):
            raise InvalidArgument(
                "operations", "operations must be a list of {action, content, old_text} objects."
            )
        return target, "batch", [_op(o, i) for i, o in enumerate(operations, 1)], allow_empty
    if action is None:
        raise InvalidArgument(
            "action",
            "Missing action: give action (add, replace, remove"
            + (", read" if memory.settings.memory.read_action else "")
            + ") or an operations list.",
        )
    if action == "read":
        if not memory.settings.memory.read_action:
            raise InvalidArgument(
                "action", "The read action is disabled here; memory is in your system prompt."
            )
        return target, "read", [], False
    if not isinstance(action, str) or action not in ACTIONS:
        raise InvalidArgument(
            "action", f"Unknown action {action!r}. Use add, replace or remove (or operations)."
        )
    content = _text(args, "content")
    old = _text(args, "old_text")
    return target, "single", [Op(action, content, old)], False


def _op(raw: Any, index: int) -> Op:
    if not isinstance(raw, dict):
        raise InvalidArgument(
            "operations",
            f"Operation {index} is not an object. Each operation is "
            '{"action": ..., "content": ..., "old_text": ...}. Nothing was applied.',
        )
    unknown = sorted(set(raw) - _OP_KEYS)
    if unknown:
        raise InvalidArgument(
            "operations",
            f"Operation {index} has unknown key(s) {', '.join(unknown)}. Nothing was applied.",
        )
    action = raw.get("action")
    if action not in ACTIONS:
        raise InvalidArgument(
            "operations",
            f"Operation {index} has action {action!r}; use add, replace or remove. Nothing "
            "was applied.",
        )
    content = raw.get("content")
    if content is None:
        content = raw.get("new_content", raw.get("new_text"))
    op_target = raw.get("target")
    if op_target is not None and op_target not in TARGETS:
        raise InvalidArgument(
            "operations",
            f"Operation {index} has target {op_target!r}; use 'memory' or 'user'. Nothing "
            "was applied.",
        )
    return Op(
        action,
        _check_str(content, f"operations[{index}].content"),
        _check_str(raw.get("old_text"), f"operations[{index}].old_text"),
        op_target,
    )


def _failed_target(exc: ToolError, target: str | None, ops: list[Op]) -> str | None:
    """The target a refusal is about: a failed batch operation's own target, if it has one."""
    index = getattr(exc, "index", None)
    if isinstance(exc, BatchFailed) and isinstance(index, int) and 0 < index <= len(ops):
        return ops[index - 1].target or target
    return target


def _text(args: dict[str, Any], key: str) -> str | None:
    return _check_str(args.get(key), key)


def _check_str(value: Any, key: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidArgument(key, f"{key} must be a string, got {type(value).__name__}.")


def _state(memory: Memory, target: str | None, targets: list[str] | None = None) -> int | None:
    if target is None:
        return None
    try:
        if targets and targets != [target]:
            return hash(tuple(state_key(memory.backend.read(t)) for t in targets))
        return state_key(memory.backend.read(target))
    except MnemicError:
        return None


def _audit_refusal(memory: Memory, target: str | None, exc: MnemicError) -> None:
    """Record a call refused before it reached ``Memory.apply`` (bad arguments, repeat
    guard); refusals inside ``apply`` were recorded there already."""
    gov = memory.governor
    if gov is None:
        return
    attempt = gov.attempt("memory", "call", [target] if target else [])
    attempt.refused(exc)


def _display_entries(memory: Memory, target: str) -> list[str] | None:
    try:
        live = memory.store.load(target)
    except StorageError:
        return None
    return [display_entry(target, e)[0] for e in live]


_WANTS_ENTRIES = {
    "no_match",
    "budget_exceeded",
    "batch_failed",
    "would_empty_target",
    "ambiguous_match",
}


def _failure(memory: Memory, target: str | None, exc: ToolError) -> dict[str, Any]:
    resp = exc.to_response()
    if target is None or resp.get("done"):
        return resp
    wants = exc.code in _WANTS_ENTRIES or (
        exc.code == "invalid_argument" and getattr(exc, "field", "") == "old_text"
    )
    if resp.get("cause_code") in ("threat_blocked", "content_rejected"):
        wants = False
    if "entry_chars" in resp:  # one entry longer than the budget: nothing to pick from
        wants = False
    if wants:
        shown = _display_entries(memory, target)
        if shown is not None:
            resp["current_entries"] = shown
            resp["usage"] = memory.usage(target).line()
    try:
        changes = memory.poll_external_changes()
    except MnemicError:
        changes = []
    for ch in changes:
        if ch.target == target:
            resp["external_changes"] = ch.as_dict()
    return resp


def _staged(memory: Memory, result: WriteResult) -> dict[str, Any]:
    pid = result.pending_id
    return {
        "success": True,
        "done": True,
        "staged": True,
        "saved": False,
        "pending_id": pid,
        "target": result.target,
        "action": result.action,
        "message": (
            f"NOT saved yet: this change waits for a person's approval (pending id {pid}). "
            "Memory is unchanged until it is approved."
            + (
                f" The threat scanner held it because it is unsure about it: {result.held}."
                if result.held
                else ""
            )
        ),
        "note": (
            "The change is queued; do not repeat this call. Carry on with the task. A person "
            f"approves it with `mnemic pending approve {pid}` (or rejects it)."
        ),
        "usage": result.usage.line(),
        **({"held_by_scanner": result.held} if result.held else {}),
    }


def _success(memory: Memory, result: WriteResult) -> dict[str, Any]:
    if result.staged:
        return _staged(memory, result)
    usage = result.usage
    resp: dict[str, Any] = {
        "success": True,
        "done": True,
        "target": result.target,
        "action": result.action,
        "message": result.message,
        "usage": usage.line(),
        "entry_count": usage.entries,
        "tokens_estimate": usage.tokens,
    }
    if result.written:
        resp["note"] = (
            "Saved. This change is complete; do not repeat it. It appears in the system "
            "prompt from the next session on."
        )
    else:
        resp["note"] = "Nothing needed to change; do not repeat this call."

    def show(entry: str, target: str = "") -> str:
        return display_entry(target or result.target, entry)[0]

    if result.action == "replace" and result.results[0].previous is not None:
        resp["replaced_entry"] = show(result.results[0].previous, result.results[0].target)
    elif result.action == "remove" and result.results[0].previous is not None:
        resp["removed_entry"] = show(result.results[0].previous, result.results[0].target)
    elif result.action == "batch":
        replaced = {
            str(i): show(r.previous, r.target)
            for i, r in enumerate(result.results, 1)
            if r.status == "replaced" and r.previous is not None
        }
        removed = {
            str(i): show(r.previous, r.target)
            for i, r in enumerate(result.results, 1)
            if r.status == "removed" and r.previous is not None
        }
        if replaced:
            resp["replaced_entries"] = replaced
        if removed:
            resp["removed_entries"] = removed
    warning = usage.pressure_note(memory.settings.memory.pressure_ratio)
    if warning:
        resp["warning"] = warning
    if result.external_changes is not None:
        resp["external_changes"] = result.external_changes.as_dict()
    if result.others:
        resp["other_targets"] = [_other(memory, other) for other in result.others]
    return resp


def _other(memory: Memory, result: WriteResult) -> dict[str, Any]:
    """The second file of a batch that spans both targets."""
    out: dict[str, Any] = {
        "target": result.target,
        "usage": result.usage.line(),
        "entry_count": result.usage.entries,
        "tokens_estimate": result.usage.tokens,
    }
    warning = result.usage.pressure_note(memory.settings.memory.pressure_ratio)
    if warning:
        out["warning"] = warning
    if result.external_changes is not None:
        out["external_changes"] = result.external_changes.as_dict()
    return out


def _read_response(memory: Memory, target: str) -> dict[str, Any]:
    res = memory.read(target)
    resp: dict[str, Any] = {
        "success": True,
        "target": target,
        "entries": list(res.entries),
        "provenance": [brief(p) for p in res.provenance],
        "usage": res.usage.line(),
        "entry_count": res.usage.entries,
        "tokens_estimate": res.usage.tokens,
    }
    if res.blocked:
        resp["blocked_entries"] = list(res.blocked)
    if res.differs_from_snapshot:
        resp["note"] = (
            "These live entries differ from the snapshot in your system prompt (changes "
            "since session start); the live entries are current."
        )
    warning = res.usage.pressure_note(memory.settings.memory.pressure_ratio)
    if warning:
        resp["warning"] = warning
    if res.external_changes is not None:
        resp["external_changes"] = res.external_changes.as_dict()
    return resp
