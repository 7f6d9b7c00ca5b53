"""What text of a message is embedded: one small function, so it can be tuned in one place.

A vector encodes the text it was made from, so whatever this function puts in a
message's passage (the previous turn included) is also what forgetting must remove: the
stores delete the vector of a message when that message, or the one before it, is
changed or deleted.
"""

from __future__ import annotations

__all__ = ["EMBEDDED_ROLES", "MAX_PASSAGE_CHARS", "passage_text"]

EMBEDDED_ROLES = ("user", "assistant")
"""Roles whose messages get a vector (tool output and system prompts do not)."""

MAX_PASSAGE_CHARS = 2000
"""Longer text is cut: the model's window is 512 tokens, and longer text costs more
windows (the model averages them) for little gain in recall."""

_PREVIOUS_CHARS = 300


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
