"""The :class:`MemoryProvider` interface: what an external memory system plugs into.

mnemic's own stores (curated memory, session history, skills) are not providers; a
provider adds one more source of memory beside them, such as a hosted user-modelling
service or a local fact store. At most one provider is active in a session (see
:class:`~mnemic.providers.manager.ProviderManager`), chosen by ``[agent] provider``.

Every hook has a harmless default, so a provider implements only what it needs. The
session calls the hooks at fixed moments:

=========================  ==============================================================
hook                       when
=========================  ==============================================================
``initialize``             once when the session starts (connect, create resources)
``system_prompt_block``    once per system-prompt build; the text is frozen with the prompt
``on_turn_start``          at the start of each user turn, before ``prefetch``
``prefetch``               at the start of each user turn: recall for this message, fast
``queue_prefetch``         after each turn (background): warm recall for the next one
``sync_turn``              after each turn (background, in order): keep the exchange
``on_memory_write``        after a committed write of the curated memory (background)
``on_pre_compress``        before the conversation's middle is summarised
``on_session_switch``      when the session id changes (compression, ``/new``)
``on_session_end``         at a real session boundary (exit, ``/new``)
``tool_specs`` /           the provider's own tools (names must not clash with mnemic's)
``handle_tool_call``
``shutdown``               when the session closes, after queued work drained
=========================  ==============================================================

Everything a provider receives has passed :func:`~mnemic.providers.scrub.scrub_text` first
(API keys, tokens, passwords redacted). Every call is time-limited and its failures are
logged and contained: a provider can never fail the user's turn.

Packaging: expose a zero-argument-compatible factory (usually the class itself, called
with the keyword ``home``) under the ``mnemic.providers`` entry point group::

    [project.entry-points."mnemic.providers"]
    myprovider = "my_package.provider:MyProvider"
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import UnknownTool

if TYPE_CHECKING:
    from ..home import Home
    from ..tooling import ToolSpec

__all__ = ["MemoryProvider", "is_trivial_prompt"]

_TRIVIAL = re.compile(
    r"^\s*(?:/\S.*|ok(?:ay)?|k|thanks?|thank you|thx|ty|hi|hello|hey|yes|no|yep|nope|sure|"
    r"cool|nice|great|lgtm|done|continue|go on|go ahead)?\s*[.!?]*\s*$",
    re.IGNORECASE,
)


def is_trivial_prompt(text: str) -> bool:
    """Whether a user message is too slight to recall anything for ("ok", "thanks", a
    slash command, an empty line)."""
    return bool(_TRIVIAL.match(text or ""))


class MemoryProvider:
    """Base class of memory providers; every hook is a no-op until overridden.

    Subclasses set :attr:`name` and usually accept ``home`` in ``__init__`` (the
    factory is called as ``factory(home=home)``).
    """

    name: str = "provider"
    """Short identifier, also the name used in ``[agent] provider``."""
    description: str = ""
    """One line for ``mnemic provider list``."""
    keeps_memory: bool = False
    """True for a provider that keeps what the user says on its own (its
    :meth:`sync_turn` extracts facts, say): a reply promising to remember is then honest
    without a memory call, and mnemic's claimed-save nudge (``[agent] save_nudge``) stays
    quiet while the provider is active."""

    def __init__(self, home: Home | None = None) -> None:
        self.home = home

    # --- availability -------------------------------------------------------------------
    def is_available(self) -> bool:
        """Whether the provider can run here (settings, packages). Must not use the network."""
        return True

    def unavailable_reason(self) -> str:
        """Why :meth:`is_available` is false (shown by ``mnemic provider status``)."""
        return ""

    def status(self) -> dict[str, Any]:
        """Facts for ``mnemic provider status`` (counts, locations); JSON-able."""
        return {}

    # --- session lifecycle ----------------------------------------------------------------
    def initialize(self, session_id: str, **context: Any) -> None:
        """Start of a session. ``context`` holds ``home``, ``platform``, ``source`` and
        ``agent_context`` (``primary``; ``flush``/``review`` sessions never initialise
        providers; ``preview`` for ``mnemic prompt``, which must not write)."""

    def system_prompt_block(self) -> str:
        """Static text for the system prompt (instructions, status); '' for none."""
        return ""

    def on_turn_start(self, turn_number: int, message: str, **context: Any) -> None:
        """Start of user turn ``turn_number`` (1-based) with the user's message."""

    def prefetch(self, query: str, *, session_id: str) -> str:
        """Recall for this user message, attached to it as recalled context ('' for none).

        Must be fast: serve what :meth:`queue_prefetch` prepared when possible. A call
        that overruns ``agent.provider_timeout`` is abandoned for this turn.
        """
        return ""

    def queue_prefetch(self, query: str, *, session_id: str) -> None:
        """After a turn: prepare recall for the next one (runs in the background)."""

    def sync_turn(
        self,
        user: str,
        assistant: str,
        *,
        session_id: str,
        messages: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """After a completed turn: keep the exchange (runs in the background, in order).

        ``messages`` is the turn's messages in the OpenAI format, tool calls included.
        """

    def on_memory_write(
        self,
        action: str,
        target: str,
        content: str,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        """After a committed write of curated memory (``add``/``replace``/``remove``,
        target ``memory``/``user``); ``metadata`` has ``origin``, ``session_id`` and,
        for replace and remove, ``previous``."""

    def on_pre_compress(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """Before the older ``messages`` are summarised. Returned text (notes worth
        keeping) is given to the summariser."""
        return ""

    def on_session_switch(
        self,
        new_session_id: str,
        *,
        parent_session_id: str = "",
        reset: bool = False,
        **context: Any,
    ) -> None:
        """The session id changed: a compression continues the conversation under a
        child id (``reset=False``); ``/new`` starts a new one (``reset=True``)."""

    def on_session_end(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """A real session boundary (exit, ``/new``), with the conversation's messages."""

    # --- tools ----------------------------------------------------------------------------
    def tool_specs(self) -> list[ToolSpec]:
        """The provider's own tools (names must not clash with mnemic's tools)."""
        return []

    def handle_tool_call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any] | str:
        """Run one of :meth:`tool_specs`; return a JSON-able dict or a JSON string."""
        raise UnknownTool(name, [t.name for t in self.tool_specs()])

    # --- teardown ---------------------------------------------------------------------------
    def shutdown(self) -> None:
        """The session is closing (queued work has drained or was abandoned)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
