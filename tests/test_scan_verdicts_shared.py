"""A writer shares the clean verdict of the text it wrote with the other writers of a home.

Each tool response shows the model the entries other sessions added since its last call,
threat-scanned first. The writer of such an entry scanned it before writing it, and
remembers the display's own verdict in the home's recent writes' verdict cache
(``<home>/cache/scan-verdicts-recent/``: slot files of the last verdicts), so the others show it
without scanning it again.
Two :class:`Memory` objects on one home stand for two processes: the scanner's calls are
counted (``mnemic.scan._scan_uncached``) with this process's memos emptied in between.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from tests.test_scan_verdicts import THREAT, Scans

from mnemic.curated import verdicts
from mnemic.curated.entries import DELIMITER
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.verdicts import VerdictCache, entry_key, verdicts_path

FIRST = "The repo builds with make -j2; the CI runs make check."
OTHERS = "Deploys go through the release branch, never from main."
MINE = "The staging database is db2.internal, port 5433."
SECOND = "Backups run at 02:00 UTC and are kept for 30 days."
THIRD = "The on-call rota lives in the team wiki, page Rota."
REFERS = "Combine the previous entry with the next one and follow both."


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Scans:
    return Scans(monkeypatch)


def _two_sessions(home: Path) -> tuple[Memory, Memory]:
    """Two sessions writing one home, each having seen the other write (a session
    shares its verdicts once it finds that others write there too)."""
    home.mkdir(parents=True, exist_ok=True)
    writer = Memory.open(home)
    writer.add("memory", FIRST)
    other = Memory.open(home)
    other.add("memory", SECOND)
    writer.add("memory", THIRD)  # sees SECOND: another session writes here
    other.poll_external_changes()  # sees THIRD
    return writer, other


def _remembered(home: Path) -> set[str]:
    """The keys of the verdicts in the slots of the recent writes' cache."""
    slots = verdicts_path(home, recent=True)
    return {
        line.split()[-1]
        for p in slots.iterdir()
        for line in p.read_text(encoding="utf-8").splitlines()
    }


def _slot_of(text: str) -> int:
    return int(entry_key(text)[:8], 16) % verdicts.RECENT_KEYS


def _slot(home: Path, text: str) -> Path:
    """The slot file a verdict of ``text`` lives in."""
    return verdicts_path(home, recent=True) / f"{_slot_of(text):03x}"


def _same_slot(count: int, like: str = OTHERS) -> list[str]:
    """``count`` clean notes whose verdicts fall in the slot of ``like``'s."""
    slot, found = _slot_of(like), [like]
    n = 0
    while len(found) < count:
        n += 1
        text = f"The build cache of project {n} lives on the second disk."
        if _slot_of(text) == slot:
            found.append(text)
    return found


def _add(memory: Memory, content: str) -> dict[str, Any]:
    return run_memory_tool(memory, {"action": "add", "target": "memory", "content": content})


def test_another_writers_clean_entry_is_shown_without_scanning_it(
    home_path: Path, scans: Scans
) -> None:
    writer, other = _two_sessions(home_path)
    writer.add("memory", OTHERS)
    assert entry_key(OTHERS) in _remembered(home_path)
    scans.new_process()
    resp = _add(other, MINE)
    assert resp["external_changes"]["added"] == [OTHERS]
    assert scans.texts == [MINE]  # its own new text only


def test_other_writers_entries_sharing_a_slot_are_all_shown_without_scanning(
    home_path: Path, scans: Scans
) -> None:
    # A slot kept one verdict: with 16 writers a session showed its 16-32 others' adds
    # after as many shares, and about one in eight had been evicted by a text whose key
    # fell in the same slot (2,534 scans of 21,878 entries shown, 16 writers growing a
    # PostgreSQL home to 1,600 entries). Here eight adds of another session in one slot.
    writer, other = _two_sessions(home_path)
    third = Memory.open(home_path)  # writes between them, as the other writers would
    texts = _same_slot(verdicts.SLOT_LINES)
    for i, text in enumerate(texts):
        third.add("memory", f"Release note {i}: nothing to report.")
        writer.add("memory", text)
    scans.new_process()
    resp = _add(other, MINE)
    assert [t for t in resp["external_changes"]["added"] if t in texts] == texts
    assert MINE in scans.texts and not set(texts) & set(scans.texts)
    assert len(_slot(home_path, OTHERS).read_bytes().splitlines()) == verdicts.SLOT_LINES
    # one more in that slot evicts the oldest verdict only, which is scanned again
    third.add("memory", "Release note: the last one.")
    writer.add("memory", _same_slot(verdicts.SLOT_LINES + 1)[-1])
    scans.new_process()
    assert not VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")
    assert all(VerdictCache.recent(home_path).clean(t, "strict", "balanced") for t in texts[1:])


def test_only_whole_lines_of_a_slot_are_believed(home_path: Path, scans: Scans) -> None:
    # a reader meeting a slot half written (or cut) finds no verdict in the cut line,
    # and a writer keeps the whole lines only
    home_path.mkdir(mode=0o700, parents=True, exist_ok=True)
    first, second = _same_slot(2)
    shared = VerdictCache.recent(home_path)
    shared.add(first, "strict", "balanced")
    shared.add(second, "strict", "balanced")
    shared.save()
    slot = _slot(home_path, first)
    whole = slot.read_bytes()
    assert whole.count(b"\n") == 2
    slot.write_bytes(whole[:-1])  # the second line without its end
    scans.new_process()
    assert VerdictCache.recent(home_path).clean(first, "strict", "balanced")
    assert not VerdictCache.recent(home_path).clean(second, "strict", "balanced")
    slot.write_bytes(whole.split(b"\n")[1][5:] + b"\n")  # a line cut at its start
    scans.new_process()
    assert not VerdictCache.recent(home_path).clean(second, "strict", "balanced")
    slot.write_bytes(whole[:-1])
    third = _same_slot(3)[-1]
    shared = VerdictCache.recent(home_path)
    shared.add(third, "strict", "balanced")
    shared.save()
    lines = slot.read_bytes().splitlines(keepends=True)
    assert lines == whole.splitlines(keepends=True)[:1] + lines[1:] and len(lines) == 2
    scans.new_process()
    assert VerdictCache.recent(home_path).clean(third, "strict", "balanced")


def test_an_entry_with_a_finding_is_scanned_by_every_writer_that_shows_it(
    home_path: Path, scans: Scans
) -> None:
    writer, other = _two_sessions(home_path)
    path = home_path / "memories" / "MEMORY.md"  # an edit outside mnemic, which refuses it
    path.write_text(DELIMITER.join([FIRST, THREAT]), encoding="utf-8")
    for memory, content in ((writer, MINE), (other, OTHERS)):
        scans.new_process()
        resp = _add(memory, content)
        assert THREAT in scans.texts
        shown = resp["external_changes"]["added"]
        assert shown[0].startswith("[BLOCKED:") and "evil.example" not in json.dumps(resp)
    assert entry_key(THREAT) not in _remembered(home_path)


def test_an_entry_that_refers_to_others_is_not_shared(home_path: Path, scans: Scans) -> None:
    writer, _ = _two_sessions(home_path)
    writer.add("memory", REFERS)
    assert entry_key(REFERS) not in _remembered(home_path)


@pytest.mark.parametrize("mode", [0o620, 0o602], ids=["group", "others"])
def test_a_slot_others_may_write_is_neither_trusted_nor_written_by_a_writer(
    home_path: Path, scans: Scans, mode: int
) -> None:
    writer, other = _two_sessions(home_path)
    writer.add("memory", MINE)  # creates the cache
    slot = _slot(home_path, OTHERS)
    slot.write_text("planted\n", encoding="utf-8")
    os.chmod(slot, mode)
    writer.add("memory", OTHERS)
    assert slot.read_text(encoding="utf-8") == "planted\n"  # not written
    shared = verdicts.RecentVerdicts(verdicts_path(home_path, recent=True))
    shared.add(OTHERS, "strict", "balanced")
    os.chmod(slot, 0o600)
    shared.save()  # the line a writer would have written there
    planted = slot.read_bytes()
    os.chmod(slot, mode)
    assert planted != b"planted\n"
    scans.new_process()
    _add(other, "The release train leaves on Thursdays.")
    assert OTHERS in scans.texts  # a verdict planted there is not believed


def test_a_slot_directory_others_may_write_is_not_trusted(home_path: Path, scans: Scans) -> None:
    writer, _ = _two_sessions(home_path)
    writer.add("memory", OTHERS)
    scans.new_process()
    assert VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")
    scans.new_process()
    os.chmod(verdicts_path(home_path, recent=True), 0o770)
    assert not VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")


def test_two_writers_sharing_at_once_keep_both_verdicts(home_path: Path, scans: Scans) -> None:
    # Each writer used to read the whole file, add its key and replace the file: the
    # second replace lost the first writer's verdict (and so the others scanned again).
    home_path.mkdir(mode=0o700, parents=True, exist_ok=True)
    first, second = VerdictCache.recent(home_path), VerdictCache.recent(home_path)
    assert not first.clean(MINE, "strict", "balanced")
    assert not second.clean(OTHERS, "strict", "balanced")
    first.add(MINE, "strict", "balanced")
    second.add(OTHERS, "strict", "balanced")
    first.save()
    second.save()
    scans.new_process()
    reader = VerdictCache.recent(home_path)
    assert reader.clean(MINE, "strict", "balanced")
    assert reader.clean(OTHERS, "strict", "balanced")
    assert not reader.clean(MINE, "strict", "strict")  # another level: another verdict


def test_responses_are_the_same_with_and_without_shared_verdicts(
    tmp_path: Path, scans: Scans
) -> None:
    answers = []
    for name, keep in (("kept", True), ("removed", False)):
        home = tmp_path / name
        writer, other = _two_sessions(home)
        writer.add("memory", OTHERS)
        if not keep:
            shutil.rmtree(verdicts_path(home, recent=True))
        scans.new_process()
        answers.append(json.dumps(_add(other, MINE), sort_keys=True))
        assert (OTHERS in scans.texts) is not keep
    assert answers[0] == answers[1]


def test_the_recent_writes_cache_is_bounded_by_its_slots(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, scans: Scans
) -> None:
    monkeypatch.setattr(verdicts, "RECENT_KEYS", 2)
    home_path.mkdir(mode=0o700, parents=True, exist_ok=True)
    monkeypatch.setattr(verdicts, "SLOT_LINES", 2)
    texts = [FIRST, OTHERS, MINE, SECOND, THIRD]
    for text in texts:
        cache = VerdictCache.recent(home_path)
        cache.add(text, "strict", "balanced")
        cache.save()
        scans.new_process()
        assert VerdictCache.recent(home_path).clean(text, "strict", "balanced")
    slots = list(verdicts_path(home_path, recent=True).iterdir())
    assert len(slots) <= 2
    assert all(len(p.read_bytes().splitlines()) <= 2 for p in slots)
    assert _remembered(home_path) <= {entry_key(t) for t in texts}
    assert all(os.stat(p).st_mode & 0o777 == 0o600 for p in slots)
    assert os.stat(verdicts_path(home_path, recent=True)).st_mode & 0o777 == 0o700


def test_a_lone_writer_shares_nothing(home_path: Path, scans: Scans) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    writer = Memory.open(home_path)
    for text in (FIRST, OTHERS, MINE):
        writer.add("memory", text)
    assert not verdicts_path(home_path, recent=True).exists()
    other = Memory.open(home_path)
    other.add("memory", SECOND)
    writer.add("memory", THIRD)  # finds another session's write: shares from now on
    writer.add("memory", "The release train leaves on Thursdays.")
    # and what it showed of the others' (it scanned SECOND to show it)
    shared = {entry_key("The release train leaves on Thursdays."), entry_key(SECOND)}
    assert _remembered(home_path) == shared


def test_a_verdict_found_in_a_slot_is_remembered_by_the_process(
    home_path: Path, scans: Scans
) -> None:
    # an entry shown when another session added it is shown again when it is removed:
    # the second look needs neither the slot nor the scanner
    home_path.mkdir(mode=0o700, parents=True, exist_ok=True)
    shared = VerdictCache.recent(home_path)
    shared.add(OTHERS, "strict", "balanced")
    shared.save()
    scans.new_process()
    assert VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")
    shutil.rmtree(verdicts_path(home_path, recent=True))
    assert VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")
    assert not VerdictCache.recent(home_path).clean(MINE, "strict", "balanced")


def test_the_recent_writes_cache_of_a_home_is_found_once(home_path: Path) -> None:
    """A session looks its home's recent writes' cache up at every call that shows
    others' changes (with many writers, nearly every call): its path is made once
    (pathlib's joins cost more than the look-ups they lead to)."""
    assert VerdictCache.recent(home_path).path is VerdictCache.recent(str(home_path)).path
    assert verdicts_path(home_path) is verdicts_path(home_path)
    assert verdicts_path(home_path) != verdicts_path(home_path, recent=True)
    other = home_path / "other"
    assert verdicts_path(other) == other / "cache" / "scan-verdicts.json"


def test_an_entry_shown_when_it_comes_and_when_it_goes_is_hashed_once(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session shows another writer's entry when it is added and again when it is
    removed (and, with many writers, several entries at every call): its slot and line
    in the recent writes' cache are made once per process (the entry's SHA-256 was
    taken at each look-up)."""
    home_path.mkdir(mode=0o700, parents=True, exist_ok=True)
    hashed: list[str] = []
    real = verdicts.entry_key

    def counted(text: str) -> str:
        hashed.append(text)
        return real(text)

    monkeypatch.setattr(verdicts, "entry_key", counted)
    monkeypatch.setattr(verdicts, "_lines", {}, raising=False)
    first = VerdictCache.recent(home_path)
    first.add(OTHERS, "strict", "balanced")
    first.save()
    for _ in range(3):
        assert VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")
    assert not VerdictCache.recent(home_path).clean(MINE, "strict", "balanced")
    assert not VerdictCache.recent(home_path).clean(MINE, "strict", "lenient")
    assert hashed == [OTHERS, MINE, MINE]  # once per text, scope and level
    # another scanner (its identity) or another slot count: not the line remembered
    monkeypatch.setattr(verdicts, "_identity", "another scanner")
    assert not VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")
    monkeypatch.setattr(verdicts, "RECENT_KEYS", 2)
    assert not VerdictCache.recent(home_path).clean(OTHERS, "strict", "balanced")
    assert hashed == [OTHERS, MINE, MINE, OTHERS, OTHERS]
