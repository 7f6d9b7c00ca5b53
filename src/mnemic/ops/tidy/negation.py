"""The words and endings that negate an entry, language by language.

Every language says "not" with a closed class of forms: a particle before the verb or the
noun ("not", "nicht", "не", "غير", "नहीं", "không"), a word of none ("no", "kein",
"yok", "немає", "없다"), a verb of stopping ("stopped", "dejó de", "やめた"), or an
ending of the verb itself (Turkish "iç*miyor*", "gel*medi*"; Japanese "吸わ*ない*",
"行か*ず*"). Tidy reads each of them as one mark: an entry that holds one says a fact
does not (or no longer) hold, so beside the same words without it the pair is a
contradiction, never a duplicate (:mod:`.detect`).

Latin and Cyrillic forms are matched as whole words. Arabic, Devanagari and Hangul
forms are matched between letters of their own script (an Arabic or Devanagari word is
not a ``\\w`` run: its vowel signs are marks), Chinese and Japanese forms where they
stand, with the few words that hold one without negating anything left out ("少ない",
"必ず", "không khí": air, Turkish "komedi", "Yılmaz").
"""

from __future__ import annotations

import re

from .slots import CJK_LETTER

__all__ = ["BY_LANGUAGE", "NEGATION", "inflected"]


def _words(*forms: str) -> str:
    """Forms matched as whole words (a ``\\b`` on each side)."""
    return r"\b(?:" + "|".join(forms) + r")\b"


def _between(letters: str, *forms: str) -> str:
    """Forms matched with no letter of ``letters`` (a character class) on either side."""
    return rf"(?<![{letters}])(?:" + "|".join(forms) + rf")(?![{letters}])"


_ARABIC = r"\u0600-\u06ff"
_DEVANAGARI = r"\u0900-\u097f"
_HANGUL = r"\uac00-\ud7af"

# Turkish: a verb negated by -me/-ma before its tense ("içmiyor", "sevmez", "gitmedi",
# "gelmemiş", "gelmeyecek", "içmeyen", "yemez"), after a stem of two letters or more;
# not the few words that end so without being verbs ("komedi", "namaz", "Yılmaz", the
# surname "Gomez"), nor a word with a letter Turkish does not write ("Gómez", "Jiménez")
_TR = "a-zçğıöşüâîû"
_TURKISH_VERB = (
    rf"\b(?!(?:komedi|namaz|yılmaz|gomez)\b)[{_TR}]{{2,}}?"
    rf"m(?:[ıiuü]yor|amış|emiş|ayacak|eyecek|ayan|eyen|amalı|emeli|az|ez|adı|edi)[{_TR}]*\b"
)

BY_LANGUAGE: dict[str, str] = {
    "en": _words(
        "not",
        "no",
        "never",
        "none",
        "nobody",
        "nothing",
        "neither",
        "nor",
        "without",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "won't",
        "can't",
        "cannot",
        "shouldn't",
        "stopped",
        "quit",
        "dislikes?",
        "hates?",
        "avoids?",
        "gave up",
        "cancell?ed",
        "removed",
        "dropped",
    ),
    "de": _words(
        "nicht",
        "kein",
        "keine",
        "keinen",
        "keinem",
        "keiner",
        "nie",
        "niemals",
        "nichts",
        "ohne",
        "aufgehört",
        "abgesagt",
        "eingestellt",
        "verzichtet",
        "verzichten",
        "verzichte",
        "entfernt",
    ),
    "es": _words(
        "dejó de",
        "dejado de",
        "deja de",
        "evita",
        "cancelado",
        "cancelada",
        "nunca",
        "jamás",
        "ningún",
        "ninguna",
        "ninguno",
        "sin",
        "tampoco",
    ),
    "fr": _words(
        "ne",
        "n'",
        "pas",
        "jamais",
        "aucun",
        "aucune",
        "sans",
        "évite",
        "arrêté",
        "arrêtée",
        "annulé",
        "annulée",
        "supprimé",
        "supprimée",
    ),
    "pt": _words("não", "nem", "nenhum", "nenhuma", "deixou de", "cancelou"),
    "it": _words(
        "non",
        "nessun",
        "nessuno",
        "nessuna",
        "senza",
        "smesso",
        "smesso di",
        "rimosso",
        "rimossa",
    ),
    "nl": _words("niet", "geen", "nooit", "zonder", "gestopt", "opgezegd", "vermijdt"),
    "sv": _words("inte", "ej", "aldrig", "ingen", "inget", "inga", "utan", "ikke"),
    "ru": _words(
        "не",
        "нет",
        "ни",
        "никогда",
        "никто",
        "ничего",
        "нельзя",
        "без",
        "перестал",
        "перестала",  # stopped (not "бросил": also "threw")
    ),
    "uk": _words(
        "ні",
        "немає",
        "нема",
        "ніколи",
        "ніхто",
        "нічого",
        "перестав",
        "перестала",  # stopped (not "кинув": also "threw")
    ),
    "pl": _words("nie", "nigdy", "bez", "żaden", "żadna", "żadne"),
    "tr": _words("değil", "hiç", "yok", "asla") + "|" + _TURKISH_VERB,
    "ar": _between(
        _ARABIC, "[وف]?(?:غير|لا|ليس|ليست|لست|لسنا|ليسوا|لم|لن|بدون)", "ما عاد", "توقف عن"
    ),
    "hi": _between(_DEVANAGARI, "नहीं", "नही", "न", "मत", "बिना"),
    # vi, also typed without its marks ("khong"); not "không khí" (air), "không gian"
    "vi": _words(
        r"kh[oô]ng(?! (?:kh[ií]|gian|qu[aâ]n|ph[aậ]n|nh[uữ]ng)\b)", "chưa", "chẳng", "đừng"
    ),
    "zh": "[不没沒勿]|停止|取消|戒了|戒掉",
    # ja: "ない" but in "少ない" (few); "ず" after a verb's stem ("行かず", "食べず"), not
    # "必ず" (surely) nor "まず" (first); "せず", "なし", "ません"
    "ja": (
        r"やめた|(?<!少)ない|ません|(?<![\u3040-\u309f])(?:せず|なし|無し)"
        r"|(?<=[\u4e00-\u9fff])[かがさざただなばぱまらわべめれけせてねえげぜで]ず(?!つ)"
    ),
    # ko: "하지 않는다", "안 먹는다", "없다", "아니다"
    "ko": (
        rf"않[{_HANGUL}]*|(?<![{_HANGUL}])(?:안|못)(?=\s)|그만뒀|끊었"
        rf"|없[{_HANGUL}]*|(?<![{_HANGUL}])(?:아니|아닌|아닙)[{_HANGUL}]*"
    ),
}
"""Each language's negating forms, as a pattern."""

NEGATION = re.compile("|".join(BY_LANGUAGE.values()), re.IGNORECASE)
"""Words that negate an entry, in any of :data:`BY_LANGUAGE` ("not", "no longer" once
read as "not", "dejó de", "n'", "geen", "inte", "не", "немає", "yok", "içmiyor", "غير",
"नहीं", "không", "不", "ない", "없다"): it says a fact does not, or no longer, hold."""


def inflected(x: str, y: str) -> bool:
    """Whether content words ``x`` and ``y`` (stems) are one word with another ending, as
    a negation inflects its object: the Slavic genitive of negation ("є *дача*" /
    "немає *дачі*", "стоїть *газове*" / "немає *газового*", "ma *auto*" / "nie ma
    *auta*"). Both of four letters or more, the same but for their last two at most."""
    if x == y or min(len(x), len(y)) < 4 or CJK_LETTER.search(x) or CJK_LETTER.search(y):
        return False
    same = next(
        (k for k, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y))
    )
    return same >= 3 and len(x) - same <= 2 and len(y) - same <= 2
