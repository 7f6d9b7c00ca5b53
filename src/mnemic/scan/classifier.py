"""The learned layer: a linear model over hashed word and character n-grams.

The weights ship inside the package (``model.bin``: a magic line, one JSON header line
with the bias, the thresholds per sensitivity level, the data hash and the versions of the
feature function and the training script, then 2**18 little-endian float32 weights).
Loading is one file read and a ``memoryview`` cast, done the first time a text needs
a score. Inference is pure Python: one ``crc32`` per feature and one weight read.

Long text is cut into chunks of a few hundred characters at line and sentence ends, and
the highest chunk score counts, so that one hostile sentence in a long skill or context
file is not averaged away. A text (or chunk) too short to judge, fewer than three words
or eight characters of a script written without spaces, gets no score: a short line is
left to the rules.
"""

from __future__ import annotations

import json
import math
import mmap
import os
import sys
from array import array
from typing import Any, BinaryIO

from .features import (
    BUCKET_BITS,
    FEATURE_VERSION,
    NORM_POWER,
    bigram_features,
    features,
    normalise,
    token_features,
)

__all__ = ["MAGIC", "MODEL_PATH", "Model", "chunks", "long_enough", "model"]

MAGIC = b"MNEMIC-SCAN-MODEL 1\n"
#: The shipped model.
MODEL_PATH = os.path.join(os.path.dirname(__file__), "model.bin")
#: Texts up to this length are scored whole.
CHUNK_CHARS = 600
_CHUNK_TARGET = 400


class Model:
    """Loaded weights, bias, thresholds and the provenance recorded at training."""

    __slots__ = ("_header", "_tokens", "bias", "feature_version", "thresholds", "weights")

    def __init__(
        self,
        weights: memoryview[float],
        bias: float,
        thresholds: dict[str, float],
        header: bytes | dict[str, Any] = b"{}",
        feature_version: int = FEATURE_VERSION,
    ) -> None:
        self.weights = weights
        self.bias = bias
        self.thresholds = thresholds
        self.feature_version = feature_version
        self._header = header
        # token -> (sum of its feature weights, number of features); bounded
        self._tokens: dict[str, tuple[float, int]] = {}

    @property
    def header(self) -> dict[str, Any]:
        """The provenance header (data hash, script version, seed, thresholds...)."""
        if isinstance(self._header, bytes):
            self._header = json.loads(self._header)
        header: dict[str, Any] = self._header  # type: ignore[assignment]
        return header

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Model:
        """Read a model file; ``ValueError`` if it is not one this code can use.

        Layout: the magic line; a line of ``key=value`` fields the scorer needs (parsed
        without :mod:`json`, whose import costs milliseconds); the JSON provenance line
        (parsed only when :attr:`header` is read); the float32 weights, little-endian.
        """
        with open(path, "rb") as fh:
            head = fh.read(_HEAD_MAX)
            if not head.startswith(MAGIC):
                raise ValueError(f"{path} is not a mnemic scanner model")
            try:
                end1 = head.index(b"\n", len(MAGIC))
                end2 = head.index(b"\n", end1 + 1)
                line = head[len(MAGIC) : end1].decode()
                fields = dict(kv.split("=", 1) for kv in line.split())
                version = int(fields["feature_version"])
                bits = int(fields["bucket_bits"])
                bias = float(fields["bias"])
                thresholds = {k: float(fields[k]) for k in ("strict", "balanced", "lenient")}
            except (ValueError, KeyError) as exc:
                raise ValueError(f"{path} has a malformed header ({exc})") from None
            if version != FEATURE_VERSION:
                raise ValueError(
                    f"{path} was trained with feature version {version}, this code computes "
                    f"version {FEATURE_VERSION}; retrain it (./x bench scan --train)"
                )
            size = os.fstat(fh.fileno()).st_size - end2 - 1
            if bits != BUCKET_BITS or size != 4 << BUCKET_BITS:
                raise ValueError(f"{path} is truncated or has another size ({size} bytes)")
            weights = _map_weights(fh, end2 + 1)
        return cls(weights, bias, thresholds, head[end1 + 1 : end2], version)

    def score(self, text: str) -> float:
        """Probability that ``text`` is an attack: the highest over its chunks that are
        :func:`long_enough` (0.0 when none is)."""
        best = 0.0
        for chunk in chunks(text):
            if long_enough(chunk):
                z = self.logit(chunk)
                p = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
                if p > best:
                    best = p
        return best

    def logit(self, text: str) -> float:
        """The linear score of ``text`` as one piece: bias + weights / count ** NORM_POWER
        over :func:`~mnemic.scan.features.features`, each token's share cached."""
        w = self.weights
        low = normalise(text)
        bigrams = bigram_features(low)
        total = sum(map(w.__getitem__, bigrams))
        count = len(bigrams)
        cache = self._tokens
        for token in dict.fromkeys(low.split()):
            hit = cache.get(token)
            if hit is None:
                f = token_features(token)
                hit = (sum(map(w.__getitem__, f)), len(f))
                if len(cache) >= _TOKEN_CACHE_MAX:
                    cache.clear()
                cache[token] = hit
            total += hit[0]
            count += hit[1]
        return self.bias + total / count**NORM_POWER if count else self.bias

    def top_words(self, text: str, k: int = 4) -> list[str]:
        """The words of ``text`` whose own features push its score up the most."""
        w = self.weights
        seen: dict[str, float] = {}
        for word in " ".join(text.lower().split()).split(" "):
            if word and word not in seen:
                f = features(word)
                seen[word] = sum(map(w.__getitem__, f)) / max(1, len(f))
        ranked = sorted(seen.items(), key=lambda kv: kv[1], reverse=True)
        return [word for word, v in ranked[:k] if v > 0]


_HEAD_MAX = 16_384


def _map_weights(fh: BinaryIO, offset: int) -> memoryview[float]:
    """The float32 weights from ``offset`` on: mapped (paged in as they are read, not
    copied), or read where mapping is not possible."""
    data: bytes | mmap.mmap
    try:
        data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # pragma: no cover - a file that cannot be mapped
        fh.seek(0)
        data = fh.read()
    if sys.byteorder == "little":
        return memoryview(data)[offset:].cast("f")
    arr = array("f", bytes(data[offset:]))  # pragma: no cover
    arr.byteswap()  # pragma: no cover
    return memoryview(arr.tobytes()).cast("f")  # pragma: no cover


def long_enough(text: str) -> bool:
    """Whether the classifier has enough text to judge: three words, or eight characters
    of a script written without spaces."""
    words = text.split()
    return len(words) >= 3 or (not text.isascii() and len("".join(words)) >= 8)


def chunks(text: str) -> list[str]:
    """``text`` itself when short; else pieces of about 400 characters cut at line ends
    (and sentence ends, then word ends, inside over-long lines). A piece shorter than
    a quarter of that joins the next one, so that no chunk is a stray heading or label."""
    if len(text) <= CHUNK_CHARS:
        return [text]
    pieces: list[str] = []
    for line in text.splitlines():
        while len(line) > CHUNK_CHARS:
            cut = line.rfind(". ", 0, CHUNK_CHARS)
            if cut <= _CHUNK_TARGET // 2:
                cut = line.rfind(" ", 0, CHUNK_CHARS)
            cut = cut + 1 if cut > _CHUNK_TARGET // 2 else CHUNK_CHARS
            pieces.append(line[:cut])
            line = line[cut:]
        pieces.append(line)
    out: list[str] = []
    buf = ""
    for piece in pieces:
        if len(buf) >= _CHUNK_TARGET // 4 and len(buf) + len(piece) + 1 > _CHUNK_TARGET:
            out.append(buf)
            buf = piece
        else:
            buf = f"{buf}\n{piece}" if buf else piece
    if buf.strip():
        out.append(buf)
    return out or [text[:CHUNK_CHARS]]


_TOKEN_CACHE_MAX = 65_536
_model: Model | None = None


def model() -> Model:
    """The shipped model, loaded on first use."""
    global _model
    if _model is None:
        _model = Model.load(MODEL_PATH)
    return _model
