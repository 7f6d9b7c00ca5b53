"""What every page shares: one :class:`Console` per served home (the home, who may
connect, the live version) and :func:`endpoint`, the wrapper every route goes through
(form parsing, the CSRF check, library errors turned into pages)."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Awaitable, Callable, Hashable
from urllib.parse import parse_qsl

from ..config import load_settings
from ..curated.memory import Memory
from ..curated.scope import stored_projects
from ..curated.view import MemoryView
from ..errors import (
    InvalidArgument,
    MnemicError,
    PendingNotFound,
    SessionNotFound,
    SkillNotFound,
    StoreUnreachable,
)
from ..extras import needs_extra
from ..home import Home
from ..ops.probe import MEMORY_URI, USER_URI, Probe
from .render import error_response
from .security import Access

with needs_extra("ui", "The web console (mnemic ui)"):
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import RedirectResponse, Response

__all__ = ["ACTOR", "Console", "Form", "Handler", "endpoint", "see_other"]

log = logging.getLogger(__name__)

ACTOR = "ui"
"""The actor (and origin) of every write made in the console: ``[approval] memory_ui``."""
MAX_FORM_BYTES = 1 << 20

_NOT_FOUND = (SessionNotFound, SkillNotFound, PendingNotFound)
Form = dict[str, str]
Handler = Callable[["Console", Request, Form], Response]


class Console:
    """What the pages share: the home, who may connect, and the live-change probe."""

    def __init__(self, home: Home, access: Access) -> None:
        self._home = home
        self._config = _config_stat(home)
        self.access = access
        self._probe = Probe(home)
        self._lock = threading.Lock()
        self._stats: dict[str, Hashable] = {}
        self._prints: dict[str, Hashable] = {}

    @property
    def home(self) -> Home:
        """The served home, its settings read again when ``config.toml`` changed since
        they were read (one ``stat`` a call): a person who turns on ``[memory] on_full``
        while the console runs sees it act on it as the CLI does, without a restart
        (docs/first-week.md #36). A file that no longer loads is the page's error, as it
        is the CLI's, until it is fixed."""
        seen = _config_stat(self._home)
        if seen != self._config:
            with self._lock:
                self._home = Home(self._home.root, load_settings(self._home.root))
                self._config = seen
        return self._home

    def memory(self, project: str | None = None) -> Memory:
        """The curated memory, opened for one request that writes, as the ``ui`` actor
        (its approval policy, the audit journal): the global store, or the stored
        project whose id is ``project`` (:meth:`store`)."""
        return Memory.open(self.store(project), actor=ACTOR, origin=ACTOR)

    def store(self, project: str | None) -> Home:
        """The home (``project`` empty), or its project store with the id ``project``.
        A form names a project by its id, never by a path: only a store that already
        exists in this home can be chosen, so no request can create one or reach
        outside the home."""
        if not project:
            return self.home
        for home in stored_projects(self.home):
            if home.project.id == project:
                return home
        raise InvalidArgument(
            "project",
            f"This home has no project store {project!r}; reload the page to see the "
            "projects it has (the Memory page lists them).",
        )

    def view(self) -> MemoryView:
        """The curated memory as it is now, for a page that only shows it (no session:
        no snapshot, no governor, nothing cleaned up or written)."""
        return MemoryView.open(self.home)

    def version(self) -> str:
        """A short fingerprint of MEMORY.md and USER.md: it changes when either does,
        whoever wrote it (the MCP watcher's probe: a stat first, a hash when it moved)."""
        with self._lock:
            scan = self._probe.scan(
                (MEMORY_URI, USER_URI), dict(self._stats), frozenset(self._prints)
            )
            self._stats.update(scan.stats)
            self._prints.update(scan.prints)
            text = repr(sorted(self._prints.items()))
        return hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()[:16]


def _config_stat(home: Home) -> tuple[int, int, int] | None:
    """What tells that ``config.toml`` changed: its inode, size and modification time
    (``None``: no such file)."""
    try:
        st = os.stat(home.root / "config.toml")
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def see_other(path: str) -> RedirectResponse:
    """The answer to a successful POST: go (GET) to ``path``."""
    return RedirectResponse(path, status_code=303)


async def _read_form(request: Request) -> Form | Response:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return error_response(415, "Not a form", "Send the page's form (URL-encoded).", request)
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FORM_BYTES:
                return error_response(
                    413,
                    "Form too large",
                    "A form may hold 1 MiB at most, and this one held more. Nothing was "
                    "done. Send a shorter text (MEMORY.md holds 2,200 chars by default): go "
                    "back, shorten it, and send the form again.",
                    request,
                )
    except ClientDisconnect:  # the browser went away mid-form: nothing to do, no traceback
        return error_response(
            400, "Form cut short", "The form did not arrive whole; nothing was done.", request
        )
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return error_response(
            400, "Not UTF-8", "The form was not UTF-8 text; nothing was done.", request
        )
    form: Form = {}
    for key, value in parse_qsl(text, keep_blank_values=True):
        form.setdefault(key, value)
    return form


def endpoint(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
    """Wrap a page: POSTs are parsed and CSRF-checked first; the page runs in a worker
    thread (library calls block); a :class:`MnemicError` becomes a page saying what is
    wrong (409; 503 for a store out of reach, a database that does not answer), anything
    else a page saying so (the traceback goes to the log only)."""

    async def run(request: Request) -> Response:
        ui: Console = request.app.state.console
        form: Form = {}
        if request.method == "POST":
            parsed = await _read_form(request)
            if isinstance(parsed, Response):
                return parsed
            if not ui.access.csrf_ok(parsed.get("csrf", "")):
                return error_response(
                    403,
                    "Form token missing or wrong",
                    "The form did not carry this console's CSRF token (the page may be "
                    "from before a restart, or from another site). Nothing was done: "
                    "reload the page and try again.",
                    request,
                )
            form = parsed
        try:
            return await run_in_threadpool(fn, ui, request, form)
        except _NOT_FOUND as exc:
            return error_response(404, "Not found", exc.to_page(), request)
        except InvalidArgument as exc:
            return error_response(400, "Bad request", exc.to_page(), request)
        except StoreUnreachable as exc:  # an outage, not a refusal: 503, what to do
            return error_response(503, "Out of reach", exc.to_page(), request)
        except MnemicError as exc:
            return error_response(409, "Refused", exc.to_page(), request)
        except Exception:
            log.exception("mnemic ui: %s %s failed", request.method, request.url.path)
            return error_response(
                500,
                "Something went wrong",
                "The console hit an unexpected error; details are in the log of the "
                "terminal running `mnemic ui`. Reload to see the current state.",
                request,
            )

    run.__name__ = fn.__name__
    return run
