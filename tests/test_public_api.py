"""The public API: a small, sorted root; everything else from its package; the names
that moved still resolve for a while, with a warning naming their new import."""

from __future__ import annotations

import builtins
import functools
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import mnemic
import mnemic.curated
import mnemic.errors

PUBLIC = [
    "AgentSession",
    "ChatClient",
    "Home",
    "MEMORY_TOOL",
    "Memory",
    "MemoryProvider",
    "MnemicError",
    "OpenAIChatClient",
    "SESSION_SEARCH_TOOL",
    "SessionStore",
    "Settings",
    "SkillStore",
    "Snapshot",
    "ToolError",
    "ToolRegistry",
    "ToolSpec",
    "WriteResult",
    "build_system_prompt",
    "load_settings",
    "open_store",
    "render_snapshot",
    "run_memory_tool",
    "run_session_search",
    "run_skill_tool",
    "skill_tool_specs",
    "skills_index",
]


def test_the_root_exports_the_small_public_face_and_every_name_resolves() -> None:
    assert mnemic.__all__ == PUBLIC == sorted(PUBLIC)
    for name in mnemic.__all__:
        assert getattr(mnemic, name) is not None, name


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match="does_not_exist"):
        mnemic.does_not_exist  # noqa: B018
    with pytest.raises(AttributeError, match="does_not_exist"):
        mnemic.curated.does_not_exist  # noqa: B018


def _moved_names() -> list[tuple[object, str, str]]:
    return [
        (package, name, new)
        for package in (mnemic, mnemic.curated, importlib.import_module("mnemic.sessions"))
        for name, new in package._MOVED.items()  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize(
    ("package", "name", "new"),
    _moved_names(),
    ids=[f"{p.__name__}.{n}" for p, n, _ in _moved_names()],  # type: ignore[attr-defined]
)
def test_a_moved_name_still_resolves_with_a_warning_naming_its_new_import(
    package: object, name: str, new: str
) -> None:
    with pytest.warns(DeprecationWarning, match=f"use `from {new} import {name}`") as caught:
        value = getattr(package, name)
    assert value is getattr(importlib.import_module(new), name)
    assert caught[0].filename == __file__  # the warning points at the code that asked
    assert name in getattr(importlib.import_module(new), "__all__", [name])
    assert name not in getattr(package, "__all__", ())


def test_every_error_class_but_the_two_roots_moved_to_mnemic_errors() -> None:
    moved = {n for n, where in mnemic._MOVED.items() if where == "mnemic.errors"}
    assert moved | {"MnemicError", "ToolError"} == set(mnemic.errors.__all__)


def test_errors_share_one_base_with_to_llm() -> None:
    for name in mnemic.errors.__all__:
        cls = getattr(mnemic.errors, name)
        assert issubclass(cls, mnemic.MnemicError), name
        assert callable(cls.to_llm) and callable(cls.to_human) and callable(cls.to_response)


def _type_checking_exports(module: object) -> dict[str, str]:
    """name -> absolute module of the explicit re-exports under ``if TYPE_CHECKING:``."""
    import ast

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


def test_type_checkers_see_the_same_root_table() -> None:
    assert _type_checking_exports(mnemic) == mnemic._PUBLIC  # type: ignore[attr-defined]


def test_every_error_class_is_exported_and_in_the_docstring_tree() -> None:
    errors = mnemic.errors
    classes = set()
    for path in Path(errors.__file__).parent.glob("*.py"):
        module = importlib.import_module(f"mnemic.errors.{path.stem}")
        classes |= {
            n
            for n, v in vars(module).items()
            if isinstance(v, type) and issubclass(v, Exception) and v.__module__ == module.__name__
        }
    assert classes == set(errors.__all__)
    for name in classes:
        assert name in (errors.__doc__ or ""), name


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
    "BundleError": "a whole home in one file, every domain (export / import --bundle)",
    "ConfigError": "settings of every part",
    "IntegrationError": "other programs' config files (mnemic integrate)",
    "InvalidArgument": "any tool's arguments",
    "McpServerError": "the MCP frontend's address",
    "MissingDependency": "any optional package",
    "ThreatBlocked": "the scanner, for memory and skills",
    "ThreatHeld": "the scanner's hold, where nobody can approve a write",
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


def test_the_errors_package_imports_nothing_else_from_mnemic() -> None:
    import ast

    errors = mnemic.errors
    for path in Path(errors.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
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
    assert out.stdout.strip() == "['mnemic', 'mnemic._moved']", out.stdout  # the root package


@pytest.mark.parametrize(
    "package", ["mnemic.sessions", "mnemic.ops", "mnemic.agent", "mnemic.providers"]
)
def test_a_lazy_package_serves_every_public_name_and_type_checkers_see_the_same_table(
    package: str,
) -> None:
    """``mnemic.sessions``, ``mnemic.ops``, ``mnemic.agent`` and ``mnemic.providers``
    import their public names on first use (from a ``_LAZY`` table), so that a caller of
    one wing does not pay for the others.
    Every name of ``__all__`` is either defined in the package or in the table, each
    resolves to the object its module holds, and the imports under ``TYPE_CHECKING``
    (what mypy and editors read) name the same modules and objects."""
    import ast

    module = importlib.import_module(package)
    table: dict[str, tuple[str, str]] = module._LAZY  # type: ignore[attr-defined]
    own = {n for n in module.__all__ if n not in table}
    assert all(inspect.isfunction(vars(module).get(n)) for n in own), own
    for name, (where, attr) in table.items():
        assert name in module.__all__, name
        assert getattr(module, name) is getattr(importlib.import_module(f"{package}.{where}"), attr)
    seen: dict[str, tuple[str, str]] = {}
    tree = ast.parse(inspect.getsource(module))
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom) and imp.level == 1:
                    for alias in imp.names:
                        seen[alias.asname or alias.name] = (str(imp.module), alias.name)
    assert seen == table


def _attribute_docstrings(name: str) -> list[str]:
    """The string literals right after a top-level ``name = ...`` anywhere in the package
    (an exported constant is documented where it is assigned)."""
    return _assignment_docstrings(_constants()).get(name, [])


def _constants() -> frozenset[str]:
    """The names of ``mnemic.__all__`` that are neither a class nor a function."""
    return frozenset(
        name
        for name in mnemic.__all__
        if not inspect.isclass(getattr(mnemic, name))
        and not inspect.isfunction(getattr(mnemic, name))
    )


@functools.cache
def _assignment_docstrings(names: frozenset[str]) -> dict[str, list[str]]:
    """Every top-level name of the package's modules assigned with a string literal right
    after it, with those literals: each file parsed once for all the names asked about
    (once per name cost a minute, when a 1 MB lexicon index was among them), and only a
    file that names one of ``names`` (as Python reads identifiers: NFKC), 7 of 366
    (parsing them all was 1.5 s of CPU, session 55)."""
    import ast
    import itertools
    import unicodedata

    found: dict[str, list[str]] = {}
    for path in sorted((Path(mnemic.__file__).parent).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        words = unicodedata.normalize("NFKC", text)
        if not any(name in words for name in names):
            continue
        body = ast.parse(text).body
        for node, after in itertools.pairwise(body):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            if (
                isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                for t in targets:
                    if isinstance(t, ast.Name):
                        found.setdefault(t.id, []).append(after.value.value)
    return found


def test_every_public_name_and_the_public_methods_of_its_classes_have_a_docstring() -> None:
    """The public API is documented where it is defined: each class and function of
    ``mnemic.__all__`` has its own docstring (not one inherited), each constant a
    docstring after its assignment, and each public method or property a class defines
    has its own (``ToolError.to_response`` had none: the override adds the error's
    fields to the response)."""
    missing: list[str] = []
    for name in mnemic.__all__:
        obj = getattr(mnemic, name)
        if inspect.isclass(obj):
            if not (vars(obj).get("__doc__") or "").strip():
                missing.append(name)
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                func = value.fget if isinstance(value, property) else value
                func = getattr(func, "__func__", func)
                if (inspect.isfunction(func) or isinstance(value, property)) and not (
                    func.__doc__ or ""
                ).strip():
                    missing.append(f"{name}.{attr}")
        elif inspect.isfunction(obj):
            if not (obj.__doc__ or "").strip():
                missing.append(name)
        elif not any(doc.strip() for doc in _attribute_docstrings(name)):
            missing.append(name)
    assert missing == []


def test_the_packages_docstring_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example in ``mnemic``'s docstring runs as written on an empty home (it called
    ``mem.tool(...)``, which ``Memory`` does not have: ``run_memory_tool`` is the call)."""
    import doctest

    monkeypatch.setenv("MNEMIC_HOME", str(tmp_path / "home"))
    result = doctest.testmod(mnemic, verbose=False, report=True)
    assert result.attempted >= 5
    assert result.failed == 0
