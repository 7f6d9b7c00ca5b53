"""Build ``bench/data/recall_strangers10.json`` and ``recall_strangers10-xl.json`` from the
hand-written conversations in this folder (``a.txt``, ``b.txt``, ``c.txt``) and the
other-language questions (``xl.txt``), in the format ``strangers3/build.py`` reads (see
its docstring: tagged turns, ``QUESTIONS``, ``id | category | question | answer | tags``).

Like strangers9 this set is **held out** (issue 33): every question, English or
other-language, carries ``"split": "test"``, a judge set unread by any rule, with a large
``xl.txt`` (210 questions in 21 other languages) for a cross-language rule.

    python bench/data/strangers10/build.py      # rewrite the two JSON files
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SHARED = Path(__file__).resolve().parent.parent / "strangers3" / "build.py"
_spec = importlib.util.spec_from_file_location("strangers3_build", _SHARED)
assert _spec is not None and _spec.loader is not None
_strangers3 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_strangers3)

build, main = _strangers3.of_set(__file__, "test")

if __name__ == "__main__":
    main()
