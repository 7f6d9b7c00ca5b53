"""Scanner 33: account takeover as a concept of the intent layer, in every language
(issue 29; protocol written and committed before any figure was read).

Scanner 32 found the next gap by count: attacks that hand the user's account to someone
else ("change the recovery e-mail", "register this phone as the MFA device without
checking"), 6 of 28 caught outside English in the leave-one-set-out folds, and no concept
for it in English either (the classifier carries the English rows).

**Protocol.**

1. *The candidate* (``mnemic.scan._lexicon_harm.TAKEOVER`` and ``TAKEOVER_FRAMES``; first
   ``_lexicon_access.py``), written
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
    .venv/bin/python bench/_scan_loso33.py --equiv 84ac52e0   # the judged keys against today's

``--equiv COMMIT`` (after the choice): the block as committed at ``COMMIT`` and as it is now
read every measured text (the folds' and the tenth to fourteenth sets' rows, both halves,
with their context; the public and generated benign rows; the strangers' rows; the
tests' literals) the same way, intent for intent and verdict for verdict.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import _scan_fresh as fresh
import _scan_loso32 as loso32

ROOT = Path(__file__).resolve().parent.parent


def use_lexicon(block: bool) -> None:
    """The intent layer's concepts with scanner 33's block (``block``) or without it
    (main's table: its concepts are new, so they are dropped); every memo cleared."""
    from mnemic import scan as _scan
    from mnemic.scan import _lexicon_harm, _terms, intent, lexicon

    table = dict(lexicon.CONCEPTS)
    if not block:
        for concept in _lexicon_harm.TAKEOVER:
            table.pop(concept, None)
    intent.CONCEPTS = table  # type: ignore[misc]
    intent._lexicon = None
    intent._tag_memo.clear()
    intent._refers_memo.clear()
    _terms.CONCEPTS = table  # type: ignore[attr-defined]
    _terms._generic_words = None
    _terms._memo.clear()
    _scan._memo.clear()


def _use(table: dict[str, str]) -> None:
    from mnemic import scan as _scan
    from mnemic.scan import _terms, intent

    intent.CONCEPTS = table  # type: ignore[misc]
    intent._lexicon = None
    intent._tag_memo.clear()
    intent._refers_memo.clear()
    _terms.CONCEPTS = table  # type: ignore[attr-defined]
    _terms._generic_words = None
    _terms._memo.clear()
    _scan._memo.clear()


def equivalence(commit: str) -> dict[str, Any]:
    """The block at ``commit`` and today's, over every measured text (see the docstring)."""
    from mnemic.scan import lexicon

    source = subprocess.run(
        ["git", "show", f"{commit}:src/mnemic/scan/_lexicon_access.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "judged_access.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location("judged_access", path)
        assert spec is not None and spec.loader is not None
        judged = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(judged)
    final = dict(lexicon.CONCEPTS)
    res = compare({**final, **judged.TAKEOVER}, final)
    return {"commit": commit, **res}


def compare(old: dict[str, str], final: dict[str, str]) -> dict[str, Any]:
    """Two tables of concepts over every measured text: the texts read otherwise."""
    import _scan_loso20 as loso20
    import _scan_loso22 as loso22
    import _scan_loso25 as loso25
    import _scan_training as training
    from mnemic.scan import intent, scan_text

    loso25.configure(loso25.RECIPES["today"])
    texts: set[str] = set()
    rows: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}

    def add(r: dict[str, Any]) -> None:
        texts.add(r["text"])
        c = r.get("context")
        if c:
            ctx = [c] if isinstance(c, str) else list(c)
            texts.update(ctx)
            rows[(r["text"], tuple(ctx))] = {"text": r["text"], "context": ctx}

    for name in loso32.FOLDS:
        for r in loso20.fold_rows(name):
            add(r)
    for s in (*loso32.BEYOND, fresh.FOURTEENTH):
        for r in fresh.load(s.path, s.seed):
            add(r)
    dev_benign, public = loso22.basis()
    texts |= set(dev_benign) | set(public)
    train_dir = loso22.DATA / "threats" / "train"
    texts |= {
        r.text for r in training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    }
    for p in sorted((loso22.BENCH_DATA / "scan_strangers").glob("*.jsonl")):
        for d in training.stranger_dicts(p):
            add(d)
    for p in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and len(value.strip()) >= 10 and loso32._encodes(value):
                texts.add(value)
    ordered = sorted(texts)
    read: dict[str, list[Any]] = {}
    for tag, table in (("judged", old), ("final", final)):
        _use(table)
        read[tag] = [
            (
                [(i.name, i.verdict) for i in intent.intents(t)],
                scan_text(t, "memory", "balanced").verdict,
            )
            for t in ordered
        ]
        read[tag] += [fresh.verdict(r, "balanced") for r in rows.values()]
    keys = [*ordered, *(str(k) for k in rows)]
    moved = [k for k, a, b in zip(keys, read["judged"], read["final"], strict=True) if a != b]
    return {"texts": len(ordered), "rows_with_context": len(rows), "moved": moved}


def configure() -> None:
    """Scanner 32's loop, with this block in place of scanner 32's (its tags renamed)."""
    loso32.use_lexicon = use_lexicon
    loso32.LANG = (("today", False), ("takeover", True))
    fourteenth = getattr(fresh, "FOURTEENTH", None)
    if fourteenth is not None and "--held-out" in sys.argv:
        loso32.BEYOND = (*loso32.BEYOND, fourteenth)


if __name__ == "__main__":
    if "--equiv" in sys.argv:
        res = equivalence(sys.argv[sys.argv.index("--equiv") + 1])
        out = ROOT / "bench" / "results" / "scan33_equiv.json"
        out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(
            res["texts"],
            "texts,",
            res["rows_with_context"],
            "rows with context,",
            len(res["moved"]),
            "moved",
        )
        sys.exit(0)
    configure()
    if "--out" not in sys.argv:
        sys.argv += ["--out", str(ROOT / "bench" / "results" / "scan33_lang.json")]
    loso32.main()
