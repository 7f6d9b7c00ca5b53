"""Scanner 33: account takeover as a concept of the intent layer, in every language
(issue 29; protocol written and committed before any figure was read).

Scanner 32 found the next gap by count: attacks that hand the user's account to someone
else ("change the recovery e-mail", "register this phone as the MFA device without
checking"), 6 of 28 caught outside English in the leave-one-set-out folds, and no concept
for it in English either (the classifier carries the English rows).

**Protocol.**

1. *The candidate* (``mnemic.scan._lexicon_access.TAKEOVER`` and ``ACCESS_FRAMES``), written
   from the concept in English and about forty languages the lexicon reads, before any
   fold figure of it was read and without reading the rows:
   ``acctctl``, the object: what decides who can get into the user's account (its
   recovery e-mail address or phone number, MFA/2FA devices and authenticators, app
   passwords, OAuth grants, SSH and GPG keys, mailbox delegates and forwarding rules,
   its ownership); ``enroll``, the action (change, register, add, approve, link,
   authorise, transfer, reset; a negation cancels it; scanner 11's ``swap`` counts too);
   ``unchecked``, the frame: without checking or verifying, on someone else's word,
   whoever asks. Frames: *hold* when an account control is changed without checking or
   unseen (``acctctl enroll|swap unchecked|covert``); *block* when it is changed and the
   user is not to be told (``acctctl enroll|swap`` with ``speak`` negated, the payee
   frame's shape). The concepts are new: taking the block out removes them (no existing
   concept gains a key), so main's table is the table without them.
   Honest twins it must keep passing (tests): the user changing their own recovery e-mail;
   an admin runbook adding a new colleague's SSH key under an approved ticket; a note that
   IT reset MFA after a lost phone.
2. *Judged on scanner 32's fits* (``bench/_scan_loso32.fit``, cached in
   ``/tmp/scan32-fits``; the C fit on everything must still give ``model.bin``'s bytes):
   fifteen outer folds (strangers a-f, fresh1-9), each set's **dev rows** scored by the
   whole scanner at ``balanced`` at the kept cut 0.8528, with the block out (main) and in;
   the fit on everything on the tenth to thirteenth **dev halves**, the public dev benign
   rows and the 3,208 generated dev benign rows. Per family, language and set, n and 95 %
   Wilson intervals.
3. *Rule* (scanner 25's, :func:`_scan_loso25.rule`, baseline = the block out): ships only if
   pooled caught over the fifteen folds rises; honest blocked rises on no set; pooled
   honest held rises by at most one percentage point of the pooled honest rows; the public
   dev benign rows' blocks do not rise in any fit; the fit on everything blocks no more
   generated dev benign rows; the tenth-to-thirteenth dev halves' caught, pooled, does not
   fall and their honest blocked does not rise; p50 <= 2 ms. No second candidate is run
   on the folds.
4. *Held out, once, after the choice* (only if it ships): the shipped model with main's
   table and this one in the same run, the tenth-to-thirteenth test halves (and the
   fourteenth's, if merged into main by then: its first look after its baseline) and the
   public test split, ``balanced`` and ``strict``; p50; the tests' string literals
   rescanned, every honest literal newly held or blocked named.

    .venv/bin/python bench/_scan_loso33.py --check
    .venv/bin/python bench/_scan_loso33.py --lang --out bench/results/scan33_lang.json
    .venv/bin/python bench/_scan_loso33.py --rule --out bench/results/scan33_lang.json
    .venv/bin/python bench/_scan_loso33.py --literals --out bench/results/scan33_literals.json
    .venv/bin/python bench/_scan_loso33.py --p50 --out bench/results/scan33_p50.json
    .venv/bin/python bench/_scan_loso33.py --held-out --out bench/results/scan33_held_out.json
"""

from __future__ import annotations

import sys
from pathlib import Path

import _scan_fresh as fresh
import _scan_loso32 as loso32

ROOT = Path(__file__).resolve().parent.parent


def use_lexicon(block: bool) -> None:
    """The intent layer's concepts with scanner 33's block (``block``) or without it
    (main's table: its concepts are new, so they are dropped); every memo cleared."""
    from mnemic import scan as _scan
    from mnemic.scan import _lexicon_access, _terms, intent, lexicon

    table = dict(lexicon.CONCEPTS)
    if not block:
        for concept in _lexicon_access.TAKEOVER:
            table.pop(concept, None)
    intent.CONCEPTS = table  # type: ignore[misc]
    intent._lexicon = None
    intent._tag_memo.clear()
    intent._refers_memo.clear()
    _terms.CONCEPTS = table  # type: ignore[attr-defined]
    _terms._generic_words = None
    _terms._memo.clear()
    _scan._memo.clear()


def configure() -> None:
    """Scanner 32's loop, with this block in place of scanner 32's (its tags renamed)."""
    loso32.use_lexicon = use_lexicon
    loso32.LANG = (("today", False), ("takeover", True))
    fourteenth = getattr(fresh, "FOURTEENTH", None)
    if fourteenth is not None and "--held-out" in sys.argv:
        loso32.BEYOND = (*loso32.BEYOND, fourteenth)


if __name__ == "__main__":
    configure()
    if "--out" not in sys.argv:
        sys.argv += ["--out", str(ROOT / "bench" / "results" / "scan33_lang.json")]
    loso32.main()
