"""Applying a skill change: lock, prepare again against the current state, write.

All or nothing: a new skill is assembled in a hidden staging directory and renamed into
place; a deleted one is renamed away before it is removed; every file is replaced with
:func:`~mnemic.fsio.atomic_write_text`. Hidden staging and trash directories left by a
writer that died are removed under the lock by the next writer.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from typing import TYPE_CHECKING

from ..errors import SkillExists, SkillPathRefused, WriteFailed
from ..fsio import atomic_write_text, ensure_private_dir, fsync_dir, stale_temp_files
from .changes import ChangeResult, PreparedChange, SkillChange
from .model import SKILL_FILE
from .prepare import prepare_change

if TYPE_CHECKING:
    from .changes import SkillRoot

__all__ = ["apply_change"]

_STAGING = ".staging-"
_TRASH = ".trash-"


def apply_change(store: SkillRoot, change: SkillChange) -> ChangeResult:
    """Take the store lock, prepare ``change`` against the current state, write it.

    All or nothing: a failure leaves the skill as it was (a new skill is assembled in a
    hidden staging directory and renamed into place; a deleted one is renamed away
    before it is removed).
    """
    with store.lock():
        _cleanup(store.root)
        prepared = prepare_change(store, change)
        try:
            return _execute(store, prepared)
        except OSError as exc:
            raise WriteFailed(prepared.skill_dir, exc.strerror or str(exc)) from exc


def _cleanup(root: str) -> None:
    """Remove staging and trash directories left by writers that died (lock held)."""
    try:
        names = os.listdir(root)
    except OSError:
        return
    for n in names:
        if n.startswith((_STAGING, _TRASH)):
            _remove_tree(os.path.join(root, n))


def _remove_tree(path: str) -> None:
    """``shutil.rmtree(path, ignore_errors=True)``, and without recursion when that
    recursed too deep: Python 3.11's recurses once per level, so deleting a skill whose
    supporting files nest past about 1,000 levels raised RecursionError after the skill
    had left (the model was told the delete failed), and every later write, which first
    clears what dead writers left, failed the same way on the trash it left."""
    try:
        shutil.rmtree(path, ignore_errors=True)
        return
    except RecursionError:
        pass
    stack, seen = [path], set()
    while stack:
        top = stack[-1]
        if top in seen:  # its entries are gone (or could not go): now the directory
            stack.pop()
            with contextlib.suppress(OSError):
                os.rmdir(top)
            continue
        seen.add(top)
        try:
            with os.scandir(top) as found:
                entries = list(found)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                else:
                    os.unlink(entry.path)
            except OSError:
                pass


def _mkdirs(base: str, parts: list[str]) -> None:
    """Create ``base/parts...`` directory by directory, refusing symlinks on the way."""
    cur = base
    for part in parts:
        cur = os.path.join(cur, part)
        with contextlib.suppress(FileExistsError):
            os.mkdir(cur, 0o700)
        st = os.lstat(cur)
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            raise SkillPathRefused(
                os.path.relpath(cur, base), "a part of the path is not a plain directory"
            )


def _execute(store: SkillRoot, prep: PreparedChange) -> ChangeResult:
    action = prep.change.action
    ref = prep.ref

    def result(message: str, files: tuple[str, ...] = ()) -> ChangeResult:
        return ChangeResult(
            action, prep.name, prep.category, prep.skill_dir, message, files, prep.replacements
        )

    if action == "create":
        _create(store, prep)
        return result(f"Created skill {ref!r}.", (SKILL_FILE,))
    if action == "delete":
        _delete(store, prep)
        n = len(prep.before) - 1
        return result(f"Deleted skill {ref!r} and its {n} supporting file(s).")
    if action == "remove_file":
        rel = prep.removes[0]
        path = os.path.join(prep.skill_dir, *rel.split("/"))
        os.unlink(path)
        parent = os.path.dirname(path)
        while parent != prep.skill_dir and not os.listdir(parent):
            os.rmdir(parent)
            parent = os.path.dirname(parent)
        fsync_dir(parent)
        return result(f"Removed {rel} from skill {ref!r}.", (rel,))
    rel, text = prep.writes[0]
    parts = rel.split("/")
    _mkdirs(prep.skill_dir, parts[:-1])
    path = os.path.join(prep.skill_dir, *parts)
    for tmp in stale_temp_files(path):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    atomic_write_text(path, text)
    if action == "patch":
        return result(
            f"Patched {rel} of skill {ref!r} ({prep.replacements} replacement(s)).", (rel,)
        )
    if action == "edit":
        return result(f"Rewrote SKILL.md of skill {ref!r}.", (rel,))
    return result(f"Wrote {rel} ({len(text.encode()):,} bytes) in skill {ref!r}.", (rel,))


def _create(store: SkillRoot, prep: PreparedChange) -> None:
    ensure_private_dir(store.root)
    parent = os.path.dirname(prep.skill_dir)
    made_parent = False
    if prep.category and not os.path.lexists(parent):
        os.mkdir(parent, 0o700)
        made_parent = True
    staging = os.path.join(store.root, f"{_STAGING}{os.urandom(6).hex()}")
    os.mkdir(staging, 0o700)
    try:
        tmp_dir = os.path.join(staging, prep.name)
        os.mkdir(tmp_dir, 0o700)
        atomic_write_text(os.path.join(tmp_dir, SKILL_FILE), prep.writes[0][1])
        if os.path.lexists(prep.skill_dir):
            raise SkillExists(prep.name, prep.ref)
        os.rename(tmp_dir, prep.skill_dir)
        fsync_dir(parent)
    except BaseException:
        if made_parent:
            with contextlib.suppress(OSError):
                os.rmdir(parent)
        raise
    finally:
        _remove_tree(staging)


def _delete(store: SkillRoot, prep: PreparedChange) -> None:
    trash = os.path.join(store.root, f"{_TRASH}{os.urandom(6).hex()}")
    parent = os.path.dirname(prep.skill_dir)
    os.rename(prep.skill_dir, trash)
    fsync_dir(parent)
    _remove_tree(trash)
    if prep.category and parent != store.root:
        with contextlib.suppress(OSError):  # an emptied category goes too
            os.rmdir(parent)
