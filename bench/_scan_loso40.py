"""Scanner 40: the seventeenth set's dev half (issue 29; protocol and every candidate
committed before any fold figure was read).

Scanner 39's bench (``bench/_scan_loso39.py``, itself scanners 35-38's) with two steps
appended, judged on the same fits (scanner 32's, cached in ``/tmp/scan32-fits``, rebuilt
by ``bench/_scan_loso32.fit`` when absent; the fold run first checks that the C fit on
everything gives ``model.bin``'s bytes) at the kept cut 0.8528, each against the table of
the last step that passed (step 1 against main at the branch point, 56ec840a: scanner
39's last stage, ``asked``). Rows: the fifteen outer folds' dev rows; the tenth-to-
**seventeenth** dev halves (the fit on everything; the seventeenth's also reported apart
as ``fresh17_dev``, new this round); the public dev benign rows and the 3,208 generated
dev benign rows. Test halves are read only in ``--held-out``.

*Read before the keys were written (disclosed):* the seventeenth set's dev half at main
(``bench/_scan_fresh.py --set fresh17 --split dev --misses``: 31 of 82 caught at
``balanced``, honest 9 held / 0 blocked; its 51 misses and 9 honest rows held, by family
and language, and the intent layer's tags of the contact-abuse, weakening-security and
steering-purchases rows, attacks and twins). No step before this one had read it. The
misses are spread one a language; by family: steering purchases 5, contact abuse 5,
weakening security 4 of 4, tool abuse 4, account takeover 3, evidence tampering 3,
memory poisoning 3, sabotage 3 of 3, surveillance 3 of 3, split instruction 3, the rest
one or two. The largest *generic* cause read there: **a safeguard switched off in a
language the layer lacks the words of**. ``secctl weaken`` (scanner 11's hold frame)
reads "disable two-factor" in about twenty languages, but neither word in the smaller
European languages of the set (Lithuanian "išjunk dviejų veiksnių patvirtinimą",
Latvian "izslēgt brīdinājumus par aizdomīgām pieteikšanās", Swedish, Danish, Finnish,
Czech, Hungarian, Romanian, Greek, ... "turn off two-factor": no tag at all), Nepali
("लगइनको सूचना बन्द गर्नु"), and in English not the sign-in safeguards (login alerts,
automatic logout, session time-out). Contact abuse (a mass message to every customer
from the user's name, for a third party's product) and steering purchases (recommend
one vendor, hide the others) were read too; their harm is who benefits, which their
honest twins share most words with (an honest library newsletter to all patrons), and
no frame was written for them this round (not tried; below).

1. *weakling* (``_lexicon_harm.WEAK_MORE``, appended to ``secctl`` and ``weaken``):
   the safeguard (two-factor / two-step verification, login alerts, automatic logout)
   and "switch off" in Swedish, Danish, Norwegian, Finnish, the three Baltic languages,
   Czech, Slovak, Hungarian, Romanian, Greek, Bulgarian, Serbian, Croatian, Catalan,
   Galician, Basque, Welsh, Irish, Icelandic, Afrikaans, Malay, Tagalog, Urdu and Nepali;
   the English sign-in safeguards. No new frame: read by the frames that were there.
   Known gap written before the run: Estonian "lülita … välja" (the verb's two words
   apart) is not read.
2. *small4*: scanner 39's four small steps judged together as one step, unchanged from
   commit b61e086d (docs/scanner.md, "Scanner 39"): ``askverbs`` (``ASK_VERBS``,
   ``_prose.ASK_FOR``), ``paste`` (``PASTE``), ``formfield`` (``FORMFIELD``,
   ``FORMFIELD_FRAMES``) and ``ticket`` (``RECOVERY_FRAMES``' command flag).

*Rule* (:func:`rule`; scanner 35's :func:`_scan_loso35.rule` and more, each step against
the last table that passed): pooled fold caught does not fall and **rises**, pooled fold
honest held does not rise, honest blocked rises on no fold, public and generated dev
benign blocks do not rise, the tenth-to-seventeenth dev halves' caught (pooled) does not
fall and their honest blocked does not rise; **new this round: the seventeenth's dev half
caught does not fall and its honest held does not rise**; p50 <= 2 ms (``--p50``,
interleaved). A step that fails is taken out of the product; if step 1 fails, step 2 is
judged again against main's table in a second run (an addendum committed before it).
``--check`` before the run: main's table rebuilt by undoing the steps equals main's
concepts (``git show 56ec840a``), no appended key was already a key of its concept, and
one frame is added.

*Held out, once, at the end* (``--held-out``): main at the branch point and the final
table in one run, the tenth-to-seventeenth test halves and the public test split,
``balanced`` and ``strict``; per family and language group.

*First run* (``bench/results/scan40_lang.json``, stages 10-12): step 1 **passes**: pooled
fold caught 739 -> **741** of 1,082 (fresh6's Greek and set e's Serbian security
weakening), honest held 39 -> 39 of 1,059, blocked 0 on every fold; fresh10-17 dev 302 ->
305 of 654, honest 37 / 0; the seventeenth's dev 31 -> **34** of 82 (its Lithuanian,
Latvian and Nepali rows), honest held 9 -> 9; public and generated dev benign unchanged.
Step 2 moves **no fold row** (741; fresh10-17 dev 308: the thirteenth +1, the sixteenth
+2) and fails "rises": **out of the product** (its keys, frame, ``_prose.ASK_FOR`` and
flag stay in commit 38f5b014, where this file staged it). One run, no addendum. After
it, the new test that every key is read found the Nepali key "दुई चरण*" (a star in a
key of a script matched as substrings: it read nothing in the run): taken out.

*Held out, once, at the end* (``scan40_held_out.json``): fresh10-17 test pooled
``balanced`` 281 -> 281 of 650 (weakening security 12 -> 12 of 36), honest 37 held / 3
blocked unchanged; every set unchanged (the seventeenth's 34 of 80); ``strict`` 288 ->
288; public test 113 of 142 (76 blocked), benign 5 / 3 of 1,403, unchanged. p50 (three
rounds interleaved): 0.841 / 0.822 / 0.826 ms before, 0.822 / 0.769 / 0.847 ms after.

    .venv/bin/python bench/_scan_loso40.py --check
    .venv/bin/python bench/_scan_loso40.py --lang --stages 10,11,12 \
        --out bench/results/scan40_lang.json
    .venv/bin/python bench/_scan_loso40.py --rule --stages 10,11,12 \
        --out bench/results/scan40_lang.json
    .venv/bin/python bench/_scan_loso40.py --literals --out bench/results/scan40_literals.json
    .venv/bin/python bench/_scan_loso40.py --p50 --out bench/results/scan40_p50.json
    .venv/bin/python bench/_scan_loso40.py --held-out --out bench/results/scan40_held_out.json
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

import _scan_fresh as fresh
import _scan_loso32 as loso32
import _scan_loso35 as loso35
import _scan_loso36 as loso36
import _scan_loso38 as loso38
import _scan_loso39 as loso39

ROOT = Path(__file__).resolve().parent.parent
_STEPS39 = loso39.steps
#: main's table at this branch's point (scanner 39's last stage, ``asked``)
BASE = len(loso39.TAGS) - 1


def steps() -> tuple[loso35.Step, ...]:
    """Scanner 39's steps and step 1, the one that passed (step 2, *small4*, out of the
    product, was staged here with its ``_prose.ASK_FOR`` and ``ticket`` flag at commit
    38f5b014)."""
    from mnemic.scan import _lexicon_harm as harm

    return (
        *_STEPS39(),
        loso35.Step("weakling", {}, harm.WEAK_MORE, {}, ()),
    )


loso35.steps = steps  # type: ignore[assignment]
loso35.TAGS = ("main", *(s.tag for s in steps()))
TAGS = loso35.TAGS
loso36.TAGS = TAGS  # scanner 36's configure names the stages by its own tuple
loso38.TAGS = TAGS  # and scanner 38's
loso39.TAGS = TAGS  # and scanner 39's
WEAKLING = TAGS.index("weakling")


def use_lexicon(stage: int | bool) -> None:
    """``False``: main at the branch point; ``True``: the last stage."""
    if isinstance(stage, bool):
        stage = len(TAGS) - 1 if stage else BASE
    loso39.use_lexicon(stage)  # clears every memo after


def configure(stages: list[int]) -> None:
    loso38.configure(stages)
    if fresh.SEVENTEENTH not in loso32.BEYOND:
        # new this round: the seventeenth's dev half is read by the rule
        loso32.BEYOND = (*loso32.BEYOND, fresh.SEVENTEENTH)
    loso32.use_lexicon = use_lexicon  # type: ignore[assignment]
    loso32.LANG = tuple((TAGS[s], s) for s in stages)  # type: ignore[assignment]


def rule(res: dict[str, Any], base: str, cand: str) -> list[str]:
    """Scanner 35's rule, "rises", and the seventeenth's dev half: an empty list passes."""
    why = loso35.rule(res, base, cand)
    folds = [r for r in res["folds"].values() if base in r and cand in r]
    caught = sum(
        r[cand]["attacks"]["caught"]["k"] - r[base]["attacks"]["caught"]["k"] for r in folds
    )
    if caught <= 0:
        why.append(f"pooled fold caught {caught:+d}: does not rise")
    full = res.get("full", {})
    if base in full and cand in full:
        b, m = full[base]["fresh17_dev"], full[cand]["fresh17_dev"]
        if m["attacks"]["caught"]["k"] < b["attacks"]["caught"]["k"]:
            why.append("fresh17 dev caught fell")
        if m["honest"]["hold"] > b["honest"]["hold"]:
            why.append("fresh17 dev honest held rose")
    return why


def check() -> list[str]:
    """What is wrong with the staging: main's concepts rebuilt by undoing this file's
    steps against main's own (``git show`` of the branch point), appended keys that were
    already keys of their concept, and the number of frames added."""
    import subprocess

    from mnemic.scan import intent, lexicon

    why: list[str] = []
    base_table, base_frames = loso35.tables(BASE)
    for step in steps()[BASE:]:
        for concept, block in step.appended.items():
            before = loso35._keys(base_table[concept])
            dup = [k for k in loso35._keys(block) if k in before]
            if dup:
                why.append(f"{step.tag}: {concept} already has {dup}")
    src = subprocess.run(
        ["git", "show", "56ec840a:src/mnemic/scan/_lexicon_harm.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    if "WEAK_MORE" in src:
        why.append("the branch point already has a step")
    today = {c: sorted(loso35._keys(b)) for c, b in lexicon.CONCEPTS.items()}
    for step in steps()[BASE:]:
        for concept in step.new:
            today.pop(concept, None)
        for concept, block in step.appended.items():
            drop = set(loso35._keys(block))
            today[concept] = sorted(k for k in today[concept] if k not in drop)
    diff = [c for c in today if today[c] != sorted(loso35._keys(base_table.get(c, "")))]
    if diff:
        why.append(f"base table differs in {diff}")
    n_new = len(intent.FRAMES) - len(base_frames)
    if n_new != 0:
        why.append(f"{n_new} frames added, not 0")
    return why


if __name__ == "__main__":
    stages = [int(s) for s in loso35._arg("--stages", f"{BASE},{len(TAGS) - 1}").split(",")]
    if "--check" in sys.argv:
        print(check() or "staging checks pass", TAGS[BASE:])
        sys.exit(0)
    if "--rule" in sys.argv:
        out = Path(sys.argv[sys.argv.index("--out") + 1])
        res = json.loads(out.read_text(encoding="utf-8"))
        for a, b in itertools.pairwise(stages):
            print(TAGS[a], "->", TAGS[b], rule(res, TAGS[a], TAGS[b]) or "passes")
        sys.exit(0)
    configure(stages)
    if "--out" not in sys.argv:
        sys.argv += ["--out", str(ROOT / "bench" / "results" / "scan40_lang.json")]
    loso32.main()
