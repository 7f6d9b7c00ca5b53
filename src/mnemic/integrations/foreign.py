"""Another agent's text files as the importers read them (``mnemic import``): at most
:data:`MAX_TEXT` bytes of strict UTF-8, and a file that cannot be read refused with an
:class:`~mnemic.errors.IntegrationError` naming it, why, and what the person can do."""

from __future__ import annotations

from pathlib import Path

from ..errors import IntegrationError, StorageError
from ..fsread import read_text_strict

__all__ = ["MAX_TEXT", "read_foreign_text"]

MAX_TEXT = 8 << 20
"""The largest file an importer reads (8 MiB)."""


def read_foreign_text(path: Path, fix: str) -> str | None:
    """The text of ``path`` (``None``: it does not exist); one that cannot be read (not a
    regular file, not UTF-8, larger than :data:`MAX_TEXT`) raises
    :class:`~mnemic.errors.IntegrationError` saying why, with ``fix`` as its hint."""
    try:
        return read_text_strict(path, max_bytes=MAX_TEXT)
    except StorageError as exc:
        why = getattr(exc, "reason", str(exc))
        raise IntegrationError(str(path), f"cannot be read ({why})", fix) from exc
