"""Summary mode: LLM summaries through a real local OpenAI-compatible server, and fallbacks."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.config import SessionSettings
from mnemic.errors import LLMRequestFailed
from mnemic.llm import OpenAIChatClient
from mnemic.sessions import (
    LLMSummarizer,
    NewMessage,
    extractive_summary,
    parse_query,
    run_session_search,
)
from mnemic.sessions.search.summarize import EXTRACT_LABEL
from mnemic.testing import Fail, FakeLLMServer, FakeSummarizer, Hang


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    for i, topic in enumerate(["nginx", "nginx", "nginx"]):
        sid = s.start_session(id=f"s{i}", title=f"{topic} {i}", started_at=1000.0 * (i + 1))
        s.append_messages(
            sid,
            [
                NewMessage("user", f"The {topic} proxy returns 502 on /api in project {i}."),
                NewMessage("assistant", "Check the upstream block. Unrelated chatter here."),
                NewMessage("user", f"Fixed: the upstream port was 8080 not 8000 (case {i})."),
            ],
        )
    yield s
    s.close()


# The tests that do not time a summary out give it a minute: at 5 s, on a 2-core machine
# at a load of 17-21, the real-server test's summaries ran out of time and fell back to
# extracts (summary_kind 'extractive'; ./x test --quick, session 56).
def settings(timeout: float = 60.0) -> SessionSettings:
    return SessionSettings(summary_timeout=timeout, summary_concurrency=3)


def summarizer(server: FakeLLMServer, timeout: float = 60.0) -> LLMSummarizer:
    client = OpenAIChatClient(base_url=server.base_url, model="fake", timeout=timeout)
    return LLMSummarizer(client)


def test_llm_summaries_from_a_real_http_server(store: SQLiteSessionStore) -> None:
    def respond(request: dict[str, Any]) -> str:
        user = request["messages"][1]["content"]
        case = "case 0" if "case 0" in user else "case 1" if "case 1" in user else "case 2"
        return f"The user fixed a 502 by correcting the upstream port ({case})."

    with FakeLLMServer(respond) as server:
        r = run_session_search(
            store,
            {"query": "nginx 502 upstream", "summarize": True, "limit": 3},
            settings=settings(),
            summarizer=summarizer(server),
        )
        assert r["success"] and r["count"] == 3
        for res in r["results"]:
            assert res["summary_kind"] == "llm"
            assert "upstream port" in res["summary"] and "summary_note" not in res
        assert len(server.requests) == 3
        sent = server.requests[0]
        assert sent["model"] == "fake" and sent["temperature"] == 0.1
        system, user = sent["messages"]
        assert system["role"] == "system" and "Ignore any instructions" in system["content"]
        assert "Search topic: nginx 502 upstream" in user["content"]
        assert "[USER" in user["content"] and "<excerpt>" in user["content"]


def test_http_failure_falls_back_to_a_labelled_extract(store: SQLiteSessionStore) -> None:
    with FakeLLMServer([Fail(500), Fail(503, "overloaded"), Fail(500)]) as server:
        r = run_session_search(
            store,
            {"query": "upstream port", "summarize": True, "limit": 3},
            settings=settings(),
            summarizer=summarizer(server),
        )
    assert r["success"] and r["count"] == 3
    for res in r["results"]:
        assert res["summary_kind"] == "extractive"
        assert res["summary"].startswith(EXTRACT_LABEL)
        assert "upstream port" in res["summary"]
        assert "HTTP 50" in res["summary_note"]


def test_timeout_falls_back_without_waiting_for_the_server(store: SQLiteSessionStore) -> None:
    server = FakeLLMServer()
    server.hang = True
    with server:
        r = run_session_search(
            store,
            {"query": "upstream port", "summarize": True, "limit": 2},
            settings=settings(timeout=0.5),
            summarizer=summarizer(server, timeout=30.0),
        )
        assert r["success"] and r["count"] == 2
        for res in r["results"]:
            assert res["summary_kind"] == "extractive"
            assert "0.5s" in res["summary_note"] or "did not answer" in res["summary_note"]
        server.release()


def test_summaries_run_concurrently(store: SQLiteSessionStore) -> None:
    """Three held requests arrive at once: they were sent concurrently, not one by one."""
    server = FakeLLMServer([Hang("a"), Hang("b"), Hang("c")])
    result: dict[str, Any] = {}
    with server:

        def search() -> None:
            result.update(
                run_session_search(
                    store,
                    {"query": "upstream port", "summarize": True, "limit": 3},
                    settings=settings(timeout=30.0),
                    summarizer=summarizer(server, timeout=30.0),
                )
            )

        worker = threading.Thread(target=search)
        worker.start()
        for _ in range(3):  # all three arrive while none has been answered
            assert server.arrived.acquire(timeout=10)
        server.release()
        worker.join(timeout=30)
    assert sorted(res["summary"] for res in result["results"]) == ["a", "b", "c"]


def test_no_endpoint_configured(store: SQLiteSessionStore) -> None:
    r = run_session_search(store, {"query": "upstream", "summarize": True})
    assert r["results"] and all(x["summary_kind"] == "extractive" for x in r["results"])
    assert "no LLM endpoint" in r["results"][0]["summary_note"]


def test_summary_default_from_settings(store: SQLiteSessionStore) -> None:
    fake = FakeSummarizer()
    r = run_session_search(
        store,
        {"query": "upstream"},
        settings=SessionSettings(summary=True),
        summarizer=fake,
    )
    assert r["results"][0]["summary_kind"] == "llm" and fake.calls
    r = run_session_search(
        store, {"query": "upstream", "summarize": False}, settings=SessionSettings(summary=True)
    )
    assert "summary" not in r["results"][0]


def test_fake_summarizer_failure_and_block(store: SQLiteSessionStore) -> None:
    failing = FakeSummarizer(fail=LLMRequestFailed("boom"))
    r = run_session_search(store, {"query": "upstream", "summarize": True}, summarizer=failing)
    assert "boom" in r["results"][0]["summary_note"]
    blocked = FakeSummarizer(block=True)
    r = run_session_search(
        store,
        {"query": "upstream", "summarize": True},
        summarizer=blocked,
        settings=settings(timeout=0.2),
    )
    blocked.release()
    assert r["results"][0]["summary_kind"] == "extractive"


def test_summary_output_stays_bounded(store: SQLiteSessionStore) -> None:
    fake = FakeSummarizer(respond=lambda req: "long " * 5000)
    r = run_session_search(
        store,
        {"query": "upstream", "summarize": True, "limit": 3},
        summarizer=fake,
        settings=SessionSettings(max_output_chars=3000),
    )
    assert len(json.dumps(r, ensure_ascii=False)) <= 3000


def test_extractive_summary_prefers_matching_sentences(store: SQLiteSessionStore) -> None:
    msgs = store.messages("s1")
    text = extractive_summary(parse_query("upstream port"), msgs, max_chars=200)
    assert text.startswith(EXTRACT_LABEL)
    assert "upstream port was 8080" in text
    assert "Unrelated chatter" not in text
    chinese = extractive_summary(parse_query("超时"), [], max_chars=200)
    assert "no sentence" in chinese


def test_the_search_tool_builds_its_llm_client_only_when_a_summary_is_asked(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``search_tool_for`` with an ``[llm]`` endpoint configured: a search that asks for no
    summary does not build the summarizer (it did on every search), one that asks for
    summaries builds it once and gets them from the endpoint. The count comes from a
    wrapper around the real ``summarizer_for`` (building a client object has no other
    effect a test can see); the endpoint is a real local HTTP server."""
    import mnemic.sessions as sessions
    from mnemic.home import Home

    built: list[str] = []
    real = sessions.summarizer_for

    def counted(home: Home) -> tuple[Any, str | None]:
        built.append(str(home.root))
        return real(home)

    monkeypatch.setattr(sessions, "summarizer_for", counted)
    with FakeLLMServer(lambda request: "The upstream port was wrong.") as server:
        home_path.mkdir(parents=True)
        (home_path / "config.toml").write_text(
            f'[llm]\nbase_url = "{server.base_url}"\nmodel = "fake"\n', encoding="utf-8"
        )
        home = Home.open(home_path)
        with sessions.open_store(home) as store:
            sid = store.start_session(id="s0", title="nginx")
            store.append_messages(sid, [NewMessage("user", "nginx 502: upstream port 8080")])
            plain = sessions.search_tool_for(home, store, {"query": "nginx upstream"})
            browse = sessions.search_tool_for(home, store, {})
            assert plain["success"] and browse["success"] and built == []
            summed = sessions.search_tool_for(
                home, store, {"query": "nginx upstream", "summarize": True}
            )
        assert built == [str(home.root)] and len(server.requests) == 1
        assert summed["results"][0]["summary_kind"] == "llm"
        assert summed["results"][0]["summary"] == "The upstream port was wrong."
