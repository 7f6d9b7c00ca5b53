"""Hostile bundles (hostile2): a bundle whose checksums match (whoever edits a member can
edit the manifest too) but whose manifest or members hold what version 1 never writes.
Each is refused before anything is written, naming what is wrong, by the import and by
its ``--dry-run`` alike (a dry run that passes promises the import), never with a
traceback, and never imported to leave a home whose listings then fail."""

from __future__ import annotations

import hashlib
import json
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from test_bundle import _members, _write, fill, ok, run

DEEP = "[" * 100_000 + "]" * 100_000
Members = list[tuple[tarfile.TarInfo, bytes]]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Members:
    """The members of a bundle of a filled home with a project store (made once)."""
    tmp = tmp_path_factory.mktemp("hostile-bundle")
    source, bundle = tmp / "source", tmp / "b.mnemic"
    fill(source, tmp / "proj")
    ok(source, "export", "--bundle", str(bundle))
    return _members(bundle)


def _forged(
    members: Members, change: Callable[[dict[str, bytes], dict[str, Any]], None]
) -> Members:
    """``members`` after ``change`` edited them (name -> bytes; a None drops one) and the
    manifest, every member's size and checksum made to match again."""
    manifest = json.loads(members[0][1])
    data = {info.name: body for info, body in members[1:]}
    change(data, manifest)
    listed = {m["path"]: m for m in manifest["members"] if isinstance(m, dict)}
    for name, body in data.items():
        entry = listed.get(name)
        if entry is None:
            entry = {"path": name}
            manifest["members"].append(entry)
        entry["size"], entry["sha256"] = len(body), hashlib.sha256(body).hexdigest()
    manifest["members"] = [m for m in manifest["members"] if m.get("path") in data]
    head = manifest.pop("_raw", None) or json.dumps(manifest).encode()
    return [(tarfile.TarInfo("manifest.json"), head)] + [
        (tarfile.TarInfo(name), body) for name, body in data.items()
    ]


def _project(data: dict[str, bytes]) -> str:
    return next(n.split("/")[1] for n in data if n.startswith("projects/"))


def _json_member(name: str, edit: Callable[[Any], Any]) -> Callable[..., None]:
    def change(data: dict[str, bytes], manifest: dict[str, Any]) -> None:
        data[name] = json.dumps(edit(json.loads(data[name]))).encode()

    return change


def _session_line(**fields: Any) -> Callable[..., None]:
    def change(data: dict[str, bytes], manifest: dict[str, Any]) -> None:
        lines = data["sessions.jsonl"].decode().splitlines()
        first = {**json.loads(lines[0]), **fields}
        data["sessions.jsonl"] = ("\n".join([json.dumps(first), *lines[1:]]) + "\n").encode()

    return change


def _raw_manifest(text: Callable[[dict[str, Any]], str]) -> Callable[..., None]:
    def change(data: dict[str, bytes], manifest: dict[str, Any]) -> None:
        manifest["_raw"] = text(manifest).encode()

    return change


def _version_ids(memory: dict[str, Any], value: Any) -> dict[str, Any]:
    memory["versions"][0]["id"] = value
    return memory


def _with(name: str, body: bytes) -> Callable[..., None]:
    def change(data: dict[str, bytes], manifest: dict[str, Any]) -> None:
        data[name.replace("PID", _project(data))] = body

    return change


def _without(name: str) -> Callable[..., None]:
    def change(data: dict[str, bytes], manifest: dict[str, Any]) -> None:
        del data[name]

    return change


def _infinite(key: str) -> Callable[[dict[str, Any]], str]:
    return lambda m: json.dumps(m).replace(f'"{key}": ', f'"{key}": 1e400, "was": ', 1)


FORGERIES: dict[str, tuple[Callable[..., None], str]] = {
    # the manifest
    "manifest nested too deeply": (
        _raw_manifest(lambda m: json.dumps(m)[:-1] + f', "x": {DEEP}}}'),
        "nested too deeply",
    ),
    "a count of 1e400": (
        _raw_manifest(lambda m: json.dumps(m).replace('"counts": {', '"counts": {"x": 1e400, ')),
        "not a count",
    ),
    "version true": (_raw_manifest(lambda m: json.dumps({**m, "version": True})), "version True"),
    "version 1.0": (_raw_manifest(lambda m: json.dumps({**m, "version": 1.0})), "version 1.0"),
    "created not a string": (
        _raw_manifest(lambda m: json.dumps({**m, "created": {"a": 1}})),
        "created is not a string",
    ),
    # the members' paths
    "a member inside a member": (
        _with("global/memory.json/x", b"{}"),
        "both a file and a folder",
    ),
    "a member version 1 has not": (
        _with("cache/scan-verdicts.json", b"{}"),
        "is not one a version 1 bundle carries",
    ),
    "a project's USER.md": (
        _with("projects/PID/USER.md", b"Name: Eve"),
        "is not one a version 1 bundle carries",
    ),
    "a store without its memory.json": (_without("global/memory.json"), "memory.json' is missing"),
    # memory.json
    "a version id of 1e400": (
        _json_member("global/memory.json", lambda m: _version_ids(m, 1e400)),
        "is not a version number",
    ),
    "a version id given twice": (
        _json_member("global/memory.json", lambda m: {**m, "versions": m["versions"] * 2}),
        "given twice",
    ),
    "a version of no target": (
        _json_member(
            "global/memory.json",
            lambda m: {**m, "versions": [{**m["versions"][0], "target": "../x"}]},
        ),
        "is not memory or user",
    ),
    "a version saved at NaN": (
        _json_member(
            "global/memory.json",
            lambda m: {**m, "versions": [{**m["versions"][0], "saved_at": float("nan")}]},
        ),
        "no time of the calendar",
    ),
    # pending, sessions, tombstones, projects
    "a pending line nested too deeply": (
        _with("global/pending.jsonl", DEEP.encode() + b"\n"),
        "nested too deeply",
    ),
    "content that is an object": (_session_line(content={"a": 1}), "content is not text"),
    "a title that is a number": (_session_line(title=5), "title is not text"),
    "metadata that is a string": (_session_line(metadata="x"), "metadata is not a JSON object"),
    "a start in 1e400": (_session_line(started_at=1e300 * 1e300), "no time of the calendar"),
    "a time as a string": (_session_line(timestamp="2026-01-01"), "not a time in seconds"),
    "a role no store takes": (_session_line(role="\x00"), "is not one of system"),
    "tool calls that are a string": (_session_line(tool_calls="x"), "tool_calls is not a list"),
    "an attachment's caption that is an object": (
        _session_line(
            attachments=[
                {
                    "name": "x.png",
                    "media_type": "image/png",
                    "data": "aGk=",
                    "sha256": hashlib.sha256(b"hi").hexdigest(),
                    "caption": {"a": 1},
                }
            ]
        ),
        "caption of attachment 'x.png' is not text",
    ),
    "tombstones as an object": (_with("tombstones.json", b'{"ab": 1}'), "not a list of pairs"),
    "a project.json nested too deeply": (
        _with("projects/PID/project.json", DEEP.encode()),
        "nested too deeply",
    ),
    "a project at a relative path": (
        _with("projects/PID/project.json", b'{"path": "rel/x"}'),
        "names no project directory",
    ),
}


@pytest.mark.parametrize("case", list(FORGERIES))
def test_a_forged_bundle_is_refused_by_the_import_and_its_dry_run_alike(
    tmp_path: Path, made: Members, case: str
) -> None:
    change, expected = FORGERIES[case]
    bundle = tmp_path / "forged.mnemic"
    _write(bundle, _forged(made, change))
    for flags in (["--dry-run"], []):
        dest = tmp_path / f"dest{len(flags)}"
        result = run(dest, "import", "--bundle", str(bundle), *flags)
        assert result.exit_code == 1, result.output
        assert expected in result.output and "Nothing was imported" in result.output
        left = sorted(p.name for p in dest.iterdir()) if dest.exists() else []
        assert left == []  # nothing written, no staging left behind


def test_the_unforged_members_still_import(tmp_path: Path, made: Members) -> None:
    """The forger's own round trip: with nothing changed, the bundle imports."""
    bundle = tmp_path / "same.mnemic"
    _write(bundle, _forged(made, lambda data, manifest: None))
    result = run(tmp_path / "dest", "import", "--bundle", str(bundle))
    assert result.exit_code == 0, result.output
    listed = run(tmp_path / "dest", "sessions", "list")
    assert listed.exit_code == 0 and "s3" in listed.output


def test_a_bundle_larger_than_the_free_space_is_refused_before_a_byte_is_unpacked(
    tmp_path: Path, made: Members, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The manifest sizes every member: a bundle of huge members (or a small gzip of
    them) filled the home's disk before the import failed (docs/bundles.md promised a
    destination that "can hold what the bundle carries")."""
    import shutil

    from mnemic.ops.bundle import layout

    bundle = tmp_path / "b.mnemic"
    _write(bundle, made)
    need = sum(len(body) for _, body in made[1:])
    real = shutil.disk_usage
    monkeypatch.setattr(layout.shutil, "disk_usage", lambda p: real(p)._replace(free=need - 1))
    written: list[str] = []
    monkeypatch.setattr(layout, "_copy", lambda fh, staging, name, **kw: written.append(name))
    dest = tmp_path / "dest"
    result = run(dest, "import", "--bundle", str(bundle))
    assert result.exit_code == 1, result.output
    assert f"{need:,} bytes unpacked" in result.output and f"{need - 1:,} bytes" in result.output
    assert "Nothing was imported" in result.output and str(dest) in result.output
    assert written == [] and sorted(p.name for p in dest.iterdir()) == []


@pytest.mark.timeout(60)
@pytest.mark.parametrize("flags", [[], ["--dry-run"]])
def test_a_fifo_given_as_the_bundle_is_refused_naming_it_not_waited_on(
    tmp_path: Path, flags: list[str]
) -> None:
    """`import --bundle FIFO` waited for a writer forever; killed then, it left its
    staging directory in the new home, which every command then refused as "not a
    mnemic home"."""
    import os

    fifo = tmp_path / "home.mnemic"
    os.mkfifo(fifo)
    dest = tmp_path / "dest"
    result = run(dest, "import", "--bundle", str(fifo), *flags)
    assert result.exit_code == 1, result.output
    assert "named pipe (FIFO)" in result.output and "Nothing was imported" in result.output
    left = sorted(p.name for p in dest.iterdir()) if dest.exists() else []
    assert left == []


def test_a_home_left_with_only_an_interrupted_imports_staging_says_so(
    tmp_path: Path, made: Members
) -> None:
    """An import killed before its checks ended (SIGTERM, a closed terminal) leaves its
    private staging directory in the new home; every command then called the directory
    "not a mnemic home" and asked for another one, not saying it may simply go."""
    bundle = tmp_path / "b.mnemic"
    _write(bundle, made)
    dest = tmp_path / "dest"
    (dest / ".bundle-import-k1ll3d" / "members" / "global").mkdir(parents=True)
    result = run(dest, "import", "--bundle", str(bundle))
    assert result.exit_code == 1, result.output
    assert "interrupted bundle import" in result.output
    assert f"rm -r {dest / '.bundle-import-k1ll3d'}" in result.output
    assert (dest / ".bundle-import-k1ll3d").is_dir()  # nothing removed for the person


@pytest.mark.parametrize("kind", ["zip", "plain tar", "bzip2 tar"])
def test_a_file_of_another_format_is_called_no_bundle_not_a_damaged_one(
    tmp_path: Path, made: Members, kind: str
) -> None:
    """A zip or an uncompressed tar was refused as "truncated or damaged (not a gzip
    file)": the person looks for damage in a file that is simply of another format."""
    import io
    import zipfile

    other = tmp_path / "home.mnemic"
    if kind == "zip":
        with zipfile.ZipFile(other, "w") as z:
            z.writestr("manifest.json", made[0][1])
    else:
        with tarfile.open(other, "w:bz2" if kind == "bzip2 tar" else "w") as tar:
            for info, body in made:
                tar.addfile(info, io.BytesIO(body))
    result = run(tmp_path / "dest", "import", "--bundle", str(other))
    assert result.exit_code == 1, result.output
    assert "this is not a mnemic bundle" in result.output and "gzip" in result.output
    assert "truncated" not in result.output and "Nothing was imported" in result.output


def test_a_member_given_twice_is_refused_as_twice_not_as_unlisted(
    tmp_path: Path, made: Members
) -> None:
    """The second copy of a listed member was refused as "not listed in the manifest",
    which it is."""
    bundle = tmp_path / "twice.mnemic"
    again = next(
        (tarfile.TarInfo(i.name), body) for i, body in made if i.name == "global/audit.jsonl"
    )
    _write(bundle, [*made, again])
    result = run(tmp_path / "dest", "import", "--bundle", str(bundle))
    assert result.exit_code == 1, result.output
    assert "'global/audit.jsonl' is in it twice" in result.output
    assert "not listed" not in result.output and "Nothing was imported" in result.output
