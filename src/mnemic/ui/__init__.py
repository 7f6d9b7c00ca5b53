"""The local web console (``mnemic ui``): see, review and correct what the agent remembers.

Server-rendered pages over the same library calls as the CLI (memory, the pending
queue, the audit journal, sessions, skills, the prompt builder), served by mnemic itself
on starlette + uvicorn (the ``ui`` extra). Loopback by default; anything else needs a
token. Every form carries a CSRF token, Host and Origin are checked, every response has
a strict CSP. Writes are made as their own actor, ``ui`` (``[approval] memory_ui``).

- :mod:`.serve`: :func:`serve_ui` (bind, print the address, serve);
- :mod:`.app`: :func:`build_app` (the routes); :mod:`.console`: the page wrapper, the live version;
- :mod:`.security`: Host/Origin/token checks, CSRF, response headers;
- :mod:`.render`: templates (autoescaped), diffs, highlighting, the SVG chart;
- :mod:`.memory`, :mod:`.governance`, :mod:`.sessions`, :mod:`.skills`: the pages.
"""

from __future__ import annotations

__all__: list[str] = []
