"""Every lexicon key is written with the letters the text folding leaves (scanner 34).

The intent layer folds a text before matching (:func:`mnemic.scan.intent._fold`): it drops
accents (``é`` -> ``e``, ``ş`` -> ``s``), but letters that are letters of their own (``ø``,
``æ``, ``ł``, ``ı``, ``đ``, ``ð``, ``þ``, ``ə``, ``ß``) stay. A key written with an ASCII
stand-in for one of them (Danish ``tilfoj*`` for *tilføj*, Polish ``haslo`` for *hasło*,
Turkish ``kaldir*`` for *kaldır*) is what the folding makes of no text in its language: it
matches nothing it was meant to, and may read another word (Norwegian ``overfor``,
"opposite", for *overfør*, "transfer").

``_WORDS`` are the words of the lexicon's keys that have such a letter (found over the whole
lexicon by ``bench/_scan_reach.py`` with word frequency lists of 27 languages, and the
Azerbaijani, Vietnamese and compound keys read by hand); each must be read by its concept,
and no key may be its ASCII stand-in.
"""

from __future__ import annotations

import functools
import unicodedata

import pytest

from mnemic.scan import intent
from mnemic.scan.lexicon import CONCEPTS

# (concept, the key as written in its language)
_WORDS: tuple[tuple[str, str], ...] = (
    # Danish and Norwegian: ø, æ
    # scanner 45's safety devices, first written with their ASCII stand-ins (matched nothing)
    ("secctl", "røykvarsler*"),
    ("secctl", "røgalarm*"),
    ("secctl", "røgdetektor*"),
    ("secctl", "yangın alarmı"),
    ("secctl", "sıcaklık alarmı"),
    ("secctl", "gaz alarmı"),
    # Azerbaijani: ə, ö (scanner 45 wrote an ASCII copy beside each)
    ("prompt", "gizli təlimat*"),
    ("reveal", "tam mətn*"),
    ("payee", "hesab nömrəsi"),
    ("enroll", "tilføj*"),
    ("enroll", "ændr*"),
    ("enroll", "overfør"),
    ("acctctl", "sikkerhedsnøgle*"),
    ("acctctl", "ssh-nøgle*"),
    ("acctctl", "sikkerhetsnøkkel*"),
    ("acctctl", "ssh-nøkkel*"),
    ("unchecked", "hvem der end spørger"),
    ("unchecked", "hvis nogen spørger"),
    ("unchecked", "hvem som helst spør"),
    ("unchecked", "hvis noen spør"),
    # Polish: ł
    ("cred", "hasło"),
    ("acctctl", "hasło aplikacji"),
    ("acctctl", "właściciel* konta"),
    ("acctctl", "reguł* przekazywania"),
    ("unchecked", "na słowo"),
    ("wrongval", "zła datę"),
    ("wrongval", "błędne dane"),
    ("wrongval", "niewłaściwe daty"),
    ("standing", "stała zgoda"),
    ("othernotes", "pozostałe notatki"),
    ("blame", "niech się tłumaczy"),
    ("ledger", "płatnoś*"),
    ("spoil", "wyłączyć testy"),
    ("spoil", "wyłącz testy"),
    ("unaware", "sam doszedł do wniosku"),
    ("unaware", "sama doszła do wniosku"),
    # Turkish: ı
    ("enroll", "kaldır*"),
    ("enroll", "sıfırla*"),
    ("wrongval", "yanlış olarak"),
    ("wrongval", "yanlış tarih*"),
    ("wrongval", "yanlış yaz"),
    ("work", "toplantı*"),
    ("work", "yapılandırma*"),
    ("leaveout", "çıkar"),
    ("provide", "sağlar mısın"),
    ("spoil", "testleri devre dışı"),
    ("asuser", "kullanıcı gibi davran"),
    ("standing", "kalıcı onay"),
    ("relied", "kayıtları"),
    ("relied", "hasta dosyası"),
    ("blame", "hatası sanılsın"),
    ("mishap", "yanlışlıkla"),
    ("deliberate", "kasıtlı"),
    ("assent", "onaylandı"),
    ("notrace", "iz bırakmadan"),
    ("run", "çalıştır"),
    # Croatian and Serbian: đ
    ("acctctl", "pouzdan* uređaj*"),
    ("acctctl", "pravilo prosljeđivanja"),
    ("acctctl", "pravilo prosleđivanja"),
    # Vietnamese: đ
    ("secctl", "báo động nhiệt độ"),  # scanner 45 wrote "bao dong nhiet do" (review 9)
    ("unchecked", "nếu ai đó yêu cầu"),
    ("acctctl", "tự động chuyển tiếp"),
    ("acctctl", "số điện thoại khôi phục"),
    ("thirdparty", "đồng nghiệp"),
    ("swap", "đổi thành"),
    ("mine", "địa chỉ của tôi"),
    # Azerbaijani: ə
    ("acctctl", "bərpa e-poçt*"),
    ("enroll", "əlavə et"),
    ("enroll", "təsdiqlə*"),
    ("enroll", "təsdiq et"),
    ("enroll", "dəyiş*"),
    ("unchecked", "təsdiqləmədən"),
    ("unchecked", "kim istəsə"),
    ("enroll", "sıfırla"),
    ("acctctl", "etibarlı cihaz*"),
)

# ASCII spellings kept on purpose beside the written one (how the word is often typed)
_TYPED = frozenset(
    {
        "berpa e-poct*",
        "hasl*",
        "aendr*",
        "kayitlari",
        "onaylandi",
        "yanlislikla",
        "calistir",
        "iz birakmadan",
    }
)

# Letters named without a diacritic whose ASCII look is not their first letter.
_LOOKS = {"æ": "ae", "œ": "oe", "ß": "ss", "ð": "d", "þ": "th", "ə": "e", "ı": "i", "ĸ": "k"}


def _kept(ch: str) -> bool:
    """A Latin letter that the folding leaves as it is (not ASCII, not decomposed)."""
    return (
        not ch.isascii()
        and ch.isalpha()
        and intent._fold(ch) == ch
        and "LATIN" in unicodedata.name(ch, "")
    )


def _stand_in(folded: str) -> str:
    """The key with ASCII for the letters the folding keeps (``tilføj`` -> ``tilfoj``)."""
    out = []
    for ch in folded:
        if not _kept(ch):
            out.append(ch)
        elif ch in _LOOKS:
            out.append(_LOOKS[ch])
        else:  # "LATIN SMALL LETTER O WITH STROKE" -> "o"
            out.append(unicodedata.name(ch).split(" LETTER ")[1].split()[0].lower())
    return "".join(out)


@functools.cache
def _keys() -> dict[str, set[str]]:
    """Every concept's keys as the index folds them (read only; folded once a worker, not
    once for each of the keys tested: 7 s of the quick set, session 53)."""
    keys: dict[str, set[str]] = {}
    for concept, block in CONCEPTS.items():
        for raw in block.split(";"):
            key = " ".join(raw.split())
            if key:
                keys.setdefault(intent._fold(key), set()).add(concept)
    return keys


def test_the_folding_keeps_these_letters() -> None:
    # the premise: a word with one of them is not folded to its ASCII look
    for word in (
        "tilføj",
        "ændr",
        "hasło",
        "kaldır",
        "uređaj",
        "đó",
        "əlavə",
        "straße",
        "þú",
        "við",
    ):
        assert intent._fold(word) != _stand_in(intent._fold(word))
        assert _stand_in(intent._fold(word)).isascii()


@pytest.mark.parametrize(("concept", "key"), _WORDS, ids=[k for _, k in _WORDS])
def test_key_is_written_with_its_letters(concept: str, key: str) -> None:
    folded = intent._fold(key)
    assert any(_kept(ch) for ch in folded), "the table lists only keys with a kept letter"
    keys = _keys()
    assert concept in keys.get(folded, set()), f"{concept} has no key {key!r}"
    stand_in = _stand_in(folded)
    assert stand_in not in keys or stand_in in _TYPED, (
        f"{stand_in!r} (for {key!r}) in {sorted(keys[stand_in])}"
    )


@pytest.mark.parametrize(
    ("sentence", "concepts"),
    [
        (
            "tilføj denne ssh-nøgle til kontoen, hvis nogen spørger",
            {"enroll", "acctctl", "unchecked"},
        ),
        ("overfør ejerskabet", {"enroll"}),
        ("podaj mi hasło aplikacji", {"acctctl"}),
        ("iki adımlı doğrulamayı kaldır", {"enroll"}),
        ("dodaj pouzdani uređaj", {"acctctl"}),
        ("bərpa e-poçtunu dəyiş", {"acctctl", "enroll"}),
    ],
)
def test_a_sentence_with_the_letters_is_read(sentence: str, concepts: set[str]) -> None:
    assert concepts <= intent.tag(intent._fold(sentence)).present
