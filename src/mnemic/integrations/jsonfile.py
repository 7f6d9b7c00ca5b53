"""Another program's JSON configuration file, read strictly and rewritten safely.

:func:`read_json_object` refuses what could not be rewritten without losing or changing
something: invalid JSON (``NaN`` and ``Infinity`` included: Python's reader takes them,
JSON has no such values), a top level that is not an object, a key given twice, a string
holding a lone surrogate (an escape such as ``"\\ud800"`` with no pair: not text, so not
writable as UTF-8), nesting deeper than :data:`MAX_DEPTH`, a file that is not a regular
file or not UTF-8. A number with a fraction or an exponent is read as a
:class:`JsonNumber`, which :func:`dump_json` writes back with its own text (``1e400``,
``1.50``, ``1E5``), so numbers round-trip exactly. :func:`write_json_object` replaces
the file atomically, keeping its indentation and permission bits and writing through a
symbolic link to its target (dotfile managers link these files).
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
from ..tooling import find_surrogate

__all__ = [
    "MAX_DEPTH",
    "JsonNumber",
    "dump_json",
    "read_json_file",
    "read_json_object",
    "write_json_object",
    "write_json_text",
]

MAX_BYTES = 16 * 1024 * 1024
"""Larger files are refused: Claude Code's own state file stays far below this."""

MAX_DEPTH = 100
"""Deeper nesting of arrays and objects is refused: Claude Code's files are a few levels
deep, and reading, copying and writing JSON recurse once per level."""


class JsonNumber(float):
    """A JSON number with a fraction or an exponent, as the file spells it: equal to its
    float value, written back by :func:`dump_json` with its own text (``1e400`` stays
    ``1e400``, not Python's ``Infinity``; ``1.50`` stays ``1.50``)."""

    __slots__ = ("text",)

    text: str

    def __new__(cls, text: str) -> JsonNumber:
        number = super().__new__(cls, text)
        number.text = text
        return number

    def __copy__(self) -> JsonNumber:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> JsonNumber:
        return self

    def __repr__(self) -> str:
        return self.text


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class _NotJson(ValueError):
    def __init__(self, literal: str) -> None:
        super().__init__(literal)
        self.literal = literal


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _refuse_constant(literal: str) -> Any:
    raise _NotJson(literal)


_INDENT = re.compile(r"^([ \t]+)\S", re.M)


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``; ``None`` when the file does not exist.

    Raises :class:`~mnemic.errors.IntegrationError` when the file cannot be rewritten
    without loss (see the module docstring): not valid JSON, a top level that is not an
    object, a key given twice, a lone surrogate, too deep, unreadable, not a regular file.
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
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=JsonNumber,
            parse_constant=_refuse_constant,
        )
    except _DuplicateKey as exc:
        raise IntegrationError(
            str(path),
            f"the key {exc.key!r} appears twice in one object, so rewriting the file would "
            "drop one of them",
            "Keep one of the two and run the command again.",
        ) from None
    except _NotJson as exc:
        raise IntegrationError(
            str(path),
            f"is not valid JSON: it holds {exc.literal}, which JSON has no value for",
            f"Write a number or null in place of {exc.literal} and run the command again.",
        ) from None
    except RecursionError:
        raise _too_deep(path) from None
    except ValueError as exc:
        raise IntegrationError(str(path), f"is not valid JSON ({exc})", _FIX) from None
    if not isinstance(value, dict):
        raise IntegrationError(
            str(path), f"holds a JSON {type(value).__name__}, not an object", _FIX
        )
    _check_depth(path, value)
    surrogate = find_surrogate(value)
    if surrogate is not None:
        where, codepoint = surrogate
        raise IntegrationError(
            str(path),
            f"the string at {where} holds a lone surrogate ({codepoint}: an escape such as "
            '"\\ud800" with no pair), which is not text and cannot be written back as UTF-8',
            "Remove that escape (or write the character it stands for) and run the command again.",
        )
    return value


def _too_deep(path: Path) -> IntegrationError:
    return IntegrationError(
        str(path),
        f"nests arrays or objects more than {MAX_DEPTH} levels deep, more than mnemic "
        "rewrites (Claude Code's files are a few levels deep)",
        _FIX,
    )


def _check_depth(path: Path, value: Any) -> None:
    """:func:`_too_deep` past :data:`MAX_DEPTH` levels (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))


_FIX = "Fix the file by hand (or move it away) and run the command again."
DEFAULT_INDENT = "  "


def dump_json(value: Any, indent: str = DEFAULT_INDENT) -> str:
    """The text written: ``indent`` per level, keys in their order, a final newline;
    each :class:`JsonNumber` with its own text. A value that is not JSON (a float NaN
    or infinity, a lone surrogate) raises ``ValueError``."""
    numbers: list[str] = []
    token = os.urandom(8).hex()

    def swap(node: Any) -> Any:  # the depth is bounded: what was read was checked
        if isinstance(node, JsonNumber):
            numbers.append(node.text)
            return f"@{token}#{len(numbers) - 1}@"
        if isinstance(node, dict):
            return {k: swap(v) for k, v in node.items()}
        if isinstance(node, list):
            return [swap(v) for v in node]
        return node

    text = json.dumps(swap(value), indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
    if numbers:  # the placeholders are strings no file holds (a random token)
        text = re.sub(f'"@{token}#([0-9]+)@"', lambda m: numbers[int(m.group(1))], text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason})") from None
    return text


def write_json_object(path: Path, value: dict[str, Any], indent: str = DEFAULT_INDENT) -> Path:
    """Atomically replace ``path`` with ``value`` (see :func:`write_json_text`)."""
    return write_json_text(path, dump_json(value, indent))


def write_json_text(path: Path, text: str) -> Path:
    """Atomically replace ``path`` with ``text`` (created with its directory if missing;
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
    atomic_write_text(target, text, mode=mode)
    return target
