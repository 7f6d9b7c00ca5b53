"""JSON input read as a stream, the same way by every reader (``mnemic scan --jsonl``,
every session importer).

:func:`read_jsonl` splits on ``\\n`` only (a ``\\r`` before it is dropped), never on the
other characters :meth:`str.splitlines` breaks at (U+2028, U+2029, U+0085, ``\\x1c``...),
which are valid inside a JSON string. Each line is decoded and parsed on its own: a bad
line is reported with its number and why, and the lines around it are unaffected; the
caller decides whether one bad line stops everything. Memory holds one line at a time,
and a line is never held whole past :data:`MAX_LINE` bytes: a longer one (a tool's
500 MB output on one transcript line took 2 GB) is read in chunks, each of its JSON
strings cut to its first :data:`MAX_TEXT` bytes followed by a note saying how much was
left out (:attr:`JsonLine.cut` counts it), so its message is kept, shortened.

:func:`read_json_array` yields the elements of a top-level JSON array one by one, holding
one element (plus a read buffer) in memory rather than the whole document.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import IO, Any, NamedTuple

__all__ = [
    "MAX_LINE",
    "MAX_TEXT",
    "TOO_DEEP",
    "JsonArrayError",
    "JsonLine",
    "read_json_array",
    "read_jsonl",
]

MAX_LINE = 16 << 20
"""Bytes of one JSON line read whole; a longer line has its strings cut (:data:`MAX_TEXT`)."""
MAX_TEXT = 4 << 20
"""Bytes of JSON text each string of a line longer than :data:`MAX_LINE` keeps."""

TOO_DEEP = "nested too deeply"
"""What a line or an element whose nesting exhausts the parser's recursion is told."""

_BOM = codecs.BOM_UTF8
_WS = " \t\n\r"
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_CHUNK = 1 << 20
_STRING_BODY = re.compile(rb'(?:[^"\\]++|\\.)*+')
"""The body of a JSON string up to its closing quote (or a backslash ending the chunk)."""
_OPEN_ESCAPE = re.compile(rb"(\\+)(u[0-9a-fA-F]{0,4})?$")


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
    cut: int = 0
    """Bytes of the line's strings left out (a line longer than :data:`MAX_LINE`)."""

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


def read_jsonl(
    stream: IO[bytes],
    *,
    start_line: int = 0,
    max_line: int = MAX_LINE,
    max_text: int = MAX_TEXT,
) -> Iterator[JsonLine]:
    """The non-blank lines of ``stream`` (a binary file), decoded one at a time.

    A UTF-8 byte-order mark at the start is skipped. ``error`` names what is wrong with a
    line: ``not valid UTF-8``, ``not valid JSON`` (``detail``: the parser's message and
    column), or ``not valid text``: a string with a lone surrogate escape (``"\\ud800"``
    cannot be stored or printed as UTF-8), or ``too long`` (even with its strings cut it
    is over ``max_line``). ``start_line``: lines of the file before the stream's start (a
    file read from the middle keeps its line numbers). A line over ``max_line`` bytes
    keeps ``max_text`` bytes of each string value and a note on what was cut (``cut``);
    an object's keys are kept whole (two keys cut alike would become one).
    """
    offset = 0
    number = start_line
    while True:
        raw = stream.readline(max_line + 1)
        if not raw:
            return
        number += 1
        cut = 0
        if len(raw) > max_line and not raw.endswith(b"\n"):
            raw, read, cut = _shortened(raw, stream, max_line, max_text)
            offset += read
            if cut < 0:
                detail = f"over {max_line:,} bytes even with each text cut to {max_text:,}"
                yield JsonLine(number, None, "too long", detail, offset)
                continue
        else:
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
        except RecursionError:  # the parser recurses once a level: no transcript nests so
            yield JsonLine(number, None, "not valid JSON", TOO_DEEP, offset)
            continue
        if _SURROGATE_ESCAPE.search(line) and _lone_surrogate(value):
            yield JsonLine(
                number, None, "not valid text", "a lone surrogate escape, \\ud800-\\udfff", offset
            )
            continue
        yield JsonLine(number, value, None, None, offset, cut)


def _shortened(
    head: bytes, stream: IO[bytes], max_line: int, max_text: int
) -> tuple[bytes, int, int]:
    """The line that starts with ``head`` (no line end in it yet) read on in chunks,
    each of its JSON strings cut to ``max_text`` bytes followed by a note: ``(line,
    bytes read, bytes cut)``; bytes cut is -1 when even the shortened line is over
    ``max_line`` (the rest of the line is then read and dropped)."""
    out = bytearray()
    read = cut = kept = dropped = 0
    in_string = is_key = False
    containers = bytearray()  # the open objects and arrays: b"{" or b"["
    last = 0  # the last structural character outside strings
    chunk = head
    carry = b""
    while chunk:
        read += len(chunk)
        ended = chunk.endswith(b"\n")
        data = carry + (chunk[:-1] if ended else chunk)
        carry = b""
        pos = 0
        while pos < len(data):
            if not in_string:
                quote = data.find(b'"', pos)
                stop = len(data) if quote < 0 else quote + 1
                last = _structure(data, pos, stop if quote < 0 else quote, containers, last)
                out += data[pos:stop]
                pos, in_string, kept, dropped = stop, quote >= 0, 0, 0
                # an object's key is kept whole: two keys cut alike would become one
                is_key = in_string and containers[-1:] == b"{" and last in _BEFORE_KEY
                continue
            end = _STRING_BODY.match(data, pos).end()  # type: ignore[union-attr]
            if end == len(data) - 1 and data[end:] == b"\\":
                if ended:  # a lone backslash at the end: not JSON, the parser says so
                    out += data[pos:]
                    break
                carry, data = b"\\", data[:end]  # an escape split between two chunks
            body = data[pos:end]
            room = len(body) if is_key else max_text - kept
            if len(body) <= room:
                out += body
                kept += len(body)
            else:
                piece = _whole_escapes(body[:room]) if room > 0 else b""
                out += piece
                kept = max_text
                dropped += len(body) - len(piece)
            pos = end
            if end < len(data) and data[end : end + 1] == b'"':
                if dropped:
                    cut += dropped
                    out += _note(dropped, max_line, max_text)
                out += b'"'
                pos, in_string, last = end + 1, False, _QUOTE
        if len(out) > max_line:
            while not ended:  # drop the rest of the line
                chunk = stream.readline(_CHUNK)
                read += len(chunk)
                ended = not chunk or chunk.endswith(b"\n")
            return b"", read, -1
        if ended:
            break
        chunk = stream.readline(_CHUNK)
    return bytes(out), read, cut


_QUOTE = ord('"')
_BEFORE_KEY = (ord("{"), ord(","))
_OPENERS = {ord("{"): b"{", ord("["): b"["}


def _structure(data: bytes, start: int, stop: int, containers: bytearray, last: int) -> int:
    """Follow the JSON structure between strings (``data[start:stop]``): push and pop
    ``containers``; return the last structural character seen (``last`` if none)."""
    for byte in data[start:stop]:
        if byte in _OPENERS:
            containers += _OPENERS[byte]
        elif byte in (ord("}"), ord("]")):
            del containers[-1:]
        elif byte in (ord(","), ord(":")):
            pass
        else:
            continue
        last = byte
    return last


def _note(dropped: int, max_line: int, max_text: int) -> bytes:
    """What ends a cut string (JSON text: a newline escape, then the note)."""
    return (
        f"\\n[\u2026 {dropped:,} more bytes left out: mnemic keeps {max_text:,} bytes of "
        f"each text of a line over {max_line:,} bytes]"
    ).encode()


def _whole_escapes(piece: bytes) -> bytes:
    """``piece`` (the start of a JSON string's body) without a UTF-8 character or an
    escape that the cut split, and without a high surrogate escape whose pair was cut."""
    start = len(piece) - 1
    while start > len(piece) - 4 and start > 0 and piece[start] & 0xC0 == 0x80:
        start -= 1
    if start >= 0 and piece[start] >= 0xC0:
        need = 2 if piece[start] < 0xE0 else 3 if piece[start] < 0xF0 else 4
        if len(piece) - start < need:
            piece = piece[:start]
    while (m := _OPEN_ESCAPE.search(piece)) is not None and len(m[1]) % 2 == 1:
        code = m[2]
        if code is not None and len(code) == 5 and not 0xD800 <= int(code[1:], 16) <= 0xDBFF:
            break  # a whole escape
        piece = piece[: m.start(1) + len(m[1]) - 1]  # cut before it (then look again)
    return piece


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
                except RecursionError:  # deep at any length: reading on would not help
                    raise JsonArrayError(f"element {index}: {TOO_DEEP}", index) from None
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
