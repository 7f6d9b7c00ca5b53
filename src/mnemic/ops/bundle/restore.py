"""``mnemic import --bundle FILE``: a bundle into an empty home, all or nothing.

Everything is checked before anything is written: the file (:func:`.layout.unpack`:
format, version, checksums, paths, truncation), every member's content, each scope's
audit journal (its chain must verify), each project's id and directory, and the
destination (it must be empty). Then:

* **files**: the whole home is built in a private staging directory inside it
  (``.bundle-import-*``), then its parts (``memories``, ``audit``, ``pending``,
  ``sessions.db``, ``skills``, ``projects``, ``cache``, ``attachments``: those the bundle
  has) are renamed
  into place; a failure while renaming puts back what was moved, and the staging
  directory is always removed.
* **PostgreSQL**: the parts are written (each project store: a row of the project
  catalog, then its rows beside the global store's, as ``mnemic db copy`` writes them)
  and every journal verified, then the usage counts
  and the skills directory (files beside the database, as always) are put in the home
  directory, the attachments' files as the sessions go in; a failure at
  any point deletes what was written (the schema was empty, so that is the state
  before). This is not one transaction: a process killed in the middle leaves part of
  the bundle in the schema, with a ``meta`` row saying so, and the next import refuses
  the schema naming the interrupted import (drop the schema, migrate, import again).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from importlib.util import find_spec
from pathlib import Path, PurePosixPath

from ...backends.files.sqlite import SQLiteSessionStore
from ...backends.postgres.copy import SUBSYSTEMS
from ...backends.postgres.copy_sides import DatabaseSide, HomeSide, Side
from ...curated.entries import FILENAMES, TARGETS
from ...curated.scope import PROJECT_FILE, PROJECTS_DIR, stored_projects, unmark_gone
from ...curated.usage_log import usage_path
from ...errors import BundleError
from ...fsio import atomic_write_text, ensure_private_dir
from ...home import Home
from ...jsonstream import TOO_DEEP
from ...registry import stores_in_home
from ...sessions.attachments import DIRNAME, AttachmentStore
from ...sessions.importing.importers import ImportProgress
from ...sessions.sql import SessionStore
from ...sessions.store import NewMessage, NewSession
from .contents import (
    Scope,
    SessionItem,
    check_layout,
    iter_sessions,
    project_place,
    read_message_words,
    read_scope,
    read_vectors,
    read_words,
)
from .export import BundleReport, side_for
from .layout import private_dirs, unpack

__all__ = ["import_bundle"]

log = logging.getLogger(__name__)

PARTS = (
    "memories",
    "audit",
    "pending",
    "skills",
    PROJECTS_DIR,
    "cache",
    "sessions.db",
    DIRNAME,
)
"""What a files home's import puts in place (``sessions.db-wal``/``-shm`` go with it)."""
_DB_SIDECARS = ("sessions.db-wal", "sessions.db-shm")


def _held(home: Home, side: Side) -> list[str]:
    """What the home already holds (empty: the home may take a bundle)."""
    held: list[str] = []
    for target in TARGETS:
        name = FILENAMES[target]
        if (side.current(target) or "").strip():
            held.append(name)
        elif side.versions(target):
            held.append(f"{name} history")
    if side.journal_lines():
        held.append("audit records")
    if any(side.pending(s) for s in SUBSYSTEMS):
        held.append("pending writes")
    if isinstance(side, HomeSide):
        if home.sessions_db.exists():
            store = SQLiteSessionStore(home.sessions_db)
            try:
                if store.list_sessions(limit=1):
                    held.append("sessions")
            finally:
                store.close()
    elif isinstance(side, DatabaseSide):
        store_pg = side.sessions()
        if store_pg is not None and store_pg.list_sessions(limit=1):
            held.append("sessions")
        started = _marker(side)
        if started is not None:
            held.append(
                f"part of a bundle whose import started {started} and was interrupted: "
                f"drop the schema {side.db.schema!r} (DROP SCHEMA ... CASCADE), run mnemic "
                "db migrate, then import again"
            )
    if home.skills_dir.is_dir() and any(not n.startswith(".") for n in os.listdir(home.skills_dir)):
        held.append("skills")
    if stored_projects(home):
        held.append("project stores")
    return held


def _put_scope(side: Side, scope: Scope) -> None:
    for target, kept in scope.kept.items():
        if kept.current is not None or kept.versions or kept.backups or kept.ledger:
            side.put_target(target, kept)
    for record in scope.pending:
        side.put_pending(record)
    if scope.journal:
        side.put_journal(scope.journal)


Progress = Callable[[ImportProgress], None]
"""Told how far the session import is (the messages written of the bundle's)."""


def _put_sessions(
    store: SessionStore,
    bundle: Path,
    root: Path,
    marks: list[list[str]],
    progress: Progress | None,
    total: int,
    files: AttachmentStore,
) -> None:
    endings: list[SessionItem] = []
    started = last = time.monotonic()
    written = sessions = 0

    def tell(*, finished: bool = False) -> None:
        if progress is not None:
            elapsed = time.monotonic() - started
            progress(ImportProgress(written, total, written, sessions, elapsed, finished))

    def items() -> Iterator[tuple[NewSession, list[NewMessage]]]:
        for item in iter_sessions(bundle, root, files):
            if item.ended_at is not None:
                endings.append(SessionItem(item.spec, [], item.ended_at, item.end_reason))
            yield item.spec, item.messages

    for session_id, ids, *_ in store.import_sessions(items()):
        if ids is None:
            raise BundleError(str(bundle), "write", f"session {session_id!r} was not imported")
        written, sessions = written + len(ids), sessions + 1
        if time.monotonic() - last >= 0.5:
            last = time.monotonic()
            tell()
    tell(finished=True)
    for ended in endings:
        store.end_session(ended.spec.id, ended.end_reason or "ended", ended_at=ended.ended_at)
    if marks:
        store.keep_tombstones([(str(a), str(b)) for a, b in marks])
    if store.vectors is not None:
        store.vectors.restore(list(read_vectors(bundle, root)))
    links = list(read_message_words(bundle, root))
    if links and store.words is not None and find_spec("numpy") is not None:
        # the chat's words as the source made them, nothing embedded (without numpy, the
        # semantic extra, nothing reads them: `mnemic sessions embed` links them later)
        store.words.restore(read_words(bundle, root), links)


def import_bundle(
    home: Home, bundle: Path, *, dry_run: bool = False, progress: Progress | None = None
) -> BundleReport:
    """Import the bundle at ``bundle`` into ``home`` (which must hold nothing yet; see
    the module docstring). With ``dry_run`` everything is checked and counted, and
    nothing is written; ``progress`` follows the session import (messages written of
    the bundle's, rate, time left). Raises :class:`~mnemic.errors.BundleError`."""
    bundle = Path(os.path.expanduser(bundle))
    files = stores_in_home(home.settings)
    if not dry_run:
        ensure_private_dir(home.root)
    where = None if dry_run else home.root  # renames into place stay on one file system
    # opening a files home's curated store makes its memories/: unless the import went
    # in, it is taken back
    made_memories = files and not home.memories_dir.exists()
    imported = False
    staging = Path(tempfile.mkdtemp(prefix=".bundle-import-", dir=where))
    try:
        members = staging / "members"
        manifest = unpack(bundle, members)
        check_layout(bundle, manifest.members)
        scopes = [read_scope(bundle, members, "global", staging / "check")]
        projects = members / PROJECTS_DIR
        for pid in sorted(os.listdir(projects)) if projects.is_dir() else []:
            scopes.append(read_scope(bundle, members, f"{PROJECTS_DIR}/{pid}", staging / "check"))
        messages = sum(len(i.messages) for i in iter_sessions(bundle, members))  # all parse
        for _ in read_vectors(bundle, members):  # and every vector
            pass
        for _ in read_message_words(bundle, members):  # and the chat's words
            pass
        read_words(bundle, members)
        marks = _tombstones(bundle, members)
        places = {s.name: project_place(bundle, s) for s in scopes[1:] if s is not None}
        side = side_for(home)
        stores_only = (
            scopes[0] is None
            and len(scopes) > 1
            and not messages
            and not marks
            and not (members / "skills").is_dir()
        )
        held = _held_stores(home, places) if stores_only else _held(home, side)
        if stores_only and held:
            raise BundleError(
                str(bundle),
                "not_empty",
                f"the home {home.root} already has the project store {', '.join(held)} "
                "this bundle holds. Nothing was imported. Remove it first (mnemic project "
                "forget ID), or import into another home (mnemic --home NEW_DIR import "
                "--bundle FILE).",
            )
        if held:
            raise BundleError(
                str(bundle),
                "not_empty",
                f"the home {home.root} is not empty (it holds {', '.join(held)}). Nothing was "
                "imported. Import a bundle into a new, empty home (mnemic --home NEW_DIR "
                "import --bundle FILE); merging into a home is not supported.",
            )
        report = BundleReport(
            str(bundle),
            dict(manifest.counts),
            dry_run=dry_run,
            created=manifest.created,
            mnemic_version=manifest.mnemic_version,
        )
        report.notes = _words_notes(manifest.counts)
        if dry_run:
            return report
        present = [s for s in scopes if s is not None]
        if stores_only:  # project stores alone (a removed store's bundle), into any home
            _stores_into(home, side, staging, present, places, bundle)
            imported = True
            return report
        if isinstance(side, HomeSide):
            _into_files(home, staging, present, bundle, members, marks, (progress, messages))
        else:
            assert isinstance(side, DatabaseSide)
            _into_database(
                side, present, places, bundle, members, marks, home.root, (progress, messages)
            )
        imported = True
        return report
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if made_memories and not imported:
            with contextlib.suppress(OSError):
                os.rmdir(home.memories_dir)


def _held_stores(home: Home, places: dict[str, tuple[str, str]]) -> list[str]:
    """The ids of the bundle's project stores this home already has."""
    have = {p.project.id for p in stored_projects(home)}
    return sorted(pid for pid, _ in places.values() if pid in have)


def _stores_into(
    home: Home,
    side: Side,
    staging: Path,
    scopes: list[Scope],
    places: dict[str, tuple[str, str]],
    bundle: Path,
) -> None:
    """A bundle of project stores only (no global memory, sessions or skills), into a
    home that has none of them: files, each store built aside and renamed into
    ``projects/`` (one rename each: a store is there whole or not at all); PostgreSQL,
    each store's catalog row and rows, deleted again if any part fails."""
    if isinstance(side, HomeSide):
        built = staging / "stores"
        moved: list[Path] = []
        try:
            for scope in scopes:
                pid, _ = places[scope.name]
                root = private_dirs(built, PurePosixPath(scope.name))
                _put_scope(HomeSide(root), scope)
                if scope.usage is not None:
                    ensure_private_dir(usage_path(root).parent)
                    atomic_write_text(usage_path(root), scope.usage)
                atomic_write_text(root / PROJECT_FILE, scope.project_file or "")
            ensure_private_dir(home.root / PROJECTS_DIR)
            for scope in scopes:
                pid, _ = places[scope.name]
                os.rename(built / PROJECTS_DIR / pid, home.root / PROJECTS_DIR / pid)
                moved.append(home.root / PROJECTS_DIR / pid)
                unmark_gone(home.root / PROJECTS_DIR / pid)  # back: no longer removed
        except OSError as exc:
            for done in moved:
                shutil.rmtree(done, ignore_errors=True)
            raise BundleError(
                str(bundle), "write", f"writing the project stores failed ({exc}); undone"
            ) from exc
        return
    assert isinstance(side, DatabaseSide)
    from ...backends.postgres.curated import PROJECT_TABLES
    from ...backends.postgres.db import atomic

    written: list[str] = []
    try:
        for scope in scopes:
            pid, path = places[scope.name]
            written.append(pid)
            side.add_project(pid, path)
            into = side.project(pid)
            _put_scope(into, scope)
            if not into.journal_ok():
                raise BundleError(
                    str(bundle),
                    "write",
                    f"the imported audit journal of {scope.name} does not verify; undone",
                )
            if scope.usage is not None:
                where = usage_path(home.root / PROJECTS_DIR / pid)
                ensure_private_dir(where.parent)
                atomic_write_text(where, scope.usage)
    except BaseException:
        db = side.db
        with db.connection() as conn, atomic(conn):
            for pid in written:
                for table in PROJECT_TABLES:
                    there = conn.execute(db.sql(f"SELECT to_regclass('{{s}}.{table}')")).fetchone()
                    if there is not None and there[0] is not None:
                        conn.execute(
                            db.sql(f"DELETE FROM {{s}}.{table} WHERE project = %s"), (pid,)
                        )
                conn.execute(db.sql("DELETE FROM {s}.projects WHERE id = %s"), (pid,))
        raise


def _words_notes(counts: dict[str, int]) -> list[str]:
    """What an import of these counts leaves to do about the chat's words: none when
    the bundle carries no vectors, or its words come back here."""
    if not counts.get("vectors"):
        return []
    if "message_words" not in counts:  # made before the words travelled (session 53)
        return [
            "the bundle carries session vectors without the chat's words (the cross-"
            "language search's; made before bundles carried them): `mnemic sessions "
            "embed` links them (it embeds the words, not the messages)"
        ]
    if counts["message_words"] and find_spec("numpy") is None:
        return [
            "the chat's words were not put back (the semantic extra, numpy, is not "
            "installed here, and only it reads them): `mnemic sessions embed` links them "
            "once it is"
        ]
    return []


def _tombstones(bundle: Path, members: Path) -> list[list[str]]:
    path = members / "tombstones.json"
    if not path.is_file():
        return []
    try:
        marks = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(marks, list) or not all(
            isinstance(m, list) and len(m) == 2 and all(isinstance(s, str) for s in m)
            for m in marks
        ):
            raise ValueError("each mark is [scope, digest], two strings")
        return [[a, b] for a, b in marks]
    except (ValueError, TypeError, RecursionError) as exc:
        why = TOO_DEEP if isinstance(exc, RecursionError) else exc
        raise BundleError(
            str(bundle),
            "content",
            f"its tombstones.json is not a list of pairs ({why}). Nothing was imported.",
        ) from None


def _into_files(
    home: Home,
    staging: Path,
    scopes: list[Scope],
    bundle: Path,
    members: Path,
    marks: list[list[str]],
    told: tuple[Progress | None, int],
) -> None:
    built = staging / "home"
    ensure_private_dir(built)
    for scope in scopes:
        root = private_dirs(built, PurePosixPath("." if scope.name == "global" else scope.name))
        _put_scope(HomeSide(root), scope)
        if scope.usage is not None:
            ensure_private_dir(usage_path(root).parent)
            atomic_write_text(usage_path(root), scope.usage)
        if scope.project_file is not None:
            atomic_write_text(root / PROJECT_FILE, scope.project_file)
    if (members / "sessions.jsonl").is_file() or marks:
        store = SQLiteSessionStore(built / "sessions.db")
        try:
            _put_sessions(store, bundle, members, marks, *told, _restored(built))
        finally:
            store.close()
    if (members / "skills").is_dir():
        os.rename(members / "skills", built / "skills")
    try:
        _swap_in(home.root, built, staging / "aside")
    except OSError as exc:
        raise BundleError(
            str(bundle),
            "write",
            f"moving the imported parts into {home.root} failed ({exc.strerror or exc}); what "
            "was moved was put back. Nothing was imported.",
        ) from exc


def _restored(root: Path) -> AttachmentStore:
    """The attachment store a bundle's files go into: a copy of a home's, so the caps
    on what an import takes in from elsewhere do not apply."""
    return AttachmentStore(root / DIRNAME, max_bytes=1 << 62, max_total=1 << 62)


def _swap_in(root: Path, built: Path, aside: Path) -> None:
    """Rename the built parts into the home; what the home had of them (nothing, but
    maybe empty directories or an empty ``sessions.db``) goes aside. A failure puts
    everything back as it was."""
    ensure_private_dir(aside)
    names = [n for n in PARTS if os.path.lexists(built / n)]
    if "sessions.db" in names:  # its WAL and index files go with it, whichever home's
        names += _DB_SIDECARS
    moved_aside: list[str] = []
    moved_in: list[str] = []
    try:
        for name in names:
            if os.path.lexists(root / name):
                os.rename(root / name, aside / name)
                moved_aside.append(name)
        for name in names:
            if os.path.lexists(built / name):
                os.rename(built / name, root / name)
                moved_in.append(name)
    except BaseException:
        for name in reversed(moved_in):
            with contextlib.suppress(OSError):
                os.rename(root / name, built / name)
        for name in reversed(moved_aside):
            with contextlib.suppress(OSError):
                os.rename(aside / name, root / name)
        raise
    fd = os.open(root, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _into_database(
    side: DatabaseSide,
    scopes: list[Scope],
    places: dict[str, tuple[str, str]],
    bundle: Path,
    members: Path,
    marks: list[list[str]],
    root: Path,
    told: tuple[Progress | None, int],
) -> None:
    wrote_usage: list[Path] = []
    _set_marker(side, bundle)  # first: a process killed from here on leaves it behind
    try:
        written: list[tuple[Scope, DatabaseSide, Path]] = []
        for scope in scopes:
            into, where = side, root
            if scope.name in places:  # a project's rows, beside the global store's
                pid, path = places[scope.name]
                side.add_project(pid, path)
                into, where = side.project(pid), root / PROJECTS_DIR / pid
            _put_scope(into, scope)
            written.append((scope, into, where))
        store = side.sessions()
        assert store is not None
        _put_sessions(store, bundle, members, marks, *told, _restored(root))
        for scope, into, _ in written:
            if not into.journal_ok():
                raise BundleError(
                    str(bundle),
                    "write",
                    f"the imported audit journal of {scope.name} does not verify; undone",
                )
        # the usage counts and the skills stay files in the home directory, as on files
        for scope, _, where in written:
            if scope.usage is not None:
                ensure_private_dir(usage_path(where).parent)  # and its parents, 0700
                atomic_write_text(usage_path(where), scope.usage)
                wrote_usage.append(usage_path(where))
        if (members / "skills").is_dir():
            os.rename(members / "skills", root / "skills")
        _set_marker(side, None)
    except BaseException:
        try:
            _empty_schema(side)
        except Exception as exc:  # the original error says what happened; this is logged
            log.warning(
                "the partial bundle import could not be undone (%s): the schema keeps its "
                "interrupted-import mark, and the next import will name it",
                exc,
            )
        for counts in wrote_usage:
            with contextlib.suppress(OSError):
                os.unlink(counts)
        raise


def _empty_schema(side: DatabaseSide) -> None:
    """Delete every row the import wrote (the schema was empty before it)."""
    from ...backends.postgres.db import atomic

    db = side.db
    tables = (
        "curated", "curated_versions", "curated_backups", "curated_provenance", "pending",
        "audit", "audit_targets", "journal_fold", "messages", "sessions", "forgotten",
        "import_marks", "projects",
    )  # fmt: skip
    with db.connection() as conn, atomic(conn):
        found = conn.execute(db.sql("SELECT to_regclass('{s}.message_vectors')")).fetchone()
        if found is not None and found[0] is not None:
            conn.execute(db.sql("DELETE FROM {s}.message_vectors"))
        for table in tables:
            conn.execute(db.sql(f"DELETE FROM {{s}}.{table}"))
        conn.execute(db.sql("UPDATE {s}.audit_head SET count = 0, hash = repeat('0', 64)"))
        conn.execute(db.sql("DELETE FROM {s}.meta WHERE key = %s"), (_MARKER,))


_MARKER = "bundle_import"
"""The ``meta`` row an import into PostgreSQL holds while it writes (not one transaction:
a process killed half-way leaves it, and the next import names what happened)."""


def _marker(side: DatabaseSide) -> str | None:
    db = side.db
    with db.connection() as conn:
        row = conn.execute(
            db.sql("SELECT value FROM {s}.meta WHERE key = %s"), (_MARKER,)
        ).fetchone()
    return None if row is None else str(row[0])


def _set_marker(side: DatabaseSide, bundle: Path | None) -> None:
    """Hold the marker (the time and the bundle), or drop it (``None``)."""
    db = side.db
    with db.connection() as conn:
        if bundle is None:
            conn.execute(db.sql("DELETE FROM {s}.meta WHERE key = %s"), (_MARKER,))
            return
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        taken = conn.execute(
            db.sql(
                "INSERT INTO {s}.meta (key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO NOTHING RETURNING key"
            ),
            (_MARKER, f"{when} from {bundle}"),
        ).fetchone()
    if taken is None:
        raise BundleError(
            str(bundle),
            "not_empty",
            f"another bundle import into the schema {db.schema!r} is running (or was "
            "interrupted). Nothing was imported.",
        )
