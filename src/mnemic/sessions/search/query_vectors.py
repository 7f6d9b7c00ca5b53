"""Query vectors remembered per process: a question asked again skips the model.

A hybrid call's query embedding is most of its time (about 20 of 35 ms at 100k messages
on a quiet machine, ``./x bench hybrid_stages``), and the same words come back: a retried
call, a console reload, the same question through another tool. The speaker names a
question in another script is compared with (:class:`.speaker.NameMatcher`) are embedded
as queries too, once each. A vector is kept with the embedder object that made it and
served only to that object (two objects claiming one model id never share vectors), and
it is read-only: every later call shares it.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["QUERY_CACHE", "query_vectors"]

QUERY_CACHE = 256
"""Vectors kept per process (least recently used dropped first; 0: none)."""

_lock = threading.Lock()
_vectors: OrderedDict[tuple[str, str], tuple[weakref.ref[Any], Any]] = OrderedDict()
"""(model, text) -> (the embedder that made it, the vector)."""


class _Embeds(Protocol):
    model_id: str

    def embed_queries(self, texts: Sequence[str]) -> Any: ...


def _remembered(embedder: _Embeds, text: str) -> Any | None:
    key = (embedder.model_id, text)
    with _lock:
        found = _vectors.get(key)
        if found is None or found[0]() is not embedder:
            return None
        _vectors.move_to_end(key)
        return found[1]


def _remember(embedder: _Embeds, text: str, vec: Any) -> None:
    try:
        ref = weakref.ref(embedder)
    except TypeError:  # an embedder without weak references is simply not cached
        return
    if hasattr(vec, "setflags"):
        vec.setflags(write=False)  # shared by every later call: nobody may change it
    with _lock:
        _vectors[(embedder.model_id, text)] = (ref, vec)
        _vectors.move_to_end((embedder.model_id, text))
        while len(_vectors) > QUERY_CACHE:
            _vectors.popitem(last=False)


def query_vectors(embedder: _Embeds, texts: Sequence[str]) -> list[Any]:
    """The query vectors of ``texts``, in order: remembered from an earlier call of this
    process with the same embedder (:data:`QUERY_CACHE`), the others embedded in one
    call (and remembered). Raises what the embedder raises."""
    out = [_remembered(embedder, t) for t in texts]
    missing = [i for i, vec in enumerate(out) if vec is None]
    if missing:
        made = embedder.embed_queries([texts[i] for i in missing])
        for i, vec in zip(missing, made, strict=True):
            out[i] = vec
            if QUERY_CACHE > 0:
                _remember(embedder, texts[i], vec)
    return out
