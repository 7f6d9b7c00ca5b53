"""Search the archive: the entries that left MEMORY.md and USER.md, by words and meaning.

Ranked by :func:`mnemic.ops.text_search.rank_texts`, as memory search ranks the live
entries. An archived entry the threat scanner blocks is never searched or shown, and a
forgotten one has no text to search. Below the floor of short texts (semantic and
hybrid) the answer says "no good match" and keeps only the nearest entry, marked weak;
above it, an entry that holds no word of the query and sits below the floor in meaning
is marked ``weak`` too (listed: hiding them lost relevant entries, docs/recall.md).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..curated import archive
from ..curated.changes import entry_key
from ..curated.entries import TARGETS
from ..curated.fold import Archived
from ..curated.scope import ProjectHome, stored_projects
from ..curated.snapshot import display_entry
from ..curated.view import MemoryView
from ..errors import InvalidArgument
from ..home import Home
from ..sessions.search.floor import Strength
from ..tooling import ranked_search
from .audit_log import store_label
from .text_search import EmbedderLoader, rank_texts

__all__ = [
    "ArchiveHit",
    "ArchiveSearch",
    "StoreArchived",
    "archive_json",
    "archived_in",
    "every_archive",
    "every_archive_json",
    "item_dict",
    "kept_entry",
    "qualified_id",
    "removed_by_text",
    "search_archive",
]


def item_dict(
    item: Archived, level: str | None = None, *, full: bool = True, in_memory: bool = False
) -> dict[str, Any]:
    """The JSON form of an archived entry as people and models read it: times in UTC, a
    blocked text as its placeholder only (``full``: its provenance too, each of its
    times also as ``NAME_utc``), ``ref`` the id as people see it and commands take it
    (docs/json.md); ``in_memory: true`` when its text was added back and is live again
    (:meth:`~mnemic.curated.archive.ArchiveListing.in_memory`)."""
    out = item.as_dict()
    if in_memory:
        out["in_memory"] = True
    if item.text is not None:
        out["text"] = display_entry(item.target, item.text, level)[0]
    out["archived"] = _when(item.archived_at)
    out["created_at"] = _when(item.provenance.created)
    out["ref"] = archive.typed_id(item.id)
    if not full:
        return {
            k: out[k]
            for k in (
                "id",
                "ref",
                "target",
                "text",
                "reason",
                "archived",
                "created_at",
                "removed_by",
                "in_memory",
            )
            if k in out
        }
    prov = out["provenance"]
    for k, v in list(prov.items()):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            prov[f"{k}_utc"] = _when(v)
    return out


def removed_by_text(by: dict[str, Any]) -> str:
    """Who removed an archived entry, as people read it: ``model / agent, session S``
    (the ``removed_by`` of :func:`item_dict`; parts that are unknown are left out)."""
    who = " / ".join(str(by[k]) for k in ("actor", "origin") if by.get(k))
    if by.get("session"):
        who += f", session {by['session']}"
    return who or "unknown"


def archive_json(
    view: MemoryView,
    target: str | None = None,
    *,
    limit: int | None = None,
    offset: int = 0,
    for_model: bool = False,
) -> dict[str, Any]:
    """The archive (of ``target``, or both) as people and clients read it, newest first:
    ``count`` (all of them) and ``entries`` (the newest ``limit``; every one when
    ``None``), each as :func:`item_dict` gives it (``mnemic memory archive list --json``,
    the MCP resources ``mnemic://archive``, ``mnemic://memory/archive``...). A memory
    file that could not be read is named in ``not_read`` (its file and why, worded for a
    model with ``for_model``), and the rest is listed. ``offset`` skips that many of the
    newest (``archive list --page``)."""
    found = archive.archive_listing(view, target)
    items = found.items
    shown = _page(items, limit, offset)
    out: dict[str, Any] = {
        "count": len(items),
        "entries": [item_dict(a, view.level, in_memory=found.in_memory(a)) for a in shown],
    }
    if found.unread:
        out["not_read"] = [
            {
                "file": getattr(exc, "path", None),
                "error": archive.unread_note(exc.to_llm() if for_model else exc.to_human()),
            }
            for exc in found.unread
        ]
    note = _listing_note(
        offset,
        len(shown),
        len(items),
        'the memory tool\'s action="archive_search" or `mnemic memory archive list`',
    )
    if note:
        out["note"] = note
    return out


def _page(items: list[Any], limit: int | None, offset: int) -> list[Any]:
    """The ``limit`` items after the first ``offset`` (every one after them: ``None``)."""
    return items[offset:] if limit is None else items[offset : offset + limit]


def _listing_note(offset: int, shown: int, count: int, older: str) -> str | None:
    """The ``note`` of an archive listing: what a later page holds, or that a first page
    holds only the newest and how to find the older ones (``older``); None: it holds
    every entry."""
    if offset:
        if not shown:
            return f"No entries past the newest {count:,}."
        return f"Entries {offset + 1:,}-{offset + shown:,} of {count:,}, newest first."
    if shown < count:
        return f"The newest {shown:,} of {count:,}; find older ones with {older}."
    return None


def kept_entry(view: MemoryView, item: Archived) -> str | None:
    """The live entry an archived one was replaced by or merged into (its
    ``replaced_by``), as the prompt shows it; ``None`` when it names none or that entry
    has left too (``archive show``'s ``into:``, the console's Archive page)."""
    key = item.replaced_by
    if not isinstance(key, str):
        return None
    for entry in view.entries(item.target):
        if entry_key(entry) == key:
            return display_entry(item.target, entry, view.level)[0]
    return None


def qualified_id(store: Home, aid: str) -> str:
    """An archived entry's id that names its store too: the typed id
    (:func:`~mnemic.curated.archive.typed_id`) for the global store, ``<project id>:<id>``
    for a project's (ids are drawn per store, so two stores hold the same ones);
    :func:`archived_in` reads it back."""
    shown = archive.typed_id(aid)
    return f"{store.project.id}:{shown}" if isinstance(store, ProjectHome) else shown


def archived_in(home: Home, ref: str) -> tuple[Home, str] | None:
    """The store of ``home`` and the id a qualified id (:func:`qualified_id`) names:
    ``<project id>:<id>`` a project store's, ``global:<id>`` the global one's; ``None``
    for an id that names no store (``27``: the store the command selects).
    :class:`~mnemic.errors.InvalidArgument` naming the project ids when none is that."""
    prefix, colon, aid = ref.strip().rpartition(":")
    if not colon:
        return None
    if prefix == "global":
        return home, aid
    projects = stored_projects(home)
    for store in projects:
        if store.project.id == prefix:
            return store, aid
    known = ", ".join(p.project.id for p in projects) or "none"
    raise InvalidArgument(
        "id",
        f"No project store {prefix!r} in this home (its project stores: {known}). "
        "See `mnemic memory archive list --all-scopes`.",
    )


@dataclass(frozen=True)
class StoreArchived:
    """One archived entry and the store whose archive holds it."""

    store: Home
    item: Archived
    level: str | None = None
    in_memory: bool = False
    """Its text was added back and is live again."""

    @property
    def ref(self) -> str:
        """Its :func:`qualified_id`."""
        return qualified_id(self.store, self.item.id)

    def as_dict(self) -> dict[str, Any]:
        """:func:`item_dict`, then ``store`` (its :func:`~.audit_log.store_label`) and
        ``ref`` (the id ``archive show`` and ``restore`` take whatever store is selected)."""
        return {
            **item_dict(self.item, self.level, in_memory=self.in_memory),
            **_store_fields(self.store, self.item),
        }


def _store_fields(store: Home, item: Archived) -> dict[str, Any]:
    """``store`` (the :func:`~.audit_log.store_label` of the store whose archive holds
    ``item``) and ``ref`` (its :func:`qualified_id`): what an entry listed or found
    across several stores carries."""
    return {"store": store_label(store), "ref": qualified_id(store, item.id)}


def every_archive(stores: Sequence[Home], target: str | None = None) -> list[StoreArchived]:
    """The archived entries of every store of ``stores`` (of ``target``, or every file a
    store has), newest first across them: what a person who let a fact go without
    knowing which project held it lists (``mnemic memory archive list --all-scopes``)."""
    found: list[StoreArchived] = []
    for store in stores:
        if target == "user" and isinstance(store, ProjectHome):
            continue  # USER.md is global only
        view = MemoryView.open(store)
        listed = archive.archive_listing(view, target)
        found += [StoreArchived(store, a, view.level, listed.in_memory(a)) for a in listed.items]
    found.sort(key=lambda s: archive.age_key(s.item), reverse=True)
    return found


def every_archive_json(
    stores: Sequence[Home],
    target: str | None = None,
    *,
    limit: int | None = None,
    offset: int = 0,
) -> dict[str, Any]:
    """:func:`archive_json` of several stores: ``count``, ``entries`` (each with its
    ``store`` and ``ref``: :meth:`StoreArchived.as_dict`) and ``stores`` (each store's
    label and how many entries its archive holds)."""
    items = every_archive(stores, target)
    shown = _page(items, limit, offset)
    per = {id(s): 0 for s in stores}
    for found in items:
        per[id(found.store)] += 1
    out: dict[str, Any] = {
        "count": len(items),
        "entries": [s.as_dict() for s in shown],
        "stores": [{**store_label(s), "count": per[id(s)]} for s in stores],
    }
    note = _listing_note(
        offset, len(shown), len(items), "`mnemic memory archive search QUERY --all-scopes`"
    )
    if note:
        out["note"] = note
    return out


def _when(t: float | None) -> str | None:
    return None if t is None else time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(t))


@dataclass(frozen=True)
class ArchiveHit:
    """One archived entry that matched, how well, and why."""

    item: Archived
    text: str
    score: float
    matched: tuple[str, ...]
    store: Home | None = None
    """The store whose archive holds it, when a search spans several (else ``None``)."""
    weak: bool = False
    """No word of the query and below the floor in meaning (:attr:`TextHit.weak`)."""
    in_memory: bool = False
    """Its text was added back and is live again."""

    def to_dict(self, level: str | None = None) -> dict[str, Any]:
        """JSON-able form (a search over several stores adds ``store`` and ``ref``, as
        :meth:`StoreArchived.as_dict`)."""
        out = {
            **item_dict(self.item, level, full=False, in_memory=self.in_memory),
            "score": round(self.score, 4),
            "matched": list(self.matched),
        }
        if self.weak:  # as the nearest entry below the floor is marked
            out["weak"] = True
        if self.store is not None:
            out.update(_store_fields(self.store, self.item))
        return out


@dataclass(frozen=True)
class ArchiveSearch:
    """The ranked hits, the mode that ran, why another mode could not (or None), the
    floor's verdict (None: no floor applies) and whether nothing cleared it."""

    hits: list[ArchiveHit] = field(default_factory=list)
    retrieval: str = "lexical"
    notice: str | None = None
    level: str | None = None
    strength: Strength | None = None
    no_good_match: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        hits = [h.to_dict(self.level) for h in self.hits]
        return ranked_search(self, hits, "the archive")


def search_archive(
    view: MemoryView | Sequence[tuple[Home, MemoryView]],
    query: str,
    *,
    mode: str | None = None,
    targets: Sequence[str] = TARGETS,
    limit: int = 5,
    embedder_loader: EmbedderLoader | None = None,
    floor: bool = True,
    for_model: bool = False,
) -> ArchiveSearch:
    """The archived entries of ``targets`` that best match ``query`` (modes and floor as
    :func:`~mnemic.ops.memory_search.search_memory`). ``view`` is one store's, or each
    store of several with its view: their archives are ranked as one, and each hit names
    its store (:attr:`ArchiveHit.store`). A memory file that could not be read is named
    in the notice (worded for a model with ``for_model``) and the archive is searched
    without it."""
    spans = not isinstance(view, MemoryView)
    views = [(None, view)] if isinstance(view, MemoryView) else list(view)
    items: list[tuple[Archived, str, Home | None, bool]] = []
    unread: list[str] = []
    for store, one in views:
        found = archive.archive_listing(one)
        unread += [
            archive.unread_note(exc.to_llm() if for_model else exc.to_human())
            for exc in found.unread
        ]
        for item in found.items:
            if item.target not in targets or item.text is None:
                continue
            shown, blocked = display_entry(item.target, item.text, one.level)
            if not blocked:
                items.append((item, shown, store if spans else None, found.in_memory(item)))
    ranked = rank_texts(
        query,
        [t for _, t, _, _ in items],
        mode=mode,
        limit=limit,
        embedder_loader=embedder_loader,
        floor=floor,
        vector_scope="archive {} {}".format(
            ",".join(one.settings.scope for _, one in views), ",".join(sorted(targets))
        ),
    )
    hits = []
    for h in ranked.hits:
        item, shown, store, back = items[h.index]
        hits.append(ArchiveHit(item, shown, h.score, h.matched, store, h.weak, back))
    level = views[0][1].level if views else None
    notice = " ".join([*unread, *filter(None, [ranked.notice])])
    return ArchiveSearch(
        hits, ranked.retrieval, notice or None, level, ranked.strength, ranked.no_good_match
    )
