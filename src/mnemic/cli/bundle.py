"""``mnemic export --bundle FILE`` and ``mnemic import --bundle FILE``: a whole home in one
file and back (:mod:`mnemic.ops.bundle`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..ops.bundle.export import BundleReport, export_bundle
from ..ops.bundle.restore import import_bundle
from .app import JSON_OPT, AppContext, emit_json, handle_errors, pass_app, printable
from .sessions import import_bar

__all__ = ["export_cmd", "export_to_bundle", "import_from_bundle"]

_KINDS = (
    ("targets", "memory file"),
    ("versions", "version"),
    ("audit_records", "audit record"),
    ("pending", "pending write"),
    ("projects", "project store"),
    ("sessions", "session"),
    ("messages", "message"),
    ("skill_files", "skill file"),
    ("vectors", "vector"),
)


def _summary(report: BundleReport) -> str:
    counts = report.counts
    parts = [f"{counts[k]:,} {what}{'' if counts[k] == 1 else 's'}" for k, what in _KINDS
             if counts.get(k)]  # fmt: skip
    return ", ".join(parts) or "an empty home"


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
    export_to_bundle(app, bundle, with_vectors, as_json)


def export_to_bundle(app: AppContext, bundle: str, with_vectors: bool, as_json: bool) -> None:
    """``mnemic export --bundle FILE [--with-vectors]`` (the export command calls it)."""
    report = export_bundle(app.existing_home, Path(bundle), with_vectors=with_vectors)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(printable(f"Wrote {report.path}: {_summary(report)}.", lines=False))


def import_from_bundle(app: AppContext, bundle: str, dry_run: bool, as_json: bool) -> None:
    """``mnemic import --bundle FILE [--dry-run]`` (the import group calls it)."""
    show_bar = not as_json and not dry_run and sys.stderr.isatty()
    with import_bar(show_bar) as update:
        report = import_bundle(app.home, Path(bundle), dry_run=dry_run, progress=update)
    if as_json:
        emit_json(report.as_dict())
        return
    verb = "Would import" if dry_run else "Imported"
    head = "Dry run: nothing was written. " if dry_run else ""
    made = f" (made {report.created} by mnemic {report.mnemic_version})"
    click.echo(printable(f"{head}{verb} {_summary(report)}{made}.", lines=False))
