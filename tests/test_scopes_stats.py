"""``mnemic stats`` knows the project stores.

Each project store keeps its own journal, files and pending queue, so the metrics of the
home are the global store's and each project store's. The text form keeps the global
store's series as they were and adds each project store's with a ``project`` label (its
id); ``--json`` is the global store's object with its ``store``, then ``projects``: each
project store's; ``--global`` / ``--project DIR`` (or ``$MNEMIC_PROJECT``): one store's.
A project store has no USER.md and no session history of its own, so it reports neither.
Each test runs on the files store and on PostgreSQL (the ``backend`` fixture).
"""

from __future__ import annotations

from pathlib import Path

from _backends import Kit
from _cli import cli as _cli, cli_json as _json
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id
from mnemic.home import Home
from mnemic.ops import metrics_text


def _seed(backend: Kit, tmp_path: Path) -> Path:
    """One global add; a project with two adds and a remove."""
    home = Home.open(backend.write_config())
    app = tmp_path / "work" / "app"
    app.mkdir(parents=True)
    Memory.open(home, origin="cli").add("memory", "The user's laptop runs Debian.")
    project = Memory.open(open_project(home, app, create=True), origin="cli")
    project.add("memory", "The app builds with cargo.")
    project.add("memory", "The app's tests run with nextest.")
    project.remove("memory", "nextest")
    return app.resolve()


def test_stats_adds_each_project_stores_series_with_its_project_label(
    backend: Kit, tmp_path: Path
) -> None:
    app = _seed(backend, tmp_path)
    pid = project_id(app)
    result = _cli("stats")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # the global store's series, unlabelled as before
    assert 'memory_mutation_total{action="add",result="ok"} 1' in lines
    assert 'memory_usage_ratio{target="user"} 0' in lines
    # the project's, labelled with its id (and no USER.md of its own)
    assert f'memory_mutation_total{{action="add",project="{pid}",result="ok"}} 2' in lines
    assert f'memory_mutation_total{{action="remove",project="{pid}",result="ok"}} 1' in lines
    usage = f'memory_usage_ratio{{project="{pid}",target="memory"}} '
    assert any(line.startswith(usage) for line in lines)
    assert not any(f'project="{pid}",target="user"' in line for line in lines)
    assert f'memory_pending_waiting{{project="{pid}"}} 0' in lines


def test_stats_json_gives_the_global_store_then_each_project(backend: Kit, tmp_path: Path) -> None:
    app = _seed(backend, tmp_path)
    data = _json("stats")
    assert data["store"] == {"scope": "global", "project": None, "project_id": None}
    assert data["memory_mutation_total"] == [{"action": "add", "result": "ok", "value": 1}]
    [project] = data["projects"]
    assert project["store"] == {
        "scope": "project",
        "project": str(app),
        "project_id": project_id(app),
    }
    assert project["memory_mutation_total"] == [
        {"action": "add", "result": "ok", "value": 2},
        {"action": "remove", "result": "ok", "value": 1},
    ]
    assert [g["target"] for g in project["memory_usage_ratio"]] == ["memory"]
    assert "session_count" not in project or project["session_count"] == []


def test_stats_of_one_store(backend: Kit, tmp_path: Path) -> None:
    app = _seed(backend, tmp_path)
    only = _json("stats", "--project", str(app))
    assert only["store"]["project_id"] == project_id(app)
    assert only["projects"] == []
    assert {(r["action"], r["value"]) for r in only["memory_mutation_total"]} == {
        ("add", 2),
        ("remove", 1),
    }
    before = _json("--project", str(app), "stats")  # the root's --project selects it too
    assert before["store"] == only["store"]
    by_env = _json("stats", env={"MNEMIC_PROJECT": str(app)})
    assert by_env["store"] == only["store"]
    glob = _json("stats", "--global", env={"MNEMIC_PROJECT": str(app)})
    assert glob["store"]["scope"] == "global" and glob["projects"] == []
    text = _cli("stats", "--project", str(app)).output
    assert 'memory_mutation_total{action="add",result="ok"} 2' in text.splitlines()
    both = _cli("stats", "--global", "--project", str(app))
    assert both.exit_code == 2 and "--global and --project" in both.output


def test_metrics_served_over_http_cover_the_project_stores_too(
    backend: Kit, tmp_path: Path
) -> None:
    app = _seed(backend, tmp_path)
    text = metrics_text(Home.open(backend.home)).splitlines()  # derived: no live metrics
    assert 'memory_mutation_total{action="add",result="ok"} 1' in text
    pid = project_id(app)
    assert f'memory_mutation_total{{action="add",project="{pid}",result="ok"}} 2' in text
