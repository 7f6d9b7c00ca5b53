"""Storage errors: a file, lock, home or platform that stops a read or a durable write.

Every one leaves the stored data as it was.
"""

from __future__ import annotations

from ._base import MnemicError


class StorageError(MnemicError):
    """The storage layer failed (disk, lock, database)."""

    code = "storage_error"


class UnreadableFile(StorageError):
    """A memory file exists but cannot be read or decoded. Nothing was written."""

    code = "unreadable_file"

    def __init__(self, path: str, reason: str, *, check: str = "mnemic memory doctor") -> None:
        self.path = path
        self.reason = reason
        self.check = check
        """The command that shows a person what is wrong with the file (a skill's:
        ``mnemic skills lint``; ``mnemic memory doctor`` looks at memory files only)."""
        super().__init__(
            f"{path} could not be read ({reason}). Nothing was written, so its content is "
            f"safe. Fix or move the file (see `{check}`), then retry."
        )

    def checked_by(self, check: str) -> UnreadableFile:
        """The same failure, pointing at ``check`` to see what is wrong."""
        return UnreadableFile(self.path, self.reason, check=check)

    def to_llm(self) -> str:
        # A model cannot repair a file, and "retry" sent it round the loop guard: it is
        # told to hand the problem to the person and go on without the file.
        return (
            f"{self.path} could not be read ({self.reason}). Nothing was written, so its "
            f"content is safe. Only a person can repair it: tell the user (`{self.check}` "
            "shows what is wrong) and go on without it; retrying fails the same way until "
            "it is fixed."
        )

    def to_human(self) -> str:
        return self.message


class StoreUnreachable(StorageError):
    """The store could not be reached (a database server that did not answer or refused
    the login): nothing was refused for what was asked, the store is out of reach, and
    the same call works once it answers again. The console answers 503, not 409."""


class LockTimeout(StorageError):
    """Another writer held the sidecar lock longer than the configured timeout."""

    code = "lock_timeout"

    def __init__(self, path: str, waited_s: float) -> None:
        self.path = path
        self.waited_s = waited_s
        super().__init__(
            f"Timed out after {waited_s:.1f}s waiting for the lock {path}: another process "
            "is writing memory. Nothing was changed; retry shortly (or raise "
            "memory.lock_timeout in config.toml)."
        )


class UnsafePath(StorageError):
    """A path is unsafe to use (for example a lock file that is a symlink)."""

    code = "unsafe_path"

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"Refusing to use {path}: {reason}. Nothing was changed.")


class WriteFailed(StorageError):
    """The durable write itself failed; the previous file is intact."""

    code = "write_failed"

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"Could not write {path} ({reason}). The previous version is intact; nothing "
            "was changed."
        )


class ReadOnlyHome(StorageError):
    """A write needs a lock or temp file the home does not let mnemic create (a read-only
    mount, or a directory or file this user may not write). Reading still works."""

    code = "read_only_home"

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"The home is read-only: cannot create or write {path} ({reason}). Nothing was "
            "written; reading still works. To write, make the home writable for this user "
            "(permissions, or a read-only mount), or use a writable home (--home or "
            "MNEMIC_HOME)."
        )


class HomeNotFound(StorageError):
    """A command that only reads was pointed at a home that does not exist (a mistyped
    ``MNEMIC_HOME``, ``--home`` or profile, say). Reading never creates a home, so
    nothing was created."""

    code = "home_not_found"

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"No mnemic home at {path}. Nothing was created: a command that only reads never "
            "creates a home. If the path is wrong, check --home / MNEMIC_HOME and --profile "
            "/ MNEMIC_PROFILE; to start a new home there, run `mnemic init` (any write, such "
            "as `mnemic memory add`, creates it too)."
        )


class UnsupportedPlatform(StorageError):
    """The platform has no POSIX ``flock(2)``, which the embedded store's locks need."""

    code = "unsupported_platform"

    def __init__(self, platform: str) -> None:
        self.platform = platform
        super().__init__(
            f"mnemic cannot lock files on this platform ({platform}): its stores need POSIX "
            "file locks (flock), available on Linux, macOS and other POSIX systems. Nothing "
            "was written. On Windows, run mnemic inside WSL."
        )
