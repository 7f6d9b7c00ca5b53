"""Build time: write the intent layer's lexicon index
(``src/mnemic/scan/_lexicon_index.json``) from the concepts of :mod:`mnemic.scan.lexicon`
(not in the wheel; the index is).

Building the index takes a process about 10 ms (every key split, folded and sorted into
tables); shipped prebuilt it is read instead. It ships as data (JSON, laid out as
:func:`mnemic.scan.intent.decode_index` describes), not as a Python module of literals: a
1 MB module cost about 1 s of CPU to compile in every process that found no bytecode for
it (a source checkout, a read-only install, ``PYTHONDONTWRITEBYTECODE``). Run this after
editing the lexicon (or how :func:`mnemic.scan.intent.build_index` indexes it)::

    .venv/bin/python bench/_scan_lexicon.py

tests/test_scan_intent.py fails while the shipped index differs from what the lexicon
builds, and until then the scanner builds the index itself whenever the lexicon's checksum
is not the one the file records.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from mnemic.scan.intent import INDEX_FILE, INDEX_FORMAT, build_index, decode_index, source_crc
from mnemic.scan.lexicon import CONCEPTS

__all__ = ["PATH", "render", "write"]

PATH = Path(__file__).resolve().parents[1] / "src" / "mnemic" / "scan" / INDEX_FILE

_H = TypeVar("_H", bound=Hashable)
_Words = tuple[tuple[str, bool], ...]


class _Numbered(dict[_H, int]):
    """Distinct values, numbered in the order first met."""

    def of(self, value: _H) -> int:
        return self.setdefault(value, len(self))


def render() -> str:
    """The text of the index file for the current lexicon (one field a line)."""
    index = build_index(CONCEPTS)
    crc = source_crc(CONCEPTS)
    concepts: _Numbered[str] = _Numbered()
    met: _Numbered[_Words] = _Numbered()  # keys in the order first met
    for found in [*index.exact.values(), *index.prefix.values(), *index.pairs.values()]:
        for words, _ in found:
            met.of(words)
    keys: _Numbered[_Words] = _Numbered()  # numbered as the file holds them: by size
    for words in sorted(met, key=len):
        keys.of(words)
    entries: _Numbered[tuple[int, int]] = _Numbered()

    def table(items: Iterable[tuple[str, tuple[tuple[_Words, str], ...]]]) -> dict[str, Any]:
        names, sizes, ids = [], [], []
        for name, found in items:
            names.append(name)
            sizes.append(len(found))
            ids += [entries.of((keys[words], concepts.of(c))) for words, c in found]
        return {"keys": names, "sizes": sizes, "entries": ids}

    def subs(items: tuple[tuple[str, str], ...]) -> dict[str, Any]:
        return {"keys": [k for k, _ in items], "concepts": [concepts.of(c) for _, c in items]}

    pairs = table((a, v) for (a, _), v in index.pairs.items())
    tables = {
        "exact": table(index.exact.items()),
        "prefix": table(index.prefix.items()),
        "pairs": {**pairs, "seconds": [b for _, b in index.pairs]},
        "subs": subs(index.subs),
        "subs_ascii": subs(index.subs_ascii),
    }
    # whole words first, then prefixes, each in the order first met
    specs = _Numbered[tuple[str, bool]]()
    for spec in sorted((s for k in keys for s in k), key=lambda s: s[1]):
        specs.of(spec)
    start = sum(1 for _, is_prefix in specs if not is_prefix)
    sizes = sorted(Counter(map(len, keys)).items())
    fields: dict[str, Any] = {
        "format": INDEX_FORMAT,
        "source_crc": crc,
        "concepts": list(concepts),
        "words": [w for w, _ in specs],
        "prefixes_from": start,
        "keys_of_size": [list(size) for size in sizes],
        "key_words": [specs[s] for k in keys for s in k],
        "entry_key": [k for k, _ in entries],
        "entry_concept": [c for _, c in entries],
        **tables,
    }
    lines = [
        f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False, separators=(',', ':'))}"
        for k, v in fields.items()
    ]
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    # The file must give back exactly what was built.
    got_crc, got = decode_index(text)
    assert got_crc == crc, "checksum lost in the index file"
    for name in ("exact", "prefix", "pairs", "subs", "subs_ascii"):
        assert getattr(got, name) == getattr(index, name), f"{name} does not survive the file"
    return text


def write(path: Path = PATH) -> bool:
    """Write the index file; whether it changed."""
    text = render()
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


if __name__ == "__main__":
    changed = write()
    print(f"{PATH}: {'written' if changed else 'unchanged'}")
