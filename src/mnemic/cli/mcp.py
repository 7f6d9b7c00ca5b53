"""``mnemic mcp``: serve the memory, session search and skills to MCP clients."""

from __future__ import annotations

import sys

import click

from ..home import Home, home_dir
from .app import AppContext, handle_errors, refuse_foreign_home

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
    "--token-file",
    metavar="FILE",
    help="Read the bearer token (32+ characters) from FILE, a file only you can read "
    "(default: $MNEMIC_MCP_TOKEN, [mcp] token, else <home>/mcp.token, created once).",
)
@click.option(
    "--token",
    metavar="TOKEN",
    help="Bearer token on the command line: every user sees it in ps (a warning says so); "
    "use --token-file or $MNEMIC_MCP_TOKEN.",
)
@click.option(
    "--home",
    "home_path",
    metavar="PATH",
    help="Home directory (default: $MNEMIC_HOME, else the platform data dir).",
)
@click.option("--profile", metavar="NAME", help="Isolated profile beneath the home.")
@click.option(
    "--project",
    metavar="DIR",
    envvar="MNEMIC_PROJECT",
    help='Also serve the memory of project DIR: the memory tool\'s scope="project" '
    "($MNEMIC_PROJECT).",
)
@click.option(
    "--any-project",
    is_flag=True,
    help="Let each memory call name its project's directory (the tool's project argument): "
    "one server for every project.",
)
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
    token_file: str | None,
    token: str | None,
    home_path: str | None,
    profile: str | None,
    project: str | None,
    any_project: bool,
    log_level: str,
) -> None:
    """Serve memory, session search and skills to MCP clients (stdio by default).

    Tools: memory, session_search, skills_list, skill_view, skill_manage. Resources:
    mnemic://memory, mnemic://user (each also /long: with provenance, and /archive),
    mnemic://archive, mnemic://skills, mnemic://skills/{name}. Prompt: memory_context.
    Writes follow [approval] memory_mcp and skills_mcp.

    With stdio, stdout carries only the protocol; logs go to stderr. MCP clients start
    servers with a bare environment, so give the home explicitly (MNEMIC_HOME in the
    client's "env", or --home).

    Over HTTP every request must carry "Authorization: Bearer <token>", on loopback too
    (every local user can reach 127.0.0.1). Without --token-file or MNEMIC_MCP_TOKEN the
    token is the one in <home>/mcp.token (created once, readable by you only; the start
    line names the file): give it to the client's configuration.

    \b
    Examples:
      mnemic mcp                                   stdio, for a client config
      mnemic --home ~/agent mcp                    another home
      mnemic mcp --http --port 8765                http://127.0.0.1:8765/mcp
      mnemic mcp --http --token-file ~/.mnemic-token --host 0.0.0.0

    A bearer token must have at least 32 printable characters (no spaces).
    """
    from ..ops.access_token import http_only

    misplaced = http_only(use_http, host=host, port=port, token=token, token_file=token_file)
    if misplaced:  # a usage error first, before the SDK it may lack is imported
        raise click.UsageError(misplaced)
    # needs the mcp extra: not on every command's path
    from ..mcp_server.serve import TOKEN_IN_ARGV, serve

    parent = ctx.find_object(AppContext)
    if home_path is None and parent is not None:
        home_path = parent.home_path
    if profile is None and parent is not None:
        profile = parent.profile
    if project is None and parent is not None:  # `mnemic --project DIR mcp`
        project = parent.project
    refuse_foreign_home(home_dir(home_path, profile))  # as init and the first write
    home = Home.open(home_path, profile)
    if token is not None:
        _say(TOKEN_IN_ARGV)
    try:
        serve(
            home,
            http=use_http,
            host=host,
            port=port,
            token=token,
            token_file=token_file,
            log_level=log_level,
            say=_say,
            project=project,
            any_project=any_project,
        )
    except KeyboardInterrupt:
        sys.exit(130)


def _say(line: str) -> None:
    click.echo(line, err=True)
