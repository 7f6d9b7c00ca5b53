"""The console's ASGI app: the routes of every page, the static files, the live version
endpoint, all behind the :class:`~.security.Guard`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..extras import needs_extra
from ..home import Home
from . import archive, governance, memory, sessions, skills, tidy
from .console import Console, see_other
from .render import error_response
from .security import Access, Guard

with needs_extra("ui", "The web console (mnemic ui)"):
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Route

if TYPE_CHECKING:
    from starlette.types import ASGIApp

__all__ = ["build_app"]

STATIC = Path(__file__).parent / "static"
_STATIC_TYPES = {"ui.css": "text/css", "ui.js": "text/javascript"}


async def _static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in _STATIC_TYPES:
        return error_response(404, "Not found", "No such file.")
    return FileResponse(STATIC / name, media_type=_STATIC_TYPES[name])


async def _version(request: Request) -> Response:
    ui: Console = request.app.state.console
    return JSONResponse({"version": await run_in_threadpool(ui.version)})


async def _root(request: Request) -> Response:
    return see_other("/memory")


async def _not_found(request: Request, exc: Exception) -> Response:
    return error_response(
        404,
        "Not found",
        f"There is no page at {request.url.path[:200]}: the address may be mistyped, or "
        "from an older version of the console.",
        request,
    )


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return error_response(405, "Method not allowed", "Use the page's own links and forms.", request)


def build_app(home: Home, access: Access) -> ASGIApp:
    """The console for ``home``, guarded by ``access``."""
    routes = [
        Route("/", _root),
        Route("/version", _version),
        Route("/static/{name}", _static),
        *memory.ROUTES,
        *archive.ROUTES,
        *governance.ROUTES,
        *tidy.ROUTES,
        *sessions.ROUTES,
        *skills.ROUTES,
    ]
    app = Starlette(routes=routes, exception_handlers={404: _not_found, 405: _not_allowed})
    app.state.console = Console(home, access)
    return Guard(app, access)
