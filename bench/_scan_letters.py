"""Scanner 34, step 1: find lexicon keys written with an ASCII stand-in for a letter the
intent layer's folding keeps (``ø æ ł ı đ ð þ ə ß``...), over the whole lexicon.

Needs ``wordfreq`` (not a dependency of mnemic; its word lists ship inside the package):
run it with a Python that has it and this checkout's ``src`` on the path::

    python -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq
    PYTHONPATH=src /tmp/wf/bin/python bench/_scan_letters.py > /tmp/candidates.txt

Prints, most frequent first, every ASCII key word (or prefix) that is the ASCII look of
words with a kept letter more frequent than the word itself, with the languages, the real
words and the keys it stands in. Candidates are read by hand (a key of another language
spelt so is no defect); ``tests/test_scan_letters.py`` keeps the ones fixed.
"""

# ruff: noqa
import sys, unicodedata, json

from wordfreq import iter_wordlist, word_frequency
from mnemic.scan import lexicon
from mnemic.scan.intent import _fold

ASCII = {
    "ø": "o",
    "æ": "ae",
    "ł": "l",
    "ı": "i",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ə": "e",
    "ß": "ss",
    "œ": "oe",
    "ħ": "h",
    "ŋ": "n",
    "ɓ": "b",
    "ɗ": "d",
    "ƙ": "k",
    "ŧ": "t",
    "ĸ": "k",
    "ƒ": "f",
}
ASCII1 = dict(ASCII)
ASCII1["æ"] = "a"
ASCII1["þ"] = "t"
ASCII1["ß"] = "s"


def standin(w, m):
    return "".join(m.get(c, c) for c in w)


LANGS = [
    "da",
    "nb",
    "pl",
    "tr",
    "sh",
    "vi",
    "is",
    "de",
    "sv",
    "fi",
    "hu",
    "lv",
    "lt",
    "sk",
    "sl",
    "cs",
    "ro",
    "fr",
    "es",
    "pt",
    "it",
    "nl",
    "ca",
    "ms",
    "id",
    "fil",
    "en",
]
N = 150000
# key words from lexicon
keys = []
for c, b in lexicon.CONCEPTS.items():
    for raw in b.split(";"):
        k = " ".join(raw.split())
        if k:
            keys.append((c, k))
keywords = {}
for c, k in keys:
    f = _fold(k) if not k.isascii() else k.lower()
    for w in f.replace("-", " ").split():
        keywords.setdefault(w, set()).add((c, k))
stand = {}  # standin -> {(lang, real, freq)}
plain = {}  # ascii-ish folded word -> freq
for lang in LANGS:
    for i, w in enumerate(iter_wordlist(lang)):
        if i >= N:
            break
        f = _fold(w)
        fr = word_frequency(w, lang)
        if any(ch in ASCII for ch in f):
            for m in (ASCII, ASCII1):
                s = standin(f, m)
                stand.setdefault(s, []).append((lang, f, fr))
        else:
            plain[f] = max(plain.get(f, 0), fr)
out = []
import bisect

skeys = sorted(stand)
for kw, owners in keywords.items():
    if not kw.isascii():
        continue
    pre = kw.endswith("*")
    w = kw.rstrip("*")
    if len(w) < 3:
        continue
    if pre:
        j = bisect.bisect_left(skeys, w)
        hits = []
        while j < len(skeys) and skeys[j].startswith(w):
            hits += [h for h in stand[skeys[j]] if h[1][: len(w)] != w]
            j += 1
        real_fr = sum(fr for p, fr in plain.items() if p.startswith(w)) if False else None
    else:
        hits = [h for h in stand.get(w, []) if h[1] != w]
    if not hits:
        continue
    hf = sum(h[2] for h in hits)
    pf = plain.get(w, 0)
    if hf > pf:
        out.append(
            (
                hf,
                pf,
                kw,
                sorted(set((h[0], h[1][: len(w) + 4]) for h in hits))[:6],
                sorted(owners)[:4],
            )
        )
out.sort(reverse=True)
for o in out:
    print(f"{o[0]:.2e} {o[1]:.2e} {o[2]!r} {o[3]} {o[4]}")
