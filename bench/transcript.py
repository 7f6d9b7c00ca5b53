"""A Claude Code transcript imported by the hooks as it grows: what each run costs.

    ./x bench transcript                      # 200,000 messages (about 90 MB)
    ./x bench transcript --messages 2000000   # about 0.9 GB, the size that used to fail

The transcript is synthetic (one session, messages of about 430 bytes with a uuid each).
Each PreCompact hook call runs in-process with the hook's own budget
(``integrations.hook.BUDGETS``): the calls needed to import the whole file, with the
bytes read and the time of each; then a call with nothing new, one after 1,000 more
lines, and, for comparison, reading the whole file again with ``import_path`` (what
every hook call did before import marks: its cost grew with the file).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.sessions import import_path, open_store

SESSION = "7c0ffee0-0000-4000-8000-000000000001"
TEXT = "the quick brown fox jumps over the lazy dog; " * 7


def line(n: int) -> bytes:
    role = "user" if n % 2 == 0 else "assistant"
    obj = {
        "type": role,
        "sessionId": SESSION,
        "uuid": f"b0000000-0000-4000-8000-{n:012d}",
        "timestamp": "2026-12-01T09:00:00.000Z",
        "message": {"role": role, "content": f"m{n} w{n % 977} {TEXT}"},
    }
    return json.dumps(obj).encode() + b"\n"


def write(path: Path, start: int, stop: int) -> None:
    with path.open("ab") as fh:
        for n in range(start, stop):
            fh.write(line(n))


def hook(home: Path, path: Path, event: str = "PreCompact") -> dict[str, Any]:
    payload = {"session_id": SESSION, "transcript_path": str(path), "hook_event_name": event}
    began = time.monotonic()
    result = run_claude_code_hook(json.dumps(payload).encode(), home_path=str(home))
    took = time.monotonic() - began
    assert result.ok, result.message
    print(f"  {took:6.1f} s  {result.stdout.strip()}", flush=True)
    return {"seconds": round(took, 2), "line": result.stdout.strip()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        home, path = Path(tmp) / "home", Path(tmp) / f"{SESSION}.jsonl"
        write(path, 0, args.messages)
        size = path.stat().st_size
        print(f"transcript: {args.messages:,} messages, {size / 1e6:,.1f} MB", flush=True)
        runs = []
        while not runs or "bytes are left" in runs[-1]["line"]:
            runs.append(hook(home, path))
        idle = hook(home, path)
        write(path, args.messages, args.messages + 1000)
        grown = hook(home, path)
        with open_store(Home.open(home)) as store:
            stored = store.get_session(SESSION).message_count
            began = time.monotonic()
            import_path(store, path, format="claude")
            whole_again = time.monotonic() - began
        print(f"  {whole_again:6.1f} s  the whole file again (import_path)", flush=True)
    emit(
        "transcript",
        {
            "messages": args.messages,
            "bytes": size,
            "stored": stored,
            "runs_to_import": runs,
            "run_with_nothing_new": idle,
            "run_after_1000_more_lines": grown,
            "whole_file_again_seconds": round(whole_again, 2),
        },
    )


if __name__ == "__main__":
    main()
