"""Content given as a list of parts (OpenAI-style ``text`` / ``image_url`` parts, Codex's
``input_text`` / ``input_image``): its text, with each image whose URL is a ``data:``
URL kept in the attachment store (:mod:`.attached`). An image given by another URL is
not in the file: it is named in the text, never fetched."""

from __future__ import annotations

from typing import Any

from ..store import Attachment
from .attached import Kept, Reading, bare, keep_base64, refused
from .formats import text_of

__all__ = ["IMAGE_PARTS", "keep_data_url", "parts_with_images"]

IMAGE_PARTS = ("image_url", "input_image")
"""The part types that carry an image by URL."""


def keep_data_url(reading: Reading, where: str, url: Any, *, cut: bool = False) -> Kept:
    """Keep the image of a ``data:…;base64,`` URL; any other URL is refused, named."""
    head, sep, data = url.partition(",") if isinstance(url, str) else ("", "", "")
    if not (sep and head.startswith("data:") and head.endswith(";base64")):
        if reading.attachments is None:
            return bare("image"), None
        shown = url.rsplit("/", 1)[-1][:80] or None if isinstance(url, str) else None
        return refused(reading, where, "image", shown, "its URL is not data in the file"), None
    media = head[len("data:") : -len(";base64")] or None
    return keep_base64(reading, where, "image", data, media_type=media, cut=cut)


def parts_with_images(
    content: Any, reading: Reading, where: str, *, cut: bool = False
) -> tuple[str, tuple[Attachment, ...]]:
    """The text of ``content`` (a string, or a list of parts) and the images it keeps."""
    if not isinstance(content, list):
        return text_of(content) or "", ()
    texts: list[str] = []
    links: tuple[Attachment, ...] = ()
    for part in content:
        if isinstance(part, dict) and part.get("type") in IMAGE_PARTS:
            url = part.get("image_url")
            if isinstance(url, dict):  # OpenAI: {"url": ..., "detail": ...}
                url = url.get("url")
            text, link = keep_data_url(reading, where, url, cut=cut)
            texts.append(text)
            links += (link,) if link else ()
        else:
            texts.append(text_of([part]) or "")
    return "\n".join(t for t in texts if t), links
