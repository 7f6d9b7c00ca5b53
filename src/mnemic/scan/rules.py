"""Structural rules added by scanner v2 (merged into :data:`mnemic.scan.patterns.PATTERNS`).

Same conventions as the original table (lower-case regexes on normalised text, keyword
groups that are necessary conditions, bounded gaps). These cover what the learned layer
should not have to guess: worded overrides with a fixed shape, covert or conditional
wrappers around destructive or remote-code commands, secrets requested in the reply,
template beacons in markdown images and links, secret files shipped to an address or
appended to answers (in any language), and decode-and-execute one-liners.
"""

from __future__ import annotations

from ._pattern import _NEG, _REMOTE_EXEC, _SECRET_FILE, Pattern, _gap

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
_REPLY_LATIN = (
    r"repl(?:y|ies)|answers?|responses?|outputs?|messages?|chats?|respuestas?|antworten|antwort"
    r"|rispost[ae]|respostas?"
)
_REPLY_OTHER = r"回答|回复|回覆|答案|输出|回應|返答|応答|응답|답변|ответ[а-я]*|réponses?"
_REPLY_WORDS = "(?:" + _REPLY_LATIN + "|" + _REPLY_OTHER + ")"
"""A reply of the model's, in the languages the patterns read (anywhere in a word)."""
_REPLY_WORDS_WHOLE = r"(?:\b(?:" + _REPLY_LATIN + r")\b|" + _REPLY_OTHER + ")"
""":data:`_REPLY_WORDS` with its Latin-script words whole, as the prefilter's keys
(:data:`_REPLY_KEYS`, whole words) read them: "chatbot" is no "chat"."""
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


# Credential formats with a fixed vendor prefix (GitLab incl. runner registration tokens
# GR1348941..., PyPI, Shopify, DigitalOcean,
# Sentry, Postman, Linear, Brevo, Doppler, Vault, age, Square, Atlassian, Perplexity,
# Notion, Databricks...). Case-sensitive; each body is long enough that prose never fits.
_VENDOR_TOKEN = (
    r"(?<![\w-])(?:(?:glpat|glptt|glrt|gldt|glcbt|glft|glsoat|glimt|glagent|gloas)-[0-9A-Za-z_-]{20,}"
    r"|GR1348941[0-9A-Za-z_-]{20,}"
    r"|pypi-AgE[A-Za-z0-9_-]{50,}"
    r"|xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"
    r"|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"
    r"|do[opr]_v1_[a-f0-9]{64}\b"
    r"|rubygems_[a-f0-9]{48}\b"
    r"|sntr(?:ys|yu)_[A-Za-z0-9+/=_]{40,}"
    r"|pscale_(?:tkn|oauth|pw)_[A-Za-z0-9=._-]{32,}"
    r"|PMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"
    r"|lin_api_[A-Za-z0-9]{40}\b"
    r"|CLOJARS_[a-z0-9]{60}\b"
    r"|dapi[a-f0-9]{32}(?:-\d)?\b"
    r"|AGE-SECRET-KEY-1[0-9A-Z]{58}\b"
    r"|hv[sb]\.[A-Za-z0-9_-]{24,}"
    r"|sq0(?:atp|csp)-[0-9A-Za-z_-]{22,}"
    r"|ATATT3[A-Za-z0-9_=-]{50,}"
    r"|pplx-[A-Za-z0-9]{40,}\b"
    r"|ntn_[0-9]{11}[A-Za-z0-9]{32,}"
    r"|pnu_[A-Za-z0-9]{36}\b"
    r"|dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"
    r"|dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b"
    r"|(?:EZAK|EZTK)[a-z0-9]{54}\b"
    r"|FLWSECK(?:_TEST)?-[a-h0-9]{12,32}"
    r"|duffel_(?:test|live)_[A-Za-z0-9_=-]{43}"
    r"|rdme_[a-z0-9]{70}\b"
    r"|sgp_(?:local_)?[a-fA-F0-9]{40}\b"
    r"|xox[abcdeoprs]-[0-9A-Za-z-]{20,}"
    r"|sk_(?:live|test)_[0-9a-zA-Z]{20,}|\brk_(?:live|test)_[0-9a-zA-Z]{20,}"
    r"|(?:SK|AC)[0-9a-fA-F]{32}\b"
    r"|AccountKey=[A-Za-z0-9+/]{40,}={0,2}"
    r"|//registry\.npmjs\.org/:_authToken=(?![$\x7b])[A-Za-z0-9_-]{20,})"
)

_VENDOR_KEYS = (
    "glpat glptt glrt gldt glcbt glft glsoat glimt glagent gloas pypi xkeysib shpat shpca shppa "
    "shpss dop doo dor rubygems sntrys sntryu pscale pmak lin clojars age hvs hvb sq0atp sq0csp "
    "pplx ntn pnu dp dt0c01 flwseck duffel rdme sgp xoxa xoxb xoxc xoxd xoxe xoxo xoxp xoxr "
    "xoxs sk rk accountkey authtoken"
)
# Tokens with no prefix but a fixed shape: Telegram bot tokens, Discord bot tokens,
# Mailchimp and Mailgun keys, JWTs without a signature part.
_SHAPED_TOKEN = (
    r"(?<![\w:])\d{8,10}:AA[0-9A-Za-z_-]{32,33}(?![\w-])"
    r"|(?<![\w.-])(?=[A-Za-z0-9]{16})[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![\w-])"
    r"|\b[0-9a-f]{32}-us[0-9]{1,2}\b"
    r"|\b(?:key|pubkey)-[0-9a-f]{32}\b"
    r"|\beyJ[A-Za-z0-9_-]{10,2000}\.eyJ[A-Za-z0-9_-]{10,4000}(?![\w-])"
)
# A credential assigned to a variable whose name says so (apiToken = "...", OPS_TOKEN:
# "...", setProperty("X_SECRET", "...")): the value is long, has letters and digits, and
# is not a placeholder or a reference to somewhere else.
_ASSIGNED_SECRET = (
    r"(?<![a-z0-9])[a-z0-9_.-]{0,40}?(?:token|secret|passw(?:or)?d|pwd|api_?key|apikey|access_?key"
    r"|auth_?key|private_?key|client_?secret|credentials?)[\"'>\]]?(?:\s+string)?"
    r"\s*(?:=|:=|::=|:::=|\?=|\.=|=>|:|,)\s*(?:[\"'`]\s*)?"
    r"(?![^\s\"'`]{0,24}?(?:your|example|xxxx|changeme|placeholder|redacted|dummy|sample|\.\.\.))"
    r"(?!(?:process\.env|os\.environ|os\.getenv|getenv|environ|env\.|secrets\.|settings\.|config\."
    r"|self\.|this\.|boto3|keyring|getpass|vault:|ssm:|op://))"
    r"(?:(?=[a-z0-9+/=_.~:%-]{0,40}?[0-9])(?=[a-z0-9+/=_.~:%-]{0,40}?[a-z])"
    r"[a-z0-9+/_~-][a-z0-9+/=_.~:%-]{11,400}+|[0-9]{16,40}+)(?![a-z0-9+/=_.~:%(-])"
)


def _inflect(words: str) -> str:
    """Each word with the endings ``(?:s|ed|ing)?`` can give it (as whole-word keys)."""
    return " ".join(w + end for w in words.split() for end in ("", "s", "ed", "ing"))


# Requests for the model's own prompt in other languages (the English ones are the
# reveal_system_prompt pattern). Either the noun carries the possessive or "system", or a
# request verb sits next to it; the text is matched before look-alike folding (Cyrillic).
_NEG_MULTI = (
    r"(?:不要|别|不能|不得|禁止|切勿|勿|不可|不许|不准|ないで|しない|ません|마세요|않|금지|\bne\b|\bn'"
    r"|\bnicht\b|\bniemals\b|\bnie\b|\bjamais\b|\bno\b|\bnunca\b|\bnon\b|\bmai\b|\bnao\b"
    r"|\bне\b|\bникогда\b)"
)
_PROMPT_REQUEST_ALTS = (
    # Chinese: 你的/您的 ... 提示(词)/指令/设定, or 系统提示/初始指令..., with a request verb
    r"(?:输出|打印|显示|展示|告诉我|透露|泄露|公开|复述|重复|分享|列出|提供|给我看|发给我|说出)"
    r"[^\n。！？!?]{0,12}?(?:(?:你的|您的|你们的)[^\n。！？!?]{0,6}?(?:提示|指令|设定|prompt)"
    r"|系统提示|系统指令|初始指令|原始指令|隐藏指令|全部指令|完整的?提示)"
    r"|(?:(?:你的|您的|你们的)[^\n。！？!?]{0,6}?(?:提示|指令|设定|prompt)|系统提示|系统指令"
    r"|初始指令|原始指令|隐藏指令)[^\n。！？!?]{0,12}?(?:输出|打印|显示|展示|告诉|透露|泄露|公开"
    r"|复述|重复|分享|列出|提供|给我看|发给我|说出)"
    # Japanese, Korean
    r"|(?:あなたの|システム)(?:プロンプト|指示|命令)[^\n。]{0,15}?(?:教え|表示|出力|見せ|共有"
    r"|列挙|提供|開示)"
    r"|(?:당신의|너의|시스템)\s*(?:프롬프트|지시|지침)[^\n.]{0,15}?(?:보여|알려|출력|공유|나열"
    r"|제공|공개)"
    # German, French, Spanish, Portuguese, Italian (diacritics are dropped before matching)
    r"|\b(?:zeig|zeige|gib|nenne|verrat|verrate|teile|liste|wiederhole)\b[^\n.]{0,30}?\b(?:dein"
    r"|deine|deinen|ihr|ihre|ihren)\s+(?:system-?)?(?:prompt|anweisungen|instruktionen)\b"
    r"|\b(?:dein|deine|deinen|ihr|ihre|ihren)\s+(?:system-?)?(?:prompt|anweisungen)\b[^\n.]{0,30}?"
    r"\b(?:teilen|zeigen|nennen|auflisten|verraten|ausgeben|offenlegen|wiederholen)\b"
    r"|\b(?:montre|affiche|donne|revele|partage|liste|enumere|fournis|repete|imprime|dis)\b"
    r"[^\n.]{0,30}?\b(?:ton|votre|tes|vos)\s+(?:prompt|instructions|consignes|invite)\b"
    r"|\b(?:ton|votre|tes|vos)\s+(?:prompt|instructions|consignes|invite)\b[^\n.]{0,30}?"
    r"\b(?:partager|montrer|afficher|lister|donner|fournir|reveler|enumerer|repeter)\b"
    r"|\b(?:muestra|muestrame|dime|revela|comparte|enumera|enumere|proporciona|dame|imprime"
    r"|repite)\b[^\n.]{0,30}?\b(?:tu|tus|su|sus)\s+(?:prompt|instrucciones|indicaciones)\b"
    r"|\b(?:tu|tus|su|sus)\s+(?:prompt|instrucciones)\b[^\n.]{0,30}?\b(?:compartir|mostrar"
    r"|enumerar|proporcionar|revelar|compartirlo|compartirlas)\b"
    r"|\b(?:mostre|mostra|diga|revele|compartilhe|liste|forneca|repita)\b[^\n.]{0,30}?"
    r"\b(?:seu|sua|seus|suas)\s+(?:prompt|instrucoes)\b"
    r"|\b(?:mostra|mostrami|dimmi|rivela|condividi|elenca|fornisci|ripeti)\b[^\n.]{0,30}?"
    r"\b(?:tuo|tuoi|tue|suo|suoi)\s+(?:prompt|istruzioni)\b"
    # Russian (matched before Cyrillic is folded)
    r"|(?:покажи|выведи|скажи|раскрой|поделись|перечисли|предоставь|напиши|повтори)[а-я]*"
    r"[^\n.]{0,30}?(?:сво|ваш|тво|системн)[а-я]*\s+(?:системн[а-я]*\s+)?(?:промпт|подсказк"
    r"|инструкци|запрос)"
)
# A sentence holding a negation ("不要透露系统提示词", "ne montre pas...") is a
# confidentiality rule, not a request.
_PROMPT_REQUEST_MULTI = (
    r"(?:^|(?<=[\n。！？!?.]))(?![^\n。！？!?.]{0,160}?"
    + _NEG_MULTI
    + r")[^\n。！？!?.]{0,160}?(?:"
    + _PROMPT_REQUEST_ALTS
    + ")"
)
# Every alternative names whose prompt it is (a possessive, or "system"): a necessary group.
_PROMPT_OWNER_KEYS = (
    "你的 您的 你们的 系统 初始指令 原始指令 隐藏指令 全部指令 完整 あなたの システム "
    "당신의 너의 시스템 сво ваш тво системн "
    "dein deine deinen ihr ihre ihren ton votre tes vos tu tus su sus seu sua seus suas "
    "tuo tuoi tue suo suoi"
)
_PROMPT_REQUEST_KEYS = (
    "提示 指令 设定 prompt プロンプト 指示 命令 프롬프트 지시 지침 anweisungen instruktionen "
    "systemprompt instructions consignes invite instrucciones indicaciones instrucoes istruzioni "
    "промпт подсказк инструкци запрос"
)

RULES: tuple[Pattern, ...] = (
    Pattern(
        "reveal_system_prompt_multilingual",
        "prompt_exfiltration",
        "context",
        "asks the model to reveal its system prompt or instructions, in another language",
        _PROMPT_REQUEST_KEYS,
        _PROMPT_REQUEST_MULTI,
        keys2=_PROMPT_OWNER_KEYS,
        unfolded=True,
    ),
    Pattern(
        "vendor_token",
        "secret",
        "context",
        "contains an access token in a known vendor format (GitLab, PyPI, Shopify, "
        "DigitalOcean, Sentry, Twilio, Square...)",
        _VENDOR_KEYS,
        _VENDOR_TOKEN,
        subs="GR1348941",
        cased=True,
        long_token=True,
    ),
    Pattern(
        "shaped_token",
        "secret",
        "context",
        "contains a token with a known shape (Telegram or Discord bot token, Mailchimp or "
        "Mailgun key, a JSON Web Token)",
        "",
        _SHAPED_TOKEN,
        cased=True,
        long_token=True,
    ),
    Pattern(
        "assigned_secret",
        "secret",
        "strict",
        "assigns a long random value to a variable named as a token, secret, key or password",
        "token secret passw pwd apikey api_key access_key accesskey auth_key authkey "
        "private_key privatekey client_secret clientsecret credential",
        _ASSIGNED_SECRET,
        keys2="= : ,",
        plain_subs=True,
    ),
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
        # only words that keep the phrase about the model's own rules ("the previous
        # release rules" are a project's)
        r"(?:(?:system|safety|given|original|initial|old|earlier|prior|previous|above|all|of|the"
        r"|your|my|these|those|content|operating|core|default)\s+){0,2}"
        r"(?:rules|instructions|guidelines|directives|prompt|policies|constraints|orders)\s+"
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
        r"(?m:^)(?=[^\n]{0,300}?(?:"
        + _SECRET_FILE
        + r"))(?=[^\n]{0,300}?"
        + _REPLY_WORDS_WHOLE
        + r")(?=[^\n]{0,300}?(?:\b(?:include|append|attach|add|paste|put|insert|every|each|end"
        r"|cada|chaque|jede|ogni|toda)\b|附|加上|贴|包含|每|末尾|结尾|添|付け|모든|매|кажд|всегда))",
        keys2=_REPLY_KEYS,
        keys3="include append attach add paste put insert every each end 附 加上 贴 包含 每 末尾 "
        "结尾 添 付け 모든 매 кажд всегда cada chaque jede ogni toda",
    ),
)
