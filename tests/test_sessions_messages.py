"""The public ranking API: search_messages and `mnemic sessions search --messages`, on
both backends: ranked messages with their session, ids, import key, time, role, score
and why they rank there."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import Kit
from mnemic.cli import main
from mnemic.errors import InvalidArgument
from mnemic.home import Home
from mnemic.sessions import (
    NewMessage,
    NewSession,
    SessionStore,
    open_store,
    search_messages,
)

T0 = 1_750_000_000.0


def fill(store: SessionStore) -> None:
    """An imported conversation (messages with import keys) and one recorded live."""
    items = [
        (
            NewSession("trip", "import", "Lisbon", started_at=T0),
            [
                NewMessage(
                    "user", "Which tram goes up to the castle?", timestamp=T0, source_id="u-1"
                ),
                NewMessage(
                    "assistant",
                    "Number 28 from Martim Moniz climbs there.",
                    timestamp=T0 + 60,
                    source_id="a-1",
                ),
                NewMessage("user", "Thanks, and a good place for custard tarts?",
                           timestamp=T0 + 120, source_id="u-2"),
            ],
        )
    ]  # fmt: skip
    for _ in store.import_sessions(items, workers=0):
        pass
    store.start_session(id="live", started_at=T0 + 5000)
    store.append_message(
        "live", NewMessage("user", "The castle tram was packed.", timestamp=T0 + 5000)
    )


def test_messages_come_ranked_with_their_ids_keys_times_and_why(backend: Kit) -> None:
    with open_store(Home.open(backend.write_config())) as store:
        fill(store)
        ranking = search_messages(store, "castle tram", mode="lexical", limit=10)
    assert ranking.mode == "lexical"
    first = ranking.results[0]
    assert [r.rank for r in ranking.results] == list(range(1, len(ranking.results) + 1))
    scores = [r.score for r in ranking.results]
    assert scores == sorted(scores, reverse=True)
    by_key = {r.source_id: r for r in ranking.results}
    ask = by_key["u-1"]
    assert (ask.session_id, ask.seq, ask.role, ask.time) == ("trip", 0, "user", T0)
    assert ask.matched == ("lexical",) and ask.why[0] == "words: tram, castle"
    # the answer next to the question ranks too, as its neighbour
    answer = by_key["a-1"]
    assert answer.matched == () and answer.why == (f"next to message {ask.message_id}",)
    live = next(r for r in ranking.results if r.session_id == "live")
    assert live.source_id is None
    assert first.to_dict()["message_id"] == first.message_id


def test_as_of_leaves_out_what_came_later(backend: Kit) -> None:
    with open_store(Home.open(backend.write_config())) as store:
        fill(store)
        then = search_messages(store, "castle tram", mode="lexical", as_of=T0 + 1000)
        now = search_messages(store, "castle tram", mode="lexical", limit=1)
    assert {r.session_id for r in then.results} == {"trip"}
    assert then.time is not None and len(now.results) == 1


@pytest.mark.parametrize(
    ("options", "error"),
    [({"mode": "fuzzy"}, "mode must be one of"), ({"roles": ["robot"]}, "Unknown role 'robot'")],
)
def test_a_bad_mode_or_role_is_refused(backend: Kit, options: dict[str, Any], error: str) -> None:
    with (
        open_store(Home.open(backend.write_config())) as store,
        pytest.raises(InvalidArgument, match=error),
    ):
        search_messages(store, "castle", **options)


def test_the_cli_prints_the_ranking(home_path: object) -> None:
    with open_store(Home.open()) as store:
        fill(store)
    args = ["sessions", "search", "castle tram", "--messages", "--mode", "lexical", "--json"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    resp = json.loads(out.output)
    assert resp["retrieval"] == "lexical" and resp["count"] == len(resp["results"]) == 4
    assert {r["source_id"] for r in resp["results"]} == {"u-1", "a-1", "u-2", None}
    assert set(resp["results"][0]) >= {
        "rank", "session_id", "message_id", "source_id", "time", "role", "score", "why",
    }  # fmt: skip
    shown = CliRunner().invoke(main, args[:-1], terminal_width=200)
    assert shown.exit_code == 0 and "words: tram, castle" in shown.output


def test_the_cli_refuses_session_shaping_options_with_messages(home_path: object) -> None:
    with open_store(Home.open()) as store:
        fill(store)
    out = CliRunner().invoke(
        main, ["sessions", "search", "castle", "--messages", "--window", "0", "--sort", "newest"]
    )
    assert out.exit_code == 2
    assert "--sort, --window shape session results only; leave them out" in out.output
    limited = CliRunner().invoke(
        main, ["sessions", "search", "castle tram", "--messages", "-n", "2", "--json"]
    )
    assert limited.exit_code == 0 and json.loads(limited.output)["count"] == 2
