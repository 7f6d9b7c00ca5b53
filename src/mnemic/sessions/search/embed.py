"""Embedding the history: vectors for the messages that have none, in bulk or as they come.

:func:`backfill` (``mnemic sessions embed``: :func:`embed_history`) embeds every message
still without a vector of the embedder's model, a batch per transaction, so it resumes
where a killed run stopped and replaces vectors of another model.

:class:`BackgroundIndexer` embeds what a recording session appends, off the hot path: an
append hands the new message ids to :meth:`BackgroundIndexer.submit`, which only puts
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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...config import Settings
from ...embedding.model import Embedder, load_embedder
from ...embedding.passage import PIECE_CHARS, passage_text, passage_texts
from ...errors import MnemicError, SemanticUnavailable
from ...extras import require_extra
from ..sql import SessionStore
from ..sql.vectors import PendingText, SqlVectors, VectorStatus
from ..sql.words import SqlWords, message_words
from .semantic import SemanticNotice, notice_of, semantic_enabled

__all__ = [
    "BackfillProgress",
    "BackgroundIndexer",
    "backfill",
    "embed_history",
    "embed_pending",
    "fill_words",
    "passage_of",
    "passages_of",
    "vector_status",
    "vectors_of",
]

log = logging.getLogger(__name__)

_STOP = -1


@dataclass(slots=True)
class BackfillProgress:
    """Where a backfill is: messages embedded by this run, how many were left at its
    start, and the rate."""

    done: int
    total: int
    started: float
    model: str
    words: int = 0
    """Words of the chat embedded by this run (:func:`fill_words`)."""

    @property
    def rate(self) -> float:
        """Messages per second so far."""
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate (None before any progress)."""
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"done": self.done, "total": self.total, "model": self.model,
                "rate": round(self.rate, 2), "words": self.words}  # fmt: skip


def passage_of(pending: PendingText) -> str:
    """The passage embedded for a message still without a vector (``passage_text`` of
    it, its speaker's name and the message before it)."""
    return passage_text(
        pending.content,
        role=pending.role,
        previous=pending.previous,
        name=pending.name,
        previous_name=pending.previous_name,
    )


def passages_of(pending: PendingText) -> list[str]:
    """Every passage embedded for a message still without a vector: its whole passage
    (:func:`passage_of`), then the pieces of a long one (``passage_texts``)."""
    return passage_texts(
        pending.content,
        role=pending.role,
        previous=pending.previous,
        name=pending.name,
        previous_name=pending.previous_name,
    )


def vectors_of(store: SessionStore) -> SqlVectors:
    """The vectors of ``store``; :class:`~mnemic.errors.SemanticUnavailable` when it keeps
    none."""
    if store.vectors is None:
        raise SemanticUnavailable("this session store keeps no vectors")
    return store.vectors


def embed_pending(
    vectors: SqlVectors,
    embedder: Embedder,
    pending: Sequence[PendingText],
    words: SqlWords | None = None,
) -> int:
    """Embed ``pending`` messages in one batch and store their vectors, a message's
    passages (:func:`passages_of`) one after the other in its one row (one transaction);
    returns how many messages were written (see :meth:`~..sql.vectors.SqlVectors.put`).
    With ``words`` (the store's word table) also the messages' words not yet embedded,
    each once as a query (:meth:`~..sql.words.SqlWords.put`: what the cross-language
    bridge reads, :mod:`.bridge`)."""
    from ..sql.vector_cache import encode  # numpy: the semantic extra

    if not pending:
        return 0
    texts = [passages_of(p) for p in pending]
    vecs = embedder.embed_passages([t for ts in texts for t in ts])
    rows, at = [], 0
    for p, ts in zip(pending, texts, strict=True):
        rows.append((p, b"".join(encode(v) for v in vecs[at : at + len(ts)])))
        at += len(ts)
    written = vectors.put(embedder.model_id, rows)
    if words is not None:
        held = [(p.message_id, message_words(p.content, p.name)) for p in pending]
        words.put(embedder.model_id, held, embedder.embed_queries)
    return written


def backfill(
    store: SessionStore,
    embedder: Embedder,
    *,
    batch: int = 32,
    limit: int | None = None,
    shard: tuple[int, int] | None = None,
    progress: Callable[[BackfillProgress], None] | None = None,
    renew: bool = False,
) -> BackfillProgress:
    """Embed up to ``limit`` messages without a vector of ``embedder``'s model, ``batch``
    per transaction (resumable: killed, it loses at most the batch in flight). With
    ``shard=(k, n)`` only message ids equal to k modulo n: n processes, one shard each,
    share a backfill without doing the same work twice. With ``renew`` also the long
    messages embedded before they got pieces (one vector of their whole passage, see
    :func:`passages_of`): they get their pieces. Raises
    :class:`~mnemic.errors.SemanticUnavailable` when the store keeps no vectors."""
    if batch < 1:
        raise ValueError("batch must be at least 1")
    if shard is not None and not 0 <= shard[0] < shard[1]:
        raise ValueError("shard must be (k, n) with 0 <= k < n")
    vectors = vectors_of(store)
    model = embedder.model_id
    again = (2 * embedder.dim, PIECE_CHARS) if renew else None
    left = vectors.status(model).missing
    if again is not None:
        left += vectors.renewable(model, *again)
    if shard is not None:
        left = -(-left // shard[1])  # about a share
    state = BackfillProgress(0, left if limit is None else min(left, limit), time.monotonic(),
                             model)  # fmt: skip
    after = 0
    while limit is None or state.done < limit:
        want = batch if limit is None else min(batch, limit - state.done)
        pending = vectors.pending(model, after=after, limit=want, shard=shard, renew=again)
        if not pending:
            break
        embed_pending(vectors, embedder, pending, store.words)
        after = pending[-1].message_id
        state.done += len(pending)
        if progress is not None:
            progress(state)
    if store.words is not None and (limit is None or state.done < limit) and not (shard or (0,))[0]:
        state.words = fill_words(store.words, embedder, batch=batch * 8)
    return state


def fill_words(words: SqlWords, embedder: Embedder, *, batch: int = 256) -> int:
    """Link the words of every message that has a vector of ``embedder``'s model and no
    words yet (a store embedded before the word table was: ``mnemic sessions embed``
    fills them), embedding the words not yet held; a batch per transaction. Returns the
    words embedded."""
    after, made = 0, 0
    while True:
        pending = words.pending(embedder.model_id, after=after, limit=batch)
        if not pending:
            return made
        made += words.put(embedder.model_id, pending, embedder.embed_queries)
        after = pending[-1][0]


def embed_history(
    store: SessionStore,
    *,
    batch: int = 32,
    limit: int | None = None,
    embedder: Embedder | None = None,
    settings: Settings | None = None,
    shard: tuple[int, int] | None = None,
    progress: Callable[[BackfillProgress], None] | None = None,
    renew: bool = False,
) -> BackfillProgress:
    """``mnemic sessions embed``: backfill ``store`` with the shipped embedder (its model
    file fully verified first; ``renew``: see :func:`backfill`). Raises
    :class:`~mnemic.errors.SemanticUnavailable` when semantic search is off, the extra is
    missing, the model is damaged or the store keeps no vectors."""
    if not semantic_enabled(settings):
        raise SemanticUnavailable(
            'it is switched off ([sessions] semantic = "off" in config.toml); set it to '
            '"auto" to embed the history'
        )
    vectors_of(store)
    if embedder is None:
        embedder = load_embedder(verify=True)
    return backfill(store, embedder, batch=batch, limit=limit, shard=shard, progress=progress,
                    renew=renew)  # fmt: skip


def vector_status(
    store: SessionStore, *, embedder: Embedder | None = None
) -> VectorStatus | SemanticNotice:
    """``mnemic sessions embed --status``: counts for the shipped embedder's model, the
    time of the oldest message still without a vector (the lag) and the long messages
    ``--renew`` would give pieces, or the notice saying why there are none."""
    if store.vectors is None:
        return SemanticNotice("unsupported", "This session store keeps no vectors.")
    try:
        if embedder is None:
            embedder = load_embedder()
    except SemanticUnavailable as exc:
        return notice_of(exc)
    model = embedder.model_id
    status = store.vectors.status(model)
    status = replace(status, renewable=store.vectors.renewable(model, 2 * embedder.dim,
                                                               PIECE_CHARS))  # fmt: skip
    if store.words is not None:
        status = replace(status, words_missing=store.words.missing(model))
    if not status.missing:
        return status
    return replace(status, oldest_missing=store.vectors.oldest_missing(model))


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
        return load_embedder()

    def _embed(self, store: SessionStore, embedder: Embedder, ids: list[int]) -> None:
        vectors = vectors_of(store)
        pending = vectors.pending(embedder.model_id, ids=ids, limit=len(ids))
        self.embedded += embed_pending(vectors, embedder, pending, store.words)
