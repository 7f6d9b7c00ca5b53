"""The ``session_search`` tool: its schema for models and one function running a call.

:data:`SESSION_SEARCH_TOOL` renders in the OpenAI and Anthropic tool formats
(``.openai()``, ``.anthropic()``). :func:`run_session_search` validates the arguments,
picks the shape (scroll, read, tool calls, discovery or browse, in that order of
precedence), runs it
and bounds the response; every failure comes back as ``{"success": false, "error": ...}``
with a message the model can act on, never as an exception.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import logging
import math
import re
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...errors import InvalidArgument, MnemicError
from ...tooling import ToolSpec, json_kind, json_shown, parse_arguments
from ..sql import SessionStore
from ..store import ROLES
from .retrieval import MODES, QueryEmbedder, check_mode
from .shapes import (
    DEFAULT_LIMIT,
    DISCOVERY_WINDOW,
    MAX_LIMIT,
    MAX_WINDOW,
    SCROLL_WINDOW,
    SearchContext,
    bound,
    browse,
    discover,
    read_session,
    scroll,
)
from .summarize import Summarizer
from .toolcalls import tool_call_search

if TYPE_CHECKING:
    from ...config import SessionSettings

__all__ = ["SESSION_SEARCH_TOOL", "parse_time", "run_session_search"]

log = logging.getLogger(__name__)

_DESCRIPTION = """\
Search your earlier conversations with this user, or read one of them. Every past session \
is stored in full; this finds the relevant parts on demand.

When to use: the user refers to something from before ("like last time", "what did I say \
about X"); you need a detail from an earlier session (a command, path, decision, name, \
number) that is not in your context or memory; before asking the user to repeat \
something. It covers earlier sessions only (not this one, not files or the web); never \
conclude that something did not happen only because this finds nothing.

Shapes, chosen by the arguments:
- DISCOVERY {"query": "postgres migration timeout"}: the best past conversations, each \
with the matching message (match: true; the snippet marks >>>hits<<<), its neighbours and \
the session's first/last messages.
- READ {"session_id": "..."}: that session (first and last messages if it is long).
- SCROLL {"session_id": "...", "around_message_id": 123}: the messages around one \
message; page with earlier_page / later_page.
- BROWSE {}: the most recently active past sessions.
- TOOL CALLS {"tool": "pytest", "failed": true}: past tool calls with arguments, status, \
exit code and error text ("when did pytest last fail").

Query syntax: all words must match (else sessions with some of them, and the response \
says so); "exact phrase"; a OR b; NOT word or -word; prefix*. Paths, URLs, versions and \
identifiers match whole; Chinese, Japanese and Korean need no spaces; case and accents do \
not matter. Prefer the distinctive words the old conversation would contain over a full \
question. The default mode also matches by meaning (another wording or language); each \
message says what matched it. no_good_match: true means nothing was close: treat the one \
weak result shown as unrelated.

Time: when a fact changed, the latest statement ranks first; to ask what held earlier, \
say so ("the original deadline", "before the upgrade") or pass as_of. Questions about the \
order of events ("what did I do after ...") come back oldest first with what came right \
after (or before) the best match. Times are local with their UTC offset ("2026-09-14 \
19:50 +05:30"). Responses are capped at about 12,000 characters; read \
or scroll for more.\
"""

_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "description": "Words to find (see the syntax above). Omit to browse.",
        },
        "session_id": {
            "type": "string",
            "description": "A session to read (or to scroll with around_message_id).",
        },
        "around_message_id": {
            "type": "integer",
            "description": "Scroll: show the messages around this message id.",
        },
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_LIMIT,
            "description": f"Sessions to return (default {DEFAULT_LIMIT}, max {MAX_LIMIT}).",
        },
        "window": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_WINDOW,
            "description": f"Messages shown on each side of a match (default "
            f"{DISCOVERY_WINDOW}; {SCROLL_WINDOW} when scrolling).",
        },
        "role": {
            "type": "array",
            "items": {"type": "string", "enum": list(ROLES)},
            "description": "Only messages with these roles (default user, assistant; "
            "add tool to search tool output).",
        },
        "source": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Only sessions from these sources (e.g. cli, telegram, cron).",
        },
        "since": {
            "type": "string",
            "description": "Only messages from then on: a date, date-time, or 7d / 24h / 2w.",
        },
        "until": {"type": "string", "description": "Only messages before then."},
        "as_of": {
            "type": "string",
            "description": "What held at that time: a date (2026-05-01) or date-time; "
            "later messages are left out and the latest statement before it ranks first.",
        },
        "sort": {
            "type": "string",
            "enum": ["relevance", "newest", "oldest"],
            "description": "Result order (default relevance).",
        },
        "summarize": {
            "type": "boolean",
            "description": "Add a query-focused summary of each result (slower).",
        },
        "tool": {
            "type": "string",
            "description": "Find tool calls instead of conversations: a tool name (Bash) "
            "or a command word of its arguments (pytest).",
        },
        "failed": {
            "type": "boolean",
            "description": "Only tool calls that failed (an error, a non-zero exit code).",
        },
        "mode": {
            "type": "string",
            "enum": list(MODES),
            "description": "Retrieval: hybrid (words and meaning; the default when "
            "installed), lexical (words only) or semantic (meaning only).",
        },
    },
    "required": [],
    "additionalProperties": False,
}

SESSION_SEARCH_TOOL = ToolSpec("session_search", _DESCRIPTION, _PARAMETERS)
"""The tool as models see it."""

_KNOWN = tuple(_PARAMETERS["properties"])
_RELATIVE = re.compile(
    r"^(\d+(?:\.\d+)?)\s*(m|min|mins|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?)"
    r"(?:\s+ago)?$"
)
_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_time(value: Any, *, field: str, end: bool = False, now: float | None = None) -> float:
    """A time argument as Unix seconds.

    Accepts ISO dates and date-times (local time unless an offset is given), Unix
    seconds, ``today``/``yesterday`` and relative ``7d`` / ``24h`` / ``30m`` / ``2w`` (ago).
    With ``end=True`` a bare date means the end of that day.
    """
    try:
        seconds = _parse_time(value, field=field, end=end, now=now)
    except (OverflowError, ValueError, OSError):  # a calendar edge: 9999-12-31 to its end
        seconds = math.inf
    if not _FIRST_DAY <= seconds <= _LAST_DAY:  # nan too
        raise InvalidArgument(
            field,
            f"{field}={json_shown(value)} is outside the calendar (the years 1 to 9999), so "
            "no message can have that time. Pass a date such as 2026-05-01, or a time ago "
            "such as 7d.",
        )
    return seconds


_FIRST_DAY = _dt.datetime(1, 1, 2, tzinfo=_dt.UTC).timestamp()
_LAST_DAY = _dt.datetime(9999, 12, 30, tzinfo=_dt.UTC).timestamp()
"""The times a time argument may name: a day inside the calendar in every zone, so the
search can still show it (``time.localtime`` and ``datetime`` refuse the rest)."""


def _parse_time(value: Any, *, field: str, end: bool, now: float | None) -> float:
    now = time.time() if now is None else now
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _seconds(float(value), field, value)
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(field, f"{field} must be a date string such as 2026-05-01 or 7d.")
    text = value.strip().lower()
    m = _RELATIVE.match(text)
    if m:
        return now - float(m.group(1)) * _UNITS[m.group(2)[0]]
    today = _dt.datetime.fromtimestamp(now).replace(hour=0, minute=0, second=0, microsecond=0)
    day = {"today": today, "yesterday": today - _dt.timedelta(days=1)}.get(text)
    if day is not None:
        return (day + _dt.timedelta(days=1 if end else 0)).timestamp()
    try:
        parsed = _dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            raise InvalidArgument(
                field,
                f"Cannot read {field}={value!r} as a time. Use 2026-05-01, "
                "2026-05-01T14:00, or a relative 7d / 24h / 2w.",
            ) from None
        return _seconds(number, field, value)
    date_only = len(value.strip()) <= 10
    if end and date_only:
        parsed += _dt.timedelta(days=1)
    return parsed.timestamp()


MIN_UNIX_SECONDS = 1_000_000_000.0
"""A number passed as a time is read as Unix seconds only from this one on (2001-09-09):
a smaller one (``"since": 5``) is what a model writes meaning "5 days", and would
silently mean 1970."""


def _seconds(number: float, field: str, value: Any) -> float:
    if number >= MIN_UNIX_SECONDS or not math.isfinite(number):  # parse_time bounds both
        return number
    days = f"{abs(number):g}"
    raise InvalidArgument(
        field,
        f"{field}={json_shown(value)} is not a time: a bare number is read as Unix seconds, "
        f'and this one is in 1970. For {days} days ago pass "{days}d" (or 24h / 2w); for a '
        "day pass 2026-05-01 or 2026-05-01T14:00.",
    )


def check_range(
    since: float | None,
    until: float | None,
    as_of: float | None = None,
    *,
    now: float | None = None,
) -> None:
    """Refuse a ``since`` after now or not before ``until`` / ``as_of``: no message could
    match."""
    now = time.time() if now is None else now
    if since is not None and since > now + 60:
        raise InvalidArgument(
            "since",
            "since is in the future, so no message can match. Pass a past time: 7d, "
            "yesterday, or a date such as 2026-05-01.",
        )
    if since is not None and until is not None and since >= until:
        raise InvalidArgument(
            "since",
            "since is not before until, so no message can match: since is the start of "
            "the span, until its end (swap them?).",
        )
    if since is not None and as_of is not None and since >= as_of:
        raise InvalidArgument(
            "since",
            "since is not before as_of, so no message can match: as_of leaves out what "
            "came after it. Pass a since before as_of, or leave since out.",
        )


def _int(
    args: Mapping[str, Any],
    name: str,
    default: int,
    lo: int,
    hi: int,
    adjusted: list[str] | None = None,
) -> int:
    """An integer argument: below ``lo`` is refused (it says what to pass); above ``hi``
    is clamped, and the clamp is said in ``adjusted`` (the answer's ``adjusted``)."""
    value = args.get(name)
    if value is None:
        return default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidArgument(name, f"{name} must be an integer, got {json_shown(value)}.")
    if value < lo:
        raise InvalidArgument(
            name, f"{name} must be at least {lo}, got {value}; leave it out for {default}."
        )
    if value > hi:
        if adjusted is not None:
            adjusted.append(f"{name} {value} is above the most, {hi}: used {hi}.")
        return hi
    return value


def _names(args: Mapping[str, Any], name: str) -> list[str] | None:
    value = args.get(name)
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, str):
        value = [v for v in re.split(r"[,\s]+", value) if v]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidArgument(name, f"{name} must be a list of strings, got {json_shown(value)}.")
    return [v.strip() for v in value if v.strip()]


def _bool(args: Mapping[str, Any], name: str, default: bool) -> bool:
    value = args.get(name)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
        return value.strip().lower() in ("true", "1")
    raise InvalidArgument(name, f"{name} must be true or false, got {json_shown(value)}.")


def _context(
    store: SessionStore,
    settings: SessionSettings | None,
    current_session_id: str | None,
    summarizer: Summarizer | None,
    summary_unavailable: str | None,
    summarizer_loader: Callable[[], tuple[Summarizer | None, str | None]] | None,
    embedder_loader: Callable[[], QueryEmbedder] | None,
) -> SearchContext:
    ctx = SearchContext(
        store,
        current_session_id=current_session_id,
        summarizer=summarizer,
        summarizer_loader=summarizer_loader,
        embedder_loader=embedder_loader,
    )
    if settings is not None:
        ctx.max_output_chars = settings.max_output_chars
        ctx.hidden_sources = tuple(settings.hidden_sources)
        ctx.demoted_sources = tuple(settings.demoted_sources)
        ctx.summary_timeout = settings.summary_timeout
        ctx.summary_concurrency = settings.summary_concurrency
        ctx.summary_default = settings.summary
    if summary_unavailable:
        ctx.summary_unavailable = summary_unavailable
    return ctx


def run_session_search(
    store: SessionStore,
    arguments: str | Mapping[str, Any] | None,
    *,
    settings: SessionSettings | None = None,
    current_session_id: str | None = None,
    summarizer: Summarizer | None = None,
    summary_unavailable: str | None = None,
    summarizer_loader: Callable[[], tuple[Summarizer | None, str | None]] | None = None,
    embedder_loader: Callable[[], QueryEmbedder] | None = None,
) -> dict[str, Any]:
    """Run one ``session_search`` call and return its JSON-able response, a refusal's
    included; an unexpected failure is raised (the tool registry's dispatch turns it into
    the ``internal_error`` response, :func:`~mnemic.tooling.tool_response`).

    ``current_session_id`` is the caller's live session (excluded with its lineage);
    ``summarizer`` serves ``summarize: true`` (without one, extracts are returned and
    ``summary_unavailable`` says why), or ``summarizer_loader`` makes it (or says why
    not) when a summary is first asked for; ``settings`` supplies the output bound, hidden and
    demoted sources and the summary limits; ``embedder_loader`` loads the query embedder
    of semantic and hybrid search (None: lexical only, see :mod:`.semantic`).
    """
    ctx = _context(
        store,
        settings,
        current_session_id,
        summarizer,
        summary_unavailable,
        summarizer_loader,
        embedder_loader,
    )
    try:
        args = parse_arguments(dict(arguments) if isinstance(arguments, Mapping) else arguments)
        unknown = [k for k in args if k not in _KNOWN]
        if unknown:
            close = difflib.get_close_matches(unknown[0], _KNOWN, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise InvalidArgument(
                unknown[0],
                f"Unknown argument {unknown[0]!r}.{hint} Known: {', '.join(_KNOWN)}.",
            )
        resp = _dispatch(ctx, args)
    except MnemicError as exc:
        resp = exc.to_response()
    return bound(resp, ctx.max_output_chars)


_USED: dict[str, tuple[str, frozenset[str]]] = {
    "scroll": (
        "scrolling a session (around_message_id)",
        frozenset({"session_id", "around_message_id", "window"}),
    ),
    "read": (
        "reading a session (session_id; leave it out to search)",
        frozenset({"session_id"}),
    ),
    "tool_calls": (
        "finding tool calls (tool / failed)",
        frozenset({"query", "tool", "failed", "limit", "source", "since", "until"}),
    ),
    "browse": (
        "browsing (no query)",
        frozenset({"query", "limit", "source", "since", "until"}),
    ),
    "discover": (
        "searching conversations",
        frozenset(_KNOWN) - {"session_id", "around_message_id", "tool", "failed"},
    ),
}
"""What each shape of answer reads: anything else given is said in ``adjusted``."""


def _dispatch(ctx: SearchContext, args: Mapping[str, Any]) -> dict[str, Any]:
    adjusted: list[str] = []
    resp = _answer(ctx, args, adjusted)
    if resp.get("success", True) is False:
        return resp
    what, used = _USED[_shape(args)]
    unused = [k for k in _KNOWN if k not in used and _given(args, k)]
    if unused:
        verb = "is" if len(unused) == 1 else "are"
        adjusted.append(f"{', '.join(unused)} {verb} not used when {what}: ignored.")
    if adjusted:
        resp["adjusted"] = adjusted
    return resp


def _shape(args: Mapping[str, Any]) -> str:
    """Which answer ``args`` ask for (the order :func:`_answer` decides it in)."""
    if args.get("around_message_id") is not None:
        return "scroll"
    if _given(args, "session_id"):
        return "read"
    if _given(args, "tool") or args.get("failed") not in (None, False, "false", "0"):
        return "tool_calls"
    return "discover" if _given(args, "query") else "browse"


def _given(args: Mapping[str, Any], name: str) -> bool:
    """Whether an argument was given: ``null``, ``""``, ``[]`` and ``false`` are as
    left out."""
    value = args.get(name)
    if value is None or value is False or value == []:
        return False
    return not (isinstance(value, str) and not value.strip())


def _answer(ctx: SearchContext, args: Mapping[str, Any], adjusted: list[str]) -> dict[str, Any]:
    query = args.get("query")
    if query is not None and not isinstance(query, str):
        raise InvalidArgument("query", f"query must be a string, got {json_kind(query)}.")
    session_id = args.get("session_id")
    if session_id is not None and not isinstance(session_id, str):
        raise InvalidArgument("session_id", "session_id must be a string.")
    session_id = (session_id or "").strip() or None
    around = args.get("around_message_id")
    limit = _int(args, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT, adjusted)
    roles = _names(args, "role")
    if roles:
        bad = [r for r in roles if r not in ROLES]
        if bad:
            raise InvalidArgument(
                "role", f"Unknown role {bad[0]!r}; use some of: {', '.join(ROLES)}."
            )
    sources = _names(args, "source")
    since = parse_time(args["since"], field="since") if _given(args, "since") else None
    until = parse_time(args["until"], field="until", end=True) if _given(args, "until") else None
    as_of = parse_time(args["as_of"], field="as_of", end=True) if _given(args, "as_of") else None
    check_range(since, until, as_of)
    sort = args.get("sort") or "relevance"
    if sort not in ("relevance", "newest", "oldest"):
        raise InvalidArgument("sort", f"sort must be relevance, newest or oldest, not {sort!r}.")
    summarize = _bool(args, "summarize", ctx.summary_default)
    mode = check_mode(args.get("mode"))

    if around is not None:
        around_id = _int(args, "around_message_id", 0, -(2**62), 2**62)
        window = _int(args, "window", SCROLL_WINDOW, 0, MAX_WINDOW, adjusted)
        if session_id is None:
            msg = ctx.store.message(around_id)
            if msg is None:
                raise InvalidArgument(
                    "around_message_id",
                    f"No message {around_id}; pass the session_id and match_message_id of "
                    "a search result.",
                )
            session_id = msg.session_id
        return scroll(ctx, session_id, around_id, window)
    if session_id is not None:
        return read_session(ctx, session_id)
    tool = args.get("tool")
    if tool is not None and not isinstance(tool, str):
        raise InvalidArgument("tool", f"tool must be a string, got {json_kind(tool)}.")
    failed = _bool(args, "failed", False)
    if (tool or "").strip() or failed:
        return tool_call_search(
            ctx, query or "", tool=tool, failed=failed, limit=limit, sources=sources,
            since=since, until=until,
        )  # fmt: skip
    if query is not None and query.strip():
        window = _int(args, "window", DISCOVERY_WINDOW, 0, MAX_WINDOW, adjusted)
        return discover(
            ctx,
            query,
            limit=limit,
            window=window,
            roles=roles,
            sources=sources,
            since=since,
            until=until,
            sort=sort,
            summarize=summarize,
            mode=mode,
            as_of=as_of,
        )
    return browse(ctx, limit=limit, sources=sources, since=since, until=until)
