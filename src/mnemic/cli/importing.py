"""``mnemic import``: move in from another agent's memory (a Hermes Agent home)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..integrations.hermes_import.run import import_hermes
from .app import AppContext, emit_json, handle_errors, pass_app, printable
from .sessions import import_bar

__all__ = ["hermes", "import_group"]

_OUTCOMES = {
    "added": "added",
    "staged": "waiting for approval (mnemic pending list)",
    "archived": "archived",
    "over_budget": "over the budget: archived (mnemic memory archive list)",
    "present": "there already",
    "blocked": "blocked by the threat scan: not imported",
    "rejected": "not storable as they are: not imported",
    "refused": "refused: not imported",
    "conflict": "a different one is there: left alone",
    "skipped": "skipped",
    "file_added": "supporting files added",
    "file_present": "supporting files there already",
    "file_staged": "supporting files waiting for approval",
}


@click.group(name="import", invoke_without_command=True)
@click.option(
    "--bundle",
    type=click.Path(dir_okay=False),
    help="Import a whole home from a bundle (mnemic export --bundle) into this empty home.",
)
@click.option("--dry-run", is_flag=True, help="With --bundle: check and count; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="With --bundle: print the report as JSON.")
@click.pass_context
@handle_errors
def import_group(ctx: click.Context, bundle: str | None, dry_run: bool, as_json: bool) -> None:
    """Move in from another agent's memory (a Hermes Agent home) or a mnemic bundle.

    \b
      mnemic import hermes                 ~/.hermes (or $HERMES_HOME)
      mnemic import hermes PATH --dry-run  what would land where; nothing written
      mnemic import --bundle FILE          a bundle of `mnemic export --bundle`, into an
                                           empty home (refused otherwise); --dry-run checks

    Conversation files (Claude Code transcripts, OpenAI messages, JSON Lines) are
    imported with `mnemic sessions import`.
    """
    if bundle is not None:
        if ctx.invoked_subcommand is not None:
            raise click.UsageError("--bundle imports a bundle; it takes no subcommand.")
        app = ctx.find_object(AppContext)
        assert app is not None  # the root command makes it
        _import_bundle(app, bundle, dry_run, as_json)
    elif dry_run or as_json:  # `import --dry-run hermes` must not import for real
        raise click.UsageError(
            "--dry-run and --json here go with --bundle; for a source, put them after it "
            "(mnemic import hermes --dry-run)."
        )
    elif ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def _import_bundle(app: AppContext, bundle: str, dry_run: bool, as_json: bool) -> None:
    """``mnemic import --bundle FILE [--dry-run]`` (:mod:`mnemic.ops.bundle.restore`)."""
    from ..ops.bundle.restore import import_bundle  # the bundle code only when asked for

    show_bar = not as_json and not dry_run and sys.stderr.isatty()
    with import_bar(show_bar) as update:
        report = import_bundle(app.home, Path(bundle), dry_run=dry_run, progress=update)
    if as_json:
        emit_json(report.as_dict())
        return
    head = "Dry run: nothing was written. Would import" if dry_run else "Imported"
    made = f"made {report.created} by mnemic {report.mnemic_version}"
    click.echo(printable(f"{head} {report.summary()} ({made}).", lines=False))


def _counts(counts: dict[str, int], dry_run: bool) -> str:
    would = "would be " if dry_run else ""
    parts = [f"{n:,} {would}{_OUTCOMES.get(k, k)}" for k, n in counts.items() if n]
    return "; ".join(parts) or "nothing"


def _part(title: str, part: dict[str, Any], dry_run: bool) -> None:
    if part["missing"]:
        click.echo(f"{title}: not in the Hermes home, skipped.")
        return
    click.echo(f"{title}: {_counts(part['counts'], dry_run)}.")
    for note in part["notes"]:
        why = f" ({note['why']})" if note["why"] else ""
        what = f": {note['what']}" if note["what"] and note["what"] != note["where"] else ""
        line = f"  {note['outcome']}: {note['where']}{what}{why}"
        click.echo(printable(line, lines=False))  # texts of another agent's files


@import_group.command(name="hermes")
@click.argument("path", required=False, type=click.Path(file_okay=False))
@click.option("--dry-run", is_flag=True, help="Report what would land where; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_app
@handle_errors
def hermes(app: AppContext, path: str | None, dry_run: bool, as_json: bool) -> None:
    """Import a Hermes Agent home (PATH, default $HERMES_HOME or ~/.hermes).

    \b
    MEMORY.md, USER.md   entries, each scanned and gated like any write; what does
                         not fit the budget goes to the archive
    ARCHIVE.jsonl        into the archive
    state.db             sessions (read-only), with titles, parents and tool calls
    skills/              skills, each scanned and gated like any skill write

    Running it again adds nothing. A missing part is skipped; a damaged one stops the
    import before anything is written, naming the file.
    """
    show_bar = not as_json and not dry_run and sys.stderr.isatty()
    with import_bar(show_bar) as update:
        report = import_hermes(app.home, path, dry_run=dry_run, progress=update)
    data = report.to_dict()
    if as_json:
        emit_json(data)
        return
    head = "Dry run: nothing was written. " if dry_run else ""
    click.echo(printable(f"{head}From {data['hermes_home']}:", lines=False))
    for target, name in (("memory", "MEMORY.md"), ("user", "USER.md")):
        _part(name, data["memory"][target], dry_run)
        if data["memory"][target]["counts"].get("over_budget"):
            key = "memory_char_limit" if target == "memory" else "user_char_limit"
            click.echo(
                f"  To have them live: raise [memory] {key} in config.toml, then "
                "mnemic memory archive restore ID."
            )
    _part("ARCHIVE.jsonl", data["archive"], dry_run)
    sessions = data["sessions"]
    if sessions["missing"]:
        click.echo("state.db: not in the Hermes home, skipped.")
    else:
        would = "would import" if dry_run else "imported"
        known = sessions.get("known_sessions", 0) + sessions.get("existing_sessions_unchanged", 0)
        grew = sessions.get("extended_sessions", 0)
        more = f"; {grew:,} known sessions gained new messages" if grew else ""
        more += f"; {known:,} imported before" if known else ""
        click.echo(
            f"state.db: {would} {sessions['sessions']:,} sessions, {sessions['messages']:,} "
            f"messages{more}."
        )
        for item in sessions.get("skipped", []):
            click.echo(printable(f"  skipped {item['count']:,}: {item['reason']}", lines=False))
    _part("skills/", data["skills"], dry_run)
