"""Which language a question is read as written in (recall 18).

    ./x bench languages

Dev only. Every dev question whose language a set knows is read by
:func:`mnemic.sessions.index.query.question_languages` (after) and by the rule recall 13
shipped (before: a function word counts once for every language whose list holds it,
English wins a tie), in the same run:

* ``xl``: LoCoMo's dev questions translated into German, Spanish, French, Italian and
  Portuguese (``bench/data/locomo-xl.json``, the dev conversations);
* ``locomo``: LoCoMo's English dev questions (must all read as English: ``()``);
* ``zh``: the same in Chinese (``()``: no language of ``FUNCTION_WORDS``);
* ``updates``: the update fixture's dev "now" and "past" questions (English, German,
  Spanish, Chinese);
* ``offtopic_xl``: the dev half of the unrelated questions in German, Spanish, French,
  Italian and Portuguese.

Per set and language: read right (the right language alone, or ``()`` for English and
Chinese), read with the right language among others (a tie), and read wrong; n and a 95 %
Wilson interval; and the questions whose reading changed. One JSON object on the last
line (``bench/results/languages.json``).
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _metrics import wilson
from mnemic.sessions.index.query import (
    FUNCTION_WORDS,
    QUESTION_WORDS,
    STOP_WORDS,
    question_languages,
)
from recall import LOCOMO, LOCOMO_SPLIT

HERE = Path(__file__).resolve().parent
NAMES = {"de": "german", "es": "spanish", "fr": "french", "it": "italian", "pt": "portuguese"}


ADDED = {"spanish": {"no"}, "french": {"se"}, "italian": {"se", "si"}, "portuguese": {"se"}}
"""The words recall 18 added to ``FUNCTION_WORDS`` (left out of the lists ``before`` reads)."""
OLD_WORDS = {lang: words - ADDED.get(lang, set()) for lang, words in FUNCTION_WORDS.items()}


def before(text: str) -> tuple[str, ...]:
    """Recall 13's reading: each function word of recall 13's lists counts for every list
    that holds it, English wins a tie."""
    said = [w.casefold() for w in re.findall(r"[^\W\d_]+", text)]
    english = sum(w in STOP_WORDS or w in QUESTION_WORDS for w in said)
    counts = {lang: sum(w in words for w in said) for lang, words in OLD_WORDS.items()}
    best = max(counts.values(), default=0)
    if best <= english:
        return ()
    return tuple(lang for lang, n in counts.items() if n == best)


def questions() -> list[tuple[str, str, str]]:
    """(set, language tag, text) of every dev question whose language is known."""
    dev = set(LOCOMO_SPLIT["dev"])
    out: list[tuple[str, str, str]] = []
    for sample in json.loads(LOCOMO.read_text(encoding="utf-8")):
        if str(sample["sample_id"]) in dev:
            out += [("locomo", "en", str(qa["question"])) for qa in sample.get("qa") or []]
    for e in json.loads((HERE / "data" / "locomo-xl.json").read_text(encoding="utf-8")):
        if e["sample_id"] in dev:
            out.append(("xl", e["lang"], e["xl"]))
    for e in json.loads((HERE / "data" / "locomo-zh.json").read_text(encoding="utf-8")):
        if e["sample_id"] in dev:
            out.append(("zh", "zh", e["zh"]))
    fixture = json.loads((HERE / "data" / "updates.json").read_text(encoding="utf-8"))
    for c in fixture["cases"]:
        if c["split"] == "dev":
            out += [("updates", c["lang"], c[key]) for key in ("now", "past")]
    offtopic = json.loads((HERE / "data" / "offtopic_xl.json").read_text(encoding="utf-8"))
    for q in offtopic["questions"]:
        if q["split"] == "dev":
            out.append(("offtopic_xl", q["lang"], q["text"]))
    return out


def verdict(found: tuple[str, ...], tag: str) -> str:
    """``right`` (that language alone; ``()`` for English and Chinese), ``tie`` (it among
    others) or ``wrong``."""
    want = NAMES.get(tag)
    if want is None:
        return "right" if not found else "wrong"
    if found == (want,):
        return "right"
    return "tie" if want in found else "wrong"


def main() -> None:
    tally: dict[tuple[str, str], dict[str, dict[str, int]]] = defaultdict(
        lambda: {"before": defaultdict(int), "after": defaultdict(int)}
    )
    changed: list[dict[str, Any]] = []
    for name, tag, text in questions():
        old, new = before(text), question_languages(text)
        for key in ((name, tag), (name, "all"), ("all", tag)):
            tally[key]["before"][verdict(old, tag)] += 1
            tally[key]["after"][verdict(new, tag)] += 1
        if verdict(new, tag) != "right":
            print(f"  still {verdict(new, tag)}: {name}/{tag} {text} {new}")
        if old != new:
            changed.append({"set": name, "lang": tag, "text": text, "before": old, "after": new,
                            "verdict": [verdict(old, tag), verdict(new, tag)]})  # fmt: skip
    rows = []
    for (name, tag), arms in sorted(tally.items()):
        n = sum(arms["before"].values())
        row: dict[str, Any] = {"set": name, "lang": tag, "n": n}
        for arm, counts in arms.items():
            row[arm] = {
                v: {"share": round(counts[v] / n, 4), "ci95": wilson(counts[v], n)}
                for v in ("right", "tie", "wrong")
            }
        rows.append(row)
        print(
            f"{name:12} {tag:4} n={n:4}  right {row['before']['right']['share']:.3f} -> "
            f"{row['after']['right']['share']:.3f} {row['after']['right']['ci95']}  "
            f"wrong {row['before']['wrong']['share']:.3f} -> {row['after']['wrong']['share']:.3f}"
        )
    for c in changed:
        print(f"  {c['set']}/{c['lang']} {c['verdict'][0]} -> {c['verdict'][1]}: {c['text']} "
              f"{c['before']} -> {c['after']}")  # fmt: skip
    emit("languages", {"split": "dev", "rows": rows, "changed": changed})


if __name__ == "__main__":
    main()
