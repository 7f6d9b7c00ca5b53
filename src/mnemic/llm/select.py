"""Which chat client the ``[llm]`` settings ask for: ``api = "openai"`` or ``"anthropic"``.

``openai`` (the default) is any OpenAI-compatible endpoint (``base_url`` and ``model``
required); ``anthropic`` is the Anthropic Messages API (``model`` required, ``base_url``
optional: the SDK's default endpoint when empty). Every place that builds a client from
settings (``mnemic chat``, session summaries) goes through :func:`client_from_settings`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import LLMNotConfigured
from ..extras import require_extra
from .anthropic_client import AnthropicChatClient
from .client import StreamingChatClient
from .openai_client import OpenAIStreamingClient

if TYPE_CHECKING:
    from ..config import LLMSettings

__all__ = ["APIS", "client_from_settings", "extra_for", "missing_setting"]

APIS = ("openai", "anthropic")
"""The accepted values of ``[llm] api`` (``mnemic.config`` keeps its own copy; a test keeps
them equal)."""

_EXTRA = {"openai": "agent", "anthropic": "anthropic"}


def extra_for(api: str) -> str:
    """The extra whose packages the client for ``api`` needs (``agent``, ``anthropic``)."""
    return _EXTRA[api]


def missing_setting(settings: LLMSettings) -> str | None:
    """The ``[llm]`` key that must be set before a client can be built (None: none)."""
    if settings.api != "anthropic" and not settings.base_url:
        return "base_url"
    if not settings.model:
        return "model"
    return None


def client_from_settings(settings: LLMSettings, *, check_extra: str = "") -> StreamingChatClient:
    """The streaming chat client ``settings`` describe. Raises
    :class:`~mnemic.errors.LLMNotConfigured` when a required key is empty and, with
    ``check_extra`` (a feature name for the message), :class:`~mnemic.errors.MissingDependency`
    up front when the client's package is not installed."""
    missing = missing_setting(settings)
    if missing is not None:
        raise LLMNotConfigured(missing)
    if check_extra:
        require_extra(extra_for(settings.api), check_extra)
    if settings.api == "anthropic":
        return AnthropicChatClient.from_settings(settings)
    return OpenAIStreamingClient.from_settings(settings)
