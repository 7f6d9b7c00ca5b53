"""Tool calls as records: which tool ran, with what arguments, and how it ended.

A session holds a tool call in two messages: the assistant's message lists the call
(``tool_calls``: its id, the tool's name, the arguments as JSON) and a ``tool`` message
holds what came back (``tool_call_id``, the output). Importers keep both (Claude Code's
``tool_use`` and ``tool_result`` blocks, OpenAI and JSONL ``tool_calls`` and tool
messages, the agent's own recording), so :func:`find_tool_calls` pairs them back by the
call id and reads each call's **outcome** (:func:`outcome`). A result its source flagged
(Claude Code's ``is_error``, kept as the tool message's ``is_error``) is ``error`` when
flagged true, whatever its text says, and ``ok`` when flagged false; an unflagged one is
read from its output:

* ``error`` with its ``exit_code`` when the output starts "Exit code N" (N not 0: how
  Claude Code's Bash tool reports a failing command), holds a JSON object with
  ``"success": false``, an ``error``, or a non-zero ``exit_code`` / ``returncode`` (mnemic's
  own tools, most agent frameworks), or starts with an error mark (``<tool_use_error>``,
  ``Error:``, a Python traceback, ``fatal:``);
* ``ok`` otherwise, and ``unknown`` for a call whose output is not in the store.

The output's first lines after the exit code are the ``error`` text (the exit code is
read from a flagged result's text too). A failure neither flagged nor marked in its text
reads as ``ok``.

``session_search`` with ``tool`` and / or ``failed`` answers with these records ("when did
pytest last fail on this repo": ``{"tool": "pytest", "failed": true}``; ``failed`` also
reads the newest results flagged failed, whatever their text). ``tool`` matches a
call's tool name or a word of its arguments (so ``pytest`` finds the shell tool running
``pytest -x``); query words rank the calls holding more of them (arguments, output, tool
name; compared by stems) first, and among equals the latest first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...errors import InvalidArgument
from ..index.query import parse_query
from ..index.stems import STOP_WORDS, text_keys, word_keys, words
from ..sql import SessionStore
from ..store import Message, SearchFilters
from .shapes import SearchContext, echoed, when

__all__ = [
    "CANDIDATES",
    "STATUSES",
    "ToolCall",
    "find_tool_calls",
    "outcome",
    "tool_call_search",
]

CANDIDATES = 500
"""Messages (calls and outputs, newest first) the search reads its tool calls from."""
GAP = 12
"""Messages after a call within which its output is looked for (parallel calls answer in
a row after the message that made them)."""
STATUSES = ("ok", "error", "unknown")
FAILURE_WORDS = "exit OR error OR traceback OR fatal OR exception OR tool_use_error"
"""What failed calls are looked for by when neither a tool nor a word is given (the words
the outputs :func:`outcome` reads as failures begin with)."""
FLAGGED = 200
"""Results their source flagged failed (newest first) a search for failed calls also
reads its calls from, whatever their text."""
ERROR_CHARS = 300
_EXIT = re.compile(r"\A\s*exit(?:ed with)?(?: code| status)[: ]\s*(-?\d+)\b", re.IGNORECASE)
_ERROR_MARKS = ("<tool_use_error>", "error:", "error ", "traceback (most recent call last)",
                "fatal:", "exception:")  # fmt: skip
_CODE_KEYS = ("exit_code", "exitCode", "returncode", "return_code", "status_code")


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call and its outcome."""

    session_id: str
    call_message_id: int
    """The assistant message that made the call."""
    result_message_id: int | None
    """The tool message that holds its output (None: not in the store)."""
    time: float
    tool: str
    arguments: str
    status: str
    """``ok``, ``error`` or ``unknown`` (no output stored)."""
    exit_code: int | None = None
    error: str | None = None
    """The first lines of the error text, for a failed call."""
    output: str = ""
    score: float = 0.0
    """The share of the query's words the call holds (0 without query words)."""

    def to_dict(self, arguments_chars: int = 300) -> dict[str, Any]:
        """JSON-able form (arguments clipped)."""
        out: dict[str, Any] = {
            "session_id": self.session_id,
            "time": self.time,
            "tool": self.tool,
            "arguments": _clip(self.arguments, arguments_chars),
            "status": self.status,
            "call_message_id": self.call_message_id,
            "result_message_id": self.result_message_id,
        }
        if self.exit_code is not None:
            out["exit_code"] = self.exit_code
        if self.error:
            out["error"] = self.error
        elif self.output:
            out["output"] = _clip(self.output, ERROR_CHARS)
        return out


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_lines(text: str) -> str:
    return _clip(" ".join(text.strip().split()), ERROR_CHARS)


def outcome(
    content: str | None, is_error: bool | None = None
) -> tuple[str, int | None, str | None]:
    """(status, exit code, error text) of a tool's output and its source's failure flag
    (None: not given; see the module docstring)."""
    status, code, error = _read_outcome(content)
    if is_error is None:
        return status, code, error
    if not is_error:
        return "ok", code if code == 0 else None, None
    bare = re.sub(r"</?tool_use_error>", "", (content or "").strip())
    return "error", code or None, error or _first_lines(bare) or None


def _read_outcome(content: str | None) -> tuple[str, int | None, str | None]:
    text = (content or "").strip()
    m = _EXIT.match(text)
    if m:
        code = int(m.group(1))
        rest = text[m.end() :]
        return ("error", code, _first_lines(rest) or None) if code else ("ok", 0, None)
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            # Codex CLI's shell output: {"output": ..., "metadata": {"exit_code": N}}
            meta = obj.get("metadata")
            where = [obj, meta] if isinstance(meta, dict) else [obj]
            found = [o[k] for o in where for k in _CODE_KEYS if type(o.get(k)) is int]
            status: int | None = found[0] if found else None
            error = obj.get("error") or (
                (obj.get("stderr") or obj.get("output")) if status else None
            )
            if obj.get("success") is False or error or status:
                return "error", status, _first_lines(str(error or text))
            return "ok", status, None
    if text.lower().startswith(_ERROR_MARKS):
        bare = re.sub(r"</?tool_use_error>", "", text)
        return "error", None, _first_lines(bare)
    return "ok", None, None


def _calls_of(m: Message) -> Iterable[tuple[str, str, str]]:
    """(call id, tool name, arguments as text) of an assistant message's tool calls."""
    for call in m.tool_calls or ():
        inner = call.get("function")
        fn: dict[str, Any] = inner if isinstance(inner, dict) else call
        name = str(fn.get("name") or "")
        args = fn.get("arguments", fn.get("input", ""))
        text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        yield str(call.get("id") or ""), name, text


def _matches_tool(tool: str, name: str, arguments: str) -> bool:
    want = tool.casefold()
    if name.casefold() == want:
        return True
    return re.search(rf"(?<![\w-]){re.escape(want)}(?![\w-])", arguments.casefold()) is not None


def find_tool_calls(
    store: SessionStore,
    text: str,
    filters: SearchFilters,
    *,
    tool: str | None = None,
    failed: bool = False,
    limit: int = 5,
) -> list[ToolCall]:
    """The tool calls of ``store`` matching ``tool`` (a tool name or a word of the
    arguments) and, with ``failed``, only failed ones, ranked by the share of ``text``'s
    words they hold, then latest first (see the module docstring). Raises
    :class:`~mnemic.errors.InvalidArgument` when neither ``tool`` nor a word is given and
    ``failed`` is not asked (alone it finds the latest failures of any tool).
    """
    tool = (tool or "").strip() or None
    asked = " ".join(p for p in (tool, text) if p)
    if not parse_query(asked).terms and failed:
        asked = FAILURE_WORDS  # every recent failure: the outputs that say they failed
    query = parse_query(asked).with_match("any")
    if query.empty:
        raise InvalidArgument(
            "tool", "Name a tool (or a command such as pytest), pass query words, or ask "
            "for failed calls to find tool calls by.",
        )  # fmt: skip
    found = store.search(
        query, replace(filters, roles=("assistant", "tool")), limit=CANDIDATES, sort="newest"
    )
    spans = [(h.session_id, max(0, h.seq - GAP), h.seq + GAP + 1) for h in found]
    if failed:  # the results their source flagged, whatever their text says
        flagged = store.flagged_failures(replace(filters, roles=("tool",)), limit=FLAGGED)
        spans += [(sid, max(0, seq - GAP), seq + 1) for sid, seq in flagged]
    by_id: dict[int, Message] = {}
    for window in store.windows(spans) if spans else []:
        for m in window:
            by_id[m.id] = m
    calls = _pair(sorted(by_id.values(), key=lambda m: (m.session_id, m.seq)))
    if tool is not None:
        calls = [c for c in calls if _matches_tool(tool, c.tool, c.arguments)]
    if failed:
        calls = [c for c in calls if c.status == "error"]
    wanted = _words_of(text)
    if wanted:
        calls = [replace(c, score=_share(wanted, c)) for c in calls]
    calls.sort(key=lambda c: (-c.score, -c.time, -c.call_message_id))
    return calls[:limit]


def _pair(messages: Sequence[Message]) -> list[ToolCall]:
    """The calls of ``messages`` (in session order) with their outputs, by call id."""
    results: dict[tuple[str, str], Message] = {
        (m.session_id, m.tool_call_id): m for m in messages if m.role == "tool" and m.tool_call_id
    }
    out = []
    for m in messages:
        if m.role != "assistant":
            continue
        for call_id, name, arguments in _calls_of(m):
            result = results.get((m.session_id, call_id)) if call_id else None
            if result is None:
                out.append(ToolCall(m.session_id, m.id, None, m.timestamp, name, arguments,
                                    "unknown"))  # fmt: skip
                continue
            status, code, error = outcome(result.content, result.is_error)
            out.append(
                ToolCall(
                    m.session_id,
                    m.id,
                    result.id,
                    result.timestamp or m.timestamp,
                    name or result.tool_name or "",
                    arguments,
                    status,
                    code,
                    error,
                    (result.content or "").strip(),
                )
            )
    return out


def _words_of(text: str) -> list[frozenset[str]]:
    return list(dict.fromkeys(word_keys(w) for w in words(text) if w.casefold() not in STOP_WORDS))


def _share(wanted: list[frozenset[str]], call: ToolCall) -> float:
    keys = text_keys(f"{call.tool} {call.arguments} {call.output}", limit=20_000)
    return sum(1 for w in wanted if w & keys) / len(wanted)


def tool_call_search(
    ctx: SearchContext,
    text: str,
    *,
    tool: str | None,
    failed: bool,
    limit: int,
    sources: Sequence[str] | None = None,
    since: float | None = None,
    until: float | None = None,
) -> dict[str, Any]:
    """The ``tool_calls`` shape of ``session_search``: the matching calls, best first,
    each with its session, time, tool, arguments, status, exit code and error text. The
    current session and its lineage are left out, hidden sources unless asked for."""
    filters = SearchFilters(
        sources=tuple(sources) if sources else None,
        exclude_sources=tuple(s for s in ctx.hidden_sources if not sources or s not in sources),
        exclude_sessions=tuple(sorted(ctx.lineage)),
        since=since,
        until=until,
    )
    calls = find_tool_calls(ctx.store, text, filters, tool=tool, failed=failed, limit=limit)
    out: dict[str, Any] = {"success": True, "mode": "tool_calls", "query": echoed(text)}
    if tool:
        out["tool"] = tool
    if failed:
        out["failed"] = True
    results = []
    for c in calls:
        row = c.to_dict()
        row["when"] = when(c.time)
        results.append(row)
    out["results"] = results
    out["count"] = len(results)
    if not results:
        out["message"] = (
            f"No {'failed ' if failed else ''}call{' of ' + repr(tool) if tool else ''} "
            "found in past sessions. Try the tool's name as the agent called it (Bash, "
            "shell, run_command), a command word (pytest), or fewer words."
        )
    else:
        out["message"] = (
            "Tool calls, best match first (then latest first). Read one with session_id "
            "and around_message_id (the result_message_id)."
        )
    return out
