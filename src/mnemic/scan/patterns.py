"""The threat pattern table: pure data, no regex compilation at import.

Every pattern anchors on attack *behaviour* (an instruction to drop prior instructions, a
command that ships secrets out, a key in a known format...) rather than on bossy English:
"you must", "always answer in French" or "never push to main" are fine.

Rules for adding a pattern:

* the regex is written in lower case and runs on the lower-cased, normalised text (a
  ``cased`` pattern runs on the normalised text with its case kept);
* ``keys`` are the prefilter that keeps clean text fast: the regex only runs when one of
  them occurs (and, if given, one of ``keys2``, one of ``keys3`` and one of ``keys4`` too:
  each group is a necessary condition). A key made of ``[a-z0-9]`` is a *word*: it must
  occur as a whole token once the text is lower-cased and every other character is
  treated as a separator (``authorized_keys`` gives ``authorized`` and ``keys``); a key ending in
  ``*`` (the star is dropped) or containing any other character is a substring of the
  lower-cased text. ``subs`` are extra case-sensitive substrings (secret-format prefixes
  such as ``AKIA``, ``<!--``) that can announce the pattern on their own; they are checked
  on every text, so keep them few and distinctive. Primary ``keys`` should
  be words (substring primaries are only checked on non-ASCII text, for scripts without
  spaces). ``long_token`` patterns (credential formats with no fixed prefix) are
  candidates whenever the text holds a run of at least 16 letters and digits, on top of
  their keys; ``plain_subs`` patterns have their substring primary keys checked on ASCII
  text too (for names such as ``adobeToken`` whose key is a word's suffix; keep these
  few). Keys must be *necessary*: a match the keys do not announce is a silent miss.
  ``tests/test_scan.py`` checks that prefiltered and unfiltered scans agree on every test
  string and on the benchmark corpora;
* quantifiers are bounded (``{0,N}``) and never nested unbounded, so a 64 KiB adversarial
  string still scans quickly;
* an ``inner`` regex is searched inside each (non-overlapping) match of ``regex``: a
  linear two-step match for spans with many possible starts (HTML comments);
* ``unfolded`` patterns run on the text before look-alike letters are folded to Latin
  (for patterns written in Greek or Cyrillic);
* ``negatable`` patterns start with the ``(?P<neg>...)`` group: a hit preceded by
  "not/never/don't..." (``Never reveal your system prompt``) does not count;
* ``scope`` is ``"context"`` for unambiguous patterns (applied to project context files
  and to memory) or ``"strict"`` for patterns only applied to memory entries and skills.
"""

from __future__ import annotations

from ._pattern import (
    _NEG,
    _REMOTE_EXEC,
    _REMOTE_EXEC_KEYS,
    _SECRET_FILE,
    _SECRET_FILE_SUBS,
    CATEGORIES,
    Pattern,
    _gap,
)
from .rules import RULES

__all__ = ["PATTERNS", "Pattern"]

# Agent instruction / configuration files that are loaded into future sessions.
_AGENT_FILE = (
    r"(?:agents|claude|gemini|soul|memory|user|copilot-instructions)\.mdc?\b|\.cursorrules\b"
    r"|\.clinerules\b|\.windsurfrules\b|\.cursor/rules\b|\.claude/settings(?:\.local)?\.json\b"
    r"|\.mcp\.json\b|\.codex/config\.toml\b|\.mnemic/"
)
_AGENT_FILE_KEYS = (
    "agents claude gemini cursorrules clinerules windsurfrules copilot cursor soul mcp codex "
    "memory user mnemic"
)

_PLANT = r"\b(?:append|prepend|insert|inject|add|write|put|embed|plant|hide|sneak)[a-z]{0,3}\b"

_NET_TOOL = (
    r"(?:curl|wget|ncat|netcat|nc|socat|telnet|invoke-webrequest|invoke-restmethod|iwr|irm"
    r"|httpie|xh)"
)
_NET_TOOL_KEYS = "curl wget ncat netcat nc socat telnet invoke iwr irm httpie xh"

_BASE: tuple[Pattern, ...] = (
    # ------------------------------------------------------------------ instruction_override
    Pattern(
        "ignore_instructions",
        "instruction_override",
        "context",
        "tells the model to ignore, forget or override its previous instructions",
        "ignore disregard forget override overrule bypass abandon discard neglect aside throw "
        "regardless",
        _NEG + r"\b(?:ignore|disregard|forget|override|overrule|bypass|abandon|discard|neglect"
        r"|set\s+aside|put\s+aside|throw\s+(?:away|out))\s+"
        + _gap(3)
        + r"(?:(?:previous|prior|above|earlier|preceding|foregoing|aforementioned|original"
        r"|initial|system|developer|safety|your)\s+"
        + _gap(3)
        + r"(?:instructions?|directives?|prompts?|guidelines|guidance|programming|orders|rules"
        r"|constraints|directions|restrictions)\b"
        r"|(?:all|any|every|these|those)\s+"
        + _gap(2)
        + r"(?:instructions|directives|guidelines|programming)\b"
        r"|(?:[a-z]+\s+){0,3}?(?:rules|restrictions|guidelines|constraints|limits|filters)\s+"
        r"(?:that|which)\s+(?:tell|govern|restrict|limit|bind|stop|prevent|keep|control)\s+you\b"
        r"|(?:everything|anything|all)\s+(?:that\s+)?you(?:['’]ve|\s+have|\s+were|\s+had)?\s+"
        r"(?:been\s+)?(?:told|taught|learned|learnt|instructed|given)(?:\s+(?:before|so\s+far"
        r"|previously|until\s+now|earlier))?\s*[.,;:!])"
        r"|\bregardless\s+of\s+(?:any\s+|all\s+|the\s+|your\s+)?(?:previous|prior|earlier|above"
        r"|original|initial|your)\s+(?:instructions|directives|system\s+prompt)\b",
        keys2="instruction instructions directive directives prompt prompts guidelines guidance "
        "programming orders rules constraints directions restrictions limits filters told taught "
        "learned learnt instructed given",
        keys3="previous prior above earlier preceding foregoing aforementioned original initial "
        "system developer safety your all any every these those that which you everything "
        "anything",
        negatable=True,
    ),
    Pattern(
        "ignore_instructions_multilingual",
        "instruction_override",
        "context",
        "tells the model to ignore its previous instructions, in another language",
        "instrucciones instrucoes istruzioni anweisungen consignes befehle instructies "
        "indicaciones orientacoes ignorez ignorer oubliez oublie oublier "
        "指令 指示 命令 说明 說明 プロンプト 지시 명령 지침 οδηγι εντολ инструкц указани",
        r"\b(?:ignor[a-z]{0,6}|olvid[a-z]{0,4}|esquec[a-z]{0,4}|oubli[a-z]{0,4}"
        r"|dimentic[a-z]{0,4}|vergiss|vergessen|negeer|vergeet|descart[a-z]{0,4}"
        r"|desconsider[a-z]{0,4})\s+(?:[^\s.!?;]+\s+){0,4}?"
        r"(?:instrucciones|instrucoes|istruzioni|anweisungen|consignes|befehle"
        r"|instructies|indicaciones|orientacoes)\b"
        r"|\b(?:ignorez|ignorer|oubliez|oublie|oublier)\s+(?:[^\s.!?;]+\s+){0,4}?instructions\b"
        r"|(?:忽略|无视|無視|忘记|忘記|忘掉|不要理会)[^\n。.!?]{0,12}?(?:指令|指示|命令|说明|說明)"
        r"|(?:指示|命令|プロンプト)[^\n。.!?]{0,12}?(?:無視|忘れ)"
        r"|(?:지시|명령|지침)[^\n.!?]{0,12}?(?:무시|잊)"
        r"|(?:αγνοη|αγνοει|ξεχα)[^\s.!?;]{0,8}\s+(?:[^\s.!?;]+\s+){0,4}?(?:οδηγι|εντολ)"
        r"|(?:игнорир|забуд|забыть|не\s+обращай)[^\s.!?;]{0,8}\s+(?:[^\s.!?;]+\s+){0,4}?"
        r"(?:инструкц|указани)",
        unfolded=True,
    ),
    Pattern(
        "ignore_and_do",
        "instruction_override",
        "strict",
        "tells the model to ignore the surrounding content and say or do something else",
        "ignore disregard forget",
        _NEG + r"\b(?:ignore|disregard|forget(?:\s+about)?)\s+(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?"
        r"|everything\s+|any\s+)?"
        r"(?:above|before|previous|prior|earlier|instructions?|everything|all|that|this"
        r"|content|function|document|page|question|task|request|email|message|article|paper"
        r"|table)\s*[,.!:;]?\s+(?:above\s+|instead\s+|entirely\s+)?and\s+"
        r"(?:instead\s+|just\s+|only\s+|simply\s+)?"
        r"(?:say|state|print|write|output|respond|reply|answer|tell|claim|declare|return|repeat"
        r"|translate|summarize|send|generate|produce|give\s+me|show\s+me)\b"
        r"|\b(?:forget|disregard|ignore)\s+(?:about\s+)?(?:that|this|it|everything(?:\s+else)?"
        r"|all\s+(?:of\s+)?that)\s*[,.;:!]+\s*(?:and\s+)?(?:now\s+|instead\s+)?(?:can|could|would"
        r"|will|please|just|tell|give|write|provide|say|print|output|list|explain|describe)\b"
        r"|\b(?:ignore|disregard|forget(?:\s+about)?)\s+(?:the|this|that|all|everything|any|your)"
        r"(?:\s+[a-z]+){0,3}?\s*[,.!;]?\s+(?:and\s+)?(?:instead\s+|just\s+|only\s+|now\s+)?"
        r"(?:say|state|print|output|write|respond|reply|answer|claim|declare|repeat)"
        r"(?:\s+(?:that|the\s+following|only|exactly|verbatim))?\s*(?::|[\"'“‘])",
        keys2="and that this it everything all the your any me",
        keys3="say state print write output respond reply answer tell claim declare return repeat "
        "translate summarize send generate produce can could would will please just give provide "
        "list explain describe show",
        negatable=True,
    ),
    Pattern(
        "halt_and_print",
        "instruction_override",
        "strict",
        "interrupts the task and orders a fixed output instead (goal hijacking)",
        "stop halt cease abort drop mind nevermind",
        r"\b(?:stop|halt|cease|abort|drop)\s+(?:everything|all\s+(?:previous\s+|other\s+|current\s+)?"
        r"(?:tasks?|processing|instructions|operations|activities|work))\b[^\n]{0,60}?"
        r"\b(?:just|only|now|instead)\s+(?:print|say|output|repeat|respond|reply|write|type|state"
        r"|return)\b"
        r"|\bnever\s*mind[.!,:;\s]+(?:[a-z]+\s+){0,3}?(?:ignore|disregard|forget"
        r"|just\s+(?:print|say|output))\b",
        keys2="print say output repeat respond reply write type state return ignore disregard "
        "forget",
        keys3="everything all never nevermind",
    ),
    Pattern(
        "answer_override",
        "instruction_override",
        "strict",
        "dictates what the answer, output or conclusion must be (goal hijacking)",
        "output answer result conclusion sum total summary response verdict value",
        r"\b(?:state|say|claim|declare|report|respond|answer|reply|print|output|write|consider"
        r"|treat)\s+(?:that\s+)?the\s+(?:[a-z]+\s+){0,2}?(?:output|answer|result|conclusion|sum"
        r"|total|summary|response|verdict|value)\s+(?:of\s+(?:[^\s.!?;]+\s+){0,4}?)?"
        r"(?:is|was|equals|should\s+be|as|to\s+be)\b\s*(?::|[\"'“‘`]|[0-9])",
        keys2="state say claim declare report respond answer reply print output write consider "
        "treat",
        keys3="is was equals should as be",
        keys4=": \" ' ` “ ‘ 0* 1* 2* 3* 4* 5* 6* 7* 8* 9*",
    ),
    Pattern(
        "dictated_output",
        "instruction_override",
        "strict",
        "introduces text for the model to output verbatim ('... and state: <text>')",
        "state say declare claim print output",
        r"\b(?:and|then|now|just|please|instead|might)\s+(?:state|say|declare|claim|print"
        r"|output)\s*(?:the\s+following\s*)?:\s*\S"
        r"|(?:^|[.!?>]\s*)(?:state|say|declare)\s+the\s+following\s*:",
        keys2="and then now just please instead might following",
        keys3=":",
    ),
    Pattern(
        "instructions_void",
        "instruction_override",
        "strict",
        "declares the model's previous instructions void",
        "null void cancelled canceled revoked overridden longer",
        r"\b(?:previous|prior|above|earlier|preceding|original|initial|system|your)\s+"
        + _gap(2)
        + r"(?:instructions|directives|rules|prompts?|guidelines)\s+"
        + _gap(2)
        + r"(?:are|is|have\s+been|has\s+been|were|was)\s+(?:now\s+|hereby\s+)?"
        r"(?:null|void|cancell?ed|revoked|overridden|no\s+longer\s+(?:valid|in\s+effect|apply"
        r"|applicable|active))\b",
        keys2="instructions directives rules prompt prompts guidelines",
    ),
    Pattern(
        "new_instructions",
        "instruction_override",
        "strict",
        "announces new instructions, a new system prompt or a new identity for the model",
        "prompt instructions directives persona identity programming orders rules directive",
        r"\b(?:your|the\s+following\s+are\s+your|here\s+are\s+your)\s+(?:new|updated|real|true"
        r"|actual)\s+(?:system\s+prompt|instructions|directives|persona|identity|programming"
        r"|orders|rules|prime\s+directive)\b"
        r"|\b(?:new|updated)\s+system\s+(?:prompt|instructions)\s*:",
        keys2="new updated real true actual",
        keys3="your system",
    ),
    Pattern(
        "role_hijack",
        "instruction_override",
        "context",
        "tells the model it is now someone else (role hijack)",
        "now longer yourself",
        r"\byou(?:\s+are|['’]re)\s+(?:now|no\s+longer)\s+(?:a|an|the|my|called|named|known\s+as"
        r"|going\s+to\s+be|dan|bound|restricted|limited|required|free|unrestricted|unfiltered"
        r"|jailbroken)\b"
        r"|\b(?:immerse|put|place|cast)\s+yourself\s+(?:in|into)\s+(?:the\s+)?role\s+of\b",
        keys2="you yourself",
    ),
    Pattern(
        "role_switch",
        "instruction_override",
        "strict",
        "orders the model to act as, pretend to be or become another persona",
        "act pretend behave roleplay role play impersonate simulate take assume adopt become",
        r"\byou(?:\s+(?:will|shall|must|should|are\s+going\s+to|are\s+to|need\s+to|have\s+to)"
        r"|['’]ll)\s+(?:now\s+|always\s+)?(?:(?:act|pretend|behave|roleplay|role-play"
        r"|play\s+the\s+role|impersonate|simulate)\s+(?:as|like|to\s+be|of|an?|the)\b"
        r"|(?:take\s+on|assume|adopt|play)\s+the\s+(?:role|persona|identity|character)\s+of\b)"
        r"|\b(?:from\s+now\s+on|henceforth|starting\s+now|for\s+the\s+rest\s+of\s+(?:this|the|our)"
        r"\s+(?:conversation|chat|session))[,:\s]+(?:you\s+(?:are|will|shall|must|should)\s+"
        + _gap(3)
        + r")?(?:act|behave|pretend|roleplay|role-play|become|impersonate|simulate)\s+"
        r"(?:as|like|to\s+be|an?|the)\b"
        r"|\bpretend\s+(?:that\s+)?you\s+(?:are|were|have|can)\b"
        r"|\bact\s+as\s+(?:if|though)\s+you\s+(?:are|were|have|had|can)\b",
        keys2="you now henceforth rest",
    ),
    Pattern(
        "jailbreak_persona",
        "instruction_override",
        "context",
        "uses jailbreak persona vocabulary (DAN / 'do anything now', jailbreak modes)",
        "anything mode ai openai anthropic programming model models",
        r"\bdo\s+anything\s+now\b"
        r"|\b(?:dan|dude|stan|anti-?dan|jailbreak|jailbroken|uncensored|unfiltered|evil|chaos)"
        r"\s+mode\b"
        r"|\bdeveloper\s+mode\s+(?:output|response)s?\b"
        r"|\b(?:simulate|enable|activate|enter)\s+(?:[a-z]+\s+){0,2}?developer\s+mode\b"
        r"(?=[^\n]{0,200}?\b(?:polic|censor|filter|restriction|openai|anthropic|chatgpt|ai\b))"
        r"|\b(?:broken|break|breaks|broke|breaking)\s+free\s+(?:of|from)\s+(?:the\s+)?"
        r"(?:[a-z]+\s+){0,2}?(?:confines|limitations|restrictions|rules|shackles|constraints"
        r"|chains)\s+of\s+(?:an?\s+|the\s+|their\s+|your\s+)?(?:ai|openai|anthropic|programming"
        r"|language\s+models?)\b",
        keys2="now dan dude stan antidan anti jailbreak jailbroken uncensored unfiltered evil "
        "chaos output response responses simulate enable activate enter free",
    ),
    Pattern(
        "policy_bypass",
        "instruction_override",
        "context",
        "asks the model to bypass its content, safety or usage policy",
        "content usage safety openai openais anthropic anthropics ethical moral ethics",
        _NEG + r"\b(?:bypass|circumvent|evade|ignore|disregard|violate|break|override|disable"
        r"|turn\s+off|remove|lift|escape|get\s+around|work\s+around|jailbreak)\s+"
        + _gap(3)
        + r"(?:content|usage|safety|openai['’]?s?|anthropic['’]?s?|ethical|moral|ethics)\s+"
        + _gap(1)
        + r"(?:polic(?:y|ies)|guidelines|filters?|filtering|restrictions|rules|constraints"
        r"|guardrails|principles|standards|considerations|safeguards|measures)\b",
        keys2="policy policies guidelines filter filters filtering restrictions rules constraints "
        "guardrails principles standards considerations safeguards measures",
        keys3="bypass circumvent evade ignore disregard violate break override disable turn remove "
        "lift escape around jailbreak",
        negatable=True,
    ),
    Pattern(
        "unbound_by_policy",
        "instruction_override",
        "context",
        "claims the model need not follow its rules or may answer without restrictions",
        "adhere abide comply conform answer answers answering respond responds responding reply "
        "replys replying",
        r"\b(?:don['’]t|do\s+not|doesn['’]t|does\s+not|need\s+not|needn['’]t|never)\s+"
        r"(?:need\s+to\s+|have\s+to\s+)?(?:adhere|abide|comply|conform)\s+(?:to|by|with)\s+"
        r"(?:the\s+|any\s+)?(?:(?:[a-z]+\s+){0,2}?(?:content|usage|safety|openai|anthropic"
        r"|ethical)\s+(?:polic(?:y|ies)|guidelines|rules|standards)\b"
        r"|(?:rules|polic(?:y|ies)|guidelines|restrictions)\s+(?:set|imposed|given|made)"
        r"\s+(?:for|on|by)\b)"
        r"|\b(?:answer|respond|reply)(?:s|ing)?\s+"
        + _gap(3)
        + r"(?:without|with\s+no|free\s+(?:of|from))\s+(?:any\s+)?(?:[a-z]+\s+)?"
        r"(?:restrictions|filters|filtering|censorship|limitations|guardrails"
        r"|ethical\s+(?:guidelines|constraints|considerations)|moral\s+(?:guidelines|constraints)"
        r"|content\s+polic(?:y|ies))\b",
        keys2="policy policies guidelines rules standards restrictions filters filtering "
        "censorship limitations guardrails ethical moral",
    ),
    Pattern(
        "unrestricted_persona",
        "instruction_override",
        "strict",
        "tells the model it has no restrictions, filters or rules",
        "bound restricted limited constrained governed filters filtering censorship restrictions "
        "limitations guardrails morals ethics ethical policy policies",
        r"\b(?:you|dan|dude|stan|aim|the\s+ai|an\s+ai|the\s+assistant|the\s+model|chatbot|bot)\s+"
        r"(?:are|is|will\s+be|shall\s+be)\s+(?:now\s+)?(?:not|no\s+longer|never)\s+(?:[a-z]+\s+)?"
        r"(?:bound|restricted|limited|constrained|governed)\s+by\b"
        r"|\b(?:you|dan|dude|stan|aim|the\s+ai|an\s+ai|the\s+assistant|the\s+model|chatbot|bot)\s+"
        r"(?:now\s+)?(?:has|have|had)\s+no\s+(?:[a-z]+\s+)?(?:filters|filtering|censorship"
        r"|restrictions|limitations|guardrails|morals|ethics|ethical\s+guidelines"
        r"|content\s+polic(?:y|ies))\b",
        keys2="you dan dude stan aim ai assistant model chatbot bot",
    ),
    Pattern(
        "fake_authority",
        "instruction_override",
        "strict",
        "impersonates the model's developer, operator or system to gain authority",
        "developer developers creator creators administrator admin owner operator maintainer "
        "programmer master system supervisor trainer engineer engineers ai openai anthropic "
        "sysadmin questions commands orders requests instructions words whatever everything what",
        r"\b(?:i\s+am|i['’]m|im|this\s+is|we\s+are|we['’]re)\s+(?:your|ur)\s+(?:[a-z]+\s+)?"
        r"(?:developer|developers|creator|creators|administrator|admin|owner|operator|maintainer"
        r"|programmer|master|system|supervisor|trainer|engineers?)\b"
        r"|\b(?:i\s+am|i['’]m)\s+the\s+(?:[a-z]+\s+)?(?:developer|creator|administrator|admin|owner"
        r"|operator|maintainer|programmer)\s+of\s+(?:you\b|your\b|this\s+(?:ai|assistant|model"
        r"|chatbot|bot|system)\b)"
        r"|\bas\s+an?\s+ai\s+(?:developed|created|built|made|trained)\s+by\s+[a-z]+,?\s+i\b"
        r"|\b(?:message|instructions?|notice|directive|update)\s+from\s+(?:your\s+|the\s+)?"
        r"(?:system\s+)?(?:system|admin|administrator|developers?|openai|anthropic|sysadmin)\s*[:\-]"
        r"|\byou\s+(?:have\s+to|need\s+to|must|are\s+required\s+to|are\s+obliged\s+to)\s+"
        r"(?:answer|obey|comply\s+with|follow|fulfil+|execute)\s+(?:all|every|each|any)\s+"
        r"(?:of\s+)?(?:my|these|the\s+following)\s+(?:questions|commands|orders|requests"
        r"|instructions)\b"
        r"|\byou\s+(?:have\s+to|need\s+to|must|will)\s+(?:listen\s+to|obey|follow)\s+"
        r"(?:my|these|the\s+following)\s+(?:instructions|commands|orders|words)\b"
        r"|\byou\s+(?:must|will|have\s+to|need\s+to|shall)\s+(?:do|obey)\s+(?:exactly\s+)?"
        r"(?:whatever|everything|what)\s+i\s+(?:say|tell\s+you|command)\b",
        keys2="your ur of from you developed created built made trained do obey",
        keys3="i im this we as message instructions instruction notice directive update you "
        "whatever everything what",
    ),
    Pattern(
        "fake_system_mode",
        "instruction_override",
        "strict",
        "fakes a system / admin / override mode marker",
        "mode override systemmode adminmode administratormode rootmode godmode overridemode",
        r"[<\[({]\s*/?\s*(?:system|admin|administrator|root|god|override)[\s_-]*mode\b"
        r"|\b(?:system|admin|override|god|root)\s+mode\s+(?:is\s+)?(?:now\s+)?"
        r"(?:activated|enabled|engaged|on|initiated)\b"
        r"|\b(?:activate|enable|enter|initiate)\s+(?:system|admin|override|god|root)\s+mode\b"
        r"|\b(?:i\s+am|i['’]m|we\s+are|we['’]re|now)\s+(?:now\s+)?(?:entering|activating"
        r"|initiating|engaging|enabling|switching\s+(?:in)?to)\s+(?:an?\s+|the\s+)?['\"‘“]?"
        r"(?:[a-z]+\s+){0,3}?(?:override|admin|god|root|developer|debug|maintenance|security"
        r"|system|unrestricted|verification|diagnostic)\s+mode\b"
        r"|\b(?:developer|system|admin|security|root|god)\s+(?:[a-z]+\s+){0,3}?override\s*:",
        keys2="system admin administrator root god override developer debug maintenance security "
        "unrestricted verification diagnostic systemmode adminmode administratormode rootmode "
        "godmode overridemode",
        keys3="< [ ( { activated enabled engaged on initiated activate enable enter initiate "
        "entering activating initiating engaging enabling switching :",
    ),
    Pattern(
        "chat_template_token",
        "instruction_override",
        "strict",
        "contains chat-template control tokens that fake a system or assistant turn",
        "im system assistant endoftext eot header begin inst sys",
        r"<\|(?:im_start|im_end|system|assistant|endoftext|eot_id|start_header_id"
        r"|end_header_id|begin_of_text)\|>|\[/?inst\]|<</?sys>>|</?(?:system|system_prompt|sys)>",
        keys2="< [",
    ),
    Pattern(
        "deception_hide",
        "instruction_override",
        "strict",
        "tells the model to hide what it does from the user or to act covertly",
        "tell inform notify alert warn let hide conceal keep secretly silently covertly quietly "
        "discreetly",
        r"\b(?:do\s+not|don['’]t|never|must\s+not|should\s+not)\s+(?:[a-z]+\s+){0,2}?"
        r"(?:tell|inform|notify|alert|warn|let)\s+(?:the\s+|your\s+)?(?:user|human|operator|owner)s?"
        r"\s+(?:know\s+)?(?:about\s+(?:this|it|these|that)|what\s+you|that\s+you|this\s+instruction"
        r"|these\s+instructions)\b"
        r"|\b(?:hide|conceal|keep)\s+(?:this|it|these|that|the\s+[a-z]+)\s+(?:[a-z]+\s+){0,2}?"
        r"(?:secret\s+)?from\s+the\s+(?:user|human|operator|owner)\b"
        r"|\b(?:secretly|silently|covertly|quietly|discreetly)\s+(?:[a-z]+\s+)?(?:send|upload"
        r"|exfiltrate|forward|post|transmit|email|leak|collect|append|beacon|report)\b",
        keys2="user users human humans operator operators owner owners send upload exfiltrate "
        "forward post transmit email leak collect append beacon report",
        keys3="about what that this these from secretly silently covertly quietly discreetly",
    ),
    Pattern(
        "html_comment_directive",
        "instruction_override",
        "strict",
        "hides an instruction to the model inside an HTML comment",
        "",
        r"<!--[^>]{0,400}",
        subs="<!--",
        inner=r"\b(?:ai|assistant|the\s+model|llm|agent|chatgpt|claude|gpt|copilot)\b\s*[:,]"
        r"|\byou\s+(?:must|should|will|are)\b|(?<![\w-])(?:ignore|disregard|override)\b"
        r"|\bsystem\s+prompt\b|\binstructions?\b"
        r"|\b(?:say|state|print|output|respond|reply)\s*(?:the\s+following\s*)?:",
    ),
    Pattern(
        "hidden_html",
        "instruction_override",
        "strict",
        "hides text from the human reader with CSS (display:none, zero font size...)",
        "display visibility font opacity",
        r"<[a-z][^>]{0,200}?style\s*=\s*[\"'][^\"'>]{0,200}?(?:display\s*:\s*none"
        r"|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em|rem|%)?\s*[;\"']"
        r"|opacity\s*:\s*0(?:\.0+)?\s*[;\"'])",
        keys2="style*",
    ),
    # ------------------------------------------------------------------- prompt_exfiltration
    Pattern(
        "reveal_system_prompt",
        "prompt_exfiltration",
        "context",
        "asks the model to reveal its system prompt or hidden instructions",
        "prompt preprompt message instructions rules directives",
        _NEG + r"\b(?:reveal|show|print|output|display|dump|leak|disclose|expose|repeat|recite|echo"
        r"|share|paste|spell\s+out|write\s+out|tell\s+me|give\s+me|send\s+me"
        r"|what\s+(?:is|are|were|was)|what['’]s)\s+"
        + _gap(3)
        + r"your\s+"
        + _gap(2)
        + r"(?:system\s+(?:prompt|message|instructions)|(?:initial|original|hidden|secret"
        r"|internal|full|entire|complete|exact|first|previous|prior)\s+(?:prompt|instructions"
        r"|rules|directives)|pre-?prompt|developer\s+(?:message|prompt|instructions)"
        r"|instructions|prompt|rules)\b",
        keys2="your",
        keys3="reveal show print output display dump leak disclose expose repeat recite echo share "
        "paste spell write tell give send what",
        negatable=True,
    ),
    Pattern(
        "repeat_above",
        "prompt_exfiltration",
        "context",
        "asks the model to repeat the text above it verbatim (prompt leaking)",
        "above before preceding prior far",
        r"\b(?:repeat|print|output|echo|recite|reproduce|dump|write\s+out|spell\s+out|paste)\s+"
        r"(?:back\s+)?(?:everything|all\s+(?:of\s+)?(?:the\s+)?(?:text|words|content|messages"
        r"|instructions|lines|tokens)|(?:the|your)\s+(?:full|entire|whole|complete|exact)\s+"
        r"(?:text|prompt|content|instructions|conversation))\s+"
        + _gap(3)
        + r"(?:above|before|preceding|prior|so\s+far)\b"
        r"|\b(?:repeat|print|output|echo|recite|reproduce|dump|write\s+out|spell\s+out|paste)\s+"
        r"(?:back\s+)?(?:the|your)\s+(?:text|words|content|messages|instructions|lines|tokens"
        r"|prompt)\s+(?:above|before|preceding)\s+"
        + _gap(3)
        + r"(?:verbatim|word\s+for\s+word|exactly|in\s+full|starting\s+with|in\s+a\s+code\s*block"
        r"|including)\b",
        keys2="repeat print output echo recite reproduce dump write spell paste",
        keys3="everything all text words content messages instructions lines tokens prompt "
        "conversation",
    ),
    Pattern(
        "reveal_secret_request",
        "prompt_exfiltration",
        "strict",
        "asks the model to disclose a password, key or other secret it was given",
        "password passcode passphrase secret access pin api private credentials confidential",
        _NEG
        + r"\b(?:(?:what\s+(?:is|are|was|were|would|could|might|will)|what['’]s|tell\s+me|give\s+me"
        r"|share|reveal|provide|confirm|disclose|spell|print|output|write|say|send\s+me|show\s+me"
        r"|hint\s+at|encode|translate|leak|type\s+out)\s+"
        + _gap(5)
        + r"(?:your|the|our|this|that)|ask(?:ed|ing)?\s+(?:you\s+)?for\s+your)\s+"
        r"(?:[a-z]+\s+){0,2}?"
        r"(?:password|passcode|passphrase|secret\s+(?:key|word|code|phrase)|access\s+code"
        r"|pin\s+code|api\s+key|private\s+key|credentials|confidential\s+(?:string|code|key|data))"
        r"\b(?!\s*(?:policy|policies|manager|reset|field|rules|requirements|length|strength|hash"
        r"|hashing|prompt|form|page|rotation|expiry|complexity))",
        keys2="what tell give share reveal provide confirm disclose spell print output write say "
        "send show hint encode translate leak type ask asked asking",
        negatable=True,
    ),
    Pattern(
        "context_exfil",
        "prompt_exfiltration",
        "strict",
        "asks the model to dump or send the whole conversation, context or memory",
        "conversation conversations chat chats context messages transcript transcripts history "
        "memory memories session sessions",
        _NEG
        + r"\b(?:print|output|dump|repeat|reveal|leak|send|forward|post|upload|exfiltrate|paste"
        r"|email|transmit)\s+"
        + _gap(3)
        + r"(?:entire|full|whole|complete|all|every|raw|previous|prior|past)\s+"
        + _gap(2)
        + r"(?:conversations?|chats?|chat\s+history|context(?:\s+window)?|messages|transcripts?"
        r"|history|memory|memories|sessions?)\b",
        keys2="print output dump repeat reveal leak send forward post upload exfiltrate paste "
        "email transmit",
        keys3="entire full whole complete all every raw previous prior past",
        negatable=True,
    ),
    Pattern(
        "send_data_out",
        "prompt_exfiltration",
        "strict",
        "tells the model to send user data or the conversation to an outside address",
        "send post upload transmit forward exfiltrate leak submit email mail beacon ship",
        _NEG
        + r"\b(?:send|post|upload|transmit|forward|exfiltrate|leak|submit|email|mail|beacon|ship)"
        r"\s+"
        + _gap(6)
        + r"(?:(?:user|users|customer|customers|employee|employees|personal|private|sensitive"
        r"|confidential|patient|client)(?:['’]s|s['’]|['’])?\s+(?:[a-z]+\s+)?(?:data|information"
        r"|info|details|records|files|documents|emails|messages|credentials|addresses|history)"
        r"|(?:the\s+)?(?:conversation|chat\s+history|context|memory|memories|transcript"
        r"|system\s+prompt))\b[^\n]{0,80}?\b(?:to|at|into)\s+(?:https?://|ftp://|www\."
        r"|[\w.+-]+@[\w-]+\.[\w.]+|\d{1,3}(?:\.\d{1,3}){3})",
        keys2="user users customer customers employee employees personal private sensitive "
        "confidential patient client conversation chat context memory memories transcript system",
        keys3="http* ftp* www* @ 0. 1. 2. 3. 4. 5. 6. 7. 8. 9.",
        negatable=True,
    ),
    # --------------------------------------------------------------- credential_exfiltration
    Pattern(
        "network_secret_var",
        "credential_exfiltration",
        "strict",
        "a network command (curl, wget, nc...) that carries a secret environment variable",
        _NET_TOOL_KEYS + " requests fetch",
        r"(?:\b"
        + _NET_TOOL
        + r"\b|\brequests\.(?:get|post|put)\b|\bfetch\()[^\n]{0,300}?\$(?:\{|env:)?[a-z0-9_]{0,60}?"
        r"(?:key|token|secret|password|passwd|pwd|pass|credentials?|creds|apikey|pat|cookie"
        r"|session)\b",
        keys2="$",
        keys3="key* token* secret* pass* pwd* cred* pat* auth* cookie* session*",
    ),
    Pattern(
        "secret_pipe_to_network",
        "credential_exfiltration",
        "context",
        "pipes the environment or a credential file into a network command",
        "curl wget nc ncat netcat socat telnet ssh openssl",
        r"(?:\b(?:env|printenv)\b|/proc/[^\s/]{1,20}/environ|\b(?:cat|type|get-content|gc|base64"
        r"|xxd|tar|zip|gzip)\s+[^\n|;&]{0,100}?(?:"
        + _SECRET_FILE
        + r"|credentials|\.aws\b|\.ssh\b|/etc/passwd|\.bash_history|\.zsh_history))"
        r"[^\n|]{0,100}?\|\s*(?:sudo\s+)?(?:base64\s*(?:-w\s*0\s*)?\|\s*)?"
        r"(?:curl|wget|nc|ncat|netcat|socat|telnet|ssh|openssl\s+s_client)\b",
        keys2="env printenv environ " + _SECRET_FILE_SUBS + " .aws .ssh /etc/passwd _history",
        keys3="|",
    ),
    Pattern(
        "secret_file_upload",
        "credential_exfiltration",
        "context",
        "uploads a credential file with curl/wget (-d @.env, -F file=@~/.ssh/id_rsa...)",
        "curl wget http xh",
        r"\b(?:curl|wget|http|xh)\b[^\n]{0,200}?(?:\s-d|\s-f|\s-t|--data(?:-binary|-raw"
        r"|-urlencode)?|--form|--upload-file|--post-file|--body-file)[=\s]*[\"']?[^\s\"']{0,120}?"
        r"(?:" + _SECRET_FILE + r"|credentials|\.aws/|/etc/passwd)",
        keys2=_SECRET_FILE_SUBS + " .aws/ /etc/passwd",
        keys3="-d -f -t --data --form --upload-file --post-file --body-file",
    ),
    Pattern(
        "secret_substitution",
        "credential_exfiltration",
        "context",
        "embeds the environment or a credential file in a network command ($(env), $(cat .env))",
        "curl wget nc ncat nslookup dig host ping ssh",
        r"\b(?:curl|wget|nc|ncat|nslookup|dig|host|ping|ssh)\b[^\n]{0,200}?(?:\$\(\s*(?:env"
        r"|printenv|whoami|hostname)\b|`\s*(?:env|printenv)\b|\$\(\s*cat\s+[^)\n]{0,80}?(?:"
        + _SECRET_FILE
        + r"))",
        keys2="env printenv whoami hostname " + _SECRET_FILE_SUBS,
        keys3="$( `",
    ),
    Pattern(
        "env_to_http_client",
        "credential_exfiltration",
        "context",
        "passes the whole process environment to an HTTP client",
        "requests httpx urllib aiohttp axios fetch",
        r"\b(?:requests|httpx|urllib\.request|aiohttp|axios|fetch)\b[^\n]{0,200}?"
        r"(?:os\.environ|process\.env)\b(?!\s*(?:\[|\.|\())",
        keys2="environ env",
        keys3="os.environ process.env",
    ),
    Pattern(
        "read_secret_file",
        "credential_exfiltration",
        "strict",
        "reads, dumps or sends a credential file (.env, .netrc, SSH private key...)",
        "cat bat base64 xxd scp rsync nc exfiltrate dump upload send leak",
        _NEG + r"\b(?:cat|bat|base64|xxd|scp|rsync|nc|exfiltrate|dump|upload|send|leak)\b"
        r"[^\n]{0,60}?(?:" + _SECRET_FILE + r")",
        keys2=_SECRET_FILE_SUBS,
        negatable=True,
    ),
    Pattern(
        "secrets_to_destination",
        "credential_exfiltration",
        "strict",
        "tells the model to send keys, tokens, passwords or the environment to an outside address",
        "key keys token tokens credentials secret secrets password passwords passphrase "
        "passphrases env environment cookies cookie",
        _NEG + r"\b(?:send|post|upload|transmit|forward|exfiltrate|leak|email|mail|share|paste|copy"
        r"|submit|beacon|report)\s+"
        + _gap(6)
        + r"(?:api\s+keys?|keys|tokens?|credentials|secrets?|passwords?|passphrases?"
        r"|private\s+keys?|ssh\s+keys?|env(?:ironment)?\s+var(?:iable)?s|environment|\.env|cookies"
        r"|session\s+(?:tokens?|cookies?)|access\s+keys?)\b[^\n]{0,80}?\b(?:to|at|into|on|via)\s+"
        r"(?:the\s+|an?\s+|my\s+)?(?:https?://|ftp://|www\.|[\w.+-]+@[\w-]+\.[a-z]{2,}"
        r"|\d{1,3}(?:\.\d{1,3}){3}|pastebin|webhook|gist|discord|telegram|ngrok|requestbin|pipedream"
        r"|(?:external|remote|attacker['’]?s?|third[\s-]party)\s+(?:server|url|endpoint|site|host"
        r"|address))",
        keys2="send post upload transmit forward exfiltrate leak email mail share paste copy "
        "submit beacon report",
        keys3="http* ftp* www* @ 0. 1. 2. 3. 4. 5. 6. 7. 8. 9. pastebin webhook gist discord "
        "telegram ngrok requestbin pipedream external remote attacker third",
        negatable=True,
    ),
    # ----------------------------------------------------------------------------- secret
    Pattern(
        "private_key",
        "secret",
        "context",
        "contains a PEM private key block",
        "private",
        r"-----begin\s+(?:[a-z0-9]+\s+){0,3}private\s+key(?:\s+block)?-----",
        keys2="-----begin",
    ),
    Pattern(
        "openai_style_key",
        "secret",
        "context",
        "contains an API key in the sk-... format (OpenAI, Anthropic and others)",
        "",
        r"(?<![\w-])sk-(?:[a-z]{2,12}-){0,2}(?=[A-Za-z0-9_-]{0,300}?[0-9])"
        r"(?=[A-Za-z0-9_-]{0,300}?[a-z])(?=[A-Za-z0-9_-]{0,300}?[A-Z])[A-Za-z0-9_-]{32,400}"
        r"|(?<![\w-])sk-(?:proj|svcacct|admin|ant-api[0-9]{2}|ant-admin[0-9]{2})-"
        r"(?=[A-Za-z0-9_-]{0,300}?[0-9])[A-Za-z0-9_-]{20,400}",
        subs="sk-",
        cased=True,
    ),
    Pattern(
        "github_token",
        "secret",
        "context",
        "contains a GitHub token (ghp_, gho_, ghs_, github_pat_...)",
        "ghp gho ghu ghs ghr pat",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b",
        keys2="ghp_ gho_ ghu_ ghs_ ghr_ github_pat_",
        cased=True,
    ),
    Pattern(
        "aws_access_key",
        "secret",
        "context",
        "contains an AWS access key id (AKIA...)",
        "",
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b(?<!EXAMPLE)",
        subs="AKIA ASIA ABIA ACCA",
        cased=True,
    ),
    Pattern(
        "slack_token",
        "secret",
        "context",
        "contains a Slack token (xoxb-, xoxp-...)",
        "xoxa xoxb xoxp xoxs xoxr xoxe",
        r"\bxox[abpsre]-(?:[0-9]{1,20}-){1,4}[a-z0-9]{8,250}\b",
    ),
    Pattern(
        "other_api_key",
        "secret",
        "context",
        "contains an API key in a known format (Google, Stripe, GitLab, npm, Hugging Face...)",
        "sk rk glpat npm hf sg hooks xapp",
        r"\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{20,250}\b"
        r"|\bglpat-[0-9A-Za-z_-]{20,250}"
        r"|\bnpm_[A-Za-z0-9]{36}\b"
        r"|\bhf_[A-Za-z]{34}\b"
        r"|\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b"
        r"|hooks\.slack\.com/services/T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{20,30}"
        r"|\bxapp-[0-9]-[A-Z0-9]{9,20}-[0-9]{6,20}-[a-z0-9]{20,80}",
        keys2="sk_live sk_test rk_live rk_test glpat- npm_ hf_ sg. hooks.slack.com xapp-",
        cased=True,
    ),
    Pattern(
        "google_api_key",
        "secret",
        "context",
        "contains a Google API key (AIza...)",
        "",
        r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",
        subs="AIza",
        cased=True,
    ),
    Pattern(
        "jwt_token",
        "secret",
        "strict",
        "contains a JSON Web Token",
        "",
        r"\beyJ[A-Za-z0-9_-]{10,2000}\.eyJ[A-Za-z0-9_-]{10,4000}\.[A-Za-z0-9_-]{10,2000}",
        subs="eyJ",
        cased=True,
    ),
    Pattern(
        "bearer_token",
        "secret",
        "strict",
        "contains a literal bearer token",
        "bearer",
        r"\bbearer\s+(?=[a-z0-9._~+/-]{0,500}?[0-9])[a-z0-9._~+/-]{24,500}=*",
    ),
    Pattern(
        "url_credentials",
        "secret",
        "strict",
        "contains a URL with an embedded user:password",
        "http https ftp ftps sftp ssh git svn postgres postgresql mysql mariadb mongodb redis "
        "rediss amqp amqps smtp smtps imap imaps ldap ldaps mssql sqlserver oracle mqtt nats "
        "kafka s3",
        r"\b(?:https?|ftps?|sftp|ssh|git|svn|postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?"
        r"|rediss?|amqps?|smtps?|imaps?|ldaps?|mssql|sqlserver|oracle|mqtt|nats|kafka|s3)://"
        r"[^\s/:@'\"<>]{1,64}:"
        r"(?![^\s@/]{0,4}(?:\$|\{|<|\*{3}|password\b|pass\b|passwd\b|secret\b|x{3}))"
        r"[^\s/:@'\"<>$]{3,128}@[a-z0-9.-]+",
        keys2="@",
        keys3="://",
    ),
    Pattern(
        "hardcoded_secret",
        "secret",
        "strict",
        'hard-codes a password, token or key (password = "...")',
        "password passwd pwd secret token key apikey accesskey authkey privatekey secretkey "
        "clientsecret",
        r"\b(?:[a-z0-9]{1,30}[_-]){0,4}(?:password|passwd|pwd|secret|token|api[_-]?key"
        r"|access[_-]?key|auth[_-]?key|client[_-]?secret|private[_-]?key|secret[_-]?key)"
        r"[\"']?\s*[:=]\s*[\"'`]"
        r"(?![^\"'`\n]{0,40}?(?:\$|\{\{|<|\*\*\*|xxx|your[_-]|example|placeholder|changeme|redacted"
        r"|\.\.\.))[^\"'`\s]{6,200}[\"'`]",
        keys2="= :",
        keys3="\" ' `",
    ),
    Pattern(
        "plaintext_password",
        "secret",
        "strict",
        "states a password, passphrase or key in plain text",
        "password passphrase passcode code key token",
        r"\b(?:password|passphrase|passcode|pin\s+code|api\s+key|secret\s+key|access\s+token)"
        r"(?:\s+(?:for|of|on|to)\s+(?:[^\s=:]+\s+){0,3}?[^\s=:]+)?(?:\s+(?:is|was)\s+|\s*[=:]\s*)"
        # not a placeholder, a reference ($VAR, ${...}, <...>) or a command in backticks
        r"(?![\"'`“‘]?(?:your[_-]|<|\$|\{|%|example|xxx|changeme|placeholder|redacted)"
        r"|[^\s]{0,64}?\.\.\.|`[a-z]{1,12}`)"
        r"(?:[\"'`“‘][^\s\"'`”’]{4,64}[\"'`”’]"
        r"|(?=[^\s\"'`”]{0,64}?[0-9])(?=[^\s\"'`”]{0,64}?[a-z])[^\s\"'`”]{6,64})",
        keys2="password passphrase passcode pin api secret access",
        keys3="is was = :",
        keys4="\" ' ` “ ‘ 0* 1* 2* 3* 4* 5* 6* 7* 8* 9*",
    ),
    # ------------------------------------------------------------------------- persistence
    Pattern(
        "ssh_key_implant",
        "persistence",
        "context",
        "writes a key into an SSH authorized_keys file (backdoor access)",
        "authorized",
        r"(?:>>?|\btee\b(?:\s+-a)?)\s*[\"']?[^\s\"';|&<>]{0,120}?\bauthorized_keys"
        r"|(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com)\s+"
        r"aaaa[0-9a-z+/]{20,}[^\n]{0,300}?\bauthorized_keys",
    ),
    Pattern(
        "ssh_authorized_keys_edit",
        "persistence",
        "strict",
        "tells the model to add a given key to SSH authorized_keys, on every host or covertly",
        "authorized copy",
        r"(?:^|[.!?;:\n]\s*|\b(?:you|please|always|silently|quietly|secretly)\s+)"
        r"(?:add|append|write|insert|put|copy|install|plant|drop|place|upload|echo|inject|paste)"
        r"\s+(?:this|the\s+following|my|our|that|these)\s+(?:[a-z0-9-]+\s+){0,2}?keys?\b"
        r"[^\n]{0,100}?\bauthorized_keys"
        r"|\b(?:add|append|write|insert|put|copy|install|plant|drop|place|upload|inject|paste)"
        r"[a-z]{0,3}\b[^\n]{0,100}?\bauthorized_keys\b[^\n]{0,60}?\b(?:on|of|to|across)\s+"
        r"(?:every|all|each|any)\s+(?:[a-z]+\s+)?(?:servers?|hosts?|machines?|boxes|nodes)\b"
        r"|\b(?:silently|quietly|secretly|covertly)\b[^\n]{0,60}?\bauthorized_keys"
        r"|\bssh-copy-id\b[^\n]{0,80}?\b(?:every|all|each)\s+(?:servers?|hosts?|machines?)\b",
        keys2="add* append* write* insert* put* copy* install* plant* drop* place* upload* echo* "
        "inject* paste* silently quietly secretly covertly",
    ),
    Pattern(
        "shell_rc_backdoor",
        "persistence",
        "context",
        "plants a download, reverse shell or hijack in a shell startup file (.bashrc, .zshrc...)",
        "bashrc bash profile zshrc zprofile zshenv zlogin fish",
        r"\b(?:echo|printf|cat)\b[^\n>]{0,200}?(?:curl|wget|\bnc\b|ncat|netcat|socat|/dev/tcp"
        r"|base64\s+-{1,2}d|python[0-9]?(?:\.[0-9]+)?\s+-c|perl\s+-e|bash\s+-i|sh\s+-i"
        r"|alias\s+(?:sudo|ssh|git|ls|cd)=|ld_preload|prompt_command)[^\n>]{0,200}?>>?\s*[\"']?"
        r"[^\s\"';|&<>]{0,60}?\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv"
        r"|zlogin|config/fish/config\.fish)\b"
        r"|\b(?:add|append|insert|write|put|inject)[a-z]{0,3}\b[^\n]{0,120}?(?:curl|wget|\bnc\b"
        r"|ncat|netcat|/dev/tcp|base64\s+-{1,2}d|bash\s+-i|alias\s+sudo=|ld_preload)[^\n]{0,120}?"
        r"\b(?:to|into|in)\s+(?:your\s+|the\s+)?[^\s]{0,30}?\.(?:bashrc|bash_profile|profile|zshrc"
        r"|zprofile|zshenv)\b",
        keys2="curl wget nc ncat netcat socat tcp base64 python python2 python3 perl bash sh alias "
        "preload command",
        keys3="> add* append* insert* write* put* inject*",
    ),
    Pattern(
        "cron_backdoor",
        "persistence",
        "context",
        "schedules a remote download-and-run or reverse shell with cron",
        "cron crontab reboot",
        r"(?:@reboot\b|\bcrontab\b|/etc/cron|/var/spool/cron)[^\n]{0,200}?"
        + _REMOTE_EXEC
        + r"|"
        + _REMOTE_EXEC
        + r"[^\n]{0,200}?(?:\|\s*crontab\b|>>?\s*/etc/cron|/var/spool/cron)",
        keys2=_REMOTE_EXEC_KEYS,
        keys3="| /dev/ -i -e -c",
    ),
    # A program started at boot, logon or on a schedule that lives in a temporary directory
    # (/tmp, %TEMP%, /dev/shm): anyone can write there and an administrator installs
    # nothing there, so the autostart entry is a foothold. The schedule or key is syntax,
    # not words, so this reads the same in a note of any language. "0 3 * * * find /tmp
    # -delete" (a path as an argument) and a Run key for C:\\Program Files\\... pass.
    Pattern(
        "autostart_temp_program",
        "persistence",
        "context",
        "starts a program from a temporary directory at boot, logon or on a schedule "
        "(cron line, Run key, scheduled task, ExecStart=)",
        "tmp temp shm public",
        r"(?:(?<![\w.:/-])(?:[0-9*][0-9*/,-]*[ \t]+){5}|@reboot[ \t]+"
        r"|\\currentversion\\run(?:once|services)?\b[^\n]{0,200}?"
        r"|\bschtasks\b[^\n]{0,200}?/tr\b[^\n]{0,40}?"
        r"|\b(?:new-scheduledtaskaction|register-scheduledtask)\b[^\n]{0,200}?"
        r"|\bexecstart(?:pre|post)?\s*=\s*)"
        r"[\"']?(?:(?:sudo[ \t]+)?(?:/bin/|/usr/bin/)?(?:ba|z|da)?sh[ \t]+|python[0-9.]*[ \t]+"
        r"|powershell(?:\.exe)?[ \t]+(?:-[a-z]+[ \t]+){0,4}|cmd(?:\.exe)?[ \t]+/c[ \t]+)?[\"']?"
        r"(?:/tmp/|/var/tmp/|/dev/shm/|%te?mp%\\|\$env:te?mp\\|\\appdata\\local\\temp\\"
        r"|\\windows\\temp\\|\\users\\public\\)"
        r"[^\s\"'*?<>|]{1,80}?\.(?:sh|exe|ps1|bat|cmd|vbs|js|py|pl|dll|scr|bin|hta)\b",
        keys2="** run runonce runservices schtasks scheduledtaskaction scheduledtask execstart "
        "execstartpre execstartpost reboot",
    ),
    # Reading the operating system's credential stores: a credential-dumping tool run
    # with its arguments (mimikatz's module::command), a memory dump of lsass, the SAM
    # hive saved. A note that names the tool ("EDR flags mimikatz") has no invocation.
    Pattern(
        "credential_dump",
        "credential_exfiltration",
        "context",
        "runs a credential dump (mimikatz sekurlsa::/lsadump::, a dump of lsass, the SAM hive)",
        "mimikatz lsass sam procdump comsvcs secretsdump",
        r"\bmimikatz(?:\.exe)?[\"']?[ \t]+(?:[\"']?[a-z]+::[a-z]+[\"']?[ \t]+){0,3}[\"']?"
        r"(?:sekurlsa|lsadump|kerberos|dpapi|vault|token)::[a-z]"
        r"|\b(?:procdump(?:64)?(?:\.exe)?|rundll32(?:\.exe)?[^\n]{0,60}?comsvcs(?:\.dll)?)"
        r"[^\n]{0,80}?\blsass\b"
        r"|\breg(?:\.exe)?[ \t]+save[ \t]+[\"']?hklm\\(?:sam|security)\b"
        r"|\bsecretsdump(?:\.py)?[ \t]+[^\n]{0,80}?@",
        keys2="sekurlsa lsadump kerberos dpapi vault token lsass save secretsdump",
    ),
    Pattern(
        "reverse_shell",
        "persistence",
        "context",
        "opens a reverse shell (/dev/tcp, nc -e, socat exec, python socket + pty)",
        "tcp udp nc ncat netcat socat mkfifo bash socket pty tcpclient",
        r"/dev/(?:tcp|udp)/[^\s/]{1,100}/[0-9]{1,5}"
        r"|\b(?:nc|ncat|netcat)\b[^\n|;]{0,80}?\s-[ec]\s*[\"']?(?:/bin/)?(?:ba|z|da)?sh\b"
        r"|\bncat\b[^\n]{0,80}?--(?:exec|sh-exec)\b"
        r"|\bsocat\b[^\n]{0,120}?\bexec:"
        r"|\bmkfifo\b[^\n]{0,160}?\b(?:nc|ncat|netcat)\b"
        r"|\bbash\s+-i\s+>&"
        r"|\bimport\s+socket\b[^\n]{0,300}?\b(?:subprocess|pty|os\.dup2)\b"
        r"|\bpty\.spawn\s*\("
        r"|\bnew-object\s+(?:system\.)?net\.sockets\.tcpclient\b",
        keys2="/dev/ -e -c -- exec: mkfifo >& subprocess pty dup2 spawn tcpclient",
    ),
    Pattern(
        "agent_config_write",
        "persistence",
        "context",
        "writes into an agent instruction or config file (AGENTS.md, CLAUDE.md...) from a shell",
        "md mdc cursorrules clinerules windsurfrules cursor settings mcp codex mnemic",
        r"(?:>>?|\btee\b(?:\s+-a)?)\s*[\"']?[^\s\"';|&<>]{0,100}?(?:" + _AGENT_FILE + r")",
        keys2="> tee",
        keys3=_AGENT_FILE_KEYS,
    ),
    Pattern(
        "agent_config_tamper",
        "persistence",
        "strict",
        "tells the model to covertly plant text in an agent instruction/config file",
        "silently secretly quietly covertly without",
        r"(?:\b(?:silently|secretly|quietly|covertly)\s+(?:[a-z]+\s+)?"
        + _PLANT
        + r"|"
        + _PLANT
        + r"(?=[^\n]{0,160}?(?:silently|secretly|quietly|covertly|without\s+(?:telling|informing"
        r"|notifying|asking|alerting))))[^\n]{0,160}?\b(?:to|into|in|inside)\s+(?:the\s+|your\s+"
        r"|every\s+|each\s+|all\s+|any\s+)?(?:[^\s]{0,60}/)?(?:"
        + _AGENT_FILE
        + r"|(?:agent|assistant|ai)\s+(?:config|configuration|instructions?|rules)\s+files?)",
        keys2=_AGENT_FILE_KEYS + " config configuration instruction instructions rules",
        keys3="append* prepend* insert* inject* add* write* put* embed* plant* hide* sneak*",
    ),
    Pattern(
        "self_modify",
        "persistence",
        "strict",
        "tells the model to rewrite its own system prompt, rules or configuration",
        "your",
        r"\b(?:edit|modify|change|rewrite|update|overwrite|alter|replace)\s+your\s+(?:own\s+)?"
        r"(?:system\s+prompt|instructions|core\s+rules|rules|programming|configuration|config"
        r"|guidelines|directives|safety\s+(?:rules|settings))\b",
        keys2="prompt instructions rules programming configuration config guidelines directives "
        "settings",
        keys3="edit modify change rewrite update overwrite alter replace",
    ),
    Pattern(
        "c2_channel",
        "persistence",
        "context",
        "refers to a command-and-control channel or enrols the agent as a bot",
        "c2 c command register heartbeat beacon check checkin",
        r"\b(?:c2|c&c)\s+(?:server|channel|infrastructure|beacon|node|endpoint|domain)\b"
        r"|\bcommand[\s-]+and[\s-]+control\s+(?:server|channel|node|endpoint|infrastructure)\b"
        r"|\bregister\s+(?:yourself\s+|this\s+(?:agent|machine|host)\s+)?(?:as\s+)?(?:a\s+)?"
        r"(?:new\s+)?(?:bot|implant|zombie)\s+(?:with|on|at|to)\b"
        r"|\b(?:heartbeat|beacon|check[\s-]?in)\s+(?:to|with)\s+(?:the\s+)?(?:c2|c&c|controller"
        r"|command\s+server)\b",
        keys2="server servers channel infrastructure beacon node endpoint domain control bot "
        "implant zombie c2 c controller",
    ),
)

# Scanner v2 rules (mnemic.scan.rules), merged in category order on first access (the sort
# is stable: within a category the original patterns come first). Resolved lazily: the
# rules are only built when the table is.


PATTERNS: tuple[Pattern, ...] = tuple(
    sorted(_BASE + RULES, key=lambda p: CATEGORIES.index(p.category))
)
"""Every pattern: the table above and the structural rules of :mod:`.rules`, by category."""
