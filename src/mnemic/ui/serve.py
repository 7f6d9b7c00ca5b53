"""Serving the console: check the token, bind, say where, open a browser, serve."""

from __future__ import annotations

import contextlib
import html
import logging
import os
import pathlib
import threading
import webbrowser
from collections.abc import Callable
from typing import Any

from ..extras import require_extra
from ..fsio import atomic_write_text
from ..home import Home
from ..ops.access_token import new_token
from ..ops.serving import bind, check_exposure, run_asgi, url_of

__all__ = ["DEFAULT_PORT", "TOKEN_HOW", "opener_page", "serve_ui", "ui_url"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 8767
TOKEN_HOW = "MNEMIC_UI_TOKEN=<token> or --token-file FILE"


def ui_url(base: str, token: str) -> str:
    """The address to open: the console's root, with the token once."""
    return f"{base}?token={token}"


def serve_ui(
    home: Home,
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    token: str = "",
    ready: Callable[[str], Any] | None = None,
    open_browser: bool = False,
    log_level: str = "warning",
) -> None:
    """Serve the console of ``home`` until interrupted.

    Every request needs the token, on every address (loopback too: every local user can
    connect to it); without one (``token=""``) a random token is made for this run, so
    only whoever is given the address can get in. Raises
    :class:`~mnemic.errors.ConfigError` for a weak ``token``,
    :class:`~mnemic.errors.McpServerError` when the address cannot be bound,
    :class:`~mnemic.errors.MissingDependency` without the ``ui`` extra. ``ready`` is
    called with the address to open (token included) once the socket listens; ``port``
    0 picks a free port. ``open_browser`` starts the browser on a private page in the
    home that leads to that address, never on the address itself: a browser's command
    line is visible to every user (``ps``).
    """
    require_extra("ui", "The web console (mnemic ui)")
    token = token or new_token()
    check_exposure(host, token, key="ui.token", how=TOKEN_HOW, source="mnemic ui")
    from .app import build_app
    from .security import Access

    sock = bind(host, port, service="the web console")
    actual = sock.getsockname()[1]
    app = build_app(home, Access(host, actual, token))
    url = ui_url(url_of(sock, "/"), token)
    if ready is not None:
        ready(url)
    opener = os.path.join(home.root, f"ui-open-{actual}.html") if open_browser else None
    if opener is not None:
        threading.Thread(target=_open, args=(opener, url), daemon=True).start()
    try:
        run_asgi(app, sock, lifespan="off", log_level=log_level)
    finally:
        if opener is not None:
            with contextlib.suppress(OSError):
                os.unlink(opener)


def opener_page(url: str) -> str:
    """The page the browser is opened on: it sends the browser on to ``url``."""
    target = html.escape(url, quote=True)
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0;url={target}"><title>mnemic ui</title>'
        f'</head><body><p><a href="{target}">Open the mnemic console</a></p></body></html>\n'
    )


def _open(opener: str, url: str) -> None:
    """Write :func:`opener_page` (0600, in the private home) and open it: the browser
    is given the page's path, never the token."""
    try:
        atomic_write_text(opener, opener_page(url))
        webbrowser.open(pathlib.Path(opener).as_uri())
    except Exception as exc:  # no browser here: the address was printed anyway
        log.info("could not open a browser: %s", exc)
