"""From one target's entries to tidy proposals, offline: :func:`plan`.

The order matters, and each entry appears in one proposal at most: contradictions and
duplicates first (:func:`mnemic.ops.tidy.detect.find`), then entries untouched for the
stale age, then entries longer than the verbose length. A merge keeps one entry as it is
(the one that says the most), a supersede keeps the newest; only ``--llm`` writes new
wording (:mod:`.wording`). A long entry is shortened offline only mechanically
(:func:`shorten`: blank runs, repeated sentences, filler phrases); when that saves too
little it is listed as advice with nothing to stage.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ...curated.entries import entry_handle
from ...curated.store import Op
from .detect import Verdict, find, signals_of
from .lookalikes import apart as two_facts
from .model import TidyProposal
from .pairmodel import PairModel, apart, explain, pair_model, read
from .signals import PairSignals, Profile, compare, profile
from .thresholds import THRESHOLDS, Thresholds

__all__ = ["DAY", "plan", "shorten"]

DAY = 86_400.0
MIN_SAVING = 0.1
"""A mechanical shortening is proposed when it saves at least this share of the entry."""

_FILLER = [
    (re.compile(p, re.IGNORECASE), r)
    for p, r in (
        (r"\b(?:please )?(?:note|remember) that\s+", ""),
        (r"\bit is (?:important|worth noting|good) to (?:note|know|remember) that\s+", ""),
        (r"\b(?:basically|actually|essentially|honestly),?\s+", ""),
        (r"\bin order to\b", "to"),
        (r"\bdue to the fact that\b", "because"),
        (r"\bat this point in time\b", "now"),
        (r"\bfor the purpose of\b", "for"),
        (r"\bas a matter of fact,?\s+", ""),
        (r"\b(?:kind|sort) of\s+", ""),
    )
]
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")


def shorten(text: str) -> str:
    """``text`` without blank runs, repeated sentences and a few filler phrases ("note
    that", "in order to"): every fact, name and value stays."""
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in text.split("\n")]
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    for pattern, repl in _FILLER:
        out = pattern.sub(repl, out)
    seen: set[str] = set()
    kept: list[str] = []
    for sentence in _SENTENCE.split(out):
        key = " ".join(sentence.casefold().split())
        if key and key in seen:
            continue
        seen.add(key)
        kept.append(sentence)
    out = " ".join(kept) if "\n" not in out else out
    return out[:1].upper() + out[1:] if text[:1].isupper() else out


def _newer(times: Sequence[float | None], i: int, j: int) -> bool:
    """Whether entry ``i`` was written after entry ``j`` (times unknown: later in the
    file, as adds append), as :func:`.detect.find` reads it."""
    ti, tj = times[i], times[j]
    if ti is not None and tj is not None and ti != tj:
        return ti > tj
    return i > j


def _learned(
    target: str,
    entries: Sequence[str],
    times: Sequence[float | None],
    profiles: Sequence[Profile],
    pairs: dict[tuple[int, int], PairSignals],
    cosines: Sequence[Sequence[float]] | None,
    used: set[int],
    model: PairModel,
    judged: Mapping[tuple[int, int], str],
) -> list[TidyProposal]:
    """The pair model's proposals among the pairs of entries no rule proposed (each
    entry in one proposal at most, the surest first); ``used`` grows with them.
    ``judged``: the kind of the rules' verdict on a pair ``(i, j)`` already judged as
    the model reads it (the older entry first, the default thresholds)."""
    case = "offline" if cosines is None else "semantic"
    t_merge, t_change = model.threshold(case, "merge"), model.threshold(case, "change")
    with_cosine, version = model.reads_cosine(case), model.feature_version
    found: list[tuple[float, str, int, int, list[str]]] = []
    for (i, j), s in pairs.items():
        if i in used or j in used:
            continue
        old, new = (j, i) if _newer(times, i, j) else (i, j)
        if old != i:
            s = compare(profiles[old], profiles[new], s.cosine)
        names = read(
            profiles[old],
            profiles[new],
            s,
            with_cosine,
            version,
            judged.get((old, new)),
        )
        merge, change = model.probabilities(names, case)
        if change >= t_change and change >= merge:
            head, p, t = "change", change, t_change
        elif merge >= t_merge:
            head, p, t = "merge", merge, t_merge
        else:
            continue
        if not apart(profiles[old], profiles[new], s, head) and not two_facts(
            profiles[old], profiles[new]
        ):
            kind = "supersede" if head == "change" else "merge"
            found.append((p - t, kind, old, new, names))
    out = []
    for margin, kind, old, new, names in sorted(found, key=lambda f: (-f[0], f[2], f[3])):
        if old in used or new in used:
            continue
        used |= {old, new}
        top = model.score(names, case).top
        if kind == "supersede":
            keep, drop = new, old
            what = "the newer entry replaces the older"
            threshold = t_change
        else:
            keep = max((old, new), key=lambda k: (profiles[k].specific, k))
            drop = old if keep == new else new
            what = "one fact said twice"
            threshold = t_merge
        weighed = "; ".join(explain(n) for n in top) or "no single signal"
        reasons = [
            f"the learned pair model ({case}; no rule read this pair) reads {what}: "
            f"{threshold + margin:.2f}, it proposes from {threshold:.2f}; weighed most: {weighed}"
        ]
        if kind == "supersede":
            reasons.append("the kept entry is the most recently written")
        out.append(
            TidyProposal(
                kind,
                target,
                (entries[keep], entries[drop]),
                (_pin(entries[keep]), _drop(entries[drop])),
                tuple(reasons),
                entries[keep],
            )
        )
    return out


def _pin(entry: str, content: str | None = None) -> Op:
    """Replace ``entry`` (named by its handle) with ``content``, by default itself: the
    batch then fails unless the entry is still there as it was."""
    return Op("replace", content if content is not None else entry, entry_handle(entry))


def _drop(entry: str) -> Op:
    return Op("remove", None, entry_handle(entry))


def plan(
    target: str,
    entries: Sequence[str],
    times: Sequence[float | None],
    *,
    now: float,
    stale_after_days: float,
    verbose_chars: int,
    cosines: Sequence[Sequence[float]] | None = None,
    skip: frozenset[int] = frozenset(),
    thresholds: Thresholds = THRESHOLDS,
    learned: PairModel | bool = True,
) -> list[TidyProposal]:
    """The proposals for one target's ``entries`` (file order), each written at
    ``times`` (None: unknown). ``cosines``: the embeddings' cosine matrix, if the
    embedder ran. Entries in ``skip`` (hidden by the threat scan) are never proposed.
    ``learned``: the pair model that reads the pairs the rules left apart
    (:mod:`.pairmodel`; True: the shipped one, False: the rules alone)."""
    profiles = [profile(e) for e in entries]
    pairs = signals_of(profiles, cosines, skip)
    out: list[TidyProposal] = []
    used: set[int] = set(skip)
    verdicts: dict[tuple[int, int], Verdict | None] = {}
    for f in find(profiles, times, pairs, thresholds=thresholds, verdicts=verdicts):
        keep, drops = entries[f.keep], [entries[d] for d in f.drop]
        reasons = list(dict.fromkeys(f.reasons))
        if f.kind == "supersede" and all(_newer(times, f.keep, d) for d in f.drop):
            reasons.append("the kept entry is the most recently written")
        elif f.kind == "supersede":
            reasons.append("the kept entry says it replaced the other, although written earlier")
        out.append(
            TidyProposal(
                f.kind,
                target,
                (keep, *drops),
                (_pin(keep), *(_drop(d) for d in drops)),
                tuple(reasons),
                keep,
            )
        )
        used |= {f.keep, *f.drop}
    if learned is not False:
        model = pair_model() if learned is True else learned
        # the learned layer reads the rules' verdict on the pair, the older entry first,
        # at the default thresholds: find's verdict on (i, j) is that one when i is older
        judged = (
            {
                ij: v.kind if v is not None else "none"
                for ij, v in verdicts.items()
                if not _newer(times, *ij)
            }
            if thresholds == THRESHOLDS
            else {}
        )
        out.extend(_learned(target, entries, times, profiles, pairs, cosines, used, model, judged))
    cutoff = now - stale_after_days * DAY
    for i, entry in enumerate(entries):
        when = times[i]
        if i in used or when is None or when > cutoff:
            continue
        days = int((now - when) // DAY)
        out.append(
            TidyProposal(
                "stale",
                target,
                (entry,),
                (_drop(entry),),
                (f"untouched for {days} days ([memory] stale_after_days = {stale_after_days:g})",),
            )
        )
        used.add(i)
    for i, entry in enumerate(entries):
        if i in used or len(entry) <= verbose_chars:
            continue
        short = shorten(entry)
        why = f"{len(entry)} chars, longer than [memory] verbose_chars = {verbose_chars}"
        if len(short) <= len(entry) * (1 - MIN_SAVING):
            out.append(
                TidyProposal("verbose", target, (entry,), (_pin(entry, short),), (why,), short)
            )
        else:
            out.append(
                TidyProposal(
                    "verbose",
                    target,
                    (entry,),
                    (),
                    (why, "no shorter wording found offline: rewrite it, or run tidy with --llm"),
                )
            )
    order = {e: i for i, e in enumerate(entries)}
    out.sort(key=lambda p: min(order[e] for e in p.entries))
    return out
