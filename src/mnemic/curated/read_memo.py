"""What a store last read or wrote of each target: the text, its parse and its hash.

A write re-reads its target under the lock (another process may have written it), and
parsing that text, checking its drift and hashing it for the audit record are each a
pass over every entry. When the text found is the one this store last read or wrote
(the usual case when one process writes), that work was already done for that exact
text: it is reused. When the text found is that text with a few entries appended (other
processes' adds), only the appended part is parsed and hashed (:func:`_grown`). Nothing
is trusted but the text itself: a hit needs the text found to equal, or to start with,
character for character, the text the parse and hash were made of, so the result is
the same as doing the work again. The scan's index of each target's entries
(:meth:`ReadMemo.index`) is kept beside them, checked against the entries alike.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..scan import TermIndex
from .entries import DELIMITER, SCAN_MAX, Drift, not_in, parse, read_entries

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Parsed", "ReadMemo", "ServerTexts"]


@dataclass(frozen=True, slots=True)
class Parsed:
    """A target's text read under the lock: its entries, drift and SHA-256."""

    entries: list[str]
    """A fresh list: the caller may change it."""
    known: tuple[str, ...]
    """The same entries as a tuple: the one the text was last written with (the
    :class:`~.store.Commit`'s ``after``) when it is that text, so that identity memos of
    that tuple (:func:`~.entries.counted`, :func:`~.entries.extended`) hold for it."""
    drift: Drift | None
    digest: Any
    """``hashlib.sha256`` of the text's UTF-8, a copy the caller may update."""


@dataclass(frozen=True, slots=True)
class _Known:
    text: str
    limit: int
    entries: tuple[str, ...]
    drift: Drift | None
    digest: Any


class ReadMemo:
    """The last text of each target a store read or wrote, with what was made of it."""

    __slots__ = ("_indexes", "_known")

    def __init__(self) -> None:
        self._known: dict[str, _Known] = {}
        self._indexes: dict[str, TermIndex] = {}

    def parse(self, target: str, raw: str, limit: int) -> Parsed:
        """``read_entries(raw, limit)`` and the hash of ``raw``; reused when ``raw`` is
        the text last read or written for ``target`` (with the same ``limit``)."""
        known = self._known.get(target)
        if known is None or known.limit != limit or known.text != raw:
            known = (known and _grown(known, raw, limit)) or _parsed(raw, limit)
            self._known[target] = known
        return Parsed(list(known.entries), known.entries, known.drift, known.digest.copy())

    def index(self, target: str, entries: tuple[str, ...]) -> TermIndex:
        """The scan's index of ``entries`` (a target's entries as :meth:`parse` gave
        them): the one kept for ``target``, extended when ``entries`` begin with its
        texts (adds since), else a new one (:meth:`TermIndex.of`: it compares the texts
        themselves, so a hand edit, a remove or an eviction is never served stale)."""
        kept = self._indexes.get(target)
        index = TermIndex(entries) if kept is None else kept.of(entries)
        self._indexes[target] = index
        return index

    def wrote(
        self, target: str, text: str, limit: int, entries: Sequence[str], digest: Any
    ) -> None:
        """``text`` was written to ``target``: it parses as ``entries``, without drift,
        and ``digest`` is its hash (kept as a copy; a tuple of ``entries`` is kept as it
        is, not copied)."""
        self._known[target] = _Known(text, limit, tuple(entries), None, digest.copy())

    def forget(self, target: str) -> None:
        """Nothing is known of ``target``'s text now (it was written another way)."""
        self._known.pop(target, None)


def _parsed(raw: str, limit: int) -> _Known:
    entries, drift = read_entries(raw, limit)
    return _Known(raw, limit, tuple(entries), drift, hashlib.sha256(raw.encode("utf-8")))


def _grown(known: _Known, raw: str, limit: int) -> _Known | None:
    """``raw`` parsed from ``known``, when it is ``known``'s text with a few entries
    appended the way an add appends them (other processes' adds); else ``None``.

    ``known``'s text is clean (no drift), holds entries, has no ``"\\r"`` and ends in
    neither whitespace nor ``"\\n§"``: no delimiter can then straddle its end, so
    splitting the whole text finds its pieces, then the appended text's own. That text
    must be the delimiter followed by pieces that are each stripped, non-blank and
    within the budget: then the whole text is clean too, and its entries are the known
    ones followed by the new pieces not among them.
    """
    old = known.text
    if (
        known.limit != limit
        or known.drift is not None
        or not known.entries
        or len(raw) <= len(old)
        or not raw.startswith(old)
    ):
        return None
    tail = raw[len(old) :]
    if (
        not tail.startswith(DELIMITER)
        or "\r" in tail
        or "\r" in old
        or old[-1].isspace()
        or old.endswith("\n§")
    ):
        return None
    pieces = tail[len(DELIMITER) :].split(DELIMITER)
    if len(pieces) > SCAN_MAX or not all(p and p == p.strip() and len(p) <= limit for p in pieces):
        return None
    came = tuple(not_in(list(dict.fromkeys(pieces)), known.entries))
    digest = known.digest.copy()
    digest.update(tail.encode("utf-8"))
    return _Known(raw, limit, known.entries + came, None, digest)


class ServerTexts:
    """The text a store's writes in the server (:mod:`.server_write`) last found or left
    of each target, with its entries: the backend answers each write with the whole text
    it found, and parsing it was a pass over every entry at each write (0.5 ms at 1,500
    entries, most of what grew with the store in the client's CPU a write). When the
    text found is that text (this process wrote last) its entries are reused, the very
    tuple; when it is that text with entries appended (other processes' adds), only the
    appended part is parsed (:func:`_appended`). As :class:`ReadMemo`, nothing is trusted
    but the text: a hit needs the text found to equal, or to start with, the text the
    entries were made of, and gives what :func:`~.entries.parse` gives."""

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, tuple[str, ...], set[str] | None]] = {}

    def entries(self, target: str, raw: str) -> tuple[str, ...]:
        """``tuple(parse(raw))``, from what is kept for ``target`` when it can be."""
        known = self._known.get(target)
        if known is not None:
            old, entries, members = known
            if raw == old:
                return entries
            grown = _appended(old, entries, members, raw)
            if grown is not None:
                self._known[target] = grown
                return grown[1]
        entries = tuple(parse(raw))
        self._known[target] = (raw, entries, None)
        return entries

    def wrote(
        self, target: str, text: str, after: tuple[str, ...], added_to: tuple[str, ...] | None
    ) -> None:
        """``text``, whose entries are ``after``, was written to ``target`` (kept as it
        is, not copied); ``added_to``: the entries :meth:`entries` gave, when ``after``
        is they with one entry appended (an add)."""
        known = self._known.get(target)
        members = None
        if added_to is not None and known is not None and known[1] is added_to:
            members = known[2]  # the set of the entries, kept up to date
            if members is not None:
                members.add(after[-1])
        self._known[target] = (text, after, members)

    def forget(self, target: str) -> None:
        """Nothing is known of ``target``'s text now."""
        self._known.pop(target, None)


def _appended(
    old: str, entries: tuple[str, ...], members: set[str] | None, raw: str
) -> tuple[str, tuple[str, ...], set[str] | None] | None:
    """``raw``'s text, entries and their set, when ``raw`` is ``old`` (whose entries are
    ``entries``) with pieces appended after a delimiter; else ``None``.

    ``old`` holds entries, has no ``"\\r"`` (which parsing turns into a newline) and ends
    in neither whitespace nor ``"\\n§"``: no delimiter can then straddle its end, so
    splitting ``raw`` finds ``old``'s pieces, then the appended text's own. Each
    appended piece must be stripped and non-blank, so that parsing ``raw`` keeps every
    piece of ``old`` (its entries) and of the tail: its entries are then ``entries``
    followed by the tail's pieces not among them (the first of equal ones), what
    :func:`~.entries.parse` keeps. The entries' set is made for a tail of
    more than a few pieces (then kept, and updated by the writes that follow)."""
    if (
        not entries
        or len(raw) <= len(old) + len(DELIMITER)
        or not raw.startswith(old)
        or raw[len(old) : len(old) + len(DELIMITER)] != DELIMITER
        or old[-1].isspace()
        or old.endswith("\n§")
    ):
        return None
    tail = raw[len(old) + len(DELIMITER) :]
    if "\r" in tail or "\r" in old:
        return None
    pieces = tail.split(DELIMITER)
    if not all(p and p == p.strip() for p in pieces):
        return None
    fresh = list(dict.fromkeys(pieces))
    if len(fresh) > SCAN_MAX and members is None:
        members = set(entries)
    came = not_in(fresh, entries) if members is None else [p for p in fresh if p not in members]
    if members is not None:
        members.update(came)
    return raw, entries + tuple(came), members
