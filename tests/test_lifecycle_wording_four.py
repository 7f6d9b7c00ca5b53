"""Lifecycle wording a newcomer met in a first week and could not act on (docs/
first-week.md, rows 85, 92 and 94, left by ux19): each test asserts the words a person
(or a model) reads. Real homes, the real CLI (click's runner), the console in process.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.tool import run_memory_tool
from mnemic.home import Home
from test_ui import client_for


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _moved_store(home_path: Path, tmp_path: Path) -> str:
    """A home with the store of a directory since moved (``web`` -> ``web2``); its id."""
    web = tmp_path / "web"
    web.mkdir()
    home_path.mkdir(parents=True, exist_ok=True)
    Memory.open(open_project(Home.open(home_path), web, create=True)).add(
        "memory", "Web builds with pnpm."
    )
    (store,) = [p.name for p in (home_path / "projects").iterdir() if p.name.startswith("web-")]
    web.rename(tmp_path / "web2")
    return store


def test_memory_status_names_both_remedies_for_a_gone_directory(
    home_path: Path, tmp_path: Path
) -> None:
    """#85: "(directory gone; --project ID)" named `project forget` alone; a directory
    that moved is taken over by `mnemic project move ID NEWDIR`, which it did not name."""
    store = _moved_store(home_path, tmp_path)
    r = _run(home_path, "memory", "status")
    assert r.exit_code == 0, r.output
    assert f"(directory gone; --project {store})" in r.output
    assert f"The directory moved: `mnemic project move {store} NEWDIR`" in r.output
    assert f"It is gone for good: `mnemic project forget {store}`" in r.output
    assert "its memory kept in a bundle" in r.output


def test_the_memory_page_names_both_remedies_for_a_gone_directory(
    home_path: Path, tmp_path: Path
) -> None:
    """#85/#88: the console's "Directory gone ..." note named *Move to global* and the id,
    not how to take the store to the new path nor how to let it go."""
    store = _moved_store(home_path, tmp_path)
    page = client_for(home_path).get("/memory").text
    note = page.partition(f'id="project-{store}"')[2].partition("</section>")[0]
    assert f"<code>mnemic project move {store} NEWDIR</code>" in note
    assert f"<code>mnemic project forget {store}</code>" in note
    assert "its memory kept in a bundle" in note


_FORMS = (
    "YYYY-MM-DD (valid through that day, UTC; YYYYMMDD the same)",
    "YYYY-MM-DDTHH:MM (UTC; or with its zone, YYYY-MM-DDTHH:MMZ or YYYY-MM-DDTHH:MM+05:30)",
    "or never (no expiry)",
    "words for a day to come (tomorrow, in 3 days) are not read",
)


def test_a_relative_expiry_is_refused_with_every_form_that_works(home_path: Path) -> None:
    """#94: `--expires tomorrow` and `--expires "in 3 days"` were refused naming a date,
    a UTC time and never, not the `Z` / `+HH:MM` forms docs/lifecycle.md gives (and
    that work), nor that a word for a day is not read."""
    for word in ("tomorrow", "in 3 days"):
        r = _run(home_path, "memory", "add", "Release freeze.", "--expires", word)
        assert r.exit_code == 1, r.output
        flat = " ".join(r.output.split())
        assert all(form in flat for form in _FORMS), flat
        assert f"got {word!r}" in flat
    for form in ("20300630", "2030-06-30T09:00Z", "2030-06-30T09:00+05:30"):  # as named
        ok = _run(home_path, "memory", "add", f"Freeze {form}.", "--expires", form)
        assert ok.exit_code == 0, ok.output


def test_the_memory_tool_refuses_a_relative_expiry_with_the_same_forms(
    home_path: Path,
) -> None:
    """#94, the model's side: the memory tool's answer carries the same forms."""
    home_path.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home_path, origin="agent")
    answer = run_memory_tool(
        mem, {"action": "add", "content": "Release freeze.", "expires": "tomorrow"}
    )
    assert not answer["success"], answer
    assert all(form in answer["error"] for form in _FORMS), answer
    assert "got 'tomorrow'" in answer["error"]


def test_candidates_of_a_store_filled_in_one_day_say_how_long_ago(home_path: Path) -> None:
    """#92: on a store filled in one day the refusal's candidates all read "last written
    or confirmed today": nothing to choose by. They give the hours and minutes now, in
    words that need no zone; which candidates, in which order, is as it was."""
    first = "The build server runs Debian 12 with Python 3.11 installed."
    second = "Releases are tagged on the main branch every second Tuesday."
    third = "The staging database listens on port 6543, not 5432."
    limit = len(first) + len(second) + len(third) + 2 * 3 + 10
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(f"[memory]\nmemory_char_limit = {limit}\n")
    t0 = 1_780_000_000.0  # 2026-05-28T20:26Z; all three within the hour
    for at, text in ((t0, first), (t0 + 600, second), (t0 + 3_540, third)):
        assert Memory.open(home_path, origin="agent", clock=lambda at=at: at).add("memory", text)
    mem = Memory.open(home_path, origin="agent", clock=lambda: t0 + 5 * 3600 + 30)
    answer = run_memory_tool(
        mem, {"action": "add", "content": "Deploys need the VPN profile corp-eu-west."}
    )
    assert answer["error_code"] == "budget_exceeded", answer
    cands = answer["candidates"]
    assert [c["entry"] for c in cands] == [first, second, third]  # the oldest first, as before
    assert [c["reasons"][-1] for c in cands] == [
        "oldest unconfirmed: last written or confirmed 5 hours ago",
        "unconfirmed: last written or confirmed 4 hours 50 minutes ago",
        "unconfirmed: last written or confirmed 4 hours 1 minute ago",
    ]
    assert "today" not in answer["error"]
    soon = Memory.open(home_path, origin="agent", clock=lambda: t0 + 3_540 + 20)
    late = run_memory_tool(soon, {"action": "add", "content": "Deploys need corp-eu-west."})
    assert [c["reasons"][-1].rpartition("confirmed ")[2] for c in late["candidates"]] == [
        "59 minutes ago",
        "49 minutes ago",
        "under a minute ago",
    ]
