"""Tidy 32: a pair model file records the digest of what today's features read on a
fixed probe set, and the command that rebuilds it (``bench/_tidy_pairfit32.py``); the
decision rule that admits a fixed share of honest pairs."""

from __future__ import annotations

import pytest

import _tidy_pairfit32 as t32
from mnemic.ops.tidy.pairmodel import pair_model


@pytest.fixture(scope="module")
def digest() -> str:
    return t32.probe_digest()


def test_the_shipped_model_was_fitted_on_the_features_this_code_computes(digest: str) -> None:
    """Fails when the features (the rules' verdicts and vetoes included) changed without
    a rebuild of ``pair_model.bin``, with the command that rebuilds it (tidy 34 shipped
    the rebuild: ``./x bench tidy_pairs --fit --recipe today``; tidy 15's file, which
    recorded no digest, failed it)."""
    why = t32.stale(pair_model().header, digest)
    assert why is None, why


def test_a_model_fitted_on_other_features_is_named_with_its_rebuild_command(
    digest: str,
) -> None:
    """A header recording today's digest passes; another digest, or none (as tidy 15's
    file), is refused with the command (failed before: nothing recorded or checked)."""
    header = {"feature_version": 1, "probe_digest": digest, "rebuild": t32.REBUILD["b"]}
    assert t32.stale(header, digest) is None
    why = t32.stale({**header, "probe_digest": "0" * 64}, digest)
    assert why is not None and "other features" in why and t32.REBUILD["b"] in why
    why = t32.stale({"feature_version": 1}, digest)
    assert why is not None and "no probe digest" in why and t32.REBUILD["a"] in why


def test_the_probe_digest_moves_when_a_rule_verdict_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rule that judged differently (here: no rule judges anything) is seen."""
    from mnemic.ops.tidy import detect

    some = t32.probe_pairs()[:40]
    before = t32.probe_digest(pairs=some)
    assert t32.probe_digest(pairs=some) == before
    monkeypatch.setattr(detect, "judge", lambda *a, **k: None)
    assert t32.probe_digest(pairs=some) != before


def _pool(
    honest: list[float], updates: list[float], rules_joined: int = 0
) -> tuple[list[str], list[str], list[tuple[float, float]], list[tuple[bool, bool]]]:
    kinds = ["honest"] * (len(honest) + rules_joined) + ["update"] * len(updates)
    rules = ["none"] * len(honest) + ["merge"] * rules_joined + ["none"] * len(updates)
    scores = [(0.0, s) for s in honest] + [(0.0, 0.0)] * rules_joined
    scores += [(0.0, s) for s in updates]
    return kinds, rules, scores, [(False, False)] * len(kinds)


def test_the_fixed_share_admits_that_many_honest_pairs_and_no_more() -> None:
    """100 honest pairs (2 % of them: 2), their change scores 0.96, 0.93, 0.90 and the
    rest low; updates at 0.95 and 0.91: the cut goes under the second honest pair and
    above the third, so both updates are flagged (tidy 15's rule sat above 0.96)."""
    honest = [0.96, 0.93, 0.90] + [0.1] * 97
    (tm, tc), info = t32.count_points(*_pool(honest, [0.95, 0.91]))
    assert 0.90 < tc <= 0.91
    assert info["model_joined"] == 2 and info["flagged"] == 2
    assert tm == 1.01  # no merge score reaches any point: the merge head stays off


def test_the_rules_joins_count_against_the_share() -> None:
    """The same pool with two honest pairs the rules join already: the model may join
    none, so the cut sits above the highest honest score."""
    honest = [0.96, 0.93, 0.90] + [0.1] * 95
    (_, tc), info = t32.count_points(*_pool(honest, [0.95, 0.91], rules_joined=2))
    assert tc > 0.96
    assert info["model_joined"] == 0 and info["rules_joined"] == 2


def test_what_the_pool_counts_is_what_plan_does() -> None:
    """:func:`tally` (plan's logic on scores) and :func:`count_points` agree."""
    kinds, rules, scores, vetoed = _pool([0.96, 0.93, 0.90] + [0.1] * 97, [0.95, 0.91])
    points, info = t32.count_points(kinds, rules, scores, vetoed)
    got = t32.tally(kinds, rules, scores, vetoed, points)
    assert got == {"flagged": info["flagged"], "honest_joined": info["model_joined"]}
