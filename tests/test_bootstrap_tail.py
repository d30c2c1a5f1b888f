"""The exact bootstrap tail is the share of all n^n resamples, and decides a cell's side of a boundary seed-free."""
import itertools

import numpy as np
import pytest
from scipy import optimize

from common import bootstrap_tail, judging, stats


def _every_resample(a, b, scale):
    """The effect of every one of the n^n ordered resamples of the pairs (a brute force for small n)."""
    picks = np.array(list(itertools.product(range(a.size), repeat=a.size)))
    mean_a, mean_b = a[picks].mean(axis=1), b[picks].mean(axis=1)
    if scale == "difference":
        return mean_a - mean_b
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((mean_a == 0) & (mean_b == 0), 1.0, mean_a / mean_b)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("point", [0.7, 1.0, 1.3])
def test_the_tail_of_a_ratio_is_the_share_of_every_resample_below_the_point(n, point):
    rng = np.random.default_rng(n)
    b = rng.lognormal(0.0, 1.0, n)
    a = b * np.exp(rng.normal(0.0, 0.5, n))
    a[0] = b[0] = 0.0   # a seed where both methods reach zero regret: its resamples alone have ratio 1
    effects = _every_resample(a, b, "ratio")
    below, at_or_below = bootstrap_tail.effect_tail(a, b, "ratio", point)
    assert below == pytest.approx((effects < point).mean(), abs=1e-12)
    assert at_or_below == pytest.approx((effects <= point).mean(), abs=1e-12)


@pytest.mark.parametrize("n", [4, 5, 7])
def test_differences_on_a_lattice_that_sum_to_zero_count_as_zero(n):
    rng = np.random.default_rng(n)
    a, b = rng.integers(0, 5, n) / 10, rng.integers(0, 5, n) / 10   # tenths: 0.1 + 0.2 - 0.3 is not 0 in floats
    effects = np.round(_every_resample(a, b, "difference"), 12)
    below, at_or_below = bootstrap_tail.effect_tail(a, b, "difference", 0.0)
    assert (below, at_or_below) == pytest.approx(((effects < 0).mean(), (effects <= 0).mean()), abs=1e-12)


def test_a_tail_out_of_reach_is_none_and_bad_input_is_refused_naming_it():
    many = np.random.default_rng(0).normal(size=40)
    assert bootstrap_tail.sum_tail(many) is None   # 40 distinct values: far beyond the multisets allowed
    with pytest.raises(ValueError, match="d must be"):
        bootstrap_tail.sum_tail(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="point of a ratio"):
        bootstrap_tail.effect_tail(np.ones(3), np.ones(3), "ratio", 0.0)


def test_a_cell_whose_end_sits_on_its_boundary_is_judged_alike_under_every_bootstrap_seed():
    # A "no worse" cell whose margin puts the boundary at the exact upper end of the interval (16 seeds: a nearly
    # continuous bootstrap distribution). Its Monte-Carlo end lands on either side from seed to seed (seeds 1000-1003
    # judge it supported, undecided, supported, supported without the exact tail); the exact tail decides it alike.
    rng = np.random.default_rng(5)
    b = rng.lognormal(0.0, 0.6, 16)
    a = b * np.exp(rng.normal(0.05, 0.3, 16))
    upper_tail = 1 - stats.expanded_tail(16)
    upper = optimize.brentq(lambda t: bootstrap_tail.effect_tail(a, b, "ratio", t)[0] - upper_tail, 1.0, 3.0,
                            xtol=1e-13)
    margin = judging.Margin("ratio", upper - 1.0, "a margin at the interval's exact upper end")
    comparison = stats.paired_comparison(a, b, higher_is_better=False, scale="ratio")
    judged = []
    for seed in range(1000, 1004):
        stats._refined_effect.cache_clear()
        with stats.bootstrap_seed(seed):
            judged.append(judging.judge_cell(comparison, "no worse", margin))
    assert {found.judgement for found in judged} == {"supported"}
    assert all("exactly, the interval's high end lies below" in found.note for found in judged)


def test_a_cell_of_accuracies_is_judged_alike_under_every_bootstrap_seed_although_its_error_says_zero():
    # Accuracies on a lattice of 1/512 (egp_ts, 10 seeds): the lower end of "better" is 0 at most seeds and one step
    # above it at seed 1030, where its batch-means error made it 8.9 errors away; the exact tail puts the end on 0.
    step = 1 / 512
    a = np.full(10, 0.5)
    b = a - step * np.array([2, -1, 2, -1, 0, 2, 1, 4, 1, 1])
    assert bootstrap_tail.in_easy_reach(a - b)
    comparison = stats.paired_comparison(a, b, higher_is_better=True, scale="difference")
    margin = judging.Margin("difference", 0.01, "one point of accuracy")
    judged = set()
    for seed in (1000, 1001, 1030):
        stats._refined_effect.cache_clear()
        with stats.bootstrap_seed(seed):
            judged.add(judging.judge_cell(comparison, "better", margin).judgement)
    below, at_or_below = bootstrap_tail.effect_tail(a, b, "difference", 0.0)
    assert below < stats.expanded_tail(10) <= at_or_below   # the exact lower end is 0 itself: not above it
    assert judged == {"undecided"}


def test_a_cell_of_one_seed_is_judged_without_the_exact_tail():
    comparison = stats.paired_comparison(np.array([1.0]), np.array([2.0]), higher_is_better=False, scale="ratio")
    assert judging.judge_cell(comparison, "better", judging.DEFAULT_MARGIN).judgement == "undecided"
