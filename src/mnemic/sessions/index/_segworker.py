"""Entry point of the segmentation worker process used by bulk imports."""

from __future__ import annotations

import sys

from .fields import serve

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
