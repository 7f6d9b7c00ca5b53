"""The curated-memory facade for one agent session: frozen snapshot plus live writes.

A :class:`Memory` is opened once per session. It loads both targets and freezes their
snapshot blocks, which the system prompt shows unchanged for the whole session (so the
prompt prefix stays byte-identical and provider prompt caches keep hitting). Writes go to
disk at once and are visible to the next session (or after :meth:`Memory.new_session`).
Tool responses report the live state, including changes other writers made since this
session last looked.

A ``Memory`` belongs to one session and is not meant to be shared between threads; any
number of sessions and processes may share one home.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Settings
from ..errors import ConfigError, EntryChanged, StorageError
from ..home import Home
from .backend import CuratedBackend, FileBackend
from .entries import TARGETS
from .guard import LoopGuard
from .snapshot import Block, display_entry, load_block, sanitize
from .store import Commit, CuratedStore, Op, OpResult, check_target
from .usage import Usage, label

__all__ = ["Changes", "Memory", "ReadResult", "Snapshot", "WriteResult", "open_backend"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The frozen view of both targets taken at session start."""

    blocks: Mapping[str, Block]
    entries: Mapping[str, tuple[str, ...]]
    """Raw entries as loaded (the blocks show them sanitised)."""
    enabled: Mapping[str, bool]
    errors: Mapping[str, str] = field(default_factory=dict)
    """Targets that could not be read, with the reason (their block is omitted)."""
    taken_at: float = 0.0

    def block(self, target: str) -> str:
        """The rendered block of one target ('' when empty, disabled or unreadable)."""
        if not self.enabled.get(target, False):
            return ""
        b = self.blocks.get(target)
        return b.text if b is not None else ""

    @property
    def text(self) -> str:
        """Both enabled, non-empty blocks, MEMORY first, separated by a blank line."""
        return "\n\n".join(b for b in (self.block(t) for t in TARGETS) if b)


@dataclass(frozen=True, slots=True)
class Changes:
    """Entries another writer added or removed since this session last saw a target."""

    target: str
    added: tuple[str, ...]
    removed: tuple[str, ...]

    def describe(self) -> str:
        """One sentence for the model."""
        parts = []
        if self.added:
            parts.append(f"{len(self.added)} added")
        if self.removed:
            parts.append(f"{len(self.removed)} removed")
        what = ", ".join(parts) or "entries reordered"
        return (
            f"{label(self.target)} was changed by another session or tool since you last saw "
            f"it ({what}); the system prompt still shows the snapshot from session start."
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "target": self.target,
            "note": self.describe(),
            "added": list(self.added),
            "removed": list(self.removed),
        }


@dataclass(frozen=True, slots=True)
class WriteResult:
    """A successful write (or a no-op such as a duplicate add)."""

    target: str
    action: str
    message: str
    usage: Usage
    results: tuple[OpResult, ...]
    written: bool
    external_changes: Changes | None = None


@dataclass(frozen=True, slots=True)
class ReadResult:
    """Live entries of a target, sanitised for display."""

    target: str
    entries: tuple[str, ...]
    usage: Usage
    blocked: tuple[str, ...]
    """Handles (``entry:<hex>``) of entries hidden because of a threat finding."""
    differs_from_snapshot: bool
    external_changes: Changes | None = None


def open_backend(home: Home) -> CuratedBackend:
    """The curated backend selected by the home's settings (``store``)."""
    store = home.settings.store
    if store == "files":
        backend = FileBackend(home.memories_dir, history_limit=home.settings.memory.history_limit)
        removed = backend.cleanup()
        if removed:
            log.info("removed %d stale temp file(s) left by crashed writers", len(removed))
        return backend
    import importlib

    try:
        module = importlib.import_module("mnemic.backends.postgres")
    except ImportError as exc:
        raise ConfigError(
            "store",
            f"the PostgreSQL backend is not available ({exc}); install mnemic[postgres]",
        ) from exc
    remote: CuratedBackend = module.open_curated_backend(home)
    return remote


class Memory:
    """Curated memory for one session. Open with :meth:`Memory.open`.

    >>> mem = Memory.open()                      # doctest: +SKIP
    >>> mem.add("user", "Prefers answers in metric units")
    >>> mem.snapshot.text                        # unchanged until new_session()
    """

    def __init__(self, backend: CuratedBackend, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.backend = backend
        self.store = CuratedStore(backend, self.settings.memory)
        self.guard = LoopGuard(self.settings.memory.max_failures_per_turn)
        self._known: dict[str, tuple[str, ...]] = {}
        self.snapshot = self._take_snapshot()

    @classmethod
    def open(cls, home: Home | str | Path | None = None, *, profile: str | None = None) -> Memory:
        """Open the curated memory of a home (default: ``MNEMIC_HOME`` / platform dir)."""
        if not isinstance(home, Home):
            home = Home.open(home, profile)
        return cls(open_backend(home), home.settings)

    # -- snapshot -------------------------------------------------------------
    def _take_snapshot(self) -> Snapshot:
        blocks: dict[str, Block] = {}
        entries: dict[str, tuple[str, ...]] = {}
        errors: dict[str, str] = {}
        for target in TARGETS:
            try:
                raw = self.backend.read(target)
            except StorageError as exc:
                log.warning("%s", exc.to_llm())
                errors[target] = exc.to_llm()
                continue
            loaded, block = load_block(target, raw, self.settings.memory)
            if block.usage.over_budget:
                log.warning(
                    "%s is over its budget (%s); the snapshot is capped",
                    self.backend.location(target),
                    block.usage.line(),
                )
            blocks[target] = block
            entries[target] = loaded
            self._known[target] = loaded
        enabled = {
            "memory": self.settings.memory.memory_enabled,
            "user": self.settings.memory.user_profile_enabled,
        }
        return Snapshot(blocks, entries, enabled, errors, time.time())

    def new_session(self) -> Snapshot:
        """Reload both targets and freeze a new snapshot (new session or after compression)."""
        self.guard = LoopGuard(self.settings.memory.max_failures_per_turn)
        self._known.clear()
        self.snapshot = self._take_snapshot()
        return self.snapshot

    def tool(self, arguments: str | dict[str, Any] | None) -> dict[str, Any]:
        """Run one ``memory`` tool call (JSON object or string); return the JSON response."""
        from .tool import run_memory_tool

        return run_memory_tool(self, arguments)

    def begin_turn(self) -> None:
        """Start of a user turn: re-arm the per-turn circuit breaker."""
        self.guard.begin_turn()

    # -- live state -------------------------------------------------------------
    def entries(self, target: str) -> list[str]:
        """Raw live entries of a target, read from disk now."""
        return self.store.load(check_target(target))

    def usage(self, target: str) -> Usage:
        """Live usage of a target."""
        target = check_target(target)
        return Usage.of(target, self.store.load(target), self.store.limit(target))

    def read(self, target: str) -> ReadResult:
        """Live entries (blocked ones replaced by a placeholder) and usage."""
        target = check_target(target)
        live = tuple(self.store.load(target))
        changes = self._observe(target, live)
        shown = sanitize(target, live)
        return ReadResult(
            target,
            shown.display,
            Usage.of(target, live, self.store.limit(target)),
            tuple(handle for _, handle, _ in shown.blocked),
            live != self.snapshot.entries.get(target, ()),
            changes,
        )

    def poll_external_changes(self) -> list[Changes]:
        """Changes made by others since this session last saw each target (then forgets them)."""
        out = []
        for target in TARGETS:
            try:
                live = tuple(self.store.load(target))
            except StorageError:
                continue
            changes = self._observe(target, live)
            if changes is not None:
                out.append(changes)
        return out

    def _observe(self, target: str, fresh: Sequence[str]) -> Changes | None:
        fresh = tuple(fresh)
        known = self._known.get(target)
        self._known[target] = fresh
        if known is None or known == fresh:
            return None
        old, new = set(known), set(fresh)
        return Changes(
            target,
            tuple(display_entry(target, e)[0] for e in fresh if e not in old),
            tuple(display_entry(target, e)[0] for e in known if e not in new),
        )

    # -- writes -----------------------------------------------------------------
    def add(self, target: str, content: str) -> WriteResult:
        """Add one entry (an exact duplicate succeeds without writing)."""
        return self.apply(target, [Op("add", content)])

    def replace(self, target: str, old_text: str, content: str) -> WriteResult:
        """Replace the whole entry that ``old_text`` designates with ``content``."""
        return self.apply(target, [Op("replace", content, old_text)])

    def remove(self, target: str, old_text: str) -> WriteResult:
        """Remove the entry that ``old_text`` designates."""
        return self.apply(target, [Op("remove", None, old_text)])

    def batch(
        self, target: str, operations: Sequence[Op], *, allow_empty: bool = False
    ) -> WriteResult:
        """Apply several operations all-or-nothing; the budget is checked on the result."""
        return self.apply(target, operations, batch=True, allow_empty=allow_empty)

    def apply(
        self,
        target: str,
        operations: Sequence[Op],
        *,
        batch: bool = False,
        allow_empty: bool = False,
        guarded: bool = False,
    ) -> WriteResult:
        """Apply operations to a target. ``guarded`` adds the loop guards (tool calls)."""
        target = check_target(target)
        if guarded:
            self.guard.check_breaker()

        def precommit(before: list[str], after: list[str], results: list[OpResult]) -> None:
            self._check_seen(target, before, results)
            self.guard.check_oscillation(target, before, after)

        commit = self.store.apply(
            target,
            operations,
            batch=batch,
            allow_empty=allow_empty,
            precommit=precommit if guarded else None,
        )
        changes = self._observe(target, commit.before)
        self._known[target] = commit.after
        if commit.written:
            self.guard.note_write(target, commit.before, commit.after)
        usage = Usage.of(target, commit.after, self.store.limit(target))
        return WriteResult(
            target,
            "batch" if batch else operations[0].action,
            _message(commit, batch),
            usage,
            commit.results,
            commit.written,
            changes,
        )


    def _check_seen(self, target: str, before: list[str], results: list[OpResult]) -> None:
        """Optimistic concurrency per entry: refuse to overwrite or delete an entry the
        model has not seen in its current form (edited or added by someone else)."""
        known = self._known.get(target)
        if known is None:
            return
        seen = set(known)
        for r in results:
            if r.previous is not None and r.previous not in seen:
                self._known[target] = tuple(before)  # now it has been shown
                raise EntryChanged(target, display_entry(target, r.previous)[0])


def _message(commit: Commit, batch: bool) -> str:
    if batch:
        n = len(commit.results)
        dup = sum(1 for r in commit.results if r.status == "duplicate")
        extra = f" ({dup} add(s) were already present)" if dup else ""
        return f"Applied {n} operation(s){extra}."
    r = commit.results[0]
    return {
        "added": "Entry added.",
        "duplicate": "Entry already exists; nothing to add.",
        "replaced": "Entry replaced.",
        "removed": "Entry removed.",
    }[r.status]
