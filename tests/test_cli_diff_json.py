"""``--json`` on the two diff commands, as their siblings (``memory history``,
``memory restore``, ``pending show``) have it: a script that reviews a tidy proposal or
a version reads the diff without scraping text."""

from __future__ import annotations

from pathlib import Path

from _cli import cli as _cli, cli_json as _json
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id
from mnemic.home import Home


def test_memory_diff_json_gives_the_diff_of_two_versions(home_path: Path, tmp_path: Path) -> None:
    mem = Memory.open(home_path, origin="cli")
    mem.add("memory", "Staging is stg-4.")
    mem.replace("memory", "stg-4", "Staging is stg-5.")
    data = _json("memory", "diff", "1")
    assert (data["target"], data["old"], data["new"]) == ("memory", "1", "current")
    assert "-Staging is stg-4." in data["diff"] and "+Staging is stg-5." in data["diff"]
    assert _json("memory", "diff", "current")["diff"] == ""  # the same text
    app = tmp_path / "app"
    app.mkdir()
    project = Memory.open(open_project(Home.open(home_path), app, create=True), origin="cli")
    project.add("memory", "Builds with cargo.")
    project.replace("memory", "cargo", "Builds with cargo --release.")
    mine = _json("memory", "diff", "1", "--project", str(app))
    assert "+Builds with cargo --release." in mine["diff"] and "stg" not in mine["diff"]


def test_pending_diff_json_gives_the_diff_and_the_store(home_path: Path, tmp_path: Path) -> None:
    Memory.open(home_path, origin="cli").add("memory", "Rule one")
    review = Memory.open(home_path, actor="background", origin="review")
    staged = review.remove("memory", "Rule one")
    assert staged.staged and staged.pending_id
    data = _json("pending", "diff", staged.pending_id)
    assert data["id"] == staged.pending_id
    assert data["store"] == {"scope": "global", "project": None, "project_id": None}
    assert "-Rule one" in data["diff"]
    text = _cli("pending", "diff", staged.pending_id).output
    assert "-Rule one" in text
    app = tmp_path / "app"
    app.mkdir()
    store = open_project(Home.open(home_path), app, create=True)
    Memory.open(store, origin="cli").add("memory", "Lint with ruff")
    there = Memory.open(store, actor="background", origin="review").remove("memory", "ruff")
    assert there.pending_id
    assert _json("pending", "diff", there.pending_id)["store"]["project_id"] == project_id(app)
