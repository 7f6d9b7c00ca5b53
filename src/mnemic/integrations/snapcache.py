"""The SessionStart hook's answer, remembered between processes (docs/performance.md,
Start-up: the cached SessionStart answer; the trust argument is in docs/security.md).

Claude Code runs ``mnemic hook claude-code`` at every session start; its work is well
under a millisecond, its imports are most of its time. So the full handler
(:mod:`.hook`) writes what it printed to ``<home>/cache/session-start.json`` together
with everything that answer depended on, and the next call with the same inputs prints
it from here, a module that imports only the standard library's start-up modules, json
and select. A stale answer is never served; the cache is ignored (the full path runs)
unless all of these still hold:

* the context: the hook input's ``cwd`` (and where it resolves), the command's
  ``--home``/``--profile``/``--project``, every ``MNEMIC_*``, ``XDG_*`` and
  ``ANDROID_*`` variable (the platform's home: :func:`platform_home`), ``HOME`` and
  the Python that runs;
* the files: for each path the answer read (``config.toml``, ``project.json``, the
  ``memories/``, ``audit/``, ``pending/memory/`` and ``pending/skills/`` directories
  and every file in them (the queues: the answer says how many writes wait), of the home and of
  the project store of ``--project``/``MNEMIC_PROJECT`` and of every directory from
  ``cwd`` up, where a store would make the session's project), its device, inode, size, mode,
  modification and change time, or its absence. Mnemic replaces files by rename (a new
  inode); any other write changes the change time, which no user can set back;
* every file's change time is older than the clock of the file system when the full
  run began to read (a probe file's change time, taken after the signatures and before
  the rendering): a change in the same clock tick as the signatures could keep every
  number, a change after the probe gets a later change time;
* the code: the name, size and modification time of every file of the mnemic package;
* the clock: before the next ``expires`` time of an entry (when the entry would leave)
  and before the first waiting write's expiry (when it would leave the queue);
* the file: a regular file, no symlink, owned by this user and writable by nobody
  else, in private directories (as the scan verdict cache, :mod:`mnemic.curated.verdicts`).

Only the files backend is cached, and only an answer without a note (nothing expired,
nothing left out).
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..home import Home

from .hook_input import InputProblem, emit, read_bounded

__all__ = [
    "FORMAT",
    "Recorder",
    "cache_path",
    "code_identity",
    "context",
    "lookup",
    "platform_home",
    "remember",
    "serve",
    "signatures",
    "store_paths",
]

FORMAT = 1
MAX_BYTES = 4 << 20
KEEP = 8
"""Answers kept (the most recent, one per context: a few projects and homes' options)."""
_NAME = "session-start.json"
_STORE_FILES = ("config.toml", "project.json")
_STORE_DIRS = ("memories", "audit", "pending/memory", "pending/skills")
_ENV_PREFIXES = ("MNEMIC_", "XDG_", "ANDROID_")
"""Variables that can move the home or change the settings (platformdirs reads the
``XDG_`` ones, and ``ANDROID_`` ones to tell Android from Linux)."""


def cache_path(root: str) -> str:
    """The cached SessionStart answer of the home at ``root``."""
    return os.path.join(root, "cache", _NAME)


def _sig(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mode, st.st_mtime_ns, st.st_ctime_ns]


def store_paths(root: str) -> list[str]:
    """The paths of the store at ``root`` that its rendered block depends on: its files
    and its memory and journal directories with every entry in them."""
    paths = [os.path.join(root, name) for name in _STORE_FILES]
    for name in _STORE_DIRS:
        directory = os.path.join(root, name)
        paths.append(directory)
        try:
            with os.scandir(directory) as found:
                paths.extend(sorted(os.path.join(directory, e.name) for e in found))
        except OSError:
            pass
    return paths


def signatures(paths: list[str]) -> list[list[Any]]:
    """``[path, signature]`` of each path (``None``: absent)."""
    return [[p, _sig(p)] for p in paths]


def code_identity() -> str:
    """Name, size and modification time of every file of the mnemic package, a line
    each."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out: list[str] = []
    stack = [package]
    while stack:
        directory = stack.pop()
        with os.scandir(directory) as found:
            for e in found:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        stack.append(e.path)
                elif not e.name.endswith(".pyc"):
                    st = e.stat()
                    out.append(f"{e.path[len(package) :]!r} {st.st_size} {st.st_mtime_ns}")
    out.sort()
    return "\n".join(out)


def _real(path: object) -> str | None:
    if not isinstance(path, str) or not path or "\x00" in path:
        return None
    return os.path.realpath(os.path.expanduser(path))


def context(
    hook: dict[str, Any], home_path: str | None, profile: str | None, project: str | None
) -> tuple[str, list[Any]] | None:
    """The home root and the context of a SessionStart answer (see the module
    docstring), as JSON would give it back; ``None`` when it is not cached (a profile
    other than the default is chosen)."""
    if (profile or os.environ.get("MNEMIC_PROFILE") or "default") != "default":
        return None
    root = os.path.expanduser(home_path or os.environ.get("MNEMIC_HOME") or platform_home())
    cwd = hook.get("cwd")
    chosen = project or os.environ.get("MNEMIC_PROJECT") or None
    env = sorted([k, v] for k, v in os.environ.items() if k.startswith(_ENV_PREFIXES))
    found = [
        FORMAT,
        sys.version,
        sys.executable,
        root,
        home_path,
        profile,
        project,
        env,
        os.environ.get("HOME"),
        cwd if isinstance(cwd, str) else None,
        _real(cwd) if isinstance(cwd, str) and os.path.isabs(cwd) else None,
        _real(chosen),
    ]
    return root, json.loads(json.dumps(found))


def platform_home() -> str:
    """Where ``platformdirs`` puts the home when neither ``--home`` nor ``MNEMIC_HOME``
    names it, without importing it (its own imports cost more than a hit). Only a guess:
    the full run remembers an answer only where it agrees with :func:`mnemic.home.home_dir`
    and keeps the signatures of platformdirs' files with it (:class:`Recorder`)."""
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Application Support"), "mnemic")
    path = os.environ.get("XDG_DATA_HOME", "")
    if not path.strip():
        path = os.path.expanduser("~/.local/share")
    return os.path.join(path, "mnemic")


def _private(st: os.stat_result) -> bool:
    return st.st_uid == os.geteuid() and not st.st_mode & 0o022


def _read(path: str) -> dict[str, Any] | None:
    """The record at ``path``, if it may be trusted."""
    directory = os.path.dirname(path)
    for d in (directory, os.path.dirname(directory)):
        if not _private(os.stat(d)):
            return None
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > MAX_BYTES:
            return None
        data = os.read(fd, MAX_BYTES + 1)
    finally:
        os.close(fd)
    record = json.loads(data)
    return record if isinstance(record, dict) else None


def lookup(
    data: bytes, home_path: str | None, profile: str | None, project: str | None
) -> tuple[str, str] | None:
    """The remembered ``(stdout, message)`` for the hook input ``data``, or ``None``
    unless everything it depended on is unchanged. Raises on a damaged cache."""
    hook = json.loads(data.decode("utf-8-sig"))
    if not isinstance(hook, dict) or hook.get("hook_event_name") != "SessionStart":
        return None
    found = context(hook, home_path, profile, project)
    if found is None:
        return None
    root, ctx = found
    read = _read(cache_path(root))
    if read is None or read.get("format") != FORMAT or read["code"] != code_identity():
        return None
    record = next((a for a in read["answers"] if a["context"] == ctx), None)
    if record is None or not time.time() < record["until"]:
        return None
    probe = record["probe"]
    for path, sig in record["files"]:
        now = _sig(path)
        if now != sig or (now is not None and not now[5] < probe):
            return None  # changed, or changed in the clock tick the run began to read
    stdout, message = record["stdout"], record["message"]
    return (stdout, message) if isinstance(stdout, str) and isinstance(message, str) else None


def serve(
    home_path: str | None, profile: str | None, project: str | None
) -> bytes | InputProblem | OSError | None:
    """Answer the SessionStart hook from the cache and exit, when it holds the answer;
    else what was read of stdin (bytes, or why it could not be read), for the full
    handler; ``None`` when stdin was not read (not POSIX, or a terminal)."""
    if os.name != "posix":
        return None
    try:
        if os.isatty(0):
            return None
        data = read_bounded(0)
    except (InputProblem, OSError) as exc:
        return exc
    home_path = home_path or os.environ.get("MNEMIC_HOME") or None
    profile = profile or os.environ.get("MNEMIC_PROFILE") or None
    try:
        hit = lookup(data, home_path, profile, project)
    except Exception:  # anything off: the full path answers
        hit = None
    if hit is not None:
        emit(*hit)
    return data


def remember(
    root: str,
    ctx: list[Any],
    files: list[list[Any]],
    until: float,
    probe: int,
    stdout: str,
    message: str,
) -> None:
    """Write the answer of a full run (best effort; a failure only means no hit)."""
    import contextlib

    from ..errors import MnemicError
    from ..fsio import atomic_write_text, ensure_private_dir

    record = {
        "context": ctx,
        "files": files,
        "until": until,
        "probe": probe,
        "stdout": stdout,
        "message": message,
    }
    path = cache_path(root)
    code = code_identity()
    try:
        ensure_private_dir(os.path.dirname(path))
        for d in (os.path.dirname(path), root):
            if not _private(os.stat(d)):
                return
        answers = [record]
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            read = _read(path)
            if read is not None and read.get("format") == FORMAT and read["code"] == code:
                kept = [a for a in read["answers"] if a["context"] != ctx]
                answers += kept[: KEEP - 1]
        text = json.dumps(
            {"format": FORMAT, "code": code, "answers": answers}, separators=(",", ":")
        )
        atomic_write_text(path, text, mode=0o600, sync_dir=False, fsync=False)
    except (MnemicError, OSError, ValueError):
        pass


class Recorder:
    """What one full SessionStart run read, taken before it reads anything, so that an
    answer is remembered only when nothing it depended on changed while it ran."""

    def __init__(
        self, hook: dict[str, Any], home_path: str | None, profile: str | None, chosen: str | None
    ) -> None:
        self.enabled = False
        self.projects: list[str] = []
        self.probe: int | None = None
        try:  # a path that is no file name here (a lone surrogate): nothing is remembered
            self._start(hook, home_path, profile, chosen)
        except (OSError, ValueError):
            self.enabled = False

    def _start(
        self, hook: dict[str, Any], home_path: str | None, profile: str | None, chosen: str | None
    ) -> None:
        from ..curated.scope import PROJECTS_DIR, resolved_project_id

        found = context(hook, home_path, profile, chosen)
        if found is None:
            return
        self.root, self.ctx = found
        ctx_real, chosen_real = self.ctx[10], self.ctx[11]
        directories = [chosen_real] if chosen_real else []
        if ctx_real:
            here = ctx_real
            while True:
                parent = os.path.dirname(here)
                if parent == here:
                    break  # the root is no project (scope.locate, scope.find_project)
                directories.append(here)
                here = parent
        self.paths = store_paths(self.root)
        if not (home_path or os.environ.get("MNEMIC_HOME")):  # the platform's home
            import platformdirs

            from ..home import home_dir

            if os.path.expanduser(home_dir(None, profile)) != self.root:
                return  # the guess is wrong here: never remembered
            package = os.path.dirname(os.path.abspath(platformdirs.__file__))
            with os.scandir(package) as listing:
                self.paths += sorted(e.path for e in listing if not e.name.endswith(".pyc"))
        for directory in directories:
            pid = resolved_project_id(directory)  # realpaths and their parents
            self.paths += store_paths(os.path.join(self.root, PROJECTS_DIR, pid))
        self.before = signatures(self.paths)
        self.probe = _probe(self.root)
        self.projects = directories
        self.enabled = self.probe is not None

    def valid_until(
        self, home_path: str | None, profile: str | None, may_expire: Callable[[Home], bool]
    ) -> float | None:
        """Until when the answer holds: the next ``expires`` time of an entry of the home
        or of a project store the session could get (``inf``: none expires; stores where
        ``may_expire`` says no entry can carry one are not folded); ``None`` when it
        cannot be told or the home is not a files store (its answer is not remembered)."""
        from ..curated.scope import open_project
        from ..errors import MnemicError
        from ..home import Home
        from ..registry import stores_in_home

        try:
            home = Home.open(home_path, profile, create=False)
            if not stores_in_home(home.settings):
                return None
            stores: list[Home] = [home]
            for directory in self.projects:
                found = open_project(home, directory, create=False)
                if found.exists:
                    stores.append(found)
            until = float("inf")
            for store in stores:
                if not may_expire(store):
                    continue
                from ..curated.view import MemoryView

                view = MemoryView.open(store)
                fold = view.fold(write_back=False)
                if fold is None:
                    if view.journal is not None:
                        return None
                    continue
                for t in fold.targets.values():
                    for p in t.live.values():
                        if p.expires is not None:
                            until = min(until, p.expires)
            return until
        except (MnemicError, OSError):
            return None

    def done(self, stdout: str, message: str, until: float | None) -> None:
        """Remember the answer, valid ``until`` (a time; ``None``: not at all), if the
        files are as they were before the run (best effort: never raises)."""
        if not self.enabled or until is None:
            return
        try:
            if signatures(self.paths) != self.before:
                return
        except (OSError, ValueError):
            return
        remember(self.root, self.ctx, self.before, until, self.probe or 0, stdout, message)


def _probe(root: str) -> int | None:
    """The file system's clock now: the change time of a file written in the home's
    private cache directory (``None``: it cannot be written, nothing is remembered)."""
    from ..errors import MnemicError
    from ..fsio import ensure_private_dir

    directory = os.path.dirname(cache_path(root))
    if not os.path.isdir(root):
        return None  # no home yet: none is created for this
    try:
        ensure_private_dir(directory)
        if not _private(os.stat(directory)):
            return None
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(os.path.join(directory, "session-start.probe"), flags, 0o600)
        try:
            os.write(fd, b"probe\n")
            return os.fstat(fd).st_ctime_ns
        finally:
            os.close(fd)
    except (MnemicError, OSError):
        return None
