"""The ``memory`` tool's schema: what the model reads about the tool and its arguments.

Written for the model: each action, what belongs in memory and what does not, the
archive, expiry, and (when a project is selected) the scopes. The call itself is
:mod:`.tool`, which re-exports :data:`MEMORY_TOOL` and :func:`memory_tool_spec`.
"""

from __future__ import annotations

from typing import Any

from ..tooling import ToolSpec
from .entries import TARGETS
from .store import ACTIONS

__all__ = ["MEMORY_TOOL", "memory_tool_spec"]

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
the old text of a replace, evicted to make room, expired, dropped by a person's edit) is \
kept in an archive that is NOT in your prompt. When the user refers to something you no \
longer have ("what was that old staging host?"), or before re-learning a fact you may \
have let go, call action="archive_search" with query (a few words; optional target). It \
returns up to 5 archived entries with when and why they left; to bring one back, add \
its text again. Example: {"action": "archive_search", "query": "staging database host"}"""

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
    'it then moves to the archive. "never" clears it (replace with the same text).'
)

_READ_NOTE = (
    ' action="read" returns the live entries and usage of a target (use it if you '
    "suspect another session changed memory), and names in pending_ids the writes to it "
    "that wait for a person's approval: they are not in the entries and not saved yet; "
    "do not propose them again (read before re-adding a fact you wrote that is missing)."
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
