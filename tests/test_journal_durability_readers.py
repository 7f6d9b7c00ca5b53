"""``[memory] durability = "journal"``: what a READER shows after a power cut.

A power cut may lose the text a write renamed into place without an fsync; the next
writer's open rebuilds it from the audit journal (``test_journal_durability.py``). A
reader that opens no writer (``mnemic prompt`` and the session-start hook, which render
through ``render_snapshot``; ``memory show``; the console's views; a session whose open
found the lock busy; a home this user cannot write) shows the committed text too: rebuilt
durably when it can take the lock and write, else rebuilt in memory with nothing
written. A hand edit still reads as a hand edit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from _cli import cli, cli_json
from mnemic import render_snapshot
from mnemic.backends.files import curated as files_curated, lost as files_lost
from mnemic.backends.files.flusher import drain
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.errors import ReadOnlyHome
from mnemic.fsio import SidecarLock
from mnemic.integrations.hook import run_claude_code_hook
from test_journal_durability import CALLS, LOSSES, _lose, _reboot


@pytest.fixture(autouse=True)
def journal_durability(_isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMIC_MEMORY_DURABILITY", "journal")
    monkeypatch.setattr(files_lost, "_BOOT", ["boot-1"])


def _call(mem: Memory, call: dict[str, Any]) -> None:
    out = run_memory_tool(mem, json.dumps(call))
    assert out["success"], out


def _journal(home: Path) -> bytes:
    drain()
    return (home / "audit" / "journal.jsonl").read_bytes()


def _prompt(home: Path) -> str:
    return render_snapshot(str(home))


def _cli_prompt(home: Path, *args: str) -> str:
    result = cli("prompt", *args)
    assert result.exit_code == 0, result.output
    return result.output


def _memory_only(home: Path) -> str:
    """``mnemic prompt --memory-only``: other agents' session-start hooks."""
    return _cli_prompt(home, "--memory-only")


def _hook(home: Path) -> str:
    result = run_claude_code_hook(b'{"hook_event_name": "SessionStart"}', home_path=str(home))
    assert result.ok, result.message
    context: str = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    return context


def _show(home: Path) -> list[str]:
    out = cli_json("memory", "show", "--raw")
    return [*out["memory"]["entries"], "|", *out["user"]["entries"]]


def _view(home: Path) -> list[str]:
    """The console's read: a view's listing of each target."""
    view = MemoryView.open(home)
    return [*view.listing("memory").entries, "|", *view.listing("user").entries]


def _session(home: Path) -> list[str]:
    """A session whose open could not rebuild (its lock was busy): its frozen snapshot."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(files_curated.FileBackend, "replay_pending", lambda self: [])
        mem = Memory.open(home)
    snap = mem.snapshot
    return [*snap.entries["memory"], "|", *snap.entries["user"]]


READERS: dict[str, Callable[[Path], object]] = {
    "render_snapshot": _prompt,
    "mnemic prompt": _cli_prompt,
    "mnemic prompt --memory-only": _memory_only,
    "session-start hook": _hook,
    "memory show": _show,
    "console view": _view,
    "session open with the lock busy": _session,
}

LAST = {"add": 1, "replace": 3, "remove": 5}
"""The call after which the power cut comes (an append, and two splices)."""


def _writes(home: Path, last: int) -> None:
    mem = Memory.open(home)
    for call in CALLS[: last + 1]:
        _call(mem, call)
    drain()


def _cut(home: Path, monkeypatch: pytest.MonkeyPatch, kind: str, last: int) -> Path:
    """A power cut after call ``last`` of MEMORY.md: its file left as ``kind``, a reboot."""
    path = home / "memories" / "MEMORY.md"
    history = home / "memories" / ".history"
    versions = [n for n in os.listdir(history) if n.startswith("MEMORY.md.")]
    newest = max(versions, key=lambda n: int(n.split(".")[2]))  # the text before the last
    before = (history / newest).read_bytes()
    _lose(path, kind, before, home / "memories" / ".history")
    _reboot(monkeypatch, "boot-2")
    return path


def _bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("kind", LOSSES)
@pytest.mark.parametrize("last", list(LAST.values()), ids=list(LAST))
def test_a_reader_after_a_power_cut_shows_the_committed_text_and_repairs_it(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str, kind: str, last: int
) -> None:
    _writes(home_path, last)
    shown = READERS[reader](home_path)  # before the cut
    path = home_path / "memories" / "MEMORY.md"
    committed = path.read_bytes()
    _cut(home_path, monkeypatch, kind, last)
    assert READERS[reader](home_path) == shown
    # the lock was free and the home writable: repaired durably, and recorded
    assert path.read_bytes() == committed
    last_record = json.loads(_journal(home_path).splitlines()[-1])
    assert (last_record["action"], last_record["cause"]) == ("recovered", "replayed")


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("kind", LOSSES)
def test_a_reader_that_cannot_take_the_lock_shows_the_committed_text_writing_nothing(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str, kind: str
) -> None:
    """The lock busy (another writer holds it): the text is rebuilt in memory, nothing is
    written; once the lock is free, the next read repairs it."""
    _writes(home_path, LAST["replace"])
    shown = READERS[reader](home_path)
    path = home_path / "memories" / "MEMORY.md"
    committed = path.read_bytes()
    _cut(home_path, monkeypatch, kind, LAST["replace"])
    damaged, journal = _bytes(path), _journal(home_path)
    busy = SidecarLock(home_path / "memories" / "MEMORY.md.lock", 0.0)
    busy.acquire()
    try:
        assert READERS[reader](home_path) == shown
        assert _bytes(path) == damaged
        assert _journal(home_path) == journal
    finally:
        busy.release()
    assert READERS[reader](home_path) == shown  # the lock free: repaired
    assert path.read_bytes() == committed


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("kind", LOSSES)
def test_a_reader_on_a_read_only_home_shows_the_committed_text_writing_nothing(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str, kind: str
) -> None:
    """No lock can be opened and no file made (the home is read-only; the tests run as
    root, so the refusal is simulated where mnemic meets it)."""
    if reader == "session open with the lock busy":
        pytest.skip("a session opens as a writer: a read-only home refuses its writes")
    _writes(home_path, LAST["replace"])
    shown = READERS[reader](home_path)
    path = _cut(home_path, monkeypatch, kind, LAST["replace"])
    damaged, journal = _bytes(path), _journal(home_path)

    def refused(self: SidecarLock) -> int | None:
        raise ReadOnlyHome(str(self.path), "Read-only file system")

    monkeypatch.setattr(SidecarLock, "_open", refused)
    monkeypatch.setattr(files_curated, "_durable_temp", _refuse_temp)
    assert READERS[reader](home_path) == shown
    assert _bytes(path) == damaged
    assert _journal(home_path) == journal


def _refuse_temp(path: Path, data: bytes, tag: str) -> str:
    raise ReadOnlyHome(str(path), "Read-only file system")


@pytest.mark.parametrize("reader", list(READERS))
def test_a_hand_edit_after_a_reboot_reads_as_a_hand_edit_and_nothing_is_written(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    _writes(home_path, 1)
    path = home_path / "memories" / "MEMORY.md"
    edited = "An entry typed by hand.\n§\nThe repo builds with make -j2.\n"
    path.write_text(edited, encoding="utf-8")
    shown = READERS[reader](home_path)  # the same boot: a hand edit
    journal = _journal(home_path)
    _reboot(monkeypatch, "boot-2")
    assert READERS[reader](home_path) == shown
    assert path.read_text(encoding="utf-8") == edited
    assert _journal(home_path) == journal


def test_a_reader_in_files_mode_reads_the_file_as_it_is(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files setting never rebuilds (each write is durable by its own fsyncs)."""
    monkeypatch.setenv("MNEMIC_MEMORY_DURABILITY", "files")
    mem = Memory.open(home_path)
    for call in CALLS[:2]:
        _call(mem, call)
    path = home_path / "memories" / "MEMORY.md"
    path.write_bytes(b"")
    _reboot(monkeypatch, "boot-2")
    assert "MEMORY" not in _prompt(home_path)
    assert path.read_bytes() == b""


def test_the_prompt_hook_s_look_imports_neither_the_governance_kernel_nor_the_backend(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look every session start takes in this mode reads the journal's end with
    ``os`` and ``json`` (``backends/files/lost.py``): the kernel and the curated backend
    are imported only for a text to rebuild."""
    monkeypatch.setattr(files_lost, "_BOOT", [])  # this machine's boot, as the child's
    _writes(home_path, 1)
    code = (
        "import sys; from mnemic import render_snapshot; "
        f"text = render_snapshot({str(home_path)!r}); "
        "print('make -j2' in text, sorted(m for m in sys.modules if m.startswith("
        "('mnemic.governance', 'mnemic.backends.files.curated', 'mnemic.backends.files.journal'))))"
    )
    env = {**os.environ, "MNEMIC_MEMORY_DURABILITY": "journal"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split(None, 1) == ["True", "[]\n"]
