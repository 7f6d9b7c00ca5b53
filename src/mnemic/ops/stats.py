"""``mnemic stats`` and ``/metrics``: every metric derived for one home.

A short-lived CLI process starts its live metrics from zero, so :func:`collect_stats`
derives the same names (see :mod:`mnemic.governance.metrics`) from the audit journal
(counters, histograms) and from the current state of memory, the pending queues and the
session history (gauges). :func:`metrics_text` serves ``/metrics``: the live metrics of a
long-running process when they are enabled, with the gauges refreshed from the home.
"""

from __future__ import annotations

from ..curated.entries import TARGETS, parse
from ..curated.scope import ProjectHome, stored_projects
from ..curated.usage import Usage
from ..governance.metrics import Stats, get_metrics
from ..governance.storage import open_journal, open_pending
from ..home import Home
from ..registry import backend_for

__all__ = ["collect_stats", "metrics_text"]

_TIMINGS = (("lock_wait_ms", "memory_lock_wait_ms"), ("write_ms", "memory_write_latency_ms"))


def collect_stats(home: Home, *, journal: bool = True) -> Stats:
    """Derive every metric for ``home`` from its audit journal and current files.

    ``journal=False`` skips the counters and histograms (only the gauges, from files).
    A project store (:class:`ProjectHome`) reports its MEMORY.md only (it has no USER.md)
    and no session history (the home's, which the global store reports).
    """
    stats = Stats()
    settings = home.settings
    records = open_journal(home.root, settings).records() if journal else iter(())
    for rec in records:
        if rec.get("subsystem", "memory") != "memory":
            continue
        action = str(rec.get("action", "?"))
        result = str(rec.get("result", "?"))
        stats.inc("memory_mutation_total", action=action, result=result)
        error = rec.get("error")
        if rec.get("counted"):
            stats.inc("memory_consolidation_failure_total")
        if error == "loop_stopped":
            stats.inc("memory_terminal_skip_total")
        if error == "drift_detected" or rec.get("cause") == "drift_detected":
            stats.inc("memory_drift_detected_total")
        patterns = rec.get("patterns")
        for pattern in patterns if isinstance(patterns, list) else ():  # hand edits aside
            stats.inc("memory_threat_block_total", pattern=str(pattern))
        decision = _pending_decision(action, result)
        if decision:
            stats.inc("memory_pending_total", decision=decision)
        for key, name in _TIMINGS:
            value = rec.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                stats.observe(name, float(value))
    store = backend_for(settings)
    backend = store.curated(home, cleanup=False)
    backups = 0
    project = isinstance(home, ProjectHome)
    for target in ("memory",) if project else TARGETS:
        try:
            raw = backend.read(target)
        except Exception as exc:
            stats.notes.append(f"{target}: {exc}")
            continue
        entries = parse(raw) if raw is not None else []
        usage = Usage.of(target, entries, settings.char_limit(target))
        stats.set("memory_usage_ratio", round(usage.chars / usage.limit, 6), target=target)
        backups += len(backend.backups(target))
    stats.set("memory_backup_count", backups)
    waiting = 0
    for subsystem in ("memory", "skills"):
        waiting += len(open_pending(home.root, settings, subsystem).ids())
    stats.set("memory_pending_waiting", waiting)
    if not project and store.has_sessions(home):
        try:
            with store.sessions(home) as sessions:
                info = sessions.stats()
            stats.set("session_count", info.sessions)
            stats.set("session_message_count", info.messages)
        except Exception as exc:
            stats.notes.append(f"session history: {exc}")
    return stats


def _pending_decision(action: str, result: str) -> str | None:
    if result == "staged":
        return "staged"
    if action == "approve":
        return "approved" if result in ("ok", "noop") else "approve_failed"
    if action in ("reject", "expire"):
        return {"reject": "rejected", "expire": "expired"}[action]
    return None


def metrics_text(home: Home) -> str:
    """Exposition text for ``/metrics``: live metrics when enabled, else derived ones.

    Gauges (usage, backups, pending, session counts) are refreshed from ``home`` first.
    Derived values cover every store, as ``mnemic stats`` prints them (each project
    store's series labelled ``project``); the live registry is this process's writes.
    """
    live = get_metrics()
    stats = collect_stats(home, journal=not live.enabled)
    if not live.enabled:
        for store in stored_projects(home):
            stats.add_labelled(collect_stats(store), project=store.project.id)
        return stats.text()
    for labels, value in stats.gauges.get("memory_usage_ratio", {}).items():
        live.usage(dict(labels)["target"], value)
    live.backups(int(stats.value("memory_backup_count")))
    live.pending_waiting(int(stats.value("memory_pending_waiting")))
    if "session_count" in stats.gauges:
        live.sessions(int(stats.value("session_count")), int(stats.value("session_message_count")))
    return live.exposition()
