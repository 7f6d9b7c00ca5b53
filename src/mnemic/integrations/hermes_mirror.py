"""Hermes's own memory writes, mirrored into mnemic's audit journal and archive.

Hermes keeps its curated memory (``memories/MEMORY.md`` and ``USER.md``) and tells its
memory provider of every write its ``memory`` tool committed (``on_memory_write``:
``add``, ``replace`` or ``remove``, the target, the new content, and ``old_text``, the
substring that picked the entry). The provider (:mod:`.hermes_plugin`) passes each one
to the bridge's ``memory_write`` op, and :func:`mirror_write` records it:

* one audit record (``subsystem: hermes``, the action and target, ``decision:
  mirror``, ``result: ok``, origin ``hermes``, Hermes's session), holding SHA-256
  hashes of the new content and of the entry it replaced or removed, never their text
  (the journal's rule), plus Hermes's own ``write_origin`` and ``execution_context``;
* for a ``replace`` or ``remove``, the entry Hermes let go into mnemic's archive
  (reason ``replaced`` / ``removed``, written by ``hermes``), so ``mnemic_archive_search``
  and ``mnemic memory archive`` find it. The provider knows the whole entry from its
  copy of Hermes's file taken before the write; when it does not (the file was edited
  outside Hermes), nothing is archived and the answer says so. Text that is live in
  mnemic's own memory is not archived (it did not leave mnemic), and text the scanner
  holds is not archived either (the archive reaches the model);
* a scan of the new content with mnemic's scanner: what it finds is reported in the
  answer (``threat``), for the provider to log. Hermes's write has already happened;
  mnemic neither undoes nor blocks it.

Nothing is written into mnemic's live memory: Hermes's entries stay Hermes's (moving
them in is ``mnemic import hermes``), so the mirror never duplicates the curated store.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from ..control_chars import printable
from ..curated.archive import archive_texts
from ..curated.memory import Memory
from ..curated.store import check_target
from ..errors import ContentRejected, InvalidArgument, ThreatBlocked
from ..scan import scan_text

__all__ = ["ACTIONS", "ORIGIN", "MirrorResult", "mirror_write"]

ACTIONS = ("add", "replace", "remove")
"""The writes Hermes mirrors to its provider."""
ORIGIN = "hermes"
"""The origin of the mirror's audit records and archived entries."""
_REASON = {"replace": "replaced", "remove": "removed"}
_HERMES_FIELDS = ("write_origin", "execution_context")


@dataclass
class MirrorResult:
    """What :func:`mirror_write` recorded (the bridge's answer)."""

    action: str
    target: str
    recorded: bool
    """Whether the audit record was appended (a journal that cannot be written is
    logged by the governor, and the mirror goes on)."""
    archived: bool = False
    threat: list[str] = field(default_factory=list)
    """The scanner's pattern ids for the new content (empty: nothing found)."""
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "action": self.action,
            "target": self.target,
            "recorded": self.recorded,
            "archived": self.archived,
            "threat": self.threat,
            "notes": self.notes,
        }


def _sha(text: str) -> str | None:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() if text else None


def _hermes_fields(metadata: dict[str, Any]) -> dict[str, str]:
    """Hermes's provenance of the write, short and printable (``hermes_<key>``)."""
    out = {}
    for key in _HERMES_FIELDS:
        value = metadata.get(key)
        if isinstance(value, str) and value:
            out[f"hermes_{key}"] = printable(value, lines=False)[:64]
    return out


def mirror_write(
    memory: Memory,
    action: str,
    target: str,
    content: str = "",
    old_entry: str = "",
    metadata: dict[str, Any] | None = None,
) -> MirrorResult:
    """Record one committed write of Hermes's memory tool (see the module docstring).

    ``memory`` is a governed memory opened with the origin ``hermes`` and Hermes's
    session (:meth:`Memory.open`); ``old_entry`` the whole entry a ``replace`` or
    ``remove`` let go ('' when unknown). Raises :class:`InvalidArgument` for an unknown
    action or target; a text the archive refuses is reported, not raised."""
    if action not in ACTIONS:
        raise InvalidArgument(
            "action", f"Unknown Hermes memory action {printable(action)[:40]!r}; use {ACTIONS}."
        )
    target = check_target(target)
    if memory.governor is None:
        raise InvalidArgument(
            "memory", "Mirroring needs a memory with an audit journal: open it with Memory.open."
        )
    result = MirrorResult(action, target, recorded=False)
    if content:
        result.threat = [f.id for f in scan_text(content, "strict", memory.level).findings]
        if result.threat:
            result.notes.append(
                "mnemic's scanner flags the new content; Hermes has already written it "
                "(mnemic does not block or undo Hermes's writes): review Hermes's "
                f"{'USER.md' if target == 'user' else 'MEMORY.md'}"
            )
    if action in _REASON:
        if not old_entry:
            result.notes.append(
                "the entry's whole text was not known (Hermes's file changed outside "
                "Hermes?): nothing archived"
            )
        else:
            try:
                done = archive_texts(memory, target, [old_entry], _REASON[action], origin=ORIGIN)
            except (ThreatBlocked, ContentRejected) as exc:
                result.notes.append(f"the old entry was not archived: {exc.to_llm()}")
            else:
                result.archived = bool(done)
                if not done:
                    result.notes.append("the old entry is live in mnemic's memory: not archived")
    fields: dict[str, Any] = {
        "subsystem": "hermes",
        "target": target,
        "action": action,
        "decision": "mirror",
        "result": "ok",
        "content_sha256": _sha(content),
        "old_sha256": _sha(old_entry),
        "archived": result.archived,
        "patterns": result.threat or None,
        **_hermes_fields(metadata or {}),
    }
    recorded = memory.governor.record(**fields)
    result.recorded = recorded is not None
    return result
