"""The attachment store: content-addressed bytes in the home, kept once, private, capped,
never read through a symlink or from outside the folder it was given."""

from __future__ import annotations

import hashlib
import os
import stat
import struct
import zlib
from pathlib import Path

import pytest

from mnemic.errors import AttachmentRefused, UnreadableFile, UnsafePath
from mnemic.home import Home
from mnemic.sessions.attachments import AttachmentStore


def tiny_png(red: int = 255) -> bytes:
    """A real 1x1 PNG (one pixel of the given red)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes([0, red, 0, 0]))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def test_bytes_are_kept_under_their_sha256_privately(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "attachments")
    data = tiny_png()
    link = store.put(data, name="dot.png", caption="a red dot")
    sha = hashlib.sha256(data).hexdigest()
    path = tmp_path / "attachments" / sha[:2] / sha[2:]
    assert (link.sha256, link.name, link.media_type, link.size) == (
        sha,
        "dot.png",
        "image/png",
        len(data),
    )
    assert link.placeholder() == "[image: dot.png — a red dot]"
    assert path.read_bytes() == data
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "attachments").stat().st_mode) == 0o700
    assert store.read(sha) == data


def test_the_same_bytes_are_kept_once(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "a")
    first = store.put(tiny_png(), name="one.png")
    second = store.put(tiny_png(), name="two.png")
    assert first.sha256 == second.sha256
    assert [sha for sha, _, _ in store.hashes()] == [first.sha256]
    assert store.total_bytes() == first.size


def test_a_file_over_the_size_cap_is_refused_and_not_written(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "a", max_bytes=10)
    with pytest.raises(AttachmentRefused) as caught:
        store.put(b"x" * 11, name="big.bin")
    assert caught.value.name == "big.bin"
    assert "attachment_max_bytes" in caught.value.reason
    assert list(store.hashes()) == []


def test_a_file_that_would_pass_the_total_cap_is_refused(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "a", max_total=15)
    store.put(b"a" * 10)
    with pytest.raises(AttachmentRefused) as caught:
        store.put(b"b" * 10, name="more.txt")
    assert "attachments_max_total" in caught.value.reason
    # known bytes take no more room: they are accepted at the cap
    assert store.put(b"a" * 10).size == 10
    assert store.total_bytes() == 10


def test_caps_come_from_the_home_settings(home_path: Path) -> None:
    home_path.mkdir()
    (home_path / "config.toml").write_text("[sessions]\nattachment_max_bytes = 5\n")
    store = AttachmentStore.of_home(Home.open(home_path))
    assert store.root == home_path / "attachments"
    with pytest.raises(AttachmentRefused):
        store.put(b"123456")


def test_only_a_sha256_names_a_file(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "a")
    for bad in ("../../etc/passwd", "ab", "A" * 64, "g" * 64):
        with pytest.raises(UnsafePath):
            store.read(bad)


def test_damaged_bytes_are_reported_not_served(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "a")
    link = store.put(b"hello")
    store.path_of(link.sha256).write_bytes(b"hellp")
    with pytest.raises(UnreadableFile, match="no longer match"):
        store.read(link.sha256)


def test_a_missing_file_reads_as_none(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "a")
    link = store.put(b"hello")
    store.path_of(link.sha256).unlink()
    assert store.read(link.sha256) is None
    assert not store.has(link.sha256)


def test_a_file_inside_the_export_folder_is_kept(tmp_path: Path) -> None:
    export = tmp_path / "export"
    (export / "files").mkdir(parents=True)
    (export / "files" / "photo.png").write_bytes(tiny_png())
    link = AttachmentStore(tmp_path / "a").put_file(export, "files/photo.png")
    assert (link.name, link.media_type) == ("photo.png", "image/png")


@pytest.mark.parametrize("name", ["../secret.txt", "/etc/passwd", "files/../../secret.txt"])
def test_a_name_leaving_the_export_folder_is_refused(tmp_path: Path, name: str) -> None:
    export = tmp_path / "export"
    (export / "files").mkdir(parents=True)
    (tmp_path / "secret.txt").write_text("secret")
    with pytest.raises(AttachmentRefused, match="leaves the export folder"):
        AttachmentStore(tmp_path / "a").put_file(export, name)


def test_a_symlink_out_of_the_export_folder_is_not_followed(tmp_path: Path) -> None:
    export = tmp_path / "export"
    export.mkdir()
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", export / "file.txt")
    os.symlink(tmp_path, export / "dir")
    store = AttachmentStore(tmp_path / "a")
    with pytest.raises(AttachmentRefused, match="symlink"):
        store.put_file(export, "file.txt")
    with pytest.raises(AttachmentRefused, match="symlink"):
        store.put_file(export, "dir/secret.txt")
    assert list(store.hashes()) == []


def test_a_missing_export_file_is_refused_saying_so(tmp_path: Path) -> None:
    (tmp_path / "export").mkdir()
    with pytest.raises(AttachmentRefused, match="not in the export folder"):
        AttachmentStore(tmp_path / "a").put_file(tmp_path / "export", "gone.png")


def test_collect_removes_only_unused_files_past_the_grace(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "a")
    kept = store.put(b"kept")
    dropped = store.put(b"dropped")
    young = store.collect([kept.sha256])
    assert (young.removed, young.young) == ((), 1)
    done = store.collect([kept.sha256], grace=0)
    assert (done.removed, done.freed) == ((dropped.sha256,), len(b"dropped"))
    assert store.has(kept.sha256) and not store.has(dropped.sha256)
    assert store.total_bytes() == len(b"kept")
