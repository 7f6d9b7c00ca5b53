"""Counting the passes a write makes over a whole text: every pass starts with newline
normalisation, and every hash of the text is one SHA-256 of its bytes."""

from __future__ import annotations

import hashlib

import pytest

from mnemic.curated import entries


def count_whole_passes(monkeypatch: pytest.MonkeyPatch, size: int) -> tuple[list[int], list[int]]:
    """From now until ``monkeypatch.undo()``, record the length of every text of at
    least ``size`` characters normalised (``passes``) and of every byte string of at
    least ``size`` bytes hashed with SHA-256 (``hashes``); returns the two lists."""
    passes: list[int] = []
    hashes: list[int] = []
    normalize = entries.normalize_newlines
    real = hashlib.sha256

    def normalised(text: str) -> str:
        if len(text) >= size:
            passes.append(len(text))
        return normalize(text)

    def hashed(data: bytes = b"", **kwargs: bool) -> hashlib._Hash:
        if len(data) >= size:
            hashes.append(len(data))
        return real(data, **kwargs)

    monkeypatch.setattr(entries, "normalize_newlines", normalised)
    monkeypatch.setattr(hashlib, "sha256", hashed)
    return passes, hashes
