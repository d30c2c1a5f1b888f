"""MINI-META and the unique-arm posterior (common/methods/mini_gp_opt.py)."""
import numpy as np
import pandas as pd
import pytest

from common.gp import GaussianProcess
from common.kernels import SquaredExponential
from common.methods.mini_gp_opt import (
    HallucinatedVariance,
    NystromPosterior,
    UniqueArmPosterior,
    bbkb_batch,
    batch_bkb,
    epsilon_greedy,
    expected_improvement,
    gp_bucb,
    mini_meta,
    switch_bound,
    switch_bound_of_the_proof,
    variances_along_steps,
)

RNG = np.random.default_rng(0)
ARMS = RNG.uniform(-1, 1, (50, 3))
VALUES = np.sin(3 * ARMS[:, 0]) + ARMS[:, 1] ** 2 - ARMS[:, 2]
KERNEL = SquaredExponential(0.6)
LAM = 0.05
# (arm, number of evaluations) of six epochs; arm 4 comes back, so the posterior must merge it.
EPOCHS = [(4, 3), (17, 1), (30, 12), (4, 5), (8, 2), (17, 20)]


def _observations(seed=1):
    rng = np.random.default_rng(seed)
    return [(arm, VALUES[arm] + 0.2 * rng.standard_normal(n)) for arm, n in EPOCHS]


def _incremental():
    posterior = UniqueArmPosterior(KERNEL, ARMS, LAM)
    for arm, y in _observations():
        posterior.add(arm, len(y), y.sum())
    return posterior


def test_incremental_posterior_equals_the_naive_gp_on_the_expanded_rows():
    rows = np.concatenate([[arm] * len(y) for arm, y in _observations()])
    y_rows = np.concatenate([y for _, y in _observations()])
    naive = GaussianProcess(KERNEL, LAM).fit(ARMS[rows], y_rows)
    mean, std = naive.predict(ARMS, return_std=True)
    posterior = _incremental()
    np.testing.assert_allclose(posterior.mean, mean, atol=1e-10)
    np.testing.assert_allclose(posterior.variance, std**2, atol=1e-10)
    expanded_logdet = np.linalg.slogdet(np.eye(len(rows)) + KERNEL(ARMS[rows]) / LAM)[1]
    assert posterior.logdet == pytest.approx(expanded_logdet, rel=1e-10)


def test_incremental_posterior_equals_the_batch_form():
    incremental = _incremental()
    mean, variance, logdet = incremental.mean.copy(), incremental.variance.copy(), incremental.logdet
    batch = incremental.recompute()
    np.testing.assert_allclose(batch.mean, mean, atol=1e-10)
    np.testing.assert_allclose(batch.variance, variance, atol=1e-10)
    assert batch.logdet == pytest.approx(logdet, rel=1e-10)


def test_repeated_arms_are_merged_into_one_unique_candidate():
    posterior = _incremental()
    assert posterior.n_unique == 4
    np.testing.assert_array_equal(posterior.counts, [8, 21, 12, 2])


def _pull(arm, n, rng):
    return VALUES[arm] + 0.2 * rng.standard_normal(n)


@pytest.mark.parametrize("acquisition", ["UCB", "EI"])
def test_no_posterior_variance_shrinks_by_more_than_c_squared_in_an_epoch(acquisition):
    threshold = 1.2
    record = mini_meta(KERNEL, ARMS, _pull, LAM, 400, np.random.default_rng(3), acquisition=acquisition,
                       threshold=threshold)
    ruled = [ratio for ratio, unclamped in zip(record.variance_ratio, record.unclamped) if unclamped]
    assert ruled and max(ruled) <= threshold**2 * (1 + 1e-9)


@pytest.mark.parametrize("acquisition", ["UCB", "EI"])
def test_the_number_of_switches_obeys_lemma_4_3_before_its_last_relaxation(acquisition):
    # h <= 2 C^2 / (C^2 - 1) sum_s sigma~^2_{s-1}(x_s) (App. A.2), the epoch the horizon cuts left out; the stated
    # bound's (1 + kappa^2 / lambda) makes it exceed T at this lambda, so only this step can fail.
    threshold = 1.1
    record = mini_meta(KERNEL, ARMS, _pull, LAM, 500, np.random.default_rng(4), acquisition=acquisition,
                       threshold=threshold)
    assert sum(record.lengths) == 500
    assert len(record.arms) - 1 <= switch_bound_of_the_proof(record.chosen_variance[:-1], record.lengths[:-1],
                                                              threshold)
    assert switch_bound(record.logdet, threshold, LAM) > 500


def test_the_variances_along_the_steps_add_up_to_the_log_determinant():
    # The chain rule: sum_s log(1 + sigma~^2_{s-1}(x_s)) = logdet(I + K_T / lambda).
    record = mini_meta(KERNEL, ARMS, _pull, LAM, 300, np.random.default_rng(12), threshold=1.3)
    along = variances_along_steps(record.chosen_variance, record.lengths)
    assert len(along) == 300
    assert np.log1p(along).sum() == pytest.approx(record.logdet, rel=1e-10)


def test_the_sequential_variant_switches_every_step():
    record = mini_meta(KERNEL, ARMS, _pull, LAM, 60, np.random.default_rng(5), sequential=True)
    assert record.lengths == [1] * 60


def test_mini_meta_evaluates_far_fewer_unique_arms_than_steps():
    record = mini_meta(KERNEL, ARMS, _pull, LAM, 2000, np.random.default_rng(6), threshold=1.5)
    assert len(set(record.arms)) < len(record.arms) < 2000


def test_expected_improvement_is_nonnegative_and_zero_where_the_posterior_is_certain():
    posterior = _incremental()
    posterior.variance[5] = 0.0
    values = expected_improvement(posterior, beta=2.0)
    assert np.all(values >= 0) and values[5] == 0.0


def test_greedy_without_exploration_keeps_the_best_empirical_arm():
    def deterministic(arm, n, rng):
        return np.full(n, VALUES[arm])

    arms = epsilon_greedy(deterministic, len(ARMS), 30, np.random.default_rng(7), a=0.0).arms
    assert arms == [arms[0]] * 30


def test_greedy_starts_from_the_repetitions_first_arm():
    record = epsilon_greedy(_pull, len(ARMS), 5, np.random.default_rng(8), a=10.0, first_arm=17)
    assert record.arms[0] == 17


def test_bad_settings_name_the_parameter():
    with pytest.raises(ValueError, match="lam"):
        UniqueArmPosterior(KERNEL, ARMS, 0.0)
    with pytest.raises(ValueError, match="threshold"):
        mini_meta(KERNEL, ARMS, _pull, LAM, 10, np.random.default_rng(0), threshold=1.0)
    with pytest.raises(ValueError, match="acquisition"):
        mini_meta(KERNEL, ARMS, _pull, LAM, 10, np.random.default_rng(0), acquisition="PI")


def test_hallucinated_evaluations_shrink_the_variance_as_real_ones_and_keep_the_mean():
    posterior, real = _incremental(), _incremental()
    mean = posterior.mean.copy()
    hallucinated = HallucinatedVariance(posterior)
    for arm, value in ((9, 1.7), (3, -0.4), (9, 0.8)):   # a repeated arm too
        hallucinated.add(arm)
        # The column GP-BUCB's real update reuses is the real posterior's.
        np.testing.assert_allclose(hallucinated.columns[-1], real.covariance_column(arm), atol=1e-12)
        real.add(arm, 1, value)
    np.testing.assert_allclose(hallucinated.variance, real.variance, atol=1e-12)
    np.testing.assert_array_equal(posterior.mean, mean)


def test_gp_bucb_spends_the_horizon_in_batches_of_several_arms():
    threshold = 1.1
    record = gp_bucb(KERNEL, ARMS, _pull, LAM, 300, np.random.default_rng(8), threshold=threshold)
    assert len(record.arms) == 300 == sum(record.batch_sizes)
    assert max(record.batch_sizes) > 1  # the rule batched once the posterior was tight


def test_nystrom_posterior_on_every_pulled_arm_is_the_exact_posterior():
    exact = _incremental()
    nystrom = NystromPosterior(KERNEL, ARMS, LAM)
    for arm, y in _observations():
        for value in y:
            nystrom.observe(arm, value)
    nystrom.fit(np.array(exact.unique))
    np.testing.assert_allclose(nystrom.mean, exact.mean, atol=1e-8)
    np.testing.assert_allclose(nystrom.variance * LAM, exact.variance, atol=1e-8)


@pytest.mark.parametrize("batched", [True, False])
def test_bkb_and_bbkb_spend_exactly_the_horizon(batched):
    record = batch_bkb(KERNEL, ARMS, _pull, LAM, 120, np.random.default_rng(9), threshold=1.2, batched=batched)
    assert len(record.arms) == 120 == sum(record.batch_sizes)
    assert batched or set(record.batch_sizes) == {1}


def test_abbkb_batch_closes_with_the_arm_that_pushes_the_variance_ratio_past_c():
    threshold = 1.3
    posterior = NystromPosterior(KERNEL, ARMS, LAM)
    rng = np.random.default_rng(10)
    for arm in rng.integers(0, len(ARMS), 400):
        posterior.observe(arm, _pull(arm, 1, rng)[0])
    posterior.fit(np.flatnonzero(posterior.counts))
    batch = bbkb_batch(posterior, 0.5, threshold, rng)
    ratios = 1.0 + np.cumsum(posterior.variance[batch])
    assert len(batch) > 1 and np.all(ratios[:-1] <= threshold) and ratios[-1] > threshold


@pytest.mark.parametrize("acquisition", ["UCB", "EI"])
def test_the_switches_obey_the_first_step_of_lemma_4_3(acquisition):
    # h (C^2 - 1) <= 2 sum_j sigma~^2_j B_j over the epochs, the truncated last one excluded.
    threshold = 1.1
    record = mini_meta(KERNEL, ARMS, _pull, LAM, 700, np.random.default_rng(11), acquisition=acquisition,
                       threshold=threshold)
    variances, lengths = np.array(record.chosen_variance[:-1]), np.array(record.lengths[:-1])
    assert len(variances) * (threshold**2 - 1) <= 2 * np.sum(variances * lengths) + 1e-9
    assert min(record.variance_ratio) >= 1.0


def _bbob_config(method, T=80):
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["smoke"], "scale": "smoke", "bbob_methods": [method], "T": T}
    return next(config for config in experiment.make_grid(params) if config["experiment"] == "bbob")


@pytest.mark.parametrize("method", ["MINI-GP-UCB", "GP-BUCB", "BBKB", "epsilon-greedy"])
def test_a_run_stores_consistent_curves(method):
    from common.experiments import mini_gp_opt as experiment
    result = experiment.run(_bbob_config(method))
    steps = result["step"]
    assert steps[0] == 1 and steps[-1] == 80
    assert np.all(np.diff(result["unique"]) >= 0) and np.all(result["unique"] <= result["switches"])
    assert np.all(result["switches"] <= steps) and np.all(result["normalized_regret"] >= 0)


@pytest.mark.parametrize("method", ["MINI-GP-EI", "BBKB"])
def test_a_run_cut_short_is_a_prefix_of_the_full_run(method):
    from common.experiments import mini_gp_opt as experiment
    full, prefix = experiment.run(_bbob_config(method)), experiment.run(_bbob_config(method), iterations=30)
    for name in ("step", "normalized_regret", "unique", "switches"):
        np.testing.assert_array_equal(prefix[name], full[name][:30])


@pytest.mark.parametrize("algorithm", [mini_meta, gp_bucb, batch_bkb])
def test_a_smaller_beta_picks_arms_of_lower_variance_and_so_batches_more(algorithm):
    # Every batch rule ends a batch on the normalized variance of the arms it picks.
    runs = [algorithm(KERNEL, ARMS, _pull, LAM, 200, np.random.default_rng(11), threshold=1.3, beta_scale=scale)
            for scale in (1.0, 0.05)]
    selections = [len(run.batch_sizes) if run.batch_sizes else len(run.arms) for run in runs]  # batches or epochs
    assert selections[1] < selections[0]


def test_beta_scale_one_is_the_theory_rule_and_must_be_positive():
    default = gp_bucb(KERNEL, ARMS, _pull, LAM, 60, np.random.default_rng(12))
    scaled = gp_bucb(KERNEL, ARMS, _pull, LAM, 60, np.random.default_rng(12), beta_scale=1.0)
    assert default.arms == scaled.arms
    for algorithm in (mini_meta, gp_bucb, batch_bkb):
        with pytest.raises(ValueError, match="beta_scale"):
            algorithm(KERNEL, ARMS, _pull, LAM, 10, np.random.default_rng(0), beta_scale=0.0)


def test_the_beta_ablation_reruns_the_nas_blocks_first_seeds_with_beta_scaled():
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["quick"], "scale": "quick"}
    grid = experiment.make_grid(params)
    ablation = [config for config in grid if config["experiment"] == "beta_ablation"]
    assert {(c["method"], c["seed"]) for c in ablation} == {
        (m, s) for m in params["beta_ablation_methods"] for s in range(params["beta_ablation_seeds"])}
    assert all(c["beta_scale"] == params["beta_ablation_scale"] for c in ablation)
    assert all("beta_scale" not in c for c in grid if c["experiment"] != "beta_ablation")


def test_table1_grids_follow_the_paper_and_the_spec():
    from common.experiments import mini_gp_opt as experiment
    assert len(experiment.table1_settings("epsilon-greedy")) == 12          # a in 3 values, b in 4 (App. B.1)
    assert len(experiment.table1_settings("GP-UCB")) == len(experiment.TABLE1_BANDWIDTH_FACTORS)
    assert len(experiment.table1_settings("BBKB")) == 2 * len(experiment.TABLE1_BANDWIDTH_FACTORS)  # C in {1.1, 1.2}


def test_table1_search_marks_the_lowest_mean_regret_and_blanks_unused_settings():
    import pandas as pd
    from common.experiments import mini_gp_opt as experiment
    rows = []
    for method, factor, seed, regret in [("GP-UCB", 1.0, 0, 0.5), ("GP-UCB", 1.0, 1, 0.3), ("GP-UCB", 2.0, 0, 0.2),
                                         ("GP-UCB", 2.0, 1, 0.7)]:
        rows.append({"run_key": f"{method}{factor}{seed}", "eval": 0, "experiment": "table1", "method": method,
                     "bandwidth_factor": factor, "threshold": 1.1, "epsilon_a": 1.0, "epsilon_b": 0.5, "seed": seed,
                     "normalized_regret": regret})
    search = experiment.table1_search(pd.DataFrame(rows))
    best = search[search["best"]]
    assert best["bandwidth_factor"].tolist() == [1.0] and best["R_T/T (normalized)"].tolist() == [0.4]
    assert search["threshold"].isna().all() and search["epsilon_a"].isna().all()
    assert search["at grid edge"].tolist() == [False, False]  # 1 and 2 are inside the bandwidth grid
    tied = experiment.table1_search(pd.DataFrame([{**row, "normalized_regret": 0.3} for row in rows]))
    assert tied["best"].sum() == 1  # one pick per method, also when settings tie


def test_the_tuned_epsilon_greedy_is_the_setting_with_the_lowest_mean_regret_per_problem():
    import pandas as pd
    from common.experiments import mini_gp_opt as experiment
    rows = [{"run_key": f"{problem}{a}{seed}", "eval": 0, "experiment": "bbob", "problem": problem,
             "method": "epsilon-greedy", "epsilon_a": a, "epsilon_b": 0.5, "seed": seed, "normalized_regret": regret}
            for problem, a, seed, regret in [("f1", 1.0, 0, 0.5), ("f1", 1.0, 1, 0.3), ("f1", 10.0, 0, 0.2),
                                             ("f1", 10.0, 1, 0.7), ("f2", 1.0, 0, 0.9), ("f2", 10.0, 0, 0.1)]]
    rows.append({"run_key": "gp", "eval": 0, "experiment": "bbob", "problem": "f1", "method": "GP-UCB", "seed": 0,
                 "normalized_regret": 0.4})
    tuned = experiment.with_tuned_epsilon_greedy(pd.DataFrame(rows))
    greedy = tuned[tuned["method"] == "epsilon-greedy"].set_index(["problem", "seed"])["epsilon_a"]
    assert greedy.to_dict() == {("f1", 0): 1.0, ("f1", 1): 1.0, ("f2", 0): 10.0}
    assert (tuned["method"] == "GP-UCB").sum() == 1
    assert len(experiment.with_tuned_epsilon_greedy(tuned)) == len(tuned)


def test_pathwise_samples_from_exact_prior_draws_have_the_posterior_mean_and_variance():
    from common.methods.mini_gp_opt import pathwise_sample
    posterior = _incremental()
    prior_factor = np.linalg.cholesky(KERNEL(ARMS) + 1e-10 * np.eye(len(ARMS)))
    rng = np.random.default_rng(12)
    samples = np.array([pathwise_sample(posterior, prior_factor @ rng.standard_normal(len(ARMS)), rng)
                        for _ in range(6000)])
    np.testing.assert_allclose(samples.mean(axis=0), posterior.mean, atol=0.05)
    np.testing.assert_allclose(samples.var(axis=0), posterior.variance, atol=0.05, rtol=0.1)
    # At the evaluated arms the variance is the noise's share (without the noise draw it falls to ~1 % of it).
    unique = np.asarray(posterior.unique)
    np.testing.assert_allclose(samples.var(axis=0)[unique] / posterior.variance[unique], 1.0, atol=0.1)


def test_gp_bts_spends_the_horizon_in_batches_of_the_given_size():
    from common.methods.mini_gp_opt import gp_bts
    record = gp_bts(KERNEL, ARMS, _pull, LAM, 95, np.random.default_rng(13), batch_size=10, n_features=200)
    assert len(record.arms) == 95 == sum(record.batch_sizes)
    assert record.batch_sizes[1:-1] == [10] * (len(record.batch_sizes) - 2) and record.batch_sizes[-1] == 4


def test_the_noise_ablation_runs_only_the_functions_whose_bbob_noise_differs_from_the_papers():
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["paper"], "scale": "paper"}
    levels = experiment.bbob_noise_levels(params)
    assert levels == {"Ellipsoid f116": 1.0, "Schaffer f122": 1.0}  # f104 is moderate in BBOB too, f3 noise-free
    runs = [c for c in experiment.make_grid(params) if c["experiment"] == "noise_ablation"]
    assert {c["noise_beta"] for c in runs} == {1.0} and {c["problem"] for c in runs} == set(levels)


def test_the_lambda_ablation_squares_lambda_and_nothing_else():
    from common.experiments import mini_gp_opt as experiment
    config = _bbob_config("MINI-GP-UCB", T=20)
    plain, squared = experiment.run(config), experiment.run({**config, "lambda_rule": "p90 std squared"})
    assert squared["lam"] == pytest.approx(plain["lam"] ** 2) and squared["lengthscale"] == plain["lengthscale"]


def test_the_default_oversampling_leaves_the_published_grid_as_it_was_and_another_sets_only_bkb_and_bbkb():
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["paper"], "scale": "paper", "oversampling_ablation_seeds": 0,
              "oversampling_ablation_nas_seeds": 0, "combined_ablation_seeds": 0}
    published = experiment.make_grid(params)
    assert all("oversampling" not in config for config in published)   # the published runs keep their keys
    oversampled = experiment.make_grid({**params, "bbkb_oversampling": 4.0})
    assert len(oversampled) == len(published)
    for before, after in zip(published, oversampled):
        if before["method"] in ("BBKB", "BKB"):
            assert after == {**before, "oversampling": 4.0}
        else:
            assert after == before


def test_epsilon_greedy_runs_are_shared_by_every_kernel_setting_of_the_gp_methods():
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["paper"], "scale": "paper"}
    greedy = [c for c in experiment.make_grid(params) if c["method"] == "epsilon-greedy"]
    wider = [c for c in experiment.make_grid({**params, "bandwidth_factor": 16.0, "threshold": 1.2})
             if c["method"] == "epsilon-greedy"]
    assert wider == greedy and greedy
    assert all(c["bandwidth_factor"] == 16.0 for c in experiment.make_grid({**params, "bandwidth_factor": 16.0})
               if c["method"] in ("MINI-GP-UCB", "BBKB") and c["experiment"] in ("nas", "bbob"))


def test_a_larger_oversampling_keeps_every_arm_the_smaller_one_keeps():
    posterior = NystromPosterior(KERNEL, ARMS, LAM)
    for arm, values in _observations():
        for value in values:
            posterior.observe(arm, value)
    posterior.fit(np.array([4, 17]))
    kept = {qbar: set(posterior.resample(np.random.default_rng(5), qbar).tolist()) for qbar in (1.0, 4.0, 1e6)}
    assert kept[1.0] <= kept[4.0] <= kept[1e6]
    assert kept[1e6] == {arm for arm, _ in EPOCHS}   # every pulled arm once qbar w sigma~^2 >= 1


def test_a_run_at_the_authors_oversampling_is_the_run_without_the_setting():
    from common.experiments import mini_gp_opt as experiment
    config = _bbob_config("BBKB", T=40)
    plain, explicit = experiment.run(config), experiment.run({**config, "oversampling": 1.0})
    for name in ("normalized_regret", "unique", "feedbacks"):
        np.testing.assert_array_equal(plain[name], explicit[name])


def _timed_runs(startup=0.25, method="MINI-GP-UCB"):
    import pandas as pd
    rows = []
    for seed in range(5):
        extra = startup if seed == 2 else 0.0
        for index, (step, seconds) in enumerate([(1, 3e-4), (10, 0.01), (100, 0.2)]):
            rows.append({"experiment": "bbob", "problem": "f", "method": method, "seed": seed,
                         "run_key": f"{method}{seed}", "eval": index, "step": step,
                         "algorithm_seconds": seconds * (1 + 0.01 * seed * (step > 1)) + extra,
                         "normalized_regret": 1.0 / step})
    return pd.DataFrame(rows)


def test_the_one_off_startup_is_the_first_steps_excess_and_comes_off_only_the_run_that_paid_it():
    from common.experiments import mini_gp_opt as experiment
    table = _timed_runs()
    startup = experiment.startup_seconds(table)
    assert startup["MINI-GP-UCB2"] == pytest.approx(0.25) and (startup.drop("MINI-GP-UCB2") == 0).all()
    cleaned = experiment.without_startup(table)
    paid = table["run_key"] == "MINI-GP-UCB2"
    np.testing.assert_allclose(cleaned.loc[paid, "algorithm_seconds"], table.loc[paid, "algorithm_seconds"] - 0.25)
    assert cleaned.loc[~paid, "algorithm_seconds"].equals(table.loc[~paid, "algorithm_seconds"])
    np.testing.assert_allclose(experiment.without_startup(cleaned)["algorithm_seconds"], cleaned["algorithm_seconds"],
                               rtol=0, atol=1e-12)                        # nothing left to take off
    assert (experiment.startup_seconds(_timed_runs(method="BBKB")) == 0).all()   # BBKB does not use the kernel
    assert "1 of the 5 runs" in experiment.startup_caption(table)


def test_the_median_and_quartiles_stay_positive_and_the_marker_is_the_mean_at_the_last_step():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from common.experiments import mini_gp_opt as experiment
    table = _timed_runs()
    table["normalized_regret"] *= 1 + table["seed"]          # seeds 1x..5x
    fig, ax = plt.subplots()
    caption = experiment.plot_median_quartiles(ax, table, "step", "normalized_regret", "m")
    line, marker = ax.lines
    np.testing.assert_allclose(line.get_ydata(), 3.0 / np.array([1, 10, 100]))   # the median seed, 3x
    assert marker.get_xdata()[0] == 100 and marker.get_ydata()[0] == pytest.approx(3.0 / 100)   # mean of 1..5 x
    band = ax.collections[0].get_paths()[0].vertices[:, 1]
    assert band.min() > 0 and "median over 5 runs" in caption
    plt.close(fig)


def test_the_bandwidth_effect_pairs_the_fixed_setting_with_the_searchs_pick_seed_by_seed():
    import pandas as pd
    from common.experiments import mini_gp_opt as experiment
    rows = [{"run_key": f"{factor}{seed}", "eval": 0, "step": 1000, "experiment": "table1", "method": "GP-UCB",
             "bandwidth_factor": factor, "threshold": 1.1, "seed": seed,
             "normalized_regret": (0.5 if factor == 1.0 else 0.25) * (1 + 0.1 * seed), "unique": 400 / factor}
            for factor in (1.0, 16.0) for seed in range(4)]
    effect = experiment.bandwidth_effect_table(pd.DataFrame(rows), {"bandwidth_factor": 1.0, "threshold": 1.1})
    row = effect.iloc[0]
    assert row["search's pick"] == "l^2/m = 16" and row["seeds"] == 4 and row["seeds lower (pick)"] == "4 of 4"
    assert row["R_T/T (pick)"] / row["R_T/T (fixed)"] == pytest.approx(0.5)
    assert row["ratio (pick / fixed)"].startswith("0.5x") and row["q_T (pick)"] == 25


def test_the_open_choices_give_the_command_that_computes_each(monkeypatch):
    import common.runner
    from common.experiments import mini_gp_opt as experiment
    monkeypatch.setattr(common.runner, "estimate_cost", lambda grid, run: f"{len(grid)} runs")
    lines = experiment.open_choice_costs()
    assert len(lines) == len(experiment.OPEN_CHOICE_OVERRIDES)
    for line, (name, (value, _)) in zip(lines, experiment.OPEN_CHOICE_OVERRIDES.items()):
        assert f"reproduce.py mini_gp_opt --runs-only -p {name} {value:g}" in line


def test_the_bandwidth_ablation_reruns_the_nas_figures_gp_methods_at_the_pick_and_nothing_else():
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["quick"], "scale": "quick"}
    grid = experiment.make_grid(params)
    ablation = [c for c in grid if c["experiment"] == "bandwidth_ablation"]
    methods = [m for m in params["nas_methods"] if m != "epsilon-greedy"]
    assert {(c["method"], c["seed"]) for c in ablation} == {
        (m, s) for m in methods for s in range(params["bandwidth_ablation_seeds"])}
    nas = {(c["method"], c["seed"]): c for c in grid if c["experiment"] == "nas"}
    for config in ablation:   # the nas block's run but for the block's name and the bandwidth
        twin = nas[(config["method"], config["seed"])]
        assert config == {**twin, "experiment": "bandwidth_ablation",
                          "bandwidth_factor": params["bandwidth_ablation_factor"]}
    assert not [c for c in experiment.make_grid({**params, "bandwidth_ablation_seeds": 0})
                if c["experiment"] == "bandwidth_ablation"]


def test_the_bandwidth_ablation_table_pairs_each_method_with_the_nas_blocks_runs_seed_by_seed():
    import pandas as pd
    from common.experiments import mini_gp_opt as experiment
    rows = [{"run_key": f"{block}{seed}", "eval": 0, "step": 10_000, "experiment": block, "problem": "NAS",
             "method": "GP-UCB", "seed": seed, "normalized_regret": (0.4 if block == "nas" else 0.1) + 0.01 * seed,
             "unique": 2000 if block == "nas" else 200}
            for block in ("nas", "bandwidth_ablation") for seed in range(6)]
    rows = [row for row in rows if not (row["experiment"] == "bandwidth_ablation" and row["seed"] == 5)]
    effect = experiment.bandwidth_ablation_table(pd.DataFrame(rows), {"bandwidth_factor": 1.0,
                                                                       "bandwidth_ablation_factor": 16.0}).iloc[0]
    assert effect["seeds"] == 5 and effect["seeds lower (pick)"] == "5 of 5" and effect["l^2/m"] == "1 -> 16"
    assert effect["R_T/T (fixed)"] == pytest.approx(0.42) and effect["q_T (pick)"] == 200
    assert effect["ratio (pick / fixed)"].startswith("0.286x")
    assert experiment.bandwidth_ablation_table(pd.DataFrame(rows[:6]), {}).empty


def test_the_oversampling_ablation_reruns_bbkb_of_the_figures_at_its_qbar_and_nothing_else():
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["paper"], "scale": "paper", "oversampling_ablation_seeds": 40,
              "oversampling_ablation_nas_seeds": 10}
    grid = experiment.make_grid(params)
    ablation = [c for c in grid if c["experiment"] == "oversampling_ablation"]
    figures = {(c["problem"], c["seed"]): c for c in grid
               if c["method"] == "BBKB" and (c["experiment"] == "bbob" or c["experiment"] == "nas" and c["seed"] < 10)}
    assert {(c["problem"], c["seed"]) for c in ablation} == set(figures)
    assert len(ablation) == len(params["bbob_problems"]) * 40 + 10
    for config in ablation:   # the figure's run but for the block's name and qbar: the same random streams
        assert config == {**figures[(config["problem"], config["seed"])], "experiment": "oversampling_ablation",
                          "oversampling": params["oversampling_ablation_qbar"]}
    # Another published qbar moves the figures' BBKB, never the ablation's.
    moved = experiment.make_grid({**params, "bbkb_oversampling": 2.0, "oversampling_ablation_seeds": 1})
    assert {c["oversampling"] for c in moved if c["experiment"] == "oversampling_ablation"} == {4.0}
    assert not [c for c in experiment.make_grid({**params, "oversampling_ablation_seeds": 0,
                                                 "oversampling_ablation_nas_seeds": 0})
                if c["experiment"] == "oversampling_ablation"]


def _bbkb_rows(blocks, seeds, regret_of):
    return [{"run_key": f"{block}{problem}{method}{seed}", "eval": 0, "step": 10_000, "experiment": block,
             "problem": problem, "method": method, "seed": seed, "normalized_regret": regret_of(block, method, seed),
             "unique": 1000 if block == "oversampling_ablation" else 1800, "run_cpu_seconds": 10.0}
            for block, problem in blocks for method in ("BBKB", "MINI-GP-UCB") for seed in seeds
            if not (block == "oversampling_ablation" and method == "MINI-GP-UCB")]


def test_the_oversampling_ablation_table_pairs_bbkb_with_the_figures_runs_seed_by_seed():
    import pandas as pd
    from common.experiments import mini_gp_opt as experiment

    def regret(block, method, seed):
        return (0.1 if block == "oversampling_ablation" else 0.4 if method == "BBKB" else 0.2) + 0.01 * seed

    rows = _bbkb_rows([("bbob", "Ellipsoid f116"), ("oversampling_ablation", "Ellipsoid f116")], range(6), regret)
    params = {"bbkb_oversampling": 1.0, "oversampling_ablation_qbar": 4.0, "bbob_problems": ["Ellipsoid f116"]}
    row = experiment.oversampling_ablation_table(pd.DataFrame(rows), params).iloc[0]
    assert row["seeds"] == 6 and row["qbar"] == "1 -> 4" and row["seeds lower (4)"] == "6 of 6"
    assert row["R_T/T (qbar 1)"] == pytest.approx(0.425) and row["q_T (qbar 4)"] == 1000
    assert row["ratio (4 / 1)"].startswith("0.294x") and row["BBKB (4) / MINI-GP-UCB"].startswith("0.556x")
    assert experiment.oversampling_ablation_table(pd.DataFrame(rows[:12]), params).empty


def test_the_claims_see_the_ablations_bbkb_on_the_problems_where_it_ran_every_seed_of_the_figures():
    import pandas as pd
    from common.experiments import mini_gp_opt as experiment
    blocks = [("nas", "NAS"), ("bbob", "Ellipsoid f116"), ("oversampling_ablation", "NAS"),
              ("oversampling_ablation", "Ellipsoid f116")]
    table = pd.DataFrame(_bbkb_rows(blocks, range(3), lambda block, method, seed: 0.1 * seed))
    swapped, problems = experiment.with_ablation_runs(table, "oversampling_ablation")
    assert problems == ["NAS", "Ellipsoid f116"]
    assert set(swapped["experiment"]) == {"nas", "bbob"} and len(swapped) == 12
    bbkb = swapped[swapped["method"] == "BBKB"]
    assert (bbkb["unique"] == 1000).all() and set(zip(bbkb["experiment"], bbkb["problem"])) == set(blocks[:2])
    assert (swapped[swapped["method"] == "MINI-GP-UCB"]["unique"] == 1800).all()
    # NAS's ablation short of a seed: only the BBOB problem is replaced.
    partial = table[~((table["experiment"] == "oversampling_ablation") & (table["problem"] == "NAS")
                      & (table["seed"] == 2))]
    swapped, problems = experiment.with_ablation_runs(partial, "oversampling_ablation")
    assert problems == ["Ellipsoid f116"]
    nas_bbkb = swapped[(swapped["problem"] == "NAS") & (swapped["method"] == "BBKB")]
    assert (nas_bbkb["unique"] == 1800).all() and len(nas_bbkb) == 3
    no_ablation = table[table["experiment"] != "oversampling_ablation"]
    assert experiment.with_ablation_runs(no_ablation, "oversampling_ablation") is None


def test_the_bandwidth_plateau_sentence_compares_one_bandwidth_with_each_methods_pick():
    from common.experiments import mini_gp_opt as experiment

    search = pd.DataFrame({
        "method": ["GP-UCB", "GP-UCB", "BBKB", "BBKB", "BBKB", "epsilon-greedy"],
        "bandwidth_factor": [16.0, 64.0, 16.0, 16.0, 64.0, np.nan],
        "threshold": [np.nan, np.nan, 1.1, 1.2, 1.1, np.nan],
        "R_T/T (normalized)": [0.21, 0.20, 0.30, 0.29, 0.31, 0.15], "seeds": 5,
        "best": [False, True, False, True, False, True]})
    sentence = experiment.bandwidth_plateau_sentence(search, 16.0)
    assert sentence.startswith("The picks lie at l^2 = 16x to 64x the median squared distance (1 of 2 GP methods")
    assert "1.000x to 1.050x its pick's (largest: GP-UCB)" in sentence


def test_the_combined_ablation_is_the_bandwidth_ablations_bbkb_at_the_oversampling_ablations_qbar():
    from common.experiments import mini_gp_opt as experiment
    params = {**experiment.SCALES["paper"], "scale": "paper"}
    grid = experiment.make_grid(params)
    combined = [c for c in grid if c["experiment"] == "combined_ablation"]
    by_seed = {c["seed"]: c for c in grid if c["experiment"] == "bandwidth_ablation" and c["method"] == "BBKB"}
    assert len(combined) == params["combined_ablation_seeds"]
    for config in combined:
        assert config == {**by_seed[config["seed"]], "experiment": "combined_ablation",
                          "oversampling": params["oversampling_ablation_qbar"]}


def test_the_combined_table_sets_each_bbkb_setting_beside_the_figures_on_the_combined_seeds():
    import pandas as pd
    from common.experiments import mini_gp_opt as experiment
    regret = {"nas": 0.4, "oversampling_ablation": 0.3, "bandwidth_ablation": 0.2, "combined_ablation": 0.1}
    rows = [{"run_key": f"{block}{method}{seed}", "eval": 0, "experiment": block, "problem": experiment.NAS_PROBLEM,
             "method": method, "seed": seed, "normalized_regret": regret[block] * (1.5 if method != "BBKB" else 1)
             + 0.01 * seed}
            for block in regret for method in ("BBKB", "MINI-GP-UCB") for seed in range(6)
            if method == "BBKB" or block in ("nas", "bandwidth_ablation")]
    rows = [row for row in rows if row["experiment"] != "combined_ablation" or row["seed"] < 4]
    params = {**experiment.SCALES["paper"]}
    table = experiment.combined_ablation_table(pd.DataFrame(rows), params)
    assert list(table["seeds"]) == [4, 4, 4, 4, 4]
    assert table["R_T/T"].iloc[0] == pytest.approx(0.415) and table["R_T/T"].iloc[3] == pytest.approx(0.115)
    assert table["ratio to the figures' BBKB"].iloc[3].startswith("0.277x")
    assert experiment.combined_ablation_table(pd.DataFrame(rows[:10]), params).empty
