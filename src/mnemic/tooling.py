"""Tool descriptions and the tool-call envelope, shared by every surface (library, CLI,
MCP, agent loop).

A :class:`ToolSpec` holds a tool's name, the description the model reads, and the JSON
schema of its arguments; it renders itself in the OpenAI function format and in the
Anthropic tool format. Schemas never use top-level ``oneOf``/``anyOf``/``allOf`` (some
providers reject them).

A tool's own function raises (a :class:`~mnemic.errors.MnemicError` the model can act
on, or a bug) and returns its success response; :func:`tool_response` is the one place
that turns what it raised into what the model reads
(:meth:`mnemic.tools.ToolRegistry.dispatch` runs every call through it).
:func:`staged_response` is the answer every tool gives to a write staged for approval
(with :class:`Held`, why the threat scanner held it, in the words the layers above give).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import InvalidArgument, MnemicError

__all__ = [
    "Held",
    "ToolSpec",
    "check_text",
    "find_surrogate",
    "json_kind",
    "json_shown",
    "no_good_match_message",
    "parse_arguments",
    "RankedSearch",
    "ranked_listing",
    "ranked_search",
    "safe_text",
    "staged_response",
    "tool_response",
]

log = logging.getLogger(__name__)


def json_kind(value: object) -> str:
    """What a tool argument is, in the words of JSON (as a model wrote it): ``a number``,
    ``a list``, ``an object``..., never a Python type name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a value of another kind"


def json_shown(value: object, width: int = 60) -> str:
    """A tool argument as JSON (``"many"``, ``{"a": 1}``), shortened: how the model wrote
    it, never a Python repr (``'many'``, ``None``)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = json_kind(value)
    return text if len(text) <= width else text[:width] + "..."


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as the model sees it."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=dict)

    def openai(self) -> dict[str, Any]:
        """The OpenAI chat-completions ``tools`` entry."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def anthropic(self) -> dict[str, Any]:
        """The Anthropic Messages API ``tools`` entry."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.parameters,
        }


def parse_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    """Decode tool-call arguments given as a JSON object or a JSON string.

    Raises :class:`~mnemic.errors.InvalidArgument` with a message the model can act on
    when the text is not a JSON object, or when any key or string in it is not valid
    Unicode text (a lone surrogate such as ``"\\ud800"``, which cannot be stored as
    UTF-8). A dict (the MCP server and the agent pass one) is checked the same way.
    """

    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        check_text(raw)
        return raw
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, TypeError) as exc:
        raise InvalidArgument(
            "arguments",
            f"The tool arguments are not valid JSON ({safe_text(str(exc))}). Send one JSON "
            'object, e.g. {"action": "add", "target": "memory", "content": "..."}.',
        ) from exc
    except UnicodeDecodeError as exc:  # bytes that are not UTF-8
        raise InvalidArgument(
            "arguments", f"The tool arguments are not UTF-8 text ({exc.reason}). Send UTF-8."
        ) from exc
    if not isinstance(value, dict):
        raise InvalidArgument(
            "arguments",
            f"The tool arguments must be a JSON object, got {json_kind(value)}.",
        )
    check_text(value)
    return value


def safe_text(text: str) -> str:
    """``text`` with every lone surrogate written as an escape (``\\ud800``): safe to print
    or to encode as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def find_surrogate(value: Any) -> tuple[str, str] | None:
    """Where the first lone surrogate in a JSON-like value is: (path, ``U+XXXX``).

    Walks dicts (keys and values), lists and strings without recursion, so a deeply
    nested value cannot exhaust the stack.
    """
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                return path or "(value)", f"U+{ord(item[exc.start]):04X}"
        elif isinstance(item, dict):
            for key, sub in reversed(list(item.items())):
                name = str(key)
                where = f"{path}.{safe_text(name)}" if path else safe_text(name)
                stack.append((where, sub))
                stack.append((f"{where} (the key)", name))
        elif isinstance(item, list | tuple):
            for i in range(len(item) - 1, -1, -1):
                stack.append((f"{path}[{i}]", item[i]))
    return None


def check_text(value: Any) -> None:
    """Refuse a value holding a lone surrogate with :class:`~mnemic.errors.InvalidArgument`."""
    found = find_surrogate(value)
    if found is None:
        return

    path, codepoint = found
    raise InvalidArgument(
        path.split(".")[0].split("[")[0].split(" ")[0],
        f"The tool argument {path} holds {codepoint}, a lone surrogate: it is not valid "
        "Unicode text and cannot be stored. Nothing was done. Send the text as proper "
        "UTF-8 (JSON \\u escapes only in valid surrogate pairs).",
        argument=path,
    )


def no_good_match_message(where: str) -> str:
    """What a search below its floor says ("no good match"), ``where`` naming what was
    searched (session search: "the history")."""
    return (
        f"No good match: nothing in {where} is close to the query in words or meaning. "
        "The nearest result is shown, marked weak; it is probably unrelated."
    )


def ranked_listing(
    retrieval: str,
    results: list[dict[str, Any]],
    notice: str | None,
    *,
    match: dict[str, Any] | None = None,
    weak_in: str | None = None,
) -> dict[str, Any]:
    """The JSON form every ranked search answers with (memory entries, skills): the mode
    that ran, the count, the results best first, and a notice when there is one.

    ``match`` is the floor's verdict and its signals (semantic and hybrid); ``weak_in``
    names what was searched when nothing cleared the floor: the one result is then marked
    ``weak`` and the answer says ``no_good_match`` with its ``message``, as session search
    does."""
    if weak_in is not None:
        results = [{**r, "weak": True} for r in results]
    out: dict[str, Any] = {"retrieval": retrieval, "count": len(results), "results": results}
    if match is not None:
        out["match"] = match
    if weak_in is not None and results:
        out["no_good_match"] = True
    if notice:
        out["notice"] = notice
    if weak_in is not None and results:
        out["message"] = no_good_match_message(weak_in)
    return out


class _Verdict(Protocol):
    def to_dict(self) -> dict[str, Any]: ...  # pragma: no cover


class RankedSearch(Protocol):
    """What a ranked search answer holds (memory entries, the archive, skills): the mode
    that ran, its notice, the floor's verdict and whether nothing cleared it."""

    @property
    def retrieval(self) -> str: ...  # pragma: no cover
    @property
    def notice(self) -> str | None: ...  # pragma: no cover
    @property
    def strength(self) -> _Verdict | None: ...  # pragma: no cover
    @property
    def no_good_match(self) -> bool: ...  # pragma: no cover


def ranked_search(
    search: RankedSearch, results: list[dict[str, Any]], searched: str
) -> dict[str, Any]:
    """:func:`ranked_listing` of a search's ``results`` (its hits, as JSON): its mode,
    notice and floor's verdict; ``searched`` names what was searched, said when nothing
    cleared the floor (``memory``, ``the archive``, ``the skills``)."""
    return ranked_listing(
        search.retrieval,
        results,
        search.notice,
        match=search.strength.to_dict() if search.strength else None,
        weak_in=searched if search.no_good_match else None,
    )


def tool_response(name: str, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run one call of tool ``name`` and return what the model reads; never raises.

    The call's own response; for a :class:`~mnemic.errors.MnemicError`, its
    :meth:`~mnemic.errors.MnemicError.to_response` (a refusal saying what to do next);
    for anything else (a bug, a broken store) the ``internal_error`` response, the
    traceback going to the log only, so the user's turn goes on.
    """
    try:
        return call()
    except MnemicError as exc:
        return exc.to_response()
    except Exception as exc:
        log.exception("tool %s failed unexpectedly", name)
        return {
            "success": False,
            "error": f"The {name} tool failed unexpectedly ({type(exc).__name__}). "
            "Nothing more is known; continue without it. The error was logged.",
            "error_code": "internal_error",
        }


@dataclass(frozen=True)
class Held:
    """Why the threat scanner held a write for a person, as :func:`staged_response` gives
    it: ``raw`` its own reasons (``held_by_scanner``, rule ids, scores and all), ``why``
    the same as a clause a person reads after "held it for a person to check:" (``it
    asks for credentials (the words "password")``), ``because`` the sentence the CLI's
    ``--json`` gives as ``held_because``, ``rules`` the rule ids (``held_rules``). The
    wording is governance's (``governance/held.py``: ``held_for_model``), passed down so
    that this layer imports nothing above it."""

    raw: str
    why: str
    because: str
    rules: tuple[str, ...]


def staged_response(
    pending_id: str,
    about: Mapping[str, Any],
    *,
    change: str,
    unchanged: str,
    approve_hint: bool = False,
    held: Held | None = None,
    again: bool = False,
) -> dict[str, Any]:
    """The answer to a write the approval gate staged instead of applying: done (not to
    be repeated) yet not saved, with its pending id and ``about`` (the tool's own fields
    naming what it would change). ``change`` names the write in the message (``this
    change``), ``unchanged`` what stays as it is until a person approves (``Memory``);
    ``approve_hint`` adds the command that approves it. ``held`` is why the threat
    scanner held the write for approval (None: the policy staged it): the message says
    why in words and how a person decides (the console's Pending page, the commands),
    ``held_by_scanner``, ``held_because`` and ``held_rules`` carry it for a program.
    ``again``: the same write already waited as ``pending_id`` (proposed before, maybe
    in another session): the message says so and ``already_pending`` is true."""
    decide = (
        f"A person approves it on the web console's Pending page (`mnemic ui`) or with"
        f" `mnemic pending approve {pending_id}`, or rejects it with"
        f" `mnemic pending reject {pending_id}`."
    )
    note = "The change is queued; do not repeat this call. Carry on with the task."
    if held is not None:
        note += (
            " Tell the user it waits for their approval, what it says, why it was held"
            " and how they approve or reject it (the message says), so that they can decide."
        )
    elif approve_hint:
        note += (
            f" A person approves it with `mnemic pending approve {pending_id}` or rejects"
            f" it with `mnemic pending reject {pending_id}`."
        )
    message = (
        f"NOT saved yet: {change} waits for a person's approval (pending id "
        f"{pending_id}). {unchanged} is unchanged until it is approved."
    )
    if again:
        message = (
            f"NOT saved yet: {change} was already proposed and still waits for a person's"
            f" approval (pending id {pending_id}); no second copy was queued."
            f" {unchanged} is unchanged until it is approved."
        )
    if held is not None:
        message += f" The threat scanner held it for a person to check: {held.why}. {decide}"
    return {
        "success": True,
        "done": True,
        "staged": True,
        "saved": False,
        "pending_id": pending_id,
        **({"already_pending": True} if again else {}),
        **about,
        "message": message,
        "note": note,
        **(
            {
                "held_by_scanner": held.raw,
                "held_because": held.because,
                "held_rules": list(held.rules),
            }
            if held is not None
            else {}
        ),
    }
