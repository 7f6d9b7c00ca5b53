"""``mnemic init``: create a home. Commands that only read never create one."""

from __future__ import annotations

import shlex

import click

from ..config import store_place
from ..curated.scope import locate, open_project
from ..fsio import ensure_private_dir
from ..registry import stores_in_home
from .app import (
    JSON_OPT,
    PROJECT_OPT,
    AppContext,
    emit_json,
    handle_errors,
    pass_app,
    printable,
)

__all__ = ["init"]


@click.command(name="init")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def init(app: AppContext, as_json: bool) -> None:
    """Create the home (private: mode 0700) where memory, history and skills will live.

    An existing home is left as it is, an empty directory becomes the home, and a
    directory that holds other files is refused (a home should not mix with them). Any
    command that writes (`mnemic memory add`, `mnemic skills create`, `mnemic sessions
    import`, `mnemic chat`...) creates the home too, and refuses such a directory the
    same way; commands that only read never do, so a mistyped MNEMIC_HOME is an error
    there.

    With --project DIR, create that project's memory store too: from then on Claude
    Code sessions in DIR get its PROJECT MEMORY block (docs/lifecycle.md, "Scopes").
    """
    existed = app.open_home()
    root = app.home.root
    if not existed and stores_in_home(app.home.settings):  # a second init knows it
        ensure_private_dir(root / "memories")
    if app.project is not None:
        known = locate(root, app.project)
        had = known.exists
        open_project(app.home, app.project, create=True)
        if as_json:
            emit_json({"home": str(root), "project": known.path, "created": not had})
            return
        state = "already exists" if had else "was created"
        click.echo(f"The memory store of project {printable(known.path)} {state} in {root}.")
        click.echo(f'Next: mnemic memory add --project {shlex.quote(known.path)} "a project fact"')
        return
    place = store_place(app.home.settings)
    database = _database_state(app) if place else None
    if as_json:
        out: dict[str, object] = {"home": str(root), "created": not existed}
        if database is not None:
            out.update(store=place, **database)
        emit_json(out)
        return
    if existed:
        click.echo(f"A mnemic home already exists at {root}; nothing was changed.")
    else:
        click.echo(f"Created a mnemic home at {root}.")
    step = None
    if database is not None:  # the memory and sessions are not under the home
        click.echo(f"Its memory and sessions live in {place}, shared by the homes naming it.")
        click.echo(database["state"])
        step = database.get("next")
    if step:
        click.echo(f"Next: {step}")
    else:
        click.echo('Next: mnemic memory add "a fact worth keeping"   then: mnemic memory show')


def _database_state(app: AppContext) -> dict[str, object]:
    """Whether the database a home names is ready: its schema version against this
    mnemic's, or why it could not be asked (``state``: the line a person reads; ``next``:
    the command to run first, when there is one)."""
    from ..backends.postgres.migrations import SCHEMA_VERSION, current_version
    from ..errors import MnemicError
    from .db import home_database

    db = home_database(app)
    try:
        version = current_version(db)
    except MnemicError as exc:
        return {
            "schema_version": None,
            "state": f"It could not be checked: {exc.to_human()}",
            "next": "fix what the line above says, then: mnemic db status",
        }
    state: dict[str, object] = {"schema_version": version}
    if version == SCHEMA_VERSION:
        state["state"] = f"The schema is ready (version {version})."
    elif version > SCHEMA_VERSION:
        state["state"] = (
            f"The schema is at version {version}, newer than this mnemic ({SCHEMA_VERSION}): "
            "upgrade mnemic on this host (pip install -U 'mnemic[postgres]') before using it."
        )
        state["next"] = "pip install -U 'mnemic[postgres]'"
    else:
        what = "does not exist yet" if version == 0 else f"is at version {version}"
        state["state"] = (
            f"The schema {what}; this mnemic needs version {SCHEMA_VERSION}: create or upgrade "
            "it once, from any host, with `mnemic db migrate`."
        )
        state["next"] = 'mnemic db migrate   then: mnemic memory add "a fact worth keeping"'
    return state
