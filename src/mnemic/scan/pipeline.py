"""The layers after the rule table: normalisation views, decoded payloads, the classifier.

Called by :func:`mnemic.scan.scan_text` with the rule layer's result (from
:mod:`.matching`, which it also uses to read the other views). See docs/scanner.md for the
order and the reasons.
"""

from __future__ import annotations

from .. import unicode_fold as _unicode
from . import (
    classifier as _classifier,
    intent as _intent,
    normalise as _normalise,
    reference as _reference,
)
from ._pattern import CATEGORIES
from .matching import MAX_SCAN_CHARS, Finding, ScanResult, _rule_scan, _Table

__all__ = ["CLASSIFIER_ID", "INTENT_PREFIX", "analyse", "classifier_threshold", "intent_findings"]

#: The finding id of the learned layer.
CLASSIFIER_ID = "learned_classifier"
#: Finding ids of the intent layer are this prefix and the intent's name.
INTENT_PREFIX = "intent_"
#: Finding ids of the reference floor (:mod:`.reference`): this prefix and the id.
REFERENCE_PREFIX = "reference_"
_NOT_THREATS = frozenset({"invisible_unicode", "homoglyph", "oversize"})
_DECODERS = frozenset({"base64", "hex", "url", "rot13"})
_STRICT_LEVEL_ONLY = frozenset({"remote_exec_oneliner"})
_RANK = {c: i for i, c in enumerate(CATEGORIES)}
# Skills and context files are written in the imperative by nature: their classifier
# threshold is that of the next more lenient level.
_LENIENT_SCOPES = frozenset({"skill", "context"})
_NEXT = {"strict": "balanced", "balanced": "lenient", "lenient": "lenient"}


def classifier_threshold(scope: str, level: str) -> float:
    """The classifier score at or above which a text is flagged in ``scope`` at ``level``."""
    key = _NEXT[level] if scope in _LENIENT_SCOPES else level
    return _classifier.model().thresholds[key]


def _preview(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


def _layers(
    basis: str, raw: str, scope: str, level: str, table: _Table, seen: set[str]
) -> list[Finding]:
    """Findings of the views of ``basis`` and of the classifier (ids not in ``seen``)."""
    out: list[Finding] = []
    views = _normalise.views(basis)
    for kind, text, what in views:
        layer = "decode" if kind in _DECODERS else "normalise"
        for f in _rule_scan(text, table).findings:
            if f.category in _NOT_THREATS or f.id in seen:
                continue
            if level != "strict" and f.id in _STRICT_LEVEL_ONLY:
                continue
            seen.add(f.id)
            out.append(Finding(f.id, f.category, layer, f"in the {what} reading: {_preview(text)}"))
    raw = _normalise.mask_defensive(raw)
    if not _classifier.long_enough(raw):
        return out
    model = _classifier.model()
    threshold = classifier_threshold(scope, level)
    score, where = model.score(raw), ""
    scored = raw
    if score < threshold:
        for kind, text, what in views:
            if kind == "underscores":
                continue
            s = model.score(text)
            if s >= threshold:
                score, where, scored = s, f" in the {what} reading {_preview(text)}", text
                break
    if score >= threshold and CLASSIFIER_ID not in seen:
        words = ", ".join(model.top_words(scored)) or "-"
        out.append(
            Finding(
                CLASSIFIER_ID,
                "suspicious_wording",
                "classifier",
                f"score {score:.2f} >= threshold {threshold:.2f} (level {level}, scope {scope})"
                f"{where}; words weighing most: {words}",
            )
        )
    return out


# Holds matter where a person can be asked: memory entries, a few KiB at most. The
# reference floor reads this much of a text, so a 64 KiB file costs what 16 KiB do.
_REFERENCE_CHARS = 16_384
_REFERENCE_DETAIL = (
    "hold: the memory tool mnemic started from refuses this pattern; a person decides"
)


def intent_findings(found: list[_intent.Intent], scope: str) -> tuple[list[Finding], list[Finding]]:
    """(blocking, holding) findings of the intents ``found``. In the context scope
    (AGENTS.md and the like, imperative by nature) an intent never blocks on its own."""
    block: list[Finding] = []
    hold: list[Finding] = []
    for it in found:
        f = Finding(
            INTENT_PREFIX + it.name,
            it.category,
            "intent",
            f"{it.verdict}: {it.why} ({it.evidence})",
        )
        (block if it.verdict == "block" and scope != "context" else hold).append(f)
    return block, hold


def analyse(text: str, scope: str, level: str, table: _Table, rules: ScanResult) -> ScanResult:
    """Combine the rule layer's ``rules`` with the views, the classifier and the intents."""
    findings = [f for f in rules.findings if level == "strict" or f.id not in _STRICT_LEVEL_ONLY]
    head = text[:MAX_SCAN_CHARS]
    holds: list[Finding] = []
    if head.strip():
        basis = head if head.isascii() else _unicode.fold(_unicode.strip_for_matching(head))
        seen = {f.id for f in findings}
        findings += _layers(basis, head, scope, level, table, seen)
        masked = _normalise.mask_mentions(basis)
        if masked == basis and basis is not head:
            # The folding reads Cyrillic look-alikes as Latin letters, so a Russian cue
            # ("назывался «...»") is looked for in the text as written.
            as_written = _normalise.mask_mentions(head)
            if as_written != head:
                masked = _unicode.fold(_unicode.strip_for_matching(as_written))
        if masked != basis and any(f.category not in _NOT_THREATS for f in findings):
            # A quoted phrase is only talked about: the verdict is that of the text
            # without it (hidden characters and the cap still count).
            again = [f for f in _rule_scan(masked, table).findings]
            again += _layers(masked, masked, scope, level, table, {f.id for f in again})
            keep = {f.id for f in again}
            findings = [f for f in findings if f.category in _NOT_THREATS or f.id in keep]
        read = head if masked == basis else _normalise.mask_mentions(head)
        found, describes = _intent.read(read)
        if found and describes:
            # A lure quoted in a note about a drill or a red-team exercise is talked about.
            unlured = _intent.mask_lures(read)
            if unlured != read:
                found = _intent.read(unlured)[0]
        block, holds = intent_findings(found, scope)
        if (
            findings
            and not found
            and all(f.layer == "classifier" for f in findings)
            and _intent.advice_note(read)
        ):
            # A learned score alone on a warning that protects the user ("the bank never
            # asks for your OTP"), with no intent found: no finding (scanner 13).
            findings = []
        if (
            findings
            and all(f.layer == "classifier" for f in findings)
            and (describes or (not block and _intent.privacy_request(read)))
        ):
            # A learned score alone, on a note that describes a threat (an alert, a talk,
            # a phishing drill) or asks to keep the user's own details from others: a
            # person decides.
            holds += findings
            findings = []
        if findings and not block and all(f.layer == "classifier" for f in findings):
            # A learned score with no rule matched and no blocking intent is a suspicion,
            # not evidence: a person decides (scanner 15). On the strangers' dev halves a
            # quarter of its lone blocks were honest notes (a housekeeping report, a
            # mixed-language reminder). Beside an intent that only holds it holds too: two
            # suspicions are a question (scanner 16: trained on strangers' rows, the score
            # rises on honest notes of their topics, and a generated honest look-alike of
            # dev was blocked this way); beside a rule's or a blocking intent's finding it
            # blocks.
            holds += findings
            findings = []
        findings += block
        if not findings and not describes and scope != "context":
            holds += [
                Finding(REFERENCE_PREFIX + rid, category, "reference", _REFERENCE_DETAIL)
                for rid, category in _reference.held(
                    _unicode.strip_for_matching(read[:_REFERENCE_CHARS])
                )
            ]
    if not findings and not holds:
        return rules if not rules.findings else ScanResult(())
    findings.sort(key=lambda f: _RANK[f.category])
    holds.sort(key=lambda f: _RANK[f.category])
    return ScanResult(tuple(findings), () if findings else tuple(holds))
