"""Hostile lines to `mnemic hook hermes`, the bridge Hermes's mnemic provider keeps
running: every line gets one answer line of valid UTF-8 JSON, and the bridge goes on to
the next; a line it cannot use changes nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path

from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.integrations.hermes_bridge import serve


def _run(home: Path, lines: list[bytes]) -> list[dict[str, object]]:
    out = io.BytesIO()
    answered = serve(lambda: Home.open(home), io.BytesIO(b"\n".join(lines) + b"\n"), out)
    assert answered == len(lines)
    raw = out.getvalue()
    raw.decode("utf-8")  # strict: the answers are UTF-8
    answers = [json.loads(line) for line in raw.splitlines()]
    assert len(answers) == len(lines)
    return answers


def test_a_line_nested_past_the_parser_is_answered_and_the_bridge_goes_on(
    home_path: Path,
) -> None:
    """It raised RecursionError out of the bridge (a traceback, Hermes's provider left
    without its bridge for the rest of the session)."""
    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    deep = b'{"id": 2, "op": "tool", "name": "memory", "arguments": %s}' % (
        b"[" * 100_000 + b"]" * 100_000
    )
    answers = _run(home_path, [deep, b'{"id": 3, "op": "hello"}'])
    assert answers[0]["ok"] is False and "nested too deeply" in str(answers[0]["error"])
    assert answers[1]["id"] == 3 and answers[1]["ok"] is True
    assert Memory.open(home_path).read("memory").entries == ("Deploys go through staging first.",)


def test_a_lone_surrogate_echoed_in_an_answer_does_not_end_the_bridge(home_path: Path) -> None:
    """An id (or an op, quoted back in the error) holding a JSON "\\ud800": writing the
    answer raised UnicodeEncodeError and ended the bridge with a traceback."""
    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    answers = _run(
        home_path,
        [
            b'{"id": "\\ud800", "op": "hello"}',
            b'{"id": 4, "op": "\\ud800"}',
            b'{"id": 5, "op": "hello"}',
        ],
    )
    assert answers[0]["id"] == "\ud800" and answers[0]["ok"] is True
    assert answers[1]["id"] == 4 and answers[1]["ok"] is False
    assert answers[2]["id"] == 5 and answers[2]["ok"] is True
