"""Memory scopes: the global store, and one store per project directory beside it.

A *project store* is a second, complete curated store: its own MEMORY.md with its own
lock, history, budget (``[project] memory_char_limit``), audit journal, pending queue and
archive (a fold of that journal), under ``<home>/projects/<id>/``. Nothing of the global
store's machinery is duplicated: the project is opened as a :class:`~mnemic.home.Home`
rooted there, with the global settings but its own budget, so every write goes through
the same lock, re-read, budget, threat scan and crash-safe commit.

- **Id.** ``<name>-<hash>``: the directory's name (letters, digits, ``.``, ``_``, ``-``;
  at most 40) and the first 12 hex digits of the SHA-256 of its resolved path
  (symlinks followed). Two checkouts of one repository (git worktrees included) are two
  projects; pass the same ``--project DIR`` to share one.
- **USER.md is global only**: the user is the same person in every project. A project
  store has no USER.md; the tool refuses ``scope="project"`` with ``target="user"``.
- **Existence.** ``project.json`` (the resolved path) is written by the first write
  that is kept (committed or staged for approval), just before it; a store exists once
  it is there. A store no write made yet is opened without creating anything
  (:attr:`ProjectHome.unmade`): a refused write (scanner block, over
  budget, bad input, nothing to match) leaves no store, no directory and no audit
  record (there is no store to hold it: the caller reads the refusal), and neither does
  a reader. ``open_project(..., create=True)`` makes it at once (``mnemic init
  --project DIR``, an agent session started with the project).
  Explicit selections (``--project DIR``, ``MNEMIC_PROJECT``, a tool's scope) always
  use the project; the Claude Code hook
  selects the project of its ``cwd`` (or of the nearest parent directory) only when its
  store exists: a user opts a project in by writing to it once.
- **Where it lives.** On the files store, ``<home>/projects/<id>/`` is the store. On a
  database store (PostgreSQL) the project's rows sit beside the global ones in the same
  tables, keyed by its id (``Settings.scope``, set by :func:`project_settings`), and the
  database's project catalog (:class:`~mnemic.registry.ProjectCatalog`) replaces
  ``project.json``; ``<home>/projects/<id>/`` then holds only local caches. A backend
  with no catalog refuses a project (:class:`~mnemic.errors.ProjectScopeError`, reason
  ``backend``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import os
import re
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..config import Settings
from ..control_chars import printable
from ..errors import ProjectScopeError, StorageError
from ..fsio import atomic_write_text, ensure_private_dir, read_text_strict
from ..home import Home
from ..registry import project_catalog, store_scheme, stores_in_home

__all__ = [
    "PROJECTS_DIR",
    "PROJECT_FILE",
    "REMOVED_PROJECTS",
    "SCOPES",
    "SET_ASIDE",
    "DEBRIS_AGE",
    "TOMBSTONES",
    "Project",
    "ProjectHome",
    "check_backend",
    "every_store",
    "find_project",
    "gone_store",
    "left_behind",
    "left_behind_here",
    "local_directory",
    "locate",
    "missing_store",
    "no_project",
    "open_project",
    "project_id",
    "resolved_project_id",
    "project_of_roots",
    "project_path",
    "project_settings",
    "read_tombstone",
    "removal_debris",
    "removed_store",
    "drop_file_tombstones",
    "mark_gone",
    "set_aside_stores",
    "store_tombstone",
    "stored_projects",
    "tombstone_file",
    "tombstone_text",
    "unmark_gone",
    "user_home",
]

SCOPES = ("global", "project")
PROJECTS_DIR = "projects"
PROJECT_FILE = "project.json"
REMOVING = ".removed-"
"""The prefix of a removed store's directory on its way out of ``<home>/projects/``
(``mnemic project forget``): no id starts with a dot, so no listing reads it."""
_NAME_CHARS = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True, slots=True)
class Project:
    """One project directory and where its store lives."""

    id: str
    path: str
    """The directory, resolved (symlinks followed)."""
    root: Path
    """``<home>/projects/<id>``: the project store's own home directory."""

    @property
    def exists(self) -> bool:
        """Whether the store was created in the home's directory (its first write wrote
        ``project.json``): the files store. :attr:`ProjectHome.exists` asks any store."""
        return (self.root / PROJECT_FILE).is_file()


class ProjectHome(Home):
    """A project store opened as a home of its own (:func:`open_project`): memory views
    and sessions over it render its block as PROJECT MEMORY."""

    def __init__(self, project: Project, settings: Settings) -> None:
        super().__init__(project.root, settings)
        self.project = project
        self.unmade = False
        """A store that did not exist when :func:`open_project` opened it: nothing of it
        is created until :meth:`make`, which a :class:`~mnemic.curated.memory.Memory`
        calls before its first kept write."""

    def make(self) -> None:
        """Record the store (files: its directory and ``project.json``; a database: a
        row of its catalog); nothing when it exists."""
        catalog = project_catalog(self.settings)
        project = self.project
        if catalog is not None:
            catalog.add_project(self, project.id, project.path)
        elif not project.exists:
            ensure_private_dir(project.root.parent)
            ensure_private_dir(project.root)
            atomic_write_text(
                project.root / PROJECT_FILE, json.dumps({"path": project.path}, ensure_ascii=False)
            )
            unmark_gone(project.root)  # a store at this id again supersedes its tombstone
        self.unmade = False

    @property
    def selector(self) -> str:
        """What ``--project`` takes to reach this store again: its directory, or its id
        when the directory is gone (moved or deleted since the store was made)."""
        path = self.project.path
        return path if path and os.path.isdir(path) else self.project.id

    @property
    def exists(self) -> bool:
        """Whether the project's store was created (by its first write), wherever the
        home keeps its stores."""
        catalog = project_catalog(self.settings)
        if catalog is None:
            return self.project.exists
        return self.project.id in catalog.projects(self)

    def __repr__(self) -> str:
        return f"ProjectHome({str(self.root)!r}, {self.project.path!r})"


def project_id(directory: str | os.PathLike[str]) -> str:
    """The id of a project directory: ``<name>-<12 hex digits of SHA-256(resolved path)>``
    (see the module docstring). The directory need not exist."""
    return resolved_project_id(os.path.realpath(os.path.expanduser(os.fspath(directory))))


def resolved_project_id(resolved: str) -> str:
    """:func:`project_id` of a path already resolved (``os.path.realpath``), such as a
    parent of one: resolving each parent again made a walk up from a directory N levels
    deep cost N² ``lstat`` calls (a Claude Code hook whose ``cwd`` was 2,000 levels deep
    gave up after its 20 s)."""
    name = _NAME_CHARS.sub("-", os.path.basename(resolved)).strip("-.")[:40] or "project"
    digest = hashlib.sha256(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{name}-{digest}"


def locate(home_root: str | os.PathLike[str], directory: str | os.PathLike[str]) -> Project:
    """The project of ``directory`` in the home at ``home_root``; nothing is created.

    :class:`~mnemic.errors.ProjectScopeError` (``not_a_directory``) when ``directory`` is
    not an existing directory: a mistyped path must not become an empty project;
    (``root``) when it is the file system's root, which would be every directory's
    project (the nearest parent with a store: :func:`find_project`); (``home``) when it
    is the user's home directory (``~``), for the same reason within it;
    (``not_utf8``) when its resolved path is not UTF-8 text (its store could not record
    it: a write failed half-way, leaving a store without its ``project.json``).
    """
    raw = os.path.expanduser(os.fspath(directory))
    resolved = "" if "\x00" in raw else os.path.realpath(raw)  # realpath refuses a NUL
    if not resolved or not os.path.isdir(resolved):
        raise ProjectScopeError(
            "not_a_directory",
            f"The project directory {raw!r} does not exist or is not a directory. Nothing "
            "was read or written. Pass the project's directory (e.g. --project .).",
        )
    if os.path.dirname(resolved) == resolved:
        raise ProjectScopeError(
            "root",
            f"The file system's root {resolved!r} cannot be a project: as the nearest parent "
            "of every directory, its notes would show in every session as notes for this "
            "project only. Nothing was read or written. Pass the project's own directory, or "
            "leave the project out for the global memory.",
        )
    if resolved == user_home():
        raise ProjectScopeError(
            "home",
            f"Your home directory {resolved!r} cannot be a project: as the nearest parent of "
            "every directory in it, its notes would show in every session there that has no "
            "project of its own, as notes for this project only. Nothing was read or written. "
            "Pass the project's own directory (one inside your home directory), or leave the "
            "project out: the global memory is what every session gets.",
        )
    try:
        resolved.encode("utf-8")
    except UnicodeEncodeError:  # a name in another encoding, kept by the OS as bytes
        raw_path = resolved.encode("utf-8", "surrogateescape")
        shown = printable(raw_path.decode("utf-8", "backslashreplace"), lines=False)
        raise ProjectScopeError(
            "not_utf8",
            f"The project directory's path '{shown}' is not UTF-8 text, and mnemic records "
            "a project by its path in UTF-8. Nothing was read or written. Rename the "
            "directory whose name is not UTF-8 (e.g. with convmv), then pass it again.",
        ) from None
    pid = project_id(resolved)
    return Project(pid, resolved, Path(home_root) / PROJECTS_DIR / pid)


def user_home() -> str:
    """The user's home directory, resolved (``""``: it cannot be told): no project
    (:func:`locate`)."""
    try:
        home = os.path.expanduser("~")
        return os.path.realpath(home) if home != "~" else ""
    except (OSError, KeyError, ValueError):  # no HOME and no password entry
        return ""


def find_project(
    home_root: str | os.PathLike[str],
    cwd: str | os.PathLike[str],
    settings: Settings | None = None,
) -> Project | None:
    """The project whose store exists for ``cwd`` or its nearest parent directory
    (``None``: none has one). How the Claude Code hook picks a project: opt-in by use.
    ``settings`` (the home's) is needed to find stores kept in a database."""
    try:
        here = Path(os.path.realpath(os.fspath(cwd)))
    except (OSError, ValueError):
        return None
    known: dict[str, str] | None = None  # the database's catalog (None: project.json)
    if settings is not None and (catalog := project_catalog(settings)) is not None:
        known = catalog.projects(Home(home_root, settings))
    home = user_home()
    for directory in (here, *here.parents):
        if directory == directory.parent or str(directory) == home:  # no project (locate)
            break
        pid = resolved_project_id(str(directory))  # a parent of a resolved path is one
        found = Project(pid, str(directory), Path(home_root) / PROJECTS_DIR / pid)
        stored = pid in known if known is not None else found.exists
        if stored:
            return found
    return None


def project_of_roots(home: Home, uris: Sequence[str]) -> Project | None:
    """The project an MCP client's roots select: the first root, in the client's order,
    that is a local directory (a ``file://`` URI) whose directory or nearest parent has
    a project store (:func:`find_project`, the Claude Code hook's rule); ``None`` when
    none has. Roots that are not local directories are passed over."""
    for uri in uris:
        directory = local_directory(uri)
        found = find_project(home.root, directory, home.settings) if directory else None
        if found is not None:
            return found
    return None


def local_directory(uri: str) -> str | None:
    """The absolute path a ``file://`` URI of this host names, if it is a directory."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    path = unquote(parts.path)
    if (
        parts.scheme.lower() != "file"
        or parts.netloc not in ("", "localhost")
        or not os.path.isabs(path)
        or "\x00" in path
    ):
        return None
    return path if os.path.isdir(path) else None


def project_settings(settings: Settings, project_id: str = "", path: str = "") -> Settings:
    """The settings a project store runs with: the home's, with the project budget, no
    USER PROFILE (USER.md is global only), ``scope`` = the project's id (what a
    database store keys its rows by) and ``scope_path`` = its directory (``path``)."""
    memory = dataclasses.replace(
        settings.memory,
        memory_char_limit=settings.project.memory_char_limit,
        user_profile_enabled=False,
    )
    return dataclasses.replace(settings, memory=memory, scope=project_id, scope_path=path)


def no_project() -> ProjectScopeError:
    """The refusal of ``scope="project"`` where no project is selected."""
    return ProjectScopeError(
        "no_project",
        'No project is selected here, so scope="project" has no store. Nothing was read or '
        'saved. Use scope="global" (the default), or have the user start mnemic with '
        "--project DIR or MNEMIC_PROJECT=DIR (the MCP server: `mnemic mcp --project DIR`).",
    )


def removed_store(
    project_id: str, mark: str | None = None, home_root: Path | None = None
) -> ProjectScopeError:
    """The refusal of a write to a project store removed or moved since its writer
    opened it (``mnemic project forget`` / ``move``), found under the write's locks.
    ``mark``: the store's tombstone as read (:func:`store_tombstone`, the text of
    :func:`tombstone_text`: when, and for a move the new id), so the message says what
    happened when; ``None`` (a catalog that keeps no tombstones) says it without a time.
    ``home_root``: the home, named where the bundle went by default (else ``<home>``)."""
    when, moved_to = read_tombstone(mark)
    at = f" at {when}" if when else ""
    if moved_to:
        return ProjectScopeError(
            "removed",
            f"Project store {project_id} was moved{at} (mnemic project move): its memory "
            f"is now project store {moved_to}. Nothing was saved. Run the write again "
            "against the project's new directory (--project NEWDIR); a new session opens "
            "the store there.",
            removed_at=when,
            moved_to=moved_to,
        )
    if mark is not None:
        return ProjectScopeError(
            "removed",
            f"Project store {project_id} was removed{at} (mnemic project forget). Nothing "
            "was saved. Its memory is in the bundle the removal wrote and printed (by "
            f"default {home_root or '<home>'}/{REMOVED_PROJECTS}/{project_id}-<time>.mnemic): "
            "mnemic import --bundle FILE brings the store back, then run the write again.",
            removed_at=when,
        )
    return ProjectScopeError(
        "removed",
        f"Project store {project_id} was removed or moved (mnemic project forget or move) "
        "while this write waited for it, or since this session opened it. Nothing was "
        "saved. A removed store's memory is in the bundle the removal printed (mnemic "
        "import --bundle FILE brings it back); a moved one is reached by its new "
        "directory. A new session opens the store as it is now.",
    )


def gone_store(home: ProjectHome, cause: BaseException | None = None) -> ProjectScopeError:
    """Why the project store of ``home``, which a write found gone (files: no
    ``project.json`` any more; a database: missing from its catalog after the write
    failed with ``cause``), is not there: removed or moved by mnemic (its tombstone,
    :func:`store_tombstone`: :func:`removed_store`, saying when and, for a move, where
    to), or simply missing, deleted outside mnemic (:func:`missing_store`). A plugin's
    catalog that keeps no tombstones cannot tell: removed or moved, without a time."""
    from ..registry import ProjectTombstones

    catalog = project_catalog(home.settings)
    if catalog is not None and not isinstance(catalog, ProjectTombstones):
        return removed_store(home.project.id)
    mark = store_tombstone(home)
    if mark is not None:
        return removed_store(home.project.id, mark, home.project.root.parent.parent)
    root = home.project.root
    aside = root.parent / f"{REMOVING}{root.name}{SET_ASIDE}"
    if catalog is None and os.path.lexists(aside / PROJECT_FILE):
        return set_aside_store(home.project.id, aside)
    return missing_store(home.project.id, cause, files=catalog is None, root=root)


def set_aside_store(project_id: str, aside: Path) -> ProjectScopeError:
    """The refusal of a write to a files-store project store that ``mnemic gc`` has
    set aside (``aside``, :data:`SET_ASIDE`): made in a leftover directory while gc was
    deleting it, and put back by gc (this run, or the next). Reason ``missing`` (the
    store is not at its place), told apart by its words: nothing is lost, run the write
    again."""
    return ProjectScopeError(
        "missing",
        f"Project store {project_id} is set aside by mnemic gc ({aside}): it was made in a "
        "leftover directory gc was deleting, and gc puts it back. Nothing was saved, and "
        "nothing of the store is lost. Run the write again in a moment; if it is refused "
        "again, run mnemic gc, which puts the store back (or says why it cannot).",
        set_aside=str(aside),
    )


def missing_store(
    project_id: str,
    cause: BaseException | None = None,
    *,
    files: bool = False,
    root: Path | None = None,
) -> ProjectScopeError:
    """The refusal of a write to a project store that is gone with no removal recorded
    (no tombstone): deleted outside mnemic. ``files``: the files store, whose
    ``project.json`` under ``root`` (``<home>/projects/<id>``) is gone; else a database
    whose rows are (``cause``: the error the write failed with on what was left)."""
    if files:
        where = root / PROJECT_FILE if root is not None else f"<home>/{PROJECTS_DIR}/{project_id}"
        what = (
            f"Project store {project_id} is gone ({where} is missing), and no mnemic "
            "project forget or move recorded a removal: it was deleted outside mnemic."
        )
    else:
        what = (
            f"Project store {project_id} has no rows in the database any more, and no mnemic "
            "project forget or move recorded a removal: they were deleted outside mnemic (or "
            "the schema was made again)."
        )
    if cause is not None:
        detail = getattr(cause, "message", None) or str(cause) or type(cause).__name__
        what = f"{what} This write failed on what was left: {detail}"
    return ProjectScopeError(
        "missing",
        f"{what} Nothing was saved. A new session's first write makes the store anew, "
        "empty (this session writes to it no more); a bundle of it (mnemic export) brings "
        "its memory back with mnemic import --bundle FILE.",
    )


REMOVED_PROJECTS = "removed-projects"
"""Where the bundles of removed project stores go by default (``<home>/removed-projects``)."""


def tombstone_text(when: float, moved_to: str = "") -> str:
    """A project store's tombstone (``mnemic project forget`` / ``move``; the files
    store's file, a database's meta row): the time as ``repr`` of the float, then
    `` moved:NEWID`` for a move."""
    return repr(when) + (f" moved:{moved_to}" if moved_to else "")


def read_tombstone(mark: str | None) -> tuple[str, str]:
    """``(when, moved_to)`` of a tombstone (:func:`tombstone_text`): the time in UTC
    (``''``: not readable) and the new id of a move (``''``: a removal)."""
    if not mark:
        return "", ""
    head, _, rest = mark.partition(" ")
    moved_to = rest[len("moved:") :] if rest.startswith("moved:") else ""
    try:
        stamp = float(head)
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(stamp))
    except (ValueError, OverflowError, OSError):
        when = ""
    return when, moved_to


TOMBSTONES = ".tombstones"
"""The files store's tombstones: ``<home>/projects/.tombstones/<id>``, each the text of
:func:`tombstone_text`. No id starts with a dot, so no listing of stores reads it."""


def tombstone_file(root: Path) -> Path:
    """The tombstone of the files store's project store at ``root`` (``<home>/projects/
    <id>``): ``<home>/projects/.tombstones/<id>``, outside the directory the removal
    renames away."""
    return root.parent / TOMBSTONES / root.name


def mark_gone(root: Path, when: float, moved_to: str = "") -> None:
    """Write the tombstone of the files store's project store at ``root``, under its
    targets' locks, just before the rename that removes (or moves) it: a process killed
    between the two leaves the store whole, and a tombstone is read only for a store
    whose ``project.json`` is gone (:meth:`mnemic.curated.memory.Memory._check_store`),
    so the store supersedes it; after the rename the store is gone and its tombstone
    there, whatever happens next."""
    ensure_private_dir(root.parent / TOMBSTONES)
    atomic_write_text(tombstone_file(root), tombstone_text(when, moved_to))


def unmark_gone(root: Path) -> None:
    """Delete the tombstone of the id of ``root``: a store is there again (made anew,
    moved there or imported from its bundle), which supersedes it."""
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        os.unlink(tombstone_file(root))


def store_tombstone(home: ProjectHome) -> str | None:
    """The tombstone of ``home``'s project store, left by ``mnemic project forget`` or
    ``move`` (:func:`read_tombstone` reads it): the files store's file, a database
    catalog's (:class:`~mnemic.registry.ProjectTombstones`); ``None``: none, or a
    catalog that keeps none."""
    from ..registry import ProjectTombstones

    catalog = project_catalog(home.settings)
    if catalog is None:
        return _read_mark(tombstone_file(home.project.root))
    if isinstance(catalog, ProjectTombstones):
        return catalog.removed_project(home, home.project.id)
    return None


def _read_mark(path: Path) -> str | None:
    try:
        text = read_text_strict(path, max_bytes=4096, nofollow=True)
    except StorageError:
        return None
    return text.strip() if text else None


def drop_file_tombstones(home: Home, older_than: float, *, dry_run: bool = False) -> list[str]:
    """Delete the files store's tombstones left before ``older_than`` (a time, read from
    the tombstone; its file's time when unreadable: ``mnemic gc``), none with
    ``dry_run``; the ids of the project stores they marked."""
    folder = home.root / PROJECTS_DIR / TOMBSTONES
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    dropped = []
    for name in names:
        path = folder / name
        head = (_read_mark(path) or "").partition(" ")[0]
        try:
            when = float(head)
        except ValueError:
            try:
                when = os.lstat(path).st_mtime
            except OSError:
                continue
        if when >= older_than:
            continue
        if not dry_run:
            try:
                os.unlink(path)
            except OSError:
                continue
        dropped.append(name)
    return dropped


def check_backend(settings: Settings) -> None:
    """Refuse a project in a home whose store cannot hold one (neither the files store
    nor a backend with a project catalog)."""
    if not stores_in_home(settings) and project_catalog(settings) is None:
        raise ProjectScopeError(
            "backend",
            "Project scopes need a store that holds them (files or postgresql; this "
            f"home's store is {store_scheme(settings)}); use the global memory, or a home "
            'with store = "files".',
        )


def open_project(
    home: Home, directory: str | os.PathLike[str], *, create: bool = False
) -> ProjectHome:
    """The project store of ``directory`` in ``home``, as a home of its own (see the
    module docstring). ``create`` makes the store now (``mnemic init --project``, an
    agent session started with the project). Otherwise nothing is
    created: a store that does not exist reads as empty and is
    :attr:`~ProjectHome.unmade`, made by its first kept write."""
    check_backend(home.settings)
    try:
        project = locate(home.root, directory)
    except ProjectScopeError as exc:
        if exc.reason != "not_a_directory":
            raise
        found = _orphan(home, os.fspath(directory), exc)
        if create:
            found.make()
        return found
    opened = ProjectHome(project, project_settings(home.settings, project.id, project.path))
    if create:
        opened.make()
    else:
        opened.unmade = not opened.exists
    return opened


_ID = re.compile(r"[A-Za-z0-9._-]{1,40}-[0-9a-f]{12}")


def _orphan(home: Home, named: str, missing: ProjectScopeError) -> ProjectHome:
    """The store ``named`` reaches although no such directory exists: a store's id
    (``api-6aa44a904a40``, as ``memory status`` lists it), which reaches a store whose
    directory was moved or deleted. Else ``missing`` is raised, told the id of the
    store the directory had, when it had one."""
    stores = stored_projects(home)
    if "\x00" not in named and _ID.fullmatch(named) and not os.path.lexists(named):
        for store in stores:
            if store.project.id == named:
                return store
    try:
        gone = project_id(named) if "\x00" not in named else ""
    except (OSError, ValueError):
        gone = ""
    stored = next((s for s in stores if s.project.id == gone), None)
    if stored is None:
        raise missing
    raise ProjectScopeError(
        "not_a_directory",
        f"{missing.message} That directory's store is still in the home, with id {gone} "
        f"(moved or deleted since): `--project {gone}` reaches it (`mnemic memory show "
        f"--project {gone}`; `mnemic memory move TEXT --to global --project {gone}` keeps "
        "an entry).",
    ) from None


def stored_projects(home: Home) -> list[ProjectHome]:
    """Every project store of ``home`` (each whose ``project.json`` exists, or each its
    database's catalog names), by id: what spans all memory of a home (``mnemic forget
    --sessions``, ``mnemic gc``) visits each."""
    catalog = project_catalog(home.settings)
    if catalog is not None:
        base = home.root / PROJECTS_DIR
        return [
            ProjectHome(Project(pid, path, base / pid), project_settings(home.settings, pid, path))
            for pid, path in sorted(catalog.projects(home).items())
        ]
    if not stores_in_home(home.settings):
        return []
    base, names = _listed(home)
    found = []
    for name in names:
        root = base / name
        if name.startswith("."):  # no id starts so: a removed store on its way out (REMOVING)
            continue
        if (root / PROJECT_FILE).is_file() and not root.is_symlink():
            path = project_path(root) or ""
            settings = project_settings(home.settings, name, path)
            found.append(ProjectHome(Project(name, path, root), settings))
    return found


SET_ASIDE = "-gc"
"""The end of the name ``mnemic gc`` gives a directory it sets aside to delete
(``projects/.removed-<id>-gc``): a store made in it meanwhile is put back, never
deleted (:func:`set_aside_stores`). No removal's name ends so (theirs end in a number)."""


def removal_debris(home: Home) -> list[Path]:
    """What removals (and ``mnemic gc``) killed half-way left in ``<home>/projects/``
    (:data:`REMOVING` directories): deleted by the next removal and by ``mnemic gc``.
    Not a directory gc set aside that holds a store (:func:`set_aside_stores`)."""
    base, names = _listed(home)
    found = [base / n for n in names if n.startswith(REMOVING)]
    kept = set(set_aside_stores(home))
    return [p for p in found if p not in kept]


def set_aside_stores(home: Home) -> list[Path]:
    """Directories ``mnemic gc`` set aside (:data:`SET_ASIDE`) that hold a store
    (``project.json``): made in it between gc's looks, and not yet put back because its
    place was taken again; gc puts each back (never deletes it)."""
    base, names = _listed(home)
    return [
        base / n
        for n in names
        if n.startswith(REMOVING)
        and n.endswith(SET_ASIDE)
        and os.path.lexists(base / n / PROJECT_FILE)
    ]


def _listed(home: Home) -> tuple[Path, list[str]]:
    """``<home>/projects`` and its names, sorted (none when it cannot be listed)."""
    base = home.root / PROJECTS_DIR
    try:
        return base, sorted(os.listdir(base))
    except OSError:
        return base, []


DEBRIS_AGE = 3600.0
"""How long nothing in a directory under ``<home>/projects/`` that is no store must have
changed before :func:`left_behind` takes it (seconds): a store being made gets its
directory, then its ``project.json``, a moment later."""


def left_behind(home: Home, now: float) -> list[Path]:
    """Directories of ``<home>/projects/`` that are no store and hold nothing of one:
    what a process that had a store open before ``mnemic project forget`` or ``move``
    may write there after (its scan cache, a lock file, empty folders), collected by
    ``mnemic gc``. No store: no ``project.json`` (files), or no row in the database's
    catalog. Nothing of one: every file is under ``cache/`` or a ``*.lock``; a directory
    holding anything else (a MEMORY.md, a journal, a pending write, a link) is left
    alone. Idle: nothing in it changed within :data:`DEBRIS_AGE` of ``now``, so a store
    being made is never taken."""
    catalog = project_catalog(home.settings)
    if catalog is None and not stores_in_home(home.settings):
        return []
    base, names = _listed(home)
    if not names:
        return []
    stores = set(catalog.projects(home)) if catalog is not None else set()
    found = []
    for name in names:
        root = base / name
        if name.startswith(".") or name in stores or root.is_symlink() or not root.is_dir():
            continue
        if catalog is None and os.path.lexists(root / PROJECT_FILE):
            continue
        if left_behind_here(root, now):
            found.append(root)
    return found


def left_behind_here(root: Path, now: float, *, idle: bool = True) -> bool:
    """Whether every file under ``root`` is a cache or a lock, nothing a link, and (with
    ``idle``) nothing changed within :data:`DEBRIS_AGE` of ``now`` (:func:`left_behind`)."""
    before = now - DEBRIS_AGE if idle else math.inf
    try:
        for folder, dirs, files in os.walk(root):
            here = Path(folder)
            if os.lstat(here).st_mtime > before:
                return False
            in_cache = here.relative_to(root).parts[:1] == ("cache",)
            for name in [*dirs, *files]:
                info = os.lstat(here / name)
                if stat.S_ISLNK(info.st_mode) or info.st_mtime > before:
                    return False
                if name in files and not (in_cache or name.endswith(".lock")):
                    return False
    except OSError:
        return False
    return True


def every_store(home: Home) -> list[Home]:
    """The global store of ``home``, then each of its project stores (by id): what a
    command that spans every store (``mnemic memory tidy``, ``mnemic audit list``)
    visits."""
    return [home, *stored_projects(home)]


def project_path(root: str | os.PathLike[str]) -> str | None:
    """The directory a project store at ``root`` belongs to (``None``: unknown)."""
    try:
        text = read_text_strict(os.path.join(root, PROJECT_FILE), nofollow=True)
        value = json.loads(text) if text else None
    except (StorageError, ValueError):
        return None
    path = value.get("path") if isinstance(value, dict) else None
    return path if isinstance(path, str) else None
