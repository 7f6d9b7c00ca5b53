"""A kill storm: thousands of writes SIGKILLed at random file-system calls (issues 26, 32).

Usage: ./x bench kill_storm [--kills 3000] [--seed N] [--rotate 150] [--same-path]

Two stores (the global MEMORY.md and a project's, files backend; the global one small
enough to evict, ``on_full = "archive_oldest"``). Each step forks a child that opens the
store and runs one operation: an add, a replace, a remove, a batch (remove, replace and
add), a move between the stores (``memory move``), an archive restore or a restore of a
kept version. The child kills itself (SIGKILL) just before its K-th file-system call, K
drawn at random up to the calls the operation makes (learnt as the storm runs), so most
steps are kills and the rest complete. After each step the parent checks:

- the files: each store's MEMORY.md is the state before the operation or the state
  after it (a move: before, the destination with the entry added, or done), predicted
  by a model kept by the parent (an eviction's choice read from the commit's record);
- provenance: each live entry's session is the one the model says wrote it;
- the archive: exactly the model's (text, reason) items;
- the fold: provenance and the archive read through the fold's cache equal a fold of
  the whole journal from scratch (the cache deleted);
- history: the kept versions are, newest last, the texts the model saw replaced;
- the journal verifies, every change it records accounted for (no outside change).

A move killed between its two writes (the entry in both stores, the documented rule)
is finished by running it again, as a person would. Every ``--rotate`` steps the storm
starts over in new stores, so that the checks stay cheap: each in a directory of its
own, or with ``--same-path`` made again where the last ones were deleted (a new journal
may then get the old one's inode number back; this process keeps its fold of the old
one, which it must never take for the new one: a step whose plan has nothing to do
right after a reset, an archive restore, resets again, so two journals of the same
three seed records, the same length, follow each other there; that found a seed entry
credited to no session at the first step after a reset, step 751).
Prints one JSON object on the last line (kills, steps, seconds, kills per operation),
saved to ``bench/results/kill_storm.json``.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from _common import emit  # noqa: E402
from _killpoints import killed, run_killed_at  # noqa: E402
from mnemic.backends.files.flusher import drain  # noqa: E402
from mnemic.backends.files.journal import AuditJournal  # noqa: E402
from mnemic.curated import admin, archive, fold_cache  # noqa: E402
from mnemic.curated.changes import entry_key  # noqa: E402
from mnemic.curated.entries import parse, serialize  # noqa: E402
from mnemic.curated.memory import Memory  # noqa: E402
from mnemic.curated.operations import Op  # noqa: E402
from mnemic.curated.scope import open_project  # noqa: E402
from mnemic.curated.store import file_hash  # noqa: E402
from mnemic.curated.view import MemoryView  # noqa: E402
from mnemic.home import Home  # noqa: E402
from mnemic.ops.move import move_entry  # noqa: E402

CONFIG = '[memory]\nmemory_char_limit = 300\non_full = "archive_oldest"\nhistory_limit = 12\n'
HISTORY_LIMIT = 12
OPS = ("add", "replace", "remove", "batch", "move", "restore", "version")
WEIGHTS = (5, 1, 1, 1, 2, 1, 1)
"""Adds most often, so that the stores fill up and the global one evicts."""
PAD = "; kept for the storm"
"""Makes each fact about 40 chars: the global store (300) evicts after about 7."""


class StormFailure(AssertionError):
    """A check failed: what the storm found, with the step that found it."""


@dataclass
class Model:
    """What one store should hold, as the parent knows it."""

    name: str
    entries: list[str] = field(default_factory=list)
    sessions: dict[str, str | None] = field(default_factory=dict)
    """The session that wrote each live entry (``None``: not checked)."""
    archive: list[tuple[str, str]] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    """Hashes of the texts commits replaced, oldest first."""
    text: str | None = None
    """The file's text as last seen (``None``: no file)."""


@dataclass
class Plan:
    """One operation, and what the store holds if it commits (before evictions)."""

    kind: str
    store: str
    session: str
    after: list[str]
    archived: list[tuple[str, str]]
    """Items it adds to the archive."""
    unarchived: list[tuple[str, str]] = field(default_factory=list)
    """Items it takes out (an archive restore)."""
    other: str | None = None
    """A move: the destination store."""
    entry: str | None = None
    arg: Any = None


class Storm:
    def __init__(self, base: Path, rng: random.Random, *, same_path: bool = False) -> None:
        self.base = base
        self.rng = rng
        self.same_path = same_path
        self.n = 0
        self.evicted = 0
        """Entries committed operations evicted (on_full)."""
        self.rotation = 0
        self.rebuild: collections.Counter[str] = collections.Counter()
        """Committed states a history folded from the journal alone would rebuild
        exactly, or not (:meth:`rebuilt`), by action."""
        self.reset()

    # -- stores ---------------------------------------------------------------------
    def reset(self) -> None:
        """New stores, in a directory of their own or (``same_path``) where the last ones
        were (the last ones removed)."""
        if self.rotation:
            for name in self.models:
                self.rebuild += self.rebuilt(name)
            shutil.rmtree(self.base / self.directory())
        self.rotation += 1
        self.root = self.base / self.directory() / "home"
        self.repo = self.base / self.directory() / "repo"
        self.repo.mkdir(parents=True)
        self.root.mkdir()
        (self.root / "config.toml").write_text(CONFIG)
        self.project = open_project(Home.open(self.root), self.repo, create=True)
        self.models = {"global": Model("global"), "project": Model("project")}
        for name in self.models:
            for _ in range(3):
                self.parent_write(name, [Op("add", self.fact())], f"seed-{name}")

    def directory(self) -> str:
        return "1" if self.same_path else str(self.rotation)

    def where(self, store: str) -> Home:
        return Home.open(self.root) if store == "global" else self.project

    def path(self, store: str) -> Path:
        return Path(self.where(store).root) / "memories" / "MEMORY.md"

    def raw(self, store: str) -> str | None:
        try:
            return self.path(store).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def fact(self) -> str:
        self.n += 1
        return f"fact {self.n}{PAD}"

    def parent_write(self, store: str, ops: list[Op], session: str) -> None:
        mem = Memory.open(self.where(store), origin="cli", session_id=session)
        m = self.models[store]
        before = list(m.entries)
        mem.batch("memory", ops)
        after = parse(self.raw(store) or "")
        for e in after:
            if e not in before:
                m.sessions[e] = session
        self.observe(store)

    def observe(self, store: str) -> None:
        """The file changed to what the model now says: keep the replaced text's hash."""
        m = self.models[store]
        now = self.raw(store)
        if now != m.text:
            if m.text is not None:
                m.history.append(file_hash(m.text))
            m.text = now
        m.entries = parse(now or "")
        for e in list(m.sessions):
            if e not in m.entries:
                del m.sessions[e]

    # -- planning -------------------------------------------------------------------
    def plan(self, kind: str) -> Plan | None:
        rng = self.rng
        store = rng.choice(("global", "project"))
        m = self.models[store]
        live = list(m.entries)
        session = f"s{rng.randrange(10**9)}"
        if kind == "add":
            e = self.fact()
            return Plan(kind, store, session, [*live, e], [], arg=[Op("add", e)], entry=e)
        if kind == "replace" and live:
            old, new = rng.choice(live), self.fact()
            after = [new if x == old else x for x in live]
            return Plan(
                kind, store, session, after, [(old, "replaced")], arg=[Op("replace", new, old)]
            )
        if kind == "remove" and live:
            old = rng.choice(live)
            after = [x for x in live if x != old]
            return Plan(
                kind, store, session, after, [(old, "removed")], arg=[Op("remove", None, old)]
            )
        if kind == "batch" and len(live) >= 2:
            a, b = rng.sample(live, 2)
            new, extra = self.fact(), self.fact()
            after = [new if x == b else x for x in live if x != a] + [extra]
            ops = [Op("remove", None, a), Op("replace", new, b), Op("add", extra)]
            return Plan(kind, store, session, after, [(a, "removed"), (b, "replaced")], arg=ops)
        if kind == "move" and live:
            other = "project" if store == "global" else "global"
            choices = [e for e in live if e not in self.models[other].entries]
            if not choices:
                return None
            e = rng.choice(choices)
            after = [x for x in live if x != e]
            return Plan(kind, store, session, after, [(e, "moved")], other=other, entry=e)
        if kind == "restore":
            items = [
                a
                for a in archive.listing(MemoryView.open(self.where(store)), "memory")
                if a.text is not None and a.text not in live
            ]
            if not items:
                return None
            item = rng.choice(items)
            assert item.text is not None
            return Plan(
                kind,
                store,
                session,
                [*live, item.text],
                [],
                [(item.text, item.reason)],
                entry=item.text,
                arg=item.id,
            )
        if kind == "version":
            versions = MemoryView.open(self.where(store)).backend.history("memory")
            if not versions:
                return None
            v = rng.choice(versions)
            text = MemoryView.open(self.where(store)).backend.read_version("memory", v.id) or ""
            after = parse(text)
            if after == live:
                return None
            gone = [(x, "restored") for x in live if x not in after]
            return Plan(kind, store, session, after, gone, arg=v.id)
        return None

    def action(self, p: Plan) -> None:
        """What the child runs."""
        if p.kind == "move":
            assert p.entry is not None and p.other is not None
            move_entry(Home.open(self.root), self.repo, p.entry, to=p.other)
            return
        mem = Memory.open(self.where(p.store), origin="cli", session_id=p.session)
        if p.kind == "restore":
            archive.restore(mem, str(p.arg))
        elif p.kind == "version":
            admin.restore(mem, "memory", int(p.arg))
        else:
            mem.batch("memory", list(p.arg))

    # -- after a step ---------------------------------------------------------------
    def settle(self, p: Plan, status: int) -> str:
        """Check the files against the plan and move the model on; the outcome."""
        m = self.models[p.store]
        found = parse(self.raw(p.store) or "")
        if p.kind == "move":
            return self._settle_move(p, status, found)
        if found == m.entries:
            if not killed(status) and status != 0:
                return "refused"
            if not killed(status) and p.after != m.entries:
                raise StormFailure(f"{p.kind} completed but changed nothing: {p}")
            return "void" if killed(status) else "noop"
        evicted = self._evicted(p.store, found)
        want = [x for x in p.after if x not in evicted]
        if found != want:
            raise StormFailure(f"{p.kind} left an unknown state:\n{found}\nwanted\n{want}")
        if not killed(status) and status != 0:
            raise StormFailure(f"{p.kind} failed but its change is there: {p}")
        for e in found:
            if e not in m.entries:
                m.sessions[e] = p.session if p.kind not in ("restore", "version") else None
        m.archive += p.archived + [(e, "evicted") for e in evicted]
        self.evicted += len(evicted)
        for item in p.unarchived:
            m.archive.remove(item)
        self.observe(p.store)
        return "committed"

    def _evicted(self, store: str, found: list[str]) -> list[str]:
        """What the commit that left ``found`` evicted, from its record."""
        want = file_hash(self.raw(store))
        journal = AuditJournal(Path(self.where(store).root) / "audit")
        for rec in reversed(list(journal.records())):
            if rec.get("result") == "ok" and (rec.get("after") or {}).get("memory") == want:
                change = (rec.get("changes") or {}).get("memory") or {}
                return [
                    str(r.get("text"))
                    for r in change.get("removed") or ()
                    if r.get("reason") in ("evicted", "expired")
                ]
        raise StormFailure(f"no record leaves the text found in {store}")

    def _settle_move(self, p: Plan, status: int, found: list[str]) -> str:
        assert p.other is not None and p.entry is not None
        src, dst = self.models[p.store], self.models[p.other]
        in_dst = parse(self.raw(p.other) or "")
        added = in_dst != dst.entries
        if added:
            evicted = self._evicted(p.other, in_dst)
            want = [x for x in [*dst.entries, p.entry] if x not in evicted]
            if in_dst != want:
                raise StormFailure(f"move left an unknown destination:\n{in_dst}\n{want}")
            dst.archive += [(e, "evicted") for e in evicted]
            self.evicted += len(evicted)
            dst.sessions[p.entry] = None
            self.observe(p.other)
        removed = found != src.entries
        if removed and (not added or found != p.after):
            raise StormFailure(f"move left an unknown source:\n{found}\nwanted {p.after}")
        if not removed and not killed(status) and status == 0:
            raise StormFailure("a move completed but the source keeps the entry")
        outcome = "done" if removed else ("half" if added else "void")
        if added and not removed:  # the documented rule: run it again to finish it
            move_entry(Home.open(self.root), self.repo, p.entry, to=p.other)
            if parse(self.raw(p.store) or "") != p.after:
                raise StormFailure("running a half-done move again did not finish it")
            removed = True
        if removed:
            src.archive += p.archived
            self.observe(p.store)
        return outcome

    def journal_versions(self, store: str) -> list[str | None]:
        """The hashes of the texts committed writes replaced, from the journal alone:
        each commit's ``before`` (an existing file), but a record's that never committed
        (the next one says so, or it is the last and the file is still its ``before``)."""
        out: list[tuple[str | None, str | None]] = []
        root = Path(self.where(store).root)
        for rec in AuditJournal(root / "audit").records():
            before = (rec.get("before") or {}).get("memory", "")
            after = (rec.get("after") or {}).get("memory", "")
            if rec.get("result") != "ok" or before == "" or after == "" or before == after:
                continue
            if rec.get("action") == "recovered":
                if rec.get("cause") == "not_committed" and out:
                    out.pop()
                continue
            out.append((before, after))
        if out and out[-1][0] == file_hash(self.raw(store)) != out[-1][1]:
            out.pop()
        return [before for before, _ in out if before is not None]

    def rebuilt(self, store: str) -> collections.Counter[str]:
        """How many of ``store``'s committed states the journal alone rebuilds exactly.

        Entries are folded record by record in file order (a replaced entry's successor
        in its place, what else was added at the end, a record's ``seen`` list for a
        first record) and the text's hash compared with the record's ``after``: the
        rule a history folded from the journal would need. A whole-text write (a
        version restore) records which entries went and came, not their order; once a
        state is not rebuilt, none after it is until a record lists every entry."""
        out: collections.Counter[str] = collections.Counter()
        entries: list[str] | None = []
        undo: list[list[str] | None] = []
        root = Path(self.where(store).root)
        for rec in AuditJournal(root / "audit").records():
            change = (rec.get("changes") or {}).get("memory")
            after = (rec.get("after") or {}).get("memory", "")
            if rec.get("result") != "ok" or after == "":
                continue
            if rec.get("action") == "recovered":
                if rec.get("cause") == "not_committed" and undo:
                    entries = undo.pop()
                elif isinstance(change, dict) and "found" in change:  # every entry, in order
                    entries = [str(i.get("text")) for i in change["found"]]
                continue
            if not isinstance(change, dict):
                continue
            undo.append(entries)
            if not entries and change.get("seen"):
                entries = [str(i.get("text")) for i in change["seen"]]
            if entries is None:
                out["after_an_unrebuilt_state"] += 1
                continue
            added = {str(i["key"]): str(i.get("text")) for i in change.get("added") or ()}
            gone = {str(r["key"]): r.get("by") for r in change.get("removed") or ()}
            new: list[str] = []
            for e in entries:
                by = gone.get(entry_key(e), False)
                if by is False:
                    new.append(e)
                elif by in added:
                    new.append(added.pop(str(by)))
            new += added.values()
            if file_hash(serialize(new)) == after:
                entries = new
                out[f"{rec.get('action')}_exact"] += 1
            else:
                entries = None
                out[f"{rec.get('action')}_not_rebuilt"] += 1
        return out

    def check(self) -> None:
        """Provenance, archive, history and journal of both stores, against the model
        and against a fold from scratch."""
        for name, m in self.models.items():
            where = self.where(name)
            root = Path(where.root)
            if parse(self.raw(name) or "") != m.entries:
                raise StormFailure(f"{name}: the file is not the model's state")
            view = MemoryView.open(where)
            prov = view.provenance("memory")
            items = archive.listing(view, "memory")
            (root / "audit" / "fold.json").unlink(missing_ok=True)
            fresh = MemoryView.open(where)
            assert fresh.journal is not None
            fold_cache.forget_cached(fresh.journal)  # and this process's fold of it
            if fresh.provenance("memory") != prov:
                raise StormFailure(f"{name}: cached provenance is not the journal's fold")
            if [a.as_dict() for a in archive.listing(fresh, "memory")] != [
                a.as_dict() for a in items
            ]:
                raise StormFailure(f"{name}: the cached archive is not the journal's fold")
            for e, p in prov:
                want = m.sessions.get(e)
                if want is not None and p.session_id != want:
                    raise StormFailure(f"{name}: {e!r} credited to {p.session_id}, not {want}")
            got = collections.Counter((a.text, a.reason) for a in items)
            if got != collections.Counter(m.archive):
                raise StormFailure(
                    f"{name}: archive {sorted(got.items())} != model {sorted(m.archive)}"
                )
            kept = [
                file_hash(view.backend.read_version("memory", v.id))
                for v in view.backend.history("memory")
            ]
            if kept != m.history[-HISTORY_LIMIT:]:
                raise StormFailure(f"{name}: history {kept} != model {m.history[-HISTORY_LIMIT:]}")
            if kept != self.journal_versions(name)[-HISTORY_LIMIT:]:
                raise StormFailure(f"{name}: history {kept} is not the journal's versions")
            report = AuditJournal(root / "audit").verify()
            if not report.ok or report.outside_changes:
                raise StormFailure(f"{name}: journal: {report}")


def storm(
    base: Path, kills: int, seed: int, rotate: int = 150, *, same_path: bool = False
) -> dict[str, Any]:
    """Run steps until ``kills`` children were killed; the figures."""
    rng = random.Random(seed)
    s = Storm(base, rng, same_path=same_path)
    upper = dict.fromkeys(OPS, 150)
    per_op: dict[str, collections.Counter[str]] = {k: collections.Counter() for k in OPS}
    steps = done = 0
    start = time.monotonic()
    while done < kills:
        if steps and steps % rotate == 0:
            s.reset()
        kind = rng.choices(OPS, WEIGHTS)[0]
        p = s.plan(kind)
        if p is None:
            continue
        steps += 1
        k = rng.randint(1, upper[kind])
        drain()  # the parent's pending journal flushes, before the fork
        status = run_killed_at(k, lambda p=p: s.action(p))
        if killed(status):
            done += 1
            if k > 0.8 * upper[kind]:
                upper[kind] = int(upper[kind] * 1.25) + 1
        else:
            upper[kind] = max(8, k)
        try:
            outcome = s.settle(p, status)
            s.check()
        except StormFailure as exc:
            raise StormFailure(f"step {steps} ({kind}, kill at call {k}): {exc}") from exc
        per_op[kind][outcome] += 1
    seconds = time.monotonic() - start
    for name in s.models:
        s.rebuild += s.rebuilt(name)
    return {
        "kills": done,
        "steps": steps,
        "seconds": round(seconds, 1),
        "ms_per_step": round(1000 * seconds / max(1, steps), 1),
        "seed": seed,
        "rotate": rotate,
        "same_path": same_path,
        "evicted": s.evicted,
        "journal_rebuild": dict(sorted(s.rebuild.items())),
        "per_op": {k: dict(v) for k, v in per_op.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=20261206)
    ap.add_argument("--rotate", type=int, default=150)
    ap.add_argument(
        "--same-path", action="store_true", help="make each rotation's stores where the last were"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mnemic-storm-") as tmp:
        result = storm(
            Path(tmp) / "s", args.kills, args.seed, args.rotate, same_path=args.same_path
        )
    print(json.dumps(result["per_op"], indent=1), file=sys.stderr)
    emit("kill_storm", result)


if __name__ == "__main__":
    main()
