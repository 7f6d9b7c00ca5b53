"""One reader of a letter's script (:func:`mnemic.unicode_script.script`) for session
search and tidy, in place of three copies: each caller's answer is the copy's, for every
code point (the pair model's feature above all: the shipped tidy model reads it)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from mnemic.ops.tidy.languages import scripts_of
from mnemic.ops.tidy.pairmodel import _script
from mnemic.sessions.search.speaker import scripts
from mnemic.unicode_script import UNNAMED, script


def _every() -> Iterator[str]:
    """Every code point, one at a time (a list of the 1.1 million, made at import, was
    made by each worker's collection: 0.1 s of CPU and 98 MB kept, session 55)."""
    return map(chr, range(0x110000))


# The three copies as they were, kept here to compare against.
def _old_pair_script(text: str) -> str:
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            return name.split(" ", 1)[0] if name else "OTHER"
    return "NONE"


_OLD_LETTERS = re.compile(r"[^\W\d_]+")
_OLD_ONE_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}


def _old_tidy_scripts(text: str) -> frozenset[str]:
    out = set()
    for word in _OLD_LETTERS.findall(text):
        name = unicodedata.name(word[0], "OTHER").split(" ", 1)[0]
        out.add(_OLD_ONE_SCRIPT.get(name, name))
    return frozenset(out)


def _old_speaker_scripts(text: str) -> set[str]:
    return {unicodedata.name(ch, "?").split(" ", 1)[0] for ch in text if ch.isalpha()}


def test_a_letter_s_script_is_the_first_word_of_its_name() -> None:
    assert [script(c) for c in "aЖ中あ"] == ["LATIN", "CYRILLIC", "CJK", "HIRAGANA"]
    assert script("\ue000") == UNNAMED  # private use: no name


def test_the_pair_model_s_script_feature_is_the_same_for_every_code_point() -> None:
    differ = [c for c in _every() if _script(c) != _old_pair_script(c)]
    assert differ == []
    # the first letter decides, whatever comes before or after it
    for text in ("", "123 !", "12 Привет abc", "— 中文 and English", "\ue000x"):
        assert _script(text) == _old_pair_script(text)


def test_tidy_s_scripts_are_the_same_for_every_code_point() -> None:
    assert [c for c in _every() if scripts_of(c) != _old_tidy_scripts(c)] == []
    for text in ("User is allergic to 花生", "ユーザーは東京に住む", "Ⅻ and ²x", ""):
        assert scripts_of(text) == _old_tidy_scripts(text)


def test_search_s_scripts_differ_only_in_the_unnamed_letter_s_label() -> None:
    # The copy called a letter with no name (this Python names no Tangut ideograph) "?",
    # the shared reader "OTHER"; no named letter's script is either, so every comparison
    # of two texts' scripts (all that search does with them) answers the same.
    def relabel(found: set[str]) -> set[str]:
        return {UNNAMED if s == "?" else s for s in found}

    assert [c for c in _every() if scripts(c) != relabel(_old_speaker_scripts(c))] == []
    named = {unicodedata.name(c, "").split(" ", 1)[0] for c in _every()}
    assert not named & {"?", UNNAMED}
    assert scripts("Nate 内特, 2022!") == _old_speaker_scripts("Nate 内特, 2022!")
