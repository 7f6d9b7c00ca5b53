"""Claude Code transcripts (``claude``): ``~/.claude/projects/**/*.jsonl``, one line a
record; see :mod:`.importers`. Text, tool calls and tool results become messages; image
blocks (in a message or in a tool result) are kept in the attachment store
(:mod:`.attached`); sidechain, meta, thinking and bookkeeping lines are skipped and
counted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ...jsonstream import read_jsonl
from ..store import Attachment, NewMessage, NewSession
from .attached import Kept, keep_base64, refused
from .formats import Buffer, Item, Pending, Reading, flag_of, text_of, timestamp

__all__ = ["claude_items"]


def _claude_session(sid: str, entry: Pending, path: Path, title: str | None) -> Item:
    msgs = entry.messages
    started = next((m.timestamp for m in msgs if m.timestamp is not None), None)
    return (
        NewSession(
            id=sid,
            source="claude-code",
            title=title,
            model=entry.fields.get("model"),
            started_at=started,
            metadata={**entry.fields.get("meta", {}), "transcript": str(path)},
        ),
        msgs,
    )


def claude_items(path: Path, stream: IO[bytes], reading: Reading) -> Iterator[Item]:
    """A Claude Code transcript (``claude``); see :mod:`.importers`."""
    buffer = Buffer(reading.buffer_messages)
    base = reading.bytes_done
    title: str | None = None
    seen: set[str] = set()
    for line in read_jsonl(stream, start_line=reading.lines):
        reading.bytes_done = base + line.offset
        where = f"{path.name}:{line.number}"
        obj = line.value
        if line.error is not None:
            reading.bad(f"line is {line.error}", f"{where} ({line.detail})")
            continue
        reading.shortened(line, where)
        if not isinstance(obj, dict):
            reading.bad("line is not a JSON object", where)
            continue
        kind = obj.get("type")
        if kind == "summary":
            if isinstance(obj.get("summary"), str) and title is None:
                title = obj["summary"]
            reading.skip("summary line (used as the title)", where)
            continue
        if kind not in ("user", "assistant"):
            reading.skip(f"{kind or 'untyped'} line", where)
            continue
        if obj.get("isSidechain"):
            reading.skip("sidechain (subagent) message", where)
            continue
        if obj.get("isMeta"):
            reading.skip("meta message", where)
            continue
        message = obj.get("message")
        if not isinstance(message, dict):
            reading.bad("no message object", where)
            continue
        sid = str(obj.get("sessionId") or path.stem)
        entry = buffer.session(sid)
        seen.add(sid)
        meta = entry.fields.setdefault("meta", {})
        for name in ("cwd", "gitBranch", "version"):
            if obj.get(name) and name not in meta:
                meta[name] = obj[name]
        if kind == "assistant" and isinstance(message.get("model"), str):
            entry.fields.setdefault("model", message["model"])
        ts = timestamp(obj.get("timestamp"))
        uuid = obj.get("uuid") if isinstance(obj.get("uuid"), str) else None
        for k, msg in enumerate(_claude_messages(kind, message.get("content"), ts, reading, where)):
            key = None if uuid is None else (uuid if k == 0 else f"{uuid}#{k}")
            buffer.add(sid, reading.key(sid, msg, key), reading.bytes_done)
        for done_sid, done in buffer.drain(sid):
            reading.ends[done_sid] = done.end
            yield _claude_session(done_sid, done, path, title)
    for done_sid, done in buffer.rest():
        if done.messages:
            reading.ends[done_sid] = done.end
            yield _claude_session(done_sid, done, path, title)
    for sid in seen:
        if not reading.counted(sid):
            reading.skip("session without messages", f"{path.name} ({sid})")


def _claude_messages(
    kind: str, content: Any, ts: float | None, reading: Reading, where: str
) -> list[NewMessage]:
    if isinstance(content, str):
        return [NewMessage(kind, content, timestamp=ts)] if content.strip() else []
    if not isinstance(content, list):
        reading.skip("message without content", where)
        return []
    out: list[NewMessage] = []
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    links: tuple[Attachment, ...] = ()
    for block in content:
        if not isinstance(block, dict):
            continue
        btype = block.get("type")
        if btype == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif btype == "tool_use":
            calls.append(
                {
                    "id": str(block.get("id") or ""),
                    "type": "function",
                    "function": {
                        "name": str(block.get("name") or ""),
                        "arguments": json.dumps(block.get("input") or {}, ensure_ascii=False),
                    },
                }
            )
        elif btype == "tool_result":
            result, files = _claude_result(block.get("content"), reading, where)
            out.append(
                NewMessage(
                    "tool",
                    result or "",
                    tool_call_id=str(block.get("tool_use_id") or "") or None,
                    timestamp=ts,
                    is_error=flag_of(block.get("is_error")),
                    attachments=files,
                )
            )
        elif btype in ("thinking", "redacted_thinking"):
            reading.skip("thinking block", where)
        elif btype == "image":
            text, link = _claude_image(block, reading, where)
            texts.append(text)
            links += (link,) if link else ()
        else:
            reading.skip(f"{btype} block", where)
    if texts or calls:
        first = NewMessage(
            kind, "\n".join(texts), tool_calls=calls or None, timestamp=ts, attachments=links
        )
        out.insert(0, first)
    return out


def _claude_image(block: dict[str, Any], reading: Reading, where: str) -> Kept:
    """An image block: its base64 ``source`` kept (a URL or file source is not in the
    transcript: a placeholder saying so)."""
    source = block.get("source")
    source = source if isinstance(source, dict) else {}
    if source.get("type") not in (None, "base64") and reading.attachments is not None:
        why = f"its source is a {str(source.get('type'))[:20]}, not data in the transcript"
        return refused(reading, where, "image", None, why), None
    media = source.get("media_type")
    return keep_base64(
        reading,
        where,
        "image",
        source.get("data"),
        media_type=media if isinstance(media, str) else None,
        cut=reading.cut,
    )


def _claude_result(
    content: Any, reading: Reading, where: str
) -> tuple[str | None, tuple[Attachment, ...]]:
    """A tool result's text and the images it holds (a screenshot tool's)."""
    if not isinstance(content, list):
        return text_of(content), ()
    parts: list[str] = []
    links: tuple[Attachment, ...] = ()
    for part in content:
        if isinstance(part, dict) and part.get("type") == "image":
            text, link = _claude_image(part, reading, where)
            parts.append(text)
            links += (link,) if link else ()
        else:
            parts.append(text_of([part]) or "")
    return "\n".join(p for p in parts if p), links
