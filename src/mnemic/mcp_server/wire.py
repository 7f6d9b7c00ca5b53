"""What the stdio transport could not parse: answer it instead of dropping it.

The SDK parses each line strictly; a request holding a lone surrogate escape (a JSON
``"\\ud800"`` that is not half of a pair) fails that parse, and the SDK only logs it, so
the client waits forever for an answer. :func:`relay` sits between the transport and
the server: such a request gets a JSON-RPC error for its own id saying what is wrong,
and everything else passes through unchanged.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from ..tooling import find_surrogate

__all__ = ["bad_text_reply", "relay"]

log = logging.getLogger(__name__)


def bad_text_reply(exc: Exception) -> types.JSONRPCError | None:
    """The error answering a request the SDK could not parse because of a lone surrogate;
    ``None`` when ``exc`` is anything else (the SDK handles that as before)."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return None
    try:
        raw = errors()[0].get("input")
        message = json.loads(raw) if isinstance(raw, str) else None
    except (ValueError, IndexError, TypeError, AttributeError):
        return None
    if not isinstance(message, dict) or "method" not in message:
        return None
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None  # a notification: nobody waits for an answer
    found = find_surrogate(message)
    if found is None:
        return None
    path, codepoint = found
    return types.JSONRPCError(
        jsonrpc="2.0",
        id=request_id,
        error=types.ErrorData(
            code=types.INVALID_PARAMS,
            message=f"The request holds {codepoint} at {path}, a lone surrogate: it is not "
            "valid Unicode text, so nothing was done. Send the text as proper UTF-8.",
        ),
    )


async def relay(
    source: Any,
    sink: anyio.abc.ObjectSendStream[SessionMessage | Exception],
    replies: Any,
) -> None:
    """Forward ``source`` (the transport's read stream) to ``sink`` (the server's), and
    answer requests with a lone surrogate on ``replies`` (the transport's write stream)."""
    async with sink:
        async for item in source:
            if isinstance(item, Exception):
                reply = bad_text_reply(item)
                if reply is not None:
                    log.warning("refused a request holding a lone surrogate (id %r)", reply.id)
                    await replies.send(SessionMessage(reply))
                    continue
            await sink.send(item)
