"""Errors of calls to the language-model endpoint, under :class:`LLMError`."""

from __future__ import annotations

from ._base import MnemicError


class LLMError(MnemicError):
    """A call to the language-model endpoint failed."""

    code = "llm_error"


class LLMNotConfigured(LLMError):
    """No language-model endpoint is configured."""

    code = "llm_not_configured"

    def __init__(self, what: str = "base_url") -> None:
        self.what = what
        super().__init__(
            f"No LLM endpoint is configured (llm.{what} is empty). Set [llm] base_url and "
            "model in config.toml, or MNEMIC_LLM_BASE_URL / MNEMIC_LLM_MODEL."
        )


class LLMRequestFailed(LLMError):
    """The endpoint answered with an error or could not be reached."""

    code = "llm_request_failed"

    def __init__(self, reason: str, *, status: int | None = None) -> None:
        self.reason = reason
        self.status = status
        where = f"HTTP {status}: " if status is not None else ""
        super().__init__(f"The LLM request failed ({where}{reason}).")


class LLMTimeout(LLMError):
    """The endpoint did not answer within the time limit."""

    code = "llm_timeout"

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        super().__init__(f"The LLM endpoint did not answer within {timeout_s:.1f}s.")
