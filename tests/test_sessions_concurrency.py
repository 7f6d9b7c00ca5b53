"""Several processes recording into one sessions.db at once: nothing lost, no error."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, SearchFilters, parse_query

WRITER = textwrap.dedent(
    """
    import sys
    from mnemic.backends.files.sqlite import SQLiteSessionStore
    from mnemic.sessions import NewMessage

    path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = SQLiteSessionStore(path)
    own = store.start_session(id=f"own-{name}", source="cli")
    print("ready", flush=True)
    assert sys.stdin.readline().strip() == "go"
    for i in range(count):
        store.append_message(own, NewMessage("user", f"tok{name}x{i} private"))
        store.append_message("shared", NewMessage("assistant", f"tok{name}y{i} shared"))
        if i % 25 == 0:
            store.append_messages(
                own, [NewMessage("tool", f"tok{name}z{i}a"), NewMessage("tool", f"tok{name}z{i}b")]
            )
    store.end_session(own, "done")
    store.close()
    print("done", flush=True)
    """
)


def _spawn(path: Path, name: str, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), name, str(count)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize(("writers", "count"), [(4, 60)])
def test_processes_record_concurrently(tmp_path: Path, writers: int, count: int) -> None:
    path = tmp_path / "sessions.db"
    store = SQLiteSessionStore(path)
    store.start_session(id="shared", source="cli")
    procs = {f"p{i}": _spawn(path, f"p{i}", count) for i in range(writers)}
    for name, proc in procs.items():  # every writer is ready before any starts writing
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line == "ready", (name, line, proc.stderr.read() if proc.stderr else "")
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, (name, err)
        assert err == "", (name, err)  # no "database is locked", no warning
        assert out.strip() == "done"

    extra = 2 * len(range(0, count, 25))
    for name in procs:
        info = store.get_session(f"own-{name}")
        assert info.message_count == count + extra and info.end_reason == "done"
        assert [m.seq for m in store.messages(info.id)] == list(range(count + extra))
    shared = store.messages("shared")
    assert [m.seq for m in shared] == list(range(writers * count))
    for name in procs:  # every writer's messages, in its own order
        mine = [m.content for m in shared if (m.content or "").startswith(f"tok{name}y")]
        assert mine == [f"tok{name}y{i} shared" for i in range(count)]
    for name in procs:  # and every message is searchable
        for i in (0, count // 2, count - 1):
            hits = store.search(parse_query(f"tok{name}x{i}"), SearchFilters())
            assert [(h.session_id, h.seq) for h in hits][:1] == [(f"own-{name}", hits[0].seq)]
    total = store.search(parse_query("shared"), SearchFilters(), limit=10_000)
    assert len(total) == writers * count
    assert store._read("PRAGMA integrity_check") == [("ok",)]
    assert (
        store._read("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 0)")
        == []
    )
    store.close()


def test_threads_share_one_store(tmp_path: Path) -> None:
    store = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    sid = store.start_session(id="t")
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            barrier.wait()
            for i in range(50):
                store.append_message(sid, NewMessage("user", f"thread{n} item{i}"))
                store.search(parse_query(f"thread{n}"), SearchFilters())
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [m.seq for m in store.messages(sid)] == list(range(200))
    store.close()


@pytest.mark.slow
def test_many_processes_heavier(tmp_path: Path) -> None:
    test_processes_record_concurrently(tmp_path, 8, 150)
