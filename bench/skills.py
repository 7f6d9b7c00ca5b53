"""Skills by meaning: recall of the right skill per retrieval mode.

Usage: ./x bench skills

``bench/data/skills-queries.json`` holds 50 hand-written skills (name, category,
description, tags) and, for each, a request a user might make in English and one in
Chinese, written once and not used to choose anything (the skill text recipe was fixed
before this data existed). The skills are created in a throwaway home through the
store; each request is ranked by :func:`mnemic.ops.skill_search.search_skills` (what
``skills_list`` with a ``query`` and ``mnemic skills search`` run) in the lexical,
semantic and hybrid modes, and the right skill's rank gives recall@1 and @3 per mode and
language. Latency per search (query embedding included, skill vectors cached, as in a
running server) is reported too.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize_ms
from mnemic.home import Home
from mnemic.ops.skill_search import search_skills
from mnemic.sessions.search.retrieval import default_embedder_loader
from mnemic.skills import SkillChange, SkillStore

DATA = Path(__file__).resolve().parent / "data" / "skills-queries.json"
MODES = ("lexical", "semantic", "hybrid")


def skill_md(skill: dict[str, Any]) -> str:
    lines = ["---", f"name: {skill['name']}", f"description: {json.dumps(skill['description'])}"]
    if skill["tags"]:
        lines.append(f"tags: [{', '.join(skill['tags'])}]")
    return "\n".join([*lines, "---", f"# {skill['name']}", "1. Do it.", ""])


def main() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        store = SkillStore.open(Home.open(Path(tmp) / "home"))
        for skill in data["skills"]:
            payload = {"content": skill_md(skill), "category": skill["category"]}
            store.apply(SkillChange("create", skill["name"], payload))
        # load the model and embed the skills once, as a running server would have
        search_skills(store, "warm up", mode="semantic", embedder_loader=default_embedder_loader)
        result: dict[str, Any] = {"skills": len(data["skills"]), "modes": {}}
        for mode in MODES:
            by_lang: dict[str, dict[str, float]] = {}
            times: list[float] = []
            for lang in sorted({q["lang"] for q in data["queries"]}):
                asked = [q for q in data["queries"] if q["lang"] == lang]
                at1 = at3 = 0
                for q in asked:
                    start = time.perf_counter()
                    found = search_skills(
                        store,
                        q["query"],
                        mode=mode,
                        limit=3,
                        embedder_loader=default_embedder_loader,
                    )
                    times.append(time.perf_counter() - start)
                    assert found.retrieval == mode, found.notice
                    names = [h.info.name for h in found.hits]
                    at1 += names[:1] == [q["skill"]]
                    at3 += q["skill"] in names
                by_lang[lang] = {
                    "queries": len(asked),
                    "recall@1": round(100 * at1 / len(asked), 1),
                    "recall@3": round(100 * at3 / len(asked), 1),
                }
                print(f"{mode:8} {lang}: {by_lang[lang]}", flush=True)
            result["modes"][mode] = {**by_lang, "latency": summarize_ms(times)}
    emit("skills", result)


if __name__ == "__main__":
    main()
