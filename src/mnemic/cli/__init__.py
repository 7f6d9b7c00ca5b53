"""The ``mnemic`` command line: a thin shell over the library.

Each command parses its arguments, calls one library function and renders the result.
Exit codes: 0 done, 1 refused or failed (message on stderr), 2 usage or configuration
error. Every listing accepts ``--json``; under it a refusal is also one JSON object on
stdout (:func:`.app.fail`, :func:`.app.refusal_json`). The click group is :data:`main`
(:mod:`.root`); what the commands share is in :mod:`.app`; which module defines each
command is in :mod:`.commands`, and only the module of the command that runs is imported.

:func:`run` is the ``mnemic`` script and ``python -m mnemic``: ``mnemic [--home PATH]
[--profile NAME] [--project DIR] hook claude-code``, which Claude Code runs at every
session start, goes straight to its handler (:mod:`.hook_run`) without importing click
or the group, after a look for its remembered answer
(:mod:`mnemic.integrations.snapcache`); every other command line, and any unusual form
of that one, goes to :data:`main`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

__all__ = ["main", "run"]

_HOOK = ["hook", "claude-code"]
_ROOT_OPTIONS = ("--home", "--profile", "--project")


def hook_options(args: list[str]) -> dict[str, str] | None:
    """The root options of ``args`` when they are exactly ``[--home PATH] [--profile
    NAME] [--project DIR] hook claude-code`` (each option at most once, as ``--opt VALUE``
    or ``--opt=VALUE``, its value not empty and not an option), else ``None``: anything
    else (help, another command, a repeated option, text that is not UTF-8) is for the
    click group, which parses and reports it as always."""
    if args[-2:] != _HOOK:
        return None
    found: dict[str, str] = {}
    rest = args[:-2]
    i = 0
    while i < len(rest):
        name, eq, value = rest[i].partition("=")
        if not eq:
            if i + 1 >= len(rest):
                return None
            value = rest[i + 1]
            i += 1
        i += 1
        if name not in _ROOT_OPTIONS or name in found or not value or value.startswith("-"):
            return None
        found[name] = value
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:  # undecodable bytes: the group's usage error says so
            return None
    return found


def run() -> None:
    """The ``mnemic`` command: the Claude Code hook's fast path, else the click group;
    then :func:`_ending`."""
    try:
        _dispatch()
    finally:
        _ending()


def _ending() -> None:
    """The command is done and the process is about to exit: collect what is garbage now
    (its finalizers run, as at any exit), then freeze what is still alive
    (:func:`gc.freeze`), so that the interpreter's last collections at exit, which walk
    every object the command's imports made, skip them. That walk was most of a
    PostgreSQL call's exit (psycopg and asyncio about double the heap of a files call):
    ~45 ms of CPU of ~60, paid by every CLI call and hook; ~10 ms for files. Objects
    alive now still go the usual way at exit (atexit handlers, module teardown); only a
    cycle among them is not collected again, which Python does not promise anyway."""
    import gc

    gc.collect()
    gc.freeze()


def _dispatch() -> None:
    options = hook_options(sys.argv[1:])
    if options is not None:
        from ..integrations.snapcache import serve

        home_path, profile = options.get("--home"), options.get("--profile")
        project = options.get("--project")
        data = serve(home_path, profile, project)  # a remembered answer: printed, exits
        from .hook_run import run_claude_code_hook_command

        run_claude_code_hook_command(
            home_path=home_path, profile=profile, project=project, data=data
        )
    from .root import main

    main()


def __getattr__(name: str) -> object:
    if name == "main":  # the group, imported on first use (click with it)
        from .root import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    from .root import main as main
