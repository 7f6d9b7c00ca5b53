"""The attachment store beside the session history: listing, collection, forgetting.

The bytes live in ``<home>/attachments`` (:mod:`mnemic.sessions.attachments`), the links
in the session store (``message_attachments``). What spans both is here: a listing that
says which linked files are missing, :func:`collect_attachments` (``mnemic sessions
attachments --gc``: files no link names, past a grace period, go) and
:func:`drop_forgotten` (``mnemic forget --text``: the files the forgotten messages
held go at once, unless another message still holds them). Links are always removed
(committed) before files, so a crash leaves a file without a link (garbage the next
collection removes), never a link to a file that was deleted under it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..home import Home
from ..sessions import open_store
from ..sessions.attachments import GRACE, AttachmentStore
from ..sessions.sql import SessionStore

__all__ = ["attachment_listing", "collect_attachments", "drop_forgotten"]


def attachment_listing(
    home: Home, *, session_id: str | None = None, query: str | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    """The attachments of the history, newest first (one session's, and/or those whose
    name, media type or caption holds ``query``), each saying whether its file is
    ``missing`` from the store."""
    files = AttachmentStore.of_home(home)
    with open_store(home) as store:
        links = store.find_attachments(session_id=session_id, query=query, limit=limit)
    return [{**link.to_dict(), "missing": not files.has(link.attachment.sha256)} for link in links]


def collect_attachments(
    home: Home, *, dry_run: bool = False, grace: float = GRACE
) -> dict[str, Any]:
    """Remove the files no link names (older than ``grace`` seconds: an import in flight
    has written its files before committing their links)."""
    files = AttachmentStore.of_home(home)
    with open_store(home) as store:
        used = store.attachment_hashes()
    done = files.collect(used, grace=grace, dry_run=dry_run)
    return {
        "dry_run": dry_run,
        "removed": list(done.removed),
        "freed_bytes": done.freed,
        "kept": len(used),
        "too_young": done.young,
    }


def drop_forgotten(home: Home, store: SessionStore, hashes: Iterable[str], since: float) -> int:
    """After forgetting committed: delete the files its messages held that no remaining
    link names (and that no import stored again after ``since``)."""
    held = list(hashes)
    if not held:
        return 0
    return AttachmentStore.of_home(home).discard(held, store.attachment_hashes(), before=since)
