"""Importing a file that only grows (a Claude Code transcript) from where the last
import of it stopped.

The hooks of ``mnemic integrate claude-code`` import the same transcript at every
compaction and at the end of the session. Reading it whole each time made the cost grow
with the file: past about 0.8 GB the hook's time limit ended it before it reached the
new lines, and no later hook got further. :func:`import_growing` instead keeps an
:class:`~..store.ImportMark` in the session store (so it works the same on PostgreSQL):
the offset up to which every line is committed, and a check of the bytes that say the
file up to there is still what was imported (the first and the last
:data:`CHECK_WINDOW` bytes before the offset, with the offset). A run reads from the
mark; a file that is shorter, or whose checked bytes changed, is read whole again (the
message keys make that idempotent: messages already stored are recognised).

The file is read in segments of about :data:`SEGMENT_BYTES`, each imported (committed)
before the mark moves past it, so a run that is stopped at any point (the hook's
watchdog ends the process) keeps the segments it finished and the next run goes on from
there. With a ``budget`` a run starts no new segment once the budget is spent (or would
be by the next segment, judging by the slowest so far); the first segment always runs,
so every run makes progress. The mark never passes the last complete line: a line still
being written is read again next time.
"""

from __future__ import annotations

import hashlib
import io
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...fsread import open_to_read
from ..attachments import AttachmentStore
from ..sql import SessionStore
from ..store import ImportMark
from .claude import claude_items
from .formats import Reading, position_digest
from .importers import ImportReport

__all__ = [
    "CHECK_WINDOW",
    "SEGMENT_BYTES",
    "GrowingImport",
    "import_growing",
]

SEGMENT_BYTES = 8 << 20
"""Bytes read and committed before the mark moves (whole lines: a segment ends at the
end of a line)."""
CHECK_WINDOW = 64 << 10
"""Bytes at each end of the imported part that must be unchanged for a run to resume."""
_SCAN = 1 << 16


@dataclass
class GrowingImport:
    """What :func:`import_growing` did."""

    report: ImportReport
    start: int
    """Where reading started: the mark, or 0."""
    end: int
    """The mark afterwards: every line before it is imported."""
    size: int
    """The file's size when the run started."""
    bytes_read: int
    """Bytes of the file read, each counted once: the check of the part imported before
    (its two ends) and the part read now. Looking ahead for the end of a segment's last
    line, and the check after each segment, read bytes again that are counted already
    (counting them made a 60 MB transcript of one line "read 111,611,629 bytes")."""
    complete: bool
    """Whether the run read to the end of the file (False: out of budget)."""
    reread: str | None = None
    """Why a file imported before was read from its start again (None: it was not)."""

    @property
    def left(self) -> int:
        """Bytes after the mark not read yet (0 when complete)."""
        return 0 if self.complete else max(0, self.size - self.end)


class _Window(io.RawIOBase):
    """Bytes ``[start, end)`` of a file, read with ``pread``; counts lines as it goes."""

    def __init__(self, fd: int, start: int, end: int) -> None:
        super().__init__()
        self._fd, self._pos, self._end = fd, start, end
        self.newlines = 0
        self.after_line = start
        """The offset after the last complete line read."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        want = min(len(buffer), self._end - self._pos)
        if want <= 0:
            return 0
        data = os.pread(self._fd, want, self._pos)
        buffer[: len(data)] = data
        last = data.rfind(b"\n")
        if last >= 0:
            self.newlines += data.count(b"\n")
            self.after_line = self._pos + last + 1
        self._pos += len(data)
        return len(data)


@dataclass(frozen=True)
class _Mark:
    """Where one session's mark of one file is kept."""

    store: SessionStore
    session_id: str
    source: str

    def load(self) -> ImportMark | None:
        return self.store.import_mark(self.session_id, self.source)

    def save(self, mark: ImportMark) -> None:
        self.store.save_import_mark(self.session_id, self.source, mark)


def _check(fd: int, offset: int) -> tuple[str, int]:
    """The check of the first ``offset`` bytes, and how many distinct bytes it read (its
    two ends overlap when ``offset`` is under two windows)."""
    h = hashlib.blake2b(str(offset).encode(), digest_size=16)
    span = min(CHECK_WINDOW, offset)
    head = os.pread(fd, span, 0)
    tail = os.pread(fd, span, offset - span) if offset > span else b""
    h.update(head)
    h.update(tail)
    return h.hexdigest(), min(offset, len(head) + len(tail))


def _line_end(fd: int, target: int, size: int) -> int:
    """The offset after the first line end at or after ``target - 1`` (``size`` when
    there is none). The bytes it reads are the segment's own: the segment reads them
    again, and only that read is counted."""
    if target >= size:
        return size
    pos = target - 1
    while pos < size:
        chunk = os.pread(fd, min(_SCAN, size - pos), pos)
        found = chunk.find(b"\n")
        if found >= 0:
            return pos + found + 1
        pos += len(chunk)
    return size


def import_growing(
    store: SessionStore,
    path: str | os.PathLike[str],
    *,
    session_id: str,
    segment: int = SEGMENT_BYTES,
    budget: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    attachments: AttachmentStore | None = None,
) -> GrowingImport:
    """Import the Claude Code transcript at ``path`` from the mark saved for it and
    ``session_id`` (the session the transcript is of; see the module docstring);
    ``budget``: seconds after which no new segment starts; ``attachments`` keeps its
    images (without it they stay ``[image]``)."""
    path = Path(path)
    report = ImportReport(str(path), "claude", files=1)
    # a regular file only (a FIFO given as the transcript hung the hook); UnreadableFile
    fd = open_to_read(path)
    try:
        mark = _Mark(store, session_id, os.fspath(path))
        reading = Reading(report, bytes_total=os.fstat(fd).st_size, attachments=attachments)
        return _import(store, fd, path, report, reading, mark, max(1, segment), budget, clock)
    finally:
        os.close(fd)


def _import(
    store: SessionStore,
    fd: int,
    path: Path,
    report: ImportReport,
    reading: Reading,
    marks: _Mark,
    segment: int,
    budget: float | None,
    clock: Callable[[], float],
) -> GrowingImport:
    began = clock()
    size = reading.bytes_total
    start, read, reread = 0, 0, None
    mark = marks.load()
    if mark is not None:
        if mark.offset > size:
            reread = f"it is shorter than the {mark.offset:,} bytes imported before"
        else:
            check, read = _check(fd, mark.offset)
            if check == mark.check:
                start, reading.lines = mark.offset, mark.lines
                reading.earlier = dict(mark.positions)
            else:
                reread = "the part imported before has changed"
    first, slowest = start, 0.0
    while True:
        began_segment = clock()
        end = _line_end(fd, start + segment, size)
        window = _Window(fd, start, end)
        reading.bytes_done = start
        with io.BufferedReader(window, buffer_size=1 << 20) as stream:
            items = claude_items(path, stream, reading)
            for result in store.import_sessions(items, existing="merge"):
                report.count(result)
        read += end - start
        reading.lines += window.newlines
        if window.after_line > start:
            start = window.after_line
            check, _ = _check(fd, start)  # bytes read before, in this run or its check
            positions = {position_digest(s): n for s, n in reading.positions.items()}
            marks.save(ImportMark(start, check, reading.lines, {**reading.earlier, **positions}))
        if end >= size:
            return GrowingImport(report, first, start, size, read, True, reread)
        slowest = max(slowest, clock() - began_segment)
        if budget is not None and clock() - began + slowest > budget:
            return GrowingImport(report, first, start, size, read, False, reread)
