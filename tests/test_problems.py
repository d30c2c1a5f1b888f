"""Tests of the real-world tuning objectives (common.problems) of the BO-PP paper."""
import numpy as np
import pytest

from common.problems import get_tuning_problem
from common.problems.datasets import load_biopsy, prepare_split, split_indices
from common.problems.levenberg_marquardt import _DampedStep, levenberg_marquardt
from common.problems.tanh_network import TanhNetwork

# Cheap points (small networks, an easy SVM) keep the whole file fast.
CHEAP_POINTS = {
    "SVM_digits": [[10.0, 1.0], [1.0, 0.5]],
    "NN_digits": [[5.0, 0.5], [3.0, 0.01]],
    "NN_cancer": [[3.0, 1e-3, 0.1, 10.0], [4.0, 1.0, 0.5, 5.0]],
    "NN_housing": [[3.0, 1e-3, 0.1, 10.0], [4.0, 1.0, 0.5, 5.0]],
}
CLASSIFIERS = ["SVM_digits", "NN_digits", "NN_cancer"]


@pytest.fixture(scope="module")
def problems():
    return {name: get_tuning_problem(name, split_seed=0, model_seed=0) for name in CHEAP_POINTS}


@pytest.mark.parametrize("name", sorted(CHEAP_POINTS))
def test_same_point_gives_same_value_in_a_new_instance(problems, name):
    X = np.array(CHEAP_POINTS[name][:1])
    fresh = get_tuning_problem(name, split_seed=0, model_seed=0)
    assert problems[name](X)[0] == problems[name](X)[0] == fresh(X)[0]


@pytest.mark.parametrize("name", sorted(CHEAP_POINTS))
def test_output_has_one_finite_value_per_row(problems, name):
    values = problems[name](np.array(CHEAP_POINTS[name]))
    assert values.shape == (2,) and np.all(np.isfinite(values))


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_accuracies_lie_in_unit_interval(problems, name):
    values = problems[name](np.array(CHEAP_POINTS[name]))
    assert np.all((values >= 0) & (values <= 1))


def test_problem_attributes_match_the_paper_boxes(problems):
    expected = {
        "SVM_digits": [[1e-3, 1e3], [1e-4, 1.0]],
        "NN_digits": [[1.0, 100.0], [1e-6, 1.0]],
        "NN_cancer": [[1.0, 100.0], [1e-6, 100.0], [0.01, 1.0], [1.01, 20.0]],
        "NN_housing": [[1.0, 100.0], [1e-6, 100.0], [0.01, 1.0], [1.01, 20.0]],
    }
    for name, bounds in expected.items():
        problem = problems[name]
        assert problem.bounds.shape == (problem.dim, 2) and problem.optimal_value is None
        np.testing.assert_array_equal(problem.bounds, bounds)


def test_unknown_name_error_lists_allowed_names():
    with pytest.raises(ValueError, match="NN_cancer.*SVM_digits.*replaced by SVM_digits"):
        get_tuning_problem("SVM_wine")


def test_point_outside_the_box_is_rejected(problems):
    with pytest.raises(ValueError, match="inside the box"):
        problems["SVM_digits"](np.array([[2000.0, 0.5]]))


def test_svm_landscape_is_not_flat(problems):
    wide_kernel, narrow_kernel = problems["SVM_digits"](np.array([[10.0, 1.0], [10.0, 0.3]]))
    assert wide_kernel - narrow_kernel > 0.5


def test_split_sizes_follow_the_paper_ratio():
    train, val, test = split_indices(699, np.random.default_rng(0))
    assert (len(train), len(val), len(test)) == (489, 140, 70)
    assert np.array_equal(np.sort(np.concatenate([train, val, test])), np.arange(699))


def test_biopsy_imputation_leaves_no_missing_value():
    X, y = load_biopsy()
    assert np.isnan(X).sum() == 16
    data = prepare_split(X, y, "biopsy", split_seed=3)
    assert not np.isnan(data.X_train).any() and not np.isnan(data.X_val).any()


def test_training_features_are_scaled_to_unit_interval(problems):
    X_train = problems["NN_housing"].data.X_train
    np.testing.assert_allclose([X_train.min(axis=0), X_train.max(axis=0)], [[0.0] * 13, [1.0] * 13])


def test_network_jacobian_matches_finite_differences():
    rng = np.random.default_rng(0)
    network = TanhNetwork(n_inputs=3, n_hidden=4)
    w, X = rng.standard_normal(network.n_weights), rng.standard_normal((5, 3))
    _, jacobian = network.predict_and_jacobian(w, X)
    step = 1e-6
    numeric = np.column_stack([
        (network.predict(w + step * unit, X) - network.predict(w - step * unit, X)) / (2 * step)
        for unit in np.eye(network.n_weights)
    ])
    np.testing.assert_allclose(jacobian, numeric, rtol=1e-6, atol=1e-8)


def _toy_regression(n_hidden=5, mu=1e-3, mu_dec=0.1, mu_inc=10.0, max_epochs=30):
    rng = np.random.default_rng(1)
    X = rng.uniform(-2, 2, size=(40, 1))
    targets = np.sin(2 * X[:, 0])
    network = TanhNetwork(1, n_hidden)

    def residuals(w):
        return network.predict(w, X) - targets

    def residuals_and_jacobian(w):
        output, jacobian = network.predict_and_jacobian(w, X)
        return output - targets, jacobian

    return levenberg_marquardt(residuals, residuals_and_jacobian, network.init_weights(rng),
                               mu, mu_dec, mu_inc, max_epochs)


def test_levenberg_marquardt_decreases_training_sse():
    result = _toy_regression()
    assert np.all(np.diff(result.sse) < 0) and result.sse[-1] < 0.01 * result.sse[0]


def test_damping_follows_the_mu_schedule():
    mu_dec, mu_inc = 0.1, 3.0
    result = _toy_regression(mu=1e-6, mu_dec=mu_dec, mu_inc=mu_inc)
    accepted = result.trial_accepted[:-1]
    assert accepted.any() and not accepted.all()
    expected_next = np.where(accepted, result.trial_mu[:-1] * mu_dec, result.trial_mu[:-1] * mu_inc)
    np.testing.assert_allclose(result.trial_mu[1:], expected_next, rtol=1e-12)


@pytest.mark.parametrize("shape", [(6, 9), (9, 6)], ids=["dual", "primal"])
def test_damped_step_solves_the_levenberg_marquardt_system(shape):
    rng = np.random.default_rng(2)
    jacobian, residuals = rng.standard_normal(shape), rng.standard_normal(shape[0])
    step = _DampedStep(jacobian, residuals)
    # The first trials use Cholesky, later ones the eigendecomposition.
    for mu in [0.5, 2.0, 8.0, 32.0]:
        expected = -np.linalg.solve(jacobian.T @ jacobian + mu * np.eye(shape[1]), jacobian.T @ residuals)
        np.testing.assert_allclose(step(mu), expected, rtol=1e-9, atol=1e-12)


# --- data/paper/bo_pp.csv: the paper's Table 1 ---------------------------------------------

TABLE1_PROBLEMS = {
    "Dropwave": "S_T", "Griewank": "S_T", "Hart6": "S_T", "Rastrigin": "S_T",
    "SVM_wine": "f", "NN_wine": "f", "NN_cancer": "f", "NN_housing": "f",
}
TABLE1_METHODS = [acq + variant for acq in ("UCB", "PI", "EI") for variant in ("", "-PP01", "-PP001", "-PP0001")]


@pytest.fixture(scope="module")
def table1():
    import pandas as pd

    from common.paths import paper_data_path

    return pd.read_csv(paper_data_path("bo_pp"), keep_default_na=False)


def test_table1_has_the_expected_columns_and_one_row_per_cell(table1):
    assert list(table1.columns) == ["table", "problem", "metric", "method", "value", "std", "note"]
    assert len(table1) == 96 and not table1.duplicated(["table", "problem", "method"]).any()


def test_table1_has_every_problem_method_pair(table1):
    expected = {(problem, method) for problem in TABLE1_PROBLEMS for method in TABLE1_METHODS}
    assert set(zip(table1["problem"], table1["method"])) == expected


def test_table1_metric_matches_the_problem_type(table1):
    assert (table1["metric"] == table1["problem"].map(TABLE1_PROBLEMS)).all()


def test_table1_numbers_are_finite_with_non_negative_std(table1):
    values, stds = table1["value"].astype(float), table1["std"].astype(float)
    assert np.isfinite(values).all() and (stds >= 0).all()
