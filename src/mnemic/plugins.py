"""Plugins: objects that packages register by name in an entry-point group.

mnemic has two groups: ``mnemic.backends`` (store backends by URL scheme, read by
:mod:`mnemic.registry`) and ``mnemic.providers`` (memory providers, read by
:mod:`mnemic.providers.discovery`). Each keeps a table of its built-ins, ``name ->
"module:attribute"``, so that loading one of them never reads the installed metadata
(slow, and a source checkout's may be stale). Nothing here is imported before it is
needed: the registry is on the cold path of ``render_snapshot``, where loading a
built-in must not pay for :mod:`importlib.metadata`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only; importlib.metadata costs milliseconds at import
    from importlib.metadata import EntryPoint

__all__ = ["entry_points", "load_entry_point", "load_reference"]


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points installed packages declare in ``group`` (nothing is imported)."""
    # Here, not at the top: only a plugin's name needs the installed metadata.
    from importlib.metadata import entry_points as installed

    return list(installed(group=group))


def load_reference(reference: str) -> Any:
    """Import ``module:attribute`` and return the object: an entry point's value (the
    attribute may be dotted; ``[extras]`` after it are ignored, as by the installer)."""
    module, _, attribute = reference.split("[", 1)[0].partition(":")
    found: Any = importlib.import_module(module.strip())
    for part in attribute.strip().split("."):
        if part:
            found = getattr(found, part)
    return found


def load_entry_point(group: str, name: str, builtin: Mapping[str, str]) -> Any:
    """The object registered as ``name``: from the ``builtin`` table when it is there
    (no metadata read), else from the first entry point of that name in ``group``.

    Raises :class:`LookupError` when neither has it; an import failure propagates.
    """
    reference = builtin.get(name)
    if reference is None:
        found = next((ep for ep in entry_points(group) if ep.name == name), None)
        if found is None:
            raise LookupError(f"nothing is registered as {name!r} in {group!r}")
        reference = found.value
    return load_reference(reference)
