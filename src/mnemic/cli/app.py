"""What every ``mnemic`` command shares: the per-invocation context and how results and
errors reach the terminal (stdout for results, stderr and an exit code for refusals)."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from click.core import ParameterSource

from ..config import Settings, load_settings
from ..control_chars import printable
from ..curated.scope import every_store, open_project
from ..errors import ConfigError, MnemicError, ProjectScopeError
from ..home import Home, home_dir, home_names

__all__ = [
    "GLOBAL_OPT",
    "PROJECT_OPT",
    "AppContext",
    "cell",
    "confirm",
    "counted",
    "edit_text",
    "emit_json",
    "eta_text",
    "fail",
    "fail_keeping_edit",
    "fail_response",
    "handle_errors",
    "json_text",
    "json_wanted",
    "paged",
    "pass_app",
    "printable",
    "project_opt",
    "read_utf8",
    "refusal_json",
    "refuse_foreign_home",
    "spanned_stores",
]

F = TypeVar("F", bound=Callable[..., Any])


def refuse_foreign_home(path: str) -> bool:
    """Exit 1 with what to do when ``path`` is a directory holding other files and no
    home: `init` and the first write refuse to mix a home with them (nothing is made).
    Otherwise whether ``path`` already holds a home (one look at the directory)."""
    names, home = home_names(path)
    if home or not names:
        return home
    if all(n.startswith(".bundle-import-") for n in names):  # a bundle import killed here
        left = " ".join(shlex.quote(os.path.join(path, n)) for n in names)
        fail(
            f"{printable(path)} holds only what an interrupted bundle import left "
            f"({', '.join(printable(n) for n in names)}): nothing of it was imported. Delete "
            f"it (rm -r {printable(left)}), then import again.",
            1,
        )
    shown = ", ".join(printable(n) for n in names[:5]) + (", ..." if len(names) > 5 else "")
    fail(
        f"{printable(path)} is not empty and is not a mnemic home (it holds {shown}). "
        "Nothing was changed: a home should not mix with other files. Give a new or "
        f"empty directory (e.g. --home {shlex.quote(os.path.join(path, 'mnemic'))}, or "
        "MNEMIC_HOME).",
        1,
    )


class AppContext:
    """Per-invocation state: which home, profile and project the user selected."""

    def __init__(self, home_path: str | None, profile: str | None) -> None:
        self.home_path = home_path
        self.profile = profile
        self.project: str | None = None
        """The project directory of ``--project`` / ``MNEMIC_PROJECT`` (``None``: global)."""
        self.project_from_env = False
        """Whether :attr:`project` came from ``$MNEMIC_PROJECT``, not a ``--project`` given:
        a refusal of a missing directory names the variable the person set."""
        self._home: Home | None = None

    def memory_home(self, *, write: bool = False) -> Home:
        """Where a memory command reads and writes: the home, or the selected project's
        store in it (:mod:`mnemic.curated.scope`: made by its first kept write; a
        writer creates the home)."""
        home = self.home if write else self.existing_home
        if self.project is None:
            return home
        return open_project(home, self.project)

    @property
    def home(self) -> Home:
        """The opened home (created on first use): for commands that write."""
        if self._home is None:
            self.open_home()
        assert self._home is not None
        return self._home

    def open_home(self) -> bool:
        """Open the home, creating it (refused in a directory holding other files, one
        look at the directory); whether it held a home already."""
        existed = refuse_foreign_home(home_dir(self.home_path, self.profile))
        self._home = Home.open(self.home_path, self.profile)
        return existed

    @property
    def settings(self) -> Settings:
        """The home's settings (defaults and the environment when it has no config.toml,
        or does not exist yet); nothing is created."""
        if self._home is not None:
            return self._home.settings
        return load_settings(home_dir(self.home_path, self.profile))

    @property
    def existing_home(self) -> Home:
        """The opened home, which must exist (:class:`~mnemic.errors.HomeNotFound`
        otherwise; nothing is created): for commands that only read."""
        if self._home is None:
            self._home = Home.open(self.home_path, self.profile, create=False)
        return self._home


pass_app = click.make_pass_decorator(AppContext)


JSON_OPT = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
"""``--json``: what every command with machine-readable output takes."""


def _select_project(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    app = ctx.find_object(AppContext)
    if not value or app is None:
        return
    source = ctx.get_parameter_source(param.name) if param.name else None
    from_env = source is ParameterSource.ENVIRONMENT
    if from_env and app.project is not None and not app.project_from_env:
        return  # `mnemic --project DIR memory ...`: the flag given beats the environment
    app.project = value
    app.project_from_env = from_env


def project_opt(help_text: str) -> Callable[[F], F]:
    """``--project DIR`` (or ``$MNEMIC_PROJECT``) with its own help: it sets
    :attr:`AppContext.project`."""
    return click.option(
        "--project",
        metavar="DIR",
        envvar="MNEMIC_PROJECT",
        expose_value=False,
        callback=_select_project,
        help=help_text,
    )


PROJECT_OPT = project_opt("The memory of project DIR instead of the global one ($MNEMIC_PROJECT).")
"""``--project DIR``: a memory command works on that project's store."""
GLOBAL_OPT = click.option(
    "--global",
    "global_only",
    is_flag=True,
    help="The global memory only (default: it and every project store).",
)
"""``--global``: a command that spans every store works on the global one only."""


def spanned_stores(app: AppContext, global_only: bool, *, write: bool = False) -> list[Home]:
    """The stores a command that spans the home works on: the global one, then each
    project store; or the one ``--global`` or ``--project DIR`` (``$MNEMIC_PROJECT``)
    names. ``--global`` outranks ``$MNEMIC_PROJECT``; with ``--project`` said on the
    command line it is a usage error."""
    if global_only and app.project is not None:
        ctx: click.Context | None = click.get_current_context()
        while ctx is not None:
            if ctx.get_parameter_source("project") == ParameterSource.COMMANDLINE:
                raise click.UsageError("--global and --project name different stores; pass one.")
            ctx = ctx.parent
        app.project = None
    if global_only or app.project is not None:
        return [app.memory_home(write=write)]
    return every_store(app.home if write else app.existing_home)


def cell(value: object) -> str:
    """One field of a record as printable text (``-`` when absent): records written by
    mnemic itself lack fields that do not apply to them (a ``recovered`` audit record has
    no decision), and a file edited by hand can hold anything, escape sequences included."""
    if value is None or value == "":
        return "-"
    return printable(value if isinstance(value, str) else json.dumps(value), lines=False)


SEARCH_MODE_OPT = click.option(
    "--mode",
    type=click.Choice(["lexical", "semantic", "hybrid"]),
    help="Words, meaning, or both (default: hybrid with mnemic[semantic], else lexical).",
)
"""``--mode`` of the three searches (sessions, memory entries, skills)."""


_JSON_CONTROLS = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0))}


def json_text(data: Any, *, indent: int | None = None) -> str:
    """``data`` as JSON text that is safe on a terminal: JSON escapes C0 controls itself;
    DEL and C1 controls (the 8-bit CSI among them), which it writes raw, are escaped here
    too (they can only stand inside strings, so the value is the same)."""
    try:
        text = json.dumps(data, ensure_ascii=False, indent=indent, default=str, allow_nan=False)
    except ValueError:  # NaN or an infinity (a time an earlier import kept): JSON has none
        text = json.dumps(_finite(data), ensure_ascii=False, indent=indent, default=str)
    return text.translate(_JSON_CONTROLS)


def _finite(data: Any) -> Any:
    """``data`` with each NaN and infinity as ``null``: ``Infinity`` is no JSON, and a
    strict reader of ``--json`` refuses the whole answer for one."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data


def emit_json(data: Any) -> None:
    """Print one JSON document to stdout."""
    click.echo(json_text(data, indent=2))


def json_wanted() -> bool:
    """Whether the running command was given ``--json`` (its ``as_json`` parameter)."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and ctx.params.get("as_json") is True


def refusal_json(message: str, code: int = 1, error_code: str | None = None) -> dict[str, Any]:
    """The one shape of a refusal under ``--json``: the tool responses' own
    (``success: false``, ``error``, ``error_code``); without a code of its own, a refusal
    is ``refused`` (exit 1) and a usage or configuration error ``usage`` (exit 2)."""
    return {
        "success": False,
        "error": message,
        "error_code": error_code or ("usage" if code == 2 else "refused"),
    }


def fail(message: str, code: int = 1, *, error_code: str | None = None) -> NoReturn:
    """Print ``message`` to stderr and exit with ``code``; under ``--json`` the refusal
    is also one JSON object on stdout (:func:`refusal_json`), so a program reads every
    command's refusal the same way."""
    if json_wanted():
        emit_json(refusal_json(message, code, error_code))
    click.echo(f"mnemic: {message}", err=True)
    sys.exit(code)


def fail_response(response: dict[str, Any], code: int = 1, *, human: str | None = None) -> NoReturn:
    """A ``--json`` refusal that is a tool's response (``success: false`` with its own
    fields: the memory tool's current entries, session_search's hints): the response on
    stdout, exit ``code``, as :func:`fail` does for the rest; on stderr, which a person
    reads, ``human`` (the refusal in a person's words) or else the response's ``error``."""
    emit_json(response)
    click.echo(f"mnemic: {human if human is not None else response.get('error')}", err=True)
    sys.exit(code)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 entry"``, ``"2 entries"``, ``"1,024 messages"``: a count with its noun."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def edit_text(text: str) -> str | None:
    """``text`` edited in the person's editor (``None``: closed without saving), as
    :func:`click.edit` does; an editor that cannot run or fails is a refusal naming the
    variable to set, where click said only "Editing failed"."""
    try:
        return click.edit(text, extension=".md", require_save=True)
    except click.ClickException as exc:
        chosen = [f"{v}={os.environ[v]!r}" for v in ("VISUAL", "EDITOR") if os.environ.get(v)]
        fail(
            f"the editor did not run ({exc.format_message()}). Nothing was changed. mnemic "
            "opens $VISUAL, else $EDITOR"
            + (f" (here {' and '.join(chosen)})" if chosen else "")
            + ": set it to an editor on your PATH, e.g. EDITOR=nano.",
            1,
        )


def confirm(question: str, refusal: str) -> None:
    """Ask ``question`` (yes/no, default no) and :func:`fail` with ``refusal`` (exit 1)
    unless the answer is yes. With nobody to answer (stdin closed or at its end: a script,
    a pipe), the refusal says so and names ``--yes``, where click printed "Aborted!".
    Under ``--json`` the question goes to stderr: stdout holds the one JSON document."""
    try:
        if click.confirm(question, default=False, err=json_wanted()):
            return
    except click.exceptions.Abort as exc:
        click.echo(err=True)
        if not isinstance(exc.__context__, EOFError):  # Ctrl-C: the person said no
            fail(refusal, 1)
        fail(
            f"{refusal}: nobody answered the question (stdin is not a terminal, or it was "
            "closed). Run it again with --yes to go ahead without asking.",
            1,
        )
    fail(refusal, 1)


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
    fail(
        f"{error.to_human()} Your edit is not lost: copy from it when you run the edit "
        f"again (the editor opens the text as it is now). It was kept in {keep}."
    )


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


def _named_source(exc: MnemicError) -> str:
    """``exc`` for a person; a project directory that does not exist, when it came from
    ``$MNEMIC_PROJECT`` (set in a shell long ago, or by an integration), says so: the
    person gave no ``--project`` and would look for one in vain."""
    message = exc.to_human()
    ctx = click.get_current_context(silent=True)
    app = ctx.find_object(AppContext) if ctx is not None else None
    if (
        isinstance(exc, ProjectScopeError)
        and exc.reason == "not_a_directory"
        and app is not None
        and app.project_from_env
    ):
        message = message.replace(
            "Pass the project's directory (e.g. --project .).",
            f"It came from the environment variable MNEMIC_PROJECT={app.project!r}: correct "
            "it, or unset it (unset MNEMIC_PROJECT) to use the global memory.",
        )
    elif (
        isinstance(exc, ProjectScopeError)
        and exc.reason in ("root", "home", "not_utf8")
        and app is not None
        and app.project_from_env
    ):
        message += (
            " It came from the environment variable MNEMIC_PROJECT: correct it, or unset "
            "it (unset MNEMIC_PROJECT) to use the global memory."
        )
    return message


def handle_errors(fn: F) -> F:
    """Turn mnemic errors into a stderr message (:meth:`MnemicError.to_human`) and exit
    code 1 (2 for config errors); under ``--json`` they, and the click errors the command
    raises, are also one JSON object on stdout (:func:`fail`)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ConfigError as exc:
            fail(exc.to_human(), 2, error_code=exc.code)
        except MnemicError as exc:
            fail(_named_source(exc), 1, error_code=exc.code)
        except click.ClickException as exc:  # raised by the command: under --json, one shape
            if not json_wanted():
                raise
            fail(exc.format_message(), exc.exit_code)  # a usage error exits 2: ``usage``

    return wrapper  # type: ignore[return-value]


def wants_pager() -> bool:
    """Whether :func:`paged` may page: both ends are a terminal (a person reads, nothing
    pipes) and ``MNEMIC_PAGER`` is not set empty or to ``cat``."""
    if os.environ.get("MNEMIC_PAGER", "less") in ("", "cat"):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


@contextlib.contextmanager
def paged() -> Iterator[None]:
    """Collect what the block prints and, when it is taller than the terminal, show it
    through the pager (``$MNEMIC_PAGER``, else ``$PAGER``, else ``less``), as git does:
    a store of hundreds of entries does not flood the terminal. Printed as it is when
    :func:`wants_pager` says no, or when it fits."""
    if not wants_pager():
        yield
        return
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            yield
    finally:
        text = buffer.getvalue()
        if text.count("\n") < shutil.get_terminal_size().lines - 1:
            sys.stdout.write(text)
        else:
            pager = os.environ.get("MNEMIC_PAGER")
            if pager:
                os.environ["PAGER"] = pager
            click.echo_via_pager(text.removesuffix("\n"))  # it ends the text with one


def eta_text(eta: float | None) -> str:
    """``"ETA 2:28"`` (``"ETA 1:02:03"`` past an hour; ``"ETA -"`` when unknown): the time
    left that the import and embed progress lines show."""
    if eta is None:
        return "ETA -"
    minutes, seconds = divmod(int(eta + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"ETA {hours}:{minutes:02d}:{seconds:02d}" if hours else f"ETA {minutes}:{seconds:02d}"
