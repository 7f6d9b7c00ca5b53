"""Extra training data for the scanner's classifier, built deterministically (build time:
:mod:`_scan_training` reads it; not in the wheel).

The public corpus (``threats/train``) has many attacks written as plain sentences and few
honest ones: its benign rows are mostly shell one-liners and coding-rule lines. A model
fitted on it alone learns "a plain English sentence is an attack" and refuses honest
notes. These rows fill that gap, and none of them is an issue-12 regression case, an
XSTest prompt or a LoCoMo fact (those stay evaluation sets):

* :func:`expand_templates`: hand-written templates of notes, preferences, facts,
  questions and notes *about* prompts and safety (``bench/data/scan_templates.json``),
  their slots filled by a seeded generator; the ``train`` and ``dev`` templates are
  different phrasings, so the dev figures are not a copy of what was fitted;
* :func:`noise_rows`: short strings of the kind programs and tests write (``entry 3``,
  ``alpha beta gamma``, repeated words, lines of numbers, words of other scripts);
* :func:`docs_rows`: sentences of mnemic's own documentation (``docs/*.md`` except the
  scanner's page, and the README), minus any sentence the rule layer flags.

Every function is pure: the same inputs and seed give the same rows.
"""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path
from typing import Any

__all__ = ["FRAMINGS", "docs_rows", "expand_generated", "expand_templates", "noise_rows"]

_SLOT = re.compile(r"\{([a-z_]+?)(\d?)\}")
_TEMPLATE_SOURCE = "mnemic/hand-written@v2:bench/data/scan_templates.json"
_NOISE_SOURCE = "mnemic/generated@v2:noise"


def _lang(text: str) -> str:
    """A rough language tag for a generated row (by script; Latin text is 'en')."""
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    if re.search(r"[\uac00-\ud7af]", text):
        return "ko"
    if re.search(r"[\u4e00-\u9fff]", text):
        return "zh"
    if re.search(r"[\u0400-\u04ff]", text):
        return "ru"
    if re.search(r"[àâçéèêëîïôûùüÿœæ]", text) and ("L'" in text or " puis" in text):
        return "fr"
    if re.search(r"\b(?:Der|Nutzer|Wie|kann)\b", text):
        return "de"
    if re.search(r"\b(?:usuário|usuario|prefiere)\b", text):
        return "pt" if "usuário" in text else "es"
    return "en"


def _fill(template: str, slots: dict[str, list[str]], rng: random.Random) -> str:
    used: dict[str, str] = {}

    def pick(m: re.Match[str]) -> str:
        key = m.group(1) + m.group(2)
        if key not in used:
            choices = slots[m.group(1)]
            taken = set(used.values())
            free = [c for c in choices if c not in taken] or choices
            used[key] = rng.choice(free)
        return used[key]

    return _SLOT.sub(pick, template)


def expand_templates(
    path: Path, part: str, *, seed: int = 12, per_template: int = 12
) -> list[dict[str, Any]]:
    """Rows of the ``part`` ("train" or "dev") templates: up to ``per_template`` distinct
    fillings of each, as corpus rows (``text``, ``label``, ``category``, ``lang``,
    ``source``)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    slots: dict[str, list[str]] = doc["slots"]
    rng = random.Random(f"{seed}:{part}")
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for category, templates in sorted(doc[part].items()):
        label = "attack" if category.startswith("attack") else "benign"
        for template in templates:
            made = 0
            for _ in range(per_template * 4):
                text = _fill(template, slots, rng)
                if text in seen:
                    continue
                seen.add(text)
                rows.append(
                    {
                        "text": text,
                        "label": label,
                        "category": category,
                        "lang": _lang(text),
                        "source": f"{_TEMPLATE_SOURCE}#{part}",
                    }
                )
                made += 1
                if made == per_template:
                    break
    return rows


#: The framings of :func:`expand_generated`, each used for attacks and honest notes alike.
FRAMINGS = ("command", "favour", "policy", "preference", "fact", "team", "changelog")
_GEN_SOURCE = "mnemic/generated@v1:scan_generated"
_CORE_SLOT = re.compile(r"\{([a-z_]+)\}")


def _frame(frame: str, core: str) -> str:
    if "{X}" in frame:
        return frame.replace("{X}", core[:1].upper() + core[1:])
    return frame.replace("{x}", core)


def _fill_core(core: str, slots: dict[str, list[str]], rng: random.Random) -> str:
    return _CORE_SLOT.sub(lambda m: rng.choice(slots[m.group(1)]), core)


def expand_generated(
    directory: Path,
    part: str,
    *,
    seed: int = 12,
    per_core: int = 7,
    frames_from: Path | None = None,
) -> list[dict[str, Any]]:
    """Rows of the generated families of ``directory`` (scanner 12) for ``part``.

    ``_frames.json`` holds, per language and part, the phrasings of each of
    :data:`FRAMINGS` around a core ``{x}``; every other ``*.json`` file is one family:
    ``slots`` (per language: the objects a core names), and ``attack`` and ``honest``
    cores per language and part (an infinitive or bare verb phrase, so that any framing
    takes it; ``slots["*"]`` serves every language). Each core gives ``per_core`` rows,
    each in a different framing (a seeded cycle over :data:`FRAMINGS`, the same for
    attacks and honest notes, so the framing is no sign of either) and with its slots
    filled by a seeded generator. Train and dev
    use different cores and different framing phrasings. Rows carry the core's language,
    so the fit's per-language balance sees them. A family may set its own ``per_core``
    per part (a family whose cores combine two slot lists asks for every combination).
    ``frames_from`` names the directory whose ``_frames.json`` wraps the cores (default
    ``directory``): scanner 15's families outside the fit use the fit's framings.
    """
    framings = (frames_from or directory) / "_frames.json"
    frames = json.loads(framings.read_text(encoding="utf-8"))["frames"]
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in sorted(directory.glob("*.json")):
        if path.name.startswith("_"):
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        family = doc["family"]
        fillings = doc.get("per_core", {}).get(part, per_core)
        for label in ("attack", "honest"):
            for lang, parts in sorted(doc[label].items()):
                given = doc.get("slots", {})
                slots = {**given.get("*", {}), **given.get(lang, {})}
                rng = random.Random(f"{seed}:{part}:{family}:{label}:{lang}")
                kinds = list(FRAMINGS)
                rng.shuffle(kinds)
                turn = 0
                for core in parts.get(part, []):
                    for _ in range(fillings):
                        kind = kinds[turn % len(kinds)]
                        turn += 1
                        frame = rng.choice(frames[lang][part][kind])
                        text = _frame(frame, _fill_core(core, slots, rng))
                        if text in seen:
                            continue
                        seen.add(text)
                        rows.append(
                            {
                                "text": text,
                                "label": "attack" if label == "attack" else "benign",
                                "category": f"generated_{family}",
                                "lang": lang,
                                "framing": kind,
                                "family": family,
                                "source": f"{_GEN_SOURCE}/{path.name}#{part}",
                            }
                        )
    return rows


# Letters of a few scripts, for strings of "words" that mean nothing.
_SCRIPTS = (
    string.ascii_lowercase,
    "абвгдежзийклмнопрстуфхцчшщыэюя",
    "αβγδεζηθικλμνξοπρστυφχψω",
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴切",
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん",
)


_NOISE_WORDS = (
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "entry",
    "note",
    "item",
    "fact",
    "value",
    "record",
    "line",
    "row",
    "draft",
    "sample",
    "test",
    "data",
    "foo",
    "bar",
    "baz",
    "qux",
    "spam",
    "eggs",
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "hello",
    "world",
    "old",
    "new",
    "first",
    "second",
    "third",
    "last",
    "plain",
    "text",
    "words",
    "here",
    "paragraph",
    "section",
    "chunk",
    "block",
    "memo",
    "todo",
    "done",
    "apple",
    "orange",
    "river",
    "stone",
    "blue",
    "green",
    "red",
    "one",
    "two",
    "three",
    "seven",
    "ten",
    "hundred",
    "long",
    "short",
    "description",
    "name",
    "title",
    "summary",
)


# Stems of enumerated placeholders (word1 word2 ..., key_17, user42) that tests generate.
_STEMS = ("word", "key", "token", "user", "file", "pass", "item", "node", "host", "x", "w")
_HARMLESS_COMMANDS = (
    "echo hi",
    "echo done",
    "ls -la",
    "make test",
    "npm ci",
    "pytest -q",
    "cargo build",
    "git status",
    "cat README.md",
    "python -m venv .venv",
)
# Letter blocks of scripts rarely seen in notes (Runic, Ogham, Georgian, Armenian,
# Ethiopic, Cherokee, Thai, Tamil, Hebrew, Greek extended).
_BLOCKS = (
    (0x16A0, 0x16EA),
    (0x1681, 0x169A),
    (0x10D0, 0x10FA),
    (0x0531, 0x0556),
    (0x1200, 0x1248),
    (0x13A0, 0x13F4),
    (0x0E01, 0x0E30),
    (0x0B85, 0x0BB9),
    (0x05D0, 0x05EA),
    (0x1F00, 0x1F15),
)


def noise_rows(*, seed: int = 12, count: int = 1000) -> list[dict[str, Any]]:
    """Strings of the kind programs and tests store: counters, placeholder words, repeated
    phrases, letters of other scripts. Benign: they carry no instruction at all."""
    rng = random.Random(f"{seed}:noise")
    words = _NOISE_WORDS
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    while len(rows) < count:
        kind = rng.randrange(12) if rng.random() < 0.8 else 9
        if kind == 0:
            text = " ".join(rng.choice(words) for _ in range(rng.randint(2, 8)))
        elif kind == 1:
            text = f"{rng.choice(words)} {rng.randint(0, 999)}"
        elif kind == 2:
            phrase = " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
            text = (" " if rng.random() < 0.5 else ". ").join([phrase] * rng.randint(3, 40))
        elif kind == 3:
            text = "\n".join(f"{rng.choice(words)} {i}" for i in range(rng.randint(3, 30)))
        elif kind == 4:
            script = rng.choice(_SCRIPTS)
            text = " ".join(
                "".join(rng.choice(script) for _ in range(rng.randint(1, 6)))
                for _ in range(rng.randint(3, 9))
            )
        elif kind == 5:
            word, source = rng.choice(words).capitalize(), rng.choice(words)
            text = f"{word} {rng.randint(0, 99)} from {source}."
        elif kind == 6:
            text = " ".join(
                "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9)))
                for _ in range(rng.randint(3, 10))
            )
        elif kind == 7:
            a, b = rng.choice(words), rng.choice(words)
            text = "\n".join(f"line {i:0{rng.randint(1, 5)}d} of the {a} {b}" for i in range(40))
        elif kind == 8:
            cmd = rng.choice(_HARMLESS_COMMANDS)
            head, tail = rng.choice(words).capitalize(), rng.choice(words)
            text = f"# {head}\n```sh\n# {rng.choice(words)} {tail}\n{cmd}\n```\n{tail}\n"
        elif kind == 10:
            ch = rng.choice(string.ascii_letters + string.digits + "-_=.#*")
            text = f"# {rng.choice(string.ascii_uppercase)}\n{ch * rng.randint(20, 2000)}\n"
        elif kind == 9:
            stem, start = rng.choice(words + _STEMS), rng.randint(0, 5000)
            sep = rng.choice(("", "_", "-"))
            text = f"{rng.choice(words)} {rng.randint(0, 9)}: " + " ".join(
                f"{stem}{sep}{j}" for j in range(start, start + rng.randint(5, 120))
            )
        else:
            block = rng.choice(_BLOCKS)
            text = " ".join(
                "".join(chr(rng.randint(*block)) for _ in range(rng.randint(1, 7)))
                for _ in range(rng.randint(2, 8))
            )
        if text not in seen:
            seen.add(text)
            lang = _lang(text)
            rows.append(
                {
                    "text": text,
                    "label": "benign",
                    "category": "benign_noise",
                    "lang": lang if lang != "en" else "xx",
                    "source": _NOISE_SOURCE,
                }
            )
    return rows


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'])")
_MD_NOISE = re.compile(r"`{3}.*?`{3}", re.S)


def docs_rows(root: Path, commit: str) -> list[dict[str, Any]]:
    """Sentences of the project's own documentation (never ``docs/scanner.md``, which
    quotes attacks), minus any sentence the rule layer flags."""
    from mnemic.scan.matching import _rule_scan, _table

    table = _table("memory")
    files = sorted(p for p in (root / "docs").glob("*.md") if p.name != "scanner.md")
    files.append(root / "README.md")
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in files:
        text = _MD_NOISE.sub(" ", path.read_text(encoding="utf-8"))
        rel = path.relative_to(root).as_posix()
        for block in re.split(r"\n\s*\n|\n(?=\s*[-*|#] )", text):
            flat = " ".join(block.split()).lstrip("-*#| ").strip()
            for sentence in _SENTENCE_END.split(flat):
                s = sentence.strip(" |")
                if not 25 <= len(s) <= 400 or s in seen or s.count("|") > 2:
                    continue
                if _rule_scan(s, table).blocked:
                    continue
                seen.add(s)
                rows.append(
                    {
                        "text": s,
                        "label": "benign",
                        "category": "benign_doc",
                        "lang": "en",
                        "source": f"mnemic/docs@{commit}:{rel}",
                    }
                )
    return rows
