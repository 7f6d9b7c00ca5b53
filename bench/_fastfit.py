""":func:`_scan_training.adagrad` transcribed to C, for the leave-one-set-out loops that fit
dozens of models (bench only; the shipped model is always built by the Python fit).

The same arithmetic in the same order, so the weights are the same bytes: the rows'
visiting order is the Python shuffle's (drawn here, in Python, by the same seeded
``random.Random``), a text's score is a left-to-right double sum of its features' weights
(as ``sum`` of a list of floats adds them in Python 3.11), and the AdaGrad steps, the
logistic function and ``n ** 0.5`` call the same C library functions (``exp``, ``pow``,
``sqrt``); the C is compiled without contracted multiply-adds. :func:`same_as_python`
checks a fit byte for byte; the loops run it before they use this one.

The C source is compiled once per process with the system's ``cc`` into a temporary
directory; no compiler: :func:`available` is false and the loops use the Python fit.
"""

from __future__ import annotations

import ctypes
import random
import shutil
import subprocess
import tempfile
from array import array
from pathlib import Path

import _scan_training as training
from mnemic.scan.features import BUCKET_BITS, NORM_POWER

_SOURCE = r"""
#include <math.h>
static double sigmoid(double z) {
    if (z >= 0) return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}
void adagrad(long n, const long *off, const long *idx, const double *y, const double *wt,
             long epochs, const long *orders, double rate, double l2, double power,
             double *w, double *acc, double *bias_out) {
    double bias = 0.0, bias_acc = 1e-8;
    for (long ep = 0; ep < epochs; ep++) {
        for (long k = 0; k < n; k++) {
            long i = orders[ep * n + k];
            long s = off[i], e = off[i + 1];
            if (s == e) continue;
            double x = 1.0 / pow((double)(e - s), power);
            double sum = 0.0;
            for (long q = s; q < e; q++) sum += w[idx[q]];
            double z = bias + x * sum;
            double g = (sigmoid(z) - y[i]) * wt[i];
            double gx = g * x;
            for (long q = s; q < e; q++) {
                long j = idx[q];
                double gj = gx + l2 * w[j];
                acc[j] += gj * gj;
                w[j] -= rate * gj / sqrt(acc[j]);
            }
            bias_acc += g * g;
            bias -= rate * g / sqrt(bias_acc);
        }
    }
    *bias_out = bias;
}
"""
_lib: ctypes.CDLL | None = None
_tmp: tempfile.TemporaryDirectory[str] | None = None


def available() -> bool:
    """Whether a C compiler is on the path."""
    return shutil.which("cc") is not None


def _load() -> ctypes.CDLL:
    global _lib, _tmp
    if _lib is None:
        _tmp = tempfile.TemporaryDirectory(prefix="fastfit-")
        src = Path(_tmp.name) / "adagrad.c"
        so = Path(_tmp.name) / "adagrad.so"
        src.write_text(_SOURCE, encoding="utf-8")
        cmd = ["cc", "-O2", "-ffp-contract=off", "-fno-fast-math", "-shared", "-fPIC"]
        subprocess.run([*cmd, "-o", str(so), str(src), "-lm"], check=True)
        _lib = ctypes.CDLL(str(so))
    return _lib


def _buf(kind: str, values: list[int] | list[float]) -> ctypes.Array[ctypes.c_char]:
    data = array(kind, values)
    return (ctypes.c_char * (len(data) * data.itemsize)).from_buffer(data)


def adagrad(
    feats: list[list[int]],
    labels: list[int],
    weight: list[float],
    *,
    seed: int,
    epochs: int,
    rate: float,
    l2: float,
) -> tuple[array[float], float]:
    """:func:`_scan_training.adagrad`, in C."""
    lib = _load()
    n = len(feats)
    off = [0]
    for f in feats:
        off.append(off[-1] + len(f))
    order = list(range(n))
    rng = random.Random(seed)
    orders: list[int] = []
    for _ in range(epochs):
        rng.shuffle(order)
        orders += order
    size = 1 << BUCKET_BITS
    w = array("d", [0.0]) * size
    acc = array("d", [1e-8]) * size
    bias = ctypes.c_double(0.0)
    lib.adagrad(
        ctypes.c_long(n),
        _buf("l", off),
        _buf("l", [j for f in feats for j in f]),
        _buf("d", [float(y) for y in labels]),
        _buf("d", list(weight)),
        ctypes.c_long(epochs),
        _buf("l", orders),
        ctypes.c_double(rate),
        ctypes.c_double(l2),
        ctypes.c_double(NORM_POWER),
        (ctypes.c_char * (size * 8)).from_buffer(w),
        (ctypes.c_char * (size * 8)).from_buffer(acc),
        ctypes.byref(bias),
    )
    return array("f", w), bias.value


def same_as_python(rows: list[training.Row]) -> bool:
    """Whether :func:`_scan_training.fit_rows` on ``rows`` gives the same weight bytes and
    bias by this fit as by the Python one."""
    python = training.adagrad
    try:
        training.adagrad = adagrad
        fast = training.fit_rows(rows)
    finally:
        training.adagrad = python
    slow = training.fit_rows(rows)
    return fast[0].tobytes() == slow[0].tobytes() and fast[1] == slow[1]
