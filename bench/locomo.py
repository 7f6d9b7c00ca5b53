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
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from mnemic.sessions import (
    NewMessage,
    NewSession,
    SearchFilters,
    SQLiteSessionStore,
    parse_query,
    rank,
)
from mnemic.sessions.importers import locomo_sessions
from mnemic.sessions.ranking import CANDIDATES, CONTEXT_WEIGHTS, SESSION_WEIGHT
from mnemic.sessions.sqlite import DEFAULT_TOKENIZER, DEFAULT_WEIGHTS

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
)
TURN_K = (5, 10, 25, 50)
SESSION_K = (2, 5, 10)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
DIA = re.compile(r"^D(\d+):(\d+)$")
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


def evidence(qa: dict[str, Any], known: set[str]) -> list[str]:
    out = []
    for ev in qa.get("evidence") or []:
        for piece in re.split(r"[;,\s]+", str(ev)):
            if DIA.match(piece) and piece in known and piece not in out:
                out.append(piece)
    return out


def ranked_turns(conv: Conversation, question: str, cfg: Config) -> list[str]:
    query = parse_query(question, match="any", natural=cfg.natural)
    hits = conv.store.search(query, SearchFilters(), limit=CANDIDATES)
    ranked = rank(hits, context=cfg.context, session_weight=cfg.session_weight)
    return [conv.dia[(r.session_id, r.seq)] for r in ranked]


def evaluate(convs: list[Conversation], cfg: Config) -> dict[str, Any]:
    turn = defaultdict(float)
    sess = defaultdict(float)
    cat_turn: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    cat_sess: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    cat_n: dict[int, int] = defaultdict(int)
    n = skipped = 0
    for conv in convs:
        known = set(conv.dia.values())
        for qa in conv.questions:
            ev = evidence(qa, known)
            if not ev:
                skipped += 1
                continue
            n += 1
            cat = int(qa.get("category") or 0)
            cat_n[cat] += 1
            turns = ranked_turns(conv, str(qa.get("question") or ""), cfg)
            for k in TURN_K:
                value = len(set(ev) & set(turns[:k])) / len(ev)
                turn[k] += value
                cat_turn[cat][k] += value
            sessions = list(dict.fromkeys(t.split(":")[0] for t in turns))
            ev_sessions = {e.split(":")[0] for e in ev}
            for k in SESSION_K:
                value = len(ev_sessions & set(sessions[:k])) / len(ev_sessions)
                sess[k] += value
                cat_sess[cat][k] += value

    def fractions(acc: dict[int, float], ks: tuple[int, ...], count: int) -> dict[str, float]:
        return {str(k): round(acc[k] / count, 4) if count else 0.0 for k in ks}

    return {
        "questions": n,
        "skipped": skipped,
        "turn_recall": fractions(turn, TURN_K, n),
        "session_recall": fractions(sess, SESSION_K, n),
        "by_category": {
            str(c): {
                "name": CATEGORIES.get(c, "other"),
                "questions": cat_n[c],
                "turn_recall": fractions(cat_turn[c], TURN_K, cat_n[c]),
                "session_recall": fractions(cat_sess[c], SESSION_K, cat_n[c]),
            }
            for c in sorted(cat_n)
        },
    }


def run(data: list[dict[str, Any]], cfg: Config, workdir: Path) -> dict[str, Any]:
    convs = load(data, workdir, cfg)
    try:
        return evaluate(convs, cfg)
    finally:
        for c in convs:
            c.store.close()


def _fmt(recall: dict[str, float]) -> str:
    return " / ".join(f"{100 * v:.1f}" for v in recall.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo JSON file")
    parser.add_argument("--no-ablation", action="store_true", help="Only the shipped config")
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
        "seconds": round(time.perf_counter() - t0, 1),
    }
    emit("locomo", out)


if __name__ == "__main__":
    main()
