"""A newcomer's week with the lifecycle at the command line (docs/first-week.md, rows
29 on): what the CLI says after a forget, under `on_full`, for a duplicate among the
entries best dropped, for a proposal a person rejected, and in `show --long --json`.

Real homes, the real CLI (click's runner), the real write path.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.ops import collect_garbage


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _home(home: Path, config: str = "") -> Memory:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(config, encoding="utf-8")
    return Memory.open(home)


def test_a_forgotten_entry_is_not_promised_back(home_path: Path) -> None:
    """#32: `archive restore` of a forgotten entry said to run it again once there is
    room, though its text is gone for good."""
    mem = _home(home_path)
    mem.add("memory", "Bob covers the pager today.")
    mem.remove("memory", "Bob covers")
    assert _run(home_path, "forget", "--text", "Bob covers", "--yes").exit_code == 0
    (item,) = archive.listing(Memory.open(home_path))
    r = _run(home_path, "memory", "archive", "restore", archive.typed_id(item.id))
    assert r.exit_code == 1
    assert "gone for good" in r.stderr
    assert "once there is room" not in r.stderr
    assert "restore" not in r.stderr.partition("gone for good")[2]


DUPLICATED = "The staging host stg-4 runs PostgreSQL 15 on port 5433."
REPEATS = "The staging host stg-4 runs PostgreSQL 15 on port 5433 for the API."


def _full_with_a_duplicate(home: Path) -> None:
    mem = _home(home, "[memory]\nmemory_char_limit = 200\n")
    for text in (DUPLICATED, "Deploys go through ./deploy.sh on Tuesdays.", REPEATS):
        mem.add("memory", text)


def test_a_duplicate_among_the_entries_to_drop_names_the_entry_it_repeats(
    home_path: Path,
) -> None:
    """#29: "duplicate of entry:94ebf64e" named a handle that neither the refusal's own
    list of entries nor `memory show --long` shows: which entry it repeats was a guess."""
    _full_with_a_duplicate(home_path)
    r = _run(home_path, "memory", "add", "Grafana lives at grafana.acme.internal under 'web'.")
    assert r.exit_code == 1
    (line,) = [x for x in r.stderr.splitlines() if "duplicate of" in x]
    assert line.lstrip().startswith("entry:")  # the candidate: handle, then its text
    assert repr(REPEATS[:40] + "...") in line.partition("duplicate of")[2]


def test_status_under_on_full_says_the_next_write_evicts(home_path: Path) -> None:
    """#31: a write's warning said the next write that does not fit moves entries to the
    archive, and so did the console; `memory status` said only how to free room."""
    mem = _home(home_path, '[memory]\nmemory_char_limit = 200\non_full = "archive_oldest"\n')
    for text in (DUPLICATED, "Deploys go through ./deploy.sh on Tuesdays.", REPEATS):
        mem.add("memory", text)
    said = _run(home_path, "memory", "status").stdout
    assert "nearly full" in said
    assert "MEMORY.md: the next write that does not fit moves the entries best dropped to " in said
    (home_path / "config.toml").write_text("[memory]\nmemory_char_limit = 200\n")
    assert "the next write that does not fit" not in _run(home_path, "memory", "status").stdout


def test_tidy_marks_a_proposal_a_person_rejected_as_the_console_does(home_path: Path) -> None:
    """#30: after `pending reject`, `memory tidy` listed the same proposal as new; only
    --stage ("not staged: a person rejected ...") and the console's Tidy page said so."""
    mem = _home(home_path)
    mem.add("memory", "CI runs on GitHub Actions; the slow suite only runs nightly at 02:00 UTC.")
    mem.add("memory", "Nightly, the slow CI suite runs on GitHub Actions at 02:00 UTC.")
    staged = _run(home_path, "memory", "tidy", "--lexical", "--stage")
    said = staged.stdout.splitlines()
    (pid,) = [x.split()[-1] for x in said if x.strip().startswith("staged for approval as")]
    assert _run(home_path, "pending", "reject", pid).exit_code == 0
    listed = _run(home_path, "memory", "tidy", "--lexical")
    assert "--stage passes it over: a person rejected this proposal before" in listed.stdout
    assert "Stage them for approval with --stage" not in listed.stdout
    (proposal,) = json.loads(_run(home_path, "memory", "tidy", "--lexical", "--json").stdout)[
        "proposals"
    ]
    assert proposal["waiting"] == "a person rejected this proposal before"


def test_show_long_json_gives_each_time_as_docs_json_says(home_path: Path) -> None:
    """#33: `memory show --long --json` gave provenance times (and usage's last_used) as
    seconds only, where docs/json.md puts the ISO string beside every one (an archived
    entry's provenance has them: `archive show --json`)."""
    from test_json_contract import _times

    _home(home_path)
    added = _run(home_path, "memory", "add", "Bob covers the pager.", "--expires", "2030-01-01")
    assert added.exit_code == 0
    r = _run(home_path, "memory", "show", "--long", "--json")
    doc = json.loads(r.stdout)
    assert _times("memory show --long", r, doc) == []
    (prov,) = doc["memory"]["provenance"]
    assert prov["expires_utc"] == "2030-01-02T00:00:00Z"


def test_gc_names_an_expired_entry_by_its_text(home_path: Path) -> None:
    """#35: `mnemic gc` said "expired_entry  MEMORY.md entry:8e7ee48f (past its expires
    time: archived)": a handle nothing else a person reads shows."""
    _home(home_path)
    added = _run(home_path, "memory", "add", "Bob covers the pager.", "--expires", "2030-01-01")
    assert added.exit_code == 0
    later = 1_900_000_000.0  # 2030-03-17: past the expiry
    dry = collect_garbage(home_path, dry_run=True, clock=lambda: later)
    (removal,) = [r for r in dry.removed if r.kind == "expired_entry"]
    assert "'Bob covers the pager.'" in removal.what


def test_what_leaves_a_project_store_is_looked_for_in_its_archive(
    home_path: Path, tmp_path: Path
) -> None:
    """#39: `memory remove` said nothing of where the entry went; and an eviction from a
    project store pointed to `mnemic memory archive list`, which lists the global
    archive, not the project's."""
    project = tmp_path / "web"
    project.mkdir()
    _home(home_path, '[memory]\non_full = "archive_oldest"\n[project]\nmemory_char_limit = 100\n')
    where = ["--project", str(project)]
    for text in ("Web: lint with eslint --max-warnings 0.", "Web: the dev server is on port 3000."):
        assert _run(home_path, "memory", "add", *where, text).exit_code == 0
    evicting = _run(home_path, "memory", "add", *where, "Web: deploys go out from main via CI.")
    assert "evicted to the archive" in evicting.stdout
    assert f"`mnemic memory archive list --project {project}` shows them" in evicting.stdout
    removed = _run(home_path, "memory", "remove", *where, "port 3000")
    assert "(the archive keeps it: " in removed.stdout
    listed = f"`mnemic memory archive list --project {project}` shows it"
    assert listed in removed.stdout
    listing = _run(home_path, "memory", "archive", "list", *where).stdout
    assert "port 3000" in listing and "eslint" in listing
