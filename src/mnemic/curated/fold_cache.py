"""The fold of the audit journal, kept up to date from the journal and cached.

:func:`load` returns the :class:`~.fold.Fold` of a journal: from this process's last
fold of it, else from the cache the journal's store keeps (``audit/fold.json``, or a
row in PostgreSQL), folding only the records after the position it reflects; a cache
that is missing, damaged, of another journal (a rewrite made a new one) or whose last
record does not chain to the next is rebuilt from the first record. The cache is
written back when it fell behind (not durable: it is a cache, and can be deleted).
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from ..errors import MnemicError
from ..governance.chain import Journal
from .fold import Archived, Fold, TargetFold, _Undo
from .provenance import Provenance

__all__ = ["decode", "encode", "forget_cached", "load"]

log = logging.getLogger(__name__)

VERSION = 3
_REWRITE_AFTER = 1
"""Records folded past the cache before it is written back."""

_MEMO: dict[str, tuple[str, int, Fold]] = {}
_GUARD = threading.Lock()


def load(journal: Journal, *, write_back: bool = True) -> Fold:
    """The fold of every record of ``journal`` (see the module docstring). Raises
    :class:`~mnemic.errors.StorageError` when the journal cannot be read. Without
    ``write_back`` the cache is only read (this process still keeps its fold)."""
    store = journal.store
    with _GUARD:
        memo = _MEMO.get(journal.location)
        if memo is None:
            memo = _from_cache(store.read_cache())
        ident, position, fold = memo if memo is not None else ("", 0, Fold())
        now, end, lines = store.lines_after(ident or None, position)
        if now != ident or (lines and not _chains(fold, lines[0])):
            fold = Fold()
            if now != ident or position:
                now, end, lines = store.lines_after(None, 0)
        behind = 0
        for line in lines:
            rec = _parse(line)
            if rec is not None:
                fold.apply(rec)
                behind += 1
        _MEMO[journal.location] = (now, end, fold)
        if write_back and behind >= _REWRITE_AFTER and now:
            try:
                store.write_cache(now, encode(fold, now, end))
            except MnemicError as exc:
                log.info("the fold cache was not written: %s", exc)
        return fold


def forget_cached(journal: Journal) -> None:
    """Drop this process's fold of ``journal`` (after a rewrite: ``forget``)."""
    with _GUARD:
        _MEMO.pop(journal.location, None)


def _chains(fold: Fold, line: bytes) -> bool:
    """Whether ``line`` is the record after the last one ``fold`` holds."""
    rec = _parse(line)
    if rec is None:
        return False
    if fold.seq == 0:
        return rec.get("seq") == 1
    return rec.get("seq") == fold.seq + 1 and rec.get("prev") == fold.hash


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        rec = json.loads(line)
    except ValueError:
        return None  # damaged: audit verify reports it
    return rec if isinstance(rec, dict) else None


# -- the cache's form --------------------------------------------------------------------
def _prov(p: Provenance) -> list[Any]:
    return [p.created, p.updated, p.actor, p.origin, p.session_id, p.seen, p.confirmed, p.expires]


def _unprov(v: list[Any]) -> Provenance:
    return Provenance(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])


def _item(a: Archived) -> list[Any]:
    return [
        a.id,
        a.target,
        a.key,
        a.text,
        a.reason,
        a.archived_at,
        list(a.by),
        _prov(a.provenance),
        a.replaced_by,
    ]


def _unitem(v: list[Any]) -> Archived:
    return Archived(v[0], v[1], v[2], v[3], v[4], v[5], tuple(v[6]), _unprov(v[7]), v[8])


def encode(fold: Fold, ident: str, position: int) -> str:
    """The cached form of ``fold``, at ``position`` of the journal ``ident``."""
    targets = {}
    for name, t in fold.targets.items():
        targets[name] = {
            "live": {k: [*_prov(p), t.texts.get(k)] for k, p in t.live.items()},
            "state": t.state,
            "started": t.started,
            "recorded": t.recorded,
            "partial": t.partial,
            "undo": _encode_undo(t.undo),
            "batch": t.batch,
        }
    data = {
        "version": VERSION,
        "ident": ident,
        "position": position,
        "seq": fold.seq,
        "hash": fold.hash,
        "targets": targets,
        "archive": [_item(a) for a in fold.archive.values()],
    }
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def decode(text: str) -> tuple[str, int, Fold]:
    """The fold a cache holds, with its journal's ident and position (raises
    ``ValueError``, ``KeyError``, ``TypeError`` or ``IndexError`` when damaged)."""
    data = json.loads(text)
    if data["version"] != VERSION:
        raise ValueError("another version")
    fold = Fold()
    fold.seq, fold.hash = int(data["seq"]), data["hash"]
    for name, t in data["targets"].items():
        fold.targets[name] = TargetFold(
            {k: _unprov(v[:8]) for k, v in t["live"].items()},
            {k: v[8] for k, v in t["live"].items()},
            t["state"],
            t["started"],
            bool(t["recorded"]),
            bool(t["partial"]),
            _decode_undo(t["undo"]),
            t["batch"],
        )
    for v in data["archive"]:
        item = _unitem(v)
        fold.archive[item.id] = item
    return str(data["ident"]), int(data["position"]), fold


def _encode_undo(undo: _Undo | None) -> dict[str, Any] | None:
    if undo is None:
        return None
    return {
        "added": [[k, None if p is None else _prov(p), x] for k, p, x in undo.added],
        "removed": undo.removed,
        "restored": [_item(a) for a in undo.restored],
        "then": _encode_undo(undo.then),
    }


def _decode_undo(u: dict[str, Any] | None) -> _Undo | None:
    if u is None:
        return None
    return _Undo(
        [(k, None if p is None else _unprov(p), x) for k, p, x in u["added"]],
        list(u["removed"]),
        [_unitem(a) for a in u["restored"]],
        _decode_undo(u["then"]),
    )


def _from_cache(text: str | None) -> tuple[str, int, Fold] | None:
    if text is None:
        return None
    try:
        return decode(text)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        log.info("the fold cache is rebuilt: %s", exc)
        return None
