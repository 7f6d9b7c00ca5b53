"""``mnemic import hermes``: a whole Hermes Agent home into a mnemic home, in one call.

:func:`import_hermes` first reads every part it will import (the memory files, the
session database's tables, the skills folder), so a damaged part stops the import with
an :class:`~mnemic.errors.IntegrationError` or :class:`~mnemic.errors.ImportFailed`
naming the file and what to do before anything is written. Then memory (MEMORY.md,
USER.md: :mod:`.memory`), the archive (ARCHIVE.jsonl), the sessions (``state.db``,
through :func:`mnemic.sessions.import_path`, with its progress) and the skills
(:mod:`.skills`) are imported in that order. A missing part is skipped and reported.
Sessions mnemic's Hermes provider recorded are merged with Hermes's copy first, in
Hermes's order (:mod:`.provider`), so no turn is held twice or out of place.

Writes are a person's, made from the command line: the foreground actor with origin
``import:hermes`` (its approval policy applies; provenance credits the entries to it).
Every part is keyed (entries by text, sessions and messages by their Hermes ids, skills
by name), so running it again adds nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...curated.entries import TARGETS
from ...curated.memory import Memory
from ...errors import ImportFailed, IntegrationError
from ...home import Home
from ...sessions import ImportProgress, SessionStore, import_path, open_store
from ...sessions.attachments import AttachmentStore
from ...sessions.importing.formats import ImportPlan, Reading
from ...sessions.importing.hermes import hermes_items, open_hermes_db
from .memory import import_archive, import_memory
from .provider import merge_recorded
from .report import PartReport
from .skills import import_skills
from .source import ARCHIVE_FILES, MEMORY_FILES, SKILLS_DIR, STATE_DB, HermesHome, locate

__all__ = ["ORIGIN", "HermesReport", "import_hermes"]

ORIGIN = "import:hermes"
"""The origin of every write of the import (audit journal, provenance)."""


@dataclass
class HermesReport:
    """What ``import_hermes`` did (or, with ``dry_run``, would do), part by part."""

    hermes_home: str
    dry_run: bool
    memory: dict[str, PartReport] = field(default_factory=dict)
    archive: PartReport = field(default_factory=lambda: PartReport(None))
    sessions: dict[str, Any] | None = None
    """The session import's report (a dry run: sessions and messages it would add)."""
    sessions_path: str | None = None
    skills: PartReport = field(default_factory=lambda: PartReport(None))

    @property
    def missing(self) -> list[str]:
        """The parts the Hermes home does not have (skipped)."""
        out = [MEMORY_FILES[t] for t in TARGETS if self.memory.get(t, PartReport(None)).missing]
        if self.archive.missing:
            out.append(ARCHIVE_FILES[0])
        if self.sessions_path is None:
            out.append(STATE_DB)
        if self.skills.missing:
            out.append(SKILLS_DIR + "/")
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "hermes_home": self.hermes_home,
            "dry_run": self.dry_run,
            "memory": {t: r.to_dict() for t, r in self.memory.items()},
            "archive": self.archive.to_dict(),
            "sessions": {
                "path": self.sessions_path,
                "missing": self.sessions_path is None,
                **(self.sessions or {}),
            },
            "skills": self.skills.to_dict(),
            "missing": self.missing,
        }


def _preflight(hermes: HermesHome) -> Path | None:
    """Read every part once (raising on a damaged one); the session database's path."""
    parts = [hermes.part(MEMORY_FILES[t]) for t in TARGETS]
    for target in TARGETS:
        hermes.memory_entries(target)
    archive = hermes.archive_path()
    db = hermes.state_db()
    if db is not None:
        try:
            with open_hermes_db(db) as opened:
                opened.counts()
        except ImportFailed as exc:  # checked before any part is written: nothing was
            raise ImportFailed(exc.path, exc.reason, before_any=True) from exc
    skills = hermes.skills()
    if all(p is None for p in parts) and archive is None and db is None and skills is None:
        raise IntegrationError(
            str(hermes.root),
            "not a Hermes home: none of memories/MEMORY.md, memories/USER.md, "
            "memories/ARCHIVE.jsonl, state.db or skills/ is there",
            "Give the Hermes home's path (mnemic import hermes PATH) or set HERMES_HOME.",
        )
    return db


def _plan_sessions(store: SessionStore, db_path: Path) -> dict[str, Any]:
    """What importing the session database would add (nothing is written)."""
    plan = ImportPlan(store.has_session)
    with open_hermes_db(db_path) as db:
        plan.count(hermes_items(db, Reading(plan)))
    return plan.to_dict()


def import_hermes(
    home: Home,
    source: str | os.PathLike[str] | None = None,
    *,
    dry_run: bool = False,
    progress: Callable[[ImportProgress], None] | None = None,
    environ: Mapping[str, str] = os.environ,
) -> HermesReport:
    """Import the Hermes home ``source`` (default ``$HERMES_HOME``, else ``~/.hermes``)
    into ``home`` (see the module docstring). ``dry_run`` writes nothing and reports what
    would land where; ``progress`` follows the session import."""
    hermes = HermesHome(locate(source, environ))
    db_path = _preflight(hermes)
    report = HermesReport(str(hermes.root), dry_run)
    memory = Memory.open(home, actor="foreground", origin=ORIGIN)
    report.memory = import_memory(memory, hermes, dry_run=dry_run)
    report.archive = import_archive(memory, hermes, dry_run=dry_run)
    if db_path is not None:
        report.sessions_path = str(db_path)
        with open_store(home) as store:
            if dry_run:
                report.sessions = _plan_sessions(store, db_path)
            else:
                kept = AttachmentStore.of_home(home)  # the images of multimodal messages
                merged = merge_recorded(store, db_path, kept)
                done = import_path(
                    store, db_path, format="hermes", progress=progress, attachments=kept
                )
                report.sessions = {
                    **done.to_dict(),
                    "merged_recorded_sessions": len(merged.sessions),
                    "merged_recorded_messages": merged.messages,
                }
    if memory.governor is not None:
        report.skills = import_skills(memory.governor, hermes, dry_run=dry_run)
    return report
