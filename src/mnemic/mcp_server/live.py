"""Live resources: subscribers are told when a resource changes, whoever changed it.

One :class:`LiveResources` hub per running server (made by the server's lifespan) keeps
who is subscribed to what, and one watcher task that checks what the subscriptions
depend on every ``[mcp] watch_interval_ms`` while there is at least one (and sleeps on
an event otherwise). A change made by another process is found by that poll; a write
through this server's own tools triggers a check at once. Each change is told once:
the fingerprints of :mod:`mnemic.ops.probe` are compared with the last ones told.

Two generations of the protocol subscribe differently, and both are served:

- handshake era (2025-11-25 and earlier): ``resources/subscribe`` / ``unsubscribe``
  for one connection; ``notifications/resources/updated`` and
  ``notifications/resources/list_changed`` go out on that connection's own channel
  (stdio, or the HTTP session's stream). A connection that lists resources is told
  when the list changes. Everything of a connection is dropped when it closes.
- 2026-07-28: a ``subscriptions/listen`` request names what it wants (resource URIs,
  ``resourcesListChanged``); the SDK's :class:`~mcp.server.subscriptions.ListenHandler`
  streams the events published on the hub's bus, and the subscription ends with the
  stream.

A subscription also makes the resource live for its connection: reading a resource one
is subscribed to returns it as it is now (see :meth:`LiveResources.is_live`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    ResourcesListChanged,
    ResourceUpdated,
)
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..curated.snapshot import load_block
from ..errors import StorageError
from ..home import Home
from ..ops.probe import (
    ARCHIVE_URI,
    LIST,
    MEMORY_URI,
    SKILL_URI_TEMPLATE,
    SKILLS_URI,
    USER_URI,
    Probe,
    source_of,
)
from .views import ClientView

__all__ = [
    "SEND_TIMEOUT",
    "LiveResources",
    "LiveServer",
    "connection_of",
    "live_block",
    "live_of",
    "watchable",
]

log = logging.getLogger(__name__)

SEND_TIMEOUT = 5.0
"""Seconds a notification may wait for a client that does not read (then it is dropped)."""


def connection_of(ctx: Any) -> Any:
    """The SDK ``Connection`` a handshake-era request came on (None when there is none).

    The SDK (2.3.0) hands handlers a per-request ``ServerSession``; the connection behind
    it, the one stable object of a handshake-era client, is only kept privately there.
    """
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return None
    conn = getattr(ctx.session, "_connection", None)
    if conn is None or not getattr(conn, "has_standalone_channel", False):
        return None
    return conn


class LiveResources:
    """Subscriptions of one running server and the watcher that serves them.

    ``interval`` is the poll period in seconds (0: no polling; only this server's own
    writes are noticed). Use :meth:`running` around the server's life.
    """

    def __init__(self, home: Home, *, interval: float) -> None:
        self.home = home
        self.interval = interval
        self.probe = Probe(home)
        self.bus = InMemorySubscriptionBus()
        self.listener = ListenHandler(self.bus)
        self._subs: dict[Any, set[str]] = {}
        """Handshake-era connection -> URIs it subscribed to."""
        self._lists: set[Any] = set()
        """Handshake-era connections told when the resource list changes."""
        self._hooked: set[int] = set()
        self._listens: dict[object, frozenset[str]] = {}
        """Open listen streams -> what they watch (``LIST`` for the resource list)."""
        self._stats: dict[str, Hashable] = {}
        self._prints: dict[str, Hashable] = {}
        self._lock = anyio.Lock()
        self._wanted = anyio.Event()
        self._dropped = anyio.Event()
        self.checks = 0
        """Checks made so far (for tests and debugging)."""
        self.polling = False
        """Whether the watcher is polling now (it is only while something is watched)."""

    # -- what is watched ---------------------------------------------------------------
    def watched(self) -> frozenset[str]:
        """Every URI (and ``LIST``) some subscriber waits on."""
        out: set[str] = set()
        for subs in self._subs.values():
            out |= subs
        for listened in self._listens.values():
            out |= listened
        if self._lists:
            out.add(LIST)
        return frozenset(out)

    def is_live(self, ctx: Any, uri: str) -> bool:
        """Whether reads of ``uri`` on this request's connection are live: it subscribed
        to it (handshake era), or a listen stream of this server names it (2026-07-28,
        where one stdio server serves one client and HTTP requests stand alone)."""
        conn = connection_of(ctx)
        if conn is not None:
            return uri in self._subs.get(conn, ())
        return any(uri in uris for uris in self._listens.values())

    async def subscribe(self, ctx: Any, uri: str) -> None:
        """``resources/subscribe``: tell this connection when ``uri`` changes."""
        conn = connection_of(ctx)
        if conn is None:
            return  # no channel to tell it on
        self._hook(conn)
        await self._baseline({uri})
        self._subs.setdefault(conn, set()).add(uri)
        self._wanted.set()

    def unsubscribe(self, ctx: Any, uri: str) -> None:
        """``resources/unsubscribe``: stop telling this connection about ``uri``."""
        conn = connection_of(ctx)
        uris = self._subs.get(conn)
        if uris is not None:
            uris.discard(uri)
            if not uris:
                del self._subs[conn]
        self._forget_unwatched()

    async def listed(self, ctx: Any) -> None:
        """A handshake-era connection listed resources: tell it when the list changes."""
        conn = connection_of(ctx)
        if conn is None or conn in self._lists:
            return
        self._hook(conn)
        await self._baseline({LIST})
        self._lists.add(conn)
        self._wanted.set()

    async def listen(
        self, ctx: Any, params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        """``subscriptions/listen`` (2026-07-28): watch what the filter names while the
        stream is open; the SDK's handler acknowledges and streams the bus's events."""
        wanted = {u for u in params.notifications.resource_subscriptions or () if source_of(u)}
        if params.notifications.resources_list_changed:
            wanted.add(LIST)
        token = object()
        await self._baseline(wanted)
        self._listens[token] = frozenset(wanted)
        self._wanted.set()
        try:
            return await self.listener(ctx, params)
        finally:
            del self._listens[token]
            self._forget_unwatched()

    def _hook(self, conn: Any) -> None:
        """Drop everything of ``conn`` when it closes (its exit stack unwinds)."""
        if id(conn) in self._hooked:
            return
        self._hooked.add(id(conn))

        def drop() -> None:
            self._hooked.discard(id(conn))
            self._subs.pop(conn, None)
            self._lists.discard(conn)
            self._forget_unwatched()

        conn.exit_stack.callback(drop)

    async def until_unwatched(self) -> None:
        """Return once nothing is watched (every subscription and stream has ended)."""
        while self.watched():
            await self._dropped.wait()
            self._dropped = anyio.Event()

    def _forget_unwatched(self) -> None:
        self._dropped.set()
        watched = self.watched()
        for uri in [u for u in self._prints if u not in watched]:
            del self._prints[uri]
        sources = {source_of(u) for u in watched}
        for source in [s for s in self._stats if s not in sources]:
            del self._stats[source]

    async def _baseline(self, uris: set[str]) -> None:
        """Fingerprint newly watched URIs now, so a change right after the subscription
        is told (nothing is told for these: there is nothing to compare with yet)."""
        new = {u for u in uris if u not in self._prints}
        if not new:
            return
        async with self._lock:
            have = frozenset(self._prints)
            scan = await anyio.to_thread.run_sync(self.probe.scan, new, {}, have)
            for uri, fp in scan.prints.items():
                self._prints.setdefault(uri, fp)
            for source, sig in scan.stats.items():
                self._stats.setdefault(source, sig)

    # -- checking and telling ----------------------------------------------------------
    async def check(self) -> list[str]:
        """Look at everything watched now; tell subscribers what changed since they were
        last told. Returns the URIs told about (``LIST`` for the resource list)."""
        async with self._lock:
            watched = self.watched()
            if not watched:
                return []
            self.checks += 1
            scan = await anyio.to_thread.run_sync(
                self.probe.scan, watched, dict(self._stats), frozenset(self._prints)
            )
            watched = self.watched()  # subscriptions may have ended meanwhile
            changed: list[str] = []
            for uri, fp in scan.prints.items():
                if uri not in watched:
                    continue
                before = self._prints.get(uri, _NONE)
                self._prints[uri] = fp
                if before is not _NONE and before != fp:
                    changed.append(uri)
            for source, sig in scan.stats.items():
                if any(source_of(u) == source for u in watched):
                    self._stats[source] = sig
            for uri in changed:
                await self._tell(uri)
            return changed

    async def after_write(self) -> None:
        """This server wrote: check now, so subscribers hear of it at once. A failing
        check is logged, never turned into a failure of the write that was committed."""
        try:
            await self.check()
        except Exception:  # the write is done; the next poll will try again
            log.exception("checking subscribed resources after a write failed")

    async def _tell(self, uri: str) -> None:
        log.debug("changed: %s", uri)
        if uri == LIST:
            await self.bus.publish(ResourcesListChanged())
            targets = list(self._lists)
        else:
            await self.bus.publish(ResourceUpdated(uri=uri))
            targets = [c for c, uris in list(self._subs.items()) if uri in uris]
        for conn in targets:
            with anyio.move_on_after(SEND_TIMEOUT) as scope:
                if uri == LIST:
                    await conn.send_resource_list_changed()
                else:
                    await conn.send_resource_updated(uri)
            if scope.cancelled_caught:
                log.warning("a client did not take a change notification in time: dropped")

    async def _watch(self) -> None:
        while True:
            await self._wanted.wait()
            if not self.watched():
                self._wanted = anyio.Event()
                self.polling = False
                continue
            self.polling = True
            await anyio.sleep(self.interval)
            try:
                await self.check()
            except Exception:  # the watcher must outlive any one bad check
                log.exception("checking subscribed resources failed; will retry")

    @asynccontextmanager
    async def running(self) -> AsyncIterator[LiveResources]:
        """Run the watcher (when ``interval`` > 0) for the life of the block."""
        async with anyio.create_task_group() as tg:
            if self.interval > 0:
                tg.start_soon(self._watch)
            try:
                yield self
            finally:
                self.listener.close()
                tg.cancel_scope.cancel()


_NONE = object()


class LiveServer(Server[Any]):
    """The SDK's server, declaring ``resources.listChanged`` to handshake-era clients too
    (the 2026-07-28 capabilities follow from serving ``subscriptions/listen``)."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options or NotificationOptions(resources_changed=True),
            experimental_capabilities,
            extensions,
        )


def live_of(ctx: Any) -> LiveResources:
    """The live-resource hub of the server a request came to (its lifespan state)."""
    live = ctx.lifespan_context
    if not isinstance(live, LiveResources):  # pragma: no cover - the lifespan is ours
        raise MCPError(types.INTERNAL_ERROR, "the server is not running its own lifespan")
    return live


def watchable(uri: str) -> str:
    """``uri`` if it names a resource of this server, else a clear refusal."""
    if uri.startswith("mnemic://project/"):
        raise MCPError(
            types.INVALID_PARAMS,
            f"Cannot subscribe to {uri}: a project's resources are read when asked for, not "
            "live; read it again to see what changed (the memory_context prompt and the "
            "memory tool's read action show the project's memory too).",
            {"uri": uri},
        )
    if source_of(uri) is None or uri == LIST:
        known = ", ".join([MEMORY_URI, USER_URI, ARCHIVE_URI, SKILLS_URI, SKILL_URI_TEMPLATE])
        raise MCPError(
            types.INVALID_PARAMS,
            f"Cannot subscribe to {uri}: not a resource of this server; known: {known}",
            {"uri": uri},
        )
    return uri


def live_block(view: ClientView, target: str) -> str:
    """The block of ``target`` as it is now (a subscribed resource reads live)."""
    settings = view.home.settings.memory
    enabled = settings.memory_enabled if target == "memory" else settings.user_profile_enabled
    try:
        raw = view.memory.backend.read(target)
    except StorageError as exc:
        raise MCPError(types.INTERNAL_ERROR, exc.to_llm(), {"uri": f"mnemic://{target}"}) from exc
    level = view.home.settings.scan.level
    return load_block(target, raw, settings, level)[1].text if enabled else ""
