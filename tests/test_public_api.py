"""The public API is an explicit, sorted, importable list."""

from __future__ import annotations

import builtins
import subprocess
import sys

import mnemic


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert mnemic.__all__ == sorted(mnemic.__all__)
    for name in mnemic.__all__:
        assert getattr(mnemic, name) is not None, name


def test_unknown_attribute() -> None:
    try:
        mnemic.does_not_exist  # noqa: B018
    except AttributeError as exc:
        assert "does_not_exist" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected AttributeError")


def test_import_is_light() -> None:
    code = (
        "import sys, mnemic\n"
        "mnemic.render_snapshot()\n"
        # typing is not heavy here: every module names TYPE_CHECKING from it (one style)
        "heavy = {'openai', 'mcp', 'psycopg', 'rich', 'click', 'pydantic', 'sqlite3', "
        "'dataclasses', 'pathlib'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_errors_share_one_base_with_to_llm() -> None:
    errors = [getattr(mnemic, n) for n in mnemic.__all__ if n.endswith(("Error", "Exceeded"))]
    for cls in errors:
        assert issubclass(cls, mnemic.MnemicError)


def _type_checking_exports(module: object) -> dict[str, str]:
    """name -> absolute module of the explicit re-exports under ``if TYPE_CHECKING:``."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    package = module.__name__  # type: ignore[attr-defined]
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom):
                    where = f"{package}.{imp.module}" if imp.level else str(imp.module)
                    for alias in imp.names:
                        assert alias.asname == alias.name, f"{alias.name}: not `X as X`"
                        found[alias.name] = where
    return found


def test_one_export_table_per_lazy_package_and_type_checkers_see_the_same() -> None:
    import mnemic.curated
    import mnemic.errors
    import mnemic.mcp_server

    for package in (mnemic, mnemic.curated, mnemic.errors, mnemic.mcp_server):
        table = package._EXPORTS  # type: ignore[attr-defined]
        assert package.__all__ == sorted(table)
        assert _type_checking_exports(package) == table, package.__name__


def test_every_error_class_is_exported_and_in_the_docstring_tree() -> None:
    import importlib
    import pkgutil

    import mnemic.errors as errors

    classes = set()
    for info in pkgutil.iter_modules(errors.__path__):
        module = importlib.import_module(f"mnemic.errors.{info.name}")
        classes |= {
            n
            for n, v in vars(module).items()
            if isinstance(v, type) and issubclass(v, Exception) and v.__module__ == errors.__name__
        }
    assert classes == set(errors.__all__)
    for name in classes:
        assert name in (errors.__doc__ or ""), name
        assert getattr(errors, name).__module__ == "mnemic.errors", name  # the public path


def test_every_error_is_exported_at_top_level() -> None:
    import mnemic.errors as errors

    assert set(errors.__all__) <= set(mnemic.__all__)


# The error tree: domain bases (which part of mnemic refused) and kinds (ToolError: the
# model can recover; StorageError: storage failed). Errors that belong to no one domain
# are listed here on purpose; a new error goes under its domain's base.
DOMAIN_BASES = (
    "CuratedError",
    "GovernanceError",
    "LLMError",
    "ProviderError",
    "SessionError",
    "SkillError",
    "StorageError",
)
CROSS_CUTTING = {
    "ConfigError": "settings of every part",
    "IntegrationError": "other programs' config files (mnemic integrate)",
    "InvalidArgument": "any tool's arguments",
    "McpServerError": "the MCP frontend's address",
    "MissingDependency": "any optional package",
    "ThreatBlocked": "the scanner, for memory and skills",
    "UnknownTool": "any tool surface",
}


def test_every_concrete_error_sits_under_exactly_one_domain_base_unless_cross_cutting() -> None:
    import mnemic.errors as errors

    bases = {name: getattr(errors, name) for name in DOMAIN_BASES}
    roots = {errors.MnemicError, errors.ToolError}
    for name in errors.__all__:
        cls = getattr(errors, name)
        if cls in roots or name in bases:
            continue
        under = sorted(n for n, base in bases.items() if issubclass(cls, base))
        if name in CROSS_CUTTING:
            assert under == [], f"{name} is listed as cross-cutting but sits under {under}"
            assert set(cls.__bases__) & roots, f"{name}: a cross-cutting error hangs off a root"
        else:  # StorageError is also a kind: a session or governance error may be one too
            domains = [n for n in under if n != "StorageError"] or under
            assert len(domains) == 1, f"{name} sits under {under or 'no domain base'}"
    for name, base in bases.items():  # a domain base hangs off a root, never off another
        assert set(base.__bases__) <= roots, name


def test_the_docstring_tree_draws_the_class_hierarchy() -> None:
    """Each line of the tree is a class under the class one level up; "also a X" names
    its other bases. So the tree in the docstring cannot drift from the code."""
    import re

    import mnemic.errors as errors

    doc = errors.__doc__ or ""
    tree = doc.split("Tree::", 1)[1].split("\n\n", 2)[1]
    parents: list[type] = []
    seen = set()
    for line in tree.splitlines():
        match = re.match(r"^ {4}((?:[│ ] {3})*)(?:[├└]── )?(\w+)(?: +also an? (\w+))?$", line)
        assert match, line
        depth = len(match.group(1)) // 4 + (1 if "──" in line else 0)
        cls = getattr(errors, match.group(2), None) or getattr(builtins, match.group(2))
        del parents[depth:]
        expected = {parents[-1]} if parents else {Exception}
        if match.group(3):
            other = getattr(errors, match.group(3), None) or getattr(builtins, match.group(3))
            expected.add(other)
        assert set(cls.__bases__) == expected, f"{cls.__name__}: {cls.__bases__} != {expected}"
        parents.append(cls)
        seen.add(cls.__name__)
    assert seen == set(errors.__all__)


def test_the_errors_package_imports_nothing_else_from_mnemic_but_the_lazy_helper() -> None:
    import ast
    from pathlib import Path

    import mnemic.errors as errors

    for path in Path(errors.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if (node.level, node.module) == (2, "_lazy"):
                    continue  # the one lazy-export helper (mnemic._lazy imports nothing)
                assert node.level in (0, 1), f"{path.name}: from {'.' * node.level}{node.module}"
                names = [node.module or ""] if node.level == 0 else []
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                assert name.split(".")[0] != "mnemic", f"{path.name} imports {name}"
    code = (
        "import sys, mnemic.errors\n"
        "print(sorted(m for m in sys.modules if m.startswith('mnemic') and "
        "not m.startswith('mnemic.errors')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['mnemic', 'mnemic._lazy']", out.stdout
