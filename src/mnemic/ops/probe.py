"""What a resource's content is, cheaply: the fingerprints the live-resource watcher compares.

:class:`Probe` runs in a worker thread. For each watched resource it first takes a cheap
*signature* of what the resource depends on (the curated backend's
:meth:`~mnemic.curated.backend.CuratedBackend.signature` of MEMORY.md or USER.md: for
files, their ``lstat``; the ``lstat`` of the ``SKILL.md`` files of the skills roots), and
only when that signature moved does it compute the *fingerprint* (a hash of the content)
that decides whether subscribers are told. A touch that changes nothing therefore
notifies nobody, and a target that is removed or cannot be read has a fingerprint of its
own (it changes once, and stays put while the target stays gone).

A backend with no signature cheaper than a read (PostgreSQL) is read at every check (one
primary-key lookup) and the text hashed.

The archive (``mnemic://archive`` and per target) is folded from the audit journal and
read against both targets (a hand edit archives what it drops at once): its signature is
both targets' and the journal's position (the records after the last position are read,
nothing else); its fingerprint a hash of the archived items, so a refused write, which
appends a record but archives nothing, tells nobody.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from ..curated import archive
from ..curated.backend import CuratedBackend
from ..curated.view import MemoryView
from ..errors import MnemicError
from ..fsio import stat_signature
from ..governance.chain import Journal
from ..governance.storage import open_journal
from ..home import Home
from ..registry import backend_for
from ..skills import SkillStore

__all__ = [
    "ARCHIVE_URI",
    "ARCHIVE_URIS",
    "LIST",
    "MEMORY_URI",
    "SKILLS_URI",
    "SKILL_PREFIX",
    "SKILL_URI_TEMPLATE",
    "USER_URI",
    "Probe",
    "Scan",
    "source_of",
]

MEMORY_URI = "mnemic://memory"
USER_URI = "mnemic://user"
SKILLS_URI = "mnemic://skills"
SKILL_PREFIX = "mnemic://skills/"
SKILL_URI_TEMPLATE = "mnemic://skills/{name}"
ARCHIVE_URI = "mnemic://archive"
ARCHIVE_URIS: dict[str, str | None] = {
    ARCHIVE_URI: None,
    "mnemic://memory/archive": "memory",
    "mnemic://user/archive": "user",
}
"""The archive's resources: every archived entry, or one target's (never in the prompt)."""
LIST = "resources/list"
"""The pseudo-resource of the resource list (its fingerprint: the usable skills)."""

_TARGETS = {
    MEMORY_URI: "memory",
    USER_URI: "user",
    "mnemic://memory/long": "memory",  # the entries with their provenance
    "mnemic://user/long": "user",
}
_CHUNK = 1 << 16


def source_of(uri: str) -> str | None:
    """What ``uri`` depends on: ``memory``, ``user``, ``skills``; None for an unknown URI."""
    if uri in _TARGETS:
        return _TARGETS[uri]
    if uri in ARCHIVE_URIS:
        return "archive"
    is_skill = uri.startswith(SKILL_PREFIX) and len(uri) > len(SKILL_PREFIX)
    return "skills" if uri in (SKILLS_URI, LIST) or is_skill else None


@dataclass
class Scan:
    """What one check found: the stat signature of each source looked at, and the
    fingerprint of each resource whose source moved (or that had no baseline)."""

    stats: dict[str, Hashable] = field(default_factory=dict)
    prints: dict[str, Hashable] = field(default_factory=dict)


def _file_print(path: str) -> Hashable:
    """A hash of a regular file's bytes, or a marker saying why there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return ("absent",)
    except OSError as exc:
        return ("unreadable", exc.errno)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return ("not-a-file", stat.S_IFMT(st.st_mode))
        digest = hashlib.sha256()
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
        return ("bytes", digest.hexdigest())
    except OSError as exc:
        return ("unreadable", exc.errno)
    finally:
        os.close(fd)


class Probe:
    """Stat signatures and fingerprints of one home's resources (call from one thread at
    a time: the watcher holds its lock around :meth:`scan`)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._backend: CuratedBackend | None = None
        self._skills: SkillStore | None = None
        self._journal: Journal | None = None
        self._journal_at: tuple[str | None, int] = (None, 0)

    def _curated(self) -> CuratedBackend:
        """The curated backend, opened on first use (in the watcher's thread) as a
        reader's (nothing cleaned up, nothing written)."""
        if self._backend is None:
            self._backend = backend_for(self.home.settings).curated(self.home, cleanup=False)
        return self._backend

    def _view(self) -> MemoryView:
        """A view of memory over the probe's backend and the home's journal (the
        archive's reader: nothing written but the fold's cache)."""
        if self._journal is None:
            self._journal = open_journal(self.home.root, self.home.settings)
        return MemoryView(self._curated(), self.home.settings, journal=self._journal)

    @property
    def skills(self) -> SkillStore:
        if self._skills is None:
            self._skills = SkillStore.open(self.home)
        return self._skills

    # -- stat signatures (cheap, every check) ------------------------------------------
    def stat(self, source: str) -> Hashable:
        """The stat signature of ``source``; None means "no cheap signature: always look"."""
        if source == "skills":
            return self._skills_sig()
        if source == "archive":
            return self._archive_sig()
        try:
            return self._curated().signature(source)
        except MnemicError:
            return None  # no signature: the fingerprint says what is wrong

    def _archive_sig(self) -> Hashable:
        """Both targets' signatures and where the journal ends now (None: a target has
        no cheap signature, or the journal cannot be read: always look)."""
        sigs = (self.stat("memory"), self.stat("user"))
        if None in sigs:
            return None
        try:
            journal = self._view().journal
            assert journal is not None
            ident, position = self._journal_at
            ident, position, _ = journal.store.lines_after(ident, position)
        except MnemicError:
            return None
        self._journal_at = (ident, position)
        return (*sigs, ident, position)

    def _skills_sig(self) -> Hashable:
        try:
            located = self.skills.locate()
        except OSError as exc:
            return ("error", exc.errno)
        return tuple((path, stat_signature(os.path.join(path, "SKILL.md"))) for path, *_ in located)

    # -- fingerprints (when the signature moved) ---------------------------------------
    def fingerprint(self, uri: str) -> Hashable:
        """What the content of ``uri`` is now (equal fingerprints: nothing to tell)."""
        if uri in _TARGETS:
            return self._target_print(_TARGETS[uri])
        if uri in ARCHIVE_URIS:
            return self._guard(lambda: self._archive_print(ARCHIVE_URIS[uri]))
        if uri == LIST:
            return self._guard(
                lambda: tuple((i.ref, i.description) for i in self.skills.skills() if i.usable)
            )
        if uri == SKILLS_URI:
            return self._guard(
                lambda: tuple(
                    (i.ref, i.source, _file_print(i.skill_md)) for i in self.skills.skills()
                )
            )
        name = uri[len(SKILL_PREFIX) :]
        return self._guard(lambda: _file_print(self.skills.get(unquote(name)).skill_md))

    def _target_print(self, target: str) -> Hashable:
        def read() -> Hashable:
            text = self._curated().read(target)  # never blocks, never follows a symlink
            if text is None:
                return ("absent",)
            return ("text", hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())

        return self._guard(read)

    def _archive_print(self, target: str | None) -> Hashable:
        digest = hashlib.sha256()
        for a in archive.listing(self._view(), target):
            item = (a.id, a.target, a.key, a.text, a.reason, a.archived_at)
            digest.update(repr(item).encode("utf-8", "surrogatepass"))
        return ("archive", digest.hexdigest())

    @staticmethod
    def _guard(fn: Callable[[], Any]) -> Hashable:
        try:
            value: Hashable = fn()
        except MnemicError as exc:
            return ("error", type(exc).__name__, exc.to_llm())
        except OSError as exc:
            return ("error", "OSError", exc.errno)
        return value

    def scan(
        self,
        uris: Iterable[str],
        stats: dict[str, Hashable],
        baselined: frozenset[str],
    ) -> Scan:
        """Look at every source ``uris`` depend on. A source whose stat signature equals
        ``stats[source]`` is skipped, unless one of its URIs is not in ``baselined``."""
        by_source: dict[str, list[str]] = {}
        for uri in uris:
            source = source_of(uri)
            if source is not None:
                by_source.setdefault(source, []).append(uri)
        out = Scan()
        for source, members in by_source.items():
            sig = self.stat(source)
            out.stats[source] = sig
            moved = sig is None or stats.get(source, _UNSEEN) != sig
            for uri in members:
                if moved or uri not in baselined:
                    out.prints[uri] = self.fingerprint(uri)
        return out


_UNSEEN = object()
