"""Build ``bench/data/recall_strangers7.json`` and ``recall_strangers7-xl.json`` from the
hand-written conversations in this folder (``a.txt``, ``b.txt``, ``c.txt``) and the
other-language questions (``xl.txt``), in the format ``strangers3/build.py`` reads (see
its docstring: tagged turns, ``QUESTIONS``, ``id | category | question | answer | tags``).

Like strangers5 and strangers6 this set is a **dev** set (issue 33), a fourth one: every
question, English or other-language, carries ``"split": "dev"``, so recall rules can be
checked on a fourth, independent dev set before any held-out run.

    python bench/data/strangers7/build.py      # rewrite the two JSON files
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SHARED = Path(__file__).resolve().parent.parent / "strangers3" / "build.py"
_spec = importlib.util.spec_from_file_location("strangers3_build", _SHARED)
assert _spec is not None and _spec.loader is not None
_strangers3 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_strangers3)

build, main = _strangers3.of_set(__file__, "dev")

if __name__ == "__main__":
    main()
