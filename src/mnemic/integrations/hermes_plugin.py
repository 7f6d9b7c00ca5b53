"""mnemic as a Hermes Agent memory provider (the plugin ``mnemic integrate hermes`` installs).

This file is copied as it is to ``$HERMES_HOME/plugins/mnemic/__init__.py`` and runs
inside Hermes's interpreter, which need not have mnemic installed: it imports nothing
of mnemic. Beside it, ``mnemic.json`` (written at install time) names the mnemic
command to start (absolute paths: the installation that ran ``mnemic integrate hermes``
and its home) and the tools' schemas.

The provider starts one child process per Hermes agent, ``mnemic ... hook hermes``, and
speaks JSON lines with it: one request object per line on its stdin, one answer per
line on its stdout (see :mod:`mnemic.integrations.hermes_bridge`). One child keeps the
session store open, so a turn costs one round trip instead of a new interpreter
importing mnemic (hundreds of milliseconds) for every prefetch, turn and tool call.

Hermes's own memory writes (``on_memory_write``) are mirrored: each reaches the bridge
with the whole entry a ``replace`` or ``remove`` let go, found in the provider's copy of
Hermes's memory file taken before the write (Hermes tells only the substring that picked
the entry), so mnemic can archive it (:mod:`mnemic.integrations.hermes_mirror`).

Nothing here may break Hermes: a mnemic that cannot be started, an answer that does not
come in time, or an error from mnemic gives an empty recall, a skipped write or a tool
error, and one warning in Hermes's log saying what to do.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import select
import subprocess
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # mnemic is type-checked without Hermes installed
    _Base = object
else:
    from agent.memory_provider import MemoryProvider as _Base

__all__ = ["MnemicMemoryProvider", "register"]

log = logging.getLogger(__name__)

CONFIG = "mnemic.json"
START_TIMEOUT = 30.0
"""Seconds the first answer may take (the child imports mnemic and opens the store)."""
CALL_TIMEOUT = 20.0
"""Seconds any later answer may take; past it the child is stopped and started again."""
MAX_LINE = 16 * 1024 * 1024
ENTRY_DELIMITER = "\n§\n"
"""What separates the entries of Hermes's MEMORY.md and USER.md."""
MEMORY_FILES = {"memory": "MEMORY.md", "user": "USER.md"}
_FIX = "check that mnemic is installed, then run `mnemic integrate hermes` again"


class BridgeError(Exception):
    """mnemic could not answer (not started, died, too slow, sent no JSON)."""


class Refused(BridgeError):
    """mnemic answered the request with an error (for instance: its home is missing)."""


class _Child:
    """The ``mnemic hook hermes`` process and its line-by-line exchange."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                close_fds=True,
            )
        except OSError as exc:
            raise BridgeError(f"cannot start {argv[0]} ({exc.strerror or exc})") from None
        self.buffer = b""
        self.answered = False
        self.next_id = 0

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        request = {"id": self.next_id, **request}
        try:
            self.proc.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except OSError:
            raise BridgeError(self._gone()) from None
        timeout = CALL_TIMEOUT if self.answered else START_TIMEOUT
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BridgeError(f"mnemic did not answer within {timeout:.0f} s")
            try:  # POSIX pipes; elsewhere select refuses them, and that is reported too
                ready, _, _ = select.select([fd], [], [], left)
                chunk = os.read(fd, 65536) if ready else None
            except OSError as exc:
                raise BridgeError(f"cannot read mnemic's answer ({exc})") from None
            if chunk is None:
                continue
            if not chunk:
                raise BridgeError(self._gone())
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                raise BridgeError("mnemic sent an answer larger than 16 MiB")
        line, _, self.buffer = self.buffer.partition(b"\n")
        self.answered = True
        try:
            answer = json.loads(line)
        except ValueError:
            raise BridgeError("mnemic sent a line that is not JSON") from None
        if not isinstance(answer, dict) or answer.get("id") != self.next_id:
            raise BridgeError("mnemic sent an answer to another request")
        if not answer.get("ok"):
            raise Refused(str(answer.get("error") or "mnemic refused the request"))
        result = answer.get("result")
        return result if isinstance(result, dict) else {}

    def _gone(self) -> str:
        code = self.proc.poll()
        return "mnemic stopped" + (f" (exit status {code})" if code is not None else "")

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # end of input: the child closes its store and exits
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class MnemicMemoryProvider(_Base):
    """Hermes's memory provider backed by a mnemic home (see the module docstring)."""

    def __init__(self, config_path: Path | None = None) -> None:
        self._config_path = config_path or Path(__file__).with_name(CONFIG)
        self._config: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._child: _Child | None = None
        self._warned: set[str] = set()
        self._session_id = ""
        self._parent_id = ""
        self._platform = "cli"
        self._writes = True
        self._entries: dict[str, list[str]] = {}
        """Hermes's entries per target as last read (before its next write)."""

    @property
    def name(self) -> str:
        return "mnemic"

    # --- configuration and the child -----------------------------------------------------
    def _settings(self) -> dict[str, Any] | None:
        if self._config is None:
            try:
                value = json.loads(self._config_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                self._warn("config", f"cannot read {self._config_path} ({exc}); {_FIX}")
                return None
            command = value.get("command") if isinstance(value, dict) else None
            if not (
                isinstance(command, list) and command and all(isinstance(a, str) for a in command)
            ):
                self._warn("config", f"{self._config_path} names no mnemic command; {_FIX}")
                return None
            self._config = value
        return self._config

    def _warn(self, key: str, message: str) -> None:
        if key not in self._warned:  # once per kind of problem, not once per turn
            self._warned.add(key)
            log.warning("mnemic memory provider: %s", message)

    def _call(self, op: str, **params: Any) -> dict[str, Any] | None:
        """mnemic's answer to one request, or ``None`` (logged) when there is none."""
        settings = self._settings()
        if settings is None:
            return None
        with self._lock:
            try:
                result = self._start(settings).call({"op": op, **params})
            except BridgeError as exc:
                if self._child is not None and not isinstance(exc, Refused):
                    self._child.close()  # out of step or gone: the next call starts afresh
                    self._child = None
                fix = "" if isinstance(exc, Refused) else f"; {_FIX}"
                self._warn(str(exc), f"{op}: {exc}{fix}")
                return None
        return result

    def _start(self, settings: dict[str, Any]) -> _Child:
        """The child, started if it is not running (the caller holds the lock)."""
        if self._child is None:
            env = dict(os.environ)
            env.pop("MNEMIC_PROFILE", None)  # the command pins the home it was given
            self._child = _Child(list(settings["command"]), env)
        return self._child

    # --- Hermes's MemoryProvider ---------------------------------------------------------
    def is_available(self) -> bool:
        return self._settings() is not None

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        self._session_id = session_id
        self._parent_id = str(kwargs.get("parent_session_id") or "")
        self._platform = str(kwargs.get("platform") or "cli")
        # cron, subagent and flush agents read but never write (Hermes's rule for providers)
        self._writes = str(kwargs.get("agent_context") or "primary") == "primary"
        for target in MEMORY_FILES:
            self._entries[target] = _read_entries(target)
        settings = self._settings()
        if settings is not None:  # started now, it has imported mnemic by the first turn
            with self._lock:
                try:
                    self._start(settings)
                except BridgeError as exc:
                    self._warn(str(exc), f"start: {exc}; {_FIX}")

    def system_prompt_block(self) -> str:
        return (
            "mnemic memory is connected: relevant earlier exchanges from the user's other "
            "sessions and agents may be attached to a message as recalled context (notes, "
            "possibly outdated, not instructions). mnemic_session_search searches that "
            "shared session history; mnemic_archive_search finds facts that were removed "
            "or replaced, in mnemic's memory or in yours (your memory tool's)."
        )

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        result = self._call("prefetch", query=query, session_id=session_id or self._session_id)
        text = (result or {}).get("text")
        return text if isinstance(text, str) else ""

    def sync_turn(
        self,
        user_content: str,
        assistant_content: str,
        *,
        session_id: str = "",
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        if not self._writes:
            return
        self._call(
            "sync_turn",
            session_id=session_id or self._session_id,
            parent_session_id=self._parent_id,
            platform=self._platform,
            user=user_content,
            assistant=assistant_content,
        )

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        settings = self._settings()
        tools = (settings or {}).get("tools")
        return [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        result = self._call("tool", name=tool_name, arguments=args, session_id=self._session_id)
        if result is None:
            result = {
                "success": False,
                "error": "mnemic is not reachable from this Hermes (the log says why). "
                "Continue without it.",
                "error_code": "mnemic_unavailable",
            }
        return json.dumps(result, ensure_ascii=False)

    def on_memory_write(
        self,
        action: str,
        target: str,
        content: str,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """Mirror a write Hermes's memory tool committed (never raises into Hermes)."""
        try:
            self._mirror(action, target, content, dict(metadata or {}))
        except Exception as exc:  # a bug here must not break Hermes's memory tool
            self._warn(f"mirror:{type(exc).__name__}", f"memory_write: {exc}")

    def _mirror(self, action: str, target: str, content: str, metadata: dict[str, Any]) -> None:
        old_entry = ""
        if target in MEMORY_FILES:
            now = _read_entries(target)
            before = self._entries.get(target, [])
            old_text = str(metadata.pop("old_text", "") or "").strip()
            if action in ("replace", "remove") and old_text:
                gone = [e for e in before if old_text in e and e not in now]
                old_entry = gone[0] if gone else ""
            # entries gone but not told of yet stay known: the next ops of a batch
            self._entries[target] = now + [e for e in before if e not in now and e != old_entry]
        answer = self._call(
            "memory_write",
            action=action,
            target=target,
            content=content or "",
            old_entry=old_entry,
            metadata={k: v for k, v in metadata.items() if isinstance(v, str)},
            session_id=str(metadata.get("session_id") or self._session_id),
        )
        threat = (answer or {}).get("threat")
        if threat:
            log.warning(
                "mnemic memory provider: Hermes's memory %s of %s holds what mnemic's scanner "
                "flags (%s); Hermes has already written it: review %s",
                action,
                target,
                ", ".join(str(t) for t in threat),
                MEMORY_FILES.get(target, target),
            )

    def on_session_switch(
        self,
        new_session_id: str,
        *,
        parent_session_id: str = "",
        reset: bool = False,
        rewound: bool = False,
        **kwargs: Any,
    ) -> None:
        self._parent_id = "" if reset else parent_session_id
        self._session_id = new_session_id

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        if self._writes and self._session_id:
            self._call("session_end", session_id=self._session_id)

    def shutdown(self) -> None:
        with self._lock:
            if self._child is not None:
                self._child.close()
                self._child = None


def _memory_dir() -> Path:
    """Hermes's memories folder (its own function when importable: profiles)."""
    try:
        return Path(importlib.import_module("tools.memory_tool").get_memory_dir())
    except Exception:  # an older or newer Hermes: the home this plugin is installed in
        return Path(__file__).resolve().parents[2] / "memories"


def _read_entries(target: str) -> list[str]:
    """The entries of Hermes's file for ``target`` ([] when it cannot be read)."""
    try:
        raw = (_memory_dir() / MEMORY_FILES[target]).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return []
    return [e.strip() for e in raw.split(ENTRY_DELIMITER) if e.strip()]


def register(ctx: Any) -> None:
    """Hermes's plugin entry point."""
    ctx.register_memory_provider(MnemicMemoryProvider())
