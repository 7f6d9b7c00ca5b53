"""A throwaway PostgreSQL server on loopback, for tests and benchmarks.

Not part of the wheel: ``bench/postgres.py`` imports it, and so does the tests' ``pg_dsn``
fixture (``tests/conftest.py`` puts ``bench/`` on the path).

:func:`scratch_server` runs ``initdb`` into a temporary directory and starts ``postgres``
on 127.0.0.1 with a free port and the socket in that directory; on exit it stops the
server (``pg_ctl -m immediate``) and removes everything. As root (CI containers), the
server runs as the ``postgres`` user through ``runuser`` (``initdb`` refuses root). The
binaries are found with ``pg_config --bindir`` or under ``/usr/lib/postgresql/*/bin``
(Debian keeps them off ``PATH``); :func:`find_bindir` returns None when there are none.

``durable=False`` (tests) turns off fsync and synchronous commit: fast, and a crash of
the machine loses the data, which a throwaway server does not mind. Benchmarks keep the
defaults so the figures compare with a durable SQLite.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["ScratchServer", "find_bindir", "scratch_server", "start_server"]


def find_bindir() -> str | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            )
            candidates.append(out.stdout.strip())
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    versions.sort(key=lambda p: [int(x) if x.isdigit() else 0 for x in p.split("/")[-2].split(".")])
    candidates.extend(reversed(versions))
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(os.path.dirname(initdb))
    for d in candidates:
        if (
            d
            and os.path.exists(os.path.join(d, "initdb"))
            and os.path.exists(os.path.join(d, "pg_ctl"))
        ):
            return d
    return None


@dataclass
class ScratchServer:
    """A running throwaway server."""

    dsn: str
    """``postgresql://test@127.0.0.1:<port>/postgres``"""
    directory: str
    port: int
    bindir: str
    prefix: tuple[str, ...]
    """``runuser -u postgres --`` when running as root, else empty."""

    def pid(self) -> int | None:
        """The postmaster's process id (None: not running)."""
        with (
            contextlib.suppress(OSError, ValueError, IndexError),
            open(os.path.join(self.directory, "data", "postmaster.pid")) as f,
        ):
            return int(f.readline())
        return None

    def stop(self) -> None:
        """Stop the server at once and remove its files."""
        data = os.path.join(self.directory, "data")
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [*self.prefix, os.path.join(self.bindir, "pg_ctl"), "-D", data, "-m",
                 "immediate", "-w", "stop"],
                capture_output=True,
                timeout=60,
            )  # fmt: skip
        shutil.rmtree(self.directory, ignore_errors=True)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    *, durable: bool = False, bindir: str | None = None, settings: dict[str, str] | None = None
) -> ScratchServer:
    """Create and start a server (see the module docstring); raise RuntimeError if not.

    ``settings`` are extra server settings (``{"shared_buffers": "1GB"}``).
    """
    bindir = bindir or find_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL server binaries (initdb, pg_ctl) were not found")
    directory = tempfile.mkdtemp(prefix="mnemic-pg-")
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        import pwd

        try:
            entry = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(directory, ignore_errors=True)
            raise RuntimeError(
                "running as root needs a 'postgres' user to run the server"
            ) from None
        os.chown(directory, entry.pw_uid, entry.pw_gid)
        prefix = ("runuser", "-u", "postgres", "--")
    data = os.path.join(directory, "data")
    try:
        subprocess.run(
            [*prefix, os.path.join(bindir, "initdb"), "-D", data, "-U", "test", "-A", "trust",
             "-E", "UTF8", "--locale=C.UTF-8"],
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        options = [
            "-c listen_addresses=127.0.0.1",
            f"-k {directory}",
            "-c max_connections=200",
        ]
        if not durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        options += [f"-c {key}={value}" for key, value in (settings or {}).items()]
        last = ""
        for _ in range(5):
            port = _free_port()
            started = subprocess.run(
                [*prefix, os.path.join(bindir, "pg_ctl"), "-D", data, "-w", "-t", "60",
                 "-l", os.path.join(directory, "log"), "-o", " ".join([f"-p {port}", *options]),
                 "start"],
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            if started.returncode == 0:
                return ScratchServer(
                    f"postgresql://test@127.0.0.1:{port}/postgres", directory, port, bindir, prefix
                )
            last = started.stderr or started.stdout
        raise RuntimeError(f"the server did not start: {last.strip()[-500:]}")
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(directory, ignore_errors=True)
        raise RuntimeError(
            f"initdb failed: {(exc.stderr or exc.stdout or '').strip()[-500:]}"
        ) from exc
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise


@contextlib.contextmanager
def scratch_server(*, durable: bool = False) -> Iterator[ScratchServer]:
    """Run a throwaway server for the duration of the block."""
    server = start_server(durable=durable)
    try:
        yield server
    finally:
        server.stop()
