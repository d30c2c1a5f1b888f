"""Paired, seed-by-seed comparisons: counts, the test, the interval, the direction, bad input."""
import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

from common import stats

SEEDS = 20


@pytest.fixture
def baseline():
    return np.random.default_rng(3).uniform(0.5, 1.5, SEEDS)


@pytest.fixture
def improved(baseline):
    # Better by 0.05 to 0.15 on every seed: a clear improvement for higher-is-better scores.
    return baseline + np.linspace(0.05, 0.15, SEEDS)


def test_a_clear_improvement_on_20_seeds_is_better(improved, baseline):
    comparison = stats.paired_comparison(improved, baseline, higher_is_better=True)
    assert (comparison.outcome, comparison.wins, comparison.losses) == ("better", SEEDS, 0)


def test_identical_arrays_are_all_ties_with_p_one(baseline):
    comparison = stats.paired_comparison(baseline, baseline.copy(), higher_is_better=True)
    assert (comparison.ties, comparison.p_value, comparison.outcome) == (SEEDS, 1.0, "no significant difference")


def test_swapping_a_and_b_swaps_wins_and_losses(improved, baseline):
    forward = stats.paired_comparison(improved, baseline, higher_is_better=True)
    backward = stats.paired_comparison(baseline, improved, higher_is_better=True)
    assert (backward.wins, backward.losses, backward.outcome) == (forward.losses, forward.wins, "worse")


def test_lower_is_better_flips_the_direction(improved, baseline):
    comparison = stats.paired_comparison(improved, baseline, higher_is_better=False)
    assert (comparison.outcome, comparison.losses) == ("worse", SEEDS)


def test_median_difference_is_positive_when_a_is_better_for_lower_is_better(improved, baseline):
    assert stats.paired_comparison(baseline, improved, higher_is_better=False).median_difference > 0


def test_bootstrap_interval_contains_the_median_difference(baseline):
    noisy = baseline + np.random.default_rng(4).normal(0.02, 0.1, SEEDS)
    comparison = stats.paired_comparison(noisy, baseline, higher_is_better=True)
    low, high = comparison.interval
    assert low <= comparison.median_difference <= high


def test_comparison_is_deterministic(baseline):
    noisy = baseline + np.random.default_rng(5).normal(0.0, 0.1, SEEDS)
    assert (stats.paired_comparison(noisy, baseline, higher_is_better=True)
            == stats.paired_comparison(noisy, baseline, higher_is_better=True))


def test_differences_within_the_tie_tolerance_are_ties(baseline):
    nudged = baseline * (1 + 1e-14)
    assert stats.paired_comparison(nudged, baseline, higher_is_better=True).ties == SEEDS


def test_ties_are_left_out_of_the_test(improved, baseline):
    # 16 of 20 seeds tied, 4 wins: the signed-rank test on 4 pairs cannot reach p < 0.05.
    mostly_tied = np.where(np.arange(SEEDS) < 4, improved, baseline)
    comparison = stats.paired_comparison(mostly_tied, baseline, higher_is_better=True)
    assert (comparison.ties, comparison.outcome) == (16, "no significant difference")


def test_p_value_is_the_wilcoxon_test_of_the_untied_pairs(baseline):
    noisy = baseline + np.random.default_rng(6).normal(0.03, 0.1, SEEDS)
    expected = scipy_stats.wilcoxon(noisy - baseline).pvalue
    assert math.isclose(stats.paired_comparison(noisy, baseline, higher_is_better=True).p_value, expected)


def test_is_better_and_is_no_worse_follow_the_outcome(improved, baseline):
    better = stats.paired_comparison(improved, baseline, higher_is_better=True)
    worse = stats.paired_comparison(baseline, improved, higher_is_better=True)
    assert (stats.is_better(better), stats.is_no_worse(better), stats.is_better(worse),
            stats.is_no_worse(worse)) == (True, True, False, False)


def test_ties_count_as_no_worse_but_not_better(baseline):
    tied = stats.paired_comparison(baseline, baseline, higher_is_better=True)
    assert (stats.is_better(tied), stats.is_no_worse(tied)) == (False, True)


def test_text_shows_counts_median_interval_and_p():
    comparison = stats.PairedComparison(n=20, wins=12, ties=5, losses=3, p_value=0.012, median_difference=0.031,
                                        interval=(0.004, 0.06), outcome="better")
    assert str(comparison) == "12 W / 5 T / 3 L, median diff 0.031 [0.004, 0.06], p = 0.012"


@pytest.mark.parametrize("a, b, named", [
    ([1.0, 2.0, 3.0], [1.0, 2.0], "same length"),
    ([1.0, np.nan], [1.0, 2.0], "a must hold finite"),
    ([1.0, 2.0], [1.0, np.inf], "b must hold finite"),
    ([], [], "a must hold at least one"),
    ([[1.0, 2.0]], [[1.0, 2.0]], "a must be one-dimensional"),
])
def test_bad_input_raises_naming_the_parameter(a, b, named):
    with pytest.raises(ValueError, match=named):
        stats.paired_comparison(a, b, higher_is_better=True)


def test_negative_tie_tolerance_is_refused():
    with pytest.raises(ValueError, match="tie_tolerance"):
        stats.paired_comparison([1.0], [2.0], higher_is_better=True, tie_tolerance=-1.0)


def test_a_single_pair_is_never_significant():
    assert stats.paired_comparison([2.0], [1.0], higher_is_better=True).outcome == "no significant difference"


@pytest.mark.parametrize("n_cells", [1, 4, 8, 12, 72])
def test_count_beyond_chance_is_the_fewest_cells_chance_reaches_rarely(n_cells):
    count = stats.count_beyond_chance(n_cells)
    tail = scipy_stats.binom.sf([count - 1, count - 2], n_cells, stats.ALPHA / 2)
    assert tail[0] <= stats.ALPHA and (count == 1 or tail[1] > stats.ALPHA)


def test_count_beyond_chance_refuses_zero_cells():
    with pytest.raises(ValueError, match="n_cells"):
        stats.count_beyond_chance(0)


def test_zero_resamples_skip_the_interval_but_not_the_test(improved, baseline):
    comparison = stats.paired_comparison(improved, baseline, higher_is_better=True, n_resamples=0)
    assert comparison.outcome == "better" and all(math.isnan(bound) for bound in comparison.interval)
