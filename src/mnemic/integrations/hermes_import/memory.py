"""Hermes's MEMORY.md, USER.md and ARCHIVE.jsonl into curated memory and its archive.

Each entry goes through the governed write path of the :class:`~mnemic.curated.memory.Memory`
it is given: an ``add`` (so the threat scan, the budget and the approval gate apply: a
write the policy stages waits in the approval queue, one the scanner blocks is reported
and not imported). An entry that does not fit the budget is archived with the reason
``imported_over_budget`` (never dropped), and the entries of ARCHIVE.jsonl with the reason
``imported`` (:func:`mnemic.curated.archive.archive_texts`, scanned as well).

Entries are keyed by their text: one that is live, archived or waiting in the approval
queue already is counted ``present`` and not written again, so a second import adds
nothing. A dry run takes the same decisions against the current state without writing:
the scan, the budget as the entries before it would fill it, and the approval policy.

:func:`import_entries` is that entry path for any importer of memory files (Claude
Code's, ChatGPT's saved memories): given where each entry comes from
(:func:`source_of`), its write is recorded with the origin ``import:<agent>
<file>:<line>`` (:meth:`~mnemic.governance.Governor.writing_as`), so provenance, the
audit journal, the archive and a staged write keep it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from ...curated.archive import archive_texts, archived_keys, check_text
from ...curated.changes import entry_key
from ...curated.entries import TARGETS, char_count
from ...curated.memory import Memory
from ...curated.operations import Op
from ...errors import BudgetExceeded, ContentRejected, ThreatBlocked, ToolError
from .report import PartReport, preview
from .source import ArchiveLine, HermesHome

__all__ = ["Source", "import_archive", "import_entries", "import_memory", "source_of"]

Source = tuple[str, str]
"""Where an entry comes from: ``(origin, where)``, the origin its writes are recorded
with (``import:<agent> <file>:<line>``) and the place a report names."""


_MAX_ORIGIN = 200


def source_of(origin: str, path: Path, line: int) -> Source:
    """Where an entry of ``path`` at ``line`` comes from, for an import whose writes have
    ``origin`` (``import:<agent>``): the origin ``import:<agent> <file>:<line>`` (a long
    path keeps its end) and the place ``<file>:<line>``."""
    where = f"{path}:{line}"
    room = _MAX_ORIGIN - len(origin) - 1
    short = where if len(where) <= room else "…" + where[-(room - 1) :]
    return f"{origin} {short}", where


class _Known:
    """What a target holds already: live texts, archived keys, texts waiting for approval."""

    def __init__(self, memory: Memory, target: str) -> None:
        self.live = set(memory.entries(target))
        self.archived = archived_keys(memory, target)
        self.pending: set[str] = set()
        if memory.governor is not None:
            for record in memory.governor.pending("memory").listing().records:
                payload = record.payload
                for op in payload.get("operations") or ():
                    op_target = op.get("target") or payload.get("target")
                    if op_target == target and op.get("action") == "add":
                        self.pending.add(str(op.get("content", "")).strip())

    def has(self, text: str) -> bool:
        return text in self.live or text in self.pending or entry_key(text) in self.archived


def _refusal(exc: ThreatBlocked | ContentRejected) -> tuple[str, str]:
    if isinstance(exc, ThreatBlocked):
        return "blocked", ", ".join(pid for pid, _ in exc.findings)
    return "rejected", exc.reason


def import_memory(
    memory: Memory, hermes: HermesHome, *, dry_run: bool = False
) -> dict[str, PartReport]:
    """Import MEMORY.md and USER.md (see the module docstring); one report per target."""
    reports: dict[str, PartReport] = {}
    for target in TARGETS:
        entries = hermes.memory_entries(target)
        path = hermes.part("memories/MEMORY.md" if target == "memory" else "memories/USER.md")
        report = reports[target] = PartReport(str(path) if entries is not None else None)
        if entries:
            import_entries(memory, target, entries, report, dry_run=dry_run)
    return reports


@contextlib.contextmanager
def _as(memory: Memory, source: Source | None) -> Iterator[None]:
    if source is None or memory.governor is None:
        yield
    else:
        with memory.governor.writing_as(source[0]):
            yield


def import_entries(
    memory: Memory,
    target: str,
    entries: list[str],
    report: PartReport,
    *,
    dry_run: bool = False,
    sources: Mapping[str, Source] | None = None,
) -> None:
    """Import ``entries`` into ``target`` (see the module docstring), counting each in
    ``report``. ``sources`` maps an entry to where it comes from: its writes (and what
    the approval gate stages for it) are recorded with that origin, and the report
    names that place."""
    sources = sources or {}
    known = _Known(memory, target)
    over: list[str] = []
    would = list(memory.entries(target)) if dry_run else []
    policy = (
        memory.governor.gate.policy("memory", destructive=False).policy
        if memory.governor
        else "allow"
    )
    for text in entries:
        where = sources[text][1] if text in sources else target
        if known.has(text):
            report.count("present")
            continue
        if dry_run:
            try:
                check_text(text, memory.level)
            except (ThreatBlocked, ContentRejected) as exc:
                outcome, why = _refusal(exc)
                report.count(outcome, where, preview(text), why)
                continue
            if char_count([*would, text]) > memory.limit(target):
                over.append(text)
            elif policy == "block":
                report.count("refused", where, preview(text), "approval policy: block")
            elif policy in ("ask", "stage"):
                report.count("staged", where, preview(text), "waits for approval")
            else:
                would.append(text)
                report.count("added")
            continue
        try:
            with _as(memory, sources.get(text)):
                result = memory.apply(target, [Op("add", text)])
        except BudgetExceeded:
            over.append(text)
            continue
        except (ThreatBlocked, ContentRejected) as exc:
            outcome, why = _refusal(exc)
            report.count(outcome, where, preview(text), why)
            continue
        except ToolError as exc:
            report.count("refused", where, preview(text), exc.code)
            continue
        if result.staged:
            report.count("staged", where, preview(text), f"pending id {result.pending_id}")
        else:
            report.count("added" if result.written else "present")
    if not sources:
        _archive(memory, target, over, "imported_over_budget", "over_budget", report, dry_run)
        return
    for text in over:  # one archive commit each, recorded with where it comes from
        with _as(memory, sources.get(text)):
            named = {text: sources[text][1]} if text in sources else None
            _archive(
                memory,
                target,
                [text],
                "imported_over_budget",
                "over_budget",
                report,
                dry_run,
                named,
            )


def _archive(
    memory: Memory,
    target: str,
    texts: list[str],
    reason: str,
    outcome: str,
    report: PartReport,
    dry_run: bool,
    where: dict[str, str] | None = None,
) -> None:
    """Archive ``texts`` of ``target`` for ``reason``, each scanned first."""
    fit: list[str] = []
    for text in texts:
        try:
            fit.append(check_text(text, memory.level))
        except (ThreatBlocked, ContentRejected) as exc:
            kind, why = _refusal(exc)
            report.count(kind, (where or {}).get(text, target), preview(text), why)
    if not fit:
        return
    done = fit if dry_run else archive_texts(memory, target, fit, reason)
    for text in fit:
        if text in done:
            report.count(
                outcome,
                (where or {}).get(text, target),
                preview(text),
                "archived: over the budget" if outcome == "over_budget" else "",
            )
        else:
            report.count("present")


def import_archive(memory: Memory, hermes: HermesHome, *, dry_run: bool = False) -> PartReport:
    """Import ARCHIVE.jsonl into the archive, reason ``imported`` (see the module)."""
    path: Path | None = hermes.archive_path()
    report = PartReport(str(path) if path is not None else None)
    if path is None:
        return report
    by_target: dict[str, list[str]] = {t: [] for t in TARGETS}
    where: dict[str, str] = {}
    known = {t: _Known(memory, t) for t in TARGETS}
    if dry_run:  # what the memory files bring in is known by now in a real run
        for t in TARGETS:
            for text in hermes.memory_entries(t) or ():
                with contextlib.suppress(ThreatBlocked, ContentRejected):
                    known[t].live.add(check_text(text, memory.level))
    line: ArchiveLine
    for line in hermes.archive_lines(path):
        if line.text is None:
            report.count("skipped", line.where, "", line.problem or "")
        elif known[line.target].has(line.text) or line.text in by_target[line.target]:
            report.count("present")
        else:
            by_target[line.target].append(line.text)
            where[line.text] = line.where
    for target, texts in by_target.items():
        _archive(memory, target, texts, "imported", "archived", report, dry_run, where)
    return report
