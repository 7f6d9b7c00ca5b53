"""Streamable HTTP for the MCP server: bearer token, ``/metrics``, loopback by default.

:func:`build_http_app` returns the ASGI app (the SDK's streamable HTTP app at ``/mcp``,
``/metrics`` when ``[metrics] enabled``, all behind the bearer token when one is given:
an app mounted in another server may leave access to it); :func:`serve_http` refuses to
serve without a token, binds the socket first (so a taken port is a clear error, and
port 0 picks a free one) and serves it with uvicorn.
"""

from __future__ import annotations

import hmac
import logging
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from ..ops.serving import (
    MIN_TOKEN_CHARS,
    bind,
    check_exposure,
    is_loopback,
    run_asgi,
    token_problem,
    url_of as _url_of,
)
from ..ops.stats import metrics_text

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp, Receive, Scope, Send

    from .server import MnemicMCP

__all__ = [
    "MAX_BODY_BYTES",
    "MCP_PATH",
    "METRICS_PATH",
    "MIN_TOKEN_CHARS",
    "TOO_LARGE",
    "BearerAuth",
    "bind",
    "build_http_app",
    "check_exposure",
    "explain_too_large",
    "is_loopback",
    "serve_http",
    "token_problem",
    "url_of",
]

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
METRICS_PATH = "/metrics"
MAX_BODY_BYTES = 4 * 1024 * 1024
"""The largest request body ``/mcp`` reads (the SDK's default, said here so that the
``413`` can name it); a larger one is answered :data:`TOO_LARGE`."""
TOO_LARGE = (
    f"Request body too large: mnemic mcp --http reads at most 4 MiB "
    f"({MAX_BODY_BYTES:,} bytes) per request, and this one declared or sent more. Nothing "
    "was done. Send smaller requests: a memory call is a few KiB at most (MEMORY.md holds "
    "2,200 chars by default); split a large batch of calls into several requests.\n"
)


class BearerAuth:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``.

    The scheme is matched case-insensitively (``bearer`` is the same scheme, RFC 9110);
    the token is compared in constant time. A missing or wrong token gets ``401`` with
    ``WWW-Authenticate: Bearer``, before the request reaches anything else.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode()

    def _matches(self, header: bytes) -> bool:
        scheme, _, credentials = header.strip().partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(
            credentials.strip(b" "), self._token
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = [v for k, v in scope.get("headers", ()) if k.lower() == b"authorization"]
        if len(given) == 1 and self._matches(given[0]):
            await self.app(scope, receive, send)
            return

        reason = "missing" if not given else "wrong"
        response = JSONResponse(
            {
                "error": "invalid_token",
                "error_description": f"Bearer token {reason}: send 'Authorization: Bearer "
                "<token>' with the token this server was started with (by default the one "
                "in the home's mcp.token file; see `mnemic mcp --help`).",
            },
            status_code=401,
            headers={"WWW-Authenticate": 'Bearer realm="mnemic", error="invalid_token"'},
        )
        await response(scope, receive, send)


def build_http_app(mcp: MnemicMCP, *, host: str = "127.0.0.1", token: str = "") -> ASGIApp:
    """The ASGI app: MCP at ``/mcp``, ``/metrics`` when enabled, behind ``token`` if set."""
    routes: list[Route] = []
    if mcp.home.settings.metrics.enabled:

        async def metrics(request: Request) -> Response:
            text = await anyio.to_thread.run_sync(metrics_text, mcp.home)
            return PlainTextResponse(text, media_type="text/plain; version=0.0.4; charset=utf-8")

        routes.append(Route(METRICS_PATH, metrics, methods=["GET"]))
    app: ASGIApp = mcp.server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        host=host,
        custom_starlette_routes=routes,
        max_request_body_size=MAX_BODY_BYTES,
    )
    app = explain_too_large(app)
    return BearerAuth(app, token) if token else app


def explain_too_large(app: ASGIApp) -> ASGIApp:
    """The ASGI ``app``, its ``413`` answers (the SDK's body limit: "Request body too
    large", no more) said as :data:`TOO_LARGE` (the limit and what to do), closing the
    connection (the rest of the body is never read)."""

    async def explained(scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return
        replaced = False

        async def send_explained(message: Any) -> None:
            nonlocal replaced
            if message.get("type") == "http.response.start" and message.get("status") == 413:
                replaced = True
                body = TOO_LARGE.encode("utf-8")
                headers = [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode("ascii")),
                    (b"connection", b"close"),
                ]
                await send({**message, "headers": headers})
                await send({"type": "http.response.body", "body": body, "more_body": False})
            elif not replaced:  # the SDK's own body of a replaced 413 is dropped
                await send(message)

        await app(scope, receive, send_explained)

    return explained


def url_of(sock: socket.socket) -> str:
    """The MCP endpoint URL of a bound socket."""
    return _url_of(sock, MCP_PATH)


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

    Raises :class:`~mnemic.errors.ConfigError` without a ``token`` or with a weak one
    (on every address: loopback answers every local user), and
    :class:`~mnemic.errors.McpServerError` when the address cannot be bound. ``sock``
    is a socket already bound with :func:`bind` (then ``port`` is not used). ``ready``
    is called with the endpoint URL once the socket listens.
    """
    check_exposure(host, token)
    if sock is None:
        sock = bind(host, port)
    app = build_http_app(mcp, host=host, token=token)
    if ready is not None:
        ready(url_of(sock))
    try:
        run_asgi(app, sock, lifespan="on", log_level=log_level)
    finally:
        mcp.close()
