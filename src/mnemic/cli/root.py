"""The ``mnemic`` click group: the root options (``--home``, ``--profile``,
``--project``) and the lazy table of commands (:mod:`.commands`). Imported by every
command but the Claude Code hook, which :func:`mnemic.cli.run` starts without click
(:mod:`.hook_run`).
"""

from __future__ import annotations

import click

from ..tooling import find_surrogate
from .app import AppContext, emit_json, refusal_json
from .commands import LazyGroup, subcommands

__all__ = ["main"]


def _check_argv(args: list[str]) -> None:
    """Refuse command-line arguments that are not UTF-8 text.

    Python hands undecodable argv bytes over as lone surrogates (``\\udcff`` for
    ``0xff``); nothing in mnemic can store or print them, so they stop here, at the root
    of every command, with a usage error (exit 2).
    """
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


class _Root(LazyGroup):
    """The ``mnemic`` group: checks every argument once, before any command parses it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            _check_argv(args)
            rest = super().parse_args(ctx, args)
            if ctx.params.get("project"):
                _check_project_taken(self, ctx, [*ctx._protected_args, *ctx.args])
        except click.UsageError as exc:  # before any command ran: its --json is told here
            if _json_asked(self, ctx, args):
                emit_json(refusal_json(exc.format_message(), exc.exit_code, "usage"))
            raise
        return rest


_ROOT_VALUED = ("--home", "--profile", "--project")
"""The root's options that take a value (``--home PATH``)."""


def _json_asked(root: click.Group, ctx: click.Context, args: list[str]) -> bool:
    """Whether the command ``args`` name (after the root's options) takes ``--json`` and
    was given it before any ``--``: a usage error the root finds (an argument that is
    not UTF-8, ``--project`` before a command without it) is then also the one JSON
    refusal on stdout, as a command's own usage errors are (README, "Exit status")."""
    tokens = args[: args.index("--")] if "--" in args else list(args)
    if "--json" not in tokens:
        return False
    i = 0
    while i < len(tokens) and tokens[i].startswith("-"):
        i += 2 if tokens[i] in _ROOT_VALUED else 1
    _, command, _ = _command_of(root, ctx, tokens[i:])
    if command is None or isinstance(command, click.Group):
        return False
    return any(p.name == "as_json" for p in command.params)


def _command_of(
    root: click.Group, ctx: click.Context, tokens: list[str]
) -> tuple[list[str], click.Command | None, list[str]]:
    """The command ``tokens`` name from ``root`` (the words before the first option):
    its path of names, the command (None: a name click does not know, which click
    reports itself) and the tokens after its names."""
    path: list[str] = []
    command: click.Command = root
    while isinstance(command, click.Group) and tokens and not tokens[0].startswith("-"):
        found = command.get_command(ctx, tokens[0])
        if found is None:
            return path, None, tokens
        path.append(tokens[0])
        command, tokens = found, tokens[1:]
    return path, command, tokens


_PROJECT_READERS = ("hook",)
"""Commands that read the root's ``--project`` without an option of their own."""


def _check_project_taken(root: click.Group, ctx: click.Context, tokens: list[str]) -> None:
    """Refuse the root's ``--project DIR`` before a command that would ignore it (one
    without ``--project`` of its own: ``gc``, ``import hermes``...), so a project-minded
    run is never silently done on the whole home or the global memory."""
    if any(t in ("-h", "--help") for t in tokens):
        return
    path, command, _ = _command_of(root, ctx, tokens)
    if command is None:  # click says so itself
        return
    if not path or isinstance(command, click.Group) or path[0] in _PROJECT_READERS:
        return
    if any("--project" in getattr(p, "opts", ()) for p in command.params):
        return
    raise click.UsageError(
        f"`mnemic {' '.join(path)}` does not take --project: it does not work on one "
        "project's memory (gc, forget and ui cover every store of the home). Nothing was "
        "done; run it without --project."
    )


@click.group(
    cls=_Root, lazy=subcommands(), context_settings={"help_option_names": ["-h", "--help"]}
)
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
@click.option(
    "--project",
    metavar="DIR",
    help="Memory commands work on project DIR's memory ($MNEMIC_PROJECT; also after the command).",
)
@click.version_option(package_name="mnemic", prog_name="mnemic")
@click.pass_context
def main(
    ctx: click.Context, home_path: str | None, profile: str | None, project: str | None
) -> None:
    """mnemic: small, curated, safe memory for LLM agents.

    \b
    Start here:
      mnemic demo                 a guided walk through a session, in a temp home
      mnemic init                 create the home (any write creates it too)
      mnemic memory status        how full MEMORY.md and USER.md are
      mnemic memory show          the entries, as the next session will see them
      mnemic tool memory JSON     run one memory tool call, print the JSON response
      mnemic ui                   the web console: review and correct memory in a browser
    """
    ctx.obj = AppContext(home_path, profile)
    if project:  # a command's own --project still wins; $MNEMIC_PROJECT does not
        ctx.obj.project = project
