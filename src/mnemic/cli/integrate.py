"""``mnemic integrate``: wire mnemic into other agents (what their hooks run is
:mod:`.hook`)."""

from __future__ import annotations

import click

from ..errors import MissingDependency
from ..extras import require_extra
from ..integrations.claude_code import integrate_claude_code, render_change
from .app import AppContext, emit_json, handle_errors, pass_app

__all__ = ["integrate"]


@click.group(name="integrate")
def integrate() -> None:
    """Wire mnemic into other agents.

    \b
      mnemic integrate claude-code              hooks + MCP server for this project
      mnemic integrate claude-code --user       the same for every project

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
@click.option("--remove", is_flag=True, help="Take out exactly what this command adds.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option(
    "--command",
    "command",
    metavar="CMD",
    help="How Claude Code starts mnemic (default: this installation's mnemic by absolute "
    "path; e.g. --command mnemic for a project file shared with others).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
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
    verb = ("would be " if dry_run else "") + ("removed" if remove else "installed")
    where = "every project" if user_scope else str(report.changes[0].path.parent.parent)
    state = verb if report.changed else ("not installed" if remove else "already installed")
    click.secho(f"mnemic for Claude Code ({where}): {state}", bold=True)
    for change in report.changes:
        action = (
            change.action
            if not dry_run or change.action == "unchanged"
            else (f"would be {change.action}")
        )
        click.echo(f"  {change.role:<5}  {change.path}  {action}")
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
