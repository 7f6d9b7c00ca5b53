"""A session's unattended writers: their tools, the memory flush, the background reviews.

The flush and the review (:mod:`.extract`) write as an *unattended* actor:
:func:`unattended_tools` opens their own :class:`~mnemic.curated.memory.Memory` (and skills)
with ``origin="flush"`` or ``origin="review"``, so the approval gate lets them add but
stages their replace and remove; their committed memory writes reach the session's
provider through a :meth:`~mnemic.curated.memory.Memory.observe` callback, with that origin.

* :func:`flush_memory`: the pre-compression flush of a conversation, reported as events;
* :class:`BackgroundReviews`: the reviews of one session, each on a daemon thread;
* :func:`review_tidy`: after a review (``[agent] review_tidy``), tidy proposals staged for
  the targets at ``memory.pressure_ratio`` or fuller.

In a session with a project (:mod:`mnemic.curated.scope`), both write its store too: their
``memory`` tool takes ``scope="project"`` (a Memory of the project's store opened as the
same unattended actor), and the review's tidy looks at the project's store as well.

Neither ever raises into the user's turn: failures come back in the
:class:`~mnemic.agent.ExtractionReport`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..curated.entries import TARGETS
from ..curated.memory import Memory, MemoryCommitted
from ..curated.view import MemoryView
from ..errors import MnemicError
from ..home import Home
from ..llm.client import ChatClient
from ..ops.tidy import Staged, propose, stage
from ..sessions import embedder_loader_for
from ..skills.governed import GovernedSkills
from ..skills.tools import skill_tool_specs
from ..tools import ToolRegistry, home_tools
from .extract import ExtractionReport, run_flush, run_review

__all__ = ["BackgroundReviews", "Emit", "flush_memory", "review_tidy", "unattended_tools"]

log = logging.getLogger(__name__)

Emit = Callable[..., None]
"""``emit(kind, **data)``: the session's event sink (never raises)."""


def unattended_tools(
    home: Home,
    session_id: str,
    origin: str,
    *,
    skills: bool,
    observer: Callable[[MemoryCommitted], None],
    project: Home | None = None,
) -> ToolRegistry:
    """``memory`` (and with ``skills`` the skill tools) over a Memory and skills opened as
    the unattended actor ``origin``; its committed memory writes go to ``observer``.
    ``project`` (a project store, :func:`~mnemic.curated.scope.open_project`) is what
    the tool's ``scope="project"`` writes, as the same actor."""
    mem = Memory.open(home, origin=origin, session_id=session_id)
    mem.observe(observer)
    opened: list[Memory] = []

    def project_memory() -> Memory:
        if not opened:
            assert project is not None
            opened.append(Memory.open(project, origin=origin, session_id=session_id))
            opened[0].observe(observer)
        return opened[0]

    governed: list[GovernedSkills] = []

    def skill_tools() -> GovernedSkills:
        if not governed:
            governed.append(GovernedSkills.open(home, origin=origin, session_id=session_id))
        return governed[0]

    tools = home_tools(
        home,
        memory=lambda: mem,
        sessions=lambda: None,
        skills=skill_tools,
        project=project_memory if project is not None else None,
    )
    names = ["memory", *(s.name for s in skill_tool_specs())] if skills else ["memory"]
    return tools.subset(names)


def flush_memory(
    client: ChatClient,
    system_prompt: str,
    messages: Sequence[Mapping[str, Any]],
    tools: Callable[[], ToolRegistry],
    *,
    timeout: float | None,
    emit: Emit,
) -> ExtractionReport:
    """Run :func:`~.extract.run_flush` with the registry ``tools()`` builds; emits a
    ``tool`` event per call and a ``flush`` event with the report. Never raises."""
    try:
        registry = tools()
    except MnemicError as exc:
        return ExtractionReport("flush", error=exc.to_llm())
    report = run_flush(
        client,
        system_prompt,
        messages,
        registry,
        timeout=timeout,
        on_call=lambda n, a, r: emit("tool", name=n, arguments=a, result=r, by="flush"),
    )
    emit("flush", report=report)
    return report


def review_tidy(home: Home, session_id: str, project: Home | None = None) -> list[Staged]:
    """Stage tidy proposals as the background review (``origin="review"``) for the
    targets at ``memory.pressure_ratio`` or fuller: nothing when memory has room. The
    queue's hygiene (:func:`mnemic.ops.tidy.stage`) keeps it from proposing twice, or
    again after a rejection; at most one proposal per entry is ever pending. With
    ``project`` (a project store), its MEMORY.md is looked at too, each store's
    proposals staged in its own queue."""
    staged: list[Staged] = []
    for store in (home, project) if project is not None else (home,):
        view = MemoryView.open(store)
        ratio = store.settings.memory.pressure_ratio
        targets = TARGETS if store is home else ("memory",)  # USER.md is global only
        full = [t for t in targets if view.usage(t).ratio >= ratio]
        if not full:
            continue
        report = propose(view, targets=full, embedder_loader=embedder_loader_for(home))
        wanted = [p for p in report.proposals if p.stageable]
        if wanted:
            staged += stage(Memory.open(store, origin="review", session_id=session_id), wanted)
    return staged


class BackgroundReviews:
    """The background reviews of one session, each on a daemon thread.

    :attr:`reports` collects their :class:`~mnemic.agent.ExtractionReport` in the order
    they finish; :meth:`join` waits for the ones still running.
    """

    def __init__(self) -> None:
        self.reports: list[ExtractionReport] = []
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def start(
        self,
        client: ChatClient,
        system_prompt: str,
        messages: Sequence[Mapping[str, Any]],
        tools: Callable[[], ToolRegistry],
        *,
        rounds: int,
        timeout: float | None,
        emit: Emit,
        tidy: Callable[[], list[Staged]] | None = None,
    ) -> None:
        """Start :func:`~.extract.run_review` over a copy of ``messages``, with the registry
        ``tools()`` builds on the thread, then ``tidy()`` (:func:`review_tidy`) when given;
        emits a ``tool`` event per call and a ``review`` event with the report. Any
        failure is contained in the report."""
        messages = [dict(m) for m in messages]

        def run() -> None:
            try:
                registry = tools()
                report = run_review(
                    client,
                    system_prompt,
                    messages,
                    registry,
                    rounds=rounds,
                    timeout=timeout,
                    on_call=lambda n, a, r: emit(
                        "tool", name=n, arguments=a, result=r, by="review"
                    ),
                )
            except Exception as exc:  # contained: a review must never break the session
                log.exception("background review failed")
                report = ExtractionReport("review", error=f"{type(exc).__name__}: {exc}")
            if tidy is not None:
                try:
                    report.tidy = [s.as_dict() for s in tidy()]
                except Exception as exc:  # contained as well, the review's own work stands
                    log.warning("tidy after the background review failed: %s", exc)
                    report.tidy = [{"error": f"{type(exc).__name__}: {exc}"}]
            with self._lock:
                self.reports.append(report)
            emit("review", report=report)

        thread = threading.Thread(target=run, name="mnemic-review", daemon=True)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
        thread.start()

    def join(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for each review started so far; False if one is
        still running."""
        with self._lock:
            threads = list(self._threads)
        for t in threads:
            t.join(timeout)
        return not any(t.is_alive() for t in threads)
