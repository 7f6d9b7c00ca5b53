"""The error for a write to a session history the home does not let mnemic write.

:class:`ReadOnlyHome` has the name, code and signature of the shared error another
change adds to :mod:`mnemic.errors` for every read-only home; until both meet, the
session store raises this one (replace it with ``from ..errors import ReadOnlyHome``).
"""

from __future__ import annotations

from ..errors import StorageError

__all__ = ["ReadOnlyHome"]


class ReadOnlyHome(StorageError):
    """A write needs a file the home does not let mnemic create or write (a read-only
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
