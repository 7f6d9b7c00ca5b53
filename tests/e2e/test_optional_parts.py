"""mnemic without its optional packages, and on a platform without ``fcntl``.

Each test runs the CLI in a subprocess where some modules cannot be imported: a
``sitecustomize`` on PYTHONPATH sets ``sys.modules[name] = None`` for each of them
before mnemic starts, which makes ``import name`` fail exactly as when the package is
not installed (``fcntl`` stands for Windows, where it does not exist).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from . import run_mnemic

ROOT = Path(__file__).resolve().parents[2]
SITE = """\
import os, sys
for name in os.environ["MNEMIC_TEST_BLOCK"].split(","):
    sys.modules[name] = None
"""
NO_AGENT_NO_MCP = ("openai", "mcp", "mcp_types", "anyio", "starlette", "uvicorn")
PG_URL = "postgresql://nobody@127.0.0.1:1/nowhere"  # never reached: the import fails first


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A directory whose sitecustomize blocks the modules named in MNEMIC_TEST_BLOCK."""
    path = tmp_path / "site"
    path.mkdir()
    (path / "sitecustomize.py").write_text(SITE)
    return path


def blocking_env(site: Path, modules: tuple[str, ...], **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
        "MNEMIC_TEST_BLOCK": ",".join(modules),
        **extra,
    }


@pytest.fixture
def blocked(site: Path, home_path: Path):  # type: ignore[no-untyped-def]
    def run(
        modules: tuple[str, ...], *args: str, stdin: str = "", **env: str
    ) -> subprocess.CompletedProcess[str]:
        return run_mnemic(
            home_path,
            *args,
            stdin=stdin,
            env=blocking_env(site, modules, MNEMIC_HOME=str(home_path), **env),
        )

    return run


def test_the_sitecustomize_makes_the_import_fail(site: Path) -> None:
    code = ["-c", "import openai, psycopg"]
    ok = subprocess.run([sys.executable, *code], env=blocking_env(site, ()))
    assert ok.returncode == 0
    r = subprocess.run(
        [sys.executable, *code], env=blocking_env(site, ("openai",)), capture_output=True
    )
    assert r.returncode == 1 and b"ModuleNotFoundError" in r.stderr


def test_memory_sessions_and_skills_need_neither_openai_nor_mcp(  # type: ignore[no-untyped-def]
    blocked, tmp_path: Path
) -> None:
    r = blocked(NO_AGENT_NO_MCP, "memory", "add", "Deploys go through staging first.")
    assert r.returncode == 0, r.stderr
    r = blocked(NO_AGENT_NO_MCP, "memory", "show")
    assert r.returncode == 0 and "staging" in r.stdout
    rows = tmp_path / "s.jsonl"
    rows.write_text(
        '{"session_id": "s1", "role": "user", "content": "the billing deploy hit '
        'ERR_QUOTA_7731", "timestamp": 1700000000}\n'
    )
    r = blocked(NO_AGENT_NO_MCP, "sessions", "import", str(rows))
    assert r.returncode == 0, r.stderr
    r = blocked(NO_AGENT_NO_MCP, "sessions", "search", "ERR_QUOTA_7731")
    assert r.returncode == 0 and "s1" in r.stdout, r.stderr
    r = blocked(NO_AGENT_NO_MCP, "tool", "session_search", '{"query": "billing"}')
    assert r.returncode == 0 and '"success": true' in r.stdout
    r = blocked(NO_AGENT_NO_MCP, "skills", "create", "demo-skill", "-d", "A demo.", stdin="Do.")
    assert r.returncode == 0, r.stderr
    r = blocked(NO_AGENT_NO_MCP, "prompt")
    assert r.returncode == 0 and "demo-skill" in r.stdout


def test_chat_without_openai_names_the_agent_extra(blocked) -> None:  # type: ignore[no-untyped-def]
    r = blocked(
        NO_AGENT_NO_MCP,
        "chat",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
        stdin="hello\n",
    )
    assert r.returncode == 1 and "pip install 'mnemic[agent]'" in r.stderr
    assert "Traceback" not in r.stderr
    r = blocked(NO_AGENT_NO_MCP, "sessions", "list", "--json")
    assert r.returncode == 0 and r.stdout.strip() == "[]"  # refused before a session began


def test_demo_without_openai_names_the_agent_extra(blocked) -> None:  # type: ignore[no-untyped-def]
    r = blocked(NO_AGENT_NO_MCP, "demo")
    assert r.returncode == 1 and "pip install 'mnemic[agent]'" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("args", [("mcp",), ("mcp", "--http", "--port", "0")])
def test_mcp_without_the_sdk_names_the_mcp_extra(  # type: ignore[no-untyped-def]
    blocked, args: tuple[str, ...]
) -> None:
    r = blocked(NO_AGENT_NO_MCP, *args)
    assert r.returncode == 1 and "pip install 'mnemic[mcp]'" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "add", "a fact"),
        ("memory", "show"),
        ("sessions", "search", "deploy"),
        ("audit", "verify"),
        ("db", "status"),
    ],
)
def test_a_postgresql_store_without_the_extra_names_it(  # type: ignore[no-untyped-def]
    blocked, args: tuple[str, ...]
) -> None:
    r = blocked(("psycopg", "psycopg_pool"), *args, MNEMIC_STORE=PG_URL)
    assert r.returncode == 1 and "pip install 'mnemic[postgres]'" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and "ModuleNotFoundError" not in r.stderr


def test_metrics_without_prometheus_names_the_extra_and_memory_still_works(  # type: ignore[no-untyped-def]
    blocked, home_path: Path
) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[metrics]\nenabled = true\n")
    r = blocked(("prometheus_client",), "memory", "add", "a fact")
    assert r.returncode == 0 and "pip install 'mnemic[metrics]'" in r.stderr
    r = blocked(("prometheus_client",), "stats")
    assert r.returncode == 0 and "memory_usage_ratio" in r.stdout


def test_without_fcntl_the_first_lock_names_the_platform(  # type: ignore[no-untyped-def]
    blocked,
) -> None:
    r = blocked(("fcntl",), "memory", "add", "a fact")
    assert r.returncode == 1 and "cannot lock files on this platform" in r.stderr
    assert "Linux, macOS" in r.stderr and "Traceback" not in r.stderr
    r = blocked(("fcntl",), "memory", "show")
    assert r.returncode == 0  # reading takes no lock


# Files shipped in the package that run in another program's interpreter, importing that
# program's packages: the Hermes memory provider is copied into a Hermes home and imports
# Hermes's ``agent`` package, never mnemic's dependencies.
FOREIGN = {Path("integrations") / "hermes_plugin.py"}


def _imported_top_level_modules() -> set[str]:
    names: set[str] = set()
    package = ROOT / "src" / "mnemic"
    for path in package.rglob("*.py"):
        if path.relative_to(package) in FOREIGN:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"mnemic"}


def test_every_declared_dependency_is_used_and_every_import_is_declared() -> None:
    from mnemic.extras import EXTRAS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    module_of = {"pyyaml": "yaml", "prometheus-client": "prometheus_client"}

    def modules(requirements: list[str]) -> set[str]:
        out = set()
        for req in requirements:
            dist = req.split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip().lower()
            out.add(module_of.get(dist, dist.replace("-", "_")))
        return out

    base = modules(project["dependencies"])
    extras = project["optional-dependencies"]
    assert {"agent", "mcp", "postgres", "metrics", "all"} <= set(extras)
    assert not base & {"openai", "mcp", "filelock", "pydantic", "psycopg"}
    imported = _imported_top_level_modules()
    assert base <= imported, f"declared but never imported: {sorted(base - imported)}"
    optional = {m for mods in EXTRAS.values() for m in mods}
    assert imported <= base | optional, sorted(imported - base - optional)
    for extra, mods in EXTRAS.items():
        assert modules(extras[extra]) <= set(mods), extra


def test_chat_over_anthropic_without_the_sdk_names_the_anthropic_extra(  # type: ignore[no-untyped-def]
    blocked,
) -> None:
    r = blocked(("anthropic",), "chat", "--api", "anthropic", "--model", "m", stdin="hello\n")
    assert r.returncode == 1 and "pip install 'mnemic[anthropic]'" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    r = blocked(("anthropic",), "sessions", "list", "--json")
    assert r.returncode == 0 and r.stdout.strip() == "[]"  # refused before a session began


def test_the_anthropic_client_without_the_sdk_raises_missing_dependency(site: Path) -> None:
    code = (
        "from mnemic.llm import AnthropicChatClient\n"
        "from mnemic.errors import MissingDependency\n"
        "try:\n"
        "    AnthropicChatClient(model='m').complete([{'role': 'user', 'content': 'x'}])\n"
        "except MissingDependency as exc:\n"
        "    print(exc.extra, '|', exc.to_llm())\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=blocking_env(site, ("anthropic",)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    extra, message = r.stdout.split(" | ")
    assert extra == "anthropic" and "pip install 'mnemic[anthropic]'" in message


def test_chat_over_anthropic_needs_no_openai(  # type: ignore[no-untyped-def]
    blocked, home_path: Path
) -> None:
    from mnemic.testing import FakeAnthropicServer

    with FakeAnthropicServer(["Hello from the Messages API."]) as server:
        r = blocked(
            ("openai", "mcp", "mcp_types"),
            "chat",
            "--api",
            "anthropic",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            stdin="hi\n",
        )
    assert r.returncode == 0, r.stderr
    assert "Hello from the Messages API." in r.stdout


def test_demo_without_the_anthropic_sdk_skips_only_that_chapter(blocked) -> None:  # type: ignore[no-untyped-def]
    r = blocked(("anthropic",), "demo", NO_COLOR="1")
    assert r.returncode == 0, r.stderr
    assert "The same session over the Anthropic Messages API" in r.stdout
    assert "Skipped:" in r.stdout and "pip install 'mnemic[anthropic]'" in r.stdout
    assert "Where memory stands" in r.stdout and "Traceback" not in r.stdout + r.stderr
