"""The one lazy-export helper, for the packages on the cold path only.

``import mnemic`` and :func:`mnemic.render_snapshot` run at the start of every agent
hook and CLI call, so the root package, :mod:`mnemic.curated` and
:mod:`mnemic.mcp_server` (imported by every CLI start; the MCP SDK is slow to import)
import their public names on first use. Every other package imports normally. A package
using it keeps one table (name -> defining module) and derives its ``__all__`` from it::

    _EXPORTS = {"Memory": "mnemic.curated.memory", ...}
    __all__ = sorted(_EXPORTS)

    def __getattr__(name: str) -> object:
        return load(__name__, _EXPORTS, name, globals())

A test checks that the ``TYPE_CHECKING`` imports (what type checkers and IDEs see)
name the same table.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, MutableMapping

__all__ = ["load"]


def load(
    package: str, table: Mapping[str, str], name: str, namespace: MutableMapping[str, object]
) -> object:
    """Import ``name`` from the module ``table`` gives for it, cache it in the package's
    ``namespace`` and return it; ``AttributeError`` for a name the table does not list."""
    module = table.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    import importlib

    value: object = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value
