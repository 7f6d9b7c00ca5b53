"""Importers of JSON documents (OpenAI chat messages, the LoCoMo benchmark file), read
element by element (:func:`mnemic.jsonstream.read_json_array`); see
:mod:`.formats` for the line formats, keys and the shared reading state."""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from ...errors import ImportFailed
from ...jsonstream import TOO_DEEP, JsonArrayError, read_json_array, read_jsonl
from ..store import NewMessage, NewSession
from .formats import (
    Item,
    Reading,
    digest,
    role_of,
    str_of,
    text_of,
    timestamp,
    tool_calls_of,
)

__all__ = ["locomo_items", "locomo_sessions", "openai_items"]


# --- openai ----------------------------------------------------------------------------


def _openai_conversations(
    path: Path, stream: IO[bytes], reading: Reading
) -> Iterator[tuple[Any, str]]:
    """``(conversation, where)``: from a JSON array (one conversation's messages, or a
    list of conversations), one JSON object, or JSON Lines of conversations."""
    base = reading.bytes_done
    first_line = stream.readline()
    stream.seek(0)
    start = first_line.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start == b"[":
        try:
            elements = read_json_array(stream)
            head = next(elements, None)
            if head is None:
                return
            element, done = head
            reading.bytes_done = base + done
            if isinstance(element, dict) and "role" in element:  # one conversation
                messages = [element]
                for element, done in elements:
                    messages.append(element)
                    reading.bytes_done = base + done
                yield {"messages": messages}, path.name
                return
            yield element, f"{path.name}[0]"
            for i, (element, done) in enumerate(elements, 1):
                reading.bytes_done = base + done
                yield element, f"{path.name}[{i}]"
        except JsonArrayError as exc:
            raise ImportFailed(str(path), exc.reason) from exc
        return
    if start == b"{":
        try:
            json.loads(first_line)
        except (ValueError, RecursionError):  # one object spread over lines: read whole
            try:
                doc = json.load(stream)
            except (ValueError, UnicodeDecodeError) as exc:
                raise ImportFailed(str(path), f"not valid JSON ({exc})") from exc
            except RecursionError:
                raise ImportFailed(str(path), f"not valid JSON ({TOO_DEEP})") from None
            reading.bytes_done = base + path.stat().st_size
            yield doc, path.name
            return
        stream.seek(0)
    for line in read_jsonl(stream):
        reading.bytes_done = base + line.offset
        where = f"{path.name}:{line.number}"
        if line.error is not None:
            reading.bad(f"line is {line.error}", f"{where} ({line.detail})")
            continue
        reading.shortened(line, where)
        yield line.value, where


def openai_items(path: Path, stream: IO[bytes], reading: Reading, source: str) -> Iterator[Item]:
    """OpenAI chat ``messages`` (``openai``); see :mod:`.importers`."""
    for conv, where in _openai_conversations(path, stream, reading):
        raw = conv.get("messages") if isinstance(conv, dict) else None
        if not isinstance(raw, list):
            reading.bad("conversation without a messages list", where)
            continue
        sid = conv.get("id") if isinstance(conv.get("id"), str) else f"openai-{digest(raw)}"
        msgs = []
        for j, m in enumerate(raw):
            loc = f"{where} message {j}"
            if not isinstance(m, dict):
                reading.bad("message is not an object", loc)
                continue
            role = role_of(m.get("role"))
            if role is None:
                reading.bad("missing or unknown role", loc)
                continue
            content = text_of(m.get("content"))
            calls = tool_calls_of(m.get("tool_calls"))
            if not content and not calls:
                reading.skip("empty message", loc)
                continue
            msgs.append(
                reading.message(
                    sid,
                    m.get("id"),
                    role,
                    content,
                    tool_calls=calls,
                    tool_call_id=str_of(m.get("tool_call_id")),
                    name=str_of(m.get("name")),
                    timestamp=timestamp(m.get("timestamp")),
                )
            )
        if not msgs:
            reading.skip("conversation without messages", where)
            continue
        yield (
            NewSession(
                id=sid,
                source=source or "import",
                title=str_of(conv.get("title")),
                model=str_of(conv.get("model")),
                started_at=timestamp(conv.get("created") or conv.get("created_at")),
                metadata={"imported_from": str(path)},
            ),
            msgs,
        )


# --- locomo ----------------------------------------------------------------------------

_LOCOMO_DATE = "%I:%M %p on %d %B, %Y"


def _locomo_time(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return _dt.datetime.strptime(value.strip(), _LOCOMO_DATE).timestamp()
    except ValueError:
        return None


def locomo_sessions(sample: Mapping[str, Any]) -> Iterator[Item]:
    """The sessions of one LoCoMo sample, turns in order (seq i = turn i of the session);
    each turn keyed by its ``dia_id``."""
    conv = sample.get("conversation") or {}
    sample_id = str(sample.get("sample_id") or "sample")
    speaker_a = conv.get("speaker_a")
    keys = sorted(
        (k for k in conv if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1])
    )
    for key in keys:
        turns = conv.get(key)
        if not isinstance(turns, list):
            continue
        number = int(key.split("_")[1])
        start = _locomo_time(conv.get(f"{key}_date_time"))
        base = start if start is not None else float(number) * 86400.0
        msgs = []
        for i, turn in enumerate(turns):
            text = str(turn.get("text") or "")
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            speaker = turn.get("speaker")
            dia = turn.get("dia_id")
            msgs.append(
                NewMessage(
                    "user" if speaker == speaker_a else "assistant",
                    text,
                    name=str(speaker) if speaker else None,
                    timestamp=base + 30.0 * i,
                    source_id=str(dia) if isinstance(dia, str) and dia else f"turn-{i}",
                )
            )
        yield (
            NewSession(
                id=f"locomo-{sample_id}-s{number}",
                source="locomo",
                title=f"{sample_id} session {number}",
                started_at=base,
                metadata={"sample_id": sample_id, "session": number,
                          "dia_ids": [t.get("dia_id") for t in turns]},
            ),
            msgs,
        )  # fmt: skip


def locomo_items(path: Path, stream: IO[bytes], reading: Reading) -> Iterator[Item]:
    """The LoCoMo benchmark file (``locomo``), one sample at a time."""
    base = reading.bytes_done
    try:
        for i, (sample, done) in enumerate(read_json_array(stream)):
            reading.bytes_done = base + done
            if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
                reading.bad("sample without a conversation", f"{path.name}[{i}]")
                continue
            yield from locomo_sessions(sample)
    except JsonArrayError as exc:
        raise ImportFailed(
            str(path), f"expected a JSON list of LoCoMo samples ({exc.reason})"
        ) from exc
