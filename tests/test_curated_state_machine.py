"""A hypothesis state machine: the store behaves like a simple list model."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from mnemic.backends.files.curated import FileBackend
from mnemic.config import MemorySettings, Settings
from mnemic.curated.entries import char_count, parse
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.errors import (
    AmbiguousMatch,
    BatchFailed,
    BudgetExceeded,
    NoMatch,
    ToolError,
    WouldEmptyTarget,
)

pytestmark = pytest.mark.slow  # a stateful property test: many sequences of writes

LIMIT = 120
words = st.sampled_from(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"])
contents = st.lists(words, min_size=1, max_size=4).map(" ".join)


class CuratedModel(RuleBasedStateMachine):
    """Model: an ordered list of unique entries with a character budget."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="mnemic-sm-"))
        cfg = Settings(memory=MemorySettings(memory_char_limit=LIMIT, history_limit=1000))
        self.mem = Memory(FileBackend(self.dir, history_limit=1000), cfg)
        self.model: list[str] = []
        self.commits = 0

    def _select(self, selector: str) -> int:
        exact = [i for i, e in enumerate(self.model) if e == selector]
        if exact:
            return exact[0]
        hits = [i for i, e in enumerate(self.model) if selector in e]
        if not hits:
            raise NoMatch("memory", selector)
        if len({self.model[i] for i in hits}) > 1:
            raise AmbiguousMatch("memory", selector, [])
        return hits[0]

    def _model_apply(self, ops: list[Op], batch: bool) -> list[str]:
        # each slot keeps the place it came from: an entry that was there its own (also
        # when a batch took it out and adds it back), a replacement the replaced one's,
        # a new entry after them all
        work = list(self.model)
        place = [float(i) for i in range(len(work))]
        for op in ops:
            if op.action == "add":
                assert op.content is not None
                if op.content not in work:
                    work.append(op.content)
                    was = op.content in self.model
                    place.append(float(self.model.index(op.content)) if was else math.inf)
                continue
            saved, self.model = self.model, work
            try:
                i = self._select(op.old_text or "")
            finally:
                self.model = saved
            if op.action == "replace":
                assert op.content is not None
                work[i] = op.content
            else:
                del work[i]
                del place[i]
        dedup: list[str] = []
        for e in work:
            if e not in dedup:
                dedup.append(e)
        order: dict[str, float] = {}
        for e, p in zip(work, place, strict=True):  # equal texts: the earliest place
            order[e] = min(p, order.get(e, math.inf))
        dedup = sorted(dedup, key=lambda e: order[e])
        if batch and self.model and not dedup:
            raise WouldEmptyTarget("memory", len(self.model))
        if char_count(dedup) > LIMIT:
            raise BudgetExceeded("memory", LIMIT, char_count(self.model), char_count(dedup))
        return dedup

    def _check(self, ops: list[Op], batch: bool) -> None:
        try:
            expected: list[str] | type[ToolError] = self._model_apply(ops, batch)
        except ToolError as exc:
            expected = type(exc)
        try:
            res = self.mem.store.apply("memory", ops, batch=batch)
        except ToolError as exc:
            got: type[ToolError] = type(exc)
            if isinstance(exc, BatchFailed):
                got = type(exc.cause)
            assert expected is got, (expected, exc)
            return
        assert expected == list(res.after), (expected, res.after)
        if res.written:
            self.commits += 1
        self.model = list(res.after)

    @rule(content=contents)
    def add(self, content: str) -> None:
        self._check([Op("add", content)], batch=False)

    @rule(selector=words, content=contents)
    def replace(self, selector: str, content: str) -> None:
        self._check([Op("replace", content, selector)], batch=False)

    @rule(selector=words)
    def remove(self, selector: str) -> None:
        self._check([Op("remove", None, selector)], batch=False)

    @rule(
        ops=st.lists(
            st.one_of(
                contents.map(lambda c: Op("add", c)),
                words.map(lambda w: Op("remove", None, w)),
                st.tuples(words, contents).map(lambda t: Op("replace", t[1], t[0])),
            ),
            min_size=1,
            max_size=4,
        )
    )
    def batch(self, ops: list[Op]) -> None:
        self._check(ops, batch=True)

    @invariant()
    def disk_matches_model(self) -> None:
        raw = (
            (self.dir / "MEMORY.md").read_text("utf-8") if (self.dir / "MEMORY.md").exists() else ""
        )
        assert parse(raw) == self.model
        assert char_count(self.model) <= LIMIT

    @invariant()
    def history_has_one_version_per_commit_after_the_first(self) -> None:
        assert len(self.mem.backend.history("memory")) == max(0, self.commits - 1)


TestCuratedModel = CuratedModel.TestCase
TestCuratedModel.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
