"""A year of use: a big home to walk the read-facing commands on (issue 32's heavy user).

    ./x bench heavy_home                 build it in a temp dir, time the read commands
    .venv/bin/python bench/heavy_home.py --keep DIR   build it into DIR and stop

Generated and seeded (no network): raised limits (``memory_char_limit`` 40,000, USER.md
8,000), about 400 live entries across MEMORY.md and USER.md, six projects with their own
stores, an archive of about 3,000 entries (replaced, removed and evicted), 500 imported
sessions, a dozen skills, staged writes waiting for approval and near-duplicates for
``memory tidy``. Every write goes through the library (:class:`Memory`), so the archive,
the journal and the audit trail are the ones months of use leave.

:func:`build` takes smaller sizes: the tests build a small version of the same home.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

TOOLS = ["uv", "ruff", "pytest", "docker", "terraform", "kubectl", "make", "gradle", "npm"]
THINGS = [
    "the staging database",
    "the CI cache",
    "the nightly export",
    "the billing webhook",
    "the search index",
    "the auth proxy",
    "the release branch",
    "the metrics dashboard",
    "the feature flag service",
    "the backup bucket",
    "the mail relay",
    "the queue worker",
]
VERBS = ["runs on", "lives in", "is rebuilt by", "is owned by", "is checked by", "is served from"]
WHERE = [
    "host db-{n}.internal",
    "port {n}",
    "bucket logs-{n}",
    "the team channel #ops-{n}",
    "cron at {n}:15 UTC",
    "region eu-west-{n}",
]
USER_FACTS = [
    "Prefers answers with the command first, then one line of why ({n}).",
    "Works mostly on weekday mornings CET; note {n}.",
    "Reviews pull requests in batches after lunch; habit {n}.",
    "Uses fish shell on the desktop machine number {n}.",
    "Likes tables for comparisons of more than {n} options.",
]
PROJECTS = ["billing-api", "mobile-app", "infra", "data-pipeline", "docs-site", "ml-experiments"]
SKILLS = [
    ("devops", "deploy-staging", "Deploy a service to staging and check its health."),
    ("devops", "rotate-secrets", "Rotate the AWS secrets a service reads."),
    ("devops", "restore-backup", "Restore a database from the nightly backup."),
    ("python", "release-package", "Cut a release of a Python package with uv."),
    ("python", "profile-slow-test", "Find why a test is slow with pyinstrument."),
    ("python", "upgrade-deps", "Upgrade pinned dependencies and run the suite."),
    ("mobile", "ship-beta", "Ship an Android beta to the internal track."),
    ("mobile", "record-screenshots", "Record Paparazzi screenshots after a UI change."),
    ("data", "backfill-day", "Backfill one day of the pipeline from raw events."),
    ("data", "check-drift", "Compare this week's feature distributions to last week's."),
    ("writing", "changelog", "Write the changelog of a release from merged PRs."),
    ("writing", "incident-report", "Write an incident report from the timeline."),
]
WORDS = [
    "deploy",
    "staging",
    "database",
    "migration",
    "index",
    "cache",
    "token",
    "webhook",
    "invoice",
    "release",
    "pipeline",
    "backfill",
    "schema",
    "terraform",
    "cluster",
    "bucket",
    "review",
    "branch",
    "rollback",
    "alert",
    "latency",
    "timeout",
    "retry",
    "queue",
    "worker",
    "export",
    "report",
    "dashboard",
    "budget",
    "flag",
    "test",
]


@dataclass(frozen=True)
class Sizes:
    """How big the home is (the defaults: a year of use; tests pass smaller ones)."""

    memory_entries: int = 420
    user_entries: int = 40
    project_entries: int = 15
    projects: int = 6
    replaced: int = 2400
    removed: int = 300
    evicted: int = 300
    sessions: int = 500
    skills: int = 12
    pending: int = 12
    duplicates: int = 6


def fact(rng: random.Random, n: int) -> str:
    """One distinct memory entry (``n`` keeps it unique)."""
    thing = rng.choice(THINGS)
    verb = rng.choice(VERBS)
    where = rng.choice(WHERE).format(n=n)
    tool = rng.choice(TOOLS)
    return f"{thing.capitalize()} {verb} {where}; check it with {tool} (fact {n})."


def build(root: Path, sizes: Sizes = Sizes(), seed: int = 11) -> dict[str, object]:
    """Fill the home at ``root`` (created) and the project directories under
    ``root.parent / "work"``; return what was made (counts, project paths)."""
    from mnemic.curated.memory import Memory
    from mnemic.curated.scope import open_project
    from mnemic.home import Home
    from mnemic.sessions import NewMessage, NewSession, open_store

    rng = random.Random(seed)
    root.mkdir(parents=True)
    os.chmod(root, 0o700)
    (root / "config.toml").write_text(
        "[memory]\nmemory_char_limit = 40000\nuser_char_limit = 8000\n"
        'on_full = "archive_oldest"\nhistory_limit = 20\n'
        "[project]\nmemory_char_limit = 4000\n",
        encoding="utf-8",
    )
    home = Home.open(root)
    mem = Memory.open(home, origin="cli")
    counter = 0

    def nxt() -> str:
        nonlocal counter
        counter += 1
        return fact(rng, counter)

    for i in range(sizes.user_entries):
        mem.add("user", rng.choice(USER_FACTS).format(n=i))
    live = [nxt() for _ in range(sizes.memory_entries)]
    for text in live:
        mem.add("memory", text)
    # months of replaces: each archives the old text (reason "replaced")
    for _ in range(sizes.replaced):
        i = rng.randrange(len(live))
        new = nxt()
        mem.replace("memory", live[i], new)
        live[i] = new
    # removes (reason "removed"), each followed by a new fact so memory stays as big
    for _ in range(sizes.removed):
        i = rng.randrange(len(live))
        mem.remove("memory", live[i])
        live[i] = nxt()
        mem.add("memory", live[i])
    # near-duplicates for `memory tidy` to propose merging
    for i in range(sizes.duplicates):
        mem.add("memory", live[i].replace("; check it with", "; verify it with"))
    # a few long entries, for `memory tidy` to propose shortening
    pad = " ".join(rng.choice(WORDS) for _ in range(30))
    for n in range(sizes.duplicates):
        mem.add("memory", f"Long note {n}: {pad} ({nxt()})")
    # evictions: adds into a full store archive the oldest entries ([memory] on_full)
    evicted = 0
    while evicted < sizes.evicted:
        before = len(mem.entries("memory"))
        mem.add("memory", nxt())
        evicted += max(0, before + 1 - len(mem.entries("memory")))

    # six projects, each with its own store
    work = root.parent / "work"
    projects: dict[str, str] = {}
    for name in PROJECTS[: sizes.projects]:
        d = work / name
        d.mkdir(parents=True, exist_ok=True)
        pmem = Memory.open(open_project(home, d, create=True), origin="cli")
        plive = [f"{name}: {nxt()}" for _ in range(sizes.project_entries)]
        for text in plive:
            pmem.add("memory", text)
        for _ in range(sizes.project_entries):
            i = rng.randrange(len(plive))
            new = f"{name}: {nxt()}"
            pmem.replace("memory", plive[i], new)
            plive[i] = new
        projects[name] = str(d)

    # staged writes (a background review's replaces wait for approval)
    review = Memory.open(home, actor="background", origin="review")
    current = [e for e in mem.entries("memory") if not e.startswith("Long note")]
    for text in current[: sizes.pending]:
        review.replace("memory", text, text + " (confirmed in review)")

    # skills
    for category, name, description in SKILLS[: sizes.skills]:
        d = root / "skills" / category / name
        d.mkdir(parents=True, exist_ok=True)
        body = f"# {name}\n\n1. Read the runbook.\n2. Run `make {name}`.\n3. Check the result.\n"
        (d / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n{body}", encoding="utf-8"
        )

    # imported sessions
    start = time.time() - 365 * 86400.0
    items = []
    for s in range(sizes.sessions):
        ts = start + s * (365 * 86400.0 / max(1, sizes.sessions))
        msgs = []
        for m in range(rng.randint(4, 30)):
            ts += rng.uniform(5, 90)
            role = "user" if m % 2 == 0 else "assistant"
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 40)))
            msgs.append(NewMessage(role, text, timestamp=ts))
        title = f"{rng.choice(PROJECTS)}: {' '.join(rng.choice(WORDS) for _ in range(3))}"
        source = "cron" if s % 10 == 0 else "cli"
        sess = NewSession(
            id=f"heavy-{s:05d}", source=source, title=title, started_at=msgs[0].timestamp
        )
        items.append((sess, msgs))
    with open_store(home) as store:
        sessions = sum(1 for _ in store.import_sessions(items, workers=0))

    return {
        "memory_entries": len(mem.entries("memory")),
        "user_entries": len(mem.entries("user")),
        "projects": projects,
        "sessions": sessions,
        "skills": sizes.skills,
        "pending": sizes.pending,
    }


READS = [
    "memory show",
    "memory show --long",
    "memory status",
    "memory archive list",
    "memory archive list --all-scopes",
    "memory archive search staging",
    "memory archive show 100",
    "memory tidy",
    "memory tidy --explain",
    "memory search staging",
    "sessions list",
    "sessions search deploy",
    "pending list",
    "skills list",
    "audit",
    "stats",
    "prompt",
]


def walk(home: Path) -> list[dict[str, object]]:
    """Run each read command (and its --json) once: wall and CPU time (the CPU time is
    what to compare on a shared machine), lines and characters printed."""
    env = {**os.environ, "MNEMIC_HOME": str(home), "COLUMNS": "120"}
    rows = []
    for cmd in READS:
        for extra in ([], ["--json"]):
            args = [sys.executable, "-m", "mnemic", *cmd.split(), *extra]
            t0, kids = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - kids.ru_utime - kids.ru_stime
            rows.append(
                {
                    "command": " ".join(["mnemic", cmd, *extra]),
                    "rc": done.returncode,
                    "seconds": round(wall, 2),
                    "cpu_seconds": round(cpu, 2),
                    "lines": done.stdout.count("\n"),
                    "chars": len(done.stdout),
                }
            )
            row = rows[-1]
            print(f"{wall:>6.2f}s wall {cpu:>6.2f}s cpu {row['lines']:>6} lines  {row['command']}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", type=Path, help="build the home into this (new) directory")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    if args.keep is not None:
        t0 = time.perf_counter()
        made = build(args.keep, seed=args.seed)
        print(json.dumps({**made, "build_seconds": round(time.perf_counter() - t0, 1)}))
        return
    from _common import emit

    tmp = Path(tempfile.mkdtemp(prefix="mnemic-heavy-"))
    try:
        made = build(tmp / "home", seed=args.seed)
        emit(
            "heavy_home",
            {
                "home": {k: v for k, v in made.items() if k != "projects"},
                "reads": walk(tmp / "home"),
            },
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
