"""The kept versions of a target are found in a listing of ``.history`` by a sort and
two bisections (docs/performance.md "perf14"): the same names, in the same order, as
filtering every name by its prefix."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from mnemic.backends.files.curated import FileBackend
from mnemic.curated.entries import FILENAMES

names = st.one_of(
    st.builds(
        lambda f, seq, ms: f"{f}.{seq:06d}.{ms}",
        st.sampled_from(sorted(FILENAMES.values())),
        st.integers(0, 999_999),
        st.integers(0, 2_000_000_000_000),
    ),
    st.sampled_from(
        ["MEMORY.md", "MEMORY.mdx", "MEMORY.md.", "MEMORY.md-1", "MEMORY.md0", "MEMORY.m",
         "USER.md", "USER.md.x", "MEMORY.md.tmp", ".MEMORY.md.abc.tmp", "MEMORY.md..1", "a", "Z"]
    ),
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.sets(names, max_size=30))
def test_the_versions_of_a_target_are_the_names_its_prefix_starts(found: set[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        backend = FileBackend(Path(tmp) / "memories")
        backend.history_dir.mkdir(parents=True)
        for name in found:
            (backend.history_dir / name).write_bytes(b"")
        for target, filename in FILENAMES.items():
            want = sorted(n for n in found if n.startswith(filename + "."))
            assert backend._history_names(target) == want
