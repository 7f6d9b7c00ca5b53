"""The learned pair layer: a linear model that reads a pair the rules left apart.

The rules of :mod:`.detect` were written from our own wordings and carry little to a
stranger's (``docs/lifecycle.md``, tidy 15). This layer is fitted on pairs written by
strangers (``bench/tidy_pairs.py``) and reads a pair through :func:`features`: the
rules' signals and verdict, word and character overlaps, the words (and, in scripts
written without spaces, character pairs) only the older entry or only the newer one
holds, numbers, scripts and lengths, and, in the model for that case, the embedder's
cosine. Which words mark a change ("now", "switched", "ya no") is learnt from the
pairs, not listed.

Two heads each give a probability: ``merge`` (one fact said twice) and ``change`` (the
newer entry replaces the older one). :mod:`.plan` asks the model only about pairs the
rules found nothing in, and proposes (never applies) when a head reaches its decision
point, chosen on the training sets' dev shares so that no honest pair there got a
proposal; the reason names the signals that weighed most.

The weights ship inside the package (``pair_model.bin``): a magic line, one JSON header
line (feature version, bucket bits, each case's heads with bias and decision point, the
SHA-256 of the weights, the training's provenance), then the float32 weights,
little-endian, one block of ``2 ** bits`` per case and head. A file whose weights do not
match the digest its header records is refused (:class:`PairModelError`). Inference is
pure Python: one ``crc32`` per feature.

The file shipped is the output of ``./x bench tidy_pairs --fit --recipe today`` (tidy
34, ``docs/lifecycle.md``): tidy 15's recipe (feature version 1; the generated dev
families, fresh1-3 and the strangers' ``a``-``d``; its decision rule) fitted on what
today's rules say of each pair, byte for byte the same file on every run, its header
recording the probe digest of the features it was fitted on and the command.
``tests/test_tidy_pairmodel_rebuild.py`` fails, naming that command, when a change to
the rules or the features moves the digest: run it (about 6 CPU minutes, the embedder
needed) and commit the file it writes. Tidy 15's own file (weights ``6090b474…``) was
not reproducible and recorded no digest; tidy 34 replaced it, on tidy_fresh13's dev
half, by a rule written before that set was read.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
import zlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from operator import mul
from typing import Any

from ...unicode_script import script
from . import readings
from .memo import searched
from .quantities import read_alike
from .signals import GENERIC, PairSignals, Profile, compare, profile

__all__ = [
    "CASES",
    "FEATURE_VERSION",
    "HEADS",
    "MAGIC",
    "MODEL_PATH",
    "PairModel",
    "PairModelError",
    "READING",
    "Score",
    "features",
    "apart",
    "pair_model",
    "read",
]

MAGIC = b"MNEMIC-TIDY-PAIR-MODEL 1\n"
MODEL_PATH = os.path.join(os.path.dirname(__file__), "pair_model.bin")
FEATURE_VERSION = 2
"""1: tidy 15; 2 (tidy 17): quantities after unit conversion, numbers said in words,
names across scripts (:func:`_across`)."""
READING = 1
"""The reading version (:mod:`.readings`) the shipped model was fitted on, and reads its
features with: tidy 39 kept it at 1 when the rules moved to 2 (tidy 37's step B), so
``pair_model.bin`` keeps its bytes and rebuilds from its features. A refit on another
version changes it with the file."""
BUCKET_BITS = 14
CASES = ("offline", "semantic")
"""``offline``: no cosine; ``semantic``: the embedder's cosine is one more feature."""
HEADS = ("merge", "change")

_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_DENSE = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


class PairModelError(ValueError):
    """A pair model file this code cannot use: not one, changed, or of another version."""


def _bin(x: float, step: float) -> str:
    return str(int(x / step))


@lru_cache(maxsize=4096)  # each entry is read beside every other
def _script(text: str) -> str:
    """The script of ``text``'s first letter (:func:`mnemic.unicode_script.script`),
    ``NONE`` when it has none."""
    return next((script(ch) for ch in text if ch.isalpha()), "NONE")


@lru_cache(maxsize=4096)
def _numbers(text: str) -> frozenset[str]:
    """The numbers written in ``text`` (:data:`_NUMBER`), as a set."""
    return frozenset(_NUMBER.findall(text))


@lru_cache(maxsize=4096)  # each entry is read beside every other
def _tokens(text: str) -> frozenset[str]:
    """The words of ``text`` (case folded), and the character pairs of each run of a
    script written without spaces ("用户现在" -> "用户", "户现", "现在")."""
    out: set[str] = set()
    for w in _WORD.findall(text.casefold()):
        if _DENSE.search(w):
            out.update(w[i : i + 2] for i in range(max(1, len(w) - 1)))
        else:
            out.add(w)
    return frozenset(out)


def apart(older: Profile, newer: Profile, s: PairSignals, head: str) -> str:
    """What the rules read as keeping the pair apart, whatever the model says (empty:
    nothing): two people, or one fact's holder against another's; the value an update
    replaced named for another subject; one word changed in place, an identifier
    changed by a character, "also" on one side; nothing shared but the subject (tidy
    16). A merge also never joins two values of a slot, a statement and its negation,
    an entry that says it changed, or (tidy 43) two places each names and the other
    does not write in its own language (:func:`.exonyms.other_places`); a change never
    names as new a value the older entry holds already."""
    from .exonyms import other_places
    from .languages import ALSO
    from .meaning import _other_code, swapped
    from .people import other_relatives
    from .thresholds import THRESHOLDS
    from .updates import replaced_side

    if other_relatives(older.text, newer.text):
        return "two people"
    if replaced_side(older, newer, THRESHOLDS) == "":
        return "the replaced value named for another subject"
    if _other_code(older, newer):
        return "an identifier changed"
    if bool(searched(ALSO, older.folded)) != bool(searched(ALSO, newer.folded)):
        return "one adds to the other"
    x, y = (older.order[0] if older.order else ""), (newer.order[0] if newer.order else "")
    if (
        x and y and x != y and s.shared
        and not {x, y} & GENERIC
        and x not in newer.words and y not in older.words
    ):  # fmt: skip
        return "each names its own subject first"
    if head == "merge" and (
        s.slots_differ or s.negation_differs or s.update or swapped(older, newer)
    ):
        return "a value, a negation or a change tells them apart"
    if head == "merge" and (places := other_places(older.text, newer.text)):
        return f"each names a place the other does not: {places}"  # tidy 43
    if not _common(older, newer, s):
        return "nothing shared but the subject"
    if head == "change" and _already(older, newer, s):
        return "the value it changed to is the older entry's already"
    if head == "change" and _keeps_value(older, newer, s):
        return "the newer keeps all the older says: it says more of it, it replaces nothing"
    if head == "change" and _denies_another(older, newer, s):
        return "one of them denies another thing, named in the other's place"
    return ""


def _common(older: Profile, newer: Profile, s: PairSignals) -> bool:
    """Whether the two share anything beyond the subject the whole store shares ("the
    user"): a content word, a frame word the rules read ("lives", "名前"), a kind of
    the values they state (a version, a time), or a kind of :mod:`.kinds` (a browser,
    an editor). "User is brave about heights" / "User switched to Firefox" share none."""
    from .kinds import values_in

    if s.shared or older.frame & newer.frame:
        return True
    if {v.partition(":")[0] for v in older.stated} & {v.partition(":")[0] for v in newer.stated}:
        return True
    return bool({k[0] for k in values_in(older.text)} & {k[0] for k in values_in(newer.text)})


def _already(older: Profile, newer: Profile, s: PairSignals) -> bool:
    """Whether the newer entry names as its new value one the older entry holds
    already, for a key of its own ("用户晚饭吃纯素" / "用户早饭换成纯素了": vegan is
    the older's value, for another meal): each holds a word the other does not (the
    keys), every content word after its update marker is the older's, and it states
    no value the older does not (slots are no content words: "upgraded to PostgreSQL
    *16*" names 16). Not when the newer is negated or names the value it replaced."""
    return (
        bool(newer.after_update)
        and bool(s.only_a and s.only_b)
        and not (newer.negated or newer.was or newer.stated - older.stated)
        and set(newer.after_update) <= older.words
    )


def _keeps_value(older: Profile, newer: Profile, s: PairSignals) -> bool:
    """What a sentence says of its subject (tidy 17): a change replaces the older
    entry's value, so the older must say something the newer does not (a word, a slot
    or a frame word of its own). When the newer holds all of it, is not negated, names
    no value it replaced and no name after its marker (a new value of the older's kind:
    "moved to *LV=*", "agora é a *Dra. Matos*"), it says something else of the same
    thing ("User's GP is Dr. Patel" / "User's GP Dr. Patel moved to a new practice":
    Dr. Patel is still the GP; where the practice is, is another predicate)."""
    return (
        not (s.only_a - GENERIC)
        and older.slots <= newer.slots
        and older.frame <= newer.frame
        and not newer.negated
        and not newer.was
        and not set(newer.after_update) & newer.names
    )


def _denies_another(older: Profile, newer: Profile, s: PairSignals) -> bool:
    """A negation denies only what it names (tidy 17): when one of the two is negated
    and says another thing in the place of the other's (the same words, one of them
    changed where it stands: "Rui macht seine *Pause* auf dem Autohof Geiselwind" /
    "Rui macht seine *Wochenruhe* nie auf dem Autohof Geiselwind"), it denies that
    other thing, and the other's fact stands. Not when a word marks an update."""
    if not s.negation_differs or s.update or len(older.order) != len(newer.order):
        return False
    changed = [k for k, (x, y) in enumerate(zip(older.order, newer.order, strict=True)) if x != y]
    if len(changed) != 1:
        return False
    x, y = older.order[changed[0]], newer.order[changed[0]]
    if _DENSE.search(x + y):
        return False  # a character pair is no word that stands in another's place
    return x not in newer.words and y not in older.words and not {x, y} & GENERIC


def read(
    older: Profile,
    newer: Profile,
    s: PairSignals,
    with_cosine: bool = False,
    version: int = FEATURE_VERSION,
    verdict: str | None = None,
) -> list[str]:
    """:func:`features` with the rules' verdict on the pair (:func:`.detect.judge`, which
    reads the cosine of ``s`` when there is one); the cosine itself is a feature only
    ``with_cosine``. ``verdict``: that verdict's kind (``none``: no verdict) when the
    caller has judged this very pair (``older``, ``newer``, ``s``, the default
    thresholds) already.

    Read with reading version :data:`READING` (:mod:`.readings`): when a side is one a
    later version reads otherwise (:func:`.quantities.read_alike`), the two sides, their
    signals and the verdict are read again with it, and ``verdict`` is not used."""
    if readings.version() != READING and not (read_alike(older.text) and read_alike(newer.text)):
        # the model reads the pair as the readings it was fitted on read it: each side,
        # their signals and the rules' verdict read again with that version
        with readings.at(READING):
            o, n = profile(older.text), profile(newer.text)
            return read(o, n, compare(o, n, s.cosine), with_cosine, version)
    if verdict is None:
        from .detect import judge

        v = judge(older, newer, s)
        verdict = v.kind if v is not None else "none"
    return features(
        older,
        newer,
        s,
        verdict,
        s.cosine if with_cosine else None,
        version,
    )


def features(
    older: Profile,
    newer: Profile,
    s: PairSignals,
    verdict: str,
    cosine: float | None = None,
    version: int = FEATURE_VERSION,
) -> list[str]:
    """The named features of the pair (``older`` written first); hashed at scoring. A
    name says what it is: ``oa:`` a word only the older entry has, ``ob:`` only the
    newer, ``v:`` the rules' verdict, ``cos:`` the cosine's bin; from ``version`` 2,
    ``q:`` quantities after unit conversion, ``nw:`` numbers with those said in words,
    ``xs:`` what two entries in different scripts share (:func:`_across`)."""
    f = [f"v:{verdict}", f"sj:{_bin(s.shingle_jaccard, 0.1)}", f"wo:{_bin(s.word_overlap, 0.1)}"]
    f.append(f"wj:{_bin(s.word_jaccard, 0.1)}")
    f.append(f"shared:{min(s.shared, 6)}")
    for name, on in (
        ("slots_differ", s.slots_differ),
        ("slots_subset", s.slots_subset),
        ("negation_differs", s.negation_differs),
        ("update", s.update),
        ("a_update", older.update),
        ("b_update", newer.update),
        ("a_negated", older.negated),
        ("b_negated", newer.negated),
        ("b_names_old", bool(newer.was)),
        ("a_names_old", bool(older.was)),
    ):
        if on:
            f.append(name)
    ta, tb = _tokens(older.text), _tokens(newer.text)
    oa, ob = ta - tb, tb - ta
    f += ["oa:" + w for w in sorted(oa)]
    f += ["ob:" + w for w in sorted(ob)]
    union = len(ta | tb)
    f.append(f"tj:{_bin(len(ta & tb) / union if union else 0.0, 0.1)}")
    for at, name in ((0, "lead"), (-1, "last")):
        x = older.order[at] if older.order else ""
        y = newer.order[at] if newer.order else ""
        if x and x == y:
            f.append(f"{name}:same")
        elif x and y and x not in newer.words and y not in older.words:
            f.append(f"{name}:own&update" if s.update else f"{name}:own")
    only = f"only:{min(len(oa), 5)}/{min(len(ob), 5)}"
    f.append(only)
    f.append(f"{only}&v:{verdict}")
    if newer.update:
        f.append(f"b_update&wo:{_bin(s.word_overlap, 0.25)}")
        f.append(f"b_update&{only}")
    na, nb = _numbers(older.text), _numbers(newer.text)
    if na and nb:
        f.append("num:same" if na == nb else "num:differ")
    elif na or nb:
        f.append("num:a" if na else "num:b")
    sa, sb = _script(older.text), _script(newer.text)
    f.append(f"script:{sa}" if sa == sb else "script:differ")
    la, lb = len(older.text), len(newer.text)
    f.append(f"len:{_bin(min(la, lb) / max(la, lb, 1), 0.2)}")
    f.append(f"size:{min(max(la, lb) // 40, 5)}")
    if version >= 2:
        f.extend(_across(older, newer, sa != sb, na != nb))
    if cosine is not None:
        c = min(max(cosine, 0.7), 1.0)
        f.append(f"cos:{_bin(c - 0.7, 0.02)}")
        f.append(f"cos:{_bin(c - 0.7, 0.02)}&v:{verdict}")
        f.append(f"cos:{_bin(c - 0.7, 0.05)}&wo:{_bin(s.word_overlap, 0.25)}")
        f.append(f"cos:{_bin(c - 0.7, 0.05)}&{only}")
    return f


def _across(older: Profile, newer: Profile, scripts_differ: bool, raw_differ: bool) -> list[str]:
    """Version 2's features (tidy 17): the amounts, times and dates both state after
    unit conversion (``q:mass:same`` for "80 kg" / "176 lb", ``q:converted`` when their
    digits differ); the numbers with those said in words (``nw:``, from the profile's
    folded text: "zwei" / "2"); when both are in Latin letters and read as two
    languages (:func:`.quantities.language`), that, crossed with the names and numbers
    they share (``lang:``); and, when the two are written in different scripts, the
    names they share once both are in Latin letters (``xs:name``: "Мюнхен" / "München"
    do not, "Берлин" / "Berlin" do) and the identifiers they share as written
    (``xs:shared``)."""
    from .quantities import close, language, latin, quantities, same_name

    f: list[str] = []
    qa, qb = quantities(older.text), quantities(newer.text)
    converted = False
    for dim in sorted(qa.keys() | qb.keys()):
        if dim in qa and dim in qb:
            same = close(qa[dim], qb[dim])
            f.append(f"q:{dim}:{'same' if same else 'differ'}")
            converted |= same and raw_differ
        else:
            f.append(f"q:{dim}:one")
    if converted:
        f.append("q:converted")
    na, nb = set(_NUMBER.findall(older.folded)), set(_NUMBER.findall(newer.folded))
    if na and nb:
        f.append("nw:same" if na == nb else "nw:overlap" if na & nb else "nw:differ")
    la, lb = language(older.text), language(newer.text)
    if la and lb and la != lb and not scripts_differ:
        kept = len(older.names & newer.names) + len(na & nb)
        f.append("lang:differ")
        f.append(f"lang:differ&kept:{min(kept, 3)}")
        f.append(f"lang:differ&q:{'converted' if converted else 'no'}")
    if scripts_differ:
        ta = {latin(w) for w in _WORD.findall(older.text.casefold()) if not w.isdigit()}
        tb = {latin(w) for w in _WORD.findall(newer.text.casefold()) if not w.isdigit()}
        raw = _WORD.findall(older.text.casefold()), _WORD.findall(newer.text.casefold())
        shared = {w for w in set(raw[0]) & set(raw[1]) if len(w) > 1}
        names = sum(any(same_name(x, y) for y in tb) for x in ta if len(x) >= 3)
        f.append(f"xs:name:{min(names, 3)}")
        f.append(f"xs:shared:{min(len(shared), 3)}")
        f.append(f"xs:name:{min(names, 3)}&q:{'converted' if converted else 'no'}")
    return f


@lru_cache(maxsize=1 << 16)  # the same names recur across a store's pairs
def bucket(name: str) -> int:
    """Where a feature's weight is: the CRC-32 of its name, cut to the bucket bits."""
    return zlib.crc32(name.encode("utf-8")) & ((1 << BUCKET_BITS) - 1)


def values(names: Sequence[str]) -> list[float]:
    """Each feature's value: the words one side alone holds (``oa:``, ``ob:``) share
    one unit between them, the other features another, so that a long entry's words do
    not drown the signals every pair has."""
    sides = list(map(str.startswith, names, repeat(_SIDES, len(names))))
    words = sum(sides)
    rest = len(names) - words
    w = WORD_SCALE / math.sqrt(words) if words else 0.0
    r = 1.0 / math.sqrt(rest) if rest else 0.0
    return [w if side else r for side in sides]


_SIDES = ("oa:", "ob:")


WORD_SCALE = 0.5


@dataclass(frozen=True, slots=True)
class Score:
    """The heads' probabilities for one pair, and the features that weighed most for
    the stronger head."""

    merge: float
    change: float
    top: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Head:
    bias: float
    threshold: float
    weights: Sequence[float]


class PairModel:
    """Loaded heads per case (see the module docstring)."""

    def __init__(self, heads: dict[str, dict[str, Head]], header: dict[str, Any]) -> None:
        self.heads = heads
        self.header = header

    @classmethod
    def load(cls, path: str | os.PathLike[str] = MODEL_PATH) -> PairModel:
        """Read a model file; :class:`PairModelError` when it is not one this code can use."""
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            raise PairModelError(
                f"tidy's pair model {path} cannot be read ({exc.strerror}): reinstall "
                "mnemic, or refit it with ./x bench tidy_pairs --fit"
            ) from None
        if not data.startswith(MAGIC):
            raise PairModelError(f"{path} is not a mnemic tidy pair model")
        try:
            end = data.index(b"\n", len(MAGIC))
            header = json.loads(data[len(MAGIC) : end])
            version, bits = int(header["feature_version"]), int(header["bucket_bits"])
            digest, cases = str(header["sha256"]), header["cases"]
        except (ValueError, KeyError, TypeError) as exc:
            raise PairModelError(f"{path} has a malformed header ({exc})") from None
        if version not in (1, FEATURE_VERSION) or bits != BUCKET_BITS:
            raise PairModelError(
                f"{path} was fitted for feature version {version} with {bits} bucket bits; "
                f"this code computes version {FEATURE_VERSION} with {BUCKET_BITS}: refit it "
                "(./x bench tidy_pairs --fit)"
            )
        body = data[end + 1 :]
        if hashlib.sha256(body).hexdigest() != digest:
            raise PairModelError(
                f"{path} was changed after it was fitted (its weights do not match the "
                "SHA-256 its header records): reinstall mnemic, or refit it with "
                "./x bench tidy_pairs --fit"
            )
        size = 1 << BUCKET_BITS
        blocks = [(c, h) for c in CASES for h in HEADS]
        if len(body) != 4 * size * len(blocks):
            raise PairModelError(f"{path} is truncated or has another size ({len(body)} bytes)")
        weights = array("f")
        weights.frombytes(body)
        if sys.byteorder != "little":  # pragma: no cover
            weights.byteswap()
        heads: dict[str, dict[str, Head]] = {}
        try:
            for k, (case, head) in enumerate(blocks):
                meta = cases[case][head]
                heads.setdefault(case, {})[head] = Head(
                    float(meta["bias"]),
                    float(meta["threshold"]),
                    memoryview(weights)[k * size : (k + 1) * size],
                )
        except (KeyError, TypeError, ValueError) as exc:
            raise PairModelError(f"{path} has a malformed header ({exc})") from None
        return cls(heads, header)

    @property
    def feature_version(self) -> int:
        """The features it was fitted on (a file's header; an in-memory model may be of
        an earlier version, for a baseline)."""
        return int(self.header.get("feature_version", FEATURE_VERSION))

    def reads_cosine(self, case: str) -> bool:
        """Whether the model of ``case`` has the cosine among its features."""
        return case == "semantic" and bool(self.header.get("cosine_feature", True))

    def threshold(self, case: str, head: str) -> float:
        return self.heads[case][head].threshold

    def probabilities(self, names: Sequence[str], case: str) -> tuple[float, float]:
        """The heads' probabilities (merge, change) for a pair's feature ``names``:
        :meth:`score`'s, to the last bit (the same products summed in the same order),
        without ranking the features that weighed most (``plan`` asks for those only
        for a pair it proposes)."""
        idx = list(map(bucket, names))
        xs = values(names)
        heads = self.heads[case]
        out = []
        for head in HEADS:
            h = heads[head]
            z = h.bias + sum(map(mul, map(h.weights.__getitem__, idx), xs))
            out.append(1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0)
        return out[0], out[1]

    def score(self, names: Iterable[str], case: str) -> Score:
        """Both heads' probabilities for a pair's feature ``names``."""
        names = list(names)
        idx = [bucket(n) for n in names]
        xs = values(names)
        probs: dict[str, float] = {}
        parts: dict[str, list[float]] = {}
        for head, h in self.heads[case].items():
            w = h.weights
            part = [w[i] * x for i, x in zip(idx, xs, strict=True)]
            z = h.bias + sum(part)
            probs[head] = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
            parts[head] = part
        strong = max(HEADS, key=lambda k: probs[k])
        ranked = sorted(zip(parts[strong], names, strict=True), key=lambda t: -t[0])
        top = tuple(n for v, n in ranked[:4] if v > 0)
        return Score(probs["merge"], probs["change"], top)


def explain(name: str) -> str:
    """A feature's name in words, for a proposal's reason."""
    head, _, rest = name.partition(":")
    if head == "oa":
        return f"only the older says '{rest}'"
    if head == "ob":
        return f"only the newer says '{rest}'"
    if head == "v":
        return f"the rules' verdict: {rest}"
    if head in ("sj", "wo", "wj", "tj"):
        what = {"sj": "character", "wo": "content-word", "wj": "word", "tj": "word"}[head]
        return f"{what} overlap about {int(rest) / 10:.1f}"
    if head == "cos":
        return f"embedding cosine about {0.7 + int(rest.split('&')[0]) * 0.02:.2f}"
    if head == "num":
        return {"same": "the same numbers", "differ": "other numbers"}.get(
            rest, "a number on one side"
        )
    return name.replace("_", " ")


_model: PairModel | None = None


def pair_model() -> PairModel:
    """The shipped model, loaded on first use."""
    global _model
    if _model is None:
        _model = PairModel.load(MODEL_PATH)
    return _model
