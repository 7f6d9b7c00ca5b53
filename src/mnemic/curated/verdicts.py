"""Clean verdicts of the load-time scan, remembered between processes.

Every process that shows memory (a session start, a hook, ``mnemic prompt``) scans every
entry it loads, because the files may have been edited by anyone. The entries rarely
change between two processes, and the scan is most of such a process's own work (the
scanner's tables and learned model are loaded on its first use). So the verdict
"nothing found" is remembered in ``<home>/cache/scan-verdicts.json``:

* an entry is known by the SHA-256 of its exact UTF-8 bytes (no text is kept): any
  changed byte is another key, and a key for a chosen text cannot be forged without a
  SHA-256 preimage;
* keys are grouped under the scanner's identity (:func:`scanner_identity`: this
  module's :data:`SCANNER_VERSION`, the size and modification time of every file of the
  scanner package, model included, the Python and Unicode versions) and the scope and
  level of the scan; anything else (an upgrade, another level) finds nothing cached;
* only clean verdicts are kept: an entry with a finding is always scanned again, so a
  stale or damaged cache can at worst cost a scan, never hide a finding it did not see;
* the file gets the protection of the memory files: it is read only when it is a
  regular file (no symlink) owned by this user that neither group nor others may write,
  in a directory (and home) with the same property; otherwise it is ignored and never
  written. Whoever can write it can also write ``config.toml`` (and lower the scan level
  there), so it gives nobody a power they lacked. It is replaced atomically
  (temp file and rename), not durably: a lost cache only means scanning again.

Writes of memory always run the full scan (with the neighbouring entries). This cache
serves the load-time display of entries (:mod:`mnemic.curated.snapshot`). A second one,
the directory ``<home>/cache/scan-verdicts-recent/`` (:class:`RecentVerdicts`, from
:meth:`VerdictCache.recent`), serves a session showing the entries other sessions added
since its last call: their writer remembers there the display's verdict of the text it
has just scanned, before it takes any lock, while it finds other sessions writing the
home (:func:`mnemic.curated.snapshot.share_clean`). It holds :data:`RECENT_KEYS` slot
files, each naming the last :data:`SLOT_LINES` verdicts of its keys (the same key under
the same group, with the same protection): a writer rewrites one slot in place and a
reader opens the one slot a text can be in, so neither parses nor replaces a whole file
(and two writers of different slots never lose each other's verdict, as a
read-modify-write of one file did). A verdict evicted from its slot is a scan again,
never a hidden finding.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import stat
import sys
import unicodedata
from pathlib import Path
from typing import Protocol

from ..errors import MnemicError
from ..fsio import atomic_write_text, ensure_private_dir

__all__ = [
    "SCANNER_VERSION",
    "RecentVerdicts",
    "VerdictCache",
    "Verdicts",
    "scanner_identity",
    "verdicts_path",
]


def _info(message: str, *args: object) -> None:
    """Log at INFO: logging is imported here, on the rare path that reports, not at
    every session start (the hook reads this cache and would pay for it)."""
    import logging

    logging.getLogger(__name__).info(message, *args)


SCANNER_VERSION = 1
"""Bumped when the scanner's judgement changes in a way its files do not show (they
change with every install: a new version of any of them already invalidates the cache)."""
FORMAT = 1
MAX_KEYS = 4096
"""Keys kept per scanner identity, scope and level (the most recently added)."""
RECENT_KEYS = 256
"""The slots of the recent writes' cache (:class:`RecentVerdicts`)."""
SLOT_LINES = 8
"""The verdicts a slot keeps (the most recent): a slot of one verdict lost it to the
next text whose key fell in the same slot, and with 16 writers a session's look-up came
after 16-32 others' shares, so about one verdict in eight was gone (a scan); with
several the cache keeps the last :data:`RECENT_KEYS` × :data:`SLOT_LINES` verdicts but
the rare slot that receives more than that many between a share and its look-up."""
_SLOT_BYTES = 4096
"""What is read of a slot (:data:`SLOT_LINES` lines of about 150 bytes fit)."""
MAX_BYTES = 1 << 20
_DIGEST_CHARS = 64

_identity: str | None = None


def verdicts_path(root: str | os.PathLike[str], *, recent: bool = False) -> Path:
    """The verdict cache of the home (or project store) at ``root`` (``recent``: the
    recent writes' directory of slots)."""
    return _verdicts_path(os.fspath(root), recent)


@functools.lru_cache(maxsize=64)
def _verdicts_path(root: str, recent: bool) -> Path:
    """:func:`verdicts_path`, made once per home: a session asks it at every call that
    shows the entries other writers changed (:meth:`VerdictCache.recent`)."""
    name = "scan-verdicts-recent" if recent else "scan-verdicts.json"
    return Path(root) / "cache" / name


def scanner_identity() -> str:
    """What a cached verdict is valid for: :data:`SCANNER_VERSION`, name, size and
    modification time of each file of the scanner package, the Python and Unicode
    versions (hashed). Computed once per process."""
    global _identity
    if _identity is None:
        # the scanner package's files (this module lives beside it, in curated/, so
        # that a cache hit imports none of the scanner)
        here = os.path.dirname(os.path.abspath(__file__))
        package = os.path.join(os.path.dirname(here), "scan")
        parts = [f"scanner {SCANNER_VERSION}", sys.version, unicodedata.unidata_version]
        with os.scandir(package) as found:
            for item in sorted(found, key=lambda e: e.name):
                if item.is_file() and not item.name.startswith("."):
                    st = item.stat()
                    parts.append(f"{item.name} {st.st_size} {st.st_mtime_ns}")
        fold = os.path.join(os.path.dirname(package), "unicode_fold.py")
        with contextlib.suppress(OSError):
            st = os.stat(fold)
            parts.append(f"unicode_fold.py {st.st_size} {st.st_mtime_ns}")
        _identity = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return _identity


def entry_key(text: str) -> str:
    """The key of ``text``: SHA-256 of its exact UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _private(st: os.stat_result) -> bool:
    """Owned by this user, and neither group nor others may write it."""
    return st.st_uid == os.geteuid() and not st.st_mode & 0o022


class Verdicts(Protocol):
    """What the display asks of remembered verdicts (:class:`VerdictCache`,
    :class:`RecentVerdicts`)."""

    def clean(self, text: str, scope: str, level: str) -> bool: ...

    def add(self, text: str, scope: str, level: str) -> None: ...

    def save(self) -> None: ...


class VerdictCache:
    """The clean verdicts remembered at ``path`` (see the module docstring). Read on
    first use; :meth:`save` writes back what was added."""

    def __init__(self, path: Path, max_keys: int = MAX_KEYS) -> None:
        self.path = path
        self.max_keys = max_keys
        self._keys: dict[str, dict[str, None]] | None = None
        self._trusted = False
        self._added = False

    @classmethod
    def of_home(cls, root: str | os.PathLike[str]) -> VerdictCache:
        """The cache of the home (or project store) at ``root``."""
        return cls(verdicts_path(root))

    @staticmethod
    def recent(root: str | os.PathLike[str]) -> RecentVerdicts:
        """The recent writes' cache of the home at ``root`` (see the module docstring)."""
        return RecentVerdicts(verdicts_path(root, recent=True))

    def _group(self, scope: str, level: str) -> str:
        return f"{scanner_identity()} {scope} {level}"

    def clean(self, text: str, scope: str, level: str) -> bool:
        """Whether ``text`` was found clean by this scanner at ``scope`` and ``level``."""
        keys = self._load().get(self._group(scope, level))
        return keys is not None and entry_key(text) in keys

    def add(self, text: str, scope: str, level: str) -> None:
        """Remember that ``text`` was found clean (by this scanner, at ``scope``,
        ``level``); written by :meth:`save`."""
        if not self._load_trusted():
            return
        group = self._load().setdefault(self._group(scope, level), {})
        key = entry_key(text)
        if key not in group:
            group[key] = None
            self._added = True

    def save(self) -> None:
        """Write the added verdicts back (best effort: a cache that cannot be written
        only means scanning again in the next process)."""
        if not self._added or self._keys is None:
            return
        self._added = False
        identity = scanner_identity()
        groups = {
            group: list(keys)[-self.max_keys :]
            for group, keys in self._keys.items()
            if group.startswith(identity + " ")  # verdicts of other scanners are dropped
        }
        text = json.dumps({"format": FORMAT, "groups": groups}, separators=(",", ":"))
        try:
            ensure_private_dir(self.path.parent)
            if not self._directories_private():
                return
            atomic_write_text(self.path, text, mode=0o600, sync_dir=False, fsync=False)
        except (MnemicError, OSError) as exc:
            _info("the scan verdicts were not remembered: %s", exc)

    # -- reading ----------------------------------------------------------------------
    def _load_trusted(self) -> bool:
        self._load()
        return self._trusted

    def _load(self) -> dict[str, dict[str, None]]:
        if self._keys is None:
            self._keys = {}
            try:
                self._trusted = self._read()
            except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
                _info("the scan verdict cache %s is ignored: %s", self.path, exc)
                self._keys = {}
                self._trusted = self._directories_private()
        return self._keys

    def _directories_private(self) -> bool:
        """Whether the cache's directory and the one above it (the home) are private."""
        try:
            return all(_private(os.stat(d)) for d in (self.path.parent, self.path.parent.parent))
        except OSError:
            return False

    def _read(self) -> bool:
        """Fill the keys from the file; whether the file may be trusted (and written)."""
        if not os.path.isdir(self.path.parent):
            return True  # nothing yet: save() creates the directory privately
        if not self._directories_private():
            _info("the scan verdict cache is ignored: %s is not private", self.path.parent)
            return False
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            return True
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or not _private(st):
                _info("the scan verdict cache %s is ignored: not a private file", self.path)
                return False
            data = os.read(fd, MAX_BYTES + 1)
        finally:
            os.close(fd)
        if len(data) > MAX_BYTES:
            raise ValueError("too large")
        raw = json.loads(data)
        if raw["format"] != FORMAT:
            raise ValueError(f"format {raw['format']!r}")
        found: dict[str, dict[str, None]] = {}
        for group, keys in raw["groups"].items():
            if not isinstance(group, str) or not isinstance(keys, list):
                raise ValueError("not a verdict group")
            found[group] = {k: None for k in keys if isinstance(k, str) and len(k) == _DIGEST_CHARS}
        self._keys = found
        return True


class RecentVerdicts:
    """The recent writes' verdicts: :data:`RECENT_KEYS` slot files in the directory
    ``path``. A verdict (the group and the key, as in :class:`VerdictCache`) lives in
    the slot its key names, one line ``<group> <key>``, with the last
    :data:`SLOT_LINES` verdicts of that slot (a new one evicts the oldest). A slot is
    believed only when it is a regular file (no symlink) owned by this user that
    neither group nor others may write, in a directory, cache directory and home with
    the same property; otherwise it is neither believed nor written. A slot is
    rewritten in place, not fsynced: a reader believes only whole lines, and one that
    meets the slot half written finds no verdict (a scan); two writers rewriting one
    slot at once may lose one verdict (a scan)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._private: bool | None = None
        self._added: dict[str, dict[bytes, None]] = {}

    def _line(self, text: str, scope: str, level: str) -> tuple[str, bytes]:
        # A session shows another writer's entry when it comes and again when it goes,
        # and with many writers several at every call: a text's slot and line are made
        # once per process (they depend on its bytes, the scanner and the slot count).
        identity = scanner_identity()
        memo = (text, scope, level, identity, RECENT_KEYS)
        got = _lines.get(memo)
        if got is None:
            key = entry_key(text)
            slot = f"{int(key[:8], 16) % RECENT_KEYS:03x}"
            got = slot, f"{identity} {scope} {level} {key}\n".encode()
            if len(_lines) >= _KNOWN_MAX:
                _lines.clear()
            _lines[memo] = got
        return got

    def clean(self, text: str, scope: str, level: str) -> bool:
        """Whether ``text`` was found clean by this scanner at ``scope`` and ``level``
        (by this process, or in a slot it may trust: then remembered in the process, so
        that an entry shown when it came is not looked up again when it goes)."""
        slot, line = self._line(text, scope, level)
        if line in _known_clean:
            return True
        if self._slot_holds(slot, line):
            _remember(line)
            return True
        return False

    def _slot_holds(self, slot: str, line: bytes) -> bool:
        if not self._directories_private():
            return False
        try:
            flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
            fd = os.open(os.path.join(self.path, slot), flags)
        except OSError:
            return False
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or not _private(st):
                return False
            return _holds(os.read(fd, _SLOT_BYTES), line)
        except OSError:
            return False
        finally:
            os.close(fd)

    def add(self, text: str, scope: str, level: str) -> None:
        """Remember that ``text`` was found clean; written by :meth:`save`."""
        slot, line = self._line(text, scope, level)
        self._added.setdefault(slot, {})[line] = None
        _remember(line)

    def save(self) -> None:
        """Write the added verdicts into their slots (best effort, as
        :meth:`VerdictCache.save`)."""
        added, self._added = self._added, {}
        if not added:
            return
        try:
            ensure_private_dir(self.path.parent)
            ensure_private_dir(self.path)
            self._private = None
            if not self._directories_private():
                return
            for slot, lines in added.items():
                self._write(slot, list(lines))
        except (MnemicError, OSError) as exc:
            _info("the scan verdicts were not remembered: %s", exc)

    def _write(self, slot: str, new: list[bytes]) -> None:
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        fd = os.open(self.path / slot, flags, 0o600)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or not _private(st):
                _info("the scan verdict slot %s is ignored: not a private file", slot)
                return
            kept = os.pread(fd, _SLOT_BYTES, 0) if st.st_size else b""
            new = [line for line in new if not _holds(kept, line)]
            if not new:
                return
            # the whole lines it holds, the oldest first (a half-written tail is dropped)
            lines = kept[: kept.rfind(b"\n") + 1].splitlines(keepends=True) + new
            data = b"".join(lines[-SLOT_LINES:])
            os.pwrite(fd, data, 0)
            if st.st_size > len(data):
                os.ftruncate(fd, len(data))
        finally:
            os.close(fd)

    def _directories_private(self) -> bool:
        """Whether the slots' directory, the cache directory and the home are private
        (checked once, and again after :meth:`save` creates them)."""
        if self._private is None:
            dirs = (self.path, self.path.parent, self.path.parent.parent)
            try:
                self._private = all(_private(os.stat(d)) for d in dirs)
            except OSError:
                self._private = False
        return self._private


# The verdict lines this process wrote or found in a slot it trusted (the same judgement
# of the same bytes: the scanner's memo keeps the verdicts it computed the same way).
_known_clean: dict[bytes, None] = {}
_KNOWN_MAX = 4096
# The slot and line of each text looked up (:meth:`RecentVerdicts._line`).
_lines: dict[tuple[str, str, str, str, int], tuple[str, bytes]] = {}


def _holds(data: bytes, line: bytes) -> bool:
    """Whether ``data`` (a slot's bytes) holds ``line`` (ending in a newline) whole."""
    return data.startswith(line) or b"\n" + line in data


def _remember(line: bytes) -> None:
    if len(_known_clean) >= _KNOWN_MAX:
        _known_clean.clear()
    _known_clean[line] = None
