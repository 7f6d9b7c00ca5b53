"""``mnemic memory tidy``: proposals to merge, supersede, drop and shorten entries, in the
global memory and every project store (``--global`` / ``--project DIR``: one store);
printed (nothing changes) or, with ``--stage``, put in each store's approval queue one
batch each."""

from __future__ import annotations

import click

from ..curated.entries import FILENAMES
from ..llm.select import client_from_settings
from ..ops.tidy import Staged, StoreTidy, TidyProposal, tidy_stores
from ..sessions import embedder_loader_for
from .app import (
    GLOBAL_OPT,
    JSON_OPT,
    AppContext,
    counted,
    emit_json,
    handle_errors,
    pass_app,
    printable,
    project_opt,
    spanned_stores,
)
from .memory import TARGETS_OPT, scoped_targets

__all__ = ["tidy"]


def _show(p: TidyProposal, staged: Staged | None, indent: str = "") -> None:
    """One proposal, its lines under its store's heading (``indent``) when there is one."""
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
    for line in lines:
        click.echo(indent + line.replace("\n", "\n" + indent))


@click.command(name="tidy")
@TARGETS_OPT
@click.option("--llm", "use_llm", is_flag=True, help="Ask the [llm] endpoint for better wording.")
@click.option("--stage", "do_stage", is_flag=True, help="Put each proposal in the approval queue.")
@click.option("--lexical", is_flag=True, help="Compare entries by their words only (no embedder).")
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
    """
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
    if as_json:
        first, *rest = runs
        data = first.as_dict()
        data["projects"] = [r.as_dict() for r in rest]
        emit_json(data)
        return
    notices = dict.fromkeys(n for r in runs for n in r.report.notices)
    for notice in notices:
        click.echo(f"note: {printable(notice)}", err=True)
    for run in runs:
        _show_store(run, labelled=len(runs) > 1 or run.project is not None)
    how = "words and rules" + (", and by meaning" if runs[0].report.retrieval == "semantic" else "")
    click.echo(f"\n(Entries compared by {how}.)")
    if any(r.report.proposals for r in runs):
        click.echo(
            "[ID] names a proposal; staged, it gets a pending id of its own (`staged for "
            "approval as ...`), and `mnemic pending show` names both."
        )
    if any(r.report.proposals for r in runs) and not do_stage:
        click.echo(
            "Nothing was changed. Stage them for approval with --stage, then review: "
            "mnemic pending list"
        )
    staged = sum(1 for r in runs for s in r.staged or () if s.pending_id)
    if do_stage and staged:
        click.echo(
            f"Staged {counted(staged, 'proposal')} for approval; nothing is changed until "
            "one is approved. Review: mnemic pending diff ID   Apply: mnemic pending approve "
            "ID|all   Drop: mnemic pending reject ID|all"
        )


def _show_store(run: StoreTidy, *, labelled: bool) -> None:
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
            _show(p, by_proposal.get(id(p)), indent)
