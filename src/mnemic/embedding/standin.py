"""A deterministic stand-in embedder for fast tests and benchmarks of the plumbing.

It hashes word unigrams and bigrams into 384 dimensions (signed, L2-normalised): texts
sharing words get similar vectors, nothing else. It knows no meaning; tests that need
meaning use the real model (:func:`~.model.load_embedder`).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["StandinEmbedder"]

_WORD = re.compile(r"\w+")


class StandinEmbedder:
    """Hashing of word n-grams into ``dim`` dimensions; see the module docstring."""

    def __init__(self, dim: int = 384, *, model_id: str = "standin-hash-1") -> None:
        self.dim = dim
        self.model_id = model_id
        self.calls = 0
        """Texts embedded so far (tests count work with it)."""

    def _one(self, text: str) -> npt.NDArray[np.float32]:
        vec = np.zeros(self.dim, np.float32)
        words = [w.lower() for w in _WORD.findall(text)]
        grams = words + [f"{a} {b}" for a, b in itertools.pairwise(words)]
        for gram in grams:
            digest = hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest()
            slot = int.from_bytes(digest[:4], "little") % self.dim
            vec[slot] += 1.0 if digest[4] & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        if norm == 0.0:
            vec[0] = 1.0
            return vec
        return vec / norm

    def _many(self, texts: Sequence[str]) -> npt.NDArray[Any]:
        self.calls += len(texts)
        if not texts:
            return np.empty((0, self.dim), np.float32)
        return np.stack([self._one(t) for t in texts])

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[Any]:
        """(n, dim) float32, L2-normalised."""
        return self._many(texts)

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[Any]:
        """(n, dim) float32, L2-normalised (the same function as queries)."""
        return self._many(texts)
