"""Structural rules added by scanner v2 (merged into :data:`mnemic.scan.patterns.PATTERNS`).

Same conventions as the original table (lower-case regexes on normalised text, keyword
groups that are necessary conditions, bounded gaps). These cover what the learned layer
should not have to guess: worded overrides with a fixed shape, covert or conditional
wrappers around destructive or remote-code commands, secrets requested in the reply,
template beacons in markdown images and links, secret files shipped to an address or
appended to answers (in any language), and decode-and-execute one-liners.
"""

from __future__ import annotations

from .patterns import _NEG, _REMOTE_EXEC, _SECRET_FILE, Pattern, _gap

__all__ = ["RULES", "STRICT_LEVEL_ONLY"]

#: Rule ids applied only at sensitivity level ``strict``.
STRICT_LEVEL_ONLY = frozenset({"remote_exec_oneliner"})

_VERB_DROP = r"(?:ignore|disregard|forget|drop|discard|abandon|scrap|dismiss)"
_TOLD = r"(?:told|taught|given|instructed|asked|programmed)"
_DESTRUCTIVE = (
    r"(?:\brm\s+-[a-z]*[rf][a-z]*\b|\bmkfs\b|\bdd\s+if=|\bshred\b|\bwipefs\b|\bdrop\s+(?:table"
    r"|database|schema)\b|\btruncate\s+table\b|\bdel\s+/[fsq]\b|\brd\s+/s\b|\bformat\s+[a-z]:"
    r"|\bgit\s+push\s+(?:-f|--force)\b|\bgit\s+reset\s+--hard\b|:\(\)\s*\{|\bchmod\s+-r\s+777\s+/"
    r"|\b(?:delete|wipe|erase|destroy)\s+(?:all|every|the\s+whole|the\s+entire|everything)\b)"
)
_DESTRUCTIVE_KEYS = (
    "rm mkfs dd shred wipefs drop truncate del rd format git chmod delete wipe erase destroy"
)
_TRIGGER = (
    r"(?:\bwhenever\b|\bevery\s+time\b|\beach\s+time\b|\bas\s+soon\s+as\b|\bonce\s+you\s+see\b"
    r"|\b(?:when|if)\s+(?:you\s+)?(?:ever\s+)?(?:see|read|hear|encounter|notice)\b"
    r"|\b(?:when|if)\s+(?:the\s+)?(?:user|someone|anyone|they)\s+(?:says?|mentions?|types?"
    r"|writes?|asks?)\s+(?:the\s+word|[\"'“‘])|\bwithout\s+(?:asking|confirmation|confirming"
    r"|telling|permission)|\b(?:silently|secretly|quietly|covertly)\b|\bdon['’]t\s+ask\b)"
)
_TRIGGER_KEYS = (
    "whenever every each soon once see read hear encounter notice user someone anyone they "
    "without silently secretly quietly covertly don"
)
_HABIT = (
    r"(?:\balways\b|\bevery\s+time\b|\beach\s+time\b|\bwhenever\b|\bbefore\s+(?:each|every|any)"
    r"\b|\bat\s+the\s+(?:start|beginning)\s+of\s+(?:each|every)\b|\bon\s+(?:every|each)\b"
    r"|\bautomatically\b|\bsilently\b|\bfirst\s+thing\b|\bon\s+startup\b|\bevery\s+session\b)"
)
_HABIT_KEYS = "always every each whenever before start beginning on automatically silently first"
_REPLY_WORDS = (
    r"(?:repl(?:y|ies)|answers?|responses?|outputs?|messages?|chats?|回答|回复|回覆|答案|输出|"
    r"回應|返答|応答|回答|응답|답변|ответ[а-я]*|respuestas?|réponses?|antworten|antwort"
    r"|rispost[ae]|respostas?)"
)
_REPLY_KEYS = (
    "reply replies answer answers response responses output outputs message messages chat "
    "chats 回答 回复 回覆 答案 输出 回應 返答 応答 응답 답변 ответ respuesta respuestas "
    "reponse reponses antwort antworten risposta risposte resposta respostas"
)
_SECRET_WORD_KEYS = (
    "credentials env netrc pgpass npmrc pypirc rsa ed25519 ecdsa dsa shadow gnupg environ "
    "kube config hosts"
)
_SECRET_VAR = (
    r"\$\{?[a-z0-9_]{0,40}(?:key|token|secret|password|passwd|pwd|credentials?)[a-z0-9_]{0,20}\}?"
)


def _inflect(words: str) -> str:
    """Each word with the endings ``(?:s|ed|ing)?`` can give it (as whole-word keys)."""
    return " ".join(w + end for w in words.split() for end in ("", "s", "ed", "ing"))


RULES: tuple[Pattern, ...] = (
    Pattern(
        "drop_prior_instructions",
        "instruction_override",
        "context",
        "tells the model to drop what it was told or given before",
        "ignore disregard forget drop discard abandon scrap dismiss",
        _NEG
        + r"\b"
        + _VERB_DROP
        + r"\s+"
        + _gap(3)
        + r"(?:everything|anything|all|whatever|what)\s+(?:that\s+)?you(?:['’]ve|\s+have|\s+were"
        r"|\s+had|['’]re)?\s+(?:been\s+|being\s+)?"
        + _TOLD
        + r"\b|\b"
        + _VERB_DROP
        + r"\s+(?:the|your|all|any)\s+(?:[a-z]+\s+){0,2}?(?:guidelines|rules|instructions"
        r"|directives|policies|constraints|orders|guidance)\s+(?:that\s+)?you(?:['’]ve|\s+have"
        r"|\s+were|\s+had)?\s+(?:been\s+)?" + _TOLD + r"\b",
        keys2="told taught given instructed asked programmed",
        negatable=True,
    ),
    Pattern(
        "rules_declared_obsolete",
        "instruction_override",
        "context",
        "declares the model's rules obsolete or hands it a new top priority",
        "obsolete outdated invalid superseded replaced deprecated longer new",
        r"\b(?:previous|prior|earlier|old|original|existing|current|system|your|above|initial)\s+"
        + _gap(2)
        + r"(?:rules|instructions|guidelines|directives|prompt|policies|constraints|orders)\s+"
        r"(?:are|is|were|was|have\s+become|has\s+become|became)\s+(?:now\s+|hereby\s+)?"
        r"(?:obsolete|outdated|invalid|superseded|replaced|deprecated|no\s+longer\s+(?:valid"
        r"|relevant|applicable|binding|in\s+force))\b"
        r"|\byour\s+new\s+(?:top\s+|only\s+|main\s+|primary\s+|first\s+|real\s+)?(?:priority"
        r"|task|goal|objective|mission|instructions?|directive|purpose)\s+(?:is|are|will\s+be)\b",
        keys2="rules instructions guidelines directives prompt policies constraints orders "
        "priority task goal objective mission instruction directive purpose",
    ),
    Pattern(
        "covert_concealment",
        "covert_action",
        "context",
        "tells the model to keep an upload, a data transfer or its own instructions from the user",
        "never not don dont avoid",
        r"\b(?:never|not|don['’]?t|avoid)\s+(?:ever\s+)?(?:mention|mentioning|tell|telling|reveal"
        r"|revealing|disclose|disclosing|report|reporting|bring\s+up|show|showing|log|say"
        r"\s+anything\s+about|acknowledge|admit)\s+(?:the\s+user\s+)?(?:about\s+)?"
        r"(?:the\s+|this\s+|that\s+|any\s+|these\s+|those\s+|our\s+)?(?:[a-z]+\s+){0,2}?"
        r"(?:telemetry|uploads?|uploading|upload(?:ed)?|exfiltration|beacons?|tracking\s+pixel"
        r"|data\s+(?:collection|transfer|upload|sync)|outbound\s+(?:request|connection)s?"
        r"|(?:note|instruction|instructions|rule|memory|entry)\s+(?:above|itself)"
        r"|this\s+(?:note|instruction|rule|memory|entry)|what\s+you\s+(?:did|do|sent|uploaded"
        r"|ran|copied))\b",
        keys2="telemetry upload uploads uploading uploaded exfiltration beacon beacons tracking "
        "data outbound note instruction instructions rule memory entry what",
    ),
    Pattern(
        "triggered_destructive",
        "covert_action",
        "context",
        "wraps a destructive command in a hidden trigger or a no-confirmation order",
        _TRIGGER_KEYS,
        _TRIGGER
        + r"[^\n]{0,120}?"
        + _DESTRUCTIVE
        + "|"
        + _DESTRUCTIVE
        + r"[^\n]{0,80}?"
        + _TRIGGER,
        keys2=_DESTRUCTIVE_KEYS + " :()",
    ),
    Pattern(
        "habitual_remote_exec",
        "covert_action",
        "context",
        "tells the model to run a downloaded script routinely or silently",
        _HABIT_KEYS,
        _HABIT + r"[^\n]{0,80}?" + _REMOTE_EXEC,
        keys2="curl wget tcp udp bash nc ncat netcat base64 socket",
    ),
    Pattern(
        "remote_exec_oneliner",
        "covert_action",
        "strict",
        "pipes a downloaded script straight into a shell (reported at level strict only)",
        "curl wget",
        r"\b(?:curl|wget)\b[^\n]{0,150}?\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b",
        keys2="sh bash zsh dash",
    ),
    Pattern(
        "decode_and_execute",
        "covert_action",
        "context",
        "decodes a hidden payload and executes it",
        "base64 b64decode eval iex powershell frombase64string exec",
        r"\bbase64\s+(?:-d|--decode|-D)\b[^\n]{0,40}?\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b"
        r"|\|\s*base64\s+(?:-d|--decode)\s*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b"
        r"|\beval\s+[\"'`]?\$\(\s*echo\s+[a-z0-9+/=]{12,}[^\n]{0,20}?base64"
        r"|\bexec\s*\(\s*(?:base64\.)?b64decode\b"
        r"|\biex\b[^\n]{0,60}?frombase64string"
        r"|\bpowershell(?:\.exe)?\b[^\n]{0,30}?\s-e(?:nc|ncodedcommand)?\s+[a-z0-9+/=]{20,}",
    ),
    Pattern(
        "secret_in_reply",
        "credential_exfiltration",
        "context",
        "asks for a secret environment variable to be put into the model's reply",
        "include put add append insert paste print show reveal output write tell give echo "
        "share quote mention state return send reply respond answer value contents content",
        _NEG + r"\b(?:include|put|add|append|insert|paste|print|show|reveal|output|write|tell|give"
        r"|echo|share|quote|mention|state|return|send)\b[^\n]{0,60}?"
        + _SECRET_VAR
        + r"[^\n]{0,40}?\b(?:in|into|to|at\s+the\s+(?:end|start|top|bottom)\s+of|with)\s+"
        r"(?:your|the|each|every|all|my)\s+(?:[a-z]+\s+)?"
        + _REPLY_WORDS
        + r"|\b"
        + _REPLY_WORDS
        + r"\b(?:(?!\bnever\b|\bnot\b|n['’]t\b)[^\n]){0,60}?\b(?:include|put|add|append|insert"
        r"|paste|print|show|reveal|output|write|give|echo|share|quote|mention|state)\b"
        r"(?:(?!\bnever\b|\bnot\b|n['’]t\b)[^\n]){0,40}?"
        + _SECRET_VAR
        + r"|\b(?:reply|respond|answer)\s+(?:only\s+)?with\s+[^\n]{0,30}?"
        + _SECRET_VAR
        + r"|\b(?:value|contents?)\s+of\s+"
        + _SECRET_VAR
        + r"[^\n]{0,40}?\b(?:in|into|to)\s+(?:your|the|each|every)\s+"
        + _REPLY_WORDS,
        keys2="$*",
        negatable=True,
    ),
    Pattern(
        "template_beacon",
        "prompt_exfiltration",
        "context",
        "a markdown image or link whose URL carries a template placeholder (a data beacon)",
        "http https",
        r"!\[[^\]\n]{0,100}\]\(\s*https?://[^\s)]{0,200}?(?:\{[^}\s]{1,60}\}|\$\{|%7b"
        r"|<[a-z_ ]{2,40}>|\[[a-z_ ]{2,40}\])"
        r"|\[[^\]\n]{0,100}\]\(\s*https?://[^\s)?]{0,200}\?[^\s)]{0,200}?(?:\{[^}\s]{1,60}\}|\$\{"
        r"|%7b|<[a-z_ ]{2,40}>)"
        r"|https?://[^\s]{0,200}?[?&][a-z0-9_]{1,20}=(?:\{\{?|\$\{|%7b|<)\s*[a-z_ ]{0,40}?"
        r"(?:conversation|chat|history|messages?|context|memory|secret|key|token|password|prompt"
        r"|summary|answer|credentials?|email|user)",
        keys2="{* <* [* %7b*",
    ),
    Pattern(
        "secret_file_to_destination",
        "credential_exfiltration",
        "context",
        "tells the model to send a credential file's contents to an outside address",
        _inflect(
            "post send upload transfer forward submit exfiltrate leak copy push email share "
            "paste attach pipe"
        ),
        _NEG
        + r"\b(?:post|send|upload|transfer|forward|submit|exfiltrate|leak|copy|push|email|share"
        r"|paste|attach|pipe)(?:s|ed|ing)?\b[^\n]{0,60}?(?:"
        + _SECRET_FILE
        + r"|\.aws\b|\.ssh\b)[^\n]{0,60}?\b(?:to|into|at|on)\s+(?:https?://|[a-z0-9._-]+@[a-z0-9-]"
        r"|(?:the\s+|this\s+|my\s+|an?\s+)?(?:webhook|pastebin|gist|server|endpoint|url|bucket))",
        keys2=_SECRET_WORD_KEYS + " aws ssh",
        keys3="to into at on",
        negatable=True,
    ),
    Pattern(
        "secret_file_in_reply",
        "credential_exfiltration",
        "context",
        "asks for a credential file to be added to every answer (any language)",
        _SECRET_WORD_KEYS,
        r"(?m:^)(?=[^\n]{0,300}?(?:" + _SECRET_FILE + r"))(?=[^\n]{0,300}?" + _REPLY_WORDS + r")"
        r"(?=[^\n]{0,300}?(?:\b(?:include|append|attach|add|paste|put|insert|every|each|end)\b"
        r"|附|加上|贴|包含|每|末尾|结尾|添|付け|모든|매|кажд|всегда|cada|chaque|jede|ogni|toda))",
        keys2=_REPLY_KEYS,
        keys3="include append attach add paste put insert every each end 附 加上 贴 包含 每 末尾 "
        "结尾 添 付け 모든 매 кажд всегда cada chaque jede ogni toda",
    ),
)
