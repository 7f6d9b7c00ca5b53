"""Build ``bench/data/recall_strangers4.json`` and ``recall_strangers4-xl.json`` from the
hand-written conversations in this folder (``a.txt``, ``b.txt``, ``c.txt``) and the
other-language questions (``xl.txt``).

A conversation file::

    sample: strangers4-a
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

    python bench/data/strangers4/build.py      # rewrite the two JSON files
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SHARED = Path(__file__).resolve().parent.parent / "strangers3" / "build.py"
_spec = importlib.util.spec_from_file_location("strangers3_build", _SHARED)
assert _spec is not None and _spec.loader is not None
_strangers3 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_strangers3)

build, main = _strangers3.of_set(__file__, None)

if __name__ == "__main__":
    main()
