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
    the first is handed out (:meth:`Database._checkout`): one asked for meanwhile would
    open a second, and the idle ones are handed out in turn, so a process writing in
    turn would spread its writes over two server processes, each planning the same
    statements and filling the same caches (the server's CPU per write at 16 writers,
    ``docs/postgres.md``).

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
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ...config import _is_identifier, mask_url
from ...errors import (
    LockTimeout,
    MnemicError,
    StorageError,
    StoreUnreachable,
    UnreadableFile,
    WriteFailed,
)
from ...extras import needs_extra

with needs_extra("postgres", "The PostgreSQL store (store = postgresql://...)"):
    import psycopg

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from ...config import Settings

__all__ = [
    "ConnectionLost",
    "Database",
    "DatabaseUnreachable",
    "atomic",
    "failure",
    "mapped_errors",
    "mask_url",
    "privilege_refusal",
    "scrub",
]

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

_MADE: weakref.WeakKeyDictionary[ConnectionPool[Any], threading.Event] = weakref.WeakKeyDictionary()
"""Each pool's "its first connection was made" (set by the pool as it makes one): the
first request waits for it before asking (:meth:`Database._checkout`)."""
_FILLED: weakref.WeakSet[ConnectionPool[Any]] = weakref.WeakSet()
"""The pools whose first connection was in the pool before any was asked for."""
_FILL_LOCK = threading.Lock()


def scrub(text: str, url: str) -> str:
    """``text`` (a reason libpq or psycopg gave) without ``url``'s password: libpq quotes
    a URL it cannot parse whole, password included, in its error."""
    text = text.replace(url, mask_url(url))
    secrets = re.findall(r"(?i)\bpassword=([^&\s\"']+)", url)
    login = re.match(r"[a-z]+://([^@/?#]*)@", url, re.IGNORECASE)
    if login and ":" in login.group(1):
        secrets.append(login.group(1).split(":", 1)[1])
    for secret in sorted(set(secrets), key=len, reverse=True):
        if secret:
            text = text.replace(secret, "***")
    return text


_LOGIN_REFUSED = (
    "password authentication failed",
    "no password supplied",
    "not permitted to log in",
    "does not exist",
    "pg_hba.conf",
    "authentication failed",
    "permission denied for database",
)
_URL_INVALID = ("invalid", 'missing "="', "end of string reached", "unterminated quoted")


def _refused(why: str) -> str | None:
    """What a failed connection attempt's ``why`` says no wait would change: ``"login"``
    when the server answered and refused the login (a wrong password, a database or user
    that does not exist), ``"url"`` when libpq could not start from the URL; ``None``
    when the server did not answer, which waiting may change."""
    if any(mark in why for mark in _LOGIN_REFUSED):
        return "login"
    if any(mark in why for mark in _URL_INVALID):
        return "url"
    return None


def _connect_refusal(location: str, timeout: float, why: str) -> str:
    """What a person reads when no connection could be had: the server refused the login,
    the URL is not one libpq accepts, or the server did not answer."""
    if "no password supplied" in why:
        return (
            f"PostgreSQL at {location} asks for a password and none was given ({why}). "
            "Nothing was changed. Put it in ~/.pgpass (one line "
            "HOST:PORT:DATABASE:USER:PASSWORD, mode 0600; PGPASSFILE names another file) "
            "or in PGPASSWORD on this host, then retry."
        )
    refused = _refused(why)
    if refused == "login":
        return (
            f"PostgreSQL at {location} answered and refused the login ({why}). Nothing was "
            "changed. Check the user, the password (~/.pgpass, PGPASSWORD or the URL) and "
            "the database in the URL (store in config.toml, or MNEMIC_STORE); the database "
            "and the user must exist on the server (createdb, CREATE ROLE), then retry."
        )
    if refused == "url":
        return (
            f"The PostgreSQL URL {location} is not valid ({why}). Nothing was changed. Fix "
            "it in store (config.toml) or MNEMIC_STORE: "
            "postgresql://USER@HOST[:PORT]/DATABASE, then retry."
        )
    return (
        f"Cannot reach PostgreSQL at {location} within {timeout:g}s ({why}). Nothing was "
        "changed; check that the server is up and reachable (and the URL in store or "
        "MNEMIC_STORE), then retry."
    )


class _QuietConnectErrors(logging.Filter):
    """Keeps psycopg_pool's warnings about failed connection attempts of mnemic's own
    pools, and about the broken connections given back to them, off the terminal (it
    retries in the background and warns at every attempt: a server that does not answer
    printed the same two lines over and over before mnemic's one refusal), keeping the
    last reason of each pool for that refusal. Other pools' records, and every other
    record, pass."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[str, str] = {}
        self.when: dict[str, float] = {}
        """When each pool's last failed attempt was seen (``time.monotonic()``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if record.msg == "discarding closed connection: %s" and isinstance(args, tuple):
            # a connection the server ended, given back: the caller's own error says so
            # ("discarding closed connection: <psycopg.Connection [BAD] at 0x...>" stood
            # above the refusal of an import cut off by a restart)
            pool = getattr(args[0], "_pool", None) if args else None
            return not str(getattr(pool, "name", "")).startswith("mnemic:")
        if not isinstance(args, tuple) or not args or not str(args[0]).startswith("mnemic:"):
            return True
        if record.msg == "error connecting in %r: %s" and len(args) == 2:
            self.last[str(args[0])] = (
                _reason(args[1]) if isinstance(args[1], BaseException) else str(args[1])
            )
            self.when[str(args[0])] = time.monotonic()
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
        self._reached = False
        """Whether this process has had a connection from the pool (see :meth:`_checkout`)."""
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
        self.lz4: bool | None = None
        """Whether the server can compress the texts a curated write stores with lz4
        (``None``: not asked yet; :func:`~.curated_server.lz4`)."""

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

                made = threading.Event()
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
                    configure=lambda _conn: made.set(),
                    open=True,
                )
                _MADE[pool] = made
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
        recent = failed is not None and time.monotonic() - failed[0] < self.connect_timeout
        if failed is not None and recent and not self._reconnected():
            raise DatabaseUnreachable(failed[1])
        try:
            cm, conn = self._checkout()
        except PoolTimeout as exc:
            why = scrub(_CONNECT_ERRORS.last.get(self.pool.name) or _reason(exc), self.url)
            message = _connect_refusal(self.location, self.connect_timeout, why)
            self._unreachable = (time.monotonic(), message)
            raise DatabaseUnreachable(message) from exc
        except psycopg.ProgrammingError as exc:  # a URL libpq cannot parse
            message = _connect_refusal(
                self.location, self.connect_timeout, scrub(_reason(exc), self.url)
            )
            raise DatabaseUnreachable(message) from None
        self._unreachable = None
        self._reached = True
        try:
            yield conn
        except BaseException as exc:
            cm.__exit__(type(exc), exc, exc.__traceback__)
            raise
        cm.__exit__(None, None, None)

    def _reconnected(self) -> bool:
        """Whether the pool holds an idle connection again (its background attempts got
        one since the last refusal): the server is back, and the refusal of the last
        wait, which a further call within ``connect_timeout`` is given at once, would be
        stale. An MCP server answered "Cannot reach PostgreSQL" for 5 s after the
        database came back."""
        try:
            return int(self.pool.get_stats().get("pool_available", 0)) > 0
        except Exception:  # a pool that cannot say: keep the refusal
            return False

    def _checkout(self) -> tuple[Any, psycopg.Connection[Any]]:
        """A pooled connection and its context manager. Until this process has had one,
        the wait goes in short steps and stops at the first attempt the server refused
        (a wrong password, a database that does not exist) or libpq could not start (an
        invalid URL): waiting out ``connect_timeout`` would not change the answer. A
        server that does not answer is waited for the whole timeout, as before.

        The first request waits for the pool's own first connection before it asks for
        one: asked for while it is being made, the pool would open a second, and it
        hands its idle connections out in turn, so a process writing in turn would spread
        its writes over two server processes, each planning the same statements and
        filling the same caches (the server's CPU a write at 16 writers doubled;
        ``docs/postgres.md``)."""
        pool = self.pool
        made = _MADE.get(pool)
        if self._reached or made is None or pool in _FILLED:
            cm = pool.connection()
            return cm, cm.__enter__()
        from psycopg_pool import PoolTimeout

        started = time.monotonic()
        deadline = started + self.connect_timeout
        while True:
            left = deadline - time.monotonic()
            step = min(0.2, left)
            if made.wait(max(step, 0.001)):
                # made, and about to be put in the pool: wait for that (the server took
                # the login, so this is the time it takes, not a timeout), once per pool
                with _FILL_LOCK:
                    if pool not in _FILLED:
                        pool.wait(timeout=max(deadline - time.monotonic(), 0.001))
                        _FILLED.add(pool)
                cm = pool.connection(timeout=max(deadline - time.monotonic(), 0.001))
                return cm, cm.__enter__()
            seen = _CONNECT_ERRORS.when.get(pool.name, 0.0)
            why = _CONNECT_ERRORS.last.get(pool.name, "")
            final = seen >= started and _refused(why) is not None
            if final or step >= left:
                raise PoolTimeout(why or f"no connection within {self.connect_timeout:g}s")

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


class DatabaseUnreachable(StoreUnreachable):
    """No connection to the database could be had: the server did not answer, refused
    the login, or the URL is not valid (``storage_error``). Nothing was changed."""

    def to_llm(self) -> str:
        # "check that the server is up ..., then retry" is a person's step: a model told
        # it retried at once and got the same answer (the process refuses at once for
        # connect_timeout after a wait). It hands the problem over instead.
        return (
            f"{self.message} Only a person can bring the database back: tell the user the "
            "memory and session database is out of reach, and go on without it for now; an "
            "identical call fails the same way until the database answers again."
        )

    def to_human(self) -> str:
        return self.message


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
    from psycopg import errors

    if isinstance(exc, errors.InsufficientPrivilege):
        return StorageError(privilege_refusal(location, reason))
    if writing:
        return WriteFailed(location, f"database error: {reason}; the transaction was rolled back")
    return UnreadableFile(location, f"database error: {reason}")


def _names(location: str) -> tuple[str, str, str]:
    """The role, database and schema a :attr:`Database.location` names (placeholders
    for what it does not say)."""
    found = re.match(r"[a-z]+://(?:([^:@/]*)(?::[^@/]*)?@)?[^/]*/([^?\s]*)", location)
    role = (found.group(1) if found else "") or "ROLE"
    database = (found.group(2) if found else "") or "DATABASE"
    schema = re.search(r"\(schema ([a-z_][a-z0-9_]*)\)", location)
    return role, database, schema.group(1) if schema else "mnemic"


def privilege_refusal(location: str, reason: str) -> str:
    """What a person reads when the server refused a statement for lack of a right."""
    role, database, schema = _names(location)
    if "for database" in reason:
        return (
            f"The role {role} may not create the schema {schema} in {location} ({reason}). "
            "Nothing was changed. Run `mnemic db migrate` once as the database's owner, or "
            f"have it run `GRANT CREATE ON DATABASE {database} TO {role};`; the other hosts "
            'need only the rights to use the schema (docs/postgres.md, "Roles and rights").'
        )
    if "must be owner" in reason:
        return (
            f"The role {role} may not change the schema {schema} in {location} ({reason}). "
            "Nothing was changed. Run `mnemic db migrate` as the role that created the "
            "schema (its owner)."
        )
    return (
        f"The role {role} lacks a right it needs in {location} ({reason}). Nothing was "
        "changed. Use the role that ran `mnemic db migrate` (the schema's owner), or have "
        f"it grant this role: `GRANT USAGE ON SCHEMA {schema} TO {role}; GRANT SELECT, "
        f"INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}; GRANT USAGE ON "
        f'ALL SEQUENCES IN SCHEMA {schema} TO {role};` (docs/postgres.md, "Roles and '
        'rights").'
    )


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
