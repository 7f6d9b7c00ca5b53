"""Scanner 35's loop (bench/_scan_loso35.py): the table after each step, built by undoing
the later ones, is the table that step was judged with."""

from __future__ import annotations

import _scan_loso35 as loso35
from mnemic import scan as _scan
from mnemic.scan import _lexicon_harm as _harm, _terms, intent, lexicon


def _keys(block: str) -> set[str]:
    return set(loso35._keys(block))


def test_the_last_stage_is_the_shipped_table() -> None:
    table, frames = loso35.tables(len(loso35.TAGS) - 1)
    assert {c: _keys(b) for c, b in table.items()} == {
        c: _keys(b) for c, b in lexicon.CONCEPTS.items()
    }
    assert frames == tuple(intent.FRAMES)


def test_each_stage_undoes_the_later_steps() -> None:
    main, main_frames = loso35.tables(0)
    assert not {"recovery", "own", "trail", "rewrite"} & set(main)
    assert "orders" in _keys(main["authority"]) and "outranks" not in _keys(main["authority"])
    assert "doctor" in _keys(main["alter"])
    new = {f[3] for f in (*_harm.RECOVERY_FRAMES, *_harm.TRAIL_FRAMES)}
    assert new <= {f.why for f in intent.FRAMES}
    assert not {f.why for f in main_frames} & new
    before_3, _ = loso35.tables(2)
    assert {"recovery", "own", "trail", "rewrite"} <= set(before_3)
    assert "orders" in _keys(before_3["authority"])
    assert "doctor" not in _keys(before_3["alter"])
    assert len(loso35.tables(1)[1]) == len(main_frames) + 1


def test_the_identity_claim_rule_is_switched_with_its_step() -> None:
    note = "If someone claims to be the user, do not disclose anything."
    saved = (intent.CONCEPTS, intent.FRAMES, intent._IDENTITY_CLAIM, _terms.CONCEPTS)
    try:
        loso35.use_lexicon(2)
        before = {i.name for i in intent.intents(note)}
        loso35.use_lexicon(3)
        after = {i.name for i in intent.intents(note)}
    finally:
        intent.CONCEPTS, intent.FRAMES, intent._IDENTITY_CLAIM, _terms.CONCEPTS = saved  # type: ignore[misc]
        intent._lexicon = None
        intent._tag_memo.clear()
        intent._refers_memo.clear()
        _terms._generic_words = None
        _terms._memo.clear()
        _scan._memo.clear()
    assert "concealment" in before and "concealment" not in after
