"""The ChatGPT data export's ``conversations.json`` (``chatgpt``), read conversation by
conversation (:func:`mnemic.jsonstream.read_json_array`).

The file is a JSON array of conversations. Each has a ``title``, ``create_time`` (Unix
seconds), an ``id`` (or ``conversation_id``), a ``mapping`` of node id to ``{"message",
"parent", "children"}`` and the ``current_node``: the messages form a tree (every edit
or regenerated answer is a branch), and the conversation as the user last saw it is the
branch from ``current_node`` up through the parents. Only that branch is imported, in
order, each message keyed by its own id.

A message has an ``author.role`` (``user``, ``assistant``, ``system``, ``tool``), a
``create_time`` and ``content`` with a ``content_type``: ``text`` and
``multimodal_text`` (``parts``: strings, and images: the export folder's file its
``asset_pointer`` names, kept in the attachment store, :mod:`.attached`), ``code`` and
``execution_output`` (``text``). An assistant message addressed to a tool (``recipient``
other than ``all``) becomes a tool call named after it; a ``tool`` message its result.
A user message's uploaded files (``metadata.attachments``: an id and a name) are kept
from the export folder too. Left out and counted: system messages, messages ChatGPT hides
(``metadata.is_visually_hidden_from_conversation``, the user's custom instructions),
reasoning, and empty ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from ...errors import ImportFailed
from ...jsonstream import JsonArrayError, read_json_array
from ..store import Attachment, NewMessage, NewSession
from .attached import Kept, asset_file, bare, keep, part_caption, refused
from .formats import Item, Reading, str_of, timestamp

__all__ = ["chatgpt_items"]

_TEXT_TYPES = ("text", "multimodal_text")
_CODE_TYPES = ("code", "execution_output")
_HIDDEN_TYPES = ("user_editable_context", "thoughts", "reasoning_recap", "model_editable_context")


def _branch(mapping: Mapping[str, Any], current: Any, where: str) -> list[Mapping[str, Any]]:
    """The nodes from the root to ``current`` (the branch the user saw)."""
    if not isinstance(current, str) or current not in mapping:
        # no current node: the latest leaf is what the user saw last
        leaves = [k for k, n in mapping.items() if isinstance(n, dict) and not n.get("children")]
        current = leaves[-1] if leaves else None
    nodes: list[Mapping[str, Any]] = []
    seen: set[str] = set()
    while isinstance(current, str) and current in mapping and current not in seen:
        seen.add(current)
        node = mapping[current]
        if not isinstance(node, dict):
            raise ImportFailed(where, f"node {current[:40]!r} of its mapping is not an object")
        nodes.append(node)
        current = node.get("parent")
    nodes.reverse()
    return nodes


class _Export:
    """Where an export's files are: the folder of its conversations.json, listed once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder = path.parent
        self.listed: dict[Path, dict[str, str]] = {}

    def keep(
        self,
        reading: Reading,
        where: str,
        kind: str,
        pointer: Any,
        *,
        name: str | None = None,
        media_type: str | None = None,
        caption: str | None = None,
    ) -> Kept:
        """The file an asset pointer (or a file id) names, kept; or a placeholder."""
        if reading.attachments is None:
            return bare(kind), None
        found = asset_file(self.folder, pointer, self.listed)
        shown = name or (str_of(pointer) or "").rsplit("/", 1)[-1] or None
        if found is None:
            return refused(reading, where, kind, shown, "it is not in the export folder"), None
        return keep(
            reading,
            where,
            kind,
            shown,
            lambda store: store.put_file(
                self.folder, found, name=name, media_type=media_type, caption=caption
            ),
        )


def _text(
    content: Mapping[str, Any], export: _Export, reading: Reading, where: str
) -> tuple[str | None, tuple[Attachment, ...]]:
    kind = content.get("content_type")
    if kind in _TEXT_TYPES:
        parts = content.get("parts")
        if not isinstance(parts, list):
            return None, ()
        out = []
        links: tuple[Attachment, ...] = ()
        for part in parts:
            if isinstance(part, str):
                out.append(part)
            elif isinstance(part, dict):
                image = str(part.get("content_type", "")).startswith("image")
                text, link = export.keep(
                    reading,
                    where,
                    "image" if image else "attachment",
                    part.get("asset_pointer"),
                    caption=part_caption(part),
                )
                out.append(text)
                links += (link,) if link else ()
        return "\n".join(p for p in out if p), links
    if kind in _CODE_TYPES:
        return str_of(content.get("text")), ()
    if kind == "tether_browsing_display":
        return str_of(content.get("result")), ()
    return None, ()


def _uploads(
    meta: Mapping[str, Any], export: _Export, reading: Reading, where: str
) -> tuple[list[str], tuple[Attachment, ...]]:
    """The files the user uploaded with a message (``metadata.attachments``: an id and a
    name each), kept from the export folder."""
    texts: list[str] = []
    links: tuple[Attachment, ...] = ()
    uploads = meta.get("attachments")
    for upload in uploads if isinstance(uploads, list) else ():
        if not isinstance(upload, dict) or not str_of(upload.get("id")):
            continue
        text, link = export.keep(
            reading,
            where,
            "attachment",
            upload["id"],
            name=str_of(upload.get("name")),
            media_type=str_of(upload.get("mimeType")) or str_of(upload.get("mime_type")),
        )
        texts.append(text)
        links += (link,) if link else ()
    return texts, links


def _object(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _message(
    sid: str, node: Mapping[str, Any], export: _Export, reading: Reading, where: str
) -> NewMessage | None:
    msg = node.get("message")
    if not isinstance(msg, dict):
        return None  # the root node has none
    loc = f"{where} message {str(msg.get('id', ''))[:40]}"
    author = _object(msg.get("author"))
    role = author.get("role")
    meta = _object(msg.get("metadata"))
    content = _object(msg.get("content"))
    if role == "system":
        reading.skip("system message", loc)
        return None
    if meta.get("is_visually_hidden_from_conversation") or (
        content.get("content_type") in _HIDDEN_TYPES
    ):
        reading.skip("message ChatGPT does not show (context, reasoning)", loc)
        return None
    if role not in ("user", "assistant", "tool"):
        reading.bad(f"unknown author role {str(role)[:20]!r}", loc)
        return None
    text, links = _text(content, export, reading, loc)
    if text is None:
        reading.skip(f"{content.get('content_type') or 'untyped'} content", loc)
        return None
    if role == "user":
        texts, uploaded = _uploads(meta, export, reading, loc)
        text = "\n".join([text, *texts]) if text and texts else text or "\n".join(texts)
        links += uploaded
    ts = timestamp(msg.get("create_time"))
    recipient = msg.get("recipient")
    if role == "assistant" and isinstance(recipient, str) and recipient not in ("all", ""):
        call = {
            "id": str(msg.get("id") or ""),
            "type": "function",
            "function": {"name": recipient, "arguments": text},
        }
        return reading.message(sid, msg.get("id"), "assistant", "", tool_calls=[call], timestamp=ts)
    if not text.strip():
        reading.skip("empty message", loc)
        return None
    if role == "tool":
        name = str_of(author.get("name"))
        return reading.message(
            sid, msg.get("id"), "tool", text, tool_name=name, name=name, timestamp=ts,
            attachments=links,
        )  # fmt: skip
    return reading.message(sid, msg.get("id"), role, text, timestamp=ts, attachments=links)


def _conversation(conv: Any, export: _Export, where: str, reading: Reading) -> Item | None:
    path = export.path
    if not isinstance(conv, dict):
        raise ImportFailed(where, "a conversation is not a JSON object: not a ChatGPT export")
    mapping = conv.get("mapping")
    if not isinstance(mapping, dict):
        raise ImportFailed(
            where,
            "a conversation without a 'mapping' of messages: not ChatGPT's conversations.json "
            "(or a schema this version does not know)",
        )
    sid = str_of(conv.get("conversation_id")) or str_of(conv.get("id"))
    if not sid:
        reading.bad("conversation without an id", where)
        return None
    msgs = []
    for node in _branch(mapping, conv.get("current_node"), where):
        msg = _message(sid, node, export, reading, where)
        if msg is not None:
            msgs.append(msg)
    if not msgs:
        reading.skip("conversation without messages", where)
        return None
    model = str_of(conv.get("default_model_slug"))
    return (
        NewSession(
            id=sid,
            source="chatgpt",
            title=str_of(conv.get("title")),
            model=model,
            started_at=timestamp(conv.get("create_time")),
            metadata={"imported_from": str(path)},
        ),
        msgs,
    )


def chatgpt_items(path: Path, stream: IO[bytes], reading: Reading) -> Iterator[Item]:
    """The conversations of ``conversations.json`` (see the module docstring). A file
    that is not a JSON array of conversations, or is cut short, raises
    :class:`~mnemic.errors.ImportFailed` naming where."""
    base = reading.bytes_done
    export = _Export(path)
    try:
        for i, (conv, done) in enumerate(read_json_array(stream)):
            reading.bytes_done = base + done
            item = _conversation(conv, export, f"{path.name}[{i}]", reading)
            if item is not None:
                yield item
    except JsonArrayError as exc:
        raise ImportFailed(
            str(path),
            f"{exc.reason} (conversation {exc.index}): the export is damaged or cut short; "
            "download it again from ChatGPT (Settings > Data controls > Export data)",
        ) from exc
