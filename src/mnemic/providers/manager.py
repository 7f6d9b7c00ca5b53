"""The provider manager: one external provider, time limits, failure isolation, scrubbing.

:class:`ProviderManager` sits between a session and its (at most one) memory provider:

* **one provider**: :meth:`ProviderManager.add` refuses a second with
  :class:`~mnemic.errors.ProviderConflict` (several providers mean bloated tool lists and
  backends that contradict each other);
* **time limits**: quick hooks (recall, turn start, prompt block) get
  ``agent.provider_timeout``; initialisation, the pre-compression hook and the provider's
  own tools get ``agent.provider_tool_timeout``. A call that overruns is abandoned (its
  thread is left to finish on its own) and the session goes on without it; a recall still
  running from the previous turn makes the next turn skip recall instead of piling up;
* **background work in order**: turn syncs, next-turn prefetches, memory mirrors and
  session switches run on one worker thread, first in first out, so turn N reaches the
  provider before turn N+1 and the caller never waits; :meth:`ProviderManager.shutdown`
  drains the queue for ``agent.shutdown_timeout`` seconds and reports what it abandoned;
* **isolation**: every exception is caught, logged and counted; nothing a provider does
  fails the user's turn. A provider whose ``initialize`` fails is switched off for the
  session;
* **scrubbing**: everything sent to the provider passes :func:`~.scrub.scrub_value`;
* **tool routing**: the provider's tools are normalised; names that clash with mnemic's
  own tools (``memory``, ``session_search``, the skill tools) or repeat are refused.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..config import AgentSettings
from ..curated.memory import MemoryCommitted
from ..errors import (
    MnemicError,
    ProviderConflict,
    ProviderTimeout,
    ProviderUnavailable,
    UnknownTool,
)
from ..tooling import ToolSpec
from .base import MemoryProvider, is_trivial_prompt
from .scrub import scrub_text, scrub_value

__all__ = ["RESERVED_TOOL_NAMES", "DrainReport", "ProviderManager", "normalize_tool_spec"]

log = logging.getLogger(__name__)
T = TypeVar("T")

RESERVED_TOOL_NAMES = frozenset(
    {"memory", "session_search", "skills_list", "skill_view", "skill_manage"}
)
"""Tool names only mnemic itself may define."""


@dataclass
class DrainReport:
    """What :meth:`ProviderManager.shutdown` found when it stopped the background queue."""

    status: str = "idle"
    """``idle`` (nothing queued), ``drained`` or ``timed_out``."""
    abandoned: int = 0
    """Queued tasks dropped because the drain ran out of time."""
    abandoned_labels: list[str] = field(default_factory=list)


class _Worker:
    """One daemon thread running queued tasks in order."""

    def __init__(self, name: str) -> None:
        self._queue: queue.Queue[tuple[str, Callable[[], None]] | None] = queue.Queue()
        self._name = name
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._stopped = False
        self.completed = 0

    def submit(self, label: str, task: Callable[[], None]) -> bool:
        with self._lock:
            if self._stopped:
                return False
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._queue.put((label, task))
            return True

    @property
    def started(self) -> bool:
        return self._thread is not None

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            label, task = item
            try:
                task()
            except Exception:  # pragma: no cover - tasks catch their own errors
                log.exception("provider task %s failed", label)
            finally:
                self.completed += 1

    def drain(self, timeout: float) -> bool:
        """Wait until everything queued so far has run (False when ``timeout`` passed)."""
        if self._thread is None:
            return True
        done = threading.Event()
        if not self.submit("drain", done.set):
            return not self._thread.is_alive()
        return done.wait(timeout)

    def stop(self) -> list[str]:
        """Stop taking tasks; drop what is still queued and return its labels."""
        with self._lock:
            self._stopped = True
        dropped: list[str] = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None and item[0] != "drain":
                dropped.append(item[0])
        self._queue.put(None)
        return dropped


def normalize_tool_spec(raw: Any) -> ToolSpec | None:
    """A provider's tool description as a :class:`ToolSpec` (``None`` when unusable).

    Accepts a ``ToolSpec``, an OpenAI ``{"type": "function", "function": {...}}`` entry,
    an Anthropic ``{"name", "description", "input_schema"}`` entry or a flat
    ``{"name", "description", "parameters"}`` dict.
    """
    if isinstance(raw, ToolSpec):
        return raw if raw.name and isinstance(raw.name, str) else None
    if not isinstance(raw, Mapping):
        return None
    body = raw.get("function") if raw.get("type") == "function" else raw
    if not isinstance(body, Mapping):
        return None
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    params = body.get("parameters", body.get("input_schema")) or {
        "type": "object",
        "properties": {},
    }
    if not isinstance(params, Mapping):
        return None
    return ToolSpec(name.strip(), str(body.get("description") or ""), dict(params))


class ProviderManager:
    """Runs the hooks of the session's one memory provider (see the module docstring).

    Without a provider every method is a cheap no-op, so callers never check.
    """

    def __init__(
        self,
        settings: AgentSettings | None = None,
        *,
        reserved: Iterable[str] = RESERVED_TOOL_NAMES,
    ) -> None:
        if settings is None:
            settings = AgentSettings()
        self.settings = settings
        self.reserved = frozenset(reserved)
        self.provider: MemoryProvider | None = None
        self.disabled_reason = ""
        """Why the provider was switched off for this session ('' while it runs)."""
        self.failures: dict[str, int] = {}
        """Failures (exceptions and timeouts) per hook."""
        self.last_error = ""
        self._tools: dict[str, ToolSpec] = {}
        self._prefetching: threading.Thread | None = None
        self._worker = _Worker("mnemic-provider-sync")
        self._closed = False
        self.drain_report: DrainReport | None = None

    # --- registration ---------------------------------------------------------------------
    def add(self, provider: MemoryProvider) -> None:
        """Make ``provider`` the session's provider (raises ProviderConflict for a second)."""
        if self.provider is not None and self.provider is not provider:
            raise ProviderConflict(_name(provider), _name(self.provider))
        self.provider = provider
        self._tools = {}

    @property
    def active(self) -> bool:
        """Whether a provider is set and has not been switched off."""
        return self.provider is not None and not self.disabled_reason and not self._closed

    @property
    def keeps_memory(self) -> bool:
        """Whether the active provider keeps memory on its own
        (:attr:`MemoryProvider.keeps_memory`)."""
        return self.active and bool(getattr(self.provider, "keeps_memory", False))

    @property
    def name(self) -> str:
        """The provider's name ('' without one)."""
        return _name(self.provider) if self.provider is not None else ""

    # --- timed calls ------------------------------------------------------------------------
    def _fail(self, hook: str, exc: BaseException) -> None:
        self.failures[hook] = self.failures.get(hook, 0) + 1
        self.last_error = f"{hook}: {type(exc).__name__}: {exc}"
        if isinstance(exc, ProviderTimeout):
            log.warning("%s", exc.to_llm())
        else:
            log.warning("memory provider %s failed in %s: %s", self.name, hook, exc)

    def _timed(
        self, hook: str, timeout: float, call: Callable[[], T], default: T
    ) -> tuple[T, threading.Thread | None]:
        """Run ``call`` on a daemon thread for at most ``timeout`` seconds."""
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["value"] = call()
            except BaseException as exc:  # contained: reported below
                box["error"] = exc

        thread = threading.Thread(target=run, name=f"mnemic-provider-{hook}", daemon=True)
        thread.start()
        thread.join(timeout)
        if thread.is_alive():
            self._fail(hook, ProviderTimeout(self.name, hook, timeout))
            return default, thread
        if "error" in box:
            self._fail(hook, box["error"])
            return default, None
        return box.get("value", default), None

    def _quick(self, hook: str, call: Callable[[], T], default: T) -> T:
        if not self.active:
            return default
        return self._timed(hook, self.settings.provider_timeout, call, default)[0]

    def _queue(self, label: str, call: Callable[[], None]) -> None:
        if not self.active:
            return

        def task() -> None:
            if self.disabled_reason:
                return
            try:
                call()
            except Exception as exc:
                self._fail(label, exc)

        self._worker.submit(label, task)

    # --- hooks ------------------------------------------------------------------------------
    def initialize(self, session_id: str, **context: Any) -> bool:
        """Initialise the provider; on failure or timeout it is off for this session."""
        provider = self.provider
        if provider is None or self._closed:
            return False
        try:
            available = provider.is_available()
        except Exception as exc:
            available = False
            self._fail("is_available", exc)
        if not available:
            try:
                reason = provider.unavailable_reason() or "it reports it is not available"
            except Exception:
                reason = "it reports it is not available"
            self.disabled_reason = reason
            self.last_error = ProviderUnavailable(self.name, reason).to_llm()
            log.warning("%s", self.last_error)
            return False
        before = sum(self.failures.values())
        self._timed(
            "initialize",
            self.settings.provider_tool_timeout,
            lambda: provider.initialize(session_id, **context),
            None,
        )
        if sum(self.failures.values()) > before:
            self.disabled_reason = f"initialize failed ({self.last_error})"
            return False
        self._load_tools()
        return True

    def _load_tools(self) -> None:
        provider = self.provider
        assert provider is not None
        empty: list[Any] = []
        raw, _ = self._timed(
            "tool_specs", self.settings.provider_timeout, lambda: list(provider.tool_specs()), empty
        )
        tools: dict[str, ToolSpec] = {}
        for item in raw or []:
            spec = normalize_tool_spec(item)
            if spec is None:
                log.warning("memory provider %s: ignored a malformed tool schema", self.name)
                continue
            if spec.name in self.reserved:
                log.warning(
                    "memory provider %s: tool %r clashes with a mnemic tool; refused",
                    self.name,
                    spec.name,
                )
                continue
            if spec.name in tools:
                log.warning("memory provider %s: duplicate tool %r ignored", self.name, spec.name)
                continue
            tools[spec.name] = spec
        self._tools = tools

    def system_prompt_block(self) -> str:
        """The provider's static prompt text ('' without a provider or on failure)."""
        provider = self.provider
        if provider is None:
            return ""
        text = self._quick("system_prompt_block", provider.system_prompt_block, "")
        return text.strip() if isinstance(text, str) else ""

    def on_turn_start(self, turn_number: int, message: str, **context: Any) -> None:
        """Tell the provider a user turn started (time-limited)."""
        provider = self.provider
        if provider is None:
            return
        clean = scrub_text(message)
        self._quick(
            "on_turn_start", lambda: provider.on_turn_start(turn_number, clean, **context), None
        )

    def prefetch(self, query: str, *, session_id: str) -> str:
        """Recall for this user message within ``agent.provider_timeout`` ('' otherwise).

        Trivial messages ("ok", "thanks", slash commands) recall nothing; a recall still
        running from an earlier turn makes this one skip.
        """
        provider = self.provider
        if provider is None or not self.active or is_trivial_prompt(query):
            return ""
        running = self._prefetching
        if running is not None and running.is_alive():
            log.info("memory provider %s: previous recall still running; skipped", self.name)
            self.failures["prefetch_skipped"] = self.failures.get("prefetch_skipped", 0) + 1
            return ""
        clean = scrub_text(query)
        text, straggler = self._timed(
            "prefetch",
            self.settings.provider_timeout,
            lambda: provider.prefetch(clean, session_id=session_id),
            "",
        )
        self._prefetching = straggler
        return text.strip() if isinstance(text, str) else ""

    def after_turn(
        self,
        user: str,
        assistant: str,
        *,
        session_id: str,
        messages: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """Queue ``sync_turn`` and then ``queue_prefetch`` (background, in order)."""
        provider = self.provider
        if provider is None or not user or not assistant:
            return
        u, a = scrub_text(user), scrub_text(assistant)
        msgs = scrub_value(list(messages)) if messages is not None else None
        self._queue(
            "sync_turn",
            lambda: provider.sync_turn(u, a, session_id=session_id, messages=msgs),
        )
        self._queue("queue_prefetch", lambda: provider.queue_prefetch(u, session_id=session_id))

    def memory_committed(self, event: MemoryCommitted, *, session_id: str) -> None:
        """Queue ``on_memory_write`` for each operation of a committed curated-memory write
        (in call order; an add that found its entry present changed nothing and is left
        out). The metadata names the writer's origin, the session and, for a replace or
        remove, the previous entry."""
        for change in event.changes():
            meta: dict[str, Any] = {"origin": event.origin, "session_id": session_id}
            if change.previous is not None and change.action != "add":
                meta["previous"] = change.previous
            self.memory_written(change.action, change.target, change.entry or "", meta)

    def memory_written(
        self, action: str, target: str, content: str, metadata: Mapping[str, Any] | None = None
    ) -> None:
        """Queue ``on_memory_write`` for a committed curated-memory write."""
        provider = self.provider
        if provider is None:
            return
        c = scrub_text(content)
        meta = scrub_value(dict(metadata or {}))
        self._queue("on_memory_write", lambda: provider.on_memory_write(action, target, c, meta))

    def pre_compress(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """Ask the provider for notes before ``messages`` are summarised (time-limited)."""
        provider = self.provider
        if provider is None or not self.active:
            return ""
        msgs = scrub_value(list(messages))
        text, _ = self._timed(
            "on_pre_compress",
            self.settings.provider_tool_timeout,
            lambda: provider.on_pre_compress(msgs),
            "",
        )
        return text.strip() if isinstance(text, str) else ""

    def session_switch(
        self, new_session_id: str, *, parent_session_id: str = "", reset: bool = False
    ) -> None:
        """Queue ``on_session_switch`` (after everything queued before it)."""
        provider = self.provider
        if provider is None:
            return
        self._queue(
            "on_session_switch",
            lambda: provider.on_session_switch(
                new_session_id, parent_session_id=parent_session_id, reset=reset
            ),
        )

    def session_end(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """Queue ``on_session_end`` with the conversation's messages."""
        provider = self.provider
        if provider is None:
            return
        msgs = scrub_value(list(messages))
        self._queue("on_session_end", lambda: provider.on_session_end(msgs))

    # --- tools ------------------------------------------------------------------------------
    def tool_specs(self) -> list[ToolSpec]:
        """The provider's usable tools (after initialisation)."""
        return list(self._tools.values()) if self.active else []

    def handles(self, name: str) -> bool:
        """Whether ``name`` is one of the provider's tools."""
        return self.active and name in self._tools

    def call_tool(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Run a provider tool within ``agent.provider_tool_timeout``; never raises."""
        provider = self.provider
        if provider is None or not self.handles(name):
            return UnknownTool(name, list(self._tools)).to_response()
        args = scrub_value(dict(arguments))
        before = self.failures.get(name, 0)
        box: dict[str, Any] = {}

        def call() -> Any:
            try:
                return provider.handle_tool_call(name, args)
            except MnemicError as exc:
                box["error"] = exc
                return None

        value, straggler = self._timed(name, self.settings.provider_tool_timeout, call, None)
        if "error" in box:
            return dict(box["error"].to_response())
        if straggler is not None:
            return ProviderTimeout(
                self.name, f"tool {name}", self.settings.provider_tool_timeout
            ).to_response()
        if self.failures.get(name, 0) > before:
            return {
                "success": False,
                "error": f"The memory provider's tool {name!r} failed ({self.last_error}). "
                "Nothing else was affected; continue without it.",
                "error_code": "provider_error",
            }
        if isinstance(value, str):
            try:
                decoded = json.loads(value)
            except ValueError:
                return {"success": True, "result": value}
            return decoded if isinstance(decoded, dict) else {"success": True, "result": decoded}
        if isinstance(value, Mapping):
            return dict(value)
        return {"success": True, "result": value}

    # --- teardown ---------------------------------------------------------------------------
    def flush(self, timeout: float | None = None) -> bool:
        """Wait for queued background work (False when ``timeout`` ran out)."""
        limit = self.settings.shutdown_timeout if timeout is None else timeout
        return self._worker.drain(limit)

    def shutdown(self, timeout: float | None = None) -> DrainReport:
        """Drain the queue (up to ``timeout``, default ``agent.shutdown_timeout``), drop
        what is left, then call the provider's ``shutdown``. Idempotent."""
        if self.drain_report is not None:
            return self.drain_report
        report = DrainReport()
        if self._worker.started:
            drained = self.flush(timeout)
            report.status = "drained" if drained else "timed_out"
        dropped = self._worker.stop()
        report.abandoned = len(dropped)
        report.abandoned_labels = dropped
        if dropped:
            log.warning(
                "memory provider %s: %d queued task(s) abandoned at shutdown",
                self.name,
                len(dropped),
            )
        provider = self.provider
        if provider is not None and not self._closed:
            self._timed("shutdown", self.settings.provider_timeout, provider.shutdown, None)
        self._closed = True
        self.drain_report = report
        return report

    def status(self) -> dict[str, Any]:
        """JSON-able state for ``mnemic provider status`` and the demo."""
        return {
            "provider": self.name or None,
            "active": self.active,
            "disabled_reason": self.disabled_reason or None,
            "tools": sorted(self._tools),
            "failures": dict(self.failures),
            "last_error": self.last_error or None,
        }


def _name(provider: MemoryProvider) -> str:
    name = getattr(provider, "name", "")
    return name if isinstance(name, str) and name else type(provider).__name__
