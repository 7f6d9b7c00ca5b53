"""``mnemic db``: the PostgreSQL backend: migrate, status, copy a home in and out."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..timefmt import local_time
from .app import JSON_OPT, AppContext, emit_json, fail, handle_errors, pass_app, printable

if TYPE_CHECKING:
    from ..backends.postgres.db import Database

__all__ = ["db"]

URL_OPT = click.option(
    "--url", metavar="URL", help="postgresql:// URL (default: the home's `store` setting)."
)
SCHEMA_OPT = click.option(
    "--schema", metavar="NAME", help="Schema in the database (default: postgres.schema)."
)


def home_database(app: AppContext) -> Database:
    """The database this home names in ``store`` (a PostgreSQL home), with its
    ``[postgres]`` settings; no migration is run (``init`` asks it what state it is in)."""
    return _database(app, None, None)


def _database(app: AppContext, url: str | None, schema: str | None) -> Database:
    from ..backends.postgres.db import Database

    settings = app.settings
    url = url or settings.store
    if not url.startswith(("postgresql://", "postgres://")):
        fail(
            'this home stores its memory in files (store = "files"); pass --url '
            "postgresql://... or set store in config.toml",
            2,
        )
    pg = settings.postgres
    return Database(
        url, schema=schema or pg.schema, pool_size=pg.pool_size, connect_timeout=pg.connect_timeout
    )


@click.group(name="db")
def db() -> None:
    """The PostgreSQL backend: schema migrations, status, copying a home in and out.

    \b
      mnemic db migrate                       create or upgrade the schema
      mnemic db status                        versions and what is stored
      mnemic db copy --from ~/.local/share/mnemic --to postgresql://host/db
      mnemic db copy --from postgresql://host/db --to ./home-copy
    """


@db.command(name="migrate")
@URL_OPT
@SCHEMA_OPT
@JSON_OPT
@pass_app
@handle_errors
def migrate_cmd(app: AppContext, url: str | None, schema: str | None, as_json: bool) -> None:
    """Apply the schema migrations the database lacks (safe to run from many hosts)."""
    from ..backends.postgres.migrations import SCHEMA_VERSION, migrate

    database = _database(app, url, schema)
    done = migrate(database)
    if as_json:
        emit_json({"location": database.location, "applied": done, "version": SCHEMA_VERSION})
        return
    if done:
        click.echo(f"Applied migration(s) {', '.join(map(str, done))} to {database.location}.")
    else:
        click.echo(f"{database.location} is up to date (version {SCHEMA_VERSION}).")


@db.command(name="status")
@URL_OPT
@SCHEMA_OPT
@JSON_OPT
@pass_app
@handle_errors
def status_cmd(app: AppContext, url: str | None, schema: str | None, as_json: bool) -> None:
    """Schema version, pending migrations and counts of what the database holds."""
    from ..backends.postgres.migrations import status

    info = status(_database(app, url, schema))
    if as_json:
        emit_json(info)
        return
    click.echo(f"database   {info['location']}  (PostgreSQL {info['server_version']})")
    click.echo(f"schema     version {info['schema_version']} (this mnemic: {info['code_version']})")
    for m in info["pending_migrations"]:
        click.echo(f"pending    migration {m['version']}: {m['name']}  (run `mnemic db migrate`)")
    if info["schema_version"] > info["code_version"]:
        click.echo(
            f"newer      this mnemic knows versions up to {info['code_version']}: upgrade it on "
            "this host (pip install -U 'mnemic[postgres]'); until then it refuses this schema"
        )
    for a in info["applied"]:
        when = local_time(a["applied_at"])
        click.echo(f"applied    {a['version']}: {a['name']}  ({when})")
    for name, n in info.get("counts", {}).items():
        click.echo(f"{name:<14} {n:>10,}")


@db.command(name="copy")
@click.option("--from", "source", required=True, metavar="HOME|URL", help="Copy from here.")
@click.option("--to", "destination", required=True, metavar="HOME|URL", help="Copy to here.")
@SCHEMA_OPT
@click.option(
    "--overwrite", is_flag=True, help="Replace curated memory the destination already holds."
)
@click.option(
    "--sessions-only",
    is_flag=True,
    help="Copy the session history alone (sessions, tombstones, vectors): the curated "
    "memory, pending writes and journal of both sides are left as they are.",
)
@JSON_OPT
@pass_app
@handle_errors
def copy_cmd(
    app: AppContext,
    source: str,
    destination: str,
    schema: str | None,
    overwrite: bool,
    sessions_only: bool,
    as_json: bool,
) -> None:
    """Copy a home into a database or back: memory, history, sessions, queue, journal.

    Counts are verified at the destination afterwards; the exit code is 1 if anything
    that was to move is missing there. With --sessions-only, only the session history
    moves: a host with a memory of its own joins a team's schema without replacing the
    team's memory.
    """
    if sessions_only and overwrite:
        raise click.UsageError("--overwrite replaces curated memory, which --sessions-only leaves")
    from ..backends.postgres.copy import copy_memory, open_side

    name = schema or app.settings.postgres.schema
    src = open_side(source, schema=name)
    dst = open_side(destination, schema=name, migrate=True, create=True)
    report = copy_memory(src, dst, overwrite=overwrite, sessions_only=sessions_only)
    if as_json:
        emit_json(report.as_dict())
    else:
        click.echo(f"Copied {report.source} -> {report.destination}")
        click.echo(f"{'':<22}{'source':>10}{'copied':>10}{'skipped':>10}{'verified':>10}")
        group = ""
        for kind, k in report.kinds.items():
            store, _, name = kind.rpartition(": ")  # "project DIR: MEMORY.md", or global
            if store != group:
                group = store
                click.echo(f"{printable(store, lines=False)}:")
            mark = "ok" if k.ok else f"{k.destination}/{k.expected}"
            name = f"  {name}" if store else name
            click.echo(f"{name:<22}{k.source:>10,}{k.copied:>10,}{k.skipped:>10,}{mark:>10}")
        for note in report.notes:
            click.echo(f"note: {note}")
        click.echo("Verified." if report.verified else "NOT verified: see the counts above.")
        if report.verified:
            _next_after_copy(source, destination, schema or app.settings.postgres.schema)
            if sessions_only:
                click.echo(
                    "Its memory was not copied (--sessions-only): the destination's is "
                    "unchanged. Add what of the source's memory is worth keeping with "
                    "`mnemic memory add` on a home that uses the destination."
                )
    if not report.verified:
        sys.exit(1)


def _next_after_copy(source: str, destination: str, schema: str) -> None:
    """After a home was copied into a database: that home still uses its files; say how
    to point it (and the other hosts) at the copy."""
    from pathlib import Path

    from ..config import mask_url

    if not destination.startswith(("postgresql://", "postgres://")) or source.startswith(
        ("postgresql://", "postgres://")
    ):
        return
    config = Path(source).expanduser() / "config.toml"
    click.echo(
        f"Next: {source} still uses its own files (nothing there was changed). To use the "
        f"copy, on this host and every other, put at the top of the home's config.toml (here "
        f"{config}):"
    )
    click.echo(f'  store = "{mask_url(destination).replace(":***@", "@")}"')
    if schema != "mnemic":
        click.echo(f'  [postgres]\n  schema = "{schema}"')
    click.echo("(or MNEMIC_STORE); a password goes in ~/.pgpass or PGPASSWORD, not in the file.")
