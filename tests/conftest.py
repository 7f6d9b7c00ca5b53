"""Shared fixtures: every test gets its own private MNEMIC_HOME (and user cache
directory); ``backend`` runs a test on each storage backend (files, and PostgreSQL on a
throwaway server). Every test under ``tests/e2e`` is marked ``e2e`` here, so that
``./x test --quick`` leaves them out with the ``slow``, ``postgres`` and ``browser``
ones."""

from __future__ import annotations

import gc
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from _backends import FilesKit, Kit, PostgresKit
from mnemic.curated.memory import Memory

# bench/ holds build-time code the tests exercise too (the scanner's training and corpus,
# the throwaway PostgreSQL server); appended, so that a module of tests/ keeps its name.
sys.path.append(str(Path(__file__).resolve().parent.parent / "bench"))

E2E = Path(__file__).resolve().parent / "e2e"
SRC = Path(__file__).resolve().parent.parent / "src"


def pytest_configure(config: pytest.Config) -> None:
    """The session's bytecode, then hypothesis's settings (below)."""
    _bytecode(config)
    _hypothesis_without_clocks()


def _hypothesis_without_clocks() -> None:
    """Hypothesis's checks by the clock (a deadline of 200 ms an example, and
    ``too_slow`` for slow input generation) off for the whole suite: on a loaded machine
    they failed tests that were right (``test_entries.py::test_round_trip``, 8 inputs in
    1.08 s at a load of 25, session 51). Imported here, after :func:`_bytecode`, so that
    hypothesis is read from the cache it is written to."""
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "mnemic-suite", deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.load_profile("mnemic-suite")


def _bytecode(config: pytest.Config) -> None:
    """With ``PYTHONDONTWRITEBYTECODE`` set, no process writes ``mnemic``'s bytecode into
    the source tree (an editable install), so every subprocess the suite starts (the CLI,
    the MCP server, spawned writers: thousands) would compile ``mnemic`` from source again:
    about 0.1 s of CPU a start (0.8 s while the scanner's lexicon index was a
    1 MB module; it is data since session 50). The test
    session compiles it once instead, into ``pycache`` of the venv (not the source tree;
    stale files are compiled again, by source mtime and size as usual), and points
    ``PYTHONPYCACHEPREFIX`` there: subprocesses and xdist workers inherit it and read
    bytecode they still never write. Without the variable, or outside a venv, nothing
    changes.

    The same variable kept pytest from caching the test modules it rewrites (their
    asserts, and every module of a package that ships a pytest plugin: hypothesis, anyio
    under the MCP server, xdist): each worker rewrote about 400 modules on every run,
    11 s of the 18 s of CPU its collection took (session 51). Until collection ends, each process
    of the session writes what it compiles into the same ``pycache``; pytest's cached
    files are checked by a hash of their source, and written whole (a rename)."""
    if not sys.flags.dont_write_bytecode or sys.prefix == sys.base_prefix:
        return
    prefix = Path(sys.prefix) / "pycache"
    if hasattr(config, "workerinput"):  # its controller compiled, and set the prefix
        if os.environ.get("PYTHONPYCACHEPREFIX") == str(prefix):
            sys.dont_write_bytecode = False
        return
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return  # a prefix of the user's own
    import compileall

    sys.pycache_prefix = str(prefix)  # compileall writes where imports will look
    compileall.compile_dir(SRC / "mnemic", quiet=2)  # a file that fails fails its tests
    _bytecode_of_what_mnemic_imports()
    os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
    sys.dont_write_bytecode = False


def _bytecode_of_what_mnemic_imports() -> None:
    """A pycache prefix hides every ``__pycache__`` beside the sources, the standard
    library's and the venv's too: with only ``mnemic`` (and what collection imported) in
    the prefix, every process the suite started compiled ``asyncio``, ``json``,
    ``email``, ``rich``'s tables and the rest from source again (``python -m
    mnemic.mcp_server --help``: 1.9 s of CPU, 1.2 s with them; session 52). So the
    standard library (without its tests, IDLE, tkinter and the like) and every
    distribution ``mnemic[all]`` needs are compiled into the prefix too: 7,500 files, 13 s
    of CPU on a clean clone's first run (73 MB), 0.8 s to check them on every later one
    (a file whose bytecode is current is only looked at). Processes still write none.
    ``tests/e2e`` and ``tests/postgres``, the same minutes of a loaded machine: 464 ->
    314 s of CPU, test processes and theirs."""
    import compileall
    import importlib.metadata
    import re
    import sysconfig

    skip = re.compile(
        r"/(test|tests|idlelib|tkinter|turtledemo|lib2to3|ensurepip|site-packages|config-[^/]*)/"
    )
    compileall.compile_dir(sysconfig.get_paths()["stdlib"], quiet=2, rx=skip)
    seen: set[str] = set()
    wanted: list[tuple[str, set[str] | None]] = [("mnemic", None)]  # None: every extra
    while wanted:
        name, extras = wanted.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # an extra not installed, or a requirement of another platform
        for requirement in dist.requires or []:
            spec, _, marker = requirement.partition(";")
            extra = re.search(r"""extra\s*==\s*["']([^"']+)""", marker)
            if extra and extras is not None and extra.group(1) not in extras:
                continue
            parts = re.match(r"\s*([A-Za-z0-9._-]+)\s*(?:\[([^\]]*)\])?", spec)
            if parts:
                asked = (parts.group(2) or "").replace(" ", "").split(",")
                wanted.append((parts.group(1), set(asked)))
        for file in dist.files or []:
            if file.suffix == ".py" and "/tests/" not in f"/{file}":
                compileall.compile_file(Path(str(dist.locate_file(file))), quiet=2)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Collection over, the tests import modules of their own (plugins written to a
    temporary directory): those are not cached (see :func:`pytest_configure`).

    And what collection made (the modules, the items: most of a worker's 280 MB) moves
    to the collector's permanent generation (``gc.freeze``): each full collection the
    tests' garbage sets off walked all of it again (about a tenth of the tests' CPU,
    session 53). Objects are still freed when no longer referenced; only a cycle among
    them would be kept."""
    sys.dont_write_bytecode = sys.flags.dont_write_bytecode
    gc.freeze()


HEAVY = ("slow", "e2e", "postgres", "browser")
"""The marks of tests that start processes, servers or browsers, or search long."""


@pytest.hookimpl(tryfirst=True)  # before -m selects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of ``tests/e2e`` is marked ``e2e``; then the modules holding a heavy
    test (:data:`HEAVY`) go first, the rest after, each in collection order.

    xdist (``-n 2``, ``--dist load``) hands tests out in collection order, in chunks each
    worker queues; a long test handed out near the end ran alone while the other worker,
    its queue empty, had stopped (the tail). With the heavy modules first, the last tests
    handed out are the quick ones, and the two workers end together. A module's tests
    stay together and in their order (its fixtures are set up once, as before)."""
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.e2e)
    heavy: set[Path] = set()
    for item in items:
        if any(item.get_closest_marker(mark) for mark in HEAVY):
            heavy.add(item.path)
    items[:] = [i for i in items if i.path in heavy] + [i for i in items if i.path not in heavy]


@pytest.fixture(scope="session")
def _tmp_paths(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each test's ``tmp_path`` is made (see :func:`tmp_path`)."""
    return tmp_path_factory.mktemp("tmp", numbered=False)


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, _tmp_paths: Path) -> Path:
    """pytest's ``tmp_path`` (a new empty private directory a test, under the run's base
    directory, named after the test), made by ``mkdtemp``: pytest numbers it, listing
    every directory of the worker's base directory to find the next number, and every
    test takes it (:func:`_isolated_home`): 3.4 ms of CPU a test at 3,000 tests a worker,
    6.7 s a worker in all (session 53)."""
    name = re.sub(r"[\W]", "_", request.node.name)[:30]
    return Path(tempfile.mkdtemp(prefix=name, dir=_tmp_paths))  # mode 0o700


@pytest.fixture(scope="session")
def _runtime_dirs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each test's runtime directory is made (see :func:`_isolated_home`)."""
    return tmp_path_factory.mktemp("xdg-run", numbered=False)


@pytest.fixture(scope="session")
def _one_ca_file(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A file of one CA certificate, the first of the system's bundle (None without one).

    Every HTTP client the LLM SDKs make (``openai``, ``anthropic``: one a session a test)
    builds an SSL context that loads the system's CA bundle: 22 ms of CPU each, about 45 %
    of a turn of ``mnemic chat`` against the local stand-in server (session 55). No test
    speaks TLS (every server is local, plain HTTP), so each test's ``SSL_CERT_FILE`` names
    this file (:func:`_isolated_home`): a context of one certificate, 0.4 ms. The bundle
    read is the one ``SSL_CERT_FILE`` names, else the system's."""
    import ssl

    paths = ssl.get_default_verify_paths()
    named = [os.environ.get("SSL_CERT_FILE"), paths.cafile, paths.openssl_cafile]
    bundle = next((Path(n) for n in named if n and Path(n).is_file()), None)
    if bundle is None:
        return None
    text = bundle.read_text(encoding="ascii", errors="replace")
    end = "-----END CERTIFICATE-----"
    if end not in text:
        return None
    one = tmp_path_factory.mktemp("ca", numbered=False) / "one.pem"
    one.write_text(text[: text.index(end) + len(end)] + "\n", encoding="ascii")
    return one


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path: Path,
    _runtime_dirs: Path,
    _one_ca_file: Path | None,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Path]:
    home = tmp_path / "home"
    monkeypatch.setenv("MNEMIC_HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the model check's cache
    # group commit's requests live in the user's runtime directory: the test's own
    # (beside tmp_path, not in it: tests list what tmp_path holds), private as the
    # system's. Made by mkdtemp in a directory of their own: a numbered directory of
    # pytest's lists every directory of the run to number the next one, a cost that grew
    # with each test (4.5 ms of CPU a test at 3,000 a worker, session 51).
    runtime = Path(tempfile.mkdtemp(dir=_runtime_dirs))  # mode 0o700
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("MNEMIC_PROFILE", raising=False)
    for name in list(__import__("os").environ):
        if name.startswith("MNEMIC_") and name not in ("MNEMIC_HOME",):
            monkeypatch.delenv(name, raising=False)
    if _one_ca_file is not None:  # see _one_ca_file (a machine's own variables too)
        monkeypatch.setenv("SSL_CERT_FILE", str(_one_ca_file))
        monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    yield home


@pytest.fixture(params=["off", "queue"], ids=["alone", "group-commit"])
def either_commit(
    request: pytest.FixtureRequest, _isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> str:
    """Run the test twice: as configured, and with ``[memory] group_commit = "queue"``
    (set in the environment, so forked and spawned writers inherit it)."""
    if request.param == "queue":
        monkeypatch.setenv("MNEMIC_MEMORY_GROUP_COMMIT", "queue")
    return str(request.param)


@pytest.fixture
def anyio_backend() -> str:
    """The event loop of the ``anyio`` tests (the MCP server and client, the UI): asyncio."""
    return "asyncio"


@pytest.fixture
def home_path(_isolated_home: Path) -> Path:
    """The isolated home directory of this test (not created yet)."""
    return _isolated_home


@pytest.fixture
def make_memory(home_path: Path) -> Callable[..., Memory]:
    """Open a Memory on the test home, with [memory] settings given as keywords."""

    def make(**memory_settings: object) -> Memory:
        home_path.mkdir(parents=True, exist_ok=True)
        if memory_settings:
            lines = ["[memory]"]
            for key, value in memory_settings.items():
                rendered = str(value).lower() if isinstance(value, bool) else repr(value)
                lines.append(f"{key} = {rendered}")
            (home_path / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return Memory.open(home_path)

    return make


# -- storage backends ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def pg_dsn() -> Iterator[str]:
    """A PostgreSQL server URL for this test session: a throwaway server on loopback
    (as ``postgres`` through ``runuser`` when the tests run as root), or ``TEST_PG_DSN``.
    Without server binaries or psycopg the test is skipped with the reason."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as exc:  # pragma: no cover - the venv has the postgres extra
        pytest.skip(f"psycopg is not installed ({exc}); install mnemic[postgres]")
    dsn = os.environ.get("TEST_PG_DSN")
    if dsn:
        yield dsn
        return
    from _pgserver import find_bindir, scratch_server

    if find_bindir() is None:
        pytest.skip(
            "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install "
            "postgresql, or set TEST_PG_DSN to a server to use"
        )
    with scratch_server() as server:
        yield server.dsn


@pytest.fixture(scope="session")
def pg_schemas(pg_dsn: str) -> Iterator[Any]:
    """The session's :class:`~_pgschemas.SchemaPool`: migrated schemas handed out one per
    test, each renamed, checked, emptied and seeded as a fresh migration leaves it."""
    from _pgschemas import SchemaPool

    pool = SchemaPool(pg_dsn)
    yield pool
    pool.close()


@pytest.fixture
def pg_schema(pg_schemas: Any) -> Iterator[str]:
    """A freshly migrated schema for this test, named as no schema before it, so tests
    never see each other's rows or objects (``_pgschemas.py``: how, without migrating
    for every test)."""
    name = pg_schemas.take()
    yield name
    pg_schemas.give_back(name)


@pytest.fixture(
    params=[
        "files",
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("postgres-client", marks=pytest.mark.postgres),
    ]
)
def backend(request: pytest.FixtureRequest, home_path: Path) -> Kit:
    """The test home on each storage backend in turn (see ``_backends.py``); the
    PostgreSQL home's config.toml is written, the files home is left untouched.
    ``postgres-client``: PostgreSQL with every write on the client's path (the server's
    ``curated_write`` never tried, :mod:`mnemic.curated.server_write`), so the curated
    suite runs against both paths."""
    if request.param == "files":
        return FilesKit(home_path)
    if request.param == "postgres-client":
        import mnemic.curated.server_write

        mp = request.getfixturevalue("monkeypatch")
        mp.setattr(mnemic.curated.server_write, "apply_in_server", lambda *args: None)
    kit = PostgresKit(
        home_path, request.getfixturevalue("pg_dsn"), request.getfixturevalue("pg_schema")
    )
    kit.write_config()
    return kit
