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
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from ..curated.backend import CuratedBackend
from ..errors import MnemicError
from ..home import Home
from ..registry import backend_for
from ..skills import SkillStore

__all__ = [
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


def _stat_sig(path: str) -> Hashable:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("absent",)
    except OSError as exc:
        return ("error", exc.errno)
    return (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_mode)


class Probe:
    """Stat signatures and fingerprints of one home's resources (call from one thread at
    a time: the watcher holds its lock around :meth:`scan`)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._backend: CuratedBackend | None = None
        self._skills: SkillStore | None = None

    def _curated(self) -> CuratedBackend:
        """The curated backend, opened on first use (in the watcher's thread) as a
        reader's (nothing cleaned up, nothing written)."""
        if self._backend is None:
            self._backend = backend_for(self.home.settings).curated(self.home, cleanup=False)
        return self._backend

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
        try:
            return self._curated().signature(source)
        except MnemicError:
            return None  # no signature: the fingerprint says what is wrong

    def _skills_sig(self) -> Hashable:
        try:
            located = self.skills.locate()
        except OSError as exc:
            return ("error", exc.errno)
        return tuple((path, _stat_sig(os.path.join(path, "SKILL.md"))) for path, *_ in located)

    # -- fingerprints (when the signature moved) ---------------------------------------
    def fingerprint(self, uri: str) -> Hashable:
        """What the content of ``uri`` is now (equal fingerprints: nothing to tell)."""
        if uri in _TARGETS:
            return self._target_print(_TARGETS[uri])
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
