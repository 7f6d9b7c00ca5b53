"""The time reading before recall 21 (Chinese month names, 了 as an event, 第一次 as
"first", 正在 as "now"): `bench/_misses.py variants --variants oldtime`.

It is ``src/mnemic/sessions/search/timeframe.py`` as it was at :data:`BEFORE` (the commit
recall 21 started from), read from git and run as a module of its own, so the "before"
arm is that code byte for byte, not a copy kept by hand. The module needs only the
standard library.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "fd947dea"
"""The last commit before recall 21 changed the time reading."""


BEFORE_RECALL22 = "a13bfce0"
"""The last commit before recall 22 changed "before <date>" (the day named was cut)."""


@cache
def _load(commit: str = BEFORE) -> ModuleType:
    """The module as it was at ``commit`` (read from git on first use)."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:src/mnemic/sessions/search/timeframe.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = ModuleType(f"mnemic_timeframe_at_{commit}")
    sys.modules[module.__name__] = module  # dataclasses look their module up by name
    exec(compile(source, f"timeframe.py@{commit}", "exec"), module.__dict__)
    return module


def read_timeframe(*args: Any, **kwargs: Any) -> Any:
    """The old module's ``read_timeframe`` (same arguments, its own ``TimeFrame``); git is
    asked only when a bench first calls it."""
    return _load().read_timeframe(*args, **kwargs)


def read_timeframe_before_recall22(*args: Any, **kwargs: Any) -> Any:
    """``read_timeframe`` as it was at :data:`BEFORE_RECALL22` ("before <a day>" cut at
    the day's start, a Chinese date before 之前 lifted, not cut)."""
    return _load(BEFORE_RECALL22).read_timeframe(*args, **kwargs)
