"""Who said it: a question in the first person asks about what the user said, one that
asks what *you* said asks about the assistant's replies.

A history between one user and an assistant holds both sides on every topic: the user's
one-line facts ("I adopted a cat named Miso") next to the assistant's long replies full
of the same topic's words. Words and meaning alone rank the long reply as high as the
fact, often higher. The question says whose words it wants: "Which cities did I visit?"
(the user's), "Which scratching post did you recommend?" (the assistant's). The messages
of the other side keep :data:`OTHER_SHARE` of their score; nothing is left out. A
question in the third person ("What did Caroline research?") or one that names neither
changes nothing here.

A conversation between named people (a group chat, an imported LoCoMo dialogue: each
message keeps its speaker's ``name``) is asked about them in the third person: "What
recipes has Nate made?" wants Nate's own words, not Joanna's replies full of the same
words. When the question names exactly one of the speakers among the best matches, the
messages of the others keep :data:`NAMED_SHARE` (:func:`prefer_named`); a question
that names two of them, or none, changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..sql import SessionStore
from .hybrid import FusedMessage

__all__ = ["OTHER_SHARE", "asked_role", "named_speaker", "prefer_named", "prefer_role"]

OTHER_SHARE = 0.6
"""Share of its score a message of the side the question does not ask about keeps
(0.8 and 0.6 measured on the long-chat dev split: 0.6 the better)."""
NAMED_SHARE = 0.8
"""Share of its score a message of another speaker than the one a question names keeps."""
CANDIDATES = 100
"""Best positions whose side is read and weighed."""

_ASSISTANT = re.compile(
    r"\b(?:(?:did|do|have|had)\s+you\s+(?!remember|recall|know|think|mind)"
    r"|(?:would|could|can|will)\s+you\s+(?:recommend|suggest|advise|say)"
    r"|you\s+(?:said|suggested|recommended|told|mentioned|proposed|gave|wrote|advised|"
    r"explained|showed|listed|named|picked)\b|your\s+(?:suggestion|recommendation|advice|"
    r"answer|tip|idea)s?\b"
    r"|hast\s+du\s+(?:gesagt|empfohlen|vorgeschlagen)|(?:recomendaste|dijiste|sugeriste)\b"
    r"|m'as[- ]tu\s+(?:dit|conseillé|recommandé))"
    r"|你(?:说|建议|推荐|提到|提议)",
    re.I,
)
_USER = re.compile(
    r"\b(?:I|my|me|mine|myself|I'm|I've|I'd|ich|mein\w*|mir|mich|yo|mis?|je|j'|mon|ma|"
    r"mes|moi)\b|我",
    re.I,
)


def asked_role(text: str) -> str | None:
    """``assistant`` when the question asks what the assistant said, ``user`` when it
    speaks in the first person, else None."""
    if _ASSISTANT.search(text):
        return "assistant"
    if _USER.search(text):
        return "user"
    return None


def prefer_role(
    store: SessionStore, fused: Sequence[FusedMessage], role: str | None
) -> list[FusedMessage]:
    """``fused`` (best first) with the other side's messages among the best
    :data:`CANDIDATES` keeping :data:`OTHER_SHARE` of their score (the roles of those
    without a lexical hit in one read)."""
    if role is None or not fused:
        return list(fused)
    head = list(fused[:CANDIDATES])
    unknown = [(f.session_id, f.seq) for f in head if f.hit is None]
    read = dict(zip(unknown, store.roles_at(unknown), strict=True)) if unknown else {}
    out = []
    for f in head:
        said = f.hit.role if f.hit is not None else read.get((f.session_id, f.seq))
        if said in ("user", "assistant") and said != role:
            f = f._replace(score=f.score * OTHER_SHARE, notes=(*f.notes, "other_side"))
        out.append(f)
    out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
    return out + list(fused[CANDIDATES:])


def named_speaker(text: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` that ``text`` names as a word (written as the speaker
    writes it: "Nate", "Nate's"), or None when it names none or several."""
    named = {n for n in names if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text)}
    return named.pop() if len(named) == 1 else None


def prefer_named(
    store: SessionStore, fused: Sequence[FusedMessage], text: str
) -> list[FusedMessage]:
    """``fused`` (best first) with the messages among the best :data:`CANDIDATES` said
    by another named speaker than the one ``text`` names keeping :data:`NAMED_SHARE` of
    their score (their speakers in one read); unchanged unless the question names
    exactly one of at least two speakers found there. A speaker is the ``name`` of a
    user or assistant message; a tool result's name (its tool's) is none."""
    if not fused:
        return list(fused)
    head = list(fused[:CANDIDATES])
    said = [
        s[1] if s is not None and s[0] in ("user", "assistant") else None
        for s in store.speakers_at([(f.session_id, f.seq) for f in head])
    ]
    names = {n for n in said if n}
    name = named_speaker(text, names) if len(names) > 1 else None
    if name is None:
        return list(fused)
    out = []
    for f, speaker in zip(head, said, strict=True):
        if speaker and speaker != name:
            f = f._replace(score=f.score * NAMED_SHARE, notes=(*f.notes, "other_side"))
        out.append(f)
    out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
    return out + list(fused[CANDIDATES:])
