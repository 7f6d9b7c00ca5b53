"""``mnemic ui``: the local web console."""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

import click

from ..home import Home
from .app import AppContext, handle_errors

__all__ = ["ui"]


@click.command(name="ui")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    metavar="HOST",
    help="Address to serve on. Anything but loopback needs a token.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8767,
    show_default=True,
    metavar="N",
    help="Port (0 picks a free one).",
)
@click.option("--no-browser", is_flag=True, help="Only print the address; do not open it.")
@click.option(
    "--token-file",
    type=click.File("r", encoding="utf-8"),
    metavar="FILE",
    help="Read the access token (32+ characters) from FILE (default: $MNEMIC_UI_TOKEN).",
)
@click.option("--home", "home_path", metavar="PATH", help="Home directory.")
@click.option("--profile", metavar="NAME", help="Isolated profile beneath the home.")
@click.pass_context
@handle_errors
def ui(
    ctx: click.Context,
    host: str,
    port: int,
    no_browser: bool,
    token_file: TextIO | None,
    home_path: str | None,
    profile: str | None,
) -> None:
    """Open the web console: memory, pending approvals, audit, sessions, skills, prompt.

    Served by mnemic itself on http://127.0.0.1:8767/ (loopback; nothing leaves this
    machine and the page makes no third-party request). Writes made in the console are
    the actor "ui" ([approval] memory_ui, skills_ui).

    \b
    Examples:
      mnemic ui                          open the console in the browser
      mnemic ui --no-browser --port 0    print the address of a free port
      mnemic ui --host 0.0.0.0 --token-file ~/.mnemic-ui-token
    """
    parent = ctx.find_object(AppContext)
    if home_path is None and parent is not None:
        home_path = parent.home_path
    if profile is None and parent is not None:
        profile = parent.profile
    token = os.environ.get("MNEMIC_UI_TOKEN", "")
    if token_file is not None:
        token = token_file.read().strip()
    home = Home.open(home_path, profile)
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    from ..ui.serve import serve_ui

    def ready(url: str) -> None:
        click.echo(url)
        sys.stdout.flush()
        click.echo(f"mnemic ui: serving {home.root} at {url} (Ctrl-C stops)", err=True)

    try:
        serve_ui(home, host=host, port=port, token=token, ready=ready, open_browser=not no_browser)
    except KeyboardInterrupt:
        sys.exit(130)
