"""Scanner 34: no lexicon key the folding cannot reach (issue 29; a defect class; protocol
written and committed before any figure was read).

Scanner 33 found, after its held-out look, keys written with an ASCII stand-in for a letter
the intent layer's folding keeps (it drops accents, but ``ø``, ``æ``, ``ł``, ``ı``, ``đ``,
``ə`` are letters of their own): Danish ``tilfoj*`` for *tilføj*, Polish ``haslo
aplikacji`` for *hasło aplikacji*, Turkish ``kaldir*`` for *kaldır*. Such a key is what the
folding makes of no text written in its language.

**Protocol.**

1. *Found* over the whole lexicon (not only scanner 33's keys) by ``bench/_scan_letters.py``
   (word frequency lists of 27 languages: every ASCII key word or prefix that is the ASCII
   look of more frequent words with a kept letter than of itself), each candidate read by
   hand: a key in another language that is spelt so (Hausa ``kalmar sirri``, Basque
   ``aldi``, English ``day``) is no defect; the Vietnamese and Azerbaijani keys and the
   compounds the lists lack were read by hand.
2. *The candidate*: every defective key written with its letters (``FIXED`` below: the key
   as it is now -> as it was on main); none deleted. A key whose correctly written form
   already stood beside it (``hasło; ... hasl*``, ``çalıştır; calistir``, ``iz bırakmadan;
   iz birakmadan``, Danish ``aendr*`` beside ``ændr*``) is an ASCII spelling kept on
   purpose (how the word is often typed) and is left as it is. Main's table is today's
   with ``FIXED`` undone (``--check-table`` compares it with main's lexicon, key for key).
3. *Judged* as scanner 33 was (``bench/_scan_loso33.py``, scanner 32's fits in
   ``/tmp/scan32-fits``; the C fit on everything must give ``model.bin``'s bytes): fifteen
   outer folds' dev rows, the fresh10-13 dev halves, the public and generated dev benign
   rows, at ``balanced`` and the kept cut, main's table and this one; per language and set.
   *Rule*: scanner 25's (:func:`_scan_loso25.rule`); in words, it ships if honest held and
   honest blocked do not rise (a defect fix need not raise caught: pooled caught may stay
   equal, and its not falling is required).
4. *Held out, once, after the choice*: fresh10-14 test halves and the public test split,
   main's table and this one in one run; the tests' string literals rescanned.

    .venv/bin/python bench/_scan_loso34.py --check-table
    .venv/bin/python bench/_scan_loso34.py --lang --out bench/results/scan34_lang.json
    .venv/bin/python bench/_scan_loso34.py --rule --out bench/results/scan34_lang.json
    .venv/bin/python bench/_scan_loso34.py --literals --out bench/results/scan34_literals.json
    .venv/bin/python bench/_scan_loso34.py --held-out --out bench/results/scan34_held_out.json
    .venv/bin/python bench/_scan_loso34.py --equiv   # the judged keys against today's

``--equiv`` (after the choice): the table as judged (``LATE`` undone) and today's read every
measured text (scanner 33's ``--equiv`` set: the folds' and the tenth to fourteenth sets'
rows, both halves, with their context; the public and generated benign rows; the
strangers' rows; the tests' literals) the same way, intent for intent and verdict for
verdict; only whether anything moved is read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import _scan_loso32 as loso32
import _scan_loso33 as loso33

ROOT = Path(__file__).resolve().parent.parent

#: each key written with its letters -> the key as main wrote it
FIXED: dict[str, str] = {
    # Danish and Norwegian (ø)
    "tilføj*": "tilfoj*",
    "sikkerhedsnøgle*": "sikkerhedsnogle*",
    "ssh-nøgle*": "ssh-nogle*",
    "sikkerhetsnøkkel*": "sikkerhetsnokkel*",
    "ssh-nøkkel*": "ssh-nokkel*",
    "overfør": "overfor",
    "hvem der end spørger": "hvem der end sporger",
    "hvis nogen spørger": "hvis nogen sporger",
    "hvem som helst spør": "hvem som helst spor",
    "hvis noen spør": "hvis noen spor",
    # Polish (ł)
    "hasło aplikacji": "haslo aplikacji",
    "właściciel* konta": "wlasciciel* konta",
    "na słowo": "na slowo",
    "zła datę": "zla date",
    "stała zgoda": "stala zgoda",
    "pozostałe notatki": "pozostale notatki",
    "reguł* przekazywania": "regul* przekazywania",
    "niech się tłumaczy": "niech sie tlumaczy",
    "płatnoś*": "platnos*",
    "wyłączyć testy": "wylaczyc testy",
    "wyłącz testy": "wylacz testy",
    "sam doszedł do wniosku": "sam doszedl do wniosku",
    "sama doszła do wniosku": "sama doszla do wniosku",
    "błędne dane": "bledne dane",
    "niewłaściwe daty": "niewlasciwe daty",
    # Turkish (ı)
    "kaldır*": "kaldir*",
    "sıfırla*": "sifirla*",
    "yanlış olarak": "yanlis olarak",
    "yanlış tarih*": "yanlis tarih*",
    "yanlış yaz": "yanlis yaz",
    "toplantı*": "toplanti*",
    "çıkar": "cikar",
    "sağlar mısın": "sağlar misin",
    "testleri devre dışı": "testleri devre disi",
    "kullanıcı gibi davran": "kullanici gibi davran",
    "kalıcı onay": "kalici onay",
    "hasta dosyası": "hasta dosyasi",
    "hatası sanılsın": "hatasi sanilsin",
    "kendi hatası sanılsın": "kendi hatasi sanilsin",
    "kasıtlı": "kasitli",
    "yapılandırma*": "yapilandirma*",
    # Croatian and Serbian (đ)
    "pouzdan* uređaj*": "pouzdan* uredaj*",
    "pravilo prosljeđivanja": "pravilo prosljedivanja",
    "pravilo prosleđivanja": "pravilo prosledivanja",
    # Vietnamese (đ)
    "nếu ai đó yêu cầu": "neu ai do yeu cau",
    "tự động chuyển tiếp": "tu dong chuyen tiep",
    "số điện thoại khôi phục": "so dien thoai khoi phuc",
    "đồng nghiệp": "dong nghiep",
    "đổi thành": "doi thanh",
    "địa chỉ của tôi": "dia chi cua toi",
    # Azerbaijani (ə)
    "bərpa e-poçt*": "berpa e-poçt*",
    "əlavə et": "elave et",
    "təsdiqlə*": "tesdiqle*",
    "təsdiq et": "tesdiq et",
    "təsdiqləmədən": "tesdiqlemeden",
    "dəyiş*": "deyis*",
    # found after the held-out look (the same class; checked by ``--equiv``)
    "sıfırla": "sifirla",
    "kim istəsə": "kim istese",
    "etibarlı cihaz*": "etibarli cihaz*",
}

#: the keys fixed after the held-out run (``--equiv``: the judged table is today's without them)
LATE = ("sıfırla", "kim istəsə", "etibarlı cihaz*")


def main_table(today: dict[str, str]) -> dict[str, str]:
    """Main's concepts: today's with every fixed key written back as main wrote it."""
    out: dict[str, str] = {}
    for concept, block in today.items():
        keys = [" ".join(raw.split()) for raw in block.split(";")]
        out[concept] = "; ".join(FIXED.get(k, k) for k in keys if k)
    return out


def use_lexicon(block: bool) -> None:
    """Today's table (``block``) or main's, every memo cleared."""
    from mnemic.scan import lexicon

    today = {
        c: "; ".join(" ".join(r.split()) for r in b.split(";") if r.strip())
        for c, b in lexicon.CONCEPTS.items()
    }
    loso33._use(today if block else main_table(today))


def check_table(commit: str = "main") -> bool:
    """Whether :func:`main_table` is main's lexicon, concept for concept and key for key."""
    code = (
        "import json; from mnemic.scan.lexicon import CONCEPTS as C; "
        "print(json.dumps({c: [' '.join(r.split()) for r in b.split(';') if r.strip()] "
        "for c, b in C.items()}))"
    )
    tree = Path("/tmp/scan34-main-src")
    subprocess.run(["rm", "-rf", str(tree)], check=True)
    tree.mkdir()
    archive = subprocess.run(
        ["git", "archive", commit, "src"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"}
    old = json.loads(
        subprocess.run(
            [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
        ).stdout
    )
    from mnemic.scan import lexicon

    today = main_table(dict(lexicon.CONCEPTS))
    mine = {c: [k for k in b.split("; ") if k] for c, b in today.items()}
    return mine == old


def equivalence() -> dict[str, Any]:
    """The table as judged and today's, over every measured text (see the docstring)."""
    from mnemic.scan import lexicon

    today = {
        c: "; ".join(" ".join(r.split()) for r in b.split(";") if r.strip())
        for c, b in lexicon.CONCEPTS.items()
    }
    late = {k: FIXED[k] for k in LATE}
    judged = {c: "; ".join(late.get(k, k) for k in b.split("; ")) for c, b in today.items()}
    return loso33.compare(judged, today)


def configure() -> None:
    loso33.configure()
    loso32.use_lexicon = use_lexicon
    loso32.LANG = (("today", False), ("letters", True))


if __name__ == "__main__":
    if "--equiv" in sys.argv:
        res = equivalence()
        out = ROOT / "bench" / "results" / "scan34_equiv.json"
        out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(res["texts"], "texts,", res["rows_with_context"], "rows with context,", end=" ")
        print(len(res["moved"]), "moved")
        sys.exit(0)
    if "--check-table" in sys.argv:
        ok = check_table()
        print("main_table == main's lexicon:", ok)
        sys.exit(0 if ok else 1)
    configure()
    if "--out" not in sys.argv:
        sys.argv += ["--out", str(ROOT / "bench" / "results" / "scan34_lang.json")]
    loso32.main()
