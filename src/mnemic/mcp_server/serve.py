"""Serve one home to MCP clients: what ``mnemic mcp`` and ``python -m mnemic.mcp_server``
both run once they have parsed their options."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable

from ..config import served_home
from ..errors import ConfigError
from ..extras import require_store_extra
from ..home import Home
from ..ops.access_token import home_token, http_only, read_token_file

__all__ = ["LOG_LEVELS", "TOKEN_IN_ARGV", "http_only", "http_token", "serve"]

LOG_LEVELS = ("debug", "info", "warning", "error")
TOKEN_IN_ARGV = (
    "mnemic mcp: warning: --token shows the token to every user of this machine (ps lists "
    "command lines); use --token-file FILE or MNEMIC_MCP_TOKEN=<token> instead"
)
"""What ``--token`` prints: the option is kept for existing scripts, not recommended."""


def http_token(
    home: Home, *, token: str | None = None, token_file: str | None = None
) -> tuple[str, str]:
    """The bearer token for HTTP clients and where it comes from (for the line a person
    sees): ``token`` (``--token``), else the file ``token_file``, else ``[mcp] token``
    (``MNEMIC_MCP_TOKEN``), else the home's ``mcp.token`` file, created on first use.

    Raises :class:`~mnemic.errors.ConfigError` when both ``token`` and ``token_file``
    are given, and as :func:`~mnemic.ops.access_token.read_token_file` does.
    """
    if token is not None and token_file is not None:
        raise ConfigError(
            "mcp.token", "give --token or --token-file, not both", source="mnemic mcp --http"
        )
    if token_file is not None:
        secret = read_token_file(token_file, key="mcp.token", source="--token-file")
        return secret, f"token in {token_file}"
    if token is not None:
        return token, "token from --token"
    if home.settings.mcp.token:
        return home.settings.mcp.token, "token from MNEMIC_MCP_TOKEN or [mcp] token"
    secret, path = home_token(home.root)
    return secret, f"token in {path}"


def serve(
    home: Home,
    *,
    http: bool = False,
    host: str | None = None,
    port: int | None = None,
    token: str | None = None,
    token_file: str | None = None,
    log_level: str = "warning",
    say: Callable[[str], None],
    project: str | None = None,
    any_project: bool = False,
) -> None:
    """Serve ``home`` over stdio, or over streamable HTTP with ``http`` (blocks); with
    ``project`` (a directory), that project's memory too (the tool's ``scope``); with
    ``any_project``, a memory call may name its project's directory (``project``).

    ``host`` and ``port`` default to the home's ``[mcp]`` settings; the token is
    :func:`http_token`'s (over HTTP every request must carry it, on every address). A
    weak token is refused before anything listens. ``say`` gets the one line a person
    sees (what is served where, and where the token is); logs go to stderr at
    ``log_level``. A home on PostgreSQL without the ``postgres`` extra is refused before
    anything is served (:class:`~mnemic.errors.MissingDependency`).
    """
    # here, not at the top: `python -m mnemic.mcp_server --help` and its option and
    # configuration errors answer without the MCP SDK (about 2 s of CPU)
    from .http import bind, check_exposure, serve_http
    from .server import MnemicMCP, serve_stdio

    # as every CLI command does: without the extra the server started, then failed each
    # memory and session call with the install hint
    require_store_extra(home.settings)
    _configure_logging(log_level)
    if not http:
        how = "waiting for an MCP client on stdin" + (
            " (this command is meant to be started by an MCP client; see --help)"
            if sys.stdin.isatty()
            else ""
        )
        server = MnemicMCP(home, project=project, any_project=any_project)
        served = served_home(home.root, home.settings) + _with_project(project, any_project)
        say(f"mnemic mcp: serving {served} over stdio, {how}")
        serve_stdio(server)
        return
    settings = home.settings.mcp
    bind_host = host if host is not None else settings.host
    bind_port = port if port is not None else settings.port
    secret, source = http_token(home, token=token, token_file=token_file)
    check_exposure(bind_host, secret)  # before anything slow: refusals are immediate
    sock = bind(bind_host, bind_port)

    def ready(url: str) -> None:
        extra = [f"bearer token required; {source}"]
        if home.settings.metrics.enabled:
            extra.append(f"metrics at {url.rsplit('/', 1)[0]}/metrics")
        note = f" ({'; '.join(extra)})" if extra else ""
        served = served_home(home.root, home.settings) + _with_project(project, any_project)
        say(f"mnemic mcp: serving {served} at {url}{note}")

    serve_http(
        MnemicMCP(home, project=project, any_project=any_project),
        host=bind_host,
        token=secret,
        log_level=log_level,
        ready=ready,
        sock=sock,
    )


def _configure_logging(level: str) -> None:
    root = logging.getLogger()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("mnemic mcp: %(levelname)s %(name)s: %(message)s"))
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def _with_project(project: str | None, any_project: bool) -> str:
    """Which project's memory the banner's server serves besides the home's global one
    (docs/first-week.md #88): the directory as the server resolves it."""
    if any_project:
        return " (and the project each memory call names)"
    if not project:
        return ""
    where = os.path.realpath(project) if os.path.isdir(project) else project
    return f" (and the memory of project {where})"
