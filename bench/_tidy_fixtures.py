"""The tidy benchmark's stores: planted duplicates, paraphrases, contradictions and honest
look-alikes among unrelated entries, with the truth about every pair.

:func:`split` cuts the families of :mod:`_tidy_families` into a dev and a test half (by
language, alternating in name order), so thresholds tuned on dev are reported on
wordings they never saw. :func:`build_stores` draws stores from one half with a fixed
seed. Each store holds:

* 2 **duplicates**: an entry and a copy with small edits (case, punctuation, a
  "Note:" prefix, "User" / "The user");
* 2 **paraphrases**: the same fact in two of its family's wordings;
* 2 **contradictions**: a fact and a later entry that changes its value (a version, a
  port, a day, a tool) or says it stopped being true;
* 3 **honest look-alikes**: two true facts that look alike: the same wording about
  another key (often with the same value), a change of another key's value ("the
  production database was upgraded to..." beside "the staging database runs..."), or
  another fact about the same key;
* up to 6 unrelated entries (as many as the topics left allow).

Every topic appears once per store, so two entries of different families are unrelated
(a pair tidy must leave alone). Entries carry times (days before ``NOW``); a
contradiction's new entry is the later one. Entries are in time order, as adds append.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from _tidy_families import FAMILIES, Family

NOW = 1_780_000_000.0
DAY = 86_400.0

PLAN = ("duplicate",) * 2 + ("paraphrase",) * 2 + ("contradiction",) * 2 + ("honest",) * 3
FILLERS = 6
KINDS = ("duplicate", "paraphrase", "contradiction", "honest")


@dataclass
class Pair:
    kind: str
    subtype: str
    a: int
    b: int
    newer: int | None = None
    """The entry that supersedes the other (contradictions)."""


@dataclass
class Store:
    entries: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)
    langs: dict[int, str] = field(default_factory=dict)

    def related(self) -> set[frozenset[int]]:
        return {frozenset((p.a, p.b)) for p in self.pairs}


def topic(fam: Family) -> str:
    """What a family is about, whatever its language: a store holds one family per topic
    (two "the backend uses Python" facts in two languages would be related, not
    unrelated as the labels say)."""
    return fam.name.split("_", 1)[1] if fam.name[:3] in ("de_", "es_", "fr_", "zh_") else fam.name


def split(families: list[Family] = FAMILIES) -> dict[str, list[Family]]:
    out: dict[str, list[Family]] = {"dev": [], "test": []}
    for lang in sorted({f.lang for f in families}):
        for i, fam in enumerate(
            sorted((f for f in families if f.lang == lang), key=lambda f: f.name)
        ):
            out["dev" if i % 2 == 0 else "test"].append(fam)
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def render(template: str, k: str, v: str) -> str:
    text = template.format(k=k, v=v)
    return _cap(re.sub(r"\s+", " ", text).strip())


_SUBJECTS = {
    "en": [("User ", "The user "), ("The user ", "User ")],
    "de": [("Der Nutzer ", "Nutzer "), ("Nutzer ", "Der Nutzer ")],
    "es": [("El usuario ", "Usuario "), ("Usuario ", "El usuario ")],
    "fr": [("L'utilisateur ", "Utilisateur "), ("Utilisateur ", "L'utilisateur ")],
    "zh": [("用户", "该用户")],
}
_PREFIX = {"en": "Note: ", "de": "Hinweis: ", "es": "Nota: ", "fr": "Note : ", "zh": "备注："}


def perturb(text: str, lang: str, rng: random.Random) -> str:
    """A near-copy of ``text``: one or two small edits that keep every word of the fact."""
    edits = ["case", "prefix", "subject", "punct", "space"]
    rng.shuffle(edits)
    out = text
    for edit in edits:
        before = out
        if edit == "case":
            out = out[:1].lower() + out[1:]
        elif edit == "prefix":
            out = _PREFIX[lang] + out[:1].lower() + out[1:] if lang != "zh" else _PREFIX[lang] + out
        elif edit == "subject":
            for old, new in _SUBJECTS[lang]:
                if out.startswith(old):
                    out = new + out[len(old) :]
                    break
        elif edit == "punct":
            out = out.rstrip(".。") if out[-1:] in ".。" else out + ("。" if lang == "zh" else ".")
        elif edit == "space":
            out = out.replace(" ", "  ", 1) if " " in out else out
        if out != before and out != text and rng.random() < 0.5:
            break
    return out if out != text else text + "!"


def _value(fam: Family, rng: random.Random, not_: str | None = None) -> str:
    return rng.choice([v for v in fam.values if v != not_])


def _key(fam: Family, rng: random.Random, not_: str | None = None) -> str:
    return rng.choice([k for k in fam.keys if k != not_])


def build_store(pool: list[Family], rng: random.Random) -> Store | None:
    store = Store()
    items: list[tuple[float, str, str, tuple[int, int]]] = []
    # (days ago, text, lang, (spec, side)); pairs resolved to indices after sorting

    contra_pool = [f for f in pool if f.update or f.negate]
    honest_pool = list(pool)
    used: set[str] = set()

    def pick(candidates: list[Family]) -> Family:
        fam = rng.choice([f for f in candidates if topic(f) not in used])
        used.add(topic(fam))
        return fam

    specs: list[tuple[str, str, str, str, float, float, str]] = []
    for kind in PLAN:
        if kind == "duplicate":
            fam = pick(pool)
            k, v = _key(fam, rng), _value(fam, rng)
            text = render(rng.choice(fam.base), k, v)
            a, b, sub = text, perturb(text, fam.lang, rng), "near_copy"
        elif kind == "paraphrase":
            fam = pick(pool)
            k, v = _key(fam, rng), _value(fam, rng)
            i, j = rng.sample(range(len(fam.base)), 2)
            a, b, sub = render(fam.base[i], k, v), render(fam.base[j], k, v), "rewording"
        elif kind == "contradiction":
            fam = pick(contra_pool)
            k, v = _key(fam, rng), _value(fam, rng)
            a = render(rng.choice(fam.base), k, v)
            if fam.negate and (not fam.update or rng.random() < 0.35):
                b, sub = render(rng.choice(fam.negate), k, v), "negation"
            else:
                v2 = _value(fam, rng, not_=v)
                b = render(rng.choice(fam.update), k, v2)
                sub = "number" if re.search(r"\d", v + v2) else "word"
        else:
            fam = pick(honest_pool if rng.random() < 0.5 else [f for f in pool if f.aspect] or pool)
            k, v = _key(fam, rng), _value(fam, rng)
            i = rng.randrange(len(fam.base))
            a = render(fam.base[i], k, v)
            if fam.aspect and rng.random() < 0.4:
                b, sub = render(rng.choice(fam.aspect), k, v), "same_key_other_fact"
            elif fam.update and rng.random() < 0.3:  # another key's value changed
                k2 = _key(fam, rng, not_=k)
                b, sub = render(rng.choice(fam.update), k2, _value(fam, rng)), "other_key_update"
            else:
                k2 = _key(fam, rng, not_=k)
                v2 = v if rng.random() < 0.5 else _value(fam, rng)
                j = i if rng.random() < 0.5 else rng.randrange(len(fam.base))
                b, sub = render(fam.base[j], k2, v2), "other_key"
        t_a = rng.uniform(5, 60)
        t_b = rng.uniform(0.5, t_a - 0.5) if kind == "contradiction" else rng.uniform(0.5, 60)
        specs.append((kind, sub, a, b, t_a, t_b, fam.lang))
    for _ in range(FILLERS):
        if all(topic(f) in used for f in pool):
            break
        fam = pick(pool)
        text = render(rng.choice(fam.base), _key(fam, rng), _value(fam, rng))
        specs.append(("filler", "", text, "", rng.uniform(0.5, 60), 0.0, fam.lang))

    for n, (kind, _sub, a, b, t_a, t_b, lang) in enumerate(specs):
        items.append((t_a, a, lang, (n, 0)))
        if kind != "filler":
            items.append((t_b, b, lang, (n, 1)))
    if len({text for _, text, _, _ in items}) < len(items):
        return None  # two renderings coincide: draw the store again
    items.sort(key=lambda it: -it[0])  # oldest first (the most days ago)
    where: dict[tuple[int, int], int] = {}
    for days, text, lang, tag in items:
        where[tag] = len(store.entries)
        store.langs[len(store.entries)] = lang
        store.entries.append(text)
        store.times.append(NOW - days * DAY)
    for n, (kind, sub, *_rest) in enumerate(specs):
        if kind != "filler":
            ia, ib = where[(n, 0)], where[(n, 1)]
            store.pairs.append(Pair(kind, sub, ia, ib, ib if kind == "contradiction" else None))
    return store


def build_stores(pool: list[Family], count: int, seed: int) -> list[Store]:
    rng = random.Random(seed)
    out: list[Store] = []
    while len(out) < count:
        store = build_store(pool, rng)
        if store is not None:
            out.append(store)
    return out
