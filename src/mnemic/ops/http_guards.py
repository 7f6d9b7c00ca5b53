"""What a hostile client may not do to mnemic's local HTTP servers (uvicorn, h11).

Deadlines: uvicorn keeps a connection open for as long as its client likes until a
request's head has arrived: a client that connects and sends nothing, or half a request
line, holds a file descriptor for ever, before the bearer token is ever looked at. Any
local user can therefore stop ``mnemic mcp --http`` or ``mnemic ui`` answering by
holding a few hundred such connections (the process's descriptor limit, often 1,024),
without the token.

:func:`protocol_with_deadlines` gives uvicorn's h11 protocol with two deadlines: a
client has ``head`` seconds from the moment the server waits for a request (the
connection opened, or the previous response finished) to send the request's whole head,
and then ``body`` seconds to send its body. A client that misses one gets
``408 Request Timeout`` (a line that says which deadline it missed) and the connection is
closed; a connection that never sent a byte is closed without a word (a browser's
speculative connection must not read a 408 as the answer to its first request). A
response that streams for long (an SSE stream of MCP notifications) is not limited: only
what the client sends is.

The process's descriptor limit: :func:`raise_descriptor_limit` lifts the soft limit to
the hard one (at most :data:`MAX_DESCRIPTORS`), so it takes many more connections to
reach it. When it is reached all the same, :class:`QuietTransportLog` keeps the log
readable: asyncio logs every refused ``accept()`` with a traceback (thousands of lines a
second, while the flood lasts); one line a minute is kept, saying what to do. A client
that goes away before its request's body arrived is the client's business, not an error
with a traceback in the server's log: it is logged at ``info``, in one line.

Imported only when serving (uvicorn is heavy): :func:`mnemic.ops.serving.run_asgi`.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "BODY_SECONDS",
    "HEAD_SECONDS",
    "MAX_DESCRIPTORS",
    "QuietTransportLog",
    "close_after_refusal",
    "protocol_with_deadlines",
    "quiet_transport_log",
    "raise_descriptor_limit",
]

HEAD_SECONDS = 10.0
"""Seconds a client has to send a request's head (request line and headers)."""
BODY_SECONDS = 60.0
"""Seconds a client has, once the head arrived, to send the request's body."""


def _timeout_response(what: str, seconds: float) -> bytes:
    text = (
        f"Request Timeout: the request's {what} did not arrive within {seconds:g} s of "
        "waiting for it; send the whole request at once, then read the answer.\n"
    ).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        "content-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(text)}\r\n"
        "connection: close\r\n\r\n"
    ).encode()
    return head + text


def protocol_with_deadlines(head: float = HEAD_SECONDS, body: float = BODY_SECONDS) -> type:
    """uvicorn's h11 protocol class, with the ``head`` and ``body`` deadlines (seconds)."""

    class DeadlineH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _phase: object = None
        _answered = False
        _begun = False  # some bytes arrived (an idle connection is closed without a word)

        def _arm(self, phase: object) -> None:
            """Start the deadline of ``phase`` (h11.IDLE: the head; SEND_BODY: the body)."""
            self._disarm()
            self._phase = phase
            seconds, what = (head, "head") if phase is h11.IDLE else (body, "body")
            self._deadline = self.loop.call_later(seconds, self._missed, what, seconds)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            self._phase = None

        def _follow(self) -> None:
            """Arm, keep or stop the deadline after what the client sent so far."""
            if self.transport is None or self.transport.is_closing():
                self._disarm()
                return
            state = self.conn.their_state
            if state is h11.IDLE or state is h11.SEND_BODY:
                if self._phase is not state:  # a new phase: a new deadline
                    self._arm(state)
            else:  # the whole request is in (DONE), or the connection is ending
                self._disarm()

        def _missed(self, what: str, seconds: float) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.conn.their_state is not self._phase:
                return
            self.logger.info("Closing a connection: the request's %s took over %g s", what, seconds)
            cycle = self.cycle
            if what == "head":  # a 408 only for a head begun on a connection never answered
                tell = self._begun and not self._answered
            else:  # the request's own answer has not started
                tell = cycle is not None and not cycle.response_started
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True  # the app's answer, if any, goes nowhere
            if tell:
                self.transport.write(_timeout_response(what, seconds))
            self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._follow()

        def data_received(self, data: bytes) -> None:
            self._begun = self._begun or bool(data)
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            self._answered = True
            super().on_response_complete()
            self._follow()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return DeadlineH11Protocol


MAX_DESCRIPTORS = 65536
"""The highest soft descriptor limit :func:`raise_descriptor_limit` asks for."""


def raise_descriptor_limit(most: int = MAX_DESCRIPTORS) -> int:
    """Lift this process's soft limit of open files to its hard limit (at most ``most``);
    return the soft limit in force afterwards. Never lowers it, never fails."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = most if hard == resource.RLIM_INFINITY else min(hard, most)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):  # pragma: no cover - a platform that refuses
            return soft
        return want
    return soft


class QuietTransportLog(logging.Filter):
    """A filter for the ``asyncio`` and ``mcp.server.streamable_http`` loggers.

    - ``socket.accept() out of system resource`` (no descriptor left): the first one in
      a minute is logged in one line saying what to do; the others that minute are not.
    - The retry of a refused ``accept()`` that comes due after shutdown closed the
      listening socket (a ``ValueError`` traceback): not logged.
    - ``Error handling POST request`` caused by the client going away
      (``starlette.requests.ClientDisconnect``): one ``info`` line, no traceback.
    """

    def __init__(self, every: float = 60.0, clock: Any = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self._last: float | None = None
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "asyncio" and str(record.msg).startswith("socket.accept() out of"):
            return self._accept_refused(record)
        error = record.exc_info[1] if record.exc_info else None
        if record.name == "asyncio" and "_start_serving" in record.getMessage():
            # the retry of a refused accept(), due after the server closed its socket
            # on shutdown (``Invalid file descriptor: -1``): nothing left to serve
            return not isinstance(error, ValueError)
        if error is not None and type(error).__name__ == "ClientDisconnect":
            record.msg, record.args = "a client went away before its request's body arrived", ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
            return logging.getLogger().isEnabledFor(logging.INFO)
        return True

    def _accept_refused(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            self.dropped += 1
            return False
        error = record.exc_info[1] if record.exc_info else None
        more = f" ({self.dropped} more since the last such line)" if self.dropped else ""
        record.msg = (
            "cannot accept a connection: %s%s. Connections wait until some close; if "
            "this repeats, some client holds many connections open, or raise the "
            "limit of open files (ulimit -n)."
        )
        record.args = (error or "no descriptor left", more)
        record.exc_info = record.exc_text = None
        self._last, self.dropped = now, 0
        return True


_TRANSPORT_LOGGERS = ("asyncio", "mcp.server.streamable_http")


def quiet_transport_log() -> QuietTransportLog:
    """Install one :class:`QuietTransportLog` on the transport loggers (once); return it."""
    for name in _TRANSPORT_LOGGERS:
        for existing in logging.getLogger(name).filters:
            if isinstance(existing, QuietTransportLog):
                return existing
    quiet = QuietTransportLog()
    for name in _TRANSPORT_LOGGERS:
        logging.getLogger(name).addFilter(quiet)
    return quiet


def close_after_refusal(app: Any) -> Any:
    """The ASGI ``app``, closing the connection after every ``401`` it answers.

    A client without the token gets no keep-alive: otherwise one request every few
    seconds (each answered 401) would hold a connection, and its descriptor, for ever.
    """

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return

        async def send_closing(message: Any) -> None:
            if message.get("type") == "http.response.start" and message.get("status") == 401:
                headers = [h for h in message.get("headers", ()) if h[0].lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await app(scope, receive, send_closing)

    return guarded
