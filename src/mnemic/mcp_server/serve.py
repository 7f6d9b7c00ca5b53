"""Serve one home to MCP clients: what ``mnemic mcp`` and ``python -m mnemic.mcp_server``
both run once they have parsed their options."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from ..home import Home
from .http import bind, check_exposure, serve_http
from .server import MnemicMCP, serve_stdio

__all__ = ["LOG_LEVELS", "serve"]

LOG_LEVELS = ("debug", "info", "warning", "error")


def serve(
    home: Home,
    *,
    http: bool = False,
    host: str | None = None,
    port: int | None = None,
    token: str | None = None,
    log_level: str = "warning",
    say: Callable[[str], None],
) -> None:
    """Serve ``home`` over stdio, or over streamable HTTP with ``http`` (blocks).

    ``host``, ``port`` and ``token`` default to the home's ``[mcp]`` settings. A weak
    token, or a non-loopback address without one, is refused before anything listens.
    ``say`` gets the one line a person sees (what is served where); logs go to stderr at
    ``log_level``.
    """
    _configure_logging(log_level)
    if not http:
        how = "waiting for an MCP client on stdin" + (
            " (this command is meant to be started by an MCP client; see --help)"
            if sys.stdin.isatty()
            else ""
        )
        server = MnemicMCP(home)
        say(f"mnemic mcp: serving {home.root} over stdio, {how}")
        serve_stdio(server)
        return
    settings = home.settings.mcp
    bind_host = host if host is not None else settings.host
    bind_port = port if port is not None else settings.port
    secret = token if token is not None else settings.token
    check_exposure(bind_host, secret)  # before anything slow: refusals are immediate
    sock = bind(bind_host, bind_port)

    def ready(url: str) -> None:
        extra = []
        if secret:
            extra.append("bearer token required")
        if home.settings.metrics.enabled:
            extra.append(f"metrics at {url.rsplit('/', 1)[0]}/metrics")
        note = f" ({'; '.join(extra)})" if extra else ""
        say(f"mnemic mcp: serving {home.root} at {url}{note}")

    serve_http(
        MnemicMCP(home), host=bind_host, token=secret, log_level=log_level, ready=ready, sock=sock
    )


def _configure_logging(level: str) -> None:
    root = logging.getLogger()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("mnemic mcp: %(levelname)s %(name)s: %(message)s"))
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
