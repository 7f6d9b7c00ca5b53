"""A Hermes Agent ``config.yaml``: read strictly, its ``memory.provider`` line edited.

:func:`set_provider` edits that one line (or adds it, or a ``memory:`` section), so
comments, order, quoting and line endings stay; :func:`edit_provider` checks the result
by parsing it again: it must differ from the original in ``memory.provider`` only.
:func:`read_config` refuses a file that is not UTF-8 YAML text holding a mapping, whose
``memory`` is not a mapping or whose ``memory.provider`` is not a string.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import IntegrationError
from ..fsio import read_bytes_strict

__all__ = [
    "MAX_CONFIG",
    "edit_provider",
    "parse_config",
    "provider_of",
    "read_config",
    "set_provider",
]

MAX_CONFIG = 4 * 1024 * 1024
"""Larger files are refused (Hermes's own is a few kilobytes)."""
_FIX = "Fix the file by hand (Hermes reads it with a YAML parser) and run the command again."


def parse_config(path: Path, text: str) -> dict[str, Any]:
    """The file's mapping (``{}`` for an empty file); :class:`IntegrationError` for what
    mnemic does not edit (see the module docstring)."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" (line {where.line + 1})" if where is not None else ""
        raise IntegrationError(str(path), f"is not valid YAML{at}", _FIX) from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        kind = type(value).__name__
        raise IntegrationError(str(path), f"holds a YAML {kind}, not a mapping", _FIX)
    memory = value.get("memory")
    if memory is not None and not isinstance(memory, dict):
        raise IntegrationError(
            str(path), f'"memory" is a {type(memory).__name__}, not a mapping', _FIX
        )
    provider = (memory or {}).get("provider")
    if provider is not None and not isinstance(provider, str):
        raise IntegrationError(str(path), '"memory.provider" is not a string', _FIX)
    return value


def read_config(path: Path) -> tuple[bytes | None, str]:
    """(the file's bytes, its text); ``(None, "")`` when there is no file. A file that
    is not UTF-8 is refused."""
    data = read_bytes_strict(path, max_bytes=MAX_CONFIG)
    if data is None:
        return None, ""
    try:
        return data, data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise IntegrationError(str(path), f"is not UTF-8 text (byte {exc.start})", _FIX) from None


_TOP = re.compile(r"^memory[ \t]*:[ \t]*(#.*)?$")
_KEY = re.compile(r"^([ \t]+)provider[ \t]*:")


def set_provider(text: str, value: str | None) -> str:
    """``text`` (a ``config.yaml``) with ``memory.provider`` set to ``value`` by editing
    its one line, or adding it (``None``: the line taken out). Every other line stays
    as it is. Raises ``ValueError`` when the ``memory`` mapping is not written in block
    style (``memory: {provider: x}``), which is left to a person."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _TOP.match(line.rstrip("\r\n"))), None)
    entry = f"provider: {value}{newline}" if value is not None else ""
    if start is None:
        if re.search(r"^memory[ \t]*:", text, re.MULTILINE):
            raise ValueError("memory is not a block mapping")
        if value is None:
            return text
        head = text if not text or text.endswith("\n") else text + newline
        return f"{head}memory:{newline}  {entry}"
    end = start + 1
    indent = ""
    while end < len(lines):
        line = lines[end].rstrip("\r\n")
        if line.strip() and not line.lstrip().startswith("#") and not line[:1].isspace():
            break  # the next top-level key
        if line.strip() and not line.lstrip().startswith("#") and not indent:
            indent = line[: len(line) - len(line.lstrip())]
        end += 1
    for i in range(start + 1, end):
        found = _KEY.match(lines[i])
        if found and found.group(1) == (indent or found.group(1)):
            if value is None:
                return "".join(lines[:i] + lines[i + 1 :])
            ending = newline if lines[i].endswith(("\n", "\r")) else ""
            line = f"{found.group(1)}{entry.rstrip()}{ending}"
            return "".join([*lines[:i], line, *lines[i + 1 :]])
    if value is None:
        return text
    if not lines[start].endswith("\n"):
        lines[start] += newline
    lines.insert(start + 1, f"{indent or '  '}{entry}")
    return "".join(lines)


def edit_provider(path: Path, before: str, value: str | None) -> str:
    """:func:`set_provider`, checked: parsed again, the new text must differ from
    ``before`` in ``memory.provider`` only."""
    old = parse_config(path, before)
    try:
        after = set_provider(before, value)
        new = yaml.safe_load(after)
    except (ValueError, yaml.YAMLError):
        new = None
    want = {**old, "memory": {**(old.get("memory") or {}), "provider": value}}
    if value is None:
        want["memory"].pop("provider")
        if not want["memory"] and "memory" not in old:
            del want["memory"]
    if not isinstance(new, dict) or {**new, "memory": new.get("memory") or {}} != {
        **want,
        "memory": want.get("memory") or {},
    }:
        raise IntegrationError(
            str(path),
            "its memory.provider line could not be changed safely (the memory section is "
            "written in a style mnemic does not edit)",
            f"Set memory.provider to {value or 'nothing'} by hand in that file.",
        )
    return after


def provider_of(path: Path, text: str) -> str | None:
    """``memory.provider`` of the file (``None``: not set), refusing what
    :func:`parse_config` refuses."""
    memory = parse_config(path, text).get("memory") or {}
    value = memory.get("provider")
    return value if isinstance(value, str) else None
