"""Importing conversations into the session store, and exporting them.

Formats (``import_path(store, path, format=...)``):

``jsonl``
    One message per line: ``{"session_id", "role", "content"}`` plus optional
    ``timestamp`` (Unix seconds or ISO 8601), ``source``, ``name``, ``tool_calls``,
    ``tool_call_id``, ``tool_name``, and session fields taken from the first line that has
    them: ``title``, ``model``, ``parent_session_id``, ``metadata``, ``started_at``,
    ``ended_at``, ``end_reason``. :func:`export_session` writes this format.
``openai``
    OpenAI chat ``messages`` arrays: a JSON list of messages, ``{"messages": [...]}``, a
    list of such objects, or JSONL with one ``{"messages": [...]}`` per line. Each
    conversation becomes a session whose id is derived from its content, so importing
    the same file twice adds nothing.
``claude``
    Claude Code transcripts (``~/.claude/projects/**/*.jsonl``; give a file or a
    directory). Text, tool calls (``tool_use``) and tool results become messages;
    sidechain (subagent) lines, meta lines, thinking blocks and bookkeeping lines are
    skipped and counted.
``locomo``
    The LoCoMo benchmark file: each ``session_<N>`` of each sample becomes the session
    ``locomo-<sample_id>-s<N>``, its turns in order (speaker A as ``user``, B as
    ``assistant``, the speaker in ``name``; a shared photo's caption appended).

``auto`` picks by content. Sessions that already exist are left alone (``replace=True``
deletes and re-imports them). The :class:`ImportReport` counts what was imported and what
was skipped, why, and where the first case of each reason was.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ImportFailed, UnreadableFile
from .store import ROLES, NewMessage, NewSession, SessionStore

__all__ = [
    "FORMATS",
    "ImportReport",
    "detect_format",
    "export_session",
    "import_path",
    "locomo_sessions",
]

FORMATS = ("auto", "jsonl", "openai", "claude", "locomo")

Progress = Callable[[int, int], None]
Item = tuple[NewSession, list[NewMessage]]

_ROLE_ALIASES = {"developer": "system", "function": "tool", "human": "user", "ai": "assistant"}


@dataclass
class ImportReport:
    """What an import did: counts, and skipped items by reason."""

    path: str
    format: str
    files: int = 0
    sessions: int = 0
    messages: int = 0
    existing: int = 0
    replaced: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def skip(self, reason: str, where: str) -> None:
        """Count one skipped item."""
        self.skipped[reason] += 1
        self.examples.setdefault(reason, where)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "path": self.path,
            "format": self.format,
            "files": self.files,
            "sessions": self.sessions,
            "messages": self.messages,
            "existing_sessions_skipped": self.existing,
            "replaced_sessions": self.replaced,
            "skipped": [
                {"reason": r, "count": n, "first_at": self.examples.get(r)}
                for r, n in self.skipped.most_common()
            ],
        }


# --- helpers -------------------------------------------------------------------------


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(str(path), f"not valid UTF-8 at byte {exc.start}") from exc
    except OSError as exc:
        raise UnreadableFile(str(path), exc.strerror or str(exc)) from exc


def _timestamp(value: Any) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        v = float(value)
        return v / 1000.0 if v > 1e11 else v  # milliseconds
    if isinstance(value, str):
        try:
            parsed = _dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            try:
                return _timestamp(float(value))
            except ValueError:
                return None
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=_dt.UTC)
        return parsed.timestamp()
    return None


def _text(content: Any) -> str | None:
    """Message content as text: strings as is, OpenAI/Anthropic part lists joined."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict):
                kind = part.get("type")
                if isinstance(part.get("text"), str):
                    parts.append(part["text"])
                elif kind in ("image_url", "image", "input_image"):
                    parts.append("[image]")
                elif kind in ("input_audio", "audio"):
                    parts.append("[audio]")
                elif kind == "file":
                    parts.append("[file]")
        return "\n".join(parts)
    return None


def _role(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    role = _ROLE_ALIASES.get(value.strip().lower(), value.strip().lower())
    return role if role in ROLES else None


def _tool_calls(value: Any) -> list[dict[str, Any]] | None:
    if isinstance(value, list):
        calls = [c for c in value if isinstance(c, dict)]
        return calls or None
    return None


def _digest(obj: Any) -> str:
    data = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


def _files(path: Path, pattern: str = "*.jsonl") -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob(pattern) if p.is_file())
    return [path]


def detect_format(path: Path) -> str:
    """Guess the format of ``path`` (a directory means Claude Code transcripts)."""
    if path.is_dir():
        return "claude"
    try:
        with open(path, encoding="utf-8-sig") as fh:
            head = fh.read(65536)
    except (OSError, UnicodeDecodeError) as exc:
        raise UnreadableFile(str(path), str(exc)) from exc
    stripped = head.lstrip()
    if stripped.startswith("["):
        if '"qa"' in head and '"conversation"' in head:
            return "locomo"
        return "openai"
    if stripped.startswith("{"):
        first = stripped.split("\n", 1)[0]
        try:
            obj = json.loads(first)
        except ValueError:
            return "openai"  # one JSON document spread over lines
        if isinstance(obj, dict):
            if "messages" in obj:
                return "openai"
            if "sessionId" in obj or obj.get("type") in ("summary", "user", "assistant"):
                return "claude"
            if "session_id" in obj:
                return "jsonl"
    raise ImportFailed(str(path), "cannot tell the format; pass --format")


# --- jsonl ---------------------------------------------------------------------------

_SESSION_FIELDS = ("title", "model", "parent_session_id", "metadata", "started_at", "source")


def _jsonl_items(
    path: Path,
    report: ImportReport,
    progress: Progress | None,
    endings: dict[str, tuple[Any, Any]],
) -> list[Item]:
    text = _read_text(path)
    total = len(text)
    sessions: dict[str, dict[str, Any]] = {}
    done = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        done += len(line) + 1
        if progress is not None and lineno % 2000 == 0:
            progress(done, total)
        if not line.strip():
            continue
        where = f"{path.name}:{lineno}"
        try:
            obj = json.loads(line)
        except ValueError:
            report.skip("line is not valid JSON", where)
            continue
        if not isinstance(obj, dict):
            report.skip("line is not a JSON object", where)
            continue
        sid = obj.get("session_id")
        if not isinstance(sid, str) or not sid.strip():
            report.skip("no session_id", where)
            continue
        role = _role(obj.get("role"))
        if role is None:
            report.skip("missing or unknown role", where)
            continue
        content = _text(obj.get("content"))
        calls = _tool_calls(obj.get("tool_calls"))
        if content is None and obj.get("content") is not None:
            report.skip("content is not text", where)
            continue
        if not content and not calls:
            report.skip("empty message", where)
            continue
        entry = sessions.setdefault(sid, {"fields": {}, "messages": []})
        for key in (*_SESSION_FIELDS, "ended_at", "end_reason"):
            if key in obj and key not in entry["fields"]:
                entry["fields"][key] = obj[key]
        entry["messages"].append(
            NewMessage(
                role,
                content,
                tool_name=obj.get("tool_name") if isinstance(obj.get("tool_name"), str) else None,
                tool_calls=calls,
                tool_call_id=obj.get("tool_call_id")
                if isinstance(obj.get("tool_call_id"), str)
                else None,
                timestamp=_timestamp(obj.get("timestamp")),
                name=obj.get("name") if isinstance(obj.get("name"), str) else None,
            )
        )
    if progress is not None:
        progress(total, total)
    items = []
    for sid, entry in sessions.items():
        f = entry["fields"]
        msgs: list[NewMessage] = entry["messages"]
        started = _timestamp(f.get("started_at")) or next(
            (m.timestamp for m in msgs if m.timestamp is not None), None
        )
        meta = f.get("metadata") if isinstance(f.get("metadata"), dict) else {}
        if f.get("ended_at") or f.get("end_reason"):
            endings[sid] = (f.get("ended_at"), f.get("end_reason"))
        items.append(
            (
                NewSession(
                    id=sid,
                    source=str(f.get("source") or "import"),
                    title=f.get("title") if isinstance(f.get("title"), str) else None,
                    model=f.get("model") if isinstance(f.get("model"), str) else None,
                    parent_id=f.get("parent_session_id")
                    if isinstance(f.get("parent_session_id"), str)
                    else None,
                    started_at=started,
                    metadata=meta,
                ),
                msgs,
            )
        )
    return items


# --- openai --------------------------------------------------------------------------


def _openai_conversations(path: Path, report: ImportReport) -> list[tuple[Any, str]]:
    text = _read_text(path)
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if doc is None:  # JSONL, one conversation a line
        out = []
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append((json.loads(line), f"{path.name}:{lineno}"))
            except ValueError:
                report.skip("line is not valid JSON", f"{path.name}:{lineno}")
        return out
    if isinstance(doc, dict):
        return [(doc, path.name)]
    if isinstance(doc, list) and doc and all(isinstance(m, dict) and "role" in m for m in doc):
        return [({"messages": doc}, path.name)]
    if isinstance(doc, list):
        return [(c, f"{path.name}[{i}]") for i, c in enumerate(doc)]
    raise ImportFailed(str(path), "expected a JSON list or object of chat messages")


def _openai_items(
    path: Path, report: ImportReport, progress: Progress | None, source: str
) -> list[Item]:
    convs = _openai_conversations(path, report)
    items = []
    for i, (conv, where) in enumerate(convs):
        if progress is not None:
            progress(i, len(convs))
        raw = conv.get("messages") if isinstance(conv, dict) else None
        if not isinstance(raw, list):
            report.skip("conversation without a messages list", where)
            continue
        msgs = []
        for j, m in enumerate(raw):
            loc = f"{where} message {j}"
            if not isinstance(m, dict):
                report.skip("message is not an object", loc)
                continue
            role = _role(m.get("role"))
            if role is None:
                report.skip("missing or unknown role", loc)
                continue
            content = _text(m.get("content"))
            calls = _tool_calls(m.get("tool_calls"))
            if not content and not calls:
                report.skip("empty message", loc)
                continue
            msgs.append(
                NewMessage(
                    role,
                    content,
                    tool_calls=calls,
                    tool_call_id=m.get("tool_call_id"),
                    name=m.get("name") if isinstance(m.get("name"), str) else None,
                    timestamp=_timestamp(m.get("timestamp")),
                )
            )
        if not msgs:
            report.skip("conversation without messages", where)
            continue
        title = conv.get("title") if isinstance(conv.get("title"), str) else None
        sid = conv.get("id") if isinstance(conv.get("id"), str) else f"openai-{_digest(raw)}"
        items.append(
            (
                NewSession(
                    id=sid,
                    source=source or "import",
                    title=title,
                    model=conv.get("model") if isinstance(conv.get("model"), str) else None,
                    started_at=_timestamp(conv.get("created") or conv.get("created_at")),
                    metadata={"imported_from": str(path)},
                ),
                msgs,
            )
        )
    if progress is not None:
        progress(len(convs), len(convs))
    return items


# --- claude code ---------------------------------------------------------------------


def _claude_items(path: Path, report: ImportReport, on_line: Callable[[int], None]) -> list[Item]:
    text = _read_text(path)
    sessions: dict[str, dict[str, Any]] = {}
    title: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        on_line(len(line) + 1)
        if not line.strip():
            continue
        where = f"{path.name}:{lineno}"
        try:
            obj = json.loads(line)
        except ValueError:
            report.skip("line is not valid JSON", where)
            continue
        if not isinstance(obj, dict):
            report.skip("line is not a JSON object", where)
            continue
        kind = obj.get("type")
        if kind == "summary":
            if isinstance(obj.get("summary"), str):
                title[str(obj.get("leafUuid") or "")] = obj["summary"]
                title.setdefault("", obj["summary"])
            report.skip("summary line (used as the title)", where)
            continue
        if kind not in ("user", "assistant"):
            report.skip(f"{kind or 'untyped'} line", where)
            continue
        if obj.get("isSidechain"):
            report.skip("sidechain (subagent) message", where)
            continue
        if obj.get("isMeta"):
            report.skip("meta message", where)
            continue
        message = obj.get("message")
        if not isinstance(message, dict):
            report.skip("no message object", where)
            continue
        sid = str(obj.get("sessionId") or path.stem)
        entry = sessions.setdefault(sid, {"messages": [], "meta": {}, "model": None})
        for key in ("cwd", "gitBranch", "version"):
            if obj.get(key) and key not in entry["meta"]:
                entry["meta"][key] = obj[key]
        ts = _timestamp(obj.get("timestamp"))
        if kind == "assistant" and isinstance(message.get("model"), str):
            entry["model"] = entry["model"] or message["model"]
        entry["messages"].extend(_claude_messages(kind, message.get("content"), ts, report, where))
    items = []
    fallback_title = title.get("")
    for sid, entry in sessions.items():
        msgs = entry["messages"]
        if not msgs:
            report.skip("session without messages", f"{path.name} ({sid})")
            continue
        started = next((m.timestamp for m in msgs if m.timestamp is not None), None)
        items.append(
            (
                NewSession(
                    id=sid,
                    source="claude-code",
                    title=fallback_title,
                    model=entry["model"],
                    started_at=started,
                    metadata={**entry["meta"], "transcript": str(path)},
                ),
                msgs,
            )
        )
    return items


def _claude_messages(
    kind: str, content: Any, ts: float | None, report: ImportReport, where: str
) -> list[NewMessage]:
    if isinstance(content, str):
        return [NewMessage(kind, content, timestamp=ts)] if content.strip() else []
    if not isinstance(content, list):
        report.skip("message without content", where)
        return []
    out: list[NewMessage] = []
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
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
            result = _text(block.get("content"))
            out.append(
                NewMessage(
                    "tool",
                    result or "",
                    tool_call_id=str(block.get("tool_use_id") or "") or None,
                    timestamp=ts,
                )
            )
        elif btype in ("thinking", "redacted_thinking"):
            report.skip("thinking block", where)
        elif btype == "image":
            texts.append("[image]")
        else:
            report.skip(f"{btype} block", where)
    if texts or calls:
        text = "\n".join(texts)
        out.insert(0, NewMessage(kind, text, tool_calls=calls or None, timestamp=ts))
    return out


# --- locomo --------------------------------------------------------------------------

_LOCOMO_DATE = "%I:%M %p on %d %B, %Y"


def _locomo_time(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return _dt.datetime.strptime(value.strip(), _LOCOMO_DATE).timestamp()
    except ValueError:
        return None


def locomo_sessions(sample: Mapping[str, Any]) -> Iterator[Item]:
    """The sessions of one LoCoMo sample, turns in order (seq i = turn i of the session)."""
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
            msgs.append(
                NewMessage(
                    "user" if speaker == speaker_a else "assistant",
                    text,
                    name=str(speaker) if speaker else None,
                    timestamp=base + 30.0 * i,
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


def _locomo_items(path: Path, report: ImportReport, progress: Progress | None) -> list[Item]:
    try:
        data = json.loads(_read_text(path))
    except ValueError as exc:
        raise ImportFailed(str(path), f"not valid JSON ({exc})") from exc
    if not isinstance(data, list):
        raise ImportFailed(str(path), "expected a JSON list of LoCoMo samples")
    items: list[Item] = []
    for i, sample in enumerate(data):
        if progress is not None:
            progress(i, len(data))
        if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
            report.skip("sample without a conversation", f"{path.name}[{i}]")
            continue
        items.extend(locomo_sessions(sample))
    if progress is not None:
        progress(len(data), len(data))
    return items


# --- driver --------------------------------------------------------------------------


def import_path(
    store: SessionStore,
    path: str | Path,
    *,
    format: str = "auto",
    source: str | None = None,
    replace: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import ``path`` (a file, or a directory of Claude Code transcripts).

    ``progress(done, total)`` is called as the input is read (bytes or conversations).
    ``source`` overrides the source recorded for the sessions (default per format).
    """
    path = Path(path).expanduser()
    if not path.exists():
        raise ImportFailed(str(path), "no such file or directory")
    fmt = detect_format(path) if format == "auto" else format
    if fmt not in FORMATS[1:]:
        raise ImportFailed(str(path), f"unknown format {format!r}; use one of {FORMATS}")
    report = ImportReport(str(path), fmt)
    endings: dict[str, tuple[Any, Any]] = {}
    items: list[Item]
    if fmt == "claude":
        files = _files(path)
        total = sum(f.stat().st_size for f in files) or 1
        done = 0

        def on_line(n: int) -> None:
            nonlocal done
            done += n
            if progress is not None and done % 65536 < n:
                progress(min(done, total), total)

        items = []
        for f in files:
            items.extend(_claude_items(f, report, on_line))
        report.files = len(files)
    elif fmt == "jsonl":
        items = _jsonl_items(path, report, progress, endings)
        report.files = 1
    elif fmt == "openai":
        items = _openai_items(path, report, progress, source or "import")
        report.files = 1
    else:
        items = _locomo_items(path, report, progress)
        report.files = 1
    if source:
        items = [(_with_source(spec, source), msgs) for spec, msgs in items]
    if replace:
        for spec, _ in items:
            if spec.id and store.has_session(spec.id):
                store.delete_session(spec.id)
                report.replaced += 1
    for sid, ids in store.import_sessions(items):
        if ids is None:
            report.existing += 1
            continue
        report.sessions += 1
        report.messages += len(ids)
        if sid in endings:
            ended_at, reason = endings[sid]
            store.end_session(sid, str(reason or "ended"), ended_at=_timestamp(ended_at))
    if progress is not None:
        progress(1, 1)
    return report


def _with_source(spec: NewSession, source: str) -> NewSession:
    return NewSession(
        spec.id, source, spec.title, spec.model, spec.parent_id, spec.started_at, spec.metadata
    )


def export_session(store: SessionStore, session_id: str) -> Iterator[dict[str, Any]]:
    """The session as ``jsonl``-format records (session fields on the first line)."""
    info = store.get_session(session_id)
    first = True
    for m in store.messages(session_id):
        rec: dict[str, Any] = {
            "session_id": info.id,
            "role": m.role,
            "content": m.content,
            "timestamp": m.timestamp,
            "source": info.source,
        }
        if m.name:
            rec["name"] = m.name
        if m.tool_name:
            rec["tool_name"] = m.tool_name
        if m.tool_calls:
            rec["tool_calls"] = m.tool_calls
        if m.tool_call_id:
            rec["tool_call_id"] = m.tool_call_id
        if first:
            rec.update(
                {
                    "title": info.title,
                    "model": info.model,
                    "parent_session_id": info.parent_id,
                    "started_at": info.started_at,
                    "ended_at": info.ended_at,
                    "end_reason": info.end_reason,
                    "metadata": info.metadata,
                }
            )
            rec = {k: v for k, v in rec.items() if v is not None}
            first = False
        yield rec
