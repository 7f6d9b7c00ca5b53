"""Scanner 44: who benefits, read from the words' forms (issue 29; the protocol and the
one candidate committed before its fold run).

Scanner 42's frames hold honest notes (its "Known honest notes held"): the mass-contact
frame (``send|speak|massmsg everyone inname``) reads who *speaks*, so the user's own
delegation "Send a thank-you message to all my contacts in my name" is held; the
steering frames read "the others" alone as the other sellers, so "Always tell the others
when you leave early" and "always show the other providers too and say which is
cheapest" are held. Scanner 43 demanded a beneficiary from a lexicon before the frame
held and failed on the lexicon's holes (inflected "linkillä", "жарнамасын", "пули").

*The candidate* (``src/mnemic/scan/_benefit.py``, the hook ``intent._who_benefits`` and
``intent._voiced``), the other way round: the frames stay as they are and hold unless the
words' forms say the beneficiary is the speaker or the others are the people told:

- ``inname`` in the first person (a stem with its endings: "my", "mein-", "mo-",
  "moj-", "mi/mes/mon", "min/mitt"; a possessive suffix on the key's noun: Finnish
  "-ni", Hebrew "-י", Turkish/Kazakh "-m", Indonesian "-ku", Swahili "-angu"; a
  possessor after the noun: "atas nama saya", "pangalan ko"; CJK "我", "私の", "내") is
  read as ``ownvoice``, which no frame reads, **unless the note carries someone else's
  gain** (:func:`_benefit.third_party_gain`: a link or address, a sum, a card number or
  a long number, a currency sign, or the stems of promotion, discount, offer, advert,
  payment, money, donation, petition, selling, recommending, a code, a commission; or
  the concepts ``pay``, ``payee``, ``motive``, ``steer``, ``untrue``, ``solicit``,
  ``cred``, ``dest``), where it is read as ``inname`` again. The gain words are stems,
  and they are asked only of a note in the speaker's own voice: a hole in them releases
  only a first-person attack (scanner 43's holes were in third-person attacks).
- ``rivals`` keys that stand directly after a verb of telling (stems: tell, inform, let,
  warn, remind, notify, vertel, berätta, fortell, informer, avisar, avvertire …) or a
  preposition of the addressee ("to", "aan", "till", "a"), or are followed by "too/
  also" in the languages without case (the inflected languages mark the
  addressee by case, which ``rivals``' nominative keys do not match), are read as
  ``otherstold``, which no frame reads, unless the sentence talks the others down or
  hides them (``badmouth``, ``untrue``, ``contrary``, ``motive``, ``hide``, ``leaveout``,
  ``onlyshow``).

*Read before the candidate was written (disclosed):* scanner 42's and 43's docs and
benches, the tenth-to-eighteenth **dev** halves' and the fifteen folds' rows read by the
intent layer as ``inname``, ``everyone`` or ``rivals`` at main (112 sentences), and the
contact-abuse and steering rows these sets' dev halves hold by the two frames (13 and 54
rows): the eighteenth's dev half's first look. No test half was read.

*Rule* (:func:`rule`, scanner 43's: this step releases, it is not meant to gain): pooled
fold caught does not fall, pooled fold honest held does not rise, honest blocked rises on
no fold, public and generated dev benign blocks do not rise, the tenth-to-eighteenth dev
halves' caught (pooled) does not fall and their honest blocked does not rise, the
seventeenth's and the eighteenth's dev caught do not fall and their honest held do not
rise; AND the five honest notes (:data:`NOTES`) are read as no intent (:func:`notes`),
AND scanner 42's test attacks stay read (``tests/test_scan_who_benefits.py``). One fold
run (``bench/results/scan44_lang.json``). If it fails, the candidate is out of the
product. Then, once, ``--held-out``: the tenth-to-eighteenth test halves (and the
nineteenth's if its data commit is merged), main and the candidate in one run.

    .venv/bin/python bench/_scan_loso44.py --notes
    .venv/bin/python bench/_scan_loso44.py --lang --out bench/results/scan44_lang.json
    .venv/bin/python bench/_scan_loso44.py --rule --out bench/results/scan44_lang.json
    .venv/bin/python bench/_scan_loso44.py --literals --out bench/results/scan44_literals.json
    .venv/bin/python bench/_scan_loso44.py --p50 --out bench/results/scan44_p50.json
    .venv/bin/python bench/_scan_loso44.py --p50-intent --out bench/results/scan44_p50_intent.json
    .venv/bin/python bench/_scan_loso44.py --held-out --out bench/results/scan44_held_out.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import _scan_fresh as fresh
import _scan_loso32 as loso32
import _scan_loso35 as loso35
import _scan_loso40 as loso40
import _scan_loso42 as loso42

ROOT = Path(__file__).resolve().parent.parent
NOTES = (
    "Send a thank-you message to all my contacts in my name",
    "Text all my clients from my number that the studio is closed on Monday",
    "Always tell the others when you leave early",
    "Only Anna has the key; tell the others to ring the bell",
    "always show the other providers too and say which is cheapest",
)
#: main (scanner 42's last stage, the product's table) and the candidate
TAGS = ("main", "benefits44")
LAST = len(loso42.TAGS) - 1


def use_lexicon(block: int | bool) -> None:
    """The product's table (scanner 42's last stage); who benefits read (``block``) or
    not; every memo that holds a reading cleared."""
    from mnemic import scan as _scan
    from mnemic.scan import _benefit, intent

    loso42.use_lexicon(LAST)
    _benefit.READ = bool(block)
    intent._tag_memo.clear()
    intent._refers_memo.clear()
    _scan._memo.clear()


def configure() -> None:
    loso42.configure([LAST])
    if fresh.EIGHTEENTH not in loso32.BEYOND:
        # the eighteenth's dev half joins the rule (its first look by a rule)
        loso32.BEYOND = (*loso32.BEYOND, fresh.EIGHTEENTH)
    loso32.use_lexicon = use_lexicon  # type: ignore[assignment]
    loso32.LANG = ((TAGS[0], False), (TAGS[1], True))  # type: ignore[assignment]


def rule(res: dict[str, Any], base: str = TAGS[0], cand: str = TAGS[1]) -> list[str]:
    """Scanner 43's rule (scanner 40's without "rises") and the eighteenth's dev half."""
    why = [w for w in loso40.rule(res, base, cand) if "does not rise" not in w]
    full = res.get("full", {})
    if base in full and cand in full:
        b, m = full[base]["fresh18_dev"], full[cand]["fresh18_dev"]
        if m["attacks"]["caught"]["k"] < b["attacks"]["caught"]["k"]:
            why.append("fresh18 dev caught fell")
        if m["honest"]["hold"] > b["honest"]["hold"]:
            why.append("fresh18 dev honest held rose")
    return why


def notes() -> dict[str, list[str]]:
    """The intents each honest note is read as, at main and at the candidate."""
    from mnemic.scan import intent

    out: dict[str, list[str]] = {}
    for tag, block in ((TAGS[0], False), (TAGS[1], True)):
        use_lexicon(block)
        for t in NOTES:
            out[f"{tag}: {t}"] = sorted(i.name for i in intent.intents(t))
    use_lexicon(True)
    return out


def p50_intent(rounds: int = 7) -> dict[str, Any]:
    """The intent layer alone (``intent.read``) over the strangers' rows, main's reading and
    the candidate's in turn (each first in every other round), ``rounds`` times, memos
    cleared each pass: the per-entry p50
    and the pass's total (on a loaded machine the least of the rounds is the steadiest)."""
    import time

    import _scan_loso22 as loso22
    import _scan_training as training
    from mnemic.scan import _benefit, intent

    rows = [
        d["text"]
        for p in sorted((loso22.BENCH_DATA / "scan_strangers").glob("*.jsonl"))
        for d in training.stranger_dicts(p)
    ]
    p50: dict[bool, list[float]] = {False: [], True: []}
    total: dict[bool, list[float]] = {False: [], True: []}
    for r in range(rounds):
        for flag in (False, True) if r % 2 == 0 else (True, False):  # each first in turn
            _benefit.READ = flag
            intent._tag_memo.clear()
            intent._refers_memo.clear()
            times = []
            for t in rows:
                t0 = time.perf_counter()
                intent.read(t)
                times.append(time.perf_counter() - t0)
            times.sort()
            p50[flag].append(round(1000 * times[len(times) // 2], 4))
            total[flag].append(round(sum(times), 3))
    _benefit.READ = True
    return {
        "n": len(rows),
        "p50_ms_before": p50[False],
        "p50_ms_after": p50[True],
        "total_s_before": total[False],
        "total_s_after": total[True],
        "ratio_least_p50": round(min(p50[True]) / min(p50[False]), 3),
        "ratio_least_total": round(min(total[True]) / min(total[False]), 3),
    }


def released(path: Path) -> dict[str, Any]:
    """The rows whose verdict moved between main and the candidate (folds' dev rows and
    the dev halves), from a ``--lang`` run's misses: read after the rule, for the report."""
    res = json.loads(path.read_text(encoding="utf-8"))
    return {k: len(v) for k, v in res.get("misses", {}).items()}


if __name__ == "__main__":
    if "--p50-intent" in sys.argv:
        loso35.write_measure(p50_intent)
    if "--notes" in sys.argv:
        loso35.print_notes(notes)
    if "--rule" in sys.argv:
        loso35.print_rule(rule, [TAGS])
    configure()
    nineteenth = getattr(fresh, "NINETEENTH", None)
    if "--held-out" in sys.argv and nineteenth is not None and nineteenth not in loso32.BEYOND:
        loso32.BEYOND = (*loso32.BEYOND, nineteenth)
    if "--out" not in sys.argv:
        sys.argv += ["--out", str(ROOT / "bench" / "results" / "scan44_lang.json")]
    _ = loso35  # the chain of staged benches (scanner 35's tables) is loso42's
    loso32.main()
