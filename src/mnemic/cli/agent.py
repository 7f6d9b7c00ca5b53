"""``mnemic chat``, ``mnemic prompt`` and ``mnemic provider``: the agent surfaces."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from ..config import set_config_value
from ..errors import MnemicError
from .app import JSON_OPT, AppContext, emit_json, fail, handle_errors, pass_app, printable

if TYPE_CHECKING:
    from ..agent.chat import TurnResult
    from ..agent.session import AgentSession
    from ..home import Home

__all__ = ["chat", "prompt", "provider"]


# --- mnemic prompt ------------------------------------------------------------------------


@click.command(name="prompt")
@click.option("--system", "system_message", default="", help="A caller's system message to add.")
@click.option(
    "--memory-only",
    is_flag=True,
    help="Print only the frozen MEMORY and USER PROFILE blocks (for any agent's hook).",
)
@JSON_OPT
@pass_app
@handle_errors
def prompt(app: AppContext, system_message: str, memory_only: bool, as_json: bool) -> None:
    """Print the system prompt a new session would start with, layer by layer.

    Nothing is recorded or written. The prompt stays byte-identical for the whole session;
    per-turn recall goes into the user's message instead.

    With --memory-only, print just the memory blocks, exactly as the system prompt
    carries them (nothing at all when memory is empty): a session-start hook of any
    agent can put them in its context.
    """
    from ..sessions.store import estimate_tokens

    if memory_only:
        if system_message:
            raise click.UsageError("--system does not apply with --memory-only")
        from ..curated.snapshot import render_snapshot

        text = render_snapshot(app.home_path, app.profile)
        if as_json:
            emit_json({"chars": len(text), "tokens_estimate": estimate_tokens(text), "text": text})
        elif text:
            click.echo(text)
        return
    from ..agent.startup import preview_prompt

    built, tools, manager = preview_prompt(app.existing_home, system_message=system_message)
    text = built.text
    if as_json:
        data = built.as_dict()
        data["tokens_estimate"] = estimate_tokens(text)
        data["tools"] = tools
        data["provider"] = manager.name or None
        emit_json(data)
        return
    click.secho(
        f"System prompt of a new session: {len(text):,} chars (~{estimate_tokens(text):,} tokens)",
        bold=True,
    )
    for name, size in built.sizes().items():
        shown = f"{size:,}" if size else "-"
        click.echo(f"  {name:<14} {shown:>7}")
    click.echo(f"Tools: {', '.join(tools)}")
    if manager.name:
        state = "on" if manager.active else f"off ({manager.disabled_reason})"
        click.echo(f"Memory provider: {manager.name} ({state})")
    click.echo("─" * 72)
    click.echo(text)


# --- mnemic provider ----------------------------------------------------------------------


def _describe(name: str, home: Home) -> dict[str, Any]:
    from ..providers.discovery import available_providers, load_provider

    entry = available_providers()[name]
    row: dict[str, Any] = {
        "name": name,
        "source": "built-in" if entry.builtin else entry.distribution,
        "entry_point": entry.value,
    }
    try:
        instance = load_provider(name, home)
    except MnemicError as exc:
        row.update(available=False, reason=exc.to_llm(), description="")
        return row
    row["description"] = getattr(instance, "description", "") or ""
    try:
        ok = bool(instance.is_available())
        reason = "" if ok else instance.unavailable_reason()
    except Exception as exc:
        ok, reason = False, f"{type(exc).__name__}: {exc}"
    row.update(available=ok, reason=reason or None)
    return row


@click.group(name="provider")
def provider() -> None:
    """External memory providers (at most one active; `recall` is built in).

    \b
    The active provider is [agent] provider in config.toml ('' = none).
    """


@provider.command(name="list")
@JSON_OPT
@pass_app
@handle_errors
def provider_list(app: AppContext, as_json: bool) -> None:
    """List installed providers (entry point group mnemic.providers)."""
    from ..providers.discovery import available_providers

    home = app.existing_home
    active = home.settings.agent.provider
    rows = [_describe(name, home) | {"active": name == active} for name in available_providers()]
    if as_json:
        emit_json({"active": active or None, "providers": rows})
        return
    for row in rows:
        mark = "*" if row["active"] else " "
        state = "available" if row["available"] else f"unavailable: {row['reason']}"
        click.echo(f"{mark} {row['name']:<12} {row['source']:<10} {state}")
        if row["description"]:
            click.echo(f"    {row['description']}")
    if not active:
        click.echo("No provider is active (built-in memory only): mnemic provider use NAME")


@provider.command(name="status")
@JSON_OPT
@pass_app
@handle_errors
def provider_status(app: AppContext, as_json: bool) -> None:
    """Show the active provider: available or not, its tools, its own facts."""
    from ..providers.discovery import load_provider
    from ..providers.manager import ProviderManager

    home = app.existing_home
    name = home.settings.agent.provider
    data: dict[str, Any] = {"provider": name or None}
    if name:
        manager = ProviderManager(home.settings.agent)
        try:
            manager.add(load_provider(name, home))
        except MnemicError as exc:
            data.update(active=False, error=exc.to_llm())
        else:
            manager.initialize("status", home=str(home.root), agent_context="preview")
            data.update(manager.status())
            assert manager.provider is not None
            try:
                data["details"] = manager.provider.status()
            except Exception as exc:
                data["details"] = {"error": f"{type(exc).__name__}: {exc}"}
            manager.shutdown(0.0)
        data["timeouts"] = {
            "recall_s": home.settings.agent.provider_timeout,
            "tool_s": home.settings.agent.provider_tool_timeout,
        }
    if as_json:
        emit_json(data)
        return
    if not name:
        click.echo("No memory provider is active (built-in memory only).")
        click.echo("Turn on recall of past exchanges: mnemic provider use recall")
        return
    if data.get("error"):
        fail(data["error"])
    state = "active" if data.get("active") else f"off: {data.get('disabled_reason')}"
    click.echo(f"{name}: {state}")
    click.echo(f"  tools: {', '.join(data.get('tools') or []) or 'none'}")
    for key, value in (data.get("details") or {}).items():
        click.echo(f"  {key}: {value}")
    t = data["timeouts"]
    click.echo(f"  time limits: recall {t['recall_s']}s, tools {t['tool_s']}s")


def _root(app: AppContext) -> str:
    from ..home import home_dir

    return home_dir(app.home_path, app.profile)


@provider.command(name="use")
@click.argument("name")
@pass_app
@handle_errors
def provider_use(app: AppContext, name: str) -> None:
    """Make NAME the active provider (written to config.toml, comments kept)."""
    from ..providers.discovery import available_providers, load_provider

    root = _root(app)
    entries = available_providers()
    if name not in entries:
        from ..errors import ProviderNotFound

        raise ProviderNotFound(name, list(entries))
    path = set_config_value(root, "agent", "provider", name)
    click.echo(f"Memory provider: {name} (saved in {path}). It applies from the next session.")
    from ..home import Home

    instance = load_provider(name, Home.open(root))
    if not instance.is_available():
        click.secho(
            f"Warning: {name} is not available here: {instance.unavailable_reason()}",
            fg="yellow",
            err=True,
        )
    if os.environ.get("MNEMIC_AGENT_PROVIDER") is not None:
        click.echo("Note: MNEMIC_AGENT_PROVIDER is set and overrides this setting.", err=True)


@provider.command(name="off")
@pass_app
@handle_errors
def provider_off(app: AppContext) -> None:
    """Turn the external provider off (built-in memory only)."""
    path = set_config_value(_root(app), "agent", "provider", "")
    click.echo(f"No memory provider (saved in {path}). It applies from the next session.")


# --- mnemic chat ----------------------------------------------------------------------------

_HELP = """\
Commands: /memory (what is saved), /search WORDS (past sessions), /skills, /new (new
session), /compress (summarise the conversation now), /quit. Anything else goes to the model."""


def _clip(text: str, width: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _on_event(kind: str, data: dict[str, Any]) -> None:
    if kind == "tool":
        resp = data["result"]
        by = f"{data['by']} " if data.get("by") else ""
        if resp.get("staged"):
            outcome = f"staged for approval ({resp.get('pending_id')})"
        elif resp.get("success"):
            outcome = "ok" + (f": {resp['message']}" if resp.get("message") else "")
        else:
            outcome = f"refused ({resp.get('error_code')}): {resp.get('error', '')}"
        click.secho(f"  ⚙ {by}{data['name']} → {_clip(outcome, 140)}", dim=True, err=True)
    elif kind == "flush":
        click.secho(f"  ⚙ before compressing, {data['report'].summary()}", err=True)
    elif kind == "review":
        click.secho(f"  ⚙ {data['report'].summary()}", err=True)
    elif kind == "compressed":
        r = data["report"]
        click.secho(
            f"  ⚙ compressed: {r.summarized_messages} messages summarised, "
            f"~{r.tokens_before:,} → ~{r.tokens_after:,} tokens; session {r.new_session_id}",
            err=True,
        )
    elif kind == "error":
        click.secho(f"  ⚠ {data.get('where')}: {data.get('error')}", fg="yellow", err=True)


def _show_cache(result: TurnResult) -> None:
    """One stderr line per model call: input tokens, of which cache reads and writes."""
    for n, u in enumerate(result.usage, 1):
        click.secho(
            f"  ⚙ cache, call {n}: {u.prompt_tokens:,} input tokens, "
            f"{u.cache_read_tokens:,} read from the cache, {u.cache_write_tokens:,} written",
            dim=True,
            err=True,
        )


def _slash(session: AgentSession, line: str) -> bool:
    """Run a slash command; False when the user asked to quit."""
    cmd, _, arg = line.partition(" ")
    arg = arg.strip()
    if cmd in ("/quit", "/exit", "/q"):
        return False
    if cmd == "/help":
        click.echo(_HELP)
    elif cmd == "/memory":
        for target in ("user", "memory"):
            res = session.memory.read(target)
            click.secho(f"{target.upper()} ({res.usage.line()})", bold=True)
            for entry in res.entries or ("(empty)",):
                click.echo(f"  • {entry}")
    elif cmd == "/search":
        if not arg:
            click.echo("usage: /search WORDS")
            return True
        resp = session.tools.dispatch("session_search", {"query": arg})
        if not resp.get("success"):
            click.echo(resp.get("error"))
        for r in resp.get("results", []):  # stored fields: control characters as U+FFFD
            head = f"{r.get('when')}  {r.get('session_id')}  {r.get('title') or ''}"
            click.secho(printable(head, lines=False), bold=True)
            click.echo(f"  {printable(_clip(r.get('snippet', '')), lines=False)}")
        if resp.get("message"):
            click.echo(resp["message"])
    elif cmd == "/skills":
        resp = session.tools.dispatch("skills_list", {})
        for s in resp.get("skills", []):
            cat = f"{s['category']}/" if s.get("category") else ""
            click.echo(f"  {cat}{s['name']}: {_clip(s.get('description', ''), 100)}")
        if not resp.get("skills"):
            click.echo("No skills yet.")
    elif cmd == "/new":
        session.new_session()
        click.echo(f"New session {session.session_id}: memory reloaded into a fresh prompt.")
    elif cmd == "/compress":
        report = session.compress(reason="manual")
        if not report.compressed:
            click.echo("Nothing to compress yet.")
    else:
        click.echo(f"Unknown command {cmd}. {_HELP}")
    return True


@click.command(name="chat")
@click.option(
    "--api",
    type=click.Choice(["openai", "anthropic"]),
    help="The API the endpoint speaks (default: [llm] api, else openai).",
)
@click.option(
    "--base-url",
    help="Endpoint (default: [llm] base_url; with --api anthropic, the Anthropic API).",
)
@click.option("--model", help="Model name (default: [llm] model).")
@click.option("--system", "system_message", default="", help="An extra system message.")
@click.option("--no-stream", is_flag=True, help="Print each answer whole instead of streaming.")
@click.option("--provider", "provider_name", help="Memory provider for this run ('' for none).")
@click.option(
    "--show-cache",
    is_flag=True,
    help="After each answer, print the prompt-cache tokens the endpoint reported (stderr).",
)
@pass_app
@handle_errors
def chat(
    app: AppContext,
    api: str | None,
    base_url: str | None,
    model: str | None,
    system_message: str,
    no_stream: bool,
    provider_name: str | None,
    show_cache: bool,
) -> None:
    """Talk to a model with mnemic's memory, session search and skills.

    Reads one message per line (from the terminal or a pipe). Tool calls are shown on
    stderr. Type /help for the slash commands. Exits 1 when the endpoint failed on any
    turn; a session the model never answered in is not kept in the history.
    """
    from ..agent.chat import ChatAgent
    from ..agent.session import AgentSession
    from ..llm.select import client_from_settings, missing_setting

    home = app.home
    llm = home.settings.llm.replace(
        api=api or home.settings.llm.api,
        base_url=base_url or home.settings.llm.base_url,
        model=model or home.settings.llm.model,
    )
    if missing_setting(llm) is not None:
        needed = "--model" if llm.api == "anthropic" else "--base-url and --model"
        keys = "model" if llm.api == "anthropic" else "base_url and model"
        fail(f"no model endpoint: pass {needed}, or set [llm] {keys} in config.toml", 2)
    # the client's package is checked before the session starts, not at the first reply
    client = client_from_settings(llm, check_extra="mnemic chat")
    interactive = sys.stdin.isatty()
    session = AgentSession.open(
        home,
        client=client,
        provider=... if provider_name is None else provider_name,
        source="chat",
        system_message=system_message,
        model=llm.model,
        events=_on_event,
    )
    streamed: list[str] = []

    def on_text(piece: str) -> None:
        streamed.append(piece)
        click.echo(piece, nl=False)

    agent = ChatAgent(session, client, stream=not no_stream, on_text=on_text)
    if interactive:
        where = llm.base_url or "the Anthropic API"
        click.secho(f"mnemic chat · {llm.model} at {where} · /help for commands", dim=True)
    try:
        while True:
            try:
                line = input("you> " if interactive else "")
            except EOFError:
                break
            line = line.strip()
            if not line:
                continue
            if line.startswith("/"):
                if not _slash(session, line):
                    break
                continue
            streamed.clear()
            result = agent.run_turn(line)
            if result.status == "model_error":
                click.secho(result.text, fg="red", err=True)
            elif result.status == "tool_limit":
                click.echo(result.text)
            elif streamed:
                click.echo()
            elif not result.text:
                click.echo("(no answer)")
            if show_cache:
                _show_cache(result)
    except KeyboardInterrupt:
        click.echo()
    finally:
        report = agent.close("user_exit")
        if report.abandoned:
            click.secho(
                f"{report.abandoned} provider task(s) did not finish in time and were dropped.",
                fg="yellow",
                err=True,
            )
    if agent.failed_turns:
        kept = "" if agent.model_replies else " No session was kept: the model never answered."
        fail(
            f"the model endpoint failed on {agent.failed_turns} turn(s) (see above); check "
            f"--base-url, --model and the endpoint.{kept}"
        )
