"""What a person new to mnemic meets outside the lifecycle commands: `mnemic init` on the
directory they made for it, a home path that is a file, a question asked with nobody at
the terminal, a listing's ids, a refusal's words. Each answer says what happened, that
nothing was lost, and what to do.

Real homes, the real CLI (click's runner).
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mnemic.cli import main


def _run(home: Path, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], input=stdin)


# -- mnemic init ------------------------------------------------------------------------


def test_init_on_an_empty_directory_creates_the_home_there(tmp_path: Path) -> None:
    """`mkdir ~/agent-memory && mnemic --home ~/agent-memory init` said "already exists"."""
    made = tmp_path / "agent-memory"
    made.mkdir()
    r = _run(made, "init")
    assert r.exit_code == 0, r.output
    assert f"Created a mnemic home at {made}" in r.output and "already" not in r.output
    again = _run(made, "init")
    assert again.exit_code == 0 and "already exists" in again.output, again.output
    assert _run(made, "memory", "status").exit_code == 0


def test_init_refuses_a_directory_holding_other_files_and_says_what_to_do(
    tmp_path: Path,
) -> None:
    other = tmp_path / "photos"
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    r = _run(other, "init")
    assert r.exit_code == 1, r.output
    assert "not empty and is not a mnemic home" in r.output and "holiday.jpg" in r.output
    assert "Nothing was changed" in r.output and "--home" in r.output
    assert sorted(p.name for p in other.iterdir()) == ["holiday.jpg"]


def test_init_json_on_an_empty_directory_says_created(tmp_path: Path) -> None:
    made = tmp_path / "empty"
    made.mkdir()
    assert '"created": true' in _run(made, "init", "--json").output
    assert '"created": false' in _run(made, "init", "--json").output


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "add", "A fact"),
        ("skills", "create", "a-skill", "-d", "Does a."),
        ("ui", "--no-browser", "--port", "0"),
        ("mcp",),
    ],
    ids=" ".join,
)
def test_the_first_write_refuses_a_directory_holding_other_files_like_init(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """`init` refused ~/Documents as a home, but `memory add` made one there, mixing its
    files with the person's."""
    other = tmp_path / "Documents"
    other.mkdir()
    (other / "letter.txt").write_text("Dear...\n")
    r = _run(other, *args, stdin="Do it.\n")
    assert r.exit_code == 1, r.output
    assert "not empty and is not a mnemic home" in r.output and "letter.txt" in r.output
    assert "Nothing was changed" in r.output and "--home" in r.output
    assert sorted(p.name for p in other.iterdir()) == ["letter.txt"]


@pytest.mark.parametrize("args", [("init",), ("memory", "add", "A fact")], ids=" ".join)
def test_a_home_name_too_long_is_refused_without_a_traceback(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Looking into the directory before the home opened raised OSError (File name too
    long) as a traceback: `init`, and every first write once they looked too."""
    r = _run(tmp_path / ("x" * 300), *args)
    assert r.exit_code == 2, r.output
    assert "home: cannot use directory" in r.output and "too long" in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_writes_still_use_a_home_made_by_init_or_an_empty_directory(tmp_path: Path) -> None:
    made = tmp_path / "made"
    made.mkdir()
    assert _run(made, "memory", "add", "First fact").exit_code == 0
    assert _run(made, "memory", "add", "Second fact").exit_code == 0  # a home now
    assert "Second fact" in _run(made, "memory", "show").output


# -- a home path that is a file ---------------------------------------------------------


@pytest.mark.parametrize(
    "args", [("init",), ("memory", "show"), ("memory", "add", "A fact")], ids=" ".join
)
def test_a_home_that_is_a_file_is_refused_and_the_file_left_alone(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """The home's directory was made private (chmod 0700) before anything looked at it:
    a file given as the home lost its group and other permissions."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    notes.chmod(0o644)
    r = _run(notes, *args)
    assert r.exit_code == 2, r.output
    assert f"{notes}: home: is a file, not a directory" in r.output, r.output
    assert "Nothing was changed" in r.output and "--home" in r.output
    assert "(file)" not in r.output and "Traceback" not in r.output
    assert notes.read_text() == "my notes\n"
    assert stat.S_IMODE(notes.stat().st_mode) == 0o644


def test_a_home_below_a_file_names_the_file(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    for args in (("memory", "add", "A fact"), ("memory", "show")):
        r = _run(notes / "home", *args)
        assert r.exit_code == 2, r.output
        assert f"is inside {notes}, which is a file" in r.output, r.output
    assert notes.read_text() == "my notes\n"


def test_a_file_where_the_home_keeps_a_directory_is_named(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "memories").write_text("not a directory")
    r = _run(home, "memory", "add", "A fact")
    assert r.exit_code == 2, r.output
    assert "memories: directory: is a file, not a directory" in r.output
    assert f"move {home / 'memories'} away" in r.output
    assert (home / "memories").read_text() == "not a directory"
    assert os.path.isfile(home / "memories")


# -- a question with nobody to answer it -----------------------------------------------


def _two_versions(home: Path) -> None:
    assert _run(home, "memory", "add", "Repo builds with make -j2").exit_code == 0
    assert _run(home, "memory", "add", "Tests run with ./x test").exit_code == 0


def _one_session(home: Path, tmp_path: Path) -> None:
    lines = tmp_path / "s.jsonl"
    lines.write_text(
        '{"session_id": "s-deploy", "role": "user", "content": "Deploy with make"}\n'
        '{"session_id": "s-deploy", "role": "assistant", "content": "Noted."}\n'
    )
    r = _run(home, "sessions", "import", str(lines), "--no-embed")
    assert r.exit_code == 0, r.output


def _skill(home: Path) -> None:
    r = _run(home, "skills", "create", "deploy-docs", "-d", "Publish the docs.", stdin="1. go\n")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    ("prepare", "args", "refusal", "unchanged"),
    [
        (_two_versions, ("memory", "restore", "1"), "not restored", ("memory", "show")),
        (_skill, ("skills", "delete", "deploy-docs"), "not deleted", ("skills", "list")),
        (None, ("sessions", "delete", "s-deploy"), "not deleted", ("sessions", "list")),
        (None, ("sessions", "prune", "--older-than", "0"), "not deleted", ("sessions", "list")),
        (None, ("forget", "--sessions", "Deploy"), "nothing was forgotten", ("sessions", "list")),
    ],
    ids=["memory restore", "skills delete", "sessions delete", "sessions prune", "forget"],
)
def test_a_question_nobody_can_answer_refuses_and_names_yes(
    home_path: Path,
    tmp_path: Path,
    prepare: object,
    args: tuple[str, ...],
    refusal: str,
    unchanged: tuple[str, ...],
) -> None:
    """With stdin at its end (a script, a pipe) the question got no answer: click printed
    "Aborted!" and nothing about --yes; `sessions delete` and `prune` deleted unasked."""
    if prepare is None:
        _one_session(home_path, tmp_path)
    else:
        prepare(home_path)  # type: ignore[operator]
    before = _run(home_path, *unchanged).output
    r = _run(home_path, *args, stdin="")
    assert r.exit_code == 1, r.output
    assert f"mnemic: {refusal}: nobody answered the question" in r.output, r.output
    assert "--yes" in r.output and "Aborted!" not in r.output
    assert _run(home_path, *unchanged).output == before


def test_an_answer_on_stdin_still_counts(home_path: Path, tmp_path: Path) -> None:
    _one_session(home_path, tmp_path)
    r = _run(home_path, "sessions", "delete", "s-deploy", stdin="n\n")
    assert r.exit_code == 1 and "mnemic: not deleted" in r.output, r.output
    assert "nobody answered" not in r.output
    r = _run(home_path, "sessions", "delete", "s-deploy", stdin="y\n")
    assert r.exit_code == 0 and "Deleted s-deploy" in r.output, r.output


# -- refusals worded for a person -------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("memory", "add", "  "), "The entry text is empty. Nothing was saved."),
        (("memory", "replace", "make", ""), "`mnemic memory remove OLD` deletes an entry"),
        (("memory", "replace", "", "New text"), "OLD is empty: give a short piece of the entry"),
        (("memory", "remove", " "), "OLD is empty: give a short piece of the entry to remove"),
    ],
    ids=["add", "replace to nothing", "replace nothing", "remove nothing"],
)
def test_empty_text_is_refused_in_a_persons_words(
    home_path: Path, args: tuple[str, ...], said: str
) -> None:
    """The CLI printed the model's wording: "'remove' needs old_text: ... (see
    current_entries)", "Use action='remove'": tool fields a person never sees."""
    assert _run(home_path, "memory", "add", "Repo builds with make -j2").exit_code == 0
    r = _run(home_path, *args)
    assert r.exit_code == 1, r.output
    assert said in r.output, r.output
    assert "current_entries" not in r.output and "old_text" not in r.output
    assert "action=" not in r.output and "needs content" not in r.output
    assert "make -j2" in _run(home_path, "memory", "show").output


def test_the_model_still_reads_the_tool_wording(home_path: Path) -> None:
    r = _run(
        home_path, "tool", "memory", '{"action": "remove", "target": "memory", "old_text": ""}'
    )
    assert r.exit_code == 1
    assert "'remove' needs old_text" in r.output and "current_entries" in r.output


def test_memory_search_with_an_empty_query_is_a_usage_error_like_its_siblings(
    home_path: Path,
) -> None:
    """`memory search ""` answered "No entry matches ''" (exit 0) where `skills search ""`
    and `sessions search ""` are usage errors (exit 2) saying what to give."""
    assert _run(home_path, "memory", "add", "Repo builds with make -j2").exit_code == 0
    for command in ("memory", "skills"):
        r = _run(home_path, command, "search", " ")
        assert r.exit_code == 2, r.output
        assert "QUERY is empty" in r.output, r.output


# -- listings ---------------------------------------------------------------------------


def test_sessions_list_prints_whole_ids_on_an_80_column_terminal(
    home_path: Path, tmp_path: Path
) -> None:
    """At 80 columns (a pipe, a small terminal) every column was cut with '…': the id
    that `sessions show` takes ('3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e…'), the source, both
    dates and the "msgs" header."""
    sid = "3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e1c55"
    lines = tmp_path / "s.jsonl"
    lines.write_text(
        f'{{"session_id": "{sid}", "role": "user", "content": "Why is the checkout test '
        'flaky on CI again?", "timestamp": "2026-11-30T09:00:00Z", "source": "claude-code"}\n'
    )
    assert _run(home_path, "sessions", "import", str(lines), "--no-embed").exit_code == 0
    r = CliRunner().invoke(
        main, ["--home", str(home_path), "sessions", "list"], env={"COLUMNS": "80"}
    )
    assert r.exit_code == 0, r.output
    header, row, total = r.output.splitlines()
    assert header.split()[:2] == ["session", "source"] and "msgs" in header
    assert total == "1 session, the most recently active first."
    shown = row.split()[0]
    assert shown == sid and "claude-code" in row, row
    assert _run(home_path, "sessions", "show", shown).exit_code == 0


# -- README's quick start ---------------------------------------------------------------

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_expiring_entry_example_is_accepted(home_path: Path) -> None:
    """README's quick start showed `--expires 2026-06-30`, a past date by the time a
    newcomer copies it: refused with "is not in the future". The example must run."""
    (line,) = [
        ln
        for ln in README.read_text().splitlines()
        if ln.startswith("mnemic memory add") and "--expires" in ln
    ]
    found = re.fullmatch(r'mnemic memory add "([^"]+)" --expires (\S+)\s+#.*', line)
    assert found is not None, line
    text, date = found.groups()
    r = _run(home_path, "memory", "add", text, "--expires", date)
    assert r.exit_code == 0, r.output
    assert "Entry added" in r.output


# -- sessions search and list: bad input is a usage error naming the option ------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("search", "deploy", "--since", "3x"), "Invalid value for --since: cannot read '3x'"),
        (("search", "deploy", "--messages", "--until", "nope"), "--until: cannot read 'nope'"),
        (("search", "deploy", "--limit", "0"), "0 is not in the range"),
        (("search", "deploy", "--window", "-3"), "-3 is not in the range"),
        (("list", "--limit", "0"), "0 is not in the range"),
        (("show", "s-deploy", "--max-chars", "-5"), "-5 is not in the range"),
    ],
    ids=["since", "until of messages", "search limit 0", "window -3", "list limit 0", "max-chars"],
)
def test_sessions_bad_options_are_usage_errors(
    home_path: Path, tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    """`--since 3x` exited 1 as "Error: Cannot read since='3x'" (the tool's field name);
    `--window -3` answered "No matching past sessions"; `list -n 0` said "No sessions yet"
    with sessions in the history; `--limit 0` returned a result anyway; `show
    --max-chars -5` cut 5 characters off each message and said "[N more chars]"."""
    _one_session(home_path, tmp_path)
    r = _run(home_path, "sessions", *args)
    assert r.exit_code == 2, r.output
    assert said in r.output, r.output
    assert "No sessions yet" not in r.output and "No matching" not in r.output


def test_sessions_search_without_a_match_speaks_of_the_command_not_the_tool(
    home_path: Path, tmp_path: Path
) -> None:
    _one_session(home_path, tmp_path)
    r = _run(home_path, "sessions", "search", "zzqqxx", "--mode", "lexical")
    assert r.exit_code == 0, r.output
    assert "No matching past sessions" in r.output and "session_search" not in r.output


def test_audit_list_names_its_columns(home_path: Path) -> None:
    """`audit list` printed bare rows ('1 2026-...Z foreground/cli add memory allow ok'):
    a newcomer could not tell the decision from the result, nor what the first number is."""
    assert _run(home_path, "memory", "add", "Repo builds with make -j2").exit_code == 0
    r = _run(home_path, "audit", "list")
    assert r.exit_code == 0, r.output
    header, row = r.output.splitlines()
    assert header.split() == [
        "SEQ",
        "TIME",
        "ACTOR/ORIGIN",
        "ACTION",
        "TARGET",
        "DECISION",
        "RESULT",
    ]
    # SEQ, the time (day, time, offset), then the rest
    assert row.split()[5:] == ["add", "memory", "allow", "ok"]


def test_counts_of_one_read_in_the_singular(home_path: Path, tmp_path: Path) -> None:
    """ "(1 entries)", "Imported 2 messages in 1 sessions from 1 file(s)"."""
    assert _run(home_path, "memory", "add", "Repo builds with make -j2").exit_code == 0
    r = _run(home_path, "memory", "show", "--long")
    assert "(1 entry)" in r.output and "(0 entries)" in r.output, r.output
    lines = tmp_path / "one.jsonl"
    lines.write_text('{"session_id": "s-one", "role": "user", "content": "Deploy with make"}\n')
    r = _run(home_path, "sessions", "import", str(lines), "--no-embed")
    assert "Imported 1 message in 1 session from 1 file (jsonl)." in r.output, r.output
    r = _run(home_path, "sessions", "import", str(lines), "--no-embed")
    assert "1 session was imported before and has nothing new." in r.output, r.output


def test_sessions_stats_gives_small_sizes_in_their_own_unit(
    home_path: Path, tmp_path: Path
) -> None:
    """A small history read "text 0.0 MB" and "on disk 0.1 MB (202.014x the text)"."""
    _one_session(home_path, tmp_path)
    r = _run(home_path, "sessions", "stats")
    assert r.exit_code == 0, r.output
    text = next(ln for ln in r.output.splitlines() if ln.split()[:1] == ["text"])
    assert re.fullmatch(r"text +\d+ B", text.strip()), text
    disk = next(ln for ln in r.output.splitlines() if "on disk" in ln)
    assert re.search(r"on disk +[\d.,]+ KB \([\d,]+\.\dx the text\)", disk), disk


def test_memory_restore_takes_json_like_its_siblings(home_path: Path) -> None:
    """Every other memory command that writes (add, replace, remove, adopt, move, archive
    restore) takes --json; restore answered "No such option: --json"."""
    _two_versions(home_path)
    r = _run(home_path, "memory", "restore", "1", "--json")
    assert r.exit_code == 0, r.output
    plan = json.loads(r.output)
    assert plan["restored"] is False and "-Tests run with ./x test" in plan["diff"]
    assert "Tests run" in _run(home_path, "memory", "show").output
    r = _run(home_path, "memory", "restore", "1", "--yes", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["restored"] is True
    assert "Tests run" not in _run(home_path, "memory", "show").output


@pytest.mark.parametrize("command", ["memory", "skills"])
def test_an_editor_that_cannot_run_names_the_variable_to_set(home_path: Path, command: str) -> None:
    """`EDITOR=vim-not-installed mnemic memory edit` said only "Error: ...: Editing failed"."""
    _skill(home_path)
    assert _run(home_path, "memory", "add", "Repo builds with make -j2").exit_code == 0
    args = ("memory", "edit") if command == "memory" else ("skills", "edit", "deploy-docs")
    r = CliRunner().invoke(
        main,
        ["--home", str(home_path), *args],
        env={"EDITOR": "no-such-editor-here", "VISUAL": None},
    )
    assert r.exit_code == 1, r.output
    assert "the editor did not run" in r.output and "Nothing was changed" in r.output
    assert "EDITOR='no-such-editor-here'" in r.output and "EDITOR=nano" in r.output
    assert "make -j2" in _run(home_path, "memory", "show").output


def test_memory_add_dash_reads_stdin_like_scan_and_tool(home_path: Path) -> None:
    """`... | mnemic memory add -` saved the entry "-" (scan and tool read stdin for -)."""
    r = _run(home_path, "memory", "add", "-", stdin="Deploys on Fridays are frozen.\n")
    assert r.exit_code == 0, r.output
    shown = _run(home_path, "memory", "show", "--json").output
    assert json.loads(shown)["memory"]["entries"] == ["Deploys on Fridays are frozen."]
    r = CliRunner().invoke(
        main, ["--home", str(home_path), "memory", "add", "-"], input=b"\xff\xfe latin"
    )
    assert r.exit_code == 2 and "stdin is not valid UTF-8" in r.output, r.output


def test_sessions_search_help_speaks_of_results_not_the_tools_shapes(home_path: Path) -> None:
    """Its first line read "(the discovery shape of the session_search tool)"."""
    for args in (("sessions", "search", "--help"), ("sessions", "--help")):
        r = _run(home_path, *args)
        assert r.exit_code == 0
        assert "discovery shape" not in r.output, r.output
    assert "best matches first" in _run(home_path, "sessions", "--help").output


def test_audit_list_refuses_a_negative_limit(home_path: Path) -> None:
    assert _run(home_path, "memory", "add", "Repo builds with make -j2").exit_code == 0
    r = _run(home_path, "audit", "list", "-n", "-1")
    assert r.exit_code == 2 and "-1 is not in the range" in r.output, r.output


def test_sessions_import_of_a_directory_with_no_transcripts_says_so(
    home_path: Path, tmp_path: Path
) -> None:
    """`sessions import ~/wrong-dir` answered "Imported 0 messages in 0 sessions from 0
    files (claude)." and exit 0, as if all were well."""
    wrong = tmp_path / "photos"
    wrong.mkdir()
    (wrong / "holiday.jpg").write_bytes(b"\xff\xd8")
    r = _run(home_path, "sessions", "import", str(wrong))
    assert r.exit_code == 1, r.output
    assert f"{wrong} holds no *.jsonl file" in r.output and "Nothing was imported" in r.output
    assert "~/.claude/projects" in r.output


def test_memory_doctor_help_gives_its_exit_status(home_path: Path) -> None:
    """Doctor exits 0 with warnings and 1 with an error; its help said neither."""
    r = _run(home_path, "memory", "doctor", "--help")
    assert "Exit status: 1 when an error is left unfixed" in " ".join(r.output.split())


def test_a_control_character_is_refused_in_a_persons_words(home_path: Path) -> None:
    """`memory add` of text with a control byte said "content contains the control
    character U+0001": content is the tool's field."""
    r = _run(home_path, "memory", "add", "Build \x01 with make")
    assert r.exit_code == 1, r.output
    assert "The entry text contains the control character U+0001" in r.output, r.output
    assert "Nothing was saved" in r.output and "content contains" not in r.output


def test_memory_history_lists_versions_as_diff_and_restore_take_them(home_path: Path) -> None:
    """History listed "v1 replaced ...", but `memory diff v1` answers "Version 'v1' is not
    a number" and `restore v1` is a usage error: the listing now gives the bare number
    under a VERSION header."""
    _two_versions(home_path)
    r = _run(home_path, "memory", "history", "--target", "memory")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "MEMORY.md: 1 previous version"
    assert lines[1].split() == ["VERSION", "REPLACED", "SIZE"]
    first = lines[2].split()[0]
    assert first == "1"
    assert _run(home_path, "memory", "diff", first).exit_code == 0


def test_an_unknown_memory_action_names_read_among_the_actions(home_path: Path) -> None:
    """A missing action listed "add, replace, remove, read", an unknown one only "add,
    replace or remove": a model or person who tried `list` never learnt of `read`."""
    r = _run(home_path, "tool", "memory", '{"action": "list", "target": "memory"}')
    assert r.exit_code == 1
    error = json.loads(r.output)["error"]
    assert 'Unknown action "list". Use add, replace, remove, read, archive_search' in error, error


def test_an_oversized_scan_says_what_to_do_at_the_command_line(tmp_path: Path) -> None:
    """The cap's finding said "for markdown, scan_sections scans each heading section":
    a Python function a person at the command line cannot call."""
    big = tmp_path / "big.md"
    big.write_text("Plain notes about the build.\n" * 3000)
    r = CliRunner().invoke(main, ["scan", str(big)])
    assert r.exit_code == 1, r.output
    assert "split it into smaller pieces and scan each" in r.output, r.output
    assert "one per heading section" in r.output


def test_sessions_embed_with_nothing_left_says_so(home_path: Path, tmp_path: Path) -> None:
    """A second `sessions embed` said "embedded 0 messages with ...", which reads as a
    failure; and one message read "1 messages"."""
    _one_session(home_path, tmp_path)
    first = _run(home_path, "sessions", "embed")
    if "needs the optional package" in first.output:
        pytest.skip("mnemic[semantic] is not installed")
    assert first.exit_code == 0, first.output
    assert re.search(r"^Embedded 2 messages with \S+\.$", first.output, re.M), first.output
    again = _run(home_path, "sessions", "embed")
    assert again.exit_code == 0, again.output
    assert "Nothing to embed: every message has its vector" in again.output, again.output
    assert "embedded 0" not in again.output


def test_browsing_an_empty_history_says_there_is_none(home_path: Path) -> None:
    """session_search {} on an empty history said "The 0 most recently active past
    sessions. Pass query= to search them"."""
    r = _run(home_path, "tool", "session_search", "{}")
    assert r.exit_code == 0, r.output
    message = json.loads(r.output)["message"]
    assert message == "There are no past sessions yet: nothing to search or read.", message


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("deploy", "--limit", "500"),
            "500 is more than the 10 sessions a search returns (up to 200 with --messages)",
        ),
        (
            ("deploy", "--messages", "-n", "500"),
            "500 is more than the 200 messages a search returns",
        ),
        (("--tool", "pytest", "-n", "11"), "11 is more than the 10 tool calls a search returns"),
    ],
    ids=["sessions", "messages", "tool calls"],
)
def test_sessions_search_refuses_a_limit_it_would_cap(
    home_path: Path, tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    """`sessions search --limit 500` printed at most 10 sessions without a word (and
    --messages at most 200), where `memory search --limit 500` is refused."""
    _one_session(home_path, tmp_path)
    r = _run(home_path, "sessions", "search", *args)
    assert r.exit_code == 2, r.output
    assert said in " ".join(r.output.split()), r.output
    assert "--limit" in r.output and "No matching" not in r.output
    for at_most in (("deploy", "-n", "10"), ("deploy", "--messages", "-n", "200")):
        assert _run(home_path, "sessions", "search", *at_most).exit_code == 0


def test_archive_ids_print_as_they_are_typed_and_both_forms_are_taken(
    home_path: Path,
) -> None:
    """`archive list` printed "3.0", which reads as a decimal number: "3" was refused
    ("No archived entry '3'")."""
    assert _run(home_path, "memory", "add", "The staging host is stg-7.").exit_code == 0
    assert _run(home_path, "memory", "remove", "stg-7").exit_code == 0
    stored = json.loads(_run(home_path, "memory", "archive", "list", "--json").output)
    (entry,) = stored["entries"]
    seq, n = entry["id"].split(".")
    assert n == "0"  # --json keeps the stored id, which scripts hand back
    listed = _run(home_path, "memory", "archive", "list").output.splitlines()[1]
    assert listed.split()[0] == seq, listed
    for typed in (seq, entry["id"]):
        shown = _run(home_path, "memory", "archive", "show", typed)
        assert shown.exit_code == 0, shown.output
        assert shown.output.startswith(f"id:        {seq} (MEMORY.md)"), shown.output
    r = _run(home_path, "memory", "archive", "restore", seq)
    assert r.exit_code == 0, r.output
    assert f"restored from the archive: {seq} (it is no longer archived)" in r.output
    gone = _run(home_path, "memory", "archive", "show", seq)
    assert gone.exit_code == 1 and f"No archived entry '{seq}'" in gone.output


def test_sessions_embed_status_says_why_tool_messages_are_not_counted(
    home_path: Path, tmp_path: Path
) -> None:
    """A history of three messages read "2 of 2 messages embedded": nothing said the
    tool's output was left out on purpose, nor how to find it."""
    lines = tmp_path / "t.jsonl"
    lines.write_text(
        '{"session_id": "s-t", "role": "user", "content": "Run the linter"}\n'
        '{"session_id": "s-t", "role": "tool", "tool_name": "Bash", '
        '"content": "ruff: 3 zanzibarish errors"}\n'
        '{"session_id": "s-t", "role": "assistant", "content": "Three errors."}\n'
    )
    assert _run(home_path, "sessions", "import", str(lines), "--no-embed").exit_code == 0
    r = _run(home_path, "sessions", "embed", "--status", "--embedder", "standin")
    assert r.exit_code == 0, r.output
    assert "0 of 2 messages embedded" in r.output, r.output
    said = " ".join(r.output.split())
    assert "Only user and assistant messages with text are counted" in said, r.output
    assert "tool output and system prompts get no vector" in said
    found = _run(
        home_path, "sessions", "search", "zanzibarish", "--role", "tool", "--mode", "lexical"
    )
    assert found.exit_code == 0 and "s-t" in found.output, found.output


def test_sessions_search_refuses_options_tool_calls_do_not_use(
    home_path: Path, tmp_path: Path
) -> None:
    """`sessions search --tool pytest --as-of ... --sort newest` searched tool calls and
    dropped both options without a word."""
    _one_session(home_path, tmp_path)
    r = _run(
        home_path, "sessions", "search", "--tool", "pytest", "--as-of", "7d", "--sort", "newest"
    )
    assert r.exit_code == 2, r.output
    said = " ".join(r.output.split())
    assert "--sort, --as-of do not apply to tool calls" in said, r.output
    assert "leave them out" in said
    assert _run(home_path, "sessions", "search", "--tool", "pytest", "--since", "7d").exit_code == 0


def test_one_entry_is_counted_as_one(tmp_path: Path) -> None:
    """`memory status` said "1 entries"."""
    home = tmp_path / "home"
    assert _run(home, "memory", "add", "First fact").exit_code == 0
    assert _run(home, "memory", "add", "--target", "user", "Name is Ana").exit_code == 0
    assert _run(home, "memory", "add", "--target", "user", "Likes tea").exit_code == 0
    out = _run(home, "memory", "status").output
    assert " 1 entry  " in out and " 2 entries  " in out and "1 entries" not in out
    rows = [line for line in out.splitlines() if line.startswith(("MEMORY.md", "USER.md"))]
    assert len({line.index("~") for line in rows}) == 1  # the tokens column stays aligned


def test_sessions_search_says_a_huge_time_is_outside_the_calendar(home_path: Path) -> None:
    """`sessions search x --as-of 1e99` printed a traceback (OverflowError), then, once the
    tool refused it, "cannot read '1e99' as a time", which it can: it is too far."""
    assert _run(home_path, "init").exit_code == 0
    for value in ("1e99", "99999999999999w"):
        r = _run(home_path, "sessions", "search", "deploy", "--as-of", value)
        assert r.exit_code == 2, r.output
        assert "--as-of: it is outside the calendar (the years 1 to 9999)" in r.output
        assert "Traceback" not in r.output
