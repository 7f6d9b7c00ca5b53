"""Refusals of changes to curated memory (MEMORY.md and USER.md), under :class:`CuratedError`."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from ._base import ToolError, _fmt, _preview


class CuratedError(ToolError):
    """A change to curated memory (MEMORY.md or USER.md) was refused; nothing was saved."""

    code = "curated_error"


_DELIMITER = "\n§\n"
"""What separates two entries in a file (:data:`mnemic.curated.entries.DELIMITER`): each
entry removed frees its own chars and one of these."""


def _label(target: str) -> str:
    return "USER PROFILE" if target == "user" else "MEMORY"


def _file(target: str) -> str:
    return "USER.md" if target == "user" else "MEMORY.md"


def _is_handle(selector: str) -> bool:
    """Whether ``selector`` is an entry handle (``entry:`` and 8 hex digits, as
    :func:`mnemic.curated.entries.entry_handle` makes them) rather than a piece of text."""
    head, _, digits = selector.partition(":")
    return head == "entry" and len(digits) == 8 and all(c in "0123456789abcdef" for c in digits)


class ContentRejected(CuratedError):
    """Content cannot be stored as an entry (delimiter inside it, control characters...)."""

    code = "content_rejected"

    def __init__(self, reason: str, message: str, **extra: Any) -> None:
        self.reason = reason
        super().__init__(message, **extra)

    def to_human(self) -> str:
        if self.reason == "empty":
            return "The entry text is empty. Nothing was saved (`mnemic memory remove` deletes)."
        if self.reason == "delimiter":
            return (
                "The text contains the entry delimiter (a line holding only '§'), which would "
                "split it into several entries. Nothing was saved. Add each fact on its own "
                "(one `mnemic memory add` each), or drop the '§' line."
            )
        if self.reason in ("control_character", "not_utf8"):  # "<field> contains ..."
            said = self.message.partition(" ")[2]
            return f"The entry text {said} Nothing was saved."
        if self.reason == "placeholder":
            return (
                "The text contains '[BLOCKED' (or a look-alike of it), the placeholder mnemic "
                "shows for a hidden entry; it is not an entry. Nothing was saved. Write the "
                "fact itself; to say something was blocked, leave out the bracket."
            )
        return self.message


class BudgetExceeded(CuratedError):
    """The resulting target would exceed its character limit."""

    code = "budget_exceeded"
    counts_as_failure = True

    def __init__(
        self,
        target: str,
        limit: int,
        current: int,
        attempted: int,
        *,
        message: str | None = None,
        entry_chars: int | None = None,
        **extra: Any,
    ) -> None:
        self.target = target
        self.limit = limit
        self.current = current
        self.attempted = attempted
        self.entry_chars = entry_chars
        """Size of the one entry that is longer than the whole budget (else ``None``)."""
        text = message or (
            f"{_label(target)} is at {_fmt(current)}/{_fmt(limit)} chars; this change would "
            f"make it {_fmt(attempted)}/{_fmt(limit)}. Nothing was saved. Consolidate in ONE "
            "call: pass an `operations` list that removes or shortens stale entries (see "
            "current_entries) and then adds the new fact; the limit is checked only on the "
            "final result."
        )
        if entry_chars is not None:
            extra.setdefault("entry_chars", entry_chars)
            extra.setdefault("limit", limit)
        super().__init__(text, **extra)
        self.project: str | None = None
        """The project directory whose store is full, when it is not the global one (set
        by the caller that knows it): the one-step command names it."""
        self.candidates: list[dict[str, Any]] = []
        """The entries best dropped first, each with its ``handle``, ``entry``, ``chars``
        and ``reasons`` (least used, oldest unconfirmed, expired, duplicate of another),
        added by the caller that can read them (:mod:`mnemic.curated.pressure`)."""

    def with_candidates(self, candidates: list[dict[str, Any]]) -> None:
        """Name the entries best dropped first (also in the response: ``candidates``,
        and ``free_at_least``: the chars to free)."""
        self.candidates = list(candidates)
        if self.candidates:
            self.extra["candidates"] = self.candidates
            self.extra["free_at_least"] = max(0, self.attempted - self.limit)

    def _suggestion(self, command: str) -> str:
        if not self.candidates:
            return ""
        picks = "; ".join(
            f"{c['handle']} ({', '.join(c['reasons'])}, {_fmt(int(c['chars']))} chars)"
            for c in self.candidates[:3]
        )
        need = _fmt(max(0, self.attempted - self.limit))
        return f" Best to drop first (free at least {need} chars): {picks}{command}"

    def to_llm(self) -> str:
        return self.message + self._suggestion(
            ". Remove by handle (as old_text, in the same operations list) as many of them "
            "as it takes to free that many chars."
            if self.candidates
            else ""
        )

    def to_human(self) -> str:
        if not self.candidates:
            return self._human()
        enough = self._enough()
        # every entry the one-step command removes is listed with its text: a handle
        # alone in that command (a fourth one, past the three best) names an unseen entry
        text = self._with_candidates(
            self._human(),
            "free at least {need} chars; `mnemic memory remove HANDLE`",
            shown=max(3, len(enough)),
        )
        if enough:  # the one command line that frees the room, as the model's one call does
            flag = " --target user" if self.target == "user" else ""
            if self.project:
                flag += f" --project {shlex.quote(self.project)}"
            freed = sum(int(c["chars"]) + len(_DELIMITER) for c in enough)
            text += (
                f"\nIn one step (frees {_fmt(freed)} chars, all or nothing): mnemic memory "
                f"remove{flag} {' '.join(str(c['handle']) for c in enough)}"
            )
        return text

    def _enough(self) -> list[dict[str, Any]]:
        """The fewest candidates, best first, whose removal frees the room the change
        needs (each frees its chars and one delimiter); empty when the named ones do not."""
        need = max(0, self.attempted - self.limit)
        taken: list[dict[str, Any]] = []
        freed = 0
        for c in self.candidates:
            if freed >= need:
                break
            taken.append(c)
            freed += int(c["chars"]) + len(_DELIMITER)
        return taken if freed >= need else []

    def to_page(self) -> str:
        # The console has a Remove button and an edit form per entry: the same facts as
        # to_human, without commands to type.
        if not self.candidates:
            return self._human(page=True)
        return self._with_candidates(
            self._human(page=True), "free at least {need} chars", page=True
        )

    def page_reasons(self) -> dict[str, str]:
        """By handle, why each of the best candidates is best dropped, in the page's
        words: the console marks those entries in its list, by their Remove buttons."""
        return {
            str(c["handle"]): ", ".join(_reason(c, r, True) for r in c["reasons"])
            for c in self.candidates[:3]
        }

    def _with_candidates(self, text: str, note: str, *, page: bool = False, shown: int = 3) -> str:
        # One line per candidate with the start of its text: a person does not know
        # which entry a bare handle names (`memory show` and the console list no
        # handles), so the entry a duplicate repeats is named by its text too; the page
        # (Remove buttons, no commands) shows no handle at all.
        need = _fmt(max(0, self.attempted - self.limit))
        lines = [
            f"  {'' if page else str(c['handle']) + '  '}{_text_of(c.get('entry'), 60)!r}"
            f"  ({', '.join(_reason(c, r, page) for r in c['reasons'])}, "
            f"{_fmt(int(c['chars']))} chars)"
            for c in self.candidates[:shown]
        ]
        return f"{text}\nBest to drop first ({note.format(need=need)}):\n" + "\n".join(lines)

    def _human(self, *, page: bool = False) -> str:
        name = _file(self.target)
        if self.entry_chars is not None:
            return (
                f"This entry is {_fmt(self.entry_chars)} chars, longer than the whole "
                f"{name} budget of {_fmt(self.limit)} chars, so it can never fit. Nothing was "
                "saved, and splitting it would not help: its parts would still add up to "
                f"{_fmt(self.entry_chars)} chars. Shorten it to what is worth keeping, well "
                f"under {_fmt(self.limit)} chars (it shares the budget with every other entry)."
            )
        if self.current == 0:
            return (
                f"The new text is {_fmt(self.attempted)} chars; {name} holds at most "
                f"{_fmt(self.limit)}. Nothing was saved. Shorten it."
            )
        how = (
            "remove an entry (it goes to the archive) or edit one shorter"
            if page
            else "remove or shorten entries (`mnemic memory remove TEXT`, `mnemic memory "
            "replace OLD NEW` or `mnemic memory edit`)"
        )
        return (
            f"{name} is at {_fmt(self.current)}/{_fmt(self.limit)} chars; this change would "
            f"make it {_fmt(self.attempted)}/{_fmt(self.limit)}. Nothing was saved. Make room "
            f"first: {how}, then retry."
        )


def _text_of(entry: object, width: int) -> str:
    """The start of an entry's text on one line."""
    return _preview(" ".join(str(entry or "").split()), width)


def _reason(candidate: dict[str, Any], reason: str, page: bool) -> str:
    """A candidate's reason for a person: "duplicate of entry:<hex>" names that entry
    by its text too (by its text only on the page)."""
    handle, other = candidate.get("duplicate_of"), candidate.get("duplicate_of_entry")
    if not handle or other is None or reason != f"duplicate of {handle}":
        return reason
    said = repr(_text_of(other, 40))
    return f"duplicate of {said}" if page else f"duplicate of {handle} {said}"


class NoMatch(CuratedError):
    """``old_text`` matched no entry of the target."""

    code = "no_match"
    counts_as_failure = True

    def __init__(self, target: str, selector: str, **extra: Any) -> None:
        self.target = target
        self.selector = selector
        self.project: str | None = None
        """The project directory whose store was searched, when it was not the global
        one (set by the caller that knows it): the hint then shows that store."""
        if _is_handle(selector):
            message = (
                f"No {_label(target)} entry has the handle {selector} now: it is mistyped, "
                "or the entry it named was removed or rewritten since (a handle names one "
                "exact text, so a replace gives a new one; what left memory is found with "
                'action="archive_search"). Pick from current_entries and retry.'
            )
        else:
            message = (
                f"No {_label(target)} entry contains {_preview(selector)!r}. Matching is an "
                "exact, case-sensitive substring. Pick a short unique piece of one of "
                "current_entries and retry."
            )
        super().__init__(message, **extra)

    def to_human(self) -> str:
        where = f" --project {shlex.quote(self.project)}" if self.project else ""
        if _is_handle(self.selector):
            return (
                f"No {_file(self.target)} entry has the handle {self.selector} now: it is "
                "mistyped, or the entry it named was removed or rewritten since (`mnemic "
                "memory archive search` finds what left memory). Nothing was changed. See the "
                "current "
                f"entries with `mnemic memory show --target {self.target}{where}`."
            )
        return (
            f"No {_file(self.target)} entry contains {_preview(self.selector)!r} (matching is "
            "exact and case-sensitive). Nothing was changed. Use a short piece of one of the "
            f"current entries (`mnemic memory show --target {self.target}{where}`)."
        )


class AmbiguousMatch(CuratedError):
    """``old_text`` matched several distinct entries."""

    code = "ambiguous_match"

    def __init__(
        self,
        target: str,
        selector: str,
        previews: Sequence[str],
        handles: Sequence[str] = (),
        **extra: Any,
    ) -> None:
        self.target = target
        self.selector = selector
        self.previews = tuple(previews)
        self.handles = tuple(handles)
        """Each match's ``entry:<hex>`` handle, in the order of ``previews`` (a preview is
        cut at 80 chars: a model cannot name the entry by it, a handle names it exactly)."""
        if self.handles:
            extra["handles"] = list(self.handles)
        how = (
            "Use the handle of the one you mean (handles[i] names matches[i]) as old_text, "
            "a longer substring that appears in only one of them, or the whole entry text."
            if self.handles
            else "Use a longer substring that appears in only one of them, or the whole entry text."
        )
        super().__init__(
            f"{_preview(selector)!r} matches {len(self.previews)} different {_label(target)} "
            f"entries (see matches). Nothing was changed. {how}",
            matches=list(self.previews),
            **extra,
        )

    def to_page(self) -> str:
        # The console's forms name an entry by its own buttons: no handles to type.
        shown = "".join(f"\n  - {p}" for p in self.previews)
        return (
            f"{_preview(self.selector)!r} matches {len(self.previews)} different "
            f"{_file(self.target)} entries:{shown}\nNothing was changed. Use a longer piece "
            "that appears in only one of them, or the whole entry."
        )

    def to_human(self) -> str:
        if self.handles:
            shown = "".join(
                f"\n  {h}  {p}" for h, p in zip(self.handles, self.previews, strict=True)
            )
            how = "its handle (the first column), a longer piece that appears in only one"
        else:
            shown = "".join(f"\n  - {p}" for p in self.previews)
            how = "a longer piece that appears in only one"
        return (
            f"{_preview(self.selector)!r} matches {len(self.previews)} different "
            f"{_file(self.target)} entries:{shown}\nNothing was changed. Use {how} of "
            "them, or the whole entry."
        )


class DriftDetected(CuratedError):
    """The file on disk was edited outside mnemic in a way that would not round-trip."""

    code = "drift_detected"

    def __init__(self, target: str, path: str, reason: str, backup: str, **extra: Any) -> None:
        self.target = target
        self.path = path
        self.reason = reason
        self.backup = backup
        super().__init__(
            f"Refusing to rewrite {path}: it was edited outside mnemic ({reason}), and "
            "rewriting it through the memory tool could lose that text. A copy was saved to "
            f"{backup}. Nothing was changed. A person should run `mnemic memory adopt "
            f"--target {target}` to review and adopt the file as clean entries; until then "
            "only `add` works on this target.",
            drift_backup=backup,
            remediation=f"mnemic memory adopt --target {target}",
            **extra,
        )

    def to_human(self) -> str:
        return (
            f"Refusing to rewrite {self.path}: it was edited outside mnemic ({self.reason}), "
            "and rewriting it could lose that text. Nothing was changed; a copy is in "
            f"{self.backup}. Review the file and take it back as clean entries with "
            f"`mnemic memory adopt --target {self.target}`."
        )


class EntryChanged(CuratedError):
    """The entry a replace/remove designates changed since this session last saw it."""

    code = "entry_changed"
    retry_may_succeed = True

    def __init__(self, target: str, current: str, **extra: Any) -> None:
        self.target = target
        self.current = current
        super().__init__(
            f"The {_label(target)} entry you designated was added or edited by another "
            f"session or tool since you last saw it; it now reads: {_preview(current, 200)!r}. "
            "Nothing was changed. If you still want this change, repeat the call (now that "
            "you have seen the current text).",
            current_entry=current,
            **extra,
        )

    def to_human(self) -> str:
        return (
            f"The {_file(self.target)} entry you named was changed by another session or tool "
            f"meanwhile; it now reads: {_preview(self.current, 200)!r}. Nothing was changed. "
            "Run the command again if you still want the change."
        )


class WouldEmptyTarget(CuratedError):
    """A batch would delete every entry of a non-empty target."""

    code = "would_empty_target"
    counts_as_failure = True

    def __init__(self, target: str, count: int, **extra: Any) -> None:
        self.target = target
        self.count = count
        super().__init__(
            f"This batch would remove all {count} {_label(target)} entries. Nothing was "
            "applied. Keep at least one entry, or pass allow_empty=true if emptying the "
            "target is really intended.",
            **extra,
        )

    def to_human(self) -> str:
        return (
            f"This would remove all {self.count} {_file(self.target)} entries. Nothing was "
            "applied. To empty the file on purpose, delete the entries with `mnemic memory "
            "edit`."
        )


class BatchFailed(CuratedError):
    """One operation of a batch failed, so none of the operations was applied."""

    code = "batch_failed"

    def __init__(self, index: int, action: str, cause: ToolError, total: int) -> None:
        self.index = index
        self.action = action
        self.cause = cause
        self.counts_as_failure = cause.counts_as_failure
        extra = {k: v for k, v in cause.extra.items() if k != "current_entries"}
        super().__init__(
            f"Batch aborted: NONE of the {total} operations was applied (all-or-nothing). "
            f"Operation {index} ({action}) failed: {cause.to_llm()}",
            failed_operation=index,
            cause_code=cause.code,
            applied=0,
            **extra,
        )
        if "current_entries" in cause.extra:
            self.extra["current_entries"] = cause.extra["current_entries"]
        self.total = total

    def to_human(self) -> str:
        return (
            f"None of the {self.total} changes was applied (all or nothing): change "
            f"{self.index} ({self.action}) failed: {self.cause.to_human()}"
        )

    def to_page(self) -> str:
        return (
            f"None of the {self.total} changes was applied (all or nothing): change "
            f"{self.index} ({self.action}) failed: {self.cause.to_page()}"
        )


class LoopStopped(CuratedError):
    """The circuit breaker or the oscillation guard stopped a repeating pattern."""

    code = "loop_stopped"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message, done=True, **extra)


class ProjectScopeError(CuratedError):
    """A write or read of project memory that cannot be done: no project is selected,
    the store cannot hold projects, the call names USER.md (global only), or a whole
    project store cannot be removed or moved (``mnemic project forget`` / ``move``)."""

    code = "project_scope"

    def __init__(self, reason: str, message: str, **extra: Any) -> None:
        self.reason = reason
        """``no_project``, ``backend``, ``user_is_global``, ``not_a_directory``, ``root``,
        ``home`` (the user's home directory) or ``not_utf8``; a write to a store removed
        or moved since it was opened: ``removed``; ``mnemic project forget`` / ``move``:
        ``no_store``, ``directory_exists``, ``changed``, ``target_has_store``,
        ``unsupported``."""
        super().__init__(message, **extra)
