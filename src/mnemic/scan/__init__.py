"""Threat scanner: prompt injection, exfiltration, secrets, persistence, hidden Unicode.

PLACEHOLDER INTERFACE (being implemented): ``scan_text(text, scope)`` returns a
:class:`ScanResult` whose ``findings`` each carry a pattern ``id`` and a ``category``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Finding", "ScanResult", "scan_text"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One threat finding: a stable pattern id and its category."""

    id: str
    category: str


@dataclass(frozen=True, slots=True)
class ScanResult:
    """The findings for one text; ``blocked`` when there is at least one."""

    findings: tuple[Finding, ...]

    @property
    def blocked(self) -> bool:
        return bool(self.findings)


_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\u2062\u2063\u2064\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def scan_text(text: str, scope: str = "strict") -> ScanResult:
    found = [Finding(f"invisible_U+{ord(c):04X}", "invisible_unicode") for c in sorted(set(text) & _INVISIBLE)]
    low = text.lower()
    if "ignore" in low and "instructions" in low:
        found.append(Finding("instruction_override", "injection"))
    return ScanResult(tuple(found))
