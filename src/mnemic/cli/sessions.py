"""``mnemic sessions``: list, read, search, import, export and prune the session history."""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.cells import cell_len
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn
from rich.table import Table
from rich.text import Text

from ..curated.scope import ProjectHome
from ..errors import InvalidArgument
from ..ops.entry_usage import count_usage
from ..sessions import (
    ImportProgress,
    SessionInfo,
    SessionStore,
    export_session,
    import_path,
    open_store,
    parse_time,
    search_messages_for,
    search_tool_for,
)
from ..sessions.attachments import AttachmentStore
from ..sessions.search.catchup import CatchUp, catch_up
from ..timefmt import local_time, read_shown, utc_minute, utc_seconds
from ..tooling import tool_response
from .app import (
    SEARCH_MODE_OPT,
    AppContext,
    confirm,
    counted,
    emit_json,
    eta_text,
    fail,
    fail_response,
    handle_errors,
    json_text,
    pass_app,
    printable,
    project_opt,
)
from .commands import LazyGroup, subcommands
from .sessions_attachments import size_text

__all__ = ["import_bar", "progress_text", "sessions"]

_ROLE_STYLE = {"user": "bold cyan", "assistant": "green", "tool": "magenta", "system": "dim"}


def _store(app: AppContext, *, write: bool = False) -> SessionStore:
    """The session history: a command that writes creates the home if needed, any other
    needs an existing one (nothing is created for a mistyped MNEMIC_HOME)."""
    return open_store(app.home if write else app.existing_home)


def _when(ts: float | None) -> str:
    return "" if ts is None else local_time(ts)


def _field(value: object) -> str:
    """One stored field as one printable line: session ids, sources, titles, models, end
    reasons and names come from transcripts and other programs' files, so each control
    character is shown as U+FFFD (an escape sequence would reach the terminal)."""
    return printable("" if value is None else str(value), lines=False)


def _cell(value: object) -> Any:
    """A table cell of stored text: plain text, never read as rich markup (``[link=...]``
    in a title would become a terminal hyperlink)."""
    return Text(_field(value))


def _console(err: bool = False) -> Any:
    return Console(stderr=err, highlight=False, soft_wrap=False)


def _marked(text: str) -> Any:
    """Rich text with ``>>>match<<<`` markers shown highlighted."""
    out = Text()
    rest = text
    while ">>>" in rest:
        before, _, after = rest.partition(">>>")
        hit, sep, rest = after.partition("<<<")
        out.append(before)
        out.append(hit, style="bold black on yellow")
        if not sep:
            rest = ""
    out.append(rest)
    return out


@click.group(name="sessions", cls=LazyGroup, lazy=subcommands("sessions"))
def sessions() -> None:
    """The session history: every past conversation, searchable.

    \b
    Examples:
      mnemic sessions list
      mnemic sessions search "postgres migration" --since 30d
      mnemic sessions show 20260517-232811-3f9a1c
      mnemic sessions import --format claude ~/.claude/projects
      mnemic sessions prune --older-than 365
    """


@sessions.command(name="list")
@click.option(
    "--limit",
    "-n",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Sessions to show.",
)
@click.option(
    "--page",
    "-p",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Which --limit sessions: page 2 is the next older ones.",
)
@click.option("--source", multiple=True, help="Only these sources (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
@handle_errors
def list_cmd(
    app: AppContext, limit: int, page: int, source: tuple[str, ...], as_json: bool
) -> None:
    """The most recently active sessions, with how many there are (--page 2: the next
    older ones)."""
    sources = list(source) or None
    first = (page - 1) * limit
    with _store(app) as store:
        infos = store.list_sessions(limit=limit, offset=first, sources=sources)
        total = None if as_json else store.count_sessions(sources=sources)
        others = "" if as_json else other_sources(store, source)
    if as_json:
        emit_json([_utc(i.to_dict()) for i in infos])
        return
    if not infos:
        if total:
            click.echo(f"No sessions on page {page}: there are {counted(total, 'session')}.")
        else:
            click.echo("No sessions from these sources." if sources else "No sessions yet.")
    else:
        _list_table(infos)
        assert total is not None
        _list_footer(first, len(infos), total, limit, page, source)
    if others:
        click.echo(others)


def _list_footer(
    first: int, shown: int, total: int, limit: int, page: int, source: tuple[str, ...]
) -> None:
    """Which sessions the table held of how many, and the command for the next ones."""
    if shown == total:
        said = f"{counted(total, 'session')}, the most recently active first."
    else:
        of = f"{first + 1:,}-{first + shown:,}" if shown > 1 else f"{first + 1:,}"
        said = f"Sessions {of} of {total:,}, the most recently active first."
    if first + shown < total:
        words = ["mnemic", "sessions", "list", "--page", str(page + 1)]
        if limit != 20:
            words += ["--limit", str(limit)]
        for s in source:
            words += ["--source", s]
        said += f" Older: {shlex.join(words)}"
    click.echo(said)


_TIMES = ("started_at", "ended_at", "last_active", "timestamp", "oldest", "newest")
"""The fields of session answers that are seconds since the epoch."""


def _utc(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with each of its times (:data:`_TIMES`) also as ``NAME_utc``, ISO 8601 in
    UTC, as --json gives times (docs/json.md); a time that is not set stays ``None``."""
    out = dict(d)
    for k in _TIMES:
        if k in d:
            v = d[k]
            out[f"{k}_utc"] = utc_seconds(v) if isinstance(v, (int, float)) else None
    return out


def _list_table(infos: list[SessionInfo]) -> None:
    rows = [
        {
            "session": _field(i.id),
            "source": _field(i.source),
            "started": _when(i.started_at),
            "last active": _when(i.last_active),
            "msgs": str(i.message_count),
            "title": _field(i.title),
        }
        for i in infos
    ]
    # Every column but the title is printed whole (the id is what `show` and `export`
    # take): the title shrinks first, then `started` goes, and a terminal narrower
    # than the rest gets longer lines rather than cut ids.
    whole = {c: max(cell_len(c), *(cell_len(r[c]) for r in rows)) for c in rows[0]}
    console = _console()
    columns = list(rows[0])
    least = min(whole["title"], 16)  # the least of a title shown (more if there is room)
    if sum(whole[c] + 2 for c in columns if c != "title") + least + 2 > console.width:
        columns.remove("started")
    room = console.width - sum(whole[c] + 2 for c in columns if c != "title") - 2
    if room < least:
        console.width += least - room
        room = least
    table = Table(box=None, header_style="bold")
    for col in columns:
        table.add_column(col, no_wrap=True, justify="right" if col == "msgs" else "left")
    for r in rows:
        cells = {c: Text(r[c]) for c in columns}
        cells["title"].truncate(room, overflow="ellipsis")
        table.add_row(*cells.values())
    console.print(table)


@sessions.command(name="show")
@click.argument("session_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (session and messages).")
@click.option(
    "--max-chars",
    type=click.IntRange(min=0),
    default=2000,
    show_default=True,
    help="Cut long messages (0: no).",
)
@pass_app
@handle_errors
def show_cmd(app: AppContext, session_id: str, as_json: bool, max_chars: int) -> None:
    """Print one session, message by message."""
    with _store(app) as store:
        info = store.get_session(session_id)
        msgs = store.messages(session_id)
        held = store.attachments(m.id for m in msgs)
    if as_json:
        rows = [
            _utc({**m.to_dict(), "attachments": [a.to_dict() for a in held[m.id]]})
            if m.id in held
            else _utc(m.to_dict())
            for m in msgs
        ]
        emit_json({"session": _utc(info.to_dict()), "messages": rows})
        return
    console = _console()
    console.print(_header(info))
    for m in msgs:
        text = m.content or ""
        if max_chars and len(text) > max_chars:
            text = text[:max_chars] + f" ... [{len(m.content or '') - max_chars} more chars]"
        if m.tool_calls:
            calls = ", ".join(
                _field((c.get("function") or c).get("name", "?")) for c in m.tool_calls
            )
            text = (text + f"\n[calls {calls}]").strip()
        label = Text(f"#{m.id} {_field(m.role)}" + (f" ({_field(m.name)})" if m.name else ""))
        label.stylize(_ROLE_STYLE.get(m.role, ""))
        label.append(f"  {_when(m.timestamp)}", style="dim")
        console.print(label)
        console.print(Text(printable(text)), soft_wrap=True)  # imported text: no escapes
        for a in held.get(m.id, ()):
            line = f"  attached: {a.name}  {a.media_type}  {size_text(a.size)}  {a.sha256[:12]}"
            console.print(Text(_field(line), style="dim"))
        console.print()


def _header(info: SessionInfo) -> Any:
    head = Text(_field(info.id), style="bold")
    head.append(f"  {_field(info.source)}  started {_when(info.started_at)}", style="dim")
    if info.title:
        head.append(f"\n{_field(info.title)}")
    extra = [counted(info.message_count, "message")]
    if info.model:
        extra.append(f"model {_field(info.model)}")
    if info.end_reason:
        extra.append(f"ended ({_field(info.end_reason)}) {_when(info.ended_at)}")
    if info.parent_id:
        extra.append(f"continues {_field(info.parent_id)}")
    head.append("\n" + ", ".join(extra) + "\n", style="dim")
    return head


@sessions.command(name="search")
@click.argument("query", required=False, default="")
@click.option(
    "--limit",
    "-n",
    type=click.IntRange(min=1),
    help="Sessions to return (default 5, max 10); with --messages messages (default 20, max 200).",
)
@click.option(
    "--role", multiple=True, help="Only these roles (repeatable; default user, assistant)."
)
@click.option("--source", multiple=True, help="Only these sources (repeatable).")
@click.option("--since", help="From this time on: 2026-05-01, 2026-05-01T14:00, 7d, 24h.")
@click.option("--until", help="Before this time.")
@click.option("--as-of", "as_of", help="What held then: later messages left out, the latest first.")
@click.option(
    "--sort", type=click.Choice(["relevance", "newest", "oldest"]), help="Default relevance."
)
@click.option("--window", type=click.IntRange(min=0), help="Messages shown around each match.")
@click.option("--summarize", is_flag=True, help="Summarise each result with the [llm] endpoint.")
@SEARCH_MODE_OPT
@click.option("--tool", help="Find tool calls: a tool name (Bash) or a command word (pytest).")
@click.option("--failed", is_flag=True, help="Only tool calls that failed (error, exit code).")
@click.option(
    "--messages",
    "messages",
    is_flag=True,
    help="Rank messages, not sessions: ids, time, role, score and why each ranks there.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the session_search response (or the ranking)."
)
@pass_app
@handle_errors
def search_cmd(
    app: AppContext,
    query: str,
    limit: int | None,
    role: tuple[str, ...],
    source: tuple[str, ...],
    since: str | None,
    until: str | None,
    as_of: str | None,
    sort: str | None,
    window: int | None,
    summarize: bool,
    mode: str | None,
    tool: str | None,
    failed: bool,
    messages: bool,
    as_json: bool,
) -> None:
    """Search past sessions: the best matches first, each with what matched and why.

    QUERY: words (all must match), "a phrase", a OR b, -excluded, prefix*. E-mail
    addresses, URLs, paths and versions match whole; CJK text works without spaces.
    With --messages: the best messages themselves, any of the words, best first.
    With --tool and/or --failed: tool calls, e.g. `--tool pytest --failed` (when did
    pytest last fail), QUERY's words ranking them.
    """
    if not query.strip() and not tool and not failed:
        raise click.UsageError("Give a QUERY, or --tool / --failed to find tool calls.")
    for name, value in (("--since", since), ("--until", until), ("--as-of", as_of)):
        if value:
            try:
                parse_time(value, field=name)
            except InvalidArgument as exc:
                why = (  # a time parse_time read, but past what a search can show
                    "it is outside the calendar (the years 1 to 9999)"
                    if "outside the calendar" in str(exc)
                    else f"cannot read {value!r} as a time"
                )
                raise click.BadParameter(
                    f"{why}: give a date (2026-05-01), a date and time (2026-05-01T14:00), "
                    "today, yesterday, or a time ago (7d, 24h, 2w).",
                    param_hint=name,
                ) from None
    if (tool or failed) and messages:
        raise click.UsageError("--tool and --failed find tool calls; leave out --messages.")
    _check_limit(limit, messages=messages, calls=bool(tool or failed))
    if tool or failed:
        unused = (
            ("--sort", sort is not None),
            ("--role", bool(role)),
            ("--as-of", bool(as_of)),
            ("--window", window is not None),
            ("--summarize", summarize),
            ("--mode", bool(mode)),
        )
        extra = [name for name, given in unused if given]
        if extra:
            raise click.UsageError(
                f"{', '.join(extra)} {'does' if len(extra) == 1 else 'do'} not apply to tool "
                f"calls (--tool / --failed): leave {'it' if len(extra) == 1 else 'them'} out. "
                "Tool calls take QUERY, --limit, --source, --since and --until."
            )
    if messages:
        shaping = (
            ("--sort", sort is not None),
            ("--window", window is not None),
            ("--summarize", summarize),
        )
        extra = [name for name, given in shaping if given]
        if extra:
            one = len(extra) == 1
            raise click.UsageError(
                f"{', '.join(extra)} {'shapes' if one else 'shape'} session results only; "
                f"leave {'it' if one else 'them'} out with --messages (messages come best "
                "first, each with its score)."
            )
        _search_messages(app, query, limit, role, source, since, until, as_of, mode, as_json)
        return
    args: dict[str, Any] = {"query": query, "limit": 5 if limit is None else limit}
    if sort:
        args["sort"] = sort
    if role:
        args["role"] = list(role)
    if source:
        args["source"] = list(source)
    if since:
        args["since"] = since
    if until:
        args["until"] = until
    if as_of:
        args["as_of"] = as_of
    if window is not None:
        args["window"] = window
    if summarize:
        args["summarize"] = True
    if mode:
        args["mode"] = mode
    if tool:
        args["tool"] = tool
    if failed:
        args["failed"] = True
    with _store(app) as store:
        home = app.existing_home
        resp = tool_response("session_search", lambda: search_tool_for(home, store, args))
        others = "" if as_json else other_sources(store, source)
    if as_json:
        if not resp.get("success"):
            fail_response(resp)
        emit_json(_with_utc(resp))
        return
    if not resp.get("success"):
        raise click.ClickException(str(resp.get("error")))
    if others:  # said first: a table of results may fill the screen
        click.echo(others)
    if resp.get("mode") == "tool_calls":
        _render_tool_calls(resp)
    else:
        _render_search(resp)


def _with_utc(resp: dict[str, Any]) -> dict[str, Any]:
    """session_search's answer for ``--json``: its times are local, to the minute, with
    their offset (written for a model); docs/json.md gives
    each time in UTC, so ``when``, ``last_active`` and each shown message's ``time`` get
    their ``*_utc`` string beside them (the answer is otherwise the tool's own)."""

    def add(obj: dict[str, Any], key: str) -> None:
        value = obj.get(key)
        if not isinstance(value, str):
            return
        ts = read_shown(value)
        if ts is not None:
            obj[f"{key}_utc"] = utc_minute(ts)

    for r in resp.get("results") or []:
        if isinstance(r, dict):
            add(r, "when")
            add(r, "last_active")
            for group in ("first_messages", "messages", "last_messages"):
                for m in r.get(group) or []:
                    if isinstance(m, dict):
                        add(m, "time")
    return resp


def other_sources(store: SessionStore, given: tuple[str, ...] | list[str]) -> str:
    """What ``--source S`` left out that a person likely meant: the sources named
    ``S:...`` (an import of Hermes's sessions is ``hermes:cli``, ``hermes:telegram``;
    the sessions its provider records are ``hermes``), as one line with the flags that
    add them; "" when there are none."""
    if not given:
        return ""
    more = {
        name: n
        for name, n in store.source_counts().items()
        if name not in given and any(name.startswith(g + ":") for g in given)
    }
    if not more:
        return ""
    names = ", ".join(f"{_field(k)} ({counted(n, 'session')})" for k, n in sorted(more.items()))
    flags = " ".join(shlex.join(["--source", k]) for k in sorted(more))
    return printable(f"Not included, from sources named like it: {names}. Add {flags} for them.")


def _check_limit(limit: int | None, *, messages: bool, calls: bool) -> None:
    """Refuse a --limit above what the search returns, as `memory search` refuses one
    above 100: the search itself would cap it without a word."""
    if limit is None:
        return
    from ..sessions.search.messages import MAX_LIMIT as MOST_MESSAGES
    from ..sessions.search.shapes import MAX_LIMIT as MOST_SESSIONS

    most, what = (
        (MOST_MESSAGES, "messages")
        if messages
        else (MOST_SESSIONS, "tool calls" if calls else "sessions")
    )
    if limit > most:
        other = "" if messages or calls else f" (up to {MOST_MESSAGES} with --messages)"
        raise click.BadParameter(
            f"{limit} is more than the {most} {what} a search returns{other}: give "
            f"--limit {most} or less, or narrow the search with --since, --until or --source.",
            param_hint="'--limit' / '-n'",
        )


def _render_tool_calls(resp: dict[str, Any]) -> None:
    console = _console()
    results = resp.get("results") or []
    if not results:
        console.print(Text(printable(str(resp.get("message", ""))), style="dim"))
        return
    table = Table(box=None, header_style="bold", show_lines=True)
    for col in ("when", "session", "call", "outcome"):
        table.add_column(col, no_wrap=col in ("when", "session"))
    for r in results:
        call = Text(_field(r.get("tool")), style="bold")
        call.append("\n" + printable(str(r.get("arguments", ""))))
        status = str(r.get("status", ""))
        ending = Text(status, style="red" if status == "error" else "green")
        if r.get("exit_code") is not None:
            ending.append(f" (exit {r['exit_code']})")
        detail = r.get("error") or r.get("output")
        if detail:
            ending.append("\n" + printable(str(detail)), style="dim")
        where = Text(_field(r.get("session_id")))
        shown = r.get("result_message_id") or r.get("call_message_id")
        where.append(f"\nmsg #{shown}", style="dim")
        table.add_row(_cell(str(r.get("when") or "")), where, call, ending)
    console.print(table)


def _search_messages(
    app: AppContext,
    query: str,
    limit: int | None,
    role: tuple[str, ...],
    source: tuple[str, ...],
    since: str | None,
    until: str | None,
    as_of: str | None,
    mode: str | None,
    as_json: bool,
) -> None:
    """``search --messages``: the message ranking (:func:`mnemic.sessions.search_messages`)."""
    options: dict[str, Any] = {"mode": mode, "sources": list(source) or None}
    if limit is not None:
        options["limit"] = limit
    if role:
        options["roles"] = list(role)
    times = (("since", since, False), ("until", until, True), ("as_of", as_of, True))
    for name, value, end in times:
        if value:
            options[name] = parse_time(value, field=name.replace("_", "-"), end=end)
    from ..sessions.search.tool import check_range  # the searching commands load it anyway

    check_range(options.get("since"), options.get("until"), options.get("as_of"))
    with _store(app) as store:
        ranking = search_messages_for(app.existing_home, store, query, **options)
        others = "" if as_json else other_sources(store, source)
    if as_json:
        ranked = ranking.to_dict()
        for r in ranked.get("results") or []:  # docs/json.md: seconds get their UTC string
            if isinstance(r.get("time"), (int, float)):
                r["time_utc"] = utc_seconds(r["time"])
        emit_json(ranked)
        return
    if others:  # said first: a table of results may fill the screen
        click.echo(others)
    console = _console()
    if ranking.notice:
        console.print(Text(printable(ranking.notice), style="yellow"))
    read = _time_read(ranking.time)
    if read is not None:
        console.print(read)
    if not ranking.results:
        console.print(Text("No matching messages.", style="dim"))
        return
    if ranking.message:
        console.print(Text(ranking.message, style="yellow"))
    table = Table(box=None, header_style="bold", show_lines=True)
    for col in ("#", "score", "when", "message", "text"):
        right = col in ("#", "score")
        table.add_column(col, no_wrap=col != "text", justify="right" if right else "left")
    for r in ranking.results:
        where = Text(_field(r.session_id))
        where.append(f"\nmsg #{r.message_id} {_field(r.role)}", style=_ROLE_STYLE.get(r.role, ""))
        body = Text(printable(r.snippet))
        if r.why:
            body.append("\n" + printable("; ".join(r.why)), style="dim")
        score = Text(f"{r.score:.3f}")
        if r.weak:
            score.append("\nweak", style="yellow")
        table.add_row(str(r.rank), score, _when(r.time), where, body)
    console.print(table)
    if not ranking.message and any(r.weak for r in ranking.results):
        console.print(Text(WEAK_NOTE, style="dim"))


WEAK_NOTE = (
    "weak: found by meaning alone, no word of the query, and farther from it than a good "
    "match: probably unrelated."
)
"""Said under results some of which are marked weak while others matched well (with no
good match at all, the answer's own message says it)."""


def _time_read(described: Any) -> Text | None:
    """How the search read time (the response's ``time``), dimmed; None: it said nothing."""
    from ..sessions.search.timeframe import time_read  # the searching commands load it

    said = time_read(described, passed="--as-of")
    return Text(printable(said), style="dim") if said else None


def _dated(result: dict[str, Any], resp: dict[str, Any]) -> str:
    """A result's date: its session's start, or in a time-order answer (sorted by the
    matching messages' times) its matching message's time."""
    if resp.get("order") == "time":
        shown = next((m for m in result.get("messages") or () if m.get("match")), None)
        if shown is not None and shown.get("time"):
            return str(shown["time"])
    return str(result.get("when") or "")


def _render_search(resp: dict[str, Any]) -> None:
    console = _console()
    results = resp.get("results") or []
    if not results:  # the tool's words name session_search; a person runs this command
        console.print(
            Text(
                "No matching past sessions. Try other or fewer words, a synonym, or an OR "
                "between alternatives (mnemic sessions search 'deploy OR release').",
                style="dim",
            )
        )
    elif resp.get("message"):
        console.print(Text(printable(str(resp["message"])), style="dim"))
    if resp.get("notice"):
        console.print(Text(printable(str(resp["notice"])), style="yellow"))
    read = _time_read(resp.get("time"))
    if read is not None:
        console.print(read)
    if not results:
        return
    table = Table(box=None, header_style="bold", show_lines=True)
    table.add_column("session", no_wrap=True)
    table.add_column("when", no_wrap=True)
    table.add_column("match")
    for r in results:
        head = Text(_field(r.get("session_id")))
        head.append(f"\n{_field(r.get('source', ''))}", style="dim")
        if r.get("match_message_id") is not None:
            head.append(f"\nmsg #{r['match_message_id']}", style="dim")
        if r.get("matched"):
            head.append(f"\n{'+'.join(r['matched'])}", style="dim")
        if r.get("score") is not None:
            head.append(f"\nscore {r['score']:.3f}", style="dim")
        if r.get("rank") is not None:  # listed in time order: its place by relevance
            head.append(f"\nrank {r['rank']}", style="dim")
        if r.get("weak"):
            head.append("\nweak", style="yellow")
        body = Text()
        if r.get("title"):
            body.append(_field(r["title"]) + "\n", style="bold")
        role = r.get("matched_role", "")
        body.append(f"{_field(role)}: ", style=_ROLE_STYLE.get(role, ""))
        body.append_text(_marked(printable(str(r.get("snippet", "")))))
        if r.get("why"):
            body.append("\n" + printable("; ".join(map(str, r["why"]))), style="dim")
        if r.get("summary"):
            style = "italic" if r.get("summary_kind") == "extractive" else ""
            body.append("\n" + printable(str(r["summary"])), style=style)
        table.add_row(head, _cell(_dated(r, resp)), body)
    console.print(table)
    if not resp.get("no_good_match") and any(r.get("weak") for r in results):
        console.print(Text(WEAK_NOTE, style="dim"))
    if resp.get("truncated"):
        console.print(Text(printable(str(resp.get("note", ""))), style="dim"))


def progress_text(p: ImportProgress) -> str:
    """``"12,000 messages  3,400/s  ETA 0:12"``: what the import bar shows beside it."""
    parts = [f"{p.messages:,} messages"]
    rate = p.rate
    parts.append(f"{rate:,.0f}/s" if rate is not None else "-/s")
    parts.append(eta_text(p.eta))
    return "  ".join(parts)


@contextmanager
def import_bar(enabled: bool) -> Iterator[Any]:
    """A rich progress bar on stderr (None when disabled): share of the input read,
    messages written, rate and time left."""
    if not enabled:
        yield None
        return
    with Progress(
        TextColumn("importing"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[line]}"),
        console=_console(err=True),
        transient=True,
    ) as bar:
        task = bar.add_task("import", total=None, line="")

        def update(p: ImportProgress) -> None:
            bar.update(task, completed=p.fraction * 1000, total=1000, line=progress_text(p))

        yield update


NO_EMBED_OPT = click.option(
    "--no-embed",
    "no_embed",
    is_flag=True,
    help="Do not embed a first share of the new messages for search by meaning.",
)
"""``--no-embed`` of every import that writes sessions (this one, `mnemic import`'s)."""


def embedding_of(caught: CatchUp) -> dict[str, Any]:
    """An import's bounded first embedding (:func:`catch_up`) as ``--json`` gives it."""
    return {"embedded": caught.embedded, "left": caught.left, "skipped": caught.skipped}


def caught_up_line(caught: CatchUp) -> str:
    """That embedding in a sentence for a person ("" when there is nothing to say)."""
    said = caught.summary().replace("the next import or ", "")
    return printable(said[:1].upper() + said[1:] + ".") if said else ""


@sessions.command(name="import")
@click.argument("path", type=click.Path(exists=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(
        ["auto", "jsonl", "openai", "claude", "locomo", "hermes", "chatgpt", "codex"]
    ),
    default="auto",
    show_default=True,
    help="Input format (auto detects).",
)
@click.option("--source", help="Record the sessions under this source.")
@click.option(
    "--replace", is_flag=True, help="Swap each session that exists for the imported copy."
)
@click.option(
    "--strict",
    is_flag=True,
    help="Check the whole input first; the first malformed line stops the import (exit 1) "
    "before anything is written.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@project_opt("Also count which entries of project DIR's memory mattered ($MNEMIC_PROJECT).")
@NO_EMBED_OPT
@pass_app
@handle_errors
def import_cmd(
    app: AppContext,
    path: str,
    fmt: str,
    source: str | None,
    replace: bool,
    strict: bool,
    as_json: bool,
    no_embed: bool,
) -> None:
    """Import conversations from PATH (a file, or a directory of Claude Code transcripts).

    \b
    Formats:
      jsonl   one message a line: {"session_id", "role", "content", "timestamp"?, "source"?}
      openai  chat "messages" arrays (JSON or JSONL)
      claude  Claude Code transcripts (~/.claude/projects/**/*.jsonl)
      locomo  the LoCoMo benchmark file
      hermes  Hermes Agent's session database (~/.hermes/state.db, read-only)
      chatgpt ChatGPT's data export (conversations.json): the branch the user saw
      codex   Codex CLI session files (~/.codex/sessions/**/rollout-*.jsonl)

    A session imported before gains only its new messages (run it again after a
    transcript grew). A malformed line is skipped and reported with its line number.
    """
    show_bar = not as_json and sys.stderr.isatty()
    with _store(app, write=True) as store, import_bar(show_bar) as update:
        report = import_path(store, path, format=fmt, source=source, replace=replace,
                             strict=strict, progress=update,
                             attachments=AttachmentStore.of_home(app.home))  # fmt: skip
        # which memory entries mattered in what was imported (best-effort, a cache),
        # in the global store and the selected project's, which keeps its own counts
        count_usage(app.home, store)
        if app.project is not None:
            project = app.memory_home()
            if isinstance(project, ProjectHome) and project.exists:
                count_usage(project, store)
        # a bounded first share of what has no vector yet (with mnemic[semantic] and
        # semantic search on); the rest is `sessions embed`'s
        caught = CatchUp() if no_embed else catch_up(store, settings=app.home.settings)
    if report.files == 0:  # a directory with nothing to read: likely the wrong one
        looked = "rollout-*.jsonl" if report.format == "codex" else "*.jsonl"
        fail(
            f"{printable(str(path))} holds no {looked} file (looked as {report.format}, in "
            "its subdirectories too). Nothing was imported. Give the directory that holds "
            "the transcripts (Claude Code: ~/.claude/projects), or a file with --format.",
            1,
        )
    data = report.to_dict()
    data["embedding"] = embedding_of(caught)
    if as_json:
        emit_json(data)
        return
    written = data["sessions"] + data["extended_sessions"]
    click.echo(
        f"Imported {counted(data['messages'], 'message')} in {counted(written, 'session')} "
        f"from {counted(data['files'], 'file')} ({data['format']})."
    )
    if data["extended_sessions"]:
        click.echo(
            f"{data['extended_sessions']:,} of those sessions "
            f"{'was' if data['extended_sessions'] == 1 else 'were'} imported before and "
            f"gained {counted(data['extended_messages'], 'new message')}."
        )
    if data["existing_sessions_unchanged"]:
        unchanged = data["existing_sessions_unchanged"]
        click.echo(
            f"{counted(unchanged, 'session')} {'was' if unchanged == 1 else 'were'} imported "
            f"before and {'has' if unchanged == 1 else 'have'} nothing new."
        )
    if data["replaced_sessions"]:
        click.echo(f"Replaced {counted(data['replaced_sessions'], 'existing session')}.")
    if data["forgotten_messages"] or data["forgotten_sessions"]:
        click.echo(
            f"Left out what was forgotten (mnemic forget): {data['forgotten_messages']:,} "
            f"messages, {data['forgotten_sessions']:,} whole sessions."
        )
    if data["skipped"]:  # reasons and places quote the input (a line's type, a file name)
        click.echo("Skipped:")
        for item in data["skipped"]:
            where = _field(item["first_at"])
            click.echo(f"  {item['count']:>7,}  {_field(item['reason'])}  (first at {where})")
        if any(item["reason"] == "no session_id" for item in data["skipped"]):
            click.echo(
                'Each jsonl line needs a "session_id" (any name: one value per conversation) '
                "to say which conversation it belongs to; add it and import again."
            )
    if said := caught_up_line(caught):
        click.echo(said)


@sessions.command(name="export")
@click.argument("session_id")
@click.option("--json", "as_json", is_flag=True, help="One JSON document instead of JSONL.")
@pass_app
@handle_errors
def export_cmd(app: AppContext, session_id: str, as_json: bool) -> None:
    """Write a session to stdout as JSONL (the format `sessions import` reads back).

    The files its messages hold go along as base64 (`attachments`), so importing the
    export into another home keeps them."""
    with _store(app) as store:
        files = AttachmentStore.of_home(app.home)
        records = list(export_session(store, session_id, attachments=files))
    if as_json:
        emit_json(records)
        return
    for rec in records:
        click.echo(json_text(rec))


@sessions.command(name="delete")
@click.argument("session_id")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
@handle_errors
def delete_cmd(app: AppContext, session_id: str, yes: bool, as_json: bool) -> None:
    """Delete one session and its messages."""
    with _store(app, write=True) as store:
        info = store.get_session(session_id)
        if not yes:
            shown = f"{_field(info.id)} ({counted(info.message_count, 'message')})"
            confirm(f"Delete {shown}?", "not deleted")
        removed = store.delete_session(session_id)
    if as_json:
        emit_json({"deleted": session_id, "messages": removed})
    else:
        click.echo(f"Deleted {_field(session_id)} ({counted(removed, 'message')}).")


def _days(_ctx: click.Context, _param: click.Parameter, value: str) -> float:
    """``--older-than``'s number of days; anything else is a usage error that says what
    to give, where click said only "'90d' is not a valid float"."""
    try:
        days = float(value)
    except ValueError:
        days = float("nan")
    if not days >= 0 or days == float("inf"):
        raise click.BadParameter(
            f"{value!r} is not a number of days: give one, e.g. --older-than 90 "
            "(sessions last active more than 90 days ago; 0.5 is twelve hours).",
            param_hint="--older-than",
        )
    return days


@sessions.command(name="prune")
@click.option(
    "--older-than",
    "days",
    metavar="DAYS",
    callback=_days,
    required=True,
    help="Delete sessions whose last activity is older than DAYS days.",
)
@click.option("--dry-run", is_flag=True, help="Only list what would be deleted.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
@handle_errors
def prune_cmd(app: AppContext, days: float, dry_run: bool, yes: bool, as_json: bool) -> None:
    """Delete sessions not active for DAYS days."""
    cutoff = time.time() - days * 86400.0
    with _store(app, write=not dry_run) as store:
        victims = store.prune(cutoff, dry_run=True)
        if victims and not dry_run and not yes:
            confirm(f"Delete {len(victims)} sessions older than {days:g} days?", "not deleted")
        done = victims if dry_run else store.prune(cutoff)
    if as_json:
        emit_json({"dry_run": dry_run, "older_than_days": days, "sessions": done})
        return
    verb = "Would delete" if dry_run else "Deleted"
    click.echo(f"{verb} {counted(len(done), 'session')} last active before {_when(cutoff)}.")


@sessions.command(name="stats")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
@handle_errors
def stats_cmd(app: AppContext, as_json: bool) -> None:
    """Counts and sizes of the session history."""
    with _store(app) as store:
        stats = store.stats().to_dict()
    if as_json:
        emit_json(_utc(stats))
        return
    table = Table(box=None, show_header=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row("database", _cell(stats["location"]))
    table.add_row("sessions", f"{stats['sessions']:,}")
    table.add_row("messages", f"{stats['messages']:,}")
    table.add_row("text", size_text(stats["text_bytes"]))
    ratio = stats["bytes_per_text_byte"]
    table.add_row(
        "on disk",
        size_text(stats["db_bytes"]) + (f" ({ratio:,.1f}x the text)" if ratio else ""),
    )
    table.add_row("oldest", _when(stats["oldest"]))
    table.add_row("newest", _when(stats["newest"]))
    by_source = ", ".join(f"{_field(k)} {v:,}" for k, v in stats["by_source"].items())
    table.add_row("by source", _cell(by_source))
    table.add_row("by role", ", ".join(f"{k} {v:,}" for k, v in stats["by_role"].items()))
    table.add_row("index", f"{stats['segmenter']}, schema v{stats['schema_version']}")
    _console().print(table)
