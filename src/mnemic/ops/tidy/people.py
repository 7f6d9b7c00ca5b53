"""Which relatives an entry names: two entries about two relatives are two facts.

"The user's father is allergic to nuts" and "the user's son is allergic to nuts" differ in
one word, and the word lists read "son" as a function word (Spanish "they are", French
"his"); "mother" and "mother-in-law" differ in a word the content words barely weigh. So
tidy reads the relatives an entry names apart, by whole word (a hyphenated word whole:
"mother-in-law", "grand-mère", "belle-mère"), in the languages the word lists cover and in
Russian, Polish and Turkish; Chinese and Japanese by their characters, Korean by the stem
of each word (its particle cut off: "아들이", not "딸기"). :func:`other_relatives` is a
veto: when both entries name relatives and not the same ones, no verdict joins them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .hangul import hangul_stem

__all__ = ["other_relatives", "relatives"]


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_KIN = frozenset(
    _listed(
        """
    father mother dad mum mom son sons daughter daughters brother brothers sister sisters
    wife husband aunt uncle niece nephew cousin grandfather grandmother grandma grandpa
    grandson granddaughter stepfather stepmother stepson stepdaughter father-in-law
    mother-in-law son-in-law daughter-in-law brother-in-law sister-in-law
    vater mutter sohn tochter bruder schwester ehefrau ehemann tante onkel nichte neffe
    cousine großvater großmutter oma opa enkel enkelin schwiegermutter schwiegervater
    schwiegersohn schwiegertochter
    padre madre hijo hija hermano hermana esposa esposo marido tía tío sobrino sobrina
    abuelo abuela nieto nieta suegra suegro mamá papá
    père mère fils fille frère sœur soeur épouse époux mari oncle nièce neveu grand-père
    grand-mère belle-mère beau-père belle-fille beau-fils belle-sœur beau-frère
    pai mãe filho filha irmão irmã tia tio sobrinho sobrinha avô avó sogra sogro
    figlio figlia fratello sorella moglie marito zia zio nipote cugino cugina nonno nonna
    suocera suocero
    vader moeder zoon dochter broer zus oom neef schoonmoeder schoonvader
    отец отца мать матери сын сына сыновей сыновья дочь дочери брат брата сестра сестры
    жена мужа муж тётя тетя дядя племянник племянница бабушка дедушка свекровь тёща тесть
    ojciec matka syn córka brat siostra żona mąż ciocia wujek babcia dziadek teściowa teść
    """
    )
)
_TURKISH = ("baba", "anne", "oğl", "oğul", "amca", "dayı", "teyze", "dede", "yeğen")
"""Turkish relatives by their start (possessive endings follow: "babası", "amcası")."""
_TURKISH_ENDINGS = frozenset(
    [
        "",
        *_listed(
            "m n i ı u ü im ım um üm in ın un ün si sı su sü mız miz muz müz nız niz "
            "ları leri sini sını sinin sının siyle sıyla"
        ),
    ]
)
"""The possessive and case endings a Turkish relative takes ("baba*sı*", "oğl*u*",
"dayı*m*"): "annex" and "annealing" are no mother."""
_HAN = _listed(
    "父亲 母亲 爸爸 妈妈 儿子 女儿 哥哥 弟弟 姐姐 妹妹 妻子 丈夫 老公 老婆 爷爷 奶奶 外公 外婆 "
    "叔叔 阿姨 侄子 侄女 婆婆 岳母 岳父 父 母 息子 娘 兄 姉 祖父 祖母 夫 妻"
)
_HANGUL = _listed(
    "아버지 어머니 아빠 엄마 아들 딸 형 누나 오빠 언니 남동생 여동생 아내 남편 삼촌 이모 고모 "
    "할머니 할아버지 조카 시어머니 장모"
)
_TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_HAN_CHAR = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_HANGUL_CHAR = re.compile(r"[\uac00-\ud7af]")


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def relatives(text: str) -> frozenset[str]:
    """The relatives ``text`` names, folded ("mother-in-law", "сын", "父亲", "babası")."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    out: set[str] = set()
    for token in _TOKEN.findall(folded):
        token = token.split("'")[-1]
        if token in _KIN:
            out.add(token)
        elif _HANGUL_CHAR.match(token) and hangul_stem(token) in _HANGUL:
            out.add(hangul_stem(token))
        elif token.startswith(_TURKISH):
            out |= {
                k for k in _TURKISH if token[len(k) :] in _TURKISH_ENDINGS and token[: len(k)] == k
            }
    rest = folded
    for word in sorted(_HAN, key=len, reverse=True):  # 父亲 before 父
        if word in rest:
            out.add(word)
            rest = rest.replace(word, " ")
    return frozenset(out)


def other_relatives(a: str, b: str) -> bool:
    """Whether entries ``a`` and ``b`` both name relatives, and not the same ones."""
    ra, rb = relatives(a), relatives(b)
    return bool(ra and rb and ra != rb)
