"""Korean words for tidy: a word written in Hangul is read by its stem.

Korean writes spaces between words and ties its particles to them ("사용자*는*",
"부산*에*", "회사*에서*"), so reading Hangul in character pairs as Chinese is read (the
way :mod:`.signals` read it before) makes "부산에" and "서울에" share "에" and "사용자는" a
content word. :func:`hangul_stem` cuts one particle or one common verb ending off a word, the
longest that leaves a stem, and drops the function words: "사용자는" is the user (the
generic subject), "싫어한다" and "싫어해요" are one verb, "관리한다" and "관리된다" one
action. Stems are not lemmas: "산다" (lives) stays as written; two wordings of one fact
still meet on their nouns.
"""

from __future__ import annotations

import re

__all__ = ["HANGUL", "USER", "hangul_stem"]

HANGUL = re.compile(r"[\uac00-\ud7af]+")
"""A word written in Hangul syllables."""
USER = "사용자"
"""The user, Korean: the generic subject."""


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_ENDINGS = sorted(
    _listed(
        # verb and copula endings, polite and plain: "싫어*한다*", "싫어*해요*", "관리*된다*"
        "합니다 했습니다 입니다 이에요 예요 한다 된다 했다 됐다 해요 하다 되다 하는 하고 "
        "이다 였다 이었다 는다 중이다 하지 지 "
        # particles: topic, subject, object, place, direction, possession, "also", "only"
        "에서는 에게서 으로는 으로서 으로써 에서 에게 한테 으로 부터 까지 처럼 보다 이나 에는 "
        "은 는 이 가 을 를 에 의 로 도 만 와 과 랑"
    ),
    key=len,
    reverse=True,
)
_STOP = frozenset(_listed("있다 있는 없다 없는 하다 한다 되다 것 수 때 중 및 등 또는 그리고"))


def hangul_stem(word: str) -> str:
    """The stem of the Hangul ``word`` (one particle or verb ending cut off, if a stem
    of a syllable or more is left), :data:`USER` for the user, "" for a function word."""
    if word in _STOP:
        return ""
    if word.startswith(USER):
        return USER
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) > len(ending):
            word = word[: -len(ending)]
            break
    return "" if word in _STOP else word
