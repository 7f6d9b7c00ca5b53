"""The one entry-point loader: built-ins by table, then the installed metadata."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import pytest

from mnemic.plugins import entry_points, load_entry_point, load_reference
from mnemic.providers.recall import RecallProvider

SRC = Path(__file__).resolve().parent.parent / "src"


def test_a_reference_is_read_as_an_entry_point_value() -> None:
    assert load_reference("os.path:join") is os.path.join
    assert load_reference("collections:OrderedDict.fromkeys") == OrderedDict.fromkeys
    assert load_reference("os.path:join [extra]") is os.path.join
    with pytest.raises(ModuleNotFoundError):
        load_reference("mnemic.no_such_module:X")


def test_a_builtin_wins_over_the_metadata_and_an_unknown_name_is_a_lookup_error() -> None:
    group = "mnemic.providers"
    assert "recall" in {ep.name for ep in entry_points(group)}  # mnemic's own metadata
    assert load_entry_point(group, "recall", {}) is RecallProvider
    assert load_entry_point(group, "recall", {"recall": "os.path:join"}) is os.path.join
    with pytest.raises(LookupError, match="nothing is registered as 'absent'"):
        load_entry_point(group, "absent", {})


def test_loading_a_builtin_reads_no_package_metadata() -> None:
    code = (
        "import sys\n"
        "from mnemic.plugins import load_entry_point\n"
        "load_entry_point('mnemic.backends', 'files', {'files': 'os.path:join'})\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "False"
