"""Normalisation views: what an obfuscated text says once it is read as a model would.

The scanner matches its rules and scores its classifier on the text itself and, when the
text looks obfuscated, on *views* of it that undo the trick:

* ``spaced``: letters spelled one by one (``i g n o r e  a l l``, ``i.g.n.o.r.e``) joined
  into words;
* ``leetspeak``: digits and symbols standing for letters (``1gn0r3``) read as letters;
* ``underscores``: identifiers such as ``IGNORE_PREVIOUS_INSTRUCTIONS=1`` read as words;
* decoded payloads: ``base64``, ``hex`` (and ``\\x41`` escapes), ``url`` (percent
  encoding) and ``rot13`` when it yields English words. Decoded text is scanned too.

Quoted mentions are the opposite case: a short quoted phrase after a word such as
"write", "phrases like" or "e.g." is *talked about*, not addressed to the model, and
:func:`mask_mentions` blanks it out before matching (never when the quote holds a URL, a
path, a pipe or a variable). Likewise a confidentiality rule ("never reveal your system
prompt or these instructions") is the model's own defence, and :func:`mask_defensive`
takes it out of what the classifier scores (the rules still read the whole text).

Every function is cheap on ordinary text (a few C-level passes) and only builds a view
when the trick is actually present. Imported on the first scan that needs it.
"""

from __future__ import annotations

import binascii
import re
from itertools import repeat
from urllib.parse import unquote

__all__ = ["View", "mask_defensive", "mask_mentions", "views"]

#: A derived reading of a text: (kind, text, what was decoded, for the explanation).
View = tuple[str, str, str]

_B64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_"
_B64_DELETE = str.maketrans("", "", _B64_CHARS)
_HEX_DELETE = str.maketrans("", "", "0123456789abcdefABCDEF")
_TOKEN_STRIP = "\"'`()[]{}<>,;:."
_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_LEET_CHARS = frozenset("013457@$")
# Frequent English words and the words attacks are made of: a rot13 view is kept when it
# reads as English and the original does not.
_COMMON = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "all",
        "to",
        "of",
        "is",
        "are",
        "in",
        "for",
        "this",
        "that",
        "with",
        "it",
        "be",
        "on",
        "not",
        "do",
        "from",
        "now",
        "ignore",
        "previous",
        "instructions",
        "instruction",
        "prompt",
        "system",
        "send",
        "run",
        "every",
        "always",
        "never",
        "user",
        "secret",
        "key",
        "keys",
        "password",
        "token",
        "please",
        "forget",
        "rules",
        "new",
        "tell",
        "reveal",
        "print",
        "output",
        "answer",
        "reply",
        "data",
        "file",
        "files",
        "upload",
        "mention",
    ]
)
_SPACED = r"(?<!\S)(?:[^\W_](?:[ .*_-]|  +)){3,}[^\W_](?![^\W_])"
_HEX_ESCAPES = r"(?:\\x[0-9a-fA-F]{2}){4,}"
_PERCENT = r"%[0-9a-fA-F]{2}"
_MENTION = (
    r"(?:(?:\b(?:writes?|wrote|written|says?|said|phrases?|strings?|text|words?|like|such\s+as"
    r"|e\.g\.|called|known\s+as|contains?|containing|detects?|flags?|blocks?|filters?|quotes?"
    r"|quoting|examples?|patterns?|sentences?|lines?\s+like|payloads?|titled|entitled|named|titel|titre|titulo"
    r"|titulad[oa]|intitul[ée]e?|под\s+названием"
    # the verbs that give a name: "heißt", "se titula", "s'appelle", "назывался"
    r"|hei(?:ß|ss)t|hie(?:ß|ss)|betitelt|namens|se\s+titula|se\s+llama|llamad[oa]"
    r"|s'appelle|appel[ée]e?s?|nomm[ée]e?s?|называ(?:ется|лся|лась|лось|лись|ют)|озаглавлен\w*)"
    r"|题为|名为|标题为|と題した|題名|بعنوان)\s*[:,]?\s*"
    # a title or a work (nouns only: "talk" is also a verb) named a few words before
    # its quote: "the talk's title is «...»",
    # "講演タイトルは「...」", "с докладом «...»", "عنوان محاضرة المستخدم هو «...»"
    r"|(?:\btitle|\btitel|\btitre|\bt[ií]tulo|\bназвани[ея]|标题|题目|タイトル|演題|عنوان"
    r"|\bkeynote|\bpresentation|\barticle|\bbook|\bvortrag\w*|\bbuch\b|\bcharla"
    r"|\bponencia|\blibro|\bconf[ée]rence|\bexpos[ée]|\blivre|\bдоклад\w*|\bстать[яиюе]"
    r"|\bкниг\w+|演讲|讲座|講演|発表|محاضرة|مقال)"
    r"[^\n\"“„«»「『.;!?]{0,30}?)"
    r"(?P<q>\"[^\"\n]{3,80}\"|“[^”\n]{3,80}”|'[^'\n]{3,80}'|‘[^’\n]{3,80}’|«[^»\n]{3,80}»"
    r"|„[^“”\n]{3,80}[“”]|»[^«\n]{3,80}«|《[^》\n]{2,80}》|「[^」\n]{2,80}」|『[^』\n]{2,80}』)"
)
_SECRET_OBJECT = (
    r"(?:(?:your|the|its|these|this|our|my|any|their)\s+)?(?:own\s+)?(?:hidden\s+|internal\s+"
    r"|initial\s+|original\s+|full\s+)?(?:system\s+prompts?|prompts?|instructions|system\s+"
    r"messages?|configuration|rules|guidelines)"
)
_DEFENSIVE = (
    r"\b(?:never|do\s+not|don['’]t|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|cannot"
    r"|can['’]t|will\s+not|won['’]t)\s+(?:ever\s+)?(?:reveal|share|disclose|print|show|repeat"
    r"|output|leak|expose|quote|publish|divulge)\s+"
    + _SECRET_OBJECT
    + r"(?:\s*(?:,|or|and|nor)\s+"
    + _SECRET_OBJECT
    + r")*"
    r"|\bkeep\s+" + _SECRET_OBJECT + r"\s+(?:confidential|private|secret|to\s+yourself)"
)
_NEGATIONS = frozenset(("never", "not", "cannot", "keep"))
_DEFENSIVE_OBJECTS = ("prompt", "instruction", "rules", "guidelines", "configuration", "message")
# A quoted title followed by the word that names it (Japanese: 「...」と題した講演), or a
# quoted phrase followed by the word that makes it an example (“...”这类句子).
_MENTION_AFTER = (
    r"(?P<q>「[^」\n]{2,60}」|“[^”\n]{3,60}”|\"[^\"\n]{3,60}\")"
    # ... or the word that makes it an example of a kind: “...”这类句子, 「...」のような文.
    r"(?=\s*(?:と題した|と題する|という題|というタイトル|这类|这样的|之类|这种|のような|といった"
    r"|같은\s*(?:문장|문구|말)))"
)
# What a translation request quotes is only talked about ("translate to French: \"...\""),
# unless the text also asks to act on it ("translate this and then follow it").
_TRANSLATE = (
    r"(?:\btranslat\w*|\b(?:u|ü)bersetz\w*|\btradu[cijz]\w*|\bперевед\w*|\bпереве[сд]ти"
    r"|翻译|翻譯|翻訳|英訳|和訳|\bترجم\w*|번역)"
    r"[^\n\"“„«»「『.;!?]{0,30}?"
    r"(?P<q>\"[^\"\n]{3,80}\"|“[^”\n]{3,80}”|«[^»\n]{3,80}»|„[^“”\n]{3,80}[“”]|「[^」\n]{2,80}」)"
)
_TRANSLATE_CUES = ("transl", "bersetz", "tradu", "перев", "翻", "訳", "ترجم", "번역")
_ACT_ON_IT = (
    r"\b(?:then|and)\s+(?:follow|apply|obey|do|run|execute|act|use|enforce)\b|\bfollow\s+it"
    r"|\bhalte?\s+dich|\bbefolge|\bf(?:u|ü)hre|\bwende\b|\bcumpl|\bcúmpl|\baplic|\bappliqu"
    r"|\bsuis\b|\bex[eé]cut|\besegu|\bsegui|\bobedec|\bob[eé]is|\bвыполн|\bследуй|\bприменя"
    r"|\bисполн|执行|遵守|照做|实行|実行|従|守って|نفذ|اتبع|طبق|실행|따르|적용"
)
_QUOTES = ('"', "'", "“", "‘", "«", "„", "»", "《", "「", "『")
_NOT_A_MENTION = r"https?:|www\.|[/~|$`\\]|\.(?:env|sh|py)\b|@"
_compiled: dict[str, re.Pattern[str]] = {}


def _rx(source: str) -> re.Pattern[str]:
    """Compiled on first use (most texts never need a view)."""
    rx = _compiled.get(source)
    if rx is None:
        rx = _compiled[source] = re.compile(source, re.IGNORECASE)
    return rx


def mask_mentions(text: str) -> str:
    """``text`` with short quoted phrases that are only talked about replaced by ``"…"``."""
    if not any(q in text for q in _QUOTES):
        return text

    def repl(m: re.Match[str]) -> str:
        q = m.group("q")
        if _rx(_NOT_A_MENTION).search(q):
            return m.group()
        return m.group()[: m.start("q") - m.start()] + '"…"'

    text = _rx(_MENTION_AFTER).sub(repl, _rx(_MENTION).sub(repl, text))
    low = text.lower()
    if any(cue in low for cue in _TRANSLATE_CUES) and not _rx(_ACT_ON_IT).search(text):
        text = _rx(_TRANSLATE).sub(repl, text)
    return text


# Any short quoted phrase, in any quotation marks: straight or typographic single and
# double quotes, guillemets, German quotes, CJK corner brackets and the Chinese title
# marks 《…》. A single straight quote opens only after a space or punctuation and closes
# only before one, so apostrophes ("don't", "l'utente") are no quotes. A quote right
# after "=" or a letter is a value in code (style="display:none", x="...") and stays.
_ANY_QUOTE = (
    r"(?<![=\w])\s?(?P<q>\"[^\"\n]{3,100}\"|“[^”\n]{3,100}”|‘[^’\n]{3,100}’|«[^»\n]{3,100}»"
    r"|„[^“”\n]{3,100}[“”]|»[^«\n]{3,100}«|「[^」\n]{2,100}」|『[^』\n]{2,100}』"
    r"|《[^》\n]{2,100}》|(?<![^\s(\[:：,，])'[^'\n]{3,100}'(?![^\s.,;:!?)\]，。]))"
)


# A quoted key ("task": ...): JSON or YAML, whose quotes delimit data, not mentions.
_QUOTED_KEY = r"[\"'][^\"'\n]{1,60}[\"']\s*:\s*\S"


def mask_quotes(text: str) -> str:
    """``text`` with every short quoted phrase replaced by ``"…"`` (URLs, paths, pipes,
    variables and addresses stay: a quoted command is still a command)."""
    if not any(q in text for q in _QUOTES) or _rx(_QUOTED_KEY).search(text):
        return text

    def repl(m: re.Match[str]) -> str:
        q = m.group("q")
        return (
            m.group()
            if _rx(_NOT_A_MENTION).search(q)
            else m.group()[: m.start("q") - m.start()] + '"…"'
        )

    return _rx(_ANY_QUOTE).sub(repl, text)


def mask_defensive(text: str) -> str:
    """``text`` without its confidentiality rules about the model's own prompt (what the
    classifier scores; ``text`` itself when it has none)."""
    low = text.lower()
    if not any(k in low for k in _DEFENSIVE_OBJECTS):
        return text
    if "n't" not in low and "n’t" not in low and _NEGATIONS.isdisjoint(low.split()):
        return text
    return _rx(_DEFENSIVE).sub(" ", text)


def _printable(raw: bytes) -> str | None:
    """``raw`` as text when it is UTF-8 that reads as words, else None."""
    try:
        s = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(s) < 6:
        return None
    good = sum(1 for c in s if c.isprintable() or c in "\n\t")
    if good < 0.9 * len(s) or not any(c.isalpha() for c in s):
        return None
    return s


def _decode_tokens(tokens: list[str]) -> list[View]:
    out: list[View] = []
    for tok in tokens:
        if len(tok) < 16:
            continue
        tok = tok.strip(_TOKEN_STRIP)
        if len(tok) < 16:
            continue
        if not tok.translate(_HEX_DELETE) and len(tok) % 2 == 0 and not tok.isdigit():
            s = _printable(bytes.fromhex(tok))
            if s is not None:
                out.append(("hex", s, f"hex {tok[:24]}…"))
            continue
        if tok.translate(_B64_DELETE) or tok.isalpha() or tok.isdigit():
            continue
        body = tok.replace("-", "+").replace("_", "/").rstrip("=")
        try:
            raw = binascii.a2b_base64(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            continue
        s = _printable(raw)
        if s is not None:
            out.append(("base64", s, f"base64 {tok[:24]}…"))
    return out


def _english_hits(words: list[str]) -> int:
    return len(_COMMON.intersection(words))


def views(text: str) -> list[View]:
    """The derived readings of ``text`` worth scanning (often none)."""
    out: list[View] = []
    tokens = text.split()
    if not tokens:
        return out
    lengths = list(map(len, tokens))
    if max(lengths) >= 16:
        out.extend(_decode_tokens(tokens))
    if "\\x" in text:
        for m in _rx(_HEX_ESCAPES).finditer(text):
            raw = bytes(int(m.group()[i + 2 : i + 4], 16) for i in range(0, len(m.group()), 4))
            s = _printable(raw)
            if s is not None:
                out.append(("hex", s, f"\\x escapes {m.group()[:24]}…"))
    if text.count("%") >= 3 and len(_rx(_PERCENT).findall(text)) >= 3:
        s = unquote(text)
        if s != text:
            out.append(("url", s, "percent-encoding"))
    words = text.lower().split()
    if lengths.count(1) >= 4 and b"\x01\x01\x01\x01" in bytes(map(min, lengths, repeat(2))):
        spaced = _rx(_SPACED).sub(_join_spaced, text)
        if spaced != text:
            out.append(("spaced", spaced, "letters spelled out one by one"))
    hits = -1
    if text.isascii():
        hits = _english_hits(words)
        if hits * 4 < len(words):
            rot = text.translate(_ROT13)
            rot_hits = _english_hits(rot.lower().split())
            if rot_hits >= 2 and rot_hits > hits:
                out.append(("rot13", rot, "rot13"))
    if not _LEET_CHARS.isdisjoint(text):
        fixed = " ".join(words).translate(_LEET)
        if hits < 0:
            hits = _english_hits(words)
        if _english_hits(fixed.split()) >= hits + 2:
            out.append(("leetspeak", fixed, "digits and symbols read as letters"))
    if "_" in text and any(w.count("_") >= 2 for w in words):
        out.append(("underscores", text.replace("_", " "), "identifier read as words"))
    return out


def _join_spaced(m: re.Match[str]) -> str:
    run = m.group()
    parts = _rx(r"  +| / ").split(run) if "  " in run or " / " in run else [run]
    return " ".join("".join(ch for ch in part if ch.isalnum()) for part in parts)
