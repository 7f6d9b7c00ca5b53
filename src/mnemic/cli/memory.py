"""``mnemic memory``: inspect and edit MEMORY.md and USER.md."""

from __future__ import annotations

import click

__all__ = ["memory"]


@click.group(name="memory")
def memory() -> None:
    """Inspect and edit the curated memory (being implemented)."""
