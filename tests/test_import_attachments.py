"""Importers keep the images and files of what they import in the home's attachment
store: Claude Code image blocks (base64 in the transcript, also inside tool results),
ChatGPT export files named by asset pointers, mnemic's own jsonl export. The message
text keeps a placeholder naming the file; what is not kept says why."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import import_path, open_store
from mnemic.sessions.attachments import AttachmentStore
from test_sessions_attachments import tiny_png


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    yield s
    s.close()


def _image_block(data: bytes) -> dict[str, Any]:
    encoded = base64.b64encode(data).decode()
    source = {"type": "base64", "media_type": "image/png", "data": encoded}
    return {"type": "image", "source": source}


def _transcript(path: Path, *blocks: dict[str, Any]) -> Path:
    base = {"sessionId": "cc-img", "cwd": "/repo", "timestamp": "2026-01-02T03:04:05Z"}
    question = [{"type": "text", "text": "what is this?"}, *blocks]
    shot = [{"type": "text", "text": "screenshot:"}, _image_block(tiny_png(9))]
    lines = [
        {
            **base,
            "type": "user",
            "uuid": "u1",
            "message": {"role": "user", "content": question},
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "a red dot"}]},
        },
        {
            **base,
            "type": "user",
            "uuid": "r1",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": shot,
                    }
                ],
            },
        },
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_claude_code_image_blocks_are_kept_and_linked(store: Any, tmp_path: Path) -> None:
    png = tiny_png()
    files = AttachmentStore(tmp_path / "attachments")
    path = _transcript(tmp_path / "t.jsonl", _image_block(png))
    report = import_path(store, path, attachments=files)
    assert report.messages == 3, report.to_dict()
    sha = hashlib.sha256(png).hexdigest()
    user, _, tool = store.messages("cc-img")
    assert user.content == f"what is this?\n[image: image-{sha[:12]}.png]"
    held = store.attachments([user.id, tool.id])
    assert [(a.sha256, a.media_type, a.size) for a in held[user.id]] == [
        (sha, "image/png", len(png))
    ]
    assert tool.content is not None and tool.content.startswith("screenshot:\n[image: image-")
    assert files.read(held[tool.id][0].sha256) == tiny_png(9)
    # the same transcript again: no message, no link, no file more
    again = import_path(store, path, attachments=files)
    assert again.messages == 0
    assert len(store.find_attachments()) == 2
    assert len(list(files.hashes())) == 2


def test_an_image_over_the_cap_stays_a_placeholder_saying_why(store: Any, tmp_path: Path) -> None:
    files = AttachmentStore(tmp_path / "attachments", max_bytes=20)
    path = _transcript(tmp_path / "t.jsonl", _image_block(tiny_png()))
    report = import_path(store, path, attachments=files)
    user = store.messages("cc-img")[0]
    assert user.content is not None
    assert "not kept:" in user.content and "attachment_max_bytes" in user.content
    assert store.attachments([user.id]) == {}
    assert report.skipped["attachment not kept"] == 2  # the block and the screenshot
    assert list(files.hashes()) == []


def test_damaged_base64_is_reported_not_stored(store: Any, tmp_path: Path) -> None:
    files = AttachmentStore(tmp_path / "attachments")
    block = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "@@"}}
    import_path(store, _transcript(tmp_path / "t.jsonl", block), attachments=files)
    user = store.messages("cc-img")[0]
    why = "its data is missing or not valid base64"
    assert user.content == f"what is this?\n[image: unnamed — not kept: {why}]"


def test_without_an_attachment_store_images_stay_bare_placeholders(
    store: Any, tmp_path: Path
) -> None:
    report = import_path(store, _transcript(tmp_path / "t.jsonl", _image_block(tiny_png())))
    assert store.messages("cc-img")[0].content == "what is this?\n[image]"
    assert not report.skipped  # as before attachments were kept: nothing left out


def _chatgpt_export(folder: Path, parts: list[Any], uploads: list[Any] | None = None) -> Path:
    user: dict[str, Any] = {
        "id": "m1",
        "author": {"role": "user"},
        "create_time": 1_700_000_000,
        "content": {"content_type": "multimodal_text", "parts": parts},
        "metadata": {"attachments": uploads or []},
    }
    conv = {
        "id": "conv-img",
        "title": "Pictures",
        "create_time": 1_700_000_000,
        "current_node": "n1",
        "mapping": {
            "root": {"message": None, "parent": None, "children": ["n1"]},
            "n1": {"message": user, "parent": "root", "children": []},
        },
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "conversations.json"
    path.write_text(json.dumps([conv]))
    return path


def test_chatgpt_asset_files_in_the_export_folder_are_kept(store: Any, tmp_path: Path) -> None:
    export = tmp_path / "export"
    (export / "user-abc").mkdir(parents=True)
    (export / "user-abc" / "file-img1-photo.png").write_bytes(tiny_png())
    (export / "file-doc2-notes.pdf").write_bytes(b"%PDF-1.4 notes")
    image = {
        "content_type": "image_asset_pointer",
        "asset_pointer": "file-service://file-img1",
        "metadata": {"alt_text": "my garden"},
    }
    path = _chatgpt_export(
        export,
        ["look", image],
        uploads=[{"id": "file-doc2", "name": "notes.pdf", "mimeType": "application/pdf"}],
    )
    files = AttachmentStore(tmp_path / "attachments")
    report = import_path(store, path, format="chatgpt", attachments=files)
    [msg] = store.messages("conv-img")
    assert msg.content == "look\n[image: file-img1-photo.png — my garden]\n[file: notes.pdf]"
    held = store.attachments([msg.id])[msg.id]
    assert [(a.name, a.media_type, a.caption) for a in held] == [
        ("file-img1-photo.png", "image/png", "my garden"),
        ("notes.pdf", "application/pdf", None),
    ]
    assert not report.skipped
    assert import_path(store, path, format="chatgpt", attachments=files).messages == 0
    assert len(list(files.hashes())) == 2


def test_a_chatgpt_asset_that_is_a_symlink_out_of_the_export_is_not_read(
    store: Any, tmp_path: Path
) -> None:
    export = tmp_path / "export"
    export.mkdir()
    (tmp_path / "secret.png").write_bytes(tiny_png())
    (export / "file-img1.png").symlink_to(tmp_path / "secret.png")
    image = {"content_type": "image_asset_pointer", "asset_pointer": "file-service://file-img1"}
    path = _chatgpt_export(export, ["look", image])
    files = AttachmentStore(tmp_path / "attachments")
    report = import_path(store, path, format="chatgpt", attachments=files)
    [msg] = store.messages("conv-img")
    why = "it is a symlink; symlinks are not followed"
    assert msg.content == f"look\n[image: file-img1.png — not kept: {why}]"
    assert report.skipped["attachment not kept"] == 1
    assert list(files.hashes()) == []


def _cli(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_jsonl_export_carries_its_attachments_into_another_home(tmp_path: Path) -> None:
    png = tiny_png()
    transcript = _transcript(tmp_path / "t.jsonl", _image_block(png))
    first, second = tmp_path / "first", tmp_path / "second"
    _cli(first, "sessions", "import", str(transcript), "--json")
    exported = tmp_path / "export.jsonl"
    exported.write_text(_cli(first, "sessions", "export", "cc-img"))
    records = [json.loads(line) for line in exported.read_text().splitlines()]
    [carried] = records[0]["attachments"]
    assert base64.b64decode(carried["data"]) == png
    report = json.loads(_cli(second, "sessions", "import", str(exported), "--json"))
    assert report["messages"] == 3
    home = Home.open(second)
    with open_store(home) as store:
        user = store.messages("cc-img")[0]
        [link] = store.attachments([user.id])[user.id]
        assert link.to_dict() == {k: v for k, v in carried.items() if k != "data"}
        assert AttachmentStore.of_home(home).read(link.sha256) == png
    again = json.loads(_cli(second, "sessions", "import", str(exported), "--json"))
    assert again["messages"] == 0


def test_a_jsonl_attachment_without_its_bytes_is_reported(store: Any, tmp_path: Path) -> None:
    line = {
        "session_id": "s1",
        "role": "user",
        "content": "see [image: gone.png]",
        "attachments": [
            {"sha256": "a" * 64, "name": "gone.png", "media_type": "image/png", "size": 3}
        ],
    }
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(line) + "\n")
    report = import_path(store, path, attachments=AttachmentStore(tmp_path / "attachments"))
    assert report.skipped["attachment not kept"] == 1
    assert "gone.png: the export did not carry its bytes" in report.examples["attachment not kept"]
    assert store.find_attachments() == []


def test_an_image_on_a_line_over_16_mib_is_not_kept_cut(store: Any, tmp_path: Path) -> None:
    """The reader cuts every string of a line over 16 MiB: its base64 data would decode
    to part of the image. It is refused, saying why, never stored truncated."""
    big = tiny_png() + bytes(13 << 20)  # 13 MiB: over 16 MiB as base64
    files = AttachmentStore(tmp_path / "attachments", max_bytes=64 << 20)
    path = _transcript(tmp_path / "t.jsonl", _image_block(big))
    import_path(store, path, format="claude", attachments=files)
    user = store.messages("cc-img")[0]
    assert user.content is not None and "its line is over 16 MiB" in user.content
    assert store.attachments([user.id]) == {}
    assert [size for _, size, _ in files.hashes()] == [len(tiny_png(9))]  # the screenshot


def _rollout(path: Path, png: bytes) -> Path:
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    lines = [
        {"timestamp": "2026-01-15T10:00:00Z", "type": "session_meta",
         "payload": {"id": "codex-img", "timestamp": "2026-01-15T10:00:00Z", "cwd": "/w"}},
        {"timestamp": "2026-01-15T10:00:01Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [
             {"type": "input_text", "text": "what is on this screen?"},
             {"type": "input_image", "image_url": url}]}},
        {"timestamp": "2026-01-15T10:00:02Z", "type": "response_item",
         "payload": {"type": "message", "role": "assistant",
                     "content": [{"type": "output_text", "text": "a red dot"}]}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_codex_input_images_are_kept_and_a_rollout_imported_before_adds_nothing(
    store: Any, tmp_path: Path
) -> None:
    png = tiny_png()
    path = _rollout(tmp_path / "rollout-1.jsonl", png)
    # imported the way earlier versions did: the image as [image]
    assert import_path(store, path, format="codex").messages == 2
    assert store.messages("codex-img")[0].content == "what is on this screen?\n[image]"
    files = AttachmentStore(tmp_path / "attachments")
    assert import_path(store, path, format="codex", attachments=files).messages == 0
    fresh = SQLiteSessionStore(tmp_path / "fresh.db", durable=False)
    try:
        assert import_path(fresh, path, format="codex", attachments=files).messages == 2
        user = fresh.messages("codex-img")[0]
        sha = hashlib.sha256(png).hexdigest()
        assert user.content == f"what is on this screen?\n[image: image-{sha[:12]}.png]"
        assert [a.sha256 for a in fresh.attachments([user.id])[user.id]] == [sha]
        assert import_path(fresh, path, format="codex", attachments=files).messages == 0
    finally:
        fresh.close()
