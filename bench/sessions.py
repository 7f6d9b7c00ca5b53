"""Session history at scale: bulk import, durable appends, size and discovery latency.

    ./x bench sessions                    # 1,000,000 messages (a few minutes)
    ./x bench sessions --messages 100000  # smaller run
    ./x bench sessions --messages 200000 --baseline /path/to/older/checkout/src
                                          # bulk import of both, interleaved, first

The corpus is a deterministic synthetic chat (seeded): sessions of 10-120 messages,
about 70 % English-like text over a Zipf-distributed 30,000-word vocabulary with e-mail
addresses, versions, paths and URLs sprinkled in, and 30 % Chinese text built from a
Zipf-distributed 20,000-word vocabulary of 1-4 character words (some messages mix both).
10 % of sessions are ``cron``; some assistant messages carry tool calls and are followed
by tool results.

Figures:
* bulk import: ``SQLiteSessionStore.import_sessions`` over the pre-generated corpus;
  with ``--baseline SRC``, first ``--rounds`` imports of the same corpus by that checkout
  and by this one, alternating, each in a fresh process and database: wall time and CPU
  time (the importing process and its segmentation worker) per side, medians and the
  ratio (``import_vs_baseline``);
* durable appends: ``append_message`` one at a time (each its own ``BEGIN IMMEDIATE``
  transaction committed with ``synchronous=FULL``) into the full database;
* size: database file (after a WAL checkpoint) over the UTF-8 bytes of message content;
* discovery: the ``session_search`` tool's discovery shape (FTS query, ranking, lineage
  dedupe, windows and bookends, JSON response) for 200 queries of 1-3 words. ``discovery``:
  consecutive content words of recorded messages (what someone recalling a conversation
  types; about 30 % Chinese). ``discovery_random_words``: words drawn independently from
  the vocabularies (English ranks 30-6000, Chinese ranks 1-6000), which rarely occur
  together, so multi-word queries fall back to ranking by any word: the costly case.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit, summarize_ms
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, NewSession, run_session_search


def _words(text: str) -> list[str]:
    return text.split()


_SYLLABLES = _words(
    "ka lo mi ra ne to shi va po lu de fo gri zan ber tek mon sol dri vex qui hal nor pen "
    "rus tam wel yor zel cra"
)
_COMMON = _words(
    "the be to of and a in that have i it for not on with he as you do at this but his by "
    "from they we say her she or an will my one all would there their what so up out if "
    "about who get which go me when make can like time no just him know take people into "
    "year your good some could them see other than then now look only come its over think "
    "also back after use two how our work first well way even new want because any these "
    "give day most us"
)


def _zipf(n: int, s: float) -> list[float]:
    return list(itertools.accumulate(1.0 / (r**s) for r in range(1, n + 1)))


class Corpus:
    """Deterministic synthetic chat text."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        rng = self.rng
        words = list(_COMMON)
        seen = set(words)
        while len(words) < 30000:
            w = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
            if w not in seen:
                seen.add(w)
                words.append(w)
        self.en = words
        self.en_cum = _zipf(len(words), 1.05)
        hanzi = [chr(0x4E00 + i) for i in rng.sample(range(0x5000), 3500)]
        hanzi_cum = _zipf(len(hanzi), 0.9)
        zh: set[str] = set()
        while len(zh) < 20000:
            n = rng.choices((1, 2, 3, 4), weights=(25, 60, 10, 5))[0]
            zh.add("".join(rng.choices(hanzi, cum_weights=hanzi_cum, k=n)))
        self.zh = sorted(zh)
        rng.shuffle(self.zh)
        self.zh_cum = _zipf(len(self.zh), 1.0)
        self.stop = set(self.en[:30])
        self.samples: list[list[str]] = []

    def english(self) -> str:
        rng = self.rng
        n = max(3, int(rng.lognormvariate(3.0, 0.7)))
        w = rng.choices(self.en, cum_weights=self.en_cum, k=n)
        self._sample(w)
        r = rng.random()
        extra = None
        if r < 0.05:
            extra = f"user{rng.randrange(5000)}@example{rng.randrange(50)}.com"
        elif r < 0.10:
            extra = f"v{rng.randrange(5)}.{rng.randrange(20)}.{rng.randrange(30)}"
        elif r < 0.15:
            extra = f"/srv/{rng.choice(self.en[100:2000])}/{rng.choice(self.en[100:5000])}.py"
        elif r < 0.18:
            extra = f"https://docs.{rng.choice(self.en[100:3000])}.org/{rng.choice(self.en)}"
        if extra:
            w.insert(rng.randrange(len(w)), extra)
        return " ".join(w).capitalize() + "."

    def chinese(self) -> str:
        rng = self.rng
        n = max(4, int(rng.lognormvariate(3.3, 0.6)))
        words = rng.choices(self.zh, cum_weights=self.zh_cum, k=max(2, n // 2))
        self._sample(words)
        text = "".join(words)
        parts = [text[i : i + 13] for i in range(0, len(text), 13)]
        out = "，".join(parts)
        if rng.random() < 0.2:
            words = " ".join(rng.choices(self.en, cum_weights=self.en_cum, k=2))
            cut = rng.randrange(len(out))
            out = f"{out[:cut]} {words} {out[cut:]}"
        return out + "。"

    def message(self) -> str:
        return self.chinese() if self.rng.random() < 0.3 else self.english()

    def session(self, index: int, start: float) -> tuple[NewSession, list[NewMessage]]:
        rng = self.rng
        n = rng.randint(10, 120)
        msgs: list[NewMessage] = []
        ts = start
        while len(msgs) < n:
            ts += rng.uniform(5, 120)
            role = "user" if len(msgs) % 2 == 0 else "assistant"
            if role == "assistant" and rng.random() < 0.08:
                call = {
                    "id": f"call_{index}_{len(msgs)}",
                    "type": "function",
                    "function": {
                        "name": rng.choice(("web_search", "read_file", "terminal")),
                        "arguments": '{"q": "' + " ".join(rng.choices(self.en[:5000], k=3)) + '"}',
                    },
                }
                msgs.append(NewMessage(role, "", tool_calls=[call], timestamp=ts))
                msgs.append(
                    NewMessage(
                        "tool", self.message(), tool_call_id=call["id"], timestamp=ts + 1,
                        tool_name=call["function"]["name"],  # type: ignore[index]
                    )
                )  # fmt: skip
                continue
            msgs.append(NewMessage(role, self.message(), timestamp=ts))
        source = "cron" if index % 10 == 0 else "cli"
        return NewSession(id=f"bench-{index:07d}", source=source, started_at=start), msgs

    def _sample(self, words: list[str]) -> None:
        """Keep the words of about one message in 500 (queries are drawn from them)."""
        if self.rng.random() < 0.002:
            content = [w for w in words if w not in self.stop]
            if content:
                self.samples.append(content)

    def recall_query(self) -> str:
        """1-3 consecutive content words of a message that was recorded: what a user
        recalling a past conversation would type."""
        rng = self.rng
        words = rng.choice(self.samples)
        k = min(len(words), rng.choice((1, 2, 2, 3)))
        start = rng.randrange(len(words) - k + 1)
        return " ".join(words[start : start + k])

    def query(self) -> str:
        """1-3 content words drawn independently from the vocabularies (they rarely occur
        together, so multi-word queries fall back to any-word ranking: the costly case)."""
        rng = self.rng
        k = rng.choice((1, 2, 2, 3))
        if rng.random() < 1 / 3:
            return " ".join(rng.choice(self.zh[:6000]) for _ in range(k))
        return " ".join(rng.choice(self.en[30:6000]) for _ in range(k))


def build(corpus: Corpus, total: int) -> tuple[list[tuple[NewSession, list[NewMessage]]], int]:
    items = []
    count = 0
    text_bytes = 0
    start = 1.70e9
    index = 0
    while count < total:
        spec, msgs = corpus.session(index, start)
        msgs = msgs[: total - count]
        items.append((spec, msgs))
        count += len(msgs)
        text_bytes += sum(len((m.content or "").encode("utf-8")) for m in msgs)
        start += 600.0
        index += 1
    return items, text_bytes


def import_only(messages: int, seed: int, where: str) -> None:
    """Child mode of ``--baseline``: import the corpus into a new database in ``where``,
    print one JSON line (messages, wall seconds, CPU seconds of this process and its
    children)."""
    items, _ = build(Corpus(seed), messages)
    store = SQLiteSessionStore(Path(where) / "sessions.db")
    cpu0, kids0 = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    imported = sum(len(done.message_ids or ()) for done in store.import_sessions(items))
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    worker = kids.ru_utime + kids.ru_stime - kids0.ru_utime - kids0.ru_stime
    store.close()
    out = {"messages": imported, "seconds": wall, "cpu_s": time.process_time() - cpu0}
    print(json.dumps({**out, "worker_cpu_s": worker}), flush=True)


def fts5_only(messages: int, seed: int, where: str) -> None:
    """Child mode of ``--baseline``: the ceiling. The corpus's full-text columns computed
    first (untimed), then only their insertion into a bare FTS5 table like the store's
    (same tokenizer and settings, 5,000-row durable transactions, then ``optimize``);
    prints the same JSON line as :func:`import_only`."""
    import sqlite3

    from mnemic.backends.files.sqlite.schema import FTS_CONFIG, fts_table_sql
    from mnemic.sessions.index.fields import DEFAULT_TOKENIZER, FieldIndexer
    from mnemic.sessions.index.segment import DEFAULT_SEGMENTER

    items, _ = build(Corpus(seed), messages)
    fields = FieldIndexer(DEFAULT_SEGMENTER)
    rows = [
        (i, *fields.columns((m.content, m.name, m.tool_name, m.tool_calls_json())))
        for i, m in enumerate((m for _, msgs in items for m in msgs), 1)
    ]
    conn = sqlite3.connect(Path(where) / "fts.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(fts_table_sql(DEFAULT_TOKENIZER))
    for stmt in FTS_CONFIG:
        conn.execute(stmt)
    cpu0, t0 = time.process_time(), time.perf_counter()
    for k in range(0, len(rows), 5000):
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO messages_fts(rowid, body, aux) VALUES (?, ?, ?)", rows[k : k + 5000]
        )
        conn.execute("COMMIT")
    conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")
    wall = time.perf_counter() - t0
    conn.close()
    out = {"messages": len(rows), "seconds": wall, "cpu_s": time.process_time() - cpu0}
    print(json.dumps({**out, "worker_cpu_s": 0.0}), flush=True)


def compare_imports(args: argparse.Namespace) -> dict[str, Any]:
    """Bulk imports by ``args.baseline`` and by this checkout, and the FTS5 insertion
    alone (:func:`fts5_only`), alternating."""
    here = str(Path(__file__).resolve().parents[1] / "src")
    runs: dict[str, list[dict[str, float]]] = {"baseline": [], "this": [], "fts5_only": []}
    sides = (("baseline", args.baseline), ("this", here), ("fts5_only", here))
    for _ in range(args.rounds):
        for side, src in sides:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
            where = tempfile.mkdtemp(prefix="mnemic-bench-import-", dir=args.dir)
            try:
                out = subprocess.run(
                    [sys.executable, __file__, f"--{side.replace('_', '-')}"
                     if side == "fts5_only" else "--import-only", where,
                     "--messages", str(args.messages), "--seed", str(args.seed)],
                    env=env, check=True, capture_output=True, text=True,
                ).stdout  # fmt: skip
            finally:
                shutil.rmtree(where, ignore_errors=True)
            run = json.loads(out.strip().splitlines()[-1])
            runs[side].append(run)
            print(
                f"import {side:9}: {run['messages'] / run['seconds']:8,.0f} messages/s "
                f"({run['seconds']:.1f}s wall, {run['cpu_s']:.1f}s CPU "
                f"+ {run['worker_cpu_s']:.1f}s worker)",
                flush=True,
            )
    result: dict[str, Any] = {"baseline_src": args.baseline, "rounds": args.rounds}
    for side, done in runs.items():
        n = done[0]["messages"]
        result[side] = {
            "messages": n,
            "messages_per_s": [round(r["messages"] / r["seconds"]) for r in done],
            "median_messages_per_s": round(n / statistics.median(r["seconds"] for r in done)),
            "median_cpu_s": round(statistics.median(r["cpu_s"] for r in done), 2),
            "median_worker_cpu_s": round(statistics.median(r["worker_cpu_s"] for r in done), 2),
        }
    pairs = zip(runs["baseline"], runs["this"], strict=True)
    ratios = [b["seconds"] / t["seconds"] for b, t in pairs]
    result["speedup_per_round"] = [round(r, 2) for r in ratios]
    cpu = result["baseline"]["median_cpu_s"] / max(result["this"]["median_cpu_s"], 1e-9)
    result["cpu_ratio"] = round(cpu, 2)
    share = result["fts5_only"]["median_cpu_s"] / max(result["this"]["median_cpu_s"], 1e-9)
    result["fts5_share_of_this_cpu"] = round(share, 2)
    print(
        f"ceiling: the FTS5 insertion alone takes {share:.0%} of this import's CPU "
        f"({result['fts5_only']['median_messages_per_s']:,} messages/s on its own)",
        flush=True,
    )
    print(
        f"import: this checkout {statistics.median(ratios):.2f}x the baseline's speed "
        f"(per round {', '.join(f'{r:.2f}' for r in ratios)}); CPU of the importing "
        f"process {cpu:.2f}x less",
        flush=True,
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20260517)
    parser.add_argument("--dir", default=None, help="where to create the database")
    parser.add_argument(
        "--baseline",
        help="src directory of another mnemic checkout: its bulk import runs too, "
        "alternating with this one's",
    )
    parser.add_argument("--rounds", type=int, default=3, help="imports per side (--baseline)")
    parser.add_argument("--import-only", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--fts5-only", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.import_only:
        import_only(args.messages, args.seed, args.import_only)
        return
    if args.fts5_only:
        fts5_only(args.messages, args.seed, args.fts5_only)
        return
    compared = compare_imports(args) if args.baseline else None

    corpus = Corpus(args.seed)
    t0 = time.perf_counter()
    items, text_bytes = build(corpus, args.messages)
    n_messages = sum(len(m) for _, m in items)
    print(
        f"generated {n_messages:,} messages in {len(items):,} sessions "
        f"({text_bytes / 1e6:.1f} MB text) in {time.perf_counter() - t0:.1f}s",
        flush=True,
    )
    workdir = Path(tempfile.mkdtemp(prefix="mnemic-bench-", dir=args.dir))
    result: dict[str, Any] = {"messages": n_messages, "sessions": len(items)}
    if compared is not None:
        result["import_vs_baseline"] = compared
    try:
        store = SQLiteSessionStore(workdir / "sessions.db")
        t0 = time.perf_counter()
        imported = 0
        for done in store.import_sessions(items):
            imported += len(done.message_ids or ())
        bulk_s = time.perf_counter() - t0
        del items
        result["bulk_import"] = {
            "messages": imported,
            "seconds": round(bulk_s, 2),
            "messages_per_s": round(imported / bulk_s),
        }
        print(f"bulk import: {imported / bulk_s:,.0f} messages/s ({bulk_s:.1f}s)", flush=True)

        store.checkpoint()
        db_bytes = os.path.getsize(workdir / "sessions.db")
        result["size"] = {
            "db_bytes": db_bytes,
            "text_bytes": text_bytes,
            "db_bytes_per_text_byte": round(db_bytes / text_bytes, 3),
        }
        print(f"size: {db_bytes / 1e6:.1f} MB, {db_bytes / text_bytes:.2f} x the text", flush=True)

        # durable one-at-a-time appends into the full database
        latencies: list[float] = []
        per_session = 50
        sessions = max(1, args.appends // per_session)
        base_ts = 1.70e9 + 600.0 * (len(result) + 10**6)
        for i in range(sessions):
            sid = store.start_session(id=f"live-{i:04d}", source="cli", started_at=base_ts)
            for j in range(per_session):
                msg = NewMessage("user" if j % 2 == 0 else "assistant", corpus.message())
                t = time.perf_counter()
                store.append_message(sid, msg)
                latencies.append(time.perf_counter() - t)
        result["durable_appends"] = {**summarize_ms(latencies), "synchronous": "FULL"}
        s = result["durable_appends"]
        print(
            f"durable appends: {s['ops_per_s']:,.0f}/s p50 {s['p50_ms']} ms "
            f"p99 {s['p99_ms']} ms max {s['max_ms']} ms",
            flush=True,
        )

        # discovery latency through the tool, for two query distributions
        from mnemic.config import SessionSettings

        settings = SessionSettings()
        for key, make in (
            ("discovery", corpus.recall_query),
            ("discovery_random_words", corpus.query),
        ):
            queries = [make() for _ in range(args.queries)]
            run_session_search(store, {"query": queries[0]}, settings=settings)  # warm up
            lat: list[float] = []
            found = 0
            for q in queries:
                t = time.perf_counter()
                resp = run_session_search(store, {"query": q}, settings=settings)
                lat.append(time.perf_counter() - t)
                found += bool(resp.get("count"))
            result[key] = {
                **summarize_ms(lat),
                "queries": len(queries),
                "with_results": found,
                "examples": queries[:8],
            }
            s = result[key]
            print(
                f"{key}: p50 {s['p50_ms']} ms p99 {s['p99_ms']} ms max {s['max_ms']} ms "
                f"({found}/{len(queries)} with results)",
                flush=True,
            )
        result["aims"] = {
            "bulk_messages_per_s": 50000,
            "appends_per_s": 1000,
            "append_max_ms": 50,
            "db_bytes_per_text_byte": 4.0,
            "discovery_p50_ms": 10,
            "discovery_p99_ms": 50,
        }
        store.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    emit("sessions", result)


if __name__ == "__main__":
    main()
