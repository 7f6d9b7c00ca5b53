"""The public API is an explicit, sorted, importable list."""

from __future__ import annotations

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
        "heavy = {'openai', 'mcp', 'psycopg', 'rich', 'click', 'pydantic', 'sqlite3', "
        "'dataclasses', 'typing', 'pathlib'}\n"
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
    import mnemic.mcp_server

    for package in (mnemic, mnemic.curated, mnemic.mcp_server):
        table = package._EXPORTS  # type: ignore[attr-defined]
        assert package.__all__ == sorted(table)
        assert _type_checking_exports(package) == table, package.__name__


def test_every_error_class_is_exported_and_in_the_docstring_tree() -> None:
    import mnemic.errors as errors

    classes = {
        n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, Exception)
    }
    assert classes == set(errors.__all__)
    for name in classes:
        assert name in (errors.__doc__ or ""), name


def test_every_error_is_exported_at_top_level() -> None:
    import mnemic.errors as errors

    assert set(errors.__all__) <= set(mnemic.__all__)
