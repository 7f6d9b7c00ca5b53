"""What text of a message is embedded: small functions, so it can be tuned in one place.

A message longer than :data:`PIECE_CHARS` gets several vectors (:func:`passage_texts`):
its whole passage first (:func:`passage_text`: the text cut at
:data:`MAX_PASSAGE_CHARS`, the only vector a message had before), then its text in
pieces of whole sentences, so that a detail of a long reply, or one past the cut, has a
vector of its own. A search scores a message by its best vector (see
:mod:`mnemic.sessions.sql.vector_cache`).

A vector encodes the text it was made from, so whatever these functions put in a
message's passages (the previous turn included) is also what forgetting must remove: the
stores delete the vectors of a message when that message, or the one before it, is
changed or deleted.
"""

from __future__ import annotations

import re

__all__ = [
    "EMBEDDED_ROLES",
    "MAX_PASSAGE_CHARS",
    "MAX_PIECES",
    "PIECE_CHARS",
    "passage_text",
    "passage_texts",
    "pieces",
]

EMBEDDED_ROLES = ("user", "assistant")
"""Roles whose messages get a vector (tool output and system prompts do not)."""

MAX_PASSAGE_CHARS = 2000
"""Longer text is cut: the model's window is 512 tokens, and longer text costs more
windows (the model averages them) for little gain in recall."""

PIECE_CHARS = 200
"""A message whose text is longer than this many characters is also embedded in pieces
of about this size (a sentence or two), each its own vector."""

MAX_PIECES = 8
"""At most this many pieces a message: a longer text gets longer pieces (up to
:data:`MAX_PASSAGE_CHARS` each), so the whole text is covered up to 8 × 2,000
characters and a message costs at most 9 model calls."""

_PREVIOUS_CHARS = 300
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])|\n+")


def passage_text(
    text: str,
    *,
    role: str,
    previous: str | None = None,
    name: str | None = None,
    previous_name: str | None = None,
) -> str:
    """The text embedded for a message of ``role`` holding ``text``; ``previous`` is
    the text of the message before it in its session (context for short replies).

    A speaker's ``name`` (and ``previous_name``), when the message has one, leads its
    line ("Ada: ..."): on the LoCoMo tuning split this recipe ranked about 3 points
    better than the texts alone (see docs/sessions.md)."""
    body = " ".join(text.split())[:MAX_PASSAGE_CHARS]
    if name:
        body = f"{name}: {body}"
    if previous:
        before = " ".join(previous.split())
        if previous_name:
            before = f"{previous_name}: {before}"
        before = before[:_PREVIOUS_CHARS]
        if before:
            return f"{before}\n{body}"
    return body


def pieces(text: str, size: int = PIECE_CHARS, *, limit: int = MAX_PIECES) -> list[str]:
    """``text`` in at most ``limit`` pieces of whole sentences (a longer sentence is cut
    at a space), each at most ``size`` characters or longer when the text needs it to
    fit ``limit`` pieces (never above :data:`MAX_PASSAGE_CHARS`); a piece after the first
    starts with the last sentence of the one before when that is short (the overlap).
    ``[text]`` (spaces collapsed) when it fits ``size``. Only the first ``4 × limit ×
    MAX_PASSAGE_CHARS`` characters are read: the pieces hold at most a quarter of that,
    and a pasted megabyte would otherwise be packed up to five times."""
    flat = " ".join(text.split())
    if len(flat) <= size:
        return [flat]
    text = text[: 4 * limit * MAX_PASSAGE_CHARS]
    out = _packed(text, size)
    while len(out) > limit and size < MAX_PASSAGE_CHARS:
        size = min(MAX_PASSAGE_CHARS, size * 2)
        out = _packed(text, size)
    return out[:limit]


def _packed(text: str, size: int) -> list[str]:
    units: list[str] = []
    for sentence in _SENTENCE.split(text):
        s = " ".join(sentence.split()) if sentence else ""
        while len(s) > size:
            cut = s.rfind(" ", 0, size)
            cut = cut if cut > size // 2 else size
            units.append(s[:cut].strip())
            s = s[cut:].strip()
        if s:
            units.append(s)
    out: list[str] = []
    current: list[str] = []
    for unit in units:
        if current and len(" ".join([*current, unit])) > size:
            out.append(" ".join(current))
            last = current[-1]
            current = [last] if len(last) <= size // 2 and len(last) + len(unit) < size else []
        current.append(unit)
    if current:
        out.append(" ".join(current))
    return out


def passage_texts(
    text: str,
    *,
    role: str,
    previous: str | None = None,
    name: str | None = None,
    previous_name: str | None = None,
) -> list[str]:
    """Every text embedded for a message: its whole passage (:func:`passage_text`), then,
    when ``text`` is longer than :data:`PIECE_CHARS`, its :func:`pieces`, the first with
    the previous turn, each led by the speaker's name. Its first vector is always the
    whole passage: what a store of one vector a message kept, and what PostgreSQL's
    pgvector index holds."""
    whole = passage_text(text, role=role, previous=previous, name=name, previous_name=previous_name)
    if len(text) <= PIECE_CHARS:
        return [whole]
    # Longer as written: pieces even when its spaces collapse to one piece, so that a row
    # of one vector always means "made before pieces" (what `embed --renew` looks for by
    # the text's stored length); such a message's one piece costs one more model call.
    parts = pieces(text)
    out = [whole]
    for n, part in enumerate(parts):
        out.append(
            passage_text(
                part,
                role=role,
                previous=previous if n == 0 else None,
                name=name,
                previous_name=previous_name if n == 0 else None,
            )
        )
    return out
