"""A write the threat scanner held, in a person's words (docs/first-week.md #11).

The scanner's reasons are kept as it gives them (``intent_credential_harvesting: hold:
asks for credentials (solicit 'ask the user for', cred 'password')``): the pending
record's detail and ``held_by_scanner`` (``--json``, the tools' answers) carry them, rule
ids and all. What a person reads (``memory add``, ``pending diff``, the console) is
:func:`held_sentence`: what the entry asks for and why it waits, the rule ids apart
(:func:`held_rules`). The tools' staged answer (``tooling.staged_response``, a layer
below) gets the same words from :func:`held_for_model` (docs/first-week.md #19). Wording
only: what the scanner decides is not touched here. The tool's ``read`` says which writes
to the target still wait for a person (:func:`waiting_note`, docs/first-week.md #26).

A staged tidy proposal is worded as the tidy said it, not as the batch of operations
that carries it out (a replace of the kept entry by itself and a remove, named by
``entry:<hash>`` handles): :func:`tidy_sentence` gives what approving it does (``pending
show``, ``pending diff``) and what it did (the approval's message), merged into,
superseded by, dropped or shortened (docs/first-week.md #42). A write the model made
keeps the tool's own message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..tooling import Held

__all__ = [
    "held_for_model",
    "held_rules",
    "held_sentence",
    "held_why",
    "rules_note",
    "tidy_sentence",
    "waiting_note",
]

_FINDING = re.compile(
    r"(?:(?P<file>[\w.\-/]+\.\w+): )?(?P<id>[a-z][a-z0-9_]*): (?P<detail>.*)", re.S
)
"""One reason: ``ID: DETAIL``, a skill's with the file it writes first (``SKILL.md: ID:
DETAIL``)."""

_NEXT = re.compile(r"; (?=(?:[\w.\-/]+\.\w+: )?[a-z][a-z0-9_]*: )")
"""Where one reason ends and the next begins (a detail may hold "; " itself)."""

_QUOTED = re.compile(r"'([^']+)'")

_VERB = re.compile(r"(?!its |this |was |is )[a-z]+s ")
"""A reason that opens with what the entry does ("pipes a downloaded script into a
shell"), which reads after "it"."""


def _reasons(held: str) -> list[tuple[str, str, str]]:
    """(file, rule id, detail) of each reason of ``held`` ("" file: a memory write's)."""
    out = []
    for part in _NEXT.split(held.strip()):
        m = _FINDING.fullmatch(part.strip())
        if m is None:
            out.append(("", "", part.strip()))
        else:
            out.append((m["file"] or "", m["id"], m["detail"].strip()))
    return out


def held_rules(held: str) -> list[str]:
    """The scanner's rule ids in ``held`` (the record's reason), in order, once each."""
    return list(dict.fromkeys(rule for _, rule, _ in _reasons(held) if rule))


def _without_scores(detail: str) -> str:
    """``detail`` without its bracketed score (``(score 0.94 >= threshold 0.85 (...);
    words weighing most: ...)``): numbers a person cannot act on."""
    start = detail.find("(score ")
    if start < 0:
        return detail
    depth = 0
    for i in range(start, len(detail)):
        depth += {"(": 1, ")": -1}.get(detail[i], 0)
        if depth == 0:
            return (detail[:start].rstrip() + detail[i + 1 :]).strip()
    return detail[:start].rstrip()


def _phrase(rule: str, detail: str) -> str:
    """One reason as a clause: what the entry asks for (the words that made the scanner
    hold it), or what the scanner read in it."""
    for verdict in ("hold: ", "block: "):
        detail = detail.removeprefix(verdict)
    if rule.startswith("intent_") and detail.endswith(")") and " (" in detail:
        why, _, evidence = detail[:-1].partition(" (")
        words = _QUOTED.findall(evidence)
        said = ", ".join(f'"{w}"' for w in dict.fromkeys(words))
        return f"it {why} (the words {said})" if said else f"it {why}"
    if rule.startswith("destination_"):
        return f"it {detail}"
    if rule.startswith("reference_"):
        what = rule.removeprefix("reference_").replace("_", " ")
        return f"it looks like a request about {what}, a pattern mnemic's memory tool refuses"
    detail = _without_scores(detail).removesuffix("; approve it if it is a plain note")
    if _VERB.match(detail):  # "pipes a downloaded script ...": what the entry does
        return f"it {detail}"
    return detail or rule.replace("_", " ")


def held_why(held: str) -> str:
    """Why the scanner held ``held``, in words, no rule id and no final stop: ``it asks
    for credentials (the words "ask the user for", "password")``. One clause per reason,
    a skill's naming its file."""
    clauses = []
    for file, rule, detail in _reasons(held):
        said = _phrase(rule, detail) if rule else detail
        clauses.append(f"{file}: {said}" if file else said)
    return "; ".join(clauses).rstrip(".")


def held_sentence(held: str) -> str:
    """Why a held write waits, as a person reads it: ``Held for a person to decide: it
    asks for credentials (the words "ask the user for", "password").`` The rule ids are
    left to :func:`held_rules`."""
    return f"Held for a person to decide: {held_why(held)}."


def held_for_model(held: str) -> Held | None:
    """``held`` (the scanner's reasons, "" when it did not hold) as the tools' staged
    answer gives it: the words, the sentence and the rule ids beside the raw reasons."""
    if not held:
        return None
    return Held(held, held_why(held), held_sentence(held), tuple(held_rules(held)))


def rules_note(held: str) -> str:
    """The scanner's rule ids of ``held``, for a person who wants them:
    ``(threat scanner rule: intent_credential_harvesting)``."""
    rules = held_rules(held)
    return f"(threat scanner rule{'s' if len(rules) > 1 else ''}: {', '.join(rules)})"


def waiting_note(ids: Sequence[str], file: str) -> str:
    """What the memory tool's ``read`` of ``file`` says of the writes to it that wait for
    a person's approval (``ids``, their pending ids; at least one): how many, that they
    are not in the entries read, not to propose them again, and how a person decides.
    ``... or with `mnemic pending approve ID` ...`` names the record when there is one."""
    n = len(ids)
    one = n == 1
    which = ids[0] if one else "ID"
    return (
        f"{n} write{'' if one else 's'} to {file} {'waits' if one else 'wait'} for a "
        f"person's approval (pending id{'' if one else 's'} {', '.join(ids)}) and "
        f"{'is' if one else 'are'} not in these entries yet; do not propose "
        f"{'it' if one else 'them'} again. A person approves on the web console's Pending "
        f"page (`mnemic ui`) or with `mnemic pending approve {which}`, or rejects with "
        f"`mnemic pending reject {which}`; tell the user if it matters to the task."
    )


_TIDY_VERBS = {
    "merge": ("Merged", "merges"),
    "supersede": ("Superseded", "supersedes"),
    "stale": ("Dropped", "drops"),
    "verbose": ("Shortened", "shortens"),
}
"""Each tidy kind's verb, as done and as approving it does."""

_QUOTE_WIDTH = 80


def _quoted(texts: Sequence[str]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``: each entry on one line, cut at
    :data:`_QUOTE_WIDTH` characters."""
    out = []
    for text in texts:
        flat = " ".join(text.split())
        cut = flat if len(flat) <= _QUOTE_WIDTH else flat[: _QUOTE_WIDTH - 3] + "..."
        out.append(f"'{cut}'")
    return out[0] if len(out) == 1 else f"{', '.join(out[:-1])} and {out[-1]}"


def tidy_sentence(
    kind: str,
    kept_before: str | None,
    kept: str | None,
    dropped: Sequence[str],
    *,
    done: bool,
) -> str | None:
    """A tidy proposal of ``kind`` in the tidy's words: what it did (``done``: ``Merged
    'a' into 'b'; the archive keeps 'a'.``) or what approving it does (``Approving it
    merges 'a' into 'b' ...``). ``kept_before`` / ``kept``: the kept entry before and
    after (its replace; None when it only drops), ``dropped``: the entries it removes.
    None when ``kind`` is not a tidy kind or the parts do not fit it (the caller keeps
    its own wording)."""
    verbs = _TIDY_VERBS.get(kind)
    if verbs is None:
        return None
    verb = verbs[0] if done else f"Approving it {verbs[1]}"
    gone = list(dropped)
    if kind in ("merge", "supersede"):
        if kept is None or not gone:
            return None
        if kind == "merge" and kept_before is not None and kept_before != kept:
            gone = [kept_before, *gone]  # a new wording: the kept entry's old one goes too
            said = f"{verb} {_quoted(gone)} into the new wording {_quoted([kept])}"
        elif kind == "merge":
            said = f"{verb} {_quoted(gone)} into {_quoted([kept])}"
        else:
            said = f"{verb} {_quoted(gone)} by {_quoted([kept])}"
    elif kind == "stale":
        if not gone or kept is not None:
            return None
        what = "the stale entry" if len(gone) == 1 else f"{len(gone)} stale entries:"
        said = f"{verb} {what} {_quoted(gone)}"
    else:
        if kept_before is None or kept is None or gone:
            return None
        gone = [kept_before]
        said = f"{verb} {_quoted(gone)} to {_quoted([kept])}"
    keeps = "keeps" if done else "will keep"
    what = "it" if len(gone) == 1 else "them"
    return f"{said}; the archive {keeps} {what}."
