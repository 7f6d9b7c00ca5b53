"""The dev questions the floor benches ask (``floor_forms``, ``floor_xl``): LoCoMo's dev
conversations and the German and Spanish update histories as stores, their answerable
dev questions, unrelated questions asked of every store, and one hybrid search a question
with the floor's ``judge`` wrapped, so that a bench reads the verdicts it compares."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from mnemic.sessions import search_messages
from mnemic.sessions.search import messages as messages_module
from recall import (
    LOCOMO_SPLIT,
    locomo_corpora,
    locomo_questions,
    semantic_state,
    updates_corpora,
)

HERE = Path(__file__).resolve().parent
UPDATE_LANGS = ("de", "es")
"""The update histories asked: the two with a language other than English."""

Asked = tuple[str, str, str, str]
"""(kind: answerable or unrelated, set, store, question)."""


def dev_stores(
    locomo: Path, tmp: Path, embedder: Any
) -> tuple[list[Any], dict[str, Any], dict[str, Any]]:
    """The LoCoMo dev conversations, the update fixture (German and Spanish histories
    only) and a store of each, embedded, under ``tmp``."""
    dev = set(LOCOMO_SPLIT["dev"])
    fixture = json.loads((HERE / "data" / "updates.json").read_text(encoding="utf-8"))
    fixture["histories"] = [h for h in fixture["histories"] if h["lang"] in UPDATE_LANGS]
    data = [s for s in json.loads(locomo.read_text(encoding="utf-8"))
            if str(s["sample_id"]) in dev]  # fmt: skip
    corpora = locomo_corpora(data, tmp, embedder)
    corpora.update(updates_corpora(fixture, tmp, embedder))
    return data, fixture, corpora


def dev_questions(
    data: list[Any],
    fixture: dict[str, Any],
    corpora: dict[str, Any],
    unrelated: Callable[[str], Iterable[tuple[str, str]]],
) -> list[Asked]:
    """LoCoMo's answerable dev questions, the update cases' dev questions (now and past)
    in German and Spanish, and for every store the (set, question) pairs ``unrelated``
    gives for its group (``locomo`` or ``updates``), their set named ``SET@GROUP``."""
    asked: list[Asked] = []
    for q in locomo_questions(data, corpora):
        if q.split == "dev" and q.corpus in corpora:
            asked.append(("answerable", q.set, q.corpus, q.text))
    for case in fixture["cases"]:
        if case["split"] == "dev" and case["lang"] in UPDATE_LANGS:
            for key in ("now", "past"):
                asked.append(("answerable", "updates", f"updates-{case['lang']}", case[key]))
    for name in corpora:
        group = "updates" if name.startswith("updates") else "locomo"
        for set_, text in unrelated(group):
            asked.append(("unrelated", f"{set_}@{group}", name, text))
    return asked


def ask(
    asked: list[Asked], corpora: dict[str, Any], embedder: Any, judge: Any
) -> Iterator[tuple[Asked, Any]]:
    """Each question once, hybrid, through ``search_messages`` with ``judge`` (a
    callable wrapping the floor's, which sets its ``last``) in the floor's place: yields
    the question and what ``judge`` recorded for it."""
    with mock.patch.object(messages_module, "judge", judge):
        for one in asked:
            corpus = corpora[one[2]]
            if corpus.state is None:
                corpus.state = semantic_state(corpus.store, lambda: embedder, max_age=1e9)
            judge.last = None
            search_messages(corpus.store, one[3], mode="hybrid", limit=1, state=corpus.state,
                            floor=False)  # fmt: skip
            assert judge.last is not None
            yield one, judge.last


def grouped(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows by ``KIND/SET``, ``KIND/SET/LANG`` and ``KIND/all``, names sorted."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[f"{r['kind']}/{r['set']}"].append(r)
        groups[f"{r['kind']}/{r['set']}/{r['lang']}"].append(r)
        groups[f"{r['kind']}/all"].append(r)
    return dict(sorted(groups.items()))
