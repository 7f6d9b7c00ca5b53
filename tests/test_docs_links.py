"""Every relative link in README.md and docs/*.md resolves: the file it names exists and
an ``#anchor`` matches a heading of that file, as GitHub derives heading anchors
(lower case, punctuation but ``-`` and ``_`` dropped, spaces to ``-``, ``-1``, ``-2``...
for repeats). Links inside fenced code blocks and inline code are not links."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
# [text](target) and ![alt](target); the text may hold one level of brackets.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    return CODE.sub("", FENCE.sub("", text))


def _anchor(heading: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    out: set[str] = set()
    seen: dict[str, int] = {}
    for match in HEADING.finditer(FENCE.sub("", page.read_text(encoding="utf-8"))):
        slug = _anchor(match.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(page: Path) -> list[str]:
    bad: list[str] = []
    for match in LINK.finditer(_prose(page.read_text(encoding="utf-8"))):
        url = match.group(1)
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", url):  # https:, mailto: ...
            continue
        path, _, anchor = url.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists():
            bad.append(f"{url}: no such file")
        elif anchor and target.suffix == ".md" and anchor not in anchors(target):
            bad.append(f"{url}: no heading with that anchor")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_the_anchor_rule_is_githubs() -> None:
    assert _anchor("Scanner 25: a refit, judged (dev only)") == "scanner-25-a-refit-judged-dev-only"
    assert _anchor("`mnemic tidy` and its queue") == "mnemic-tidy-and-its-queue"
    assert _anchor("Finding a skill by meaning") == "finding-a-skill-by-meaning"


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# A heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-heading) [gone](missing.md) [no](other.md#nothing) "
        "`[code](missing.md)` [web](https://example.com)\n\n```\n[fenced](missing.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#nothing: no heading with that anchor",
    ]


# `docs/x.md`, "A section" / (`x.md`, "A section"): a section named in prose
SECTION_REF = re.compile(r"`?(?:docs/)?([\w-]+\.md)`?\)?,?\s+\(?\"([^\"\n]{3,100})\"")


def titles(page: Path) -> list[str]:
    """The headings of a page and the bold titles its paragraphs open with."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found = [m.group(1) for m in HEADING.finditer(text)]
    found += re.findall(r"^(?:[-*] )?\*\*(.+?)\*\*", text, re.M)
    return [" ".join(t.replace("`", "").replace("*", "").split()).lower() for t in found]


def broken_section_refs(page: Path) -> list[str]:
    bad = []
    for match in SECTION_REF.finditer(" ".join(page.read_text(encoding="utf-8").split())):
        target = ROOT / "docs" / match.group(1)
        if match.group(1) == "README.md":
            target = ROOT / "README.md"
        if not target.exists():
            continue
        name = match.group(2).replace("`", "").lower().rstrip(".")
        if not any(t.startswith(name) for t in titles(target)):
            bad.append(f'{match.group(1)}, "{match.group(2)}"')
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_section_named_in_prose_exists(page: Path) -> None:
    assert broken_section_refs(page) == []


def test_a_missing_section_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "other.md").write_text("# Other\n\n## Scopes\n\n- **Made again.** text\n")
    page = docs / "page.md"
    page.write_text(
        'See `docs/other.md`, "Scopes" and (other.md, "Made again") but\n'
        '`docs/other.md` ("Nowhere").\n'
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert broken_section_refs(page) == ['other.md, "Nowhere"']
