"""``mnemic memory search`` and ``mnemic skills search``: the ranked searches of short
texts (words, and meaning with mnemic[semantic]), which load the session index's
segmentation and the embedder; the other memory and skills commands do not."""

from __future__ import annotations

from typing import Any

import click

from ..curated.entries import FILENAMES
from ..curated.view import MemoryView
from ..ops.memory_search import search_memory
from ..ops.skill_search import search_skills
from ..sessions import embedder_loader_for, text_floor_for
from .app import (
    JSON_OPT,
    PROJECT_OPT,
    SEARCH_MODE_OPT,
    AppContext,
    emit_json,
    handle_errors,
    pass_app,
)
from .memory import TARGETS_OPT, scoped_targets
from .skills import open_skills, shorten

__all__ = ["memory_search", "ranked_answer", "skills_search"]


def ranked_answer(found: Any, query: str, noun: str, as_json: bool) -> bool:
    """What every ranked search command (memory search, skills search) prints alike: the
    JSON form (then ``True``: nothing more to print), else the notice on stderr, "no good
    match" when nothing cleared the floor and, when nothing matched, a line saying so.
    ``found`` has ``to_dict``, ``notice``, ``hits``, ``retrieval`` and ``no_good_match``
    (:class:`~mnemic.ops.MemorySearch`, :class:`~mnemic.skills.SkillSearch`...)."""
    answer = found.to_dict()
    if as_json:
        emit_json(answer)
        return True
    if found.notice:
        click.echo(f"note: {found.notice}", err=True)
    if found.no_good_match:
        click.echo(answer["message"])
    if not found.hits:
        click.echo(f"No {noun} matches {query!r} ({found.retrieval}).")
    return False


def _why(matched: tuple[str, ...], score: float, found: Any) -> str:
    """What found a hit and its score, and ``weak`` below the floor."""
    weak = ", weak" if found.no_good_match else ""
    return f"{', '.join(matched)}, {score:.2f}{weak}"


@click.command(name="search")
@click.argument("query")
@TARGETS_OPT
@SEARCH_MODE_OPT
@click.option("--limit", "-n", type=click.IntRange(1, 100), default=5, show_default=True)
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def memory_search(
    app: AppContext, query: str, target: str | None, mode: str | None, limit: int, as_json: bool
) -> None:
    """Find the entries that match QUERY by words and, with mnemic[semantic], by meaning.

    Blocked entries are never searched. Each result says what matched it (lexical,
    semantic) and where it is (target and entry number, as in `mnemic memory show`).
    """
    if not query.strip():
        raise click.UsageError(
            'QUERY is empty: give words or a question, e.g. mnemic memory search "staging host".'
        )
    found = search_memory(
        MemoryView.open(app.memory_home()),
        query,
        mode=mode,
        targets=scoped_targets(app, target),
        limit=limit,
        embedder_loader=embedder_loader_for(app.existing_home),
        floor=text_floor_for(app.existing_home),
    )
    if ranked_answer(found, query, "entry", as_json):
        return
    for hit in found.hits:
        click.echo(
            f"{FILENAMES[hit.target]} [{hit.index}] ({_why(hit.matched, hit.score, found)}) "
            f"{hit.text}"
        )


@click.command(name="search")
@click.argument("query")
@click.option("--category", "-c", metavar="C", help="Only skills of this category.")
@SEARCH_MODE_OPT
@click.option("--limit", "-n", type=click.IntRange(1, 100), default=5, show_default=True)
@JSON_OPT
@pass_app
@handle_errors
def skills_search(
    app: AppContext,
    query: str,
    category: str | None,
    mode: str | None,
    limit: int,
    as_json: bool,
) -> None:
    """Find the skills that fit QUERY by words and, with mnemic[semantic], by meaning.

    QUERY may be a few words or the task itself, in any language. Skills flagged by the
    safety scan are never searched. Each result says what matched it (lexical, semantic).
    """
    if not query.strip():
        raise click.UsageError(
            'QUERY is empty: give words or the task, e.g. mnemic skills search "plot styling".'
        )
    found = search_skills(
        open_skills(app),
        query,
        mode=mode,
        limit=limit,
        category=category,
        embedder_loader=embedder_loader_for(app.existing_home),
        floor=text_floor_for(app.existing_home),
    )
    if ranked_answer(found, query, "skill", as_json):
        return
    width = max((len(h.info.ref) for h in found.hits), default=0)
    for hit in found.hits:
        click.echo(
            f"{hit.info.ref.ljust(width)}  ({_why(hit.matched, hit.score, found)}) "
            f"{shorten(hit.info.description, 90)}"
        )
    if found.withheld:
        click.echo(
            f"({found.withheld} unusable skill(s) not searched: see `mnemic skills lint`)",
            err=True,
        )
