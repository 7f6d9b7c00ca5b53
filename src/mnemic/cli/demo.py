"""``mnemic demo``: the story of :mod:`mnemic.demo`, told in a throwaway home."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import click

from ..demo import run_demo
from ..errors import MissingDependency
from ..extras import require_extra

__all__ = ["demo"]


@click.command(name="demo")
@click.option("--keep", is_flag=True, help="Keep the temporary home and print its path.")
def demo(keep: bool) -> None:
    """Two days of an agent with memory, against a local stand-in model (no network, no key)."""
    try:  # the agent talks to the stand-in model through the LLM client
        require_extra("agent", "mnemic demo")
    except MissingDependency as exc:
        raise click.ClickException(exc.to_llm()) from None

    root = Path(tempfile.mkdtemp(prefix="mnemic-demo-"))
    click.secho(f"mnemic demo: a throwaway home at {root}", bold=True)
    try:
        run_demo(root)
    finally:
        if keep:
            click.echo(f"\nThe demo home was kept: MNEMIC_HOME={root} mnemic memory show")
        else:
            shutil.rmtree(root, ignore_errors=True)
