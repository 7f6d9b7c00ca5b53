"""``mnemic memory tidy``, run as a user runs it: a dry run that changes nothing, --json,
--stage into the approval queue (never twice), and --llm against the local stand-in
model (its wording used only when it keeps every value). The dry run runs in a process of
its own; the rest in this process (:func:`run_here`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mnemic.curated.view import MemoryView
from mnemic.testing import FakeLLMServer

from . import prepare, run_here, run_mnemic

ENTRIES = [
    "User prefers tea over coffee.",
    "user prefers tea over coffee",
    "The backend uses Python 3.10.",
    "The backend is now on Python 3.12.",
]


def seed(home: Path) -> None:
    for entry in ENTRIES:
        prepare(home, "memory", "add", entry)


def test_a_dry_run_lists_proposals_and_changes_nothing(home_path: Path) -> None:
    seed(home_path)
    before = (home_path / "memories" / "MEMORY.md").read_bytes()
    r = run_mnemic(home_path, "memory", "tidy", "--lexical")
    assert r.returncode == 0, r.stderr
    assert "MEMORY.md: 2 proposals" in r.stdout and "USER.md: no proposals" in r.stdout
    assert "merge: merge 2 near-duplicate entries" in r.stdout
    assert "drop: The backend uses Python 3.10." in r.stdout
    assert "why: same subject, different values: 3.10 vs 3.12" in r.stdout
    assert "Nothing was changed" in r.stdout
    assert (home_path / "memories" / "MEMORY.md").read_bytes() == before
    assert "No pending writes" in run_mnemic(home_path, "pending", "list").stdout


def test_json_then_stage_once(home_path: Path) -> None:
    seed(home_path)
    r = run_here(home_path, "memory", "tidy", "--json", "--target", "memory", "--lexical")
    report = json.loads(r.stdout)
    assert report["retrieval"] == "lexical"
    kinds = sorted(p["kind"] for p in report["proposals"])
    assert kinds == ["merge", "supersede"]
    supersede = next(p for p in report["proposals"] if p["kind"] == "supersede")
    assert [op["action"] for op in supersede["operations"]] == ["replace", "remove"]
    assert all(op["old_text"].startswith("entry:") for op in supersede["operations"])

    r = run_here(home_path, "memory", "tidy", "--stage", "--json", "--lexical")
    staged = json.loads(r.stdout)["staged"]
    assert all(s["pending_id"] for s in staged) and len(staged) == 2
    r = run_here(home_path, "memory", "tidy", "--stage", "--lexical")
    assert r.stdout.count("not staged: already pending") == 2
    r = run_here(home_path, "pending", "approve", "all")
    assert r.returncode == 0, r.stderr
    assert MemoryView.open(home_path).entries("memory") == [
        "user prefers tea over coffee",
        "The backend is now on Python 3.12.",
    ]


def llm_config(home: Path, server: FakeLLMServer) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f'[llm]\nbase_url = "{server.base_url}"\nmodel = "stand-in"\napi_key = "x"\n'
    )


def merge_reply(wording: str) -> Any:
    def respond(request: dict[str, Any]) -> str:
        return wording

    return respond


def test_llm_wording_is_used_when_it_keeps_every_value(home_path: Path) -> None:
    seed(home_path)
    with FakeLLMServer(merge_reply("User prefers tea to coffee.")) as server:
        llm_config(home_path, server)
        r = run_here(home_path, "memory", "tidy", "--llm", "--json", "--lexical")
        assert r.returncode == 0, r.stderr
        merge = next(p for p in json.loads(r.stdout)["proposals"] if p["kind"] == "merge")
        assert merge["wording"] == "llm" and merge["result"] == "User prefers tea to coffee."
        assert merge["operations"][0]["content"] == "User prefers tea to coffee."
        asked = server.requests[0]["messages"][-1]["content"]
        assert "User prefers tea over coffee." in asked and "user prefers tea over coffee" in asked


def test_llm_wording_that_drops_a_value_is_not_used(home_path: Path) -> None:
    for entry in ("Deploys run on host-7 at 14:00.", "deploys run on host-7 at 14:00"):
        prepare(home_path, "memory", "add", entry)
    with FakeLLMServer(merge_reply("Deploys run on host-7 in the afternoon.")) as server:
        llm_config(home_path, server)
        r = run_here(home_path, "memory", "tidy", "--llm", "--lexical")
        assert r.returncode == 0, r.stderr
        assert "was not used: it dropped 14:00" in r.stderr
        assert "new wording" not in r.stdout  # the offline proposal stands


def test_llm_without_an_endpoint_says_what_to_set(home_path: Path) -> None:
    seed(home_path)
    r = run_here(home_path, "memory", "tidy", "--llm")
    assert r.returncode == 1
    assert "llm.base_url is empty" in r.stderr
