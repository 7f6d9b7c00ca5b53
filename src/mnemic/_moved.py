"""Names a package serves from elsewhere: names that moved to another module (the old
import keeps working for a while, with a :class:`DeprecationWarning` that names the new
one), and public names imported on first use (:func:`first_use`).

A package lists its moved names (name -> the module that now exports it) and hands
unknown attributes to :func:`moved` from its module ``__getattr__``::

    _MOVED = {"BudgetExceeded": "mnemic.errors", ...}

    def __getattr__(name: str) -> object:
        return moved(__name__, _MOVED, name)
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Mapping, MutableMapping
from typing import Any

__all__ = ["first_use", "moved"]


def moved(package: str, table: Mapping[str, str], name: str) -> object:
    """``name`` from the module ``table`` gives for it, after a :class:`DeprecationWarning`
    naming that import; ``AttributeError`` for a name the table does not list."""
    new = table.get(name)
    if new is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    warnings.warn(
        f"{package}.{name} has moved: use `from {new} import {name}` "
        f"(the old name will be removed)",
        DeprecationWarning,
        stacklevel=3,  # the code that asked for the old name, past the module __getattr__
    )
    value: object = getattr(importlib.import_module(new), name)
    return value


def first_use(
    package: str,
    table: Mapping[str, tuple[str, str]],
    name: str,
    namespace: MutableMapping[str, Any],
) -> Any:
    """``name`` imported from the submodule of ``package`` that ``table`` gives for it
    (``name -> (module, attribute)``) and kept in ``namespace`` (the package's globals), so
    the next access is a plain lookup; ``AttributeError`` for a name the table does not
    list. A package whose wings cost to import serves its public names this way::

        def __getattr__(name: str) -> Any:
            return first_use(__name__, _LAZY, name, globals())
    """
    lazy = table.get(name)
    if lazy is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{package}.{lazy[0]}"), lazy[1])
    namespace[name] = value
    return value
