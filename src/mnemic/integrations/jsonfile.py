"""Another program's JSON configuration file, read strictly and rewritten safely.

:func:`read_json_object` refuses what could not be rewritten without losing something
(invalid JSON, a top level that is not an object, a key given twice, a file that is not
a regular file or not UTF-8); :func:`write_json_object` replaces the file atomically,
keeping its indentation and permission bits and writing through a symbolic link to its
target (dotfile managers link these files).
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from ..errors import IntegrationError, StorageError
from ..fsio import atomic_write_text, read_text_strict

__all__ = ["dump_json", "read_json_file", "read_json_object", "write_json_object"]

MAX_BYTES = 16 * 1024 * 1024
"""Larger files are refused: Claude Code's own state file stays far below this."""


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


_INDENT = re.compile(r"^([ \t]+)\S", re.M)


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``; ``None`` when the file does not exist.

    Raises :class:`~mnemic.errors.IntegrationError` when the file cannot be rewritten
    without loss: not valid JSON, a top level that is not an object, a key given twice,
    unreadable, not a regular file.
    """
    return read_json_file(path)[0]


def read_json_file(path: Path) -> tuple[dict[str, Any] | None, str]:
    """:func:`read_json_object`, plus the file's indentation (the first indented line's
    leading white space; two spaces for a new or one-line file), to write it back alike."""
    try:
        text = read_text_strict(path, max_bytes=MAX_BYTES)
    except StorageError as exc:
        raise IntegrationError(str(path), exc.to_llm().rstrip("."), _FIX) from exc
    if text is None:
        return None, DEFAULT_INDENT
    found = _INDENT.search(text)
    indent = found.group(1) if found and len(found.group(1)) <= 8 else DEFAULT_INDENT
    return _parse(path, text), indent


def _parse(path: Path, text: str) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as exc:
        raise IntegrationError(
            str(path),
            f"the key {exc.key!r} appears twice in one object, so rewriting the file would "
            "drop one of them",
            "Keep one of the two and run the command again.",
        ) from None
    except ValueError as exc:
        raise IntegrationError(str(path), f"is not valid JSON ({exc})", _FIX) from None
    if not isinstance(value, dict):
        raise IntegrationError(
            str(path), f"holds a JSON {type(value).__name__}, not an object", _FIX
        )
    return value


_FIX = "Fix the file by hand (or move it away) and run the command again."
DEFAULT_INDENT = "  "


def dump_json(value: Any, indent: str = DEFAULT_INDENT) -> str:
    """The text written: ``indent`` per level, keys in their order, a final newline."""
    return json.dumps(value, indent=indent, ensure_ascii=False) + "\n"


def write_json_object(path: Path, value: dict[str, Any], indent: str = DEFAULT_INDENT) -> Path:
    """Atomically replace ``path`` with ``value`` (created with its directory if missing;
    an existing file keeps its permission bits; a symbolic link keeps pointing at its
    target, which is what gets replaced). Returns the path written."""
    target = Path(os.path.realpath(path))
    mode = 0o644
    try:
        st = target.stat()
    except FileNotFoundError:
        target.parent.mkdir(parents=True, exist_ok=True)
    else:
        mode = stat.S_IMODE(st.st_mode)
    atomic_write_text(target, dump_json(value, indent), mode=mode)
    return target
