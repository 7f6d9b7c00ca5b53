"""``mnemic scan``: run the threat scanner over a file, stdin or JSON lines."""

from __future__ import annotations

import click

__all__ = ["scan"]


@click.command(name="scan")
def scan() -> None:
    """Scan text for threats (being implemented)."""
    raise click.UsageError("not implemented yet")
