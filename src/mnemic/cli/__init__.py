"""The ``mnemic`` command line: a thin shell over the library.

Each command parses its arguments, calls one library function and renders the result.
Exit codes: 0 done, 1 refused or failed (message on stderr), 2 usage or configuration
error. Every listing accepts ``--json``.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..errors import ConfigError, MnemicError
from ..home import Home

__all__ = ["AppContext", "emit_json", "handle_errors", "main", "pass_app", "read_utf8"]

F = TypeVar("F", bound=Callable[..., Any])


class AppContext:
    """Per-invocation state: which home and profile the user selected."""

    def __init__(self, home_path: str | None, profile: str | None) -> None:
        self.home_path = home_path
        self.profile = profile
        self._home: Home | None = None

    @property
    def home(self) -> Home:
        """The opened home (created on first use)."""
        if self._home is None:
            self._home = Home.open(self.home_path, self.profile)
        return self._home


pass_app = click.make_pass_decorator(AppContext)


def emit_json(data: Any) -> None:
    """Print one JSON document to stdout."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def fail(message: str, code: int = 1) -> None:
    """Print ``message`` to stderr and exit with ``code``."""
    click.echo(f"mnemic: {message}", err=True)
    sys.exit(code)


def fail_keeping_edit(app: AppContext, stem: str, text: str, error: MnemicError) -> None:
    """An edit made in the user's editor was refused: keep ``text`` in the home as
    ``<stem>.edit.<unix time>[.<n>]`` (mode 600, never overwriting another kept text),
    then :func:`fail` saying why and where."""
    try:
        keep = _keep_text(app.home.root, f"{stem}.edit.{int(time.time())}", text)
    except OSError as exc:  # say so, and hand the text back rather than lose it
        click.echo(text, nl=not text.endswith("\n"))
        fail(
            f"{error.to_human()} Your edited text could not be kept in {app.home.root} "
            f"({exc.strerror or exc}); it was printed above."
        )
        return
    fail(f"{error.to_human()} Your edited text was kept in {keep}.")


def _keep_text(directory: Path, name: str, text: str) -> Path:
    """Write ``text`` to a new file ``name`` (or ``name.2``, ``name.3``...) in
    ``directory``: created exclusively, so two kept texts never share a file."""
    data = text.encode("utf-8", "surrogatepass")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for n in range(1, 10_000):
        path = directory / (name if n == 1 else f"{name}.{n}")
        try:
            fd = os.open(path, flags, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        return path
    raise FileExistsError(f"too many kept texts named {name}.*")


def read_utf8(stream: Any, what: str) -> str:
    """All of a binary ``stream`` (a ``--body-file``, stdin) as strict UTF-8 text.

    Not UTF-8 is a usage error naming ``what`` and the byte offset (exit 2), never a
    traceback; nothing has been written at that point. A leading BOM is dropped.
    """
    data = stream.read()
    if isinstance(data, str):  # a text stream handed over by a caller
        return data
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise click.UsageError(
            f"{what} is not valid UTF-8 text (byte {exc.start}: {exc.reason}). Nothing was "
            "done. Save it as UTF-8 (e.g. iconv -f latin1 -t utf-8) and retry."
        ) from None


def _check_argv(args: list[str]) -> None:
    """Refuse command-line arguments that are not UTF-8 text.

    Python hands undecodable argv bytes over as lone surrogates (``\\udcff`` for
    ``0xff``); nothing in mnemic can store or print them, so they stop here, at the root
    of every command, with a usage error (exit 2).
    """
    from ..tooling import find_surrogate

    for position, arg in enumerate(args, 1):
        if find_surrogate(arg) is None:
            continue
        shown = arg.encode("utf-8", "surrogateescape" if _escaped(arg) else "backslashreplace")
        raise click.UsageError(
            f"argument {position} ({shown!r}) is not valid UTF-8 text. mnemic reads its "
            "arguments as UTF-8; nothing was done. Pass the text in UTF-8 (e.g. convert it "
            "with iconv -f latin1 -t utf-8)."
        )


def _escaped(arg: str) -> bool:
    """Whether every surrogate in ``arg`` is a surrogate escape of an undecodable byte."""
    return all("\udc80" <= c <= "\udcff" for c in arg if "\ud800" <= c <= "\udfff")


class _Root(click.Group):
    """The ``mnemic`` group: checks every argument once, before any command parses it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _check_argv(args)
        return super().parse_args(ctx, args)


def handle_errors(fn: F) -> F:
    """Turn mnemic errors into a stderr message (:meth:`MnemicError.to_human`) and exit
    code 1 (2 for config errors)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ConfigError as exc:
            fail(exc.to_human(), 2)
        except MnemicError as exc:
            fail(exc.to_human(), 1)

    return wrapper  # type: ignore[return-value]


@click.group(cls=_Root, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--home",
    "home_path",
    metavar="PATH",
    envvar="MNEMIC_HOME",
    help="Home directory (default: $MNEMIC_HOME, else the platform data dir).",
)
@click.option(
    "--profile",
    metavar="NAME",
    envvar="MNEMIC_PROFILE",
    help="Use the isolated profile NAME beneath the home ($MNEMIC_PROFILE).",
)
@click.version_option(package_name="mnemic", prog_name="mnemic")
@click.pass_context
def main(ctx: click.Context, home_path: str | None, profile: str | None) -> None:
    """mnemic: small, curated, safe memory for LLM agents.

    \b
    Start here:
      mnemic demo                 a guided walk through a session, in a temp home
      mnemic memory status        how full MEMORY.md and USER.md are
      mnemic memory show          the entries, as the next session will see them
      mnemic tool memory JSON     run one memory tool call, print the JSON response
    """
    ctx.obj = AppContext(home_path, profile)


def _register() -> None:
    from . import agent, db, demo, governance, mcp, memory, scan, sessions, skills, tool

    main.add_command(memory.memory)
    main.add_command(tool.tool)
    main.add_command(scan.scan)
    main.add_command(demo.demo)
    main.add_command(skills.skills)
    main.add_command(sessions.sessions)
    main.add_command(agent.chat)
    main.add_command(agent.prompt)
    main.add_command(agent.provider)
    main.add_command(mcp.mcp)
    main.add_command(db.db)
    for command in (
        governance.pending,
        governance.audit,
        governance.gc,
        governance.forget,
        governance.stats,
    ):
        main.add_command(command)


_register()
