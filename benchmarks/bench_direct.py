"""Wall time of the batched DIRECT against scipy.optimize.direct.

Both maximize the same GP-UCB-like acquisition at the same evaluation budget
(original DIRECT, eps = 1e-4, stopping on the budget only). The acquisition is
built from numpy alone and costs per point what a real GP acquisition costs:
an RBF cross-covariance with 100 training points, a posterior mean
mu = k @ alpha and a variance 1 - ||L^-1 k||^2.

Run from the repository root:

    python benchmarks/bench_direct.py

It prints a markdown table (for benchmarks/README.md); it runs in well under
two minutes on 2 cores.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import _threads  # noqa: F401,E402  (pins BLAS to one thread before numpy loads)

import numpy as np  # noqa: E402
from scipy.linalg import cho_factor, solve_triangular  # noqa: E402
from scipy.optimize import direct  # noqa: E402

from common.acquisitions import UpperConfidenceBound  # noqa: E402
from common.gp import GaussianProcess  # noqa: E402
from common.kernels import SquaredExponential  # noqa: E402
from common.optimizers import direct_maximize  # noqa: E402

N_TRAIN = 100
BETA = 4.0
DIMENSIONS = (2, 10, 24)
MAX_BUDGET = 6000
REPEATS = 5


def make_ucb(dim, rng):
    """A UCB acquisition mu + sqrt(BETA) * sigma of a fixed random GP posterior on [0, 1]^dim."""
    X_train = rng.random((N_TRAIN, dim))
    lengthscale = 0.25 * np.sqrt(dim)

    def cross_covariance(X):
        sq_dist = (np.sum(X ** 2, axis=1)[:, None] + np.sum(X_train ** 2, axis=1)[None, :]
                   - 2.0 * X @ X_train.T)
        return np.exp(-0.5 * np.maximum(sq_dist, 0.0) / lengthscale ** 2)

    K = cross_covariance(X_train) + 1e-6 * np.eye(N_TRAIN)
    y = np.sin(6.0 * X_train.sum(axis=1)) + 0.1 * rng.standard_normal(N_TRAIN)
    L, _ = cho_factor(K, lower=True)
    L = np.tril(L)
    L_inv = solve_triangular(L, np.eye(N_TRAIN), lower=True)
    alpha = L_inv.T @ (L_inv @ y)

    def ucb(X):
        k = cross_covariance(X)
        mean = k @ alpha
        var = np.maximum(1.0 - np.sum((k @ L_inv.T) ** 2, axis=1), 1e-12)
        return mean + np.sqrt(BETA) * np.sqrt(var)

    return ucb


def make_library_ucb(dim, rng):
    """UCB of the library's own GaussianProcess, as a BO method evaluates it (GP.predict per call)."""
    X_train = rng.random((N_TRAIN, dim))
    gp = GaussianProcess(SquaredExponential(0.25 * np.sqrt(dim)), 1e-6).fit(X_train, np.sin(6.0 * X_train.sum(1)))
    acquisition = UpperConfidenceBound(BETA)
    return lambda X: acquisition(gp, X)


def best_times(run_ours, run_scipy):
    """Smallest wall time of each over REPEATS alternated runs, and their last results.

    Alternating the two keeps background load on the machine from favouring one.
    """
    times_ours, times_scipy = [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        ours = run_ours()
        times_ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        theirs = run_scipy()
        times_scipy.append(time.perf_counter() - start)
    return min(times_ours), ours, min(times_scipy), theirs


def compare(make_acquisition):
    """Rows of the comparison table for one way of building the acquisition."""
    rows = []
    for dim in DIMENSIONS:
        ucb = make_acquisition(dim, np.random.default_rng(dim))
        bounds = np.tile([0.0, 1.0], (dim, 1))
        budget = min(500 * dim, MAX_BUDGET)

        time_ours, ours, time_scipy, theirs = best_times(
            lambda: direct_maximize(ucb, bounds, budget, vol_tol=0.0, len_tol=0.0),
            lambda: direct(lambda x: -ucb(x[None, :])[0], bounds.tolist(), eps=1e-4,
                           maxfun=budget, maxiter=100_000, locally_biased=False,
                           vol_tol=0.0, len_tol=0.0))
        rows.append((dim, budget, ours.nfev, theirs.nfev, time_ours, time_scipy,
                     time_scipy / time_ours, ours.fun, -theirs.fun))
    return rows


def print_table(title, rows):
    print(f"{title}, best of {REPEATS} alternated runs\n")
    print("| d | budget | nfev ours | nfev scipy | time ours (s) | time scipy (s) "
          "| speed-up | best ours | best scipy |")
    print("|---|---|---|---|---|---|---|---|---|")
    for dim, budget, n_ours, n_scipy, t_ours, t_scipy, ratio, v_ours, v_scipy in rows:
        print(f"| {dim} | {budget} | {n_ours} | {n_scipy} | {t_ours:.3f} | {t_scipy:.3f} "
              f"| {ratio:.1f}x | {v_ours:.6f} | {v_scipy:.6f} |")
    print()


def main():
    print_table(f"Batched DIRECT vs scipy.optimize.direct (locally_biased=False), lean numpy GP-UCB "
                f"with {N_TRAIN} training points (precomputed inverse factor)", compare(make_ucb))
    print_table(f"The same with the library's acquisition, UpperConfidenceBound on a GaussianProcess "
                f"with {N_TRAIN} training points (what a BO method runs)", compare(make_library_ucb))


if __name__ == "__main__":
    main()
