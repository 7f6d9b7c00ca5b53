"""``mnemic ui``: the local web console."""

from __future__ import annotations

import logging
import os
import signal
import sys
from types import FrameType

import click

from ..config import served_home
from ..home import Home, home_dir
from ..ops.access_token import read_token_file
from .app import AppContext, handle_errors, refuse_foreign_home

__all__ = ["ui"]


@click.command(name="ui")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    metavar="HOST",
    help="Address to serve on (every address needs the token).",
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
    metavar="FILE",
    help="Read the access token (32+ characters) from FILE, a file only you can read "
    "(default: $MNEMIC_UI_TOKEN, else a random token for this run).",
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
    token_file: str | None,
    home_path: str | None,
    profile: str | None,
) -> None:
    """Open the web console: memory, archive, approvals, tidy, audit, sessions, skills, prompt.

    Served by mnemic itself on http://127.0.0.1:8767/ (loopback; nothing leaves this
    machine and the page makes no third-party request). Writes made in the console are
    the actor "ui" ([approval] memory_ui, skills_ui).

    Only you get in: the first line on stdout is the address with a token
    (?token=..., random for each run unless MNEMIC_UI_TOKEN or --token-file gives one);
    the browser opened on it keeps a session cookie. Anyone else, other users of this
    machine included, gets 401.

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
        token = read_token_file(token_file, key="ui.token", source="--token-file")
    refuse_foreign_home(home_dir(home_path, profile))  # as init and the first write
    home = Home.open(home_path, profile)
    from ..extras import require_store_extra

    require_store_extra(home.settings)  # not a console whose every page fails on it
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    from ..ui.serve import serve_ui

    def ready(url: str) -> None:
        click.echo(url)
        sys.stdout.flush()
        base = url.split("?", 1)[0]
        click.echo(
            f"mnemic ui: serving {served_home(home.root, home.settings)} at {base}; open the "
            "address above, which carries the token (Ctrl-C stops)",
            err=True,
        )

    signal.signal(signal.SIGTERM, _terminated)  # stop as Ctrl-C does: clean up first
    try:
        serve_ui(home, host=host, port=port, token=token, ready=ready, open_browser=not no_browser)
    except KeyboardInterrupt:
        sys.exit(130)


def _terminated(signum: int, frame: FrameType | None) -> None:
    sys.exit(128 + signum)
