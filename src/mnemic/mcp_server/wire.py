"""What the stdio transport could not parse: answer it instead of dropping it.

The SDK parses each line strictly; a request it cannot parse (one holding a lone
surrogate escape, a JSON ``"\\ud800"`` that is not half of a pair, or bytes that are not
UTF-8, which mnemic's stdin keeps as such surrogates; one nested deeper than
its parser goes; one that is not JSON-RPC 2.0) is only logged, so the client waits forever
for an answer. :func:`relay` sits between the transport and the server: such a request,
when its line is JSON with an ``id``, gets a JSON-RPC error for that id saying what is
wrong, and everything else passes through unchanged. A line nested past Python's own
parser is passed on too (the SDK logs it): finding its id is not worth a stack.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from ..tooling import find_surrogate

__all__ = ["bad_text_reply", "batch_replies", "relay"]

log = logging.getLogger(__name__)


def bad_text_reply(exc: Exception) -> types.JSONRPCError | None:
    """The error answering a request the SDK could not parse (a lone surrogate, nesting
    past its parser, not JSON-RPC 2.0), for the request's id; ``None`` when ``exc`` is
    anything else or the line has no id to answer (the SDK logs it, as before)."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return None
    try:
        found_errors = list(errors())
        first = found_errors[0]
        message = _message_of(found_errors)
    except (ValueError, IndexError, TypeError, AttributeError, RecursionError):
        return None  # not JSON, or nested past Python's parser: the SDK logs it
    if not isinstance(message, dict) or "method" not in message:
        return None
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None  # a notification: nobody waits for an answer
    found = find_surrogate(message)
    if found is not None:
        path, codepoint = found
        what = "a lone surrogate"
        if 0xDC80 <= int(codepoint[2:], 16) <= 0xDCFF:  # how stdin keeps a stray byte
            byte = int(codepoint[2:], 16) - 0xDC00
            what = f"a byte that is not UTF-8 (0x{byte:02X}) or a lone surrogate"
        return _error(
            request_id,
            types.INVALID_PARAMS,
            f"The request holds {codepoint} at {path}, {what}: it is not valid Unicode "
            "text, so nothing was done. Send the text as proper UTF-8.",
        )
    if "recursion limit" in str(first.get("msg", "")):
        return _error(
            request_id,
            types.INVALID_REQUEST,
            "The request is nested too deeply for the server to read (lists or objects "
            f"inside each other more than {SDK_DEPTH} levels). Nothing was done. Send the "
            "arguments the tool's input schema describes, nested a few levels at most.",
        )
    return _error(
        request_id,
        types.INVALID_REQUEST,
        "The request is not a JSON-RPC 2.0 request the server can read: it needs "
        '"jsonrpc": "2.0", an "id", a "method" string and "params" as an object. '
        "Nothing was done. Send it again in that form.",
    )


def _message_of(errors: list[Any]) -> Any:
    """The request the SDK failed to parse: its line (the input of a JSON or text error)
    read again, or the object a structural error names (the line is not at hand then)."""
    for error in errors:
        value = error.get("input")
        if isinstance(value, str) and error.get("loc") == ():
            return json.loads(value)
        if isinstance(value, dict) and "method" in value:
            return value
    return None


SDK_DEPTH = 254
"""Levels of nesting the SDK's JSON parser (pydantic-core) reads at most."""


def _error(request_id: int | str, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )


def batch_replies(exc: Exception) -> list[types.JSONRPCError]:
    """The errors answering a JSON-RPC batch (an array of requests, which MCP 2025-03-26
    allowed and 2025-06-18 removed; the SDK reads none): one per request with an id,
    saying to send each on its own line. Empty when ``exc`` is no such batch."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return []
    try:
        batch = next((e.get("input") for e in errors() if isinstance(e.get("input"), list)), None)
    except (ValueError, TypeError, AttributeError):
        return []
    ids = [
        m.get("id")
        for m in batch or []
        if isinstance(m, dict) and "method" in m and not isinstance(m.get("id"), bool)
    ]
    return [
        _error(
            i,
            types.INVALID_REQUEST,
            "The request came in a JSON-RPC batch (an array), which this server does not "
            "read (MCP removed batches in 2025-06-18). Nothing was done. Send each request "
            "on its own line.",
        )
        for i in ids
        if isinstance(i, int | str)
    ]


async def relay(
    source: Any,
    sink: anyio.abc.ObjectSendStream[SessionMessage | Exception],
    replies: Any,
) -> None:
    """Forward ``source`` (the transport's read stream) to ``sink`` (the server's), and
    answer the requests the SDK could not parse on ``replies`` (the transport's write
    stream): :func:`bad_text_reply`, :func:`batch_replies`."""
    async with sink:
        async for item in source:
            if isinstance(item, Exception):
                reply = bad_text_reply(item)
                answers = [reply] if reply is not None else batch_replies(item)
                for answer in answers:
                    log.warning("refused a request it cannot read (id %r)", answer.id)
                    await replies.send(SessionMessage(answer))
                if answers:
                    continue
            await sink.send(item)
