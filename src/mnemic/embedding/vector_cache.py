"""Vectors of curated and archived texts kept between processes: a derived cache.

``memory search``, ``memory archive search`` and ``memory tidy`` compare entries by
meaning; without this cache every process embedded every text again (3,038 archived
texts: about 100 s of CPU per archive search). A :class:`VectorCache` keeps them under the
home's cache area, ``<home>/cache/vectors/``, one file per embedder and *scope* (what a
caller ranks: the live entries of some targets, the archive of some stores, one target
for tidy):

* a vector is keyed by the SHA-256 of its text's exact UTF-8 bytes (the text itself is
  not stored), and a file by the embedder's identity (its ``model_id``, which names the
  model and its version, and the vectors' dimension) and the scope: another model's
  vectors are never used;
* a file is checked before use (its header, sizes, a SHA-256 of its body, finite
  values); a damaged or foreign file is ignored and rewritten by the next search,
  never trusted: losing it costs time only;
* it is written atomically (temp file, rename; not fsynced: a cache) and holds exactly
  the texts of the call that wrote it, so a text no longer live or archived is dropped
  at the next rewrite; two writers each write a whole file (the last one wins), a reader
  sees the old or the new one;
* ``forget`` (:func:`clear`) deletes the home's vector files when it forgets an entry
  text, so no vector of a forgotten text survives (issue 26). A search that read its
  texts before the forget may write after it; so each forget first sets a new
  *generation* (a random mark in ``<home>/cache/vectors.generation``) and then deletes
  the files, and a :class:`VectorCache` remembers the generation it was made at: it
  writes only while the mark is unchanged, and re-reads the mark after its rename,
  deleting what it wrote if a forget came in between (either the writer sees the new
  mark, or the forget's deletion comes after the write). No lock: a dropped write costs
  the next search its embedding, nothing else. Make the cache (the loader
  :func:`mnemic.sessions.embedder_loader_for` gives) before reading the texts it will
  be given.

PostgreSQL homes keep no vector file (:func:`cache_for` returns None): their stores are
shared by several machines, and ``forget`` on one could not reach another's local cache.
They keep the per-process cache only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import MnemicError
from ..fsio import atomic_write_bytes, ensure_private_dir

__all__ = ["CachedLoader", "VectorCache", "cache_for", "clear", "text_key"]

log = logging.getLogger(__name__)

FORMAT = 1
_MAGIC = b"mnemic-vectors"
_SUFFIX = ".vec"
_KEY_BYTES = 32
MAX_TEXTS = 100_000
"""A file naming more texts than this is not read (a damaged header)."""


def text_key(text: str) -> bytes:
    """The key of ``text``: SHA-256 of its exact UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def vectors_dir(root: str | os.PathLike[str]) -> Path:
    """Where the home (or store) at ``root`` keeps its vector files."""
    return Path(root) / "cache" / "vectors"


def _generation_path(root: str | os.PathLike[str]) -> Path:
    # beside the directory, not in it: clear() deletes the temp files in it, and so
    # would delete a concurrent forget's temp file of the mark
    return Path(root) / "cache" / "vectors.generation"


class VectorCache:
    """The vector files of one home (see the module docstring). It writes only while no
    ``forget`` came since it was made."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.directory = vectors_dir(root)
        self._mark = _generation_path(root)
        self.since = self.generation()
        """The generation this cache was made at (None: unreadable, nothing is written)."""

    def generation(self) -> str | None:
        """The mark the last ``forget`` set ("" before any); None when it cannot be read."""
        try:
            return self._mark.read_text(encoding="ascii")
        except FileNotFoundError:
            return ""
        except (OSError, ValueError) as exc:
            log.info("vector cache generation %s not read: %s", self._mark, exc)
            return None

    def _current(self) -> bool:
        return self.since is not None and self.generation() == self.since

    def path(self, model: str, scope: str) -> Path:
        """The file of ``model``'s vectors for ``scope``."""
        name = hashlib.sha256(f"{model}\0{scope}".encode()).hexdigest()[:32]
        return self.directory / (name + _SUFFIX)

    def read(self, model: str, dim: int | None, scope: str) -> dict[bytes, Any]:
        """The vectors kept for ``scope`` by ``model`` (``dim`` dimensions, if known), by
        text key; empty when there is no file or it cannot be trusted."""
        path = self.path(model, scope)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            log.info("vector cache %s not read: %s", path, exc)
            return {}
        try:
            return _decode(data, model, dim, scope)
        except (ValueError, KeyError, TypeError) as exc:
            log.info("vector cache %s ignored (it will be rebuilt): %s", path, exc)
            return {}

    def write(self, model: str, scope: str, keys: Sequence[bytes], vectors: Sequence[Any]) -> None:
        """Replace ``scope``'s file with these vectors (a failure is logged, not raised)."""
        import numpy as np

        matrix = np.asarray(np.stack(vectors) if vectors else [], dtype="<f4")
        dim = int(matrix.shape[1]) if len(keys) else 0
        body = b"".join(keys) + matrix.tobytes()
        header = {
            "format": FORMAT,
            "model": model,
            "scope": scope,
            "dim": dim,
            "n": len(keys),
            "sha256": hashlib.sha256(body).hexdigest(),
        }
        data = _MAGIC + b"\n" + json.dumps(header, sort_keys=True).encode() + b"\n" + body
        if not self._current():  # a forget came since the texts were read
            log.info("vector cache not written: forgotten since this search read its texts")
            return
        path = self.path(model, scope)
        try:
            ensure_private_dir(self.directory)
            atomic_write_bytes(path, data, fsync=False)
        except (MnemicError, OSError) as exc:
            log.info("vector cache not written: %s", exc)
            return
        if not self._current():  # the forget's deletion may have run before the rename
            with contextlib.suppress(OSError):
                os.unlink(path)

    def clear(self) -> int:
        """``forget``: set a new generation (writers made before it write nothing), then
        delete every vector file; how many were deleted."""
        try:
            ensure_private_dir(self._mark.parent)
            atomic_write_bytes(self._mark, os.urandom(16).hex().encode("ascii"), fsync=False)
        except (MnemicError, OSError) as exc:  # then no writer can write there either
            log.warning("vector cache generation not set: %s", exc)
        try:
            names = os.listdir(self.directory)
        except OSError:
            return 0
        gone = 0
        for name in names:
            if name.endswith(_SUFFIX) or ".tmp" in name or name.startswith("."):
                try:
                    os.unlink(self.directory / name)
                    gone += 1
                except FileNotFoundError:
                    pass
        return gone

    def vectors(
        self,
        model: str,
        dim: int | None,
        scope: str,
        texts: Sequence[str],
        embed: Callable[[list[str]], Sequence[Any]],
    ) -> dict[str, Any]:
        """The vectors of ``texts``: those kept for ``scope``, the others embedded by
        ``embed`` (one call, only the texts missing); the file is rewritten with exactly
        ``texts`` when it missed one or held another."""
        unique = list(dict.fromkeys(texts))
        keys = {t: text_key(t) for t in unique}
        kept = self.read(model, dim, scope)
        have = {t: kept[k] for t, k in keys.items() if k in kept}
        missing = [t for t in unique if t not in have]
        if missing:
            have.update(zip(missing, embed(missing), strict=True))
        if missing or len(kept) != len(have):
            self.write(model, scope, [keys[t] for t in unique], [have[t] for t in unique])
        return have


def _decode(data: bytes, model: str, dim: int | None, scope: str) -> dict[bytes, Any]:
    import numpy as np

    magic, header_line, body = data.split(b"\n", 2)
    if magic != _MAGIC:
        raise ValueError("not a vector file")
    header = json.loads(header_line)
    if header["format"] != FORMAT or header["model"] != model or header["scope"] != scope:
        raise ValueError("another format, model or scope")
    n, width = header["n"], header["dim"]
    if not (isinstance(n, int) and isinstance(width, int) and 0 <= n <= MAX_TEXTS and width >= 0):
        raise ValueError("bad sizes")
    if dim is not None and n and width != dim:
        raise ValueError(f"{width} dimensions, not {dim}")
    if len(body) != n * (_KEY_BYTES + 4 * width):
        raise ValueError("truncated or padded")
    if hashlib.sha256(body).hexdigest() != header["sha256"]:
        raise ValueError("checksum differs")
    matrix = np.frombuffer(body, dtype="<f4", offset=n * _KEY_BYTES).reshape(n, width)
    if not np.isfinite(matrix).all():
        raise ValueError("values not finite")
    keys = [body[i * _KEY_BYTES : (i + 1) * _KEY_BYTES] for i in range(n)]
    return dict(zip(keys, matrix.astype(np.float32), strict=True))


class CachedLoader:
    """An embedder loader that carries its home's :class:`VectorCache` (what
    :func:`mnemic.sessions.embedder_loader_for` gives for a files home)."""

    def __init__(self, load: Callable[[], Any], cache: VectorCache) -> None:
        self.load = load
        self.cache = cache

    def __call__(self) -> Any:
        return self.load()


def cache_for(home: Any) -> VectorCache | None:
    """The vector cache of ``home`` (a :class:`~mnemic.home.Home`), None for a database
    store (see the module docstring)."""
    if getattr(home.settings, "store", "files") != "files":
        return None
    return VectorCache(home.root)


def clear(root: str | os.PathLike[str]) -> int:
    """Delete the vector files of the home or store at ``root`` (``forget``)."""
    return VectorCache(root).clear()
