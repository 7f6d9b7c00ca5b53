"""``mnemic init``: create a home. Commands that only read never create one."""

from __future__ import annotations

import os

import click

from ..home import home_dir
from .app import JSON_OPT, AppContext, emit_json, handle_errors, pass_app

__all__ = ["init"]


@click.command(name="init")
@JSON_OPT
@pass_app
@handle_errors
def init(app: AppContext, as_json: bool) -> None:
    """Create the home (private: mode 0700) where memory, history and skills will live.

    An existing home is left as it is. Any command that writes (`mnemic memory add`,
    `mnemic skills create`, `mnemic sessions import`, `mnemic chat`...) creates the home
    too; commands that only read never do, so a mistyped MNEMIC_HOME is an error there.
    """
    existed = os.path.isdir(home_dir(app.home_path, app.profile))
    root = app.home.root
    if as_json:
        emit_json({"home": str(root), "created": not existed})
        return
    if existed:
        click.echo(f"A mnemic home already exists at {root}; nothing was changed.")
    else:
        click.echo(f"Created a mnemic home at {root}.")
    click.echo('Next: mnemic memory add "a fact worth keeping"   then: mnemic memory show')
