"""Who is writing: the actor (attended, unattended, MCP client), where from, in which session.

A :class:`WriteContext` travels with a session (``Memory.open(actor=..., origin=...)``):
the approval policy is chosen by actor, and every audit record names all three.

Actors:

- ``foreground``: a person is at the keyboard (CLI, an interactive agent turn).
- ``background``: an unattended writer (pre-compression flush, background review).
- ``mcp``: a client of the MCP server (a desktop assistant or an IDE agent).
- ``ui``: a person using the local web console (``mnemic ui``, origin ``ui``).

The origin is free text naming the surface: ``cli``, ``api``, ``flush``, ``review``,
``mcp:<client>``, ``approval`` (a person approving a pending write).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..control_chars import printable
from ..errors import InvalidArgument

__all__ = ["ACTORS", "SUBSYSTEMS", "WriteContext", "actor_for_origin", "new_session_id"]

ACTORS = ("foreground", "background", "mcp", "ui")
SUBSYSTEMS = ("memory", "skills")

_UNATTENDED_ORIGINS = ("flush", "review", "background", "background_review", "cron")


def actor_for_origin(origin: str | None) -> str:
    """The actor an origin implies: flush/review → background, ``mcp…`` → mcp, ``ui`` → ui,
    else foreground."""
    if not origin:
        return "foreground"
    if origin in _UNATTENDED_ORIGINS:
        return "background"
    if origin == "mcp" or origin.startswith("mcp:"):
        return "mcp"
    if origin == "ui":
        return "ui"
    return "foreground"


def new_session_id(now: float | None = None) -> str:
    """A fresh session id: UTC time to the second plus random hex (sorts by time)."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(time.time() if now is None else now))
    return f"{stamp}-{os.urandom(3).hex()}"


MAX_LABEL = 200
"""The longest origin or session id accepted."""


def _check_label(name: str, value: object, example: str) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        raise InvalidArgument(
            name, f"{name} must be a string (e.g. {example}), not {type(value).__name__}."
        )
    if len(value) > MAX_LABEL or printable(value, lines=False) != value:
        shown = repr(value[:40]) + ("..." if len(value) > 40 else "")
        why = (
            f"is {len(value)} characters long"
            if len(value) > MAX_LABEL
            else "holds a control character or a lone surrogate"
        )
        raise InvalidArgument(
            name,
            f"{name} {why} ({shown}): it must be printable text of at most "
            f"{MAX_LABEL} characters, e.g. {example}.",
        )


@dataclass(frozen=True, slots=True)
class WriteContext:
    """Actor, origin and session of the writes of one :class:`~mnemic.curated.Memory`."""

    actor: str = "foreground"
    origin: str = "api"
    session_id: str = ""

    @classmethod
    def make(
        cls,
        actor: str | None = None,
        origin: str | None = None,
        session_id: str | None = None,
    ) -> WriteContext:
        """Validate and fill defaults (actor from origin, origin ``api``, a new session id).

        ``origin`` and ``session_id`` go into every audit record and provenance entry and
        are shown by the CLI and the console: each must be printable text (no control
        characters, no lone surrogates) of at most 200 characters."""
        _check_label("origin", origin, "'cli' or 'mcp:my-editor'")
        _check_label("session_id", session_id, "a UUID")
        actor = actor or actor_for_origin(origin)
        if actor not in ACTORS:
            raise InvalidArgument(
                "actor", f"Unknown actor {actor!r}; use one of {', '.join(ACTORS)}."
            )
        origin = origin or ("api" if actor == "foreground" else actor)
        return cls(actor, origin, session_id or new_session_id())

    @property
    def attended(self) -> bool:
        """Whether a person is present (only foreground sessions can be asked inline)."""
        return self.actor == "foreground"
