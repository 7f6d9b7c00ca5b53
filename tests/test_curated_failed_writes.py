"""A write that does not commit leaves the history exactly as it was.

The failures here are real ones: text the file system cannot take (not encodable as
UTF-8), a file that cannot be decoded, and the kernel refusing the write itself
(``RLIMIT_FSIZE`` in a child process makes ``write(2)`` fail with ``EFBIG``, which is
what a full disk looks like to the writer: the data cannot be stored, nothing else
changes). No mock is involved.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from mnemic.backends.files.curated import FileBackend
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.errors import ContentRejected, WriteFailed
from mnemic.fsio import stale_temp_files

MakeMemory = Callable[..., Memory]


def history_state(backend: FileBackend, target: str = "memory") -> list[tuple[int, str]]:
    """Every kept version of a target with its text, oldest first."""
    return [(v.id, backend.read_version(target, v.id)) for v in backend.history(target)]


def full_history(make_memory: MakeMemory, **settings: object) -> tuple[Memory, FileBackend]:
    """A memory whose history is full (history_limit = 3 reached after the next write)."""
    mem = make_memory(history_limit=3, **settings)
    for fact in ("fact one", "fact two", "fact three", "fact four"):
        mem.add("memory", fact)
    backend = mem.backend
    assert isinstance(backend, FileBackend)
    assert [v for v, _ in history_state(backend)] == [1, 2, 3]
    return mem, backend


def test_text_that_cannot_be_encoded_is_refused_without_touching_history(
    make_memory: MakeMemory,
) -> None:
    _, backend = full_history(make_memory)
    kept, current = history_state(backend), backend.read("memory")
    for i in range(3):
        with (
            pytest.raises(WriteFailed, match="cannot be stored as UTF-8"),
            backend.transaction(["memory"], 5.0) as txn,
        ):
            txn.write({"memory": f"fact {i} \ud800"})
    assert history_state(backend) == kept
    assert backend.read("memory") == current
    assert stale_temp_files(backend.path("memory")) == []


def test_old_provenance_sidecars_an_earlier_version_left_go_at_the_next_open(
    home_path: Path,
) -> None:
    """Earlier versions renamed the provenance sidecar aside at each write; a process
    that ended before removing one left it behind. The next open removes them, and
    forgetting a target removes its own (no write makes them any more)."""
    home_path.mkdir()
    Memory.open(home_path).add("memory", "fact one")
    memories = home_path / "memories"
    for name in (".MEMORY.md.prov-aaaaaaaaaaaa.old", ".USER.md.prov-bbbbbbbbbbbb.old"):
        (memories / name).write_text("{}")
    Memory.open(home_path)
    assert [n for n in os.listdir(memories) if ".prov-" in n] == []
    (memories / ".USER.md.prov-cccccccccccc.old").write_text("{}")
    gone = FileBackend(memories).purge("user", lock_timeout=5.0)
    assert any(p.endswith(".old") for p in gone)
    assert [n for n in os.listdir(memories) if n.startswith(".USER.md")] == []


def test_failed_two_target_write_leaves_both_histories_and_no_intent(
    make_memory: MakeMemory,
) -> None:
    mem, backend = full_history(make_memory)
    mem.add("user", "Name: Ada")
    mem.add("user", "Prefers tea")
    kept = {t: history_state(backend, t) for t in ("memory", "user")}
    with (
        pytest.raises(WriteFailed),
        backend.transaction(["memory", "user"], 5.0) as txn,
    ):
        txn.write({"memory": "fine text", "user": "bad \udfff text"})
    assert {t: history_state(backend, t) for t in ("memory", "user")} == kept
    assert not backend.intent_path.exists()
    assert stale_temp_files(backend.intent_path) == []
    assert mem.entries("user") == ["Name: Ada", "Prefers tea"]


def test_lone_surrogate_in_content_is_refused_before_the_lock(make_memory: MakeMemory) -> None:
    mem, backend = full_history(make_memory)
    kept = history_state(backend)
    for _ in range(3):
        with pytest.raises(ContentRejected, match="lone surrogate") as info:
            mem.add("memory", "broken \ud83d text")
        assert info.value.reason == "not_utf8"
    assert history_state(backend) == kept


def test_adds_to_an_undecodable_file_leave_history_as_it_was(make_memory: MakeMemory) -> None:
    mem, backend = full_history(make_memory)
    kept = history_state(backend)
    path = backend.path("memory")
    data = path.read_bytes() + b"\n\xff\xfe hand-pasted bytes"
    path.write_bytes(data)
    for i in range(3):
        resp = run_memory_tool(mem, {"action": "add", "target": "memory", "content": f"new {i}"})
        assert resp["error_code"] == "unreadable_file"
    assert history_state(backend) == kept
    assert path.read_bytes() == data


CHILD = textwrap.dedent(
    """
    import json, resource, signal, sys
    from mnemic.curated.memory import Memory
    from mnemic.curated.tool import run_memory_tool

    # The kernel refuses to grow any file past the limit (write(2) -> EFBIG once
    # SIGXFSZ is ignored): the memory file's new text does not fit, the small audit
    # journal does.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limit = int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    mem = Memory.open(sys.argv[1])
    out = []
    for i in range(3):
        content = f"note {i}: " + " ".join(f"word{j}" for j in range(limit // 5))
        out.append(run_memory_tool(mem, {"action": "add", "target": "memory", "content": content}))
    print(json.dumps(out))
    """
)


def test_write_refused_by_the_kernel_leaves_history_exactly_as_it_was(
    make_memory: MakeMemory, home_path: Path
) -> None:
    _, backend = full_history(make_memory, memory_char_limit=60_000)
    kept, current = history_state(backend), backend.read("memory")
    r = subprocess.run(
        [sys.executable, "-c", CHILD, str(home_path), "20000"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "MNEMIC_HOME": str(home_path)},
    )
    assert r.returncode == 0, r.stderr
    responses = json.loads(r.stdout)
    assert [resp["error_code"] for resp in responses] == ["write_failed"] * 3
    assert "File too large" in responses[0]["error"]
    assert history_state(backend) == kept
    assert backend.read("memory") == current
    assert stale_temp_files(backend.path("memory")) == []
