"""``mnemic memory tidy``: proposals to merge, supersede, drop and shorten entries, in the
global memory and every project store (``--global`` / ``--project DIR``: one store);
printed (nothing changes) or, with ``--stage``, put in each store's approval queue one
batch each."""

from __future__ import annotations

import click

from ..curated.entries import FILENAMES, entry_handle, preview
from ..curated.scope import ProjectHome
from ..curated.snapshot import sanitize
from ..curated.view import MemoryView
from ..home import Home
from ..llm.select import client_from_settings
from ..ops.tidy import Staged, StoreTidy, TidyProposal, tidy_stores, waiting_in
from ..sessions import embedder_loader_for
from .app import (
    GLOBAL_OPT,
    JSON_OPT,
    AppContext,
    counted,
    emit_json,
    fail,
    handle_errors,
    paged,
    pass_app,
    printable,
    project_opt,
    spanned_stores,
)
from .memory import TARGETS_OPT, scoped_targets

__all__ = ["tidy"]


def _show(p: TidyProposal, staged: Staged | None, indent: str = "", skip: str = "") -> None:
    """One proposal, its lines under its store's heading (``indent``) when there is one;
    ``skip``, listed without --stage: why --stage would pass it over."""
    lines = [f"[{p.fingerprint}] {p.kind}: {printable(p.summary)}"]
    roles = {"merge": "keep", "supersede": "keep", "stale": "drop"}
    for i, entry in enumerate(p.entries):
        role = roles.get(p.kind, "entry") if i == 0 else "drop"
        lines.append(f"    {role}: {printable(entry)}".replace("\n", "\n          "))
    if p.result is not None and p.result != p.entries[0]:
        lines.append(f"    new wording ({p.wording}): {printable(p.result)}")
    for reason in p.reasons:
        lines.append(f"    why: {printable(reason)}")
    if staged is not None:
        if staged.pending_id:
            lines.append(f"    staged for approval as {staged.pending_id}")
        else:
            lines.append(f"    not staged: {printable(staged.skipped or '')}")
    elif skip:  # as the console's Tidy page marks it (docs/first-week.md #30)
        lines.append(f"    --stage passes it over: {printable(skip)}")
    for line in lines:
        click.echo(indent + line.replace("\n", "\n" + indent))


@click.command(name="tidy")
@TARGETS_OPT
@click.option("--llm", "use_llm", is_flag=True, help="Ask the [llm] endpoint for better wording.")
@click.option("--stage", "do_stage", is_flag=True, help="Put each proposal in the approval queue.")
@click.option("--lexical", is_flag=True, help="Compare entries by their words only (no embedder).")
@click.option(
    "--explain",
    "explain",
    nargs=2,
    metavar="A B",
    default=None,
    help="Say why tidy proposes, or does not propose, anything for entries A and B "
    "(each a unique piece of the entry's text or its entry:<hex> handle).",
)
@GLOBAL_OPT
@JSON_OPT
@project_opt("Project DIR's memory only (default: the global memory and every project store).")
@pass_app
@handle_errors
def tidy(
    app: AppContext,
    target: str | None,
    use_llm: bool,
    do_stage: bool,
    lexical: bool,
    explain: tuple[str, str] | None,
    global_only: bool,
    as_json: bool,
) -> None:
    """Propose to merge near-duplicates, supersede contradicted entries with the newer
    one, drop stale entries and shorten long ones. It looks at the global memory and
    every project store (--global or --project DIR: one of them). Offline by default (by
    meaning too with mnemic[semantic]); nothing changes: --stage puts each proposal in its
    store's approval queue (`mnemic pending` lists every store's), where approving it
    applies it to that store, and only if its entries are still exactly as they were.

    \b
    Examples:
      mnemic memory tidy                      see the proposals
      mnemic memory tidy --stage              queue them for approval
      mnemic pending list                     then review them
      mnemic pending approve ID               and apply one (or: all)
      mnemic memory tidy --explain "Bus 42" "Bus 24"   why not these two?
    """
    if explain is not None:
        if do_stage or use_llm:
            raise click.UsageError(
                "--explain reads one pair and changes nothing; leave out --stage and --llm."
            )
        _explain(app, target, global_only, lexical, as_json, explain)
        return
    home = app.home if do_stage else app.existing_home
    stores = spanned_stores(app, global_only, write=do_stage)
    client = None
    if use_llm:
        settings = home.settings.llm
        client = client_from_settings(settings, check_extra="mnemic memory tidy --llm")
    targets = scoped_targets(app, target)
    runs = tidy_stores(
        stores,
        targets=targets,
        embedder_loader=None if lexical else embedder_loader_for(home),
        client=client,
        timeout=home.settings.llm.timeout,
        do_stage=do_stage,
    )
    skips = [{} if do_stage else waiting_in(r.store, r.report.proposals) for r in runs]
    if as_json:
        first, *rest = [_as_dict(r, skip, do_stage) for r, skip in zip(runs, skips, strict=True)]
        emit_json({**first, "projects": rest})
        return
    notices = dict.fromkeys(n for r in runs for n in r.report.notices)
    for notice in notices:
        click.echo(f"note: {printable(notice)}", err=True)
    with paged():  # hundreds of proposals: through the pager on a terminal
        for run, skip in zip(runs, skips, strict=True):
            _show_store(run, skip, labelled=len(runs) > 1 or run.project is not None)
        how = "words and rules" + (
            ", and by meaning" if runs[0].report.retrieval == "semantic" else ""
        )
        click.echo(f"\n(Entries compared by {how}.)")
        if any(r.report.proposals for r in runs):
            click.echo(
                "[ID] names a proposal; staged, it gets a pending id of its own (`staged for "
                "approval as ...`), and `mnemic pending show` names both."
            )
        fresh = any(
            p.fingerprint not in skip
            for r, skip in zip(runs, skips, strict=True)
            for p in r.report.proposals
        )
        if fresh and not do_stage:
            click.echo(
                "Nothing was changed. Stage them for approval with --stage, then review: "
                "mnemic pending list"
            )
        elif any(r.report.proposals for r in runs) and not do_stage:
            click.echo("Nothing was changed, and --stage would pass every one over.")
        if not do_stage and any("rejected" in why for skip in skips for why in skip.values()):
            click.echo(  # what a person who rejected one may want instead (first-week #90)
                "A proposal you rejected stays listed here: to keep one of its entries "
                "yourself, `mnemic memory remove` the other (the archive keeps it)."
            )
        staged = sum(1 for r in runs for s in r.staged or () if s.pending_id)
        if do_stage and staged:
            click.echo(
                f"Staged {counted(staged, 'proposal')} for approval; nothing is changed until "
                "one is approved. Review: mnemic pending diff ID   Apply: mnemic pending approve "
                "ID|all   Drop: mnemic pending reject ID|all"
            )


def _as_dict(run: StoreTidy, skip: dict[str, str], do_stage: bool) -> dict[str, object]:
    """One store's JSON; listed without --stage, each proposal's ``waiting``: why --stage
    would pass it over (``null``: it would stage it)."""
    data = run.as_dict()
    if not do_stage:
        for p, d in zip(run.report.proposals, data["proposals"], strict=True):
            d["waiting"] = skip.get(p.fingerprint)
    return data


def _show_store(run: StoreTidy, skip: dict[str, str], *, labelled: bool) -> None:
    """One store's proposals, under a line naming the store when there are several."""
    indent = ""
    if labelled:
        where = "Global memory" if run.project is None else f"Project {run.project}"
        click.echo(f"{printable(where, lines=False)}:")
        indent = "  "
    by_proposal = {id(s.proposal): s for s in run.staged or []}
    for t in run.targets:
        mine = [p for p in run.report.proposals if p.target == t]
        click.echo(f"{indent}{FILENAMES[t]}: {len(mine) or 'no'} proposal{'s' * (len(mine) != 1)}")
        for p in mine:
            _show(p, by_proposal.get(id(p)), indent, skip.get(p.fingerprint, ""))


def _store_name(store: Home) -> str:
    """A store's name for a person: "the global memory", "project /path"."""
    if isinstance(store, ProjectHome):
        return f"project {store.project.path or store.project.id}"
    return "the global memory"


def _where(store: Home, target: str) -> str:
    """A store's and target's name for a person: "MEMORY.md of the global memory"."""
    return f"{FILENAMES[target]} of {_store_name(store)}"


def _matches(selector: str, entries: list[str]) -> list[int]:
    """The entries ``selector`` names: the whole text, its handle, or a piece of it."""
    sel = selector.strip()
    exact = [i for i, e in enumerate(entries) if e == sel or entry_handle(e) == sel]
    if exact:
        return exact[:1]
    hits = [i for i, e in enumerate(entries) if sel and sel in e]
    return hits if len({entries[i] for i in hits}) > 1 else hits[:1]


def _explain(
    app: AppContext,
    target: str | None,
    global_only: bool,
    lexical: bool,
    as_json: bool,
    selectors: tuple[str, str],
) -> None:
    """``--explain A B``: find each entry in the stores and targets in scope, then say
    what tidy proposes for the pair and why (:func:`mnemic.ops.tidy.explain.explain_pair`)."""
    from ..ops.tidy.explain import explain_pair  # only --explain reads it

    home = app.existing_home
    stores = spanned_stores(app, global_only)
    targets = scoped_targets(app, target)
    found: list[list[tuple[Home, str, int, MemoryView]]] = [[], []]
    for store in stores:
        view = MemoryView.open(store)
        for t in targets:
            if t == "user" and isinstance(store, ProjectHome):
                continue
            entries = list(view.listing(t).entries)
            hidden = {i: h for i, h, _ in sanitize(t, entries, view.level).blocked}
            for k, selector in enumerate(selectors):
                hits = _matches(selector, entries)
                if len(hits) > 1:
                    shown = "".join(
                        f"\n  - {hidden.get(h) or printable(preview(entries[h], 70))}" for h in hits
                    )
                    fail(
                        f"{selector!r} matches {len(hits)} entries of {_where(store, t)}:"
                        f"{shown}\nGive a longer piece of one, or its entry:<hex> handle "
                        "(`mnemic memory show --json` lists the entries).",
                        2,
                    )
                found[k] += [(store, t, h, view) for h in hits]
    for k, selector in enumerate(selectors):
        if not found[k]:
            where = (
                f"the {len(stores)} stores (the global memory and each project's)"
                if len(stores) > 1
                else _store_name(stores[0])
            ) + f" ({', '.join(FILENAMES[t] for t in targets)})"
            fail(
                f"No entry of {where} matches {selector!r}. Give a piece of the entry's "
                "text as `mnemic memory show` prints it (case counts), or its entry:<hex> "
                "handle (`mnemic memory show --json` lists them).",
                2,
            )
        if len(found[k]) > 1:
            where = ", ".join(_where(s, t) for s, t, _, _ in found[k])
            fail(
                f"{selector!r} matches an entry in several places ({where}). Name the "
                "store with --global or --project DIR, or the file with --target.",
                2,
            )
    (sa, ta, ia, view), (sb, tb, ib, _) = found[0][0], found[1][0]
    if sa is sb and ta == tb and ia == ib:
        fail(
            f"{selectors[0]!r} and {selectors[1]!r} name the same entry. Name two "
            "different entries.",
            2,
        )
    if sa is not sb or ta != tb:
        fail(
            f"{selectors[0]!r} is in {_where(sa, ta)} and {selectors[1]!r} in "
            f"{_where(sb, tb)}: tidy compares the entries of one file of one store only, "
            "so it never proposes anything for these two. To have them compared, move "
            "one (`mnemic memory move`).",
            2,
        )
    result = explain_pair(
        view, ta, ia, ib, embedder_loader=None if lexical else embedder_loader_for(home)
    )
    if as_json:
        data = result.as_dict()
        data["scope"] = "project" if isinstance(sa, ProjectHome) else "global"
        data["project"] = sa.project.path if isinstance(sa, ProjectHome) else None
        emit_json(data)
        return
    for notice in result.notices:
        click.echo(f"note: {printable(notice)}", err=True)
    click.echo(f"In {printable(_where(sa, ta), lines=False)}:")
    for label, entry in zip("AB", result.shown, strict=True):
        click.echo(f"  {label}: {printable(entry)}".replace("\n", "\n     "))
    click.echo(result.headline)
    for reason in result.why:
        click.echo(f"  why: {printable(reason)}")
    step = result.next_step()
    if step:
        click.echo(step)
