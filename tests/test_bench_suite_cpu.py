"""``bench/suite_cpu.py``: its plugin measures each test's CPU, its children's included, in
the process that runs it, and the summary ranks files and finds the tail."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

import _suite_cpu_plugin
import suite_cpu

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"


@pytest.mark.slow
def test_the_plugin_counts_each_test_and_the_children_it_reaped(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    seen = tmp_path / "pythonpath-seen"
    (suite / "test_burn.py").write_text(
        textwrap.dedent(
            f"""
            import os, subprocess, sys, time

            def test_own():
                t = time.process_time()
                while time.process_time() - t < 0.3:
                    pass

            def test_child():
                subprocess.run([sys.executable, "-c", {BURN!r}], check=True)

            def test_environment():
                with open({str(seen)!r}, "w") as f:
                    f.write(os.environ.get("PYTHONPATH", "<unset>"))

            def test_fails():
                assert False
            """
        )
    )
    out = tmp_path / "records"
    out.mkdir()
    # -n 0 after the driver's -n 2: one process (three interpreters of pytest cost 6.6 s of
    # CPU); workers take the same path (the bench's own runs use them)
    ran = suite_cpu.run(
        [str(suite), "-p", "no:cacheprovider", "-n", "0"], sample=1, seed="0", out=out
    )
    assert ran["pytest_rc"] == 1 and "1 failed, 3 passed" in ran["pytest_summary"]
    tests, sessions = suite_cpu.load(out)
    by_name = {t["id"].rsplit("::", 1)[1]: t for t in tests}
    assert set(by_name) == {"test_own", "test_child", "test_environment", "test_fails"}
    assert by_name["test_own"]["own"] >= 0.3 and by_name["test_own"]["children"] < 0.1
    assert by_name["test_child"]["children"] >= 0.3 and by_name["test_child"]["own"] < 0.3
    assert by_name["test_fails"]["outcome"] == "failed"
    assert [s["session"] for s in sessions] == ["main"] and {t["worker"] for t in tests} == {"main"}
    assert sessions[0]["own"] + sessions[0]["children"] >= 0.6
    # the tests' processes see PYTHONPATH as it was, without the plugin's directory
    assert seen.read_text() == os.environ.get("PYTHONPATH", "<unset>")
    result = suite_cpu.summarise(tests, sessions)
    assert result["files"][0]["file"].endswith("test_burn.py")
    assert result["files"][0]["cpu_s"] >= 0.6 and result["outcomes"]["failed"] == 1


def test_the_sample_is_one_in_n_by_id_the_same_each_time() -> None:
    ids = [f"tests/test_x.py::test_{i}" for i in range(4000)]
    kept = [i for i in ids if _suite_cpu_plugin.chosen(i, "0", 8)]
    assert kept == [i for i in ids if _suite_cpu_plugin.chosen(i, "0", 8)]
    assert 400 < len(kept) < 600  # about 500
    other = {i for i in ids if _suite_cpu_plugin.chosen(i, "1", 8)}
    assert other != set(kept) and all(_suite_cpu_plugin.chosen(i, "0", 1) for i in ids)


def test_the_summary_ranks_files_and_finds_the_worker_alone_at_the_end() -> None:
    def t(
        test: str, worker: str, start: float, wall: float, own: float, kids: float
    ) -> dict[str, Any]:
        return {
            "id": test,
            "worker": worker,
            "start": start,
            "wall": wall,
            "own": own,
            "children": kids,
            "outcome": "passed",
        }

    tests = [
        t("tests/a.py::one", "gw0", 0.0, 10.0, 1.0, 2.0),
        t("tests/b.py::one", "gw1", 0.0, 4.0, 4.0, 0.0),
        t("tests/b.py::two", "gw1", 4.0, 2.0, 1.0, 0.5),
        t("tests/c.py::long", "gw0", 10.0, 20.0, 1.0, 5.0),
    ]
    sessions = [
        {"session": w, "own": 1.0, "children": 0.0, "wall": 31.0, "collection_own": 0.5}
        for w in ("gw0", "gw1")
    ]
    result = suite_cpu.summarise(tests, sessions)
    assert [(f["file"], f["cpu_s"], f["n"]) for f in result["files"]] == [
        ("tests/c.py", 6.0, 1),
        ("tests/b.py", 5.5, 2),
        ("tests/a.py", 3.0, 1),
    ]
    assert result["cpu_s"] == 14.5 and result["span_s"] == 30.0
    gw0, gw1 = result["workers"]
    assert result["tail_s"] == 24.0 and gw1["idle_at_end_s"] == 24.0
    assert gw0["alone_at_end"] == [  # each ended after gw1 had none left
        {"id": "tests/a.py::one", "wall_s": 10.0},
        {"id": "tests/c.py::long", "wall_s": 20.0},
    ]
    assert gw0["waiting_s"] == 30.0 - 9.0 and gw1["alone_at_end"] == []
