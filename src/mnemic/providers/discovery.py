"""Finding memory providers: the ``mnemic.providers`` entry point group.

A package offers a provider by naming a factory (usually a
:class:`~mnemic.providers.base.MemoryProvider` subclass) in its metadata::

    [project.entry-points."mnemic.providers"]
    myprovider = "my_package.provider:MyProvider"

mnemic's built-in providers are registered the same way in its own ``pyproject.toml``.
Nothing is imported until a provider is asked for by name: :func:`available_providers`
reads only the metadata, :func:`load_provider` imports one module.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ProviderError, ProviderNotFound
from ..plugins import entry_points, load_reference
from .base import MemoryProvider

if TYPE_CHECKING:
    from ..home import Home

__all__ = ["ENTRY_POINT_GROUP", "ProviderEntry", "available_providers", "load_provider"]

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "mnemic.providers"

_BUILTIN = {"recall": "mnemic.providers.recall:RecallProvider"}
"""Built-ins as declared in pyproject.toml; used only when the installed metadata lacks
them (a source checkout whose metadata predates them)."""


@dataclass(frozen=True, slots=True)
class ProviderEntry:
    """A provider that can be loaded by name."""

    name: str
    value: str
    """``module:attribute`` of the factory."""
    distribution: str
    """The package that registered it (``mnemic`` for built-ins)."""

    @property
    def builtin(self) -> bool:
        """Whether mnemic itself ships this provider."""
        return self.distribution == "mnemic"

    def load(self) -> Any:
        """Import and return the factory."""
        return load_reference(self.value)


def available_providers() -> dict[str, ProviderEntry]:
    """Every registered provider by name (metadata only; nothing is imported)."""
    found: dict[str, ProviderEntry] = {}
    for ep in entry_points(ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        dist_name = getattr(dist, "name", None) or "unknown"
        if ep.name in found:
            log.warning(
                "memory provider %r is registered twice (%s and %s); the first is used",
                ep.name,
                found[ep.name].distribution,
                dist_name,
            )
            continue
        found[ep.name] = ProviderEntry(ep.name, ep.value, dist_name)
    for name, value in _BUILTIN.items():
        found.setdefault(name, ProviderEntry(name, value, "mnemic"))
    return dict(sorted(found.items()))


def load_provider(name: str, home: Home | None = None) -> MemoryProvider:
    """Import the provider registered as ``name`` and build it for ``home``.

    Raises :class:`~mnemic.errors.ProviderNotFound` for an unknown name and
    :class:`~mnemic.errors.ProviderError` when it cannot be imported or built.
    """
    entries = available_providers()
    entry = entries.get(name)
    if entry is None:
        raise ProviderNotFound(name, list(entries))
    try:
        factory = entry.load()
        provider = factory(home=home)
    except Exception as exc:
        raise ProviderError(
            name, f"The memory provider {name!r} ({entry.value}) could not be loaded: {exc}"
        ) from exc
    if not isinstance(provider, MemoryProvider):
        raise ProviderError(
            name,
            f"The memory provider {name!r} ({entry.value}) did not return a MemoryProvider.",
        )
    return provider
