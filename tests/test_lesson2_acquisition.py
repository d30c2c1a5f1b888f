"""Lesson 2 (acquisition functions): the properties its figures and exercises rely on, and its widgets' drawing
functions at their sliders' end values."""
import itertools

import numpy as np
import pytest

from common.acquisitions import ExpectedImprovement, ProbabilityOfImprovement, UpperConfidenceBound
from common.experiments import lesson2_acquisition as lesson
from common.teaching import forrester
from common.lessons import acquisition as acq
from common.lessons import player
from common.notebook import configuration
from lesson_widgets import (assert_every_slider_end_lies_on_its_step, assert_follows_the_figure_rules,
                            slider_ends)

WIDGETS = [(acq.ucb_figure, acq.UCB_SLIDERS), (acq.improvement_figure, acq.IMPROVEMENT_SLIDERS),
           (acq.thompson_figure, acq.THOMPSON_SLIDERS), (acq.maximizer_figure, acq.MAXIMIZER_SLIDERS)]


@pytest.mark.parametrize(("function", "arguments"), list(slider_ends(WIDGETS)))
def test_every_widget_draws_at_its_sliders_end_values_within_the_figure_rules(function, arguments):
    assert_follows_the_figure_rules(function(**arguments))


def test_every_slider_end_lies_on_its_step():
    assert_every_slider_end_lies_on_its_step(WIDGETS)


def test_the_maximizer_of_forrester_is_the_known_one():
    assert acq.X_STAR == pytest.approx(0.75725, abs=1e-4)
    assert acq.F_STAR == pytest.approx(6.02074, abs=1e-4)
    assert forrester(np.array([[acq.X_STAR]]))[0] == pytest.approx(acq.F_STAR, abs=1e-12)
    assert acq.X_LOCAL == pytest.approx(0.1426, abs=1e-3)


def test_ei_is_non_negative_and_zero_at_a_noise_free_observation():
    arrays = acq.improvement_arrays(0.0)
    assert np.all(arrays["ei"] >= 0) and np.all((arrays["pi"] >= 0) & (arrays["pi"] <= 1))
    X, y, gp = acq.fit_state()
    at_data = ExpectedImprovement(y.max())(gp, X)
    # noise-free up to the noise floor: sigma is ~1e-3 there, so EI <= sigma * phi(0) is ~4e-4 at most
    assert np.all(at_data < 1e-3)
    # with sigma exactly 0 and mu <= y+, EI and PI are exactly 0
    assert ExpectedImprovement(y.max()).from_moments(y, np.zeros_like(y)).max() == 0.0
    assert ProbabilityOfImprovement(y.max()).from_moments(y, np.zeros_like(y)).max() == 0.0


def test_ei_at_the_incumbent_is_positive_with_noise():
    X, y, gp = acq.fit_state(noise_std=0.5)
    assert ExpectedImprovement(y.max())(gp, X[[np.argmax(y)]])[0] > 0.05


def test_ucb_tends_to_the_mean_and_to_the_largest_sigma():
    tiny, huge = acq.ucb_arrays(1e-12), acq.ucb_arrays(1e10)
    np.testing.assert_allclose(tiny["ucb"], tiny["mean"], atol=1e-4)
    assert huge["next"] == huge["x"][np.argmax(huge["std"])]


def test_a_larger_xi_lowers_ei_and_pi_everywhere():
    low, high = acq.improvement_arrays(0.0), acq.improvement_arrays(2.0)
    assert np.all(high["ei"] <= low["ei"] + 1e-12) and np.all(high["pi"] <= low["pi"] + 1e-12)
    assert high["ei_limit"] == low["ei_limit"] == pytest.approx(low["ei"].max())


def test_pi_at_xi_zero_queries_next_to_the_incumbent():
    arrays = acq.improvement_arrays(0.0)
    assert abs(arrays["next_pi"] - arrays["X"][np.argmax(arrays["y"])]) < 0.01


def test_thompson_draws_grow_by_adding_draws():
    three, five = acq.thompson_arrays(3), acq.thompson_arrays(5)
    np.testing.assert_array_equal(three["draws"], five["draws"][:3])
    np.testing.assert_array_equal(three["maximizers"], five["maximizers"])
    assert np.all(five["draws"].max(axis=1) == five["draws"][np.arange(5), np.searchsorted(five["x"],
                                                                                          five["draw_maximizers"])])


def test_make_acquisition_names_the_allowed_rules():
    assert isinstance(acq.make_acquisition("UCB", 4.0, 0.0), UpperConfidenceBound)
    with pytest.raises(ValueError, match="'UCB', 'EI', 'PI'"):
        acq.make_acquisition("TS", 0.0, 0.0)
    with pytest.raises(ValueError, match="n_draws"):
        acq.thompson_arrays(acq.N_DRAWS + 1)


def test_the_exploration_method_uses_its_constant_parameter():
    method = acq.ExplorationMethod("EI", 1.5)
    made = method.make_acquisition(7, best=2.0)
    assert isinstance(made, ExpectedImprovement) and (made.best, made.xi) == (2.0, 1.5)
    X = np.array([[0.2], [0.6]])
    proposed = method.propose(X, forrester(X), 1, np.random.default_rng(0))
    assert proposed.shape == (1, 1) and 0 <= proposed[0, 0] <= 1
    assert method.kernel.lengthscale[0] == acq.LENGTHSCALE  # hyperparameters held fixed


def test_steps_to_reach():
    iteration = np.array([0, 0, 1, 2, 3])
    assert acq.steps_to_reach(np.array([0.1, 0.2, 0.5, acq.X_STAR + 0.005, acq.X_STAR]), iteration) == 2
    assert acq.steps_to_reach(np.array([acq.X_STAR, 0.2, 0.5, 0.9, 0.3]), iteration) == 0
    assert acq.steps_to_reach(np.array([0.1, 0.2, 0.5, 0.9, 0.3]), iteration) is None


def test_every_setting_of_a_seed_starts_from_the_same_design():
    params = configuration(lesson, "smoke")
    runs = [acq.loop_arrays(rule, parameter, 3, n_init=2, n_iterations=1)
            for rule, parameter in lesson.loop_settings(params)[:3]]
    for run in runs[1:]:
        np.testing.assert_array_equal(run["X"][:2], runs[0]["X"][:2])


def test_a_loop_prefix_recomputes_to_the_full_run():
    config = lesson.loop_config(configuration(lesson, "smoke"), "UCB", 4.0, 0)
    full, prefix = lesson.run(config), lesson.run(config, iterations=2)
    for name, values in prefix.items():
        np.testing.assert_array_equal(values, full[name][:len(values)])
    assert len(prefix["X"]) == config["n_init"] + 2


@pytest.mark.parametrize("maximizer", list(acq.MAXIMIZER_NAMES))
def test_the_maximizers_count_their_evaluations_and_never_beat_the_reference(maximizer):
    found = acq.maximize("forrester", maximizer, 9, seed=1, record_points=True)
    assert found["evaluations"] == len(found["points"])
    if maximizer == "grid":
        assert found["evaluations"] == 9
    if maximizer == "direct":
        assert found["evaluations"] <= 9
    values, _, _ = acq.acquisition_problem("forrester")
    assert values(found["x"][None, :])[0] == pytest.approx(found["found"])
    assert found["found"] <= acq.reference_maximum("forrester")["found"] + 1e-12


def test_a_grid_has_size_to_the_dimension_cell_centres():
    points = acq.grid_points(np.array([[0.0, 1.0], [2.0, 4.0]]), 3)
    assert points.shape == (9, 2)
    np.testing.assert_allclose(np.unique(points[:, 1]), [2 + 1 / 3, 3, 4 - 1 / 3])
    with pytest.raises(ValueError, match="maximizer"):
        acq.maximize("forrester", "newton", 3)


def test_relative_gaps_are_floored_for_a_log_axis():
    np.testing.assert_allclose(acq.relative_gap([2.0, 1.0], 2.0), [acq.GAP_FLOOR, 0.5])


def test_evaluations_to_reach_a_gap_take_the_median_seed_of_the_multi_start():
    study = {"forrester": {"reference": 2.0, "grid": (np.array([3, 9]), np.array([1.0, 2.0])),
                           "restarts": (np.array([[10, 20], [12, 22]]), np.array([[1.0, 2.0], [2.0, 2.0]]))}}
    assert lesson.evaluations_to_reach(study, "forrester", "grid", 1e-3) == 9
    # the median seed's gap is 0.25 at the first size, the floor at the second (20 and 22 evaluations)
    assert lesson.evaluations_to_reach(study, "forrester", "restarts", 1e-3) == 21
    study["forrester"]["grid"] = (np.array([3]), np.array([1.0]))
    assert lesson.evaluations_to_reach(study, "forrester", "grid", 1e-3) is None


def test_the_grid_names_a_budget_and_rejects_bad_parameters():
    from common.runner import BUDGET_FIELDS
    configs = lesson.make_grid(configuration(lesson, "smoke"))
    assert all(set(config) & set(BUDGET_FIELDS) for config in configs)
    with pytest.raises(ValueError, match="betas"):
        configuration(lesson, "smoke", betas=[-1.0])


def test_the_reach_figure_follows_the_figure_rules():
    fig = acq.new_figure()
    acq.draw_reach({"UCB β = 4": [1, 3, None], "TS": [2, 2, 5]}, 10, fig)
    assert_follows_the_figure_rules(fig)


def test_the_cost_figure_follows_the_figure_rules():
    fig = acq.new_figure((9, 4))
    evaluations = np.array([3, 9, 27])
    study = {"forrester": {"reference": 1.0, "grid": (evaluations, np.array([0.5, 0.9, 1.0])),
                           "direct": (evaluations, np.array([0.6, 0.99, 1.0])),
                           "restarts": (np.vstack([evaluations + 10] * 2), np.ones((2, 3)))}}
    acq.draw_maximizer_cost(study, fig)
    assert_follows_the_figure_rules(fig)


def test_a_player_of_ucb_frames_embeds_every_frame():
    frames = [acq.ucb_arrays(beta, n_grid=51) for beta in (0.0, 25.0)]
    html = player.player_html(acq.draw_ucb, frames, name="test-ucb", alt="UCB")
    assert html.count("data:image/png;base64") >= len(frames)


def test_the_query_traces_figure_follows_the_figure_rules():
    runs = {f"β = {beta:g}": acq.loop_arrays("UCB", beta, 0, n_iterations=3) for beta in (0.1, 25.0)}
    fig = acq.new_figure((8, 3.4))
    acq.draw_query_traces(runs, fig)
    assert_follows_the_figure_rules(fig)


def test_every_loop_setting_has_a_label_the_reach_figure_can_colour():
    params = configuration(lesson, "quick")
    labels = [lesson.setting_label(*setting) for setting in lesson.loop_settings(params)]
    assert len(set(labels)) == len(labels)
    assert all(label.split()[0] in ("UCB", "EI", "PI", "TS") for label in labels)
    assert list(itertools.islice(labels, 1)) == ["UCB β = 0.1"]
