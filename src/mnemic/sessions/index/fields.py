"""What the full-text index holds for one message, shared by every backend.

Two columns:

* ``body``: the segmented content (:func:`~.segment.segment`);
* ``aux``: the participant name, the tool name, the names and argument values of the tool
  calls (segmented), every compound of the content and arguments as one whole token, and
  the distinct CJK characters (one-character queries).

Ranking weighs ``aux`` below ``body``. :class:`FieldIndexer` computes both; the SQLite
backend registers its methods as the SQL functions its triggers call, a PostgreSQL backend
calls them before inserting. Bulk imports compute both columns of the next batch in a
worker process (:class:`SegmentWorker`) and :meth:`FieldIndexer.preload` the results; the
SQLite store then writes them into its index directly (no SQL function call per row).
"""

from __future__ import annotations

import functools
import json
import logging
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any

from .segment import DEFAULT_SEGMENTER, Segmented, Segmenter, join_fields

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_TOKENIZER",
    "DEFAULT_WEIGHTS",
    "FieldIndexer",
    "Inputs",
    "SegmentWorker",
    "segment_texts",
    "tool_call_text",
]

DEFAULT_TOKENIZER = "porter unicode61 remove_diacritics 2 tokenchars '-_.@/:+~#%?=&'"
"""FTS5 tokenizer: light (Porter) stemming over Unicode words, case and accents folded;
the connector characters are token characters so whole compounds stay one token."""

DEFAULT_WEIGHTS = (1.0, 0.4)
"""bm25 weights of the ``body`` and ``aux`` columns."""

_EMPTY = Segmented("", ())

Inputs = tuple[str | None, str | None, str | None, str | None]
"""What a message's index columns are computed from: ``(content, name, tool_name,
tool_calls)``, ``tool_calls`` as stored (JSON text)."""


def tool_call_text(tool_calls: str | None) -> tuple[list[str], list[str]]:
    """(function names, argument values) of tool calls stored as JSON text.

    Accepts the OpenAI shape (``function.name`` / ``function.arguments`` as a JSON string)
    and the Anthropic one (``name`` / ``input``); argument values are collected from
    nested objects and lists (keys are not indexed). Text that is not JSON is one value.
    """
    if not tool_calls:
        return [], []
    try:
        calls = json.loads(tool_calls)
    except (ValueError, TypeError):
        return [], [tool_calls]
    names: list[str] = []
    values: list[str] = []
    if isinstance(calls, dict):
        calls = [calls]
    if not isinstance(calls, list):
        return [], [str(calls)]
    for call in calls:
        if not isinstance(call, dict):
            continue
        inner = call.get("function")
        fn: dict[str, Any] = inner if isinstance(inner, dict) else call
        name = fn.get("name")
        if isinstance(name, str):
            names.append(name)
        args = fn.get("arguments", fn.get("input", call.get("input")))
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                values.append(args)
                continue
        _leaves(args, values)
    return names, values


def _leaves(value: Any, out: list[str], depth: int = 0) -> None:
    if depth > 20:
        return
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        out.append(str(value))
    elif isinstance(value, dict):
        for v in value.values():
            _leaves(v, out, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, out, depth + 1)


class FieldIndexer:
    """Computes the ``body`` and ``aux`` columns of messages with one segmenter.

    A small memo serves both columns of the same content from one segmentation (a trigger
    asks for both in turn); :meth:`preload` installs columns computed elsewhere (the same
    function in another process, so the strings are identical).
    """

    def __init__(self, segmenter: Segmenter) -> None:
        self.segmenter = segmenter
        self._memo: Callable[[str], Segmented] = functools.lru_cache(maxsize=64)(segmenter.segment)
        self._body: dict[str, str] = {}
        self._pairs: dict[Inputs, tuple[str, str]] = {}

    def segment(self, text: str | None) -> Segmented:
        """Index form of ``text`` (memoised or computed)."""
        if not text:
            return _EMPTY
        return self._memo(text)

    def preload(self, pairs: Mapping[Inputs, tuple[str, str]]) -> None:
        """Use these ``(body, aux)`` columns (keyed by the message's :data:`Inputs`) until
        :meth:`clear`."""
        self._pairs.update(pairs)
        self._body.update((k[0], v[0]) for k, v in pairs.items() if k[0])

    def clear(self) -> None:
        """Forget preloaded columns."""
        self._body.clear()
        self._pairs.clear()

    def columns(self, inputs: Inputs) -> tuple[str, str]:
        """``(body, aux)`` of a message (preloaded or computed)."""
        pair = self._pairs.get(inputs)
        if pair is not None:
            return pair
        return self.body(inputs[0]), self.aux(*inputs)

    def body(self, content: str | None) -> str:
        """The ``body`` column of a message."""
        if content:
            body = self._body.get(content)
            if body is not None:
                return body
        return self.segment(content).body

    def aux(
        self,
        content: str | None,
        name: str | None,
        tool_name: str | None,
        tool_calls: str | None,
    ) -> str:
        """The ``aux`` column of a message."""
        pair = self._pairs.get((content, name, tool_name, tool_calls))
        if pair is not None:
            return pair[1]
        seg = self.segment(content)
        if not (name or tool_name or tool_calls):
            if not seg.chars:
                return " ".join(seg.compounds)
            return " ".join((*seg.compounds, *seg.chars))
        names, values = tool_call_text(tool_calls)
        args = self.segment(join_fields(values)) if values else None
        parts = [name, tool_name, *names]
        out = [self.segment(p).body for p in parts if p]
        if args is not None:
            out.append(args.body)
        extra: list[str] = [*seg.compounds, *seg.chars]
        if args is not None:
            extra.extend(args.compounds)
            extra.extend(args.chars)
        if extra:
            out.append(" ".join(dict.fromkeys(extra)))
        return "\n".join(out)


def segment_texts(segmenter: Segmenter, texts: Iterable[str]) -> dict[str, Segmented]:
    """Segment many texts."""
    return {t: segmenter.segment(t) for t in dict.fromkeys(texts) if t}


# --- a worker process for bulk imports ---------------------------------------------------

_HEADER = struct.Struct(">I")


def _send(stream: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError("segment worker closed its pipe")
    (size,) = _HEADER.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("segment worker closed its pipe")
    return pickle.loads(data)


_SOURCE_ROOT = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)
"""The directory holding the ``mnemic`` package (so the worker imports this copy of it)."""


class SegmentWorker:
    """A child process (``python -m mnemic.sessions._segworker``) that computes index
    columns.

    Bulk imports submit the next batch's messages (their :data:`Inputs`) before writing
    the current one, so computing their ``(body, aux)`` columns runs on another core.
    Only the default segmenter travels; anything going wrong makes :meth:`start` return
    None or a result come back as None, and the caller computes them in-process instead.
    """

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    @classmethod
    def start(cls, segmenter: Segmenter) -> SegmentWorker | None:
        """Start a worker for ``segmenter`` (None if it cannot run in a child process)."""
        if (segmenter.id, segmenter.version) != (DEFAULT_SEGMENTER.id, DEFAULT_SEGMENTER.version):
            return None
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_SOURCE_ROOT, env.get("PYTHONPATH")) if p)
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "mnemic.sessions.index._segworker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
            assert proc.stdout is not None
            hello = _receive(proc.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as exc:
            log.info("no segment worker (%s); segmenting in-process", exc)
            return None
        if hello != (segmenter.id, segmenter.version):
            proc.kill()
            proc.wait()
            return None
        return cls(proc)

    def submit(
        self, messages: Iterable[Inputs]
    ) -> Callable[[], dict[Inputs, tuple[str, str]] | None]:
        """Send messages' inputs; return a function that waits for their ``(body, aux)``
        columns (None on failure)."""
        unique = list(dict.fromkeys(messages))
        try:
            assert self.proc.stdin is not None
            _send(self.proc.stdin, unique)
        except (OSError, ValueError):
            return lambda: None

        def result() -> dict[Inputs, tuple[str, str]] | None:
            try:
                assert self.proc.stdout is not None
                pairs = _receive(self.proc.stdout)
            except (OSError, EOFError, ValueError, pickle.UnpicklingError):
                return None
            if not isinstance(pairs, list) or len(pairs) != len(unique):
                return None
            return dict(zip(unique, pairs, strict=True))

        return result

    def close(self) -> None:
        """Stop the worker."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """The worker's loop: receive lists of :data:`Inputs`, send back their ``(body, aux)``
    columns in the same order."""
    seg = DEFAULT_SEGMENTER
    fields = FieldIndexer(seg)
    _send(stdout, (seg.id, seg.version))
    while True:
        try:
            messages = _receive(stdin)
        except EOFError:
            return
        _send(stdout, [(fields.body(m[0]), fields.aux(*m)) for m in messages])
