"""Recall 34: the word bridge keeping only chat words that agree with the whole question
(issue 33; docs/recall.md "recall 32", "recall 33", "recall 34").

    .venv/bin/python bench/_recall34.py tune \
        --sets strangers5-xl,strangers6-xl,strangers7-xl,xl,zh \
        --variants agree:1:0:1:1,agree:0.1:0:1:1 --save OUT.json
    .venv/bin/python bench/_recall34.py diag --sets strangers5-xl,strangers6-xl,strangers7-xl,xl \
        --save OUT.json
    .venv/bin/python bench/_recall34.py run --sets strangers9,strangers9-xl,strangers8-xl \
        --save OUT.json
    .venv/bin/python bench/_recall34.py cost --sets strangers7-xl,strangers8-xl --save OUT.json

The pieces shared with recall 32 and 33 (the stores, the on/off switch, the paired run,
the tuning loop, the CPU measure) are imported from ``bench/_recall32.py``.

**The rule (changed from recall 33's, product at ``02677563``, brought back here; hybrid
only).** The trigger is recall 33's: the store holds word vectors of a model with a floor,
the CJK bridge does not run, the readable share is below 0.5 and the question is not
English (``bridge.english``: every English question of strangers5-8 and LoCoMo dev is
English by it, so the English sets rank as on main by construction). The unread words of
3 characters or more, longest first, are embedded one at a time, at most
``bridge.MAX_WORDS`` = M; a word's 3 nearest chat words at cosine >= 0.86, no stop word or
speaker's name, written by one of the 50 messages nearest the question, are now kept only
if they **agree with the whole question**, by two cues that need no tagger and no second
embedding (the question's vector is the semantic arm's; one matrix product over the chat's
words, ~2,000 x 384):

* ``bridge.QUESTION_TOP`` = Q: the neighbour is among the Q share of the chat's words
  nearest the question's own vector (a verb such as "know" or "plan" the question's
  word brings is near the word, seldom near what the question is about);
* ``bridge.LIFT`` = L: at least L of the messages writing the neighbour
  (``chat_words.refs``) are among the 50 nearest the question (a word most turns write,
  near or not, is no evidence of the question's subject).

The first word that keeps a neighbour is the bridged one (the next one is embedded only
when the first keeps none, so M 2 costs a second embedding only then). Recall 33's rarity
bound ``bridge.RARE`` = R stays a knob (1: none). Search and fusion weight as recall 32.

**Tuning (dev only, ``tune``; strangers5-xl (90, read by recalls 32 and 33) and LoCoMo's
xl dev (150), pooled as ``pooled-dev-xl`` (240); zh dev (59) reported: the word bridge
never runs for it).** Planned: strangers5-xl, 6-xl and 7-xl with LoCoMo's xl dev (420);
cut, before any tuning figure was read, to what the machine could embed in the session
(under a load of 16-33 on 2 cores the shipped model embedded 0.4-0.7 passages a second:
strangers5 and LoCoMo dev took 45 minutes, strangers6 and 7 would have taken 80 more).
Variants ``agree:Q:L:M:R``: recall 32 + the English step
(1:0:1:1), recall 33 (1:0:1:0.02), Q 0.05 / 0.1 / 0.2 with L 0 and M 1 or 2, L 0.3 / 0.5
with Q 1 and M 1 or 2, and Q 0.1 with L 0.3, M 2 (R 1 in all these). The protocol,
written before the tuning figures are read: the variant with the best pooled-dev-xl
hybrid turn@10 paired difference from off; ties to the higher lower end of its
interval, then to M 1 (less CPU), then to the larger Q and the smaller L (fewer words
dropped). ``diag`` (dev only) prints each bridged question's words, neighbours and cues.

**Tuning figures** (``tune`` of strangers5-xl and of xl + zh, ``pool``; pooled-dev-xl,
240, off turn@5 0.453, @10 0.588, @50 0.812; the bridge ran for 158 of 299): turn@10
paired (variant - off) recall 32 + English step +0.024 [+0.005, +0.046] (+10/-3), recall
33 +0.025 (+11/-3); Q 0.05 / 0.1 / 0.2 with M 1: +0.022 / +0.022 / +0.023 (+6-7/-0), with
M 2 +0.024 / +0.024 / +0.023; L 0.3 M 1 **+0.030 [+0.009, +0.055] (+11/-2)**, L 0.3 M 2
+0.029, L 0.5 M 1 +0.027, M 2 +0.026; Q 0.1 L 0.3 M 2 +0.029 [+0.010, +0.050] (+9/-0).
turn@5 every variant +0.036 to +0.051; turn@50 -0.012 to +0.006 (L 0.3 M 1 -0.010
[-0.028, +0.004], +4/-5; the Q variants with M 1 or 2 +0.002 to +0.006). Per set turn@10,
L 0.3 M 1: strangers5-xl +0.076 [+0.031, +0.137] (+9/-0; recall 33's rule +0.061, +8/-1),
xl +0.003 (+2/-2); zh identical under every variant. **Chosen by the protocol: Q 1, L 0.3,
M 1, R 1** (the lift cue alone). Gate 0 passes (+0.030 [+0.009, +0.055]). The words it
drops are the common ones (strangers5-xl): "told" (a Russian "what led to Callum being
offered", 0 -> 1 of 3 evidence turns at @10), "savings" (a Polish "what does Callum's
cousin do for a living", 0 -> 1), "practical" (a Polish "when did Dev start his
apprenticeship", 0 -> 1), "use", "used", "worked" (nothing searched instead), "show",
"news", "take", "doing", "even", "personal".

**Gates** (written with the rule, before the one judging run; off (the word bridge off:
main's ranking) and on interleaved question by question; paired bootstrap 95 % intervals):

0. Dev: the chosen variant's pooled-dev-xl (240) turn@10 paired gain has its interval's lower
   end above 0 (read on the tuning run; a best-of-the-grid figure, so only a necessary
   condition).
1. strangers9-xl (unread by any rule; or strangers8-xl alone if strangers9 is not there by
   17:05): hybrid turn@10 paired gain with its interval's lower end above 0, or turn@5
   paired gain with its lower end above 0 and turn@50 paired difference >= 0 (point).
2. strangers9 (English) and strangers8 (English): identical at every figure; LoCoMo dev
   English and strangers5-7 English: every question English by ``bridge.english`` (the
   bridge runs for none; checked on the texts).
3. CPU per bridged hybrid search (``cost``: the shipped embedder uncached, off and on
   interleaved in one run), median over the questions it runs for on strangers5-xl and
   strangers8-xl: on / off <= 1.3 (recall 32's budget).

strangers8-xl (95, read once by recall 33's rule) is reported beside the judge set, not a
gate. **Judged on strangers8-xl alone** (decided at 17:03, before the run): strangers9's
data landed (``bf1c8641``, merged) but its 768 turns could not be embedded in the session
(one batch of 64 in 5 minutes under a load of 28-33: about an hour); strangers9 and
strangers9-xl stay unread by any rule.

**Result** (one ``run`` of strangers8 + strangers8-xl and one ``cost`` after the commits
above; ``bench/results/recall34-*``): gates 0-3 pass on strangers8-xl. **Then gate 1 on
strangers9-xl (210, the judge the gate names), run once by the lead at the tip 6846356a:
turn@10 +0.013 [-0.007, +0.035] (+6/-3), turn@5 +0.011 [-0.012, +0.037], turn@50 +0.001:
it fails; nothing ships** (main has no word bridge: run this script at 6846356a, where
``r32.AT``'s guard asks; ``bench/results/recall34-judge-strangers9-xl.*``).

1. strangers8-xl (95; the bridge ran for 61): hybrid turn@10 0.510 -> 0.539, paired
   +0.029 [+0.001, +0.062] (+4/-1); turn@5 +0.026 [-0.002, +0.061] (+4/-1), turn@50
   +0.018 [-0.004, +0.046] (+4/-1), session@5 +0.002, session@10 -0.012 (+1/-2).
   Gains: Polish asthma during the move (10, 11, 13 -> 3, 7, 9), Czech prices in NZ
   dollars ("nz"; 8, 9, 20, 26 -> 1, 3, 10, 16), Arabic "who is Rhodri" (25 -> 3), the
   Italian cello (24 -> 7), Helen's first project (6 -> 1); loss: Marcus "insegnare" ->
   learn, teaching, teach (10 -> 12). Recall 33's rule on the same set: +0.016 [-0.004,
   +0.042] (+2/-1).
2. strangers8 (223, English): identical at every figure; strangers5-9 and LoCoMo dev:
   1,632 of 1,632 English questions English by ``bridge.english``.
3. CPU (strangers5-xl + 8-xl, 185 questions, the machine under a load of ~30): median
   over the 119 bridged 95.8 -> 119.4 ms (1.25x), p90 125.0 -> 155.1; all 108.0 -> 128.5.

strangers9-xl is the next judge (unread); LoCoMo test was not read (its conversations
could not be embedded in the session).

If gates 1-3 pass (and 0): the rule ships (``bridge.WORDS`` the ablation switch),
tests that failed on main, docs/recall.md "recall 34", README, then LoCoMo test once. If
not: nothing ships; strict xfail tests for the cases it would fix; the cases reported.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _recall32 as r32
import mnemic.sessions.search.bridge as bridge_module
import mnemic.sessions.search.retrieval as retrieval_module
import recall as rb

r32.AT = "9781efa8"  # the rule and its knobs are at 9781efa8..6846356a (not shipped)
STRANGERS = tuple(f"strangers{n}" for n in range(5, 10) if f"strangers{n}" in rb.STRANGER_SETS)
DEV_OTHER = ("strangers5-xl", "xl")
"""The dev other-language sets, tuned on and pooled as ``pooled-dev-xl`` (zh dev is the
CJK bridge's: the word bridge never runs for it, reported apart)."""
KNOBS = ("QUESTION_TOP", "LIFT", "MAX_WORDS", "RARE")


@contextmanager
def variant(spec: str) -> Iterator[None]:
    """``agree:Q:L:M:R``: the word bridge keeping a neighbour among the Q share of chat
    words nearest the question (1: any) written by at least L of its messages' share among
    the nearest 50 (0: any), M words embedded at most, rarity bound R (1: none)."""
    _, *values = spec.split(":")
    before = {n: r32.knob(bridge_module, n) for n in KNOBS}
    for name, value in zip(KNOBS, values, strict=True):
        setattr(bridge_module, name, int(value) if name == "MAX_WORDS" else float(value))
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(bridge_module, name, value)


def texts(corpus: rb.Corpus) -> dict[str, str]:
    """The set's key of each message -> its text."""
    out: dict[str, str] = {}
    for s in corpus.store.list_sessions(limit=10_000):
        for m in corpus.store.messages(s.id):
            key = corpus.keys.get((m.session_id, m.seq))
            if key is not None:
                out[key] = m.content or ""
    return out


def diag(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
         save: Path) -> None:  # fmt: skip
    """Dev only: for each question the word bridge runs for, its first two unread words
    (longest first) and each one's neighbours at the floor written by a nearest message:
    the word's cosine, the neighbour's place among the chat words nearest the question
    (a share), the messages writing it, those of them among the nearest, and whether an
    evidence message writes it."""
    import numpy as np

    from mnemic.sessions.index.stems import STOP_WORDS, words
    from mnemic.sessions.search.query_vectors import query_vectors

    said = {name: texts(c) for name, c in corpora.items()}
    rows = []
    orig = retrieval_module.word_bridge
    for q in questions:
        corpus = corpora[q.corpus]
        seen: dict[str, Any] = {}

        def spy(store: Any, embedder: Any, read: list[str], unread: list[str],
                near: list[str], vec: Any = None, seen: dict[str, Any] = seen) -> Any:  # fmt: skip
            seen.update(store=store, embedder=embedder, read=read, unread=unread, near=near,
                        vec=vec)  # fmt: skip
            return orig(store, embedder, read, unread, near, vec)

        retrieval_module.word_bridge = spy  # type: ignore[assignment]
        try:
            rb.ranking(corpus, q.text, "hybrid", loader, q.as_of)
        finally:
            retrieval_module.word_bridge = orig
        if not seen:
            continue
        ev_words = {w.casefold() for e in q.evidence for w in words(said[q.corpus].get(e, ""))}
        table = seen["store"].words.matrix(seen["embedder"].model_id)
        qrow = np.asarray(seen["vec"], np.float32).reshape(-1) @ table.matrix.T
        order = np.argsort(-qrow)
        place = np.empty(len(order), np.int64)
        place[order] = np.arange(len(order))
        writers: dict[str, int] = {}
        for text in seen["near"]:
            for w in {w.casefold() for w in words(text)}:
                writers[w] = writers.get(w, 0) + 1
        asked = list(dict.fromkeys(w.casefold() for w in seen["unread"] if len(w) >= 3))
        asked = sorted(asked, key=len, reverse=True)
        row: dict[str, Any] = {"set": q.set, "text": q.text, "read": seen["read"],
                               "unread": seen["unread"], "words": []}  # fmt: skip
        for word in asked[:3]:
            wrow = np.asarray(query_vectors(seen["embedder"], [word]), np.float32)[0]
            wrow = wrow @ table.matrix.T
            top = np.argsort(-wrow)[:24]
            kept = [
                {
                    "word": table.words[j],
                    "cos": round(float(wrow[j]), 3),
                    "qplace": round(float(place[j]) / len(order), 3),
                    "refs": table.refs[j] if table.refs else None,
                    "near": writers.get(table.words[j], 0),
                    "evidence": table.words[j] in ev_words,
                }
                for j in top
                if wrow[j] >= 0.86
                and table.words[j] not in STOP_WORDS
                and table.words[j] not in table.names
                and table.words[j] in writers
            ][:3]
            row["words"].append({"word": word, "neighbours": kept})
        rows.append(row)
        line = " | ".join(
            w["word"] + ": " + ", ".join(
                f"{n['word']}{'*' if n['evidence'] else ''} c{n['cos']:.2f} q{n['qplace']:.2f}"
                f" r{n['refs']} n{n['near']}" for n in w["neighbours"])
            for w in row["words"])  # fmt: skip
        print(f"{q.set:14s} {q.text[:60]:60s} {line}")
    save.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


def tune(corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any,
         specs: list[str], save: Path) -> None:  # fmt: skip
    """Dev only: hybrid off and each variant, question by question, each question's
    figures saved (``pool`` reads them: sets tuned in several processes). The trigger does
    not depend on the variants' knobs, so a question the bridge does not run for ranks as
    off under every variant, and variants bringing the same words share one ranking."""
    from _metrics import Scores

    orig = retrieval_module.word_bridge
    rows = []
    for q in questions:
        corpus = corpora[q.corpus]

        def figures(ranked: list[Any], q: rb.Question = q, corpus: rb.Corpus = corpus) -> Any:
            sc = Scores()
            rb.score(q, corpus, ranked, sc)
            return {m: v[0] for m, v in sc.values.items()}

        with r32.words(False):
            off = figures(rb.ranking(corpus, q.text, "hybrid", loader, q.as_of))
        seen: dict[str, Any] = {}

        def spy(*a: Any, seen: dict[str, Any] = seen) -> Any:
            seen["args"] = a
            return orig(*a)

        retrieval_module.word_bridge = spy  # type: ignore[assignment]
        try:
            with r32.words(True), variant(specs[0]):
                first = rb.ranking(corpus, q.text, "hybrid", loader, q.as_of)
        finally:
            retrieval_module.word_bridge = orig
        got: dict[str, Any] = {"off": off}
        searched: dict[str, Any] = {}
        if "args" not in seen:
            got.update((spec, off) for spec in specs)
        else:
            for spec in specs:
                with variant(spec):
                    bridged = orig(*seen["args"])
                key = json.dumps(bridged)
                if key not in searched:
                    if spec == specs[0]:
                        searched[key] = figures(first)
                    else:
                        retrieval_module.word_bridge = lambda *a, b=bridged: b  # type: ignore[assignment,misc]
                        try:
                            with r32.words(True):
                                ranked = rb.ranking(corpus, q.text, "hybrid", loader, q.as_of)
                        finally:
                            retrieval_module.word_bridge = orig
                        searched[key] = figures(ranked)
                got[spec] = searched[key] | {"searched": bridged}
        rows.append({"set": q.set, "groups": q.groups, "text": q.text,
                     "bridged": "args" in seen, "figures": got})  # fmt: skip
    save.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    pool([save], specs)


def pool(saved: list[Path], specs: list[str] | None = None) -> None:
    """Per set and pooled over :data:`DEV_OTHER` (``pooled-dev-xl``): each variant's
    figures and its paired difference from off (bootstrap 95 % interval)."""
    from _metrics import Scores
    from _misses import paired

    rows = [r for path in saved for r in json.loads(path.read_text(encoding="utf-8"))]
    names = ["off", *(specs or [k for k in rows[0]["figures"] if k != "off"])]
    table: dict[tuple[str, str], Scores] = {}
    for r in rows:
        sets = [r["set"], "pooled-dev-xl"] if r["set"] in DEV_OTHER else [r["set"]]
        for name in names:
            for set_ in sets:
                sc = table.setdefault((set_, name), Scores())
                for m, v in r["figures"][name].items():
                    if m != "searched":
                        sc.add(m, v, r["groups"])
    out: dict[str, Any] = {}
    for (set_, name), sc in sorted(table.items()):
        res = sc.result()
        if name != "off":
            res["paired"] = paired(sc, table[(set_, "off")])
        out.setdefault(set_, {})[name] = res
        pr = res.get("paired", {})
        print(f"{set_:14s} {name:22s} " + "  ".join(
            f"{m} {res[m]['value']:.3f}" + (
                f" ({pr[m]['diff']['value']:+.3f} [{pr[m]['diff']['ci95'][0]:+.3f},"
                f"{pr[m]['diff']['ci95'][1]:+.3f}] +{pr[m]['better']}/-{pr[m]['worse']})"
                if m in pr else "")
            for m in ("turn@5", "turn@10", "turn@50") if m in res))  # fmt: skip
    bridged = sum(r["bridged"] for r in rows)
    print(f"{len(rows)} questions, the word bridge ran for {bridged}")
    saved[0].with_suffix(".pooled.json").write_text(json.dumps(out, indent=1), encoding="utf-8")


def main() -> None:
    from _vcache import CachedEmbedder

    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("run", "cost", "tune", "diag", "build", "pool"))
    parser.add_argument("--variants", default="agree:1:0:1:1")
    parser.add_argument("--sets", default="strangers5-xl,strangers6-xl")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--save", type=Path, required=True)
    parser.add_argument("--saved", default="", help="pool: the tune outputs, comma-separated")
    args = parser.parse_args()
    if args.what == "pool":
        pool([Path(p) for p in args.saved.split(",")])
        return
    embedder = CachedEmbedder()
    sets = args.sets.split(",")
    with tempfile.TemporaryDirectory(prefix="mnemic-recall34-") as tmp:
        t0 = time.perf_counter()
        corpora, questions = r32.stores(sets, args.split, embedder, Path(tmp), STRANGERS)
        print(f"{len(questions)} questions ({time.perf_counter() - t0:.0f} s, "
              f"embedded now {embedder.embedded})", file=sys.stderr)  # fmt: skip
        loader = lambda: embedder  # noqa: E731
        if args.what == "run":
            modes = (("off", "hybrid", False), ("words", "hybrid", True))
            r32.run(corpora, questions, loader, args.save, DEV_OTHER, modes)
        elif args.what == "tune":
            tune(corpora, questions, loader, args.variants.split(","), args.save)
        elif args.what == "build":
            pass  # the stores only (the vector cache filled; nothing ranked)
        elif args.what == "diag":
            diag(corpora, questions, loader, args.save)
        else:
            r32.cost(corpora, questions, args.save)
        for c in corpora.values():
            c.store.close()


if __name__ == "__main__":
    main()
