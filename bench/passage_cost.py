"""What passage vectors cost to embed: ``./x bench passage_cost``.

    ./x bench passage_cost                        # the shipped recipe against one vector
    ./x bench passage_cost --specs off,,pieces=3  # any bench/_passages.py specs ("": shipped)

A sample of the dev messages of ``./x bench recall`` (every 8th LoCoMo dev turn, every
3rd long-chat dev message, the users' and the assistant's, with their previous turn and
speaker names as the store gives them) is embedded by the shipped model, no cache, once
per recipe; the recipes take turns batch by batch (16 messages), so a busy machine slows
them alike. Reported per
recipe: vectors per message, messages per second, and the time against one vector a
message (``off``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from _passages import embedded_texts, parse, texts_of
from mnemic.embedding.model import load_embedder
from mnemic.sessions.sql.vectors import PendingText

HERE = Path(__file__).resolve().parent
LOCOMO = HERE.parents[1] / "shared" / "data" / "locomo" / "locomo-dev.json"
DEV = ("conv-26", "conv-30", "conv-42")


def sample() -> dict[str, list[PendingText]]:
    """The messages embedded, per set."""
    out: dict[str, list[PendingText]] = {"locomo": [], "longchat": []}
    for conv in json.loads(LOCOMO.read_text(encoding="utf-8")):
        if conv["sample_id"] not in DEV:
            continue
        c = conv["conversation"]
        n = 1
        while f"session_{n}" in c:
            turns = c[f"session_{n}"]
            for i, t in enumerate(turns):
                p = turns[i - 1] if i else None
                out["locomo"].append(PendingText(0, "user", t["text"], None,
                                                 p["text"] if p else None, t["speaker"],
                                                 p["speaker"] if p else None))  # fmt: skip
            n += 1
    chats = json.loads((HERE / "data" / "longchat.json").read_text(encoding="utf-8"))
    dev = {q["history"] for q in chats["questions"] if q["split"] == "dev"}
    for h in chats["histories"]:
        if h["id"] in dev:
            for s in h["sessions"]:
                msgs = s["messages"]
                for i, m in enumerate(msgs):
                    prev = msgs[i - 1]["content"] if i else None
                    out["longchat"].append(PendingText(0, m["role"], m["content"], None, prev))
    return {"locomo": out["locomo"][::8], "longchat": out["longchat"][::3]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--specs", default="off,", help="comma-separated specs; '' = shipped")
    args = parser.parse_args()
    specs = args.specs.split(",")
    if args.specs == "off,":
        specs = ["off", ""]
    knobs = {s: (parse(s) if s else {}) for s in specs}
    emb = load_embedder()
    emb.embed_passages(["warm up"])
    out: dict[str, Any] = {"model": emb.model_id, "sets": {}}
    for name, msgs in sample().items():
        took = dict.fromkeys(specs, 0.0)
        vectors = dict.fromkeys(specs, 0)
        for start in range(0, len(msgs), 16):
            batch = msgs[start : start + 16]
            for spec in specs[:: 1 if start % 32 else -1]:
                texts = [t for m in batch for t in embedded_texts(texts_of(m, knobs[spec]),
                                                                  knobs[spec])]  # fmt: skip
                a = time.perf_counter()
                emb.embed_passages(texts)
                took[spec] += time.perf_counter() - a
                vectors[spec] += len(texts)
        row = {}
        for spec in specs:
            label = spec or "shipped"
            row[label] = {
                "messages": len(msgs),
                "vectors": vectors[spec],
                "vectors_per_message": round(vectors[spec] / len(msgs), 3),
                "messages_per_s": round(len(msgs) / took[spec], 2),
                "time_vs_off": round(took[spec] / took["off"], 3) if "off" in took else None,
            }
            print(f"  {name:8s} {label:20s} {row[label]}", flush=True)
        out["sets"][name] = row
    emit("passage-cost", out)


if __name__ == "__main__":
    main()
