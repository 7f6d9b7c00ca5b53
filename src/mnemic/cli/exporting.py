"""``mnemic export``: memory written out for another agent (Claude Code's CLAUDE.md)."""

from __future__ import annotations

from pathlib import Path

import click

from ..curated.view import MemoryView
from ..integrations.claude_memory.export import write_section
from ..integrations.claude_memory.source import locate_claude_home
from .app import PROJECT_OPT, AppContext, counted, emit_json, handle_errors, pass_app, printable

__all__ = ["export", "export_claude_code", "export_to_bundle"]


@click.command(name="export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["claude-code"]),
    help="claude-code: a marked section of a CLAUDE.md.",
)
@click.option(
    "--bundle",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Write the whole home to FILE, a portable bundle (mnemic import --bundle reads it).",
)
@click.option("--with-vectors", is_flag=True, help="With --bundle: carry the session vectors.")
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
    app: AppContext,
    fmt: str | None,
    bundle: str | None,
    with_vectors: bool,
    output: str | None,
    claude_home: str | None,
    as_json: bool,
) -> None:
    """Write memory out: a section of Claude Code's CLAUDE.md, or the home as a bundle.

    \b
      mnemic export --format claude-code                 global MEMORY.md and USER.md
                                                         into ~/.claude/CLAUDE.md
      mnemic export --format claude-code --project DIR   the project's memory into
                                                         DIR/CLAUDE.md

    The entries go between <!-- mnemic:begin --> and <!-- mnemic:end -->; exporting again
    replaces only that section, and the rest of the file stays byte for byte.

    \b
      mnemic export --bundle FILE [--with-vectors]       the whole home in one file,
                                                         for import --bundle
                                                         (docs/bundles.md)
    """
    if (fmt is None) == (bundle is None):
        raise click.UsageError("Give one of --format claude-code or --bundle FILE.")
    if bundle is not None:
        export_to_bundle(app, bundle, with_vectors, as_json)
        return
    export_claude_code(app, output, claude_home, as_json)


def export_to_bundle(app: AppContext, bundle: str, with_vectors: bool, as_json: bool) -> None:
    """``mnemic export --bundle FILE``: the whole home in one file (:mod:`mnemic.ops.bundle`)."""
    from ..ops.bundle.export import export_bundle  # the bundle code only when asked for

    report = export_bundle(app.existing_home, Path(bundle), with_vectors=with_vectors)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(printable(f"Wrote {report.path}: {report.summary()}.", lines=False))


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
    click.echo(
        printable(
            f"{result.path}: {how} ({counted(result.entries, 'entry', 'entries')}).", lines=False
        )
    )
    if result.hidden:
        hides = f"{counted(result.hidden, 'entry', 'entries')} the threat scan hides"
        click.echo(f"  {hides} {'was' if result.hidden == 1 else 'were'} left out.")
