"""The secret both local servers ask every request for, and where it comes from.

Loopback is not a boundary on a shared machine: every process of every Unix user can
connect to ``127.0.0.1``. The home is private (0700), so a token kept in it, or handed
to its owner only, is what tells the owner's clients from everyone else's.

- :func:`read_token_file` reads a token a person keeps in a file (``--token-file``): a
  regular file (a FIFO or a device is refused without blocking, never read without end)
  of at most 4 KiB, which only its owner may read.
- :func:`home_token` is the default of ``mnemic mcp --http``: ``<home>/mcp.token``,
  created once with a random token (mode 0600), so an MCP client configuration can be
  given it once and it holds across restarts.
- :func:`new_token` is the default of ``mnemic ui``: random for each start, carried by the
  address the console prints and opens.
- :func:`http_only` refuses the options that only apply over HTTP given without it; it
  imports nothing, so ``mnemic mcp`` gives that usage error before it loads the MCP SDK
  (an extra a misplaced option must not be told to install first).
"""

from __future__ import annotations

import contextlib
import os
import secrets

from ..errors import ConfigError, UnreadableFile, UnsafePath
from ..fsio import fsync_dir, read_text_strict

StrPath = str | os.PathLike[str]

__all__ = [
    "HOME_TOKEN_FILE",
    "TOKEN_FILE_MAX_BYTES",
    "home_token",
    "http_only",
    "new_token",
    "read_token_file",
]

HOME_TOKEN_FILE = "mcp.token"
"""The MCP server's token, in the home (``<home>/mcp.token``)."""
TOKEN_FILE_MAX_BYTES = 4096
"""Largest token file read (a token is a line; anything bigger is not one)."""


def new_token() -> str:
    """A fresh random token (43 URL-safe characters, 256 bits)."""
    return secrets.token_urlsafe(32)


def read_token_file(path: StrPath, *, key: str, source: str) -> str:
    """The token in the file at ``path`` (surrounding whitespace dropped).

    Raises :class:`~mnemic.errors.ConfigError` (``key``, ``source``) when the file is
    missing, empty, not a regular file, larger than :data:`TOKEN_FILE_MAX_BYTES`, not
    UTF-8 text, or readable by its group or other users (then it says ``chmod 600``).
    """
    token = _token_in(path, key=key, source=source)
    if token is None:
        raise ConfigError(key, f"the token file {path} does not exist", source=source)
    return token


def _token_in(path: StrPath, *, key: str, source: str) -> str | None:
    """:func:`read_token_file`, but ``None`` when there is no file at ``path``."""
    try:
        text = read_text_strict(path, max_bytes=TOKEN_FILE_MAX_BYTES, owner_only=True)
    except (UnreadableFile, UnsafePath) as exc:
        raise ConfigError(
            key, f"the token file {path} cannot be used: {exc.reason}", source=source
        ) from None
    if text is None:
        return None
    token = text.strip()
    if not token:
        raise ConfigError(
            key, f"the token file {path} is empty: put the token on its first line", source=source
        )
    return token


def home_token(root: StrPath) -> tuple[str, str]:
    """The token in ``<root>/mcp.token`` and the file's path; the file is created (0600,
    a :func:`new_token`) when missing.

    Two servers starting at once on a new home agree on one token: the file appears
    complete or not at all (written aside, then linked into place without replacing
    one that is already there), and a server that finds no file creates one or takes
    the one another server linked first. A file others may read, or one that cannot be
    created (a read-only home), raises :class:`~mnemic.errors.ConfigError` saying what
    to do.
    """
    path = os.path.join(os.fspath(root), HOME_TOKEN_FILE)
    source = "mnemic mcp --http"
    token = _token_in(path, key="mcp.token", source=source)
    if token is not None:
        return token, path
    try:
        _create_once(path, new_token() + "\n")
    except OSError as exc:
        raise ConfigError(
            "mcp.token",
            f"cannot create the token file {path} ({exc.strerror or exc}); give a token with "
            "MNEMIC_MCP_TOKEN=<token> or --token-file FILE instead",
            source=source,
        ) from None
    return read_token_file(path, key="mcp.token", source=source), path


def _create_once(path: str, text: str) -> None:
    """Write ``text`` to a private temp file beside ``path``, then link it to ``path``
    unless a file is there already (that one wins); the temp file is always removed."""
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            data = memoryview(text.encode("ascii"))
            while data:
                data = data[os.write(fd, data) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(FileExistsError):  # another server was first: its token
            os.link(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    fsync_dir(directory)


def http_only(
    http: bool,
    *,
    host: str | None = None,
    port: int | None = None,
    token: str | None = None,
    token_file: str | None = None,
) -> str | None:
    """What is wrong with options that only apply over HTTP given without ``http`` (the
    usage error of ``mnemic mcp`` and ``python -m mnemic.mcp_server``); None: nothing."""
    if not http and (host is not None or port is not None):
        return "--host and --port only apply with --http"
    if not http and (token is not None or token_file is not None):
        return "--token and --token-file only apply with --http"
    return None
