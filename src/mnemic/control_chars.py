"""Control characters: which ones no entry, prompt, label or terminal line of mnemic may hold.

C0 controls but tab and newline, DEL, and C1 (U+0080–U+009F, among them the 8-bit CSI
some terminals obey). mnemic never writes one into an entry (the write path refuses
them), so one found in a file came from an edit outside mnemic: the snapshot hides such
an entry, and text from outside (context files, recalled sessions) reaches the prompt
with each one replaced by U+FFFD. Imported by the cold path: stdlib-free.
"""

from __future__ import annotations

__all__ = ["CONTROL_CHARS", "first_control", "printable", "without_controls"]

CONTROL_CHARS = frozenset(chr(c) for c in (*range(0, 9), *range(11, 32), *range(127, 160)))

_REPLACED = {ord(c): "\ufffd" for c in CONTROL_CHARS}


def first_control(text: str) -> str | None:
    """The first of :data:`CONTROL_CHARS` in ``text``, or ``None``."""
    if text.isprintable():
        return None
    return next((ch for ch in text if ch in CONTROL_CHARS), None)


def without_controls(text: str) -> str:
    """``text`` with each of :data:`CONTROL_CHARS` replaced by U+FFFD."""
    if text.isprintable():
        return text
    return text.translate(_REPLACED)


def printable(text: str, *, lines: bool = True) -> str:
    """``text`` safe to print or store as a label: each of :data:`CONTROL_CHARS` and each
    lone surrogate as U+FFFD, newlines and tabs too unless ``lines``. Other characters,
    the joiners of Persian or of emoji sequences included, are kept."""
    if text.isprintable():
        return text
    out = without_controls(text)
    if not lines:
        out = out.replace("\n", "\ufffd").replace("\t", "\ufffd")
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates
        out = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in out)
    return out
