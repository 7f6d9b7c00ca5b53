"""External memory providers: the interface, the manager, discovery and the built-ins.

* :class:`MemoryProvider` (:mod:`.base`): the hooks a provider may implement.
* :class:`ProviderManager` (:mod:`.manager`): one provider per session, time limits,
  failure isolation, secret scrubbing, tool routing.
* :func:`available_providers` / :func:`load_provider` (:mod:`.discovery`): the
  ``mnemic.providers`` entry point group.
* :class:`RecallProvider` (:mod:`.recall`): recall of past exchanges from session history.
* :func:`scrub_text` (:mod:`.scrub`): secret redaction of everything sent to a provider.

See ``docs/agent.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._moved import first_use

if TYPE_CHECKING:
    from .base import MemoryProvider, is_trivial_prompt
    from .discovery import ENTRY_POINT_GROUP, ProviderEntry, available_providers, load_provider
    from .manager import RESERVED_TOOL_NAMES, DrainReport, ProviderManager, normalize_tool_spec
    from .recall import RecallProvider
    from .scrub import scrub_text, scrub_value

__all__ = [
    "DrainReport",
    "ENTRY_POINT_GROUP",
    "MemoryProvider",
    "ProviderEntry",
    "ProviderManager",
    "RESERVED_TOOL_NAMES",
    "RecallProvider",
    "available_providers",
    "is_trivial_prompt",
    "load_provider",
    "normalize_tool_spec",
    "scrub_text",
    "scrub_value",
]

_LAZY = {
    "DrainReport": ("manager", "DrainReport"),
    "ENTRY_POINT_GROUP": ("discovery", "ENTRY_POINT_GROUP"),
    "MemoryProvider": ("base", "MemoryProvider"),
    "ProviderEntry": ("discovery", "ProviderEntry"),
    "ProviderManager": ("manager", "ProviderManager"),
    "RESERVED_TOOL_NAMES": ("manager", "RESERVED_TOOL_NAMES"),
    "RecallProvider": ("recall", "RecallProvider"),
    "available_providers": ("discovery", "available_providers"),
    "is_trivial_prompt": ("base", "is_trivial_prompt"),
    "load_provider": ("discovery", "load_provider"),
    "normalize_tool_spec": ("manager", "normalize_tool_spec"),
    "scrub_text": ("scrub", "scrub_text"),
    "scrub_value": ("scrub", "scrub_value"),
}
"""Where each name of :data:`__all__` lives (module of this package, name there), imported
on first use: a session without a provider (``mnemic prompt``, the hooks) must not load
:mod:`.recall` and the session search under it (about 0.09 s of CPU)."""


def __getattr__(name: str) -> Any:
    return first_use(__name__, _LAZY, name, globals())
