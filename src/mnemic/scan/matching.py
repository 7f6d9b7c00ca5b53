"""The rule layer: the pattern table's keyword index and its matching.

Holds the result types (:class:`Finding`, :class:`ScanResult`), the per-scope index of
the pattern table (:class:`_Table`, built on first use) and the matching of one text
against it, with the Unicode checks and the size cap (:func:`_rule_scan`). The package
(:mod:`mnemic.scan`) runs this layer first and then the later ones
(:mod:`mnemic.scan.pipeline`), which read other views of the text through it.

Cost: the table is indexed on the first scan of each scope, and each regex is compiled
the first time its keywords show up (most never do).
"""

from __future__ import annotations

import re
from typing import NoReturn

from .. import unicode_fold as _unicode
from .patterns import PATTERNS, Pattern

#: Characters scanned by the patterns; longer text gets an ``oversize`` finding.
MAX_SCAN_CHARS = 65_536
#: The accepted scopes. ``"memory"`` (memory entries) and ``"skill"`` (skills) apply every
#: rule; ``"strict"`` is the historical name of the memory scope and means the same;
#: ``"context"`` (AGENTS.md, CLAUDE.md, .cursorrules...) applies the unambiguous rules only.
SCOPES = ("strict", "context", "memory", "skill")
#: Sensitivity levels, most sensitive first (``[scan] level`` in config.toml).
LEVELS = ("strict", "balanced", "lenient")
DEFAULT_LEVEL = "balanced"

_OVERSIZE_ID = "scan_cap_exceeded"


class Finding:
    """One threat finding: a stable id, its category, the layer that found it and how.

    Behaves as ``@dataclass(frozen=True, slots=True)`` with fields ``id`` and ``category``
    (equality, hashing, repr, immutability, pickling); written out by hand because that
    decorator, on Python 3.11, raises ``TypeError`` instead of ``AttributeError`` when an
    attribute that is not a field is set (fixed in 3.12).

    ``layer`` says which layer found it: ``"rule"`` (a pattern of the table), ``"decode"``
    (a pattern that matched only once an embedded payload was decoded), ``"normalise"``
    (only once spaced letters, leetspeak or identifiers were read as words),
    ``"classifier"`` (the learned layer) or ``"unicode"`` (hidden or look-alike
    characters, the size cap). ``detail`` is the evidence for a person: what was decoded,
    or the classifier's score and threshold. Neither takes part in equality, so
    ``Finding(id, category)`` compares equal to the finding a scan returns.
    """

    __slots__ = ("category", "detail", "id", "layer")
    __match_args__ = ("id", "category")
    id: str
    category: str
    layer: str
    detail: str

    def __init__(self, id: str, category: str, layer: str = "rule", detail: str = "") -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "layer", layer)
        object.__setattr__(self, "detail", detail)

    def __repr__(self) -> str:
        return f"Finding(id={self.id!r}, category={self.category!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not Finding:
            return NotImplemented
        return self.id == other.id and self.category == other.category

    def __hash__(self) -> int:
        return hash((self.id, self.category))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen Finding")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r} of a frozen Finding")

    def __reduce__(self) -> tuple[type[Finding], tuple[str, str, str, str]]:
        return (Finding, (self.id, self.category, self.layer, self.detail))


class ScanResult:
    """The findings for one text and its verdict: ``block``, ``hold`` or ``allow``.

    ``findings`` are what refuses the text (``blocked`` when there is at least one);
    ``holds`` are what makes the scanner unsure (a request that could be honest, such as
    one that asks the user for a password): a writer that has an approval queue stages
    such a text for a person instead of saving or refusing it. Behaves as
    ``@dataclass(frozen=True, slots=True)`` with the fields ``findings`` and ``holds``
    (written out by hand for the same reason as :class:`Finding`).
    """

    __slots__ = ("findings", "holds")
    __match_args__ = ("findings",)
    findings: tuple[Finding, ...]
    holds: tuple[Finding, ...]

    def __init__(self, findings: tuple[Finding, ...], holds: tuple[Finding, ...] = ()) -> None:
        object.__setattr__(self, "findings", findings)
        object.__setattr__(self, "holds", holds)

    @property
    def blocked(self) -> bool:
        """True when the text must not be stored or loaded."""
        return bool(self.findings)

    @property
    def held(self) -> bool:
        """True when the text is not refused but needs a person's approval to be stored."""
        return not self.findings and bool(self.holds)

    @property
    def verdict(self) -> str:
        """``"block"``, ``"hold"`` (store only with a person's approval) or ``"allow"``."""
        return "block" if self.findings else "hold" if self.holds else "allow"

    def __repr__(self) -> str:
        if self.holds:
            return f"ScanResult(findings={self.findings!r}, holds={self.holds!r})"
        return f"ScanResult(findings={self.findings!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not ScanResult:
            return NotImplemented
        return self.findings == other.findings and self.holds == other.holds

    def __hash__(self) -> int:
        return hash((self.findings, self.holds))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen ScanResult")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r} of a frozen ScanResult")

    def __reduce__(
        self,
    ) -> tuple[type[ScanResult], tuple[tuple[Finding, ...], tuple[Finding, ...]]]:
        return (ScanResult, (self.findings, self.holds))


_CLEAN = ScanResult(())


class _Table:
    """The prefilter index of one scope (built on first use).

    ``word_index`` maps each primary word key to the patterns it announces; ``groups``
    holds, per pattern, the (words, substrings) of its other key groups.
    """

    __slots__ = (
        "cased_subs",
        "gate",
        "groups",
        "long_ids",
        "patterns",
        "plain_subs",
        "scope",
        "subs",
        "word_index",
    )

    def __init__(self, scope: str, patterns: tuple[Pattern, ...] | None = None) -> None:
        if patterns is None:
            patterns = PATTERNS
        self.scope = scope
        self.patterns = tuple(p for p in patterns if scope == "strict" or p.scope == "context")
        index: dict[bytes, list[int]] = {}
        self.subs: list[tuple[str, int]] = []  # substring primary keys (lower-cased text)
        self.plain_subs: list[tuple[str, int]] = []  # ...also checked on ASCII text
        self.cased_subs: list[tuple[str, int]] = []  # case-sensitive primary keys
        # Built per pattern the first time it is a candidate (most never are).
        self.groups: list[_Groups | None] = [None] * len(self.patterns)
        for i, p in enumerate(self.patterns):
            plain = getattr(p, "plain_subs", False)  # tables of older versions lack it
            for k in p.keys:
                if plain:
                    self.plain_subs.append((k, i))
                elif k.isascii() and k.isalnum():
                    index.setdefault(k.encode(), []).append(i)
                else:
                    self.subs.append((k, i))
            for k in p.subs:
                self.cased_subs.append((k, i))
        self.word_index = {w: tuple(ids) for w, ids in index.items()}
        self.gate = frozenset(self.word_index)
        # Patterns announced by any long run of letters and digits (prefix-less formats).
        self.long_ids = tuple(
            i for i, p in enumerate(self.patterns) if getattr(p, "long_token", False)
        )

    def groups_of(self, i: int) -> _Groups:
        """The secondary key groups of pattern ``i``: (whole words, substrings) each."""
        g = self.groups[i]
        if g is None:
            p = self.patterns[i]
            g = self.groups[i] = tuple(
                _split_keys(keys) for keys in (p.keys2, p.keys3, p.keys4) if keys
            )
        return g


_Groups = tuple[tuple[frozenset[bytes], tuple[str, ...]], ...]


def _split_keys(keys: tuple[str, ...]) -> tuple[frozenset[bytes], tuple[str, ...]]:
    """Split keys into whole-word keys (as bytes) and substring keys."""
    words = frozenset(k.encode() for k in keys if k.isascii() and k.isalnum())
    subs = tuple(k.removesuffix("*") for k in keys if not (k.isascii() and k.isalnum()))
    return words, subs


# bytes.translate table: ASCII letters and digits kept (lower-cased), everything else a space.
_WORDS = bytes(
    c + 32 if 65 <= c <= 90 else c if (48 <= c <= 57 or 97 <= c <= 122) else 32 for c in range(256)
)

# Built on first use: the per-scope tables, compiled regexes (by source).
_tables_cache: dict[str, _Table] = {}
_compiled: dict[str, re.Pattern[str]] = {}


# The rule table each scope uses: memory entries and skills get every rule.
_RULE_SCOPE = {"strict": "strict", "memory": "strict", "skill": "strict", "context": "context"}


def _table(scope: str) -> _Table:
    table = _tables_cache.get(scope)
    if table is None:
        if scope not in SCOPES:
            raise ValueError(f"unknown scan scope {scope!r}; expected one of {', '.join(SCOPES)}")
        rule_scope = _RULE_SCOPE[scope]
        table = _tables_cache.get(rule_scope) or _Table(rule_scope)
        _tables_cache[scope] = _tables_cache[rule_scope] = table
    return table


def _regex(p: Pattern, *, inner: bool = False) -> re.Pattern[str]:
    source = p.inner if inner else p.regex
    rx = _compiled.get(source)
    if rx is None:  # compiled on the first keyword hit: most patterns never get one
        rx = _compiled[source] = re.compile(source)
    return rx


#: The case-sensitive markers of the table (``Pattern.subs``): secret prefixes, "<!--".
_CASED_PREFIXES = ("sk-", "AKIA", "ASIA", "ABIA", "ACCA", "AIza", "eyJ", "<!--", "GR1348941")


#: Length of a word (run of ASCII letters and digits) that announces ``long_token`` patterns.
LONG_TOKEN = 16


def _has_long(words: list[bytes]) -> bool:
    """Whether a word of at least :data:`LONG_TOKEN` characters occurs (one C-level pass)."""
    return bool(words) and max(map(len, words)) >= LONG_TOKEN


def _has_plain_sub(table: _Table, text: str) -> bool:
    """Whether one of the ``plain_subs`` keys occurs in ``text`` (any case)."""
    if not table.plain_subs:
        return False
    low = text.lower()
    return any(k in low for k, _ in table.plain_subs)


def _has_cased_prefix(text: str) -> bool:
    """Whether ``text`` holds one of the case-sensitive markers (``Pattern.subs``).

    Written out as one expression because it runs on every text (a loop costs twice as
    much); a test checks that it lists exactly the ``subs`` of the pattern table.
    """
    return (
        "sk-" in text
        or "AKIA" in text
        or "ASIA" in text
        or "ABIA" in text
        or "ACCA" in text
        or "AIza" in text
        or "eyJ" in text
        or "<!--" in text
        or "GR1348941" in text
    )


def _candidates(
    table: _Table,
    text: str,
    words: list[bytes],
    low: str | None,
    unfolded: str | None = None,
    *,
    cased: bool | None = None,
) -> list[int]:
    """Indices of the patterns whose key groups all occur, in table order.

    ``text`` is the normalised text, ``words`` its word tokens, ``low`` its lower case (or
    None when not computed yet: ASCII text), ``unfolded`` the lower-cased text before
    look-alike folding when it differs; ``cased`` whether :func:`_has_cased_prefix` holds,
    if already known.
    """
    hit = table.gate.intersection(words)
    found: list[int] = []
    for w in hit:
        found.extend(table.word_index[w])
    if cased is None:
        cased = _has_cased_prefix(text)
    if cased:
        found.extend(i for k, i in table.cased_subs if k in text)
    if table.long_ids and _has_long(words):
        found.extend(table.long_ids)
    if table.plain_subs:
        if low is None:
            low = text.lower()
        found.extend(i for k, i in table.plain_subs if k in low)
    if low is not None and (not low.isascii() or unfolded is not None):
        for k, i in table.subs:
            if k in low or (unfolded is not None and k in unfolded):
                found.append(i)
    if not found:
        return []
    if len(found) > 1:
        found = sorted(set(found))
    keep = []
    groups = table.groups
    for i in found:
        for gw, gs in groups[i] or table.groups_of(i):
            if gw.isdisjoint(words):
                if not gs:
                    break
                if low is None:
                    low = text.lower()
                for k in gs:
                    if k in low or (unfolded is not None and k in unfolded):
                        break
                else:
                    break
        else:
            keep.append(i)
    return keep


def _words(low: str) -> list[bytes]:
    """The word tokens of lower-cased text: runs of ASCII letters and digits."""
    raw = low.encode("ascii") if low.isascii() else low.encode("ascii", "replace")
    return raw.translate(_WORDS).split()


def _run(table: _Table, ids: list[int], text: str, low: str, unfolded: str | None) -> list[Pattern]:
    """Run the regexes of the candidate patterns ``ids``; return those that match."""
    hits: list[Pattern] = []
    for i in ids:
        p = table.patterns[i]
        rx = _regex(p)
        subject = text if p.cased else low
        if p.unfolded and unfolded is not None:
            subject = unfolded
        if p.inner:
            inner = _regex(p, inner=True)
            if any(inner.search(m.group()) for m in rx.finditer(subject)):
                hits.append(p)
        elif p.negatable:
            if any(m.group("neg") is None for m in rx.finditer(subject)):
                hits.append(p)
        elif rx.search(subject) is not None:
            hits.append(p)
    return hits


def _match(
    table: _Table, text: str, *, unfolded: str | None = None, prefilter: bool = True
) -> list[Pattern]:
    """Patterns of ``table`` that match the normalised ``text``."""
    low = text.lower()
    if prefilter:
        words = _words(low)
        if unfolded is not None:
            words += _words(unfolded)
        ids = _candidates(table, text, words, low, unfolded)
    else:
        ids = list(range(len(table.patterns)))
    return _run(table, ids, text, low, unfolded) if ids else []


def _rule_scan(text: str, table: _Table) -> ScanResult:
    """The rule layer alone (with the Unicode checks and the cap)."""
    if text.isascii() and len(text) <= MAX_SCAN_CHARS:
        # The common case, kept lean: one C-level pass splits the text into words and a
        # set intersection with the keywords usually ends it. No regex, no Unicode tables.
        words = text.encode("ascii").translate(_WORDS).split()
        cased = _has_cased_prefix(text)
        if (
            not cased
            and table.gate.isdisjoint(words)
            and not (table.long_ids and _has_long(words))
            and not _has_plain_sub(table, text)
        ):
            return _CLEAN
        ids = _candidates(table, text, words, None, cased=cased)
        if not ids:
            return _CLEAN
        hits = _run(table, ids, text, text.lower(), None)
        return ScanResult(tuple(Finding(p.id, p.category) for p in hits)) if hits else _CLEAN
    return _scan(text, table)


def _scan(text: str, table: _Table, *, prefilter: bool = True) -> ScanResult:
    """The general path: non-ASCII or oversize text (and the unfiltered reference path)."""
    if not text:
        return _CLEAN
    if table.scope == "context" and text[0] == "\ufeff":
        text = text[1:]
    head = text[:MAX_SCAN_CHARS]
    findings: list[Finding] = []
    if head.isascii():
        hits = _match(table, head, prefilter=prefilter)
        findings.extend(Finding(p.id, p.category) for p in hits)
    else:
        u = _unicode
        stripped = u.strip_for_matching(head)
        folded = u.fold(stripped)
        unfolded = stripped.lower() if folded != stripped else None
        hits = _match(table, folded, unfolded=unfolded, prefilter=prefilter)
        findings.extend(Finding(p.id, p.category) for p in hits)
        findings.extend(
            Finding(fid, "invisible_unicode", "unicode") for _, fid in u.invisible_ids(text)
        )
        if u.mixed_script_words(stripped, limit=1):
            findings.append(Finding("homoglyph_mixed_script", "homoglyph", "unicode"))
        if hits and unfolded is not None:
            before = {p.id for p in _match(table, stripped, prefilter=prefilter)}
            if any(p.id not in before for p in hits):
                findings.append(Finding("homoglyph_evasion", "homoglyph", "unicode"))
    if len(text) > MAX_SCAN_CHARS:
        if head.isascii() and not text.isascii():  # invisible characters past the cap
            ids = _unicode.invisible_ids(text)
            findings.extend(Finding(fid, "invisible_unicode", "unicode") for _, fid in ids)
        findings.append(Finding(_OVERSIZE_ID, "oversize", "unicode"))
    return ScanResult(tuple(findings)) if findings else _CLEAN


def invisible_chars() -> frozenset[str]:
    """Every character reported as ``invisible_unicode`` (zero-width, bidi, tags...)."""
    chars: frozenset[str] = _unicode.INVISIBLE_CHARS
    return chars
