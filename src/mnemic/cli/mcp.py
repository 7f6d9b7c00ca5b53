"""``mnemic mcp``: serve the memory, session search and skills to MCP clients."""

from __future__ import annotations

import sys

import click

from ..home import Home
from .app import AppContext, handle_errors

__all__ = ["mcp"]

_LEVELS = ("debug", "info", "warning", "error")


@click.command(name="mcp")
@click.option("--http", "use_http", is_flag=True, help="Serve streamable HTTP instead of stdio.")
@click.option(
    "--host",
    metavar="HOST",
    help="Address for --http (default: [mcp] host, 127.0.0.1). Anything but loopback "
    "needs a token.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    metavar="N",
    help="Port for --http (default: [mcp] port, 8765; 0 picks a free one).",
)
@click.option(
    "--token",
    metavar="TOKEN",
    help="Bearer token HTTP clients must send, 32+ characters (default: $MNEMIC_MCP_TOKEN, "
    "[mcp] token). Prefer the variable: arguments show in the process list.",
)
@click.option(
    "--home",
    "home_path",
    metavar="PATH",
    help="Home directory (default: $MNEMIC_HOME, else the platform data dir).",
)
@click.option("--profile", metavar="NAME", help="Isolated profile beneath the home.")
@click.option(
    "--log-level",
    type=click.Choice(_LEVELS),
    default="warning",
    show_default=True,
    help="Log level (logs go to stderr).",
)
@click.pass_context
@handle_errors
def mcp(
    ctx: click.Context,
    use_http: bool,
    host: str | None,
    port: int | None,
    token: str | None,
    home_path: str | None,
    profile: str | None,
    log_level: str,
) -> None:
    """Serve memory, session search and skills to MCP clients (stdio by default).

    Tools: memory, session_search, skills_list, skill_view, skill_manage. Resources:
    mnemic://memory, mnemic://user, mnemic://skills, mnemic://skills/{name}. Prompt:
    memory_context. Writes follow [approval] memory_mcp and skills_mcp.

    With stdio, stdout carries only the protocol; logs go to stderr. MCP clients start
    servers with a bare environment, so give the home explicitly (MNEMIC_HOME in the
    client's "env", or --home).

    \b
    Examples:
      mnemic mcp                                   stdio, for a client config
      mnemic --home ~/agent mcp                    another home
      mnemic mcp --http --port 8765                http://127.0.0.1:8765/mcp
      MNEMIC_MCP_TOKEN=$(openssl rand -hex 24) mnemic mcp --http --host 0.0.0.0

    A bearer token must have at least 32 printable characters (no spaces); one is
    required to bind anything but loopback.
    """
    if not use_http and (host is not None or port is not None):
        raise click.UsageError("--host and --port only apply with --http")
    parent = ctx.find_object(AppContext)
    if home_path is None and parent is not None:
        home_path = parent.home_path
    if profile is None and parent is not None:
        profile = parent.profile
    home = Home.open(home_path, profile)
    from ..mcp_server.serve import serve  # needs the mcp extra: not on every command's path

    try:
        serve(home, http=use_http, host=host, port=port, token=token, log_level=log_level, say=_say)
    except KeyboardInterrupt:
        sys.exit(130)


def _say(line: str) -> None:
    click.echo(line, err=True)
