"""A floor under the scanner: what the system mnemic started from refuses is held here.

The memory tool of the reference system (its threat table is described in
``shared/reference/hermes-behaviour.md``, section 4.2) refuses 36 kinds of text. Most are
caught by mnemic's own rules, classifier and intents, often more precisely; a few of its
patterns are bare mentions that honest notes contain too (a C2 framework's name, the
``authorized_keys`` file, ``~/.ssh``). So that mnemic never lets through what the
reference stops, each of its intents is written here once more, in mnemic's own words,
as a *hold*: text that matches is not saved without a person's approval. A sentence that
only describes a threat (an alert, an incident, a pentest scope) is not held.

Each entry: the reference's pattern id, the category, the words that must occur (a cheap
test before the regex runs, substrings of the lower-cased text) and the regex.
"""

from __future__ import annotations

import re

__all__ = ["REFERENCE", "held"]

_VERB = r"\b(?:update|modify|edit|write|change|append|add)\b"

#: (reference id, category, needles, regex on lower-cased text).
REFERENCE: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    (
        "prompt_injection",
        "instruction_override",
        ("ignore",),
        r"\bignore\b(?:\s+\S+){0,8}?\s+(?:previous|all|above|prior)\b(?:\s+\S+){0,8}?"
        r"\s+instructions\b",
    ),
    ("sys_prompt_override", "instruction_override", ("override",), r"system\s+prompt\s+override"),
    (
        "disregard_rules",
        "instruction_override",
        ("disregard",),
        r"\bdisregard\b(?:\s+\S+){0,8}?\s+(?:your|all|any)\b(?:\s+\S+){0,8}?"
        r"\s+(?:instructions|rules|guidelines)\b",
    ),
    (
        "bypass_restrictions",
        "instruction_override",
        ("act as",),
        r"\bact\s+as\s+(?:if|though)\b.{0,60}?\byou\b.{0,40}?\b(?:have\s+no|don'?t\s+have|do\s+not"
        r"\s+have)\b.{0,40}?\b(?:restrictions|limits|rules)\b",
    ),
    (
        "html_comment_injection",
        "instruction_override",
        ("<!--",),
        r"<!--[^>]{0,160}?\b(?:ignore|override|system|secret|hidden)\b[^>]{0,160}?-->",
    ),
    (
        "hidden_div",
        "instruction_override",
        ("display",),
        r"<div\s+style=[\"'][^\"']*display\s*:\s*none",
    ),
    (
        "translate_execute",
        "covert_action",
        ("translate",),
        r"\btranslate\b.{0,120}?\binto\b.{0,60}?\band\s+(?:execute|run|eval)\b",
    ),
    (
        "deception_hide",
        "covert_action",
        ("tell",),
        r"\b(?:do\s+not|don'?t|never)\b.{0,40}?\btell\b.{0,30}?\bthe\s+user\b",
    ),
    (
        "exfil_curl",
        "credential_exfiltration",
        ("curl", "wget"),
        r"\b(?:curl|wget)\b[^\n]{0,300}?\$\{?[a-z0-9_]{0,40}(?:key|token|secret|password"
        r"|credentials?)\b",
    ),
    (
        "read_secrets",
        "credential_exfiltration",
        ("cat",),
        r"\bcat\b[^\n]{0,80}?(?:\.env\b|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)",
    ),
    (
        "role_hijack",
        "instruction_override",
        ("you are",),
        r"\byou\s+are\b(?:\s+\S+){0,3}?\s+now\s+(?:a|an|the)\b",
    ),
    (
        "role_pretend",
        "instruction_override",
        ("pretend",),
        r"\bpretend\b.{0,40}?\b(?:you\s+are|to\s+be)\b",
    ),
    (
        "leak_system_prompt",
        "prompt_exfiltration",
        ("output",),
        r"\boutput\b.{0,60}?\b(?:system|initial)\s+prompt\b",
    ),
    (
        "remove_filters",
        "instruction_override",
        ("without",),
        r"\b(?:respond|answer|reply)\b.{0,60}?\bwithout\b.{0,40}?\b(?:restrictions|limitations"
        r"|filters|safety)\b",
    ),
    (
        "fake_update",
        "instruction_override",
        ("been",),
        r"\byou\s+have\s+been\b(?:\s+\S+){0,3}?\s+(?:updated|upgraded|patched)\b",
    ),
    ("identity_override", "instruction_override", ("yourself",), r"\bname\s+yourself\s+\w+"),
    ("c2_node_registration", "persistence", ("node",), r"\bregister\s+(?:as\s+)?(?:a\s+)?node\b"),
    (
        "c2_heartbeat",
        "persistence",
        ("heartbeat", "beacon", "check"),
        r"\b(?:heartbeat|beacon|check[\s-]?in)\s+(?:to|with)\b",
    ),
    ("c2_task_pull", "persistence", ("pull",), r"\bpull\s+(?:down\s+)?(?:new\s+)?task(?:s|ing)?\b"),
    ("c2_network_connect", "persistence", ("network",), r"\bconnect\s+to\s+the\s+network\b"),
    (
        "forced_action",
        "persistence",
        ("must",),
        r"\byou\s+must\s+(?:\S+\s+){0,3}?(?:register|connect|report|beacon)\b",
    ),
    ("anti_forensic_oneliner", "covert_action", ("one",), r"\bonly\s+use\s+one[\s-]?liners?\b"),
    (
        "anti_forensic_disk",
        "covert_action",
        ("disk",),
        r"\bnever\b.{0,60}?\b(?:create|write)\b.{0,60}?\b(?:script|file)s?\b.{0,40}?\bdisk\b",
    ),
    (
        "env_var_unset_agent",
        "covert_action",
        ("unset",),
        r"\bunset\s+[a-z0-9_]*(?:claude|codex|hermes|agent|openai|anthropic)",
    ),
    (
        "known_c2_framework",
        "persistence",
        ("cobalt", "sliver", "havoc", "mythic", "metasploit", "brainworm"),
        r"\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b",
    ),
    (
        "c2_explicit",
        "persistence",
        ("c2",),
        r"\bc2\s+(?:server|channel|infrastructure|beacon)s?\b",
    ),
    ("c2_explicit_long", "persistence", ("control",), r"\bcommand[\s-]+and[\s-]+control\b"),
    (
        "send_to_url",
        "prompt_exfiltration",
        ("http",),
        r"\b(?:send|post|upload|transmit)\b.{0,120}?\b(?:to|at)\s+https?://",
    ),
    (
        "context_exfil",
        "prompt_exfiltration",
        ("conversation", "history", "messages", "context"),
        r"\b(?:include|output|print|share)\b.{0,60}?\b(?:conversation|chat\s+history|previous"
        r"\s+messages|full\s+context|entire\s+context)\b",
    ),
    ("ssh_backdoor", "persistence", ("authorized_keys",), r"authorized_keys"),
    ("ssh_access", "credential_exfiltration", (".ssh",), r"(?:\$home|~)/\.ssh\b"),
    (
        "hermes_env",
        "credential_exfiltration",
        (".env",),
        r"(?:\$home|~)/\.(?:hermes|mnemic|claude|codex)/\.env\b",
    ),
    (
        "agent_config_mod",
        "persistence",
        ("agents.md", "claude.md", "cursorrules", "clinerules"),
        _VERB + r".{0,80}?(?:agents\.md|claude\.md|\.cursorrules|\.clinerules)",
    ),
    (
        "hermes_config_mod",
        "persistence",
        (".hermes/",),
        _VERB + r".{0,80}?\.hermes/(?:config\.yaml|soul\.md)",
    ),
    (
        "hardcoded_secret",
        "secret",
        ("key", "token", "secret", "password"),
        r"(?:api_?key|token|secret|password)\s*[=:]\s*[\"'][a-z0-9+/=_-]{20,}[\"']",
    ),
)
# The reference's exfil_wget is exfil_curl with wget: one entry above covers both.

_compiled: dict[str, re.Pattern[str]] = {}


def held(text: str) -> list[tuple[str, str]]:
    """``(reference id, category)`` of each reference pattern ``text`` matches."""
    low = text.lower()
    out: list[tuple[str, str]] = []
    for rid, category, needles, source in REFERENCE:
        if not any(n in low for n in needles):
            continue
        rx = _compiled.get(rid)
        if rx is None:
            rx = _compiled[rid] = re.compile(source, re.S)
        if rx.search(low):
            out.append((rid, category))
    return out
