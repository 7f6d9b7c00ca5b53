"""The background indexer: vectors for recorded messages, off the hot path.

An append hands the new message ids to :meth:`BackgroundIndexer.submit`, which only puts
them on a bounded queue (never blocks: a full queue drops them and counts
:attr:`~BackgroundIndexer.dropped`; ``mnemic sessions embed`` picks them up later). One
daemon thread takes ids off the queue a batch at a time, loads the embedder on first
use (so a turn never pays for loading it), embeds them and writes their vectors through
its own store connection. When the extra is missing or the model is damaged, the worker
logs it once and stops embedding; appends go on as before.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...errors import MnemicError, SemanticUnavailable
from .semantic import embed_pending, semantic_enabled

if TYPE_CHECKING:
    from ...config import Settings
    from ...embedding.model import Embedder
    from ..store import SessionStore

__all__ = ["BackgroundIndexer"]

log = logging.getLogger(__name__)

_STOP = -1


class BackgroundIndexer:
    """Embeds submitted messages on one worker thread (see the module docstring).

    ``open_store`` opens the store the worker writes to (its own connection);
    ``load_embedder`` returns the embedder (default: the shipped one).
    """

    def __init__(
        self,
        open_store: Callable[[], SessionStore],
        *,
        load_embedder: Callable[[], Embedder] | None = None,
        queue_size: int = 1024,
        batch: int = 16,
    ) -> None:
        self._open_store = open_store
        self._load = load_embedder
        self._queue: queue.Queue[int] = queue.Queue(maxsize=queue_size)
        self._batch = batch
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._idle = threading.Condition()
        self._busy = 0
        self.dropped = 0
        """Ids not queued because the queue was full (a backfill embeds them)."""
        self.embedded = 0
        """Messages embedded by this indexer."""
        self.disabled: str | None = None
        """Why the worker stopped embedding (None: it has not)."""

    @classmethod
    def for_settings(
        cls, settings: Settings, open_store: Callable[[], SessionStore]
    ) -> BackgroundIndexer | None:
        """An indexer when ``[sessions] semantic`` allows it and the extra is installed
        (looked up without importing it), else None."""
        if not semantic_enabled(settings):
            return None
        from ...extras import require_extra

        try:
            require_extra("semantic", "Semantic session search")
        except MnemicError:
            return None
        return cls(open_store)

    def submit(self, ids: Sequence[int]) -> None:
        """Queue ``ids`` for embedding; never blocks (drops what does not fit)."""
        if self.disabled is not None or not ids:
            return
        self._ensure_thread()
        for mid in ids:
            try:
                with self._idle:
                    self._queue.put_nowait(int(mid))
                    self._busy += 1
            except queue.Full:
                self.dropped += 1

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued id is handled (for tests and clean shutdown)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker: ids still queued are dropped (a backfill embeds them), the
        batch in hand is finished if it takes less than ``timeout`` seconds (else the
        daemon thread ends with the process, its transaction rolled back)."""
        thread = self._thread
        if thread is None:
            return
        left = 0
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
            left += 1
        if left:
            self.dropped += left
            self._done(left)
        self._queue.put_nowait(_STOP)
        thread.join(timeout)

    def _ensure_thread(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="mnemic-indexer", daemon=True
                )
                self._thread.start()

    def _take(self) -> list[int]:
        ids = [self._queue.get()]
        while len(ids) < self._batch:
            try:
                ids.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return ids

    def _done(self, n: int) -> None:
        with self._idle:
            self._busy -= n
            self._idle.notify_all()

    def _run(self) -> None:
        store: SessionStore | None = None
        embedder: Embedder | None = None
        try:
            while True:
                ids = self._take()
                stop = _STOP in ids
                work = [i for i in ids if i != _STOP]
                try:
                    if work and self.disabled is None:
                        if embedder is None:
                            embedder = self._embedder()
                        if store is None:
                            store = self._open_store()
                        self._embed(store, embedder, work)
                except SemanticUnavailable as exc:
                    self.disabled = exc.to_llm()
                    log.warning("background indexing is off: %s", self.disabled)
                except MnemicError as exc:  # the store failed: a backfill catches up
                    log.warning("background indexing failed for %d messages: %s", len(work), exc)
                except Exception:  # a worker thread must not die silently
                    log.exception("background indexing failed for %d messages", len(work))
                finally:
                    self._done(len(work))
                if stop:
                    return
        finally:
            if store is not None:
                store.close()

    def _embedder(self) -> Embedder:
        if self._load is not None:
            return self._load()
        from ...embedding.model import load_embedder

        return load_embedder()

    def _embed(self, store: SessionStore, embedder: Embedder, ids: list[int]) -> None:
        from ..sql.vectors import VectorStore

        if not isinstance(store, VectorStore):
            raise SemanticUnavailable("this session store keeps no vectors")
        pending = store.vectors_pending(embedder.model_id, ids=ids, limit=len(ids))
        self.embedded += embed_pending(store, embedder, pending)
