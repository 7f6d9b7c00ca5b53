"""Control characters: which ones no entry, prompt or terminal line of mnemic may hold.

C0 controls but tab and newline, DEL, and C1 (U+0080–U+009F, among them the 8-bit CSI
some terminals obey). mnemic never writes one into an entry (the write path refuses
them), so one found in a file came from an edit outside mnemic: the snapshot hides such
an entry, and text from outside (context files, recalled sessions) reaches the prompt
with each one replaced by U+FFFD. Imported by the cold path: stdlib-free.
"""

from __future__ import annotations

__all__ = ["CONTROL_CHARS", "first_control", "without_controls"]

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
