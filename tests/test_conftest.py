"""What ``tests/conftest.py`` does for the whole session: bytecode (its
``pytest_configure``) and each test's private directories (``_isolated_home``)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

PREFIX = Path(sys.prefix) / "pycache"
OURS = (
    sys.flags.dont_write_bytecode
    and sys.prefix != sys.base_prefix
    and os.environ.get("PYTHONPYCACHEPREFIX") == str(PREFIX)
)


@pytest.mark.skipif(not OURS, reason="the session's bytecode prefix is not the venv's")
def test_the_test_modules_pytest_rewrote_are_kept_for_the_next_run() -> None:
    """Each worker rewrote every test module's asserts (and every module of hypothesis,
    anyio, xdist) on every run: 11 s of the 18 s of CPU a collection took (session 51)."""
    here = Path(__file__).resolve()
    kept = list((PREFIX / Path(*here.parts[1:-1])).glob(f"{here.stem}.*-pytest-*.pyc"))
    assert kept, f"no rewritten {here.name} under {PREFIX}"


def test_the_tests_write_no_bytecode_when_the_run_was_told_not_to() -> None:
    """Caching stops with collection: a module a test writes and imports is not kept."""
    assert sys.dont_write_bytecode == sys.flags.dont_write_bytecode


def test_a_tests_runtime_directory_is_private_and_its_own(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    runtime = Path(os.environ["XDG_RUNTIME_DIR"])
    assert runtime.stat().st_mode & 0o777 == 0o700 and list(runtime.iterdir()) == []
    assert tmp_path not in runtime.parents and runtime != tmp_path
    # not one of the numbered directories of pytest's base directory, each of which lists
    # all the others to be made (quadratic: 13.6 s of CPU for 3,000 tests, session 51)
    assert runtime.parent != tmp_path_factory.getbasetemp()


def test_hypothesis_checks_nothing_by_the_clock() -> None:
    """A deadline or a too-slow health check fails a right test on a loaded machine."""
    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def test_a_tests_tmp_path_is_new_private_and_made_without_listing_the_others(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    assert tmp_path.is_dir() and list(tmp_path.iterdir()) == []
    assert tmp_path.stat().st_mode & 0o777 == 0o700
    assert tmp_path.name.startswith("test_a_tests_tmp_path_is_new_")
    assert tmp_path_factory.getbasetemp() in tmp_path.parents
    # not a numbered directory of pytest's base directory: each lists all the others to
    # be made (6.7 s of CPU for 3,000 tests, session 53)
    assert tmp_path.parent != tmp_path_factory.getbasetemp()


def test_what_collection_made_is_out_of_the_collectors_walks() -> None:
    """Frozen after collection (``gc.freeze``): a full collection walks only what the
    tests made since."""
    import gc

    assert gc.get_freeze_count() > 10_000


def test_an_sdk_client_loads_one_ca_certificate_not_the_systems_bundle() -> None:
    """Each LLM SDK client's SSL context loaded the system's whole CA bundle (22 ms of
    CPU a client, session 55); no test speaks TLS."""
    from httpx2._config import create_ssl_context

    if "SSL_CERT_FILE" not in os.environ:
        pytest.skip("no CA bundle on this machine")
    assert create_ssl_context().cert_store_stats()["x509_ca"] == 1


def test_every_file_of_the_postgres_suite_is_marked_postgres() -> None:
    """``./x test --quick`` leaves the ``postgres`` mark out; a file of ``tests/postgres``
    without it started the session's throwaway server in the quick loop (the server
    literals' file, session 55)."""
    here = Path(__file__).resolve().parent / "postgres"
    unmarked = [
        p.name
        for p in sorted(here.glob("test_*.py"))
        if not re.search(r"^pytestmark = .*pytest\.mark\.postgres\b", p.read_text("utf-8"), re.M)
    ]
    assert unmarked == []


def test_modules_with_heavy_tests_are_handed_out_first_each_kept_whole() -> None:
    """xdist hands tests out in collection order: a slow module collected last ran alone
    on one worker while the other had stopped (84 s of a 940 s sample, session 58). The
    modules holding a slow, e2e, postgres or browser test go first, each whole and in its
    order; the rest follow in theirs, and e2e tests are marked."""
    import conftest

    class Item:
        def __init__(self, path: str, *marks: str) -> None:
            self.path = Path(path)
            self.marks = set(marks)

        def get_closest_marker(self, name: str) -> object:
            return name if name in self.marks else None

        def add_marker(self, mark: pytest.MarkDecorator) -> None:
            self.marks.add(mark.name)

        def __repr__(self) -> str:
            return f"{self.path.name}:{sorted(self.marks)}"

    e2e = conftest.E2E / "test_cli.py"
    items = [
        Item("tests/test_a.py"),
        Item("tests/test_b.py"),
        Item("tests/test_b.py", "slow"),
        Item("tests/test_b.py"),
        Item("tests/test_c.py"),
        Item(str(e2e)),
        Item("tests/test_d.py", "postgres"),
        Item("tests/test_e.py", "browser"),
    ]
    order = list(items)
    conftest.pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    heavy_first = [1, 2, 3, 5, 6, 7, 0, 4]  # b (whole), e2e, d, e; then a, c
    assert items == [order[i] for i in heavy_first]
    assert order[5].marks == {"e2e"}
