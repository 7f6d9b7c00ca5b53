"""External memory providers: the interface, the manager, discovery and the built-ins.

* :class:`MemoryProvider` (:mod:`.base`): the hooks a provider may implement.
* :class:`ProviderManager` (:mod:`.manager`): one provider per session, time limits,
  failure isolation, secret scrubbing, tool routing.
* :func:`available_providers` / :func:`load_provider` (:mod:`.discovery`): the
  ``mnemic.providers`` entry point group.
* :class:`RecallProvider` (:mod:`.recall`): recall of past exchanges from session history.
* :func:`scrub_text` (:mod:`.scrub`): secret redaction of everything sent to a provider.

See ``docs/agent.md``. Names load lazily.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import MemoryProvider, is_trivial_prompt
    from .discovery import ENTRY_POINT_GROUP, ProviderEntry, available_providers, load_provider
    from .manager import RESERVED_TOOL_NAMES, DrainReport, ProviderManager, normalize_tool_spec
    from .recall import RecallProvider
    from .scrub import scrub_text, scrub_value

_EXPORTS = {
    "DrainReport": "manager",
    "ENTRY_POINT_GROUP": "discovery",
    "MemoryProvider": "base",
    "ProviderEntry": "discovery",
    "ProviderManager": "manager",
    "RESERVED_TOOL_NAMES": "manager",
    "RecallProvider": "recall",
    "available_providers": "discovery",
    "is_trivial_prompt": "base",
    "load_provider": "discovery",
    "normalize_tool_spec": "manager",
    "scrub_text": "scrub",
    "scrub_value": "scrub",
}

__all__ = [
    "ENTRY_POINT_GROUP",
    "RESERVED_TOOL_NAMES",
    "DrainReport",
    "MemoryProvider",
    "ProviderEntry",
    "ProviderManager",
    "RecallProvider",
    "available_providers",
    "is_trivial_prompt",
    "load_provider",
    "normalize_tool_spec",
    "scrub_text",
    "scrub_value",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemic.providers' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
