"""Why tidy proposes, or does not propose, anything for two entries: :func:`explain_pair`.

A newcomer's first question when tidy leaves two entries they see as one fact alone.
Nothing here judges a pair: the answer comes from the planning tidy runs
(:func:`.proposals.propose` over the whole target, so an entry already in another
proposal is said so), then from the pair on its own (:func:`.plan.plan` of the two
entries), and only when that proposes nothing, from the checks :func:`.detect.judge`
and the learned layer read in their own order, each put in words: a veto with its
reason ("a number or letter that names which thing: bus 42 / 24"), two people, no
shared subject (the share of content words against its threshold), the lexical
similarity and the embedder's cosine against theirs, and the pair model's reading
against its decision point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...curated.entries import entry_handle
from ...curated.snapshot import sanitize
from ...curated.view import MemoryView
from ...embedding.vector_cache import CachedLoader
from ..text_search import EmbedderLoader
from .lookalikes import apart as two_facts
from .model import TidyProposal
from .pairmodel import PairModel, PairModelError, apart as model_apart, explain, pair_model, read
from .people import other_relatives, relatives
from .plan import _newer, plan
from .proposals import _cosines, _embedder, propose
from .signals import GENERIC, PairSignals, Profile, compare, profile, said
from .thresholds import THRESHOLDS
from .updates import replaced_side
from .vetoes import changed_in_place

__all__ = ["PairExplanation", "explain_pair"]


@dataclass(frozen=True)
class PairExplanation:
    """What tidy does with two entries of one target, and why, in words."""

    target: str
    entries: tuple[str, str]
    """The two entries, in the order they were asked about."""
    outcome: str
    """``merge`` or ``supersede`` (tidy proposes it), ``elsewhere`` (the pair alone
    would be proposed, but an entry is in another proposal of the store), ``apart``."""
    proposal: TidyProposal | None
    """The proposal that joins them (``elsewhere``: the one the pair alone gets)."""
    why: tuple[str, ...]
    """What kept them apart or joined them, each a sentence."""
    retrieval: str = "lexical"
    signals: dict[str, Any] = field(default_factory=dict)
    notices: tuple[str, ...] = ()
    hidden: tuple[bool, bool] = (False, False)
    """Which of the two the threat scan hides: shown by their handle only, as ``mnemic
    memory show`` does."""

    @property
    def shown(self) -> tuple[str, str]:
        """The two entries as a person may see them (a hidden one by its handle)."""
        a, b = (
            f"[hidden by the threat scan: {entry_handle(e)}]" if h else e
            for e, h in zip(self.entries, self.hidden, strict=True)
        )
        return a, b

    @property
    def headline(self) -> str:
        """One sentence: what tidy proposes for the two."""
        if self.outcome == "merge":
            return "Tidy proposes to merge them: one fact said twice."
        if self.outcome == "supersede":
            return "Tidy proposes that the newer replaces the older: one subject, another value."
        if self.outcome == "elsewhere":
            kind = self.proposal.kind if self.proposal else "join"
            return (
                f"On their own tidy would {kind} them, but one of them is in another "
                "proposal already (an entry is in one proposal at most)."
            )
        return "Tidy proposes nothing for them: it reads them as two facts."

    def next_step(self, *, console: bool = False) -> str:
        """What to do next, in the words of the CLI or (``console``) of the web console's
        pages ('' when the reasons say it already: ``elsewhere``)."""
        if self.outcome == "apart":
            if console:
                return (
                    "If they say one fact to you, keep one yourself: remove the other on the "
                    "Memory page (it goes to the archive), or edit it there."
                )
            return (
                "If they say one fact to you, keep one yourself: `mnemic memory remove` the "
                "other (it goes to the archive), or `mnemic memory replace` it."
            )
        if self.outcome in ("merge", "supersede") and self.proposal is not None:
            if console:
                return (
                    f"It is proposal [{self.proposal.fingerprint}], listed on this page: "
                    "Stage for approval queues it."
                )
            return (
                f"It is proposal [{self.proposal.fingerprint}]: `mnemic memory tidy` lists it, "
                "--stage queues it for approval."
            )
        return ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "target": self.target,
            "entries": list(self.shown),
            "handles": [entry_handle(e) for e in self.entries],
            "outcome": self.outcome,
            "summary": self.headline,
            "why": list(self.why),
            "proposal": self.proposal.as_dict() if self.proposal else None,
            "retrieval": self.retrieval,
            "signals": self.signals,
            "notices": list(self.notices),
        }


def _loaded(embedder: Any, loader: EmbedderLoader | None) -> EmbedderLoader:
    """A loader of the ``embedder`` already loaded, with ``loader``'s vector cache."""
    cache = loader.cache if isinstance(loader, CachedLoader) else None
    return (lambda: embedder) if cache is None else CachedLoader(lambda: embedder, cache)


def explain_pair(
    memory: MemoryView,
    target: str,
    first: int,
    second: int,
    *,
    embedder_loader: EmbedderLoader | None = None,
    now: float | None = None,
) -> PairExplanation:
    """What tidy proposes for entries ``first`` and ``second`` (indices in file order)
    of ``target`` of ``memory``, and why (see the module docstring). Never writes."""
    if first == second:
        raise ValueError("explain_pair needs two entries, got the same one twice")
    notices: list[str] = []
    embedder = _embedder(embedder_loader, notices)
    report = propose(
        memory,
        targets=(target,),
        embedder_loader=None if embedder is None else _loaded(embedder, embedder_loader),
        now=now,
    )
    notices += [n for n in report.notices if n not in notices]
    listing = memory.listing(target)
    entries = list(listing.entries)
    times = [p.last_touched for p in listing.provenance]
    asked = (entries[first], entries[second])
    i, j = sorted((first, second))
    a, b = entries[i], entries[j]
    cosine = None
    if embedder is not None and report.retrieval == "semantic":
        cosine = _cosines(embedder, [a, b])[0][1]
    learned: PairModel | bool
    try:
        learned = pair_model()
    except PairModelError:
        learned = False
    pa, pb = profile(a), profile(b)
    s = compare(pa, pb, cosine)
    signals: dict[str, Any] = {
        "word_overlap": round(s.word_overlap, 3),
        "lexical_similarity": round(s.alike, 3),
        "one_holds_the_other": round(s.contained, 3),
        "cosine": None if cosine is None else round(cosine, 3),
    }

    blocked = {k for k, _, _ in sanitize(target, entries, memory.level).blocked}

    def done(outcome: str, proposal: TidyProposal | None, why: list[str]) -> PairExplanation:
        return PairExplanation(
            target,
            asked,
            outcome,
            proposal,
            tuple(why),
            report.retrieval,
            signals,
            tuple(notices),
            (first in blocked, second in blocked),
        )

    if {i, j} & blocked:
        return done(
            "apart",
            None,
            ["the threat scan hides one of them from the prompt: tidy never proposes such "
             "an entry (see `mnemic memory show --raw` and `mnemic scan`)"],
        )  # fmt: skip
    for p in report.proposals:
        if a in p.entries and b in p.entries:
            why = list(p.reasons)
            if p.kind == "supersede" and p.entries[0] not in (a, b):
                why.insert(
                    0,
                    f"both are contradicted by a newer entry, '{_short(p.entries[0])}', "
                    "which the proposal keeps",
                )
            return done(p.kind, p, why)
    alone = plan(
        target,
        [a, b],
        [times[i], times[j]],
        now=0.0 if now is None else now,
        stale_after_days=float("inf"),
        verbose_chars=10**9,
        cosines=None if cosine is None else [[1.0, cosine], [cosine, 1.0]],
        learned=learned,
    )
    if alone:
        other = next(
            (
                p
                for p in report.proposals
                if p.kind in ("merge", "supersede") and (a in p.entries or b in p.entries)
            ),
            None,
        )
        why = list(alone[0].reasons)
        if other is None:
            why.append("but among the file's other entries, another pairing came first")
        else:
            held = a if a in other.entries else b
            why.append(
                f"but '{_short(held)}' is already in proposal [{other.fingerprint}] "
                f"({other.kind}: {other.summary}); approve or reject that one, then run "
                "tidy again"
            )
        return done("elsewhere", alone[0], why)
    why = _apart(pa, pb, s, cosine is not None, first > second)
    if isinstance(learned, PairModel):
        why.append(_model_reading(learned, pa, pb, s, times, i, j, cosine is not None))
    else:
        why.append("the learned pair model could not be loaded: tidy used its rules alone")
    if cosine is None:
        why.append(
            "compared by their words only "
            + (
                "(--lexical)"
                if embedder_loader is None
                else "(the embedder is not loaded: mnemic[semantic] compares them by meaning too)"
            )
        )
    return done("apart", None, why)


def _short(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def _apart(pa: Profile, pb: Profile, s: PairSignals, semantic: bool, flipped: bool) -> list[str]:
    """What the rules read for a pair they give no verdict: the veto that holds, and
    how far the pair is from a verdict (shared subject, lexical similarity, cosine).
    ``flipped``: the user asked about ``pb`` first (names are said in their order)."""
    t = THRESHOLDS
    vetoes: list[str] = []
    if other_relatives(pa.text, pb.text):
        people = [", ".join(sorted(relatives(p.text))) or "the user" for p in (pa, pb)]
        vetoes.append(
            "they are about two people ("
            + " / ".join(people[::-1] if flipped else people)
            + "), so two facts"
        )
    else:
        veto = two_facts(pa, pb)
        if veto:
            vetoes.append(f"{veto}; so two facts")
        elif replaced_side(pa, pb, t) == "":
            vetoes.append("the value one says it replaced is named for another subject")
    if vetoes and s.shared:
        return [f"a veto: {v}" for v in vetoes]
    shared = said(pa, set(pa.words & pb.words) - GENERIC)
    only_a, only_b = said(pa, set(s.only_a - GENERIC)), said(pb, set(s.only_b - GENERIC))
    if flipped:
        only_a, only_b = only_b, only_a
    out: list[str] = []
    if not (s.shared >= 1 and s.word_overlap >= t.subject_overlap):
        out.append(
            f"no shared subject: {s.word_overlap:.0%} of the shorter one's content words "
            f"are in the other ({shared or 'none'}); the rules need {t.subject_overlap:.0%}"
        )
    else:
        out.append(
            f"one subject ({shared}), but no rule read another value of it or one fact "
            f"said twice: only A says '{only_a or '-'}', only B '{only_b or '-'}'"
        )
    out += [f"a veto holds as well: {v}" for v in vetoes]
    place = changed_in_place(pa, pb) if s.alike >= t.merge_strict else ""
    if place:
        out.append(f"they differ in one place by a word, not a typo ({place}): two things")
    out.append(
        f"lexical similarity {s.alike:.2f} (a merge needs {t.merge_strict:.2f}, or "
        f"{t.merge_lexical:.2f} when one only adds words to the other: "
        f"{s.contained:.2f} here)"
    )
    if semantic and s.cosine is not None:
        out.append(
            f"the embedder's similarity {s.cosine:.3f} (one fact in other words from "
            f"{t.meaning_cosine:.3f} when nothing tells them apart)"
        )
    return out


def _model_reading(
    model: PairModel,
    pa: Profile,
    pb: Profile,
    s: PairSignals,
    times: Sequence[float | None],
    i: int,
    j: int,
    semantic: bool,
) -> str:
    """The learned pair model's reading of the pair, in words, against its thresholds."""
    case = "semantic" if semantic else "offline"
    old, new = (pb, pa) if _newer(times, i, j) else (pa, pb)
    s = compare(old, new, s.cosine)
    names = read(old, new, s, model.reads_cosine(case), model.feature_version)
    score = model.score(names, case)
    t_merge, t_change = model.threshold(case, "merge"), model.threshold(case, "change")
    reading = (
        f"the learned pair model ({case}) reads 'the newer replaces the older' "
        f"{score.change:.2f} (it proposes from {t_change:.2f}) and 'one fact said twice' "
        f"{score.merge:.2f} (from {t_merge:.2f})"
    )
    head = "change" if score.change >= t_change and score.change >= score.merge else None
    if head is None and score.merge >= t_merge:
        head = "merge"
    if head is None:
        return reading + ": below both"
    kept = model_apart(old, new, s, head) or two_facts(old, new)
    weighed = "; ".join(explain(n) for n in score.top) or "no single signal"
    return f"{reading}; weighed most: {weighed}; but the rules keep them apart: {kept}"
