"""Errors of external memory providers, under :class:`ProviderError`."""

from __future__ import annotations

from collections.abc import Sequence

from ._base import MnemicError, _preview


class ProviderError(MnemicError):
    """A memory provider cannot be found, loaded, used or combined with another."""

    code = "provider_error"

    def __init__(self, provider: str, message: str) -> None:
        self.provider = provider
        super().__init__(message)


class ProviderNotFound(ProviderError):
    """No memory provider is registered under this name."""

    code = "provider_not_found"

    def __init__(self, provider: str, known: Sequence[str] = ()) -> None:
        self.known = tuple(known)
        names = ", ".join(self.known) or "none"
        super().__init__(
            provider,
            f"No memory provider named {_preview(provider)!r} is installed (known: {names}). "
            "See `mnemic provider list`.",
        )


class ProviderUnavailable(ProviderError):
    """A memory provider is installed but cannot run here (missing settings or packages)."""

    code = "provider_unavailable"

    def __init__(self, provider: str, reason: str) -> None:
        self.reason = reason
        super().__init__(provider, f"The memory provider {provider!r} is not available: {reason}")


class ProviderConflict(ProviderError):
    """A second external memory provider was added; only one may be active at a time."""

    code = "provider_conflict"

    def __init__(self, provider: str, active: str) -> None:
        self.active = active
        super().__init__(
            provider,
            f"Only one external memory provider may be active at a time; {active!r} is "
            f"active, so {provider!r} was not added. Choose one with `mnemic provider use "
            "NAME` (or [agent] provider in config.toml).",
        )


class ProviderTimeout(ProviderError):
    """A memory provider did not answer within its time limit."""

    code = "provider_timeout"

    def __init__(self, provider: str, hook: str, timeout_s: float) -> None:
        self.hook = hook
        self.timeout_s = timeout_s
        super().__init__(
            provider,
            f"The memory provider {provider!r} did not answer {hook} within "
            f"{timeout_s:.1f}s; it was skipped. Continue without it.",
        )
