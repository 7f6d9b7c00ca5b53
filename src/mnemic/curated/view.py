"""A view of curated memory: what a person or a page reads, without an agent session.

:class:`MemoryView` reads MEMORY.md and USER.md as they are now: the live entries, who
wrote each and when, the usage, the history, the block the next session's prompt will
show. It is what the console's pages and the CLI's read commands open: no frozen
snapshot, no loop guards, no governor, nothing cleaned up and nothing written (but the
first sightings of entries in the provenance ledger, when a caller asks for them with
``provenance(record=True)``). :meth:`listing` reads a target's text and its ledger once
each for everything a page shows of it.

An agent's session, :class:`~mnemic.curated.memory.Memory`, is a view with a frozen
snapshot, loop guards and governed writes on top; it opens as a writer (what crashed
writers left behind is removed first).

Threats are judged at the home's ``[scan] level``, held by the view (:attr:`level`) and
passed to every scan: no process-wide setting is changed.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from ..config import Settings
from ..errors import MnemicError
from ..governance.chain import Journal
from ..governance.storage import open_journal
from ..home import Home
from ..registry import backend_for
from . import fold_cache
from .backend import CuratedBackend
from .entries import parse
from .fold import Fold
from .provenance import Provenance, entry_key, legacy
from .recovery import explainer, found_entries
from .scope import ProjectHome
from .snapshot import Block, load_block, sanitize
from .store import CuratedStore, check_target, file_hash
from .usage import Usage
from .usage_log import read_counts
from .verdicts import VerdictCache

log = logging.getLogger(__name__)

__all__ = ["MemoryView", "TargetListing", "open_backend"]

_UNKNOWN = Provenance(None, None, "unknown")


def open_backend(home: Home, *, cleanup: bool = True) -> CuratedBackend:
    """The curated backend of ``home`` (its ``store`` setting picks the kind, see
    :mod:`mnemic.registry`); ``cleanup`` (a writer's open) first removes debris left by
    crashed writers."""
    return backend_for(home.settings).curated(home, cleanup=cleanup)


@dataclass(frozen=True, slots=True)
class TargetListing:
    """One target as read at one moment: its text, entries, their provenance, usage."""

    target: str
    raw: str | None
    """The stored text (``None``: the target does not exist)."""
    entries: tuple[str, ...]
    provenance: tuple[Provenance, ...]
    """Who wrote each entry and when (same order as ``entries``)."""
    usage: Usage


class MemoryView:
    """Curated memory as it is now, for reading. Open with :meth:`MemoryView.open`."""

    def __init__(
        self,
        backend: CuratedBackend,
        settings: Settings | None = None,
        *,
        journal: Journal | None = None,
        root: Path | None = None,
        project: str | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.project = project
        """The directory whose project store this is (:mod:`.scope`: its block is
        PROJECT MEMORY, and it has no USER.md); ``None``: the global store."""
        self.backend = backend
        self.store = CuratedStore(backend, self.settings.memory, level=self.level, verdicts=root)
        self._journal = journal
        self.root = root
        """The home's directory (a project store's own directory for a project;
        ``None``: a view of a bare backend); its derived caches live there
        (:mod:`.usage_log`)."""

    @classmethod
    def open(cls, home: Home | str | Path | None = None, *, profile: str | None = None) -> Self:
        """A view of an existing home's memory (default: ``MNEMIC_HOME`` / platform dir);
        :class:`~mnemic.errors.HomeNotFound` when there is none, nothing created."""
        if not isinstance(home, Home):
            home = Home.open(home, profile, create=False)
        journal = open_journal(home.root, home.settings)
        view = cls(
            open_backend(home, cleanup=False),
            home.settings,
            journal=journal,
            root=home.root,
            project=home.selector if isinstance(home, ProjectHome) else None,
        )
        view._unmade_view = isinstance(home, ProjectHome) and home.unmade
        return view

    _unmade_view = False

    @property
    def unmade(self) -> bool:
        """Whether this is a view of a project store no write made (nothing is recorded
        or created for it)."""
        return self._unmade_view

    @property
    def journal(self) -> Journal | None:
        """The audit journal provenance and the archive are folded from (``None``: a
        view of a bare backend, which knows neither)."""
        return self._journal

    def fold(self, *, write_back: bool = True) -> Fold | None:
        """The journal folded now (:mod:`.fold`); ``None`` without a journal or when it
        cannot be read (logged: provenance then reads as unknown). Without
        ``write_back`` nothing is written (the cache is only read)."""
        journal = self.journal
        if journal is None:
            return None
        try:
            return fold_cache.load(journal, write_back=write_back)
        except MnemicError as exc:
            log.warning("provenance unknown: the audit journal cannot be read: %s", exc)
            return None

    def annotate(self, target: str, raw: str | None, entries: tuple[str, ...]) -> list[Provenance]:
        """The provenance of ``entries`` (the entries of ``raw``, the text just read)."""
        fold = self.fold()
        if fold is None:
            old = legacy(self.backend, target)
            return [old.get(k, _UNKNOWN) for k in (entry_key(e) for e in entries)]
        known = fold.targets.get(target)
        # the ledger of an earlier version is read only when the journal does not
        # explain every entry (a home upgraded from it, or a hand edit since)
        explained = known is not None and known.recorded and not known.partial
        if explained and known is not None and all(entry_key(e) in known.live for e in entries):
            return list(fold.view(target, raw, entries).provenance)
        old = legacy(self.backend, target)
        return list(fold.view(target, raw, entries, legacy=old or None).provenance)

    @property
    def level(self) -> str:
        """The ``[scan] level`` entries are judged at."""
        return self.settings.scan.level

    def limit(self, target: str) -> int:
        """Character budget of a target."""
        return self.store.limit(check_target(target))

    def in_prompt(self, target: str) -> bool:
        """Whether ``[memory]`` puts this target's block in the system prompt."""
        memory = self.settings.memory
        enabled = memory.user_profile_enabled if target == "user" else memory.memory_enabled
        return bool(enabled)

    # -- live state -------------------------------------------------------------
    def entries(self, target: str) -> list[str]:
        """Raw live entries of a target, read from disk now."""
        return self.store.load(check_target(target))

    def usage(self, target: str) -> Usage:
        """Live usage of a target."""
        target = check_target(target)
        return Usage.of(target, self.store.load(target), self.store.limit(target))

    def listing(self, target: str) -> TargetListing:
        """The target's text, entries, their provenance and usage, from one read of the
        text and one of its ledger (no lock; an unusable ledger reads as unknown)."""
        target = check_target(target)
        raw = self.backend.read(target)
        entries = tuple(parse(raw)) if raw is not None else ()
        return TargetListing(
            target,
            raw,
            entries,
            tuple(self.annotate(target, raw, entries)),
            Usage.of(target, entries, self.store.limit(target)),
        )

    def block(self, target: str) -> Block:
        """The block the next session's system prompt shows of ``target`` now (raises
        when the target cannot be read)."""
        target = check_target(target)
        raw = self.backend.read(target)
        project = self.project is not None
        verdicts = self.verdict_cache()
        block = load_block(
            target, raw, self.settings.memory, self.level, project=project, verdicts=verdicts
        )[1]
        if verdicts is not None:
            verdicts.save()
        return block

    def verdict_cache(self) -> VerdictCache | None:
        """The clean scan verdicts remembered in this home (:mod:`mnemic.curated.verdicts`);
        ``None`` for a view of a bare backend."""
        return None if self.root is None else VerdictCache.of_home(self.root)

    # -- provenance -----------------------------------------------------------------
    def now(self) -> float:
        """The time provenance is recorded at."""
        return time.time()

    def provenance(self, target: str, *, record: bool = False) -> list[tuple[str, Provenance]]:
        """Live entries of ``target`` (raw text) with who wrote each and when.

        Provenance is kept beside the file, matched by content; an entry without any
        reads as ``unknown`` (``hand`` when it was changed outside mnemic). ``record``
        also writes down when entries changed by hand were first seen (under the lock,
        waited for briefly; skipped when busy or read-only). See
        :mod:`mnemic.curated.provenance`.
        """
        target = check_target(target)
        if record:
            self.record_sightings([target])
        listed = self.listing(target)
        return list(zip(listed.entries, listed.provenance, strict=True))

    def record_sightings(self, targets: list[str]) -> None:
        """Record, under each target's lock (waited for briefly), a change no record
        covers (a hand edit: its entries are first seen now) and the entries of a target
        no record names yet. Skipped, logged, when busy, read-only or not journaled."""
        journal = self.journal
        if journal is None or self.unmade:  # no store: nothing to record, nothing made
            return
        wait = min(1.0, self.settings.memory.lock_timeout)
        for target in targets:
            try:
                with self.backend.transaction([target], wait) as txn:
                    found = {target: file_hash(txn.read(target))}
                    journal.reconcile(
                        found,
                        explainer(self.backend, ()),
                        first_seen=lambda t: found_entries(self.backend, t),
                        subsystem="memory",
                        **self._context(),
                    )
            except MnemicError as exc:  # busy, read-only, unreadable: a plain look
                log.info("provenance of %s read without recording: %s", target, exc)

    def _context(self) -> dict[str, str | None]:
        """Who notices, in the records :meth:`record_sightings` appends."""
        return {"session": None, "origin": "view"}

    def provenance_listing(self, target: str) -> dict[str, Any]:
        """The long form of a target for display (JSON-able): live entries, sanitised
        (a blocked entry only as its placeholder), each with its provenance and how often
        it mattered (``uses``, ``last_used``: ``None`` before any session was counted),
        its times as a model reads them (``utc``: ISO 8601 UTC, beside the Unix seconds),
        and usage."""
        from ..timefmt import utc_minute  # only this long form needs it

        pairs = self.provenance(target)
        shown = sanitize(target, [e for e, _ in pairs], self.level)
        counts = read_counts(self.root)

        def use(entry: str) -> dict[str, Any]:
            found = counts.of(entry_key(entry)) if counts.counted else None
            if found is None:
                return {"uses": None, "last_used": None}
            return {"uses": found.uses, "last_used": found.last_used}

        def readable(fields: dict[str, Any]) -> dict[str, Any]:
            """The times (Unix seconds) a model can read: ISO 8601 UTC to the minute."""
            when = ("created", "updated", "confirmed", "expires", "last_used")
            return {k: utc_minute(fields[k]) for k in when if fields.get(k) is not None}

        def entry(shown_text: str, text: str, p: Any) -> dict[str, Any]:
            fields = {"entry": shown_text, **p.as_dict(), **use(text)}
            return {**fields, "utc": readable(fields)}

        return {
            "target": target,
            "entries": [entry(d, e, p) for d, (e, p) in zip(shown.display, pairs, strict=True)],
            "usage": Usage.of(target, [e for e, _ in pairs], self.store.limit(target)).as_dict(),
        }
