"""``mnemic scan``: run the threat scanner over a file, stdin or JSON lines."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click

from . import emit_json, fail, handle_errors

__all__ = ["scan"]


def _configured_level() -> str:
    """``[scan] level`` of the current home's config.toml, without creating the home."""
    from ..config import load_settings
    from ..home import home_dir

    try:
        return load_settings(home_dir(None, None, None)).scan.level
    except OSError:
        return "balanced"


def _read(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    with open(source, "rb") as fh:
        return fh.read()


def _usage_error(message: str) -> NoReturn:
    fail(message, 2)
    raise SystemExit(2)  # fail() already exited; this line is for the type checker


def _decode(data: bytes, source: str, encoding: str = "utf-8") -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        where = "stdin" if source == "-" else source
        _usage_error(f"{where} is not valid UTF-8 (byte {exc.start}); nothing was scanned.")


def _parse_jsonl(text: str) -> list[tuple[int, str]]:
    """``(line number, text)`` for each non-blank input line; exit 2 on a malformed line."""
    items: list[tuple[int, str]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj: Any = json.loads(line)
        except json.JSONDecodeError as exc:
            _usage_error(f'line {lineno}: not valid JSON ({exc.msg}); expected {{"text": "..."}}.')
        if not isinstance(obj, dict) or "text" not in obj:
            _usage_error(f'line {lineno}: expected a JSON object with a "text" field.')
        if not isinstance(obj["text"], str):
            kind = type(obj["text"]).__name__
            _usage_error(f'line {lineno}: "text" must be a string, not {kind}.')
        items.append((lineno, obj["text"]))
    return items


@click.command(name="scan")
@click.argument(
    "source",
    metavar="[FILE|-]",
    required=False,
    default="-",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True),
)
@click.option(
    "--jsonl",
    is_flag=True,
    help='Input is JSON lines {"text": ...}; print one {"blocked", "findings"} line each.',
)
@click.option(
    "--scope",
    type=click.Choice(["strict", "memory", "skill", "context"]),
    default="strict",
    show_default=True,
    help="memory (or strict, its old name): memory entries; skill: SKILL.md text; "
    "context: AGENTS.md-style context files.",
)
@click.option(
    "--level",
    type=click.Choice(["strict", "balanced", "lenient"]),
    default=None,
    help="Sensitivity (default: [scan] level of the home's config.toml, else balanced).",
)
@click.option(
    "--explain",
    "explain_",
    is_flag=True,
    help="For each finding, print the layer that found it and its evidence (rule id, "
    "classifier score and threshold, decoded text), and how to rephrase an honest note.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@handle_errors
def scan(
    source: str, jsonl: bool, scope: str, level: str | None, explain_: bool, as_json: bool
) -> None:
    """Scan FILE (or stdin) for prompt injection, exfiltration, secrets and hidden text.

    \b
    Exit status: 0 nothing found, 1 something blocked, 2 usage error.
    With --jsonl every input line is {"text": "..."} (blank lines are skipped) and every
    output line is {"blocked": true|false, "findings": [{"id": ..., "category": ...}]};
    --json is implied.
    """
    from ..scan import explain, explain_result, scan_text

    level = level or _configured_level()
    data = _read(source)
    if jsonl:
        items = _parse_jsonl(_decode(data, source, "utf-8-sig"))
        any_blocked = False
        for _, text in items:
            result = scan_text(text, scope, level)
            any_blocked = any_blocked or result.blocked
            findings = [{"id": f.id, "category": f.category} for f in result.findings]
            click.echo(json.dumps({"blocked": result.blocked, "findings": findings}))
        raise SystemExit(1 if any_blocked else 0)

    text = _decode(data, source)
    result = scan_text(text, scope, level)
    if as_json:
        described: list[dict[str, str]] = []
        for f in result.findings:
            item = {"id": f.id, "category": f.category, "why": explain(f)}
            if explain_:
                item.update(layer=f.layer, detail=f.detail)
            described.append(item)
        emit_json(
            {
                "blocked": result.blocked,
                "scope": scope,
                "level": level,
                "chars": len(text),
                "findings": described,
            }
        )
    elif explain_:
        click.echo(explain_result(result, scope=scope, level=level))
    elif not result.blocked:
        click.echo(f"clean: no threat found ({len(text):,} chars, scope {scope})")
    else:
        n = len(result.findings)
        click.echo(
            f"BLOCKED: {n} finding{'s' if n != 1 else ''} ({len(text):,} chars, scope {scope})"
        )
        width = max(len(f.id) for f in result.findings)
        cat_width = max(len(f.category) for f in result.findings)
        for f in result.findings:
            click.echo(f"  {f.id:<{width}}  {f.category:<{cat_width}}  {explain(f)}")
    raise SystemExit(1 if result.blocked else 0)
