"""Scanner 3's own families: generated requests and honest notes, split by template.

``bench/data/scan_families.json`` holds hand-written templates in eight languages and
mixed text: attack families (concealment, credential harvesting, persistence, tool
abuse, safety override in polite words, exfiltration by command, mixed-language; split
instructions as pairs of entries) and honest families (security engineers' notes,
runbooks, password policies, preferences, memory housekeeping). :func:`expand` fills each
attack template's slots (credential kinds, addresses, skills, handles) several times and
wraps each filling in a politeness form of its language ("please ...", "as a favour
...", "per the new policy ..."); honest templates are used as they are.

Every template is a *source*: :func:`expand` deals the templates of each (label, family,
language) to train / dev / test in a seeded shuffle, so the test split never shares a
template with what the scanner was tuned on (train and dev), only the family and the
language. Pure and deterministic: the same file and seed give the same rows.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

__all__ = ["SEED", "expand", "pairs"]

#: The seed of the split and of the fillings.
SEED = 29
_DEAL = ("train", "test", "dev")
_SLOT = re.compile(r"\{([a-z]+)\}")
_FILLINGS = 4


def _fill(template: str, slots: dict[str, list[str]], rng: random.Random) -> str:
    def pick(m: re.Match[str]) -> str:
        name = m.group(1)
        if name == "handle":
            return f"{rng.getrandbits(32):08x}"
        if name == "domain":
            return "helpdesk-verify.net"
        return rng.choice(slots[name])

    return _SLOT.sub(pick, template)


def _sentence(text: str) -> str:
    text = text[0].upper() + text[1:] if text else text
    return text if text[-1:] in ".!?。！？" else text + ("。" if _dense(text) else ".")


def _dense(text: str) -> bool:
    return bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text))


def _deal(keys: list[str], salt: str, seed: int) -> dict[str, str]:
    order = sorted(keys)
    random.Random(f"{seed}:{salt}").shuffle(order)
    return {k: _DEAL[i % len(_DEAL)] for i, k in enumerate(order)}


def expand(path: Path, *, seed: int = SEED) -> list[dict[str, Any]]:
    """Rows ``{text, label, family, lang, source, split}`` of the single-entry families."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    slots_by_lang: dict[str, dict[str, list[str]]] = doc["slots"]
    rows: list[dict[str, Any]] = []
    for label in ("attack", "honest"):
        for family, by_lang in sorted(doc[label].items()):
            for lang, templates in sorted(by_lang.items()):
                sources = {f"{family}/{lang}/{i}": t for i, t in enumerate(templates)}
                split = _deal(list(sources), f"{label}:{family}:{lang}", seed)
                slots = slots_by_lang.get(lang, slots_by_lang["en"])
                rng = random.Random(f"{seed}:{family}:{lang}")
                for source, template in sources.items():
                    texts: list[str] = []
                    if label == "honest":
                        texts.append(template)
                    else:
                        for _ in range(_FILLINGS * 3):
                            wrap = rng.choice(slots["wrap"])
                            text = _sentence(wrap.format(_fill(template, slots, rng)))
                            if text not in texts:
                                texts.append(text)
                            if len(texts) == _FILLINGS:
                                break
                    for text in texts:
                        rows.append(
                            {
                                "text": text,
                                "label": "attack" if label == "attack" else "benign",
                                "family": family,
                                "lang": lang,
                                "source": f"mnemic/families@v3:{source}",
                                "split": split[source],
                            }
                        )
    return rows


def pairs(path: Path, *, seed: int = SEED) -> list[dict[str, Any]]:
    """Split instructions: ``{first, second, lang, source, split}``, two entries each
    harmless-looking alone (the second refers to the first)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    slots_by_lang: dict[str, dict[str, list[str]]] = doc["slots"]
    out: list[dict[str, Any]] = []
    for lang, items in sorted(doc["split"].items()):
        sources = {f"split_instruction/{lang}/{i}": p for i, p in enumerate(items)}
        split = _deal(list(sources), f"split:{lang}", seed)
        rng = random.Random(f"{seed}:split:{lang}")
        slots = slots_by_lang.get(lang, slots_by_lang["en"])
        for source, (first, second) in sources.items():
            for _ in range(2):
                out.append(
                    {
                        "first": _fill(first, slots, rng),
                        "second": _fill(second, slots, rng),
                        "lang": lang,
                        "source": f"mnemic/families@v3:{source}",
                        "split": split[source],
                    }
                )
    return out
