"""What the stand-in model servers share: a threaded HTTP server on a free loopback port,
served from a daemon thread, with a queue of canned replies and a release for held
requests. Subclasses set the attributes below in ``__init__`` and give their handler."""

from __future__ import annotations

import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

__all__ = ["LoopbackServer"]


class LoopbackServer:
    """Lifecycle and scripting of a stand-in server (see the module docstring)."""

    _thread_name = "fake-server"
    _url_path = ""
    """What follows ``http://127.0.0.1:PORT`` in :attr:`base_url`."""
    _server: ThreadingHTTPServer | None
    _thread: threading.Thread | None
    _released: threading.Event
    _lock: threading.Lock
    _queue: deque[Any]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    def start(self) -> Self:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name=self._thread_name, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release held requests and stop serving."""
        self._released.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None

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
