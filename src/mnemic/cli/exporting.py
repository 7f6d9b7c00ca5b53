"""``mnemic export``: memory written out for another agent (Claude Code's CLAUDE.md)."""

from __future__ import annotations

from pathlib import Path

import click

from ..curated.view import MemoryView
from ..integrations.claude_memory.export import write_section
from ..integrations.claude_memory.source import locate_claude_home
from .app import PROJECT_OPT, AppContext, emit_json, handle_errors, pass_app, printable

__all__ = ["export", "export_claude_code"]


@click.command(name="export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["claude-code"]),
    required=True,
    help="claude-code: a marked section of a CLAUDE.md.",
)
@PROJECT_OPT
@click.option(
    "--output",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="The file to write (default: DIR/CLAUDE.md with --project, else ~/.claude/CLAUDE.md).",
)
@click.option(
    "--claude-home",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Claude Code's folder (default $CLAUDE_CONFIG_DIR or ~/.claude).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
@handle_errors
def export(
    app: AppContext, fmt: str, output: str | None, claude_home: str | None, as_json: bool
) -> None:
    """Write memory out for another agent: a section of Claude Code's CLAUDE.md.

    \b
      mnemic export --format claude-code                 global MEMORY.md and USER.md
                                                         into ~/.claude/CLAUDE.md
      mnemic export --format claude-code --project DIR   the project's memory into
                                                         DIR/CLAUDE.md

    The entries go between <!-- mnemic:begin --> and <!-- mnemic:end -->; exporting again
    replaces only that section, and the rest of the file stays byte for byte.
    """
    export_claude_code(app, output, claude_home, as_json)


def export_claude_code(
    app: AppContext, output: str | None, claude_home: str | None, as_json: bool
) -> None:
    """``mnemic export --format claude-code``: the global (or ``--project``) memory as a
    marked section of a CLAUDE.md (:mod:`mnemic.integrations.claude_memory.export`)."""
    view = MemoryView.open(app.memory_home())
    if app.project is not None:
        path = Path(output) if output else Path(app.project).expanduser() / "CLAUDE.md"
        targets: tuple[str, ...] = ("memory",)
    else:
        path = Path(output) if output else locate_claude_home(claude_home) / "CLAUDE.md"
        targets = ("memory", "user")
    result = write_section(view, path, targets)
    if as_json:
        emit_json(
            {
                "format": "claude-code",
                "path": result.path,
                "entries": result.entries,
                "hidden": result.hidden,
                "replaced": result.replaced,
            }
        )
        return
    how = "replaced its mnemic section" if result.replaced else "added a mnemic section"
    click.echo(printable(f"{result.path}: {how} ({result.entries:,} entries).", lines=False))
    if result.hidden:
        click.echo(f"  {result.hidden:,} entries the threat scan hides were left out.")
