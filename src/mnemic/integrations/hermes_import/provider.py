"""Sessions mnemic's Hermes provider recorded, met again in Hermes's ``state.db``.

The provider (``mnemic integrate hermes``) records each Hermes turn as it ends, under
Hermes's own session id: the user's message and the final reply, without the tool calls
and results between them, and without an import key. ``state.db`` holds the same
session whole. The session import already matches messages without a key by their
content (:func:`~mnemic.sessions.keys.fingerprint`) and adds only the others, but it
appends them after the session's last message: the tool calls of a recorded turn would
land after every later turn.

:func:`merge_recorded` rewrites such sessions before the import, so it has nothing left
to add there: the session becomes Hermes's copy in Hermes's order (with its keys, tool
calls, title and parent; its source stays ``hermes``, the provider's), each recorded
message that ``state.db`` also holds kept once, and each one it does not hold (a turn
recorded after that copy of ``state.db`` was taken) kept after the message it followed.
A session whose missing messages all come after what it holds is left to the import,
which appends them in order; a second import finds every message by its key and writes
nothing. The rewrite gives the session's messages new ids: their vectors (search by
meaning) are made again by the next embedding pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...errors import SessionNotFound
from ...sessions import SessionStore
from ...sessions.attachments import AttachmentStore
from ...sessions.importing.formats import Reading, Skips, timestamp
from ...sessions.importing.hermes import hermes_items, open_hermes_db
from ...sessions.keys import message_fingerprint
from ...sessions.store import Attachment, Message, NewMessage, NewSession

__all__ = ["PROVIDER_SOURCE", "MergeReport", "merge_recorded", "ordered_merge"]

PROVIDER_SOURCE = "hermes"
"""The source of the sessions the provider records (``hermes_bridge.SOURCE``)."""


@dataclass
class MergeReport:
    """The recorded sessions :func:`merge_recorded` rewrote, and the messages it added."""

    sessions: list[str] = field(default_factory=list)
    messages: int = 0


class _Ignore(Skips):
    def skip(self, reason: str, where: str) -> None:
        pass  # the import that follows reads the same input and reports its skips


def ordered_merge(
    stored: Sequence[Message],
    keys: dict[int, str | None],
    incoming: Sequence[NewMessage],
    files: Mapping[int, Sequence[Attachment]] | None = None,
) -> list[NewMessage] | None:
    """The session ``stored`` (import keys by message id: ``keys``; the files its
    messages hold by id: ``files``) and ``incoming`` as
    one sequence in ``incoming``'s order, or None when appending the missing messages
    keeps the order (none is missing, or all come after the last one matched).

    A stored message matches an incoming one by key, else (no key) by fingerprint,
    each once; the incoming copy is kept. A stored message that matches none follows the
    incoming message its stored predecessor matched (at the start when none did)."""
    by_key: dict[str, int] = {}
    pool: dict[str, list[int]] = {}
    for i, held in enumerate(stored):
        key = keys.get(held.id)
        if key is not None:
            by_key.setdefault(key, i)
        else:
            pool.setdefault(message_fingerprint(held.to_new()), []).append(i)
    matched: dict[int, int] = {}  # stored index -> incoming index
    missing: list[int] = []
    for j, msg in enumerate(incoming):
        at = by_key.pop(msg.source_id, None) if msg.source_id is not None else None
        if at is None:
            found = pool.get(message_fingerprint(msg))
            at = found.pop(0) if found else None
        if at is None:
            missing.append(j)
        else:
            matched[at] = j
    last = max(matched.values(), default=-1)
    if all(j > last for j in missing):
        return None
    after: dict[int, list[NewMessage]] = {}
    anchor = -1
    for i, held in enumerate(stored):
        if i in matched:
            anchor = matched[i]
        else:
            again = held.to_new(
                source_id=keys.get(held.id), attachments=(files or {}).get(held.id, ())
            )
            after.setdefault(anchor, []).append(again)
    merged = list(after.get(-1, []))
    for j, msg in enumerate(incoming):
        merged.append(msg)
        merged += after.get(j, [])
    return merged


def _hermes(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    value = (metadata or {}).get("hermes")
    return dict(value) if isinstance(value, Mapping) else {}


def merge_recorded(
    store: SessionStore, db_path: Path, attachments: AttachmentStore | None = None
) -> MergeReport:
    """Rewrite the sessions of ``db_path`` that the provider recorded and that the import
    could not extend in order (see the module docstring). ``attachments``: where the
    images of Hermes's messages are kept, as the import that follows keeps them (None:
    placeholders only)."""
    report = MergeReport()
    reading = Reading(_Ignore(), attachments=attachments)
    rewrites: list[tuple[NewSession, list[NewMessage]]] = []
    ends: dict[str, tuple[float | None, str | None]] = {}  # the end the provider recorded
    with open_hermes_db(db_path) as db:
        for spec, incoming in hermes_items(db, reading):
            try:
                info = store.get_session(spec.id)
            except SessionNotFound:
                continue
            if info.source != PROVIDER_SOURCE:
                continue
            stored = store.messages(spec.id)
            keys = store.message_keys(m.id for m in stored)
            files = store.attachments(m.id for m in stored)
            merged = ordered_merge(stored, keys, incoming, files)
            if merged is None:
                continue
            # still the provider's (its later turns are merged the same way), with what
            # both know of it
            known = {**_hermes(spec.metadata), **_hermes(info.metadata)}
            rewrites.append(
                (replace(spec, source=PROVIDER_SOURCE, metadata={"hermes": known}), merged)
            )
            report.messages += len(merged) - len(stored)
            if info.ended_at is not None:
                ends[spec.id] = (info.ended_at, info.end_reason)
    if not rewrites:
        return report
    for result in store.import_sessions(rewrites, existing="replace"):
        report.sessions.append(result.session_id)
    for sid in report.sessions:  # Hermes's end, else the provider's: as they were
        ended_at, reason = reading.endings.get(sid) or ends.get(sid) or (None, None)
        if ended_at is not None:
            store.end_session(sid, str(reason or "ended"), ended_at=timestamp(ended_at))
    return report
