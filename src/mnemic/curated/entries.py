"""Pure functions over the entry format: parse, serialise, drift, matching, validation.

A target file holds entries joined by ``DELIMITER`` (newline, section sign, newline).
Entries may span lines; the budget counts the joined text, delimiters included. Nothing
here touches the disk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..control_chars import first_control
from ..errors import AmbiguousMatch, ContentRejected, NoMatch
from .placeholder import imitates_placeholder

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence

__all__ = [
    "DELIMITER",
    "TARGETS",
    "Drift",
    "append_entries",
    "appended",
    "came_and_went",
    "char_count",
    "detect_drift",
    "entry_handle",
    "find_entry",
    "flipped",
    "not_in",
    "parse",
    "read_entries",
    "serialize",
    "validate_content",
]

DELIMITER = "\n§\n"
TARGETS = ("memory", "user")
FILENAMES = {"memory": "MEMORY.md", "user": "USER.md"}
PREVIEW_WIDTH = 80
HANDLE_PREFIX = "entry:"


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR become LF (files edited on Windows stay readable)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _pieces(raw: str) -> tuple[str, list[str]] | None:
    """The text (newlines normalised) and its pieces between delimiters, each stripped;
    ``None`` for a blank text. Built-in maps, not a Python loop: a write does this to
    its whole target under the lock, so it runs per entry per write."""
    text = normalize_newlines(raw)
    if not text.strip():
        return None
    return text, list(map(str.strip, text.split(DELIMITER)))


def _entries(stripped: list[str]) -> list[str]:
    entries = dict.fromkeys(stripped)  # keeps the first of equal entries, in order
    entries.pop("", None)
    return list(entries)


def parse(raw: str) -> list[str]:
    """Split file text into entries: stripped, empty pieces dropped, duplicates collapsed."""
    pieces = _pieces(raw)
    return [] if pieces is None else _entries(pieces[1])


def read_entries(raw: str, limit: int) -> tuple[list[str], Drift | None]:
    """``parse(raw)`` and ``detect_drift(raw, limit)`` together, splitting the text once."""
    pieces = _pieces(raw)
    if pieces is None:
        return [], None
    return _entries(pieces[1]), _drift(*pieces, limit)


def serialize(entries: Sequence[str]) -> str:
    """Join entries for the file (no trailing newline; empty list -> empty file)."""
    return DELIMITER.join(entries)


def char_count(entries: Sequence[str]) -> int:
    """Characters the entries occupy in the budget (delimiters included): the length of
    their joined text (joining is a copy in C, faster than summing lengths in Python),
    or the count :func:`counted` gave for this very tuple."""
    known = _counted
    if known[0] is entries:
        return known[1]
    return len(DELIMITER.join(entries))


def counted(entries: tuple[str, ...], chars: int) -> tuple[str, ...]:
    """``entries``, whose :func:`char_count` its maker knows to be ``chars``: remembered
    for this one tuple (the last one given), so that the usage figures of a write to a
    large target do not join its whole text again. A tuple of strings never changes,
    and the memo holds it, so no other object can take its identity."""
    global _counted
    _counted = (entries, chars)
    return entries


_counted: tuple[tuple[str, ...], int] = ((), 0)


SCAN_MAX = 8
"""Up to this many texts are looked up in a whole target by a scan (in C), not a set."""


def extended(before: tuple[str, ...], after: tuple[str, ...]) -> tuple[str, ...]:
    """``after``, which its maker knows to be ``before`` with entries appended, none of
    them among ``before`` and none twice (what the store's adds make): remembered for
    this one pair (the last one given), so that the audit change, the loop guards and
    the session's view of an add to a large target find its new entries without a pass
    over the whole target (:func:`appended`, :func:`came_and_went`, :func:`flipped`,
    :func:`fresh_tail`). Tuples never change and the memo holds both, so no other pair
    can take their identities."""
    global _extended
    _extended = (before, after)
    return after


_extended: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def _known_tail(before: Sequence[str], after: Sequence[str]) -> Sequence[str] | None:
    """The entries :func:`extended` was told ``after`` appends to ``before`` (``None``:
    not this pair, or nothing appended)."""
    known_before, known_after = _extended
    if known_before is before and known_after is after and len(after) > len(before):
        return after[len(before) :]
    return None


def all_ascii(entries: Sequence[str]) -> bool:
    """Whether every entry is ASCII. The answer for a tuple is remembered (the last one
    asked about), and a tuple :func:`extended` made from that one is answered by looking
    at its new entries only: the usage figures of each add to a large target would
    otherwise look at every entry."""
    global _ascii
    known, answer = _ascii
    if known is entries:
        return answer
    grown_from, grown = _extended
    if grown is entries and grown_from is known and len(entries) >= len(known):
        answer = answer and all(map(str.isascii, entries[len(known) :]))
    else:
        answer = all(map(str.isascii, entries))
    if isinstance(entries, tuple):
        _ascii = (entries, answer)
    return answer


_ascii: tuple[Sequence[str], bool] = ((), True)


def appended(before: Sequence[str], after: Sequence[str]) -> Sequence[str] | None:
    """The entries at the end of ``after`` when it is ``before`` with entries appended
    (what an add makes), else ``None``. Compared in C: a write passes its whole target
    here, so it must not cost a Python step per entry."""
    known = _known_tail(before, after)
    if known is not None:
        return known
    n = len(before)
    if len(after) > n and tuple(after[:n]) == tuple(before):
        return after[n:]
    return None


def not_in(entries: Sequence[str], among: Sequence[str]) -> list[str]:
    """The entries of ``entries`` (in their order) that ``among`` does not hold: a few
    are looked up by a scan of ``among`` (in C), more through a set of it. What an add
    to a large target needs: its appended entries against the whole target."""
    held: Collection[str] = among if len(entries) <= SCAN_MAX else set(among)
    return [e for e in entries if e not in held]


def came_and_went(before: Sequence[str], after: Sequence[str]) -> tuple[list[str], list[str]]:
    """The entries of ``after`` not in ``before`` and those of ``before`` not in
    ``after``, each in its order; for appended entries (other writers' adds), found
    without a set of the whole target when they are few."""
    known = _known_tail(before, after)
    if known is not None:
        return list(known), []
    tail = appended(before, after)
    if tail is not None:
        return not_in(tail, before), []
    old, new = set(before), set(after)
    return [e for e in after if e not in old], [e for e in before if e not in new]


def flipped(before: Sequence[str], after: Sequence[str]) -> Collection[str]:
    """The entries in one of ``before`` and ``after`` but not both (their symmetric
    difference); for appended entries, found without a set of the whole target when
    they are few."""
    known = _known_tail(before, after)
    if known is not None:
        return list(known)
    tail = appended(before, after)
    if tail is not None:
        return not_in(list(dict.fromkeys(tail)), before)
    return set(before).symmetric_difference(after)


def fresh_tail(before: Sequence[str], after: Sequence[str]) -> list[str] | None:
    """When ``after`` is ``before`` with entries appended, those of them ``before`` does
    not hold, in their order (what an add brought); else ``None``."""
    known = _known_tail(before, after)
    if known is not None:
        return list(known)
    tail = appended(before, after)
    return None if tail is None else not_in(tail, before)


class Drift:
    """Why a file would not survive a rewrite through the memory tool unchanged."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason
        """Plain-words reason, e.g. 'an entry of 9,120 chars is longer than the budget'."""

    def __repr__(self) -> str:
        return f"Drift({self.reason!r})"


def detect_drift(raw: str, limit: int) -> Drift | None:
    """Return why ``raw`` would not round-trip, or ``None`` when it is clean.

    Drift is (1) text that does not equal the serialisation of its own parse (stray
    whitespace around delimiters, blank or duplicate segments), or (2) an entry longer
    than the whole budget (free-form text appended without delimiters).
    """
    pieces = _pieces(raw)
    return None if pieces is None else _drift(*pieces, limit)


def _drift(text: str, stripped: list[str], limit: int) -> Drift | None:
    longest = max(map(len, stripped))
    if longest > limit:
        return Drift(
            f"an entry of {longest:,} chars is longer than the whole {limit:,}-char budget, "
            "which is what text appended without delimiters looks like"
        )
    if serialize(list(filter(None, stripped))) != text.strip():
        if "" in stripped:
            why = "it has blank segments between delimiters"
        else:
            why = "it has extra whitespace around entries or delimiters"
        return Drift(f"{why}, so a rewrite would not reproduce it exactly")
    return None


def append_entries(
    raw: str,
    added: list[str],
    expected: list[str],
    limit: int,
    drift: Drift | None,
    *,
    read_back: bool = False,
) -> str | None:
    """``raw`` with ``added`` appended; ``None`` if that text would not read back as
    ``expected``, or would drift when ``raw`` did not (then the caller rewrites a clean
    file, or refuses a drifted one).

    An add never rewrites what is already in the file: every entry, and everything a
    hand edit left between them (indentation, blank segments, CRLF line ends), stays
    byte for byte. Only whitespace after the last entry gives way to the delimiter.

    ``drift`` is that of ``raw`` as read; when it is ``None`` and the join is proven
    (:func:`_joins_cleanly`), the text is not read back. ``read_back``: read it back
    whatever (a caller whose ``drift`` is not one computed from ``raw``).
    """
    head = raw.rstrip()
    if not head:
        return None
    text = head + DELIMITER + DELIMITER.join(added)
    proven = not read_back and drift is None and expected[-len(added) :] == added
    if proven and _joins_cleanly(head, added, limit):
        return text  # it reads back as ``expected``: no second pass over the whole text
    entries, drifts = read_entries(text, limit)
    if entries != expected or (drift is None and drifts is not None):
        return None
    return text


def _joins_cleanly(head: str, added: list[str], limit: int) -> bool:
    """Whether ``head`` (a clean text, stripped at its end) with ``added`` appended reads
    back as the entries of ``head`` followed by ``added``, without drift, known without
    reading the whole text again (a large target's add would pay a pass per entry).

    Splitting finds delimiters left to right, so appending cannot move one found in
    ``head`` before its last piece; a new one could only start within the two characters
    before the boundary, which takes ``head`` ending in ``"\\n§"``, or an added entry
    ending in ``"\\n§"`` or ``"\\n"``, or starting with ``"§\\n"``. Each added entry must
    be one stripped, delimiter-free piece (what :func:`validate_content` lets through)
    no longer than the budget; ``head`` without ``"\\r"`` (a CRLF file takes the long
    way), the added entries all different. The caller guarantees that ``head``'s text
    was clean (no drift) and that no added entry was one of its entries (an add of a
    present entry is reported as a duplicate instead).
    """
    if "\r" in head or head.endswith("\n§") or len(set(added)) != len(added):
        return False
    return all(
        entry
        and len(entry) <= limit
        and entry == entry.strip()
        and "\r" not in entry
        and DELIMITER not in entry
        and not entry.startswith("§\n")
        and not entry.endswith("\n§")
        for entry in added
    )


def validate_content(content: str, *, field: str = "content") -> str:
    """Strip ``content`` and check it can be stored as one entry; return the stripped text.

    Refused: empty text, control characters (other than tab and newline), lone
    surrogates (not storable as UTF-8), text that
    contains the delimiter or would form one at an entry boundary (starting with
    ``"§\\n"`` or ending with ``"\\n§"``): it would silently split into several entries on
    the next load, and text that imitates the ``[BLOCKED: ...]`` placeholder anywhere
    (:func:`~mnemic.curated.placeholder.imitates_placeholder`): it would be hidden behind
    a placeholder at every load.
    """
    text = normalize_newlines(content).strip()
    if not text:
        raise ContentRejected(
            "empty",
            f"{field} is empty. Give the text of the entry (use action='remove' to delete).",
        )
    bad = first_control(text)
    if bad is not None:
        raise ContentRejected(
            "control_character",
            f"{field} contains the control character U+{ord(bad):04X}. Remove it and retry.",
        )
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ContentRejected(
                "not_utf8",
                f"{field} contains a lone surrogate (U+{ord(text[exc.start]):04X} at character "
                f"{exc.start}), which is not valid Unicode text and cannot be saved. Remove "
                "it and retry.",
            ) from None
    if DELIMITER in text or text.startswith("§\n") or text.endswith("\n§"):
        raise ContentRejected(
            "delimiter",
            f"{field} contains the entry delimiter (a line holding only '§'), which would "
            "split it into several entries. Save each fact as its own entry (an operations "
            "list can add several at once), or drop the '§' line.",
        )
    if imitates_placeholder(text):
        raise ContentRejected(
            "placeholder",
            f"{field} contains '[BLOCKED' (or a look-alike of it), the placeholder mnemic "
            "shows in place of a hidden entry; text that imitates it is never an entry and "
            "cannot be saved. To delete a hidden entry, pass its entry:<hex> handle as "
            "old_text to remove. To note that something was blocked, write it without the "
            "bracket (e.g. 'deploy blocked by CI').",
        )
    return text


def entry_handle(entry: str) -> str:
    """A stable short id for an entry, usable as ``old_text`` (``entry:<8 hex>``).

    Blocked entries are shown to the model only by this handle, so it can remove them
    without their raw text ever entering its context.
    """
    import hashlib

    return HANDLE_PREFIX + hashlib.sha256(entry.encode("utf-8")).hexdigest()[:8]


def preview(text: str, width: int = PREVIEW_WIDTH) -> str:
    """One-line preview of an entry, ``width`` chars at most plus an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width] + "..."


def find_entry(
    entries: Sequence[str],
    selector: str,
    target: str,
    *,
    show: Callable[[str], str] | None = None,
) -> int:
    """Index of the entry ``selector`` designates.

    An exact whole-entry match wins; then an ``entry:<hex>`` handle; then a
    case-sensitive substring. Several matches with different text raise
    :class:`AmbiguousMatch` (previews rendered through ``show``, which hides
    blocked entries); identical matches pick the first; none raises :class:`NoMatch`.
    """
    sel = normalize_newlines(selector).strip()
    if not sel:
        raise ContentRejected("empty", "old_text is empty. Give a short unique substring.")
    for i, entry in enumerate(entries):
        if entry == sel:
            return i
    if sel.startswith(HANDLE_PREFIX):
        for i, entry in enumerate(entries):
            if entry_handle(entry) == sel:
                return i
    hits = [i for i, entry in enumerate(entries) if sel in entry]
    if not hits:
        raise NoMatch(target, sel)
    if len({entries[i] for i in hits}) > 1:
        render = show or (lambda e: e)
        raise AmbiguousMatch(
            target,
            sel,
            [preview(render(entries[i])) for i in hits],
            [entry_handle(entries[i]) for i in hits],  # a handle names one exactly
        )
    return hits[0]
