"""The command table: every ``mnemic`` command, where it is defined and its short help.

A command's module is imported only when that command runs (or shows its own help):
``mnemic hook claude-code``, which Claude Code runs at every compaction and session
end, loads the hook and nothing of the other commands. :class:`LazyGroup` lists the
table's names, and ``mnemic --help`` shows the table's short help without importing a
command module (a test keeps each short help equal to the command's own). A command of
a subgroup is listed as ``"group name"`` and loaded when that group is asked for it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, NamedTuple

import click
from click.exceptions import NoSuchCommand

__all__ = ["COMMANDS", "Lazy", "LazyGroup", "subcommands"]


class Lazy(NamedTuple):
    """Where a command is defined (``"module:attribute"``) and what ``--help`` lists."""

    target: str
    help: str
    hidden: bool = False


COMMANDS: dict[str, Lazy] = {
    "audit": Lazy(
        "mnemic.cli.governance:audit",
        "The audit journal: every write attempt and decision, hash-chained.",
    ),
    "chat": Lazy(
        "mnemic.cli.agent:chat",
        "Talk to a model with mnemic's memory, session search and skills.",
    ),
    "db": Lazy(
        "mnemic.cli.db:db",
        "The PostgreSQL backend: schema migrations, status, copying a home in and out.",
    ),
    "demo": Lazy(
        "mnemic.cli.demo:demo",
        "Two days of an agent with memory, against a local stand-in model (no network, no key).",
    ),
    "export": Lazy(
        "mnemic.cli.exporting:export",
        "Write memory out: a section of Claude Code's CLAUDE.md, or the home as a bundle.",
    ),
    "forget": Lazy(
        "mnemic.cli.governance:forget",
        "Forget for good: the user profile (--user) or every text containing TEXT (--text).",
    ),
    "gc": Lazy(
        "mnemic.cli.governance:gc",
        "Apply the retention policy: old versions, backups, expired pending writes, debris.",
    ),
    "hook": Lazy(
        "mnemic.cli.hook:hook",
        "Entry points run by other agents' hooks (installed by `mnemic integrate`).",
        hidden=True,
    ),
    "import": Lazy(
        "mnemic.cli.importing:import_group",
        "Move in from another agent (Hermes, Claude Code's memory, ChatGPT, Codex) or a bundle.",
    ),
    "init": Lazy(
        "mnemic.cli.home:init",
        "Create the home (private: mode 0700) where memory, history and skills will live.",
    ),
    "integrate": Lazy("mnemic.cli.integrate:integrate", "Wire mnemic into other agents."),
    "mcp": Lazy(
        "mnemic.cli.mcp:mcp",
        "Serve memory, session search and skills to MCP clients (stdio by default).",
    ),
    "memory": Lazy(
        "mnemic.cli.memory:memory",
        "Inspect and edit the curated memory (MEMORY.md and USER.md).",
    ),
    "memory archive": Lazy(
        "mnemic.cli.archive:archive",
        "Entries that left memory (removed, replaced, evicted, expired, moved, dropped by an "
        "edit): never in the prompt.",
    ),
    "memory move": Lazy(
        "mnemic.cli.move:move",
        "Move an entry between the global memory and a project's (the source archives it).",
    ),
    "memory search": Lazy(
        "mnemic.cli.search:memory_search",
        "Find the entries that match QUERY by words and, with mnemic[semantic], by meaning.",
    ),
    "memory tidy": Lazy(
        "mnemic.cli.tidy:tidy",
        "Propose to merge near-duplicates, supersede contradicted entries with the newer "
        "one, drop stale entries and shorten long ones.",
    ),
    "pending": Lazy(
        "mnemic.cli.pending:pending",
        "Writes waiting for approval: list, show, diff, approve, reject.",
    ),
    "project": Lazy(
        "mnemic.cli.project:project",
        "Project stores whole: remove one whose directory is gone (its memory kept), or take "
        "it over to the directory's new path.",
    ),
    "prompt": Lazy(
        "mnemic.cli.prompt:prompt",
        "Print the system prompt a new session would start with, layer by layer.",
    ),
    "provider": Lazy(
        "mnemic.cli.provider:provider",
        "External memory providers (at most one active; `recall` is built in).",
    ),
    "scan": Lazy(
        "mnemic.cli.scan:scan",
        "Scan FILE (or stdin) for prompt injection, exfiltration, secrets and hidden text.",
    ),
    "sessions": Lazy(
        "mnemic.cli.sessions:sessions",
        "The session history: every past conversation, searchable.",
    ),
    "sessions attachments": Lazy(
        "mnemic.cli.sessions_attachments:attachments_cmd",
        "List the images and files imported messages hold; --gc deletes unused ones.",
    ),
    "sessions embed": Lazy(
        "mnemic.cli.sessions_embed:embed_cmd",
        "Embed the messages that have no vector yet (semantic search finds them then).",
    ),
    "skills": Lazy(
        "mnemic.cli.skills:skills",
        "Procedural memory: skills under <home>/skills/[category/]name/SKILL.md.",
    ),
    "skills search": Lazy(
        "mnemic.cli.search:skills_search",
        "Find the skills that fit QUERY by words and, with mnemic[semantic], by meaning.",
    ),
    "stats": Lazy(
        "mnemic.cli.governance:stats",
        "Metrics of this home (Prometheus text), derived from the audit journal and files.",
    ),
    "tool": Lazy(
        "mnemic.cli.tool:tool",
        "Run one tool call NAME with JSON arguments and print the JSON response.",
    ),
    "ui": Lazy(
        "mnemic.cli.ui:ui",
        "Open the web console: memory, archive, approvals, tidy, audit, sessions, skills, prompt.",
    ),
}
"""Every command loaded on demand, by its path below ``mnemic`` (``"sessions embed"``)."""


def subcommands(group: str = "") -> dict[str, Lazy]:
    """The table's commands directly under ``group`` (``""``: the root), by name."""
    prefix = f"{group} " if group else ""
    return {
        path[len(prefix) :]: entry
        for path, entry in COMMANDS.items()
        if path.startswith(prefix) and " " not in path[len(prefix) :]
    }


def load(target: str) -> click.Command:
    """Import the command ``target`` (``"module:attribute"``) names."""
    module, _, attribute = target.partition(":")
    command = getattr(importlib.import_module(module), attribute)
    if not isinstance(command, click.Command):  # pragma: no cover - a wrong table entry
        raise TypeError(f"{target} is not a click command")
    return command


_LEAF_ARGS = "mnemic.leaf_args"
_JSON_TOLD = "mnemic.json_told"


def _json_given(ctx: click.Context) -> bool:
    """Whether ``ctx``'s command takes ``--json`` and was given it (parsed, or among its
    arguments before ``--`` when the error came before click read it)."""
    if not any(p.name == "as_json" for p in ctx.command.params):
        return False
    if ctx.params.get("as_json") is True:
        return True
    args = list(ctx.meta.get(_LEAF_ARGS) or ())
    return "--json" in (args[: args.index("--")] if "--" in args else args)


TRIED: dict[str, str] = {
    "approvals": "pending",
    "approval": "pending",
    "approve": "pending",
    "reject": "pending",
    "queue": "pending",
}
"""Words a newcomer types for a command that has another name: the command they mean
(click's close-match suggestion finds typos, not synonyms)."""


class LazyGroup(click.Group):
    """A click group whose commands named in ``lazy`` are imported on first use.

    ``lazy`` maps a command name to its :class:`Lazy` entry (see :func:`subcommands`);
    commands added the usual way sit beside them. Listing the commands, for ``--help``,
    imports none of them.
    """

    def __init__(self, *args: Any, lazy: Mapping[str, Lazy] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.lazy.get(cmd_name)
        if cmd_name not in self.commands and entry is not None:
            self.add_command(load(entry.target), cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            name, command, rest = super().resolve_command(ctx, args)
        except NoSuchCommand as exc:  # click suggests loaded commands only: offer them all
            meant = TRIED.get(exc.command_name)
            if meant is not None and meant in self.lazy:
                raise NoSuchCommand(
                    exc.command_name,
                    f"No such command {exc.command_name!r}; the command is "
                    f"`{ctx.command_path} {meant}`: {self.lazy[meant].help}",
                    ctx=ctx,
                ) from None
            raise NoSuchCommand(
                exc.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None
        ctx.meta[_LEAF_ARGS] = list(rest)  # for invoke's --json check (parsing uses up rest)
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        """As click's, but under ``--json`` a usage error in the command's own arguments
        (a bad value, a missing argument) is also the one JSON refusal on stdout that
        every ``--json`` command prints (:func:`mnemic.cli.app.fail`); click's usage text
        still goes to stderr, with exit status 2."""
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            failed = exc.ctx
            if failed is not None and not failed.meta.get(_JSON_TOLD) and _json_given(failed):
                failed.meta[_JSON_TOLD] = True
                from .app import emit_json, refusal_json

                emit_json(refusal_json(exc.format_message(), exc.exit_code, "usage"))
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The "Commands" section of ``--help``, as click writes it, from the table."""
        listed = [(name, self._listed(name)) for name in self.list_commands(ctx)]
        shown = [(name, cmd) for name, cmd in listed if not cmd.hidden]
        if not shown:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in shown)
        with formatter.section("Commands"):
            formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in shown])

    def _listed(self, name: str) -> click.Command:
        """The command if it is loaded, else a stand-in carrying the table's help."""
        loaded = self.commands.get(name)
        if loaded is not None:
            return loaded
        entry = self.lazy[name]
        return click.Command(name, help=entry.help, hidden=entry.hidden)
