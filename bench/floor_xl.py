"""The floor of a question asked in another language than its history (recall 17).

    ./x bench floor_xl               # dev: distributions, the calibration, before/after
    ./x bench floor_xl --heldout     # the same, adding the test half of offtopic_xl.json (once)

Dev only for everything answerable. A question read as written in a language of
``FUNCTION_WORDS`` (German, Spanish, French, Italian, Portuguese, Russian) whose nearest
messages (the first ``LANGUAGE_CANDIDATES`` semantic candidates) are none of them read as
written in it meets the cross-language floor ``FLOOR_COSINES_OTHER`` instead of the usual
one (:mod:`mnemic.sessions.search.floor`): the rule was fixed before measuring, only its
cosine is calibrated here, like the CJK floor (the highest floor on a grid that floors at
most 5 % of the answerable cross-language dev questions).

Asked through the public ranking API (``search_messages``, hybrid, floor off; the
verdicts are read from the ``judge`` call of the same search):

* **answerable** (a "no good match" is wrong): the dev questions of LoCoMo's dev
  conversations (English ``locomo``, ``zh``, and ``xl``: the same in Spanish, German,
  French, Portuguese and Italian over the English conversations), and the German and
  Spanish dev questions of the update fixture ("now" and "past", over their histories in
  the same language);
* **unrelated** (a "no good match" is right): ``bench/data/offtopic.json`` and the dev
  half of ``bench/data/offtopic_xl.json`` (German, Spanish, French, Italian, Portuguese;
  ``--heldout`` adds its test half, reported apart) asked of every history.

Per set and question language: the best cosine's 5th / 50th / 95th percentile, whether
the cross-language floor applied, and floored (answerable) or answered (unrelated) before
(``FLOOR_COSINES_OTHER`` empty: the floor of recall 16) and after, with n and a 95 %
Wilson interval; semantic mode is read from the same cosine (it has no word signal). One
JSON object on the last line (``bench/results/floor_xl.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _floor_dev import ask, dev_questions, dev_stores, grouped
from _metrics import wilson
from _vcache import CachedEmbedder
from floor_forms import language
from mnemic.sessions.search import floor as floor_module, messages as messages_module
from recall import (
    LOCOMO,
)

HERE = Path(__file__).resolve().parent
MAX_FLOORED = 0.05
"""The calibration's bound: at most this share of answerable cross-language dev questions
floored."""
GRID = [round(0.70 + 0.005 * i, 3) for i in range(25)]


class Record:
    """``judge`` wrapped: the shipped verdict, the verdict of recall 16 (no cross-language
    floor) and the signals, for the last call."""

    def __init__(self) -> None:
        self.shipped = messages_module.judge
        self.last: dict[str, Any] | None = None

    def __call__(self, store: Any, fused: Any, query: Any, mode: str, model: Any) -> Any:
        after = self.shipped(store, fused, query, mode, model)
        with mock.patch.object(floor_module, "FLOOR_COSINES_OTHER", {}):
            before = self.shipped(store, fused, query, mode, model)
        near = sorted((f.semantic for f in fused if f.semantic is not None),
                      key=lambda s: -s.cosine)[: floor_module.LANGUAGE_CANDIDATES]  # fmt: skip
        found = store.messages_by_id([s.message_id for s in near])
        cross = bool(query.languages) and not floor_module._in_language(
            query.languages, [found[s.message_id] for s in near if s.message_id in found]
        )
        self.last = {"before": before.good, "after": after.good, "cosine": after.cosine,
                     "words": after.words, "cross": cross}  # fmt: skip
        return after


def percentiles(values: list[float]) -> list[float] | None:
    if not values:
        return None
    v = sorted(values)
    return [round(v[min(len(v) - 1, int(p * len(v)))], 3) for p in (0.05, 0.5, 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=LOCOMO, help="the LoCoMo file")
    parser.add_argument(
        "--heldout", action="store_true", help="also ask offtopic_xl.json's test half (once)"
    )
    args = parser.parse_args()
    t0 = time.perf_counter()
    embedder = CachedEmbedder()
    offtopic = json.loads((HERE / "data" / "offtopic.json").read_text(encoding="utf-8"))
    xl = json.loads((HERE / "data" / "offtopic_xl.json").read_text(encoding="utf-8"))
    splits = ("dev", "test") if args.heldout else ("dev",)
    record = Record()
    model = embedder.model_id
    rows: list[dict[str, Any]] = []

    def unrelated(group: str) -> list[tuple[str, str]]:
        return [("offtopic", t) for t in offtopic["questions"]] + [
            (f"offtopic_xl-{q['split']}", q["text"]) for q in xl["questions"]
            if q["split"] in splits
        ]  # fmt: skip

    with tempfile.TemporaryDirectory(prefix="mnemic-floor-xl-") as tmp:
        data, fixture, corpora = dev_stores(args.data, Path(tmp), embedder)
        asked = dev_questions(data, fixture, corpora, unrelated)
        print(f"{len(asked)} questions ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        for (kind, set_, _, text), last in ask(asked, corpora, embedder, record):
            rows.append({"kind": kind, "set": set_, "lang": language(text), "text": text,
                         **last})  # fmt: skip
        for c in corpora.values():
            c.store.close()
    usual = floor_module.FLOOR_COSINES[model]
    out: dict[str, Any] = {"model": model, "mode": "hybrid", "split": "dev",
                           "heldout": args.heldout, "floors": {
                               "usual": usual, "cjk": floor_module.FLOOR_COSINES_CJK[model],
                               "other": floor_module.FLOOR_COSINES_OTHER.get(model)}}  # fmt: skip
    out["results"] = report(rows, out["floors"])
    out["calibration"] = calibrate(rows, usual)
    out["changed"] = [
        {k: r[k] for k in ("kind", "set", "lang", "text", "cosine", "words", "before", "after")}
        for r in rows if r["before"] != r["after"]
    ]  # fmt: skip
    for name, r in out["results"].items():
        print(f"  {name:40s} {r['metric']:9s} n={r['n']:4d} cross {r['cross']:4d} "
              f"before {r['before']['value']:.3f} after {r['after']['value']:.3f} "
              f"semantic {r['semantic_before']['value']:.3f}->{r['semantic_after']['value']:.3f}"
              f"  cos {r['cosine_p5_p50_p95']}", flush=True)  # fmt: skip
    for c in out["calibration"][:6]:
        print("  calibrate", c, flush=True)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit("floor_xl", out)


def _semantic(r: dict[str, Any], floors: dict[str, float], cross: bool) -> bool:
    """The semantic mode's verdict from the same cosine (no word signal); ``cross``: with
    the cross-language floor."""
    floor = floors["cjk"] if r["lang"] == "zh" else floors["usual"]
    if cross and r["cross"] and r["lang"] != "zh":
        floor = min(floor, floors["other"])
    return r["cosine"] is not None and r["cosine"] >= floor


def report(rows: list[dict[str, Any]], floors: dict[str, float]) -> dict[str, Any]:
    """Per set and per set and language: answerable floored or unrelated answered, before
    and after, hybrid and semantic, with n and a Wilson interval."""
    out = {}
    for name, rs in grouped(rows).items():
        unrelated = name.startswith("unrelated")
        n = len(rs)
        figures = {}
        verdicts = {
            "before": lambda r: r["before"],
            "after": lambda r: r["after"],
            "semantic_before": lambda r: _semantic(r, floors, cross=False),
            "semantic_after": lambda r: _semantic(r, floors, cross=True),
        }
        for arm, good in verdicts.items():
            k = sum(good(r) == unrelated for r in rs)
            figures[arm] = {"value": round(k / n, 4), "k": k, "ci95": wilson(k, n)}
        out[name] = {
            "metric": "answered" if unrelated else "floored",
            "n": n,
            "cross": sum(r["cross"] for r in rs),
            "cosine_p5_p50_p95": percentiles([r["cosine"] for r in rs if r["cosine"] is not None]),
            **figures,
        }
    return out


def calibrate(rows: list[dict[str, Any]], usual: float) -> list[dict[str, Any]]:
    """Every cross-language floor of the grid (hybrid, dev): answerable cross-language
    questions floored, unrelated cross-language questions answered; those within the bound
    first, highest floor first."""
    cross = [r for r in rows if r["cross"] and "test" not in r["set"]]
    answerable = [r for r in cross if r["kind"] == "answerable"]
    unrelated = [r for r in cross if r["kind"] == "unrelated"]

    def good(r: dict[str, Any], floor: float) -> bool:
        words = r["words"] is not None and r["words"] >= floor_module.FLOOR_WORDS
        return words or (r["cosine"] is not None and r["cosine"] >= min(usual, floor))

    out = []
    for floor in GRID:
        floored = sum(not good(r, floor) for r in answerable)
        answered = sum(good(r, floor) for r in unrelated)
        out.append({"floor": floor,
                    "answerable_floored": round(floored / max(1, len(answerable)), 4),
                    "n_answerable": len(answerable), "k_floored": floored,
                    "unrelated_answered": round(answered / max(1, len(unrelated)), 4),
                    "n_unrelated": len(unrelated), "k_answered": answered,
                    "within": floored <= MAX_FLOORED * len(answerable)})  # fmt: skip
    out.sort(key=lambda c: (not c["within"], -c["floor"]))
    return out


if __name__ == "__main__":
    main()
