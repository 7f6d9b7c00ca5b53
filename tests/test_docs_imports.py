"""The Python examples in README.md and docs/*.md import what exists: every ``import``
and ``from ... import`` of mnemic in a ```python block resolves, without the warning a
moved name gives (an example shows the import to use today)."""

from __future__ import annotations

import ast
import importlib
import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _resolves(module: str, name: str | None) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            mod = importlib.import_module(module)
            if name is None or hasattr(mod, name):
                return True
            importlib.import_module(f"{module}.{name}")  # a submodule
        except (ImportError, DeprecationWarning):
            return False
    return True


def _dotted(node: ast.AST) -> str | None:
    """``mnemic.a.b`` for an attribute chain rooted at the name ``mnemic``."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "mnemic" and parts:
        return ".".join(["mnemic", *reversed(parts)])
    return None


def _attribute_resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        if not _resolves(module, None):
            continue
        obj: object = importlib.import_module(module)
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            try:
                for name in parts[cut:]:
                    obj = getattr(obj, name)
            except (AttributeError, DeprecationWarning):
                return False
        return True
    return False


def stale_imports(text: str) -> list[str]:
    bad: list[str] = []
    for block in BLOCK.finditer(text):
        for node in ast.walk(ast.parse(block.group(1))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mnemic"):
                assert node.module is not None
                bad += [
                    f"from {node.module} import {a.name}"
                    for a in node.names
                    if not _resolves(node.module, a.name)
                ]
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                dotted = _dotted(node)
                if dotted and not _attribute_resolves(dotted):
                    bad.append(dotted)
            elif isinstance(node, ast.Import):
                bad += [
                    f"import {a.name}"
                    for a in node.names
                    if a.name.startswith("mnemic") and not _resolves(a.name, None)
                ]
    # a chain whose start is already missing is reported once, at its start
    return [b for b in bad if not any(b.startswith(f"{o}.") for o in bad)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_mnemic_import_in_an_example_resolves(page: Path) -> None:
    assert stale_imports(page.read_text(encoding="utf-8")) == []


def test_a_stale_import_is_found() -> None:
    text = (
        "```python\nfrom mnemic.agent import AgentSession, OpenAIStreamingClient\n"
        "from mnemic.llm import OpenAIStreamingClient\nimport mnemic.nowhere\n```\n"
        "```python\nfrom mnemic import PendingQueue\n```\n"
        "```python\nmnemic.governance.GovernedSkills.open(home)\nmnemic.Memory.open(home)\n```\n"
    )
    assert stale_imports(text) == [
        "from mnemic.agent import OpenAIStreamingClient",
        "import mnemic.nowhere",
        "from mnemic import PendingQueue",
        "mnemic.governance.GovernedSkills",
    ]
