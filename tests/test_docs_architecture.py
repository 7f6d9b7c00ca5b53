"""docs/ARCHITECTURE.md's map stays true to the tree: every module of ``src/mnemic`` is
placed in the entry of its package (the command modules of ``cli/`` are the command
table's: ``cli/commands.py``), every ``*.py`` the map names exists, and the layer
diagram lists the packages of the layers contract in ``pyproject.toml``, in its order."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "mnemic"
DOC = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
# an entry: two spaces, a name at the start of the line, its text up to the next entry
ENTRY = re.compile(r"^  ([\w./]+?/?)\s+(.*?)(?=^  [\w./]+?/?\s+|^\S|\Z)", re.S | re.M)


def _map() -> str:
    start = DOC.index("## Map")
    return DOC[start : DOC.index("\n## ", start + 1)]


def entries() -> dict[str, str]:
    """Each entry of the map under ``src/mnemic/``: its name (``scan/``, ``ops/tidy/``,
    ``registry.py``) and its text."""
    block = _map()
    block = block[block.index("src/mnemic/") : block.index("\ntests/")]
    return {m.group(1): m.group(2) for m in ENTRY.finditer(block)}


def unplaced(modules: list[str], table: dict[str, str]) -> list[str]:
    """The modules (paths under src/mnemic) whose file name is not in the text of the
    deepest map entry that holds them (a top-level module: its own entry)."""
    missing = []
    for rel in modules:
        holders = [name for name in table if name.endswith("/") and rel.startswith(name)]
        if not holders:
            if rel not in table:
                missing.append(rel)
            continue
        text = table[max(holders, key=len)]
        if not re.search(rf"(?<![\w.]){re.escape(Path(rel).name)}", text):
            missing.append(rel)
    return missing


def _modules() -> list[str]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if path.name == "__init__.py" or (rel.startswith("cli/") and rel.count("/") == 1):
            continue
        out.append(rel)
    return out


def test_every_module_is_placed_in_its_packages_entry() -> None:
    assert unplaced(_modules(), entries()) == []


def test_the_cli_modules_the_map_names_and_the_command_table_hold_every_other() -> None:
    table = (SRC / "cli" / "commands.py").read_text(encoding="utf-8")
    cli = entries()["cli/"]
    for path in sorted((SRC / "cli").glob("*.py")):
        stem = path.stem
        if stem == "__init__":
            continue
        assert f"{stem}.py" in cli or f"mnemic.cli.{stem}:" in table or f'"{stem}:' in table, stem


def test_every_file_the_map_names_exists() -> None:
    names = set(re.findall(r"(?<![\w/.])([\w/]*\w\.(?:py|bin|toml))\b", _map()))
    files = set()
    for top, dirs, names_here in os.walk(ROOT):  # .venv left unwalked (globbing it: 0.8 s)
        dirs[:] = [d for d in dirs if d != ".venv"]
        here = Path(top).relative_to(ROOT)
        files |= {(here / n).as_posix() for n in [*dirs, *names_here]}
    names -= {"config.toml"}  # a home's file, not the repository's
    missing = [n for n in sorted(names) if not any(f == n or f.endswith("/" + n) for f in files)]
    assert missing == []


def diagram_packages(diagram: str) -> list[str]:
    """The packages of a layer diagram, top to bottom: on each line, after its label (the
    first 14 columns), the names joined by ``→`` and ``|`` before its description."""
    out: list[str] = []
    for line in diagram.splitlines():
        if not line[:14].strip() and not line[14:].lstrip().startswith(("→", "|")):
            continue  # a description's second line
        previous = "→"
        for token in line[14:].split():
            name = token.rstrip(":")
            if token in ("→", "|"):
                previous = token
                continue
            if previous not in ("→", "|") or not re.fullmatch(r"_?[a-z_]+(\.[a-z_]+)?", name):
                break
            out.append(name)
            previous = "" if token.endswith(":") else "name"
            if token.endswith(":"):
                break
    return out


def test_the_layer_diagram_follows_the_layers_contract() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = contracts["tool"]["importlinter"]["contracts"][0]["layers"]
    start = DOC.index("## Layers")
    section = DOC[start : DOC.index("\n## ", start + 1)]
    fence = section.index("```")
    seen = diagram_packages(section[section.index("\n", fence) : section.index("```", fence + 3)])
    order = []
    for layer in layers:
        for package in layer.split("|"):
            name = package.strip().removeprefix("mnemic.")
            at = [i for i, s in enumerate(seen) if s == name or s.startswith(name + ".")]
            assert at, f"the layer diagram does not name {name}"
            order.append(at[0])
    assert order == sorted(order), "the layer diagram's order is not the contract's"


def test_a_module_missing_from_its_entry_is_found() -> None:
    table = {"ops/": "stats.py, forget.py", "ops/tidy/": "plan.py", "registry.py": "the registry"}
    assert unplaced(
        ["ops/stats.py", "ops/tidy/plan.py", "ops/tidy/stats.py", "registry.py", "plugins.py"],
        table,
    ) == ["ops/tidy/stats.py", "plugins.py"]
