"""Lesson 4 (reading BO papers): the properties its pictures and exercises rely on, its widgets' drawing functions at
their sliders' end values, and its experiment module's protocol."""
import numpy as np
import pandas as pd
import pytest

from common import store
from common.experiments import lesson4_reading_papers as lesson
from common.lessons import gp_regression as gpr
from common.lessons import reading_papers as rp
from common.notebook import configuration
from lesson_widgets import (assert_every_slider_end_lies_on_its_step, assert_follows_the_figure_rules,
                            slider_ends)

WIDGETS = [(rp.pseudo_point_figure, rp.PSEUDO_POINT_SLIDERS), (rp.ensemble_figure, rp.ENSEMBLE_SLIDERS),
           (rp.epochs_figure, rp.EPOCH_SLIDERS)]


@pytest.mark.parametrize(("function", "arguments"), list(slider_ends(WIDGETS)))
def test_every_widget_draws_at_its_sliders_end_values_within_the_figure_rules(function, arguments):
    assert_follows_the_figure_rules(function(**arguments))


def test_every_slider_end_lies_on_its_step():
    assert_every_slider_end_lies_on_its_step(WIDGETS)


# --------------------------------------------------------------------------- 1. a claim and its verdict
def test_the_synthetic_example_is_supported_until_one_seed_fails_and_again_without_it():
    a, b = rp.synthetic_regrets()
    failed = rp.with_failed_seed(a)
    assert rp.judge(rp.compare(a, b)).judgement == "supported"
    broken = rp.compare(failed, b)
    assert rp.judge(broken).judgement == "undecided"
    assert broken.effect.estimate > 1 > broken.typical.estimate  # the mean follows one seed, the median does not
    worst = int(np.argmax(failed / b))
    assert worst == rp.FAILED_SEED
    kept = np.arange(len(a)) != worst
    dropped = rp.compare(failed[kept], b[kept])
    assert dropped.effect.estimate < 1  # no longer carried by the failed run
    assert rp.judge(dropped) == rp.judge(rp.compare(a[kept], b[kept]))  # the failure touched that seed alone


def test_the_comparison_figure_follows_the_figure_rules():
    a, b = rp.synthetic_regrets()
    fig = gpr.new_figure((9, 4))
    rp.draw_comparisons({"as planned": (a, b), "one seed failed": (rp.with_failed_seed(a), b)}, fig)
    assert_follows_the_figure_rules(fig)


# --------------------------------------------------------------------------- 2a. pseudo-points
@pytest.mark.parametrize("tau", [1e-5, 1e-3, 0.03, 0.1, 0.3])
def test_pseudo_points_never_increase_the_posterior_std(tau):
    arrays = rp.pseudo_point_arrays(tau)
    assert np.all(arrays["std"] <= arrays["std_without"] + 1e-9)  # Lemma 2
    assert len(arrays["X_pseudo"]) == len(arrays["X"])
    assert np.all(np.abs(arrays["X_pseudo"] - arrays["X"]) <= tau + 1e-12)


def test_no_pseudo_points_at_tau_zero_and_std_at_matches_the_figure():
    none = rp.pseudo_point_arrays(0.0)
    assert len(none["X_pseudo"]) == 0 and np.array_equal(none["std"], none["std_without"])
    arrays = rp.pseudo_point_arrays(0.01, n_grid=51)
    without, with_ = rp.std_at(0.01, arrays["x"])
    np.testing.assert_allclose(without, arrays["std_without"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(with_, arrays["std"], rtol=1e-9, atol=1e-12)


def test_the_pseudo_points_move_outwards_with_tau():
    small, large = rp.pseudo_point_arrays(0.01), rp.pseudo_point_arrays(0.1)
    inside = (large["X_pseudo"] > 0) & (large["X_pseudo"] < 1)  # the box clips the others
    assert inside.sum() >= 3
    np.testing.assert_allclose((large["X_pseudo"] - large["X"])[inside],
                               10 * (small["X_pseudo"] - small["X"])[inside], atol=1e-12)


# --------------------------------------------------------------------------- 2b. random exploration
def test_exploit_plus_adds_one_uniform_point_per_iteration_from_the_same_start():
    runs = {method: rp.exploration_run(method, 0, 11) for method in rp.EXPLORATION_METHODS}
    assert runs["EXPLOIT"]["X"][0] == runs["EXPLOIT+"]["X"][0]  # the shared initial point
    assert not runs["EXPLOIT"]["uniform"].any()
    plus = runs["EXPLOIT+"]
    assert plus["uniform"].sum() == 5 and not plus["uniform"][0]
    assert np.all(np.diff(plus["regret"]) <= 0) and np.all(plus["regret"] >= 0)
    fig = gpr.new_figure((9, 3.8))
    rp.draw_exploration(runs, fig)
    assert_follows_the_figure_rules(fig)


# --------------------------------------------------------------------------- 2c. the additive GP
def test_the_additive_gp_learns_the_additive_function_from_fewer_points():
    sizes = [10, 30]
    errors = [rp.additive_error_arrays(n_points, 3) for n_points in sizes]
    assert np.median(errors[1]["error_additive"]) < np.median(errors[1]["error_full"])
    fig = gpr.new_figure()
    rp.draw_additive_errors(sizes, [found["error_full"] for found in errors],
                            [found["error_additive"] for found in errors], fig)
    assert_follows_the_figure_rules(fig)


def test_the_additive_view_draws_both_posteriors_within_the_figure_rules():
    arrays = rp.additive_view_arrays(8)
    assert arrays["f"].shape == arrays["full"].shape == arrays["additive"].shape
    fig = gpr.new_figure((10, 3.6))
    rp.draw_additive_view(arrays, fig)
    assert_follows_the_figure_rules(fig)


# --------------------------------------------------------------------------- 2d. the ensemble's weights
@pytest.mark.parametrize("n_points", [0, 1, 5, rp.ENSEMBLE_MAX_POINTS])
def test_the_evidence_weights_sum_to_one_at_every_step(n_points):
    weights = rp.ensemble_arrays(n_points)["weights"]
    assert weights.shape == (n_points + 1, len(rp.ENSEMBLE_KERNEL_NAMES))
    assert np.all(weights >= 0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(weights[0], 1 / len(rp.ENSEMBLE_KERNEL_NAMES))


def test_the_chained_weights_are_the_batch_evidence_weights_of_eq_7():
    n_points = 8
    chained = rp.ensemble_arrays(n_points)["weights"][-1]
    X = gpr.DESIGN[:n_points, None]
    batch = rp.make_ensemble().fit(X, rp.forrester(X) / gpr.SIGNAL_STD).weights
    np.testing.assert_allclose(chained, batch, rtol=1e-6, atol=1e-9)


# --------------------------------------------------------------------------- 2e. epochs
def test_the_epoch_length_does_not_increase_with_the_variance():
    variances = np.geomspace(1e-5, 1e2, 500)
    for threshold in (1.05, 1.1, 2.0):
        lengths = rp.paper_epoch_length(variances, threshold)
        assert np.all(np.diff(lengths) <= 0) and lengths.min() == 1


@pytest.mark.parametrize("threshold", [1.05, 1.5])
def test_the_library_sizes_its_epochs_by_the_papers_rule(threshold):
    arrays = rp.epoch_arrays(threshold, n_steps=300)
    rule = arrays["unclamped"]
    assert rule.any()
    np.testing.assert_array_equal(arrays["lengths"][rule],
                                  rp.paper_epoch_length(arrays["chosen_variance"][rule], threshold))
    by_variance = np.argsort(arrays["chosen_variance"][rule])
    assert np.all(np.diff(arrays["lengths"][rule][by_variance]) <= 0)
    assert arrays["lengths"].sum() == 300 and len(arrays["sequential_arms"]) == 300
    assert len(arrays["lengths"]) < 300  # fewer acquisition maximizations than GP-UCB's one per evaluation


def test_unique_so_far_counts_distinct_arms():
    np.testing.assert_array_equal(rp.unique_so_far([3, 3, 1, 3, 2]), [1, 1, 2, 2, 3])


# --------------------------------------------------------------------------- 3. which idea helps where
def test_idea_against_rank_counts_the_strongest_twins_outcomes():
    effects = pd.DataFrame({"idea": ["UCB-PP", "UCB-PP", "UCB-PP", "EGP-TS", "EGP-TS"],
                            "problem": ["a", "b", "c", "a", "a"],
                            "outcome": ["lower", "undecided", "higher", "lower", "higher"],
                            "strongest twin": [True, True, True, False, True]})
    ranks = pd.Series({"UCB-PP": 2.1, "EGP-TS": 1.4})
    table = rp.idea_against_rank(effects, ranks).set_index("idea of")
    assert table.loc["UCB-PP", ["problems", "lower", "higher", "undecided", "never acts"]].tolist() == [3, 1, 1, 1, 0]
    assert table.loc["EGP-TS", ["problems", "lower", "higher", "undecided", "never acts"]].tolist() == [1, 0, 1, 0, 0]
    assert table["whole method's average rank"].tolist() == sorted(table["whole method's average rank"])


# --------------------------------------------------------------------------- the experiment module
@pytest.mark.parametrize("scale", ["smoke", "quick", "paper"])
def test_every_configuration_is_valid_and_names_its_budget(scale):
    grid = lesson.make_grid(configuration(lesson, scale))
    for config in grid:
        store.validate_config(config)
        assert config["budget"] > 0
    assert len({store.run_key(config) for config in grid}) == len(grid)


def test_a_run_stores_its_arrays_without_repeating_its_settings():
    params = configuration(lesson, "smoke")
    config = lesson.pseudo_point_config(params, 0.01)
    result = lesson.run(config)
    assert not set(result) & set(config)
    assert {"std", "std_without", "X_pseudo"} <= set(result)


def test_the_arena_is_read_from_its_cache_except_at_the_smoke_scale():
    from common.experiments import arena, arena_methods

    assert configuration(lesson)["arena_source"] == "cached"
    assert lesson.arena_configuration(configuration(lesson)) == configuration(arena)
    smoke = lesson.arena_configuration(configuration(lesson, "smoke"))
    assert smoke["scale"] == "smoke" and smoke["problems"] == configuration(lesson, "smoke")["arena_problems"]
    assert not set(smoke["methods"]) & set(arena_methods.LIBRARIES)


def test_disagreements_are_the_methods_whose_rank_and_idea_point_different_ways():
    against = pd.DataFrame({"idea of": ["good rank, bad idea", "good rank, good idea", "bad rank, good idea",
                                        "bad rank, nothing"],
                            "whole method's average rank": [1.5, 2.0, 3.5, 4.0], "of methods": 4,
                            "problems": 3, "lower": [0, 2, 2, 0], "higher": [2, 0, 1, 0], "undecided": [1, 1, 0, 3]})
    assert rp.disagreements(against)["idea of"].tolist() == ["good rank, bad idea", "bad rank, good idea"]


def test_code_of_shows_a_function_without_its_docstring_or_a_stretch_of_it():
    from common.methods import bo_pp, mini_gp_opt

    shown = rp.code_of(bo_pp.posterior_with_pseudo_points)
    assert shown.startswith("def posterior_with_pseudo_points(") and '"""' not in shown
    assert "augmented.fit" in shown
    rule = rp.code_of(mini_gp_opt.mini_meta, "normalized_variance =", "length =").splitlines()
    assert len(rule) == 3 and rule[1].startswith("rule = ")
