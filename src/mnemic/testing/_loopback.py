"""What the stand-in model servers share: a threaded HTTP server on a free loopback port,
served from a daemon thread, with a queue of canned replies and a release for held
requests. Subclasses set the attributes below in ``__init__`` and give their handler."""

from __future__ import annotations

import json
import selectors
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

__all__ = ["JsonHandler", "LoopbackServer"]


class _Server(ThreadingHTTPServer):
    """The HTTP server, quiet about a client that hung up before its answer was written
    (a client's timeout or a cancelled stream: what the tests provoke on purpose); any
    other error in a handler is printed as ``socketserver`` does."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class LoopbackServer:
    """Lifecycle and scripting of a stand-in server (see the module docstring)."""

    _thread_name = "fake-server"
    _url_path = ""
    """What follows ``http://127.0.0.1:PORT`` in :attr:`base_url`."""

    def __init__(
        self,
        responder: Iterable[Any] | Callable[[dict[str, Any]], Any] | None,
        *,
        model: str,
        default: Any,
    ) -> None:
        self.model = model
        self.default = default
        self._queue: deque[Any] = deque()
        self._responder: Callable[[dict[str, Any]], Any] | None = None
        if callable(responder):
            self._responder = responder
        elif responder is not None:
            self._queue.extend(responder)
        self.requests: list[dict[str, Any]] = []
        """Every request body, parsed, in arrival order."""
        self.failure: Any = None
        """When set (a ``Fail``), every request fails with it."""
        self.hang = False
        """When true, every request is held until :meth:`release`."""
        self._released = threading.Event()
        self._lock = threading.Lock()
        self._counter = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._wake: tuple[socket.socket, socket.socket] | None = None
        self.arrived = threading.Semaphore(0)
        """Released once per request received (tests wait on it instead of sleeping)."""

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    def start(self) -> Self:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._server.timeout = 0  # handle_request below runs only once a connection waits
        self._wake = socket.socketpair()
        self._thread = threading.Thread(
            target=self._serve,
            args=(self._server, self._wake[0]),
            name=self._thread_name,
            daemon=True,
        )
        self._thread.start()
        return self

    @staticmethod
    def _serve(server: ThreadingHTTPServer, wake: socket.socket) -> None:
        """Accept connections until :meth:`stop` writes to ``wake``. The thread sleeps
        until one or the other arrives: ``serve_forever`` polls instead, and its
        ``shutdown`` waits out the poll (half a second a server, session 51)."""
        with selectors.DefaultSelector() as selector:
            selector.register(server, selectors.EVENT_READ)
            selector.register(wake, selectors.EVENT_READ)
            while True:
                ready = [key.fileobj for key, _ in selector.select()]
                if wake in ready:
                    return
                server.handle_request()

    def stop(self) -> None:
        """Release held requests and stop serving."""
        self._released.set()
        if self._thread is not None and self._wake is not None:
            self._wake[1].send(b"\0")
            self._thread.join()
        self._thread = None
        if self._server is not None:
            self._server.server_close()
            self._server = None
        if self._wake is not None:
            for end in self._wake:
                end.close()
            self._wake = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` followed by the server's API path."""
        if self._server is None:
            raise RuntimeError("the server is not running; use it as a context manager")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{self._url_path}"

    def push(self, *replies: Any) -> None:
        """Queue more canned replies."""
        with self._lock:
            self._queue.extend(replies)

    def release(self) -> None:
        """Let held requests (``Hang`` replies, ``hang = True``) proceed."""
        self._released.set()

    def _next_id(self) -> int:
        with self._lock:
            self._counter += 1
            return self._counter


class JsonHandler(BaseHTTPRequestHandler):
    """The request handler both servers build on: quiet, HTTP/1.1, JSON bodies in and
    out, and server-sent events."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def _read_body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _send_json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _start_events(self) -> None:
        """A 200 answer whose body is a stream of server-sent events, then closed."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
