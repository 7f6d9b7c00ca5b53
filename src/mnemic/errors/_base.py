"""The root of the error tree, and the refusals every tool shares.

:class:`MnemicError` is the base of every mnemic error; :class:`ToolError` is a refusal a
model can recover from. The tool-call errors that belong to no single domain live here
too: a bad argument, an unknown tool, content the threat scanner blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _fmt(n: int) -> str:
    return f"{n:,}"


def _preview(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[:width] + "..."


class MnemicError(Exception):
    """Base of every mnemic error.

    ``code`` is a stable machine-readable identifier; ``to_llm()`` is the text a model
    should read (what happened and the next step); ``to_human()`` is the same for a
    person at the command line; ``to_response()`` is the JSON-able dict a tool call
    returns.
    """

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_llm(self) -> str:
        """Explain the failure and the next step, for a model."""
        return self.message

    def to_human(self) -> str:
        """Explain the failure and the next step, for a person at the command line.

        The same as :meth:`to_llm` unless that text speaks of tool calls and tool
        response fields; such errors override it with the commands a person runs.
        """
        return self.to_llm()

    def to_response(self) -> dict[str, Any]:
        """Render as a tool response (``success: false``)."""
        return {"success": False, "error": self.to_llm(), "error_code": self.code}

    def to_page(self) -> str:
        """Explain the failure for a person in the web console, whose pages have buttons
        and forms in place of commands: :meth:`to_human`, unless that text tells the
        person commands to type where the page offers the same step."""
        return self.to_human()


class ToolError(MnemicError):
    """A refusal of a tool call that the model can recover from.

    ``extra`` holds fields merged into the tool response (current entries, usage,
    matches...). ``counts_as_failure`` tells the circuit breaker whether this refusal
    is one of the "consolidation failures" it counts.
    """

    code = "tool_error"
    counts_as_failure = False
    retry_may_succeed = False
    """True when repeating the identical call can succeed (the repeat guard lets it)."""

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.extra: dict[str, Any] = dict(extra)

    def to_response(self) -> dict[str, Any]:
        """Render as a tool response (``success: false``) with ``extra``'s fields merged
        in, so the model reads what it needs to recover."""
        resp = super().to_response()
        resp.update(self.extra)
        return resp


class InvalidArgument(ToolError):
    """A tool argument is missing, unknown or of the wrong type."""

    code = "invalid_argument"

    def __init__(self, field: str, message: str, *, human: str | None = None, **extra: Any) -> None:
        self.field = field
        self.human = human
        """The refusal worded for a person, when ``message`` speaks of tool arguments and
        response fields (``None``: the same words)."""
        super().__init__(message, **extra)

    def to_human(self) -> str:
        return self.human or self.message


class UnknownTool(ToolError):
    """The model called a tool that this session does not offer."""

    code = "unknown_tool"

    def __init__(self, name: str, available: Sequence[str] = ()) -> None:
        self.name = name
        self.available = tuple(available)
        names = ", ".join(self.available) or "none"
        super().__init__(
            f"There is no tool named {_preview(name)!r} in this session. Nothing was run. "
            f"Available tools: {names}. Call one of them, or answer without a tool.",
            available=list(self.available),
        )


class ThreatHeld(ToolError):
    """The threat scanner is unsure about content: it may only be saved with a person's
    approval, and this store has nobody to ask (an ungoverned store)."""

    code = "threat_held"

    def __init__(self, findings: Sequence[tuple[str, str]], *, reasons: str = "") -> None:
        self.findings = tuple(findings)
        self.reasons = reasons
        ids = ", ".join(pid for pid, _ in self.findings)
        super().__init__(
            f"Held: the content reads as a request the threat scanner is unsure about "
            f"({reasons or ids}). Memory is injected into every future system prompt, so "
            "such an entry is saved only once a person approves it, and this store has no "
            "approval queue. "
            "Nothing was saved. If the note is honest, write it as a plain fact without "
            "asking for credentials, hiding things from the user or sending data anywhere.",
            findings=[{"id": pid, "category": cat} for pid, cat in self.findings],
        )


class ThreatBlocked(ToolError):
    """The threat scanner found an injection/exfiltration/secret pattern in content."""

    code = "threat_blocked"

    def __init__(
        self, findings: Sequence[tuple[str, str]], *, what: str = "content", hint: str = ""
    ) -> None:
        self.findings = tuple(findings)
        ids = ", ".join(f"{pid} ({cat})" for pid, cat in self.findings)
        super().__init__(
            f"Blocked: the {what} matches threat pattern(s) {ids}. Memory is injected into "
            "every future system prompt, so it must not hold instructions to the model, "
            "exfiltration commands, secrets or hidden characters. Rephrase the fact as a "
            "plain declarative note without that material, or do not save it."
            + (f" {hint}" if hint else ""),
            findings=[{"id": pid, "category": cat} for pid, cat in self.findings],
        )
        self.what = what
        self.hint = hint

    def to_human(self) -> str:
        ids = ", ".join(f"{pid} ({cat})" for pid, cat in self.findings)
        return (
            f"Blocked: the {self.what} matches threat pattern(s) {ids}. Memory is put into "
            "every future system prompt, so it may not hold instructions to the model, "
            "commands that send data out, secrets or hidden characters. Nothing was saved. "
            "Reword it as a plain fact (`echo TEXT | mnemic scan -` shows what matches)."
        )
