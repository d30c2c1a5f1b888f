"""GP-UCB+ and EXPLOIT+ (common/methods/random_exploration.py) and their experiments."""
import numpy as np
import pandas as pd
import pytest
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import Matern as SklearnMatern

from common.acquisitions import beta_constant
from common.bo import RandomSearch
from common.experiments import random_exploration as experiment
from common.gp import GaussianProcess
from common.optimizers import maximize_with_restarts
from common.methods.random_exploration import (
    NUGGET,
    LengthscaleLikelihood,
    RandomExploration,
    fit_lengthscale,
    make_gp_method,
    sklearn_lengthscale_fit,
    sup_beta_root,
    surrogate_kernel,
)
from common.test_functions import Ackley, Levy, Rastrigin


def _data(function, n, seed=0):
    X = np.random.default_rng(seed).uniform(function.bounds[:, 0], function.bounds[:, 1], (n, function.dim))
    return X, function(X)


def _gp(function, n, lengthscale=1.0, seed=0):
    X, y = _data(function, n, seed)
    kernel = surrogate_kernel("matern", function.dim).with_theta(np.log([lengthscale]))
    return GaussianProcess(kernel, NUGGET, y_transform="standardize").fit(X, y)


def test_surrogate_matches_scikit_learn_at_a_fixed_lengthscale():
    # The paper's surrogate is bayes_opt's GaussianProcessRegressor(Matern(nu=2.5), alpha=1e-6, normalize_y=True).
    function = Rastrigin(10)
    X, y = _data(function, 40)
    X_test, _ = _data(function, 200, seed=1)
    ours = _gp(function, 40, lengthscale=7.0)
    sklearn = GaussianProcessRegressor(SklearnMatern(length_scale=7.0, nu=2.5), alpha=NUGGET, normalize_y=True,
                                       optimizer=None).fit(X, y)
    mean, std = ours.predict(X_test, return_std=True)
    sk_mean, sk_std = sklearn.predict(X_test, return_std=True)
    scale = np.std(y)
    np.testing.assert_allclose(mean / scale, sk_mean / scale, atol=1e-6)
    np.testing.assert_allclose(std / scale, sk_std / scale, atol=1e-6)


def test_lengthscale_likelihood_equals_the_gp_likelihood():
    gp = _gp(Ackley(10), 30)
    likelihood = LengthscaleLikelihood(gp)
    for log_lengthscale in np.log([0.5, 5.0, 30.0, 300.0]):
        assert likelihood(log_lengthscale) == pytest.approx(
            gp.log_marginal_likelihood(np.array([log_lengthscale])), rel=1e-10, abs=1e-8)


def test_fitted_lengthscale_is_at_least_as_likely_as_any_on_a_fine_grid():
    gp = fit_lengthscale(_gp(Ackley(10), 60))
    likelihood = LengthscaleLikelihood(gp)
    fine = max(likelihood(theta) for theta in np.linspace(np.log(1e-5), np.log(1e5), 801))
    assert likelihood(gp.kernel.theta[0]) >= fine - 1e-6


def test_lengthscale_fit_leaves_the_white_noise_plateau_where_gradient_ascent_from_one_stays():
    # At l = 1 the raw-input Ackley data are white noise to the kernel: a gradient step has nothing to follow.
    gp = _gp(Ackley(10), 100)
    _, gradient = gp.log_marginal_likelihood(np.zeros(1), eval_gradient=True)
    assert abs(gradient[0]) < 1e-8
    assert fit_lengthscale(gp).kernel.lengthscale[0] > 5.0


def test_sup_beta_root_is_the_largest_absolute_value_on_the_latin_hypercube():
    function = Levy(10)
    root = sup_beta_root(function, function.bounds, 100, np.random.default_rng(3))
    from common.bo import initial_design
    X_D = initial_design(function.bounds, 100, np.random.default_rng(3), kind="lhs")
    assert root == np.max(np.abs(function(X_D)))


@pytest.mark.parametrize("function, low, high", [(Ackley(10), 21.5, 22.2), (Rastrigin(10), 230, 310),
                                                 (Levy(10), 200, 330)])
def test_sup_beta_root_falls_in_the_range_measured_by_the_spec(function, low, high):
    roots = [sup_beta_root(function, function.bounds, 100, np.random.default_rng(seed)) for seed in range(5)]
    assert low <= min(roots) and max(roots) <= high


def test_constant_beta_ignores_the_step_and_the_dimension():
    assert beta_constant(1, 10, value=4.0) == beta_constant(400, 2, value=4.0) == 4.0


def test_ucb_needs_a_beta():
    with pytest.raises(ValueError, match="beta_root"):
        make_gp_method("UCB", Ackley(2).bounds, surrogate_kernel("matern", 2))


def test_random_exploration_adds_one_uniform_point_after_the_acquisition_point():
    function = Ackley(2)
    base = make_gp_method("mean", function.bounds, surrogate_kernel("matern", 2), n_candidates=50, n_restarts=0)
    X, y = _data(function, 5)
    proposed = RandomExploration(base, function.bounds, np.random.default_rng(7)).propose(X, y, 1,
                                                                                        np.random.default_rng(8))
    alone = base.propose(X, y, 1, np.random.default_rng(8))
    uniform = RandomSearch(function.bounds).propose(X, y, 1, np.random.default_rng(7))
    np.testing.assert_array_equal(proposed, np.vstack([alone, uniform]))


def _smoke_config(method, experiment_name="benchmark", budget=16):
    params = dict(experiment.SCALES["smoke"], scale="smoke")
    beta = "TWO" if method.startswith("GP-UCB") else None
    return experiment._config(params, experiment_name, "Ackley", method, beta, 0, budget)


@pytest.mark.parametrize("method", experiment.METHODS)
def test_every_method_spends_exactly_the_budget(method):
    result = experiment.run(_smoke_config(method, budget=15))
    assert len(result["f"]) == 15


def test_plus_methods_spend_two_evaluations_per_iteration():
    iterations = experiment.run(_smoke_config("EXPLOIT+"))["iteration"]
    np.testing.assert_array_equal(iterations, [0] * 10 + [1, 1, 2, 2, 3, 3])


def test_the_plus_methods_of_a_repetition_share_initial_design_and_random_points():
    gp_ucb_plus = experiment.run(_smoke_config("GP-UCB+"))["f"]
    exploit_plus = experiment.run(_smoke_config("EXPLOIT+"))["f"]
    exploit = experiment.run(_smoke_config("EXPLOIT"))["f"]
    np.testing.assert_array_equal(gp_ucb_plus[:10], exploit[:10])
    np.testing.assert_array_equal(gp_ucb_plus[11::2], exploit_plus[11::2])


def test_simple_regret_is_nonincreasing_and_nonnegative():
    regret = experiment.run(_smoke_config("EI"))["regret"]
    assert np.all(regret >= 0) and np.all(np.diff(regret) <= 0)


def test_fill_distances_do_not_grow():
    result = experiment.run({**_smoke_config("EXPLORE", "fill"), "problem": "Rastrigin", "xd_size": 100,
                             "fill_reference_size": 300})
    for name in ("fill_xd", "fill_uniform"):
        assert np.all(np.diff(result[name]) <= 0)


def test_the_grid_gives_ucb_methods_and_only_them_a_beta():
    grid = experiment.make_grid(dict(experiment.SCALES["smoke"], scale="smoke"))
    assert all((config["beta"] is not None) == config["method"].startswith("GP-UCB") for config in grid)


def test_grid_points_where_the_kernel_is_white_have_the_identity_likelihood():
    gp = _gp(Ackley(10), 30)
    likelihood = LengthscaleLikelihood(gp)
    n, y = 30, gp._y
    white = -0.5 * y @ y / (1 + NUGGET) - 0.5 * n * np.log(1 + NUGGET) - 0.5 * n * np.log(2 * np.pi)
    assert likelihood.is_white(np.log(1e-5))
    assert likelihood(np.log(1e-5)) == pytest.approx(white, rel=1e-12)


def test_unit_inputs_evaluate_the_same_points_of_the_box():
    raw = {**_smoke_config("GP-UCB+", "sprinkler", budget=12), "problem": "sprinkler"}
    unit = {**raw, "experiment": "scaling_ablation", "inputs": "unit"}
    raw_f, unit_f = experiment.run(raw)["f"], experiment.run(unit)["f"]
    np.testing.assert_allclose(unit_f[:8], raw_f[:8], rtol=1e-12)
    np.testing.assert_allclose(unit_f[9::2], raw_f[9::2], rtol=1e-12)


def test_the_surrogate_fits_exact_and_near_duplicate_points():
    function = Levy(10)
    X, y = _data(function, 30)
    X = np.vstack([X, X[:5], X[5:10] + 1e-12])
    gp = fit_lengthscale(GaussianProcess(surrogate_kernel("matern", 10), NUGGET, y_transform="standardize")
                         .fit(X, function(X)))
    mean, std = gp.predict(X[:10], return_std=True)
    assert np.all(np.isfinite(mean)) and np.all(np.isfinite(std))


def test_the_confirmatory_block_is_off_in_every_scale_and_adds_only_fresh_seeds_of_planned_claims():
    from common import confirmatory
    assert all(scale["confirmatory"] is False for scale in experiment.SCALES.values())
    params = {**experiment.SCALES["paper"], "scale": "paper"}
    plain = experiment.make_grid(params)
    with_fresh = experiment.make_grid({**params, "confirmatory": True})
    added = with_fresh[len(plain):]
    assert with_fresh[:len(plain)] == plain and added
    assert added == experiment.confirmatory_grid(params)
    plan = confirmatory.load_plan(experiment.PAPER)
    assert {config["seed"] for config in added} == set(confirmatory.fresh_seeds(int(plan["planned_seeds"].max())))
    # Every added run is a run of its block at the paper's settings, on a fresh seed.
    for config in added:
        same_block = experiment.block_config(params, config["experiment"], config["problem"], config["method"],
                                             config["seed"] - confirmatory.SEED_OFFSET)
        assert config == {**same_block, "seed": config["seed"]}
    planned = plan[plan["planned_seeds"] > 0]
    from common.experiments import random_exploration_claims
    wanted = {(block, problem, method) for claim_id in planned["id"]
              for block, problem, methods in random_exploration_claims.claim_runs(claim_id) for method in methods}
    assert {(c["experiment"], c["problem"], c["method"]) for c in added} == wanted


# --------------------------------------------------------------------------- the lengthscale check (issue 28)
@pytest.mark.parametrize("function, n, seed", [(Ackley(10), 50, 0), (Ackley(10), 100, 1), (Levy(10), 50, 2),
                                               (Levy(10), 100, 3), (Rastrigin(10), 60, 4)])
def test_scikit_learn_with_restarts_is_never_less_likely_than_without(function, n, seed):
    X, y = _data(function, n, seed)
    fits = experiment.compare_lengthscale_fits(X, y, random_state=seed)
    assert fits["sklearn_lml"] >= fits["no_restart_lml"]
    # Our grid contains the white-noise plateau, so our optimum is never below it.
    assert fits["project_lml"] >= fits["white_lml"] - 1e-9
    assert fits["sklearn_lml"] >= fits["white_lml"] - 1e-9


def test_the_lengthscale_check_scores_our_fit_by_our_own_likelihood():
    # scikit-learn's log marginal likelihood and ours are the same function of l: the two optima compare.
    function = Levy(10)
    X, y = _data(function, 40, seed=5)
    fits = experiment.compare_lengthscale_fits(X, y, random_state=0)
    gp = GaussianProcess(surrogate_kernel("matern", 10), NUGGET, y_transform="standardize").fit(X, y)
    ours = LengthscaleLikelihood(gp)(np.log(fits["project_lengthscale"]))
    assert fits["project_lml"] == pytest.approx(ours, rel=1e-9, abs=1e-7)


@pytest.mark.parametrize("method", experiment.LENGTHSCALE_CHECK_METHODS[:2])
def test_the_lengthscale_check_refits_the_benchmark_runs_own_queries(method):
    params = dict(experiment.SCALES["smoke"], scale="smoke")
    check = experiment.lengthscale_check_config(params, "Ackley", method, 0)
    X, f = experiment.replay_queries(check, 14)
    benchmark = experiment.run(experiment.block_config(params, "benchmark", "Ackley", method, 0))
    np.testing.assert_array_equal(f, benchmark["f"][:14])
    np.testing.assert_array_equal(f, Ackley(10)(X))


def test_the_lengthscale_check_run_fits_at_every_size_and_its_prefix_at_the_sizes_reached():
    params = dict(experiment.SCALES["smoke"], scale="smoke")
    check = experiment.lengthscale_check_config(params, "Ackley", "UNIFORM", 0)
    full = experiment.run(check)
    np.testing.assert_array_equal(full["n_points"], params["lengthscale_check_sizes"])
    assert all(len(values) == len(params["lengthscale_check_sizes"]) for values in full.values())
    prefix = experiment.run(check, iterations=2)  # 10 initial points + 2 evaluations reach the size 12 only
    np.testing.assert_array_equal(prefix["n_points"], [12])
    for name, values in prefix.items():
        np.testing.assert_array_equal(values, full[name][:1])


def test_the_lengthscale_check_table_counts_small_lengthscales_plateaus_and_ties():
    rows = pd.DataFrame({
        "experiment": "lengthscale_check", "problem": "Levy", "method": "GP-UCB", "n_points": 50,
        "sklearn_lengthscale": [1.0, 8.0, 0.5], "no_restart_lengthscale": [1.0, 1.0, 0.5],
        "project_lengthscale": [9.0, 8.0, 1e-5], "sklearn_lml": [-70.0, -60.0, -70.0],
        "no_restart_lml": [-70.0, -70.0, -70.0], "project_lml": [-65.0, -60.005, -70.0],
        "white_lml": [-70.0, -70.0, -70.0]})
    row = experiment.lengthscale_check_table(rows).iloc[0]
    assert row["sets"] == 3
    assert row["l <= 1: sklearn 5 restarts / none / ours"] == "2 / 3 / 1"
    assert row["on the K = I plateau: sklearn / ours"] == "2 / 1"
    assert row["higher LML: sklearn / tie / ours"] == "0 / 2 / 1"
    assert row["sklearn short by (max, nats)"] == pytest.approx(5.0)
    assert row["ours short by (max, nats)"] == 0.0
    summary = experiment.lengthscale_check_summary(rows)
    assert "in 1 (Levy 1; at most 5 nats), ours lower than scikit-learn's in 0." in summary


def test_lengthscale_check_sizes_must_increase():
    assert experiment.increasing_sizes([50, 100, 150])
    assert not experiment.increasing_sizes([100, 50]) and not experiment.increasing_sizes([1, 50])
    params = dict(experiment.SCALES["smoke"], scale="smoke", lengthscale_check_sizes=[12, 20])
    with pytest.raises(ValueError, match="lengthscale_check_sizes"):  # beyond the benchmark budget of 16
        experiment.make_grid(params)


def test_evaluation_steps_put_the_plus_methods_uniform_draws_apart():
    runs = pd.DataFrame({"run_key": ["a"] * 6 + ["b"] * 4, "eval": [0, 1, 2, 3, 4, 5, 0, 1, 2, 3],
                         "iteration": [0, 0, 1, 1, 2, 2, 0, 0, 1, 2],
                         "method": ["GP-UCB+"] * 6 + ["EXPLOIT"] * 4}).sample(frac=1.0, random_state=0)
    steps = experiment.evaluation_steps(runs).sort_index()
    assert list(steps) == ["initial", "initial", "acquisition", "uniform", "acquisition", "uniform",
                           "initial", "initial", "acquisition", "acquisition"]


def test_paired_difference_subtracts_the_reference_seed_by_seed():
    runs = pd.DataFrame({"method": ["GP-UCB"] * 4 + ["EI"] * 4, "seed": [0, 0, 1, 1] * 2,
                         "eval": [0, 1] * 4, "cumulative_error": [1.0, 2.0, 3.0, 5.0, 1.5, 2.0, 2.0, 6.0]})
    differences = experiment.paired_difference(runs, "cumulative_error", "GP-UCB")
    np.testing.assert_array_equal(differences["EI"].to_numpy(), [[0.5, 0.0], [-1.0, 1.0]])
    assert not differences["GP-UCB"].to_numpy().any()
    assert experiment.paired_difference(runs, "cumulative_error", "PI") == {}


def test_the_closed_loop_fits_with_scikit_learn_at_every_iteration_and_records_each_lengthscale():
    function = Ackley(10)
    X, y = _data(function, 20)
    method = make_gp_method("UCB", function.bounds, surrogate_kernel("matern", 10), beta_root=2.0, n_candidates=50,
                            n_restarts=0, lengthscale_fit="sklearn", fit_rng=np.random.default_rng(3))
    method.propose(X, y, 1, np.random.default_rng(0))
    state = int(np.random.default_rng(3).integers(2**31 - 1))
    _, expected, _ = sklearn_lengthscale_fit(X, y, state, 5)
    assert method.lengthscales == [pytest.approx(expected)]
    np.testing.assert_allclose(method.last_gp.kernel.lengthscale, [expected])


@pytest.mark.parametrize("options, message", [({"lengthscale_fit": "sklearn"}, "fit_rng"),
                                              ({"lengthscale_fit": "adam"}, "lengthscale_fit")])
def test_a_lengthscale_fit_that_cannot_run_is_refused_naming_it(options, message):
    with pytest.raises(ValueError, match=message):
        make_gp_method("UCB", Ackley(2).bounds, surrogate_kernel("matern", 2), beta_root=2.0, **options)


def test_the_closed_loop_run_starts_as_the_benchmark_run_and_traces_its_fits():
    params = dict(experiment.SCALES["smoke"], scale="smoke")
    closed = experiment.run(experiment.closed_loop_config(params, "Ackley", "GP-UCB+", 0))
    benchmark = experiment.run(experiment.block_config(params, "benchmark", "Ackley", "GP-UCB+", 0), iterations=1)
    n_init = Ackley(10).dim
    np.testing.assert_array_equal(closed["f"][:n_init], benchmark["f"][:n_init])
    assert len(closed["f"]) == params["closed_loop_budget"]
    assert np.isnan(closed["lengthscale"][:n_init]).all() and (closed["lengthscale"][n_init:] > 0).all()
    # a "+" iteration's two evaluations were proposed from one fit
    for iteration in np.unique(closed["iteration"][n_init:]):
        assert len(set(closed["lengthscale"][closed["iteration"] == iteration])) == 1


def test_the_closed_loop_table_pairs_seeds_at_its_budget_and_counts_early_small_fits():
    def rows(experiment_name, regrets, lengthscales=None):
        return pd.DataFrame([{"experiment": experiment_name, "problem": "Levy", "method": "GP-UCB", "seed": seed,
                              "run_key": f"{experiment_name}{seed}", "eval": step, "iteration": step - 1,
                              "regret": regret if step == 2 else 99.0,
                              "lengthscale": np.nan if lengthscales is None else lengthscales[seed]}
                             for seed, regret in enumerate(regrets) for step in range(3)])
    table = pd.concat([rows("benchmark", [1.0, 2.0, 3.0]), rows("closed_loop_fit", [2.0, 4.0, 6.0], [0.5, 2.0, 0.8]),
                       rows("random_search", [5.0, 5.0, 5.0])])
    row = experiment.closed_loop_table(table, early_fits=1).iloc[0]
    assert (row["seeds"], row["n"], row["ours"], row["scikit-learn's"]) == (3, 3, 2.0, 4.0)
    assert row["W/T/L"] == "0/0/3" and row["ratio"].startswith("2x")
    assert row["at random search's level (scikit-learn's)"] == "1 of 3"
    assert row["first 1 fits at l <= 1"] == pytest.approx(2 / 3)
    assert "worse than with ours in" in experiment.closed_loop_summary(experiment.closed_loop_table(table))


def test_the_closed_loop_budget_may_not_exceed_the_benchmark_budget():
    params = dict(experiment.SCALES["smoke"], scale="smoke", closed_loop_budget=17)
    with pytest.raises(ValueError, match="closed_loop_budget"):  # beyond the benchmark budget of 16
        experiment.make_grid(params)


@pytest.mark.parametrize("ablation, choices", [
    ("initial_design_ablation", {"n_init": experiment.BAYES_OPT_N_INIT}),
    ("search_ablation", experiment.BAYES_OPT_SEARCH)])
def test_a_bayes_opt_ablation_differs_from_its_benchmark_run_in_its_declared_choices_only(ablation, choices):
    params = {**experiment.SCALES["paper"]}
    grid = experiment.make_grid(params)
    ablated = [config for config in grid if config["experiment"] == ablation]
    assert {config["method"] for config in ablated} == set(experiment.BAYES_OPT_ABLATION_METHODS)
    assert len(ablated) == 3 * len(experiment.BAYES_OPT_ABLATION_METHODS) * params[f"{ablation}_seeds"]
    for config in ablated:
        twin = experiment.block_config(params, "benchmark", config["problem"], config["method"], config["seed"])
        differing = {key for key in config.keys() | twin.keys() if config.get(key) != twin.get(key)}
        assert differing == {"experiment", *choices}


def test_bayes_opts_initial_design_is_the_first_five_points_of_the_repetitions_ten():
    params = dict(experiment.SCALES["smoke"], scale="smoke")
    config = next(c for c in experiment.make_grid(params) if c["experiment"] == "initial_design_ablation")
    five = experiment.run(config, iterations=1)
    ten = experiment.run(experiment.block_config(params, "benchmark", config["problem"], config["method"], 0),
                         iterations=1)
    np.testing.assert_array_equal(five["f"][:5], ten["f"][:5])
    assert list(five["iteration"][:6]) == [0] * 5 + [1]


def test_random_starts_polish_fresh_uniform_points_and_never_lose_to_the_best_candidate():
    rng_best, rng_random = np.random.default_rng(0), np.random.default_rng(0)
    bounds = np.array([[-2.0, 2.0], [-1.0, 3.0]])

    def fun(X):
        return -np.sum((X - 0.5) ** 2, axis=1) + np.sin(5 * X[:, 0])

    best = maximize_with_restarts(fun, bounds, rng_best, n_candidates=50, n_restarts=3, maxiter=15_000)
    random = maximize_with_restarts(fun, bounds, rng_random, n_candidates=50, n_restarts=3, maxiter=15_000,
                                    starts="random")
    candidates_only = maximize_with_restarts(fun, bounds, np.random.default_rng(0), n_candidates=50, n_restarts=0)
    assert random.fun >= candidates_only.fun and best.fun >= candidates_only.fun
    assert random.nfev > 50 and rng_random.bit_generator.state != rng_best.bit_generator.state  # it drew its starts
    with pytest.raises(ValueError, match="starts"):
        maximize_with_restarts(fun, bounds, rng_best, starts="worst")
