"""BO-PP: the paper's identities (Lemmas 2 and 4) and the pseudo-point schedule (§5)."""
import json

import numpy as np
import pandas as pd
import pytest

from common import paper_data
from common.experiments import bo_pp as experiment
from common.gp import GaussianProcess
from common.kernels import SquaredExponential
from common.methods.bo_pp import (PseudoPointBO, lemma_terms, posterior_with_pseudo_points,
                                  pseudo_point_distance, sample_pseudo_points)
from common.test_functions import DropWave, ScaledFunction

BOUNDS = np.array([[-1.0, 1.0], [-1.0, 1.0]])
RNG = np.random.default_rng(0)
X = RNG.uniform(-1, 1, (20, 2))
F = ScaledFunction(DropWave())
Y = F(X)
X_TEST = RNG.uniform(-1, 1, (600, 2))
KERNEL = SquaredExponential([0.3, 0.4], 1.0)


def _gps(tau0=0.01, y_transform="none"):
    gp = GaussianProcess(KERNEL, 1e-4, y_transform=y_transform).fit(X, Y)
    tau = pseudo_point_distance(tau0, len(X), 2)
    X_pseudo, y_pseudo = sample_pseudo_points(X, Y, tau, BOUNDS, np.random.default_rng(1))
    return gp, posterior_with_pseudo_points(gp, X_pseudo, y_pseudo), X_pseudo, y_pseudo


def test_lemma2_variance_reduction_equals_p_M_p_and_is_nonnegative():
    gp, gp_pp, X_pseudo, _ = _gps()
    _, std = gp.predict(X_TEST, return_std=True)
    _, std_pp = gp_pp.predict(X_TEST, return_std=True)
    P, M = lemma_terms(gp, X_pseudo, X_TEST)
    reduction = np.einsum("ij,jk,ik->i", P, M, P)
    np.testing.assert_allclose(std**2 - std_pp**2, reduction, rtol=1e-6, atol=1e-10)
    assert (std**2 - std_pp**2).min() >= -1e-12


def test_lemma4_mean_shift():
    gp, gp_pp, X_pseudo, y_pseudo = _gps()
    P, M = lemma_terms(gp, X_pseudo, X_TEST)
    expected = gp.predict(X_TEST) + P @ M @ (gp.predict(X_pseudo) - y_pseudo)
    np.testing.assert_allclose(gp_pp.predict(X_TEST), expected, rtol=1e-6, atol=1e-9)


def test_lemma4_with_true_values_at_the_pseudo_points():
    gp, gp_pp, X_pseudo, y_pseudo = _gps()
    gp_true = posterior_with_pseudo_points(gp, X_pseudo, F(X_pseudo))
    P, M = lemma_terms(gp, X_pseudo, X_TEST)
    np.testing.assert_allclose(gp_pp.predict(X_TEST) - gp_true.predict(X_TEST),
                               -P @ M @ (y_pseudo - F(X_pseudo)), rtol=1e-6, atol=1e-9)


def test_standardization_is_unchanged_by_pseudo_points():
    gp, gp_pp, _, _ = _gps(y_transform="standardize")
    assert gp_pp.y_mean == pytest.approx(gp.y_mean) and gp_pp.y_scale == pytest.approx(gp.y_scale)


def test_larger_tau0_reduces_variance_more():
    gp, small, _, _ = _gps(0.0001)
    _, large, _, _ = _gps(0.01)
    _, std = gp.predict(X_TEST, return_std=True)
    reduction_small = std**2 - small.predict(X_TEST, return_std=True)[1] ** 2
    reduction_large = std**2 - large.predict(X_TEST, return_std=True)[1] ** 2
    assert reduction_large.max() > reduction_small.max()
    assert reduction_large.mean() > reduction_small.mean()


@pytest.mark.parametrize("mode", ["box", "corner"])
def test_pseudo_points_lie_at_distance_tau(mode):
    inner = RNG.uniform(-0.9, 0.9, (50, 2))
    X_pseudo, y_pseudo = sample_pseudo_points(inner, np.arange(50.0), 0.01, BOUNDS, RNG, mode)
    distance = np.abs(X_pseudo - inner)
    assert distance.max() <= 0.01 + 1e-15
    if mode == "corner":
        np.testing.assert_allclose(distance, 0.01)
    np.testing.assert_array_equal(y_pseudo, np.arange(50.0))


def test_schedule_tau_is_r_tau0_over_d_l():
    assert pseudo_point_distance(0.01, 5, 2) == pytest.approx(2e-3)
    assert pseudo_point_distance(0.0001, 104, 6) == pytest.approx(2 * 0.0001 / (6 * 104))


def test_method_adds_one_pseudo_point_per_observation_and_fits_on_real_points_only(monkeypatch):
    rows_seen_by_mle = []
    original = GaussianProcess.fit_hyperparameters

    def recording(self, *args, **kwargs):
        rows_seen_by_mle.append(len(self.X))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(GaussianProcess, "fit_hyperparameters", recording)
    method = PseudoPointBO(SquaredExponential([0.5, 0.5]), BOUNDS, tau0=0.01, acquisition="EI",
                           noise_variance=1e-4, optimizer_options={"max_evals": 100})
    rng = np.random.default_rng(3)
    for n in (5, 6, 7):
        x = method.propose(X[:n], Y[:n], n - 4, rng)
        assert x.shape == (1, 2)
        assert method.log[-1]["n_pseudo"] == n
        assert method.log[-1]["tau"] == pytest.approx(2 * 0.01 / (2 * n))
        assert len(method.last_gp.X) == 2 * n  # the acquisition saw real + pseudo points
    assert rows_seen_by_mle == [5, 6, 7]  # the hyperparameters were fitted on the real points only


def test_method_labels_follow_the_paper():
    assert [experiment.method_label("UCB", t) for t in experiment.TAU0S] == [
        "UCB", "UCB-PP01", "UCB-PP001", "UCB-PP0001"]


def test_runs_share_initial_points_and_repeat_bit_for_bit():
    params = dict(experiment.SCALES["smoke"])
    base = experiment._config(params, "synthetic", "Dropwave", "UCB", 0.0, 0, 3, "ard")
    plain = experiment.run(base)
    pseudo = experiment.run({**base, "tau0": 0.01})
    np.testing.assert_array_equal(plain["X"][:5], pseudo["X"][:5])
    again = experiment.run({**base, "tau0": 0.01})
    np.testing.assert_array_equal(pseudo["X"], again["X"])
    assert np.all(np.diff(pseudo["regret"]) <= 0) and pseudo["regret"].min() >= -1e-9
    assert np.all(pseudo["n_pseudo"][5:] == np.arange(5, 8))


@pytest.mark.parametrize("name", list(experiment.CENTRED_OPTIMUM))
def test_the_shifted_box_keeps_the_optimum_inside_and_moves_it_off_the_centre(name):
    shifted = experiment.make_problem({"problem": name, "seed": 0, "box_shift": list(experiment.BOX_SHIFT)})
    usual = experiment.make_problem({"problem": name, "seed": 0})
    optimizer = shifted.optimizers[0]
    assert np.all(np.abs(optimizer) < 1) and np.min(np.abs(optimizer)) > 0.1
    assert shifted(optimizer[None, :])[0] == pytest.approx(shifted.optimal_value, abs=1e-12)
    assert usual(np.zeros((1, 2)))[0] == pytest.approx(usual.optimal_value, abs=1e-12)
    assert shifted(np.zeros((1, 2)))[0] < shifted.optimal_value - 1e-3


def _finals(rows):
    return pd.DataFrame(rows, columns=["experiment", "problem", "acquisition", "tau0", "seed",
                                       "direct_evals_per_dim", "value"])


def test_direct_budget_table_pairs_each_budget_with_the_main_block_by_seed():
    rows = [("synthetic", "Dropwave", "UCB", 0.0, seed, 500, 1.0 + seed) for seed in range(6)]
    rows += [("direct_ablation", "Dropwave", "UCB", 0.0, seed, 2000, 0.5 + seed) for seed in range(6)]
    table = experiment.direct_budget_table(_finals(rows), paper_data.load_paper_numbers("bo_pp"), 500)
    row = table.iloc[0]
    assert (row["S_T at 500·d"], row["S_T at 2000·d"]) == (3.5, 3.0)
    assert row["2000·d vs 500·d W/T/L"] == "6/0/0"  # lower regret at every seed


def test_shifted_box_table_counts_exact_zeros_and_compares_pp_with_bo_by_seed():
    rows = [("synthetic", "Griewank", "UCB", tau0, seed, 500, 0.0) for tau0 in (0.0, 0.01) for seed in range(5)]
    rows += [("shifted_box", "Griewank", "UCB", 0.0, seed, 500, 1.0) for seed in range(5)]
    rows += [("shifted_box", "Griewank", "UCB", 0.01, seed, 500, 2.0) for seed in range(5)]
    table = experiment.shifted_box_table(_finals(rows)).set_index("method")
    assert (table.loc["UCB", "zeros usual"], table.loc["UCB", "zeros shifted"]) == (5, 0)
    assert table.loc["UCB-PP01", "PP vs BO (shifted) W/T/L"] == "0/0/5"


def test_the_confirmatory_block_adds_only_fresh_seeds_of_planned_claims():
    from common import confirmatory
    from common.experiments import bo_pp_claims

    params = {**experiment.SCALES["paper"], "scale": "paper"}
    published = experiment.make_grid(params)
    added = experiment.make_grid({**params, "confirmatory": True})[len(published):]
    assert experiment.make_grid({**params, "confirmatory": True})[:len(published)] == published
    # The paper's scale is the paper's seeds alone; the published configuration adds the fresh ones.
    assert not experiment.SCALES["paper"]["confirmatory"] and experiment.PUBLISHED.get("confirmatory")
    plan = confirmatory.load_plan("bo_pp")
    planned = plan[plan["planned_seeds"] > 0]
    expected = {}
    for row in planned.itertuples(index=False):
        for key in bo_pp_claims.claim_runs(row.id):
            expected[key] = max(expected.get(key, 0), row.planned_seeds)
    found = {}
    for config in added:
        assert config["seed"] >= confirmatory.SEED_OFFSET
        key = (config["experiment"], config["problem"], config["acquisition"], config["tau0"])
        found[key] = found.get(key, 0) + 1
    assert found == expected


def _ablation_finals(ablated_value, seeds):
    """Our Dropwave UCB baseline at mean 1 and the ablated one at mean ``ablated_value``, a little spread by seed."""
    spread = [0.01 * (seed - (seeds - 1) / 2) for seed in range(seeds)]
    rows = [("synthetic", "Dropwave", "UCB", 0.0, seed, 500, 1.0 + spread[seed]) for seed in range(seeds)]
    rows += [("direct_ablation", "Dropwave", "UCB", 0.0, seed, 2000, ablated_value + spread[seed])
             for seed in range(seeds)]
    return _finals(rows)


@pytest.mark.parametrize("ablated_value, seeds, expected", [
    (1.0, 20, "ruled out"),          # no move: the paper's mean (0.271) lies outside the interval
    (0.271, 20, "cannot rule out"),  # the ablated choice lands on the paper's mean
    (1.0, 6, "cannot rule out"),     # below 10 paired seeds an ablation rules nothing out
])
def test_an_ablation_rules_out_closing_the_gap_only_with_an_interval_and_ten_seeds(ablated_value, seeds, expected):
    table = experiment.ablation_against_gap(_ablation_finals(ablated_value, seeds), paper_data.load_paper_numbers("bo_pp"),
                                            500)
    assert table.loc[0, "closes the gap"] == expected


def _table1_finals():
    """Every (problem, method) of Table 1 at 3 seeds, rows shuffled; BO-PP at the baseline's value + tau0."""
    rows = [{"experiment": "synthetic" if problem in experiment.SYNTHETIC else "real_world", "problem": problem,
             "acquisition": acquisition, "tau0": tau0, "method": experiment.method_label(acquisition, tau0),
             "seed": seed, "iteration": 100, "value": 1.0 + seed + tau0}
            for problem in (*experiment.SYNTHETIC, *experiment.REAL_WORLD) for acquisition in experiment.ACQUISITIONS
            for tau0 in experiment.TAU0S for seed in range(3)]
    return pd.DataFrame(rows).sample(frac=1.0, random_state=0)


def test_table1_rows_follow_the_papers_table_whatever_the_order_of_the_runs():
    numbers = paper_data.load_paper_numbers("bo_pp")
    table = experiment.table1(_table1_finals(), numbers)
    paper_rows = numbers[numbers["table"] == "table1"]
    ours = [(experiment.PAPER_PROBLEM.get(problem, problem), method)
            for problem, method in zip(table["problem"], table["method"])]
    assert ours == list(zip(paper_rows["problem"], paper_rows["method"]))  # the transcription keeps the paper's order
    assert (table["runs"] == 3).all() and (table["T"] == 100).all()


def test_table1_marks_no_worse_by_the_direction_of_each_block():
    table = experiment.table1(_table1_finals(), paper_data.load_paper_numbers("bo_pp")).set_index(["problem", "method"])
    # BO-PP is above BO by tau0: worse on a regret, better on a score.
    assert table.loc[("Dropwave", "UCB-PP01"), "no worse than BO"] == "✗"
    assert table.loc[("NN_cancer", "UCB-PP01"), "no worse than BO"] == "✓"
    assert table.loc[("NN_cancer", "UCB"), "no worse than BO"] == ""


@pytest.mark.parametrize("ours, ablated, paper, expected", [
    (1.0, 0.2, 0.3, True), (1.0, 0.3, 0.3, True), (1.0, 0.5, 0.3, False),  # a gap downwards
    (0.1, 0.4, 0.3, True), (0.1, 0.2, 0.3, False), (0.1, 0.0, 0.3, False),  # a gap upwards; the wrong way
    (0.3, 5.0, 0.3, True),                                                    # no gap at all
])
def test_an_ablation_moves_as_far_as_the_gap_only_to_the_papers_mean_or_beyond(ours, ablated, paper, expected):
    assert experiment.moves_as_far(ours, ablated, paper) is expected


def _gap_finals(seeds=12):
    """Our baselines on Dropwave and Hart6 UCB at mean 1; a budget ablation at 1 and a shifted box at 0.27, the
    paper's Dropwave UCB mean (there is no shifted box for Hart6, whose optimum is off-centre)."""
    spread = [0.01 * (seed - (seeds - 1) / 2) for seed in range(seeds)]
    rows = []
    for problem in ("Dropwave", "Hart6"):
        rows += [("synthetic", problem, "UCB", 0.0, seed, 500, 1.0 + spread[seed]) for seed in range(seeds)]
        rows += [("direct_ablation", problem, "UCB", 0.0, seed, 10, 1.0 + spread[seed]) for seed in range(seeds)]
    rows += [("shifted_box", "Dropwave", "UCB", 0.0, seed, 500, 0.271 + spread[seed]) for seed in range(seeds)]
    rows += [("shifted_box", "Dropwave", "UCB", 0.01, seed, 500, 0.5) for seed in range(seeds)]  # not a baseline
    return _finals(rows)


def test_the_shifted_box_is_an_ablation_of_the_gap_on_the_centred_functions_only():
    gap = experiment.ablation_against_gap(_gap_finals(), paper_data.load_paper_numbers("bo_pp"), 500)
    shifted = gap[gap["ablation"] == "centre of the box"]
    assert list(shifted["function"]) == ["Dropwave"] and list(shifted["setting"]) == ["shifted box"]
    assert shifted["closes the gap"].item() == "cannot rule out" and shifted["moves as far as the gap"].item() == "yes"
    found = experiment.gap_summary(gap)
    assert found["cells"] == ["Dropwave UCB", "Hart6 UCB"] and found["ablations"] == {"Dropwave UCB": 2, "Hart6 UCB": 1}
    # Without the shifted box neither cell moves; with it, Dropwave's gap is closed by the shift alone.
    assert found["all_rule_out_but_shift"] == found["none_moves_as_far_but_shift"] == ["Dropwave UCB", "Hart6 UCB"]
    assert found["all_rule_out"] == found["none_moves_as_far"] == ["Hart6 UCB"]
    assert found["open_by_setting"] == {"10·d (DIRECT budget)": (0, 2), "shifted box (centre of the box)": (1, 1)}


def test_direct_budget_table_counts_exact_zeros_at_each_budget():
    rows = [("synthetic", "Griewank", "PI", 0.0, seed, 500, 0.0 if seed < 4 else 0.5) for seed in range(6)]
    rows += [("direct_ablation", "Griewank", "PI", 0.0, seed, 10, 1e-13 if seed < 5 else 0.5) for seed in range(6)]
    table = experiment.direct_budget_table(_finals(rows), paper_data.load_paper_numbers("bo_pp"), 500)
    assert (table.loc[0, "zeros at 10·d"], table.loc[0, "zeros at 500·d"]) == (5, 4)
    assert list(table.filter(like="zeros at").columns) == ["zeros at 10·d", "zeros at 500·d"]  # budgets increasing


def test_zeros_on_each_box_count_every_variant_on_the_shifted_blocks_seeds():
    rows = [("synthetic", "Griewank", "PI", tau0, seed, 500, 0.0) for tau0 in (0.0, 0.01) for seed in range(8)]
    rows += [("synthetic", "Griewank", "UCB", 0.0, seed, 500, 0.0) for seed in range(8)]   # another acquisition
    rows += [("shifted_box", "Griewank", "PI", tau0, seed, 500, 0.0 if seed == 0 else 0.3)
             for tau0 in (0.0, 0.01) for seed in range(5)]
    zeros = experiment.zeros_on_each_box(_finals(rows), ["Griewank", "Rastrigin"], "PI")
    assert zeros == {"usual": (10, 10), "shifted": (2, 10)}  # the usual box on the shifted block's 5 seeds only
    assert experiment.zeros_on_each_box(_finals(rows), ["Dropwave"], "PI") is None


def test_zeros_by_budget_sums_the_centred_functions_per_acquisition():
    rows = []
    for problem in ("Griewank", "Rastrigin", "Hart6"):
        for acquisition in ("UCB", "PI"):
            rows += [("synthetic", problem, acquisition, 0.0, seed, 500, 0.0 if seed < 2 else 0.4) for seed in range(5)]
            rows += [("direct_ablation", problem, acquisition, 0.0, seed, 10, 0.0) for seed in range(5)]
    numbers = paper_data.load_paper_numbers("bo_pp")
    zeros = experiment.zeros_by_budget(experiment.direct_budget_table(_finals(rows), numbers, 500),
                                       ["Griewank", "Rastrigin"]).set_index("acquisition")
    assert list(zeros.index) == ["UCB", "PI"] and (zeros["runs"] == 10).all()
    assert (zeros["zeros at 10·d"] == 10).all() and (zeros["zeros at 500·d"] == 4).all()  # Hart6 left out
    assert zeros.loc["PI", "paper"] == "Griewank 0, Rastrigin 0.0524"
    assert experiment.zeros_by_budget(experiment.direct_budget_table(_finals(rows), numbers, 500), ["Dropwave"]) is None


def test_the_smallest_budget_reading_names_zeros_the_paper_does_not_print():
    rows = []
    for acquisition in ("UCB", "PI"):
        rows += [("synthetic", "Griewank", acquisition, 0.0, seed, 500, 0.3) for seed in range(5)]
        rows += [("direct_ablation", "Griewank", acquisition, 0.0, seed, 10, 0.0) for seed in range(5)]
    numbers = paper_data.load_paper_numbers("bo_pp")
    reading = experiment.smallest_budget_reading(experiment.direct_budget_table(_finals(rows), numbers, 500))
    assert "PI on Griewank (paper 0)" in reading.split("it is not for")[0]   # the paper's zero, matched
    assert "UCB on Griewank (paper 0.2357)" in reading.split("it is not for")[1]   # a zero the paper does not print
    assert experiment.smallest_budget_reading(None) is None


@pytest.mark.parametrize("ablation, choice", [("pseudo_point_ablation", "pseudo_point_mode"),
                                              ("restarts_ablation", "mle_restarts")])
def test_an_ablation_run_names_its_synthetic_twin_and_differs_from_it_in_one_choice(ablation, choice):
    params = dict(experiment.SCALES["paper"])
    grid = experiment.make_grid(params)
    synthetic = {json.dumps(config, sort_keys=True) for config in grid if config["experiment"] == "synthetic"}
    ablated = [config for config in grid if config["experiment"] == ablation]
    assert ablated and all(json.dumps(experiment.twin_config(config), sort_keys=True) in synthetic
                           for config in ablated)
    for config in ablated:
        assert config[choice] != experiment.twin_config(config)[choice]


def test_a_restarts_twin_starts_from_its_synthetic_runs_design_with_the_same_tau_schedule():
    params = dict(experiment.SCALES["smoke"])
    twin_run = next(c for c in experiment.make_grid(params) if c["experiment"] == "restarts_ablation" and c["tau0"])
    ablated, original = experiment.run(twin_run), experiment.run(experiment.twin_config(twin_run))
    n_init = twin_run["n_init"]
    np.testing.assert_array_equal(ablated["f"][:n_init], original["f"][:n_init])
    np.testing.assert_array_equal(ablated["tau"], original["tau"])


def test_the_choice_ablation_pairs_each_rerun_with_its_synthetic_twin():
    rows = [("synthetic", "Griewank", "UCB", 0.01, seed, 500, 1.0) for seed in range(6)]
    rows += [("restarts_ablation", "Griewank", "UCB", 0.01, seed, 500, 0.5) for seed in range(4)]
    table = experiment.choice_ablation_table(_finals(rows), "restarts_ablation", "5 restarts")
    row = table.iloc[0]
    assert (row["function"], row["method"], row["seeds"]) == ("Griewank", "UCB-PP01", 4)
    assert row["main"] == 1.0 and row["5 restarts"] == 0.5 and row["W/T/L"] == "4/0/0"
    assert experiment.choice_ablation_table(_finals(rows), "pseudo_point_ablation", "corner") is None
