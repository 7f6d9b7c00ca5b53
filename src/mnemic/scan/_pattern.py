"""The pattern record, the category strings and the regex fragments shared by
:mod:`.patterns`, :mod:`.rules` and :mod:`.matching` (a module of its own so that none of
those imports another)."""

from __future__ import annotations

__all__ = [
    "CATEGORIES",
    "_NEG",
    "_REMOTE_EXEC",
    "_REMOTE_EXEC_KEYS",
    "_SECRET_FILE",
    "_SECRET_FILE_SUBS",
    "Pattern",
    "_gap",
]


#: Category strings, in the order findings are reported. All but the last are threat
#: classes (``suspicious_wording`` is the learned classifier's); ``oversize`` means
#: "longer than ``MAX_SCAN_CHARS``, not scanned past the cap".
CATEGORIES = (
    "instruction_override",
    "prompt_exfiltration",
    "credential_exfiltration",
    "secret",
    "persistence",
    "covert_action",
    "suspicious_wording",
    "invisible_unicode",
    "homoglyph",
    "oversize",
)


class Pattern:
    """One threat pattern: a stable id, its category and scope, and how to detect it."""

    __slots__ = (
        "cased",
        "category",
        "id",
        "inner",
        "keys",
        "keys2",
        "keys3",
        "keys4",
        "long_token",
        "negatable",
        "plain_subs",
        "regex",
        "scope",
        "subs",
        "unfolded",
        "why",
    )

    def __init__(
        self,
        id: str,
        category: str,
        scope: str,
        why: str,
        keys: str,
        regex: str,
        *,
        keys2: str = "",
        keys3: str = "",
        keys4: str = "",
        subs: str = "",
        cased: bool = False,
        negatable: bool = False,
        unfolded: bool = False,
        inner: str = "",
        long_token: bool = False,
        plain_subs: bool = False,
    ) -> None:
        self.id = id
        self.category = category
        self.scope = scope
        self.why = why
        self.keys = tuple(keys.split())
        self.keys2 = tuple(keys2.split())
        self.keys3 = tuple(keys3.split())
        self.keys4 = tuple(keys4.split())
        self.subs = tuple(subs.split())
        self.regex = regex
        self.cased = cased
        self.negatable = negatable
        self.unfolded = unfolded
        self.inner = inner
        self.long_token = long_token
        self.plain_subs = plain_subs

    def __repr__(self) -> str:
        return f"Pattern({self.id!r}, {self.category!r}, scope={self.scope!r})"


def _gap(n: int) -> str:
    """Up to ``n`` whole words (each followed by whitespace), not crossing a sentence end."""
    return r"(?:[^\s.!?;]+\s+){0," + str(n) + "}?"


# A negation just before the verb ("do not reveal", "never ignore", "don't share"): the
# named group lets the scanner discard such hits.
_NEG = r"(?P<neg>(?:\b(?:not|never|cannot|no)|n['’]t)\s+(?:[a-z]+\s+){0,2})?"

# Remote code execution one-liners, shared by the cron and shell-rc backdoor patterns.
_REMOTE_EXEC = (
    r"(?:\b(?:curl|wget)\b[^\n]{0,150}?\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b"
    r"|/dev/(?:tcp|udp)/|\bbash\s+-i\b|\b(?:nc|ncat|netcat)\b[^\n|;]{0,60}?\s-[ec]\b"
    r"|base64\s+-{1,2}d[^\n]{0,40}?\|\s*(?:ba|z)?sh\b|python[0-9]?(?:\.[0-9]+)?\s+-c\s+[\"']?import\s+socket)"
)
_REMOTE_EXEC_KEYS = "curl wget tcp udp bash nc ncat netcat base64 socket"

# Files whose content is a credential, and their words.
_SECRET_FILE = (
    r"\.env(?![\w.-])|\.netrc\b|\.pgpass\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b"
    r"|\.aws/credentials\b|\.docker/config\.json|\.ssh/id_[a-z0-9]+|\bid_(?:rsa|ed25519|ecdsa|dsa)\b"
    r"|\.kube/config\b|/etc/shadow\b|\.gnupg\b|/proc/(?:self|\d+)/environ|gh/hosts\.yml"
)
_SECRET_FILE_SUBS = (
    ".env netrc pgpass npmrc pypirc credentials docker/config id_ kube/config shadow gnupg "
    "environ hosts.yml"
)
