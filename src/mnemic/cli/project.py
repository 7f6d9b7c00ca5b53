"""``mnemic project``: whole project stores (:mod:`mnemic.ops.project_stores`)."""

from __future__ import annotations

from pathlib import Path

import click

from ..ops.project_stores import find_store, move_store, remove_store
from .app import JSON_OPT, AppContext, counted, emit_json, handle_errors, pass_app, printable

__all__ = ["project"]


@click.group(name="project")
def project() -> None:
    """Project stores whole: remove one whose directory is gone (its memory kept), or
    take it over to the directory's new path."""


@project.command(name="forget")
@click.argument("store")
@click.option("--force", is_flag=True, help="Remove it even though its directory still exists.")
@click.option("--dry-run", is_flag=True, help="Say what would go; remove nothing.")
@click.option(
    "--bundle",
    "bundle",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to keep its memory first (default: <home>/removed-projects/ID-TIME.mnemic).",
)
@JSON_OPT
@pass_app
@handle_errors
def forget(
    app: AppContext,
    store: str,
    force: bool,
    dry_run: bool,
    bundle: Path | None,
    as_json: bool,
) -> None:
    """Remove the project store STORE (its id, as `mnemic memory status` lists it, or
    its directory) from the home, after keeping it in a bundle.

    Its MEMORY.md, history, archive, audit journal and pending writes are written to a
    bundle first (its path is printed); `mnemic import --bundle FILE` brings the store
    back. Then the store goes, all of it at once, under the locks its writers take: a
    write that comes in meanwhile leaves it whole (run again), a writer that was waiting
    is refused. A store whose directory still exists is refused unless --force.

    \b
    Examples:
      mnemic project forget api-6aa44a904a40 --dry-run
      mnemic project forget api-6aa44a904a40
    """
    found = find_store(app.home, store)
    done = remove_store(app.home, found, force=force, dry_run=dry_run, bundle=bundle)
    if as_json:
        emit_json(done.as_dict())
        return
    where = printable(done.path or "(unknown directory)")
    state = "still exists" if done.directory_exists else "gone"
    holds = (
        f"{counted(done.entries, 'entry', 'entries')}, "
        f"{counted(done.archived, 'archived entry', 'archived entries')}, "
        f"{counted(done.records, 'audit record')}, {counted(done.pending, 'pending write')}"
    )
    if done.dry_run:
        click.echo(
            f"Would remove project store {done.project_id} ({where}, directory {state}): "
            f"{holds}. Nothing was removed (without --dry-run, it is kept in a bundle first)."
        )
        return
    click.echo(
        f"Removed project store {done.project_id} ({where}, directory {state}): {holds}.\n"
        f"Its memory is kept in {printable(done.bundle or '')}\n"
        f"  bring it back: mnemic import --bundle {printable(done.bundle or '')}"
    )


@project.command(name="move")
@click.argument("store")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Move it even though its directory still exists.")
@click.option("--dry-run", is_flag=True, help="Say what would move; change nothing.")
@JSON_OPT
@pass_app
@handle_errors
def move(
    app: AppContext, store: str, directory: Path, force: bool, dry_run: bool, as_json: bool
) -> None:
    """Take the project store STORE (its id, as `mnemic memory status` lists it, or its
    old directory) over to DIRECTORY, the directory's new path: its entries, history,
    archive, journal and pending writes, all at once, nothing rewritten.

    A directory that has a store of its own is refused (move entries one by one with
    `mnemic memory move`), and so is a store whose old directory still exists, unless
    --force.

    \b
    Examples:
      mnemic project move api-6aa44a904a40 ~/src/api --dry-run
      mnemic project move api-6aa44a904a40 ~/src/api
    """
    found = find_store(app.home, store)
    done = move_store(app.home, found, directory, force=force, dry_run=dry_run)
    if as_json:
        emit_json(done.as_dict())
        return
    what = (
        f"project store {done.old_id} ({printable(done.old_path or '(unknown directory)')}, "
        f"{counted(done.entries, 'entry', 'entries')}) to {printable(done.new_path)}"
    )
    if done.dry_run:
        click.echo(f"Would move {what}, as {done.new_id}. Nothing was changed.")
        return
    click.echo(
        f"Moved {what}: now {done.new_id}.\n"
        f"  its memory: mnemic memory show --project {printable(done.new_path)}"
    )
