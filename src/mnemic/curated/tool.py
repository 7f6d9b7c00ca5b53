"""The ``memory`` tool: its schema (written for the model) and its call.

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
import shlex
from collections.abc import Callable
from typing import Any

from ..errors import (
    BatchFailed,
    InvalidArgument,
    MnemicError,
    ProjectScopeError,
    StorageError,
    ToolError,
)
from ..tooling import ToolSpec, parse_arguments, staged_response, tool_response
from .entries import TARGETS, entry_handle
from .guard import call_signature, state_key
from .memory import Changes, Memory, WriteResult
from .pressure import add_candidates, parse_expires
from .provenance import brief
from .scope import no_project
from .snapshot import display_entry
from .store import ACTIONS, Op, check_target
from .usage import Usage

__all__ = ["MEMORY_TOOL", "memory_call", "memory_tool_spec", "run_memory_tool"]

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

IF FULL: an add is refused with current_entries and candidates (the entries best \
dropped first, each with its handle and why: expired, duplicate, least used, oldest \
unconfirmed); answer with ONE operations call that removes or merges stale entries (a \
handle works as old_text) and then adds the new fact. Where the user enabled eviction, \
a full write succeeds instead and its response lists in evicted the entries moved to the \
archive to make room. A success response means the \
change is saved: do not repeat it. A response with staged=true means the change waits \
for a person's approval and is NOT saved yet: do not repeat it either.

Example: {"target": "user", "operations": [{"action": "remove", "old_text": "prefers \
tabs"}, {"action": "add", "content": "Prefers 4-space indentation in Python."}]}"""

_ARCHIVE_NOTE = """

ARCHIVE: nothing you remove or replace is lost. Every entry that left memory (removed, \
the old text of a replace, dropped by a person's edit) is kept in an archive that is \
NOT in your prompt. When the user refers to something you no longer have ("what was \
that old staging host?"), or before re-learning a fact you may have let go, call \
action="archive_search" with query (a few words; optional target). It returns up to 5 \
archived entries with when and why they left; to bring one back, add its text again. \
Example: {"action": "archive_search", "query": "staging database host"}"""

_SCOPE_NOTE = """

SCOPE: "global" (the default) = memory shown in every project; "project" = the \
PROJECT MEMORY block, shown only while working in this project (its build commands, \
layout, conventions). The user profile is global only. Example: {"action": "add", \
"scope": "project", "content": "Tests run with ./x test."}"""

_SCOPE_PROPERTY: dict[str, Any] = {
    "scope": {
        "type": "string",
        "enum": ["global", "project"],
        "description": "'global' (default) or 'project': this project's own MEMORY.",
    }
}

_PROJECT_NOTE = """ With scope="project", pass project: the absolute path of the \
project's directory (your working directory)."""

_PROJECT_PROPERTY: dict[str, Any] = {
    "project": {
        "type": "string",
        "description": "With scope='project': the project's directory (absolute path).",
    }
}

_EXPIRY_NOTE = """

EXPIRY: for a fact true only until a known date ("on call this week", "the freeze ends \
June 30"), pass expires="YYYY-MM-DD" with add or replace (valid through that day, UTC); \
keep the date out of the text. At the first session after it, the entry moves to the \
archive by itself."""

_EXPIRES_HELP = (
    "add, replace: the last day the fact holds, YYYY-MM-DD (or YYYY-MM-DDTHH:MM, UTC); "
    "it then moves to the archive."
)

_READ_NOTE = (
    ' action="read" returns the live entries and usage of a target (use it if you '
    "suspect another session changed memory)."
)


def memory_tool_spec(
    *, read_action: bool = True, project: bool = False, project_argument: bool = False
) -> ToolSpec:
    """The ``memory`` tool spec; ``read_action`` adds ``action="read"``, ``project`` (a
    project is selected) the ``scope`` argument, ``project_argument`` (a call may name
    its project's directory) ``scope`` and ``project``."""
    actions = [*ACTIONS, "read"] if read_action else list(ACTIONS)
    actions.append("archive_search")
    description = _DESCRIPTION + _ARCHIVE_NOTE + _EXPIRY_NOTE + (_READ_NOTE if read_action else "")
    if project or project_argument:
        description += _SCOPE_NOTE
    if project_argument:
        description += _PROJECT_NOTE
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
            "expires": {"type": "string", "description": _EXPIRES_HELP},
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
                "expires": {"type": "string", "description": _EXPIRES_HELP},
                "allow_empty": {
                    "type": "boolean",
                    "description": "Let an operations list remove every entry (default false).",
                },
                "query": {
                    "type": "string",
                    "description": "archive_search: a few words of the fact to find.",
                },
                **(_SCOPE_PROPERTY if project or project_argument else {}),
                **(_PROJECT_PROPERTY if project_argument else {}),
            },
        },
    )


MEMORY_TOOL = memory_tool_spec()
"""The ``memory`` tool with the read action (the default configuration)."""

_KEYS = {"action", "target", "content", "old_text", "operations", "allow_empty", "expires"}

ArchiveSearcher = Callable[[Memory, str, "str | None"], dict[str, Any]]
"""``search(memory, query, target)``: the archived entries that match, as the
``archive_search`` action answers (the tool set passes
:func:`mnemic.ops.archive_search.search_archive`; without one, entries sharing a word
with the query, newest first)."""
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
            return _project_answer(resp, memory.project)
        if args.get("action") == "archive_search":
            return _archive_response(memory, args, archive_search)
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
        if scoped:
            raise
        if not applying:
            _audit_refusal(memory, target, exc)
        state = _state(memory, target, targets) if target else None
        reported = memory.guard.record_failure(signature, state, exc)
        refusal = _refusal(memory, _failed_target(exc, target, ops), reported)
        if refusal is exc:
            raise
        raise refusal from exc
    except MnemicError as exc:
        if not applying and not scoped:
            _audit_refusal(memory, target, exc)
        raise


def _project_answer(resp: dict[str, Any], directory: str | None) -> dict[str, Any]:
    """A project call's answer: marked ``scope: project``; a staged write names the
    project's own queue, where a person finds it."""
    if resp.get("staged") and directory and isinstance(resp.get("note"), str):
        command = f"`mnemic pending approve --project {shlex.quote(directory)} "
        resp["note"] = resp["note"].replace("`mnemic pending approve ", command)
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
        return project_at(directory), rest, True
    assert project is not None
    return project(), rest, True


def _parse(memory: Memory, args: dict[str, Any]) -> tuple[str, str, list[Op], bool]:
    for alias in _ALIASES:
        if alias in args and "content" not in args:
            args = {**args, "content": args[alias]}
    unknown = sorted(set(args) - _KEYS - set(_ALIASES))
    if unknown:
        raise InvalidArgument(
            unknown[0],
            f"Unknown argument(s) {', '.join(unknown)}. Allowed: action, target, content, "
            "old_text, operations, allow_empty, expires.",
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
        if args.get("expires") is not None:
            raise InvalidArgument(
                "expires", "With operations, give expires in each add or replace operation."
            )
        ops = [_op(memory, o, i) for i, o in enumerate(operations, 1)]
        return target, "batch", ops, allow_empty
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
    return [display_entry(target, e, memory.level)[0] for e in live]


_WANTS_ENTRIES = {
    "no_match",
    "budget_exceeded",
    "batch_failed",
    "would_empty_target",
    "ambiguous_match",
}


def _refusal(memory: Memory, target: str | None, exc: ToolError) -> ToolError:
    """``exc``, with what the model needs to recover added to its response: the current
    entries and usage of ``target`` when it must pick an entry, and the changes others
    made to it meanwhile."""
    resp = exc.to_response()
    if target is None or resp.get("done"):
        return exc
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
            exc.extra["current_entries"] = shown
            exc.extra["usage"] = memory.usage(target).line()
        add_candidates(memory, exc)
    try:
        changes = memory.poll_external_changes()
    except MnemicError:
        changes = []
    for ch in changes:
        if ch.target == target:
            exc.extra["external_changes"] = ch.as_dict()
    return exc


def _state_notes(
    memory: Memory, resp: dict[str, Any], usage: Usage, changes: Changes | None
) -> dict[str, Any]:
    """``resp`` with the pressure warning of ``usage`` and the changes others made, when
    there are any (every answer that shows a target's state ends with them)."""
    warning = usage.pressure_note(memory.settings.memory.pressure_ratio)
    if warning:
        resp["warning"] = warning
    if changes is not None:
        resp["external_changes"] = changes.as_dict()
    return resp


def _staged(result: WriteResult) -> dict[str, Any]:
    resp = staged_response(
        str(result.pending_id),
        {"target": result.target, "action": result.action},
        change="this change",
        unchanged="Memory",
        approve_hint=True,
        held=result.held,
    )
    resp["usage"] = result.usage.line()
    return resp


def _success(memory: Memory, result: WriteResult) -> dict[str, Any]:
    if result.staged:
        return _staged(result)
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
        return display_entry(target or result.target, entry, memory.level)[0]

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
    if result.evicted:
        resp["evicted"] = [
            {"target": t, "handle": entry_handle(e), "entry": show(e, t), "reason": why}
            for t, e, why in result.evicted
        ]
        resp["evicted_note"] = (
            f"To make room, {len(result.evicted)} entr"
            f"{'y was' if len(result.evicted) == 1 else 'ies were'} moved to the archive "
            "(the memory's on_full policy; listed in evicted). Nothing is lost: "
            "archive_search finds them, and adding the text again brings one back."
        )
    _state_notes(memory, resp, usage, result.external_changes)
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
    return _state_notes(memory, out, result.usage, result.external_changes)


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
    return _state_notes(memory, resp, res.usage, res.external_changes)


def _archive_response(
    memory: Memory, args: dict[str, Any], search: ArchiveSearcher | None
) -> dict[str, Any]:
    """The answer of ``archive_search``: archived entries that match ``query``."""
    unknown = sorted(set(args) - {"action", "query", "target"})
    if unknown:
        raise InvalidArgument(
            unknown[0], f"archive_search takes query and target only, not {unknown[0]!r}."
        )
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        raise InvalidArgument(
            "query", 'archive_search needs query: a few words, e.g. "staging database host".'
        )
    target = args.get("target")
    if target is not None:
        target = check_target(target)
    found = (search or _word_search)(memory, query, target)
    hits = found.get("results", [])
    note = (
        "Archived entries are not in memory; add one's text again to bring it back."
        if hits
        else "Nothing in the archive matches; it was never saved, or it was forgotten."
    )
    return {"success": True, **found, "note": note, "done": True}


def _word_search(memory: Memory, query: str, target: str | None) -> dict[str, Any]:
    from .archive import listing

    words = {w.casefold() for w in query.split()}
    results = []
    for item in listing(memory, target):
        if item.text is None:
            continue
        shown, blocked = display_entry(item.target, item.text, memory.level)
        if not blocked and words & {w.casefold() for w in shown.split()}:
            results.append(
                {"id": item.id, "target": item.target, "text": shown, "reason": item.reason}
            )
        if len(results) == 5:
            break
    return {"retrieval": "lexical", "results": results}
