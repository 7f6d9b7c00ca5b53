"""Serving the console: check the exposure rules, bind, say where, open a browser, serve."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from ..extras import require_extra
from ..home import Home
from ..ops.serving import bind, check_exposure, run_asgi, url_of

__all__ = ["DEFAULT_PORT", "TOKEN_HOW", "serve_ui", "ui_url"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 8767
TOKEN_HOW = "MNEMIC_UI_TOKEN=<token> or --token-file FILE"


def ui_url(base: str, token: str) -> str:
    """The address to open: the console's root, with the token once when there is one."""
    return f"{base}?token={token}" if token else base


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

    Raises :class:`~mnemic.errors.ConfigError` for a non-loopback ``host`` without a
    ``token`` (or a weak token), :class:`~mnemic.errors.McpServerError` when the address
    cannot be bound, :class:`~mnemic.errors.MissingDependency` without the ``ui`` extra.
    ``ready`` is called with the address to open (token included) once the socket
    listens; ``port`` 0 picks a free port.
    """
    require_extra("ui", "The web console (mnemic ui)")
    check_exposure(host, token, key="ui.token", how=TOKEN_HOW, source="mnemic ui --host")
    from .app import build_app
    from .security import Access

    sock = bind(host, port, service="the web console")
    actual = sock.getsockname()[1]
    app = build_app(home, Access(host, actual, token))
    url = ui_url(url_of(sock, "/"), token)
    if ready is not None:
        ready(url)
    if open_browser:
        threading.Thread(target=_open, args=(url,), daemon=True).start()
    run_asgi(app, sock, lifespan="off", log_level=log_level)


def _open(url: str) -> None:
    import webbrowser

    try:
        webbrowser.open(url)
    except Exception as exc:  # no browser here: the address was printed anyway
        log.info("could not open a browser: %s", exc)
