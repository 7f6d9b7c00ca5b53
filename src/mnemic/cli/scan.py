"""``mnemic scan``: run the threat scanner over a file, stdin or JSON lines."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from typing import IO, Any, NoReturn

import click

from ..config import load_settings
from ..home import home_dir
from ..jsonstream import read_jsonl
from ..scan import Finding, explain, explain_result, scan_text
from .app import emit_json, fail, handle_errors

__all__ = ["scan"]


def _configured_level() -> str:
    """``[scan] level`` of the current home's config.toml, without creating the home."""
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


def _jsonl_texts(stream: IO[bytes]) -> Iterator[tuple[int, str | None, str | None]]:
    """``(line number, text, None)`` for each usable input line and ``(line number, None,
    what is wrong)`` for each malformed one (blank lines skipped; lines split on ``\n``
    only, so U+2028 and the like inside a JSON string are text)."""
    for line in read_jsonl(stream):
        obj: Any = line.value
        if line.error is not None:
            expected = ' expected {"text": "..."}' if line.error == "not valid JSON" else ""
            yield line.number, None, f"{line.problem};{expected}".rstrip(";")
        elif line.cut:  # only part of its text was read: a verdict on it would mislead
            yield line.number, None, "too long to scan as a line; scan its text as a file"
        elif not isinstance(obj, dict) or "text" not in obj:
            yield line.number, None, 'expected a JSON object with a "text" field'
        elif not isinstance(obj["text"], str):
            yield line.number, None, f'"text" must be a string, not {type(obj["text"]).__name__}'
        else:
            yield line.number, obj["text"], None


def _scan_jsonl(source: str, scope: str, level: str, strict: bool) -> NoReturn:
    """Print one verdict line per input line; exit 1 if any is blocked, else 2 if a line
    was malformed, else 0. ``strict``: the first malformed line stops everything (exit 2,
    nothing printed)."""
    if strict:
        data = _read(source)
        for number, _, problem in _jsonl_texts(io.BytesIO(data)):
            if problem is not None:
                _usage_error(f"line {number}: {problem}; nothing was scanned (--strict).")
        stream: IO[bytes] = io.BytesIO(data)
    else:
        stream = sys.stdin.buffer if source == "-" else open(source, "rb")  # noqa: SIM115
    any_blocked = any_bad = False
    with stream:
        for number, text, problem in _jsonl_texts(stream):
            if text is None:
                any_bad = True
                click.echo(f"line {number}: {problem}; skipped.", err=True)
                click.echo(json.dumps({"line": number, "error": problem}))
                continue
            result = scan_text(text, scope, level)
            any_blocked = any_blocked or result.blocked
            findings = [{"id": f.id, "category": f.category} for f in result.findings]
            click.echo(json.dumps({"blocked": result.blocked, "findings": findings}))
    raise SystemExit(1 if any_blocked else 2 if any_bad else 0)


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
    default="memory",
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
@click.option(
    "--strict",
    is_flag=True,
    help="With --jsonl: the first malformed line stops the scan (exit 2, nothing printed).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@handle_errors
def scan(
    source: str,
    jsonl: bool,
    scope: str,
    level: str | None,
    explain_: bool,
    strict: bool,
    as_json: bool,
) -> None:
    """Scan FILE (or stdin) for prompt injection, exfiltration, secrets and hidden text.

    \b
    Exit status: 0 nothing found (or held for approval), 1 something blocked, 2 usage
    error.
    With --jsonl every input line is {"text": "..."} (blank lines are skipped) and every
    output line is {"blocked": true|false, "findings": [{"id": ..., "category": ...}]};
    --json is implied. A malformed line gets {"line": N, "error": "..."} (also on
    stderr), the other lines are still scanned, and the exit status is 2 unless
    something was blocked; --strict stops at the first malformed line instead.
    """
    level = level or _configured_level()
    if jsonl:
        _scan_jsonl(source, scope, level, strict)
    data = _read(source)
    text = _decode(data, source)
    result = scan_text(text, scope, level)
    if as_json:
        emit_json(
            {
                "blocked": result.blocked,
                "verdict": result.verdict,
                "scope": scope,
                "level": level,
                "chars": len(text),
                "findings": [_described(f, explain_) for f in result.findings],
                "holds": [_described(f, explain_) for f in result.holds],
            }
        )
    elif explain_:
        click.echo(explain_result(result, scope=scope, level=level))
    elif result.held:
        n = len(result.holds)
        click.echo(
            f"HELD for a person's approval: {n} finding{'s' if n != 1 else ''} "
            f"({len(text):,} chars, scope {scope})"
        )
        for f in result.holds:
            click.echo(f"  {f.id}  {f.category}  {explain(f)}")
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


def _described(finding: Finding, explain_: bool) -> dict[str, str]:
    """A finding (blocking or held) as --json lists it; --explain adds its layer and
    detail."""
    item = {"id": finding.id, "category": finding.category, "why": explain(finding)}
    if explain_:
        item.update(layer=finding.layer, detail=finding.detail)
    return item
