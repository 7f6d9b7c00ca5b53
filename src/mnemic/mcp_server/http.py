"""Streamable HTTP for the MCP server: bearer token, ``/metrics``, loopback by default.

:func:`build_http_app` returns the ASGI app (the SDK's streamable HTTP app at ``/mcp``,
``/metrics`` when ``[metrics] enabled``, all behind the bearer token when one is set);
:func:`serve_http` binds the socket first (so a taken port is a clear error, and port 0
picks a free one) and serves it with uvicorn.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, McpServerError

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp, Receive, Scope, Send

    from .server import MnemicMCP

__all__ = [
    "MCP_PATH",
    "METRICS_PATH",
    "MIN_TOKEN_CHARS",
    "BearerAuth",
    "bind",
    "build_http_app",
    "check_exposure",
    "is_loopback",
    "serve_http",
    "token_problem",
    "url_of",
]

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
METRICS_PATH = "/metrics"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (``localhost``, ``127.0.0.0/8``, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


MIN_TOKEN_CHARS = 32
"""Shortest bearer token accepted (``secrets.token_urlsafe(32)`` gives 43 characters)."""
TOKEN_RECIPE = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'


def token_problem(token: str) -> str | None:
    """What makes ``token`` unfit as a bearer token (blank, spaces, too short), or None."""
    if not token.strip():
        return "the bearer token is blank"
    if not all(c.isascii() and c.isprintable() and not c.isspace() for c in token):
        return "the bearer token may only hold printable ASCII characters, without spaces"
    if len(token) < MIN_TOKEN_CHARS:
        return (
            f"the bearer token has {len(token)} character(s); at least {MIN_TOKEN_CHARS} "
            "are needed so that it cannot be guessed"
        )
    return None


def check_exposure(host: str, token: str) -> None:
    """Refuse a weak bearer token, and a non-loopback address without a token.

    An empty ``token`` means none; anything else must pass :func:`token_problem`.
    """
    if token:
        problem = token_problem(token)
        if problem is None:
            return
        raise ConfigError(
            "mcp.token",
            f"{problem}. Generate one with: {TOKEN_RECIPE} and set it with "
            "MNEMIC_MCP_TOKEN=<token> (or [mcp] token in config.toml, or --token).",
            source="mnemic mcp --http",
        )
    if is_loopback(host):
        return
    raise ConfigError(
        "mcp.token",
        f"serving on {host!r} (not loopback) needs a bearer token, or anyone who can reach "
        "this port could read and write this memory. Generate one with: "
        f"{TOKEN_RECIPE} and set it with MNEMIC_MCP_TOKEN=<token> (or [mcp] token in "
        "config.toml, or --token), or bind to 127.0.0.1.",
        source="mnemic mcp --http",
    )


class BearerAuth:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``.

    A missing or wrong token gets ``401`` with ``WWW-Authenticate: Bearer``; the token
    is compared in constant time.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = [v for k, v in scope.get("headers", ()) if k.lower() == b"authorization"]
        if len(given) == 1 and hmac.compare_digest(given[0], self._expected):
            await self.app(scope, receive, send)
            return
        from starlette.responses import JSONResponse

        reason = "missing" if not given else "wrong"
        response = JSONResponse(
            {
                "error": "invalid_token",
                "error_description": f"Bearer token {reason}: send 'Authorization: Bearer "
                "<token>' with the token this server was started with (MNEMIC_MCP_TOKEN).",
            },
            status_code=401,
            headers={"WWW-Authenticate": 'Bearer realm="mnemic", error="invalid_token"'},
        )
        await response(scope, receive, send)


def build_http_app(mcp: MnemicMCP, *, host: str = "127.0.0.1", token: str = "") -> ASGIApp:
    """The ASGI app: MCP at ``/mcp``, ``/metrics`` when enabled, behind ``token`` if set."""
    import anyio.to_thread
    from starlette.routing import Route

    routes: list[Route] = []
    if mcp.home.settings.metrics.enabled:
        from ..ops.stats import metrics_text

        async def metrics(request: Request) -> Response:
            from starlette.responses import PlainTextResponse

            text = await anyio.to_thread.run_sync(metrics_text, mcp.home)
            return PlainTextResponse(text, media_type="text/plain; version=0.0.4; charset=utf-8")

        routes.append(Route(METRICS_PATH, metrics, methods=["GET"]))
    app: ASGIApp = mcp.server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, custom_starlette_routes=routes
    )
    return BearerAuth(app, token) if token else app


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE | socket.AI_NUMERICSERV
        )
    except socket.gaierror as exc:
        raise McpServerError(host, port, f"cannot resolve the address ({exc.strerror})") from exc
    infos.sort(key=lambda info: info[0] != socket.AF_INET)  # "localhost": 127.0.0.1 first
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise McpServerError(host, port, exc.strerror or str(exc), errno=exc.errno) from exc
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The MCP endpoint URL of a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{MCP_PATH}"


def serve_http(
    mcp: MnemicMCP,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    token: str = "",
    log_level: str = "warning",
    ready: Callable[[str], Any] | None = None,
    sock: socket.socket | None = None,
) -> None:
    """Serve ``mcp`` over streamable HTTP until interrupted.

    Raises :class:`~mnemic.errors.ConfigError` for a non-loopback ``host`` without a
    ``token``, and :class:`~mnemic.errors.McpServerError` when the address cannot be
    bound. ``sock`` is a socket already bound with :func:`bind` (then ``port`` is not
    used). ``ready`` is called with the endpoint URL once the socket listens.
    """
    import uvicorn

    check_exposure(host, token)
    if sock is None:
        sock = bind(host, port)
    app = build_http_app(mcp, host=host, token=token)
    config = uvicorn.Config(
        app,
        log_config=None,
        log_level=log_level,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=3,
    )
    server = uvicorn.Server(config)
    if ready is not None:
        ready(url_of(sock))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        mcp.close()
