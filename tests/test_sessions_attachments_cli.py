"""What the user sees of attachments and how they go: `sessions show` lists a message's
files, `sessions attachments` lists and searches them (saying which are missing),
`--gc` deletes files no message holds, `forget --sessions` deletes the files of the
messages it forgets (on every backend), and search finds a message by its file's name
or caption (the placeholder in its text is indexed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from _backends import Kit
from mnemic.cli import main
from mnemic.home import Home
from mnemic.ops import forget_sessions
from mnemic.ops.attachments import collect_attachments
from mnemic.sessions import NewMessage, SearchFilters, import_path, open_store, parse_query
from mnemic.sessions.attachments import AttachmentStore
from mnemic.sessions.store import Attachment
from test_import_attachments import _image_block, _transcript
from test_sessions_attachments import tiny_png


def _cli(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    assert result.exit_code == 0, result.output
    return result.output


def _imported(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    transcript = _transcript(tmp_path / "t.jsonl", _image_block(tiny_png()))
    _cli(home, "sessions", "import", str(transcript))
    return home


def _age(files: AttachmentStore, sha: str) -> None:
    """Make a stored file look written two hours ago (past the collection's grace)."""
    path = files.path_of(sha)
    old = path.stat().st_mtime - 7200
    os.utime(path, (old, old))


def test_show_lists_each_message_attachments(tmp_path: Path) -> None:
    home = _imported(tmp_path)
    data = json.loads(_cli(home, "sessions", "show", "cc-img", "--json"))
    user = data["messages"][0]
    [att] = user["attachments"]
    assert (att["media_type"], att["size"]) == ("image/png", len(tiny_png()))
    assert "attachments" not in data["messages"][1]  # the assistant's reply holds none
    text = _cli(home, "sessions", "show", "cc-img")
    assert f"attached: {att['name']}  image/png" in text and att["sha256"][:12] in text


def test_attachments_lists_searches_and_marks_missing_files(tmp_path: Path) -> None:
    home = _imported(tmp_path)
    listed = json.loads(_cli(home, "sessions", "attachments", "--json"))
    assert len(listed) == 2 and not any(item["missing"] for item in listed)
    assert json.loads(_cli(home, "sessions", "attachments", "nothing-like-it", "--json")) == []
    [mine] = json.loads(_cli(home, "sessions", "attachments", "--session", "cc-img", "image/png",
                             "--json", "-n", "1"))  # fmt: skip
    AttachmentStore.of_home(Home.open(home)).path_of(mine["sha256"]).unlink()
    again = json.loads(_cli(home, "sessions", "attachments", "--json", "-n", "1"))
    assert again[0]["missing"] is True
    assert "(missing)" in _cli(home, "sessions", "attachments")


def test_gc_deletes_only_files_no_message_holds_and_that_are_past_the_grace(
    tmp_path: Path,
) -> None:
    home = _imported(tmp_path)
    files = AttachmentStore.of_home(Home.open(home))
    stray = files.put(b"written by an import that never committed")
    held = {sha for sha, _, _ in files.hashes()} - {stray.sha256}
    young = json.loads(_cli(home, "sessions", "attachments", "--gc", "--json"))
    assert (young["removed"], young["too_young"], young["kept"]) == ([], 1, 2)
    _age(files, stray.sha256)
    for sha in held:
        _age(files, sha)
    dry = json.loads(_cli(home, "sessions", "attachments", "--gc", "--dry-run", "--json"))
    assert dry["removed"] == [stray.sha256] and files.has(stray.sha256)
    done = json.loads(_cli(home, "sessions", "attachments", "--gc", "--json"))
    assert done["removed"] == [stray.sha256] and not files.has(stray.sha256)
    assert all(files.has(sha) for sha in held)
    # a deleted session's files are garbage too
    _cli(home, "sessions", "delete", "cc-img", "--yes")
    assert sorted(collect_attachments(Home.open(home))["removed"]) == sorted(held)


def _holding(link: Attachment, text: str) -> NewMessage:
    return NewMessage("user", f"{text}\n{link.placeholder()}", attachments=(link,))


def test_forget_deletes_the_files_only_forgotten_messages_held(backend: Kit) -> None:
    home = Home.open(backend.write_config())
    files = AttachmentStore.of_home(home)
    secret = files.put(tiny_png(7), name="passport.png")
    shared = files.put(tiny_png(8), name="logo.png")
    with open_store(home) as store:
        a = store.start_session(source="cli")
        b = store.start_session(source="cli")
        store.append_messages(a, [_holding(secret, "my passport scan"), _holding(shared, "x")])
        store.append_messages(b, [_holding(shared, "the passport office logo")])
    dry = forget_sessions(home, "passport", dry_run=True)
    assert (dry.messages, dry.attachments) == (2, 2) and files.has(secret.sha256)
    report = forget_sessions(home, "passport")
    assert (report.messages, report.attachments) == (2, 1)
    assert not files.has(secret.sha256)
    assert files.has(shared.sha256)  # the message left in session a still holds it
    with open_store(home) as store:
        assert store.attachment_hashes() == {shared.sha256}


def test_search_finds_a_message_by_its_attachment_name_and_caption(tmp_path: Path) -> None:
    files = AttachmentStore(tmp_path / "attachments")
    link = files.put(tiny_png(), name="quokka-selfie.png", caption="smiling marsupial")
    home = Home.open(tmp_path / "home")
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        store.append_messages(sid, [_holding(link, "holiday")])
        for words in ("quokka", "marsupial"):
            hits = store.search(parse_query(words), SearchFilters(), limit=5)
            assert [h.session_id for h in hits] == [sid], words


def test_a_cli_import_keeps_files_in_the_home(tmp_path: Path) -> None:
    home = _imported(tmp_path)
    kept = [p for p in (home / "attachments").rglob("*") if p.is_file()]
    assert len(kept) == 2
    assert all(p.stat().st_mode & 0o077 == 0 for p in kept)
    with open_store(Home.open(home)) as store:
        assert import_path(store, tmp_path / "t.jsonl").messages == 0


def test_forget_finds_a_message_by_its_file_name_or_caption_alone(backend: Kit) -> None:
    """A message whose text does not name its file (a jsonl import keeps text as given)
    is still forgotten when the file's name or caption holds the text."""
    home = Home.open(backend.write_config())
    files = AttachmentStore.of_home(home)
    named = files.put(tiny_png(3), name="Passport-scan.png")
    captioned = files.put(tiny_png(4), name="img.png", caption="my PASSPORT photo")
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        store.append_messages(
            sid,
            [
                NewMessage("user", "here", attachments=(named,)),
                NewMessage("user", "and here", attachments=(captioned,)),
                NewMessage("assistant", "thanks"),
            ],
        )
    report = forget_sessions(home, "passport")
    assert (report.messages, report.attachments) == (2, 2)
    assert not files.has(named.sha256) and not files.has(captioned.sha256)
    with open_store(home) as store:
        assert [m.content for m in store.messages(sid)] == ["thanks"]
        assert store.find_attachments() == []
