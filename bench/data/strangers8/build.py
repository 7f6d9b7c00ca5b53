"""Build ``bench/data/recall_strangers8.json`` and ``recall_strangers8-xl.json`` from the
hand-written conversations in this folder (``a.txt``, ``b.txt``, ``c.txt``) and the
other-language questions (``xl.txt``), in the format ``strangers3/build.py`` reads (see
its docstring: tagged turns, ``QUESTIONS``, ``id | category | question | answer | tags``).

Like strangers5, 6 and 7 this set is a **dev** set (issue 33), a fifth one: every
question, English or other-language, carries ``"split": "dev"``, so recall rules can be
checked on a fifth, independent dev set, unread by any rule so far, before any held-out run.

    python bench/data/strangers8/build.py      # rewrite the two JSON files
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "recall_strangers8.json"
OUT_XL = HERE.parent / "recall_strangers8-xl.json"
SPLIT = "dev"


def _strangers3() -> Any:
    """``strangers3/build.py``, which reads this folder's format."""
    path = HERE.parent / "strangers3" / "build.py"
    spec = importlib.util.spec_from_file_location("strangers3_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The conversations and the other-language questions of this folder's sources, read by
    ``strangers3/build.py``, every question marked with this set's split."""
    samples, xl = _strangers3().build(HERE, SPLIT)
    return samples, xl


def main() -> None:
    _strangers3().write(HERE, OUT, OUT_XL, SPLIT)


if __name__ == "__main__":
    main()
