"""Paired, seed-by-seed comparisons: counts, the test, the interval, the direction, bad input."""
import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

from common import judging, stats

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


# --------------------------------------------------------------------------- estimation against a margin
MARGIN = judging.DEFAULT_MARGIN


def regrets(seeds, seed=11):
    """Positive per-seed regrets of a baseline, spread as BO regrets are (a factor of a few either way)."""
    return np.random.default_rng(seed).lognormal(0.0, 0.5, seeds)


def judged(ours, other, claim, *, higher_is_better=False, scale="ratio", margin=MARGIN):
    comparison = stats.paired_comparison(ours, other, higher_is_better=higher_is_better, scale=scale)
    return judging.judge_cell(comparison, claim, margin)


def test_ratio_effect_is_the_ratio_of_means_inside_its_interval():
    other = regrets(20)
    ours = other * 0.7
    effect = stats.paired_comparison(ours, other, higher_is_better=False, scale="ratio").effect
    assert math.isclose(effect.estimate, 0.7) and effect.low <= 0.7 <= effect.high


def test_ratio_effect_does_not_depend_on_the_units():
    other = regrets(20)
    ours = other * np.random.default_rng(1).uniform(0.5, 1.3, 20)
    plain, scaled = stats.estimate_effect(ours, other, "ratio"), stats.estimate_effect(1000 * ours, 1000 * other, "ratio")
    assert np.allclose([plain.estimate, plain.low, plain.high], [scaled.estimate, scaled.low, scaled.high], rtol=1e-12)


def test_difference_effect_is_the_mean_difference():
    other = np.random.default_rng(2).uniform(0.8, 0.9, 20)
    effect = stats.estimate_effect(other + 0.01, other, "difference")
    assert math.isclose(effect.estimate, 0.01)


def test_ratio_of_two_all_zero_samples_is_no_difference():
    zeros = np.zeros(10)
    assert stats.estimate_effect(zeros, zeros, "ratio") == stats.Effect("ratio", 1.0, 1.0, 1.0)


def test_ratio_scale_refuses_negative_values_naming_the_scale():
    with pytest.raises(ValueError, match="scale='difference'"):
        stats.paired_comparison(np.array([-1.0, 2.0]), np.array([1.0, 2.0]), higher_is_better=True, scale="ratio")


def test_expanded_interval_is_wider_at_few_seeds():
    assert stats.expanded_tail(10) < stats.expanded_tail(40) < (1 - stats.CONFIDENCE) / 2


def test_a_clear_gain_supports_better():
    other = regrets(20)
    assert judged(other * 0.5, other, "better").judgement == "supported"


def test_a_clear_loss_contradicts_better():
    other = regrets(20)
    assert judged(other * 1.5, other, "better").judgement == "contradicted"


def test_no_difference_measured_precisely_leaves_better_undecided_and_says_what_it_excludes():
    # Within 1 % on every seed at 40 seeds: the runs exclude the project's 10 % gain, not the paper's direction.
    other = regrets(40)
    ours = other * np.random.default_rng(3).uniform(0.99, 1.01, 40)
    found = judged(ours, other, "better")
    assert found.judgement == "undecided" and "no difference not excluded" in found.note
    with judging.margin_alone_contradicts():
        assert judged(ours, other, "better").judgement == "contradicted"


def test_a_noisy_small_sample_leaves_better_undecided_and_says_how_many_seeds_would_decide():
    other = regrets(5)
    ours = other * np.random.default_rng(4).lognormal(-0.1, 0.6, 5)
    found = judged(ours, other, "better")
    assert found.judgement == "undecided" and found.seeds_to_decide > 5


def test_a_tiny_difference_at_40_seeds_supports_no_worse():
    # mini_gp_opt's case: 0.9 % more regret, which the p-value rule called harm.
    other = regrets(40)
    ours = other * np.random.default_rng(5).uniform(1.004, 1.014, 40)
    assert stats.paired_comparison(ours, other, higher_is_better=False).outcome == "worse"
    assert judged(ours, other, "no worse").judgement == "supported"


def test_five_untied_losses_never_support_no_worse():
    # bo_pp's case: 15 seeds tie, the PP variant doubles the regret on the other 5; the Wilcoxon
    # test cannot reach p < 0.05 on 5 pairs, so the p-value rule called this "no worse".
    other = regrets(20)
    ours = other.copy()
    ours[:5] *= 2.0
    assert stats.paired_comparison(ours, other, higher_is_better=False).outcome == "no significant difference"
    assert judged(ours, other, "no worse").judgement in ("undecided", "contradicted")


def test_a_large_loss_contradicts_no_worse():
    other = regrets(20)
    assert judged(other * 2.0, other, "no worse").judgement == "contradicted"


def test_substantially_better_needs_the_interval_beyond_the_margin():
    other = regrets(40)
    slightly = other * np.random.default_rng(6).uniform(0.93, 0.95, 40)
    assert judged(slightly, other, "better").judgement == "supported"
    # Short of the project's margin but on the paper's side: not supported, and never contradicted by our margin.
    assert judged(slightly, other, "substantially better").judgement == "undecided"
    assert judged(other * 1.5, other, "substantially better").judgement == "contradicted"


def test_higher_is_better_on_the_difference_scale_uses_the_margin_in_natural_units():
    accuracy = np.random.default_rng(7).uniform(0.80, 0.90, 30)
    margin = judging.Margin("difference", 0.01, "one point of accuracy")
    assert judged(accuracy + 0.03, accuracy, "better", higher_is_better=True, scale="difference",
                  margin=margin).judgement == "supported"
    assert judged(accuracy - 0.005, accuracy, "no worse", higher_is_better=True, scale="difference",
                  margin=margin).judgement == "supported"


def test_judging_refuses_a_margin_on_another_scale():
    other = regrets(10)
    comparison = stats.paired_comparison(other, other, higher_is_better=False, scale="difference")
    with pytest.raises(ValueError, match="scale='ratio'"):
        judging.judge_cell(comparison, "better", MARGIN)


@pytest.mark.parametrize("fields, named", [({"scale": "log"}, "scale"), ({"size": 0.0}, "size"),
                                           ({"source": ""}, "source")])
def test_invalid_margin_is_refused_naming_the_field(fields, named):
    with pytest.raises(ValueError, match=named):
        judging.Margin(**{"scale": "ratio", "size": 0.1, "source": "default", **fields})


def test_tally_counts_supported_contradicted_and_undecided_cells():
    other = regrets(20)
    cells = [judging.cell("gain", stats.paired_comparison(other * 0.5, other, higher_is_better=False, scale="ratio"),
                        "better", MARGIN),
             judging.cell("loss", stats.paired_comparison(other * 2, other, higher_is_better=False, scale="ratio"),
                        "better", MARGIN),
             judging.cell("absent", None, "better", MARGIN)]
    counted = judging.tally(cells)
    assert (counted.score, counted.reachable) == (1 / 3, 2 / 3)
    assert counted.counts == {"supported": 1, "contradicted": 1, "undecided": 0, "not comparable": 0, "not run": 1}


def test_a_cell_with_few_untied_seeds_says_so():
    other = regrets(20)
    ours = other.copy()
    ours[:3] *= 0.5
    found = judging.cell("three untied", stats.paired_comparison(ours, other, higher_is_better=False, scale="ratio"),
                       "better", MARGIN)
    assert "(only 3 of 20 seeds untied)" in str(found)


@pytest.mark.parametrize("differences", [
    [0.3, -0.1, 0.2, 0.2, 0.5, -0.4, 0.1, 0.7],          # tied magnitudes, n <= 13: scipy's permutation test
    list(np.linspace(-0.2, 1.0, 17)),                      # no ties: scipy's exact distribution
], ids=["ties", "no ties"])
def test_the_p_value_is_scipys_on_the_first_and_on_a_repeated_comparison(differences):
    plain = np.ones(len(differences))
    better = plain + differences
    expected = scipy_stats.wilcoxon(better - plain).pvalue
    for _ in range(2):  # the second comparison reads the cached p-value
        assert stats.paired_comparison(better, plain, higher_is_better=True).p_value == expected


def test_the_vectorized_exact_signed_rank_test_gives_scipys_p_value_to_the_bit():
    from scipy import stats as scipy_stats

    from common.stats import _signed_rank_p_value
    rng = np.random.default_rng(0)
    checked = 0
    for n in range(2, 14):
        for _ in range(8):
            # Values on a coarse grid, so that |differences| tie, as flat regret curves make them.
            differences = rng.integers(-4, 5, size=n).astype(float) * rng.choice([0.25, 1.5, 1e-3])
            differences = differences[differences != 0]
            if differences.size < 1:
                continue
            expected = float(scipy_stats.wilcoxon(differences).pvalue)
            assert _signed_rank_p_value(differences.tobytes()) == expected, differences
            checked += 1
    assert checked > 80


def test_a_cell_where_nearly_every_seed_ties_is_not_comparable_and_counts_neither_way():
    values = np.linspace(0.90, 0.99, 20)
    tied = stats.paired_comparison(values, values, higher_is_better=True)  # 20 of 20 seeds tie
    cell = judging.cell("saturated", tied, "better", judging.Margin("difference", 0.01, "test"))
    assert cell.judgement.judgement == "not comparable" and "20 of 20 seeds tie" in str(cell)
    clear = judging.cell("clear", stats.paired_comparison(values + 0.05, values, higher_is_better=True), "better",
                       judging.Margin("difference", 0.01, "test"))
    counted = judging.tally([cell, clear])
    assert (counted.score, counted.reachable) == (1.0, 1.0)  # the tied cell is left out of both shares
    with judging.previous_rules():
        assert judging.judge_cell(tied, "better", judging.Margin("difference", 0.01, "test")).judgement == "contradicted"


def _accuracy_cell(mean_gain, paper_gain):
    rng = np.random.default_rng(7)
    b = rng.uniform(0.90, 0.95, 20)
    a = b + mean_gain + rng.normal(0.0, 0.002, 20)
    comparison = stats.paired_comparison(a, b, higher_is_better=True, scale="difference")
    margin = judging.Margin("difference", 0.01, "one point of accuracy")
    return judging.judge_cell(comparison, "better", margin, paper_effect=paper_gain), comparison


def test_a_better_cell_below_the_margin_but_holding_the_papers_own_gain_is_undecided_not_contradicted():
    judged, comparison = _accuracy_cell(0.001, 0.0005)
    _, low, high = stats.advantage_interval(comparison)
    assert low < 0.0005 < high < 0.01   # excludes the margin, holds the paper's gain
    assert judged.judgement == "undecided" and "the paper's own effect is +0.0005" in judged.note
    with judging.previous_rules():
        assert judging.judge_cell(comparison, "better", judging.Margin("difference", 0.01, "x")).judgement == \
            "contradicted"


def test_a_better_cell_that_excludes_the_papers_own_gain_is_contradicted():
    judged, comparison = _accuracy_cell(-0.003, 0.0005)
    assert stats.advantage_interval(comparison)[2] < 0.0005 and judged.judgement == "contradicted"


def test_a_paper_effect_above_the_margin_leaves_the_margin_in_charge():
    judged, comparison = _accuracy_cell(0.001, 0.05)
    assert judged.judgement == "contradicted"


def test_the_papers_effect_is_read_on_the_advantage_scale():
    assert judging.paper_advantage(0.5, 1.0, "ratio", higher_is_better=False) == pytest.approx(np.log(2))
    assert judging.paper_advantage(0.9590, 0.9585, "difference", higher_is_better=True) == pytest.approx(0.0005)
    assert judging.paper_advantage(0.0, 1.0, "ratio", higher_is_better=False) is None
    assert judging.format_advantage(np.log(2), "ratio", higher_is_better=False) == "0.5x"


def _lognormal_pair(seed, n=20, log_effect=-0.2):
    rng = np.random.default_rng(seed)
    b = rng.lognormal(0.0, 1.0, n)
    return b * np.exp(log_effect + rng.normal(0.0, 0.5, n)), b


def test_an_interval_near_a_boundary_is_recomputed_with_more_resamples_and_one_far_from_it_is_not():
    a, b = _lognormal_pair(3)
    comparison = stats.paired_comparison(a, b, higher_is_better=False, scale="ratio")
    _, low, high = stats.advantage_interval(comparison)
    near = judging.Margin("ratio", math.expm1(high), "a margin at the interval's upper end")
    far = judging.Margin("ratio", math.expm1(high + 2 * (high - low)), "a margin far above it")
    assert judging.refined(comparison, "substantially better", near).effect.resamples == stats.N_REFINED
    if min(abs(low), abs(high)) >= stats.REFINE_NEAR * (high - low) / 2:
        assert judging.refined(comparison, "substantially better", far) is comparison


def test_a_refined_interval_end_moves_far_less_with_the_bootstrap_seed():
    a, b = _lognormal_pair(4)

    def spread(resamples):
        ends = []
        for seed in range(5):
            with stats.bootstrap_seed(seed):
                ends.append(np.log(stats.estimate_effect(a, b, "ratio", n_resamples=resamples).low))
        return np.std(ends)

    assert spread(stats.N_REFINED) < spread(stats.N_RESAMPLES) / 4


def test_an_interval_ends_monte_carlo_error_matches_its_spread_over_bootstrap_seeds():
    a, b = _lognormal_pair(6)
    ends, errors = [], []
    for seed in range(8):
        with stats.bootstrap_seed(seed):
            effect = stats.estimate_effect(a, b, "ratio", n_resamples=stats.N_REFINED)
        ends.append(np.log(effect.high))
        errors.append(effect.errors[1])
    assert 0.5 < np.median(errors) / np.std(ends, ddof=1) < 2


def test_the_default_resamples_give_no_monte_carlo_error_and_so_never_widen_an_interval():
    a, b = _lognormal_pair(7)
    assert all(math.isnan(error) for error in stats.estimate_effect(a, b, "ratio").errors)


def test_an_end_within_its_monte_carlo_errors_of_a_boundary_is_recomputed_on_the_precise_resamples(monkeypatch):
    monkeypatch.setattr(stats, "N_REFINED", 100_000)   # fewer resamples than the project's, the same property
    monkeypatch.setattr(stats, "N_PRECISE", 1_000_000)
    a, b = _lognormal_pair(8, log_effect=0.0)
    comparison = stats.paired_comparison(a, b, higher_is_better=False, scale="ratio")
    refined_end = stats.estimate_effect(a, b, "ratio", n_resamples=stats.N_REFINED).high
    on_it = judging.Margin("ratio", refined_end - 1, "a margin on the refined interval's end")
    precise = judging.refined(comparison, "no worse", on_it)
    assert precise.effect.resamples == stats.N_PRECISE
    assert precise.effect.errors[1] < stats.estimate_effect(a, b, "ratio", n_resamples=stats.N_REFINED).errors[1] / 2
    assert "Monte-Carlo errors" in judging.judge_cell(comparison, "no worse", on_it).note or not judging.within_errors(
        precise, judging.decision_boundaries("no worse", on_it))


def test_an_end_far_from_every_boundary_at_the_refined_resamples_is_not_recomputed_again(monkeypatch):
    monkeypatch.setattr(stats, "N_REFINED", 100_000)
    monkeypatch.setattr(stats, "N_PRECISE", 1_000_000)
    a, b = _lognormal_pair(8, log_effect=0.0)
    comparison = stats.paired_comparison(a, b, higher_is_better=False, scale="ratio")
    refined = stats.estimate_effect(a, b, "ratio", n_resamples=stats.N_REFINED)
    # a boundary 10 % of the half-width from the end: refined (within REFINE_NEAR), yet many errors away
    half_width = (math.log(refined.high) - math.log(refined.low)) / 2
    near = judging.Margin("ratio", math.expm1(math.log(refined.high) + 0.1 * half_width), "near, not on, the end")
    assert judging.refined(comparison, "no worse", near).effect.resamples == stats.N_REFINED


def test_the_bootstrap_seed_is_restored_after_the_block():
    a, b = _lognormal_pair(5)
    before = stats.estimate_effect(a, b, "ratio")
    with stats.bootstrap_seed(1):
        other = stats.estimate_effect(a, b, "ratio")
    assert other.low != before.low and stats.estimate_effect(a, b, "ratio") == before


# --------------------------------------------------------------------------- the typical seed
def test_the_typical_seeds_interval_covers_the_median_at_least_as_often_as_stated():
    rng = np.random.default_rng(0)
    true_median = 1.0   # of a lognormal difference shifted to median 1
    covered = []
    for _ in range(2000):
        differences = rng.lognormal(0.0, 1.0, 20)
        typical = stats.typical_effect(differences, np.zeros(20), "difference")
        covered.append(typical.low <= true_median <= typical.high)
    # The sign test's interval at 20 seeds covers 95.9 %; 2,000 samples put the rate within about +-0.9 %.
    assert np.mean(covered) >= stats.CONFIDENCE - 0.01


def test_the_typical_seed_follows_the_majority_where_a_few_seeds_carry_the_mean():
    rng = np.random.default_rng(1)
    b = rng.uniform(1.0, 2.0, 20)
    a = 1.2 * b
    a[:4] = b[:4] / 50.0   # four seeds where a is far better carry the ratio of means
    comparison = stats.paired_comparison(a, b, higher_is_better=False, scale="ratio")
    assert comparison.effect.estimate < 1.0 < comparison.typical.estimate
    assert comparison.typical.estimate == pytest.approx(1.2)


def test_the_typical_ratio_of_two_zero_regrets_is_no_difference():
    typical = stats.typical_effect(np.zeros(8), np.zeros(8), "ratio")
    assert (typical.estimate, typical.low, typical.high) == (1.0, 1.0, 1.0)


def test_the_typical_seeds_interval_is_unbounded_below_six_seeds():
    typical = stats.typical_effect(np.arange(5.0), np.zeros(5), "difference")
    assert (typical.low, typical.high) == (-math.inf, math.inf)


def test_a_mean_against_its_typical_seed_with_even_wins_and_losses_is_not_supported():
    # 10 wins and 10 losses: the counts split evenly, but the median seed favours b while the mean favours a.
    b = np.ones(20)
    # Lower is better: a wins far on 9 seeds and barely on 1, and loses a little on 10; the middle seeds lose.
    a = np.concatenate([np.full(9, 0.01), [0.97], np.full(10, 1.05)])
    comparison = stats.paired_comparison(a, b, higher_is_better=False, scale="ratio")
    assert (comparison.wins, comparison.losses) == (10, 10) and comparison.typical.estimate > 1.0
    judged = judging.judge_cell(comparison, "better", judging.DEFAULT_MARGIN)
    assert judged.judgement == "undecided" and "median seed" in judged.note


def test_curves_compared_at_once_match_each_iteration_compared_alone():
    rng = np.random.default_rng(2)
    b = rng.lognormal(0.0, 0.5, (20, 6))
    a = b * rng.lognormal(-0.1, 0.3, (20, 6))
    curves = stats.paired_curves(a, b, higher_is_better=False, scale="ratio")
    for column, found in enumerate(curves):
        alone = stats.paired_comparison(a[:, column], b[:, column], higher_is_better=False, scale="ratio")
        assert (found.wins, found.ties, found.losses, found.p_value) == (alone.wins, alone.ties, alone.losses,
                                                                         alone.p_value)
        assert found.effect.estimate == alone.effect.estimate and found.typical == alone.typical
        # Another draw of the same bootstrap: the ends agree to its Monte-Carlo error (a few % of the width).
        width = alone.effect.high - alone.effect.low
        assert abs(found.effect.low - alone.effect.low) < 0.15 * width
        assert abs(found.effect.high - alone.effect.high) < 0.15 * width


def test_the_curves_intervals_do_not_depend_on_how_many_resamples_are_summed_at_once(monkeypatch):
    rng = np.random.default_rng(5)
    b = rng.lognormal(0.0, 0.5, (12, 7))
    a = b * rng.lognormal(-0.1, 0.3, (12, 7))
    found = {}
    for at_once in (1, 7 * 3 + 2, 10 ** 9):   # a resample at a time, blocks that split resamples unevenly, all
        monkeypatch.setattr(stats, "_SUMMED_AT_ONCE", at_once)
        found[at_once] = [(c.effect.low, c.effect.high)
                          for c in stats.paired_curves(a, b, higher_is_better=False, scale="ratio")]
    assert found[1] == found[23] == found[10 ** 9]   # bit for bit


def test_curves_refine_the_iterations_that_end_near_a_boundary():
    rng = np.random.default_rng(4)
    b = rng.normal(0.0, 1.0, (20, 40))
    a = b + rng.normal(0.45, 1.0, (20, 40))   # about where an interval's lower end sits near 0
    curves = stats.paired_curves(a, b, higher_is_better=True, scale="difference", boundaries=[0.0])
    refined = [found.effect.resamples == stats.N_REFINED for found in curves]
    assert any(refined) and not all(refined)
    assert all(stats.near_boundary(replace_resamples(found), [0.0]) for found, is_refined in zip(curves, refined)
               if is_refined)


def replace_resamples(comparison):
    """The comparison as if its interval had the default resamples (to ask whether it was near a boundary)."""
    from dataclasses import replace
    return replace(comparison, effect=replace(comparison.effect, resamples=stats.N_RESAMPLES))


def test_an_unpaired_interval_covers_the_ratio_of_means_and_narrows_with_more_runs():
    rng = np.random.default_rng(3)
    few = stats.estimate_unpaired_effect(rng.gamma(4, 1, 10), rng.gamma(4, 2, 10), "ratio")
    many = stats.estimate_unpaired_effect(rng.gamma(4, 1, 400), rng.gamma(4, 2, 400), "ratio")
    for effect in (few, many):
        assert effect.low <= effect.estimate <= effect.high
    assert many.low < 0.5 < many.high
    assert many.high - many.low < few.high - few.low


def test_an_unpaired_effect_needs_two_values_a_side():
    with pytest.raises(ValueError, match="at least 2"):
        stats.estimate_unpaired_effect([1.0], [1.0, 2.0], "ratio")


def test_every_rows_interval_at_once_is_its_interval_alone_to_the_bit():
    rng = np.random.default_rng(9)
    resampled = rng.lognormal(0.0, 0.4, (5, 40_000))
    resampled[2, :7] = np.inf   # a ratio whose denominator's mean can be 0
    for scale in ("ratio", "difference"):
        at_once = stats._interval_ends(scale, resampled.copy(), 12)   # it reorders its scratch array
        alone = [stats._interval_ends(scale, row[None, :].copy(), 12)[0] for row in resampled]
        assert repr(at_once) == repr(alone)   # repr: NaN errors compare equal too


def test_a_refined_interval_is_the_same_computed_again_and_another_under_another_bootstrap_seed():
    a, b = _lognormal_pair(5)
    first = stats.estimate_effect(a, b, "ratio", n_resamples=stats.N_REFINED)
    stats._refined_effect.cache_clear()
    again = stats.estimate_effect(a.copy(), b.copy(), "ratio", n_resamples=stats.N_REFINED)
    with stats.bootstrap_seed(stats.BOOTSTRAP_SEED + 1):
        other = stats.estimate_effect(a, b, "ratio", n_resamples=stats.N_REFINED)
    assert (first.low, first.high, first.errors) == (again.low, again.high, again.errors)
    assert (other.low, other.high) != (first.low, first.high)


def test_a_cell_that_excludes_only_the_margins_gain_is_undecided_and_says_no_difference_is_not_excluded():
    # Issue 63 item 3 and DESIGN: the interval excludes the margin's gain but still holds no difference.
    other = regrets(40)
    ours = other * np.random.default_rng(3).uniform(0.99, 1.01, 40)
    comparison = stats.paired_comparison(ours, other, higher_is_better=False, scale="ratio")
    shown = str(judging.cell("ours vs other", comparison, "better", MARGIN))
    assert "undecided (a gain beyond 0.9" in shown and "no difference not excluded" in shown


def test_the_margin_is_no_decision_boundary_of_a_better_cell_without_the_papers_effect():
    assert judging.decision_boundaries("better", MARGIN) == [0.0]
    assert judging.decision_boundaries("substantially better", MARGIN) == [0.0, MARGIN.advantage]
    with judging.margin_alone_contradicts():
        assert judging.decision_boundaries("better", MARGIN) == [0.0, MARGIN.advantage]


def test_a_cell_contradicted_against_the_papers_direction_does_not_say_so():
    other = regrets(20)
    comparison = stats.paired_comparison(other * 1.5, other, higher_is_better=False, scale="ratio")
    shown = str(judging.cell("ours vs other", comparison, "better", MARGIN))
    assert "contradicted" in shown and "no difference not excluded" not in shown


def test_interval_ends_found_in_place_are_those_of_a_copy():
    rng = np.random.default_rng(10)
    resampled = rng.lognormal(0.0, 0.4, (3, 40_000))
    on_a_copy = stats._order_statistic_ends(resampled, 12)
    in_place = stats._order_statistic_ends(resampled.copy(), 12, in_place=True)
    assert all(np.array_equal(a, b) for a, b in zip(on_a_copy, in_place))
