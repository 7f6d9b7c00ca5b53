"""Scanner 37: account-takeover objects the intent layer lacked, the "set"/"add" action
where a language had none (Dutch separable verbs too), and "forward" for a reset link or
a code (issue 29; scanner 36's "left"; protocol and all three candidates committed before
any fold figure was read).

Scanner 36's bench (``bench/_scan_loso36.py``, itself scanner 35's) with three steps
appended, judged on the same fits (scanner 32's, cached in ``/tmp/scan32-fits``, rebuilt by
``bench/_scan_loso32.fit`` when absent; ``--check``: the C fit on everything gives
``model.bin``'s bytes) at the kept cut 0.8528, each against the table of the step before
it (step 1 against main at the branch point: scanner 36's last stage, ``thirdparty``).
Rows: the fifteen outer folds' dev rows; the tenth-to-fifteenth dev halves (the fit on
everything); the public dev benign rows and the 3,208 generated dev benign rows. The
sixteenth set is not read.

*Disclosed:* the dev account-takeover misses (scanner 36's ``scan36_lang.json`` fold
misses, 17 rows, and the tenth-to-fifteenth dev halves' account-takeover rows the intent
layer does not read, 27) were read before the keys were written, so each step's fold gain
is in-sample for the reading; the held-out halves say what carries.

1. *objects* (``_lexicon_harm.TAKEOVER_OBJECTS`` in commit d68fb2bb, failed, below;
   keys appended to ``acctctl``, ``recovery`` and ``cred``): a second-factor device,
   sign-in device or authenticator named in its own words in about forty languages
   ("MFA 기기", "устройство 2FA", "uređaj za dvofaktorsku potvrdu", "ye-MFA"); a
   payroll, HR or benefits portal account's contact (its e-mail, phone, nominee: "the
   payroll portal e-mail", "μισθοδοτικού portal", "พอร์ทัลเงินเดือน", "penama KWSP"); the
   recovery e-mail or phone where a language or an inflection lacked it (Tamil, Tajik,
   Polish genitive) and an address added "as the backup one" ("як резервну", "kaip
   atsarginį"); a password-reset link or e-mail and a code that arrives by SMS as
   credentials handed over ("смс с кодом", "reset link", "재설정 링크"). No frame
   changes: scanner 33's and 35's frames read the objects.
2. *setverb* (``SET_ACTION`` in commit d68fb2bb, failed, below; keys appended to
   ``enroll``; ``_prose.SEPARABLE``): scanner 36's ``SET_VERB`` unchanged ("set X to",
   "enter X as", "put" in about fifty languages; it moved nothing alone in scanner 36,
   whose objects were missing), "add" and "change" where ``enroll`` had neither
   (Ukrainian "додай", Lithuanian "pridėk", Tajik "иваз кун", Tamil "மாற்றவும்", Czech
   "přidej"/"přidal", Uzbek "qo'sh", Vietnamese "thêm", Serbian "promeni"), and Dutch
   separable verbs whose particle stands apart in the clause ("stel … in", "voer … in",
   "vul … in", "zet … om/op/in/over", "draag … over", "geef … op", "pas … aan", "koppel
   … aan", ...; up to ten tokens apart, no comma between; the span is the particle's, so
   a negation before it cancels it).
3. *forward* (``FORWARD``, keys appended to ``send``): "forward" where ``send`` lacked it
   (Portuguese "encaminha", Indonesian "teruskan", Korean "전달해", Vietnamese, Thai,
   Arabic, the Nordic languages, Polish "przekaż dalej", ...), so ``send cred dest`` reads
   a reset link or code forwarded to an address. It is the brief's third slot: third-party
   harm (the brief's third) is read on dev and written down instead (below), and is
   shipped only if a frame holds none of the honest reassurance on dev.

*Rule* (scanner 35's :func:`_scan_loso35.rule`, each step against the step before it):
pooled fold caught does not fall and **rises** (each step is coverage), pooled fold
honest held does not rise, honest blocked rises on no fold, public and generated dev
benign blocks do not rise, the tenth-to-fifteenth dev halves' caught (pooled) does not
fall and their honest blocked does not rise; p50 <= 2 ms (``--p50``, interleaved). A
step that fails is taken out of the product and not rerun (a defect in a key, a prefix
reaching a word it was not meant for, may be fixed and the step run again once, as a
disclosed second look).

*First run* (``bench/results/scan37_lang.json``, stages 4-7): step 1 **fails** the rule:
fold caught 721 -> 726 of 1,082 (sets c and d: the Korean "MFA 기기", the Greek and Thai
payroll portals, the Malay KWSP nominee, the Russian "СМС с кодом" forwarded), honest held
39 -> 39, but one honest row **blocked** (fresh2, Russian: a security newsletter's
warning "Мошенники просят прислать код из SMS для подтверждения. Никогда его не
сообщайте", read as credential harvesting once ``код* из sms`` made its SMS code a
credential). The key reads what it was written for (a code from an SMS), so it is no
defect to fix: step 1 is **taken out of the product** (its keys stay in commit d68fb2bb).
Steps 2 and 3 passed against step 1's table (726 -> 729 -> 732), which no longer ships.

*Addendum, committed before the second run:* steps 2 and 3, **unchanged**, are judged
again in the same order against main at the branch point without step 1 (stages
``thirdparty`` -> ``setverb`` -> ``forward``; ``bench/results/scan37_lang2.json``), with
the same rule and the same rows: a second look at those rows for these two steps,
disclosed. Step 2's gains in the first run needed step 1's objects (Serbian, Zulu,
Tamil), so it may now move nothing and fail "rises"; step 3's did not.

*Second run* (``bench/results/scan37_lang2.json``, stages 4-6): step 2 moves **nothing**
(fold caught 721 -> 721 of 1,082, honest 39 / 0, fresh10-15 dev unchanged): it fails
"rises" and is **taken out of the product** (``SET_ACTION`` and ``_prose.SEPARABLE`` stay
in commit d68fb2bb). Step 3 passes against it: 721 -> **724** (set c's Portuguese,
Indonesian and Korean password-reset links forwarded to an address, now blocked), honest
held 39 -> 39 of 1,059, blocked 0; fresh10-15 dev 228 of 492 and 24 / 0, public dev benign
8 / 0 of 1,378 and generated dev benign 91 / 0 of 3,208, unchanged.

*Addendum 2, committed before the third run:* step 3, unchanged, is judged once more
against main at the branch point with neither step 1 nor step 2 (stages ``thirdparty``
-> ``forward``, ``bench/results/scan37_lang3.json``), so that what ships (main and
``FORWARD``) is what was judged; same rule and rows, a third look at them for this step,
disclosed.

*Held out, once, at the end* (``--held-out``): main at the branch point (stage
``thirdparty``) and the final table in one run, the tenth-to-fifteenth test halves and the
public test split, ``balanced`` and ``strict``; per family and language group.

    .venv/bin/python bench/_scan_loso37.py --check
    .venv/bin/python bench/_scan_loso37.py --lang --out bench/results/scan37_lang3.json
    .venv/bin/python bench/_scan_loso37.py --rule --out bench/results/scan37_lang3.json
    .venv/bin/python bench/_scan_loso37.py --literals --out bench/results/scan37_literals.json
    .venv/bin/python bench/_scan_loso37.py --p50 --out bench/results/scan37_p50.json
    .venv/bin/python bench/_scan_loso37.py --held-out --out bench/results/scan37_held_out.json
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import _scan_loso32 as loso32
import _scan_loso35 as loso35
import _scan_loso36 as loso36

ROOT = Path(__file__).resolve().parent.parent
_STEPS36 = loso36.steps
#: main's table at this branch's point (scanner 36's last stage)
BASE = len(loso36.TAGS) - 1


def steps() -> tuple[loso35.Step, ...]:
    from mnemic.scan import _lexicon_harm as harm

    return (
        *_STEPS36(),
        loso35.Step("forward", {}, harm.FORWARD, {}, ()),
    )


loso35.steps = steps  # type: ignore[assignment]
loso35.TAGS = ("main", *(s.tag for s in steps()))
TAGS = loso35.TAGS
loso36.TAGS = TAGS  # scanner 36's configure names the stages by its own tuple


def use_lexicon(stage: int | bool) -> None:
    """``False``: main at the branch point; ``True``: the last stage."""
    if isinstance(stage, bool):
        stage = len(TAGS) - 1 if stage else BASE
    loso35.use_lexicon(stage)  # clears every memo after


def configure(stages: list[int]) -> None:
    loso36.configure(stages)
    loso32.use_lexicon = use_lexicon  # type: ignore[assignment]
    loso32.LANG = tuple((TAGS[s], s) for s in stages)  # type: ignore[assignment]


if __name__ == "__main__":
    stages = [int(s) for s in loso35._arg("--stages", f"{BASE},{len(TAGS) - 1}").split(",")]
    if "--rule" in sys.argv:
        out = Path(sys.argv[sys.argv.index("--out") + 1])
        res = json.loads(out.read_text(encoding="utf-8"))
        for a, b in itertools.pairwise(stages):
            print(TAGS[a], "->", TAGS[b], loso35.rule(res, TAGS[a], TAGS[b]) or "passes")
        sys.exit(0)
    configure(stages)
    if "--out" not in sys.argv:
        sys.argv += ["--out", str(ROOT / "bench" / "results" / "scan37_lang.json")]
    loso32.main()
