"""``mnemic sessions attachments``: the files the history's messages hold; ``--gc``."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..ops.attachments import attachment_listing, collect_attachments
from .app import AppContext, emit_json, handle_errors, pass_app, printable

__all__ = ["attachments_cmd", "size_text"]


def size_text(size: int) -> str:
    """``"1.2 MB"``, ``"532 B"``: a size for people."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:,.0f} {unit}" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1000
    return f"{size:,} B"  # pragma: no cover - the loop always returns


@click.command(name="attachments")
@click.argument("query", required=False)
@click.option("--session", "session_id", help="Only this session's attachments.")
@click.option("--limit", "-n", default=100, show_default=True, type=click.IntRange(1),
              help="Attachments to list.")  # fmt: skip
@click.option("--gc", "gc", is_flag=True,
              help="Delete the stored files no message holds any more.")  # fmt: skip
@click.option("--dry-run", is_flag=True, help="With --gc: only say what would go.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
@handle_errors
def attachments_cmd(
    app: AppContext,
    query: str | None,
    session_id: str | None,
    limit: int,
    gc: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """List the images and files imported messages hold; --gc deletes unused ones.

    Newest first; QUERY matches their name, media type or caption. With --gc, the
    stored files no message holds any more (forgotten, deleted or replaced sessions)
    are deleted; files younger than an hour may be an import in flight and stay."""
    if gc:
        done = collect_attachments(app.home, dry_run=dry_run)
        if as_json:
            emit_json(done)
            return
        verb = "Would remove" if dry_run else "Removed"
        click.echo(
            f"{verb} {len(done['removed'])} unused file(s), {size_text(done['freed_bytes'])}; "
            f"{done['kept']} in use, {done['too_young']} too recent to judge."
        )
        return
    found = attachment_listing(app.existing_home, session_id=session_id, query=query, limit=limit)
    if as_json:
        emit_json(found)
        return
    if not found:
        click.echo("No attachments." if not query else f"No attachment matches {query!r}.")
        return
    table = Table(box=None, header_style="bold")
    for col in ("session", "message", "name", "type", "size", "sha256", "caption"):
        table.add_column(col, no_wrap=col not in ("name", "caption"))
    for item in found:
        table.add_row(
            Text(printable(item["session_id"], lines=False)),
            f"#{item['message_id']}",
            Text(printable(item["name"], lines=False)),
            Text(printable(item["media_type"], lines=False)),
            size_text(int(item["size"])),
            item["sha256"][:12] + (" (missing)" if item["missing"] else ""),
            Text(printable(item.get("caption") or "", lines=False)),
        )
    Console(highlight=False, soft_wrap=False).print(table)
