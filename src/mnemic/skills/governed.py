"""Skill writes through the approval gate and into the audit journal.

The skills engineer's ``skill_manage`` tool accepts a gate
(:data:`mnemic.skills.tools.SkillGate`): it prepares the change against the current
state (so a change that could never apply is refused before anyone is asked) and hands
the prepared change to the gate. :class:`GovernedSkills` is that gate for one session:

- the policy is ``approval.skills_<actor>`` (default: stage for unattended writers);
- creating a skill or a new supporting file is additive; edit, patch, delete, remove_file
  and overwriting a file replace or remove, so an unattended writer's ``allow`` stages
  them;
- a staged change is kept *pinned* (:meth:`PreparedChange.pinned`): approving it applies
  it through the store's normal path (lock, prepare again, scan, atomic write) and fails
  cleanly with ``skill_changed`` if a file it touches changed since it was staged (an
  edit replaces the whole file, so it must not land on text nobody reviewed);
- every attempt appends one audit record (hashes of the touched files before and after).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import MnemicError, ToolError
from ..governance.approval import Approver, Proposal
from ..governance.governor import Attempt, Governor
from ..governance.held import held_for_model
from ..governance.pending import PendingRecord
from ..home import Home
from ..scan import scan_text
from ..tooling import staged_response, tool_response
from .changes import ChangeResult, PreparedChange, SkillChange
from .search import TextRanker
from .store import SkillStore
from .tools import skill_call

__all__ = ["GovernedSkills", "apply_staged_skill", "skill_store_for"]


def skill_store_for(governor: Governor) -> SkillStore:
    """The skill store of the governor's home."""

    root, settings = governor.root, governor.settings
    return SkillStore(root / "skills", settings.skills, base=root, scan_level=settings.scan.level)


def _keyed(ref: str, digests: Any) -> dict[str, str | None]:
    return {f"{ref}/{rel}": value for rel, value in dict(digests).items()}


def _destructive(prepared: PreparedChange) -> bool:
    action = prepared.change.action
    if action == "create":
        return False
    if action == "write_file":
        return any(prepared.before.get(rel) is not None for rel, _ in prepared.writes)
    return True


def _held(prepared: PreparedChange, level: str | None) -> str:
    """Why the threat scanner holds the text this change writes ("" when it does not),
    at ``level`` (the home's ``[scan] level``)."""
    reasons = []
    for rel, text in prepared.writes:
        result = scan_text(text, "skill", level)
        if result.held:
            found = "; ".join(f"{f.id}: {f.detail}" if f.detail else f.id for f in result.holds)
            reasons.append(f"{rel}: {found}")
    return "; ".join(reasons)


def _proposal(prepared: PreparedChange, held: str = "") -> Proposal:
    return Proposal(
        f"[held by the threat scanner] {prepared.gist()}" if held else prepared.gist(),
        f"Held by the threat scanner: {held}\n\n{prepared.preview()}"
        if held
        else prepared.preview(),
        {"change": prepared.pinned().to_dict()},
        _keyed(prepared.ref, prepared.base),
        changes=True,
        preview=prepared,
    )


def _staged_response(
    record: PendingRecord, prepared: PreparedChange, held: str = "", *, again: bool = False
) -> dict[str, Any]:
    about = {"action": prepared.change.action, "skill": prepared.ref, "gist": prepared.gist()}
    return staged_response(
        record.id,
        about,
        change="this skill change",
        unchanged="The skill",
        approve_hint=True,
        held=held_for_model(held),
        again=again,
    )


class GovernedSkills:
    """The skill tools of one session, behind its approval gate and audit journal."""

    def __init__(self, governor: Governor, store: SkillStore | None = None) -> None:
        self.governor = governor
        self.store = store or skill_store_for(governor)

    @classmethod
    def open(
        cls,
        home: Home | str | Path | None = None,
        *,
        actor: str | None = None,
        origin: str | None = None,
        session_id: str | None = None,
        approver: Approver | None = None,
        clock: Callable[[], float] | None = None,
    ) -> GovernedSkills:
        """The governed skill tools of a home for a session of ``actor``."""

        if not isinstance(home, Home):
            home = Home.open(home)
        gov = Governor.for_home(
            home, actor=actor, origin=origin, session_id=session_id, approver=approver, clock=clock
        )
        return cls(gov)

    def tool(
        self,
        tool: str,
        arguments: str | dict[str, Any] | None,
        *,
        ranker: TextRanker | None = None,
    ) -> dict[str, Any]:
        """Run one ``skills_list`` / ``skill_view`` / ``skill_manage`` call and return its
        response, a refusal's included (never raises: :meth:`call` through
        :func:`~mnemic.tooling.tool_response`)."""
        return tool_response(tool, lambda: self.call(tool, arguments, ranker=ranker))

    def call(
        self,
        tool: str,
        arguments: str | dict[str, Any] | None,
        *,
        ranker: TextRanker | None = None,
    ) -> dict[str, Any]:
        """Run one ``skills_list`` / ``skill_view`` / ``skill_manage`` call: its success
        response (a write staged for approval is one); a refusal is raised, audited
        first (what the tool registry dispatches: one envelope for every tool).

        ``ranker`` ranks ``skills_list``'s ``query`` by words and meaning (see
        :func:`~mnemic.skills.tools.skill_call`).
        """

        if tool != "skill_manage":
            return skill_call(self.store, tool, arguments, ranker=ranker)
        seen: dict[str, Any] = {}

        def gate(change: SkillChange, prepared: PreparedChange) -> dict[str, Any] | None:
            attempt = self.governor.attempt(
                "skills",
                change.action,
                [prepared.ref],
                hashes=lambda: _keyed(prepared.ref, self.store.digests(change)),
            )
            seen.update(attempt=attempt, prepared=prepared, change=change)
            held = _held(prepared, self.store.scan_level)
            try:
                verdict = self.governor.gate.check(
                    "skills",
                    destructive=_destructive(prepared),
                    propose=lambda: _proposal(prepared, held),
                    note=attempt.note,
                    hold=held,
                )
            except MnemicError as exc:
                attempt.refused(exc)
                raise
            if verdict.apply:
                return None
            assert verdict.record is not None
            attempt.staged(verdict.record, again=verdict.again)
            return _staged_response(verdict.record, prepared, held, again=verdict.again)

        try:
            resp = skill_call(self.store, tool, arguments, gate=gate)
        except Exception as exc:
            code = exc.code if isinstance(exc, MnemicError) else "internal_error"
            attempt: Attempt | None = seen.get("attempt")
            if attempt is None:  # refused before the gate: bad arguments, cannot apply now
                name = arguments.get("name") if isinstance(arguments, dict) else None
                action = arguments.get("action") if isinstance(arguments, dict) else None
                early = self.governor.attempt(
                    "skills", str(action or "call"), [str(name)] if name else []
                )
                early.failed_with(code)
            elif not attempt.done:
                attempt.failed_with(code)
            raise
        attempt = seen.get("attempt")
        if attempt is not None and not attempt.done:
            prepared = seen["prepared"]
            attempt.applied(
                _keyed(prepared.ref, prepared.base),
                _keyed(prepared.ref, self.store.digests(seen["change"])),
                written=True,
            )
        return resp

    def apply_manual(self, change: SkillChange) -> ChangeResult:
        """Apply a change a person makes directly (``mnemic skills create/edit/delete``):
        no gate (the person decides), but audited like every other write."""
        try:
            ref = self.store.prepare(change).ref
        except MnemicError:
            ref = change.name
        attempt = self.governor.attempt(
            "skills",
            change.action,
            [ref],
            hashes=lambda: _keyed(ref, self.store.digests(change)),
        )
        attempt.note("manual")
        before = _keyed(ref, self.store.digests(change))
        try:
            result = self.store.apply(change)
        except Exception as exc:
            attempt.refused(exc)
            raise
        attempt.applied(before, _keyed(result.ref, self.store.digests(change)), written=True)
        return result


def apply_staged_skill(governor: Governor, record: PendingRecord) -> ChangeResult:
    """Apply an approved pending skill change (raises the store's typed errors)."""

    store = skill_store_for(governor)
    change = SkillChange.from_dict(record.payload.get("change"))
    ref = record.targets[0].rsplit("/", 1)[0] if record.targets else change.name
    attempt = governor.attempt(
        "skills", "approve", record.targets, hashes=lambda: _keyed(ref, store.digests(change))
    )
    attempt.pending_id = record.id
    attempt.note("approved")
    before = _keyed(ref, store.digests(change))
    try:
        result = store.apply(change)
    except Exception as exc:
        attempt.refused(exc)
        raise
    attempt.applied(before, _keyed(ref, store.digests(change)), written=True)
    return result


def staged_skill_diff(governor: Governor, record: PendingRecord) -> tuple[str, bool]:
    """(what approving would change now, whether the files changed since staging)."""

    store = skill_store_for(governor)
    change = SkillChange.from_dict(record.payload.get("change"))
    ref = record.targets[0].rsplit("/", 1)[0] if record.targets else change.name
    changed = _keyed(ref, store.digests(change)) != record.base
    try:
        return store.prepare(change).preview(), changed
    except ToolError as exc:
        return f"It cannot be applied now: {exc.to_llm()}\n\nAs staged:\n{record.detail}", changed
