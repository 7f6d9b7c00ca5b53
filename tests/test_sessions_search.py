"""The session_search tool: shapes, filters, lineage, demotion, bounds and bad input."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.config import SessionSettings
from mnemic.errors import InvalidArgument
from mnemic.sessions import (
    SESSION_SEARCH_TOOL,
    NewMessage,
    SessionStore,
    parse_time,
    run_session_search,
    search_messages,
)

DAY = 86400.0
T0 = 1_750_000_000.0  # a fixed "now" for the fixture corpus


def add(store: SessionStore, sid: str, texts: list[str], *, start: float, **kw: Any) -> None:
    store.start_session(id=sid, started_at=start, **kw)
    store.append_messages(
        sid,
        [
            NewMessage("user" if i % 2 == 0 else "assistant", t, timestamp=start + 60 * i)
            for i, t in enumerate(texts)
        ],
    )


def fill(s: SessionStore) -> None:
    """The fixture corpus (shared with the PostgreSQL run of this suite)."""
    add(
        s,
        "deploy",
        [
            "We need to deploy the billing service to staging today.",
            "I will run the deploy script: ./deploy.sh --env staging",
            "It failed: connection refused on port 5432.",
            "Postgres was down; restart it with systemctl restart postgresql@15-main.",
            "Restarted. Deploy of billing v2.3.1 went through.",
            "Great, send the report to ops-team@example.com please.",
            "Sent to ops-team@example.com with the link https://grafana.example.com/d/billing.",
        ],
        start=T0 - 10 * DAY,
        title="Billing deploy",
        source="cli",
    )
    add(
        s,
        "chinese",
        [
            "我们讨论了记忆文件和会话历史的设计。",
            "好的，会话历史保存在 sqlite 数据库里，路径是 /home/me/.mnemic/sessions.db。",
            "超时的问题怎么处理？",
            "把超时设置成三十秒。",
        ],
        start=T0 - 5 * DAY,
        source="telegram",
    )
    add(s, "cronjob", ["nightly billing deploy report: all green"] * 3, start=T0 - 1 * DAY,
        source="cron")  # fmt: skip
    add(s, "hidden", ["billing deploy from a subagent"], start=T0 - DAY, source="subagent")
    # a conversation continued after compression: current session is "live"
    add(s, "past-root", ["the kubernetes ingress annotation question"], start=T0 - 3 * DAY)
    s.end_session("past-root", "compression", ended_at=T0 - 3 * DAY + 100)
    add(s, "live", ["kubernetes ingress again, now with TLS"], start=T0 - 3 * DAY + 100,
        parent_id="past-root")  # fmt: skip
    add(s, "other-k8s", ["kubernetes ingress in another project"], start=T0 - 2 * DAY)
    long = [f"line {i} of a very long session about widgets" for i in range(60)]
    add(s, "long", long, start=T0 - 20 * DAY, title="Widget marathon")


@pytest.fixture(scope="module")
def _filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the corpus's ``sessions.db``, filled once a module: each test
    takes a copy (filling it was 0.1 s a test, session 53)."""
    path = tmp_path_factory.mktemp("search-corpus")
    s = SQLiteSessionStore(path / "sessions.db")
    fill(s)
    s.close()
    return path


@pytest.fixture
def store(tmp_path: Path, _filled: Path) -> Iterator[SQLiteSessionStore]:
    for f in _filled.iterdir():
        shutil.copy(f, tmp_path / f.name)
    s = SQLiteSessionStore(tmp_path / "sessions.db")
    yield s
    s.close()


def call(store: SQLiteSessionStore, args: Any, **kw: Any) -> dict[str, Any]:
    resp = run_session_search(store, args, **kw)
    json.dumps(resp)  # always JSON-able
    return resp


def test_schema_in_both_formats() -> None:
    oa = SESSION_SEARCH_TOOL.openai()
    an = SESSION_SEARCH_TOOL.anthropic()
    assert oa["function"]["name"] == an["name"] == "session_search"
    params = oa["function"]["parameters"]
    assert params == an["input_schema"]
    assert params["type"] == "object" and not {"oneOf", "anyOf", "allOf"} & set(params)
    desc = oa["function"]["description"]
    for needle in ("When to use", "DISCOVERY", "READ", "SCROLL", "BROWSE", "OR", "prefix*"):
        assert needle in desc
    assert set(params["properties"]) >= {"query", "session_id", "around_message_id", "role"}


def test_discovery_shape(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "postgres restart"})
    assert r["success"] and r["mode"] == "discover" and r["count"] == 1
    hit = r["results"][0]
    assert hit["session_id"] == "deploy" and hit["title"] == "Billing deploy"
    assert hit["matched_role"] == "assistant"
    assert ">>>" in hit["snippet"] and "<<<" in hit["snippet"]
    window = hit["messages"]
    anchors = [m for m in window if m.get("match")]
    assert len(anchors) == 1 and anchors[0]["id"] == hit["match_message_id"]
    assert "Postgres was down" in anchors[0]["content"]
    assert [m["role"] for m in window][:1] in (["user"], ["assistant"])
    assert hit["messages_before"] + len(window) + hit["messages_after"] == 7
    assert hit["first_messages"] == [] or hit["first_messages"][0]["role"] == "user"


def test_discovery_bookends_outside_window(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "widgets line 30", "window": 1})
    hit = r["results"][0]
    assert hit["session_id"] == "long"
    seqs = [m["content"] for m in hit["messages"]]
    assert len(seqs) == 3
    assert [m["content"] for m in hit["first_messages"]] == [
        "line 0 of a very long session about widgets",
        "line 1 of a very long session about widgets",
    ]
    assert hit["last_messages"][-1]["content"].startswith("line 59")


@pytest.mark.parametrize(
    ("query", "session"),
    [
        ("会话", "chinese"),
        ("会话历史", "chinese"),
        ("超时", "chinese"),
        ("忆", "chinese"),
        ("ops-team@example.com", "deploy"),
        ("https://grafana.example.com/d/billing", "deploy"),
        ("grafana.example.com", "deploy"),
        ("v2.3.1", "deploy"),
        ("postgresql@15-main", "deploy"),
        ("./deploy.sh", "deploy"),
        ("/home/me/.mnemic/sessions.db", "chinese"),
        ("sessions.db", "chinese"),
        ("POSTGRES", "deploy"),
        ("Déploy", "deploy"),
    ],
)
def test_cjk_and_compound_queries(store: SQLiteSessionStore, query: str, session: str) -> None:
    r = call(store, {"query": query})
    assert r["success"], r
    assert [x["session_id"] for x in r["results"]][:1] == [session], r


def test_versions_do_not_match_longer_versions(store: SQLiteSessionStore) -> None:
    assert call(store, {"query": "v2.3.10"})["count"] == 0
    assert call(store, {"query": "v2.3"})["results"][0]["session_id"] == "deploy"


def test_current_session_and_lineage_are_never_returned(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "kubernetes ingress"}, current_session_id="live")
    assert [x["session_id"] for x in r["results"]] == ["other-k8s"]
    r = call(store, {"query": "kubernetes ingress"})
    got = [x["session_id"] for x in r["results"]]
    assert "other-k8s" in got and ("live" in got or "past-root" in got)
    assert len({"live", "past-root"} & set(got)) == 1  # one conversation, shown once
    r = call(store, {"session_id": "past-root"}, current_session_id="live")
    assert not r["success"] and "current conversation" in r["error"]
    r = call(store, {}, current_session_id="live")
    assert {x["session_id"] for x in r["results"]}.isdisjoint({"live", "past-root"})


def test_hidden_and_demoted_sources(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "billing deploy", "limit": 5})
    got = [x["session_id"] for x in r["results"]]
    assert "hidden" not in got
    assert got.index("deploy") < got.index("cronjob")  # cron ranks after interactive
    r = call(store, {"query": "billing deploy", "source": ["subagent"]})
    assert [x["session_id"] for x in r["results"]] == ["hidden"]  # asked for explicitly


def test_filters_role_source_dates(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "deploy", "role": ["user"], "limit": 10})
    assert all(x["matched_role"] == "user" for x in r["results"])
    r = call(store, {"query": "deploy", "role": "assistant", "limit": 10})
    assert r["results"] and all(x["matched_role"] == "assistant" for x in r["results"])
    r = call(store, {"query": "会话 OR billing", "source": "telegram"})
    assert [x["session_id"] for x in r["results"]] == ["chinese"]
    since = T0 - 6 * DAY
    r = call(store, {"query": "billing OR 会话", "since": since, "limit": 10})
    assert "deploy" not in [x["session_id"] for x in r["results"]]
    r = call(store, {"query": "billing OR 会话", "until": since, "limit": 10})
    assert [x["session_id"] for x in r["results"]] == ["deploy"]


def test_sort_newest_and_oldest(store: SQLiteSessionStore) -> None:
    newest = call(store, {"query": "billing", "sort": "newest", "limit": 5})
    oldest = call(store, {"query": "billing", "sort": "oldest", "limit": 5})
    assert newest["results"][0]["session_id"] == "cronjob"
    assert oldest["results"][0]["session_id"] == "deploy"


def test_relaxed_to_any_word_when_nothing_has_all(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "postgres zebra"})
    assert r["count"] == 1 and r["results"][0]["session_id"] == "deploy"
    assert "some of them" in r["message"]


def test_no_results_message(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "xylophone"})
    assert r["success"] and r["count"] == 0 and "No matching" in r["message"]


def test_title_match_comes_first(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": '"Widget marathon"'})
    assert r["results"][0]["session_id"] == "long"


def test_read_shape(store: SQLiteSessionStore) -> None:
    r = call(store, {"session_id": "deploy"})
    assert r["mode"] == "read" and not r["truncated"] and len(r["messages"]) == 7
    long = call(store, {"session_id": "long"})
    assert long["truncated"] and len(long["messages"]) == 30
    assert long["omitted"]["count"] == 30
    assert "around_message_id" in long["message"]
    r = call(store, {"session_id": "nope"})
    assert not r["success"] and r["error_code"] == "session_not_found"


def test_scroll_shape_and_paging(store: SQLiteSessionStore) -> None:
    first = call(store, {"session_id": "long"})
    anchor = first["omitted"]["after_message_id"]
    page = call(store, {"session_id": "long", "around_message_id": anchor, "window": 4})
    assert page["mode"] == "scroll"
    contents = [m["content"] for m in page["messages"]]
    assert contents[0].startswith("line 15") and contents[-1].startswith("line 23")
    assert next(m for m in page["messages"] if m.get("match"))["id"] == anchor
    nxt = page["later_page"]["around_message_id"]
    page2 = call(store, {**page["later_page"], "window": 4})
    assert page2["messages"][0]["content"].startswith("line 19") and nxt
    # the message id alone finds its session
    alone = call(store, {"around_message_id": anchor})
    assert alone["success"] and alone["session_id"] == "long"
    wrong = call(store, {"session_id": "deploy", "around_message_id": anchor})
    assert not wrong["success"] and wrong["error_code"] == "message_not_found"
    assert wrong["message_session_id"] == "long"


def test_browse_shape(store: SQLiteSessionStore) -> None:
    r = call(store, {})
    assert r["mode"] == "browse" and r["count"] == 3
    assert "hidden" not in [x["session_id"] for x in r["results"]]
    assert r["results"][0]["preview"]
    r = call(store, {"query": "   ", "limit": 10, "source": ["cli"]})
    assert r["mode"] == "browse" and all(x["source"] == "cli" for x in r["results"])


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"query": 5}, "query"),
        ({"limit": "many"}, "limit"),
        ({"role": ["robot"]}, "role"),
        ({"since": "last tuesday-ish"}, "since"),
        ({"sort": "random"}, "sort"),
        ({"querry": "x"}, "querry"),
        ({"summarize": "maybe"}, "summarize"),
        ({"session_id": 12}, "session_id"),
        ({"around_message_id": 99999999}, "around_message_id"),
        # a bare number is not a time a model means: 5 is not "5 days" but 1970
        ({"since": 5}, "since"),
        ({"since": "5"}, "since"),
        ({"since": 0}, "since"),
        ({"until": 30}, "until"),
        ({"limit": 0}, "limit"),
        ({"limit": -3}, "limit"),
        ({"window": -1, "query": "billing"}, "window"),
        ({"since": "2999-01-01"}, "since"),  # in the future: nothing can match
        ({"since": "2026-05-02", "until": "2026-05-01"}, "since"),  # reversed
        ({"query": "billing", "since": "2026-05-02", "as_of": "2026-05-01"}, "since"),
    ],
)
def test_bad_input_is_an_error_response(
    store: SQLiteSessionStore, args: dict[str, Any], field: str
) -> None:
    r = call(store, args)
    assert r["success"] is False and r["error"], r
    assert r["error_code"] == "invalid_argument"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ({"session_id": "deploy", "query": "postgres"}, "query is not used when reading"),
        ({"tool": "deploy", "role": ["user"], "sort": "newest"}, "role, sort are not used"),
        ({"sort": "oldest"}, "sort is not used when browsing"),
    ],
)
def test_an_argument_the_shape_does_not_use_is_said_in_the_answer(
    store: SQLiteSessionStore, args: dict[str, Any], said: str
) -> None:
    r = call(store, args)
    assert r["success"] is not False, r
    assert any(said in a for a in r.get("adjusted", [])), r.get("adjusted")


def test_arguments_the_shape_uses_add_no_note(store: SQLiteSessionStore) -> None:
    for args in (
        {"query": "billing", "role": ["user"], "sort": "newest", "summarize": False},
        {"query": "", "limit": 3, "source": ["cli"], "failed": False},
        {"session_id": "deploy"},
    ):
        assert "adjusted" not in call(store, args), args


def test_a_bare_number_time_says_what_to_pass(store: SQLiteSessionStore) -> None:
    r = call(store, {"since": 5})
    assert '"5d"' in r["error"] and "2026-05-01" in r["error"], r["error"]
    assert '"3d"' in call(store, {"since": "-3"})["error"]  # never "-3d"
    assert '"1.5d"' in call(store, {"until": 1.5})["error"]
    r = call(store, {"since": T0 - 6 * DAY})  # Unix seconds still read as a time
    assert r["success"] is not False, r


def test_arguments_as_json_text(store: SQLiteSessionStore) -> None:
    assert call(store, '{"query": "postgres"}')["count"] == 1
    bad = call(store, "{not json")
    assert not bad["success"] and "not valid JSON" in bad["error"]
    assert not call(store, "[1, 2]")["success"]


def test_limits_are_clamped(store: SQLiteSessionStore) -> None:
    r = call(store, {"query": "billing OR 会话 OR kubernetes OR widgets", "limit": 99})
    assert r["count"] <= 10
    # the answer says so: the model knows why it got fewer than it asked for
    assert r["adjusted"] == ["limit 99 is above the most, 10: used 10."], r.get("adjusted")
    r = call(store, {"query": "billing", "limit": 2})
    assert "adjusted" not in r


def test_output_is_bounded(store: SQLiteSessionStore) -> None:
    sid = "huge"
    store.start_session(id=sid)
    store.append_messages(
        sid, [NewMessage("user", "gigantic " + "word " * 5000) for _ in range(10)]
    )
    settings = SessionSettings(max_output_chars=2000)
    r = call(store, {"query": "gigantic", "window": 10}, settings=settings)
    assert r["success"] and r["truncated"]
    assert len(json.dumps(r, ensure_ascii=False)) <= 2000
    r = call(store, {"session_id": sid}, settings=settings)
    assert len(json.dumps(r, ensure_ascii=False)) <= 2000
    r = call(store, {"query": "billing OR widgets OR gigantic", "limit": 10}, settings=settings)
    assert len(json.dumps(r, ensure_ascii=False)) <= 2000 and r["count"] >= 1


def test_store_failure_is_a_response(store: SQLiteSessionStore) -> None:
    store.close()
    r = call(store, {"query": "billing"})
    assert r["success"] is False and r["error"]


def test_parse_time() -> None:
    now = 1_000_000.0
    assert parse_time("7d", field="since", now=now) == now - 7 * DAY
    assert parse_time("24h", field="since", now=now) == now - DAY
    assert parse_time("2 weeks ago", field="since", now=now) == now - 14 * DAY
    start = parse_time("2026-05-01", field="since")
    end = parse_time("2026-05-01", field="until", end=True)
    assert end - start == DAY
    assert parse_time("2026-05-01T14:00:00+00:00", field="since") == 1777644000.0
    assert parse_time(1_700_000_000, field="since") == 1_700_000_000.0


def test_a_match_in_a_tool_calls_arguments_shows_them_and_says_which_words(
    tmp_path: Path,
) -> None:
    """An assistant message that is only a tool call matches by its arguments (the index's
    aux column), but its result showed an empty snippet and "words" naming none (the
    demo's "staging host" search, second result)."""
    s = SQLiteSessionStore(tmp_path / "calls.db")
    s.start_session(id="call", started_at=1_750_000_000.0)
    call = {
        "name": "memory",
        "arguments": json.dumps(
            {"action": "add", "content": "Billing deploys go through the staging host stg-2."}
        ),
    }
    s.append_messages(
        "call",
        [NewMessage("user", "Remember how billing deploys go."),
         NewMessage("assistant", "", tool_calls=[call])],
    )  # fmt: skip
    resp = run_session_search(s, {"query": "staging host", "mode": "lexical"})
    top = resp["results"][0]
    assert top["matched_role"] == "assistant"
    assert ">>>staging<<< >>>host<<<" in top["snippet"] and top["snippet"].startswith("memory")
    assert top["why"][0] == "words: staging, host"
    ranked = search_messages(s, "staging host", mode="lexical").results[0]
    assert "staging host" in ranked.snippet and ranked.why[0] == "words: staging, host"
    s.close()


@pytest.mark.parametrize(
    "value",
    [1e99, "1e99", float("inf"), float("nan"), "99999999999999w", "9999-12-31"],
)
def test_a_time_outside_the_calendar_is_refused_with_what_to_pass(
    tmp_path: Path, value: object
) -> None:
    """A huge number or span (as_of=1e99, 99999999999999w) and the end of 9999-12-31 were
    taken as times and crashed the search when it showed them (OverflowError: timestamp out
    of range; the CLI printed a traceback); now refused in words, like a time in 1970."""
    for end in (False, True):
        with pytest.raises(InvalidArgument, match=r"outside the calendar.*2026-05-01"):
            parse_time(value, field="as_of", end=end)
    s = SQLiteSessionStore(tmp_path / "edge.db")
    for field in ("since", "until", "as_of"):
        resp = run_session_search(s, {"query": "deploy", field: value})
        assert resp["success"] is False and resp["error_code"] == "invalid_argument"
        assert "outside the calendar" in resp["error"]
    s.close()


def test_a_pasted_document_as_query_keeps_its_results_in_the_answer(tmp_path: Path) -> None:
    """A 20,000-char query matched, but its two echoes in the answer (query, searched)
    filled the output budget: the model got count 1, results [] and "Output shortened ...
    Read more with session_id", with no session id to read. The echoes are cut now."""
    s = SQLiteSessionStore(tmp_path / "long.db")
    add(s, "a", ["deploy the billing service to staging"], start=T0)
    pasted = "deploy billing " + "word " * 4000
    resp = run_session_search(s, {"query": pasted, "mode": "lexical"})
    assert resp["count"] == 1 and len(resp["results"]) == 1, resp
    assert not resp.get("truncated")
    assert resp["results"][0]["session_id"] == "a"
    assert resp["query"].endswith("... (20,015 chars in all)") and len(resp["query"]) < 400
    assert len(resp["searched"]) < 400
    short = run_session_search(s, {"query": "billing", "mode": "lexical"})
    assert short["query"] == "billing"  # a query of a few words is repeated whole
    s.close()
