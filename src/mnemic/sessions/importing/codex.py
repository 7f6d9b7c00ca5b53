"""Codex CLI session files (``codex``): ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``.

One session a file, JSON Lines of ``{"timestamp", "type", "payload"}``:

``session_meta``
    The first line: the session's ``id``, ``timestamp``, ``cwd``, ``cli_version``,
    ``originator``, ``source`` (``cli``, ``exec``, ``vscode``...), ``git``.
``turn_context``
    Each turn's settings; its ``model`` names the session's model.
``response_item``
    What the model saw and said: a ``message`` (``role`` ``user``, ``assistant``,
    ``developer`` or ``system``; ``content`` a list of ``input_text`` /
    ``output_text`` parts, and ``input_image`` parts whose ``data:`` URL is kept in the
    attachment store), a ``function_call`` (``name``, ``arguments``, ``call_id``)
    and its ``function_call_output`` (``call_id``, ``output``; its ``success``, or the
    ``exit_code`` the shell tool writes into the output's ``metadata``, becomes the
    message's ``is_error``), a ``local_shell_call``
    (``action.command``) or a ``custom_tool_call`` (``input``) and its output,
    ``reasoning`` (left out: encrypted or summarised).
``event_msg``
    The same conversation as the terminal showed it (``user_message``,
    ``agent_message``, token counts...): left out, ``response_item`` holds it.

User messages Codex writes itself (``<environment_context>``, ``<user_instructions>``)
and developer / system messages are left out and counted; every message is keyed by its
position and content (the file has no message ids), so importing a file again, or
after it grew, adds only the messages the session lacks. A file whose first record is
not ``session_meta`` raises :class:`~mnemic.errors.ImportFailed`: it is not a Codex
session file, or one of a schema this version does not know.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ...errors import ImportFailed
from ...jsonstream import read_jsonl
from ..store import NewMessage, NewSession
from .formats import Item, Reading, str_of, text_of, timestamp
from .parts import parts_with_images

__all__ = ["codex_items"]

_INJECTED = ("<environment_context>", "<user_instructions>", "<permissions", "# AGENTS.md")
_CALLS = ("function_call", "custom_tool_call", "local_shell_call")
_OUTPUTS = ("function_call_output", "custom_tool_call_output")


def _call(payload: dict[str, Any]) -> dict[str, Any]:
    kind = payload.get("type")
    call_id = str(payload.get("call_id") or payload.get("id") or "")
    if kind == "local_shell_call":
        action = payload.get("action") if isinstance(payload.get("action"), dict) else {}
        name, arguments = "shell", json.dumps(action, ensure_ascii=False)
    elif kind == "custom_tool_call":
        name, arguments = str(payload.get("name") or ""), str(payload.get("input") or "")
    else:
        args = payload.get("arguments")
        arguments = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        name = str(payload.get("name") or "")
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _output(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        inner = value.get("content", value.get("output"))
        if isinstance(inner, str):
            return inner
        text = text_of(inner)
        if text is not None:
            return text
    return json.dumps(value, ensure_ascii=False)


def _failed(value: Any) -> bool | None:
    """Whether a call's output says it failed: ``success`` of an output object, or the
    exit code Codex's shell tool writes into the output's ``metadata`` (None: not said)."""
    if isinstance(value, str) and value.startswith("{"):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return None
    if not isinstance(value, dict):
        return None
    if type(value.get("success")) is bool:
        return not value["success"]
    meta = value.get("metadata")
    code = meta.get("exit_code") if isinstance(meta, dict) else None
    return code != 0 if type(code) is int else None


def _message(payload: dict[str, Any], sid: str, ts: float | None, names: dict[str, str],
             reading: Reading, where: str) -> NewMessage | None:  # fmt: skip
    kind = payload.get("type")
    if kind == "message":
        role = payload.get("role")
        # the key hashes the text as earlier versions stored it (an image as [image]), so
        # a rollout imported before adds nothing when imported again
        legacy = text_of(payload.get("content")) or ""
        text, links = parts_with_images(payload.get("content"), reading, where, cut=reading.cut)
        if role in ("developer", "system"):
            reading.skip(f"{role} message", where)
            return None
        if role not in ("user", "assistant"):
            reading.bad(f"unknown message role {str(role)[:20]!r}", where)
            return None
        if role == "user" and text.lstrip().startswith(_INJECTED):
            reading.skip("context Codex adds to the conversation", where)
            return None
        if not text.strip():
            reading.skip("empty message", where)
            return None
        return reading.message(
            sid, None, role, text, timestamp=ts, attachments=links, key_text=legacy
        )
    if kind in _CALLS:
        call = _call(payload)
        names[call["id"]] = call["function"]["name"]
        return reading.message(sid, None, "assistant", "", tool_calls=[call], timestamp=ts)
    if kind in _OUTPUTS:
        call_id = str(payload.get("call_id") or "")
        return reading.message(
            sid,
            None,
            "tool",
            _output(payload.get("output")),
            tool_call_id=call_id or None,
            tool_name=names.get(call_id),
            timestamp=ts,
            is_error=_failed(payload.get("output")),
        )
    reading.skip(f"{kind or 'untyped'} item", where)
    return None


def codex_items(path: Path, stream: IO[bytes], reading: Reading) -> Iterator[Item]:
    """The session of one rollout file (see the module docstring)."""
    base = reading.bytes_done
    meta: dict[str, Any] | None = None
    model: str | None = None
    msgs: list[NewMessage] = []
    names: dict[str, str] = {}
    sid = ""
    for line in read_jsonl(stream, start_line=reading.lines):
        reading.bytes_done = base + line.offset
        where = f"{path.name}:{line.number}"
        obj = line.value
        if line.error is not None:
            if meta is None:
                raise ImportFailed(
                    where, f"the first line is {line.error}: not a Codex session file"
                )
            reading.bad(f"line is {line.error} (cut short?)", f"{where} ({line.detail})")
            continue
        reading.shortened(line, where)
        kind = obj.get("type") if isinstance(obj, dict) else None
        payload = obj.get("payload") if isinstance(obj, dict) else None
        if meta is None:
            if kind != "session_meta" or not isinstance(payload, dict) or not payload.get("id"):
                raise ImportFailed(
                    where,
                    "the first record is not a session_meta with an id: not a Codex CLI "
                    "session file (rollout-*.jsonl), or a schema this version does not know",
                )
            meta, sid = payload, str(payload["id"])
            continue
        if not isinstance(payload, dict):
            reading.bad("record without a payload object", where)
            continue
        if kind == "turn_context":
            model = model or str_of(payload.get("model"))
            continue
        if kind == "event_msg":
            continue  # the terminal's copy of what response_item holds
        if kind != "response_item":
            reading.skip(f"{kind or 'untyped'} record", where)
            continue
        msg = _message(payload, sid, timestamp(obj.get("timestamp")), names, reading, where)
        if msg is not None:
            msgs.append(msg)
    if meta is None:
        raise ImportFailed(str(path), "empty: not a Codex session file")
    if not msgs:
        reading.skip("session without messages", f"{path.name} ({sid})")
        return
    info = {k: meta[k] for k in ("cwd", "cli_version", "originator", "source") if meta.get(k)}
    yield (
        NewSession(
            id=sid,
            source="codex",
            title=None,
            model=model,
            started_at=timestamp(meta.get("timestamp")),
            metadata={"codex": info, "imported_from": str(path)},
        ),
        msgs,
    )
