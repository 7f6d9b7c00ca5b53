"""JSON input read as a stream, the same way by every reader (``mnemic scan --jsonl``,
every session importer).

:func:`read_jsonl` splits on ``\\n`` only (a ``\\r`` before it is dropped), never on the
other characters :meth:`str.splitlines` breaks at (U+2028, U+2029, U+0085, ``\\x1c``...),
which are valid inside a JSON string. Each line is decoded and parsed on its own: a bad
line is reported with its number and why, and the lines around it are unaffected; the
caller decides whether one bad line stops everything. Memory holds one line at a time.

:func:`read_json_array` yields the elements of a top-level JSON array one by one, holding
one element (plus a read buffer) in memory rather than the whole document.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import IO, Any, NamedTuple

__all__ = ["JsonArrayError", "JsonLine", "read_json_array", "read_jsonl"]

_BOM = codecs.BOM_UTF8
_WS = " \t\n\r"
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class JsonLine(NamedTuple):
    """One non-blank line of JSON Lines input."""

    number: int
    """1-based line number."""
    value: Any
    """The decoded JSON value (``None`` when ``error`` is set)."""
    error: str | None
    """Why the line cannot be used, in a few words that group alike lines (``not valid
    JSON``, ``not valid UTF-8``...; ``None``: it is fine)."""
    detail: str | None
    """More about ``error``: the parser's message and column, the byte."""
    offset: int
    """Bytes read up to the end of this line (for progress)."""

    @property
    def problem(self) -> str:
        """``error`` with its ``detail``: ``not valid JSON (Expecting value at column 1)``."""
        return f"{self.error} ({self.detail})" if self.detail else str(self.error)


def _lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    return False


def read_jsonl(stream: IO[bytes], *, start_line: int = 0) -> Iterator[JsonLine]:
    """The non-blank lines of ``stream`` (a binary file), decoded one at a time.

    A UTF-8 byte-order mark at the start is skipped. ``error`` names what is wrong with a
    line: ``not valid UTF-8``, ``not valid JSON`` (``detail``: the parser's message and
    column), or ``not valid text``: a string with a lone surrogate escape (``"\\ud800"``
    cannot be stored or printed as UTF-8). ``start_line``: lines of the file before the
    stream's start (a file read from the middle keeps its line numbers).
    """
    offset = 0
    for number, raw in enumerate(stream, start_line + 1):
        offset += len(raw)
        line = raw[3:] if number == 1 and raw.startswith(_BOM) else raw
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip(b" \t\r"):
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield JsonLine(number, None, "not valid UTF-8", f"byte {exc.start + 1}", offset)
            continue
        try:
            value = json.loads(text)
        except ValueError as exc:
            msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            col = f" at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
            yield JsonLine(number, None, "not valid JSON", f"{msg}{col}", offset)
            continue
        if _SURROGATE_ESCAPE.search(line) and _lone_surrogate(value):
            yield JsonLine(
                number, None, "not valid text", "a lone surrogate escape, \\ud800-\\udfff", offset
            )
            continue
        yield JsonLine(number, value, None, None, offset)


class JsonArrayError(ValueError):
    """The input is not a JSON array, or an element of it is malformed."""

    def __init__(self, reason: str, index: int) -> None:
        self.reason = reason
        self.index = index
        super().__init__(reason)


def read_json_array(stream: IO[bytes], *, chunk: int = 1 << 20) -> Iterator[tuple[Any, int]]:
    """``(element, bytes read so far)`` for each element of the top-level JSON array in
    ``stream``; :class:`JsonArrayError` when it is not one (nothing after the closing
    bracket but white space) or an element is malformed."""
    decoder = json.JSONDecoder()
    utf8 = codecs.getincrementaldecoder("utf-8-sig")()
    buf = ""
    pos = 0
    eof = False
    read = 0

    def fill(at_least: int) -> None:
        nonlocal buf, pos, eof, read
        data = stream.read(max(chunk, at_least))
        read += len(data)
        eof = not data
        try:
            buf = buf[pos:] + utf8.decode(data, final=eof)
        except UnicodeDecodeError as exc:
            raise JsonArrayError(f"not valid UTF-8 near byte {read}", index) from exc
        pos = 0

    def skip_ws() -> str:
        """The next non-blank character ('' at the end of the input)."""
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            if pos < len(buf) or eof:
                return buf[pos] if pos < len(buf) else ""
            fill(0)

    index = 0
    if skip_ws() != "[":
        raise JsonArrayError("expected a JSON array (a list in [...])", index)
    pos += 1
    if skip_ws() == "]":
        pos += 1
    else:
        while True:
            skip_ws()
            while True:
                try:
                    value, end = decoder.raw_decode(buf, pos)
                except json.JSONDecodeError as exc:
                    if eof:
                        raise JsonArrayError(f"element {index}: {exc.msg}", index) from exc
                    fill(len(buf))
                    continue
                if end >= len(buf) and not eof:  # a number may go on in the next chunk
                    fill(len(buf))
                    continue
                break
            pos = end
            yield value, read
            index += 1
            sep = skip_ws()
            pos += 1
            if sep == "]":
                break
            if sep != ",":
                raise JsonArrayError(
                    f"after element {index - 1}: expected ',' or ']'"
                    + ("" if sep else ", found the end of the input"),
                    index,
                )
    if skip_ws():
        raise JsonArrayError("text after the end of the array", index)
