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

The package needs the ``mcp`` SDK, which comes with the ``mcp`` extra
(``pip install 'mnemic[mcp]'``); without it, importing this package raises
:class:`~mnemic.errors.MissingDependency`, which says so. Nothing else imports it: the
CLI loads it only for ``mnemic mcp``. The names above load their modules (and the SDK,
about 2 s of CPU) on first use, so that ``python -m mnemic.mcp_server --help`` and its
option and configuration errors answer without them, as ``mnemic mcp``'s do.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..extras import require_extra

require_extra("mcp", "The MCP server (mnemic mcp)")

if TYPE_CHECKING:
    from .http import build_http_app, is_loopback, serve_http
    from .server import MnemicMCP, serve_stdio

__all__ = ["MnemicMCP", "build_http_app", "is_loopback", "serve_http", "serve_stdio"]

_MODULE_OF = {
    "MnemicMCP": "server",
    "serve_stdio": "server",
    "build_http_app": "http",
    "is_loopback": "http",
    "serve_http": "http",
}


def __getattr__(name: str) -> Any:
    """``MnemicMCP`` and the others, imported from their module on first use."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
