"""``mnemic export --bundle FILE``: the whole home in one file (:mod:`mnemic.ops.bundle`;
``mnemic import --bundle FILE`` is an option of the import group)."""

from __future__ import annotations

from pathlib import Path

import click

from ..ops.bundle.export import export_bundle
from .app import JSON_OPT, AppContext, emit_json, handle_errors, pass_app, printable

__all__ = ["export_cmd"]


@click.command(name="export")
@click.option(
    "--bundle",
    "bundle",
    required=True,
    type=click.Path(dir_okay=False),
    help="Write the whole home to this file (a portable bundle).",
)
@click.option("--with-vectors", is_flag=True, help="Carry the session vectors too.")
@JSON_OPT
@pass_app
@handle_errors
def export_cmd(app: AppContext, bundle: str, with_vectors: bool, as_json: bool) -> None:
    """Write the whole home to one portable file (mnemic import --bundle reads it).

    \b
    It carries memory (global and every project store, with history, provenance and
    the archive), the audit journals, pending writes, sessions with their tool calls,
    skills, and with --with-vectors the session vectors. It holds everything the home
    holds: keep it as private as the home. See docs/bundles.md.
    """
    report = export_bundle(app.existing_home, Path(bundle), with_vectors=with_vectors)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(printable(f"Wrote {report.path}: {report.summary()}.", lines=False))
