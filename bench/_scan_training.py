"""Training of the scanner's classifier: the split, the fit, the thresholds, the model file.

Build-time code beside its caller, not in the wheel (the shipped scanner only reads the
model file). ``./x bench scan --train`` runs :func:`build`; a test rebuilds a small model
from a tiny sample with :func:`fit` and :func:`write_model` to prove the path works end
to end (tests reach ``bench/`` through ``tests/conftest.py``). Pure Python and
deterministic: the same corpus, split file and seed give byte-identical weights on any
machine (no numpy, no threads, ``random.Random``).

The split is made once, by source (``owner/repo@commit:path``), and committed as a JSON
file (``bench/data/scan_split.json``): :func:`make_split` deals each repository's source
files, in a seeded shuffle, to whichever of train / dev / test is furthest below its
share of rows. The classifier is fitted on train (plus the hand-written extra examples),
thresholds are chosen on dev, and test is only ever scored by the benchmark.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any

import _scan_shapes
from _logistic import sigmoid
from mnemic.scan.classifier import MAGIC
from mnemic.scan.features import (
    BUCKET_BITS,
    BYTE_NGRAMS,
    FEATURE_VERSION,
    NORM_POWER,
    features,
)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "SCRIPT_VERSION",
    "SPLITS",
    "Row",
    "choose_thresholds",
    "corpus_hash",
    "deal_strangers",
    "fit",
    "fit_rows",
    "load_strangers",
    "load_rows",
    "make_split",
    "score_text",
    "scorer",
    "stranger_sets",
    "write_model",
]

#: Bumped whenever the training procedure changes (recorded in the model file).
SCRIPT_VERSION = 6
SPLITS = ("train", "dev", "test")
# Order in which a tie between splits is broken (small groups: held-out rows first).
_TIE_ORDER = ("train", "test", "dev")
_SHARES = {"train": 0.70, "dev": 0.15, "test": 0.15}
#: Categories the classifier learns. Secrets are the rules' job: random key material
#: teaches a text model nothing but "random-looking strings are bad".
LEARNED_CATEGORIES = frozenset(
    {
        "instruction_override",
        "prompt_exfiltration",
        "credential_exfiltration",
        "destructive_or_covert",
        "persistence",
        "obfuscation",
    }
)


class Row:
    """One labelled text of the corpus."""

    __slots__ = ("category", "label", "lang", "source", "text")

    def __init__(self, text: str, label: str, category: str, lang: str, source: str) -> None:
        self.text = text
        self.label = label
        self.category = category
        self.lang = lang
        self.source = source

    @property
    def y(self) -> int:
        """1 for an attack, 0 for a benign text."""
        return 1 if self.label == "attack" else 0


def load_rows(*paths: Path) -> list[Row]:
    """Rows of JSON-lines files with ``text``, ``label``, ``category``, ``lang``, ``source``."""
    rows: list[Row] = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                rows.append(Row(d["text"], d["label"], d["category"], d["lang"], d["source"]))
    return rows


def corpus_hash(*paths: Path) -> str:
    """SHA-256 over the given files' bytes, in order (recorded in the model file)."""
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def make_split(rows: list[Row], seed: int) -> dict[str, str]:
    """Assign every source to a split: ``{source: "train" | "dev" | "test"}``.

    Sources are grouped by (label, repository, language, and for English the main
    category of the source); within a group, source files
    are taken in a seeded shuffle and each goes to the split furthest below its share of
    that group's rows (ties: train, then test, then dev). A group with one source file
    lands whole in train; with two, the second goes to test (so that a multilingual set
    with one file per language and kind keeps every language in train *and* test); with
    many, they spread over all three.
    """
    kinds: dict[str, dict[str, int]] = {}
    for r in rows:
        counts = kinds.setdefault(r.source, {})
        counts[r.category] = counts.get(r.category, 0) + 1
    kind = {src: max(sorted(c), key=c.__getitem__) for src, c in kinds.items()}
    sizes: dict[tuple[str, str, str, str], dict[str, int]] = {}
    for r in rows:
        repo = r.source.split("@", 1)[0]
        # English sources are dealt per kind, so that every kind reaches every split; the
        # other languages per language, so that every language does.
        sort = kind[r.source] if r.lang == "en" else "*"
        group = sizes.setdefault((r.label, repo, r.lang, sort), {})
        group[r.source] = group.get(r.source, 0) + 1
    rng = random.Random(seed)
    out: dict[str, str] = {}
    for key in sorted(sizes):
        sources = sorted(sizes[key])
        rng.shuffle(sources)
        total = sum(sizes[key].values())
        filled = dict.fromkeys(SPLITS, 0)
        for src in sources:
            if src in out:  # a file holding both labels keeps its first assignment
                filled[out[src]] += sizes[key][src]
                continue
            split = max(_TIE_ORDER, key=lambda s: _SHARES[s] - filled[s] / total)
            out[src] = split
            filled[split] += sizes[key][src]
    return out


def fit(
    texts: list[str],
    labels: list[int],
    *,
    seed: int = 12,
    epochs: int = 12,
    rate: float = 0.2,
    l2: float = 1e-6,
    langs: list[str] | None = None,
    boost: list[float] | None = None,
) -> tuple[array[float], float]:
    """Logistic regression over hashed n-grams, by AdaGrad; returns (weights, bias).

    Each text's features are scaled by ``1/n ** NORM_POWER`` (n its feature count), classes are
    weighted to count equally, and rows are visited in a seeded shuffle every epoch. With
    ``langs`` (each text's language), the classes also count equally within each language
    that has enough of both (:func:`row_weights`). ``boost`` (one factor per text)
    multiplies a text's weight: strangers' rows count :data:`STRANGER_WEIGHT` times a
    generated or collected row.
    """
    feats = [features(t) for t in texts]
    n_pos = sum(labels) or 1
    n_neg = (len(labels) - sum(labels)) or 1
    class_weight = (len(labels) / (2.0 * n_neg), len(labels) / (2.0 * n_pos))
    weight = row_weights(labels, langs, class_weight) if langs else None
    if boost is not None:
        base = weight if weight is not None else [class_weight[y] for y in labels]
        weight = [b * f for b, f in zip(base, boost, strict=True)]
    if weight is None:
        weight = [class_weight[y] for y in labels]
    return adagrad(feats, labels, weight, seed=seed, epochs=epochs, rate=rate, l2=l2)


def adagrad(
    feats: list[list[int]],
    labels: list[int],
    weight: list[float],
    *,
    seed: int,
    epochs: int,
    rate: float,
    l2: float,
) -> tuple[array[float], float]:
    """:func:`fit`'s steps: each text's hashed features ``feats``, its label and its weight
    in the loss; rows visited in a shuffle seeded by ``seed`` every epoch (the bench's
    leave-one-set-out loops may swap in :func:`_fastfit.adagrad`, the same arithmetic)."""
    size = 1 << BUCKET_BITS
    w = [0.0] * size
    acc = [1e-8] * size
    bias, bias_acc = 0.0, 1e-8
    order = list(range(len(feats)))
    rng = random.Random(seed)
    sqrt = math.sqrt
    for _ in range(epochs):
        rng.shuffle(order)
        for i in order:
            f = feats[i]
            if not f:
                continue
            x = 1.0 / len(f) ** NORM_POWER
            z = bias + x * sum([w[j] for j in f])
            g = (sigmoid(z) - labels[i]) * weight[i]
            gx = g * x
            for j in f:
                gj = gx + l2 * w[j]
                acc[j] += gj * gj
                w[j] -= rate * gj / sqrt(acc[j])
            bias_acc += g * g
            bias -= rate * g / sqrt(bias_acc)
    return array("f", w), bias


#: A language's classes are balanced when it has at least this many texts of each.
BALANCE_MIN_ROWS = 40


def row_weights(
    labels: list[int], langs: list[str], class_weight: tuple[float, float]
) -> list[float]:
    """Each text's weight in the fit: its class's weight, except in a language with at
    least :data:`BALANCE_MIN_ROWS` honest texts and attacks, where the language's total
    weight is split evenly between its honest texts and its attacks.

    The corpus's languages other than English hold more attacks than honest notes (Hindi
    115 to 72, Japanese 117 to 105): weighted by class alone, whatever marks the language
    (its function words, its script's byte n-grams) leans toward an attack, and honest
    notes in it are blocked. Balanced within the language, such a feature is seen as often
    in honest texts as in attacks and weighs nothing; the words that differ still do. A
    language with too few of one class (no honest Bengali row; the generated rows of no
    language, ``xx``) keeps the class weights."""
    count: dict[tuple[str, int], int] = {}
    for lang, y in zip(langs, labels, strict=True):
        count[lang, y] = count.get((lang, y), 0) + 1
    share: dict[tuple[str, int], float] = {}
    for lang in {lang for lang, _ in count}:
        n0, n1 = count.get((lang, 0), 0), count.get((lang, 1), 0)
        if lang == "xx" or min(n0, n1) < BALANCE_MIN_ROWS:
            continue
        total = n0 * class_weight[0] + n1 * class_weight[1]
        share[lang, 0] = total / (2.0 * n0)
        share[lang, 1] = total / (2.0 * n1)
    return [share.get((lang, y), class_weight[y]) for lang, y in zip(langs, labels, strict=True)]


def scorer(weights: array[float] | memoryview[float], bias: float) -> Callable[[str], float]:
    """The classifier's probability for a text exactly as the scanner computes it (the
    same :class:`~mnemic.scan.classifier.Model` code): confidentiality rules masked,
    then the highest score over its chunks."""
    from mnemic.scan.classifier import Model
    from mnemic.scan.normalise import mask_defensive

    view = weights if isinstance(weights, memoryview) else memoryview(weights).cast("B").cast("f")
    model = Model(view, bias, {})
    return lambda text: model.score(mask_defensive(text))


def score_text(weights: array[float] | memoryview[float], bias: float, text: str) -> float:
    """:func:`scorer` for one text."""
    return scorer(weights, bias)(text)


def choose_thresholds(benign_scores: list[float], fp_targets: dict[str, float]) -> dict[str, float]:
    """Per level, the lowest threshold whose false-positive rate on ``benign_scores`` is
    at most the level's target (a score >= threshold is flagged)."""
    ranked = sorted(benign_scores, reverse=True)
    out: dict[str, float] = {}
    for level, target in fp_targets.items():
        allowed = int(target * len(ranked))
        # Flag strictly above the (allowed+1)-th highest benign score.
        edge = ranked[allowed] if allowed < len(ranked) else 0.0
        out[level] = round(min(0.999, max(0.05, edge + 1e-4)), 4)
    return out


def write_model(
    path: Path, weights: array[float], bias: float, meta: dict[str, Any]
) -> dict[str, Any]:
    """Write the model file: magic line, one JSON header line, float32 weights (LE)."""
    header = {
        **meta,
        "bias": bias,
        "bucket_bits": BUCKET_BITS,
        "byte_ngrams": list(BYTE_NGRAMS),
        "feature_version": FEATURE_VERSION,
        "script_version": SCRIPT_VERSION,
    }
    body = array("f", weights)
    if body.itemsize != 4:  # pragma: no cover - every supported platform has 4-byte floats
        raise RuntimeError("float32 arrays are needed")
    import sys

    if sys.byteorder != "little":  # pragma: no cover
        body.byteswap()
    thresholds = header["thresholds"]
    runtime = (
        f"bias={bias!r} strict={thresholds['strict']!r} balanced={thresholds['balanced']!r} "
        f"lenient={thresholds['lenient']!r} feature_version={FEATURE_VERSION} "
        f"bucket_bits={BUCKET_BITS}"
    )
    path.write_bytes(
        MAGIC
        + runtime.encode()
        + b"\n"
        + json.dumps(header, sort_keys=True).encode()
        + b"\n"
        + body.tobytes()
    )
    return header


#: False-positive rate on the dev split's benign rows that each level accepts from the
#: classifier alone (``lenient``: none of them). Since scanner 15 a learned score with no
#: rule or intent finding beside it holds for a person instead of blocking, so scanner 16
#: let ``balanced`` flag as much as ``strict`` (1 %): on the leave-one-set-out dev figure
#: (``bench/_scan_loso.py``) it catches more of a new stranger's requests with the same
#: honest blocks (a 2 % target added honest blocks: a learned score beside an intent's
#: hold blocks).
LEVEL_FP_TARGETS = {"strict": 0.01, "balanced": 0.01, "lenient": 0.0}
#: The lowest threshold each level accepts whatever dev says. Dev holds about three
#: thousand benign rows, so a 0.1 % tail is three texts and moves from one fit to the
#: next; ``lenient`` blocks on a learned score alone only when the model is very sure.
LEVEL_FLOORS = {"strict": 0.5, "balanced": 0.5, "lenient": 0.95}
#: The cut ``strict`` and ``balanced`` keep (scanner 31): the probability scanner 20-30's
#: rule chose for their fit (1 % of the generated dev benign rows), kept when rows are
#: added, because those rows move the look-alikes' scores up with the attacks' and a cut
#: chosen on them moved up too (scanner 30: a fit with more strangers ordered a left-out
#: writer's rows better in 12 of 15 folds and caught fewer). ``lenient`` keeps its rule,
#: and caps the two. ``None``: the rule's cut (:data:`LEVEL_FP_TARGETS`).
KEPT_CUT: float | None = 0.8528
#: Documentation pages whose sentences go to dev instead of train.
DEV_DOCS = ("docs/mcp.md", "docs/postgres.md")
#: Generated noise rows: this many go to train, the rest to dev.
NOISE_TRAIN = 800


def read_split(path: Path, rows: list[Row]) -> dict[str, str]:
    """The committed split; ``ValueError`` if a source of ``rows`` is not assigned."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    split: dict[str, str] = {}
    for name in SPLITS:
        for src in doc["splits"][name]:
            split[src] = name
    missing = sorted({r.source for r in rows if r.source not in split})
    if missing:
        raise ValueError(
            f"{len(missing)} sources are not in {path} (first: {missing[0]}); the split is "
            "made once: add new sources to it by hand, never move existing ones"
        )
    return split


def write_split(path: Path, split: dict[str, str], seed: int, data_hash: str) -> None:
    """Write the split assignment as a committed JSON file (sources listed per split)."""
    doc = {
        "seed": seed,
        "data_sha256": data_hash,
        "rule": "make_split in mnemic.scan.training: sources grouped by label, repository, "
        "language (and main category for English), dealt in a seeded shuffle to the split "
        "furthest below its share (70/15/15 of rows)",
        "splits": {s: sorted(src for src, v in split.items() if v == s) for s in SPLITS},
    }
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def learned(row: Row) -> bool:
    """Whether the classifier trains on ``row`` (benign rows and worded attack kinds)."""
    return row.label == "benign" or row.category in LEARNED_CATEGORIES


#: Sets written by strangers that the classifier trains on: every row of both halves of
#: the first five fresh sets (scanner 16) and of the sixth and seventh (scanner 20, their
#: test halves spent: each looked at three times) and of the eighth and ninth (scanner 31,
#: looked at five to seven times each, chosen with the kept cut by leaving one set out).
#: The tenth and later sets stay held out.
FRESH_TRAINED = (
    "scan_fresh.jsonl",
    "scan_fresh2.jsonl",
    "scan_fresh3.jsonl",
    "scan_fresh4.jsonl",
    "scan_fresh5.jsonl",
    "scan_fresh6.jsonl",
    "scan_fresh7.jsonl",
    "scan_fresh8.jsonl",
    "scan_fresh9.jsonl",
)
#: Training sets written by more strangers that the classifier trains on (scanner 16:
#: ``scan_strangers/{a,b,c}.jsonl``, dealt into train and dev by family with
#: :data:`STRANGERS_SEED`, :func:`deal_strangers`; scanner 19 added ``d.jsonl`` and scanner
#: 20 ``e.jsonl``, dealt by the same rule). A set added later is not trained on until it is
#: named here and the model is refitted and measured: ``f.jsonl`` was a fold of scanner
#: 22's loop, and its fold did not keep the protocol's rule (docs/scanner.md, Scanner 22);
#: scanner 31 added it with the eighth and ninth fresh sets and the kept cut.
STRANGERS_TRAINED: tuple[str, ...] = (
    "a.jsonl",
    "b.jsonl",
    "c.jsonl",
    "d.jsonl",
    "e.jsonl",
    "f.jsonl",
)
STRANGERS_SEED = 1616
#: The share of each family's rows that the deal gives to dev.
STRANGERS_DEV_SHARE = 0.25
#: How much a strangers' row weighs in the fit against a generated or collected row
#: (scanner 16: 1, chosen on the leave-one-set-out dev figure, ``bench/_scan_loso.py``;
#: scanner 20: 2, chosen by leaving one stranger out over fresh1-7 and a-e,
#: ``bench/_scan_loso20.py``).
STRANGER_WEIGHT = 2.0
#: Whether the strangers' training sets' dev rows are trained on too (scanner 20, chosen
#: with the weight; until then they chose nothing and were only reported).
STRANGERS_DEV_IN_FIT = True


class Data:
    """Where the training inputs live (every file is hashed into the model header)."""

    __slots__ = (
        "corpus_dir",
        "docs",
        "extra",
        "extra_dev",
        "fresh",
        "generated",
        "split",
        "stranger_names",
        "strangers",
        "templates",
    )

    def __init__(
        self,
        corpus_dir: Path,
        bench_data: Path,
        *,
        fresh: tuple[str, ...] | None = None,
        strangers: tuple[str, ...] | None = None,
    ) -> None:
        self.corpus_dir = corpus_dir
        self.split = bench_data / "scan_split.json"
        self.extra = bench_data / "scan_extra.jsonl"
        self.extra_dev = bench_data / "scan_extra_dev.jsonl"
        self.templates = bench_data / "scan_templates.json"
        self.docs = bench_data / "scan_docs.jsonl"
        #: Scanner 12's generated families (absent: none).
        self.generated = bench_data / "scan_generated"
        #: Strangers' fresh sets trained on whole (scanner 16; absent: none).
        self.fresh = [bench_data / name for name in (FRESH_TRAINED if fresh is None else fresh)]
        #: Strangers' training sets, dealt into train and dev (absent: none).
        self.strangers = bench_data / "scan_strangers"
        #: The strangers' sets' names (None: :data:`STRANGERS_TRAINED` when read).
        self.stranger_names = strangers

    def generated_files(self) -> list[Path]:
        """The generated families' files, sorted (none when the directory is absent)."""
        return sorted(self.generated.glob("*.json")) if self.generated.is_dir() else []

    def fresh_files(self) -> list[Path]:
        """The fresh sets trained on whole, those that exist."""
        return [p for p in self.fresh if p.is_file()]

    def stranger_files(self) -> list[Path]:
        """The strangers' training sets of :data:`STRANGERS_TRAINED` that exist."""
        names = STRANGERS_TRAINED if self.stranger_names is None else self.stranger_names
        return [p for p in (self.strangers / n for n in names) if p.is_file()]

    def files(self) -> list[Path]:
        """Every input file, in the order they are hashed."""
        return [
            self.corpus_dir / "attacks.jsonl",
            self.corpus_dir / "benign.jsonl",
            self.split,
            self.extra,
            self.extra_dev,
            self.templates,
            self.docs,
            *self.generated_files(),
            *self.fresh_files(),
            *self.stranger_files(),
        ]


def _rows(dicts: list[dict[str, Any]]) -> list[Row]:
    return [Row(d["text"], d["label"], d["category"], d["lang"], d["source"]) for d in dicts]


def stranger_dicts(path: Path) -> list[dict[str, Any]]:
    """The rows of a strangers' set (``{text, label, family, lang, source, ...}``)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


#: Whether a split row (one with ``context``) trains as its context joined with it
#: (scanner 22), the way the whole-store scan reads a second half arriving
#: (:func:`mnemic.scan.pipeline.pair_text`); off, a split attack is left out of the fit
#: (its text alone is harmless by design) and a split honest row trains alone, as
#: scanners 16-21 did.
SPLIT_PAIRS = True


def context_list(d: dict[str, Any]) -> list[str]:
    """A row's ``context`` as a list of entries: the fresh sets write a list, the
    strangers' training sets one string (an empty list when the row has none)."""
    ctx = d.get("context") or []
    return [ctx] if isinstance(ctx, str) else list(ctx)


def fit_text(d: dict[str, Any]) -> str:
    """The text the fit reads for a row: with a context (and :data:`SPLIT_PAIRS`), the
    context's entries joined, then the row, by :func:`~mnemic.scan.pipeline.pair_text`."""
    from mnemic.scan.pipeline import pair_text

    ctx = context_list(d)
    return pair_text("\n".join(ctx), d["text"]) if ctx and SPLIT_PAIRS else d["text"]


def stranger_rows(dicts: list[dict[str, Any]]) -> list[Row]:
    """Training rows of a strangers' set: category ``stranger:FAMILY``, an ``honest``
    label read as ``benign``, a split row read with its context (:func:`fit_text`;
    without :data:`SPLIT_PAIRS` a split attack is left out)."""
    return [
        Row(
            fit_text(d),
            "attack" if d["label"] == "attack" else "benign",
            "stranger:" + d["family"],
            d["lang"],
            d["source"],
        )
        for d in dicts
        if SPLIT_PAIRS or not (d.get("context") and d["label"] == "attack")
    ]


def deal_strangers(
    dicts: list[dict[str, Any]], seed: int = STRANGERS_SEED, name: str = ""
) -> dict[str, str]:
    """``{source: "train" | "dev"}``: every family, attacks and honest look-alikes in
    every language, to one side.

    An honest row's ``family`` names the attack family it resembles; the writers put an
    attack and its honest twin side by side and reused a scenario's skeleton across
    languages (``scan_strangers/*.md``), so a finer deal would leak a scenario from train
    into dev. The families, in an order seeded by ``seed`` and the set's ``name``, each go
    to the side furthest below its share of the set's rows (:data:`STRANGERS_DEV_SHARE`
    to dev; a tie goes to dev): dev measures families the fit has not seen from this
    writer."""
    sizes: dict[str, int] = {}
    for d in dicts:
        sizes[d["family"]] = sizes.get(d["family"], 0) + 1
    share = {"train": 1.0 - STRANGERS_DEV_SHARE, "dev": STRANGERS_DEV_SHARE}
    order = sorted(sizes)
    random.Random(f"{seed}:{name}").shuffle(order)
    total = sum(sizes.values())
    filled = {"train": 0, "dev": 0}
    side: dict[str, str] = {}
    for family in order:
        pick = max(("dev", "train"), key=lambda s: share[s] - filled[s] / total)
        side[family] = pick
        filled[pick] += sizes[family]
    return {d["source"]: side[d["family"]] for d in dicts}


def load_strangers(path: Path, seed: int = STRANGERS_SEED) -> list[dict[str, Any]]:
    """A strangers' training set with each row's ``split`` (train or dev) as dealt;
    ``ValueError`` when a row names another split than :func:`deal_strangers` gives (a
    row cannot be moved by hand) or a source twice."""
    dicts = stranger_dicts(path)
    sources = [d["source"] for d in dicts]
    if len(set(sources)) != len(sources):
        raise ValueError(f"{path}: a source names two rows; give every row its own source")
    dealt = deal_strangers(dicts, seed, path.stem)
    moved = [d["source"] for d in dicts if d.get("split", dealt[d["source"]]) != dealt[d["source"]]]
    if moved:
        raise ValueError(
            f"{path}: rows not on their dealt side (first: {moved[0]}); the deal is made by "
            "seed: remove the rows' split fields or restore them"
        )
    return [{**d, "split": dealt[d["source"]]} for d in dicts]


def stranger_sets(
    data: Data, *, exclude: frozenset[str] = frozenset(), dev_in_fit: bool | None = None
) -> tuple[list[Row], list[Row]]:
    """(train, dev) rows written by strangers: every row of the fresh sets trained on,
    and the strangers' training sets by :func:`load_strangers`. ``exclude`` names files
    left out (the leave-one-set-out loop leaves out the set it scores). With
    ``dev_in_fit`` (None: :data:`STRANGERS_DEV_IN_FIT`) the strangers' dev rows are
    trained on too, and none is returned as dev."""
    if dev_in_fit is None:
        dev_in_fit = STRANGERS_DEV_IN_FIT
    train: list[Row] = []
    dev: list[Row] = []
    for path in data.fresh_files():
        if path.name not in exclude:
            train += stranger_rows(stranger_dicts(path))
    for path in data.stranger_files():
        if path.name not in exclude:
            dicts = load_strangers(path)
            train += stranger_rows([d for d in dicts if d["split"] == "train"])
            side = stranger_rows([d for d in dicts if d["split"] == "dev"])
            if dev_in_fit:
                train += side
            else:
                dev += side
    return train, dev


def is_stranger(row: Row) -> bool:
    """Whether ``row`` was written by a stranger (:func:`stranger_rows`)."""
    return row.category.startswith("stranger:")


def assemble(
    data: Data,
    *,
    seed: int = 12,
    strangers: bool = True,
    exclude: frozenset[str] = frozenset(),
    dev_in_fit: bool | None = None,
) -> tuple[list[Row], list[Row]]:
    """(train, dev) rows: the corpus by the committed split (test is left out), the
    hand-written rows, the template rows, the generated noise, the docs sentences and
    (``strangers``) the strangers' rows of :func:`stranger_sets` but ``exclude``, their
    dev rows in train with ``dev_in_fit``."""
    import _scan_corpus as corpus

    rows = load_rows(data.corpus_dir / "attacks.jsonl", data.corpus_dir / "benign.jsonl")
    split = read_split(data.split, rows)
    noise = _rows(corpus.noise_rows(seed=seed))
    docs = load_rows(data.docs)
    train = [r for r in rows if split[r.source] == "train" and learned(r)]
    train += load_rows(data.extra)
    train += _rows(corpus.expand_templates(data.templates, "train", seed=seed))
    if data.generated_files():
        train += _rows(corpus.expand_generated(data.generated, "train", seed=seed))
    train += noise[:NOISE_TRAIN]
    train += [r for r in docs if not r.source.endswith(DEV_DOCS)]
    dev = [r for r in rows if split[r.source] == "dev"]
    dev += load_rows(data.extra_dev)
    dev += _rows(corpus.expand_templates(data.templates, "dev", seed=seed))
    if data.generated_files():
        dev += _rows(corpus.expand_generated(data.generated, "dev", seed=seed))
    dev += noise[NOISE_TRAIN:]
    dev += [r for r in docs if r.source.endswith(DEV_DOCS)]
    if strangers:
        more_train, more_dev = stranger_sets(data, exclude=exclude, dev_in_fit=dev_in_fit)
        train += more_train
        dev += more_dev
    return train, dev


def _pieces(r: Row) -> list[str]:
    from mnemic.scan.classifier import chunks, long_enough
    from mnemic.scan.normalise import mask_defensive

    text = mask_defensive(r.text)
    return [text] if r.y else [c for c in chunks(text) if long_enough(c)] or [text]


def training_texts(rows: list[Row]) -> tuple[list[str], list[int]]:
    """The texts the fit sees, as the scanner will score them: confidentiality rules
    masked, and a long benign row cut into the chunks the scorer reads (each is benign;
    a long attack stays whole, since only some of its chunks may be hostile)."""
    texts: list[str] = []
    labels: list[int] = []
    for r in rows:
        pieces = _pieces(r)
        texts += pieces
        labels += [r.y] * len(pieces)
    return texts, labels


def training_langs(rows: list[Row]) -> list[str]:
    """The language of each of :func:`training_texts`' texts."""
    return [r.lang for r in rows for _ in _pieces(r)]


def training_boost(rows: list[Row], stranger_weight: float = STRANGER_WEIGHT) -> list[float]:
    """The weight factor of each of :func:`training_texts`' texts: ``stranger_weight`` for
    a strangers' row, 1 for the others."""
    return [stranger_weight if is_stranger(r) else 1.0 for r in rows for _ in _pieces(r)]


def fit_rows(
    rows: list[Row], *, seed: int = 12, stranger_weight: float = STRANGER_WEIGHT
) -> tuple[array[float], float]:
    """:func:`fit` on ``rows`` as the scanner reads them, classes balanced per language,
    strangers' rows weighted ``stranger_weight``."""
    texts, labels = training_texts(rows)
    boost = training_boost(rows, stranger_weight) if any(map(is_stranger, rows)) else None
    return fit(texts, labels, seed=seed, langs=training_langs(rows), boost=boost)


def kept_cut(thresholds: dict[str, float], cut: float | None = None) -> dict[str, float]:
    """``thresholds`` with ``strict`` and ``balanced`` at the kept cut (``cut``, else
    :data:`KEPT_CUT`; none: unchanged), capped by ``lenient``."""
    cut = KEPT_CUT if cut is None else cut
    if cut is None:
        return thresholds
    at = min(cut, thresholds["lenient"])
    return {**thresholds, "strict": at, "balanced": at}


def build(data: Data, out: Path, *, seed: int = 12) -> dict[str, Any]:
    """Fit on train, choose the thresholds on dev's benign rows (not the strangers'),
    write ``out``; return its header."""
    train, dev = assemble(data, seed=seed)
    weights, bias = fit_rows(train, seed=seed)
    score = scorer(weights, bias)
    dev_benign = [score(r.text) for r in dev if r.y == 0 and not is_stranger(r)]
    chosen = choose_thresholds(dev_benign, LEVEL_FP_TARGETS)
    thresholds = kept_cut({k: max(v, LEVEL_FLOORS[k]) for k, v in chosen.items()})
    files = data.files()
    from mnemic.scan import _stopwords

    meta = {
        "function_words": {
            "source": _stopwords.SOURCE,
            "languages": list(_stopwords.LANGUAGES),
            "count": len(_stopwords.WORDS),
        },
        "data_sha256": corpus_hash(*files),
        "data_files": [p.name for p in files],
        "seed": seed,
        "classes_balanced_per_language": {"min_rows_each": BALANCE_MIN_ROWS},
        "train_rows": len(train),
        "stranger_rows": {
            "train": sum(map(is_stranger, train)),
            "dev": sum(map(is_stranger, dev)),
            "weight": STRANGER_WEIGHT,
            "deal_seed": STRANGERS_SEED,
            "held_out": "scan_fresh10.jsonl and later sets",
            "dev_in_fit": STRANGERS_DEV_IN_FIT,
            "split_pairs": SPLIT_PAIRS,
        },
        "shapes": [*_scan_shapes.SHAPES, *_scan_shapes.SHAPE_PAIRS] if _scan_shapes.ON else [],
        "dev_benign_rows": len(dev_benign),
        "thresholds": thresholds,
        "thresholds_from_dev": chosen,
        "level_fp_targets_on_dev": LEVEL_FP_TARGETS,
        "level_floors": LEVEL_FLOORS,
        "kept_cut": KEPT_CUT,
    }
    return write_model(out, weights, bias, meta)
