"""Build ``bench/data/recall_strangers1.json`` and ``recall_strangers1-xl.json`` from the
hand-written conversations in this folder (``a.txt``, ``b.txt``, ``c.txt``).

    python bench/data/strangers1/build.py          # writes both files, checks them

Source format: ``# sample: ID``, ``# speakers: A | B``, then per session a line
``## <LoCoMo date>`` and one turn a line (``Name: text``); ``[[label]]`` at the end of a
turn names it. After ``=== QA`` one question a line:
``category | question | answer | @label @label [| zh: ...] [| es: ...] [| de: ...]``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "recall_strangers1.json"
OUT_XL = HERE.parent / "recall_strangers1-xl.json"
DATE = "%I:%M %p on %d %B, %Y"
LABEL = re.compile(r"\s*\[\[([\w-]+)\]\]\s*$")
LANGS = ("zh", "es", "de", "fr", "pt", "it")
"""The languages a question may also be asked in (``strangers2`` reuses this parser)."""


def parse(path: Path) -> tuple[dict[str, object], list[dict[str, object]]]:
    sample = ""
    speakers: list[str] = []
    conv: dict[str, object] = {}
    labels: dict[str, str] = {}
    qa: list[dict[str, object]] = []
    xl: list[dict[str, object]] = []
    session = 0
    turns: list[dict[str, str]] = []
    in_qa = False
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        where = f"{path.name}:{n}"
        if line.startswith("# sample:"):
            sample = line.split(":", 1)[1].strip()
        elif line.startswith("# speakers:"):
            speakers = [s.strip() for s in line.split(":", 1)[1].split("|")]
        elif line.startswith("## "):
            session += 1
            turns = []
            conv[f"session_{session}_date_time"] = line[3:].strip()
            conv[f"session_{session}"] = turns
        elif line == "=== QA":
            in_qa = True
        elif in_qa:
            parts = [p.strip() for p in line.split("|")]
            cat, question, answer, refs = int(parts[0]), parts[1], parts[2], parts[3]
            evidence = []
            for ref in refs.split():
                if not ref.startswith("@") or ref[1:] not in labels:
                    sys.exit(f"{where}: unknown evidence {ref!r}")
                evidence.append(labels[ref[1:]])
            entry: dict[str, object] = {"question": question}
            entry["adversarial_answer" if cat == 5 else "answer"] = answer
            entry["evidence"] = evidence
            entry["category"] = cat
            qa.append(entry)
            for extra in parts[4:]:
                lang, text = (s.strip() for s in extra.split(":", 1))
                if lang not in LANGS:
                    sys.exit(f"{where}: unknown language {lang!r}")
                xl.append({"sample_id": sample, "category": cat, "evidence": evidence,
                           "lang": lang, "question": text, "en": question})  # fmt: skip
        else:
            speaker, text = line.split(":", 1)
            if speaker not in speakers:
                sys.exit(f"{where}: unknown speaker {speaker!r}")
            m = LABEL.search(text)
            dia = f"D{session}:{len(turns) + 1}"
            if m:
                if m.group(1) in labels:
                    sys.exit(f"{where}: label {m.group(1)!r} used twice")
                labels[m.group(1)] = dia
                text = text[: m.start()]
            turns.append({"speaker": speaker, "dia_id": dia, "text": text.strip()})
    conv = {"speaker_a": speakers[0], "speaker_b": speakers[1], **conv}
    return {"sample_id": sample, "conversation": conv, "qa": qa}, xl


def check(samples: list[dict[str, object]]) -> None:
    for s in samples:
        conv = s["conversation"]
        assert isinstance(conv, dict)
        known: set[str] = set()
        last = None
        number = 1
        while f"session_{number}" in conv:
            when = dt.datetime.strptime(conv[f"session_{number}_date_time"], DATE)
            assert last is None or when > last, (s["sample_id"], number)
            last = when
            for i, t in enumerate(conv[f"session_{number}"], 1):
                assert t["dia_id"] == f"D{number}:{i}"
                assert t["dia_id"] not in known
                known.add(t["dia_id"])
            number += 1
        for q in s["qa"]:  # type: ignore[attr-defined]
            assert q["evidence"] and set(q["evidence"]) <= known, q


def main() -> None:
    samples, xl = [], []
    for path in sorted(HERE.glob("*.txt")):
        sample, extra = parse(path)
        samples.append(sample)
        xl += extra
    check(samples)
    OUT.write_text(json.dumps(samples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    OUT_XL.write_text(json.dumps(xl, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for s in samples:
        conv = s["conversation"]
        sessions = [k for k in conv if re.fullmatch(r"session_\d+", k)]
        sizes = [len(conv[k]) for k in sessions]
        cats: dict[int, int] = {}
        for q in s["qa"]:
            cats[q["category"]] = cats.get(q["category"], 0) + 1
        span = f"{min(sizes)}-{max(sizes)} turns"
        print(s["sample_id"], len(sessions), "sessions", span, sum(sizes), "turns",
              len(s["qa"]), "questions", dict(sorted(cats.items())))  # fmt: skip
    langs: dict[str, int] = {}
    for e in xl:
        langs[str(e["lang"])] = langs.get(str(e["lang"]), 0) + 1
    print("xl", len(xl), langs)


if __name__ == "__main__":
    main()
