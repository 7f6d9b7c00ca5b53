"""The stored entries a new text is read with, indexed by what the whole-store scan looks
for in each of them.

A new entry that gives an address ("the sync endpoint is https://...") is read with
every stored entry that shares a naming word with it (:mod:`._terms`), and one that
names a domain or a payment identifier with every stored entry that names one too. Read
entry by entry, that is a pass over the whole store per write. :class:`TermIndex` keeps,
for a target's stored entries, where each naming word's first three letters, each run of
dense script and each such address occur, so the scan looks its candidates up and reads
only those, in store order, with the same code as before: a text the index does not
return cannot match (:meth:`Neighbours.naming`), so the verdicts are the same.

An index holds its texts. It is extended in place when the next entries begin with
exactly those texts (adds append), and a new one is made otherwise (a remove, an
eviction, a hand edit): nothing but the texts themselves is trusted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, overload

__all__ = ["Neighbours", "TermIndex"]


class TermIndex:
    """One target's stored entries (append-only) with, built when first asked, where
    each entry's terms begin (:func:`._terms.terms`) and which entries a given function
    finds something in (:meth:`sparse`)."""

    __slots__ = ("_begin", "_dense", "_fold", "_sparse", "_termed", "texts")

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.texts: tuple[str, ...] = tuple(texts)
        self._termed = 0
        self._fold: Callable[[str], str] | None = None
        self._begin: dict[str, list[int]] = {}
        self._dense: dict[str, list[int]] = {}
        self._sparse: dict[Callable[[str], Any], tuple[list[tuple[int, Any]], int]] = {}

    def of(self, entries: tuple[str, ...]) -> TermIndex:
        """The index of ``entries``: this one, extended, when ``entries`` begin with its
        texts (character for character); else a new one."""
        texts = self.texts
        if entries is texts:
            return self
        n = len(texts)
        if len(entries) >= n and entries[:n] == texts:
            if len(entries) > n:
                self.texts = texts + entries[n:]
            return self
        return TermIndex(entries)

    def _terms_upto(self, n: int, fold: Callable[[str], str]) -> None:
        if self._fold is not fold:  # one fold function per index (the scan has one)
            self._termed, self._fold = 0, fold
            self._begin, self._dense = {}, {}
        if self._termed >= n:
            return
        from ._terms import terms

        begin, dense = self._begin, self._dense
        for i in range(self._termed, n):
            words, runs = terms(fold(self.texts[i]))
            for b in {w[:3] for w in words}:
                begin.setdefault(b, []).append(i)
            for r in runs:
                dense.setdefault(r, []).append(i)
        self._termed = n

    def naming(
        self, n: int, fold: Callable[[str], str], begins: Iterable[str], runs: Iterable[str]
    ) -> set[int]:
        """Positions below ``n`` of the texts whose terms (of ``fold(text)``) hold a word
        beginning with one of ``begins`` (three letters) or one of the dense ``runs``."""
        self._terms_upto(n, fold)
        out: set[int] = set()
        for table, keys in ((self._begin, begins), (self._dense, runs)):
            for key in keys:
                at = table.get(key)
                if at:
                    out.update(at)
        if len(self.texts) > n:
            out = {i for i in out if i < n}
        return out

    def sparse(self, n: int, find: Callable[[str], Any]) -> list[tuple[int, Any]]:
        """``(position, find(text))`` for each of the first ``n`` texts where ``find``
        (a pure function of the text) returns something true, in order."""
        found, upto = self._sparse.get(find, ([], 0))
        if upto < n:
            for i in range(upto, n):
                got = find(self.texts[i])
                if got:
                    found.append((i, got))
            self._sparse[find] = (found, n)
        return [hit for hit in found if hit[0] < n] if upto > n else found


class Neighbours(Sequence[str]):
    """The stored entries of one or more targets, in order, as the scan reads them
    (a sequence of their texts), with their indexes: ``Neighbours([TermIndex(a),
    TermIndex(b)])`` reads as ``[*a, *b]``."""

    __slots__ = ("_all", "_parts")

    def __init__(self, indexes: Iterable[TermIndex]) -> None:
        parts: list[tuple[TermIndex, int, int]] = []
        offset = 0
        for index in indexes:
            n = len(index.texts)  # the texts now: an index only grows past them
            parts.append((index, n, offset))
            offset += n
        self._parts = tuple(parts)
        every: tuple[str, ...] = ()
        for index, n, _ in parts:
            every += index.texts[:n]
        self._all = every

    def __len__(self) -> int:
        return len(self._all)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self._all[i]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all)

    def naming(
        self, fold: Callable[[str], str], begins: Iterable[str], runs: Iterable[str]
    ) -> list[str]:
        """The texts, in order, whose naming words (:func:`._terms.terms` of
        ``fold(text)``) include a word beginning with one of ``begins`` (its first three
        letters) or a run of ``runs``: every text that can share a term with words of
        those beginnings and runs (:func:`._terms.shared_term`, ``Definition.of``)."""
        begins, runs = frozenset(begins), frozenset(runs)
        if not begins and not runs:
            return []
        out: list[str] = []
        for index, n, offset in self._parts:
            found = index.naming(n, fold, begins, runs)
            out.extend(self._all[offset + i] for i in sorted(found))
        return out

    def sparse(self, find: Callable[[str], Any]) -> list[tuple[str, Any]]:
        """``(text, find(text))`` for each text, in order, where ``find`` (a pure
        function of the text) returns something true."""
        return [
            (self._all[offset + i], got)
            for index, n, offset in self._parts
            for i, got in index.sparse(n, find)
        ]
