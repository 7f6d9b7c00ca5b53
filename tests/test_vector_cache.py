"""The home's vector cache of curated and archived texts (perf10, issues 26 and 32).

A second process searching the same entries embeds only the texts it has not seen; the
vectors are keyed by the embedder's identity; a damaged file is ignored and rebuilt;
``forget`` leaves no vector of a forgotten text. Each "process" is simulated by a fresh
per-process memo (``text_search._vectors``) and a fresh counting stand-in embedder.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from _backends import FilesKit
from _forker import shared
from mnemic.curated.memory import Memory
from mnemic.curated.view import MemoryView
from mnemic.embedding.standin import StandinEmbedder
from mnemic.embedding.vector_cache import VectorCache, text_key, vectors_dir
from mnemic.home import Home
from mnemic.ops import text_search
from mnemic.ops.archive_search import search_archive
from mnemic.ops.memory_search import search_memory
from mnemic.ops.tidy.proposals import propose
from mnemic.sessions import embedder_loader_for

FACTS = [
    "Deploys go through the CI pipeline on main",
    "The staging database is restored every Sunday night",
    "Kai teaches the onboarding course",
    "Invoices are exported as CSV on the first of the month",
]


class Counting(StandinEmbedder):
    """The stand-in, counting the passages it embeds (queries are embedded every time)."""

    passages = 0

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        self.passages += len(texts)
        return super().embed_passages(texts)


class Process:
    """One simulated process: a fresh memo and a counting embedder of ``model``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, home: Path, model: str) -> None:
        monkeypatch.setattr(text_search, "_vectors", {})
        monkeypatch.setattr(text_search, "_marks", {})
        self.embedder = Counting(model_id=model)
        monkeypatch.setattr(
            "mnemic.sessions.search.retrieval.default_embedder_loader", lambda: self.embedder
        )
        self.loader = embedder_loader_for(Home.open(home))

    @property
    def calls(self) -> int:
        return self.embedder.passages


def _home(home_path: Path, live: list[str], archived: list[str] = ()) -> Memory:  # type: ignore[assignment]
    FilesKit(home_path).write_config()
    mem = Memory.open(home_path)
    for text in [*live, *archived]:
        mem.add("memory", text)
    for text in archived:
        mem.remove("memory", text)
    return mem


def test_a_second_process_embeds_only_the_new_entries(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = _home(home_path, FACTS[:3])
    first = Process(monkeypatch, home_path, "count-1")
    search_memory(
        MemoryView.open(home_path), "deploys", mode="semantic", embedder_loader=first.loader
    )
    assert first.calls == 3
    mem.add("memory", FACTS[3])
    second = Process(monkeypatch, home_path, "count-1")
    found = search_memory(
        MemoryView.open(home_path), "invoices", mode="semantic", embedder_loader=second.loader
    )
    assert second.calls == 1  # the new entry only
    assert found.hits[0].text == FACTS[3]
    third = Process(monkeypatch, home_path, "count-1")
    search_memory(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=third.loader)
    assert third.calls == 0


def test_archive_search_and_tidy_reuse_their_vectors(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _home(home_path, FACTS[:2], FACTS[2:])
    first = Process(monkeypatch, home_path, "count-2")
    search_archive(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=first.loader)
    propose(MemoryView.open(home_path), embedder_loader=first.loader)
    assert first.calls == 4  # two archived, two live
    second = Process(monkeypatch, home_path, "count-2")
    hit = search_archive(
        MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=second.loader
    ).hits[0]
    assert hit.text == "Kai teaches the onboarding course"
    assert propose(MemoryView.open(home_path), embedder_loader=second.loader).retrieval == (
        "semantic"
    )
    assert second.calls == 0


def test_another_models_vectors_are_not_used(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _home(home_path, FACTS)
    one = Process(monkeypatch, home_path, "count-3a")
    search_memory(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=one.loader)
    other = Process(monkeypatch, home_path, "count-3b")
    search_memory(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=other.loader)
    assert (one.calls, other.calls) == (4, 4)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_a_damaged_cache_file_is_ignored_and_rebuilt(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    _home(home_path, FACTS)
    first = Process(monkeypatch, home_path, "count-4")
    search_memory(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=first.loader)
    [path] = vectors_dir(home_path).iterdir()
    data = path.read_bytes()
    if damage == "truncate":
        data = data[:-7]
    elif damage == "flip":  # a vector's byte changed: the checksum catches it
        data = data[:-3] + bytes([data[-3] ^ 0x40]) + data[-2:]
    elif damage == "garbage":
        data = b"\x00\xff" * 300
    else:
        data = b""
    path.write_bytes(data)
    second = Process(monkeypatch, home_path, "count-4")
    found = search_memory(
        MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=second.loader
    )
    assert second.calls == 4  # nothing trusted
    assert found.hits[0].text == "Kai teaches the onboarding course"
    third = Process(monkeypatch, home_path, "count-4")
    search_memory(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=third.loader)
    assert third.calls == 0  # rebuilt


def test_a_rewrite_drops_texts_no_longer_searched(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path)
    embedder = Counting(model_id="count-5")
    cache.vectors("count-5", 384, "s", ["a b", "c d"], embedder.embed_passages)
    cache.vectors("count-5", 384, "s", ["c d", "e f"], embedder.embed_passages)
    assert set(cache.read("count-5", 384, "s")) == {text_key("c d"), text_key("e f")}
    assert cache.read("count-5", 512, "s") == {}  # another dimension: not used
    assert embedder.passages == 3


def test_forget_removes_the_vectors_of_forgotten_text(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.ops.forget import forget_sessions

    _home(home_path, FACTS[:2], ["Project codename quagga77 ships in May"])
    first = Process(monkeypatch, home_path, "count-6")
    search_archive(
        MemoryView.open(home_path), "ships", mode="semantic", embedder_loader=first.loader
    )
    secret = text_key("Project codename quagga77 ships in May")
    assert any(secret in p.read_bytes() for p in vectors_dir(home_path).iterdir())
    forget_sessions(home_path, "quagga77")
    for path in vectors_dir(home_path).iterdir():
        assert secret not in path.read_bytes(), path


def test_forget_user_removes_the_profiles_vectors(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.ops.forget import forget_user

    mem = _home(home_path, FACTS[:1])
    mem.add("user", "Lives at 221B Baker Street")
    first = Process(monkeypatch, home_path, "count-7")
    search_memory(
        MemoryView.open(home_path), "lives", mode="semantic", embedder_loader=first.loader
    )
    secret = text_key("Lives at 221B Baker Street")
    assert any(secret in p.read_bytes() for p in vectors_dir(home_path).iterdir())
    forget_user(home_path)
    assert not any(secret in p.read_bytes() for p in vectors_dir(home_path).iterdir())


def _holding(home: Path, key: bytes) -> list[Path]:
    """The vector files of ``home`` that hold ``key``."""
    folder = vectors_dir(home)
    return [p for p in folder.iterdir() if key in p.read_bytes()] if folder.exists() else []


class ForgetsMidway(StandinEmbedder):
    """The stand-in that runs ``forget`` while it embeds: between the search's read of
    the texts and its write of the cache (the window of issue 26), every time."""

    def __init__(self, model_id: str, forget: Any) -> None:
        super().__init__(model_id=model_id)
        self.forget = forget

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        self.forget()
        return super().embed_passages(texts)


def test_a_forget_between_a_searchs_read_and_its_write_leaves_no_vector(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search read the archived texts before the forget and writes its vectors
    after: the forgotten text's vector is not put back."""
    from mnemic.ops.forget import forget_sessions

    secret_text = "Project codename quagga77 ships in May"
    _home(home_path, FACTS[:2], [FACTS[2], secret_text])
    monkeypatch.setattr(text_search, "_vectors", {})
    embedder = ForgetsMidway("count-9", lambda: forget_sessions(home_path, "quagga77"))
    monkeypatch.setattr(
        "mnemic.sessions.search.retrieval.default_embedder_loader", lambda: embedder
    )
    loader = embedder_loader_for(Home.open(home_path))
    found = search_archive(
        MemoryView.open(home_path), "ships", mode="semantic", embedder_loader=loader
    )
    assert secret_text in [h.text for h in found.hits]  # it read the text before the forget
    assert not _holding(home_path, text_key(secret_text))


def test_a_forget_user_between_a_searchs_read_and_its_write_leaves_no_vector(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.ops.forget import forget_user

    mem = _home(home_path, FACTS[:1])
    mem.add("user", "Lives at 221B Baker Street")
    monkeypatch.setattr(text_search, "_vectors", {})
    embedder = ForgetsMidway("count-10", lambda: forget_user(home_path))
    monkeypatch.setattr(
        "mnemic.sessions.search.retrieval.default_embedder_loader", lambda: embedder
    )
    loader = embedder_loader_for(Home.open(home_path))
    propose(MemoryView.open(home_path), embedder_loader=loader)  # tidy: USER.md's entries
    search_memory(MemoryView.open(home_path), "lives", mode="semantic", embedder_loader=loader)
    assert not _holding(home_path, text_key("Lives at 221B Baker Street"))


def test_a_search_after_a_forget_keeps_its_vectors_again(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forget's mark stops only the writers that read before it."""
    from mnemic.ops.forget import forget_sessions

    _home(home_path, FACTS[:2], [FACTS[2], "Project codename quagga77 ships in May"])
    forget_sessions(home_path, "quagga77")
    first = Process(monkeypatch, home_path, "count-11")
    search_archive(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=first.loader)
    assert first.calls == 1
    second = Process(monkeypatch, home_path, "count-11")
    search_archive(
        MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=second.loader
    )
    assert second.calls == 0


def test_tidy_explain_uses_the_vectors_tidy_kept(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.ops.tidy.explain import explain_pair

    _home(home_path, FACTS)
    first = Process(monkeypatch, home_path, "count-8")
    propose(MemoryView.open(home_path), embedder_loader=first.loader)
    assert first.calls == 4
    second = Process(monkeypatch, home_path, "count-8")
    explained = explain_pair(
        MemoryView.open(home_path), "memory", 0, 1, embedder_loader=second.loader
    )
    assert explained.retrieval == "semantic" and explained.signals["cosine"] is not None
    assert second.calls == 0


def test_two_writers_and_a_reader_see_whole_files_only(tmp_path: Path) -> None:
    """Two processes rewrite one scope's file while this one reads it: every read is
    nothing (before the first write) or one writer's whole set, never a mix or a part.
    The writers (``vector_writer`` of ``tests/workers/kill_actions.py``) are forked from
    the shared small process and released together once both are ready: two spawned
    interpreters were 1.9 s of CPU (session 55)."""
    forker = shared("kill_actions")
    root = tmp_path / "cache"
    root.mkdir()
    gun = tmp_path / "gun"
    gun.touch()
    done = [tmp_path / f"done-{seed}" for seed in (1, 2)]
    with gun.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # no writer writes before both are ready
        pids = [
            forker.fork("vector_writer", str(root), seed, 150, str(gun), str(mark), until="o")
            for seed, mark in zip((1, 2), done, strict=True)
        ]
        fcntl.flock(held, fcntl.LOCK_UN)  # the start gun
        cache = VectorCache(root)
        wholes = {seed: {text_key(f"text {seed} {i}") for i in range(20)} for seed in (1, 2)}
        reads = 0
        while not all(mark.exists() for mark in done):  # a writer is still writing
            got = cache.read("m", 8, "s")
            if got:
                [seed] = {int(v[0]) for v in got.values()}
                assert set(got) == wholes[seed]
                reads += 1
    for pid in pids:
        status = forker.wait(pid)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    got = cache.read("m", 8, "s")
    assert set(got) in wholes.values()


def test_a_postgresql_home_keeps_no_vector_file(tmp_path: Path) -> None:
    """Its store is shared by machines a ``forget`` on one could not reach."""
    import dataclasses

    from mnemic.config import Settings
    from mnemic.embedding.vector_cache import CachedLoader

    shared = Home(tmp_path, dataclasses.replace(Settings(), store="postgresql://u@h/db"))
    assert not isinstance(embedder_loader_for(shared), CachedLoader)
    assert isinstance(embedder_loader_for(Home(tmp_path, Settings())), CachedLoader)


def test_a_forget_landing_just_before_the_writers_rename_is_seen_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer checked the generation, then a whole forget (new mark, files deleted)
    ran before its rename: it re-reads the mark after the rename and deletes its file."""
    import numpy as np

    from mnemic.embedding import vector_cache

    cache = VectorCache(tmp_path)
    real = vector_cache.atomic_write_bytes

    def forget_then_write(path: Any, data: bytes, **kw: Any) -> None:
        if str(path).endswith(".vec"):  # the cache's write, not the forget's own mark
            vector_cache.clear(tmp_path)
        real(path, data, **kw)

    monkeypatch.setattr(vector_cache, "atomic_write_bytes", forget_then_write)
    cache.write("m", "s", [text_key("gone")], [np.ones(4, np.float32)])
    assert not cache.path("m", "s").exists()
    monkeypatch.setattr(vector_cache, "atomic_write_bytes", real)
    later = VectorCache(tmp_path)  # made after the forget: it writes
    later.write("m", "s", [text_key("kept")], [np.ones(4, np.float32)])
    assert set(later.read("m", 4, "s")) == {text_key("kept")}


def test_a_long_running_process_drops_its_memo_after_a_forget(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that searched before a forget (another process's) keeps no vector of
    the forgotten text in memory once it searches again."""
    from mnemic.ops.forget import forget_sessions

    secret_text = "Project codename quagga77 ships in May"
    _home(home_path, FACTS[:2], [FACTS[2], secret_text])
    server = Process(monkeypatch, home_path, "count-12")
    search_archive(
        MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=server.loader
    )
    assert ("count-12", secret_text) in text_search._vectors
    forget_sessions(home_path, "quagga77")
    loader = embedder_loader_for(Home.open(home_path))  # the server's next call
    search_archive(MemoryView.open(home_path), "kai", mode="semantic", embedder_loader=loader)
    assert ("count-12", secret_text) not in text_search._vectors
    assert ("count-12", FACTS[2]) in text_search._vectors
