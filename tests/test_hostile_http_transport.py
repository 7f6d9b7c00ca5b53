"""hostile4: what a client may not do to mnemic's local HTTP servers (``mnemic mcp
--http`` and ``mnemic ui`` both serve through :func:`mnemic.ops.serving.run_asgi`).

A real uvicorn on a loopback socket, in a thread of this process, with the protocol
``run_asgi`` serves with (:func:`protocol_with_deadlines`) and short deadlines, driven
by raw sockets: a connection that sends nothing is closed, one that sends half a head
is answered ``408`` and closed, a body that trickles in past its deadline the same,
while a whole request is answered and a long answer is never cut. The end-to-end check
of the real commands (the descriptor flood) is ``tests/e2e/test_hostile_http_servers.py``.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from starlette.requests import ClientDisconnect

from mnemic.ops import serving
from mnemic.ops.http_guards import (
    QuietTransportLog,
    protocol_with_deadlines,
    quiet_transport_log,
    raise_descriptor_limit,
)

pytestmark = pytest.mark.timeout(60)

HEAD, BODY = 0.4, 0.8


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Echo the body's length; ``/long`` streams for longer than both deadlines."""
    assert scope["type"] == "http"
    size = 0
    while True:
        message = await receive()
        size += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    if scope["path"] == "/long":
        import anyio

        for _ in range(4):
            await send({"type": "http.response.body", "body": b"tick\n", "more_body": True})
            await anyio.sleep(BODY / 2)
    await send({"type": "http.response.body", "body": f"got {size}\n".encode()})


@contextmanager
def server() -> Iterator[int]:
    sock = serving.bind("127.0.0.1", 0)
    config = uvicorn.Config(
        app, http=protocol_with_deadlines(HEAD, BODY), log_config=None, lifespan="off"
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not srv.started:  # uvicorn sets it once it serves
            thread.join(0.01)
        yield sock.getsockname()[1]
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


def answer_of(port: int, sent: bytes, *, wait: float = 10.0) -> tuple[bytes, float]:
    """Send ``sent``, then read until the server closes; the bytes read and the seconds."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(wait)
        start = time.monotonic()
        s.sendall(sent)
        got = b""
        try:
            while chunk := s.recv(65536):
                got += chunk
        except TimeoutError:
            got += b"<still open>"
        return got, time.monotonic() - start


def test_a_connection_that_sends_nothing_is_closed_without_a_word() -> None:
    """(A browser's speculative connection must not read a 408 as its first answer.)"""
    with server() as port:
        got, took = answer_of(port, b"")
    assert got == b"" and took < 10


@pytest.mark.parametrize(
    "sent", [b"P", b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"], ids=["one", "half"]
)
def test_a_request_head_that_does_not_arrive_is_answered_408_and_closed(sent: bytes) -> None:
    with server() as port:
        got, _ = answer_of(port, sent)
    assert got.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), got
    assert b"request's head did not arrive within 0.4 s" in got
    assert got.endswith(b"then read the answer.\n")


def test_a_body_that_trickles_past_its_deadline_is_answered_408_and_closed() -> None:
    head = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n"
    with server() as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(10)
        s.sendall(head)
        got = b""
        for _ in range(40):  # one byte every tenth of the body deadline, never 100
            try:
                s.sendall(b"x")
            except OSError:  # closed under us: what we want
                break
            try:
                s.settimeout(BODY / 10)
                chunk = s.recv(65536)
            except TimeoutError:
                continue
            got += chunk
            break  # the answer began (or the connection ended): send no more
        s.settimeout(10)
        try:
            while chunk := s.recv(65536):
                got += chunk
        except OSError:
            pass
    assert got.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), got
    assert b"request's body did not arrive within 0.8 s" in got


def test_a_whole_request_is_answered_and_a_long_answer_is_not_cut() -> None:
    with server() as port:
        got, _ = answer_of(port, b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc")
        assert got.startswith(b"HTTP/1.1 200 OK") and b"got 3\n" in got
        # keep-alive: the connection then idles out; it is not answered a 408 (a
        # response was already sent on it), it is closed
        assert b"408" not in got
        # an answer streamed for longer than both deadlines arrives whole
        got, took = answer_of(port, b"GET /long HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    assert got.count(b"tick\n") == 4 and b"got 0\n" in got, got
    assert took > BODY  # it did outlast the deadlines


def test_run_asgi_serves_with_the_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    class Spy:
        def __init__(self, config: uvicorn.Config) -> None:
            seen["http"] = config.http

        def run(self, sockets: list[socket.socket]) -> None:
            seen["ran"] = True

    monkeypatch.setattr(uvicorn, "Server", Spy)
    sock = serving.bind("127.0.0.1", 0)
    serving.run_asgi(app, sock, lifespan="off")
    assert seen["ran"]
    assert isinstance(seen["http"], type) and seen["http"].__name__ == "DeadlineH11Protocol"


def _record(name: str, msg: str, error: BaseException | None) -> logging.LogRecord:
    exc_info = (type(error), error, None) if error is not None else None
    return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, (), exc_info)


def test_a_flood_of_refused_accepts_is_one_line_a_minute() -> None:
    now = [100.0]
    quiet = QuietTransportLog(every=60, clock=lambda: now[0])
    full = OSError(24, "Too many open files")
    kept = []
    for _ in range(1000):
        record = _record("asyncio", "socket.accept() out of system resource", full)
        if quiet.filter(record):
            kept.append(record)
    now[0] += 61
    record = _record("asyncio", "socket.accept() out of system resource", full)
    assert quiet.filter(record)
    kept.append(record)
    assert len(kept) == 2
    first, second = (r.getMessage() for r in kept)
    assert first.startswith("cannot accept a connection: [Errno 24] Too many open files.")
    assert "(999 more since the last such line)" in second
    assert "ulimit -n" in second and all(r.exc_info is None for r in kept)
    late = _record(
        "asyncio",
        "Exception in callback BaseSelectorEventLoop._start_serving(<function>)",
        ValueError("Invalid file descriptor: -1"),
    )
    assert not quiet.filter(late)  # the retry due after shutdown closed the socket
    other = _record("asyncio", "Task exception was never retrieved", ValueError("x"))
    assert quiet.filter(other) and other.exc_info is not None  # others untouched


def test_a_client_gone_mid_body_is_an_info_line_not_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    quiet = quiet_transport_log()
    assert quiet_transport_log() is quiet  # installed once
    sdk = logging.getLogger("mcp.server.streamable_http")
    with caplog.at_level(logging.INFO):
        try:
            raise ClientDisconnect()
        except ClientDisconnect:
            sdk.exception("Error handling POST request")
    [record] = [r for r in caplog.records if r.name == sdk.name]
    assert record.levelno == logging.INFO and record.exc_info is None
    assert record.getMessage() == "a client went away before its request's body arrived"


def test_the_descriptor_limit_is_raised_to_the_hard_one_never_lowered() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        lower = min(soft, 256)
        resource.setrlimit(resource.RLIMIT_NOFILE, (lower, hard))
        got = raise_descriptor_limit(most=lower + 100)
        want = lower + 100 if hard == resource.RLIM_INFINITY else min(hard, lower + 100)
        assert got == want == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert raise_descriptor_limit(most=lower) == want  # never lowered
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
