"""A reader for the plain subset of TOML that config files are written in.

``tomllib`` costs more to import than the rest of ``import mnemic; render_snapshot()``
together (it loads ``re``, ``string``, ``typing``...), and every process that opens a
home with a ``config.toml`` would pay it. Config files are nearly always a few tables
of ``key = value`` lines, so :func:`parse` reads exactly that subset with plain string
methods and returns ``None`` for anything else; the caller then hands the text to
``tomllib``, which parses it or reports the error. The subset:

* blank lines and ``#`` comments (also after a header or a value);
* ``[table]`` headers whose name is one bare key (letters, digits, ``_``, ``-``);
* ``key = value`` with a bare key and a value that is ``true``/``false``, a decimal
  integer (optional sign, no leading zero, no ``_``), a decimal float of the form
  ``1.5`` (no exponent, no ``inf``/``nan``), or a one-line string (``"..."`` without
  backslash escapes, ``'...'``).

Any other construct, any non-ASCII or control character (tab excepted), a duplicate
key or table, and a lone carriage return make it give up. Whatever it accepts it
parses exactly as ``tomllib`` does; a property test holds it to that.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from typing import Any

__all__ = ["parse"]

_BLANK = " \t"  # TOML whitespace
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _bare(key: str) -> bool:
    return bool(key) and _BARE.issuperset(key)


def _rest_ok(rest: str) -> bool:
    """What follows a header or a value: nothing, or a comment."""
    rest = rest.lstrip(_BLANK)
    return not rest or rest[0] == "#"


def _digits(s: str) -> bool:
    return s.isascii() and s.isdigit()


def _integer_part(s: str) -> bool:
    return _digits(s) and (s == "0" or s[0] != "0")


def _value(text: str) -> tuple[object, str] | None:
    """The value at the start of ``text`` and what follows it, or None."""
    first = text[:1]
    if first in ('"', "'"):
        if text.startswith(first * 3):
            return None  # multi-line strings are left to tomllib
        end = text.find(first, 1)
        if end < 0:
            return None
        body = text[1:end]
        if first == '"' and "\\" in body:
            return None  # escapes are left to tomllib
        return body, text[end + 1 :]
    token, hash_, comment = text.partition("#")
    rest = hash_ + comment
    token = token.rstrip(_BLANK)
    if token == "true":
        return True, rest
    if token == "false":
        return False, rest
    unsigned = token[1:] if token[:1] in ("+", "-") else token
    if _integer_part(unsigned):
        return int(token), rest
    whole, dot, fraction = unsigned.partition(".")
    if dot and _integer_part(whole) and _digits(fraction):
        return float(token), rest
    return None


def parse(text: str) -> dict[str, Any] | None:
    """``text`` as ``tomllib.loads`` would return it, or None when it is not in the
    subset described above (the caller must then use ``tomllib``)."""
    root: dict[str, Any] = {}
    table = root
    lines = text.split("\n")
    last = len(lines) - 1
    for i, line in enumerate(lines):
        if line.endswith("\r") and i < last:  # CRLF; a carriage return alone is invalid
            line = line[:-1]
        if not (line.isascii() and line.replace("\t", " ").isprintable()):
            return None
        line = line.strip(_BLANK)
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            name, close, rest = line[1:].partition("]")
            name = name.strip(_BLANK)
            if not close or not _bare(name) or name in root or not _rest_ok(rest):
                return None
            table = root[name] = {}
            continue
        key, eq, text_value = line.partition("=")
        key = key.rstrip(_BLANK)
        if not eq or not _bare(key) or key in table:
            return None
        parsed = _value(text_value.lstrip(_BLANK))
        if parsed is None or not _rest_ok(parsed[1]):
            return None
        table[key] = parsed[0]
    return root
