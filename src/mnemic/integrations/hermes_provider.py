"""``mnemic integrate hermes``: mnemic as the memory provider of a Hermes Agent home.

Hermes 0.19 finds user-installed memory providers in ``$HERMES_HOME/plugins/<name>/``
and activates the one ``memory.provider`` of its ``config.yaml`` names. Installing
writes the plugin folder ``plugins/mnemic/``:

==========================  ===========================================================
``__init__.py``             the provider (:mod:`.hermes_plugin`, copied as it is)
``plugin.yaml``             its manifest (``kind: exclusive``: a memory provider)
``mnemic.json``             the command the provider starts (this mnemic by absolute
                            path, the home pinned) and its tools' schemas
``install.json``            what installing changed in ``config.yaml``, for ``--remove``
``config.yaml.before``      ``config.yaml`` as it was (when there was one)
==========================  ===========================================================

and sets ``memory.provider: mnemic`` in ``config.yaml`` by editing that one line (or
adding it), so comments, order and every other setting stay as they were; the result is
parsed again and must differ from the original in that key only. Running it again
changes nothing. Removing puts ``config.yaml`` back byte for byte when it was not
changed since (else only the provider line goes back to what it was), and deletes the
files it wrote (a file someone else put in the folder stays, and the folder with it).
A ``config.yaml`` that is not YAML, not a mapping, or whose ``memory`` is not a
mapping, is refused untouched; so is a missing Hermes home, and a ``plugins/mnemic/``
that mnemic did not write.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import HomeNotFound, IntegrationError
from ..fsio import atomic_write_text, read_bytes_strict
from ..home import Home, home_dir
from .claude_code import launcher
from .hermes_bridge import tool_schemas
from .hermes_config import MAX_CONFIG, edit_provider, provider_of, read_config

__all__ = [
    "PLUGIN_FILES",
    "PROVIDER",
    "HermesReport",
    "hermes_home_path",
    "integrate_hermes",
    "plugin_source",
]

PROVIDER = "mnemic"
"""The plugin's folder name and the ``memory.provider`` value."""
BACKUP = "config.yaml.before"
PLUGIN_FILES = ("__init__.py", "plugin.yaml", "mnemic.json", "install.json", BACKUP)
"""Every file installing may write in the plugin folder (removing deletes these only)."""
_MANIFEST = (
    "name: mnemic\n"
    "version: 1\n"
    "kind: exclusive\n"
    "description: mnemic memory - shared session history, recall and archive "
    "(installed by `mnemic integrate hermes`)\n"
)


def hermes_home_path(given: str | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The Hermes home: ``given``, else ``$HERMES_HOME``, else ``~/.hermes`` (absolute)."""
    env = os.environ if environ is None else environ
    raw = given or env.get("HERMES_HOME") or os.path.join(env.get("HOME") or "~", ".hermes")
    return Path(os.path.expanduser(raw)).absolute()


@dataclass
class HermesReport:
    """What ``mnemic integrate hermes`` did (or, with ``dry_run``, would do)."""

    hermes_home: Path
    remove: bool
    dry_run: bool
    command: list[str]
    config: str = "unchanged"
    """``config.yaml``: ``created``, ``updated``, ``restored`` (put back byte for byte),
    ``reverted`` (the provider line only), ``deleted`` or ``unchanged``."""
    previous_provider: str | None = None
    plugin: list[tuple[str, str]] = field(default_factory=list)
    """(file name, ``written`` / ``unchanged`` / ``deleted``) in the plugin folder."""
    notes: list[str] = field(default_factory=list)

    @property
    def plugin_dir(self) -> Path:
        """``$HERMES_HOME/plugins/mnemic``."""
        return self.hermes_home / "plugins" / PROVIDER

    @property
    def changed(self) -> bool:
        """Whether anything changed (or would)."""
        return self.config != "unchanged" or any(a != "unchanged" for _, a in self.plugin)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "target": "hermes",
            "hermes_home": str(self.hermes_home),
            "plugin_dir": str(self.plugin_dir),
            "remove": self.remove,
            "dry_run": self.dry_run,
            "changed": self.changed,
            "command": self.command,
            "config": self.config,
            "previous_provider": self.previous_provider,
            "plugin_files": [{"file": f, "action": a} for f, a in self.plugin],
            "notes": self.notes,
        }


# --- the plugin folder ------------------------------------------------------------------------


def plugin_source() -> str:
    """The provider's source, as installed (:mod:`.hermes_plugin`)."""
    return resources.files(__package__).joinpath("hermes_plugin.py").read_text(encoding="utf-8")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read_json(path: Path) -> dict[str, Any] | None:
    text = _read_text(path)
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _read_text(path: Path) -> str | None:
    data = read_bytes_strict(path, max_bytes=MAX_CONFIG)
    return None if data is None else data.decode("utf-8", errors="replace")


def _ours(folder: Path) -> bool:
    """Whether ``folder`` holds a plugin mnemic installed (its ``install.json``)."""
    record = _read_json(folder / "install.json")
    return record is not None and record.get("installed_by") == "mnemic integrate hermes"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text, mode=0o644)


def integrate_hermes(
    *,
    hermes_home: str | None = None,
    home_path: str | None = None,
    profile: str | None = None,
    command: str | None = None,
    remove: bool = False,
    dry_run: bool = False,
    environ: Mapping[str, str] | None = None,
) -> HermesReport:
    """Install (or, with ``remove``, take out) the mnemic provider in a Hermes home.

    ``home_path``/``profile`` pin the mnemic home the provider uses, ``command`` how it
    starts mnemic (default: this installation by absolute path; see
    :func:`~.claude_code.launcher`). Everything is read and checked before anything is
    written; a refusal raises :class:`~mnemic.errors.IntegrationError` and writes
    nothing. ``dry_run`` reports the same and writes nothing.
    """
    root = hermes_home_path(hermes_home, environ)
    argv = [*launcher(command), *_pinned(home_path, profile, environ), "hook", "hermes"]
    report = HermesReport(root, remove, dry_run, argv)
    if not root.is_dir():
        raise IntegrationError(
            str(root),
            "is not a Hermes home (no such directory)",
            "Install Hermes Agent and run it once (it creates ~/.hermes), or give the "
            "home with --hermes-home DIR (or HERMES_HOME).",
        )
    folder = report.plugin_dir
    config_path = root / "config.yaml"
    if not remove:
        try:
            Home.open(home_path, profile, environ=environ, create=False)
        except HomeNotFound:
            report.notes.append(
                f"mnemic's home {argv[argv.index('--home') + 1]} does not exist yet: until "
                "`mnemic init` (or any write) creates it, Hermes gets no recall and no "
                "turn is recorded (its log says so)"
            )
    raw, text = read_config(config_path)
    current = provider_of(config_path, text) if raw is not None else None
    report.previous_provider = current
    if remove:
        _remove(report, folder, config_path, raw, text, current)
        return report
    if folder.exists() and not _ours(folder) and any(folder.iterdir()):
        raise IntegrationError(
            str(folder),
            "already holds a plugin that mnemic did not install",
            "Move that folder away (or remove that provider) and run the command again.",
        )
    record = _read_json(folder / "install.json") if folder.exists() else None
    files = {
        "__init__.py": plugin_source(),
        "plugin.yaml": _MANIFEST,
        "mnemic.json": json.dumps(
            {"command": argv, "tools": tool_schemas()}, indent=2, ensure_ascii=False
        )
        + "\n",
    }
    new_config = text if current == PROVIDER else edit_provider(config_path, text, PROVIDER)
    if record is None or current != PROVIDER:
        # the state before mnemic: kept once, never replaced by mnemic's own
        if current == PROVIDER:
            report.notes.append("config.yaml already named mnemic; it is left as it is")
        record = {
            "installed_by": "mnemic integrate hermes",
            "config_existed": raw is not None,
            "created_plugins_dir": not folder.parent.exists(),
            "previous_provider": current,
            "config_sha256": _sha(new_config),
        }
        if raw is not None:
            files[BACKUP] = text
    else:
        report.previous_provider = record.get("previous_provider")
    files["install.json"] = json.dumps(record, indent=2) + "\n"
    for name, content in files.items():
        same = _read_text(folder / name) == content
        report.plugin.append((name, "unchanged" if same else "written"))
    if new_config != text or raw is None:
        report.config = "created" if raw is None else "updated"
    if dry_run:
        return report
    for name, content in files.items():
        if dict(report.plugin)[name] == "written":
            _write(folder / name, content)
    if report.config != "unchanged":
        _write_config(config_path, new_config)
    return report


def _pinned(
    home_path: str | None, profile: str | None, environ: Mapping[str, str] | None
) -> list[str]:
    """``--home ROOT --profile default``, always (the default home too): Hermes runs
    with its own environment, where the shell's ``MNEMIC_HOME`` need not be."""
    root = os.path.abspath(home_dir(home_path, profile, environ))
    return ["--home", root, "--profile", "default"]


def _write_config(path: Path, text: str) -> None:
    target = Path(os.path.realpath(path))
    mode = 0o600
    with contextlib.suppress(FileNotFoundError):
        mode = target.stat().st_mode & 0o7777
    atomic_write_text(target, text, mode=mode)


def _remove(
    report: HermesReport,
    folder: Path,
    config_path: Path,
    raw: bytes | None,
    text: str,
    current: str | None,
) -> None:
    record = _read_json(folder / "install.json") if _ours(folder) else None
    if record is None:
        if folder.exists() and any(folder.iterdir()):
            raise IntegrationError(
                str(folder),
                "holds a plugin that mnemic did not install (no install record)",
                "Remove it by hand if it is a copy of mnemic's provider.",
            )
        report.notes.append("mnemic's provider is not installed here")
        return
    previous = record.get("previous_provider")
    previous = previous if isinstance(previous, str) else None
    report.previous_provider = previous
    backup = _read_text(folder / BACKUP)
    new_config: str | None = None
    if raw is not None and current == PROVIDER:
        if record.get("config_sha256") == _sha(text):  # untouched since: the original back
            if not record.get("config_existed"):
                report.config = "deleted"
            elif backup is not None:
                new_config, report.config = backup, "restored"
        if report.config == "unchanged":
            new_config = edit_provider(config_path, text, previous)
            report.config = "reverted"
    elif raw is not None:
        report.notes.append(
            f"config.yaml names {current or 'no provider'} now, not mnemic: left as it is"
        )
    present = [n for n in PLUGIN_FILES if (folder / n).exists()]
    report.plugin = [(n, "deleted") for n in present]
    if report.dry_run:
        return
    if report.config == "deleted":
        config_path.unlink()
    elif new_config is not None:
        _write_config(config_path, new_config)
    for name in present:
        (folder / name).unlink()
    shutil.rmtree(folder / "__pycache__", ignore_errors=True)
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when nothing else is in it
        if record.get("created_plugins_dir"):
            folder.parent.rmdir()  # the same
