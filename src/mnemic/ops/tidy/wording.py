"""Better wording from a model (``mnemic memory tidy --llm``): one merged entry for a group
of duplicates, a shorter one for a long entry.

The model only proposes text; it is checked before it replaces the offline wording. It
must be one entry (no delimiter, nothing the store would refuse), no longer than what it
replaces, keep every value the entries hold (numbers, versions, dates, paths, URLs:
the slots of :mod:`.signals`) and say "not" where they do. A reply that fails a check,
or a model that fails, leaves the offline proposal as it was, with a notice saying why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ...curated.entries import entry_handle, validate_content
from ...curated.store import Op
from ...errors import LLMError, MnemicError
from ...llm.client import ChatClient
from .model import TidyProposal
from .signals import profile
from .slots import shown

__all__ = ["SYSTEM", "reword"]

SYSTEM = (
    "You tidy the long-term memory of an AI agent. Each memory entry is one short, "
    "declarative fact. Answer with the text of the new entry only: no preamble, no quotes, "
    "no list markers. Keep every fact, name, number, version, date and path the entries "
    "hold, and keep the language they are written in."
)


def _ask(proposal: TidyProposal) -> str:
    if proposal.kind == "merge":
        lines = "\n".join(f"- {e}" for e in proposal.entries)
        return (
            "These memory entries say the same thing. Write ONE entry that keeps every "
            f"fact they hold, as short as it can be:\n{lines}"
        )
    return (
        "This memory entry is too long. Write a shorter entry that keeps every fact it "
        f"holds:\n{proposal.entries[0]}"
    )


def _check(proposal: TidyProposal, text: str) -> str:
    """The model's text as an entry, or raise ValueError saying why it is not used."""
    text = text.strip().strip('"“”').strip()
    try:
        text = validate_content(text)
    except MnemicError as exc:
        raise ValueError(exc.to_human()) from None
    limit = sum(len(e) for e in proposal.entries) if proposal.kind == "merge" else None
    if limit is None:
        limit = len(proposal.entries[0]) - 1
    if len(text) > limit:
        raise ValueError(f"it is longer ({len(text)} chars) than what it replaces")
    wanted = set().union(*(profile(e).slots for e in proposal.entries))
    got = profile(text)
    lost = wanted - got.slots
    if lost:
        raise ValueError(f"it dropped {shown(lost)}")
    if got.negated != profile(proposal.entries[0]).negated:
        raise ValueError("it changed whether the fact holds (a 'not' appeared or went)")
    return text


def reword(
    proposals: Sequence[TidyProposal], client: ChatClient, *, timeout: float | None = None
) -> tuple[list[TidyProposal], list[str]]:
    """``proposals`` with the model's wording for merges and long entries where it passes
    the checks (see the module docstring), and a notice for each one it did not."""
    out: list[TidyProposal] = []
    notices: list[str] = []
    for p in proposals:
        if p.kind not in ("merge", "verbose"):
            out.append(p)
            continue
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": _ask(p)}]
        try:
            reply = client.complete(messages, temperature=0.0, timeout=timeout)
            text = _check(p, reply.content or "")
        except LLMError as exc:
            notices.append(f"The model could not be asked ({exc.to_llm()}); offline wording kept.")
            out.append(p)
            continue
        except ValueError as exc:
            notices.append(f"The model's wording for '{p.summary}' was not used: {exc}.")
            out.append(p)
            continue
        # the first operation replaces the kept entry (by its handle): now by the new text
        ops = (Op("replace", text, entry_handle(p.entries[0])), *p.ops[1:])
        out.append(dataclasses.replace(p, ops=ops, result=text, wording="llm"))
    return out, notices
