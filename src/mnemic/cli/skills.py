"""``mnemic skills``: list, search, show, create, edit, delete and lint skills."""

from __future__ import annotations

import os
import shlex
import sys
from typing import Any

import click

from ..errors import ToolError
from ..skills import SkillChange, SkillStore, lint_skills, render_skill_md, skills_index
from ..skills.model import split_front_matter, threat_findings
from .app import (
    JSON_OPT,
    AppContext,
    confirm,
    edit_text,
    emit_json,
    fail,
    fail_keeping_edit,
    handle_errors,
    pass_app,
    printable,
    read_utf8,
)
from .commands import LazyGroup, subcommands

__all__ = ["open_skills", "shorten", "skills"]


def open_skills(app: AppContext, *, write: bool = False) -> SkillStore:
    """The skills of the home: a command that writes creates the home if needed, any
    other needs an existing one (nothing is created for a mistyped MNEMIC_HOME)."""
    return SkillStore.open(app.home if write else app.existing_home)


def _haystack(info: Any) -> str:
    tags = " ".join(info.front.tags) if info.front else ""
    return f"{info.ref} {info.description} {tags}".lower()


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, an ellipsis marking the cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


@click.group(name="skills", cls=LazyGroup, lazy=subcommands("skills"))
def skills() -> None:
    """Procedural memory: skills under <home>/skills/[category/]name/SKILL.md.

    \b
    Exit status: 0 done, 1 refused or problems found (reason on stderr), 2 usage error.
    """


@skills.command(name="list")
@click.option("--category", "-c", metavar="C", help="Only skills of this category.")
@click.option("--query", "-q", metavar="WORDS", help="Only skills matching all these words.")
@click.option(
    "--all", "show_all", is_flag=True, help="Include unusable skills and other platforms."
)
@JSON_OPT
@pass_app
@handle_errors
def list_(
    app: AppContext, category: str | None, query: str | None, show_all: bool, as_json: bool
) -> None:
    """List the skills (local first; external ones are marked)."""
    store = open_skills(app)
    infos = store.skills(platform=None) if show_all else store.skills()
    if category is not None:
        infos = [i for i in infos if (i.category or "") == category]
    if query:
        words = query.lower().split()
        infos = [i for i in infos if all(w in _haystack(i) for w in words)]
    shown = infos if show_all else [i for i in infos if i.usable]
    if as_json:
        emit_json([i.as_dict() for i in shown])
        return
    if not shown:
        click.echo("No skills." if not infos else "No usable skills.")
    width = max((len(i.ref) for i in shown), default=0)
    for i in shown:
        mark = "" if i.usable else "  [unusable: run `mnemic skills lint`]"
        ext = "" if i.source == "local" else f"  (external: {i.source})"
        click.echo(f"{i.ref.ljust(width)}  {shorten(i.description, 90)}{ext}{mark}")
    withheld = len(infos) - len(shown)
    if withheld:
        click.echo(
            f"({withheld} unusable skill(s) not shown: see `mnemic skills lint` or --all)",
            err=True,
        )


@skills.command()
@click.argument("name")
@click.option("--file", "file_path", metavar="PATH", help="Show a supporting file instead.")
@JSON_OPT
@pass_app
@handle_errors
def show(app: AppContext, name: str, file_path: str | None, as_json: bool) -> None:
    """Show a skill's SKILL.md (or one supporting file) and its files, as stored.

    Unlike the skill_view tool, this shows text that fails the threat scan too (with a
    warning on stderr), so that a person can review it.
    """
    store = open_skills(app)
    info = store.get(name)
    if file_path:
        data = store.read_file(info, file_path)
        if data is None:
            fail(f"skill {info.ref!r} has no file {file_path!r}")
            return
        if isinstance(data, bytes):
            if as_json:
                emit_json(
                    {"skill": info.ref, "file": file_path, "binary": True, "bytes": len(data)}
                )
            else:
                click.echo(f"{file_path}: binary file, {len(data):,} bytes")
            return
        text = data
    else:
        doc = store.read_info(info)
        text = doc.text
    found = threat_findings(text, store.scan_level)
    if as_json:
        out: dict[str, Any] = {**info.as_dict(), "skill": info.ref, "path": info.path}
        if file_path:
            out["file"] = file_path
        else:
            out["files"] = [
                {"path": f.path, "bytes": f.size, "symlink": f.symlink} for f in doc.files
            ]
        out["content"] = text
        out["threats"] = [{"id": i, "category": c} for i, c in found]
        emit_json(out)
        return
    if found:
        ids = ", ".join(i for i, _ in found)
        click.echo(f"warning: this text matches threat pattern(s) {ids}", err=True)
    shown = printable(text)  # a skill from elsewhere could hold escape sequences
    if shown != text:
        click.echo("warning: control characters in this text are shown as \ufffd", err=True)
    click.echo(shown, nl=not shown.endswith("\n"))
    if not file_path:
        click.echo(f"\n# {info.path}")
        for f in doc.files:
            click.echo(f"#   {f.path}  ({'symlink' if f.symlink else f'{f.size:,} bytes'})")
        for s in doc.stray:
            click.echo(f"#   {s}  (outside the supporting directories)")


@skills.command()
@click.argument("name")
@click.option("--description", "-d", metavar="TEXT", help="What it does and when to use it.")
@click.option("--category", "-c", metavar="C", help="Category directory.")
@click.option("--version", "version", metavar="V", help="Version string, e.g. 1.0.0.")
@click.option("--tag", "tags", multiple=True, metavar="TAG", help="A tag (repeatable).")
@click.option(
    "--platform",
    "platforms",
    multiple=True,
    type=click.Choice(["linux", "macos", "windows"]),
    help="Only on this platform (repeatable; default all).",
)
@click.option(
    "--body-file",
    type=click.File("rb"),
    help="Markdown body (or a whole SKILL.md with front matter); default: stdin.",
)
@JSON_OPT
@pass_app
@handle_errors
def create(
    app: AppContext,
    name: str,
    description: str | None,
    category: str | None,
    version: str | None,
    tags: tuple[str, ...],
    platforms: tuple[str, ...],
    body_file: Any,
    as_json: bool,
) -> None:
    """Create skill NAME from a body (--body-file or stdin) and the given fields.

    If the body already starts with front matter, it is used as the whole SKILL.md and
    --description, --version, --tag and --platform must not be given.

    \b
    Example:
      mnemic skills create deploy-docs -c ops -d "Build and publish the docs." < steps.md
    """
    if body_file is not None:
        body = read_utf8(body_file, f"--body-file {body_file.name}")
    elif sys.stdin.isatty():
        raise click.UsageError("give the body with --body-file FILE or on stdin")
    else:
        body = read_utf8(sys.stdin.buffer, "the body read from stdin")
    if not body.strip():  # the library's words ("after the front matter") fit no one here
        source = f"--body-file {body_file.name}" if body_file is not None else "stdin"
        raise click.UsageError(
            f"the skill's steps are read from {source}, which was empty. Nothing was "
            "written. Write the procedure (when to use it, numbered steps with exact "
            "commands, pitfalls, how to verify) in a file and pass it: mnemic skills create "
            f"{name} -d {shlex.quote(description or 'What it does.')} < steps.md"
        )
    if split_front_matter(body) is not None:
        if description or version or tags or platforms:
            raise click.UsageError(
                "the body already has front matter: drop --description/--version/--tag/"
                "--platform, or remove the front matter"
            )
        content = body
    else:
        if not description:
            raise click.UsageError("--description is required (or give a whole SKILL.md)")
        content = render_skill_md(
            name,
            description,
            body,
            category=category,
            version=version,
            tags=tags,
            platforms=platforms,
        )
    payload: dict[str, Any] = {"content": content}
    if category:
        payload["category"] = category
    result = open_skills(app, write=True).apply(SkillChange("create", name, payload))
    if as_json:
        emit_json({"success": True, **result.as_dict(), "path": result.path})
        return
    click.echo(f"{result.message} {os.path.join(result.path, 'SKILL.md')}")


@skills.command()
@click.argument("name")
@pass_app
@handle_errors
def edit(app: AppContext, name: str) -> None:
    """Edit a skill's SKILL.md in $EDITOR; the result is validated and written atomically.

    If validation fails, or the file changed while you edited it, your text is kept in
    a file whose path is printed, and nothing is written.
    """
    store = open_skills(app, write=True)
    info = store.get(name)
    doc = store.read_info(info)
    base = store.prepare(SkillChange("edit", info.ref, {"content": doc.text})).base
    text = edit_text(doc.text)
    if text is None or text == doc.text:
        click.echo("No changes.")
        return
    try:
        result = store.apply(SkillChange("edit", info.ref, {"content": text, "expect": base}))
    except ToolError as exc:
        fail_keeping_edit(app, f"SKILL.md.{info.name}", text, exc)
        return
    click.echo(result.message)


@skills.command()
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@JSON_OPT
@pass_app
@handle_errors
def delete(app: AppContext, name: str, yes: bool, as_json: bool) -> None:
    """Delete a skill and its supporting files."""
    store = open_skills(app, write=True)
    change = SkillChange("delete", name)
    prepared = store.prepare(change)
    if not yes:
        confirm(
            f"Delete skill {prepared.ref} ({len(prepared.before)} file(s)) at "
            f"{prepared.skill_dir}?",
            "not deleted",
        )
    result = store.apply(prepared.pinned())
    if as_json:
        emit_json({"success": True, **result.as_dict()})
        return
    click.echo(result.message)


@skills.command()
@JSON_OPT
@pass_app
@handle_errors
def lint(app: AppContext, as_json: bool) -> None:
    """Check every skill: front matter, names, sizes, threats, symlinks, file references.

    Exit status 1 when there is at least one error (warnings alone exit 0).
    """
    store = open_skills(app)
    problems = lint_skills(store)
    errors = sum(p.severity == "error" for p in problems)
    if as_json:
        emit_json(
            {
                "errors": errors,
                "warnings": len(problems) - errors,
                "skills": len(store.scan()),
                "problems": [p.as_dict() for p in problems],
            }
        )
    else:
        for p in problems:
            where = f"{p.skill}/{p.file}" if p.file else p.skill
            ext = "" if p.source == "local" else f" [{p.source}]"
            click.echo(f"{p.severity}: {where}{ext}: {p.message} ({p.code})")
        n = len(store.scan())
        click.echo(
            f"{n} skill(s) checked: {errors} error(s), {len(problems) - errors} warning(s).",
            err=bool(problems),
        )
    if errors:
        sys.exit(1)


@skills.command()
@click.option("--budget", type=click.IntRange(min=200), help="Override skills.index_budget.")
@JSON_OPT
@pass_app
@handle_errors
def index(app: AppContext, budget: int | None, as_json: bool) -> None:
    """Print the skills index as a new session's system prompt gets it."""
    idx = skills_index(open_skills(app), budget)
    if as_json:
        emit_json(
            {
                "text": idx.text,
                "chars": len(idx.text),
                "budget": idx.budget,
                "level": idx.level,
                "skills": idx.total,
                "without_description": idx.without_description,
                "unnamed": idx.unnamed,
                "withheld": idx.withheld,
            }
        )
        return
    if idx.text:
        click.echo(idx.text)
    click.echo(
        f"({len(idx.text):,}/{idx.budget:,} chars, level {idx.level}, {idx.total} skill(s))",
        err=True,
    )
