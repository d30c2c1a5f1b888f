"""The faster loop is the same method: at states of recorded runs it fits the same hyperparameters and
queries the same point as the code before it (recorded in tests/data/loop_states.npz, see loop_states.py).

Tolerances, stated before the comparison was run: L-BFGS-B stops when the likelihood improves by less
than 2.2e-9 relative per step, so the optima must agree to 1e-6 in log-likelihood (relative) and to 0.01
in every log-hyperparameter (1% of a lengthscale); the query, given the recorded hyperparameters, must
be the same point exactly (DIRECT's argmax lies on its ternary grid).
"""
import numpy as np
import pytest

from loop_states import RECORDED, RUNS, SIZES, decide, quick_config

STATES = [(problem, method, seed, n) for problem, method, seed in RUNS for n in SIZES]


@pytest.fixture(scope="module")
def recorded():
    return np.load(RECORDED)


@pytest.mark.parametrize("problem, method, seed, n", STATES, ids=["_".join(map(str, s)) for s in STATES])
def test_same_likelihood_optimum_and_same_query_as_the_recorded_loop(recorded, problem, method, seed, n):
    name = f"{problem}_{method}_{seed}_{n}"
    config = quick_config(problem, method, seed)
    X, y = recorded[f"{name}/X"], recorded[f"{name}/y"]
    theta, likelihood, _ = decide(config, X, y)
    assert likelihood == pytest.approx(float(recorded[f"{name}/likelihood"]), rel=1e-6)
    np.testing.assert_allclose(theta, recorded[f"{name}/theta"], atol=0.01)
    _, _, query = decide(config, X, y, theta=recorded[f"{name}/theta"])
    np.testing.assert_array_equal(query, recorded[f"{name}/query"])
