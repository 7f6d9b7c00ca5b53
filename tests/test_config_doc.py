"""docs/configuration.md is generated from the settings classes and must stay current.

Regenerate with: .venv/bin/python tests/test_config_doc.py
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mnemic.config import _SECTIONS, RANGES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "configuration.md"
HEADER = """\
# Configuration reference

Every setting of `<home>/config.toml`, with its default (generated from
`src/mnemic/config.py` by `tests/test_config_doc.py`). Any key can also be set with an
environment variable `MNEMIC_<SECTION>_<KEY>` (the value is read as TOML when it parses,
otherwise as a string), e.g. `MNEMIC_MEMORY_USER_CHAR_LIMIT=2000`. An unknown key or a
value of the wrong type is an error that names the key, and so is a number outside its
range (given below; `nan` and `inf` are never accepted).

Top level: `store` — `"files"` (default: files + SQLite under the home) or a
`postgresql://` URL (see `docs/postgres.md`); `MNEMIC_STORE` overrides it.
"""


def _field_docs() -> dict[str, tuple[str, list[tuple[str, str]]]]:
    tree = ast.parse((ROOT / "src" / "mnemic" / "config.py").read_text(encoding="utf-8"))
    out: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields: list[tuple[str, str]] = []
        for i, st in enumerate(node.body):
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                doc = ""
                nxt = node.body[i + 1] if i + 1 < len(node.body) else None
                if (
                    isinstance(nxt, ast.Expr)
                    and isinstance(nxt.value, ast.Constant)
                    and isinstance(nxt.value.value, str)
                ):
                    doc = " ".join(nxt.value.value.split())
                fields.append((st.target.id, doc))
        out[node.name] = (ast.get_docstring(node) or "", fields)
    return out


def _render(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 10_000:
        return f"{value:,}"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{x}"' for x in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def generate() -> str:
    docs = _field_docs()
    lines = [HEADER]
    for name, cls in _SECTIONS.items():
        cls_doc, fields = docs[cls.__name__]
        paras = [" ".join(p.split()) for p in cls_doc.split("\n\n")]
        first = re.sub(r"^``\[[a-z]+\]``: ", "", paras[0])
        lines += [
            f"## `[{name}]`",
            "",
            first[:1].upper() + first[1:],
            *[f"\n{p}" for p in paras[1:]],
        ]
        lines += ["", "| key | default | range | meaning |", "|---|---|---|---|"]
        default = cls()
        for field, doc in fields:
            bounds = RANGES.get(f"{name}.{field}")
            shown = f"{_render(bounds[0])} – {_render(bounds[1])}" if bounds else ""
            lines.append(f"| `{field}` | `{_render(getattr(default, field))}` | {shown} | {doc} |")
        lines.append("")
    return "\n".join(lines).replace("``", "`")


def test_configuration_doc_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == generate(), (
        "docs/configuration.md is out of date: run .venv/bin/python tests/test_config_doc.py"
    )


def test_every_setting_is_documented() -> None:
    docs = _field_docs()
    for cls in _SECTIONS.values():
        for field, doc in docs[cls.__name__][1]:
            assert doc, f"{cls.__name__}.{field} has no docstring"


if __name__ == "__main__":
    DOC.write_text(generate(), encoding="utf-8")
    print(f"wrote {DOC}")
