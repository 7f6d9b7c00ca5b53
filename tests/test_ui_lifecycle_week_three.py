"""The console's Memory page after a project directory moved (docs/first-week.md, row
85), in process (starlette's TestClient over the real app, real home files)."""

from __future__ import annotations

from pathlib import Path

from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.home import Home
from test_ui import client_for


def test_a_project_whose_directory_moved_is_marked_gone(home_path: Path, tmp_path: Path) -> None:
    """#85: `memory status` lists a store whose directory moved as "(directory gone;
    --project ID)"; the console's Memory page showed it under its old path like any
    other, as if its sessions still got the block."""
    web, api = tmp_path / "web", tmp_path / "api"
    web.mkdir()
    api.mkdir()
    home_path.mkdir(parents=True, exist_ok=True)
    home = Home.open(home_path)
    Memory.open(open_project(home, web, create=True)).add("memory", "Web builds with pnpm.")
    Memory.open(open_project(home, api, create=True)).add("memory", "API tests need the db.")
    (store,) = [p for p in (home_path / "projects").iterdir() if p.name.startswith("web-")]
    web.rename(tmp_path / "web2")
    page = client_for(home_path).get("/memory").text
    moved = page.partition(f'id="project-{store.name}"')[2].partition("</section>")[0]
    assert "Directory gone (moved, renamed or deleted): no session gets this block now." in moved
    assert f"--project {store.name}" in moved
    stays = page.partition('id="project-api-')[2].partition("</section>")[0]
    assert "Directory gone" not in stays
