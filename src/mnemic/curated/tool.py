"""The ``memory`` tool: its call (its schema, written for the model, is :mod:`.tool_spec`).

:func:`memory_call` takes the raw JSON arguments of one tool call and returns the JSON
response of a success; a refusal is raised, carrying what the model needs to recover
(current entries, usage, changes made by others) in the response it becomes
(:func:`~mnemic.tooling.tool_response`, run by the tool registry's dispatch).
:func:`run_memory_tool` is the same call through that envelope: it never raises. Refusals
say what to do next; successes are terminal ("done") and do not echo the store, so a
model does not go looking for more to fix.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..errors import (
    BatchFailed,
    InvalidArgument,
    MnemicError,
    ProjectScopeError,
    ToolError,
)
from ..tooling import json_kind, json_shown, parse_arguments, tool_response
from .entries import TARGETS
from .guard import call_signature, state_key
from .memory import Memory
from .pressure import parse_expires
from .scope import no_project
from .store import ACTIONS, Op, check_target
from .tool_answers import ArchiveSearcher, archive_answer, read_answer, refusal, success
from .tool_spec import MEMORY_TOOL, memory_tool_spec

__all__ = ["MEMORY_TOOL", "ArchiveSearcher", "memory_call", "memory_tool_spec", "run_memory_tool"]


_KEYS = {"action", "target", "content", "old_text", "operations", "allow_empty", "expires"}

_ALIASES = ("new_content", "new_text")
_OP_KEYS = {"action", "content", "old_text", "target", "expires", *_ALIASES}


ProjectMemory = Callable[[], Memory]
"""The memory of the selected project (opened on first use; see :mod:`.scope`)."""
ProjectAt = Callable[[str], Memory]
"""The memory of the project whose directory a call names (``project`` argument)."""


def run_memory_tool(
    memory: Memory,
    arguments: str | dict[str, Any] | None,
    *,
    archive_search: ArchiveSearcher | None = None,
    project: ProjectMemory | None = None,
    project_at: ProjectAt | None = None,
) -> dict[str, Any]:
    """Run one ``memory`` tool call and return its JSON response, a refusal's included
    (never raises: :func:`memory_call` through :func:`~mnemic.tooling.tool_response`)."""
    return tool_response(
        "memory",
        lambda: memory_call(
            memory, arguments, archive_search=archive_search, project=project, project_at=project_at
        ),
    )


def memory_call(
    memory: Memory,
    arguments: str | dict[str, Any] | None,
    *,
    archive_search: ArchiveSearcher | None = None,
    project: ProjectMemory | None = None,
    project_at: ProjectAt | None = None,
) -> dict[str, Any]:
    """Run one ``memory`` tool call: its success response, or a raised refusal holding
    what the model needs to recover (see the module docstring).

    ``scope="project"`` runs the call on ``project()``, the selected project's memory
    (refused when ``project`` is ``None``), or, when the call names its directory
    (``project``), on ``project_at(directory)`` (refused when that is ``None``); its
    answers say ``"scope": "project"``.

    Every attempt is audited once: :meth:`Memory.apply` records what reaches it; a call
    refused before (bad arguments, the repeat guard) is recorded here (in the journal of
    the scope the call names).
    """
    signature = ""
    target: str | None = None
    targets: list[str] = []
    ops: list[Op] = []
    applying = False
    scoped = False
    try:
        args = parse_arguments(arguments)
        memory, args, scoped = _scope(memory, args, project, project_at)
        if scoped:  # the same call in the project's memory, its answer marked
            resp = memory_call(memory, args, archive_search=archive_search)
            if args.get("action") == "archive_search":
                resp = _other_scope(resp, "global")
            return _project_answer(resp)
        if args.get("action") == "archive_search":
            resp = archive_answer(memory, args, archive_search)
            return resp if project is None else _other_scope(resp, "project")
        signature = call_signature(args)
        target, kind, ops, allow_empty = _parse(memory, args)
        if kind == "read":
            return read_answer(memory, target)
        targets = sorted({op.target or target for op in ops})
        if memory.guard.failed_before(signature):
            memory.guard.check_repeat(signature, _state(memory, target, targets))
        applying = True
        result = memory.apply(
            target, ops, batch=kind == "batch", allow_empty=allow_empty, guarded=True
        )
        memory.guard.record_success()
        resp = success(memory, result)
        if not result.written and not result.staged and any(o.expires for o in ops):
            # the text stayed, the expiry given is kept: not "nothing needed to change"
            resp["note"] = (
                "Saved: the entry's text stayed, its expiry is now as given. This change "
                "is complete; do not repeat it."
            )
        return resp
    except ToolError as exc:
        if scoped:
            raise
        if not applying:
            _audit_refusal(memory, target, exc)
        state = _state(memory, target, targets) if target else None
        reported = memory.guard.record_failure(signature, state, exc)
        enriched = refusal(memory, _failed_target(exc, target, ops), reported)
        if enriched is exc:
            raise
        raise enriched from exc
    except MnemicError as exc:
        if not applying and not scoped:
            _audit_refusal(memory, target, exc)
        raise


def _other_scope(resp: dict[str, Any], other: str) -> dict[str, Any]:
    """An ``archive_search`` answer that found nothing good, told that the session's other
    scope has an archive of its own (one scope per call: a model sees the global archive
    and its own project's, never another project's)."""
    if resp.get("results") and not resp.get("no_good_match"):
        return resp
    where = "this project's archive" if other == "global" else "the global archive"
    tip = f' This searched {where} only; scope="{other}" searches the other one.'
    return {**resp, "note": str(resp.get("note", "")) + tip}


def _project_answer(resp: dict[str, Any]) -> dict[str, Any]:
    """A project call's answer, marked ``scope: project``. A staged write's note keeps
    the plain ``mnemic pending approve ID``: approval finds the id in whichever store's
    queue holds it."""
    return {**resp, "scope": "project"}


def _scope(
    memory: Memory,
    args: dict[str, Any],
    project: ProjectMemory | None,
    project_at: ProjectAt | None,
) -> tuple[Memory, dict[str, Any], bool]:
    """The memory a call's ``scope`` (and ``project``) names, its arguments without
    them, and whether it is a project's."""
    if "scope" not in args and "project" not in args:
        return memory, args, False
    scope = args.get("scope")
    directory = args.get("project")
    rest = {k: v for k, v in args.items() if k not in ("scope", "project")}
    if directory is not None and scope != "project":
        raise InvalidArgument(
            "project", 'project (a directory) goes with scope="project"; nothing was saved.'
        )
    if scope is None or scope == "global":
        return memory, rest, False
    if scope != "project":
        raise InvalidArgument(
            "scope", f"Unknown scope {scope!r}. Use 'global' (the default) or 'project'."
        )
    if directory is not None and project_at is None:
        raise InvalidArgument(
            "project",
            "This tool set does not take a project directory per call; leave project out "
            '(scope="project" is the project this session was started with).',
        )
    if directory is not None and (not isinstance(directory, str) or not os.path.isabs(directory)):
        raise InvalidArgument(
            "project", "project must be the absolute path of the project's directory."
        )
    if directory is None and project is None:
        raise no_project()
    ops = rest.get("operations")
    named = [o.get("target") for o in ops if isinstance(o, dict)] if isinstance(ops, list) else []
    if "user" in (rest.get("target"), *named):
        raise ProjectScopeError(
            "user_is_global",
            "The user profile is global only (the user is the same person in every "
            'project). Nothing was saved. Save it with scope="global", target="user".',
        )
    if directory is not None and project_at is not None:
        try:
            return project_at(directory), rest, True
        except ProjectScopeError as exc:
            if exc.reason != "not_a_directory":
                raise
            raise ProjectScopeError(  # the library's wording names --project: a CLI flag
                "not_a_directory",
                f"project {json_shown(directory, 120)} does not exist "
                "or is not a directory. Nothing was read or saved. Pass the absolute path of "
                "the project's directory (your working directory), or leave scope out for "
                "the global memory.",
            ) from exc
    assert project is not None
    try:
        return project(), rest, True
    except ProjectScopeError as exc:
        if exc.reason != "not_a_directory":
            raise
        raise ProjectScopeError(  # the session's directory went away; --project is no help
            "not_a_directory",
            "This session's project directory no longer exists (moved or deleted), so its "
            'project memory cannot be opened. Nothing was read or saved. Use scope="global" '
            "(the default), and tell the user the project directory is gone.",
        ) from exc


def _unknown_action(action: object, readable: str) -> InvalidArgument:
    """The refusal of an action the tool does not have; ``restore`` (the CLI's word for
    bringing an archived entry back) says how the model does it (docs/first-week.md
    #23)."""
    how = (
        ' To bring an archived entry back, add its text again: action="add" with the'
        " text archive_search gave as content."
        if action in ("restore", "unarchive", "archive_restore")
        else ""
    )
    return InvalidArgument(
        "action",
        f"Unknown action {json_shown(action)}. Use add, replace, remove{readable}, "
        f"archive_search (or operations).{how}",
    )


def _parse(memory: Memory, args: dict[str, Any]) -> tuple[str, str, list[Op], bool]:
    for alias in _ALIASES:
        if alias in args and "content" not in args:
            args = {**args, "content": args[alias]}
    readable = ", read" if memory.settings.memory.read_action else ""
    action = args.get("action")
    if isinstance(action, str) and action not in (*ACTIONS, "read", "batch", "archive_search"):
        raise _unknown_action(action, readable)  # before its arguments: the action is wrong
    unknown = sorted(set(args) - _KEYS - set(_ALIASES))
    if unknown:
        raise InvalidArgument(
            unknown[0],
            f"Unknown argument(s) {', '.join(unknown)}. Allowed: action, target, content, "
            "old_text, operations, allow_empty, expires.",
        )
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
            quoted = isinstance(operations, str) and operations.lstrip().startswith("[")
            hint = (  # the list written out as JSON text inside a string, a common slip
                " It is a string holding JSON text: pass the list itself, not quoted."
                if quoted
                else ""
            )
            raise InvalidArgument(
                "operations",
                "operations must be a list of {action, content, old_text} objects, got "
                f"{json_kind(operations)}.{hint}",
            )
        if args.get("expires") is not None:
            raise InvalidArgument(
                "expires", "With operations, give expires in each add or replace operation."
            )
        ops = [_op(memory, o, i) for i, o in enumerate(operations, 1)]
        return target, "batch", ops, allow_empty
    if action is None and operations == []:
        raise InvalidArgument(
            "operations",
            'operations is empty: give at least one, e.g. [{"action": "add", "content": '
            '"..."}], or one change with action.',
        )
    if action is None:
        raise InvalidArgument(
            "action",
            f"Missing action: give action (add, replace, remove{readable}, archive_search) "
            "or an operations list.",
        )
    if action == "read":
        if not memory.settings.memory.read_action:
            raise InvalidArgument(
                "action", "The read action is disabled here; memory is in your system prompt."
            )
        given = [k for k in ("content", "old_text", "expires") if _given(args.get(k))]
        if given or allow_empty:  # silently dropped, they read as a change that was made
            field = given[0] if given else "allow_empty"
            raise InvalidArgument(
                field,
                f"read takes target only (it returns every live entry), not {field}; "
                'nothing was changed. To change memory, use action "add", "replace" or '
                '"remove".',
            )
        return target, "read", [], False
    if not isinstance(action, str) or action not in ACTIONS:
        raise _unknown_action(action, readable)
    content = _text(args, "content")
    old = _text(args, "old_text")
    unused = _unused(action, content, old)
    if unused is not None:
        raise InvalidArgument(unused[0], unused[1] + " Nothing was saved.")
    until = _expires(memory, action, args.get("expires"), "expires")
    return target, "single", [Op(action, content, old, None, until)], False


def _expires(memory: Memory, action: str, value: Any, field: str) -> float | None:
    """The ``expires`` of an add or replace (``None``: not given)."""
    if value is None:
        return None
    if action == "remove":
        raise InvalidArgument(field, "expires goes with add or replace, not remove.")
    if not isinstance(value, str):
        raise InvalidArgument(field, f'{field} must be a string such as "2026-06-30".')
    return parse_expires(value, memory.now(), field)


def _op(memory: Memory, raw: Any, index: int) -> Op:
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
    unused = _unused(action, content, raw.get("old_text"))
    if unused is not None:
        raise InvalidArgument("operations", f"Operation {index}: {unused[1]} Nothing was applied.")
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
        _expires(memory, action, raw.get("expires"), f"operations[{index}].expires"),
    )


def _unused(action: str, content: Any, old: Any) -> tuple[str, str] | None:
    """The field an action would silently drop, and what to pass instead (``None``:
    none): an add's ``old_text`` (a replace was meant) or a remove's ``content``."""
    if action == "add" and isinstance(old, str) and old.strip():
        return "old_text", (
            'add takes content only: to change an entry, use action "replace" with '
            "old_text (a piece of it) and content (its new text)."
        )
    if action == "remove" and isinstance(content, str) and content.strip():
        return "content", (
            "remove takes old_text only (a unique piece of the entry), not content: pass "
            'old_text alone, or use action "replace" to change the entry.'
        )
    return None


def _failed_target(exc: ToolError, target: str | None, ops: list[Op]) -> str | None:
    """The target a refusal is about: a failed batch operation's own target, if it has one."""
    index = getattr(exc, "index", None)
    if isinstance(exc, BatchFailed) and isinstance(index, int) and 0 < index <= len(ops):
        return ops[index - 1].target or target
    return target


def _given(value: Any) -> bool:
    """Whether an argument holds something (``None`` and blank text are absent: clients
    send every field of the schema, empty)."""
    return value is not None and not (isinstance(value, str) and not value.strip())


def _text(args: dict[str, Any], key: str) -> str | None:
    return _check_str(args.get(key), key)


def _check_str(value: Any, key: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidArgument(key, f"{key} must be a string, got {json_kind(value)}.")


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
