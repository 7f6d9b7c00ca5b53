"""The backend registry: the one place a home's ``store`` setting is read."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
import unicodedata
from pathlib import Path

import pytest

import mnemic
from mnemic.config import Settings, load_settings
from mnemic.errors import ConfigError
from mnemic.registry import backend_for, check_store, scheme_of

SRC = Path(mnemic.__file__).parent


def test_scheme_of_a_store_value() -> None:
    assert scheme_of("files") == "files"
    assert scheme_of("postgresql://u@h/db") == "postgresql"
    assert scheme_of("PostgreSQL://u@h/db") == "postgresql"
    with pytest.raises(ConfigError) as info:
        scheme_of("/var/lib/mnemic")
    assert "files" in str(info.value) and "postgresql://" in str(info.value)


def test_an_unknown_scheme_is_refused_naming_the_known_ones(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('store = "mysql://x"\n')
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    message = str(info.value)
    assert info.value.key == "store"
    assert "'mysql'" in message and "files" in message and "postgresql" in message
    assert "mnemic.backends" in message  # how a plugin would register one


def test_files_is_the_embedded_default() -> None:
    backend = backend_for(Settings())
    assert backend.name == "files"
    check_store("files")


def test_a_plugin_registered_by_entry_point_serves_its_scheme(tmp_path: Path) -> None:
    # A real distribution on sys.path with an entry point in the mnemic.backends group:
    # its backend wraps the files backend and marks what it read.
    site = tmp_path / "site"
    (site / "memstore_plugin").mkdir(parents=True)
    (site / "memstore_plugin" / "__init__.py").write_text(
        textwrap.dedent(
            """
            from mnemic.backends.files import FilesStore

            class MarkedStore(FilesStore):
                name = "marked"

                def read_curated(self, root, settings, target):
                    text = super().read_curated(root, settings, target)
                    return None if text is None else text + "\\n§\\nread through the plugin"
            """
        )
    )
    dist = site / "memstore_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: memstore-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[mnemic.backends]\nmarked = memstore_plugin:MarkedStore\n"
    )
    home = tmp_path / "home"
    (home / "memories").mkdir(parents=True)
    (home / "memories" / "MEMORY.md").write_text("Project uses pytest")
    (home / "config.toml").write_text('store = "marked://anything"\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(SRC.parent)])}
    code = "import mnemic, sys; sys.stdout.write(mnemic.render_snapshot(sys.argv[1]))"
    out = subprocess.run(
        [sys.executable, "-c", code, str(home)], capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    assert "Project uses pytest" in out.stdout and "read through the plugin" in out.stdout


def _reads_of_the_store_setting(path: Path) -> list[int]:
    text = path.read_text()
    # ``settings.store`` names both identifiers (as Python reads them: NFKC), so a file
    # without both is not parsed: 85 of 366 files are (1.5 s of CPU parsing them all)
    words = unicodedata.normalize("NFKC", text)
    if "store" not in words or "settings" not in words:
        return []
    tree = ast.parse(text)
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "store"
        and isinstance(node.value, ast.Attribute | ast.Name)
        and (getattr(node.value, "attr", None) or getattr(node.value, "id", None)) == "settings"
    ]


def test_only_the_registry_and_the_database_layer_read_the_store_setting() -> None:
    # The store URL is read to choose a backend in exactly one module; the PostgreSQL
    # backend reads it as its connection string, `mnemic db` as its default URL, and
    # config describes it for a person (the password masked; the scheme asked of the
    # registry: `store_place`).
    allowed = {"registry.py", "backends/postgres/db.py", "cli/db.py", "config.py"}
    readers = {
        str(p.relative_to(SRC)): lines
        for p in SRC.rglob("*.py")
        if (lines := _reads_of_the_store_setting(p))
    }
    assert set(readers) <= allowed, readers
