"""Secret redaction for everything that leaves mnemic towards a memory provider.

A provider may be a hosted service: turn text, transcripts, tool arguments and memory
mirrors are passed through :func:`scrub_text` (strings) or :func:`scrub_value` (nested JSON
values) before it sees them. Recognised secrets are replaced by ``[REDACTED:<kind>]``;
the words around them are kept so the text still reads.

What is recognised: PEM private keys, API keys in well-known formats (``sk-...``,
GitHub, GitLab, AWS, Google, Slack, Stripe, Hugging Face, npm), JSON Web Tokens,
``Bearer`` tokens, passwords in URLs (``scheme://user:password@host``), and values
assigned to secret-looking names (``password=...``, ``"api_key": "..."``,
``export GITHUB_TOKEN=...``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["scrub_text", "scrub_value"]

_MARK = "[REDACTED:{}]"

# (kind, pattern, group holding the secret or 0 for the whole match)
_RULES: tuple[tuple[str, re.Pattern[str], int], ...] = (
    (
        "private_key",
        re.compile(
            r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE "
            r"KEY-----|\Z)",
            re.DOTALL,
        ),
        0,
    ),
    ("api_key", re.compile(r"(?<![\w-])sk-(?:[A-Za-z0-9]{2,12}-){0,2}[A-Za-z0-9_-]{20,}"), 0),
    ("github_token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{22,})"), 0),
    ("gitlab_token", re.compile(r"\bglpat-[0-9A-Za-z_-]{20,}"), 0),
    ("aws_key", re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"), 0),
    ("google_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), 0),
    ("slack_token", re.compile(r"\bxox[abpsre]-[0-9A-Za-z-]{10,}"), 0),
    ("api_key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}"), 0),
    ("api_key", re.compile(r"\b(?:hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36})\b"), 0),
    ("jwt", re.compile(r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}"), 0),
    ("bearer_token", re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)"), 1),
    (
        "url_password",
        re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@'\"<>]{1,64}:([^\s/@'\"<>]{1,128})@"),
        1,
    ),
    (
        "secret",
        re.compile(
            r"(?i)\b[\w.-]{0,40}(?:password|passwd|passphrase|secret|token|api[_-]?key|"
            r"access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)[\w.-]{0,20}"
            r"[\"']?\s*[:=]\s*[\"']?([^\s\"',;]{4,})"
        ),
        1,
    ),
)


_SECRET_KEY = re.compile(
    r"(?i)(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key"
    r"|credential)"
)


def _secretish(value: str) -> bool:
    """Whether a value assigned to a secret-looking name looks like a secret rather than
    prose or a number (``max_tokens: 5120``, ``token: expired``)."""
    if len(value) < 6 or value.isdigit():
        return False
    return not (value.isalpha() and value.islower() and len(value) < 12)


def scrub_text(text: str) -> str:
    """``text`` with recognised secrets replaced by ``[REDACTED:<kind>]``."""
    if not text or not isinstance(text, str):
        return text
    for kind, pattern, group in _RULES:
        mark = _MARK.format(kind)

        def replace(
            m: re.Match[str], group: int = group, mark: str = mark, kind: str = kind
        ) -> str:
            if group == 0:
                return mark
            value = m.group(group)
            if value.startswith("[REDACTED:") or (kind == "secret" and not _secretish(value)):
                return m.group(0)
            start, end = m.span(group)
            base = m.start()
            whole = m.group(0)
            return whole[: start - base] + mark + whole[end - base :]

        text = pattern.sub(replace, text)
    return text


def scrub_value(value: Any) -> Any:
    """Scrub every string inside a JSON-like value (dicts, lists, tuples); keys included."""
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            if (
                isinstance(k, str)
                and isinstance(v, str)
                and _SECRET_KEY.search(k)
                and _secretish(v)
            ):
                out[k] = _MARK.format("secret")
            else:
                out[scrub_text(k) if isinstance(k, str) else k] = scrub_value(v)
        return out
    if isinstance(value, list | tuple):
        return [scrub_value(v) for v in value]
    return value
