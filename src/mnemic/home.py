"""The home directory: where one agent's memory, history and skills live.

Resolution order: an explicit path, then ``MNEMIC_HOME``, then the platform's user data
directory (``~/.local/share/mnemic`` on Linux). A profile (``--profile NAME`` or
``MNEMIC_PROFILE``) selects an isolated home beneath the main one:
``<home>/profiles/<NAME>``. Homes are private: directories 0700, files 0600.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from .config import Settings, load_settings
from .errors import ConfigError, HomeNotFound
from .fsio import ensure_private_dir, not_a_directory
from .registry import stores_in_home

__all__ = ["HOME_NAMES", "Home", "home_dir", "home_names", "resolve_home"]

# The home's layout: what a home holds at its top level (its stores, its configuration,
# the directories of its profiles, projects and pending writes). Any of them marks a
# directory as a mnemic home; `init` and the first write refuse a directory that holds
# other files and none of these.
HOME_NAMES = frozenset(
    (
        "memories",
        "sessions.db",
        "skills",
        "audit",
        "pending",
        "projects",
        "profiles",
        "attachments",
        "cache",
        "config.toml",
        "config.yaml",
        "mcp.token",
    )
)

_PROFILE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _check_profile(name: str) -> None:
    if (
        not 1 <= len(name) <= 64
        or not name[0].isascii()
        or not name[0].isalnum()
        or not set(name) <= _PROFILE_CHARS
    ):
        raise ConfigError(
            "profile",
            f"invalid profile name {name!r}: use 1-64 letters, digits, '_', '-' or '.', "
            "starting with a letter or digit",
            source="--profile / MNEMIC_PROFILE",
        )


def home_dir(
    path: str | os.PathLike[str] | None = None,
    profile: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The home directory as a string (see :func:`resolve_home`); nothing is created."""
    env = os.environ if environ is None else environ
    if path is not None:
        base = os.fspath(path)
    elif env.get("MNEMIC_HOME"):
        base = env["MNEMIC_HOME"]
    else:  # imported here: a home given by path or MNEMIC_HOME (hooks) never needs it
        import platformdirs

        base = str(platformdirs.user_data_path("mnemic"))
    base = os.path.expanduser(base)
    name = profile if profile is not None else env.get("MNEMIC_PROFILE", "")
    if name and name != "default":
        _check_profile(name)
        base = os.path.join(base, "profiles", name)
    return base


def resolve_home(
    path: str | os.PathLike[str] | None = None,
    profile: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Path:
    """Return the home directory to use (not created).

    ``path`` wins over ``MNEMIC_HOME``, which wins over the platform data directory.
    ``profile`` (or ``MNEMIC_PROFILE``) selects ``<home>/profiles/<profile>``; the
    profile ``default`` is the main home itself.
    """
    return Path(home_dir(path, profile, environ))


def home_names(path: str | os.PathLike[str]) -> tuple[list[str], bool]:
    """What the directory at ``path`` holds (sorted names; empty when nothing, a file or
    an unreadable directory is there: opening the home refuses those with its own
    words), and whether that makes it a mnemic home (any of :data:`HOME_NAMES`)."""
    try:
        names = sorted(os.listdir(path))
    except OSError:
        return [], False
    return names, any(n in HOME_NAMES for n in names)


def _check_exists(root: str) -> None:
    """:class:`HomeNotFound` when nothing, or something that is not a directory, is at
    ``root``; any other failure to look (permissions) is left to the first read."""
    try:
        st = os.stat(root)
    except (FileNotFoundError, NotADirectoryError):
        raise HomeNotFound(root) from None
    except OSError:
        return
    if not stat.S_ISDIR(st.st_mode):
        raise HomeNotFound(root)


class Home:
    """An opened home directory with its validated settings.

    ``Home.open()`` resolves the directory (see :func:`resolve_home`), creates it with
    private permissions if needed, and loads ``config.toml``. What only reads opens it
    with ``create=False``: a home that does not exist is then :class:`HomeNotFound`, and
    nothing is created or changed.
    """

    def __init__(self, root: str | os.PathLike[str], settings: Settings) -> None:
        self.root = Path(root)
        self.settings = settings

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        profile: str | None = None,
        *,
        environ: Mapping[str, str] | None = None,
        create: bool = True,
    ) -> Home:
        """Resolve, create (0700) and load the settings of a home.

        With ``create=False`` nothing is created or changed (not even the permissions),
        and a home whose memory lives in its directory (the embedded ``files`` store)
        must exist: :class:`HomeNotFound` when there is no directory at that path (a
        mistyped ``MNEMIC_HOME``). A home whose store is a database may have no
        directory yet.
        """
        root = home_dir(path, profile, environ)
        if create:
            try:
                ensure_private_dir(root)
            except ConfigError as exc:
                if exc.key == "directory":  # a file where the home should be
                    raise not_a_directory(root, home=True) from None
                raise
        settings = load_settings(root, environ)
        if not create and stores_in_home(settings):
            _check_exists(root)
        return cls(root, settings)

    @property
    def memories_dir(self) -> Path:
        """``<home>/memories``: MEMORY.md, USER.md, their locks and history."""
        return self.root / "memories"

    @property
    def sessions_db(self) -> Path:
        """``<home>/sessions.db``: the session history (SQLite, WAL)."""
        return self.root / "sessions.db"

    @property
    def skills_dir(self) -> Path:
        """``<home>/skills``: procedural memory."""
        return self.root / "skills"

    @property
    def profiles_dir(self) -> Path:
        """``<home>/profiles``: isolated homes selected with ``--profile``."""
        return self.root / "profiles"

    def __repr__(self) -> str:
        return f"Home({str(self.root)!r})"
