"""Tests of the random-forest tuning objective on the diabetes data (common.problems.random_forest)."""
import numpy as np
import pytest

from common.problems import RandomForestDiabetes

# Small forests keep the file fast.
CHEAP_POINTS = [[10.0, 3.0, 2.0, 0.5], [20.0, 8.0, 5.0, 0.999], [15.0, 1.0, 10.0, 0.1]]


@pytest.fixture(scope="module")
def forest():
    return RandomForestDiabetes()


def test_same_point_gives_same_value_in_a_new_instance(forest):
    X = np.array(CHEAP_POINTS[:1])
    assert forest(X)[0] == forest(X)[0] == RandomForestDiabetes()(X)[0]


def test_integer_coordinates_are_floored(forest):
    X = np.array([[12.0, 4.0, 3.0, 0.5], [12.9, 4.99, 3.7, 0.5]])
    values = forest(X)
    assert values[0] == values[1]


def test_values_are_negative_standardised_mses(forest):
    values = forest(np.array(CHEAP_POINTS))
    assert values.shape == (3,) and np.all((values > -2.0) & (values < 0.0))


def test_training_target_is_standardised(forest):
    assert forest.y_train.mean() == pytest.approx(0.0, abs=1e-12)
    assert forest.y_train.std() == pytest.approx(1.0)


def test_split_is_80_20_of_the_442_rows(forest):
    assert forest.X_train.shape == (353, 10) and forest.X_test.shape == (89, 10)


def test_n_estimators_max_shrinks_the_first_row_only(forest):
    quick = RandomForestDiabetes(n_estimators_max=50)
    np.testing.assert_array_equal(quick.bounds[0], [10.0, 50.0])
    np.testing.assert_array_equal(quick.bounds[1:], forest.bounds[1:])
    np.testing.assert_array_equal(
        forest.bounds, [[10.0, 200.0], [1.0, 20.0], [2.0, 10.0], [0.1, 0.999]]
    )


@pytest.mark.parametrize("n_estimators_max", [10, 201, 50.0, True, "50"])
def test_invalid_n_estimators_max_raises(n_estimators_max):
    with pytest.raises(ValueError, match=r"n_estimators_max must be an integer in \(10, 200\]"):
        RandomForestDiabetes(n_estimators_max=n_estimators_max)


@pytest.mark.parametrize("shape", [(4,), (2, 3), (1, 5)])
def test_wrong_shape_raises_naming_the_problem(forest, shape):
    with pytest.raises(ValueError, match=r"shape \(n, 4\) for RF_diabetes"):
        forest(np.full(shape, 5.0))


@pytest.mark.parametrize("row", [[201.0, 3.0, 2.0, 0.5], [10.0, 3.0, 1.5, 0.5], [10.0, 3.0, 2.0, 1.0]])
def test_outside_the_box_raises_naming_the_problem(forest, row):
    with pytest.raises(ValueError, match="inside the box of RF_diabetes"):
        forest(np.array([row]))


def test_quick_box_rejects_more_trees_than_its_maximum():
    with pytest.raises(ValueError, match="inside the box of RF_diabetes"):
        RandomForestDiabetes(n_estimators_max=50)(np.array([[60.0, 3.0, 2.0, 0.5]]))
