"""What the ``memory`` tool answers: a success, a staged write, a read, an archive
search, and the refusal enriched with what the model needs to recover (the entries
when it must pick one, usage, changes others made). Built here for :mod:`.tool`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import InvalidArgument, MnemicError, StorageError, ToolError
from ..governance.held import held_for_model, waiting_note
from ..tooling import staged_response
from .entries import FILENAMES, entry_handle
from .memory import Changes, Memory, WriteResult
from .pressure import add_candidates, policy
from .provenance import brief
from .snapshot import display_entry
from .store import check_target
from .usage import Usage

ArchiveSearcher = Callable[[Memory, str, "str | None"], dict[str, Any]]
"""``search(memory, query, target)``: the archived entries that match, as the
``archive_search`` action answers (the tool set passes
:func:`mnemic.ops.archive_search.search_archive`; without one, entries sharing a word
with the query, newest first)."""

__all__ = [
    "ArchiveSearcher",
    "archive_answer",
    "display_entries",
    "read_answer",
    "refusal",
    "staged",
    "success",
]


def display_entries(memory: Memory, target: str) -> list[str] | None:
    try:
        live = memory.store.load(target)
    except StorageError:
        return None
    return [display_entry(target, e, memory.level)[0] for e in live]


_WANTS_ENTRIES = {
    "no_match",
    "budget_exceeded",
    "batch_failed",
    "would_empty_target",
    "ambiguous_match",
}


def refusal(memory: Memory, target: str | None, exc: ToolError) -> ToolError:
    """``exc``, with what the model needs to recover added to its response: the current
    entries and usage of ``target`` when it must pick an entry, and the changes others
    made to it meanwhile."""
    resp = exc.to_response()
    if target is None or resp.get("done"):
        return exc
    wants = exc.code in _WANTS_ENTRIES or (
        exc.code == "invalid_argument" and getattr(exc, "field", "") == "old_text"
    )
    if resp.get("cause_code") in ("threat_blocked", "content_rejected"):
        wants = False
    if "entry_chars" in resp:  # one entry longer than the budget: nothing to pick from
        wants = False
    if wants:
        shown = display_entries(memory, target)
        if shown is not None:
            exc.extra["current_entries"] = shown
            exc.extra["usage"] = memory.usage(target).line()
        add_candidates(memory, exc)
    try:
        changes = memory.poll_external_changes()
    except MnemicError:
        changes = []
    for ch in changes:
        if ch.target == target:
            exc.extra["external_changes"] = ch.as_dict()
    return exc


def _state_notes(
    memory: Memory, resp: dict[str, Any], usage: Usage, changes: Changes | None
) -> dict[str, Any]:
    """``resp`` with the pressure warning of ``usage`` and the changes others made, when
    there are any (every answer that shows a target's state ends with them)."""
    warning = usage.pressure_note(
        memory.settings.memory.pressure_ratio, evicts=policy(memory, usage.target) != "refuse"
    )
    if warning:
        resp["warning"] = warning
    if changes is not None:
        resp["external_changes"] = changes.as_dict()
    return resp


def staged(result: WriteResult) -> dict[str, Any]:
    resp = staged_response(
        str(result.pending_id),
        {"target": result.target, "action": result.action},
        change="this change",
        unchanged="Memory",
        approve_hint=True,
        held=held_for_model(result.held),
        again=result.again,
    )
    resp["usage"] = result.usage.line()
    return resp


def success(memory: Memory, result: WriteResult) -> dict[str, Any]:
    if result.staged:
        return staged(result)
    usage = result.usage
    resp: dict[str, Any] = {
        "success": True,
        "done": True,
        "target": result.target,
        "action": result.action,
        "message": result.message,
        "usage": usage.line(),
        "entry_count": usage.entries,
        "tokens_estimate": usage.tokens,
    }
    if result.written:
        resp["note"] = (
            "Saved. This change is complete; do not repeat it. It appears in the system "
            "prompt from the next session on."
        )
    else:
        resp["note"] = "Nothing needed to change; do not repeat this call."

    def show(entry: str, target: str = "") -> str:
        return display_entry(target or result.target, entry, memory.level)[0]

    if result.action == "replace" and result.results[0].previous is not None:
        resp["replaced_entry"] = show(result.results[0].previous, result.results[0].target)
    elif result.action == "remove" and result.results[0].previous is not None:
        resp["removed_entry"] = show(result.results[0].previous, result.results[0].target)
    elif result.action == "batch":
        replaced = {
            str(i): show(r.previous, r.target)
            for i, r in enumerate(result.results, 1)
            if r.status == "replaced" and r.previous is not None
        }
        # an entry the batch took out and added back stayed where it was: not removed
        back = {(r.target, r.entry) for r in result.results if r.status == "added"}
        removed = {
            str(i): show(r.previous, r.target)
            for i, r in enumerate(result.results, 1)
            if r.status == "removed"
            and r.previous is not None
            and (r.target, r.previous) not in back
        }
        if replaced:
            resp["replaced_entries"] = replaced
        if removed:
            resp["removed_entries"] = removed
    if result.evicted:
        from .archive import archived_now  # the archive's fold: only when entries left

        # the archive id is the journal record's, known now that the write committed
        ids = archived_now(memory, [(t, e) for t, e, _ in result.evicted])
        resp["evicted"] = [
            {"target": t, "handle": entry_handle(e), "entry": show(e, t), "reason": why}
            | ({"archive_id": aid} if aid else {})
            for (t, e, why), aid in zip(result.evicted, ids, strict=True)
        ]
        resp["evicted_note"] = (
            f"To make room, {len(result.evicted)} entr"
            f"{'y was' if len(result.evicted) == 1 else 'ies were'} moved to the archive "
            "(the memory's on_full policy; listed in evicted). Nothing is lost: "
            "archive_search finds them, and adding the text again brings one back."
        )
    _state_notes(memory, resp, usage, result.external_changes)
    if result.others:
        resp["other_targets"] = [_other(memory, other) for other in result.others]
    return resp


def _other(memory: Memory, result: WriteResult) -> dict[str, Any]:
    """The second file of a batch that spans both targets."""
    out: dict[str, Any] = {
        "target": result.target,
        "usage": result.usage.line(),
        "entry_count": result.usage.entries,
        "tokens_estimate": result.usage.tokens,
    }
    return _state_notes(memory, out, result.usage, result.external_changes)


def read_answer(memory: Memory, target: str) -> dict[str, Any]:
    res = memory.read(target)
    resp: dict[str, Any] = {
        "success": True,
        "target": target,
        "entries": list(res.entries),
        "provenance": [brief(p) for p in res.provenance],
        "usage": res.usage.line(),
        "entry_count": res.usage.entries,
        "tokens_estimate": res.usage.tokens,
    }
    if res.blocked:
        resp["blocked_entries"] = list(res.blocked)
    if res.differs_from_snapshot:
        resp["note"] = (
            "These live entries differ from the snapshot in your system prompt (changes "
            "since session start); the live entries are current."
        )
    waiting = _waiting(memory, target)
    if waiting:
        resp["pending"] = len(waiting)
        resp["pending_ids"] = waiting
        resp["pending_note"] = waiting_note(waiting, FILENAMES[target])
    return _state_notes(memory, resp, res.usage, res.external_changes)


def _waiting(memory: Memory, target: str) -> list[str]:
    """The ids of the live (unexpired) writes of this store's queue that touch ``target``,
    oldest first (none: an ungoverned memory, or a queue that cannot be read: what a read
    shows must not depend on it)."""
    gov = memory.governor
    if gov is None:
        return []
    try:
        records = gov.pending("memory").listing().records
    except MnemicError:
        return []
    now = memory.now()
    live = [r for r in records if not r.expired(now) and target in r.targets]
    return [r.id for r in sorted(live, key=lambda r: (r.created_at, r.id))]


def archive_answer(
    memory: Memory, args: dict[str, Any], search: ArchiveSearcher | None
) -> dict[str, Any]:
    """The answer of ``archive_search``: archived entries that match ``query``."""
    unknown = sorted(set(args) - {"action", "query", "target"})
    if unknown:
        raise InvalidArgument(
            unknown[0], f"archive_search takes query and target only, not {unknown[0]!r}."
        )
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        raise InvalidArgument(
            "query", 'archive_search needs query: a few words, e.g. "staging database host".'
        )
    target = args.get("target")
    if target is not None:
        target = check_target(target)
    found = (search or _word_search)(memory, query, target)
    hits = found.get("results", [])
    back = any(hit.get("in_memory") for hit in hits)  # added back: live again
    if found.get("no_good_match"):
        note = "Nothing archived is close to the query; it was never saved, or it was forgotten."
    elif back:
        note = (
            "A result with in_memory: true was added back and is in memory now (do not add "
            "it again); the others are not in memory: add one's text again to bring it back."
        )
    elif hits:
        note = "Archived entries are not in memory; add one's text again to bring it back."
    else:
        note = "Nothing in the archive matches; it was never saved, or it was forgotten."
    return {"success": True, **found, "note": note, "done": True}


def _word_search(memory: Memory, query: str, target: str | None) -> dict[str, Any]:
    from .archive import archive_listing

    words = {w.casefold() for w in query.split()}
    results = []
    found = archive_listing(memory, target)
    for item in found.items:
        if item.text is None:
            continue
        shown, blocked = display_entry(item.target, item.text, memory.level)
        if not blocked and words & {w.casefold() for w in shown.split()}:
            hit: dict[str, Any] = {
                "id": item.id,
                "target": item.target,
                "text": shown,
                "reason": item.reason,
            }
            if found.in_memory(item):  # added back, as the searchers' results mark it
                hit["in_memory"] = True
            results.append(hit)
        if len(results) == 5:
            break
    return {"retrieval": "lexical", "results": results}
