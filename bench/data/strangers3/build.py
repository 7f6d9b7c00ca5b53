"""Build ``bench/data/recall_strangers3.json`` and ``recall_strangers3-xl.json`` from the
hand-written conversations in this folder (``a.txt``, ``b.txt``, ``c.txt``) and the
other-language questions (``xl.txt``).

A conversation file::

    sample: strangers3-a
    speakers: Orla | Niamh
    == 7:12 pm on 14 January, 2024
    Orla: a turn
    Niamh [job-old pet]: a turn that questions name by its tags
    QUESTIONS
    a01 | 4 | the question | the answer | job-old pet

Turns get their LoCoMo dia ids (``D<session>:<turn>``) from their place; a question's
evidence is the dia ids of the turns its tags name. Category 5 (adversarial) stores its
answer as ``adversarial_answer``, as LoCoMo does. An ``xl.txt`` line is
``ID | LANG | question``: the question ``ID`` asked in another language, same evidence.

    python bench/data/strangers3/build.py      # rewrite the two JSON files
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "recall_strangers3.json"
OUT_XL = HERE.parent / "recall_strangers3-xl.json"
TURN = re.compile(r"^(\w+)(?: \[([\w\- ]+)\])?: (.+)$")


def parse(path: Path) -> tuple[dict[str, Any], dict[str, tuple[int, str, list[str]]]]:
    """One conversation in LoCoMo's shape and its questions by id (category, English
    question, evidence)."""
    lines = [ln.rstrip() for ln in path.read_text(encoding="utf-8").splitlines()]
    sample_id = lines[0].removeprefix("sample: ").strip()
    a, b = (s.strip() for s in lines[1].removeprefix("speakers: ").split("|"))
    conv: dict[str, Any] = {"speaker_a": a, "speaker_b": b}
    tags: dict[str, str] = {}
    session = 0
    i = 2
    while lines[i] != "QUESTIONS":
        line = lines[i]
        i += 1
        if not line:
            continue
        if line.startswith("== "):
            session += 1
            conv[f"session_{session}_date_time"] = line[3:]
            conv[f"session_{session}"] = []
            continue
        m = TURN.match(line)
        if m is None or m.group(1) not in (a, b):
            raise ValueError(f"{path.name}:{i}: not a turn: {line!r}")
        turns = conv[f"session_{session}"]
        dia = f"D{session}:{len(turns) + 1}"
        for tag in (m.group(2) or "").split():
            if tag in tags:
                raise ValueError(f"{path.name}:{i}: tag {tag} used twice")
            tags[tag] = dia
        turns.append({"speaker": m.group(1), "dia_id": dia, "text": m.group(3)})
    qa: list[dict[str, Any]] = []
    by_id: dict[str, tuple[int, str, list[str]]] = {}
    for line in lines[i + 1 :]:
        if not line:
            continue
        qid, cat, question, answer, ev = (p.strip() for p in line.split("|"))
        evidence = [tags[t] for t in ev.split()]
        entry: dict[str, Any] = {"question": question}
        entry["adversarial_answer" if cat == "5" else "answer"] = answer
        entry["evidence"] = evidence
        entry["category"] = int(cat)
        qa.append(entry)
        if qid in by_id:
            raise ValueError(f"{path.name}: question id {qid} used twice")
        by_id[qid] = (int(cat), question, evidence)
    return {"sample_id": sample_id, "conversation": conv, "qa": qa}, by_id


def build(
    here: Path = HERE, split: str | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The conversations and the other-language questions of the sources in ``here`` (this
    folder unless another set in the same format, such as ``strangers4``, asks); with
    ``split``, every question, English or other-language, is marked with it (the dev
    sets, ``strangers5`` on)."""
    data = []
    questions: dict[str, tuple[str, int, str, list[str]]] = {}
    for name in ("a.txt", "b.txt", "c.txt"):
        sample, by_id = parse(here / name)
        data.append(sample)
        for qid, (cat, q, ev) in by_id.items():
            questions[qid] = (sample["sample_id"], cat, q, ev)
    xl = []
    for line in (here / "xl.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        qid, lang, text = (p.strip() for p in line.split("|"))
        sid, cat, en, ev = questions[qid]
        xl.append(
            {"sample_id": sid, "category": cat, "evidence": ev, "lang": lang,
             "question": text, "en": en}
        )  # fmt: skip
    if split is not None:
        for sample in data:
            for qa in sample["qa"]:
                qa["split"] = split
        for entry in xl:
            entry["split"] = split
    return data, xl


def write(here: Path, out: Path, out_xl: Path, split: str | None = None) -> None:
    """Build the set whose sources are in ``here`` and write its two JSON files."""
    data, xl = build(here, split)
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    out_xl.write_text(json.dumps(xl, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{sum(len(s['qa']) for s in data)} questions, {len(xl)} in other languages")


def of_set(
    build_py: str, split: str | None
) -> tuple[Callable[[], tuple[list[dict[str, Any]], list[dict[str, Any]]]], Callable[[], None]]:
    """The ``build`` and ``main`` of the set whose ``build.py`` is ``build_py`` (its
    ``__file__``): its sources in that folder, its files ``recall_<folder>.json`` and
    ``recall_<folder>-xl.json`` beside the folder, every question marked with ``split``."""
    here = Path(build_py).resolve().parent
    out = here.parent / f"recall_{here.name}.json"
    out_xl = here.parent / f"recall_{here.name}-xl.json"

    def build_set() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return build(here, split)

    def main_set() -> None:
        write(here, out, out_xl, split)

    return build_set, main_set


def main() -> None:
    write(HERE, OUT, OUT_XL)


if __name__ == "__main__":
    main()
