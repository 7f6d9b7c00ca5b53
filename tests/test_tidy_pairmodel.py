"""Tidy's learned pair layer (:mod:`mnemic.ops.tidy.pairmodel`, tidy 15): the shipped
file loads and a changed one is refused with a clear error, the fit is byte-reproducible,
:func:`plan` with and without the embedder, and what a model proposal says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import _tidy_pairfit as tp
from _tidy_pairfit import LPair
from _tidy_pairs import NEW, NOW, OLD, planned
from mnemic.ops.tidy import plan
from mnemic.ops.tidy.pairmodel import (
    CASES,
    HEADS,
    MAGIC,
    MODEL_PATH,
    PairModel,
    PairModelError,
    apart,
    pair_model,
)
from mnemic.ops.tidy.signals import compare, profile


def test_the_shipped_model_loads_with_every_case_and_head() -> None:
    model = pair_model()
    for case in CASES:
        for head in HEADS:
            t = model.threshold(case, head)
            assert 0.5 <= t <= 1.01
    assert model.header["sources"]  # the provenance of the fit is recorded
    assert len(model.header["sha256"]) == 64


def test_a_changed_model_file_is_refused_with_what_to_do(tmp_path: Path) -> None:
    changed = tmp_path / "pair_model.bin"
    data = bytearray(Path(MODEL_PATH).read_bytes())
    data[-3] ^= 0x40  # one weight's bit
    changed.write_bytes(bytes(data))
    with pytest.raises(PairModelError, match=r"changed after it was fitted.*refit it"):
        PairModel.load(changed)


def test_a_file_that_is_no_model_or_cut_short_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.bin"
    other.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(PairModelError, match="is not a mnemic tidy pair model"):
        PairModel.load(other)
    cut = tmp_path / "cut.bin"
    data = Path(MODEL_PATH).read_bytes()
    cut.write_bytes(data[: data.index(b"\n", len(MAGIC)) - 5])
    with pytest.raises(PairModelError, match="malformed header"):
        PairModel.load(cut)
    with pytest.raises(PairModelError, match=r"cannot be read.*reinstall"):
        PairModel.load(tmp_path / "missing.bin")


def _sample() -> list[LPair]:
    rows = [
        ("rewording", "The pipeline builds the images", "The images are built by the pipeline"),
        ("rewording", "Priya leads the data team", "The data team is headed by Priya"),
        ("update", "User lives in Berlin", "User moved to Munich in May"),
        ("update", "User uses Jira for tickets", "User switched to Linear for tickets"),
        ("honest", "Staging runs Postgres 15", "Production runs Postgres 16"),
        ("honest", "User likes tea in the morning", "User's partner likes coffee"),
    ]  # fmt: skip
    return [LPair("sample", "train", str(i), k, a, b) for i, (k, a, b) in enumerate(rows)]


def test_the_fit_is_byte_reproducible(tmp_path: Path) -> None:
    pairs = _sample()
    feats = [tp.names(p, None, False) for p in pairs]
    points = {case: {h: 0.9 for h in HEADS} for case in CASES}
    for name in ("one.bin", "two.bin"):
        fitted = {case: tp.fit_heads(pairs, feats) for case in CASES}
        tp.write_model(tmp_path / name, fitted, points, {"sources": ["sample"]})
    assert (tmp_path / "one.bin").read_bytes() == (tmp_path / "two.bin").read_bytes()
    model = PairModel.load(tmp_path / "one.bin")  # what the fit writes, the loader reads
    assert model.threshold("offline", "merge") == 0.9


def test_plan_with_and_without_the_model_and_the_embedder() -> None:
    # two shared words: too few for tidy 34's rule of a sentence rebuilt around its verb
    a, b = "The pipeline builds the images", "The images are built by the pipeline"
    assert planned(a, b) == []  # the rules alone: a passive reads as other words
    for cosine in (None, 0.97):
        cosines = None if cosine is None else [[1.0, cosine], [cosine, 1.0]]
        shipped = plan("memory", [a, b], [OLD, NEW], now=NOW, stale_after_days=90,
                       verbose_chars=280, cosines=cosines)  # fmt: skip
        alone = plan("memory", [a, b], [OLD, NEW], now=NOW, stale_after_days=90,
                     verbose_chars=280, cosines=cosines, learned=False)  # fmt: skip
        assert len(shipped) >= len(alone)
        for p in shipped:
            assert p.kind in ("merge", "supersede") and set(p.entries) == {a, b}


def test_a_model_proposal_says_why_and_keeps_the_newer(tmp_path: Path) -> None:
    """A model whose change head proposes everything: its proposal supersedes the older
    entry with the newer, says it comes from the model, and names what weighed most."""
    pairs = _sample()
    feats = [tp.names(p, None, False) for p in pairs]
    fitted = {case: tp.fit_heads(pairs, feats) for case in CASES}
    eager = tp.as_model(fitted, {case: {"merge": 1.01, "change": 0.0} for case in CASES})
    old, new = "User lives in Berlin", "User moved to Munich in May"
    out = plan("memory", [old, new], [OLD, NEW], now=NOW, stale_after_days=90,
               verbose_chars=280, learned=eager)  # fmt: skip
    kinds = {p.kind: p for p in out}
    assert "supersede" in kinds
    p = kinds["supersede"]
    assert p.entries == (new, old) and p.result == new
    assert "learned pair model" in p.reasons[0] and "weighed most" in p.reasons[0]
    assert p.stageable  # a batch for a person to approve, never applied here


def test_a_rule_that_keeps_a_pair_apart_holds_against_the_model() -> None:
    """Two people, another subject named first, an identifier changed by a character."""
    for a, b, head in (
        ("User plays tennis at the club", "User's wife plays tennis at the club", "merge"),
        ("Staging uses PostgreSQL 15", "Production was upgraded to PostgreSQL 16", "change"),
        ("The van's plate reads LD21 XKR", "The trailer plate reads LD21 XRK", "merge"),
    ):
        pa, pb = profile(a), profile(b)
        assert apart(pa, pb, compare(pa, pb), head)
    pairs = _sample()
    feats = [tp.names(p, None, False) for p in pairs]
    fitted = {case: tp.fit_heads(pairs, feats) for case in CASES}
    eager = tp.as_model(fitted, {case: {"merge": 0.0, "change": 0.0} for case in CASES})
    a, b = "Staging uses PostgreSQL 15", "Production was upgraded to PostgreSQL 16"
    assert plan("memory", [a, b], [OLD, NEW], now=NOW, stale_after_days=90,
                verbose_chars=280, learned=eager) == []  # fmt: skip


def test_a_copied_model_file_loads_the_same(tmp_path: Path) -> None:
    copy = tmp_path / "pair_model.bin"
    shutil.copyfile(MODEL_PATH, copy)
    assert PairModel.load(copy).header == pair_model().header


def test_the_sets_the_model_was_fitted_on_are_reported_as_trained_on() -> None:
    """fresh1-3 are the shipped model's training data (tidy 17's refits, with fresh4-5
    and the strangers' e-f, were not shipped); fresh4 and later are in no shipped fit,
    and the fit's recorded sources say the same."""
    import _tidy_fresh

    assert _tidy_fresh.TRAINED_ON == ("fresh", "fresh2", "fresh3")
    sources = set(pair_model().header["sources"])
    assert set(_tidy_fresh.TRAINED_ON) <= sources
    assert not {"fresh4", "fresh5", "fresh6", "fresh7", "fresh8"} & sources


def test_tidy_with_a_changed_model_file_uses_its_rules_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command does not fail on a changed model file: the rules alone, and a notice
    naming the file and what to do (failed before: PairModelError out of propose)."""
    from mnemic.curated.view import MemoryView
    from mnemic.ops.tidy import pairmodel, propose

    changed = tmp_path / "pair_model.bin"
    data = bytearray(Path(MODEL_PATH).read_bytes())
    data[-1] ^= 0x01
    changed.write_bytes(bytes(data))
    monkeypatch.setattr(pairmodel, "MODEL_PATH", str(changed))
    monkeypatch.setattr(pairmodel, "_model", None)
    home = tmp_path / "home"
    (home / "memories").mkdir(parents=True)
    (home / "memories" / "MEMORY.md").write_text(
        "User prefers tea over coffee.\n§\nuser prefers tea over coffee", "utf-8"
    )
    report = propose(MemoryView.open(home))
    assert [p.kind for p in report.proposals] == ["merge"]  # the rules still ran
    assert any("changed after it was fitted" in n and "rules alone" in n for n in report.notices)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # nothing shared but the user (failed before: supersede at 0.82 and 0.86)
        ("User is brave about heights", "User switched to Firefox"),
        ("User lives in Berlin.", "User now works in Munich since October."),
        # the value it changed to is the older entry's already (failed before: 0.84)
        ("用户晚饭吃纯素。", "用户早饭换成纯素了。"),
        # tidy 17: the newer keeps all the older says and names no new value after its
        # marker: another predicate of the same GP (failed before: supersede at 0.98)
        ("User's GP is Dr. Patel.", "User's GP Dr. Patel moved to a new practice."),
    ],
)
def test_the_model_proposes_no_absurd_supersede(a: str, b: str) -> None:
    """Honest look-alikes of the rule tests, with the shipped model on (tidy 16): the
    newer entry saying it changed is not enough when the two share nothing but the
    subject, or when what it changed to is what the older entry says already."""
    assert planned(a, b, learned=True) == []


def test_the_vetoes_leave_the_model_its_true_pairs() -> None:
    """What the model caught among the rule tests' pairs, it still catches."""
    for a, b, kind in (
        ("User goes to the gym on Mondays.", "User replaced the Mondays gym session with yoga.",
         "supersede"),
        ("The cron job sends the weekly report", "The weekly report is sent by the cron job",
         "merge"),
        ("The billing service listens on port 9000", "Billing servcie listens on port 9000",
         "merge"),
    ):  # fmt: skip
        assert [p.kind for p in planned(a, b, learned=True)] == [kind]


def test_a_pair_sharing_only_the_subject_is_kept_apart_but_a_kind_joins_it() -> None:
    """Sharing a kind of :mod:`mnemic.ops.tidy.kinds` (two browsers) is sharing
    something; sharing only the user is not."""
    pa, pb = profile("User is brave about heights"), profile("User switched to Firefox")
    assert apart(pa, pb, compare(pa, pb), "change") == "nothing shared but the subject"
    pa, pb = profile("User browses with Chrome"), profile("User switched to Firefox")
    assert apart(pa, pb, compare(pa, pb), "change") == ""


def test_a_change_to_a_new_value_is_not_read_as_the_older_value_again() -> None:
    """The value-already veto reads every word after the marker and the slots: a new
    version, or a value said after a leading marker, is a new value."""
    for a, b in (
        ("PostgreSQL 15 backs the billing service",
         "The billing service was upgraded to PostgreSQL 16"),
        ("Il gatto dell'utente mangia crocchette per cuccioli",
         "Ora il gatto dell'utente mangia crocchette per adulti"),
        ("User drives a 2015 Honda Civic", "User upgraded from the 2015 Civic to a Honda e"),
    ):  # fmt: skip
        pa, pb = profile(a), profile(b)
        assert apart(pa, pb, compare(pa, pb), "change") == ""


def test_keeping_all_the_older_says_is_no_change_but_a_new_name_is() -> None:
    """Tidy 17's veto reads what the older entry says that the newer does not: nothing,
    and no name after the newer's marker, is no change; a new name, a replaced value
    named, or a negation is."""
    for a, b, why in (
        ("User's GP is Dr. Patel.", "User's GP Dr. Patel moved to a new practice.",
         "it replaces nothing"),
        ("Home insurance is with Aviva", "Home insurance moved to LV=, Aviva wanted more", ""),
        ("O pediatra do Tiago é o Dr. Sousa",
         "O Dr. Sousa reformou-se; o pediatra do Tiago agora é a Dra. Matos", ""),
        ("User runs on Sundays", "User no longer runs on Sundays", ""),
    ):  # fmt: skip
        pa, pb = profile(a), profile(b)
        got = apart(pa, pb, compare(pa, pb), "change")
        assert (why in got) if why else got == "", (a, b, got)


def test_a_negation_of_another_thing_in_the_others_place_is_no_change() -> None:
    """Tidy 17 (failed before: no such veto; the refitted model read stranger f's pair
    as a change at 0.95): a negated entry that names another thing where the other's
    stands denies that thing; "no longer" (an update), the same thing negated, or a
    character pair of a script without spaces is not this."""
    for a, b, why in (
        ("Rui macht seine Pause auf dem Autohof Geiselwind",
         "Rui macht seine Wochenruhe nie auf dem Autohof Geiselwind", "denies another thing"),
        ("User drinks coffee", "User never drinks tea", "denies another thing"),
        ("User drinks coffee", "User no longer drinks coffee", ""),
        ("User drinks coffee", "User doesn't drink coffee", ""),
        ("ユーザーは納豆が好き", "ユーザーは納豆が食べられない", ""),
        ("La clínica acepta pago con tarjeta", "La clínica no acepta tarjeta, solo efectivo", ""),
    ):  # fmt: skip
        pa, pb = profile(a), profile(b)
        got = apart(pa, pb, compare(pa, pb), "change")
        assert (why in got) if why else got == "", (a, b, got)


def test_crossfit_points_bound_the_honest_share_by_its_interval_not_by_its_maximum() -> None:
    """Tidy 19's rule (``bench/tidy_pairs.py --rule crossfit``): the decision points may
    give the model's proposals to as many honest pairs as keep the upper end of their
    95 % interval under the aim; tidy 15's rule, none at all, sits above the one
    honest pair that scores highest; too few honest pairs to bound the share leave the
    model off."""
    from tidy_pairs import choose

    honest = [LPair("s", "dev", f"h{k}", "honest", "a", "b") for k in range(300)]
    updates = [LPair("s", "dev", f"u{k}", "update", "a", "b") for k in range(20)]
    pairs = honest + updates
    scores = [(0.1, 0.93 if k == 0 else 0.1) for k in range(300)] + [(0.1, 0.93)] * 20
    rules, kept = ["none"] * len(pairs), [(False, False)] * len(pairs)
    assert choose(pairs, rules, scores, kept)[1] > 0.93  # the maximum: no update flagged
    assert choose(pairs, rules, scores, kept, aim=0.02)[1] <= 0.93  # 1 of 300: upper 1.9 %
    assert choose(pairs, rules, scores, kept, aim=0.01) == (1.01, 1.01)  # 0 of 300: 1.3 %
