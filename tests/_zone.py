"""Run a block of a test in another time zone (``TZ`` set and read again), then put the
process's zone back as it was."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: +05:30 all year: neither UTC nor a whole hour away from it.
KOLKATA = "Asia/Kolkata"


@contextmanager
def in_zone(name: str = KOLKATA) -> Iterator[None]:
    """Within the block, local time is ``name``'s."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()
