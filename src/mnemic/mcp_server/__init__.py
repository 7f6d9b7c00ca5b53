"""The MCP server: mnemic's memory, session search and skills for any MCP client.

A thin shell over the library, built on the official ``mcp`` SDK (its low-level
``Server``, so that every tool advertises exactly the library's JSON schema):

- tools ``memory``, ``session_search``, ``skills_list``, ``skill_view`` and
  ``skill_manage``, with the library's descriptions, schemas and responses;
- resources ``mnemic://memory``, ``mnemic://user`` and ``mnemic://skills`` (the
  frozen MEMORY and USER PROFILE blocks and the skills index),
  ``mnemic://memory/long`` and ``mnemic://user/long`` (the live entries with their
  provenance, as JSON) and ``mnemic://skills/{name}`` (a skill's SKILL.md);
- a prompt ``memory_context`` (the frozen snapshot, for clients that inject prompts).

Writes go through the approval policy of the ``mcp`` actor (``[approval] memory_mcp``,
``skills_mcp``) and into the audit journal with the origin ``mcp:<client name>``.

Run it with ``mnemic mcp`` (stdio), ``mnemic mcp --http`` (streamable HTTP) or
``python -m mnemic.mcp_server``. From Python::

    from mnemic.home import Home
    from mnemic.mcp_server import MnemicMCP, serve_stdio

    serve_stdio(MnemicMCP(Home.open()))

The ``mcp`` SDK is imported only by the submodules, never by ``import mnemic``. It comes
with the ``mcp`` extra (``pip install 'mnemic[mcp]'``); without it, importing this package
raises :class:`~mnemic.errors.MissingDependency`, which says so.
"""

from __future__ import annotations

from .._lazy import load
from ..extras import require_extra

require_extra("mcp", "The MCP server (mnemic mcp)")

# Lazy: the CLI imports this package on every start, and the SDK costs ~100 ms to import.
_EXPORTS = {
    "MnemicMCP": "mnemic.mcp_server.server",
    "build_http_app": "mnemic.mcp_server.http",
    "is_loopback": "mnemic.mcp_server.http",
    "serve_http": "mnemic.mcp_server.http",
    "serve_stdio": "mnemic.mcp_server.server",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    return load(__name__, _EXPORTS, name, globals())


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs (explicit re-exports)
    from .http import (
        build_http_app as build_http_app,
        is_loopback as is_loopback,
        serve_http as serve_http,
    )
    from .server import MnemicMCP as MnemicMCP, serve_stdio as serve_stdio
