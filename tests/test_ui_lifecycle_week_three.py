"""The console's Memory page after a project directory moved (docs/first-week.md, row
85), in process (starlette's TestClient over the real app, real home files)."""

from __future__ import annotations

from pathlib import Path

from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.tool import run_memory_tool
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


def test_the_prompt_page_names_entries_a_session_start_moves_out(home_path: Path) -> None:
    """#96: the Prompt page, "System prompt of a new session", showed an entry past its
    expiry in the memory block, though a session start moves it out first."""
    home_path.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home_path, origin="agent", clock=lambda: 1_780_000_000.0)  # May 2026
    mem.add("memory", "The main branch deploys to staging on every merge.")
    answer = run_memory_tool(
        mem, {"action": "add", "content": "Bob covers the pager.", "expires": "2026-05-29"}
    )
    assert answer["success"], answer
    page = client_for(home_path).get("/prompt").text
    note = page.partition('class="drop-first small expired-note"')[2].partition("</ul>")[0]
    assert "Past its expiry: 1 MEMORY.md entry below; a session start moves it" in note
    assert "<li>Bob covers the pager.</li>" in note
    assert "deploys to staging" not in note
