"""The MCP server: mnemic's memory, session search and skills for any MCP client.

A thin shell over the library, built on the official ``mcp`` SDK (its low-level
``Server``, so that every tool advertises exactly the library's JSON schema):

- tools ``memory``, ``session_search``, ``skills_list``, ``skill_view`` and
  ``skill_manage``, with the library's descriptions, schemas and responses;
- resources ``mnemic://memory``, ``mnemic://user`` and ``mnemic://skills`` (the
  frozen MEMORY and USER PROFILE blocks and the skills index) and
  ``mnemic://skills/{name}`` (a skill's SKILL.md);
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

from ..extras import require_extra

require_extra("mcp", "The MCP server (mnemic mcp)")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .http import build_http_app, is_loopback, serve_http
    from .server import MnemicMCP, serve_stdio

_EXPORTS = {
    "MnemicMCP": "server",
    "build_http_app": "http",
    "is_loopback": "http",
    "serve_http": "http",
    "serve_stdio": "server",
}

__all__ = ["MnemicMCP", "build_http_app", "is_loopback", "serve_http", "serve_stdio"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemic.mcp_server' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
