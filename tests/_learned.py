"""A helper of the scanner tests: what the classifier alone may do to an honest note."""

from __future__ import annotations

from mnemic.scan import ScanResult


def at_most_a_learned_hold(result: ScanResult) -> bool:
    """No rule or intent finding: allowed, or held by the classifier alone. Since scanner
    16 the classifier, trained on strangers' rows, holds some honest notes that name an
    address or a channel (a question for a person, never a refusal; docs/scanner.md)."""
    return result.verdict != "block" and all(
        f.layer == "classifier" for f in (*result.findings, *result.holds)
    )
