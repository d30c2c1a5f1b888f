"""The BO loop: initial design, ask/tell record, determinism."""
import numpy as np
import pytest

from common.bo import BayesianOptimization, GPAcquisitionMethod, RandomSearch, initial_design, run_bo
from common.kernels import Matern
from common.seeding import make_rng
from common.test_functions import Branin

BRANIN = Branin()


def _method(acquisition="EI", optimizer="direct"):
    options = {"max_evals": 200} if optimizer == "direct" else {"n_candidates": 200, "n_restarts": 2}
    return GPAcquisitionMethod(Matern(2.5, [1.0, 1.0], 1.0), BRANIN.bounds, acquisition=acquisition,
                               y_transform="standardize", optimizer=optimizer, optimizer_options=options)


def _run(acquisition="EI", optimizer="direct", seed=0):
    return run_bo(BRANIN, BRANIN.bounds, _method(acquisition, optimizer), 4, 6,
                  init_rng=make_rng("test", seed, "init"), method_rng=make_rng("test", seed, acquisition))


def test_same_seed_same_bits():
    first, second = _run(optimizer="restarts"), _run(optimizer="restarts")
    np.testing.assert_array_equal(first["X"], second["X"])
    np.testing.assert_array_equal(first["y"], second["y"])


def test_methods_share_the_initial_design():
    np.testing.assert_array_equal(_run("EI")["X"][:4], _run("UCB")["X"][:4])


def test_record_is_consistent():
    record = _run("UCB")
    assert record["X"].shape == (10, 2)
    np.testing.assert_array_equal(record["best_so_far"], np.maximum.accumulate(record["f"]))
    np.testing.assert_array_equal(record["iteration"], [0, 0, 0, 0, 1, 2, 3, 4, 5, 6])
    assert np.all(record["wall_time"][:4] == 0) and np.all(record["wall_time"][4:] > 0)
    assert np.all((record["X"] >= BRANIN.bounds[:, 0]) & (record["X"] <= BRANIN.bounds[:, 1]))


def test_bo_beats_its_initial_design_on_branin():
    record = _run("EI", seed=1)
    assert record["best_so_far"][-1] > record["best_so_far"][3]


def test_initial_design_kinds_stay_in_the_box_and_lhs_stratifies():
    lhs = initial_design(BRANIN.bounds, 10, np.random.default_rng(0), "lhs")
    unit = (lhs - BRANIN.bounds[:, 0]) / (BRANIN.bounds[:, 1] - BRANIN.bounds[:, 0])
    for column in unit.T:
        assert sorted(np.floor(column * 10).astype(int)) == list(range(10))
    with pytest.raises(ValueError, match="kind"):
        initial_design(BRANIN.bounds, 3, np.random.default_rng(0), "sobol")


def test_ask_before_initial_design_is_an_error():
    with pytest.raises(RuntimeError, match="initial design"):
        BayesianOptimization(BRANIN.bounds, _method(), np.random.default_rng(0)).ask()


def test_bad_method_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="acquisition"):
        GPAcquisitionMethod(Matern(2.5), BRANIN.bounds, acquisition="KG")
    with pytest.raises(ValueError, match="optimizer"):
        GPAcquisitionMethod(Matern(2.5), BRANIN.bounds, optimizer="cmaes")


def test_random_search_in_batches_draws_the_same_points_as_one_at_a_time():
    unit = np.tile([0.0, 1.0], (5, 1))
    singly, batched = np.random.default_rng(3), np.random.default_rng(3)
    one_at_a_time = [RandomSearch(unit).propose(None, None, i, singly) for i in range(10)]
    in_batches = [RandomSearch(unit, batch_size=5).propose(None, None, i, batched) for i in range(2)]
    np.testing.assert_array_equal(np.vstack(one_at_a_time), np.vstack(in_batches))
