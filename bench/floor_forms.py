"""The floor's word signal with a question's other inflections (recall 16).

    ./x bench floor_forms

Dev only. The floor (:mod:`mnemic.sessions.search.floor`) counts a word of a question in
another language as held where one of the other forms its lexical search matched is
("gearbeitet" where the message writes "arbeitet"); before, only the question's own words
counted. Both verdicts are read in the same run from the same search: the shipped
``judge`` is wrapped so that each call also gives the verdict with the forms left out
(``forms_of`` the identity: the floor recall 13 shipped), while the search itself, its
candidates and its cosines are one.

Asked, through the public ranking API (``search_messages``, hybrid: semantic mode has no
lexical side, so no word signal, and is the same either way):

* **answerable** (a "no good match" is wrong): every dev question of ``bench/floor.py``'s
  LoCoMo dev conversations (English ``locomo``, ``zh``, and ``xl``: the same translated
  into Spanish, German, French, Portuguese and Italian), and the German and Spanish dev
  questions of the update fixture (``updates``: "now" and "past", over their histories);
* **unrelated** (a "no good match" is right): the questions of ``bench/data/offtopic.json``
  asked of each of those histories.

Per set: floored (answerable) or answered (unrelated) before and after, n and a 95 %
Wilson interval, the questions whose word signal the forms moved (``words_changed``), and
the questions whose verdict changed either way (``now_wrong``: floored after
and not before, or answered after and not before; ``now_right``: the reverse). A third
arm, a what-if not shipped (``nofunction``): the share with the forms and without the
function words of the question's languages ("wo", "hat", "mein": the index's stop words
are English, so they are searched words and count in the share, where an English
question's "where", "did" do not). One JSON
object on the last line (``bench/results/floor_forms.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _floor_dev import ask, dev_questions, dev_stores, grouped
from _metrics import wilson
from _vcache import CachedEmbedder
from mnemic.sessions.index.query import FUNCTION_WORDS, Query, question_languages
from mnemic.sessions.index.segment import has_cjk
from mnemic.sessions.search import floor as floor_module, messages as messages_module
from mnemic.sessions.sql.store import SqlSessionStore
from recall import (
    LOCOMO,
)

HERE = Path(__file__).resolve().parent
LANGS = {"german": "de", "spanish": "es", "french": "fr", "italian": "it", "portuguese": "pt"}


def language(text: str) -> str:
    """A short tag of the language ``text`` is written in (for the per-language rows)."""
    if has_cjk(text):
        return "zh"
    found = question_languages(text)
    return LANGS.get(found[0], found[0]) if found else "en"


def _contentful(query: Query) -> Query:
    """``query`` without the function words of its languages (a what-if, not shipped)."""
    kept = [
        tuple(t for t in g if not any(t.text.casefold() in FUNCTION_WORDS[lang]
                                      for lang in query.languages))
        for g in query.groups
    ]  # fmt: skip
    return replace(query, groups=tuple(g for g in kept if g))


class Both:
    """``judge`` wrapped: each call's verdict with the forms (shipped), without them
    (before), and, a what-if, with the forms and without the question's function words in
    the word share (``nofunction``)."""

    def __init__(self) -> None:
        self.shipped = messages_module.judge
        self.share = floor_module._word_share
        self.last: tuple[Any, Any, Any] | None = None

    def __call__(self, store: Any, fused: Any, query: Any, mode: str, model: Any) -> Any:
        after = self.shipped(store, fused, query, mode, model)
        with mock.patch.object(SqlSessionStore, "forms_of", lambda _self, q: q):
            before = self.shipped(store, fused, query, mode, model)

        def share(q: Query, texts: Any, forms: Query | None = None) -> float:
            return (
                self.share(_contentful(q), texts, forms)
                if q.languages
                else self.share(q, texts, forms)
            )

        with mock.patch.object(floor_module, "_word_share", share):
            what_if = self.shipped(store, fused, query, mode, model)
        self.last = (before, after, what_if)
        return after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=LOCOMO, help="the LoCoMo file")
    args = parser.parse_args()
    t0 = time.perf_counter()
    embedder = CachedEmbedder()
    offtopic = json.loads((HERE / "data" / "offtopic.json").read_text(encoding="utf-8"))
    both = Both()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mnemic-floor-forms-") as tmp:
        data, fixture, corpora = dev_stores(args.data, Path(tmp), embedder)
        asked = dev_questions(
            data, fixture, corpora, lambda group: [("offtopic", t) for t in offtopic["questions"]]
        )
        print(f"{len(asked)} questions ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        for (kind, set_, _, text), (before, after, what_if) in ask(asked, corpora, embedder, both):
            rows.append({"kind": kind, "set": set_, "lang": language(text),
                         "before": before.good, "after": after.good,
                         "nofunction": what_if.good,
                         "words_before": before.words, "words_after": after.words,
                         "words_nofunction": what_if.words, "text": text})  # fmt: skip
        for c in corpora.values():
            c.store.close()
    out: dict[str, Any] = {"model": embedder.model_id, "mode": "hybrid", "split": "dev"}
    out["results"] = report(rows)
    out["changed"] = [
        {k: r[k] for k in ("kind", "set", "lang", "text", "words_before", "words_after",
                           "before", "after")}
        for r in rows if r["before"] != r["after"]
    ]  # fmt: skip
    out["nofunction_changed"] = [
        {k: r[k] for k in ("kind", "set", "lang", "text", "words_after", "words_nofunction",
                           "after", "nofunction")}
        for r in rows if r["nofunction"] != r["after"]
    ]  # fmt: skip
    # the questions whose word signal the forms moved, verdict changed or not
    out["words_changed"] = [
        {k: r[k] for k in ("kind", "set", "lang", "text", "words_before", "words_after",
                           "after")}
        for r in rows if r["words_before"] != r["words_after"]
    ]  # fmt: skip
    for name, r in out["results"].items():
        print(f"  {name:28s} {r['metric']:9s} n={r['n']:4d} before {r['before']['value']:.3f} "
              f"after {r['after']['value']:.3f}  (now wrong {r['now_wrong']}, "
              f"now right {r['now_right']}; nofunction {r['nofunction']['value']:.3f})",
              flush=True)  # fmt: skip
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit("floor_forms", out)


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per set and per set and language: answerable floored or unrelated answered, before
    and after, with n, a Wilson interval and the questions that changed."""
    out = {}
    for name, rs in grouped(rows).items():
        unrelated = name.startswith("unrelated")
        # the share that is wrong: answerable floored, unrelated answered (not floored)
        wrong = (lambda good: good) if unrelated else (lambda good: not good)
        n = len(rs)
        figures = {}
        for arm in ("before", "after", "nofunction"):
            k = sum(wrong(r[arm]) for r in rs)
            figures[arm] = {"value": round(k / n, 4), "k": k, "ci95": wilson(k, n)}
        out[name] = {
            "metric": "answered" if unrelated else "floored",
            "n": n,
            **figures,
            "now_wrong": sum(wrong(r["after"]) and not wrong(r["before"]) for r in rs),
            "now_right": sum(wrong(r["before"]) and not wrong(r["after"]) for r in rs),
        }
    return out


if __name__ == "__main__":
    main()
