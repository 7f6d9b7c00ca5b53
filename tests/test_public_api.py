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


def test_all_lists_every_lazy_export() -> None:
    import mnemic.curated

    assert set(mnemic.__all__) == set(mnemic._EXPORTS)
    assert mnemic.curated.__all__ == sorted(mnemic.curated.__all__)
    assert set(mnemic.curated.__all__) == set(mnemic.curated._EXPORTS)


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
