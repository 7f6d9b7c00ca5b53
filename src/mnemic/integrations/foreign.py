"""Another agent's files as the importers read them (``mnemic import``): text of at most
:data:`MAX_TEXT` bytes of strict UTF-8 (:func:`read_foreign_text`), and no path whose real
path leads out of the folder it was found in (:func:`check_inside`). Each refusal is an
:class:`~mnemic.errors.IntegrationError` naming the file, why, and what the person can
do."""

from __future__ import annotations

from pathlib import Path

from ..errors import IntegrationError, StorageError
from ..fsread import read_text_strict

__all__ = ["MAX_TEXT", "check_inside", "read_foreign_text"]

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


def check_inside(
    path: Path,
    folder: Path,
    what: str,
    fix: str = "Copy what it points to into place, or remove the link to skip it.",
) -> None:
    """Refuse ``path`` when its real path leads out of ``folder`` (a symlink out of
    ``what``, which the message names with where it leads; ``fix`` is its hint)."""
    real, base = path.resolve(), folder.resolve()
    if real != base and base not in real.parents:
        raise IntegrationError(str(path), f"a symlink out of {what} (to {real})", fix)
