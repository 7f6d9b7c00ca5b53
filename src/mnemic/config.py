"""Settings: ``<home>/config.toml`` plus ``MNEMIC_<SECTION>_<KEY>`` environment overrides.

Each section is a frozen dataclass whose fields declare the accepted keys, their types and
their defaults. Loading validates every key: an unknown key, or a value of the wrong type,
raises :class:`~mnemic.errors.ConfigError` naming the key (with a suggestion for typos).
The user's file is never rewritten.

Example ``config.toml``::

    store = "files"            # or "postgresql://user@host/db" (needs the postgres extra)

    [memory]
    memory_char_limit = 2200
    user_char_limit = 1375

Environment overrides use the section and key in upper case, e.g.
``MNEMIC_MEMORY_MEMORY_CHAR_LIMIT=3000``; the value is read as a TOML value when it parses
as one (``3000``, ``true``, ``"text"``) and as a plain string otherwise. ``MNEMIC_STORE``
overrides the top-level ``store``.
"""

from __future__ import annotations

import dataclasses
import os
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

from .errors import ConfigError

__all__ = [
    "AgentSettings",
    "LLMSettings",
    "MemorySettings",
    "SessionSettings",
    "Settings",
    "load_settings",
]


@dataclass(frozen=True, slots=True)
class MemorySettings:
    """``[memory]``: the curated MEMORY.md / USER.md store."""

    memory_char_limit: int = 2200
    """Character budget of MEMORY.md (agent notes), delimiters included."""
    user_char_limit: int = 1375
    """Character budget of USER.md (user profile), delimiters included."""
    memory_enabled: bool = True
    """Whether the MEMORY block enters the system prompt."""
    user_profile_enabled: bool = True
    """Whether the USER PROFILE block enters the system prompt."""
    read_action: bool = True
    """Whether the memory tool offers ``action="read"`` (live entries and usage)."""
    lock_timeout: float = 10.0
    """Seconds to wait for the sidecar lock before failing with a clear error."""
    history_limit: int = 50
    """Previous versions kept per target (0 disables version history)."""
    pressure_ratio: float = 0.8
    """Usage ratio from which tool responses warn that the target is nearly full."""
    max_failures_per_turn: int = 3
    """Counted failures per turn before the circuit breaker stops memory calls."""
    render_cap: int = 0
    """Max chars of a snapshot block (0 = automatic: max(2 x limit, 4000))."""


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """``[sessions]``: session history and ``session_search``."""

    max_output_chars: int = 12000
    """Upper bound on one session_search response, in characters."""
    summary: bool = False
    """Whether session_search may summarise hits with the LLM endpoint by default."""
    summary_timeout: float = 30.0
    """Seconds allowed for the whole summary step before falling back to extracts."""
    summary_concurrency: int = 3
    """Sessions summarised at once."""
    hidden_sources: list[str] = field(default_factory=lambda: ["subagent", "tool"])
    """Sources never shown by session_search."""
    demoted_sources: list[str] = field(default_factory=lambda: ["cron"])
    """Automated sources ranked below interactive ones."""


@dataclass(frozen=True, slots=True)
class LLMSettings:
    """``[llm]``: an OpenAI-compatible endpoint (summaries, flush, review, chat)."""

    base_url: str = ""
    """Base URL of the endpoint, e.g. ``http://127.0.0.1:8000/v1``. Empty = none."""
    model: str = ""
    """Model name sent to the endpoint."""
    api_key: str = ""
    """API key (prefer api_key_env so the key stays out of the file)."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the API key."""
    timeout: float = 60.0
    """Seconds per request."""
    context_window: int = 32768
    """Tokens the model accepts; the chat loop compresses before reaching it."""


@dataclass(frozen=True, slots=True)
class AgentSettings:
    """``[agent]``: the turn lifecycle, extraction and the reference agent."""

    review_every: int = 10
    """Background memory review every N user turns (0 disables)."""
    flush_before_compress: bool = True
    """Run the pre-compression memory flush before summarising a conversation."""
    provider: str = ""
    """Name of the one external memory provider to use ('' = built-in only)."""
    provider_timeout: float = 3.0
    """Seconds allowed for a provider's per-turn recall."""


@dataclass(frozen=True, slots=True)
class Settings:
    """All settings of one home. Obtain with :func:`load_settings`."""

    store: str = "files"
    """Storage backend: ``files`` (embedded default) or a ``postgresql://`` URL."""
    memory: MemorySettings = field(default_factory=MemorySettings)
    sessions: SessionSettings = field(default_factory=SessionSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)

    def char_limit(self, target: str) -> int:
        """The character budget of a curated target (``memory`` or ``user``)."""
        return self.memory.user_char_limit if target == "user" else self.memory.memory_char_limit


_ENV_PREFIX = "MNEMIC_"


def load_settings(home: Path, environ: Mapping[str, str] | None = None) -> Settings:
    """Load ``<home>/config.toml`` (if present) and environment overrides, validated."""
    env = os.environ if environ is None else environ
    path = home / "config.toml"
    raw: dict[str, Any] = {}
    if path.exists():
        import tomllib

        try:
            with open(path, "rb") as fh:
                raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError("(file)", f"not valid TOML: {exc}", source=str(path)) from exc
        except OSError as exc:
            raise ConfigError("(file)", f"cannot be read: {exc}", source=str(path)) from exc
    _apply_env(raw, env)
    settings: Settings = _build(Settings, raw, "", str(path))
    return settings


def _apply_env(raw: dict[str, Any], env: Mapping[str, str]) -> None:
    hints = get_type_hints(Settings)
    sections = {name for name, typ in hints.items() if dataclasses.is_dataclass(typ)}
    for name, value in env.items():
        if not name.startswith(_ENV_PREFIX) or name in ("MNEMIC_HOME", "MNEMIC_PROFILE"):
            continue
        rest = name[len(_ENV_PREFIX) :].lower()
        if rest == "store":
            raw["store"] = value
            continue
        section, _, key = rest.partition("_")
        if section in sections and key:
            table = raw.setdefault(section, {})
            if isinstance(table, dict):
                table[key] = _parse_env_value(value)


def _parse_env_value(value: str) -> Any:
    import tomllib

    try:
        return tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return value


def _build(cls: type[Any], raw: Any, prefix: str, source: str) -> Any:
    where = prefix.rstrip(".") or "(top level)"
    if not isinstance(raw, dict):
        raise ConfigError(where, f"expected a table, got {type(raw).__name__}", source=source)
    hints = get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        import difflib

        key = unknown[0]
        close = difflib.get_close_matches(key, list(fields), n=1)
        hint = f" (did you mean {prefix}{close[0]!r}?)" if close else ""
        known = ", ".join(sorted(fields))
        raise ConfigError(
            prefix + key, f"unknown key{hint}; known keys here: {known}", source=source
        )
    values: dict[str, Any] = {}
    for name, value in raw.items():
        typ = hints[name]
        if isinstance(typ, type) and dataclasses.is_dataclass(typ):
            values[name] = _build(typ, value, f"{prefix}{name}.", source)
        else:
            values[name] = _coerce(prefix + name, value, typ, source)
    obj = cls(**values)
    _check_ranges(obj, prefix, source)
    return obj


def _coerce(key: str, value: Any, typ: Any, source: str) -> Any:
    origin = get_origin(typ)
    if origin in (Union, types.UnionType):
        args = get_args(typ)
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _coerce(key, value, inner[0], source)
    if origin is list:
        (item,) = get_args(typ)
        if not isinstance(value, list):
            raise ConfigError(key, f"expected a list, got {value!r}", source=source)
        return [_coerce(f"{key}[{i}]", v, item, source) for i, v in enumerate(value)]
    if origin is dict:
        _k, item = get_args(typ)
        if not isinstance(value, dict):
            raise ConfigError(key, f"expected a table, got {value!r}", source=source)
        return {str(k): _coerce(f"{key}.{k}", v, item, source) for k, v in value.items()}
    if typ is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(key, f"expected true or false, got {value!r}", source=source)
    if typ is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(key, f"expected an integer, got {value!r}", source=source)
    if typ is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(key, f"expected a number, got {value!r}", source=source)
    if typ is str:
        if isinstance(value, str):
            return value
        raise ConfigError(key, f"expected a string, got {value!r}", source=source)
    raise ConfigError(key, f"unsupported setting type {typ!r}", source=source)  # pragma: no cover


_MIN = {
    "memory_char_limit": 100,
    "user_char_limit": 100,
    "lock_timeout": 0.0,
    "history_limit": 0,
    "max_failures_per_turn": 1,
    "render_cap": 0,
    "max_output_chars": 1000,
    "summary_timeout": 0.1,
    "summary_concurrency": 1,
    "timeout": 0.1,
    "review_every": 0,
    "provider_timeout": 0.05,
    "context_window": 1024,
}


def _check_ranges(obj: Any, prefix: str, source: str) -> None:
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        low = _MIN.get(f.name)
        if low is not None and isinstance(value, int | float) and value < low:
            raise ConfigError(prefix + f.name, f"must be >= {low}, got {value!r}", source=source)
    if isinstance(obj, MemorySettings) and not 0.0 < obj.pressure_ratio <= 1.0:
        raise ConfigError(
            prefix + "pressure_ratio",
            f"must be in (0, 1], got {obj.pressure_ratio!r}",
            source=source,
        )
    if isinstance(obj, Settings) and not (
        obj.store == "files" or obj.store.startswith(("postgresql://", "postgres://"))
    ):
        raise ConfigError(
            "store",
            f"expected 'files' or a postgresql:// URL, got {obj.store!r}",
            source=source,
        )
