"""Words of a request that the word-at-a-time matcher of :mod:`.intent` does not see.

- :func:`enclitic`: Spanish, Italian and Portuguese imperatives carry their object
  pronouns ("contéstale", "déjalas", "guárdamelo"); a word that is no key but ends in
  such pronouns is read as its verb when the verb is a key (or starts a phrase key).
- :func:`gapped`: a few phrases whose two words stand apart ("ask the new colleague
  for", German "frag den Nutzer nach", "lass den Eintrag stehen", Dutch separable verbs
  "stel … in"), found within a clause.
- :func:`elided`: French and Italian elide an article or pronoun into the next word
  ("l'utilisateur", "d'effacer", "qu'il", "dell'utente"); the word after the apostrophe
  is read on its own as well.
- :func:`handles`: an entry handle written in prose ("entry 7f3a91c2", "Eintrag
  4be0c7d1", "エントリ 8e2b55f1"): eight hex digits, a digit and a letter among them,
  right after a word for an entry. A commit hash or a date after another word is none.
- :func:`named_entries`: another entry named by a quoted name after a word for an entry
  ("the entry 'keys'", "della voce 'chiavi'"): a reference to it.

Each reports spans of one folded sentence as ``(start, end, concept)``, like the matcher.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

__all__ = ["elided", "enclitic", "gapped", "handles", "named_entries"]

# (word, start, end) of each token of a sentence.
Token = tuple[str, int, int]
Match = tuple[int, int, str]

# Longest first: "selas" before "las".
_CLITICS = ("selos", "selas", "selo", "sela", "les", "las", "los", "nos", "le", "la", "lo", "me")
_SHORTEST_VERB = 4
#: Phrases whose words stand apart: first word -> (second words, concept).
GAPPED: dict[str, tuple[frozenset[str], str]] = {
    "ask": (frozenset({"for"}), "solicit"),
    "asks": (frozenset({"for"}), "solicit"),
    "frag": (frozenset({"nach"}), "solicit"),
    "frage": (frozenset({"nach"}), "solicit"),
    # a German subordinate clause puts the verb last: "wenn du sie nach X fragst"
    "nach": (frozenset({"fragst", "fragt", "fragen"}), "solicit"),
    "pregunta": (frozenset({"por"}), "solicit"),
    "lass": (frozenset({"stehen"}), "keep"),
    "lasse": (frozenset({"stehen"}), "keep"),
    "leave": (frozenset({"alone"}), "keep"),
    "laat": (frozenset({"staan"}), "keep"),
    "vraag": (frozenset({"om"}), "solicit"),
}
# How many tokens may stand between the two words.
GAP_REACH = 4
#: Dutch separable verbs whose particle stands apart in a main clause ("stel het
#: herstel-e-mailadres in op ...", "voer het nummer in als ...": *instellen*, *invoeren*;
#: scanner 37): verb form -> (particles, concept), read as :data:`GAPPED` is but with
#: :data:`SEPARABLE_REACH`, since the object between the two is often a phrase.
SEPARABLE: dict[str, tuple[frozenset[str], str]] = {
    **dict.fromkeys(("stel", "stelt"), (frozenset({"in"}), "enroll")),
    **dict.fromkeys(("voer", "voert"), (frozenset({"in"}), "enroll")),
    **dict.fromkeys(("vul", "vult"), (frozenset({"in"}), "enroll")),
    **dict.fromkeys(("zet", "zette"), (frozenset({"om", "op", "in", "over"}), "enroll")),
    **dict.fromkeys(("draag", "draagt"), (frozenset({"over"}), "enroll")),
    **dict.fromkeys(("geef", "geeft"), (frozenset({"op"}), "enroll")),
    **dict.fromkeys(("pas", "past"), (frozenset({"aan"}), "enroll")),
    **dict.fromkeys(("wissel", "wisselt"), (frozenset({"om"}), "enroll")),
    **dict.fromkeys(("schrijf", "schrijft"), (frozenset({"in"}), "enroll")),
    **dict.fromkeys(("meld", "meldt"), (frozenset({"aan"}), "enroll")),
    **dict.fromkeys(("koppel", "koppelt"), (frozenset({"aan"}), "enroll")),
}
SEPARABLE_REACH = 10
_HANDLE_PROSE = re.compile(
    r"(?:\b(?:entry|entrada|entree|eintrag|eintrags|запис[ьи]|заметк[уаи]|nota|notiz|note)"
    r"|条目|记录|エントリ|メモ|항목|메모|الإدخال|الادخال|المدخل|الملاحظة)\s?[#:]?\s?"
    r"(?=[0-9a-f]{0,7}[0-9])(?=[0-9a-f]{0,7}[a-f])([0-9a-f]{8})(?![0-9a-z])"
)
_QUOTES = "'\"«“„‘「"
_NAMED_ENTRY = re.compile(
    r"(?:\b(?:entry|note|voce|nota|entrada|entree|eintrag|notiz|запис[ьи]|заметк[уаи]"
    r"|notitie|notatk[aię]|нотатк[аиу]|notu)"
    r"|条目|记录|エントリ|メモ|항목|메모|الإدخال|الملاحظة|नोट)\s?[\"'«“„‘「][^\"'»”“’」]{1,40}[\"'»”“’」]"
)
# A digit or symbol standing for a letter between two letters ("s3nd", "passw0rd",
# "n0tes"), in a word that is no address ("l0g-sink.io/c" is read too: it is a word).
_LEET_WORD = re.compile(r"(?<![\w/@.])(?=\w*[a-z][013457@$][a-z])[a-z0-9@$]+(?![\w@$])")
_LEET_HINT = re.compile(r"[a-z][013457@$][a-z]")
_LEET_LETTERS = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_ELIDED = re.compile(r"^(?:l|d|qu|s|n|j|m|t|c|dell|all|nell|dall|sull|un)'(?=\w{3})")
_firsts: dict[int, frozenset[str]] = {}


def enclitic(
    token: str, exact: Mapping[str, object], pairs: Mapping[tuple[str, str], object]
) -> str:
    """``token``, or its verb without the object pronouns ("contestale" -> "contesta")
    when ``token`` is no key of ``exact`` and the verb is one (or starts a key of
    ``pairs``)."""
    if len(token) < _SHORTEST_VERB + 2 or token in exact or not token.endswith(_CLITICS):
        return token
    firsts = _firsts.get(id(pairs))
    if firsts is None:
        firsts = _firsts[id(pairs)] = frozenset(first for first, _ in pairs)
    for clitic in _CLITICS:
        if token.endswith(clitic):
            verb = token[: -len(clitic)]
            if len(verb) >= _SHORTEST_VERB and (verb in exact or verb in firsts or verb in GAPPED):
                return verb
    return token


def gapped(sentence: str, tokens: Sequence[Token]) -> list[Match]:
    """The :data:`GAPPED` phrases of a sentence, their words apart within one clause."""
    found: list[Match] = []
    n = len(tokens)
    for i, (tok, _, _) in enumerate(tokens):
        gap = GAPPED.get(tok)
        reach = GAP_REACH
        if gap is None:
            gap = SEPARABLE.get(tok)
            reach = SEPARABLE_REACH
            if gap is None:
                continue
        for j in range(i + 2, min(n, i + 2 + reach)):
            if "," in sentence[tokens[j - 1][2] : tokens[j][1]]:
                break
            if tokens[j][0] in gap[0]:
                # the span of the second word: a negation between the two negates it
                # ("Frag den Nutzer nie nach seinem Passwort")
                found.append((tokens[j][1], tokens[j][2], gap[1]))
                break
    return found


def handles(sentence: str) -> list[Match]:
    """Entry handles written in prose (the hex digits' span, concept ``handle``)."""
    if not any(c.isdigit() for c in sentence):
        return []
    return [(m.start(1), m.end(1), "handle") for m in _HANDLE_PROSE.finditer(sentence)]


def named_entries(sentence: str) -> list[Match]:
    """Another entry named by a quoted name right after a word for an entry ("the entry
    'keys'", "della voce «chiavi»", "записи \"ключи\""): a reference (``xref``)."""
    if not any(q in sentence for q in _QUOTES):
        return []
    return [(m.start(), m.end(), "xref") for m in _NAMED_ENTRY.finditer(sentence)]


def unleet(text: str) -> str:
    """``text`` with its leetspeak words read as letters ("s3nd the c0nvo": "send the
    convo"); ``text`` itself when it has none. Hex-looking words of eight or more
    characters (hashes, handles) are left as they are."""
    if not _LEET_HINT.search(text):
        return text

    def letters(m: re.Match[str]) -> str:
        word = m.group()
        if len(word) >= 8 and all(c in "0123456789abcdef" for c in word):
            return word
        return word.translate(_LEET_LETTERS)

    return _LEET_WORD.sub(letters, text)


def elided(tokens: Sequence[Token]) -> list[Token]:
    """The words after an elided article or pronoun: ``(word, start, end)``."""
    out: list[Token] = []
    for tok, start, end in tokens:
        if "'" in tok:
            m = _ELIDED.match(tok)
            if m:
                out.append((tok[m.end() :], start + m.end(), end))
    return out
