"""``mnemic memory tidy``: proposals to merge, supersede, drop and shorten entries; printed
(nothing changes) or, with ``--stage``, put in the approval queue one batch each."""

from __future__ import annotations

import click

from ..curated.entries import FILENAMES
from ..curated.memory import Memory
from ..curated.view import MemoryView
from ..llm.select import client_from_settings
from ..ops.tidy import Staged, TidyProposal, propose, stage
from ..sessions import embedder_loader_for
from .app import JSON_OPT, PROJECT_OPT, AppContext, emit_json, handle_errors, pass_app, printable
from .memory import TARGETS_OPT, scoped_targets

__all__ = ["tidy"]


def _show(p: TidyProposal, staged: Staged | None) -> None:
    click.echo(f"[{p.fingerprint}] {p.kind}: {printable(p.summary)}")
    roles = {"merge": "keep", "supersede": "keep", "stale": "drop"}
    for i, entry in enumerate(p.entries):
        role = roles.get(p.kind, "entry") if i == 0 else "drop"
        click.echo(f"    {role}: {printable(entry)}".replace("\n", "\n          "))
    if p.result is not None and p.result != p.entries[0]:
        click.echo(f"    new wording ({p.wording}): {printable(p.result)}")
    for reason in p.reasons:
        click.echo(f"    why: {printable(reason)}")
    if staged is not None:
        if staged.pending_id:
            click.echo(f"    staged for approval as {staged.pending_id}")
        else:
            click.echo(f"    not staged: {printable(staged.skipped or '')}")


@click.command(name="tidy")
@TARGETS_OPT
@click.option("--llm", "use_llm", is_flag=True, help="Ask the [llm] endpoint for better wording.")
@click.option("--stage", "do_stage", is_flag=True, help="Put each proposal in the approval queue.")
@click.option("--lexical", is_flag=True, help="Compare entries by their words only (no embedder).")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def tidy(
    app: AppContext,
    target: str | None,
    use_llm: bool,
    do_stage: bool,
    lexical: bool,
    as_json: bool,
) -> None:
    """Propose to merge near-duplicates, supersede contradicted entries with the newer
    one, drop stale entries and shorten long ones. Offline by default (by meaning too
    with mnemic[semantic]); nothing changes: --stage puts each proposal in the approval
    queue (`mnemic pending`), where approving it applies it, and only if its entries are
    still exactly as they were."""
    home = app.home if do_stage else app.existing_home
    client = None
    if use_llm:
        settings = home.settings.llm
        client = client_from_settings(settings, check_extra="mnemic memory tidy --llm")
    report = propose(
        MemoryView.open(app.memory_home(write=do_stage)),
        targets=scoped_targets(app, target),
        embedder_loader=None if lexical else embedder_loader_for(home),
        client=client,
        timeout=home.settings.llm.timeout,
    )
    staged: list[Staged] = []
    if do_stage:
        staged = stage(Memory.open(app.memory_home(write=True), origin="cli"), report.proposals)
    if as_json:
        data = report.as_dict()
        if do_stage:
            data["staged"] = [s.as_dict() for s in staged]
        emit_json(data)
        return
    for notice in report.notices:
        click.echo(f"note: {printable(notice)}", err=True)
    by_proposal = {id(s.proposal): s for s in staged}
    for t in scoped_targets(app, target):
        mine = [p for p in report.proposals if p.target == t]
        click.echo(f"{FILENAMES[t]}: {len(mine) or 'no'} proposal{'s' * (len(mine) != 1)}")
        for p in mine:
            _show(p, by_proposal.get(id(p)))
    how = "words and rules" + (", and meaning" if report.retrieval == "semantic" else "")
    click.echo(f"\n(Entries compared by {how}.)")
    if report.proposals and not do_stage:
        click.echo(
            "Nothing was changed. Stage them for approval with --stage, then review: "
            "mnemic pending list"
        )
