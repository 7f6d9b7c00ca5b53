"""The skills index in the system prompt: a fixed character budget, degrading in steps.

With a few skills, every skill gets a line ``- name: description``. As skills pile up
the index gives up detail, never skills, in this order (the first that fits wins):

1. ``full``: every skill with its description cut at a word boundary to 80, then 40
   characters;
2. ``names``: names only, one line per category (``ops: deploy, restart-db``); if even
   that is too long, the last categories are shown as counts (``web (40)``);
3. ``counts``: one line of categories with counts; categories that do not fit are
   summed up in a final ``+N more categories (M skills)``;
4. ``summary``: one sentence with the number of skills and categories.

The first line says how to use the index, including that ``skills_list`` with a
``query`` finds skills by meaning when no name fits: the index itself is never ranked
for the turn (the system prompt would change every turn and lose its prefix cache).

Whatever is left out is said in the index itself: how many skills are shown without a
description or not named at all, and that ``skills_list`` shows them. Skills that
cannot be used (unreadable, invalid front matter, threat findings in the name or
description) are counted as withheld. The output is sorted and depends only on the
skills and the budget, so the system prompt stays byte-stable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .store import SkillStore

__all__ = [
    "LEVELS",
    "MIN_BUDGET",
    "IndexEntry",
    "SkillsIndex",
    "build_skills_index",
    "render_skills_index",
    "skills_index",
]

#: Smallest budget accepted (the ``skills.index_budget`` setting has the same minimum).
MIN_BUDGET = 200
#: Degradation levels, most detailed first.
LEVELS = ("full", "names", "counts", "summary")
_WIDTHS = (80, 40)
_NO_CATEGORY = "(no category)"
HEADING = "## Skills"


class IndexEntry(Protocol):
    """What the index needs of a skill (a :class:`~mnemic.skills.store.SkillInfo` fits)."""

    @property
    def name(self) -> str: ...  # pragma: no cover

    @property
    def category(self) -> str | None: ...  # pragma: no cover

    @property
    def description(self) -> str: ...  # pragma: no cover


@dataclass(frozen=True, slots=True)
class SkillsIndex:
    """A rendered index and how much it had to give up."""

    text: str
    """The block for the system prompt ('' when there are no skills)."""
    level: str
    """One of :data:`LEVELS` (``"full"`` also for the empty index)."""
    total: int
    """Skills indexed (withheld ones not included)."""
    without_description: int
    """Skills named without their description."""
    unnamed: int
    """Skills not named at all (only counted)."""
    withheld: int
    """Unusable skills left out (counted in the text)."""
    budget: int

    @property
    def collapsed(self) -> int:
        """Skills shown with less than a full line (without description, or not named)."""
        return self.without_description + self.unnamed


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("ory") else f"{n} {word}s"


def _clean(text: str) -> str:
    """One line: whitespace collapsed, control characters and wrapping quotes removed."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else " " for c in text)
    text = " ".join(text.split())
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


def _cut(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` characters at a word boundary, ending with '…'."""
    if len(text) <= width:
        return text
    head = text[: width - 1]
    space = head.rfind(" ")
    if space >= width // 2:
        head = head[:space]
    return head.rstrip(" ,;:.-") + "…"


def _group(entries: Iterable[IndexEntry]) -> list[tuple[str, list[tuple[str, str]]]]:
    """(category, [(name, description)]) sorted; skills without category first."""
    groups: dict[str, dict[str, str]] = {}
    for e in entries:
        cat = e.category or ""
        items = groups.setdefault(cat, {})
        desc = e.description  # cleaned only if the full level is tried (see _full)
        if e.name not in items or desc < items[e.name]:  # duplicates: order-independent
            items[e.name] = desc
    return [(cat, sorted(items.items())) for cat, items in sorted(groups.items())]


def _intro(total: int) -> str:
    return (
        f"{HEADING}\n{_plural(total, 'saved skill')}. Before a task, check whether one fits; "
        "if so, load it with skill_view(name) and follow it. If no name fits, "
        'skills_list(query="<the task>") finds skills by meaning.'
    )


def _withheld_note(withheld: int) -> str:
    if not withheld:
        return ""
    verb = "is" if withheld == 1 else "are"
    return (
        f"\n{_plural(withheld, 'more skill')} {verb} withheld (unreadable, invalid or "
        "flagged by the safety scan)."
    )


def _full(groups: list[tuple[str, list[tuple[str, str]]]], width: int) -> list[str]:
    lines: list[str] = []
    for cat, items in groups:
        indent = ""
        if cat:
            lines.append(f"{cat}:")
            indent = "  "
        for name, desc in items:
            d = _cut(_clean(desc), width)
            lines.append(f"{indent}- {name}: {d}" if d else f"{indent}- {name}")
    return lines


def _count_label(cat: str, n: int) -> str:
    return f"{cat or _NO_CATEGORY} ({n})"


def render_skills_index(
    entries: Sequence[IndexEntry], budget: int = 1500, *, withheld: int = 0
) -> str:
    """The index text for the system prompt, at most ``budget`` characters."""
    return build_skills_index(entries, budget, withheld=withheld).text


def build_skills_index(
    entries: Sequence[IndexEntry], budget: int = 1500, *, withheld: int = 0
) -> SkillsIndex:
    """Render the index within ``budget`` characters (see the module docstring).

    Raises :class:`ValueError` for a budget below :data:`MIN_BUDGET`. Returns an empty
    text when there are neither skills nor withheld skills.
    """
    if budget < MIN_BUDGET:
        raise ValueError(f"the skills index budget must be >= {MIN_BUDGET}, got {budget}")
    groups = _group(entries)
    total = sum(len(items) for _, items in groups)

    def done(text: str, level: str, without: int = 0, unnamed: int = 0) -> SkillsIndex | None:
        text = text + _withheld_note(withheld)
        if len(text) > budget:
            return None
        return SkillsIndex(text, level, total, without, unnamed, withheld, budget)

    if total == 0:
        if not withheld:
            return SkillsIndex("", "full", 0, 0, 0, 0, budget)
        text = f"{HEADING}\nNo usable skills ({withheld} withheld as unusable)."
        return SkillsIndex(_fit(text, budget), "full", 0, 0, 0, withheld, budget)
    intro = _intro(total)
    # A lower bound of any listing that names every skill ("- name" / "name, "):
    floor = len(intro) + sum(len(n) + 2 for _, items in groups for n, _ in items)
    for width in _WIDTHS if floor <= budget else ():
        found = done("\n".join([intro, *_full(groups, width)]), "full")
        if found:
            return found
    room = budget - len(_withheld_note(withheld))
    found = _names(groups, intro, total, done, room)
    if found:
        return found
    found = _counts(groups, intro, total, done, room)
    if found:
        return found
    cats = len(groups)
    held = f" ({withheld} withheld as unusable)" if withheld else ""
    text = (
        f"{HEADING}\n{_plural(total, 'saved skill')} in {_plural(cats, 'category')}{held}, "
        'not listed to save space: find one with skills_list(query="<the task>"), load it '
        "with skill_view(name)."
    )
    if len(text) <= budget:
        return SkillsIndex(text, "summary", total, 0, total, withheld, budget)
    return SkillsIndex(_fit(text, budget), "summary", total, 0, total, withheld, budget)


def _fit(text: str, budget: int) -> str:
    """Last resort (unreachable with the minimum budget): cut at the budget."""
    return text if len(text) <= budget else text[: budget - 1] + "…"


def _names_note(named: int, unnamed: int) -> str:
    note = (
        f"Descriptions of the {_plural(named, 'skill')} named here are left out to save "
        "space: skills_list shows them"
    )
    if unnamed:
        verb = "is" if unnamed == 1 else "are"
        note += (
            f"; {_plural(unnamed, 'more skill')} {verb} only counted: "
            "skills_list(category=...) names them"
        )
    return note + "."


_COUNTS_ONLY = "Counts only: "


def _names(
    groups: list[tuple[str, list[tuple[str, str]]]],
    intro: str,
    total: int,
    done: _Done,
    room: int,
) -> SkillsIndex | None:
    """Names by category; a category whose names do not fit is only counted.

    Categories are taken in order; each is named if the whole index still fits, so a
    large category does not push out the smaller ones after it. Lengths are computed
    arithmetically (linear in the number of categories); the text is rendered once.
    """
    name_lines = [
        f"{cat or _NO_CATEGORY}: {', '.join(n for n, _ in items)}" for cat, items in groups
    ]
    labels = [_count_label(cat, len(items)) for cat, items in groups]
    sizes = [len(items) for _, items in groups]
    mask = [False] * len(groups)
    named_len = 0  # sum of 1 + len(name line) over named categories
    label_len = sum(len(x) for x in labels)  # over counted categories
    n_counted = len(groups)
    named = 0

    def length() -> int:
        n = len(intro) + named_len
        if n_counted:
            n += 1 + len(_COUNTS_ONLY) + label_len + 2 * (n_counted - 1)
        return n + 1 + len(_names_note(named, total - named))

    if length() > room:
        return None
    for i in range(len(groups)):
        named_len += 1 + len(name_lines[i])
        label_len -= len(labels[i])
        n_counted -= 1
        named += sizes[i]
        if length() <= room:
            mask[i] = True
        else:
            named_len -= 1 + len(name_lines[i])
            label_len += len(labels[i])
            n_counted += 1
            named -= sizes[i]
    if not any(mask):
        return None
    lines = [intro, *(line for line, m in zip(name_lines, mask, strict=True) if m)]
    counted = [label for label, m in zip(labels, mask, strict=True) if not m]
    if counted:
        lines.append(_COUNTS_ONLY + ", ".join(counted))
    lines.append(_names_note(named, total - named))
    return done("\n".join(lines), "names", named, total - named)


def _counts(
    groups: list[tuple[str, list[tuple[str, str]]]],
    intro: str,
    total: int,
    done: _Done,
    room: int,
) -> SkillsIndex | None:
    """Categories with counts; the categories that do not fit are summed up."""
    labels = [_count_label(cat, len(items)) for cat, items in groups]
    note = (
        f"The {_plural(total, 'skill')} are not named here to save space: "
        "skills_list(category=...) lists them."
    )
    head = "Categories: "
    base = len(intro) + 1 + len(head) + 1 + len(note)
    prefix = [0]
    for label in labels:
        prefix.append(prefix[-1] + len(label))
    counts = [len(items) for _, items in groups]
    rest_skills = 0
    for keep in range(len(groups), 0, -1):
        tail = ""
        if keep < len(groups):
            rest_skills += counts[keep]
            left = len(groups) - keep
            tail = f"+{_plural(left, 'more category')} ({_plural(rest_skills, 'skill')})"
        parts = keep + (1 if tail else 0)
        if base + prefix[keep] + len(tail) + 2 * (parts - 1) > room:
            continue
        shown = labels[:keep] + ([tail] if tail else [])
        return done("\n".join([intro, head + ", ".join(shown), note]), "counts", 0, total)
    return None


class _Done(Protocol):
    def __call__(
        self, text: str, level: str, without: int = 0, unnamed: int = 0
    ) -> SkillsIndex | None: ...  # pragma: no cover


def skills_index(store: SkillStore, budget: int | None = None) -> SkillsIndex:
    """Build the index of a store's usable skills for this platform.

    ``budget`` defaults to ``store.settings.index_budget``.
    """
    infos = store.skills()
    usable = [i for i in infos if i.usable]
    return build_skills_index(
        usable,
        store.settings.index_budget if budget is None else budget,
        withheld=len(infos) - len(usable),
    )
