"""A Hermes Agent home built in a test, in the formats Hermes documents (see
docs/interop.md and the Hermes behaviour reference): MEMORY.md and USER.md with the
``\\n§\\n`` separator, ARCHIVE.jsonl, ``state.db`` with Hermes's tables, and a skills
folder. No private data: every text is made up here."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DELIMITER = "\n§\n"

# the tables of Hermes's state.db (schema version 22), the columns an importer may meet
SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, session_key TEXT,
    chat_id TEXT, chat_type TEXT, thread_id TEXT, display_name TEXT, origin_json TEXT,
    model TEXT, model_config TEXT, system_prompt TEXT,
    parent_session_id TEXT REFERENCES sessions(id), started_at REAL NOT NULL,
    ended_at REAL, end_reason TEXT, message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0, cwd TEXT, git_branch TEXT, git_repo_root TEXT,
    title TEXT UNIQUE, api_call_count INTEGER DEFAULT 0, profile_name TEXT,
    rewind_count INTEGER DEFAULT 0, archived INTEGER DEFAULT 0
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
    effect_disposition TEXT, timestamp REAL NOT NULL, token_count INTEGER,
    finish_reason TEXT, reasoning TEXT, reasoning_content TEXT, reasoning_details TEXT,
    codex_reasoning_items TEXT, codex_message_items TEXT, platform_message_id TEXT,
    observed INTEGER, active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_sessions_source ON sessions(source);
CREATE INDEX idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
CREATE VIRTUAL TABLE messages_fts USING fts5(content);
"""

T0 = 1_780_000_000.0


def write_memory(root: Path, name: str, entries: Sequence[str]) -> Path:
    """memories/<name> holding ``entries`` as Hermes writes them (no trailing newline)."""
    path = root / "memories" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(DELIMITER.join(entries), encoding="utf-8")
    return path


def write_archive(root: Path, items: Sequence[dict[str, Any] | str]) -> Path:
    """memories/ARCHIVE.jsonl: one object a line (a str is written as the raw line)."""
    path = root / "memories" / "ARCHIVE.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [i if isinstance(i, str) else json.dumps(i, ensure_ascii=False) for i in items]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_state_db(root: Path) -> Path:
    """state.db: a CLI session with a tool call, its compression continuation (a child),
    a Telegram session, and one rewound message that Hermes hides."""
    path = root / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")  # as Hermes opens it
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO schema_version VALUES (22)")
    sessions = [
        (
            "20260101_100000_a1",
            "cli",
            None,
            T0,
            T0 + 50,
            "compression",
            "Deploy the blog",
            "hermes-4-70b",
            "/srv/blog",
        ),
        (
            "20260101_100100_b2",
            "cli",
            "20260101_100000_a1",
            T0 + 60,
            None,
            None,
            "Deploy the blog #2",
            "hermes-4-70b",
            "/srv/blog",
        ),
        (
            "20260102_090000_c3",
            "telegram",
            None,
            T0 + 86400,
            T0 + 86500,
            "new_session",
            None,
            "hermes-4-14b",
            None,
        ),
    ]
    for sid, source, parent, started, ended, reason, title, model, cwd in sessions:
        conn.execute(
            "INSERT INTO sessions (id, source, parent_session_id, started_at, ended_at, "
            "end_reason, title, model, cwd) VALUES (?,?,?,?,?,?,?,?,?)",
            (sid, source, parent, started, ended, reason, title, model, cwd),
        )
    call = [
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "terminal", "arguments": '{"command": "make deploy"}'},
        }
    ]
    messages = [
        (
            "20260101_100000_a1",
            "user",
            "deploy the blog to the staging host",
            None,
            None,
            None,
            1,
            0,
        ),
        ("20260101_100000_a1", "assistant", "", None, json.dumps(call), None, 1, 0),
        ("20260101_100000_a1", "tool", "deployed in 42s", "call_1", None, "terminal", 1, 0),
        ("20260101_100000_a1", "assistant", "Deployed to staging.", None, None, None, 0, 1),
        ("20260101_100100_b2", "user", "now check the TLS certificate", None, None, None, 1, 0),
        ("20260101_100100_b2", "assistant", "It expires in 60 days.", None, None, None, 1, 0),
        ("20260101_100100_b2", "user", "never mind that", None, None, None, 0, 0),
        ("20260102_090000_c3", "user", "remind me about the dentist", None, None, None, 1, 0),
        ("20260102_090000_c3", "assistant", "Noted: dentist on Friday.", None, None, None, 1, 0),
    ]
    for i, (sid, role, content, tcid, calls, tool, active, compacted) in enumerate(messages):
        conn.execute(
            "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, "
            "tool_name, timestamp, active, compacted) VALUES (?,?,?,?,?,?,?,?,?)",
            (sid, role, content, tcid, calls, tool, T0 + i, active, compacted),
        )
    conn.commit()
    conn.close()
    return path


SKILL = """---
name: {name}
description: {description}
---
{body}
"""


def write_skill(
    root: Path, ref: str, description: str, body: str, files: dict[str, str] | None = None
) -> Path:
    """skills/<ref>/SKILL.md (ref may hold categories) and supporting files."""
    path = root / "skills" / ref
    path.mkdir(parents=True, exist_ok=True)
    name = ref.rsplit("/", 1)[-1]
    (path / "SKILL.md").write_text(
        SKILL.format(name=name, description=description, body=body), encoding="utf-8"
    )
    for rel, text in (files or {}).items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text, encoding="utf-8")
    return path


MEMORY = [
    "The blog deploys with `make deploy` from /srv/blog; staging is staging.example.org.",
    "Project uses Python 3.12 and uv for dependencies.",
]
USER = ["Name: Sam. Prefers short answers.", "Timezone: Europe/Lisbon."]
ARCHIVE = [
    {
        "target": "memory",
        "content": "Old staging host was stage-old.example.org.",
        "archived_at": T0,
        "reason": "evicted",
    },
    {"target": "user", "content": "Used to prefer long answers.", "archived_at": T0},
]


def build(root: Path) -> Path:
    """A complete Hermes home under ``root``."""
    write_memory(root, "MEMORY.md", MEMORY)
    write_memory(root, "USER.md", USER)
    write_archive(root, ARCHIVE)
    write_state_db(root)
    write_skill(
        root,
        "devops/deploy-check",
        "Check a deploy went through.",
        "1. Open the site.\n2. See references/checklist.md.",
        {"references/checklist.md": "- status page is green\n"},
    )
    write_skill(
        root,
        "git-bisect",
        "Find the commit that broke a test.",
        "Run git bisect start, then mark good and bad commits.",
    )
    return root
