"""``mnemic memory archive --all-scopes``: one list and one search over every store's archive.

Each store keeps its own archive (a fold of its own journal), so a person with three
projects could not find a fact they let go without knowing which project held it.
``list`` and ``search`` with ``--all-scopes`` read the global store and every project
store at once, each entry told with its store and a qualified id (``PROJECT-ID:ID``)
that ``show`` and ``restore`` take without ``--project``. Each test runs on the files
store and on PostgreSQL (the ``backend`` fixture).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _backends import Kit
from _cli import cli, cli_json
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.home import Home

GLOBAL = {"scope": "global", "project": None, "project_id": None}
WEB_OLD = "Staging host for web is web-2.internal"
WEB_NEW = "Staging host for web is web-3.internal"
API = "API staging host is api-7.internal"
LAPTOP = "The laptop runs Debian testing."


def _seed(backend: Kit, tmp_path: Path) -> tuple[Home, Path, Path]:
    """A fact let go in the global store and in each of two projects."""
    home = Home.open(backend.write_config())
    web, api = tmp_path / "work" / "web", tmp_path / "work" / "api"
    for directory in (web, api):
        directory.mkdir(parents=True)
    Memory.open(home, origin="cli").add("memory", LAPTOP)
    Memory.open(home, origin="cli").remove("memory", "laptop")
    web_memory = Memory.open(open_project(home, web, create=True), origin="cli")
    web_memory.add("memory", WEB_OLD)
    web_memory.replace("memory", "web-2", WEB_NEW)
    api_memory = Memory.open(open_project(home, api, create=True), origin="cli")
    api_memory.add("memory", API)
    api_memory.remove("memory", "api-7")
    return home, web.resolve(), api.resolve()


def _store(directory: Path) -> dict[str, Any]:
    return {"scope": "project", "project": str(directory), "project_id": project_id(directory)}


def test_archive_list_all_scopes_lists_every_store_with_its_store(
    backend: Kit, tmp_path: Path
) -> None:
    _, web, api = _seed(backend, tmp_path)
    assert [e["text"] for e in cli_json("memory", "archive", "list")["entries"]] == [LAPTOP]
    listed = cli_json("memory", "archive", "list", "--all-scopes")
    got = {e["text"]: (e["store"], e["ref"], e["reason"]) for e in listed["entries"]}
    web_id, api_id = project_id(web), project_id(api)
    assert got == {
        LAPTOP: (GLOBAL, "2", "removed"),
        WEB_OLD: (_store(web), f"{web_id}:2", "replaced"),
        API: (_store(api), f"{api_id}:2", "removed"),
    }
    assert listed["count"] == 3
    per = {s["project_id"]: s["count"] for s in listed["stores"]}
    assert per == {None: 1, web_id: 1, api_id: 1}
    assert [e["text"] for e in listed["entries"]] == [API, WEB_OLD, LAPTOP]  # newest first
    header, *rows, total, hint = cli(
        "memory", "archive", "list", "--all-scopes"
    ).output.splitlines()
    assert header.split()[0] == "ID" and "archive show ID" in hint
    assert total == "3 entries, newest first."
    assert sorted(r.split()[0] for r in rows) == sorted(["2", f"{web_id}:2", f"{api_id}:2"])
    user_only = cli_json("memory", "archive", "list", "--all-scopes", "--target", "user")
    assert user_only["count"] == 0  # USER.md is global only: no project store is read for it


def test_archive_search_all_scopes_ranks_every_store_as_one(backend: Kit, tmp_path: Path) -> None:
    _, web, api = _seed(backend, tmp_path)
    one = cli_json("memory", "archive", "search", "staging host", "--mode", "lexical")
    assert one["results"] == []  # the global archive holds no staging host
    found = cli_json(
        "memory", "archive", "search", "staging host", "--mode", "lexical", "--all-scopes"
    )
    hits = {r["text"]: (r["store"], r["ref"]) for r in found["results"]}
    assert hits == {
        WEB_OLD: (_store(web), f"{project_id(web)}:2"),
        API: (_store(api), f"{project_id(api)}:2"),
    }
    text = cli("memory", "archive", "search", "staging host", "--mode", "lexical", "--all-scopes")
    assert f"{project_id(api)}:2" in text.output and API in text.output


def test_show_and_restore_take_a_qualified_id_whatever_the_store(
    backend: Kit, tmp_path: Path
) -> None:
    home, web, api = _seed(backend, tmp_path)
    ref = f"{project_id(web)}:2"
    shown = cli("memory", "archive", "show", ref)
    assert shown.exit_code == 0, shown.output
    assert WEB_OLD in shown.output and f"into:      {WEB_NEW}" in shown.output
    assert f"store:     project {web}" in shown.output
    assert cli_json("memory", "archive", "show", ref)["text"] == WEB_OLD
    assert cli_json("memory", "archive", "show", "global:2")["text"] == LAPTOP
    assert cli_json("memory", "archive", "show", "2")["text"] == LAPTOP  # the selected store's
    restored = cli_json("memory", "archive", "restore", f"{project_id(api)}:2")
    assert restored["success"] and restored["written"]
    assert MemoryView.open(open_project(home, api, create=False)).entries("memory") == [API]
    assert MemoryView.open(home).entries("memory") == []  # nothing restored into the global one
    unknown = cli("memory", "archive", "show", "nowhere-000000000000:2")
    assert unknown.exit_code == 1 and project_id(web) in unknown.output
    clash = cli("memory", "archive", "show", ref, "--project", str(api))
    assert clash.exit_code == 2 and "another store" in clash.output
    both = cli("memory", "archive", "list", "--all-scopes", "--project", str(api))
    assert both.exit_code == 2 and "--all-scopes" in both.output


def test_the_tool_searches_one_of_its_own_scopes_and_says_the_other_exists(
    backend: Kit, tmp_path: Path
) -> None:
    """A model sees the global archive and its own project's (never another project's),
    one per call; when its search finds nothing good it is told the other scope has an
    archive too (before, a model whose fact was in the project's archive got "never saved,
    or forgotten" from the default global search)."""
    home, web, _ = _seed(backend, tmp_path)
    glob = Memory.open(home, origin="agent")
    project = Memory.open(open_project(home, web, create=False), origin="agent")
    query = {"action": "archive_search", "query": "web staging"}
    missed = run_memory_tool(glob, query, project=lambda: project)
    assert missed["success"] and not any(r["text"] == WEB_OLD for r in missed["results"])
    assert 'scope="project" searches the other one' in missed["note"]
    found = run_memory_tool(glob, {**query, "scope": "project"}, project=lambda: project)
    assert [r["text"] for r in found["results"]][:1] == [WEB_OLD] and found["scope"] == "project"
    assert API not in str(found)  # another project's archive never reaches this model
    lost = run_memory_tool(
        glob, {**query, "query": "laptop", "scope": "project"}, project=lambda: project
    )
    assert 'scope="global" searches the other one' in lost["note"]
    alone = run_memory_tool(glob, {**query, "query": "zebra"})  # no project: nothing to tell
    assert "scope=" not in alone["note"]


def test_a_projects_listing_says_to_pass_the_project_to_show_and_restore(
    backend: Kit, tmp_path: Path
) -> None:
    """``archive list --project DIR`` told people to run ``archive show ID``, which without
    --project reads the global store, where the same ID names another entry."""
    _, web, _ = _seed(backend, tmp_path)
    for args in (["list"], ["search", "staging", "--mode", "lexical"]):
        *_, hint = cli("memory", "archive", *args, "--project", str(web)).output.splitlines()
        assert f"archive show ID --project {web}" in hint
        assert f"archive restore ID --project {web}" in hint
    *_, plain = cli("memory", "archive", "list").output.splitlines()
    assert "--project" not in plain


def test_an_id_the_selected_store_lacks_says_where_else_to_look(
    backend: Kit, tmp_path: Path
) -> None:
    """A plain id reads one store: when it is not there and the home has project stores,
    the refusal says --all-scopes lists every store's (before: only the global ids)."""
    _, web, _ = _seed(backend, tmp_path)
    missing = cli("memory", "archive", "show", "7")
    assert missing.exit_code == 1 and "global archive only" in missing.output
    assert "--all-scopes" in missing.output
    there = cli("memory", "archive", "restore", "7", "--project", str(web))
    assert there.exit_code == 1 and "this project's archive only" in there.output
