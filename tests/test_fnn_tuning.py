"""Tests of the FNN hyperparameter-tuning objective of EGP-TS Fig. 4 (common.problems.fnn_tuning)."""
import math
import warnings

import numpy as np
import pytest

from common.problems.fnn_tuning import DATASETS, FNNTuning, decode_hyperparameters, load_fnn_dataset

CHANCE_IRIS = 1.0 / 3.0


def encode(n1, n2, learning_rate, batch_size):
    """The point of the unit cube that decodes to these hyperparameters (inverse of spec U19)."""
    return np.array(
        [(n1 - 2) / 98, (n2 - 2) / 98, (math.log10(learning_rate) + 6) / 5, (math.log2(batch_size) - 2) / 4]
    )


SENSIBLE = encode(50, 50, 1e-2, 16)
TINY_LEARNING_RATE = encode(50, 50, 1e-6, 16)
SMALL_NETWORK = encode(5, 5, 1e-2, 16)  # its two runs on iris differ (0.978, 0.911)


@pytest.fixture(scope="module")
def iris():
    return FNNTuning("iris", n_training_runs=2)


# --- decoding (spec U19, Table 2) ---------------------------------------------------------------


def test_cube_corners_decode_to_table_2_range_ends():
    decoded = decode_hyperparameters([[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]])
    assert decoded["n1"].tolist() == [2, 100] and decoded["n2"].tolist() == [2, 100]
    assert decoded["learning_rate"] == pytest.approx([1e-6, 1e-1], rel=1e-12)
    assert decoded["batch_size"].tolist() == [4, 64]


@pytest.mark.parametrize("column, key", [(0, "n1"), (1, "n2"), (2, "learning_rate"), (3, "batch_size")])
def test_decoding_is_monotone_in_each_coordinate(column, key):
    U = np.full((801, 4), 0.5)
    U[:, column] = np.linspace(0.0, 1.0, 801)
    values = decode_hyperparameters(U)[key]
    assert np.all(np.diff(values) >= 0) and values[-1] > values[0]


def test_decoded_values_are_powers_of_two_and_integer_unit_counts():
    decoded = decode_hyperparameters(np.random.default_rng(0).uniform(size=(2000, 4)))
    assert set(decoded["batch_size"].tolist()) == {4, 8, 16, 32, 64}
    for key in ("n1", "n2"):
        assert decoded[key].dtype.kind == "i" and decoded[key].min() >= 2 and decoded[key].max() <= 100


def test_encoded_hyperparameters_decode_back_exactly():
    decoded = decode_hyperparameters(encode(51, 7, 1e-3, 8)[None, :])
    assert (decoded["n1"][0], decoded["n2"][0], decoded["batch_size"][0]) == (51, 7, 8)
    assert decoded["learning_rate"][0] == pytest.approx(1e-3, rel=1e-12)


# --- data, split and scaling (spec U20) ------------------------------------------------------------


@pytest.mark.parametrize("dataset", ["iris", "wine"])
def test_split_is_a_stratified_70_30_partition(dataset):
    problem = FNNTuning(dataset)
    _, y = load_fnn_dataset(dataset)
    assert len(problem.val_index) == math.ceil(0.3 * len(y))
    assert sorted(np.concatenate([problem.train_index, problem.val_index]).tolist()) == list(range(len(y)))
    for label in np.unique(y):
        in_val = np.sum(y[problem.val_index] == label)
        assert abs(in_val - 0.3 * np.sum(y == label)) <= 1.0


def test_split_is_identical_across_constructions_and_set_by_split_seed():
    first, second, other = FNNTuning("wine"), FNNTuning("wine"), FNNTuning("wine", split_seed=1)
    assert np.array_equal(first.val_index, second.val_index)
    assert np.array_equal(first.data.X_train, second.data.X_train)
    assert not np.array_equal(first.val_index, other.val_index)


def test_standardisation_uses_the_training_rows_only():
    problem = FNNTuning("wine")
    X, _ = load_fnn_dataset("wine")
    mean, std = X[problem.train_index].mean(axis=0), X[problem.train_index].std(axis=0)
    assert np.allclose(problem.data.X_train, (X[problem.train_index] - mean) / std)
    assert np.allclose(problem.data.X_val, (X[problem.val_index] - mean) / std)


def test_digit_pixels_are_divided_by_16():
    problem = FNNTuning("digits")
    X, _ = load_fnn_dataset("digits")
    assert np.array_equal(problem.data.X_val, X[problem.val_index] / 16.0)


@pytest.mark.parametrize(
    "dataset, n_rows, n_classes, exact",
    [("iris", 150, 3, True), ("wine", 178, 3, True), ("breast_cancer", 569, 2, False),
     ("digits", 1797, 10, False), ("transportation", 1000, 4, False)],
)
def test_each_dataset_has_its_size_and_names_its_substitute(dataset, n_rows, n_classes, exact):
    problem = FNNTuning(dataset)
    assert len(problem.train_index) + len(problem.val_index) == n_rows
    assert len(np.unique(problem.data.y_train)) == n_classes
    assert (problem.substitute is None) == exact
    assert problem.name == f"FNN_{dataset}" and problem.optimal_value is None


def test_the_problem_lives_on_the_unit_cube(iris):
    assert iris.dim == 4 and iris.bounds.tolist() == [[0.0, 1.0]] * 4


# --- training and evaluation ----------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_every_run_trains_exactly_20_epochs_even_without_progress(iris):
    # With scikit-learn's defaults (tol=1e-4, n_iter_no_change=10) this run stops after 12 epochs.
    model = iris.classifier(encode(50, 50, 1e-6, 64), random_state=0)
    model.fit(iris.data.X_train, iris.data.y_train)
    assert model.n_iter_ == 20
    # The no-improvement counter cannot exceed n_iter_no_change within max_iter epochs.
    assert model.n_iter_no_change >= model.max_iter == 20


def test_same_point_twice_gives_the_same_accuracy(iris):
    X = np.array([SMALL_NETWORK, SMALL_NETWORK])
    values = iris(X)
    assert values[0] == values[1] == FNNTuning("iris", n_training_runs=2)(X[:1])[0]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_evaluation_is_the_mean_of_runs_seeded_0_to_R_minus_1(iris):
    single = []
    for seed in (0, 1):
        model = iris.classifier(SMALL_NETWORK, random_state=seed)
        model.fit(iris.data.X_train, iris.data.y_train)
        single.append(model.score(iris.data.X_val, iris.data.y_val))
    assert single[0] != single[1]
    assert iris(SMALL_NETWORK[None, :])[0] == pytest.approx(np.mean(single), abs=1e-15)


@pytest.mark.filterwarnings("error::sklearn.exceptions.ConvergenceWarning")
def test_convergence_warnings_are_silenced_only_inside_an_evaluation(iris):
    filters_before = list(warnings.filters)
    iris(SMALL_NETWORK[None, :])
    assert warnings.filters == filters_before


def test_model_seed_gives_a_disjoint_block_of_run_seeds():
    assert FNNTuning("iris", n_training_runs=3, model_seed=2).run_seeds().tolist() == [6, 7, 8]


def test_a_generator_draws_fresh_but_reproducible_seeds(iris):
    rng = np.random.default_rng(5)
    first, second = iris.run_seeds(rng), iris.run_seeds(rng)
    assert not np.array_equal(first, second)
    assert np.array_equal(first, iris.run_seeds(np.random.default_rng(5)))


def test_a_sensible_configuration_is_accurate_on_iris(iris):
    assert iris(SENSIBLE[None, :])[0] >= 0.9


def test_the_smallest_learning_rate_stays_near_chance_on_iris(iris):
    assert iris(TINY_LEARNING_RATE[None, :])[0] <= CHANCE_IRIS + 0.25


# --- input checks -------------------------------------------------------------------------------


def test_unknown_dataset_lists_the_allowed_ones():
    with pytest.raises(ValueError, match="dataset must be one of") as error:
        FNNTuning("mnist")
    assert all(name in str(error.value) for name in DATASETS) and "digits stands in for MNIST" in str(error.value)


@pytest.mark.parametrize("value", [0, 2.5, True])
def test_bad_number_of_training_runs_is_rejected(value):
    with pytest.raises(ValueError, match="n_training_runs must be an integer >= 1"):
        FNNTuning("iris", n_training_runs=value)


def test_negative_split_seed_is_rejected():
    with pytest.raises(ValueError, match="split_seed must be an integer >= 0"):
        FNNTuning("iris", split_seed=-1)


def test_points_outside_the_cube_are_rejected(iris):
    with pytest.raises(ValueError, match=r"X must lie inside the box of FNN_iris .*u_learning_rate"):
        iris(np.array([[0.5, 0.5, 1.2, 0.5]]))


def test_points_of_the_wrong_dimension_are_rejected(iris):
    with pytest.raises(ValueError, match=r"X must have shape \(n, 4\)"):
        iris(np.zeros((1, 3)))


def test_decoding_names_the_coordinate_out_of_range():
    with pytest.raises(ValueError, match="u_batch_size of row 1 is"):
        decode_hyperparameters([[0.5] * 4, [0.5, 0.5, 0.5, np.nan]])


def test_a_non_generator_rng_is_rejected(iris):
    with pytest.raises(ValueError, match="rng must be None or a numpy.random.Generator"):
        iris(SENSIBLE[None, :], rng=0)
