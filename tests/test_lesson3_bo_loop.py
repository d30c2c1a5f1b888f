"""Lesson 3 (the BO loop in practice): the properties its figures and exercises rely on, and its widgets' drawing
functions at their sliders' end values."""
import numpy as np
import pytest

from common.acquisitions import ExpectedImprovement
from common.experiments import lesson3_bo_loop as lesson
from common.lessons import acquisition as lesson2
from common.lessons import bo_loop as bl
from common.lessons import gp_regression as gpr
from common.notebook import configuration
from common.optimizers import direct_maximize
from common.teaching import FORRESTER_BOUNDS, forrester
from common.test_functions import get_test_function, on_unit_cube
from lesson_widgets import assert_follows_the_figure_rules, slider_ends

WIDGETS = [(bl.designs_figure, bl.DESIGN_SLIDERS), (bl.loop_figure, bl.LOOP_SLIDERS),
           (bl.batch_figure, bl.BATCH_SLIDERS)]


@pytest.mark.parametrize(("function", "arguments"), list(slider_ends(WIDGETS)))
def test_every_widget_draws_at_its_sliders_end_values_within_the_figure_rules(function, arguments):
    assert_follows_the_figure_rules(function(**arguments))


def test_the_noisy_step_through_at_the_largest_noise_and_the_last_step():
    assert_follows_the_figure_rules(bl.loop_figure(step=bl.LOOP_SLIDERS["step"][1],
                                                   noise_std=bl.LOOP_SLIDERS["noise_std"][1]))


@pytest.mark.parametrize("kind", list(bl.DESIGN_NAMES))
def test_designs_lie_in_the_unit_cube_and_repeat_by_seed(kind):
    points = bl.design_points(kind, 12, 3, seed=5)
    assert points.shape == (12, 3) and np.all((points >= 0) & (points < 1))
    np.testing.assert_array_equal(points, bl.design_points(kind, 12, 3, seed=5))
    assert not np.array_equal(points, bl.design_points(kind, 12, 3, seed=6))


def test_a_latin_hypercube_has_one_point_in_every_stratum_of_every_coordinate():
    points = bl.design_points("lhs", 10, 2, seed=0)
    for column in points.T:
        assert sorted(np.floor(column * 10).astype(int)) == list(range(10))


def test_a_sobol_block_is_balanced():
    points = bl.design_points("sobol", 16, 2, seed=0)
    for column in points.T:  # 16 points: one in every sixteenth of each coordinate
        assert sorted(np.floor(column * 16).astype(int)) == list(range(16))


def test_design_measures():
    centre = bl.design_quality(np.array([[0.5, 0.5]]))
    # the farthest point of the square from its centre is a corner, sqrt(0.5) away; the reference set comes close
    assert 0.69 < centre["fill_distance"] <= np.sqrt(0.5) + 1e-12
    assert np.isnan(centre["min_distance"])
    pair = bl.design_quality(np.array([[0.1, 0.1], [0.4, 0.5]]))
    assert pair["min_distance"] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="kind"):
        bl.design_points("halton", 4)


def test_a_shorter_step_through_is_a_prefix_of_a_longer_one():
    """The widget runs the loop up to its slider's step: it must show the step the player shows."""
    short, long = bl.steps_arrays(2, n_grid=41), bl.steps_arrays(3, n_grid=41)
    for name in ("mean", "std", "ei", "next", "lengthscale", "signal_std", "recommended"):
        np.testing.assert_array_equal(short[name], long[name][:2], err_msg=name)


def test_the_fixed_step_through_keeps_lesson_1s_hyperparameters():
    arrays = bl.steps_arrays(2, refit=False, n_grid=41)
    np.testing.assert_array_equal(arrays["lengthscale"], [lesson2.LENGTHSCALE] * 2)
    np.testing.assert_allclose(arrays["signal_std"], [gpr.SIGNAL_STD] * 2)


def test_noisy_ei_uses_the_best_posterior_mean_as_its_incumbent():
    method = bl.LessonEI(refit=False, noise_std=1.0, incumbent="mean")
    X = np.array([[0.2], [0.5], [0.8]])
    y = forrester(X) + np.array([3.0, 0.0, 0.0])  # a lucky first value
    method.propose(X, y, 1, np.random.default_rng(0))
    made = method.make_acquisition(1, best=float(y.max()))
    assert made.best == pytest.approx(method.last_gp.predict(X).max()) and made.best < y.max()
    with pytest.raises(ValueError, match="incumbent"):
        bl.LessonEI(incumbent="median")


def test_recommendations():
    X = np.array([[0.2], [0.5]])
    y = np.array([1.0, 0.0])
    gp = gpr.fit_gp(X, y, gpr.make_kernel("matern52", 0.1))
    np.testing.assert_array_equal(bl.recommend(gp, X, y, "observed"), [0.2])
    np.testing.assert_array_equal(bl.recommend(gp, X, y, "mean"), [0.2])
    with pytest.raises(ValueError, match="rule"):
        bl.recommend(gp, X, y, "last")


def _maximize_1d(acquisition, gp):
    return direct_maximize(lambda Z: acquisition(gp, Z), FORRESTER_BOUNDS, 100).x


@pytest.mark.parametrize("lie", list(bl.LIES))
def test_a_batch_has_q_distinct_points(lie):
    X, y, gp = lesson2.fit_state()
    batch = bl.select_batch(gp, y, 4, lie, _maximize_1d)
    assert batch.shape == (4, 1) and len(np.unique(batch)) == 4
    assert len(gp.X) == len(X) + 4  # the lies were told


def test_the_kriging_believer_tells_the_posterior_mean_and_ei_vanishes_there():
    X, y, gp = lesson2.fit_state()
    told = []
    bl.select_batch(gp, y, 1, "believer", _maximize_1d,
                    on_step=lambda model, acquisition, x, value: told.append((x.copy(), value,
                                                                              model.predict(x[None, :])[0])))
    (x, value, mean), = told
    assert value == pytest.approx(mean)
    assert ExpectedImprovement(y.max())(gp, x[None, :])[0] < 1e-3  # pinned: nothing left to gain there


def test_a_batch_without_lies_repeats_one_point():
    X, y, gp = lesson2.fit_state()
    acquisition = ExpectedImprovement(y.max())
    assert len({_maximize_1d(acquisition, gp)[0] for _ in range(3)}) == 1


def test_the_batch_method_proposes_q_distinct_points_in_the_box():
    method = bl.benchmark_method("KB-EI", q=3, direct_evals=60)
    X = np.random.default_rng(0).random((5, 2))
    y = on_unit_cube(get_test_function("branin"))(X)
    batch = method.propose(X, y, 1, np.random.default_rng(1))
    assert batch.shape == (3, 2) and len(np.unique(batch, axis=0)) == 3
    assert np.all((batch >= 0) & (batch <= 1))


def test_batches_name_what_is_allowed():
    with pytest.raises(ValueError, match="lie"):
        bl.KrigingBeliever(gpr.make_kernel("se", 0.1), FORRESTER_BOUNDS, lie="truth")
    X, y, gp = lesson2.fit_state()
    with pytest.raises(ValueError, match="q must"):
        bl.select_batch(gp, y, 0, "min", _maximize_1d)
    with pytest.raises(ValueError, match="lie"):
        bl.select_batch(gp, y, 2, "truth", _maximize_1d)
    assert len(gp.X) == len(X)  # refused before anything was told


def test_the_batch_figure_records_every_choice():
    arrays = bl.batch_arrays(3, "min", n_grid=41)
    assert arrays["ei"].shape == (3, 41) and arrays["batch"].shape == (3,)
    np.testing.assert_array_equal(arrays["told"], [arrays["y"].min()] * 3)


def test_benchmark_methods_share_the_uniform_design_and_batches_save_rounds():
    runs = {method: bl.benchmark_arrays(method, 1, n_init=4, n_evaluations=8, q=2, direct_evals=40)
            for method in ("EI", "random", "KB-EI", "EI-LHS")}
    for method in ("random", "KB-EI"):
        np.testing.assert_array_equal(runs[method]["X"][:4], runs["EI"]["X"][:4])
    assert not np.array_equal(runs["EI-LHS"]["X"][:4], runs["EI"]["X"][:4])
    assert all(len(run["f"]) == 8 for run in runs.values())
    assert runs["KB-EI"]["round"][-1] == 2 and runs["EI"]["round"][-1] == 4
    assert np.all(np.diff(runs["EI"]["regret"]) <= 0) and np.all(runs["EI"]["regret"] >= 0)


def test_a_benchmark_prefix_recomputes_to_the_full_run():
    params = configuration(lesson, "smoke")
    config = lesson.benchmark_config(params, "KB-EI", 0)
    full, prefix = lesson.run(config), lesson.run(config, iterations=1)
    assert len(prefix["f"]) == config["n_init"] + config["q"]
    for name, values in prefix.items():
        np.testing.assert_array_equal(values, full[name][:len(values)])


def test_regrets_by_round_take_each_rounds_last_evaluation():
    entry = {"round": np.array([0, 0, 1, 1, 2]), "regret": np.array([[5.0, 4.0, 3.0, 2.0, 1.0]])}
    rounds, regrets = lesson.by_rounds(entry)
    np.testing.assert_array_equal(rounds, [0, 1, 2])
    np.testing.assert_array_equal(regrets, [[4.0, 2.0, 1.0]])


def test_the_paired_comparison_counts_every_seed():
    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 2.0, 1.0, 8.0])
    comparison = bl.compare(a, b)
    assert (comparison.wins, comparison.ties, comparison.losses) == (2, 1, 1)
    assert comparison.effect.scale == "ratio" and comparison.effect.estimate == pytest.approx(10 / 13)


def test_the_regret_and_paired_figures_follow_the_figure_rules():
    rng = np.random.default_rng(0)
    regrets = np.sort(rng.random((5, 10)), axis=1)[:, ::-1]
    x = np.arange(1, 11)
    fig = bl.new_figure((9, 7))
    bl.draw_regret({"a": ("evaluations", {"EI": (x, regrets), "UCB": (x, regrets / 2)}),
                    "b": ("rounds", {"EI": (x, regrets)}), "c": ("evaluations", {"random": (x, regrets * 3)})}, fig)
    assert_follows_the_figure_rules(fig)
    with pytest.raises(ValueError, match="at most 3"):
        bl.draw_regret({"a": ("x", {name: (x, regrets) for name in "abcd"})}, bl.new_figure())
    final_a, final_b = regrets[:, -1], regrets[:, -1] * 2
    fig = bl.new_figure((5, 5))
    bl.draw_paired({"a": final_a, "b": final_b, "a_label": "EI", "b_label": "UCB",
                    "comparison": bl.compare(final_a, final_b)}, fig)
    assert_follows_the_figure_rules(fig)


def test_the_design_study_and_hyperparameter_figures_follow_the_figure_rules():
    sizes = [4, 8]
    study = {kind: bl.design_study_arrays(kind, 4, 3) for kind in bl.DESIGN_NAMES}
    study = {kind: {name: np.vstack([values, values * 0.7]) for name, values in found.items()}
             for kind, found in study.items()}
    fig = bl.new_figure((8, 3.6))
    bl.draw_design_study(sizes, study, fig)
    assert_follows_the_figure_rules(fig)
    fig = bl.new_figure()
    run = bl.steps_arrays(2, n_grid=41)
    bl.draw_hyperparameters({"refitted": run}, fig)
    assert_follows_the_figure_rules(fig)
    with pytest.raises(ValueError, match="step"):
        bl.draw_step(run, bl.new_figure(), step=3)


def test_the_grid_names_a_budget_and_rejects_bad_parameters():
    from common.runner import BUDGET_FIELDS
    configs = lesson.make_grid(configuration(lesson, "smoke"))
    assert all(set(config) & set(BUDGET_FIELDS) for config in configs)
    with pytest.raises(ValueError, match="methods"):
        configuration(lesson, "smoke", methods=["EI", "PI"])
    with pytest.raises(ValueError, match="step_noise"):
        configuration(lesson, "smoke", step_noise=0.0)
