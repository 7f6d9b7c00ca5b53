"""Recall 13's reading of a question's language, switched on for a whole bench (recall 18).

    .venv/bin/python bench/_oldlang.py floor_xl      # ./x bench floor_xl, read as before

The "before" arm of recall 18's floor figures: :func:`languages.before` (a function word
counts once for every list that holds it, English wins a tie) and recall 13's
``FUNCTION_WORDS`` (without the words recall 18 added) stand in for the shipped ones
wherever they are read: the query parser, the floor, the inflections.
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mnemic.sessions.index.query as query_module
import mnemic.sessions.search.floor as floor_module
from languages import OLD_WORDS, before


@contextmanager
def old_reading() -> Iterator[None]:
    """Recall 13's reading and lists in place of the shipped ones, restored after."""
    with (
        mock.patch.object(query_module, "question_languages", before),
        mock.patch.object(floor_module, "question_languages", before),
        mock.patch.dict(query_module.FUNCTION_WORDS, OLD_WORDS),
    ):
        yield


if __name__ == "__main__":
    name = sys.argv[1]
    sys.argv = [f"bench/{name}.py", *sys.argv[2:]]
    with old_reading():
        runpy.run_path(str(Path(__file__).resolve().parent / f"{name}.py"), run_name="__main__")
