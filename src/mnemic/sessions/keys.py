"""What identifies a message across imports, the same in every backend and importer.

An import adds a message to a session only when the session does not hold it yet, and
forgetting leaves tombstones an import reads: both need a name for a message that does not
depend on where it is stored. That is its key in the file it came from (``source_id``),
or, for a file without message ids, its position and :func:`fingerprint`
(:func:`position_key`); :func:`opaque_hash` names what a store keeps about its inputs
(tombstones, import marks) without keeping their text.
"""

from __future__ import annotations

import hashlib

from ..errors import InvalidArgument
from .store import ROLES, NewMessage

__all__ = [
    "ROLE_ALIASES",
    "fingerprint",
    "message_fingerprint",
    "normalize_role",
    "opaque_hash",
    "position_key",
    "stored_fields",
]

ROLE_ALIASES = {"developer": "system", "function": "tool", "human": "user", "ai": "assistant"}


def normalize_role(role: str) -> str:
    """The stored role of ``role`` (aliases folded); :class:`InvalidArgument` if unknown."""
    role = ROLE_ALIASES.get(role, role)
    if role not in ROLES:
        raise InvalidArgument(
            "role", f"Unknown message role {role!r}; use one of {', '.join(ROLES)}."
        )
    return role


def stored_fields(
    msg: NewMessage,
) -> tuple[str, str | None, str | None, str | None, str | None, str | None]:
    """``(role, content, name, tool_name, tool_calls, tool_call_id)`` of a message as
    stored (role aliases folded, ``tool_calls`` as JSON text): what :func:`fingerprint`
    hashes."""
    return (
        normalize_role(msg.role),
        msg.content,
        msg.name,
        msg.tool_name,
        msg.tool_calls_json(),
        msg.tool_call_id,
    )


def fingerprint(
    role: str,
    content: str | None,
    name: str | None,
    tool_name: str | None,
    tool_calls: str | None,
    tool_call_id: str | None,
) -> str:
    """A short hash of a message's stored fields (its role stored form, ``tool_calls`` as
    stored JSON text); timestamps are left out, so a re-read of the same line matches.
    Stored in position keys: it never changes between versions."""
    data = "|".join(
        "-" if p is None else f"{len(p)}:{p}"
        for p in (role, content, name, tool_name, tool_calls, tool_call_id)
    )
    return hashlib.blake2b(data.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def opaque_hash(kind: str, *parts: str) -> str:
    """A 32-hex-digit hash of ``parts`` for ``kind`` (``scope``, ``forgotten``,
    ``import``, ``position``): BLAKE2b over the length-prefixed parts, personalised per
    kind. What a store keeps about its inputs without keeping their text."""
    data = "".join(f"{len(p)}:{p}" for p in parts).encode("utf-8", "surrogatepass")
    person = f"mnemic-{kind}"[:16].encode()
    return hashlib.blake2b(data, digest_size=16, person=person).hexdigest()


def message_fingerprint(msg: NewMessage) -> str:
    """:func:`fingerprint` of a message about to be stored."""
    return fingerprint(*stored_fields(msg))


def position_key(position: int, msg: NewMessage) -> str:
    """The key of a message from a source without message ids: its position among the
    imported messages of its session, and its :func:`message_fingerprint`
    (``"12:3f9a1c0b7d2e4a61"``)."""
    return f"{position}:{message_fingerprint(msg)}"
