"""``mnemic demo``: a guided walk through a session in a temporary home."""

from __future__ import annotations

import click

__all__ = ["demo"]


@click.command(name="demo")
def demo() -> None:
    """Walk through a session in a temporary home (being implemented)."""
    raise click.UsageError("not implemented yet")
