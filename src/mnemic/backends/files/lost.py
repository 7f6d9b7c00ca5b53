"""Whether a power cut may have lost a target's text (``[memory] durability =
"journal"``): the light look a reader takes before it reads a target.

A reader on the path of every prompt hook (:func:`~mnemic.curated.snapshot.render_snapshot`)
must not import the governance kernel that :mod:`.journal` and :mod:`.curated` bring
for the rare case of a text to rebuild. So the look is here, on ``os`` and ``json``
alone: this boot's id, and the newest journal record naming the target's state read
back from the journal's end (:func:`naming_back`, which :mod:`.journal` reads records
with too). Only when that record made its write durable by itself in an earlier boot
does the caller go on to :meth:`.curated.FileBackend.read`, which rebuilds the text
(docs/ARCHITECTURE.md, "Journal durability").
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Any

from ...errors import MnemicError
from ...fsread import open_regular

__all__ = ["boot_id", "may_be_lost", "naming_back", "needle", "parse_line"]

_BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id"
_BOOT: list[str | None] = []

TAIL_WINDOW = 16384
"""Bytes read from a journal's end at first when reading it backwards (then four times
as many each time, up to 4 MB)."""


def boot_id() -> str | None:
    """This boot's id (Linux), or ``None`` where there is none: journal durability then
    falls back to the files setting (it tells a power cut by a change of boot)."""
    if not _BOOT:
        try:
            with open(_BOOT_ID_PATH, encoding="ascii") as fh:
                _BOOT.append(fh.read().strip() or None)
        except OSError:
            _BOOT.append(None)
    return _BOOT[0]


def parse_line(line: bytes) -> dict[str, Any] | None:
    """The record on a journal line, or ``None`` (empty, damaged: verify reports it)."""
    if not line.strip():
        return None
    try:
        rec = json.loads(line)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) else None


def needle(target: str) -> bytes:
    """What every record naming ``target`` contains: its JSON string, encoded as record
    lines are (:func:`~mnemic.governance.chain.make_record`: UTF-8, not ASCII escapes)."""
    return json.dumps(target, ensure_ascii=False).encode("utf-8")


def naming_back(
    fd: int, end: int, target: str, names: Callable[[dict[str, Any]], bool]
) -> Iterator[dict[str, Any]]:
    """The records before byte ``end`` of the journal open at ``fd`` for which
    ``names(record)`` holds, newest first, read backwards in windows that grow as they
    go (a record names its target as a JSON key, so a line without it is skipped
    unparsed)."""
    key = needle(target)
    pos, carry, window = end, b"", TAIL_WINDOW
    while pos > 0:
        start = max(0, pos - window)
        lines = (os.pread(fd, pos - start, start) + carry).split(b"\n")
        carry = lines.pop(0) if start > 0 else b""
        for line in reversed(lines):
            if key not in line:
                continue
            rec = parse_line(line)
            if rec is not None and names(rec):
                yield rec
        pos = start
        window = min(window * 4, 1 << 22)


def _names_state(target: str) -> Callable[[dict[str, Any]], bool]:
    """Whether a record says anything of ``target``'s state: a commit record (result
    ``ok``) with the target among its ``before`` or ``after`` states, well formed or not
    (:func:`~mnemic.governance.chain.recorded_states` takes the well-formed ones)."""

    def names(rec: dict[str, Any]) -> bool:
        if rec.get("result") != "ok":
            return False
        sides = (rec.get("before"), rec.get("after"))
        return any(isinstance(side, dict) and target in side for side in sides)

    return names


def may_be_lost(journal: str, target: str) -> bool:
    """Whether ``target``'s text may be one a power cut damaged, as far as the journal
    at ``journal`` tells without the full look: ``False`` when the newest record saying
    anything of its state is well formed and did not make its write durable by itself
    in an earlier boot (nothing to rebuild, whatever the file holds), or when there is
    no such record or no boot id; ``True`` otherwise (the caller looks properly)."""
    boot = boot_id()
    if boot is None:
        return False
    try:
        fd = open_regular(journal, os.O_RDONLY, nofollow=True)
    except (MnemicError, OSError):
        return True  # the full look says what is wrong with it
    if fd is None:
        return False
    try:
        newest = next(naming_back(fd, os.fstat(fd).st_size, target, _names_state(target)), None)
    except OSError:
        return True
    finally:
        os.close(fd)
    if newest is None:
        return False
    for side in ("before", "after"):
        states = newest.get(side)
        if isinstance(states, dict) and not all(
            isinstance(t, str) and (s is None or isinstance(s, str)) for t, s in states.items()
        ):
            return True  # not a record recorded_states reads: the full look decides
    changes = newest.get("changes")
    change = changes.get(target) if isinstance(changes, dict) else None
    if not isinstance(change, dict) or "replay" not in change:
        return False  # durable by its own steps: nothing was left to a replay
    items = change["replay"]
    item = items[0] if isinstance(items, list) and items else None
    return not (isinstance(item, dict) and item.get("boot") == boot)
