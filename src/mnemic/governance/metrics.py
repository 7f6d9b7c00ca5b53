"""Metrics: a facade the core calls, with a no-op default and Prometheus behind a switch.

Names (Prometheus conventions; ``_ms`` histograms are in milliseconds):

=====================================  =========  =========================================
``memory_usage_ratio{target}``         gauge      chars / budget of MEMORY.md and USER.md
``memory_mutation_total{action,result}`` counter  every write attempt (result: ok, noop,
                                                  staged, refused, failed)
``memory_consolidation_failure_total`` counter    refusals the circuit breaker counts
``memory_terminal_skip_total``         counter    calls stopped by a loop guard (terminal)
``memory_drift_detected_total``        counter    writes refused because of drift
``memory_threat_block_total{pattern}`` counter    writes refused by the threat scanner
``memory_pending_total{decision}``     counter    staged, approved, approve_failed,
                                                  rejected, expired
``memory_pending_waiting``             gauge      pending writes waiting now
``memory_lock_wait_ms``                histogram  time waiting for the sidecar lock
``memory_write_latency_ms``            histogram  time of the durable write itself
``memory_backup_count``                gauge      drift backups on disk
``session_search_total{result}``       counter    session_search calls (ok, error)
``session_search_latency_ms``          histogram  session_search time
``session_count`` / ``session_message_count``  gauge  size of the session history
=====================================  =========  =========================================

In a long-running process (the MCP server, an agent) with ``[metrics] enabled = true``,
:func:`enable_metrics` switches the process-wide facade to live Prometheus metrics and
:func:`metrics_text` returns the exposition text for ``/metrics``. ``prometheus_client``
is imported only then. A short-lived CLI process starts from zero, so ``mnemic stats``
derives the same names from the audit journal and the files instead
(:func:`mnemic.ops.stats.collect_stats`, into a :class:`Stats`).
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "BUCKETS_MS",
    "Metrics",
    "PrometheusMetrics",
    "Stats",
    "enable_metrics",
    "get_metrics",
    "reset_metrics",
]

BUCKETS_MS = (0.5, 1.0, 2.5, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2500.0, 10000.0)

_HELP = {
    "memory_usage_ratio": ("gauge", "Characters used / character budget, per target."),
    "memory_mutation_total": ("counter", "Memory write attempts by action and result."),
    "memory_consolidation_failure_total": (
        "counter",
        "Refusals counted by the per-turn circuit breaker (no match, over budget, ...).",
    ),
    "memory_terminal_skip_total": ("counter", "Memory calls stopped by a loop guard."),
    "memory_drift_detected_total": ("counter", "Writes refused because a file drifted."),
    "memory_threat_block_total": ("counter", "Writes refused by the threat scanner."),
    "memory_pending_total": ("counter", "Pending-queue events by decision."),
    "memory_pending_waiting": ("gauge", "Pending writes waiting for approval."),
    "memory_lock_wait_ms": ("histogram", "Milliseconds spent waiting for the lock."),
    "memory_write_latency_ms": ("histogram", "Milliseconds spent in the durable write."),
    "memory_backup_count": ("gauge", "Drift backups kept on disk."),
    "session_search_total": ("counter", "session_search calls by result."),
    "session_search_latency_ms": ("histogram", "Milliseconds per session_search call."),
    "session_count": ("gauge", "Sessions in the session history."),
    "session_message_count": ("gauge", "Messages in the session history."),
}


class Metrics:
    """The facade: every method is a no-op here (the default)."""

    enabled = False

    def mutation(self, action: str, result: str) -> None:
        """One write attempt finished with ``result``."""

    def consolidation_failure(self) -> None:
        """A refusal the circuit breaker counts."""

    def terminal_skip(self) -> None:
        """A call stopped by a loop guard."""

    def drift_detected(self) -> None:
        """A write refused because the file drifted."""

    def threat_block(self, pattern: str) -> None:
        """A write refused by the threat scanner (one call per pattern id)."""

    def pending(self, decision: str) -> None:
        """A pending-queue event (staged, approved, approve_failed, rejected, expired)."""

    def lock_wait(self, ms: float) -> None:
        """Time spent waiting for a lock."""

    def write_latency(self, ms: float) -> None:
        """Time spent in a durable write."""

    def usage(self, target: str, ratio: float) -> None:
        """Current usage ratio of a target."""

    def backups(self, count: int) -> None:
        """Drift backups on disk."""

    def pending_waiting(self, count: int) -> None:
        """Pending writes waiting now."""

    def search(self, ms: float, result: str = "ok") -> None:
        """One session_search call (for the surfaces that run it)."""

    def sessions(self, sessions: int, messages: int) -> None:
        """Size of the session history."""

    def exposition(self) -> str:
        """Prometheus exposition text of the live metrics ('' when disabled)."""
        return ""


class PrometheusMetrics(Metrics):
    """Live metrics in a private ``prometheus_client`` registry."""

    enabled = True

    def __init__(self) -> None:
        from ..extras import needs_extra

        with needs_extra("metrics", "Live Prometheus metrics ([metrics] enabled)"):
            import prometheus_client as pc

        self._pc = pc
        self.registry = pc.CollectorRegistry(auto_describe=True)

        def made(name: str, *labels: str) -> Any:
            """The metric ``name`` of the kind and with the help text ``_HELP`` gives."""
            kind, text = _HELP[name]
            if kind == "histogram":
                return pc.Histogram(name, text, labels, buckets=BUCKETS_MS, registry=self.registry)
            made_as = pc.Gauge if kind == "gauge" else pc.Counter
            return made_as(name, text, labels, registry=self.registry)

        self._usage = made("memory_usage_ratio", "target")
        self._mutation = made("memory_mutation_total", "action", "result")
        self._consolidation = made("memory_consolidation_failure_total")
        self._terminal = made("memory_terminal_skip_total")
        self._drift = made("memory_drift_detected_total")
        self._threat = made("memory_threat_block_total", "pattern")
        self._pending = made("memory_pending_total", "decision")
        self._waiting = made("memory_pending_waiting")
        self._lock = made("memory_lock_wait_ms")
        self._write = made("memory_write_latency_ms")
        self._backups = made("memory_backup_count")
        self._search = made("session_search_total", "result")
        self._search_ms = made("session_search_latency_ms")
        self._sessions = made("session_count")
        self._messages = made("session_message_count")

    def mutation(self, action: str, result: str) -> None:
        self._mutation.labels(action, result).inc()

    def consolidation_failure(self) -> None:
        self._consolidation.inc()

    def terminal_skip(self) -> None:
        self._terminal.inc()

    def drift_detected(self) -> None:
        self._drift.inc()

    def threat_block(self, pattern: str) -> None:
        self._threat.labels(pattern).inc()

    def pending(self, decision: str) -> None:
        self._pending.labels(decision).inc()

    def lock_wait(self, ms: float) -> None:
        self._lock.observe(ms)

    def write_latency(self, ms: float) -> None:
        self._write.observe(ms)

    def usage(self, target: str, ratio: float) -> None:
        self._usage.labels(target).set(ratio)

    def backups(self, count: int) -> None:
        self._backups.set(count)

    def pending_waiting(self, count: int) -> None:
        self._waiting.set(count)

    def search(self, ms: float, result: str = "ok") -> None:
        self._search.labels(result).inc()
        self._search_ms.observe(ms)

    def sessions(self, sessions: int, messages: int) -> None:
        self._sessions.set(sessions)
        self._messages.set(messages)

    def exposition(self) -> str:
        return str(self._pc.generate_latest(self.registry).decode("utf-8"))


_lock = threading.Lock()
_current: Metrics = Metrics()


def get_metrics() -> Metrics:
    """The process-wide facade (a no-op until :func:`enable_metrics`)."""
    return _current


def enable_metrics() -> Metrics:
    """Switch this process to live Prometheus metrics (idempotent); needs prometheus_client."""
    global _current
    with _lock:
        if not _current.enabled:
            _current = PrometheusMetrics()
        return _current


def reset_metrics() -> None:
    """Back to the no-op facade (tests)."""
    global _current
    with _lock:
        _current = Metrics()


# -- derived statistics (mnemic stats) -------------------------------------------------


@dataclass
class Stats:
    """Metric values derived from a home's audit journal and files."""

    counters: dict[str, Counter[tuple[tuple[str, str], ...]]] = field(default_factory=dict)
    gauges: dict[str, dict[tuple[tuple[str, str], ...], float]] = field(default_factory=dict)
    histograms: dict[str, list[float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def inc(self, name: str, value: float = 1.0, **labels: str) -> None:
        """Add to a counter."""
        self.counters.setdefault(name, Counter())[tuple(sorted(labels.items()))] += value  # type: ignore[assignment]

    def set(self, name: str, value: float, **labels: str) -> None:
        """Set a gauge."""
        self.gauges.setdefault(name, {})[tuple(sorted(labels.items()))] = value

    def observe(self, name: str, value: float) -> None:
        """Add an observation to a histogram."""
        self.histograms.setdefault(name, []).append(value)

    def add_labelled(self, other: Stats, **labels: str) -> None:
        """Add ``other``'s counters and gauges to these, each series with ``labels`` too
        (another store's, ``project=ID``: ``mnemic stats`` over every store). Histograms
        carry no labels and stay this store's."""
        for name, counter in other.counters.items():
            for key, count in counter.items():
                self.inc(name, count, **dict(key), **labels)
        for name, gauge in other.gauges.items():
            for key, level in gauge.items():
                self.set(name, level, **dict(key), **labels)
        self.notes.extend(f"{', '.join(labels.values())}: {note}" for note in other.notes)

    def value(self, name: str, **labels: str) -> float:
        """A counter or gauge value (0 when never set)."""
        key = tuple(sorted(labels.items()))
        if name in self.counters:
            return float(self.counters[name].get(key, 0))
        return float(self.gauges.get(name, {}).get(key, 0.0))

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form: {name: value | [{labels..., value}] | histogram summary}."""
        out: dict[str, Any] = {}
        for name in _HELP:
            kind = _HELP[name][0]
            if kind == "histogram":
                values = sorted(self.histograms.get(name, []))
                out[name] = {
                    "count": len(values),
                    "sum": round(sum(values), 3),
                    "p50": _quantile(values, 0.5),
                    "p99": _quantile(values, 0.99),
                }
                continue
            series = self.counters.get(name) if kind == "counter" else self.gauges.get(name)
            if not series:
                out[name] = 0 if kind == "counter" and not _labels_of(name) else []
                continue
            if list(series) == [()]:
                out[name] = _num(series[()])
            else:
                out[name] = [{**dict(k), "value": _num(v)} for k, v in sorted(series.items())]
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def text(self) -> str:
        """Prometheus exposition text."""
        lines: list[str] = []
        for name, (kind, help_text) in _HELP.items():
            lines.append(f"# HELP {name} {help_text}")
            lines.append(f"# TYPE {name} {kind}")
            if kind == "histogram":
                values = self.histograms.get(name, [])
                for bound in BUCKETS_MS:
                    n = sum(1 for v in values if v <= bound)
                    lines.append(f'{name}_bucket{{le="{bound}"}} {n}')
                lines.append(f'{name}_bucket{{le="+Inf"}} {len(values)}')
                lines.append(f"{name}_sum {_num(sum(values))}")
                lines.append(f"{name}_count {len(values)}")
                continue
            series = self.counters.get(name) if kind == "counter" else self.gauges.get(name)
            if not series:
                if not _labels_of(name):
                    lines.append(f"{name} 0")
                continue
            for labels, value in sorted(series.items()):
                rendered = ",".join(f'{k}="{_escape(v)}"' for k, v in labels)
                lines.append(
                    f"{name}{{{rendered}}} {_num(value)}" if rendered else f"{name} {_num(value)}"
                )
        return "\n".join(lines) + "\n"


def _labels_of(name: str) -> bool:
    return name in (
        "memory_usage_ratio",
        "memory_mutation_total",
        "memory_threat_block_total",
        "memory_pending_total",
        "session_search_total",
    )


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 6)


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return round(values[min(len(values) - 1, int(q * len(values)))], 3)
