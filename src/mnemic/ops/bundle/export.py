"""``mnemic export --bundle FILE``: a whole home in one file (see ``docs/bundles.md``)."""

from __future__ import annotations

import base64
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import __version__
from ...backends.postgres.copy_sides import DatabaseSide, HomeSide, Side
from ...curated.scope import PROJECT_FILE, PROJECTS_DIR, ProjectHome, stored_projects
from ...errors import BundleError
from ...fsio import atomic_write_text, read_text_strict
from ...home import Home
from ...registry import store_scheme, stores_in_home
from ...sessions.attachments import AttachmentStore
from ...sessions.importing.importers import export_session
from ...sessions.sql import SessionStore
from ...sessions.sql.words import SqlWords
from .contents import copy_tree, write_scope
from .layout import Manifest, pack

__all__ = ["BundleReport", "export_bundle", "side_for"]


_KINDS = (
    ("targets", "memory file"),
    ("versions", "version"),
    ("audit_records", "audit record"),
    ("pending", "pending write"),
    ("projects", "project store"),
    ("sessions", "session"),
    ("messages", "message"),
    ("attachments", "attachment"),
    ("skill_files", "skill file"),
    ("vectors", "vector"),
    ("chat_words", "chat word"),
)


@dataclass
class BundleReport:
    """What a bundle carries (export), or what an import took in or would take in."""

    path: str
    counts: dict[str, int] = field(default_factory=dict)
    dry_run: bool = False
    created: str = ""
    mnemic_version: str = ""
    notes: list[str] = field(default_factory=list)
    """What an import leaves to do (the chat's words of a bundle made without them)."""

    def summary(self) -> str:
        """``"2 memory files, 4 sessions, 20 messages"``: the counts in words."""
        counts = self.counts
        parts = [f"{counts[k]:,} {what}{'' if counts[k] == 1 else 's'}" for k, what in _KINDS
                 if counts.get(k)]  # fmt: skip
        return ", ".join(parts) or "an empty home"

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "path": self.path,
            "dry_run": self.dry_run,
            "created": self.created,
            "mnemic_version": self.mnemic_version,
            "counts": dict(self.counts),
            "notes": list(self.notes),
        }


def side_for(home: Home) -> Side:
    """The home as :mod:`~mnemic.backends.postgres.copy` reads and writes it: its
    directory, or the database its settings name."""
    if stores_in_home(home.settings):
        return HomeSide(home.root)
    from ...backends.postgres.db import Database  # psycopg: the postgres extra
    from ...backends.postgres.migrations import check_schema

    return DatabaseSide(Database.for_settings(home.settings, schema_check=check_schema))


def _session_ids(store: SessionStore) -> list[str]:
    """Every session id, oldest first."""
    out: list[str] = []
    while page := store.list_sessions(limit=1000, offset=len(out), order="started"):
        out += [info.id for info in page]
        if len(page) < 1000:
            break
    return out


def _write_sessions(
    side: Side,
    root: Path,
    counts: dict[str, int],
    *,
    with_vectors: bool,
    files: AttachmentStore,
) -> None:
    store = side.sessions(create=False)
    if store is None:
        return
    try:
        ids = _session_ids(store)
        messages = attached = 0
        with open(root / "sessions.jsonl", "w", encoding="utf-8", newline="\n") as out:
            for sid in ids:  # one session in memory at a time
                for rec in export_session(store, sid, attachments=files):
                    out.write(json.dumps(rec) + "\n")  # \\u escapes: any text encodes
                    messages += 1
                    attached += sum("data" in a for a in rec.get("attachments", ()))
        counts["sessions"], counts["messages"] = len(ids), messages
        counts["attachments"] = attached
        marks = store.tombstones()
        counts["tombstones"] = len(marks)
        atomic_write_text(root / "tombstones.json", json.dumps([list(m) for m in marks]))
        if with_vectors:
            vectors = [
                json.dumps(
                    {
                        "session_id": sid,
                        "seq": seq,
                        "model": model,
                        "vec": base64.b64encode(blob).decode("ascii"),
                    }
                )
                for sid, seq, model, blob in _vectors(store)
            ]
            counts["vectors"] = len(vectors)
            atomic_write_text(root / "vectors.jsonl", "".join(f"{v}\n" for v in vectors))
            if store.words is not None:  # the cross-language bridge's, made with them
                _write_words(store.words, root, counts)
    finally:
        store.close()


def _write_words(words: SqlWords, root: Path, counts: dict[str, int]) -> None:
    """The chat's words (``chat_words.jsonl``) and each message's (``message_words.jsonl``)."""
    chat, links = words.dump()
    with open(root / "chat_words.jsonl", "w", encoding="utf-8", newline="\n") as out:
        for word, model, blob in chat:
            vec = base64.b64encode(blob).decode("ascii")
            out.write(json.dumps({"word": word, "model": model, "vec": vec}) + "\n")
    with open(root / "message_words.jsonl", "w", encoding="utf-8", newline="\n") as out:
        for sid, seq, held in links:
            out.write(json.dumps({"session_id": sid, "seq": seq, "words": held}) + "\n")
    counts["chat_words"], counts["message_words"] = len(chat), len(links)


def _vectors(store: SessionStore) -> list[tuple[str, int, str, bytes]]:
    """Every stored vector as (session id, message seq, model, float16 bytes)."""
    if store.vectors is None:
        return []
    return store.vectors.dump()


def export_bundle(
    home: Home,
    destination: Path,
    *,
    with_vectors: bool = False,
    only: ProjectHome | None = None,
) -> BundleReport:
    """Write the whole ``home`` (files or PostgreSQL) as a bundle at ``destination``.

    It carries curated memory (current texts, versions, backups) of the global scope and
    every project store, each scope's audit journal verbatim (so provenance and the
    archive, folded from it, come along) and pending writes, every session with its
    messages, tool calls and attachments (their bytes in base64), forget tombstones, the
    skills directory and, with
    ``with_vectors``, the session vectors and the chat's words (the cross-language
    bridge's, made with them). The file is private (0600) and written
    atomically (a temporary file beside it, renamed).

    ``only``: that project store alone (no global scope, sessions or skills): what a
    removed store is kept in (:mod:`mnemic.ops.project_stores`), imported back into a
    home that lacks it.
    """
    destination = Path(os.path.expanduser(destination))
    if destination.is_dir():
        raise BundleError(str(destination), "write", "is a directory; name the bundle file")
    if not destination.parent.is_dir():
        raise BundleError(
            str(destination), "write", "its directory does not exist; nothing was written"
        )
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    counts: dict[str, int] = {"projects": 0}
    side = side_for(home)
    with tempfile.TemporaryDirectory(prefix="mnemic-bundle-") as tmp:
        root = Path(tmp) / "members"
        if only is None:
            write_scope(side, root / "global", counts, home.root)
        for project in stored_projects(home) if only is None else [only]:
            where = root / PROJECTS_DIR / project.project.id
            if isinstance(side, DatabaseSide):  # its rows, beside the global store's
                write_scope(DatabaseSide(side.db, project.project.id), where, counts, project.root)
                text = json.dumps({"path": project.project.path}, ensure_ascii=False)
            else:
                write_scope(HomeSide(project.root), where, counts, project.root)
                text = read_text_strict(project.root / PROJECT_FILE, nofollow=True) or ""
            atomic_write_text(where / PROJECT_FILE, text)
            counts["projects"] += 1
        if only is None:
            files = AttachmentStore.of_home(home)
            _write_sessions(side, root, counts, with_vectors=with_vectors, files=files)
            counts["skill_files"] = (
                copy_tree(home.skills_dir, root / "skills") if home.skills_dir.is_dir() else 0
            )
        manifest = Manifest(
            created,
            __version__,
            counts,
            with_vectors=with_vectors,
            source_store=store_scheme(home.settings),
        )
        pack(root, destination, manifest)
    return BundleReport(str(destination), counts, created=created, mnemic_version=__version__)
