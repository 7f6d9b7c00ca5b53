"""The logistic function the bench's model fits share (the scanner's, :mod:`_scan_training`,
and the tidy pair model's, :mod:`_tidy_pairfit`)."""

from __future__ import annotations

import math


def sigmoid(z: float) -> float:
    """1 / (1 + e^-z), without overflow for a large ``-z``."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
