"""One PostgreSQL database and schema, reached through a connection pool shared per process.

Connections
    One :class:`psycopg_pool.ConnectionPool` per server URL and process, shared by the
    curated backend, the session store and the governance storage of every home that
    names that URL. Connections are in autocommit mode; a transaction is an explicit
    ``with conn.transaction()`` (:func:`atomic`). Each connection is checked when it
    leaves the pool (:func:`_check`: free unless the server has sent something), so a
    connection the server dropped (restart, ``pg_terminate_backend``, idle timeout) is
    replaced instead of handed out: after a connection loss the next call reconnects by
    itself. A forked child never uses the pool it inherited (those sockets are the
    parent's): its first call opens a pool of its own, so a ``Memory`` opened before
    ``os.fork()`` works on both sides. A pool's first connection is waited for before
    the first is handed out (:func:`_fill`): one asked for meanwhile would open a second,
    and the idle ones are handed out in turn, so a process writing in turn would spread
    its writes over two server processes, each planning the same statements and filling
    the same caches (the server's CPU per write at 16 writers, ``docs/postgres.md``).

Errors
    A connection lost in the middle of a transaction rolls the whole transaction back on
    the server: nothing of it is applied. The caller gets a :class:`~mnemic.errors.
    MnemicError` that says so (:func:`failure`); only a loss during ``COMMIT`` itself
    leaves the outcome unknown (all or nothing, never half), and the message says that.

Names
    Every table lives in the schema ``[postgres] schema`` (default ``mnemic``); separate
    schemas in one database are separate memories. SQL text names tables as ``{s}.name``
    and :meth:`Database.sql` substitutes the (validated) schema. Advisory lock keys are
    64-bit hashes of ``<schema>/<name>`` (:meth:`Database.key`).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import logging
import math
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from ...config import _is_identifier
from ...errors import LockTimeout, MnemicError, StorageError, UnreadableFile, WriteFailed
from ...extras import needs_extra

with needs_extra("postgres", "The PostgreSQL store (store = postgresql://...)"):
    import psycopg

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from ...config import Settings

__all__ = ["ConnectionLost", "Database", "atomic", "failure", "mapped_errors", "mask_url"]

log = logging.getLogger(__name__)

_POOLS: dict[tuple[str, int, float], ConnectionPool[Any]] = {}
_DATABASES: dict[tuple[str, str, int, float, bool], Database] = {}
_REGISTRY_LOCK = threading.Lock()
_INHERITED: list[ConnectionPool[Any]] = []
"""Pools a forked child inherited from its parent: kept referenced and never used or
closed in the child (their sockets are the parent's; closing would end its sessions)."""


def _forget_inherited_pools() -> None:
    """In a forked child: drop the parent's pools without touching their connections.

    The child's next connection builds a pool of its own. Locks are re-created, since
    another thread of the parent may have held one at the fork.
    """
    global _REGISTRY_LOCK, _FILL_LOCK
    _REGISTRY_LOCK = threading.Lock()
    _FILL_LOCK = threading.Lock()
    _INHERITED.extend(_POOLS.values())
    _POOLS.clear()


os.register_at_fork(after_in_child=_forget_inherited_pools)

_FILLED: weakref.WeakSet[ConnectionPool[Any]] = weakref.WeakSet()
"""The pools whose first connection was made before any was handed out (:func:`_fill`)."""
_FILL_LOCK = threading.Lock()


def _fill(pool: ConnectionPool[Any], timeout: float) -> None:
    """Wait, once per pool, for the first connection it makes as it opens, before the
    first request: a request while it is being made would open a second, and the pool
    hands its idle connections out in turn (the oldest first), so a process writing in
    turn would spread its writes over two server processes, each planning the same
    statements and filling the same caches. Unreachable within ``timeout``:
    ``PoolTimeout``, the pool closed (the next call opens another)."""
    with _FILL_LOCK:
        if pool not in _FILLED:
            pool.wait(timeout=timeout)
            _FILLED.add(pool)


def mask_url(url: str) -> str:
    """``url`` without its password (for messages and listings)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://(unparsable URL)"
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        netloc = f"{user}@{host}"
    query = "&".join(
        "password=***" if p.lower().startswith("password=") else p
        for p in parts.query.split("&")
        if p
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


class _QuietConnectErrors(logging.Filter):
    """Keeps psycopg_pool's warnings about failed connection attempts of mnemic's own
    pools off the terminal (it retries in the background and warns at every attempt: a
    server that does not answer printed the same two lines over and over before mnemic's
    one refusal), keeping the last reason of each pool for that refusal. Other pools'
    records, and every other record, pass."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[str, str] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not isinstance(args, tuple) or not args or not str(args[0]).startswith("mnemic:"):
            return True
        if record.msg == "error connecting in %r: %s" and len(args) == 2:
            self.last[str(args[0])] = (
                _reason(args[1]) if isinstance(args[1], BaseException) else str(args[1])
            )
            return False
        return record.msg != "reconnection attempt in pool %r failed after %s sec"


_CONNECT_ERRORS = _QuietConnectErrors()
logging.getLogger("psycopg.pool").addFilter(_CONNECT_ERRORS)


def _close_pools() -> None:
    with _REGISTRY_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
        _DATABASES.clear()
    for pool in pools:
        with contextlib.suppress(Exception):
            pool.close(timeout=2.0)


atexit.register(_close_pools)


class Database:
    """A PostgreSQL database and mnemic schema (see the module docstring).

    Obtain with :meth:`for_settings` (shared per process) or build one directly.
    """

    def __init__(
        self,
        url: str,
        *,
        schema: str = "mnemic",
        pool_size: int = 4,
        connect_timeout: float = 5.0,
        migrate_on_start: bool = False,
        schema_check: Callable[[Database], None] | None = None,
    ) -> None:
        if not _is_identifier(schema):
            raise StorageError(f"Invalid schema name {schema!r}: use a lower-case identifier.")
        self.url = url
        self.schema = schema
        self.pool_size = max(3, int(pool_size))
        self.connect_timeout = float(connect_timeout)
        self.migrate_on_start = migrate_on_start
        self.schema_check = schema_check
        """Called once before the first pooled connection (``None``: no check)."""
        self.location = f"{mask_url(url)} (schema {schema})"
        self._quoted = f'"{schema}"'
        self._ready = False
        self._ready_lock = threading.Lock()
        self._pid = os.getpid()
        self._unreachable: tuple[float, str] | None = None
        """When the last wait for a connection timed out, and the refusal it gave: a
        further wait within ``connect_timeout`` of it is refused at once (a command that
        opens several stores waited the whole timeout for each)."""
        self.flushes: bool | None = None
        """Whether this role may call ``pg_logical_emit_message``, which lets a curated
        write release its locks before its commit is flushed (``None``: not asked yet;
        :func:`~.curated_begin.flushes`)."""
        self.server_writes: bool | None = None
        """Whether this role may run ``curated_write``, the server's half of a curated
        add or remove (``None``: not tried yet; :mod:`.curated_server`)."""
        self.server_queue: bool | None = None
        """Whether this role may run ``curated_queue``, group commit in the server
        (``None``: not tried yet; :mod:`.curated_queue`)."""

    @classmethod
    def for_settings(
        cls, settings: Settings, *, schema_check: Callable[[Database], None] | None = None
    ) -> Database:
        """The database a home's settings name (one instance per process and settings);
        ``schema_check`` runs once before its first pooled connection."""
        pg = settings.postgres
        key = (settings.store, pg.schema, pg.pool_size, pg.connect_timeout, pg.migrate_on_start)
        with _REGISTRY_LOCK:
            db = _DATABASES.get(key)
            if db is None:
                db = cls(
                    settings.store,
                    schema=pg.schema,
                    pool_size=pg.pool_size,
                    connect_timeout=pg.connect_timeout,
                    migrate_on_start=pg.migrate_on_start,
                    schema_check=schema_check,
                )
                _DATABASES[key] = db
            elif schema_check is not None:
                db.schema_check = schema_check
        return db

    def __repr__(self) -> str:
        return f"Database({self.location!r})"

    # -- names ---------------------------------------------------------------------
    def sql(self, text: str) -> str:
        """``text`` with ``{s}`` replaced by the quoted schema name."""
        return text.replace("{s}", self._quoted)

    def key(self, name: str) -> int:
        """The advisory lock key of ``name`` in this schema (a signed 64-bit integer)."""
        digest = hashlib.blake2b(f"{self.schema}/{name}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big", signed=True)

    # -- connections ------------------------------------------------------------------
    @property
    def pool(self) -> ConnectionPool[Any]:
        """The process-wide pool of this server URL (opened on first use).

        After ``os.fork()`` the child gets a pool of its own: the parent's connections
        are never shared (see :func:`_forget_inherited_pools`).
        """
        if self._pid != os.getpid():  # this object came through a fork
            self._ready_lock = threading.Lock()
            self._pid = os.getpid()
        key = (self.url, self.pool_size, self.connect_timeout)
        with _REGISTRY_LOCK:
            pool = _POOLS.get(key)
            if pool is None or pool.closed:  # closed by its user: a new one, not an error
                from psycopg_pool import ConnectionPool

                pool = ConnectionPool(
                    self.url,
                    kwargs={
                        "autocommit": True,
                        "connect_timeout": max(2, math.ceil(self.connect_timeout)),
                        "application_name": "mnemic",
                    },
                    min_size=1,
                    max_size=self.pool_size,
                    timeout=self.connect_timeout,
                    check=_check,
                    name=self._pool_name,
                    open=True,
                )
                _POOLS[key] = pool
        return pool

    @property
    def _pool_name(self) -> str:
        return f"mnemic:{mask_url(self.url)}"

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection (autocommit) with the schema checked; returned after use.

        A statement that finds the schema or one of its tables missing has the schema
        checked again (:meth:`recheck`): it was there when this process checked it, so
        it was dropped since (a long-lived process, an MCP server, outlives its schema)."""
        if not self._ready:
            self.ensure_ready()
        from psycopg import errors

        try:
            with self.raw_connection() as conn:
                yield conn
        except (errors.UndefinedTable, errors.InvalidSchemaName) as exc:
            self.recheck(exc)
            raise

    @contextlib.contextmanager
    def raw_connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection without the schema check (migrations use it)."""
        from psycopg_pool import PoolTimeout

        failed = self._unreachable
        if failed is not None and time.monotonic() - failed[0] < self.connect_timeout:
            raise StorageError(failed[1])
        try:
            pool = self.pool
            if pool not in _FILLED:
                _fill(pool, self.connect_timeout)
            cm = pool.connection()
            conn = cm.__enter__()
        except PoolTimeout as exc:
            why = _CONNECT_ERRORS.last.get(self._pool_name) or _reason(exc)
            message = (
                f"Cannot reach PostgreSQL at {self.location} within "
                f"{self.connect_timeout:g}s ({why}). Nothing was changed; check that the "
                "server is up and reachable (and the URL in store or MNEMIC_STORE), then "
                "retry."
            )
            self._unreachable = (time.monotonic(), message)
            raise StorageError(message) from exc
        self._unreachable = None
        try:
            yield conn
        except BaseException as exc:
            cm.__exit__(type(exc), exc, exc.__traceback__)
            raise
        cm.__exit__(None, None, None)

    def ensure_ready(self) -> None:
        """Run the schema check once, before the first pooled connection is handed out
        (:func:`~.migrations.check_schema` for the stores a home opens)."""
        with self._ready_lock:
            if self._ready:
                return
            if self.schema_check is not None:
                self.schema_check(self)
            self._ready = True

    def recheck(self, exc: BaseException) -> None:
        """Check the schema again after ``exc`` found it, or a table of it, missing: when
        it is still missing (or at another version) the check's own refusal is raised,
        which says what to do (`mnemic db migrate`), instead of a database error about
        one table that reads like a damaged file; with ``migrate_on_start`` the schema is
        migrated, as at a process's start. When the check passes (someone migrated it
        meanwhile, or a table of a sound schema is missing) nothing is raised here."""
        with self._ready_lock:
            self._ready = False
        try:
            self.ensure_ready()
        except MnemicError as refused:
            raise StorageError(
                f"{refused} (It was ready when this process first used it, so it was "
                f"dropped since: {_reason(exc)}.) Nothing was changed."
            ) from exc


class ConnectionLost(psycopg.OperationalError):
    """The connection died inside a transaction, before COMMIT: nothing was applied.

    (psycopg leaves a transaction block on a dead connection without an error, having
    sent no COMMIT; :func:`atomic` turns that into this exception.)
    """


@contextlib.contextmanager
def atomic(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """``conn.transaction()`` that raises :class:`ConnectionLost` when the connection
    died before the COMMIT could be sent (the server then rolled everything back)."""
    with conn.transaction():
        yield
        if conn.broken or conn.closed:
            raise ConnectionLost("the connection was lost before COMMIT")
    if conn.broken or conn.closed:
        raise ConnectionLost("the connection was lost before COMMIT")


def _check(conn: psycopg.Connection[Any]) -> None:
    """Make sure a connection leaving the pool is alive, without a round trip if we can.

    An idle connection has nothing to read. If its socket is readable, the server sent
    something while it sat in the pool, which for an idle session means it is closing
    it (``pg_terminate_backend``, a restart, an idle timeout): then the real check runs,
    fails, and the pool connects afresh.
    """
    import select

    try:
        readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    except (OSError, ValueError, psycopg.OperationalError):
        readable = [True]
    if readable:
        from psycopg_pool import ConnectionPool

        ConnectionPool.check_connection(conn)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def is_lock_timeout(exc: BaseException) -> bool:
    """Whether ``exc`` is PostgreSQL's ``lock_timeout`` firing."""
    from psycopg import errors

    return isinstance(exc, errors.LockNotAvailable)


def failure(
    exc: BaseException,
    location: str,
    *,
    writing: bool,
    committing: bool = False,
    waited_s: float = 0.0,
    lost: bool = True,
) -> MnemicError:
    """The error a caller gets for a database failure ``exc`` (see the module docstring).

    ``committing``: the failure came in the COMMIT's round trip, so the outcome is
    unknown: the connection was lost there (``lost``), or the server reported an error at
    or after an early COMMIT (:attr:`~.curated_txn.PgTxn.unknown`)."""
    if isinstance(exc, MnemicError):
        return exc
    if is_lock_timeout(exc):
        return LockTimeout(location, waited_s)
    reason = _reason(exc)
    if isinstance(exc, ConnectionLost):
        committing = False
        reason = "the connection to the database was lost before COMMIT"
    if committing and not lost:
        return StorageError(
            f"PostgreSQL reported an error at or after the COMMIT of {location} ({reason}), "
            "so whether it committed is not known. The change was applied completely or "
            "not at all, never in part; read the current state before retrying."
        )
    if committing:
        return StorageError(
            f"The connection to {location} was lost while committing ({reason}). The change "
            "was applied completely or not at all, never in part; read the current state "
            "before retrying."
        )
    if writing:
        return WriteFailed(location, f"database error: {reason}; the transaction was rolled back")
    return UnreadableFile(location, f"database error: {reason}")


@contextlib.contextmanager
def mapped_errors(location: str, *, writing: bool) -> Iterator[None]:
    """Turn a database error inside the block into the caller's error (:func:`failure`);
    mnemic's own errors and anything else pass through unchanged."""
    try:
        yield
    except MnemicError:
        raise
    except psycopg.Error as exc:
        raise failure(exc, location, writing=writing) from exc
