"""Tool-argument decoding: JSON text or a dict, and text that is not valid Unicode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from hypothesis import given, strategies as st
from mcp import Client

from mnemic.curated.memory import Memory
from mnemic.errors import InvalidArgument
from mnemic.home import Home
from mnemic.mcp_server import MnemicMCP
from mnemic.tooling import find_surrogate, parse_arguments

# Text with lone surrogates often enough to matter (hypothesis leaves them out by default).
texts = st.text(st.characters(exclude_categories=())) | st.text(
    st.sampled_from(["a", " ", "é", "\U0001f600", "\ud800", "\udcff", "\udfff"]), max_size=6
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_a_value_is_refused_exactly_when_it_cannot_be_written_as_utf8(value: Any) -> None:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        encodable = True
    except UnicodeEncodeError:
        encodable = False
    assert (find_surrogate(value) is None) == encodable


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ('{"action": "add", "content": "a \\ud800 b"}', "content"),
        ({"operations": [{"content": "ok"}, {"content": "x\udcff"}]}, "operations[1].content"),
        ({"k\ud800": 1}, "k\\ud800 (the key)"),
        ('{"deep": [[[["\\udfff"]]]]}', "deep[0][0][0][0]"),
    ],
)
def test_lone_surrogates_are_an_invalid_argument_naming_where(raw: Any, where: str) -> None:
    with pytest.raises(InvalidArgument) as info:
        parse_arguments(raw)
    resp = info.value.to_response()
    assert resp["argument"] == where and "lone surrogate" in resp["error"]
    json.dumps(resp, ensure_ascii=False).encode("utf-8")  # the refusal itself is printable


def test_a_valid_surrogate_pair_is_ordinary_text() -> None:
    assert parse_arguments('{"content": "\\ud83d\\ude00"}') == {"content": "\U0001f600"}


def test_a_deeply_nested_value_does_not_exhaust_the_stack() -> None:
    value: Any = "\ud800"
    for _ in range(5000):
        value = [value]
    found = find_surrogate({"x": value})
    assert found is not None and found[0].startswith("x[0][0]")


@pytest.mark.anyio
async def test_the_mcp_server_refuses_a_lone_surrogate_in_arguments(home_path: Path) -> None:
    Memory.open(home_path).add("memory", "one fact")
    before = (home_path / "memories" / "MEMORY.md").read_bytes()
    srv = MnemicMCP(Home.open(home_path))
    try:
        info = types.Implementation(name="t", version="1")
        async with Client(srv.server, client_info=info) as client:
            for tool, args in [
                ("memory", {"action": "add", "target": "memory", "content": "bad \ud800"}),
                ("session_search", {"query": "\udcff"}),
                ("skill_manage", {"action": "create", "name": "a-b", "content": "\ud800"}),
            ]:
                res = await client.call_tool(tool, args)
                assert res.is_error and res.structured_content is not None
                assert res.structured_content["error_code"] == "invalid_argument"
    finally:
        srv.close()
    assert (home_path / "memories" / "MEMORY.md").read_bytes() == before


def test_the_three_ranked_searches_answer_in_one_shape() -> None:
    """Memory, archive and skill search answer through one ``ranked_search``: the mode,
    the floor's verdict, the notice and, below the floor, ``no_good_match`` with the
    message naming what was searched (pinned when the three were folded, session 51)."""
    from mnemic.ops.archive_search import ArchiveSearch
    from mnemic.ops.memory_search import EntryHit, MemorySearch
    from mnemic.sessions.search.floor import Strength
    from mnemic.skills.search import SkillSearch
    from mnemic.tooling import no_good_match_message

    weak = Strength(False, cosine=0.12345, words=0.0)
    hit = EntryHit("memory", 1, "Uses zsh", 0.2, ("semantic",))
    memory = MemorySearch([hit], "semantic", "a notice", weak, True).to_dict()
    assert memory == {
        "retrieval": "semantic",
        "count": 1,
        "results": [{**hit.to_dict(), "weak": True}],
        "match": {"good": False, "cosine": 0.1235, "words": 0.0},
        "no_good_match": True,
        "notice": "a notice",
        "message": no_good_match_message("memory"),
    }
    good = Strength(True, words=1.0)
    archive = ArchiveSearch([], "lexical", None, None, good, False).to_dict()
    assert archive == {"retrieval": "lexical", "count": 0, "results": [], "match": good.to_dict()}
    skills = SkillSearch([], "hybrid", "n", withheld=2).to_dict()
    assert skills == {
        "retrieval": "hybrid",
        "count": 0,
        "results": [],
        "notice": "n",
        "withheld": 2,
    }
