"""The server's half of a curated add or remove (``curated_write``, migration 11) is
today's path by other means: the same responses, texts, versions and audit records.

A seeded random sequence of adds, removes and replaces (with duplicates, budget
refusals, no match, ambiguous matches, handles, unusual characters, hand edits with SQL
and drift) runs on two homes, one trying the server first and one never; everything a
caller or the journal can see must be equal, each record the server appended
byte-identical to what the Python code would write for its values. Then real
processes write at once through the server: every write applied exactly once, the chain
intact.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _backends import pg_config
from mnemic.curated.entries import entry_handle, serialize
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
from mnemic.errors import MnemicError
from mnemic.governance.chain import record_hash

pytestmark = pytest.mark.postgres

SRC = str(Path(__file__).resolve().parents[2] / "src")

ODD = ["é", "🙂", '"', "\\", "\t", "\u2028", "\x7f", "§", "\\u0001", "日本", " x"]


@pytest.fixture
def schemas(pg_schemas: Any) -> Iterator[list[str]]:
    """Two fresh migrated schemas (``tests/_pgschemas.py``)."""
    names = [pg_schemas.take() for _ in range(2)]
    yield names
    for name in names:
        pg_schemas.give_back(name)


def _home(root: Path, dsn: str, schema: str, limit: int, queue: bool = False) -> Path:
    """A home on ``schema``; ``queue``: with group commit in the server (each write then
    goes through ``curated_queue``, which holds the lock at once and applies it)."""
    root.mkdir(parents=True)
    extra = {"group_commit": "queue"} if queue else {}
    text = pg_config(dsn, schema, memory_char_limit=limit, **extra)
    (root / "config.toml").write_text(text, encoding="utf-8")
    return root


def _sql(dsn: str, schema: str, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(text.replace("{s}", f'"{schema}"'), params)
        return cur.fetchall() if cur.description else []


def _outcomes(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count what the server answered (``off``: the function could not run)."""
    import mnemic.backends.postgres.curated as pg_curated

    seen: Counter[str] = Counter()
    real = pg_curated.PostgresBackend.server_write

    def counted(*args: Any, **kwargs: Any) -> Any:
        done = real(*args, **kwargs)
        seen["off" if done is None else done.outcome.split(":")[0]] += 1
        return done

    monkeypatch.setattr(pg_curated.PostgresBackend, "server_write", counted)
    return seen


def _text(rng: random.Random, k: int) -> str:
    words = [f"note{k}"] + [rng.choice(["alpha", "beta", "gamma", "shared"]) for _ in range(2)]
    if rng.random() < 0.4:
        words.insert(rng.randrange(len(words) + 1), rng.choice(ODD))
    if rng.random() < 0.1:
        words.append("\nsecond line")
    return " ".join(words)


def _step(rng: random.Random, k: int, entries: list[str]) -> tuple[str, Any]:
    """One random operation (or a hand edit) on a store holding ``entries``."""
    roll = rng.random()
    if roll < 0.04:
        return "edit", serialize([*entries, f"hand note {k}"])
    if roll < 0.06:
        return "edit", "  drifted  \n§\n\n§\n" + serialize(entries)
    if roll < 0.08:
        return "edit", serialize(entries)  # cleans a drift up again
    if roll < 0.45 or not entries:
        if entries and rng.random() < 0.1:
            return "op", Op("add", rng.choice(entries))  # a duplicate
        if rng.random() < 0.05:
            return "op", Op("add", "big " * 60)  # over the budget, or not
        return "op", Op("add", _text(rng, k))
    if roll < 0.9:
        entry = rng.choice(entries)
        how = rng.random()
        if how < 0.3:
            sel = entry
        elif how < 0.45:
            sel = entry_handle(entry)
        elif how < 0.6:
            sel = "shared"  # often ambiguous
        elif how < 0.7:
            sel = f"missing {k}"
        else:
            sel = entry.split()[0]  # noteK: unique, or a prefix of others
        return "op", Op("remove", old_text=sel)
    return "op", Op("replace", _text(rng, k), rng.choice(entries).split()[0])


def _normal(line: str, schemas: list[str]) -> dict[str, Any]:
    """A record without what differs between two homes by design (ids, times, the
    session, the chain's hashes that cover them)."""
    for name in schemas:
        line = line.replace(name, "SCHEMA")
    rec: dict[str, Any] = json.loads(line)
    for key in ("id", "time", "ts", "lock_wait_ms", "write_ms", "hash", "prev", "session"):
        rec.pop(key, None)
    kept = [*(rec.get("changes") or {}).values(), *(rec.get("touched") or {}).values()]
    for change in kept:
        if isinstance(change, dict) and isinstance(change.get("author"), dict):
            change["author"].pop("session", None)
    return rec


def _answer(mem: Memory, target: str, op: Op, schemas: list[str]) -> Any:
    try:
        return mem.apply(target, [op])
    except MnemicError as exc:
        text = str(exc.to_llm())
        for name in schemas:
            text = text.replace(name, "SCHEMA")
        return type(exc).__name__, exc.code, text


def _assert_the_same_store(pg_dsn: str, schemas: list[str], mems: tuple[Memory, Memory]) -> None:
    """Both schemas hold the same texts, versions, audit targets and records (the records
    byte for byte, but for the schema names), and both journals verify."""
    texts = [
        _sql(pg_dsn, s, "SELECT target, body, version FROM {s}.curated ORDER BY 1") for s in schemas
    ]
    assert texts[0] == texts[1]
    versions = [
        _sql(pg_dsn, s, "SELECT target, seq, body FROM {s}.curated_versions ORDER BY 1, 2")
        for s in schemas
    ]
    assert versions[0] == versions[1]
    states = [
        _sql(pg_dsn, s, "SELECT target, state, origin, origin_known FROM {s}.audit_targets")
        for s in schemas
    ]
    assert sorted(states[0]) == sorted(states[1])
    lines = [
        [str(r[0]) for r in _sql(pg_dsn, s, "SELECT line FROM {s}.audit ORDER BY seq")]
        for s in schemas
    ]
    assert [_normal(x, schemas) for x in lines[0]] == [_normal(x, schemas) for x in lines[1]]
    for line in lines[0]:  # byte for byte what the Python code writes for these values
        rec = json.loads(line)
        assert json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False) == line
        assert record_hash(rec) == rec["hash"]
    for mem in mems:
        assert mem.governor is not None and mem.governor.journal.verify().ok


@pytest.mark.parametrize(("seed", "queue"), [(1, False), (2, False), (3, False), (1, True)])
def test_server_and_client_paths_agree(
    seed: int,
    queue: bool,
    tmp_path: Path,
    pg_dsn: str,
    schemas: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mnemic.curated.server_write as server_module

    seen = _outcomes(monkeypatch)
    homes = [
        _home(tmp_path / f"h{i}", pg_dsn, s, 900, queue and not i) for i, s in enumerate(schemas)
    ]
    server, client = (Memory.open(h) for h in homes)
    real = server_module.apply_in_server
    monkeypatch.setattr(
        server_module,
        "apply_in_server",
        lambda mem, *args: None if mem is client else real(mem, *args),
    )
    rng = random.Random(seed)
    for k in range(160):
        entries = server.entries("memory")
        kind, what = _step(rng, k, entries)
        if kind == "edit":
            for schema in schemas:
                _sql(
                    pg_dsn,
                    schema,
                    "UPDATE {s}.curated SET body = %s WHERE target = 'memory' AND project = ''",
                    (what,),
                )
            continue
        got = [_answer(mem, "memory", what, schemas) for mem in (server, client)]
        assert got[0] == got[1], (k, what)
        assert server.entries("memory") == client.entries("memory")
    assert seen["ok"] > 20 and seen["fallback"] > 5, seen
    assert server.backend.db.server_queue is (True if queue else None)  # type: ignore[attr-defined]
    _assert_the_same_store(pg_dsn, schemas, (server, client))


def test_the_function_missing_falls_back_once(
    tmp_path: Path, pg_dsn: str, schemas: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A schema without the function (a role that may not run it, say): today's path,
    and the server is asked once per process."""
    seen = _outcomes(monkeypatch)
    _sql(pg_dsn, schemas[0], "DROP FUNCTION {s}.curated_write")
    mem = Memory.open(_home(tmp_path / "h", pg_dsn, schemas[0], 2200))
    db = mem.backend.db  # type: ignore[attr-defined]
    assert db.server_writes is None
    for k in range(4):
        assert mem.apply("memory", [Op("add", f"note {k}")]).written
        assert db.server_writes is False  # asked at the first write, never again
    assert mem.apply("memory", [Op("remove", old_text="note 1")]).written
    assert mem.entries("memory") == ["note 0", "note 2", "note 3"]
    assert seen == Counter({"off": 1}), seen  # not even tried again
    assert mem.governor is not None and mem.governor.journal.verify().ok


WRITER = r"""
import sys
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
home, wid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mem = Memory.open(home)
for k in range(n):
    mem.apply("memory", [Op("add", f"writer {wid} note {k}")])
    if k % 2:
        mem.apply("memory", [Op("remove", old_text=f"writer {wid} note {k}")])
print(mem.backend.db.server_writes)
"""


def _run_at_once(script: str, home: Path, writers: int, n: int) -> list[str]:
    """Run ``script`` in ``writers`` processes at once (argv: home, writer id, n); each
    must exit 0; their standard outputs, in writer order."""
    env = {**os.environ, "PYTHONPATH": SRC}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(home), str(w), str(n)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(writers)
    ]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
        outs.append(out)
    return outs


def test_processes_writing_at_once(tmp_path: Path, pg_dsn: str, schemas: list[str]) -> None:
    home = _home(tmp_path / "h", pg_dsn, schemas[0], 100_000)
    Memory.open(home).apply("memory", [Op("add", "seed")])
    writers, n = 6, 30
    for out in _run_at_once(WRITER, home, writers, n):
        assert out.strip() == "True"  # the server's path ran
    mem = Memory.open(home)
    want = {"seed"} | {f"writer {w} note {k}" for w in range(writers) for k in range(0, n, 2)}
    entries = mem.entries("memory")
    assert len(entries) == len(want) and set(entries) == want
    assert mem.governor is not None
    report = mem.governor.journal.verify()
    assert report.ok and report.records == 1 + writers * (n + n // 2), report
    added: Counter[str] = Counter()
    for rec in mem.governor.journal.records():
        for item in rec.get("changes", {}).get("memory", {}).get("added", []):
            added[item["text"]] += 1
    assert set(added.values()) == {1} and len(added) == 1 + writers * n


def test_a_text_another_writer_left_is_checked_whole(
    tmp_path: Path, pg_dsn: str, schemas: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``curated.clean`` vouches only for the text the function wrote: a text written
    otherwise (here by SQL, with its state recorded so that nothing else sends the write
    back) is checked whole; one the function cannot read as it stands goes to today's
    path, whatever that answers (a duplicate piece: today's path collapses it; stray
    whitespace: drift, refused)."""
    import mnemic.backends.postgres.curated as pg_curated

    reasons: list[str] = []
    real = pg_curated.PostgresBackend.server_write

    def traced(*args: Any, **kwargs: Any) -> Any:
        done = real(*args, **kwargs)
        reasons.append("off" if done is None else done.outcome)
        return done

    monkeypatch.setattr(pg_curated.PostgresBackend, "server_write", traced)
    schema = schemas[0]
    mem = Memory.open(_home(tmp_path / "h", pg_dsn, schema, 2200))
    where = "WHERE target = 'memory' AND project = ''"
    state = "encode(sha256(convert_to(%s, 'UTF8')), 'hex')"

    def hand_edit(text: str) -> None:
        _sql(pg_dsn, schema, "UPDATE {s}.curated SET body = %s " + where, (text,))
        _sql(pg_dsn, schema, f"UPDATE {{s}}.audit_targets SET state = {state} " + where, (text,))

    for text in ("one", "two", "three"):
        mem.apply("memory", [Op("add", text)])
    assert reasons[-2:] == ["ok", "ok"]
    hand_edit("one\n§\ntwo\n§\none")
    assert mem.apply("memory", [Op("remove", old_text="two")]).written
    assert reasons[-1] == "fallback:unclean"
    assert mem.entries("memory") == ["one"]
    hand_edit("one\n§\n two")
    with pytest.raises(MnemicError) as refused:
        mem.apply("memory", [Op("remove", old_text="one")])
    assert refused.value.code == "drift_detected"
    assert reasons[-1] == "fallback:unclean"
    assert _sql(pg_dsn, schema, "SELECT body FROM {s}.curated " + where) == [("one\n§\n two",)]


def _args(op: Op) -> dict[str, Any]:
    """``op`` as the memory tool's arguments."""
    args: dict[str, Any] = {"action": op.action, "target": "memory"}
    if op.content is not None:
        args["content"] = op.content
    if op.old_text is not None:
        args["old_text"] = op.old_text
    return args


def _called(mem: Memory, op: Op, schemas: list[str]) -> Any:
    """The memory tool's answer to ``op`` (a guarded call), or its refusal."""
    from mnemic.curated.tool import memory_call

    try:
        out: Any = memory_call(mem, _args(op))
    except MnemicError as exc:
        out = (type(exc).__name__, exc.code, exc.to_llm())
    text = json.dumps(out, sort_keys=True, default=str)
    for name in schemas:
        text = text.replace(name, "SCHEMA")
    return json.loads(text)


@pytest.mark.parametrize(("seed", "queue"), [(4, False), (5, False), (6, False), (4, True)])
def test_guarded_calls_and_replaces_agree(
    seed: int,
    queue: bool,
    tmp_path: Path,
    pg_dsn: str,
    schemas: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The memory tool's guarded calls (the MCP server's) and replaces, with what their
    loop guards refuse: an entry another session wrote that this one has not seen
    (EntryChanged), an entry flipped in and out too often (the oscillation guard), the
    repeat guard and the per-turn breaker; beside plain writes of another session, hand
    edits and drift. Both homes answer the same, byte for byte in the journal."""
    import mnemic.curated.server_write as server_module

    seen = _outcomes(monkeypatch)
    reasons: Counter[str] = Counter()
    import mnemic.backends.postgres.curated as pg_curated

    counted = pg_curated.PostgresBackend.server_write

    def traced(*args: Any, **kwargs: Any) -> Any:
        done = counted(*args, **kwargs)
        if done is not None:
            reasons[done.outcome] += 1
            reasons[f"{args[2]}:{done.outcome}"] += 1
        return done

    monkeypatch.setattr(pg_curated.PostgresBackend, "server_write", traced)
    homes = [
        _home(tmp_path / f"h{i}", pg_dsn, s, 900, queue and not i) for i, s in enumerate(schemas)
    ]
    server, client = (Memory.open(h) for h in homes)
    others = [Memory.open(h) for h in homes]  # another session on each home
    never = {id(client), id(others[1])}
    real = server_module.apply_in_server
    monkeypatch.setattr(
        server_module,
        "apply_in_server",
        lambda mem, *args: None if id(mem) in never else real(mem, *args),
    )
    rng = random.Random(seed)
    flip = "flip note §x"
    for k in range(140):
        if k % 6 == 0:
            for mem in (server, client):
                mem.begin_turn()
        entries = server.entries("memory")
        roll = rng.random()
        if roll < 0.12:  # the other session writes: entries this one has not seen
            op = Op("add", f"other {k} shared") if rng.random() < 0.7 else None
            if op is None and entries:
                op = Op("replace", f"other {k} replaced", rng.choice(entries))
            if op is None:
                continue
            got = [_answer(mem, "memory", op, schemas) for mem in others]
            assert got[0] == got[1], (k, op)
            if op.content is None or rng.random() < 0.3:
                continue
            # at once, before this session has read it: not seen (EntryChanged)
            if rng.random() < 0.5:
                op = Op("remove", old_text=op.content)
            else:
                op = Op("replace", f"mine {k}", op.content)
        elif roll < 0.24:  # in and out again: the oscillation guard stops the fourth flip
            op = Op("remove", old_text=flip) if flip in entries else Op("add", flip)
        else:
            kind, what = _step(rng, k, entries)
            if kind == "edit":
                for schema in schemas:
                    _sql(
                        pg_dsn,
                        schema,
                        "UPDATE {s}.curated SET body = %s WHERE target = 'memory' AND project = ''",
                        (what,),
                    )
                continue
            op = what
        if rng.random() < 0.15:
            got = [_answer(mem, "memory", op, schemas) for mem in (server, client)]
        else:
            got = [_called(mem, op, schemas) for mem in (server, client)]
        assert got[0] == got[1], (k, op)
        assert server.entries("memory") == client.entries("memory")
    assert seen["ok"] > 20 and seen["fallback"] > 5, seen
    assert reasons["fallback:frozen"] and reasons["fallback:unseen"], reasons
    assert reasons["replace:ok"] > 3, reasons
    assert server.backend.db.server_queue is (True if queue else None)  # type: ignore[attr-defined]
    _assert_the_same_store(pg_dsn, schemas, (server, client))


def _functions(dsn: str, schema: str) -> list[int]:
    """The argument counts of the schema's ``curated_write`` functions."""
    rows = _sql(
        dsn,
        schema,
        "SELECT p.pronargs FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname = %s AND p.proname = 'curated_write'",
        (schema,),
    )
    return sorted(int(r[0]) for r in rows)


def _at_11(dsn: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh schema migrated to version 11 (migration 11's function)."""
    from mnemic.backends.postgres import migrations
    from mnemic.backends.postgres.db import Database

    schema = "t_" + uuid.uuid4().hex[:12]
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:11])
        m.setattr(migrations, "SCHEMA_VERSION", 11)
        assert migrations.migrate(Database(dsn, schema=schema))[-1] == 11
    assert _functions(dsn, schema) == [12]
    return schema


def _drop(dsn: str, schema: str, role: str | None = None) -> None:
    _sql(dsn, schema, "DROP SCHEMA IF EXISTS {s} CASCADE")
    if role is not None:
        _sql(dsn, schema, f'DROP OWNED BY "{role}"')
        _sql(dsn, schema, f'DROP ROLE "{role}"')


def test_migration_12_replaces_the_function_of_11(
    tmp_path: Path, pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import migrate
    from mnemic.curated.tool import memory_call

    schema = _at_11(pg_dsn, monkeypatch)
    try:
        assert migrate(Database(pg_dsn, schema=schema)) == [12, 13, 14, 15]
        assert _functions(pg_dsn, schema) == [15]  # replaced, not a second overload
        seen = _outcomes(monkeypatch)
        mem = Memory.open(_home(tmp_path / "h", pg_dsn, schema, 2200))
        mem.apply("memory", [Op("add", "first note")])  # the target's first record
        memory_call(mem, {"action": "add", "target": "memory", "content": "second note"})
        memory_call(
            mem,
            {"action": "replace", "target": "memory", "old_text": "second", "content": "2nd"},
        )
        assert mem.entries("memory") == ["first note", "2nd"]
        assert seen["ok"] == 2, seen
        assert mem.governor is not None and mem.governor.journal.verify().ok
    finally:
        _drop(pg_dsn, schema)


def test_a_role_that_may_not_replace_the_function_falls_back_once(
    tmp_path: Path, pg_dsn: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Migration 12 run by a role that does not own migration 11's function (so may not
    drop or replace it): the migration is recorded, the old function left, and a process
    of that role takes today's path, asking the server once."""
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import current_version, migrate
    from mnemic.curated.tool import memory_call

    schema = _at_11(pg_dsn, monkeypatch)
    role = "r_" + uuid.uuid4().hex[:10]
    try:
        for grant in (
            f'CREATE ROLE "{role}" LOGIN',
            f'GRANT CREATE ON DATABASE postgres TO "{role}"',
            f'GRANT USAGE, CREATE ON SCHEMA {{s}} TO "{role}"',
            f'GRANT ALL ON ALL TABLES IN SCHEMA {{s}} TO "{role}"',
            f'GRANT ALL ON ALL SEQUENCES IN SCHEMA {{s}} TO "{role}"',
        ):
            _sql(pg_dsn, schema, grant)
        dsn = pg_dsn.replace("test@", f"{role}@")
        assert dsn != pg_dsn
        with caplog.at_level("WARNING", logger="mnemic.backends.postgres.migrations"):
            assert migrate(Database(dsn, schema=schema)) == [12, 13, 14, 15]
        assert "migration 12" in caplog.text and "owner" in caplog.text
        assert current_version(Database(dsn, schema=schema)) == 15
        assert _functions(pg_dsn, schema) == [12]  # migration 11's, as it was
        seen = _outcomes(monkeypatch)
        mem = Memory.open(_home(tmp_path / "h", dsn, schema, 2200))
        mem.apply("memory", [Op("add", "first note")])
        memory_call(mem, {"action": "add", "target": "memory", "content": "second note"})
        memory_call(
            mem,
            {"action": "replace", "target": "memory", "old_text": "second", "content": "2nd"},
        )
        assert mem.apply("memory", [Op("remove", old_text="first")]).written
        assert mem.entries("memory") == ["2nd"]
        assert mem.backend.db.server_writes is False  # type: ignore[attr-defined]
        assert seen == Counter({"off": 1}), seen
        assert mem.governor is not None and mem.governor.journal.verify().ok
    finally:
        _drop(pg_dsn, schema, role)


TOOL_WRITER = r"""
import sys
import mnemic.backends.postgres.curated as pg_curated
from mnemic.curated.memory import Memory
from mnemic.curated.tool import memory_call
home, wid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
real, taken = pg_curated.PostgresBackend.server_write, []
def counted(*args, **kwargs):
    done = real(*args, **kwargs)
    taken.append(done is not None and done.outcome == "ok")
    return done
pg_curated.PostgresBackend.server_write = counted
mem = Memory.open(home)
for k in range(n):
    note = f"writer {wid} note {k}"
    memory_call(mem, {"action": "add", "target": "memory", "content": note})
    if k % 2:
        memory_call(mem, {"action": "replace", "target": "memory", "old_text": note,
                          "content": note + " r"})
    if k % 4 == 3:
        memory_call(mem, {"action": "remove", "target": "memory", "old_text": note + " r"})
print(mem.backend.db.server_writes, sum(taken), len(taken))
"""


def test_processes_calling_the_tool_at_once(
    tmp_path: Path, pg_dsn: str, schemas: list[str]
) -> None:
    """Guarded tool calls and replaces from several processes through the server: each
    applied exactly once, the chain whole."""
    home = _home(tmp_path / "h", pg_dsn, schemas[0], 100_000)
    Memory.open(home).apply("memory", [Op("add", "seed")])
    writers, n = 6, 24
    for out in _run_at_once(TOOL_WRITER, home, writers, n):
        each = n + n // 2 + n // 4
        assert out.split() == ["True", str(each), str(each)]  # all decided by the server
    want = {"seed"}
    for w in range(writers):
        for k in range(n):
            if k % 2 == 0:
                want.add(f"writer {w} note {k}")
            elif k % 4 != 3:
                want.add(f"writer {w} note {k} r")
    mem = Memory.open(home)
    entries = mem.entries("memory")
    assert len(entries) == len(want) and set(entries) == want
    assert mem.governor is not None
    report = mem.governor.journal.verify()
    assert report.ok and report.records == 1 + writers * (n + n // 2 + n // 4), report
    added: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for rec in mem.governor.journal.records():
        actions[rec.get("action")] += 1
        for item in rec.get("changes", {}).get("memory", {}).get("added", []):
            added[item["text"]] += 1
    assert set(added.values()) == {1} and len(added) == 1 + writers * (n + n // 2)
    assert actions["replace"] == writers * n // 2 and actions["remove"] == writers * n // 4


@pytest.mark.parametrize("queue", [False, True])
def test_the_texts_a_server_write_stores_are_compressed_with_lz4(
    queue: bool,
    tmp_path: Path,
    pg_dsn: str,
    schemas: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """perf18: the target's text and the version a write keeps are stored with lz4 (a
    write's compression grows with the store; pglz's costs about twice lz4's CPU), when
    the server has it; texts read back as written. perf19: group commit in the server
    too (its procedure's ``CALL``, where the texts were pglz's before)."""
    probe = (
        "SELECT 'lz4' = ANY (enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
    )
    if not [row for row in _sql(pg_dsn, schemas[0], probe) if row[0]]:
        pytest.skip("this server cannot compress with lz4")
    seen = _outcomes(monkeypatch)
    mem = Memory.open(_home(tmp_path / "h", pg_dsn, schemas[0], 1_000_000, queue))
    notes = [f"note {k}: the nightly export of shard {k} finishes by 04:00 UTC." for k in range(80)]
    for note in notes:
        assert mem.apply("memory", [Op("add", note)]).written
    assert seen["ok"] == len(notes) - 1, seen  # decided in the server (not the first: no text)
    stored = "SELECT pg_column_compression(body) FROM {s}.curated WHERE target = 'memory'"
    assert _sql(pg_dsn, schemas[0], stored) == [("lz4",)]
    kept = (
        "SELECT pg_column_compression(body) FROM {s}.curated_versions "
        "WHERE target = 'memory' ORDER BY seq DESC LIMIT 1"
    )
    assert _sql(pg_dsn, schemas[0], kept) == [("lz4",)]
    assert Memory.open(tmp_path / "h").entries("memory") == notes
    assert mem.backend.db.server_queue is (True if queue else None)  # type: ignore[attr-defined]
