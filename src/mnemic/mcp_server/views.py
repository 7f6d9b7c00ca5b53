"""One view per client connection: a frozen snapshot, loop guards and governed writes.

A :class:`ClientView` holds a governed :class:`~mnemic.curated.memory.Memory` (actor ``mcp``,
origin ``mcp:<client name>``) whose snapshot is frozen when the view is made, the
governed skill tools of the same write context, and the skills index frozen with it.
:class:`Connections` maps requests to views. What counts as a connection:

- stdio (and an in-process client): the server process;
- streamable HTTP with a session (``Mcp-Session-Id``, the handshake protocol): that session;
- a stateless HTTP request (protocol 2026-07-28, no session): that request alone, so it
  sees memory as it is at that moment, like ``mnemic tool``.

A connection's project is the server's (``--project``), else the one the client's roots
select when the connection starts (:func:`~mnemic.curated.scope.project_of_roots`:
the first root with a project store), asked with ``roots/list`` of a client that
declared roots on a connection that can ask (the initialize handshake: stdio, an HTTP
session); a stateless request has no project of its own.

Library calls run in worker threads, one at a time per view (a ``Memory`` belongs to
one session); views of different connections run in parallel and the library's locks
keep their writes from losing each other's updates.
"""

from __future__ import annotations

import json
import logging
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.shared.exceptions import MCPDeprecationWarning

from ..curated.memory import Memory, MemoryCommitted
from ..curated.scope import check_backend, open_project, project_of_roots
from ..errors import MnemicError
from ..home import Home
from ..sessions.sql import SessionStore
from ..sessions.store import new_session_id
from ..skills.governed import GovernedSkills
from ..skills.index import skills_index
from ..tools import home_tools

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

__all__ = [
    "MAX_VIEWS",
    "VIEW_IDLE_SECONDS",
    "ClientView",
    "Connections",
    "skill_text",
    "tool_result",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: HTTP sessions kept at most; the least recently used view is dropped beyond it.
MAX_VIEWS = 1000
#: Project memories one view keeps open for calls that name their directory.
MAX_PROJECTS = 16
#: A view unused this long is dropped (the SDK ends an idle HTTP session after 30 min).
VIEW_IDLE_SECONDS = 30 * 60.0
#: How long a new connection waits for the client's answer to ``roots/list``.
ROOTS_TIMEOUT = 10.0


def _session_header(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The HTTP ``Mcp-Session-Id`` of the request (None: stdio, or a stateless request)."""
    headers = getattr(ctx.request, "headers", None)
    value = headers.get("mcp-session-id") if headers is not None else None
    return str(value) if value else None


def _client_name(ctx: ServerRequestContext[Any, Any]) -> str:
    """A short, printable client name for the audit origin (``mcp:<name>``)."""
    params = ctx.session.client_params
    raw = params.client_info.name if params is not None else ""
    name = "".join(c for c in raw if c.isalnum() or c in "._- ").strip()[:64]
    return name.replace(" ", "-") or "client"


class ClientView:
    """What one client connection sees and writes through.

    ``memory`` (frozen snapshot, loop guards), ``skills`` (governed skill tools of the
    same write context) and ``skills_index`` are made on first use and then kept for the
    life of the view. Call the library only through :meth:`run`.
    """

    def __init__(
        self,
        home: Home,
        client: str,
        *,
        turn_gap: float = 60.0,
        sessions: Callable[[], SessionStore | None] = lambda: None,
        project: str | None = None,
        any_project: bool = False,
    ) -> None:
        self.home = home
        self.project = project
        self.any_project = any_project
        """Whether a memory call may name its project's directory (``project``)."""
        self._projects: dict[str, Memory] = {}
        """The project directory whose memory ``scope="project"`` writes (``None``:
        none selected; see :mod:`mnemic.curated.scope`)."""
        self.origin = f"mcp:{client}"
        self.session_id = new_session_id()
        self.turn_gap = turn_gap
        self.last_used = time.monotonic()
        self._lock = anyio.Lock()
        self._memory: Memory | None = None
        self._project_memory: Memory | None = None
        self._skills: GovernedSkills | None = None
        self._index: str | None = None
        self._last_memory_call = float("-inf")
        self._last_project_call = float("-inf")
        self._committed = False
        self.tools = home_tools(
            home,
            memory=self._memory_for_call,
            sessions=sessions,
            skills=lambda: self.skills,
            project=self._project_for_call if project is not None else None,
            project_at=self._project_at if any_project else None,
        )
        """mnemic's tools over this view's parts (call through :meth:`run`)."""

    @property
    def memory(self) -> Memory:
        """The connection's curated-memory session (snapshot taken on first use)."""
        if self._memory is None:
            self._memory = Memory.open(
                self.home, actor="mcp", origin=self.origin, session_id=self.session_id
            )
            if self._memory.expire():  # expired entries leave before the first snapshot
                self._memory.new_session()
            self._memory.observe(self._on_commit)
        return self._memory

    @property
    def project_memory(self) -> Memory | None:
        """The selected project's memory session (``None``: no project; opened on first
        use; its store is made by its first kept write, a refused one makes none)."""
        if self.project is None:
            return None
        if self._project_memory is None:
            home = open_project(self.home, self.project)
            self._project_memory = Memory.open(
                home, actor="mcp", origin=self.origin, session_id=self.session_id
            )
            if self._project_memory.expire():  # as the global store's, before its snapshot
                self._project_memory.new_session()
            self._project_memory.observe(self._on_commit)
        return self._project_memory

    def _project_for_call(self) -> Memory:
        """The project's memory for a ``scope="project"`` call (turns as for
        :meth:`_memory_for_call`)."""
        memory = self.project_memory
        assert memory is not None  # registered only with a project
        now = time.monotonic()
        if now - self._last_project_call > self.turn_gap:
            memory.begin_turn()
        self._last_project_call = now
        return memory

    def _project_at(self, directory: str) -> Memory:
        """The memory of the project a call names (its store made by its first kept
        write, a refused one makes none; kept for the connection; the ``project``
        argument of ``mnemic mcp --any-project``)."""
        where = open_project(self.home, directory)  # made by its first kept write
        memory = self._projects.get(where.project.id)
        if memory is None:
            if len(self._projects) >= MAX_PROJECTS:
                self._projects.pop(next(iter(self._projects)))
            memory = Memory.open(where, actor="mcp", origin=self.origin, session_id=self.session_id)
            if memory.expire():
                memory.new_session()
            memory.observe(self._on_commit)
            self._projects[where.project.id] = memory
        now = time.monotonic()
        if now - self._last_project_call > self.turn_gap:
            memory.begin_turn()
        self._last_project_call = now
        return memory

    def snapshot_text(self) -> str:
        """The frozen memory blocks of this connection: MEMORY, USER PROFILE, then the
        project's PROJECT MEMORY."""
        project = self.project_memory
        texts = (self.memory.snapshot.text, project.snapshot.text if project else "")
        return "\n\n".join(t for t in texts if t)

    def _on_commit(self, event: MemoryCommitted) -> None:
        self._committed = True  # read back in the event loop by take_committed()

    def take_committed(self) -> bool:
        """Whether a memory write committed through this view since the last call."""
        committed, self._committed = self._committed, False
        return committed

    @property
    def skills(self) -> GovernedSkills:
        """The skill tools behind the ``skills_mcp`` approval policy."""
        if self._skills is None:
            self._skills = GovernedSkills.open(
                self.home, actor="mcp", origin=self.origin, session_id=self.session_id
            )
        return self._skills

    @property
    def skills_index(self) -> str:
        """The skills index text, frozen on first use."""
        if self._index is None:
            self._index = skills_index(self.skills.store).text
        return self._index

    def freeze(self) -> None:
        """Take the snapshot and the skills index now (the connection starts).

        A failure is logged and left for the first call that needs the part to report.
        """
        try:
            _ = self.memory.snapshot, self.skills_index, self.project_memory
        except MnemicError as exc:
            log.warning("cannot open the memory of %s: %s", self.home.root, exc.to_llm())

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in a worker thread, one call at a time for this view."""
        self.last_used = time.monotonic()
        async with self._lock:  # waits in the event loop, not in a worker thread
            return await anyio.to_thread.run_sync(fn)

    def _memory_for_call(self) -> Memory:
        """The memory a ``memory`` tool call uses. MCP has no user turns; a memory call
        after ``turn_gap`` seconds without one starts a new turn for the per-turn circuit
        breaker."""
        memory = self.memory
        now = time.monotonic()
        if now - self._last_memory_call > self.turn_gap:
            memory.begin_turn()
        self._last_memory_call = now
        return memory


def tool_result(response: dict[str, Any]) -> types.CallToolResult:
    """A library tool response as an MCP tool result.

    A refusal (``success: false``) is a tool error whose text starts with the library's
    message for the model (what went wrong, what to do next) followed by the rest of
    the response (current entries, usage...) as JSON. The response itself is the
    structured content either way.
    """
    data = json.loads(json.dumps(response, ensure_ascii=False, default=str))
    ok = bool(data.get("success"))
    if ok:
        text = json.dumps(data, ensure_ascii=False)
    else:
        message = str(data.get("error") or "The call failed.")
        rest = {k: v for k, v in data.items() if k != "error"}
        text = f"{message}\n\n{json.dumps(rest, ensure_ascii=False)}"
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=data,
        is_error=not ok,
    )


class Connections:
    """The views of one server's live connections (see the module docstring)."""

    def __init__(
        self,
        home: Home,
        *,
        turn_gap: float = 60.0,
        sessions: Callable[[], SessionStore | None] = lambda: None,
        project: str | None = None,
        any_project: bool = False,
    ) -> None:
        self.home = home
        self.turn_gap = turn_gap
        self.sessions = sessions
        self.project = project
        self.any_project = any_project
        self._process_view: ClientView | None = None
        self._views: OrderedDict[str, ClientView] = OrderedDict()
        self._views_lock = anyio.Lock()

    async def view(self, ctx: ServerRequestContext[Any, Any]) -> ClientView:
        """The view of the connection this request belongs to (made on first use)."""
        request = ctx.request
        if request is None:  # stdio or in-process: the process is the connection
            async with self._views_lock:
                if self._process_view is None:
                    self._process_view = await self._new_view(ctx)
                return self._process_view
        session = _session_header(ctx)
        if not session:  # a stateless request is a connection of its own
            return self._make_view(ctx)
        async with self._views_lock:
            self._prune()
            found = self._views.get(session)
            if found is None:
                found = self._views[session] = await self._new_view(ctx)
            self._views.move_to_end(session)
            found.last_used = time.monotonic()
            return found

    async def touch(self, ctx: ServerRequestContext[Any, Any]) -> ClientView | None:
        """Start the connection's view on its first listing, unless the request is alone
        (``None``)."""
        if ctx.request is None or _session_header(ctx):
            return await self.view(ctx)
        return None

    async def _new_view(self, ctx: ServerRequestContext[Any, Any]) -> ClientView:
        project = self.project if self.project is not None else await self._roots_project(ctx)
        view = self._make_view(ctx, project)
        await view.run(view.freeze)
        log.info("new connection %s (%s)", view.session_id, view.origin)
        if project is not None and self.project is None:
            log.info("connection %s: project %s, from the client's roots", view.session_id, project)
        return view

    def _make_view(
        self, ctx: ServerRequestContext[Any, Any], project: str | None = None
    ) -> ClientView:
        return ClientView(
            self.home,
            _client_name(ctx),
            turn_gap=self.turn_gap,
            sessions=self.sessions,
            project=project,
            any_project=self.any_project,
        )

    async def _roots_project(self, ctx: ServerRequestContext[Any, Any]) -> str | None:
        """The project directory the client's roots select (module docstring), or None:
        the client declared no roots, cannot be asked on this connection, did not answer,
        or none of its roots has a project store."""
        params = ctx.session.client_params
        if params is None or params.capabilities.roots is None:
            return None
        try:
            check_backend(self.home.settings)
        except MnemicError:
            return None
        try:
            with warnings.catch_warnings(), anyio.fail_after(ROOTS_TIMEOUT):
                # roots are deprecated by protocol 2026-07-28, whose connections cannot
                # be asked (NoBackChannelError): only a handshake connection is
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                found = await ctx.session.list_roots()
        except Exception as exc:  # no answer: the connection has no project
            log.info("the client's roots were not read: %r", exc)
            return None
        uris = [str(root.uri) for root in found.roots]
        try:
            chosen = await anyio.to_thread.run_sync(lambda: project_of_roots(self.home, uris))
        except MnemicError as exc:
            log.warning("the project of the client's roots was not found: %s", exc.to_llm())
            return None
        return chosen.path if chosen is not None else None

    def _prune(self) -> None:
        cutoff = time.monotonic() - VIEW_IDLE_SECONDS
        for key in [k for k, v in self._views.items() if v.last_used < cutoff]:
            del self._views[key]
        while len(self._views) >= MAX_VIEWS:
            self._views.popitem(last=False)


def skill_text(view: ClientView, name: str) -> dict[str, Any]:
    """The whole SKILL.md through ``skill_view`` (its threat check and paging)."""
    parts: list[str] = []
    offset = 0
    while True:
        args: dict[str, Any] = {"name": name, "offset": offset} if offset else {"name": name}
        resp = view.skills.tool("skill_view", args)
        if not resp.get("success"):
            return resp
        parts.append(str(resp.get("content") or ""))
        nxt = resp.get("next_offset")
        if not isinstance(nxt, int) or nxt <= offset:
            return {"success": True, "content": "".join(parts)}
        offset = nxt
