"""Bulk imports into SQLite index each batch from columns computed ahead (in the
segmentation worker, or in-process for the first batch), written in one statement: the
index they build is the one appending message by message builds, term for term, and a
killed import run again leaves every message once, each one in the index once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, NewSession, SearchFilters, parse_query

TEXTS = [
    "Deploy v2.3.1 to /srv/app/main.py and mail alice@example.com about it",
    "记忆文件的更新需要审批，然后写入日志。",
    "会議の議事録を共有フォルダに保存しました",
    "세션 기록을 검색할 수 있습니다 with English words",
    "ＦＵＬＬ－ＷＩＤＴＨ text and ﬁ ligatures, café naïve",
    "https://docs.python.org/3/library/sqlite3.html explains executemany",
    "",
    "the same words again and again",
    "the same words again and again",
    "mixed 中文 and English, user_name-42 and key=value&x=1",
]
CALLS = [
    [{"id": "c1", "type": "function",
      "function": {"name": "web_search", "arguments": '{"q": "北京 weather", "n": 3}'}}],
    [{"id": "c2", "name": "read_file", "input": {"path": "/etc/hosts", "lines": [1, 2]}}],
]  # fmt: skip
QUERIES = [
    "deploy", "v2.3.1", "alice@example.com", "example", "记忆", "审批", "日", "議事録",
    "검색", "full width", "ligatures", "cafe", "sqlite3", "executemany", "words again",
    "中文", "user_name-42", "web_search", "北京", "weather", "hosts", "read_file", "名前",
]  # fmt: skip


def corpus(sessions: int = 40) -> list[tuple[NewSession, list[NewMessage]]]:
    """Sessions mixing English, Chinese, Japanese, Korean, compounds, full-width text,
    empty content, repeated content, participant names and tool calls of both shapes."""
    items = []
    for s in range(sessions):
        msgs = []
        for k in range(7 + s % 5):
            text = TEXTS[(s + k) % len(TEXTS)] + f" s{s}m{k}"
            if k == 3:
                msgs.append(NewMessage("assistant", "", tool_calls=CALLS[s % 2], timestamp=k))
                msgs.append(NewMessage("tool", text, tool_name="web_search", timestamp=k))
            elif k == 5:
                msgs.append(NewMessage("user", text, name="名前 Bob", timestamp=k))
            else:
                msgs.append(NewMessage("user" if k % 2 else "assistant", text, timestamp=k))
        items.append((NewSession(id=f"s{s:03d}", source="cli", started_at=s), msgs))
    return items


def index_terms(store: SQLiteSessionStore) -> list[tuple[object, ...]]:
    """Every (term, session, seq, column, offset) the full-text index holds."""
    store.flush_index()
    conn = store._conn
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, messages_fts, "
        "instance)"
    )
    rows = conn.execute(
        "SELECT v.term, s.id, m.seq, v.col, v.offset FROM temp.vocab v "
        "JOIN messages m ON m.id = v.doc JOIN sessions s ON s.sid = m.sid"
    ).fetchall()
    return sorted(rows)


def ranked(store: SQLiteSessionStore) -> list[list[tuple[str, int, float]]]:
    out = []
    for q in QUERIES:
        hits = store.search(parse_query(q), SearchFilters(), limit=1000)
        out.append([(h.session_id, h.seq, round(h.score, 9)) for h in hits])
    return out


def appended_one_by_one(path: Path) -> SQLiteSessionStore:
    store = SQLiteSessionStore(path, durable=False)
    for spec, msgs in corpus():
        store.start_session(spec)
        for msg in msgs:
            store.append_message(str(spec.id), msg)
    return store


@pytest.mark.parametrize("workers", [None, 0])
def test_a_bulk_import_builds_the_index_appending_one_by_one_builds(
    tmp_path: Path, workers: int | None
) -> None:
    with (
        appended_one_by_one(tmp_path / "appended.db") as one,
        SQLiteSessionStore(tmp_path / "bulk.db", durable=False) as bulk,
    ):
        done = list(bulk.import_sessions(corpus(), batch=60, workers=workers))
        assert len(done) == 40
        expected = index_terms(one)
        assert len(expected) > 3000
        assert index_terms(bulk) == expected
        results = ranked(one)
        assert all(results), "every query finds something"
        assert ranked(bulk) == results


def test_a_bulk_import_indexes_its_batches_without_an_sql_function_call_per_row(
    tmp_path: Path,
) -> None:
    """The batches' columns were computed before the write: the statement that would
    compute them row by row (through SQL functions) never runs."""
    with SQLiteSessionStore(tmp_path / "bulk.db", durable=False) as store:
        statements: list[str] = []
        store._conn.set_trace_callback(statements.append)
        done = list(store.import_sessions(corpus(), batch=60))
        store._conn.set_trace_callback(None)
        assert sum(len(d.message_ids or ()) for d in done) == sum(len(m) for _, m in corpus())
        assert statements
        assert not [s for s in statements if "mnemic_fts_" in s]
        hits = store.search(parse_query("議事録"), SearchFilters(), limit=1000)
        holding = [m for _, msgs in corpus() for m in msgs if "議事録" in (m.content or "")]
        assert len(hits) == len(holding) > 0


SESSIONS = 300
PER_SESSION = 6

CHILD = textwrap.dedent(
    """
    import sys
    from mnemic.backends.files.sqlite import SQLiteSessionStore
    from mnemic.sessions import import_path


    class Reporting:
        \"\"\"The store, printing a line after each committed session of an import.\"\"\"

        def __init__(self, store):
            self.store = store

        def __getattr__(self, name):
            return getattr(self.store, name)

        def import_sessions(self, *args, **kwargs):
            for result in self.store.import_sessions(*args, **kwargs):
                print("progress", flush=True)
                yield result


    store = Reporting(SQLiteSessionStore(sys.argv[1]))
    print("ready", flush=True)
    import_path(store, sys.argv[2], batch=200)
    print("done", flush=True)
    """
)


def chat_file(path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        for s in range(SESSIONS):
            for k in range(PER_SESSION):
                text = f"everyword 记录{'甲乙丙'[k % 3]} s{s}m{k}"
                row = {"session_id": f"s{s:03d}", "role": "user", "content": text}
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def run_import(db: Path, path: Path, kill_after: int | None) -> bool:
    """A real import process; SIGKILLed right after its ``kill_after``-th committed
    session. False if it finished first."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    if kill_after is None:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        return False
    lines: Iterator[str] = iter(proc.stdout.readline, "")
    seen = 0
    while seen < kill_after:
        line = next(lines, "")
        if not line or line.strip() == "done":
            proc.communicate(timeout=300)
            return False
        seen += 1
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    return True


def check(db: Path, complete: bool) -> int:
    """Every stored session whole, every message once; the index holds each stored
    message once (Latin and CJK terms). Return the sessions stored."""
    with SQLiteSessionStore(db) as store:
        infos = store.list_sessions(limit=10 * SESSIONS)
        for info in infos:
            texts = [m.content for m in store.messages(info.id)]
            s = int(info.id[1:])
            assert texts == [
                f"everyword 记录{'甲乙丙'[k % 3]} s{s}m{k}" for k in range(PER_SESSION)
            ]
        stored = len(infos)
        if complete:
            assert stored == SESSIONS
        for q, per_session in (("everyword", PER_SESSION), ("记录", PER_SESSION), ("录甲", 2)):
            hits = store.search(parse_query(q), SearchFilters(), limit=100_000)
            assert len(hits) == len({h.message_id for h in hits}) == stored * per_session, q
        return stored


@pytest.mark.slow
def test_an_import_killed_midway_and_run_again_stores_and_indexes_each_message_once(
    tmp_path: Path,
) -> None:
    path = chat_file(tmp_path / "chat.jsonl")
    killed = 0
    for n, point in enumerate((0, 1, 40, 150, 250)):
        db = tmp_path / f"s{n}.db"
        killed += run_import(db, path, point)
        check(db, complete=False)
        run_import(db, path, None)
        assert check(db, complete=True) == SESSIONS
    assert killed >= 4, "the imports finished before they could be killed"
