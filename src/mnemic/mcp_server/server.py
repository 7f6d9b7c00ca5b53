"""The MCP server of one home: tools, resources and a prompt as thin handlers over the library.

:class:`MnemicMCP` builds the SDK's low-level ``Server`` (so each tool advertises exactly
the library's JSON schema) with handlers that call the library through the client
connection's :class:`~mnemic.mcp_server.views.ClientView`. :func:`serve_stdio` serves it
over stdio; :mod:`mnemic.mcp_server.http` over streamable HTTP.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from urllib.parse import unquote

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from .. import __version__
from ..curated.scope import check_backend, locate
from ..errors import MissingDependency, MnemicError, UnknownTool
from ..governance.metrics import enable_metrics
from ..home import Home
from ..ops.archive_search import archive_json
from ..ops.probe import (
    ARCHIVE_URI,
    ARCHIVE_URIS,
    MEMORY_URI,
    SKILL_PREFIX,
    SKILL_URI_TEMPLATE,
    SKILLS_URI,
    USER_URI,
)
from ..sessions import SessionStore, open_store
from ..skills import SkillStore
from ..skills.index import skills_index
from ..tools import MNEMIC_TOOLS, tool_specs
from .live import LiveResources, LiveServer, live_block, live_of, watchable
from .views import ClientView, Connections, skill_text, tool_result
from .wire import relay

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext


__all__ = [
    "ARCHIVE_LIMIT",
    "ARCHIVE_URI",
    "INSTRUCTIONS",
    "MEMORY_URI",
    "PROMPT_NAME",
    "SKILLS_URI",
    "SKILL_URI_TEMPLATE",
    "TOOL_NAMES",
    "USER_URI",
    "MnemicMCP",
    "serve_stdio",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

SERVER_NAME = "mnemic"
LONG_URIS = {"mnemic://memory/long": "memory", "mnemic://user/long": "user"}
"""The long forms: live entries with their provenance, as JSON."""
ARCHIVE_LIMIT = 200
"""Archived entries an archive resource lists at most (the newest; older ones are found
with the memory tool's ``archive_search``)."""
PROJECT_URIS = {"mnemic://project/long": "long", "mnemic://project/archive": "archive"}
"""The project store's long form and archive (MEMORY.md only: a project has no USER.md),
listed for a connection with a project (``--project``, ``MNEMIC_PROJECT``, its roots)."""
_JSON_URIS = {*LONG_URIS, *ARCHIVE_URIS, *PROJECT_URIS}
_SKILL_PREFIX = SKILL_PREFIX
PROMPT_NAME = "memory_context"
TOOL_NAMES = MNEMIC_TOOLS

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
        "connection; the memory tool's read action shows the live entries. Subscribe to "
        "it to read it live and be notified of every change. Empty when nothing is saved.",
    ),
    (
        USER_URI,
        "user",
        "USER PROFILE",
        "The USER PROFILE block (who the user is, preferences, corrections) as frozen "
        "when this connection started (live once subscribed). Empty when nothing is saved.",
    ),
    (
        "mnemic://memory/long",
        "memory-long",
        "MEMORY entries with provenance (JSON)",
        "The live MEMORY entries, each with when it was created and last updated, who "
        "wrote it (model, flush, review, mcp, cli, hand...) and in which session. For "
        "reviewing stale entries; not meant for the prompt.",
    ),
    (
        "mnemic://user/long",
        "user-long",
        "USER PROFILE entries with provenance (JSON)",
        "The live USER PROFILE entries with their provenance, as for mnemic://memory/long.",
    ),
    (
        ARCHIVE_URI,
        "archive",
        "Archive of MEMORY and USER PROFILE (JSON)",
        "Entries that left memory (removed, the old text of a replace, evicted, expired, "
        "dropped by an edit), newest first, each with why and when it left, who removed "
        f"it and its provenance (the newest {ARCHIVE_LIMIT}). Never in the prompt; bring "
        "one back by adding its text again. Subscribe to hear of every change.",
    ),
    (
        "mnemic://memory/archive",
        "memory-archive",
        "Archive of MEMORY (JSON)",
        "The archived MEMORY entries, as for mnemic://archive.",
    ),
    (
        "mnemic://user/archive",
        "user-archive",
        "Archive of USER PROFILE (JSON)",
        "The archived USER PROFILE entries, as for mnemic://archive.",
    ),
    (
        SKILLS_URI,
        "skills",
        "Skills index",
        "The index of saved skills (procedures) as frozen when this connection started "
        "(live once subscribed). Load one with skill_view or read mnemic://skills/{name}.",
    ),
)


_PROJECT_RESOURCES = (
    (
        "mnemic://project/long",
        "project-long",
        "PROJECT MEMORY entries with provenance (JSON)",
        "The live entries of this project's memory with their provenance, as for "
        "mnemic://memory/long.",
    ),
    (
        "mnemic://project/archive",
        "project-archive",
        "Archive of PROJECT MEMORY (JSON)",
        "Entries that left this project's memory, newest first, as for mnemic://archive "
        f"(the newest {ARCHIVE_LIMIT}). Never in the prompt; bring one back by adding its "
        'text again with scope="project".',
    ),
)
"""Listed only for a connection with a project; read when it is asked for (not live)."""


class MnemicMCP:
    """The MCP server of one home: build it, then serve ``.server`` on a transport.

    >>> srv = MnemicMCP(Home.open())             # doctest: +SKIP
    >>> serve_stdio(srv)                         # or mcp.Client(srv.server) in tests
    """

    def __init__(
        self, home: Home, *, project: str | None = None, any_project: bool = False
    ) -> None:
        self.home = home
        self.project = project
        """The project directory of ``--project`` / ``MNEMIC_PROJECT`` (its memory is the
        tool's ``scope="project"`` and ends the memory_context prompt)."""
        if project is not None or any_project:  # a bad directory or backend: refused now
            check_backend(home.settings)
        if project is not None:
            locate(home.root, project)
        specs = tool_specs(home, project=project is not None, project_argument=any_project)
        self.specs = {s.name: s for s in specs}
        scoped = tool_specs(home, project=True, project_argument=any_project)
        self.project_specs = {s.name: s for s in scoped}
        """The specs a connection whose client's roots selected a project lists (the
        memory tool takes ``scope``); the input schemas every call is checked against."""
        self.connections = Connections(
            home,
            turn_gap=home.settings.mcp.turn_gap,
            sessions=self._sessions,
            project=project,
            any_project=any_project,
        )
        self._store: SessionStore | None = None
        self._store_lock = threading.Lock()
        if home.settings.metrics.enabled:
            try:
                enable_metrics()
            except MissingDependency as exc:
                log.warning("[metrics] enabled is set, but live metrics are off: %s", exc.to_llm())
        self.live: LiveResources | None = None
        """The live-resource hub of the running server (None before it runs)."""
        self.server: Server[Any] = LiveServer(
            SERVER_NAME,
            lifespan=self._lifespan,
            version=__version__,
            title="mnemic memory",
            instructions=INSTRUCTIONS,
            get_tool_input_schema=self._input_schema,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
            on_subscribe_resource=self._subscribe,
            on_unsubscribe_resource=self._unsubscribe,
            on_subscriptions_listen=self._listen,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
        )

    @asynccontextmanager
    async def _lifespan(self, server: Server[Any]) -> AsyncIterator[LiveResources]:
        """The server runs: start a live-resource hub (and its watcher) for its life."""
        interval = self.home.settings.mcp.watch_interval_ms / 1000
        async with LiveResources(self.home, interval=interval).running() as live:
            self.live = live
            yield live

    def close(self) -> None:
        """Close the shared session store (the server is shutting down)."""
        with self._store_lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    # -- tools --------------------------------------------------------------------------
    def _input_schema(self, name: str) -> dict[str, Any] | None:
        # the widest schema (scope included): a connection's project comes from its
        # client's roots, and a scope="project" call without one is the library's
        # refusal ("no project is selected"), not a schema error
        spec = self.project_specs.get(name)
        return spec.parameters if spec is not None else None

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        view = await self.connections.touch(ctx)
        specs = self.project_specs if view is not None and view.project else self.specs
        tools = []
        for name in TOOL_NAMES:
            spec = specs[name]
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
            return tool_result(UnknownTool(name, TOOL_NAMES).to_response())
        view = await self.connections.view(ctx)
        result = tool_result(await view.run(lambda: view.tools.dispatch(name, args)))
        if view.take_committed() or (name == "skill_manage" and not result.is_error):
            await live_of(ctx).after_write()  # subscribers hear of own writes at once
        return result

    def _sessions(self) -> SessionStore:
        with self._store_lock:
            if self._store is None:
                self._store = open_store(self.home)
            return self._store

    # -- resources ------------------------------------------------------------------------
    async def _list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        view = await self.connections.touch(ctx)
        await live_of(ctx).listed(ctx)
        listed: tuple[tuple[str, str, str, str], ...] = _RESOURCES
        if view is not None and view.project is not None:
            listed = (*_RESOURCES, *_PROJECT_RESOURCES)
        fixed = [
            types.Resource(
                uri=uri,
                name=name,
                title=title,
                description=desc,
                mime_type="application/json" if uri in _JSON_URIS else "text/plain",
            )
            for uri, name, title, desc in listed
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
        view = await self.connections.view(ctx)
        live = live_of(ctx).is_live(ctx, uri)
        if uri in (MEMORY_URI, USER_URI):
            target = "memory" if uri == MEMORY_URI else "user"
            if live:
                block = await _frozen(view, lambda: live_block(view, target))
                return _text(uri, block, "text/plain")
            snapshot = await _frozen(view, lambda: view.memory.snapshot)
            if target in snapshot.errors:
                raise MCPError(types.INTERNAL_ERROR, snapshot.errors[target], {"uri": uri})
            return _text(uri, snapshot.block(target), "text/plain")
        if uri in LONG_URIS:
            which = LONG_URIS[uri]
            try:
                listing = await view.run(lambda: view.memory.provenance_listing(which))
            except MnemicError as exc:
                raise MCPError(types.INTERNAL_ERROR, exc.to_llm(), {"uri": uri}) from exc
            return _text(uri, json.dumps(listing, ensure_ascii=False), "application/json")
        if uri in ARCHIVE_URIS:
            part = ARCHIVE_URIS[uri]
            try:
                found = await view.run(
                    lambda: archive_json(view.memory, part, limit=ARCHIVE_LIMIT, for_model=True)
                )
            except MnemicError as exc:
                raise MCPError(types.INTERNAL_ERROR, exc.to_llm(), {"uri": uri}) from exc
            return _text(uri, json.dumps(found, ensure_ascii=False), "application/json")
        if uri in PROJECT_URIS:
            return _text(uri, await self._project_resource(view, uri), "application/json")
        if uri == SKILLS_URI:
            if live:
                index = await _frozen(view, lambda: skills_index(view.skills.store).text)
                return _text(uri, index, "text/plain")
            return _text(uri, await _frozen(view, lambda: view.skills_index), "text/plain")
        if uri.startswith(_SKILL_PREFIX) and len(uri) > len(_SKILL_PREFIX):
            name = unquote(uri[len(_SKILL_PREFIX) :])
            resp = await view.run(lambda: skill_text(view, name))
            if not resp.get("success"):
                code = types.INTERNAL_ERROR
                if resp.get("error_code") != "internal_error":
                    code = types.INVALID_PARAMS
                data = {"uri": uri, "error_code": resp.get("error_code")}
                raise MCPError(code, str(resp.get("error")), data)
            return _text(uri, str(resp["content"]), "text/markdown")
        known = ", ".join(
            [
                MEMORY_URI,
                USER_URI,
                *LONG_URIS,
                *ARCHIVE_URIS,
                *PROJECT_URIS,
                SKILLS_URI,
                SKILL_URI_TEMPLATE,
            ]
        )
        raise MCPError(
            types.INVALID_PARAMS, f"Unknown resource {uri}; known: {known}", {"uri": uri}
        )

    async def _project_resource(self, view: ClientView, uri: str) -> str:
        """``mnemic://project/long`` or ``/archive`` of the connection's project as JSON
        text; without a project, a refusal that says how to select one."""
        memory = await view.run(lambda: view.project_memory)
        if memory is None:
            raise MCPError(
                types.INVALID_PARAMS,
                f"{uri} is a project's, and this connection has no project: start the server "
                "with --project DIR (or MNEMIC_PROJECT=DIR), or have the client's roots name "
                "a directory whose project store exists (`mnemic init --project DIR`).",
                {"uri": uri},
            )
        try:
            if PROJECT_URIS[uri] == "long":
                found: Any = await view.run(lambda: memory.provenance_listing("memory"))
            else:
                found = await view.run(
                    lambda: archive_json(memory, "memory", limit=ARCHIVE_LIMIT, for_model=True)
                )
        except MnemicError as exc:
            raise MCPError(types.INTERNAL_ERROR, exc.to_llm(), {"uri": uri}) from exc
        return json.dumps(found, ensure_ascii=False)

    async def _subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        await live_of(ctx).subscribe(ctx, watchable(str(params.uri)))
        return types.EmptyResult()

    async def _unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        live_of(ctx).unsubscribe(ctx, str(params.uri))
        return types.EmptyResult()

    async def _listen(
        self, ctx: ServerRequestContext[Any, Any], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        return await live_of(ctx).listen(ctx, params)

    # -- prompt ------------------------------------------------------------------------
    async def _list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        await self.connections.touch(ctx)
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
        view = await self.connections.view(ctx)
        text = await _frozen(view, view.snapshot_text)
        text = text or (
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
        try:
            async with (
                _stdin_bytes_kept() as stdin,
                stdio_server(stdin) as (
                    read_stream,
                    write_stream,
                ),
            ):
                sink, checked = anyio.create_memory_object_stream[SessionMessage | Exception](0)
                async with anyio.create_task_group() as tg:
                    tg.start_soon(relay, read_stream, sink, write_stream)
                    await self.server.run(
                        checked, write_stream, self.server.create_initialization_options()
                    )
                    tg.cancel_scope.cancel()
        finally:
            self.close()


@asynccontextmanager
async def _stdin_bytes_kept() -> AsyncIterator[anyio.AsyncFile[str] | None]:
    """Stdin for the SDK's stdio transport, its bytes that are not UTF-8 kept as lone
    surrogates (``surrogateescape``) rather than replaced by U+FFFD: the SDK then cannot
    parse such a request and :func:`~.wire.relay` answers it for its id, where the
    replacement characters were saved as the model's text (a memory entry of ``\ufffd``).
    As the SDK does, fd 0 points at the null device while serving (a handler or child
    reading stdin reads nothing) and the wire is read from a private duplicate, never
    closed (a worker thread may still block on it). ``None`` (the SDK claims stdin
    itself) when stdin is not fd 0 or cannot be duplicated."""
    try:
        import fcntl  # POSIX; elsewhere the SDK claims stdin itself

        if sys.stdin is None or sys.stdin.fileno() != 0:
            raise OSError("stdin is not fd 0")
        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except (ImportError, OSError, ValueError, AttributeError):
        yield None
        return
    diverted = False
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
            diverted = True
        finally:
            os.close(null)
    except OSError:
        pass
    wire = io.TextIOWrapper(
        os.fdopen(private, "rb", closefd=False), encoding="utf-8", errors="surrogateescape"
    )
    try:
        yield anyio.wrap_file(wire)
    finally:
        if diverted:
            with contextlib.suppress(OSError):
                os.dup2(private, 0)


async def _frozen(view: ClientView, part: Callable[[], T]) -> T:
    """A frozen part of the view (snapshot, index); a store that cannot open is an error."""
    try:
        return await view.run(part)
    except MnemicError as exc:
        raise MCPError(types.INTERNAL_ERROR, exc.to_llm()) from exc


def _text(uri: str, text: str, mime: str) -> types.ReadResourceResult:
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, text=text, mime_type=mime)]
    )


def serve_stdio(server: MnemicMCP) -> None:
    """Serve ``server`` over stdio (blocks until the client closes stdin). A client that
    stops reading stdout while calls are in flight ends the process: one line on stderr,
    exit status 1 (as click does for a reader that went away), never a traceback."""
    gone = False
    try:
        anyio.run(server.run_stdio)
    except* BrokenPipeError:  # nobody is left to answer
        gone = True
    if gone:
        _client_gone()


def _client_gone() -> NoReturn:
    """The stdio client closed its end of stdout: say so, and exit 1; stdout goes to the
    null device so the interpreter's last flush meets no broken pipe either."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    with contextlib.suppress(OSError):
        os.write(
            2,
            b"mnemic mcp: the client closed the connection (it stopped reading stdout); "
            b"calls it had not read the answer of may have been carried out.\n",
        )
    raise SystemExit(1)
