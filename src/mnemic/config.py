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
import difflib
import math
import os
import tomllib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import ConfigError, StorageError
from .fsio import atomic_write_text, ensure_private_dir, not_a_directory, read_text_strict
from .registry import check_store

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same classes, without compiling their methods at import (every hook loads this)
    from ._frozen import dataclass

__all__ = [
    "AgentSettings",
    "ApprovalSettings",
    "AuditSettings",
    "LLMSettings",
    "McpSettings",
    "MemorySettings",
    "MetricsSettings",
    "PostgresSettings",
    "ProjectSettings",
    "PromptSettings",
    "RetentionSettings",
    "ScanSettings",
    "SessionSettings",
    "Settings",
    "SkillsSettings",
    "load_settings",
    "mask_url",
    "served_home",
    "set_config_value",
    "store_place",
]


@dataclass(frozen=True)
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
    group_commit: str = "off"
    """``queue``: a writer that finds a target's lock busy leaves its request in the
    home's queue (in the user's private directory in RAM when there is one, else in
    ``memories/.queue``), and the lock's holder applies it with its own write (one temp file,
    one fsync, one rename for the lot; each request validated and recorded as if it ran
    alone). ``off``: every writer writes alone. See docs/performance.md, "Group commit:
    a request queue". On a PostgreSQL store the queue is a table in the database: a
    writer that finds the lock busy leaves its request there, and the lock's holder
    applies the waiting requests with its own in one transaction (a single add, remove
    or replace); see docs/postgres.md, "Group commit in the server"."""
    durability: str = "files"
    """``files``: a write returns once its text is durable (the temp file and the
    directory fsynced) and its audit record is flushed in the background. ``journal``: a
    write returns once its audit record, which then carries what rebuilds the new text,
    is flushed; the text itself is made durable every 32 writes and when the process
    exits, and a writer that opens the store after a power cut rebuilds a text the cut
    lost from the journal (``recovered``, cause ``replayed``); a reader shows that text
    too (rebuilt durably when it can take the lock, else in memory). Files store, audit
    on, Linux (it needs the boot id) only; elsewhere ``files``. See docs/performance.md,
    "perf11" and "perf12"."""
    pressure_ratio: float = 0.8
    """Usage ratio from which tool responses warn that the target is nearly full."""
    max_failures_per_turn: int = 3
    """Counted failures per turn before the circuit breaker stops memory calls."""
    render_cap: int = 0
    """Max chars of a snapshot block (0 = automatic: max(2 x limit, 4000))."""
    stale_after_days: int = 90
    """Days without a write after which ``mnemic memory status`` lists an entry for review
    and ``mnemic memory tidy`` proposes dropping it."""
    verbose_chars: int = 280
    """Entries longer than this are proposed for shortening by ``mnemic memory tidy``."""
    on_full: str = "refuse"
    """What a write that would overflow MEMORY.md does: ``refuse`` (with the best eviction
    candidates), ``archive_oldest`` or ``archive_least_used`` (move entries to the archive,
    reason ``evicted``, down to a tenth of the budget below the limit)."""
    on_full_user: str = "refuse"
    """The same for USER.md; ``refuse`` unless set (the user's own statements are never
    evicted by the MEMORY.md policy)."""


@dataclass(frozen=True)
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
    hidden_sources: tuple[str, ...] = ("subagent", "tool")
    """Sources never shown by session_search."""
    demoted_sources: tuple[str, ...] = ("cron",)
    """Automated sources ranked below interactive ones."""
    write_timeout: float = 30.0
    """Seconds a write to sessions.db waits for other writers before failing."""
    durable: bool = True
    """Commit each write with synchronous=FULL (survives power loss); false = NORMAL."""
    semantic: str = "auto"
    """``auto``: embed recorded messages in the background and search by meaning when the
    ``semantic`` extra is installed; ``off``: never embed (lexical search only)."""
    text_floor: str = "auto"
    """Memory, archive and skills search by meaning (semantic, hybrid): ``auto`` answers
    "no good match" (the nearest result only, marked weak) when nothing clears the floor
    calibrated for the shipped model; ``off`` always lists the nearest results."""
    attachment_max_bytes: int = 20 * 1024 * 1024
    """Largest attachment (image, file) an import keeps, in bytes; a larger one stays a
    placeholder in its message saying why."""
    attachments_max_total: int = 2 * 1024 * 1024 * 1024
    """Bytes all kept attachments may take in the home together; an attachment that would
    pass it stays a placeholder saying why."""


@dataclass(frozen=True)
class LLMSettings:
    """``[llm]``: the model endpoint (summaries, flush, review, chat)."""

    api: str = "openai"
    """``openai`` (any OpenAI-compatible endpoint) or ``anthropic`` (the Messages API)."""
    base_url: str = ""
    """Base URL of the endpoint, e.g. ``http://127.0.0.1:8000/v1``. Empty = none (with
    ``api = "anthropic"``: the Anthropic API)."""
    model: str = ""
    """Model name sent to the endpoint."""
    api_key: str = ""
    """API key (prefer api_key_env so the key stays out of the file)."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the API key (with ``api = "anthropic"`` this default
    reads ``ANTHROPIC_API_KEY``)."""
    timeout: float = 60.0
    """Seconds per request."""
    context_window: int = 32768
    """Tokens the model accepts; the chat loop compresses before reaching it."""
    max_retries: int = 0
    """Retries of a failed request by the SDK (0: callers decide within their time budget)."""


@dataclass(frozen=True)
class AgentSettings:
    """``[agent]``: the turn lifecycle, extraction and the reference agent."""

    review_every: int = 10
    """Background memory review every N user turns (0 disables)."""
    flush_before_compress: bool = True
    """Run the pre-compression memory flush before summarising a conversation."""
    provider: str = ""
    """Name of the one external memory provider to use ('' = built-in only)."""
    provider_timeout: float = 3.0
    """Seconds allowed for a provider's per-turn recall (and its other quick hooks)."""
    provider_tool_timeout: float = 30.0
    """Seconds allowed for one call of a provider's own tool."""
    shutdown_timeout: float = 5.0
    """Seconds a closing session waits for queued provider syncs before abandoning them."""
    recall_results: int = 3
    """Past exchanges the built-in recall provider attaches to a user message, at most."""
    recall_chars: int = 1200
    """Characters the built-in recall provider may attach to one user message."""
    max_tool_rounds: int = 12
    """Model calls one user turn may make while it keeps calling tools."""
    review_rounds: int = 4
    """Model calls one background review may make."""
    compress_at: float = 0.75
    """Compress when the conversation reaches this share of llm.context_window."""
    keep_recent_messages: int = 6
    """Messages kept word for word after a compression (the older ones are summarised)."""
    stream: bool = True
    """Stream the reply of `mnemic chat` as it is generated."""
    save_nudge: bool = True
    """When a reply says it saved or will remember something (or the user asked it to)
    and the turn made no successful memory write, tell the model once, in the same turn,
    to save it or correct the claim. Off by itself when the provider keeps memory on its
    own (``MemoryProvider.keeps_memory``)."""
    review_tidy: bool = True
    """Let each background review also stage tidy proposals (merges, superseded and stale
    entries) for approval, when a target is at ``memory.pressure_ratio`` or fuller; the
    queue never holds the same proposal twice, nor one a person rejected."""


@dataclass(frozen=True)
class SkillsSettings:
    """``[skills]``: procedural memory under ``<home>/skills``."""

    index_budget: int = 1500
    """Characters the skills index may take in the system prompt."""
    max_skill_chars: int = 100_000
    """Largest SKILL.md accepted, in characters."""
    max_file_bytes: int = 1_000_000
    """Largest supporting file accepted, in bytes."""
    external_dirs: tuple[str, ...] = ()
    """Extra read-only skill directories, searched after the home's own."""
    max_files: int = 50
    """Most supporting files one skill may hold (written through mnemic)."""
    view_chars: int = 40_000
    """Most characters one skill_view response returns (longer text is paged by offset)."""
    lock_timeout: float = 10.0
    """Seconds a skill write waits for the store lock before failing."""


@dataclass(frozen=True)
class PromptSettings:
    """``[prompt]``: the layered system prompt."""

    identity: str = ""
    """Replaces the built-in identity paragraph when set."""
    context_files: tuple[str, ...] = ("AGENTS.md", ".mnemic.md", "SOUL.md", "CLAUDE.md")
    """Project context files looked up in the working directory."""
    context_file_chars: int = 20_000
    """Per-file cap; longer files keep their head and tail with a marker."""


@dataclass(frozen=True)
class ScanSettings:
    """``[scan]``: the threat scanner (memory entries, skills, context files)."""

    level: str = "balanced"
    """Sensitivity: ``strict`` (more attacks caught, more honest notes refused),
    ``balanced`` or ``lenient`` (fewest refusals). Rules for secrets, exfiltration and
    persistence apply at every level; the level moves the learned classifier's threshold
    and, at ``strict``, also refuses bare download-and-run one-liners (curl piped into sh)."""


@dataclass(frozen=True)
class ApprovalSettings:
    """``[approval]``: who may write memory and skills without review.

    Each policy is ``allow``, ``ask`` (attended CLI prompts inline), ``stage`` (kept
    for review in the pending queue) or ``block``.
    """

    memory_foreground: str = "allow"
    """Memory writes by the attended agent (the session a person is talking to)."""
    memory_background: str = "allow"
    """Memory writes by unattended writers (flush, review); their replace and remove are
    staged whatever this says, unless it is ``block``."""
    memory_mcp: str = "allow"
    """Memory writes by MCP clients."""
    memory_ui: str = "allow"
    """Memory writes made by a person in the web console (``mnemic ui``); ``ask`` stages."""
    skills_foreground: str = "allow"
    """Skill writes by the attended agent."""
    skills_background: str = "stage"
    """Skill writes by unattended writers."""
    skills_mcp: str = "allow"
    """Skill writes by MCP clients."""
    skills_ui: str = "allow"
    """Skill writes made in the web console."""
    pending_ttl_hours: float = 168.0
    """Staged writes expire after this many hours."""
    fail_open_foreground: bool = True
    """When the approval machinery fails (pending queue unreadable or full), apply a
    foreground write anyway (true) or refuse it (false)."""
    fail_open_background: bool = False
    """The same for unattended writers (flush, background review): refuse by default."""
    fail_open_mcp: bool = False
    """The same for MCP clients: refuse by default."""
    fail_open_ui: bool = True
    """The same for the web console (a person is looking at the result): apply."""


@dataclass(frozen=True)
class RetentionSettings:
    """``[retention]``: how long history, backups, pending records and temp files live."""

    backup_limit: int = 20
    """Drift backups kept per target."""
    max_age_days: float = 90.0
    """Versions, backups and expired records older than this are removed by ``mnemic gc``."""
    pending_limit: int = 200
    """Pending writes kept per subsystem; staging beyond it counts as an approval failure."""
    archive_days: float = 0.0
    """Archived entries (what left MEMORY.md / USER.md, see docs/lifecycle.md) older than
    this lose their text on ``mnemic gc``, byte for byte; 0 keeps the archive forever."""


@dataclass(frozen=True)
class AuditSettings:
    """``[audit]``: the hash-chained journal of every write attempt."""

    fsync: bool = True
    """Flush each record to disk right after its write call returns, in a background
    thread of the writing process (and at its exit); the caller never waits for it.
    With false, a record reaches the disk with the kernel's writeback (usually within
    30 seconds). Either way the record is in the journal, in commit order, before the
    call returns; a record a power cut loses is accounted for by the next write (a
    ``recovered`` record), and the chain stays verifiable."""


@dataclass(frozen=True)
class MetricsSettings:
    """``[metrics]``: Prometheus metrics of long-running surfaces."""

    enabled: bool = False
    """Record live Prometheus metrics in this process and expose ``/metrics`` on HTTP
    surfaces (needs the metrics extra). ``mnemic stats`` works without it."""


@dataclass(frozen=True)
class McpSettings:
    """``[mcp]``: the MCP server (``mnemic mcp``)."""

    host: str = "127.0.0.1"
    """Address for ``--http`` (every address, loopback too, requires the bearer token)."""
    port: int = 8765
    """Port for ``--http``."""
    token: str = ""
    """Bearer token every HTTP request must carry (``Authorization: Bearer <token>``;
    prefer the MNEMIC_MCP_TOKEN variable or ``--token-file``): at least 32 printable
    characters without spaces. Empty: the token in ``<home>/mcp.token``, made once."""
    turn_gap: float = 60.0
    """MCP has no user turns: a memory call after this many seconds without one starts a
    new turn for the per-turn circuit breaker."""
    watch_interval_ms: int = 300
    """How often the server checks what subscribed clients watch (MEMORY.md, USER.md,
    skills) for changes made by other processes, while a subscription exists; 0 turns
    the polling off (writes through the server itself are still told)."""


@dataclass(frozen=True)
class PostgresSettings:
    """``[postgres]``: the shared backend used when ``store`` is a ``postgresql://`` URL."""

    schema: str = "mnemic"
    """Schema holding mnemic's tables; separate schemas are separate memories."""
    pool_size: int = 4
    """Most connections one process keeps open (at least 3: an approval holds the queue
    lock on one while it writes on another and saves a drift backup on a third)."""
    connect_timeout: float = 5.0
    """Seconds to wait for a connection (connecting, or a free one from the pool)."""
    migrate_on_start: bool = False
    """Apply pending schema migrations when a process opens the store (else run
    ``mnemic db migrate``)."""


@dataclass(frozen=True)
class ProjectSettings:
    """``[project]``: the memory of one project directory, beside the global one (see
    ``docs/lifecycle.md``, "Scopes")."""

    memory_char_limit: int = 1500
    """Character budget of a project's MEMORY.md (each project has its own), delimiters
    included; the global MEMORY.md keeps ``[memory] memory_char_limit``."""


@dataclass(frozen=True)
class Settings:
    """All settings of one home. Obtain with :func:`load_settings`."""

    store: str = "files"
    """Storage backend: ``files`` (embedded default) or a ``postgresql://`` URL."""
    memory: MemorySettings = MemorySettings()
    sessions: SessionSettings = SessionSettings()
    llm: LLMSettings = LLMSettings()
    agent: AgentSettings = AgentSettings()
    skills: SkillsSettings = SkillsSettings()
    prompt: PromptSettings = PromptSettings()
    scan: ScanSettings = ScanSettings()
    approval: ApprovalSettings = ApprovalSettings()
    retention: RetentionSettings = RetentionSettings()
    audit: AuditSettings = AuditSettings()
    metrics: MetricsSettings = MetricsSettings()
    mcp: McpSettings = McpSettings()
    postgres: PostgresSettings = PostgresSettings()
    project: ProjectSettings = ProjectSettings()
    scope: str = ""
    """Not a key of config.toml: the id of the project store these settings open (``""``:
    the global store), set by :func:`mnemic.curated.scope.project_settings`. A database
    store keys a project's rows by it; the files store ignores it (a project store is a
    directory of its own)."""
    scope_path: str = ""
    """Not a key of config.toml: the directory of the project store :attr:`scope` names
    (``""``: none known), so a database store whose project was dropped can record it in
    its catalog again when it is written to."""

    def char_limit(self, target: str) -> int:
        """The character budget of a curated target (``memory`` or ``user``)."""
        return self.memory.user_char_limit if target == "user" else self.memory.memory_char_limit


_SECTIONS: dict[str, type[Any]] = {
    "memory": MemorySettings,
    "sessions": SessionSettings,
    "llm": LLMSettings,
    "agent": AgentSettings,
    "skills": SkillsSettings,
    "prompt": PromptSettings,
    "scan": ScanSettings,
    "approval": ApprovalSettings,
    "retention": RetentionSettings,
    "audit": AuditSettings,
    "metrics": MetricsSettings,
    "mcp": McpSettings,
    "postgres": PostgresSettings,
    "project": ProjectSettings,
}


_NOT_KEYS = frozenset({"scope", "scope_path"})
"""Fields of :class:`Settings` that mnemic sets and config.toml cannot (unknown keys)."""

_ENV_PREFIX = "MNEMIC_"


def mask_url(url: str) -> str:
    """``url`` without its password (for messages and listings)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://(unparsable URL)"
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        netloc = f"{user}@{host}"
    query = "&".join(
        "password=***" if p.lower().startswith("password=") else p
        for p in parts.query.split("&")
        if p
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def store_place(settings: Settings) -> str:
    """Where a home's memory and sessions live, for a person, when it is not the home's
    own files (``""`` then): ``PostgreSQL at URL (schema NAME)``, without the password.
    It only describes the setting: which backend serves it is the registry's choice
    (:func:`mnemic.registry.scheme_of`)."""
    from .registry import scheme_of

    scheme = scheme_of(settings.store)
    if scheme == "files":
        return ""
    url = mask_url(settings.store)
    if scheme in ("postgresql", "postgres"):
        return f"PostgreSQL at {url} (schema {settings.postgres.schema})"
    return f"the {scheme} store at {url}"


def served_home(root: str | os.PathLike[str], settings: Settings) -> str:
    """The home a server (``mnemic mcp``, ``mnemic ui``) says it serves: ``root``, and
    where its memory and sessions live when that is not its own files (:func:`store_place`)."""
    place = store_place(settings)
    return f"{root} (memory and sessions in {place})" if place else str(root)


def _below_a_file(path: str | os.PathLike[str]) -> bool:
    """Whether a file stands where one of ``path``'s parents should be a directory."""
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    return not os.path.isdir(parent)


def load_settings(
    home: str | os.PathLike[str], environ: Mapping[str, str] | None = None
) -> Settings:
    """Load ``<home>/config.toml`` (if present) and environment overrides, validated."""
    env = os.environ if environ is None else environ
    path = os.path.join(os.fspath(home), "config.toml")
    raw: dict[str, Any] = {}
    try:  # never blocks: a FIFO or device in place of the file is refused
        text = read_text_strict(path, max_bytes=1024 * 1024)
    except StorageError as exc:
        if (not os.path.isdir(home) and os.path.lexists(home)) or _below_a_file(home):
            raise not_a_directory(home, home=True) from exc
        reason = getattr(exc, "reason", None) or exc.to_llm()
        raise ConfigError(
            "(file)",
            f"cannot be read: {reason}. Fix or move the file (without it mnemic uses its defaults)",
            source=path,
        ) from exc
    if text is not None:
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(
                "(file)",
                f"not valid TOML: {exc}. Fix that line (docs/configuration.md lists every "
                "key), or move the file away to use the defaults",
                source=path,
            ) from exc
    from_env = _apply_env(raw, env)
    try:
        settings: Settings = _build(Settings, raw, "", path)
    except ConfigError as exc:
        if exc.key in from_env:
            raise ConfigError(
                exc.key, exc.problem, source=f"environment variable {from_env[exc.key]}"
            ) from None
        raise
    return settings


def set_config_value(home: str | os.PathLike[str], section: str, key: str, value: Any) -> str:
    """Set ``[section] key = value`` in ``<home>/config.toml``, keeping every comment and
    the layout of the rest of the file. The whole result is validated first: a file that
    is not valid TOML, or a value (this one or another) that would not load, raises
    :class:`~mnemic.errors.ConfigError` naming the file, and nothing is written.
    Returns the path."""
    # Here, not at the top: this module is on every command's and hook's path, and only
    # this rare write path needs tomlkit (tens of milliseconds to import).
    import tomlkit

    root = os.fspath(home)
    ensure_private_dir(root)
    path = os.path.join(root, "config.toml")
    old = read_text_strict(path) or ""
    try:
        doc = tomlkit.parse(old)
    except Exception as exc:
        raise ConfigError("(file)", f"not valid TOML, not changed: {exc}", source=path) from exc
    table = doc.get(section)
    if table is None:
        table = tomlkit.table()
        doc[section] = table
    elif not isinstance(table, dict):
        raise ConfigError(section, "expected a table; not changed", source=path)
    table[key] = value
    new = tomlkit.dumps(doc)
    try:
        _build(Settings, tomllib.loads(new), "", path)
    except ConfigError as exc:
        raise ConfigError(exc.key, f"{exc.problem}; not changed", source=path) from None
    atomic_write_text(path, new)
    return path


def _apply_env(raw: dict[str, Any], env: Mapping[str, str]) -> dict[str, str]:
    """Overlay ``MNEMIC_<SECTION>_<KEY>`` variables; return {dotted key: variable name}."""
    used: dict[str, str] = {}
    for name, value in env.items():
        if not name.startswith(_ENV_PREFIX) or name in (
            "MNEMIC_HOME",
            "MNEMIC_PROFILE",
            "MNEMIC_PROJECT",
        ):
            continue
        rest = name[len(_ENV_PREFIX) :].lower()
        if rest == "store":
            raw["store"] = value
            used["store"] = name
            continue
        section, _, key = rest.partition("_")
        if section in _SECTIONS and key:
            table = raw.setdefault(section, {})
            if isinstance(table, dict):
                table[key] = _parse_env_value(value)
                used[f"{section}.{key}"] = name
    return used


def _parse_env_value(value: str) -> Any:
    try:
        return tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return value


def _build(cls: type[Any], raw: Any, prefix: str, source: str) -> Any:
    where = prefix.rstrip(".") or "(top level)"
    if not isinstance(raw, dict):
        raise ConfigError(where, f"expected a table, got {toml_shown(raw)}", source=source)
    hidden = _NOT_KEYS if cls is Settings else frozenset()
    types = {f.name: f.type for f in dataclasses.fields(cls) if f.name not in hidden}
    fields = list(types)
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        key = unknown[0]
        close = difflib.get_close_matches(key, list(fields), n=1)
        hint = f" (did you mean {prefix}{close[0]}?)" if close else ""
        known = ", ".join(sorted(fields))
        raise ConfigError(
            prefix + key, f"unknown key{hint}; known keys here: {known}", source=source
        )
    values: dict[str, Any] = {}
    for name, value in raw.items():
        section = _SECTIONS.get(name) if cls is Settings else None
        if section is not None:
            values[name] = _build(section, value, f"{prefix}{name}.", source)
        else:
            values[name] = _coerce(prefix + name, value, str(types[name]), source)
    obj = cls(**values)
    _check_ranges(obj, prefix, source)
    return obj


def toml_shown(value: Any) -> str:
    """``value`` as config.toml writes it (``true``, ``"lots"``, ``[1, 2]``), for messages
    about the file: a person edits TOML, not Python (``True``, ``'lots'``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "a table"
    isoformat = getattr(value, "isoformat", None)  # a TOML date or time
    return str(isoformat()) if callable(isoformat) else repr(value)


def _coerce(key: str, value: Any, typ: str, source: str) -> Any:
    if typ == "bool":
        if isinstance(value, bool):
            return value
        raise ConfigError(key, f"expected true or false, got {toml_shown(value)}", source=source)
    if typ == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(key, f"expected an integer, got {toml_shown(value)}", source=source)
    if typ == "float":
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:
                raise ConfigError(key, f"the number {value} is too large", source=source) from None
        raise ConfigError(key, f"expected a number, got {toml_shown(value)}", source=source)
    if typ == "str":
        if isinstance(value, str):
            return value
        raise ConfigError(key, f"expected a string, got {toml_shown(value)}", source=source)
    if typ == "tuple[str, ...]":
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise ConfigError(
            key, f"expected a list of strings, got {toml_shown(value)}", source=source
        )
    raise ConfigError(key, f"unsupported setting type {typ}", source=source)  # pragma: no cover


RANGES: dict[str, tuple[float, float]] = {
    "memory.memory_char_limit": (100, 10_000_000),
    "memory.user_char_limit": (100, 10_000_000),
    "memory.lock_timeout": (0.0, 3600.0),
    "memory.history_limit": (0, 10_000_000),
    "memory.pressure_ratio": (0.01, 1.0),
    "memory.max_failures_per_turn": (1, 1000),
    "memory.render_cap": (0, 10_000_000),
    "memory.stale_after_days": (1, 36_500),
    "memory.verbose_chars": (40, 10_000_000),
    "project.memory_char_limit": (100, 10_000_000),
    "sessions.max_output_chars": (1000, 10_000_000),
    "sessions.summary_timeout": (0.1, 3600.0),
    "sessions.summary_concurrency": (1, 64),
    "sessions.write_timeout": (0.0, 3600.0),
    "sessions.attachment_max_bytes": (0, 1_099_511_627_776),
    "sessions.attachments_max_total": (0, 1_125_899_906_842_624),
    "llm.timeout": (0.1, 3600.0),
    "llm.context_window": (1024, 100_000_000),
    "llm.max_retries": (0, 20),
    "agent.review_every": (0, 100_000),
    "agent.provider_timeout": (0.05, 3600.0),
    "agent.provider_tool_timeout": (0.05, 3600.0),
    "agent.shutdown_timeout": (0.0, 3600.0),
    "agent.recall_results": (1, 100),
    "agent.recall_chars": (100, 1_000_000),
    "agent.max_tool_rounds": (1, 1000),
    "agent.review_rounds": (1, 1000),
    "agent.compress_at": (0.1, 1.0),
    "agent.keep_recent_messages": (0, 10_000),
    "skills.index_budget": (200, 1_000_000),
    "skills.max_skill_chars": (1000, 100_000_000),
    "skills.max_file_bytes": (1000, 1_000_000_000),
    "skills.max_files": (1, 100_000),
    "skills.view_chars": (1000, 10_000_000),
    "skills.lock_timeout": (0.0, 3600.0),
    "prompt.context_file_chars": (500, 10_000_000),
    "approval.pending_ttl_hours": (0.0, 87_600.0),
    "retention.backup_limit": (0, 10_000_000),
    "retention.max_age_days": (0.0, 36_500.0),
    "retention.archive_days": (0.0, 36_500.0),
    "retention.pending_limit": (1, 1_000_000),
    "mcp.port": (0, 65535),
    "mcp.turn_gap": (0.0, 604_800.0),
    "mcp.watch_interval_ms": (0, 60_000),
    "postgres.pool_size": (1, 1000),
    "postgres.connect_timeout": (0.1, 3600.0),
}
"""The accepted range (inclusive) of every numeric setting, by ``section.key``. A value
outside it, or a float that is not finite (``nan``, ``inf``), is refused at load."""

_POLICIES = ("allow", "ask", "stage", "block")


def _check_ranges(obj: Any, prefix: str, source: str) -> None:
    for field in dataclasses.fields(obj):
        name, value = field.name, getattr(obj, field.name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        low, high = RANGES[prefix + name]
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(
                prefix + name,
                f"must be a finite number between {_num(low)} and {_num(high)}, "
                f"got {toml_shown(value)}",
                source=source,
            )
        if not low <= value <= high:
            raise ConfigError(
                prefix + name,
                f"must be between {_num(low)} and {_num(high)}, got {toml_shown(value)}",
                source=source,
            )
    if isinstance(obj, PostgresSettings) and not _is_identifier(obj.schema):
        raise ConfigError(
            prefix + "schema",
            "expected a lower-case SQL identifier (letters, digits, _), "
            f"got {toml_shown(obj.schema)}",
            source=source,
        )
    for kind, name, choices, note in _CHOICES:
        if isinstance(obj, kind):
            _one_of(prefix + name, getattr(obj, name), choices, source, note)
    if isinstance(obj, ApprovalSettings):
        for field in dataclasses.fields(obj):
            name, value = field.name, getattr(obj, field.name)
            if isinstance(value, str):
                _one_of(prefix + name, value, _POLICIES, source)
    if isinstance(obj, Settings):
        try:
            check_store(obj.store)
        except ConfigError as exc:
            raise ConfigError("store", exc.problem, source=source) from None


_SCAN_LEVELS = ("strict", "balanced", "lenient")  # mnemic.scan.LEVELS (a test keeps them equal)
_SEMANTIC = ("auto", "off")
_ON_FULL = ("refuse", "archive_oldest", "archive_least_used")
_GROUP_COMMIT = ("off", "queue")
_DURABILITY = ("files", "journal")
_LLM_APIS = ("openai", "anthropic")  # mnemic.llm.select.APIS (a test keeps them equal)
_CHOICES: tuple[tuple[type, str, tuple[str, ...], str], ...] = (
    (ScanSettings, "level", _SCAN_LEVELS, ""),
    (SessionSettings, "semantic", _SEMANTIC, ""),
    (SessionSettings, "text_floor", _SEMANTIC, ""),
    (MemorySettings, "group_commit", _GROUP_COMMIT, ""),
    (MemorySettings, "durability", _DURABILITY, ""),
    (MemorySettings, "on_full", _ON_FULL, ""),
    (MemorySettings, "on_full_user", _ON_FULL, ""),
    (LLMSettings, "api", _LLM_APIS, " (the API the endpoint speaks)"),
)
"""The settings that take one of a few words: (section, key, the words, what they are);
every string of ``[approval]`` is one of :data:`_POLICIES`."""


def _one_of(key: str, value: object, choices: tuple[str, ...], source: str, note: str = "") -> None:
    """Refuse ``value`` of setting ``key`` unless it is one of ``choices``."""
    if value not in choices:
        raise ConfigError(
            key,
            f"expected one of {', '.join(choices)}{note}, got {toml_shown(value)}",
            source=source,
        )


def _num(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else f"{value:_}".replace("_", ",")


def _is_identifier(name: str) -> bool:
    """A plain lower-case SQL identifier: safe to put in SQL text unquoted."""
    return (
        0 < len(name) <= 63
        and name.isascii()
        and (name[0].isalpha() or name[0] == "_")
        and all(c.islower() or c.isdigit() or c == "_" for c in name)
    )
