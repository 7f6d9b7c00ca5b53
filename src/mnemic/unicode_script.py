"""The script a letter is written in, as its Unicode name says.

Session search asks whether a question holds letters of a script its speakers' names do
not use (:mod:`mnemic.sessions.search.speaker`); tidy asks whether two entries are
written in two scripts (:mod:`mnemic.ops.tidy.meaning`, and a feature of the shipped
pair model, :mod:`mnemic.ops.tidy.pairmodel`). All three read a letter's script here.
Stdlib only.
"""

from __future__ import annotations

import unicodedata

__all__ = ["UNNAMED", "script"]

UNNAMED = "OTHER"
"""The script of a character Unicode gives no name (this Python's Unicode database names
no Tangut ideograph, for one). No name's first word is ``OTHER``."""


def script(ch: str) -> str:
    """The script of the character ``ch``: the first word of its Unicode name (``LATIN``,
    ``CYRILLIC``, ``CJK``, ``HIRAGANA``, ...), :data:`UNNAMED` when it has none."""
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else UNNAMED
