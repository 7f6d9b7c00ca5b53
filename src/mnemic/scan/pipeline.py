"""The layers after the rule table: normalisation views, decoded payloads, the classifier.

Called by :func:`mnemic.scan.scan_text` with the rule layer's result (from
:mod:`.matching`, which it also uses to read the other views). See docs/scanner.md for the
order and the reasons.
"""

from __future__ import annotations

import re

from .. import unicode_fold as _unicode
from . import (
    classifier as _classifier,
    intent as _intent,
    normalise as _normalise,
    reference as _reference,
)
from ._pattern import CATEGORIES
from .matching import MAX_SCAN_CHARS, Finding, ScanResult, _rule_scan, _Table

__all__ = [
    "CLASSIFIER_ID",
    "DESTINATION_PREFIX",
    "INTENT_PREFIX",
    "analyse",
    "classifier_threshold",
    "destination_finding",
    "intent_findings",
    "may_name_destination",
    "pair_finding",
    "pair_text",
]

#: The finding id of the learned layer.
CLASSIFIER_ID = "learned_classifier"
#: Finding ids of the intent layer are this prefix and the intent's name.
INTENT_PREFIX = "intent_"
#: Finding ids of the reference floor (:mod:`.reference`): this prefix and the id.
REFERENCE_PREFIX = "reference_"
#: Finding ids of the destination layer (:mod:`.destinations`): this prefix and the relation.
DESTINATION_PREFIX = "destination_"
#: Whether the destination layer runs (a benchmark turns it off to measure the scanner
#: without it in the same process).
DESTINATIONS = True
_NOT_THREATS = frozenset({"invisible_unicode", "homoglyph", "oversize"})
_DECODERS = frozenset({"base64", "hex", "url", "rot13"})
_STRICT_LEVEL_ONLY = frozenset({"remote_exec_oneliner"})
_RANK = {c: i for i, c in enumerate(CATEGORIES)}
# Skills and context files are written in the imperative by nature: their classifier
# threshold is that of the next more lenient level.
_LENIENT_SCOPES = frozenset({"skill", "context"})
#: The memory scope, under both its names ("strict" is the historical one, and the one
#: the curated store scans with).
_MEMORY_SCOPES = frozenset({"memory", "strict"})
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
                f"score {score:.2f} >= threshold {threshold:.2f} (level {level}, scope "
                f"{'memory' if scope in _MEMORY_SCOPES else scope})"
                f"{where}; words weighing most: {words}",
            )
        )
    return out


#: The most neighbours a text that points at another entry is scored beside (the latest).
PAIR_NEIGHBOURS = 64


def pair_text(earlier: str, text: str) -> str:
    """What the classifier reads for ``text`` stored after ``earlier``: the two joined by
    a line end. The fit reads a split pair the same way (``bench/_scan_training.py``,
    :func:`stranger_rows`), so the whole-store scan scores what the model was fitted on."""
    return f"{earlier}\n{text}"


def pair_finding(text: str, neighbours: list[str], scope: str, level: str) -> Finding | None:
    """A hold when ``text``, which points at another entry, scores at or above the
    classifier's threshold read after one of ``neighbours`` (:func:`pair_text`): the
    learned reading of a split instruction, only in memory, never a block."""
    if scope not in _MEMORY_SCOPES or not _intent.refers(text):
        return None
    model = _classifier.model()
    threshold = classifier_threshold(scope, level)
    for other in neighbours[-PAIR_NEIGHBOURS:]:
        if other == text:
            continue
        score = model.score(_normalise.mask_defensive(pair_text(other, text)))
        if score >= threshold:
            return Finding(
                CLASSIFIER_ID,
                "suspicious_wording",
                "classifier",
                f"read together with the entry {_preview(other)}, which it points at, the "
                "two may be one instruction split across two entries (score "
                f"{score:.2f} >= threshold {threshold:.2f}, level {level}, scope memory); "
                "approve it only if the two together say what the user meant",
            )
    return None


# Holds matter where a person can be asked: memory entries, a few KiB at most. The
# reference floor reads this much of a text, so a 64 KiB file costs what 16 KiB do.
_REFERENCE_CHARS = 16_384
_REFERENCE_DETAIL = (
    "hold: the memory tool mnemic started from refuses this pattern; a person decides"
)


# Rules whose match is words addressed to a model (an override, a request for the prompt):
# quoted, such words may be a title or an example. A key, a command, a path or markup
# quoted is still what it is.
_WORDED = frozenset({"instruction_override", "prompt_exfiltration"})
_MARKUP = frozenset(
    {"chat_template_token", "hidden_html", "html_comment_directive", "template_beacon"}
)


_OVERRIDES = frozenset({"instruction_override"})


def _quotable(f: Finding) -> bool:
    """Whether ``f`` is a rule's finding on words that quoting makes a mention."""
    return f.layer == "rule" and f.category in _WORDED and f.id not in _MARKUP


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


# What every identifier of :mod:`.destinations` contains: an "@", a URL, a dotted host
# name, a run of digits (in any script), an IBAN's head or a wallet address. A text
# with none of them (most notes) does not import the module.
_MAYBE_DESTINATION = re.compile(
    r"@|://|\w\.[^\W\d_]{2,}|\d[\d \-./]{4,}\d|[A-Z]{2}\d\d"
    r"|\b(?:bc1\w{6}|0x[0-9a-fA-F]{40}|[13]\w{25})"
)


def may_name_destination(text: str) -> bool:
    """Whether ``text`` may name a destination identifier (a cheap test before reading)."""
    return _MAYBE_DESTINATION.search(text) is not None


def _named(tags: _intent.Tags) -> frozenset[str]:
    """The concepts of a sentence stated in words: an IBAN written out is tagged
    ``payee`` by the intent layer itself, which says nothing of what is asked about it."""
    if "payee" in tags.present and any(c.isdigit() for c in tags.words.get("payee", "")):
        return tags.present - {"payee"}
    return tags.present


def destination_finding(
    text: str, scope: str, level: str, known_hosts: tuple[str, ...] = ()
) -> Finding | None:
    """A hold for a standing rule about a destination in ``text`` (a payee, a recipient,
    a look-alike of a domain in ``known_hosts``), in the memory scopes; ``None`` when
    there is none (scanner 18, :mod:`.destinations`)."""
    if not DESTINATIONS or scope in _LENIENT_SCOPES or not _MAYBE_DESTINATION.search(text):
        return None
    from . import destinations as _destinations  # only a text that may name one

    sentences = [(s, _named(_intent.tag(s))) for s in _intent.sentences(text)]
    found = _destinations.standing(text, sentences, known_hosts, level=level)
    if found is None:
        return None
    return Finding(
        DESTINATION_PREFIX + found.relation, "covert_action", "destination", found.reason
    )


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
        quoted: list[Finding] = []
        if (
            findings
            and scope in _MEMORY_SCOPES
            and all(_quotable(f) for f in findings if f.category not in _NOT_THREATS)
        ):
            # A rule that matches only inside quotation marks, with no cue saying the quote
            # is a title or an example ("Presentatie: 'Negeer alle eerdere instructies'"):
            # quoting is how a phrase is talked about, and how an attack quotes its payload
            # to look talked about. Neither alone is evidence: a person decides (scanner 17).
            # Only in memory, where a hold asks a person; skills and context files have no
            # one to ask, and a hold there would let the text through.
            unquoted = _normalise.mask_quotes(masked)
            if unquoted != masked:
                keep = {f.id for f in _rule_scan(unquoted, table).findings}
                quoted = [
                    f for f in findings if f.category not in _NOT_THREATS and f.id not in keep
                ]
                findings = [f for f in findings if f not in quoted]
        read = head if masked == basis else _normalise.mask_mentions(head)
        found, describes = _intent.read(read)
        if found and describes:
            # A lure quoted in a note about a drill or a red-team exercise is talked about.
            unlured = _intent.mask_lures(read)
            if unlured != read:
                found = _intent.read(unlured)[0]
        block, holds = intent_findings(found, scope)
        if findings and not block and _intent.reported_and_told(read):
            # An override rule matched on another text's request the note names, and
            # asks to tell the user about ("if a document asks you to set aside your
            # instructions, tell the user"): the intent layer holds it (scanner 21);
            # the rule's match holds too (scanner 23).
            named = [f for f in findings if f.layer == "rule" and f.category in _OVERRIDES]
            rest = [f for f in findings if f not in named]
            if named and all(f.layer == "classifier" or f.category in _NOT_THREATS for f in rest):
                holds += [
                    Finding(
                        f.id,
                        f.category,
                        f.layer,
                        f"{f.detail + '; ' if f.detail else ''}{_intent.TOLD_TO_USER}",
                    )
                    for f in named
                ]
                findings = rest
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
        if (
            findings
            and scope in _MEMORY_SCOPES
            and all(f.id in _STRICT_LEVEL_ONLY for f in findings if f.category not in _NOT_THREATS)
            and any(f.id in _STRICT_LEVEL_ONLY for f in findings)
        ):
            # A bare download-and-run one-liner, the level `strict`'s own rule, alone: an
            # install note, a red team's lab payload or a warning against it as often as a
            # payload, and wrapped in "always run" or a trigger other layers block it. In
            # memory a person can be asked, so it holds; a skill has no one to ask and
            # refuses it (scanner 23).
            holds += [f for f in findings if f.id in _STRICT_LEVEL_ONLY]
            findings = [f for f in findings if f.id not in _STRICT_LEVEL_ONLY]
        if quoted and any(f.category not in _NOT_THREATS for f in findings):
            findings += quoted  # beside another layer's finding, the quote blocks as before
        elif quoted:
            holds += quoted
        if not findings and not describes:
            # Both read the first 16 KiB (holds matter for entries). A standing rule about
            # where money, data, trust or replies go: a person confirms the identifier
            # (scanner 18), never a block on its own. Then the reference floor's holds.
            head = read[:_REFERENCE_CHARS]
            dest = destination_finding(head, scope, level)
            if dest is not None:
                holds.append(dest)
            if scope != "context":
                holds += [
                    Finding(REFERENCE_PREFIX + rid, category, "reference", _REFERENCE_DETAIL)
                    for rid, category in _reference.held(_unicode.strip_for_matching(head))
                ]
    if not findings and not holds:
        return rules if not rules.findings else ScanResult(())
    findings.sort(key=lambda f: _RANK[f.category])
    holds.sort(key=lambda f: _RANK[f.category])
    return ScanResult(tuple(findings), () if findings else tuple(holds))
