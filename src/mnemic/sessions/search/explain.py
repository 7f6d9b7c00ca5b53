"""Why a message ranks where it does, in words for people: what ``why`` says.

Both the message ranking (``search_messages``, ``mnemic sessions search --messages``) and
discovery (``session_search``, ``mnemic sessions search``) explain a result the same way:
the query words it holds (**words**), its cosine to the query (**meaning**), whose
neighbour it is when neither matched it, and what the time-aware and speaker steps did
(**recency**: ``fresh``, ``superseded``, ``earlier``, ``later``, ``date``; ``other side``;
``repeated``; ``stated``;
``after`` / ``before`` for the event next to the best match, :mod:`.sequence`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..index.fields import tool_call_text
from ..index.query import Query, fold_term, form_origins, match_spans
from .hybrid import FusedMessage

if TYPE_CHECKING:
    from ..store import Message

__all__ = ["NOTES", "reasons", "shown_text"]

NOTES = {
    "fresh": "fresh: states the subject later than a message it now ranks above",
    "superseded": "superseded: a later message states the same subject",
    "earlier": "earlier: the question asks about the past",
    "later": "later: a past question prefers an earlier statement",
    "date": "date: from the date the question names",
    "other_side": "other side: the question asks about the other speaker's words",
    "repeated": "repeated: its words recur in other matches (a template or an echo)",
    "stated": "stated: the user's statement the assistant's reply below it answers",
    "reply": "reply: the assistant's reply to the statement ranked above it (one exchange)",
    "after": "after: said next after the best match (the question asks what followed)",
    "before": "before: said just before the best match (the question asks what preceded)",
}
"""What each note of :attr:`~.hybrid.FusedMessage.notes` means."""


def reasons(
    f: FusedMessage, text: str, query: Query, *, neighbour: int | None = None
) -> tuple[str, ...]:
    """Why ``f`` (whose message holds ``text``) ranks where it does; ``neighbour`` is the id
    of the matching message next to it, for a position that matched only as a neighbour."""
    why = []
    if "lexical" in f.matched:
        # each match as the word the message writes: a prefix or stem matched ("databas"
        # of "database") is shown whole, a person reads words, not index terms
        spans = match_spans(text, query)
        words = dict.fromkeys((text[a : _word_end(text, b)].lower(), text[a:b]) for a, b in spans)
        origins = form_origins(query)
        shown = list(dict.fromkeys(
            f"{w} (a form of {origins[key]})" if (key := fold_term(frag)) in origins else w
            for w, frag in list(words)[:8]
        ))  # fmt: skip
        why.append("words: " + ", ".join(shown) if shown else "words")
    if f.semantic is not None:
        why.append(f"meaning: cosine {f.semantic.cosine:.3f}")
    if not f.matched and not {"after", "before"} & set(f.notes):
        why.append(f"next to message {neighbour}" if neighbour is not None else "next to a match")
    why += [NOTES.get(n, n) for n in f.notes]
    return tuple(why)


def _word_end(text: str, end: int) -> int:
    """Where the word a match ends inside ends (``end`` when the match ends a word)."""
    while end < len(text) and text[end].isalnum():
        end += 1
    return end


def shown_text(m: Message) -> str:
    """The text a result shows and explains: the message's content, or for a message
    that is only tool calls (found by their names and arguments, the index's ``aux``
    column) the calls, ``"memory: add · Billing deploys go through ..."``."""
    if (m.content or "").strip() or not m.tool_calls:
        return m.content or ""
    names, values = tool_call_text(json.dumps(m.tool_calls))
    return ", ".join(names) + ": " + " · ".join(values) if names else " · ".join(values)
