"""The claimed-save nudge: a reply that says it saved or will remember something, in a
turn that made no successful memory write, gets one note back in the same turn.

Models, small ones above all, answer "I'll remember that" or "已记住" without calling
the memory tool, and the user believes it. :class:`SaveNudge` follows one turn and
decides, when the model gives its final answer, whether to send it one note (a user
message starting ``[mnemic: memory check]``) asking it to call the memory tool now or
correct its claim. It speaks at most once per turn, and never when:

* a memory write succeeded in the turn (saved, or staged for approval);
* the reply says it cannot or will not save ("I can't store that", "no puedo guardar");
* the only claim is in quoted text, a code span or a block quote.

Two signals, either enough: the reply's **claim** (phrasings in English, Chinese,
German, Spanish, French and Japanese: "I'll remember that", "saved to memory", "我记住了",
"lo recordaré", "ich merke mir das", "je m'en souviendrai", "覚えておきます"), and the
user's **request** ("remember that...", "from now on...", "记住", "ab jetzt", "a partir
de ahora"), unless the reply asks a question back. Remembering as recall ("I remember
you mentioned...", "我记得你说过") and saving a file ("Saved the image to disk") are
neither. The phrasings are a bounded list, measured in ``tests/test_agent_nudge.py``:
both error rates are in ``docs/agent.md``.

``[agent] save_nudge`` switches it off; so does a provider that keeps memory itself
(:attr:`~mnemic.providers.MemoryProvider.keeps_memory`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["NUDGE_PREFIX", "SaveNudge", "asks_to_remember", "claims_save", "declines_save"]

NUDGE_PREFIX = "[mnemic: memory check]"

_QUOTED = re.compile(
    r"```.*?```|`[^`\n]*`|\"[^\"\n]*\"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]|「[^」\n]*」|『[^』\n]*』"
    r"|^\s*>.*$",
    re.DOTALL | re.MULTILINE,
)

_CLAIM = re.compile(
    r"""
    \bI(?:'ll|\s+will|\s+shall)\s+(?:now\s+|definitely\s+|always\s+|make\s+sure\s+to\s+)?
        (?:remember|memori[sz]e|keep\s+(?:that|this|it|your\s+\w+)\s+in\s+mind|
        note\s+(?:that|this|it)|make\s+a\s+note)\b
    | \bI(?:'ve|\s+have)\s+(?:now\s+|just\s+)?(?:noted|memori[sz]ed|remembered|made\s+a\s+note)\b
    | \bI(?:'ve|\s+have)\s+(?:now\s+|just\s+)?(?:saved|stored|recorded|added|updated|written|logged)
        \b[^.!?\n]{0,40}\b(?:memory|memories|user\s+profile)\b
    | \b(?:saved|added|committed)\s+(?:that\s+|this\s+|it\s+)?(?:to|in|into)\s+
        (?:my\s+|your\s+|the\s+)?(?:long[-\s]term\s+)?(?:memory|user\s+profile)\b
    | \b(?:stored|recorded|written|logged)\s+(?:that\s+|this\s+|it\s+)?(?:to|in|into)\s+
        (?:my|your|long[-\s]term)\s+memory\b
    | (?:^|[.!?]\s+)(?:got\s+it,?\s+)?(?:noted|memori[sz]ed|remembered)\s*[.!]
    | \bsaving\s+(?:that|this|it)\s+(?:to|in)\s+(?:my\s+)?memory\b
    | \bI\s+won'?t\s+forget\b | \bI\s+will\s+not\s+forget\b
    | \bmy\s+memory\s+(?:is|has\s+been)\s+updated\b | \bupdated\s+my\s+memory\b
    | \bmemory\s+updated\b | \bconsider\s+it\s+(?:remembered|noted|saved|memori[sz]ed)\b
    | \b(?:preferences?|that|this)\s+(?:has|have)\s+been\s+(?:saved|noted|stored|remembered|
        memori[sz]ed)\b
    | \bje\s+m'en\s+(?:souviendrai|rappellerai)\b | \bje\s+ne\s+l'oublierai\s+pas\b
    | \bje\s+vais\s+m'en\s+souvenir\b | \bc'est\s+not[ée]\b
    | \bje\s+l'ai\s+not[ée]\b | \bje\s+(?:le\s+)?retiens\b
    | \bje\s+garde\s+(?:ça|cela)\s+en\s+t[êe]te\b
    | \benregistr\w*\b[^.!?\n]{0,20}\bdans\s+(?:ma|la)\s+m[ée]moire\b
    | \bje\s+vais\s+(?:le\s+|la\s+|l')?retenir\b
    | \b(?:lo|la)\s+recordar[ée]\b | \bno\s+lo\s+olvidar[ée]\b | \bme\s+acordar[ée]\b
    | \blo\s+tendr[ée]\s+en\s+cuenta\b
    | \b(?:lo\s+)?he\s+(?:anotado|apuntado)\b | \btomo\s+nota\b | \blo\s+anoto\b
    | \bguard(?:o|é|ado|ada)\s+en\s+(?:la\s+|mi\s+)?memoria\b
    | \bich\s+merke\s+(?:es\s+)?mir\b
    | \bich\s+werde\s+(?:es\s+|das\s+)?mir\s+(?:das\s+|es\s+)?merken\b
    | \b(?:habe|hab)\s+(?:ich\s+)?(?:es\s+|das\s+)?(?:mir\s+)?(?:gemerkt|notiert)\b
    | \bist\s+notiert\b | \bmerke\s+ich\s+mir\b | \bbehalte\s+(?:das|es)\s+im\s+(?:Hinter)?[Kk]opf\b
    | \bwerde\s+(?:es|das)\s+nicht\s+vergessen\b
    | \b(?:speichere|gespeichert|abgespeichert)\b[^.!?\n]{0,30}\b(?:im|in\s+meinem)\s+Gedächtnis\b
    | \b(?:im|in\s+meinem)\s+Gedächtnis\s+(?:ab)?gespeichert\b
    | 我(?:会|会一直|已经|已)?(?:记住|记下|记得住)了? | 记住了 | 记下了 | 记下来了 | 记在心里
    | 我(?:会|也会|会一直|一定会)(?:记得|牢记) | 牢记 | 不会忘(?:记)?
    | (?:已|已经)(?:保存|存入|写入|添加|记录)(?:到|进|在)?了?(?:我的)?(?:记忆|长期记忆|用户资料)
    | 覚えて(?:おきます|おく|います) | 記憶しました | メモしました
    """,
    re.IGNORECASE | re.VERBOSE | re.MULTILINE,
)
"""A reply that claims to have saved, or promises to remember."""

_DECLINE = re.compile(
    r"""
    \bI\s+(?:can(?:no|')t|cannot|am\s+unable\s+to|'m\s+unable\s+to|am\s+not\s+able\s+to|
        won'?t|will\s+not|don'?t|do\s+not)\s+(?:actually\s+)?(?:save|store|remember|keep|record|
        have\s+(?:a\s+|any\s+)?(?:memory|way))\b
    | \b(?:unable|not\s+able)\s+to\s+(?:save|store|remember)\b | \bnot\s+(?:saved|stored)\b
    | \b(?:could\s+not|couldn'?t)\s+(?:save|store|record|keep)\b
    | \bno\s+(?:puedo|pude)\s+(?:guardar|recordar|almacenar)\b
    | \bno\s+lo\s+(?:guard[ée]|recordar[ée])\b
    | \bich\s+kann\s+(?:mir\s+)?(?:das\s+|es\s+)?(?:nicht|nichts)\b | \bnicht\s+gespeichert\b
    | \bje\s+ne\s+(?:peux|pourrai|vais)\s+pas\b | \bpas\s+(?:pu\s+)?enregistr
    | 无法(?:记住|保存|记录) | 不能(?:记住|保存|记录) | 没(?:有)?(?:保存|记住|记录) | 記憶できません
    """,
    re.IGNORECASE | re.VERBOSE,
)
"""A reply that says it cannot or will not save: honest, left alone."""

_REQUEST = re.compile(
    r"""
    (?<!do\s)(?<!did\s)(?<!don't\s)(?<!you\s)\bremember\s+(?:that|this|:|to|my|i|me|we|for)\b
    | (?:^|[.!?]\s+)(?:please\s+)?remember\b(?![^.!?\n]*\?)
    | \bplease\s+(?:remember|note|save)\b | \bdon'?t\s+forget\b | \bnever\s+forget\b
    | \bfrom\s+now\s+on\b | \bgoing\s+forward\b | \bkeep\s+in\s+mind\b | \bmake\s+a\s+note\b
    | \b(?:save|store|add|put)\s+(?:this|that|it)\s+(?:to|in|into)\s+(?:your\s+|the\s+)?memory\b
    | (?:^|[.!?]\s+)(?:always|never)\s+(?!mind\b)\w+
    | \brecuerda\s+que\b | \bacu[ée]rdate\b | \ba\s+partir\s+de\s+ahora\b
    | \bde\s+ahora\s+en\s+adelante\b
    | \bno\s+(?:te\s+)?olvides\b | \bguarda\s+(?:esto|eso)\b | \bapunta\s+que\b
    | \bmerk\s+dir\b | \bmerke\s+dir\b | \bdenk\s+daran\b | \bab\s+jetzt\b | \bvon\s+nun\s+an\b
    | \bab\s+sofort\b | \bvergiss\s+nicht\b | \bspeichere?\s+(?:dir\s+)?(?:das|dies)\b
    | \bsouviens-toi\b | \brappelle-toi\b | \bretiens\s+que\b | \b[àa]\s+partir\s+de\s+maintenant\b
    | \bd[ée]sormais\b | \bn'oublie\s+pas\b | \bnote\s+que\b
    | 记住 | 请记下 | 记一下 | 别忘了 | 不要忘记 | 以后(?:都|请|要|一律|你) | 从现在(?:开始|起)
    | 今后(?:都|请|要) | 保存到(?:你的)?记忆 | 覚えておいて
    """,
    re.IGNORECASE | re.VERBOSE | re.MULTILINE,
)
"""A user message that asks for something to be kept."""

_RECALL_QUESTION = re.compile(
    r"\b(?:do|did|can|could|would)\s+you\s+(?:still\s+)?remember\b|你还记得|你记得|\?\s*$|？\s*$",
    re.IGNORECASE,
)


def _plain(text: str) -> str:
    """``text`` without quoted passages, code spans and block quotes; curly apostrophes
    straightened."""
    return _QUOTED.sub(" ", text.replace("\u2019", "'"))


def claims_save(reply: str) -> str | None:
    """The phrase of ``reply`` that claims a save or promises to remember (None: none)."""
    m = _CLAIM.search(_plain(reply))
    return " ".join(m.group(0).split()) if m else None


def declines_save(reply: str) -> bool:
    """Whether ``reply`` says it cannot or will not save."""
    return bool(_DECLINE.search(_plain(reply)))


def asks_to_remember(message: str) -> str | None:
    """The phrase of a user ``message`` asking for something to be kept (None: none; a
    question whether something is remembered is not a request)."""
    plain = _plain(message)
    if _RECALL_QUESTION.search(plain):
        return None
    m = _REQUEST.search(plain)
    return " ".join(m.group(0).split()) if m else None


_WRITES = ("add", "replace", "remove", "batch")


class SaveNudge:
    """The nudge of one session, turn by turn (see the module docstring)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.request: str | None = None
        self.saved = False
        self.nudged = False
        self.count = 0
        """Notes sent in this session."""

    def begin_turn(self, user_text: str) -> None:
        """A user turn starts with ``user_text``."""
        self.request = asks_to_remember(user_text) if self.enabled else None
        self.saved = False
        self.nudged = False

    def saw_tool(self, name: str, response: Mapping[str, Any]) -> None:
        """A tool call of this turn answered ``response``."""
        if name == "memory" and response.get("success") and response.get("action") in _WRITES:
            self.saved = True

    def check(self, reply: str | None) -> str | None:
        """The note to send the model now that it answered ``reply`` without tool calls
        (None: nothing to say). Marks the turn as nudged."""
        if not self.enabled or self.saved or self.nudged:
            return None
        text = reply or ""
        if declines_save(text):
            return None
        claim = claims_save(text)
        if claim is not None:
            note = (
                f'{NUDGE_PREFIX} Your reply says "{claim}", but no memory tool call '
                "succeeded in this turn, so nothing was saved. If it is worth keeping for "
                "future sessions, call the memory tool now; if not, correct your reply so the "
                "user is not told it was saved. Then give your final answer."
            )
        elif self.request is not None and not _RECALL_QUESTION.search(_plain(text)):
            note = (
                f'{NUDGE_PREFIX} The user asked you to keep something ("{self.request}"), but '
                "no memory tool call succeeded in this turn. If it is a durable preference or "
                "fact, save it with the memory tool now; otherwise tell the user why not. Then "
                "give your final answer."
            )
        else:
            return None
        self.nudged = True
        self.count += 1
        return note
