"""Retrieval quality on LoCoMo without any LLM: recall of evidence turns and sessions.

    ./x bench locomo                       # ../shared/data/locomo/locomo-dev.json
    ./x bench locomo --data locomo10.json  # any file in the same format

Each conversation is imported into its own session store with the LoCoMo importer (one
session per LoCoMo session, turns in order). Each question with valid evidence (dia ids
that exist in the conversation) is ranked with the library's message ranking
(``mnemic.sessions.rank_turns``: the query processing and ranking ``session_search``
uses) and scored:

* turn recall@k: the share of the question's evidence turns among the top k turns;
* session recall@k: the share of its evidence sessions among the top k sessions (sessions
  ordered by their best turn, as the discovery shape orders them).

Both are averaged over questions, overall and per category. The ablation re-runs the
benchmark with parts of the pipeline switched off, from a plain FTS5 baseline up to the
shipped configuration.

``--retrieval lexical|semantic|hybrid|all`` (default all) also ranks every question by
meaning and by the fusion of both, side by side in the same run. The ``all``,
``held_out`` and ``tuning`` rows of ``retrieval`` are the product's ranking
(``mnemic.sessions.search_messages``, what ``session_search`` returns: every step after
the fusion included, such as fresh-first and the named speaker); ``fusion_only`` holds the
same rows from the fusion alone (exact cosine over passage vectors cached in
``bench/.cache``, fused by ``mnemic.sessions.search.hybrid``), which the fusion's
parameters are tuned on.
Fusion parameters and the passage recipe are chosen on a fixed-seed tuning split of the
conversations only; figures are reported for the held-out split and for all of them, and
for the Chinese translations of 100 questions in ``bench/data/locomo-zh.json``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _recall import SESSION_K, TURN_K, Tally, evidence
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.backends.files.sqlite.store import DEFAULT_TOKENIZER, DEFAULT_WEIGHTS
from mnemic.sessions import NewMessage, NewSession, SearchFilters, parse_query, rank
from mnemic.sessions.importing.importers import locomo_sessions
from mnemic.sessions.search.ranking import CANDIDATES, CONTEXT_WEIGHTS, SESSION_WEIGHT

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
)
PLAIN_FTS5 = {"5": 0.546, "10": 0.631, "25": 0.715, "50": 0.769}
PLAIN_TOKENIZER = "unicode61 remove_diacritics 2 tokenchars '-_.@/:+~#%?=&'"


@dataclass(frozen=True)
class Config:
    """One pipeline configuration of the ablation."""

    name: str
    tokenizer: str = DEFAULT_TOKENIZER
    weights: tuple[float, float] = DEFAULT_WEIGHTS
    natural: bool = True
    names: bool = True
    captions: bool = True
    context: tuple[float, ...] = CONTEXT_WEIGHTS
    session_weight: float = SESSION_WEIGHT


SHIPPED = Config("shipped: all of the above (session_search default)")
ABLATION = [
    Config(
        "plain FTS5: bm25, all question words OR-ed, no stemming",
        tokenizer=PLAIN_TOKENIZER,
        natural=False,
        names=False,
        context=(),
        session_weight=0.0,
    ),
    Config(
        "+ drop stop words and question words",
        tokenizer=PLAIN_TOKENIZER,
        names=False,
        context=(),
        session_weight=0.0,
    ),
    Config("+ Porter stemming", names=False, context=(), session_weight=0.0),
    Config("+ speaker name in the aux field (weight 0.4)", context=(), session_weight=0.0),
    Config("+ neighbour context (0.5, 0.2)", session_weight=0.0),
    SHIPPED,
    Config("shipped without photo captions", captions=False),
    Config("shipped with aux weight 1.0", weights=(1.0, 1.0)),
]


@dataclass
class Conversation:
    sample_id: str
    store: SQLiteSessionStore
    dia: dict[tuple[str, int], str]
    questions: list[dict[str, Any]]


def load(data: list[dict[str, Any]], workdir: Path, cfg: Config) -> list[Conversation]:
    convs = []
    for sample in data:
        sid = str(sample.get("sample_id"))
        store = SQLiteSessionStore(
            workdir / f"{cfg.name[:12].replace(' ', '_')}-{sid}.db",
            durable=False,
            tokenizer=cfg.tokenizer,
            weights=cfg.weights,
        )
        conv = sample["conversation"]
        items = []
        dia: dict[tuple[str, int], str] = {}
        for spec, msgs in locomo_sessions(sample):
            number = int(spec.id.rsplit("-s", 1)[1])
            turns = conv[f"session_{number}"]
            assert len(turns) == len(msgs)
            for i, turn in enumerate(turns):
                dia[(spec.id, i)] = str(turn.get("dia_id"))
            if not cfg.names or not cfg.captions:
                msgs = [
                    NewMessage(
                        m.role,
                        m.content if cfg.captions else str(turns[i].get("text") or ""),
                        name=m.name if cfg.names else None,
                        timestamp=m.timestamp,
                    )
                    for i, m in enumerate(msgs)
                ]
            items.append(
                (NewSession(spec.id, spec.source, spec.title, started_at=spec.started_at), msgs)
            )
        for _ in store.import_sessions(items, workers=0):
            pass
        convs.append(Conversation(sid, store, dia, list(sample.get("qa") or [])))
    return convs


def ranked_turns(conv: Conversation, question: str, cfg: Config) -> list[str]:
    query = parse_query(question, match="any", natural=cfg.natural)
    hits = conv.store.search(query, SearchFilters(), limit=CANDIDATES)
    ranked = rank(hits, context=cfg.context, session_weight=cfg.session_weight)
    return [conv.dia[(r.session_id, r.seq)] for r in ranked]


def evaluate(convs: list[Conversation], cfg: Config) -> dict[str, Any]:
    tally = Tally()
    skipped = 0
    for conv in convs:
        known = set(conv.dia.values())
        for qa in conv.questions:
            ev = evidence(qa, known)
            if not ev:
                skipped += 1
                continue
            turns = ranked_turns(conv, str(qa.get("question") or ""), cfg)
            tally.add(int(qa.get("category") or 0), ev, turns)
    return {**tally.result(), "skipped": skipped}


def run(data: list[dict[str, Any]], cfg: Config, workdir: Path) -> dict[str, Any]:
    convs = load(data, workdir, cfg)
    try:
        return evaluate(convs, cfg)
    finally:
        for c in convs:
            c.store.close()


def _fmt(recall: dict[str, float]) -> str:
    return " / ".join(f"{100 * v:.1f}" for v in recall.values())


ZH_DATA = Path(__file__).resolve().parent / "data" / "locomo-zh.json"
MODES = ("lexical", "semantic", "hybrid")


def retrieval(
    data: list[dict[str, Any]],
    modes: tuple[str, ...],
    workdir: Path,
    recipes: list[str] | None = None,
) -> dict[str, Any]:
    """Lexical, semantic and hybrid side by side (see the module docstring)."""
    import json

    import _retrieval as R
    from _semantic import RECIPES, cached_vectors, embedder
    from mnemic.sessions.search import hybrid
    from mnemic.sessions.search.retrieval import SEMANTIC_CANDIDATES

    convs = load(data, workdir, SHIPPED)
    try:
        dia = {c.sample_id: c.dia for c in convs}
        every = [str(qa.get("question") or "") for c in convs for qa in c.questions]
        qvecs = cached_vectors("query", every, label="locomo-questions")
        questions: dict[str, list[tuple[int, str, list[str]]]] = defaultdict(list)
        for c in convs:
            known = set(c.dia.values())
            for qa in c.questions:
                ev = evidence(qa, known)
                if ev:
                    questions[c.sample_id].append(
                        (int(qa.get("category") or 0), str(qa.get("question") or ""), ev)
                    )
        rows = [
            i
            for i, (c, qa) in enumerate((c, qa) for c in convs for qa in c.questions)
            if evidence(qa, set(c.dia.values()))
        ]
        recipes = recipes or list(RECIPES)
        if hybrid.PASSAGE_RECIPE not in recipes:
            recipes.append(hybrid.PASSAGE_RECIPE)
        side_sets = {r: R.sides(convs, r) for r in recipes}
        items = R.build_items(convs, questions, qvecs[rows], side_sets)
        tune_ids, held_ids = R.split(list(dia))
        tune_items = [i for i in items if i.conv in tune_ids]
        held_items = [i for i in items if i.conv in held_ids]
        table = R.tune(tune_items, dia, recipes)
        chosen = {k: v for k, v in table[0].items() if k != "objective"}
        shipped: dict[str, Any] = {
            "recipe": hybrid.PASSAGE_RECIPE,
            "candidates": SEMANTIC_CANDIDATES,
            "context": list(hybrid.SEMANTIC_CONTEXT),
            "method": hybrid.FUSION,
        }
        if hybrid.FUSION == "rrf":
            shipped["k"] = hybrid.RRF_K
            shipped["w_sem"] = hybrid.RRF_WEIGHTS[1] / hybrid.RRF_WEIGHTS[0]
        else:
            shipped["alpha"] = hybrid.BLEND_ALPHA
        fusion = []
        seen: set[tuple[str, str]] = set()
        for row in table:
            key = (row["method"], row["recipe"])
            if key in seen:
                continue
            seen.add(key)
            params = {k: v for k, v in row.items() if k != "objective"}
            hyb = R.rankers(params)["hybrid"]
            fusion.append(
                {
                    "params": params,
                    "tuning_objective": row["objective"],
                    "held_out": R.headline(R.score(held_items, hyb, dia)),
                    "all": R.headline(R.score(items, hyb, dia)),
                }
            )
        out: dict[str, Any] = {
            "model": embedder().model_id,
            "split": {"seed": R.SPLIT_SEED, "tuning": tune_ids, "held_out": held_ids},
            "chosen_on_tuning_split": chosen,
            "shipped": shipped,
            "fusion_comparison": fusion,
        }
        fns = R.rankers(shipped)
        out["fusion_only"] = {
            name: {m: R.score(subset, fns[m], dia) for m in modes}
            for name, subset in (("all", items), ("held_out", held_items), ("tuning", tune_items))
        }
        zh = json.loads(ZH_DATA.read_text(encoding="utf-8")) if ZH_DATA.exists() else []
        # The figures of record: the product's own ranking, every step included
        recorded = product_figures(data, modes, workdir, tune_ids, held_ids, zh)
        zh_recorded = recorded.pop("zh")
        out.update(recorded)
        if zh:
            zq: dict[str, list[tuple[int, str, list[str]]]] = defaultdict(list)
            order = {c.sample_id: n for n, c in enumerate(convs)}
            zh.sort(key=lambda e: order.get(e["sample_id"], 99))
            for e in zh:
                zq[e["sample_id"]].append((int(e["category"]), e["zh"], list(e["evidence"])))
            zvecs = cached_vectors("query", [e["zh"] for e in zh], label="locomo-zh")
            zitems = R.build_items(convs, zq, zvecs, side_sets)
            en = [(e["sample_id"], int(e["category"]), e["question"], e["evidence"]) for e in zh]
            eq: dict[str, list[tuple[int, str, list[str]]]] = defaultdict(list)
            for sid, cat, text, ev in en:
                eq[sid].append((cat, text, list(ev)))
            evecs = cached_vectors("query", [e["question"] for e in zh], label="locomo-zh-en")
            eitems = R.build_items(convs, eq, evecs, side_sets)
            latin = [R.latin_names(e["zh"]) for e in zh]
            lq: dict[str, list[tuple[int, str, list[str]]]] = defaultdict(list)
            for e, text in zip(zh, latin, strict=True):
                lq[e["sample_id"]].append((int(e["category"]), text, list(e["evidence"])))
            lvecs = cached_vectors("query", latin, label="locomo-zh-latin")
            litems = R.build_items(convs, lq, lvecs, side_sets)
            fns = R.rankers(shipped)
            out["chinese"] = {
                "questions": len(zitems),
                "zh": zh_recorded,
                "zh_fusion_only": {m: R.score(zitems, fns[m], dia) for m in modes},
                "zh_with_names_in_latin_script": {m: R.score(litems, fns[m], dia) for m in modes},
                "same_questions_in_english": {m: R.score(eitems, fns[m], dia) for m in modes},
            }
        return out
    finally:
        for c in convs:
            c.store.close()


def product_figures(
    data: list[dict[str, Any]],
    modes: tuple[str, ...],
    workdir: Path,
    tune_ids: list[str],
    held_ids: list[str],
    chinese: list[dict[str, Any]],
) -> dict[str, Any]:
    """Turn and session recall of the product's ranking (``mnemic.sessions.search_messages``,
    as ``session_search`` and ``sessions search --messages`` rank: fusion, then fresh-first,
    who said it and the named speaker), per split and mode, in the shape of the fusion-only
    rows; ``chinese``: the translated questions (``zh``) of the conversations present.
    Each conversation is imported and embedded through the product's backfill (the
    embeddings cached by ``bench/_vcache.py``)."""
    import recall as product
    from _vcache import CachedEmbedder

    embedder = CachedEmbedder() if any(m != "lexical" for m in modes) else None
    corpora = product.locomo_corpora(data, workdir / "product", embedder)
    splits = {"all": set(corpora), "held_out": set(held_ids), "tuning": set(tune_ids)}
    tallies = {(name, m): Tally() for name in (*splits, "zh") for m in modes}

    def ask(sid: str, category: int, question: str, ev: list[str], into: list[str]) -> None:
        corpus = corpora[sid]
        for m in modes:
            ranked = product.ranking(corpus, question, m, lambda: embedder, None)
            turns = [corpus.keys[p] for p in ranked if p in corpus.keys]
            for name in into:
                tallies[(name, m)].add(category, ev, turns)

    try:
        for sample in data:
            sid = str(sample["sample_id"])
            known = set(corpora[sid].keys.values())
            into = [name for name, ids in splits.items() if sid in ids]
            for qa in sample.get("qa") or []:
                ev = evidence(qa, known)
                if ev:
                    ask(sid, int(qa.get("category") or 0), str(qa.get("question") or ""), ev, into)
        for e in chinese:
            if e["sample_id"] in corpora:
                ask(e["sample_id"], int(e["category"]), e["zh"], list(e["evidence"]), ["zh"])
    finally:
        for c in corpora.values():
            c.store.close()
    out: dict[str, Any] = {name: {m: tallies[(name, m)].result() for m in modes} for name in splits}
    out["zh"] = {m: tallies[("zh", m)].result() for m in modes}
    return out


def _table(out: dict[str, Any]) -> None:
    for split in ("all", "held_out", "chinese"):
        block = out.get(split)
        if split == "chinese" and block:
            block = block["zh"]
        if not block:
            continue
        for mode, r in block.items():
            print(
                f"  {split:9s} {mode:9s} turn@5/10/25/50 {_fmt(r['turn_recall'])}  "
                f"session@2/5/10 {_fmt(r['session_recall'])}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo JSON file")
    parser.add_argument("--no-ablation", action="store_true", help="Only the shipped config")
    parser.add_argument(
        "--retrieval",
        choices=(*MODES, "all"),
        default="all",
        help="lexical only (no embedder needed), or semantic / hybrid / all three side by side",
    )
    parser.add_argument(
        "--recipes",
        default="plain,previous,context",
        help="Passage recipes to compare (comma-separated; the shipped one is always in)",
    )
    args = parser.parse_args()
    import json

    data = json.loads(args.data.read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mnemic-locomo-") as tmp:
        workdir = Path(tmp)
        result = run(data, SHIPPED, workdir)
        print(
            f"shipped: turn recall@{'/'.join(map(str, TURN_K))} {_fmt(result['turn_recall'])}; "
            f"session recall@{'/'.join(map(str, SESSION_K))} {_fmt(result['session_recall'])}",
            flush=True,
        )
        ablation = []
        if not args.no_ablation:
            for cfg in ABLATION:
                r = result if cfg is SHIPPED else run(data, cfg, workdir)
                ablation.append(
                    {
                        "config": cfg.name,
                        "turn_recall": r["turn_recall"],
                        "session_recall": r["session_recall"],
                    }
                )
                print(f"  {cfg.name:58s} {_fmt(r['turn_recall'])}", flush=True)
        modes = MODES if args.retrieval == "all" else (args.retrieval,)
        semantic = None
        if args.retrieval != "lexical":
            if "lexical" not in modes:
                modes = ("lexical", *modes)
            semantic = retrieval(data, modes, workdir, args.recipes.split(","))
            _table(semantic)
    dragon = {"5": 0.567, "10": 0.662, "25": 0.767, "50": 0.827}
    out: dict[str, Any] = {
        "data": str(args.data),
        "conversations": len(data),
        **result,
        "config": {
            "tokenizer": SHIPPED.tokenizer,
            "weights": {"body": SHIPPED.weights[0], "aux": SHIPPED.weights[1]},
            "context": list(SHIPPED.context),
            "session_weight": SHIPPED.session_weight,
            "candidates": CANDIDATES,
        },
        "ablation": ablation,
        "reference": {
            "dragon_turn_recall": dragon,
            "plain_fts5_turn_recall_10_conversations": PLAIN_FTS5,
        },
        "beats_dragon": {k: result["turn_recall"][k] > v for k, v in dragon.items()},
        "retrieval": semantic,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    emit("locomo", out)


if __name__ == "__main__":
    main()
