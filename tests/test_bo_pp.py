"""BO-PP: the paper's identities (Lemmas 2 and 4) and the pseudo-point schedule (§5)."""
import numpy as np
import pandas as pd
import pytest

from common import claims
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
    table = experiment.direct_budget_table(_finals(rows), claims.load_paper_numbers("bo_pp"), 500)
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
    assert not experiment.SCALES["paper"]["confirmatory"] and not experiment.PUBLISHED.get("confirmatory")
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
    table = experiment.ablation_against_gap(_ablation_finals(ablated_value, seeds), claims.load_paper_numbers("bo_pp"),
                                            500)
    assert table.loc[0, "closes the gap"] == expected
