"""``mnemic init``: create a home. Commands that only read never create one."""

from __future__ import annotations

import shlex

import click

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
    if as_json:
        emit_json({"home": str(root), "created": not existed})
        return
    if existed:
        click.echo(f"A mnemic home already exists at {root}; nothing was changed.")
    else:
        click.echo(f"Created a mnemic home at {root}.")
    click.echo('Next: mnemic memory add "a fact worth keeping"   then: mnemic memory show')
