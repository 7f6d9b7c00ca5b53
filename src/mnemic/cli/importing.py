"""``mnemic import``: move in from another agent's memory (a Hermes Agent home, Claude
Code's memory files)."""

from __future__ import annotations

import shlex
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import click

from ..home import Home
from ..integrations.chat_exports import import_chatgpt, import_codex
from ..integrations.claude_memory.run import import_claude_memory
from ..integrations.hermes_import.run import import_hermes
from ..timefmt import local_time, parse_iso
from .app import PROJECT_OPT, AppContext, emit_json, handle_errors, pass_app, printable
from .sessions import NO_EMBED_OPT, caught_up_line, embedding_of, import_bar

__all__ = ["chatgpt", "claude_code_memory", "codex", "hermes", "import_group"]

_OUTCOMES = {
    "added": "added",
    "staged": "waiting for approval (mnemic pending list)",
    "archived": "archived",
    "over_budget": "over the budget: archived (mnemic memory archive list)",
    "present": "there already",
    "blocked": "blocked by the threat scan: not imported",
    "rejected": "not storable as they are: not imported",
    "refused": "refused: not imported",
    "conflict": "a different one is there: left alone",
    "skipped": "skipped",
    "file_added": "supporting files added",
    "file_present": "supporting files there already",
    "file_staged": "supporting files waiting for approval",
}


@click.group(name="import", invoke_without_command=True)
@click.option(
    "--bundle",
    type=click.Path(dir_okay=False),
    help="Import a whole home from a bundle (mnemic export --bundle) into this empty home.",
)
@click.option("--dry-run", is_flag=True, help="With --bundle: check and count; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="With --bundle: print the report as JSON.")
@click.pass_context
@handle_errors
def import_group(ctx: click.Context, bundle: str | None, dry_run: bool, as_json: bool) -> None:
    """Move in from another agent (Hermes, Claude Code's memory, ChatGPT, Codex) or a bundle.

    \b
      mnemic import hermes                 ~/.hermes (or $HERMES_HOME)
      mnemic import hermes PATH --dry-run  what would land where; nothing written
      mnemic import claude-code-memory --project DIR
                                           ~/.claude/CLAUDE.md, DIR's CLAUDE.md files
                                           and its auto memory
      mnemic import chatgpt conversations.json [--memories FILE]
      mnemic import codex                  ~/.codex/sessions (or $CODEX_HOME/sessions)
      mnemic import --bundle FILE          a bundle of `mnemic export --bundle`, into an
                                           empty home (refused otherwise); --dry-run checks

    Conversation files (Claude Code transcripts, OpenAI messages, JSON Lines) are
    imported with `mnemic sessions import`.
    """
    if bundle is not None:
        if ctx.invoked_subcommand is not None:
            raise click.UsageError("--bundle imports a bundle; it takes no subcommand.")
        app = ctx.find_object(AppContext)
        assert app is not None  # the root command makes it
        _import_bundle(app, bundle, dry_run, as_json)
    elif dry_run or as_json:  # `import --dry-run hermes` must not import for real
        raise click.UsageError(
            "--dry-run and --json here go with --bundle; for a source, put them after it "
            "(mnemic import hermes --dry-run)."
        )
    elif ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def _import_bundle(app: AppContext, bundle: str, dry_run: bool, as_json: bool) -> None:
    """``mnemic import --bundle FILE [--dry-run]`` (:mod:`mnemic.ops.bundle.restore`)."""
    from ..ops.bundle.restore import import_bundle  # the bundle code only when asked for

    with _bar(as_json, dry_run) as update:
        report = import_bundle(app.home, Path(bundle), dry_run=dry_run, progress=update)
    over = [] if dry_run else _over_budget(app.home)
    if as_json:
        emit_json({**report.as_dict(), **({} if dry_run else {"over_budget": over})})
        return
    head = "Dry run: nothing was written. Would import" if dry_run else "Imported"
    # the manifest's time is UTC, for machines; a person reads local time (timefmt)
    stamp = parse_iso(report.created)
    created = report.created if stamp is None else local_time(stamp)
    made = f"made {created} by mnemic {report.mnemic_version}"
    click.echo(printable(f"{head} {report.summary()} ({made}).", lines=False))
    config = shlex.quote(str(app.home.root / "config.toml"))
    for o in over:
        name = o["file"] + (f" of project {o['project']}" if o["project"] else "")
        where = f" --project {shlex.quote(o['project'])}" if o["project"] else ""
        line = (
            f"{name} holds {o['chars']:,} chars, over this home's limit of {o['limit']:,}: "
            f"settings stay with the home the bundle came from. Raise {o['setting']} in "
            f"{config} to the old home's value, or make room (`mnemic memory tidy`, "
            f"`mnemic memory remove TEXT{where}`); until then each add to it is refused."
        )
        click.echo(printable(line, lines=False))
    for note in report.notes:
        click.echo(printable(f"  note: {note}", lines=False))


def _over_budget(home: Home) -> list[dict[str, Any]]:
    """What a bundle brought in over this home's budgets: its settings stay on the
    machine it came from (config.toml does not travel), so a home whose limits were
    raised there arrives over the defaults here, and every add is refused until either
    changes. One item per such file: its name, project, chars, limit and setting."""
    from ..curated.entries import FILENAMES, TARGETS
    from ..curated.scope import ProjectHome, every_store
    from ..curated.view import MemoryView

    out: list[dict[str, Any]] = []
    for store in every_store(home):
        project = store.project.path if isinstance(store, ProjectHome) else None
        view = MemoryView.open(store)
        for target in ["memory"] if isinstance(store, ProjectHome) else TARGETS:
            usage = view.usage(target)
            if usage.over_budget:
                out.append({
                    "file": FILENAMES[target],
                    "project": project,
                    "chars": usage.chars,
                    "limit": usage.limit,
                    "setting": "[project] memory_char_limit"
                    if isinstance(store, ProjectHome)
                    else f"[memory] {target}_char_limit",
                })  # fmt: skip
    return out


def _bar(as_json: bool, dry_run: bool) -> AbstractContextManager[Any]:
    """The progress bar of an import (:func:`~mnemic.cli.sessions.import_bar`): shown on
    a terminal for a real import printed for a person, never with --dry-run or --json."""
    return import_bar(not as_json and not dry_run and sys.stderr.isatty())


def _counts(counts: dict[str, int], dry_run: bool) -> str:
    would = "would be " if dry_run else ""
    parts = [f"{n:,} {would}{_OUTCOMES.get(k, k)}" for k, n in counts.items() if n]
    return "; ".join(parts) or "nothing"


def _part(title: str, part: dict[str, Any], dry_run: bool) -> None:
    if part["missing"]:
        click.echo(f"{title}: not in the Hermes home, skipped.")
        return
    click.echo(f"{title}: {_counts(part['counts'], dry_run)}.")
    for note in part["notes"]:
        why = f" ({note['why']})" if note["why"] else ""
        what = f": {note['what']}" if note["what"] and note["what"] != note["where"] else ""
        line = f"  {note['outcome']}: {note['where']}{what}{why}"
        click.echo(printable(line, lines=False))  # texts of another agent's files


@import_group.command(name="hermes")
@click.argument("path", required=False, type=click.Path(file_okay=False))
@click.option("--dry-run", is_flag=True, help="Report what would land where; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@NO_EMBED_OPT
@pass_app
@handle_errors
def hermes(app: AppContext, path: str | None, dry_run: bool, as_json: bool, no_embed: bool) -> None:
    """Import a Hermes Agent home (PATH, default $HERMES_HOME or ~/.hermes).

    \b
    MEMORY.md, USER.md   entries, each scanned and gated like any write; what does
                         not fit the budget goes to the archive
    ARCHIVE.jsonl        into the archive
    state.db             sessions (read-only), with titles, parents and tool calls
    skills/              skills, each scanned and gated like any skill write

    Running it again adds nothing. A missing part is skipped; a damaged one stops the
    import before anything is written, naming the file.
    """
    with _bar(as_json, dry_run) as update:
        report = import_hermes(app.home, path, dry_run=dry_run, progress=update)
    data = report.to_dict()
    embedded = _embed_first_share(app, data, data["sessions"], dry_run or no_embed)
    if as_json:
        emit_json(data)
        return
    head = "Dry run: nothing was written. " if dry_run else ""
    click.echo(printable(f"{head}From {data['hermes_home']}:", lines=False))
    for target, name in (("memory", "MEMORY.md"), ("user", "USER.md")):
        _part(name, data["memory"][target], dry_run)
        if data["memory"][target]["counts"].get("over_budget"):
            key = "memory_char_limit" if target == "memory" else "user_char_limit"
            click.echo(_raise_limit(app, f"[memory] {key}"))
        if data["memory"][target]["counts"].get("blocked"):
            path = shlex.quote(str(Path(data["hermes_home"]) / "memories" / name))
            click.echo(
                printable(
                    "  A blocked entry stays only in Hermes's file; to keep one, reword it as a "
                    f"plain fact and `mnemic memory add` it (`mnemic scan {path}` shows what "
                    "matches).",
                    lines=False,
                )
            )
    if not data["archive"]["missing"]:  # no Hermes writes one: silent when absent (--json says)
        _part("ARCHIVE.jsonl", data["archive"], dry_run)
    sessions = data["sessions"]
    if sessions["missing"]:
        click.echo("state.db: not in the Hermes home, skipped.")
    else:
        _sessions("state.db", sessions, dry_run)
        merged = sessions.get("merged_recorded_sessions", 0)
        if merged:
            click.echo(
                f"  {merged:,} session(s) mnemic's Hermes provider recorded now hold Hermes's "
                f"copy in Hermes's order ({sessions['merged_recorded_messages']:,} messages "
                "added among their turns)."
            )
    _part("skills/", data["skills"], dry_run)
    if embedded:
        click.echo(embedded)
    if dry_run:
        click.echo("Run it again without --dry-run to import.")
    else:
        click.echo(
            "Next: `mnemic memory show` (what a new session's prompt gets), `mnemic sessions "
            "search QUERY` (your Hermes history); to keep using Hermes with this history, "
            "`mnemic integrate hermes`."
        )


def _embed_first_share(
    app: AppContext, data: dict[str, Any], sessions: dict[str, Any], skip: bool
) -> str:
    """After an import that wrote messages, embed a bounded first share of them for
    search by meaning, as `mnemic sessions import` does (with mnemic[semantic] and
    semantic search on); ``data`` gains ``embedding`` (what `sessions import --json`
    gives); ``skip``: a dry run, or --no-embed. The sentence to print ("" when there is
    nothing to say)."""
    if skip or not sessions.get("messages"):
        return ""
    from ..sessions import open_store
    from ..sessions.search.catchup import catch_up

    with open_store(app.home) as store:
        caught = catch_up(store, settings=app.home.settings)
    data["embedding"] = embedding_of(caught)
    return caught_up_line(caught)


def _raise_limit(app: AppContext, key: str, project: str | None = None) -> str:
    """The next step for entries that did not fit: which setting, in which file (the
    home's own config.toml, not the other agent's settings), and the restore command."""
    config = shlex.quote(str(app.home.root / "config.toml"))
    where = f" --project {shlex.quote(project)}" if project else ""
    return printable(
        f"  To have them live: raise {key} in {config}, then "
        f"mnemic memory archive restore ID{where} (the IDs: mnemic memory archive list{where}).",
        lines=False,
    )


def _sessions(title: str, sessions: dict[str, Any], dry_run: bool) -> None:
    would = "would import" if dry_run else "imported"
    known = sessions.get("known_sessions", 0) + sessions.get("existing_sessions_unchanged", 0)
    grew = sessions.get("extended_sessions", 0)
    more = f"; {grew:,} known sessions gained new messages" if grew else ""
    more += f"; {known:,} imported before" if known else ""
    click.echo(
        f"{title}: {would} {sessions['sessions']:,} sessions, {sessions['messages']:,} "
        f"messages{more}."
    )
    for item in sessions.get("skipped", []):
        click.echo(printable(f"  skipped {item['count']:,}: {item['reason']}", lines=False))


@import_group.command(name="claude-code-memory")
@click.option(
    "--claude-home",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Claude Code's folder (default $CLAUDE_CONFIG_DIR or ~/.claude).",
)
@PROJECT_OPT
@click.option("--dry-run", is_flag=True, help="Report what would land where; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_app
@handle_errors
def claude_code_memory(
    app: AppContext, claude_home: str | None, dry_run: bool, as_json: bool
) -> None:
    """Import Claude Code's memory files.

    \b
    ~/.claude/CLAUDE.md                   into global memory
    with --project DIR:
      DIR/CLAUDE.md, DIR/.claude/CLAUDE.md, DIR/CLAUDE.local.md
      ~/.claude/projects/<DIR>/memory/    auto memory: MEMORY.md and its topic files
                                          all into the project's memory

    Every bullet, paragraph and code block becomes one entry (its headings kept as
    context), scanned and gated like any write; provenance names its file and line.
    What does not fit the budget goes to the archive. @ imports are named, not
    followed: import that file itself. Running it again adds nothing.
    """
    report = import_claude_memory(
        app.home, project=app.project, claude_home=claude_home, dry_run=dry_run
    )
    data = report.to_dict()
    if as_json:
        emit_json(data)
        return
    head = "Dry run: nothing was written. " if dry_run else ""
    click.echo(printable(f"{head}From {data['claude_home']}:", lines=False))
    for file in data["files"]:
        n = file["entries"]
        line = f"  {file['path']} ({file['kind']}): {n:,} {'entry' if n == 1 else 'entries'}"
        click.echo(printable(line, lines=False))
    for scope, part in data["scopes"].items():
        title = "Global memory" if scope == "global" else f"Project {data['project']}"
        _part(title, part, dry_run)
        if part["counts"].get("over_budget"):
            key = (
                "[memory] memory_char_limit"
                if scope == "global"
                else ("[project] memory_char_limit")
            )
            click.echo(_raise_limit(app, key, None if scope == "global" else data["project"]))


@import_group.command(name="chatgpt")
@click.argument("path", required=False, type=click.Path(exists=True))
@click.option(
    "--memories",
    metavar="FILE",
    type=click.Path(exists=True, dir_okay=False),
    help="ChatGPT's saved memories pasted into a text file, one a line.",
)
@click.option("--dry-run", is_flag=True, help="Report what would be imported; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@NO_EMBED_OPT
@pass_app
@handle_errors
def chatgpt(
    app: AppContext,
    path: str | None,
    memories: str | None,
    dry_run: bool,
    as_json: bool,
    no_embed: bool,
) -> None:
    """Import ChatGPT's data export (PATH: conversations.json or the unzipped folder).

    \b
    conversations.json   each conversation as a session (source "chatgpt"): the
                         branch you last saw, with titles, times and roles
    --memories FILE      saved memories (Settings > Personalization > Manage
                         memories, pasted one a line): each a USER.md entry
                         waiting for approval (mnemic pending list)

    A damaged or cut-short export stops the import before anything is written.
    Running it again adds nothing.
    """
    with _bar(as_json, dry_run) as update:
        report = import_chatgpt(app.home, path, memories=memories, dry_run=dry_run, progress=update)
    data = report.to_dict()
    embedded = _embed_first_share(app, data, data["sessions"] or {}, dry_run or no_embed)
    if as_json:
        emit_json(data)
        return
    if dry_run:
        click.echo("Dry run: nothing was written.")
    if data["files"]:
        _sessions(printable(data["path"], lines=False), data["sessions"], dry_run)
    if data["memories"] is not None:
        _part("Saved memories", data["memories"], dry_run)
    if embedded:
        click.echo(embedded)


@import_group.command(name="codex")
@click.argument("path", required=False, type=click.Path(exists=True))
@click.option("--dry-run", is_flag=True, help="Report what would be imported; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@NO_EMBED_OPT
@pass_app
@handle_errors
def codex(app: AppContext, path: str | None, dry_run: bool, as_json: bool, no_embed: bool) -> None:
    """Import Codex CLI sessions (PATH: a folder or one rollout file; default
    $CODEX_HOME/sessions, else ~/.codex/sessions).

    Each rollout-*.jsonl becomes a session (source "codex") with its messages and tool
    calls. A file that is not a Codex session stops the import before anything is
    written; a line cut short is skipped and counted. Running it again adds nothing.
    """
    with _bar(as_json, dry_run) as update:
        report = import_codex(app.home, path, dry_run=dry_run, progress=update)
    data = report.to_dict()
    embedded = _embed_first_share(app, data, data["sessions"], dry_run or no_embed)
    if as_json:
        emit_json(data)
        return
    if dry_run:
        click.echo("Dry run: nothing was written.")
    title = f"{data['path']} ({data['files']:,} files)"
    _sessions(printable(title, lines=False), data["sessions"], dry_run)
    if embedded:
        click.echo(embedded)
