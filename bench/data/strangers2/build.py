"""Build ``bench/data/recall_strangers2.json`` and ``recall_strangers2-xl.json`` from the
hand-written conversations in this folder (``a.txt``, ``b.txt``, ``c.txt``).

    python bench/data/strangers2/build.py          # writes both files, checks them

Same source format as ``bench/data/strangers1/`` (whose parser and checks this reuses):
``# sample: ID``, ``# speakers: A | B``, ``## <LoCoMo date>`` per session, one turn a line
(``Name: text``, ``[[label]]`` at the end names it), and after ``=== QA`` one question a
line: ``category | question | answer | @label ... [| zh: ...] [| fr: ...]``.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "recall_strangers2.json"
OUT_XL = HERE.parent / "recall_strangers2-xl.json"


def parser() -> ModuleType:
    """The parser and checks of ``strangers1/build.py``."""
    path = HERE.parent / "strangers1" / "build.py"
    spec = importlib.util.spec_from_file_location("strangers1_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The samples and the other-language questions of the ``*.txt`` sources, checked."""
    base = parser()
    samples, xl = [], []
    for path in sorted(HERE.glob("*.txt")):
        sample, extra = base.parse(path)
        samples.append(sample)
        xl += extra
    base.check(samples)
    return samples, xl


def main() -> None:
    samples, xl = build()
    OUT.write_text(json.dumps(samples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    OUT_XL.write_text(json.dumps(xl, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for s in samples:
        conv = s["conversation"]
        assert isinstance(conv, dict)
        sizes = [len(v) for k, v in conv.items() if re.fullmatch(r"session_\d+", k)]
        cats: dict[int, int] = {}
        for q in s["qa"]:  # type: ignore[attr-defined]
            cats[q["category"]] = cats.get(q["category"], 0) + 1
        print(s["sample_id"], len(sizes), "sessions", f"{min(sizes)}-{max(sizes)} turns",
              sum(sizes), "turns", len(s["qa"]), "questions",  # type: ignore[arg-type]
              dict(sorted(cats.items())))  # fmt: skip
    langs: dict[str, int] = {}
    for e in xl:
        langs[str(e["lang"])] = langs.get(str(e["lang"]), 0) + 1
    print("xl", len(xl), dict(sorted(langs.items())))


if __name__ == "__main__":
    main()
