"""The rules every local HTTP server of mnemic follows: loopback by default, a strong
token on every address (loopback included: every local user can reach it), a socket
bound before serving (a taken port is a clear error).

Shared by the MCP server over HTTP (``mnemic mcp --http``) and the web console
(``mnemic ui``), so both refuse the same exposures with the same words, and both are
served by :func:`run_asgi` (uvicorn, imported only when serving). Where the token comes
from is :mod:`.access_token`.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any, Literal

from ..errors import ConfigError, McpServerError

__all__ = [
    "MIN_TOKEN_CHARS",
    "TOKEN_RECIPE",
    "bind",
    "check_exposure",
    "is_loopback",
    "token_problem",
    "url_of",
]

MIN_TOKEN_CHARS = 32
"""Shortest token accepted (``secrets.token_urlsafe(32)`` gives 43 characters)."""
TOKEN_RECIPE = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'

_MCP_HOW = "MNEMIC_MCP_TOKEN=<token> or --token-file FILE (or [mcp] token in config.toml)"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (``localhost``, ``127.0.0.0/8``, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


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


def check_exposure(
    host: str,
    token: str,
    *,
    key: str = "mcp.token",
    how: str = _MCP_HOW,
    source: str = "mnemic mcp --http",
) -> None:
    """Refuse to serve on ``host`` without a token, or with a weak one.

    A token is needed on every address, loopback included: any local process of any
    user can connect to ``127.0.0.1``. An empty ``token`` means none; anything else must
    pass :func:`token_problem`. ``key``, ``how`` (where the user sets a token) and
    ``source`` word the error for the command at hand.
    """
    if token:
        problem = token_problem(token)
        if problem is None:
            return
        raise ConfigError(
            key,
            f"{problem}. Generate one with: {TOKEN_RECIPE} and set it with {how}.",
            source=source,
        )
    where = "every local user" if is_loopback(host) else "anyone who can reach this port"
    raise ConfigError(
        key,
        f"serving on {host!r} needs a bearer token, or {where} could read and write this "
        f"memory. Generate one with: {TOKEN_RECIPE} and set it with {how}.",
        source=source,
    )


def bind(host: str, port: int, *, service: str = "MCP") -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE | socket.AI_NUMERICSERV
        )
    except socket.gaierror as exc:
        raise McpServerError(
            host, port, f"cannot resolve the address ({exc.strerror})", service=service
        ) from exc
    infos.sort(key=lambda info: info[0] != socket.AF_INET)  # "localhost": 127.0.0.1 first
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise McpServerError(
            host, port, exc.strerror or str(exc), errno=exc.errno, service=service
        ) from exc
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket, path: str = "/") -> str:
    """The URL of ``path`` on a bound socket (``http://127.0.0.1:8765/mcp``)."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def run_asgi(
    app: Any, sock: socket.socket, *, lifespan: Literal["on", "off"], log_level: str = "warning"
) -> None:
    """Serve the ASGI ``app`` on the listening ``sock`` with uvicorn until interrupted,
    then close the socket (what ``mnemic mcp --http`` and ``mnemic ui`` both run).

    A client has :data:`~.http_guards.HEAD_SECONDS` to send a request's head and then
    :data:`~.http_guards.BODY_SECONDS` for its body (:mod:`.http_guards`): a
    connection that sends nothing is closed, so connections held open without a request
    cannot use up the process's file descriptors (which any local user could do without
    the token), and a ``401`` closes its connection; the soft limit of open files is
    raised to the hard one, and a refused
    ``accept()`` or a client gone mid-body is one log line, not a traceback each."""
    import uvicorn

    from .http_guards import (
        close_after_refusal,
        protocol_with_deadlines,
        quiet_transport_log,
        raise_descriptor_limit,
    )

    raise_descriptor_limit()
    quiet_transport_log()
    config = uvicorn.Config(
        close_after_refusal(app),
        http=protocol_with_deadlines(),
        log_config=None,
        log_level=log_level,
        access_log=False,
        lifespan=lifespan,
        timeout_graceful_shutdown=3,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
