"""Turning library results into HTML: the templates (Jinja2, autoescape on for every
template, so every piece of stored text is escaped), side-by-side diffs, highlighted
search snippets and the inline SVG usage chart. Nothing here reads the home."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..config import store_place
from ..extras import needs_extra
from ..timefmt import local_time

with needs_extra("ui", "The web console (mnemic ui)"):
    import jinja2
    from markupsafe import Markup, escape
    from starlette.responses import HTMLResponse

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = [
    "DiffRow",
    "counted",
    "environment",
    "error_response",
    "evicted_note",
    "highlight",
    "page",
    "side_by_side",
    "usage_chart",
    "when",
]

TEMPLATES = Path(__file__).parent / "templates"
NAV = (
    ("memory", "/memory", "Memory"),
    ("archive", "/archive", "Archive"),
    ("pending", "/pending", "Pending"),
    ("tidy", "/tidy", "Tidy"),
    ("audit", "/audit", "Audit"),
    ("sessions", "/sessions", "Sessions"),
    ("skills", "/skills", "Skills"),
    ("prompt", "/prompt", "Prompt"),
)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``1 record``, ``2 records``, ``1,204 records`` (``plural`` when it is not the noun
    and an s: ``entry``, ``entries``): a count with its noun in the right number (never
    ``record(s)``)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def evicted_note(count: str, where: str, ids: str = "") -> str:
    """What a page says after a write that moved ``count`` entries (the query's
    ``evicted``, as the redirect carried it) to the archive under ``[memory] on_full``
    ('' for none or a count that is not one), as the CLI's write says it; ``ids`` (the
    query's ``archived``: their archive ids, comma-separated) names them."""
    if not count.isdigit() or int(count) < 1:
        return ""
    n = int(count)
    named = [i for i in ids.split(",") if i and len(i) <= 24 and _ARCHIVE_ID.fullmatch(i)]
    called = ""
    if named:
        noun = "id" if len(named) == 1 else "ids"
        listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        called = f" (archive {noun} {listed})"
    return (
        f" To make room, {counted(n, 'entry', 'entries')} moved to the archive "
        f"([memory] on_full){called}: {where}, where Restore brings one back."
    )


_ARCHIVE_ID = re.compile(r"[0-9]+(?:\.[0-9]+)?")
"""An archive id as a person types it (``27``, ``27.1``)."""


def when(ts: float | None) -> str:
    """A local date and time to the minute ('' for None)."""
    if ts is None:
        return ""
    return local_time(ts)


def highlight(snippet: str) -> Markup:
    """A search snippet with ``>>>match<<<`` markers as ``<mark>``; all text escaped."""
    out: list[str] = []
    rest = snippet
    while ">>>" in rest:
        before, _, after = rest.partition(">>>")
        hit, sep, rest = after.partition("<<<")
        out.append(str(escape(before)))
        out.append(f"<mark>{escape(hit)}</mark>")
        if not sep:
            rest = ""
    out.append(str(escape(rest)))
    return Markup("".join(out))


@functools.cache
def environment() -> jinja2.Environment:
    """The template environment: autoescape for every template, undefined is an error."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = when
    env.filters["counted"] = counted
    env.filters["highlight"] = highlight
    env.globals["nav"] = NAV
    return env


def page(
    request: Request | None, template: str, *, status: int = 200, **context: Any
) -> HTMLResponse:
    """Render ``template`` with the layout's context (CSRF token, nav, live version)."""
    ui = request.app.state.console if request is not None else None
    context.setdefault("title", "mnemic")
    context.setdefault("active", "")
    context.setdefault("notice", "")
    context.setdefault("problem", "")
    html = (
        environment()
        .get_template(template)
        .render(
            csrf=ui.access.csrf() if ui is not None else "",
            live_version=ui.version() if ui is not None else "",
            home=str(ui.home.root) if ui is not None else "",
            store=store_place(ui.home.settings) if ui is not None else "",
            **context,
        )
    )
    return HTMLResponse(html, status_code=status)


def error_response(
    status: int, title: str, detail: str, request: Request | None = None
) -> HTMLResponse:
    """A clear error page (never a traceback), with a way back: the console page the
    browser came from (its ``Referer``, when it is this console's), else the section the
    address belongs to (``/sessions`` for ``/sessions/view``), and the home page."""
    back = _back(request) if request is not None else None
    return page(
        None,
        "error.html",
        status=status,
        title=title,
        detail=detail,
        code=status,
        back=back[0] if back else "",
        back_label=back[1] if back else "",
    )


def _back(request: Request) -> tuple[str, str] | None:
    """Where an error page leads back to: ``(href, label)``, or ``None`` (home only)."""
    here = request.url.path
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc == request.url.netloc and referer.path.startswith("/"):
        came = referer.path + (f"?{referer.query}" if referer.query else "")
        if referer.path != here:
            label = next((name for _, href, name in NAV if href == referer.path), "")
            return came, f"the {label} page" if label else "the page you came from"
    section = "/" + here.strip("/").split("/", 1)[0]
    for _, href, name in NAV:
        if href == section and href != here:
            return href, f"the {name} page"
    return None


@dataclass(frozen=True, slots=True)
class DiffRow:
    """One row of a side-by-side diff: ``kind`` is equal, replace, delete or insert."""

    kind: str
    left: str | None
    right: str | None


def side_by_side(old: str, new: str) -> list[DiffRow]:
    """Rows pairing the lines of ``old`` (left) and ``new`` (right)."""
    a, b = old.splitlines(), new.splitlines()
    rows: list[DiffRow] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            rows.append(
                DiffRow(
                    tag,
                    left[k] if k < len(left) else None,
                    right[k] if k < len(right) else None,
                )
            )
    return rows


def usage_chart(
    series: Mapping[str, Sequence[tuple[float, float]]], *, width: int = 640, height: int = 180
) -> Markup:
    """An inline SVG line chart of fill ratios (0..1+) over time, one line per target.

    Built here from numbers only: no script, no style attribute (the CSP allows neither).
    """
    points = [p for line in series.values() for p in line]
    if not points:
        return Markup("")
    pad_l, pad_r, pad_t, pad_b = 44, 12, 12, 28
    t0 = min(t for t, _ in points)
    t1 = max(t for t, _ in points)
    top = max(1.0, max(r for _, r in points))
    span = (t1 - t0) or 1.0
    w, h = width - pad_l - pad_r, height - pad_t - pad_b

    def xy(t: float, r: float) -> str:
        return f"{pad_l + (t - t0) / span * w:.1f},{pad_t + h - r / top * h:.1f}"

    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">',
        "<title>Memory usage over time (share of each budget)</title>",
    ]
    for frac in (0.0, 0.5, 0.8, 1.0):
        y = pad_t + h - frac / top * h
        parts.append(
            f'<line class="grid" x1="{pad_l}" x2="{width - pad_r}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{pad_l - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{int(frac * 100)}%</text>"
        )
    parts.append(
        f'<text class="axis" x="{pad_l}" y="{height - 8}">{escape(when(t0))}</text>'
        f'<text class="axis" x="{width - pad_r}" y="{height - 8}" text-anchor="end">'
        f"{escape(when(t1))}</text>"
    )
    for name, line in series.items():
        if not line:
            continue
        pts = " ".join(xy(t, r) for t, r in line)
        parts.append(f'<polyline class="line-{escape(name)}" fill="none" points="{pts}"/>')
        for t, r in line:
            cx, cy = xy(t, r).split(",")
            parts.append(
                f'<circle class="dot-{escape(name)}" cx="{cx}" cy="{cy}" r="2.5">'
                f"<title>{escape(name)} {r:.0%} at {escape(when(t))}</title></circle>"
            )
    parts.append("</svg>")
    return Markup("".join(parts))
