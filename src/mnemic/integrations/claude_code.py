"""``mnemic integrate claude-code``: mnemic's hooks and MCP server in Claude Code's files.

Two files per scope (Claude Code's documented locations; ``CLAUDE_CONFIG_DIR`` moves the
user ones):

========  ==============================  ======================================
scope     hooks (settings)                MCP server
========  ==============================  ======================================
project   ``DIR/.claude/settings.json``   ``DIR/.mcp.json``
user      ``~/.claude/settings.json``     ``~/.claude.json`` (top-level ``mcpServers``)
========  ==============================  ======================================

Installing merges into what is there: other keys, other hooks and other MCP servers
are kept as they are; what mnemic wrote before (recognised by its command) is updated
in place, so running it twice changes nothing. Removing takes out exactly the entries
mnemic writes (and the containers left empty by that) and nothing else. A matcher group
mnemic adds to an event list the user already had carries ``"matcher": ""`` (it matches
every event, as no matcher does), so removing can tell that list, which it keeps even
when emptied, from one that installing created. A file that is not valid JSON, or of an
unexpected shape, is refused and left untouched; both files are read, checked and their
new text made before either is written (``dry_run`` included).

A project install selects that project's memory (``docs/lifecycle.md``, "Scopes"): the
hook command carries ``--project DIR`` and the MCP server ``MNEMIC_PROJECT=DIR`` in its
``env`` (DIR: the project directory, resolved), so every session of the project gets its
PROJECT MEMORY block and the ``memory`` tool its ``scope``. A user install selects none:
the hook takes the project of its ``cwd`` and the server that of the client's roots,
each once the project's store exists.
"""

from __future__ import annotations

import contextlib
import copy
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import IntegrationError
from ..home import home_dir
from .jsonfile import DEFAULT_INDENT, dump_json, read_json_file, write_json_text

__all__ = [
    "EVENTS",
    "HOOK_TIMEOUTS",
    "FileChange",
    "IntegrationReport",
    "claude_code_paths",
    "hook_command",
    "hook_settings",
    "home_args",
    "integrate_claude_code",
    "launcher",
    "mcp_entry",
    "render_change",
]

EVENTS = ("SessionStart", "PreCompact", "SessionEnd")
"""The Claude Code hook events mnemic installs a handler for."""

HOOK_TIMEOUTS = {"SessionStart": 30, "PreCompact": 120, "SessionEnd": 60}
"""Seconds Claude Code lets each handler run. SessionEnd hooks share a 1.5 s budget
unless a handler declares a longer ``timeout`` (Claude Code caps it at 60 s)."""

SERVER_NAME = "mnemic"
HOOK_TAIL = ("hook", "claude-code")
USERS_LIST = {"matcher": ""}
"""What a group mnemic adds to the user's own event list carries (see the module)."""


def launcher(command: str | None = None) -> list[str]:
    """The argv that starts this mnemic: ``command`` split as a shell would, else the
    ``mnemic`` script this process was started as, or the one installed beside this
    Python (an absolute path, so Claude Code finds it whatever its ``PATH``), else
    ``python -m mnemic`` with this Python."""
    if command:
        argv = shlex.split(command)
        if argv:
            return argv
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name in ("mnemic", "mnemic.exe") and started.is_file():
        return [str(started.absolute())]  # the console script this process runs as
    script = Path(sys.executable).with_name("mnemic.exe" if os.name == "nt" else "mnemic")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "mnemic"]


def home_args(
    home_path: str | None, profile: str | None, environ: Mapping[str, str] | None = None
) -> list[str]:
    """The options that pin the home in a written command: none for the default home
    (the platform data directory), else ``--home ROOT --profile default`` (``default``
    keeps a ``MNEMIC_PROFILE`` in Claude Code's environment from moving it)."""
    root = home_dir(home_path, profile, environ)
    if os.path.abspath(root) == os.path.abspath(home_dir(None, "default", {})):
        return []
    return ["--home", os.path.abspath(root), "--profile", "default"]


def hook_command(argv: Sequence[str], project: str | None = None) -> str:
    """The shell command of the hook handler: ``ARGV [--project DIR] hook claude-code``,
    quoted."""
    selected = ["--project", project] if project is not None else []
    return shlex.join([*argv, *selected, *HOOK_TAIL])


def hook_settings(argv: Sequence[str], project: str | None = None) -> dict[str, dict[str, Any]]:
    """The handler written for each event (Claude Code's ``{type, command, timeout}``)."""
    command = hook_command(argv, project)
    return {
        event: {"type": "command", "command": command, "timeout": HOOK_TIMEOUTS[event]}
        for event in EVENTS
    }


def mcp_entry(argv: Sequence[str], project: str | None = None) -> dict[str, Any]:
    """The ``mcpServers.mnemic`` entry: the stdio server ``ARGV mcp`` (serving the
    memory of ``project`` too: ``MNEMIC_PROJECT`` in its ``env``)."""
    env = {"MNEMIC_PROJECT": project} if project is not None else {}
    return {"type": "stdio", "command": argv[0], "args": [*argv[1:], "mcp"], "env": env}


def claude_code_paths(
    scope: str,
    project_dir: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[Path, Path]:
    """(settings file, MCP file) of ``scope`` (``project`` in ``project_dir``, or ``user``)."""
    env = os.environ if environ is None else environ
    if scope == "project":
        root = Path(project_dir or ".").expanduser().absolute()
        return root / ".claude" / "settings.json", root / ".mcp.json"
    if scope != "user":
        raise ValueError(f"unknown scope {scope!r}")
    config_dir = env.get("CLAUDE_CONFIG_DIR")
    if config_dir:
        base = Path(config_dir).expanduser().absolute()
        return base / "settings.json", base / ".claude.json"
    home = Path(env.get("HOME") or Path.home()).expanduser().absolute()
    return home / ".claude" / "settings.json", home / ".claude.json"


# --- recognising what mnemic wrote ---------------------------------------------------------


def _is_our_handler(handler: Any) -> bool:
    if not isinstance(handler, dict) or handler.get("type") != "command":
        return False
    command = handler.get("command")
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    return (
        len(argv) > len(HOOK_TAIL)
        and tuple(argv[-len(HOOK_TAIL) :]) == HOOK_TAIL
        and any("mnemic" in arg for arg in argv[: -len(HOOK_TAIL)])
    )


def _is_our_server(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    args = entry.get("args")
    command = entry.get("command")
    return (
        isinstance(command, str)
        and isinstance(args, list)
        and bool(args)
        and args[-1] == "mcp"
        and any("mnemic" in str(part) for part in [command, *args])
    )


def _object(parent: dict[str, Any], key: str, path: Path) -> dict[str, Any] | None:
    value = parent.get(key)
    if value is not None and not isinstance(value, dict):
        raise IntegrationError(
            str(path),
            f'"{key}" is a JSON {type(value).__name__}, not an object',
            "Fix that key by hand and run the command again.",
        )
    return value


# --- hooks ---------------------------------------------------------------------------------


def _with_hooks(settings: dict[str, Any], handlers: dict[str, Any], path: Path) -> dict[str, Any]:
    new = copy.deepcopy(settings)
    hooks = _object(new, "hooks", path)
    if hooks is None:
        hooks = new["hooks"] = {}
    for event, handler in handlers.items():
        users_list = event in hooks
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise IntegrationError(
                str(path),
                f'"hooks"."{event}" is a JSON {type(groups).__name__}, not a list',
                "Fix it by hand (Claude Code expects a list of matcher groups) and run the "
                "command again.",
            )
        found = False
        emptied: set[int] = set()
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list):
                continue
            kept = []
            for item in inner:
                if _is_our_handler(item):
                    if found:  # a second copy of mnemic's handler: one is enough
                        continue
                    found = True
                    item = handler
                kept.append(item)
            if not kept and inner:
                emptied.add(id(group))
            inner[:] = kept
        groups[:] = [g for g in groups if id(g) not in emptied]
        if not found:
            marker = USERS_LIST if users_list else {}
            groups.append({**marker, "hooks": [handler]})
    return new


def _without_hooks(settings: dict[str, Any], path: Path) -> dict[str, Any]:
    new = copy.deepcopy(settings)
    hooks = _object(new, "hooks", path)
    if not hooks:
        return new
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        users_list = False
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list):
                kept = [h for h in inner if not _is_our_handler(h)]
                if len(kept) != len(inner):
                    if not kept:  # the group held only mnemic's handler
                        users_list = users_list or group.get("matcher") == ""
                        continue
                    group = {**group, "hooks": kept}
            kept_groups.append(group)
        if kept_groups != groups:
            if kept_groups or users_list:  # the user's own list stays, even empty
                hooks[event] = kept_groups
            else:
                del hooks[event]
    if not hooks and settings.get("hooks"):
        del new["hooks"]
    return new


# --- MCP servers ---------------------------------------------------------------------------


def _with_server(config: dict[str, Any], entry: dict[str, Any], path: Path) -> dict[str, Any]:
    new = copy.deepcopy(config)
    servers = _object(new, "mcpServers", path)
    if servers is None:
        servers = new["mcpServers"] = {}
    existing = servers.get(SERVER_NAME)
    if existing is not None and existing != entry and not _is_our_server(existing):
        raise IntegrationError(
            str(path),
            f'it already has an MCP server named "{SERVER_NAME}" that does not run `mnemic mcp`',
            "Rename or remove that entry, then run the command again.",
        )
    servers[SERVER_NAME] = entry
    return new


def _without_server(config: dict[str, Any], path: Path) -> dict[str, Any]:
    new = copy.deepcopy(config)
    servers = _object(new, "mcpServers", path)
    if servers is None or not _is_our_server(servers.get(SERVER_NAME)):
        return new
    del servers[SERVER_NAME]
    if not servers:
        del new["mcpServers"]
    return new


# --- the plan and its application ------------------------------------------------------------


@dataclass
class FileChange:
    """What happens (or would happen, with ``dry_run``) to one file."""

    path: Path
    role: str
    """``hooks`` or ``mcp``."""
    action: str
    """``created``, ``updated``, ``unchanged``, ``removed`` (entries taken out) or
    ``deleted`` (the file held nothing else)."""
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    indent: str = DEFAULT_INDENT
    """The file's own indentation, kept when it is rewritten."""
    text: str | None = None
    """The file's new text (``None`` when it is not written: unchanged or deleted)."""

    @property
    def key(self) -> str:
        """The one top-level key mnemic edits in this file."""
        return "hooks" if self.role == "hooks" else "mcpServers"

    def part(self, value: dict[str, Any] | None) -> dict[str, Any] | None:
        """``value`` cut down to :attr:`key` (``~/.claude.json`` holds much else: history,
        project state; none of it is shown)."""
        if value is None:
            return None
        return {self.key: value[self.key]} if self.key in value else {}

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: the edited key before and after (``None``: no file)."""
        return {
            "path": str(self.path),
            "role": self.role,
            "action": self.action,
            "key": self.key,
            "before": self.part(self.before),
            "after": self.part(self.after),
        }


@dataclass
class IntegrationReport:
    """What ``mnemic integrate claude-code`` did, file by file."""

    scope: str
    remove: bool
    dry_run: bool
    command: str
    changes: list[FileChange] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether any file changed (or would change)."""
        return any(c.action != "unchanged" for c in self.changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "target": "claude-code",
            "scope": self.scope,
            "remove": self.remove,
            "dry_run": self.dry_run,
            "changed": self.changed,
            "hook_command": self.command,
            "files": [c.to_dict() for c in self.changes],
        }


def _plan(path: Path, role: str, edit: Any, *, remove: bool, may_delete: bool) -> FileChange:
    before, indent = read_json_file(path)
    after = edit(before or {}, path)
    if before is None:
        if remove:
            return FileChange(path, role, "unchanged", None, None, indent)
        change = FileChange(path, role, "created", None, after, indent)
    elif after == before:
        return FileChange(path, role, "unchanged", before, before, indent)
    elif remove and may_delete and after == {}:
        return FileChange(path, role, "deleted", before, None, indent)
    else:
        change = FileChange(path, role, "removed" if remove else "updated", before, after, indent)
    try:  # the whole new text now, so nothing is written if either file cannot be
        change.text = dump_json(after, indent)
    except ValueError as exc:
        raise IntegrationError(str(path), f"cannot be written back as JSON ({exc})", _FIX) from exc
    return change


_FIX = "Fix the file by hand (or move it away) and run the command again."


def _apply(change: FileChange) -> None:
    if change.action == "deleted":
        target = Path(os.path.realpath(change.path))
        target.unlink()
        if change.path.parent.name == ".claude":
            # the .claude directory install created for it, if nothing else is in it
            with contextlib.suppress(OSError):
                change.path.parent.rmdir()
    elif change.text is not None:
        write_json_text(change.path, change.text)


def integrate_claude_code(
    *,
    scope: str = "project",
    project_dir: str | os.PathLike[str] | None = None,
    home_path: str | None = None,
    profile: str | None = None,
    command: str | None = None,
    remove: bool = False,
    dry_run: bool = False,
    environ: Mapping[str, str] | None = None,
) -> IntegrationReport:
    """Install (or, with ``remove``, take out) mnemic's Claude Code hooks and MCP server.

    ``home_path``/``profile`` select the home the written commands use (see
    :func:`home_args`); ``command`` overrides how mnemic is started (see
    :func:`launcher`). A project install (``scope="project"``) selects the project's
    memory in both (see the module docstring). Both files are read, checked and their
    new text made before either is written: a file that cannot be changed safely raises
    :class:`~mnemic.errors.IntegrationError` and nothing is written. ``dry_run`` computes
    the same report (with the same refusals) and writes nothing.
    """
    argv = [*launcher(command), *home_args(home_path, profile, environ)]
    settings_path, mcp_path = claude_code_paths(scope, project_dir, environ)
    project = os.path.realpath(settings_path.parent.parent) if scope == "project" else None
    report = IntegrationReport(scope, remove, dry_run, hook_command(argv, project))
    handlers = hook_settings(argv, project)
    entry = mcp_entry(argv, project)
    if remove:
        hooks_edit: Any = _without_hooks
        mcp_edit: Any = _without_server
    else:
        hooks_edit = lambda s, p: _with_hooks(s, handlers, p)  # noqa: E731
        mcp_edit = lambda s, p: _with_server(s, entry, p)  # noqa: E731
    if scope == "project" and not settings_path.parent.parent.is_dir():
        raise IntegrationError(
            str(settings_path.parent.parent),
            "is not a directory",
            "Give the project's directory with --project DIR (it must exist).",
        )
    # both files are read and checked before either is written; ~/.claude.json is Claude
    # Code's own state file: never deleted, even if emptied
    report.changes = [
        _plan(settings_path, "hooks", hooks_edit, remove=remove, may_delete=True),
        _plan(mcp_path, "mcp", mcp_edit, remove=remove, may_delete=scope == "project"),
    ]
    if not dry_run:
        for change in report.changes:
            _apply(change)
    return report


def render_change(change: FileChange) -> str:
    """The new text of the key mnemic edits, as written (``''`` when the file is deleted)."""
    part = change.part(change.after)
    return dump_json(part, change.indent) if part is not None else ""
