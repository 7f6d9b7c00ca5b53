"""Fresh migrated schemas for the PostgreSQL tests, without running every migration per test.

Running :func:`~mnemic.backends.postgres.migrations.migrate` into a new schema costs about
sixty DDL statements (0.1-0.2 s, more under load), and ``DROP SCHEMA ... CASCADE``
afterwards as much again: for a thousand tests, minutes. :class:`SchemaPool` migrates for
real only when it has no schema to give, and otherwise hands out one a finished test gave
back, made indistinguishable from a freshly migrated one in one transaction:

1. renamed to a new unique name (``ALTER SCHEMA ... RENAME``), so nothing keyed by the
   name in any process (a :class:`~mnemic.backends.postgres.db.Database`, its checked
   flag, advisory lock keys, a cache) carries over from the test that used it; functions
   whose bodies name the schema are created again with the new name;
2. its shape compared with the shape of a freshly migrated schema (:data:`SHAPE`:
   relations, columns and defaults, indexes, constraints, triggers, functions, sequences,
   types, owners and privileges, rules, policies, objects elsewhere that depend on it),
   names aside: a schema a test changed (a table renamed, a function dropped, a grant)
   is dropped instead and the next one tried, or a new one migrated;
3. emptied: every table written to truncated, every sequence used set back to its start
   (as ``CREATE SEQUENCE`` leaves it), the planner's
   statistics of its relations removed (what ``ANALYZE`` or autovacuum left: the session
   search reads ``pg_stats``), and their activity counters reset (what autovacuum
   decides by; a backend reports these late, so this is as near as a fresh schema's as
   the server's own timing allows, no nearer);
4. given the rows a migration writes (``meta``, ``audit_head``, ``mnemic_migrations``),
   as read from the first schema migrated this session. The columns whose values differ
   between two schemas migrated for real (:meth:`SchemaPool.learn` migrates two and
   compares them) are made again rather than copied: from the column's default
   (``audit_head.generation``: a new random value) or, for
   ``mnemic_migrations.applied_at``, the time now. Any other difference turns the pool
   off (each test then migrates, as before).

The pool needs a superuser (removing statistics); with another role (``TEST_PG_DSN``)
every test migrates a schema of its own and drops it after, as before. At the end of the
session the schemas it holds are dropped. Tests whose point is a migration make their
schemas themselves and never come here.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

SHAPE = """
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = %(name)s),
rels AS (SELECT c.* FROM pg_class c, ns WHERE c.relnamespace = ns.oid)
SELECT 'nsp ' || n.nspowner::regrole::text || ' ' || coalesce(n.nspacl::text, '-')
  FROM pg_namespace n, ns WHERE n.oid = ns.oid
UNION ALL
SELECT concat_ws(' ', 'rel', relname, relkind, relpersistence, relowner::regrole::text,
                 coalesce(relacl::text, '-'), coalesce(reloptions::text, '-'),
                 relrowsecurity, relforcerowsecurity, relreplident, relispartition)
  FROM rels
UNION ALL
SELECT concat_ws(' ', 'att', r.relname, a.attnum, a.attname,
                 format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attisdropped,
                 a.attidentity, a.attgenerated, a.attcollation,
                 coalesce(a.attacl::text, '-'), coalesce(pg_get_expr(d.adbin, d.adrelid), '-'))
  FROM rels r JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0
  LEFT JOIN pg_attrdef d ON d.adrelid = r.oid AND d.adnum = a.attnum
UNION ALL
SELECT 'idx ' || pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN rels r ON r.oid = i.indrelid
UNION ALL
SELECT concat_ws(' ', 'con', r.relname, c.conname, pg_get_constraintdef(c.oid))
  FROM pg_constraint c, ns, rels r WHERE c.connamespace = ns.oid AND r.oid = c.conrelid
UNION ALL
SELECT concat_ws(' ', 'con-other', c.conname) FROM pg_constraint c, ns
  WHERE c.connamespace = ns.oid AND c.conrelid = 0
UNION ALL
SELECT concat_ws(' ', 'trg', pg_get_triggerdef(t.oid), t.tgenabled)
  FROM pg_trigger t JOIN rels r ON r.oid = t.tgrelid WHERE NOT t.tgisinternal
UNION ALL
SELECT concat_ws(' ', 'fn', p.proname, p.prokind, p.proowner::regrole::text,
                 coalesce(p.proacl::text, '-'),
                 CASE WHEN p.prokind IN ('f', 'p') THEN pg_get_functiondef(p.oid) END)
  FROM pg_proc p, ns WHERE p.pronamespace = ns.oid
UNION ALL
SELECT concat_ws(' ', 'typ', t.typname, t.typtype, t.typowner::regrole::text,
                 coalesce(t.typacl::text, '-'))
  FROM pg_type t, ns WHERE t.typnamespace = ns.oid
UNION ALL
SELECT concat_ws(' ', 'seq', r.relname, s.seqtypid::regtype::text, s.seqstart, s.seqincrement,
                 s.seqmax, s.seqmin, s.seqcache, s.seqcycle)
  FROM pg_sequence s JOIN rels r ON r.oid = s.seqrelid
UNION ALL
SELECT concat_ws(' ', 'rule', rulename, definition) FROM pg_rules WHERE schemaname = %(name)s
UNION ALL
SELECT concat_ws(' ', 'policy', tablename, policyname) FROM pg_policies
  WHERE schemaname = %(name)s
UNION ALL
SELECT concat_ws(' ', 'stx', x.stxname) FROM pg_statistic_ext x, ns WHERE x.stxnamespace = ns.oid
UNION ALL
SELECT 'defacl ' || d.defaclacl::text FROM pg_default_acl d, ns WHERE d.defaclnamespace = ns.oid
UNION ALL
SELECT concat_ws(' ', 'depends-from-elsewhere', dep.classid::regclass::text, dep.deptype)
  FROM pg_depend dep JOIN rels r ON dep.refclassid = 'pg_class'::regclass
   AND dep.refobjid = r.oid
  WHERE dep.classid = 'pg_rewrite'::regclass
    AND (SELECT ev_class FROM pg_rewrite WHERE oid = dep.objid) NOT IN (SELECT oid FROM rels)
UNION ALL
SELECT concat_ws(' ', 'fk-from-elsewhere', c.conname) FROM pg_constraint c JOIN rels r
  ON c.confrelid = r.oid WHERE c.conrelid NOT IN (SELECT oid FROM rels)
"""
"""Everything a schema holds besides its rows, one line each (the schema's own name in
them is replaced by ``{s}`` before comparing)."""


def fresh_name() -> str:
    """A schema name no test has used."""
    return "t_" + uuid.uuid4().hex[:12]


def shape(conn: Any, name: str) -> list[str]:
    """The sorted lines of :data:`SHAPE` for schema ``name``, its name replaced by ``{s}``."""
    rows = conn.execute(SHAPE, {"name": name}).fetchall()
    return sorted(str(r[0]).replace(name, "{s}") for r in rows)


def tables(conn: Any, name: str) -> list[str]:
    """The ordinary tables of schema ``name``."""
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relkind = 'r' ORDER BY 1",
        (name,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def rows(conn: Any, name: str) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows (``{table: [row, ...]}``, each as its JSON object)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for table in tables(conn, name):
        found = conn.execute(f'SELECT coalesce(json_agg(t), \'[]\') FROM "{name}"."{table}" t')
        value = found.fetchone()[0]
        out[table] = json.loads(value) if isinstance(value, str) else value
    return out


class SchemaPool:
    """Migrated schemas handed to one test at a time (see the module docstring)."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.free: list[str] = []
        self.shape: list[str] | None = None
        self.seed: dict[str, list[dict[str, Any]]] = {}
        self.remade: dict[str, dict[str, str]] = {}
        """``{table: {column: SQL expression}}``: the columns made again, not copied."""
        self.off: str | None = None
        """Why the pool is off (every test migrates), or None."""
        self.migrated = 0
        self.reused = 0
        self.dropped = 0
        self._conn: Any = None

    # -- the pool's own connection ------------------------------------------------------
    def conn(self) -> Any:
        import psycopg

        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = psycopg.connect(self.dsn, autocommit=True)
        return self._conn

    def close(self) -> None:
        """Drop the schemas held; close the connection."""
        for name in self.free:
            self.drop(name)
        self.free.clear()
        if self._conn is not None:
            self._conn.close()

    # -- making and dropping ------------------------------------------------------------
    def migrate(self) -> str:
        """A new schema, migrated for real."""
        from mnemic.backends.postgres.db import Database
        from mnemic.backends.postgres.migrations import migrate

        name = fresh_name()
        migrate(Database(self.dsn, schema=name))
        self.migrated += 1
        return name

    def drop(self, name: str) -> None:
        self.conn().execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        self.dropped += 1

    def learn(self) -> None:
        """Read the shape and rows of two schemas migrated for real (both then free);
        turn the pool off unless the rows differ only where they can be made again."""
        conn = self.conn()
        row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        if not row.fetchone()[0]:
            self.off = "not a superuser (statistics cannot be removed)"
            return
        first, second = self.migrate(), self.migrate()
        self.free += [second, first]
        self.shape = shape(conn, first)
        if shape(conn, second) != self.shape:
            self.off = "two schemas migrated alike differ in shape"
            return
        a, b = rows(conn, first), rows(conn, second)
        self.seed = a
        for table in a:
            if len(a[table]) != len(b[table]):
                self.off = f"migrations write a varying number of rows into {table}"
                return
            for x, y in zip(a[table], b[table], strict=True):
                for column in x:
                    if x[column] == y[column]:
                        continue
                    expr = default(conn, first, table, column)
                    if expr is None and (table, column) == ("mnemic_migrations", "applied_at"):
                        expr = "extract(epoch FROM clock_timestamp())"
                    if expr is None:
                        self.off = f"{table}.{column} differs between two migrations"
                        return
                    self.remade.setdefault(table, {})[column] = expr

    # -- handing out and taking back ----------------------------------------------------
    def take(self) -> str:
        """A schema as a migration leaves it, named as no schema before it."""
        if self.shape is None and self.off is None:
            self.learn()
        while self.free and self.off is None:
            old = self.free.pop()
            new = fresh_name()
            try:
                self.renew(old, new)
            except Changed:
                self.drop(old)
                continue
            self.reused += 1
            return new
        return self.migrate()

    def give_back(self, name: str) -> None:
        """A finished test's schema: dropped with the pool off, else kept to renew."""
        if self.off is not None:
            self.drop(name)
        else:
            self.free.append(name)

    def renew(self, old: str, new: str) -> None:
        """Rename ``old`` to ``new``, check its shape, empty it and seed it, in one
        transaction; raise :class:`Changed` (nothing done) when its shape differs."""
        conn = self.conn()
        if conn.execute("SELECT to_regnamespace(%s)", (old,)).fetchone()[0] is None:
            raise Changed(old)  # the test dropped it
        with conn.transaction():
            conn.execute(f'ALTER SCHEMA "{old}" RENAME TO "{new}"')
            funcs = conn.execute(
                "SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n "
                "ON n.oid = p.pronamespace WHERE n.nspname = %s AND p.prokind IN ('f', 'p') "
                "AND p.prosrc LIKE %s",
                (new, f"%{old}%"),
            ).fetchall()
            for (definition,) in funcs:
                conn.execute(str(definition).replace(old, new))
            if shape(conn, new) != self.shape:
                raise Changed(old)  # rolls the transaction back: still named old
            written = conn.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind = 'r' AND pg_relation_size(c.oid) > 0",
                (new,),
            ).fetchall()
            if written:  # a table never written to has no page: nothing to empty
                listed = ", ".join(f'"{new}"."{t}"' for (t,) in written)
                conn.execute(f"TRUNCATE {listed} CASCADE")  # and what refers to them
            conn.execute(
                "SELECT setval(format('%%I.%%I', schemaname, sequencename), start_value, false) "
                "FROM pg_sequences WHERE schemaname = %s AND last_value IS NOT NULL",
                (new,),
            )
            conn.execute(
                "DELETE FROM pg_statistic WHERE starelid IN (SELECT c.oid FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s)",
                (new,),
            )
            conn.execute(
                "SELECT pg_stat_reset_single_table_counters(c.oid) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s",
                (new,),
            )
            for table, seeded in self.seed.items():
                if seeded:
                    self.insert(conn, new, table, seeded)

    def insert(self, conn: Any, name: str, table: str, seeded: list[dict[str, Any]]) -> None:
        remade = self.remade.get(table, {})
        # a column made again from its default is left out; the others are copied or
        # given their expression
        columns = [c for c in seeded[0] if remade.get(c) != "DEFAULT"]
        exprs = [remade.get(c) or f'r."{c}"' for c in columns]
        listed = ", ".join(f'"{c}"' for c in columns)
        conn.execute(
            f'INSERT INTO "{name}"."{table}" ({listed}) SELECT {", ".join(exprs)} '
            f'FROM json_populate_recordset(NULL::"{name}"."{table}", %s) r',
            (json.dumps(seeded),),
        )


class Changed(Exception):
    """A schema a test changed in shape (or dropped): not to be handed out again."""


def default(conn: Any, name: str, table: str, column: str) -> str | None:
    """``DEFAULT`` when the column has a default (made again as a migration does), else
    None."""
    found = conn.execute(
        "SELECT a.atthasdef FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = %s AND a.attname = %s",
        (name, table, column),
    ).fetchone()
    return "DEFAULT" if found and found[0] else None


__all__ = ["SHAPE", "Changed", "SchemaPool", "fresh_name", "rows", "shape", "tables"]
