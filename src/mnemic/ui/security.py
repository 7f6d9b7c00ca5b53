"""What stands between a browser and the home: Host and Origin checks, the access token,
CSRF tokens on every form, and the headers every response carries.

:class:`Guard` is an ASGI middleware wrapped around the whole app (outermost), so every
response, error pages included, gets the same headers, and no request reaches a page
unless:

- its ``Host`` header names the bound address and port (a DNS-rebinding page on another
  name gets ``400``); a server bound to every address (``0.0.0.0``) accepts IP literals
  and ``localhost`` only, never a name that could be rebound;
- its ``Origin``, when the browser sends one, is this server's own, and the browser
  does not mark it cross-site (``Sec-Fetch-Site``; else ``403``);
- it carries a valid session cookie, or it brings the token as ``?token=`` once, which
  is answered with a redirect to a path of this console that sets the cookie and drops
  the token from the address bar (for a browser coming from another site, a page that
  moves on by itself: see :func:`_move_on`). Anything else gets ``401``: there is always a token
  (on loopback too: every local user can connect to ``127.0.0.1``).

The session cookie is named after the port (``mnemic_ui_8767``: browsers send a host's
cookies to every port of it, so two consoles must not share a name) and holds the time it
was issued with an HMAC of a per-process secret: it is worth nothing to another run of the
console, expires after :data:`SESSION_SECONDS` (``Max-Age`` for the browser, checked by
the server too), and is ``HttpOnly; SameSite=Strict; Path=/``.

Forms carry a CSRF token (:meth:`Access.csrf`), an HMAC of the same secret; every POST is
checked by the page layer (:func:`.console.endpoint`) before anything runs.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote, urlencode

from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import ConfigError
from ..ops.serving import is_loopback
from .render import error_response

__all__ = ["CSP", "SECURITY_HEADERS", "SESSION_SECONDS", "Access", "Guard", "local_path"]

SESSION_SECONDS = 12 * 3600
"""How long a session cookie is good for (then open the printed address again)."""
CSP = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)
_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
_WILDCARDS = ("0.0.0.0", "::", "[::]", "")


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def local_path(path: str) -> str:
    """``path`` as a path of this server: ``//evil.example/x`` (or ``/\\evil.example``,
    which browsers read the same way) would make a redirect leave the console."""
    return "/" + path.lstrip("/\\")


@dataclass
class Access:
    """Who may talk to this server: the bound address, the token, and the per-process
    secret that signs session cookies and CSRF tokens."""

    host: str
    port: int
    token: str
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    session_seconds: int = SESSION_SECONDS
    clock: Callable[[], float] = time.monotonic
    """Seconds for cookie ages; monotonic: a cookie lives no longer than this process."""

    def __post_init__(self) -> None:
        if not self.token:
            raise ConfigError(
                "ui.token", "the console needs a token (serve_ui makes one when none is given)"
            )

    def host_allowed(self, header: str) -> bool:
        """Whether a ``Host`` header names this server (see the module docstring)."""
        name, sep, port = header.strip().lower().rpartition(":")
        if not sep or "]" in port or port != str(self.port):
            return False
        bound = _bracket(self.host.lower())
        if name == bound:
            return True
        if is_loopback(self.host) and name in _LOOPBACK_NAMES:
            return True
        return self.host in _WILDCARDS and (name == "localhost" or _is_ip_literal(name))

    def origin_allowed(self, origin: str, host_header: str, fetch_site: str | None) -> bool:
        """Whether a request's ``Origin`` is this server's own (the page's own host).

        ``Origin: null`` is what a browser sends for a form posted from a page served
        with ``Referrer-Policy: no-referrer`` (ours): it passes only when the browser
        also says ``Sec-Fetch-Site: same-origin`` (a header no page can set). A request
        a browser marks cross-site or same-site is refused whatever its Origin.
        """
        if fetch_site is not None and fetch_site.strip().lower() not in ("same-origin", "none"):
            return False
        origin = origin.strip().lower()
        if origin == "null":
            return fetch_site is not None and fetch_site.strip().lower() == "same-origin"
        return hmac.compare_digest(origin, f"http://{host_header.strip().lower()}")

    @property
    def cookie_name(self) -> str:
        """The session cookie's name, which holds the port (``mnemic_ui_8767``)."""
        return f"mnemic_ui_{self.port}"

    def token_ok(self, given: str) -> bool:
        """Constant-time check of a token given in the URL."""
        return hmac.compare_digest(given.encode(), self.token.encode())

    def _sign(self, issued: str) -> str:
        return hmac.new(self.secret, b"session:" + issued.encode(), "sha256").hexdigest()

    def new_session(self) -> str:
        """A session cookie's value: when it was issued, and this process's HMAC of it."""
        issued = str(int(self.clock()))
        return f"{issued}.{self._sign(issued)}"

    def cookie_ok(self, given: str) -> bool:
        """Whether ``given`` is a session this process issued less than
        :attr:`session_seconds` ago (the HMAC compared in constant time)."""
        issued, sep, mac = given.partition(".")
        if not sep or len(issued) > 20 or not (issued.isascii() and issued.isdigit()):
            return False
        if not hmac.compare_digest(mac.encode(), self._sign(issued).encode()):
            return False
        return 0 <= self.clock() - int(issued) < self.session_seconds

    def csrf(self) -> str:
        """The CSRF token every form carries (an HMAC of this process's secret)."""
        return hmac.new(self.secret, b"csrf", "sha256").hexdigest()

    def csrf_ok(self, given: str) -> bool:
        """Whether a form's CSRF token is this process's (constant time)."""
        return hmac.compare_digest(given.encode(), self.csrf().encode())


def _move_on(location: str, fetch_site: str) -> Response:
    """The answer to the token: go to ``location`` (a path of this console). A browser
    that came from another site (the page ``mnemic ui`` opens is a local file) would not
    send a ``SameSite=Strict`` cookie along a redirect it started, so it gets a page
    that moves on by itself: a navigation this console's own page starts carries it."""
    if fetch_site.strip().lower() not in ("cross-site", "same-site"):
        return RedirectResponse(location, status_code=303)
    target = html.escape(location, quote=True)
    return HTMLResponse(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0;url={target}"><title>mnemic</title></head>'
        f'<body><p><a href="{target}">Continue to the console</a></p></body></html>\n'
    )


def _cookies(raw: str, name: str) -> list[str]:
    """Every value of the cookie ``name``: a page on another port of this host may have
    set one of the same name, which the browser sends beside ours."""
    out: list[str] = []
    for part in raw.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            out.append(value)
    return out


class Guard:
    """ASGI middleware enforcing :class:`Access` and adding the security headers."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in {name for name, _ in SECURITY_HEADERS}
                ]
                message = {**message, "headers": [*headers, *SECURITY_HEADERS]}
            await send(message)

        headers: dict[str, str] = {}
        for key, value in scope.get("headers", ()):
            name = key.decode("latin-1").lower()
            if name in headers and name in ("host", "origin"):
                headers[name] = "\x00"  # a repeated Host or Origin never matches
            else:
                headers.setdefault(name, value.decode("latin-1"))
        host = headers.get("host", "")
        if not self.access.host_allowed(host):
            await self._refuse(
                scope,
                receive,
                send_secured,
                400,
                "Unknown host",
                "This console only answers requests addressed to the address it was started "
                "on. Open the address `mnemic ui` printed.",
            )
            return
        origin = headers.get("origin")
        fetch_site = headers.get("sec-fetch-site")
        if scope.get("method") in ("GET", "HEAD") and origin is None:
            fetch_site = None  # a link followed from elsewhere reads a page, changes nothing
        if (origin is not None or fetch_site is not None) and not self.access.origin_allowed(
            origin if origin is not None else f"http://{host}", host, fetch_site
        ):
            await self._refuse(
                scope,
                receive,
                send_secured,
                403,
                "Cross-origin request refused",
                "A page from another site tried to use this console; nothing was done.",
            )
            return
        if not await self._authorised(scope, receive, send_secured, headers):
            return
        await self.app(scope, receive, send_secured)

    async def _authorised(
        self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str]
    ) -> bool:
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [v for k, v in query if k == "token"]
        if given:
            if len(given) == 1 and self.access.token_ok(given[0]):
                rest = urlencode([(k, v) for k, v in query if k != "token"])
                location = quote(local_path(scope.get("path", "/"))) + (f"?{rest}" if rest else "")
                response = _move_on(location, headers.get("sec-fetch-site", ""))
                response.set_cookie(
                    self.access.cookie_name,
                    self.access.new_session(),
                    max_age=self.access.session_seconds,
                    httponly=True,
                    samesite="strict",
                    path="/",
                )
                await response(scope, receive, send)
                return False
        elif any(
            self.access.cookie_ok(value)
            for value in _cookies(headers.get("cookie", ""), self.access.cookie_name)
        ):
            return True
        await self._refuse(
            scope,
            receive,
            send,
            401,
            "Token required",
            "Only the person who started this console can use it. Open the address "
            "`mnemic ui` printed (it ends in ?token=...): the browser then keeps a session "
            f"cookie for {self.access.session_seconds // 3600} hours, or until the console "
            "stops.",
        )
        return False

    @staticmethod
    async def _refuse(
        scope: Scope, receive: Receive, send: Send, status: int, title: str, detail: str
    ) -> None:
        await error_response(status, title, detail)(scope, receive, send)
