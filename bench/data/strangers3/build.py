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

The later sets written in this format (``strangers4`` to ``strangers10``) have no builder of
their own: :data:`SETS` names each set's folder and the split its questions carry, and this
one file builds them all.

    python bench/data/strangers3/build.py                 # rewrite every set's two JSON files
    python bench/data/strangers3/build.py strangers9      # rewrite one set's
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TURN = re.compile(r"^(\w+)(?: \[([\w\- ]+)\])?: (.+)$")
#: The sets in this format, by folder (beside this one): the split every question of the set,
#: English or other-language, is marked with (``None``: unmarked). Issue 33 tells them apart.
SETS: dict[str, str | None] = {
    "strangers3": None,  # held out: unmarked, recall.py reads it as test
    "strangers4": None,  # held out, unmarked
    "strangers5": "dev",  # the second dev set (strangers1-4 are held out)
    "strangers6": "dev",  # a third
    "strangers7": "dev",  # a fourth
    "strangers8": "dev",  # a fifth
    "strangers9": "test",  # a judge set, 210 questions in 21 other languages
    "strangers10": "test",  # a second judge set, likewise
}


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
    folder unless another set in the same format, such as ``strangers4``: :func:`build_set`);
    with ``split``, every question, English or other-language, is marked with it (the sets
    from ``strangers5`` on)."""
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


def build_set(name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The conversations and other-language questions of the set ``name`` (a key of
    :data:`SETS`), every question marked with its split."""
    return build(HERE.parent / name, SETS[name])


def write_set(name: str) -> None:
    """Build the set ``name`` (a key of :data:`SETS`) and write its ``recall_<name>.json``
    and ``recall_<name>-xl.json`` beside its folder."""
    data = HERE.parent
    write(data / name, data / f"recall_{name}.json", data / f"recall_{name}-xl.json", SETS[name])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Rewrite the recall_<set>.json and recall_<set>-xl.json of the sets in "
        "this format from their hand-written sources (bench/data/<set>/*.txt)."
    )
    every = ", ".join(SETS)
    parser.add_argument("sets", nargs="*", metavar="SET", help=f"default: all of {every}")
    names = parser.parse_args(argv).sets or list(SETS)
    if unknown := [n for n in names if n not in SETS]:
        parser.error(f"no set {', '.join(unknown)}: the sets are {', '.join(SETS)}")
    for name in names:
        print(name, end=": ")
        write_set(name)


if __name__ == "__main__":
    main()
