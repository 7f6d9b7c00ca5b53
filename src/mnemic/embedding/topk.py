"""Exact top-k over a matrix of vectors (numpy; imported only by semantic search)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["topk"]


def topk(
    matrix: npt.NDArray[Any],
    query: npt.NDArray[Any],
    k: int,
    *,
    mask: npt.NDArray[np.bool_] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The rows of ``matrix`` (n, dim) with the largest dot product with ``query`` (dim,),
    best first: ``(row indices, scores)``. With L2-normalised rows and query the score is
    the cosine. ``mask`` (n,) keeps only the rows where it is true. Ties keep row order."""
    n = int(matrix.shape[0])
    if n == 0 or k <= 0:
        return np.empty(0, np.int64), np.empty(0, np.float32)
    scores = np.asarray(matrix @ query.astype(matrix.dtype, copy=False), dtype=np.float32)
    rows: npt.NDArray[np.int64]
    if mask is not None:
        rows = np.flatnonzero(mask).astype(np.int64)
        scores = scores[rows]
    else:
        rows = np.arange(n, dtype=np.int64)
    if scores.shape[0] == 0:
        return np.empty(0, np.int64), np.empty(0, np.float32)
    k = min(k, int(scores.shape[0]))
    if k < scores.shape[0]:
        part = np.argpartition(-scores, k - 1)[:k]
    else:
        part = np.arange(scores.shape[0])
    order = part[np.lexsort((part, -scores[part]))]
    return rows[order], scores[order]
