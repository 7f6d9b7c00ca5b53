"""The MCP handlers: tools, resources and a prompt over the library, one view per connection.

Each client connection gets a :class:`ClientView`: a governed :class:`~mnemic.curated.Memory`
(actor ``mcp``, origin ``mcp:<client name>``) whose snapshot is frozen when the view is
made, the governed skill tools of the same write context, and the skills index frozen with
it. What counts as a connection:

- stdio (and an in-process client): the server process;
- streamable HTTP with a session (``Mcp-Session-Id``, the handshake protocol): that session;
- a stateless HTTP request (protocol 2026-07-28, no session): that request alone, so it
  sees memory as it is at that moment, like ``mnemic tool``.

Library calls run in worker threads, one at a time per view (a ``Memory`` belongs to
one session); views of different connections run in parallel and the library's locks
keep their writes from losing each other's updates.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from .. import __version__
from ..errors import MnemicError
from ..home import Home

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

    from ..curated import Memory
    from ..governance.skill_writes import GovernedSkills
    from ..sessions import SQLiteSessionStore
    from ..tooling import ToolSpec

__all__ = [
    "MEMORY_URI",
    "PROMPT_NAME",
    "SKILLS_URI",
    "SKILL_URI_TEMPLATE",
    "TOOL_NAMES",
    "USER_URI",
    "ClientView",
    "MnemicMCP",
    "serve_stdio",
    "tool_result",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

SERVER_NAME = "mnemic"
MEMORY_URI = "mnemic://memory"
USER_URI = "mnemic://user"
SKILLS_URI = "mnemic://skills"
SKILL_URI_TEMPLATE = "mnemic://skills/{name}"
_SKILL_PREFIX = "mnemic://skills/"
PROMPT_NAME = "memory_context"
TOOL_NAMES = ("memory", "session_search", "skills_list", "skill_view", "skill_manage")
#: HTTP sessions kept at most; the least recently used view is dropped beyond it.
MAX_VIEWS = 1000
#: A view unused this long is dropped (the SDK ends an idle HTTP session after 30 min).
VIEW_IDLE_SECONDS = 30 * 60.0

INSTRUCTIONS = (
    "mnemic is your persistent memory across conversations with this user. At the start "
    "of a conversation read the memory_context prompt (or the mnemic://memory and "
    "mnemic://user resources): it holds what was saved before. Save durable facts with "
    "the memory tool as soon as you learn them (the user's preferences and corrections "
    "first, then stable facts about the environment), as short declarative entries. When "
    "the user refers to an earlier conversation, search it with session_search before "
    "asking them to repeat it. Before a multi-step task, look for a saved procedure with "
    "skills_list and load it with skill_view; save new procedures with skill_manage."
)

_TITLES = {
    "memory": "Memory",
    "session_search": "Search past conversations",
    "skills_list": "List skills",
    "skill_view": "Load a skill",
    "skill_manage": "Save or edit a skill",
}
_READ_ONLY = frozenset({"session_search", "skills_list", "skill_view"})

_RESOURCES = (
    (
        MEMORY_URI,
        "memory",
        "MEMORY (agent notes)",
        "The MEMORY block (your own notes: environment facts, conventions, lessons) as "
        "frozen when this connection started. Writes made since show up on the next "
        "connection; the memory tool's read action shows the live entries. Empty when "
        "nothing is saved.",
    ),
    (
        USER_URI,
        "user",
        "USER PROFILE",
        "The USER PROFILE block (who the user is, preferences, corrections) as frozen "
        "when this connection started. Empty when nothing is saved.",
    ),
    (
        SKILLS_URI,
        "skills",
        "Skills index",
        "The index of saved skills (procedures) as frozen when this connection started. "
        "Load one with skill_view or read mnemic://skills/{name}.",
    ),
)


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

    def __init__(self, home: Home, client: str, *, turn_gap: float = 60.0) -> None:
        from ..sessions.store import new_session_id

        self.home = home
        self.origin = f"mcp:{client}"
        self.session_id = new_session_id()
        self.turn_gap = turn_gap
        self.last_used = time.monotonic()
        self._lock = threading.Lock()
        self._memory: Memory | None = None
        self._skills: GovernedSkills | None = None
        self._index: str | None = None
        self._last_memory_call = float("-inf")

    @property
    def memory(self) -> Memory:
        """The connection's curated-memory session (snapshot taken on first use)."""
        if self._memory is None:
            from ..curated import Memory

            self._memory = Memory.open(
                self.home, actor="mcp", origin=self.origin, session_id=self.session_id
            )
        return self._memory

    @property
    def skills(self) -> GovernedSkills:
        """The skill tools behind the ``skills_mcp`` approval policy."""
        if self._skills is None:
            from ..governance.skill_writes import GovernedSkills

            self._skills = GovernedSkills.open(
                self.home, actor="mcp", origin=self.origin, session_id=self.session_id
            )
        return self._skills

    @property
    def skills_index(self) -> str:
        """The skills index text, frozen on first use."""
        if self._index is None:
            from ..skills.index import skills_index

            self._index = skills_index(self.skills.store).text
        return self._index

    def freeze(self) -> None:
        """Take the snapshot and the skills index now (the connection starts)."""
        _ = self.memory.snapshot, self.skills_index

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in a worker thread, one call at a time for this view."""

        def locked() -> T:
            with self._lock:
                return fn()

        self.last_used = time.monotonic()
        return await anyio.to_thread.run_sync(locked)

    def memory_call(self, args: dict[str, Any]) -> dict[str, Any]:
        """One ``memory`` tool call (call through :meth:`run`).

        MCP has no user turns; a memory call after ``turn_gap`` seconds without one
        starts a new turn for the per-turn circuit breaker.
        """
        now = time.monotonic()
        if now - self._last_memory_call > self.turn_gap:
            self.memory.begin_turn()
        self._last_memory_call = now
        return self.memory.tool(args)


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


def _tool_specs(home: Home) -> dict[str, ToolSpec]:
    from ..curated.tool import memory_tool_spec
    from ..sessions import SESSION_SEARCH_TOOL
    from ..skills.tools import skill_tool_specs

    specs = [
        memory_tool_spec(read_action=home.settings.memory.read_action),
        SESSION_SEARCH_TOOL,
        *skill_tool_specs(),
    ]
    return {s.name: s for s in specs}


class MnemicMCP:
    """The MCP server of one home: build it, then serve ``.server`` on a transport.

    >>> srv = MnemicMCP(Home.open())             # doctest: +SKIP
    >>> serve_stdio(srv)                         # or mcp.Client(srv.server) in tests
    """

    def __init__(self, home: Home) -> None:
        self.home = home
        self.specs = _tool_specs(home)
        self.turn_gap = home.settings.mcp.turn_gap
        self._process_view: ClientView | None = None
        self._views: OrderedDict[str, ClientView] = OrderedDict()
        self._views_lock = anyio.Lock()
        self._store: SQLiteSessionStore | None = None
        self._store_lock = threading.Lock()
        if home.settings.metrics.enabled:
            from ..governance.metrics import enable_metrics

            try:
                enable_metrics()
            except ImportError:
                log.warning("metrics.enabled is set but prometheus_client is not installed")
        self.server: Server[Any] = Server(
            SERVER_NAME,
            version=__version__,
            title="mnemic memory",
            instructions=INSTRUCTIONS,
            get_tool_input_schema=self._input_schema,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
        )

    # -- connections ------------------------------------------------------------------
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
            return ClientView(self.home, _client_name(ctx), turn_gap=self.turn_gap)
        async with self._views_lock:
            self._prune()
            found = self._views.get(session)
            if found is None:
                found = self._views[session] = await self._new_view(ctx)
            self._views.move_to_end(session)
            found.last_used = time.monotonic()
            return found

    async def _touch(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """Start the connection's view on its first listing, unless the request is alone."""
        if ctx.request is None or _session_header(ctx):
            await self.view(ctx)

    async def _new_view(self, ctx: ServerRequestContext[Any, Any]) -> ClientView:
        view = ClientView(self.home, _client_name(ctx), turn_gap=self.turn_gap)
        await view.run(view.freeze)
        log.info("new connection %s (%s)", view.session_id, view.origin)
        return view

    def _prune(self) -> None:
        cutoff = time.monotonic() - VIEW_IDLE_SECONDS
        for key in [k for k, v in self._views.items() if v.last_used < cutoff]:
            del self._views[key]
        while len(self._views) >= MAX_VIEWS:
            self._views.popitem(last=False)

    def close(self) -> None:
        """Close the shared session store (the server is shutting down)."""
        with self._store_lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    # -- tools --------------------------------------------------------------------------
    def _input_schema(self, name: str) -> dict[str, Any] | None:
        spec = self.specs.get(name)
        return spec.parameters if spec is not None else None

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        await self._touch(ctx)
        tools = []
        for name in TOOL_NAMES:
            spec = self.specs[name]
            read_only = name in _READ_ONLY
            tools.append(
                types.Tool(
                    name=spec.name,
                    title=_TITLES[name],
                    description=spec.description,
                    input_schema=spec.parameters,
                    annotations=types.ToolAnnotations(
                        title=_TITLES[name],
                        read_only_hint=read_only,
                        destructive_hint=not read_only,
                        idempotent_hint=read_only,
                        open_world_hint=False,
                    ),
                )
            )
        return types.ListToolsResult(tools=tools)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name = params.name
        args = dict(params.arguments or {})
        if name not in self.specs:
            return tool_result(
                {
                    "success": False,
                    "error": f"There is no tool {name!r} here. Use one of: "
                    f"{', '.join(TOOL_NAMES)}.",
                    "error_code": "unknown_tool",
                }
            )
        view = await self.view(ctx)
        if name == "memory":
            return tool_result(await view.run(lambda: view.memory_call(args)))
        if name == "session_search":
            return tool_result(await anyio.to_thread.run_sync(lambda: self.search(args)))
        return tool_result(await view.run(lambda: view.skills.tool(name, args)))

    def search(self, args: dict[str, Any]) -> dict[str, Any]:
        """One ``session_search`` call on the home's session history (never raises)."""
        from ..governance.metrics import get_metrics
        from ..sessions import search_tool_for

        start = time.perf_counter()
        try:
            resp = search_tool_for(self.home, self._sessions(), args)
        except MnemicError as exc:  # the store could not be opened
            resp = exc.to_response()
        get_metrics().search(
            (time.perf_counter() - start) * 1000.0, "ok" if resp.get("success") else "error"
        )
        return resp

    def _sessions(self) -> SQLiteSessionStore:
        with self._store_lock:
            if self._store is None:
                from ..sessions import open_store

                self._store = open_store(self.home)
            return self._store

    # -- resources ------------------------------------------------------------------------
    async def _list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        await self._touch(ctx)
        fixed = [
            types.Resource(
                uri=uri, name=name, title=title, description=desc, mime_type="text/plain"
            )
            for uri, name, title, desc in _RESOURCES
        ]
        infos = await anyio.to_thread.run_sync(self._usable_skills)
        skills = [
            types.Resource(
                uri=_SKILL_PREFIX + info.ref,
                name=info.ref,
                title=f"Skill {info.ref}",
                description=info.description,
                mime_type="text/markdown",
            )
            for info in infos
        ]
        return types.ListResourcesResult(resources=fixed + skills)

    def _usable_skills(self) -> list[Any]:
        from ..skills import SkillStore

        try:
            return [i for i in SkillStore.open(self.home).skills() if i.usable]
        except MnemicError as exc:
            log.warning("cannot list skills: %s", exc.to_llm())
            return []

    async def _list_templates(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=SKILL_URI_TEMPLATE,
                    name="skill",
                    title="A skill's SKILL.md",
                    description="The SKILL.md of one skill (name, or category/name), as "
                    "skill_view returns it. Supporting files: skill_view with file_path.",
                    mime_type="text/markdown",
                )
            ]
        )

    async def _read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        view = await self.view(ctx)
        if uri in (MEMORY_URI, USER_URI):
            target = "memory" if uri == MEMORY_URI else "user"
            snapshot = await view.run(lambda: view.memory.snapshot)
            if target in snapshot.errors:
                raise MCPError(types.INTERNAL_ERROR, snapshot.errors[target], {"uri": uri})
            return _text(uri, snapshot.block(target), "text/plain")
        if uri == SKILLS_URI:
            return _text(uri, await view.run(lambda: view.skills_index), "text/plain")
        if uri.startswith(_SKILL_PREFIX) and len(uri) > len(_SKILL_PREFIX):
            from urllib.parse import unquote

            name = unquote(uri[len(_SKILL_PREFIX) :])
            resp = await view.run(lambda: _skill_text(view, name))
            if not resp.get("success"):
                code = types.INTERNAL_ERROR
                if resp.get("error_code") != "internal_error":
                    code = types.INVALID_PARAMS
                data = {"uri": uri, "error_code": resp.get("error_code")}
                raise MCPError(code, str(resp.get("error")), data)
            return _text(uri, str(resp["content"]), "text/markdown")
        known = ", ".join([MEMORY_URI, USER_URI, SKILLS_URI, SKILL_URI_TEMPLATE])
        raise MCPError(
            types.INVALID_PARAMS, f"Unknown resource {uri}; known: {known}", {"uri": uri}
        )

    # -- prompt ------------------------------------------------------------------------
    async def _list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        await self._touch(ctx)
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=PROMPT_NAME,
                    title="mnemic memory",
                    description="The MEMORY and USER PROFILE blocks as frozen for this "
                    "connection: put them in the system prompt or at the start of the "
                    "conversation.",
                )
            ]
        )

    async def _get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name != PROMPT_NAME:
            raise MCPError(
                types.INVALID_PARAMS, f"Unknown prompt {params.name!r}; use {PROMPT_NAME!r}."
            )
        view = await self.view(ctx)
        snapshot = await view.run(lambda: view.memory.snapshot)
        text = snapshot.text or (
            "MEMORY and USER PROFILE are empty: nothing has been saved yet. Save durable "
            "facts with the memory tool."
        )
        return types.GetPromptResult(
            description="mnemic memory snapshot",
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
            ],
        )

    # -- stdio ---------------------------------------------------------------------------
    async def run_stdio(self) -> None:
        """Serve one client over this process's stdin and stdout until stdin closes."""
        from mcp.server.stdio import stdio_server

        try:
            async with stdio_server() as (read_stream, write_stream):
                await self.server.run(
                    read_stream, write_stream, self.server.create_initialization_options()
                )
        finally:
            self.close()


def _text(uri: str, text: str, mime: str) -> types.ReadResourceResult:
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, text=text, mime_type=mime)]
    )


def _skill_text(view: ClientView, name: str) -> dict[str, Any]:
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


def serve_stdio(server: MnemicMCP) -> None:
    """Serve ``server`` over stdio (blocks until the client closes stdin)."""
    anyio.run(server.run_stdio)
