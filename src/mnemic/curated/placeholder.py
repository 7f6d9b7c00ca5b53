"""What counts as imitating the ``[BLOCKED: ...]`` placeholder mnemic shows for a hidden entry.

The placeholder tells the model why an entry is hidden and which handle removes it, so
text that looks like one could make the model remove an honest entry. The test is done
on a folded reading of the text, the way a model would read it:

* compatibility forms are folded (NFKC: fullwidth ``［ＢＬＯＣＫＥＤ`` reads as
  ``[BLOCKED``), diacritics and invisible characters dropped, look-alike letters of other
  scripts and small capitals folded to Latin (the scanner's own folding), case ignored;
* every opening bracket of :data:`OPENERS` reads as ``[``;
* whitespace and markdown emphasis or escapes (``* _ ~ ` \\``) between the bracket and
  the word are skipped (``[ BLOCKED``, ``[**BLOCKED**``).

Text imitates the placeholder when, anywhere in it (any line), such a bracket is
followed by the word *blocked* as a whole word. The word alone is honest text ("the
deploy was blocked by CI", "(blocked on review)", "- [x] blocked") and passes.
Imported by the snapshot path: stdlib-free; the folding is loaded for non-ASCII text only.
"""

from __future__ import annotations

from .. import unicode_fold as _unicode

__all__ = ["BLOCKED_PREFIX", "OPENERS", "imitates_placeholder"]

BLOCKED_PREFIX = "[BLOCKED:"
"""How the placeholder mnemic renders starts."""

OPENERS = frozenset(
    "["  # the bracket itself
    "\uff3b"  # ［ fullwidth (NFKC folds it too)
    "\ufe47"  # ﹇ presentation form for vertical left square bracket (NFKC: [)
    "\u2045"  # ⁅ left square bracket with quill
    "\u27e6"  # ⟦ mathematical left white square bracket
    "\u298b"  # ⦋ left square bracket with underbar
    "\u298d"  # ⦍ left square bracket with tick in top corner
    "\u298f"  # ⦏ left square bracket with tick in bottom corner
    "\u23a1"  # ⎡ left square bracket upper corner
    "\u23a2"  # ⎢ left square bracket extension
    "\u23a3"  # ⎣ left square bracket lower corner
    "\u2308"  # ⌈ left ceiling
    "\u230a"  # ⌊ left floor
    "\u2e22"  # ⸢ top left half bracket
    "\u2e24"  # ⸤ bottom left half bracket
    "\u3010"  # 【 left black lenticular bracket
    "\u3016"  # 〖 left white lenticular bracket (NFKC of ︗)
    "\u301a"  # 〚 left white square bracket
    "\u3014"  # 〔 left tortoise shell bracket (NFKC of the small ﹝)
    "\u3018"  # 〘 left white tortoise shell bracket
    "\u27ec"  # ⟬ mathematical left white tortoise shell bracket
    "\u2772"  # ❲ light left tortoise shell bracket ornament
    "\ufe39"  # ︹ presentation form for vertical left tortoise shell bracket
    "\ufe3b"  # ︻ presentation form for vertical left black lenticular bracket
)
"""Opening brackets read as ``[``: the square bracket and the brackets drawn like it
(fullwidth, small and vertical presentation forms, white, lenticular, tortoise shell,
corner, half and ceiling brackets). Parentheses and braces are not among them: "(blocked
by CI)" is how people write."""

_WORD = "blocked"
_SKIPPED = frozenset(" \t\n\r\f\v\u00a0\u3000*_~`\\")
_TO_BRACKET = {ord(c): "[" for c in OPENERS}


def _folded(text: str) -> str:
    if text.isascii():
        return text.lower()
    return _unicode.fold(_unicode.strip_for_matching(text)).casefold().translate(_TO_BRACKET)


def imitates_placeholder(text: str) -> bool:
    """Whether ``text`` holds, on any line, something that reads as ``[BLOCKED``.

    See the module docstring for the reading; the placeholder mnemic renders is such text
    too, so it can never be stored as an entry.
    """
    if text.isascii() and _WORD not in text.lower():
        return False
    folded = _folded(text)
    end = len(folded)
    at = folded.find(_WORD)
    while at != -1:
        after = at + len(_WORD)
        if after == end or not folded[after].isalnum():
            before = at - 1
            while before >= 0 and folded[before] in _SKIPPED:
                before -= 1
            if before >= 0 and folded[before] == "[":
                return True
        at = folded.find(_WORD, after)
    return False
