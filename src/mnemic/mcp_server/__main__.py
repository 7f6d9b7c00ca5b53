"""``python -m mnemic.mcp_server [OPTIONS]``: the server of ``mnemic mcp [OPTIONS]``, with
the same options, started without the CLI (the server does not depend on it)."""

from __future__ import annotations

import sys

import click

from ..errors import ConfigError, MnemicError
from ..home import Home
from .serve import LOG_LEVELS, TOKEN_IN_ARGV, http_only, serve


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--http", "use_http", is_flag=True, help="Serve streamable HTTP instead of stdio.")
@click.option("--host", metavar="HOST", help="Address for --http (default: [mcp] host).")
@click.option("--port", type=click.IntRange(0, 65535), metavar="N", help="Port for --http.")
@click.option("--token-file", metavar="FILE", help="Read the bearer token from FILE.")
@click.option("--token", metavar="TOKEN", help="Bearer token (visible in ps: use --token-file).")
@click.option("--home", "home_path", metavar="PATH", help="Home directory ($MNEMIC_HOME).")
@click.option("--profile", metavar="NAME", help="Isolated profile beneath the home.")
@click.option("--log-level", type=click.Choice(LOG_LEVELS), default="warning", show_default=True)
def main(
    use_http: bool,
    host: str | None,
    port: int | None,
    token_file: str | None,
    token: str | None,
    home_path: str | None,
    profile: str | None,
    log_level: str,
) -> None:
    """Serve memory, session search and skills to MCP clients (stdio by default).

    The same as `mnemic mcp`; see `mnemic mcp --help` for the details.
    """
    misplaced = http_only(use_http, host=host, port=port, token=token, token_file=token_file)
    if misplaced:
        raise click.UsageError(misplaced)
    if token is not None:
        say(TOKEN_IN_ARGV)
    try:
        home = Home.open(home_path, profile)
        serve(
            home,
            http=use_http,
            host=host,
            port=port,
            token=token,
            token_file=token_file,
            log_level=log_level,
            say=say,
        )
    except KeyboardInterrupt:
        sys.exit(130)
    except MnemicError as exc:  # as the CLI reports it: a message, never a traceback
        say(f"mnemic: {exc.to_human()}")
        sys.exit(2 if isinstance(exc, ConfigError) else 1)


def say(line: str) -> None:
    """Print a line for a person (stderr: with stdio, stdout carries only the protocol)."""
    click.echo(line, err=True)


main(prog_name="python -m mnemic.mcp_server")
