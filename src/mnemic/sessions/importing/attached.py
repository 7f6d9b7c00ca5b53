"""The images and files of imported messages, kept in the home's attachment store.

An importer that meets an image or a file hands its bytes (or where they are) to
:func:`keep`: they go into the :class:`~mnemic.sessions.attachments.AttachmentStore` the
import was given (``Reading.attachments``), and the message keeps a placeholder in its
text (``[image: name.png — caption]``) so search and prompts read it, plus the link
(``NewMessage.attachments``). What is not kept (over a cap, a symlink, a file missing
from the export, damaged data) leaves a placeholder naming it and why
(``[image: name.png — not kept: …]``) and a line in the import report. An import without
an attachment store (a dry run, or the library called without one) keeps the old bare
placeholder (``[image]``, ``[attachment]``).
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from ...errors import AttachmentRefused
from ..attachments import AttachmentStore, attachment_name, is_sha256, media_type_of
from ..store import Attachment

__all__ = [
    "Kept",
    "asset_file",
    "bare",
    "decoded",
    "keep",
    "keep_base64",
    "keep_exported",
    "part_caption",
    "refused",
]

Kept = tuple[str, Attachment | None]
"""The placeholder a message keeps, and the link (None: not kept)."""
_ASSET_DEPTH = 3
"""Folder levels of an export searched for asset files."""


class Reading(Protocol):
    """What keeping needs of an import's reading (:class:`.formats.Reading`)."""

    @property
    def attachments(self) -> AttachmentStore | None: ...

    def skip(self, reason: str, where: str) -> None: ...


def str_of(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def keep(
    reading: Reading,
    where: str,
    kind: str,
    shown: str | None,
    put: Callable[[AttachmentStore], Attachment],
) -> Kept:
    """Keep one attachment with ``put`` in the import's store; ``kind`` is ``image`` or
    ``attachment`` (the bare placeholder's word), ``shown`` its name if the source has one."""
    store = reading.attachments
    if store is None:
        return bare(kind), None
    try:
        link = put(store)
    except AttachmentRefused as exc:
        return refused(reading, where, kind, exc.name, exc.reason), None
    return link.placeholder(), link


def bare(kind: str) -> str:
    """The placeholder of a reading without an attachment store: a dry run's (which
    writes nothing, and whose report must not say the import leaves files out), or the
    library's called without one (as before attachments were kept)."""
    return f"[{kind}]"


def refused(reading: Reading, where: str, kind: str, shown: str | None, why: str) -> str:
    """Count an attachment not kept; the placeholder naming it and why."""
    reading.skip("attachment not kept", f"{where} ({shown or kind}: {why})")
    label = "image" if kind == "image" else "file"
    return f"[{label}: {shown or 'unnamed'} — not kept: {why}]"


def decoded(data: Any) -> bytes | None:
    """The bytes of base64 text, or None when it is not valid base64."""
    if not isinstance(data, str):
        return None
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def keep_base64(
    reading: Reading,
    where: str,
    kind: str,
    data: Any,
    *,
    name: str | None = None,
    media_type: str | None = None,
    caption: str | None = None,
    cut: bool = False,
) -> Kept:
    """Keep base64 ``data`` (a transcript's image block). Data on a line whose texts
    were cut (over 16 MiB), missing or not valid base64 is refused, saying so."""
    if reading.attachments is not None:
        if cut:
            why = "its line is over 16 MiB and its data was cut"
            return refused(reading, where, kind, name, why), None
        raw = decoded(data)
        if raw is None:
            why = "its data is missing or not valid base64"
            return refused(reading, where, kind, name, why), None
    else:
        raw = b""
    return keep(
        reading,
        where,
        kind,
        name,
        lambda store: store.put(raw, name=name, media_type=media_type, caption=caption),
    )


def asset_file(folder: Path, pointer: Any, cache: dict[Path, dict[str, str]]) -> str | None:
    """The file of an export folder an asset pointer names (``file-service://file-abc``,
    ``sediment://file_abc``): the one whose name starts with the pointer's id, searched
    a few levels down without following symlinks; its path relative to ``folder``."""
    ref = str_of(pointer)
    if not ref:
        return None
    ident = ref.rsplit("/", 1)[-1]
    if not ident or ident in (".", ".."):
        return None
    names = cache.get(folder)
    if names is None:
        names = cache[folder] = _listing(folder)
    for name, relative in names.items():
        if name.startswith(ident):
            return relative
    return None


def _listing(folder: Path) -> dict[str, str]:
    """``file name -> path relative to folder`` of the files a few levels down (a
    symlink is listed, not followed: keeping it is refused, saying so)."""
    found: dict[str, str] = {}
    base = len(str(folder).rstrip(os.sep).split(os.sep))
    for here, dirs, files in os.walk(folder, followlinks=False):
        depth = len(here.rstrip(os.sep).split(os.sep)) - base
        if depth >= _ASSET_DEPTH:
            dirs[:] = []
        dirs.sort()
        for name in sorted(files):
            found.setdefault(name, os.path.relpath(os.path.join(here, name), folder))
    return found


def part_caption(part: Mapping[str, Any]) -> str | None:
    """The caption or alt text a ChatGPT part carries, if any."""
    meta = part.get("metadata")
    if isinstance(meta, dict):
        for key in ("alt_text", "caption", "prompt"):
            text = str_of(meta.get(key))
            if text:
                return text
    return None


def keep_exported(reading: Reading, where: str, value: Any, *, cut: bool) -> tuple[Attachment, ...]:
    """The attachments of a message of mnemic's own jsonl export (``attachments``: the
    link fields, and ``data`` in base64 when the export carried the bytes). Without
    ``data`` a link is kept only when the store already holds those bytes; whatever is
    not kept is counted with why (the text already names it)."""
    store = reading.attachments
    kept: list[Attachment] = []
    for item in value if isinstance(value, list) else ():
        if not isinstance(item, dict):
            continue
        name = str_of(item.get("name"))
        media = str_of(item.get("media_type"))
        caption = str_of(item.get("caption"))
        if store is None:
            return ()  # a dry run: the text already names each file
        kind = "image" if (media or "").startswith("image/") else "attachment"
        if "data" in item:
            _, link = keep_base64(
                reading, where, kind, item["data"],
                name=name, media_type=media, caption=caption, cut=cut,
            )  # fmt: skip
            if link is not None:
                kept.append(link)
            continue
        sha = str_of(item.get("sha256")) or ""
        size = item.get("size")
        if is_sha256(sha) and isinstance(size, int) and store.has(sha):
            media = media_type_of(name or "", media)
            said = caption or None
            kept.append(Attachment(sha, attachment_name(name, sha, media), media, size, said))
        else:
            refused(reading, where, kind, name, "the export did not carry its bytes")
    return tuple(kept)
