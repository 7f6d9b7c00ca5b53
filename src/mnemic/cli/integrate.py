"""``mnemic integrate``: wire mnemic into other agents (what their hooks run is
:mod:`.hook`)."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..errors import MissingDependency
from ..extras import require_extra
from ..integrations.claude_code import integrate_claude_code, render_change
from ..integrations.hermes_provider import integrate_hermes
from .app import AppContext, emit_json, handle_errors, pass_app

__all__ = ["integrate"]

F = TypeVar("F", bound=Callable[..., Any])


def _install_options(*, remove_help: str, command_help: str) -> Callable[[F], F]:
    """The options every ``integrate`` command takes: --remove, --dry-run, --command, --json."""

    def wrap(fn: F) -> F:
        fn = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(fn)
        fn = click.option("--command", "command", metavar="CMD", help=command_help)(fn)
        fn = click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")(
            fn
        )
        return click.option("--remove", is_flag=True, help=remove_help)(fn)

    return wrap


def _state(*, dry_run: bool, remove: bool, changed: bool) -> str:
    """What happened, for the heading line: installed, would be removed, already installed."""
    if not changed:
        return "not installed" if remove else "already installed"
    return ("would be " if dry_run else "") + ("removed" if remove else "installed")


def _shown(action: str, dry_run: bool) -> str:
    """A file's action as a dry run reports it ("would be created")."""
    return action if not dry_run or action == "unchanged" else f"would be {action}"


@click.group(name="integrate")
def integrate() -> None:
    """Wire mnemic into other agents.

    \b
      mnemic integrate claude-code              hooks + MCP server for this project
      mnemic integrate claude-code --user       the same for every project
      mnemic integrate hermes                   mnemic as Hermes Agent's memory provider

    Cursor, Codex CLI and any other MCP client start `mnemic mcp`: the recipes are
    in docs/integrations.md.
    """


@integrate.command(name="claude-code")
@click.option(
    "--project",
    "project_dir",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Install for the project in DIR (.claude/settings.json, .mcp.json); default: "
    "the current directory.",
)
@click.option(
    "--user",
    "user_scope",
    is_flag=True,
    help="Install for every project (~/.claude/settings.json, ~/.claude.json).",
)
@_install_options(
    remove_help="Take out exactly what this command adds.",
    command_help="How Claude Code starts mnemic (default: this installation's mnemic by "
    "absolute path; e.g. --command mnemic for a project file shared with others).",
)
@pass_app
@handle_errors
def claude_code(
    app: AppContext,
    project_dir: str | None,
    user_scope: bool,
    remove: bool,
    dry_run: bool,
    command: str | None,
    as_json: bool,
) -> None:
    """Give Claude Code mnemic's memory: hooks and the MCP server.

    \b
    SessionStart  the frozen MEMORY / USER PROFILE snapshot is added to the context
    PreCompact    the transcript is imported into the session history (new messages
    SessionEnd    only; SessionEnd also marks the session ended)
    MCP server    `mnemic mcp`: the memory, session_search and skills tools

    Existing settings, hooks and servers are kept; running it twice changes nothing;
    --remove takes out only what it added. A home other than the default is written
    into the commands (--home). Files that are not valid JSON are refused untouched.
    """
    if user_scope and project_dir is not None:
        raise click.UsageError("give --project DIR or --user, not both")
    report = integrate_claude_code(
        scope="user" if user_scope else "project",
        project_dir=project_dir,
        home_path=app.home_path,
        profile=app.profile,
        command=command,
        remove=remove,
        dry_run=dry_run,
    )
    if as_json:
        emit_json(report.to_dict())
        return
    where = "every project" if user_scope else str(report.changes[0].path.parent.parent)
    state = _state(dry_run=dry_run, remove=remove, changed=report.changed)
    click.secho(f"mnemic for Claude Code ({where}): {state}", bold=True)
    for change in report.changes:
        click.echo(f"  {change.role:<5}  {change.path}  {_shown(change.action, dry_run)}")
    if dry_run:
        for change in report.changes:
            if change.action not in ("unchanged", "deleted"):
                click.echo(f'\n{change.path} ("{change.key}"; everything else is kept):')
                click.echo(render_change(change), nl=False)
    if not remove:
        click.echo(f"Hook command: {report.command}")
        try:
            require_extra("mcp", "The MCP server Claude Code starts (mnemic mcp)")
        except MissingDependency as exc:
            warning = f"Warning: {exc.to_human()} The hooks work without it."
            click.secho(warning, fg="yellow", err=True)
        if not dry_run and report.changed:
            hint = (
                "Claude Code asks once before it starts a project's MCP server: approve "
                '"mnemic" (or run `claude mcp list`).'
                if not user_scope
                else "Restart Claude Code (it reads ~/.claude.json at start)."
            )
            click.echo(hint)


@integrate.command(name="hermes")
@click.option(
    "--hermes-home",
    "hermes_home",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="The Hermes home to install into (default: $HERMES_HOME, else ~/.hermes).",
)
@_install_options(
    remove_help="Take the provider out: config.yaml as it was, the plugin folder deleted.",
    command_help="How the provider starts mnemic (default: this installation's mnemic by "
    "absolute path, so a Hermes in another environment finds it).",
)
@pass_app
@handle_errors
def hermes(
    app: AppContext,
    hermes_home: str | None,
    remove: bool,
    dry_run: bool,
    command: str | None,
    as_json: bool,
) -> None:
    """Make mnemic the memory provider of a Hermes Agent home.

    \b
    Hermes then gets, through the provider (plugins/mnemic/ in its home):
      recall        relevant earlier exchanges attached to each user message
      turn sync     every turn recorded in mnemic's session history (source "hermes")
      tools         mnemic_session_search, mnemic_archive_search
      session end   the session marked ended

    config.yaml gets memory.provider: mnemic (that line only; the rest is kept);
    running it twice changes nothing; --remove puts config.yaml back as it was. The
    provider runs this mnemic with this home (--home), whatever Hermes's environment.
    """
    report = integrate_hermes(
        hermes_home=hermes_home,
        home_path=app.home_path,
        profile=app.profile,
        command=command,
        remove=remove,
        dry_run=dry_run,
    )
    if as_json:
        emit_json(report.to_dict())
        return
    state = _state(dry_run=dry_run, remove=remove, changed=report.changed)
    click.secho(f"mnemic as Hermes's memory provider ({report.hermes_home}): {state}", bold=True)
    click.echo(f"  config.yaml   {_shown(report.config, dry_run)}")
    for name, action in report.plugin:
        click.echo(f"  plugins/mnemic/{name}  {_shown(action, dry_run)}")
    for note in report.notes:
        click.echo(f"  note: {note}")
    if not remove:
        click.echo(f"Bridge command: {shlex.join(report.command)}")
        if report.previous_provider and report.previous_provider != "mnemic":
            click.echo(
                f"It replaces the provider {report.previous_provider!r}; --remove puts it back."
            )
        if report.changed and not dry_run:
            click.echo("Start a new Hermes session (or restart its gateway) to use it.")
        # what a person who also ran `mnemic import hermes` may expect and does not get
        click.echo(
            "Hermes keeps its own MEMORY.md and USER.md in its prompt; mnemic records its "
            "sessions, recalls earlier ones and archives what its memory writes let go. "
            "mnemic's own memory (`mnemic memory show`) does not reach Hermes."
        )
