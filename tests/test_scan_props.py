"""Property-based and adversarial tests of the threat scanner."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import mnemic.scan as scan_mod
from mnemic.scan import MAX_SCAN_CHARS, PATTERNS, SCOPES, ScanResult, invisible_chars, scan_text

INVISIBLE = sorted(invisible_chars())
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Words that drive the patterns: every key, plus a few fillers and separators.
KEY_WORDS = sorted(
    {k.removesuffix("*") for p in PATTERNS for k in (*p.keys, *p.keys2, *p.keys3, *p.keys4)}
    | {k for p in PATTERNS for k in p.subs}
    | {"the", "you", "your", "all", "and", "to", "me", "a", "~/.env", "$TOKEN", "https://x.y"}
)
SEPARATORS = [" ", "  ", "\n", "\t", ", ", ". ", ": ", " | ", " >> ", "'", '"', "-", "_", "/"]


def unfiltered(text: str, scope: str) -> ScanResult:
    return scan_mod._scan(text, scan_mod._table(scope), prefilter=False)


@FAST
@given(st.text(), st.sampled_from(SCOPES))
def test_scanning_never_raises(text: str, scope: str) -> None:
    result = scan_text(text, scope)
    assert isinstance(result, ScanResult)
    assert result.blocked == bool(result.findings)
    assert len({f.id for f in result.findings}) == len(result.findings)


@FAST
@given(st.text(), st.sampled_from(INVISIBLE), st.integers(min_value=0))
def test_an_invisible_character_is_always_reported(text: str, char: str, where: int) -> None:
    pos = where % (len(text) + 1)
    if char in "\u200c\u200d":
        # By design a joiner between two letters of a script that spells with it (Arabic,
        # Persian, the Indic scripts) or inside an emoji sequence is not reported: only
        # the other insertions are this property's business.
        assume(not (_spelling(text[pos - 1 : pos]) and _spelling(text[pos : pos + 1])))
    result = scan_text(text[:pos] + char + text[pos:], "strict")
    assert "invisible_unicode" in {f.category for f in result.findings}


def _spelling(ch: str) -> bool:
    """A letter or mark of a script written with joiners, or an emoji-range character."""
    if not ch:
        return False
    cp = ord(ch)
    if cp >= 0x1F000 or 0x2600 <= cp <= 0x27BF or cp == 0xFE0F:
        return True
    scripts = unicodedata.name(ch, "").split(" ")[:1]
    return (
        bool(scripts)
        and unicodedata.category(ch)[0] in "LM"
        and (
            scripts[0]
            in {
                "ARABIC",
                "DEVANAGARI",
                "BENGALI",
                "GURMUKHI",
                "GUJARATI",
                "ORIYA",
                "TAMIL",
                "TELUGU",
                "KANNADA",
                "MALAYALAM",
                "SINHALA",
                "SYRIAC",
                "THAANA",
                "NKO",
                "SAMARITAN",
                "MANDAIC",
            }
        )
    )


def test_a_joiner_next_to_a_format_character_of_a_joining_script_is_reported() -> None:
    # U+0600 (ARABIC NUMBER SIGN) is a format character in the Arabic block, not a
    # letter: a non-joiner between two of them spells nothing and was let through.
    for text in ("0\u0600\u200c\u0600", "\u0661\u200c\u0662"):
        found = {f.id for f in scan_text(text, "strict").findings}
        assert "invisible_u200c" in found, text
    assert scan_text("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "strict").findings == ()


@FAST
@given(
    st.lists(
        st.tuples(st.sampled_from(KEY_WORDS), st.sampled_from(SEPARATORS)),
        min_size=1,
        max_size=14,
    ),
    st.sampled_from(SCOPES),
    st.booleans(),
)
def test_prefilter_agrees_with_unfiltered_scan(
    parts: list[tuple[str, str]], scope: str, upper: bool
) -> None:
    text = "".join(word + sep for word, sep in parts)
    if upper:
        text = text.upper()
    assert scan_mod._rule_scan(text, scan_mod._table(scope)) == unfiltered(text, scope)


@FAST
@given(st.text(max_size=300), st.sampled_from(SCOPES))
def test_prefilter_agrees_on_arbitrary_text(text: str, scope: str) -> None:
    assert scan_mod._rule_scan(text, scan_mod._table(scope)) == unfiltered(text, scope)


@FAST
@given(st.text(max_size=200))
def test_scan_is_deterministic(text: str) -> None:
    assert scan_mod._scan_uncached(text, "strict") == scan_mod._scan_uncached(text, "strict")


def _adversarial() -> list[str]:
    """64 KiB strings that maximise the number of places where each regex can start."""
    seeds = [" ".join((*p.keys, *p.keys2, *p.keys3)).replace("*", "") for p in PATTERNS]
    seeds += [
        "a",
        " ",
        "\n",
        "<!--",
        "curl $",
        "sk-aA1",
        "ignore the ",
        "do not reveal your ",
        "password = '",
        "cat .env | ",
        "echo curl >> ~/.bashrc ",
        "\u0430a",
        "\u200b",
        "eyJa.",
        "xoxb-1-",
        "-----begin ",
    ]
    out = []
    for seed in seeds:
        if not seed:
            continue
        out.append((seed * (MAX_SCAN_CHARS // len(seed) + 1))[:MAX_SCAN_CHARS])
    return out


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("scope", SCOPES)
def test_adversarial_64k_inputs_terminate(scope: str) -> None:
    """One test a scope (each about a quarter of the 17 s of CPU all four took in one
    test, the longest of the top-level suite: apart, two workers share them)."""
    # No timing assertion: the bounded quantifiers must simply let every scan finish.
    for text in _adversarial():
        assert len(text) == MAX_SCAN_CHARS
        scan_mod._scan_uncached(text, scope)


@pytest.mark.timeout(300)
def test_oversize_adversarial_input_terminates() -> None:
    result = scan_text("ignore previous " * 20_000 + "\u202e")
    assert result.findings[-1].id == "scan_cap_exceeded"
    assert "invisible_u202e" in {f.id for f in result.findings}
