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

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import import_path
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
    assert report.skipped["image left as a placeholder (no attachment store)"] == 2
