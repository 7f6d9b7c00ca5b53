"""``mnemic memory tidy`` over every store of a home.

Without a scope it proposes for the global memory and each project store, every
proposal labelled with its store (text and ``--json``) and, with ``--stage``, put in that
store's own approval queue, where approving it changes that store only. ``--global`` and
``--project DIR`` narrow it to one store. Each test runs on the files store and on
PostgreSQL (the ``backend`` fixture), where the project's rows sit beside the global ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _backends import Kit
from _cli import cli as _cli, cli_json as _json
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id
from mnemic.curated.view import MemoryView
from mnemic.home import Home

GLOBAL = ["User prefers tea over coffee.", "user prefers tea over coffee"]
APP = ["The app builds with cargo build --release.", "the app builds with cargo build --release"]
LIB = ["The library's CI runs on Python 3.10.", "The library's CI is now on Python 3.12."]


def _seed(backend: Kit, tmp_path: Path) -> tuple[Path, Path]:
    """A global store and two project stores, each with one thing to tidy."""
    home = Home.open(backend.write_config())
    app, lib = tmp_path / "work" / "app", tmp_path / "work" / "lib"
    for directory, texts in ((app, APP), (lib, LIB)):
        directory.mkdir(parents=True)
        memory = Memory.open(open_project(home, directory, create=True), origin="cli")
        for text in texts:
            memory.add("memory", text)
    for text in GLOBAL:
        Memory.open(home, origin="cli").add("memory", text)
    return app.resolve(), lib.resolve()


def _entries(proposals: list[dict[str, Any]]) -> list[list[str]]:
    return sorted(sorted(p["entries"]) for p in proposals)


def test_tidy_proposes_for_every_store_each_staged_in_its_own_queue(
    backend: Kit, tmp_path: Path
) -> None:
    app, lib = _seed(backend, tmp_path)
    found = _json("memory", "tidy", "--lexical", "--stage")
    assert (found["scope"], found["project"]) == ("global", None)
    assert _entries(found["proposals"]) == [sorted(GLOBAL)]
    stores = {p["project"]: p for p in found["projects"]}
    assert set(stores) == {str(app), str(lib)}
    assert stores[str(app)]["project_id"] == project_id(app)
    assert all(p["scope"] == "project" for p in found["projects"])
    assert _entries(stores[str(app)]["proposals"]) == [sorted(APP)]
    assert _entries(stores[str(lib)]["proposals"]) == [sorted(LIB)]
    assert [p["kind"] for p in stores[str(lib)]["proposals"]] == ["supersede"]
    staged = {
        where: [s["pending_id"] for s in run["staged"]]
        for where, run in (("global", found), *stores.items())
    }
    assert all(ids and all(ids) for ids in staged.values()), staged
    # each store's proposal waits in that store's queue, and nowhere else
    for where in ("global", str(app), str(lib)):
        scope = ("--global",) if where == "global" else ("--project", where)
        queued = [r["id"] for r in _json("pending", "list", *scope)["pending"]]
        assert queued == staged[where], where
    assert _cli("pending", "approve", "all", env={"MNEMIC_PROJECT": str(lib)}).exit_code == 0
    home = Home.open(backend.home)
    lib_view = MemoryView.open(open_project(home, lib, create=False))
    assert lib_view.entries("memory") == [LIB[1]]
    app_view = MemoryView.open(open_project(home, app, create=False))
    assert app_view.entries("memory") == APP  # its proposal still waits
    assert MemoryView.open(home).entries("memory") == GLOBAL
    again = _json("memory", "tidy", "--lexical", "--stage")  # never staged twice
    runs = [again, *again["projects"]]
    assert [s["pending_id"] for r in runs for s in r["staged"]] == [None, None]
    assert all(s["skipped"].startswith("already pending") for r in runs for s in r["staged"])


def test_tidy_output_names_each_store(backend: Kit, tmp_path: Path) -> None:
    app, lib = _seed(backend, tmp_path)
    result = _cli("memory", "tidy", "--lexical")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Global memory:\n  MEMORY.md: 1 proposal\n" in text
    assert f"Project {app}:\n  MEMORY.md: 1 proposal\n" in text
    assert f"Project {lib}:\n  MEMORY.md: 1 proposal\n" in text
    assert "USER.md: no proposals" in text  # the global store's; a project has no USER.md
    assert text.count("USER.md") == 1


def test_global_and_project_narrow_tidy_to_one_store(backend: Kit, tmp_path: Path) -> None:
    app, _ = _seed(backend, tmp_path)
    only_global = _json("memory", "tidy", "--lexical", "--global")
    assert only_global["scope"] == "global" and only_global["projects"] == []
    assert _entries(only_global["proposals"]) == [sorted(GLOBAL)]
    only_app = _json("memory", "tidy", "--lexical", "--project", str(app))
    assert (only_app["scope"], only_app["project"]) == ("project", str(app))
    assert _entries(only_app["proposals"]) == [sorted(APP)] and only_app["projects"] == []
    # --global, said on the command line, outranks $MNEMIC_PROJECT
    env = {"MNEMIC_PROJECT": str(app)}
    assert _json("memory", "tidy", "--lexical", "--global", env=env)["scope"] == "global"
    assert _json("memory", "tidy", "--lexical", env=env)["project"] == str(app)
    both = _cli("memory", "tidy", "--global", "--project", str(app))
    assert both.exit_code == 2 and "--global and --project" in both.output
    before = _cli("--project", str(app), "memory", "tidy", "--global")  # mnemic's own option
    assert before.exit_code == 2 and "--global and --project" in before.output
    assert _json("pending", "list")["pending"] == []  # nothing was staged by any of them
