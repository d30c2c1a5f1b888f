"""Wall time of our exact GP against scikit-learn's GaussianProcessRegressor.

Both use the same ARD squared-exponential kernel with fixed hyperparameters
(``SquaredExponential`` = ``ConstantKernel * RBF``), noise variance 1e-4 on
the diagonal, random inputs in [0, 1]^10 and 2000 test points. For
n = 100, 400, 1000 training points it times

* fit + predict(return_std=True): conditioning from scratch, then the posterior;
* predict(return_std=True) alone: the posterior of an already fitted GP;
* update: conditioning on one more observation. Ours borders the Cholesky
  factor in O(n^2) (``add_observation``); scikit-learn has no update, so its
  cost is a refit on the n + 1 points, O(n^3);
* update + predict: the same followed by the posterior at the test points,
  which is what a BO iteration pays before maximizing an acquisition.

Each time is the median of several runs, ours and scikit-learn's alternated so
that background load does not favour one. Before timing, the script checks
that both give the same posterior mean and std (max abs difference printed),
so the comparison is like for like.

Run from the repository root:

    python benchmarks/bench_gp.py

It prints markdown tables (for benchmarks/README.md) in about 20 seconds on
2 cores.
"""
import copy
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import _threads  # noqa: F401,E402  (pins BLAS to one thread before numpy loads)

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import sklearn  # noqa: E402
from sklearn.gaussian_process import GaussianProcessRegressor  # noqa: E402
from sklearn.gaussian_process.kernels import RBF, ConstantKernel  # noqa: E402
from threadpoolctl import threadpool_info  # noqa: E402

from common.gp import GaussianProcess  # noqa: E402
from common.kernels import SquaredExponential  # noqa: E402

DIM = 10
SIZES = (100, 400, 1000)
N_TEST = 2000
NOISE = 1e-4
VARIANCE = 1.5
REPEATS = {100: 31, 400: 21, 1000: 9}
TARGET_N, TARGET_SPEEDUP = 400, 20.0  # the fast-loop issue's target (the first one was 10x)


def make_data(n, rng):
    """Training inputs (n + 1 rows: the last one is the update), targets and test inputs."""
    X = rng.random((n + 1, DIM))
    y = np.sin(3.0 * X @ rng.standard_normal(DIM)) + 0.1 * rng.standard_normal(n + 1)
    return X, y, rng.random((N_TEST, DIM))


def make_models(lengthscale):
    """Our GP and scikit-learn's with the same kernel, noise and zero prior mean."""
    ours = GaussianProcess(SquaredExponential(lengthscale, VARIANCE), noise_variance=NOISE)
    sk_kernel = (ConstantKernel(VARIANCE, constant_value_bounds="fixed")
                 * RBF(lengthscale, length_scale_bounds="fixed"))
    theirs = GaussianProcessRegressor(sk_kernel, alpha=NOISE, optimizer=None, normalize_y=False)
    return ours, theirs


def median_times(run_ours, run_theirs, repeats):
    """Median wall time (ms) of each over ``repeats`` alternated runs."""
    times_ours, times_theirs = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        run_ours()
        times_ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        run_theirs()
        times_theirs.append(time.perf_counter() - start)
    return 1e3 * np.median(times_ours), 1e3 * np.median(times_theirs)


def max_differences(ours, theirs, X_test):
    """Max abs differences of the posterior mean and std at X_test."""
    mean_ours, std_ours = ours.predict(X_test, return_std=True)
    mean_theirs, std_theirs = theirs.predict(X_test, return_std=True)
    return np.max(np.abs(mean_ours - mean_theirs)), np.max(np.abs(std_ours - std_theirs))


def bench_size(n, rng):
    """Rows (n, operation, ours ms, sklearn ms) and the agreement checks at one n."""
    X_all, y_all, X_test = make_data(n, rng)
    X, y, x_new, y_new = X_all[:n], y_all[:n], X_all[n:], y_all[n]
    ours, theirs = make_models(rng.uniform(0.5, 2.0, DIM) * np.sqrt(DIM) / 2)
    ours.fit(X, y)
    theirs.fit(X, y)
    checks = [("fit", *max_differences(ours, theirs, X_test))]
    updated = copy.deepcopy(ours).add_observation(x_new, y_new)
    refitted = copy.deepcopy(theirs).fit(X_all, y_all)
    checks.append(("update", *max_differences(updated, refitted, X_test)))

    repeats = REPEATS[n]
    rows = [(n, "fit + predict", *median_times(
        lambda: ours.fit(X, y).predict(X_test, return_std=True),
        lambda: theirs.fit(X, y).predict(X_test, return_std=True), repeats))]
    rows.append((n, "predict", *median_times(
        lambda: ours.predict(X_test, return_std=True),
        lambda: theirs.predict(X_test, return_std=True), repeats)))

    # The copies are made outside the timed region: add_observation changes its GP.
    def timed_update(with_predict):
        copies = [copy.deepcopy(ours) for _ in range(repeats)]
        refit = copy.deepcopy(theirs)

        def run_ours():
            gp = copies.pop().add_observation(x_new, y_new)
            if with_predict:
                gp.predict(X_test, return_std=True)

        def run_theirs():
            refit.fit(X_all, y_all)
            if with_predict:
                refit.predict(X_test, return_std=True)

        return median_times(run_ours, run_theirs, repeats)

    rows.append((n, "update (one point)", *timed_update(with_predict=False)))
    rows.append((n, "update + predict", *timed_update(with_predict=True)))
    return rows, checks


def describe_machine():
    """Versions, cores, BLAS threads of every loaded BLAS (numpy's and scipy's) and current load."""
    blas = ", ".join(f"{pool['internal_api']} in {Path(pool['filepath']).parent.name}: "
                     f"{pool['num_threads']} thread(s)"
                     for pool in threadpool_info() if pool["user_api"] == "blas")
    return (f"Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
            f"scikit-learn {sklearn.__version__}; {os.cpu_count()} CPUs, BLAS: {blas}; "
            f"load average {os.getloadavg()[0]:.2f}")


def main():
    print(describe_machine())
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    rows, checks = [], []
    for n in SIZES:
        size_rows, size_checks = bench_size(n, rng)
        rows += size_rows
        checks += [(n, *check) for check in size_checks]

    print(f"\nExact GP vs scikit-learn GaussianProcessRegressor (optimizer=None), d = {DIM}, "
          f"ARD squared exponential, noise {NOISE:g}, {N_TEST} test points, "
          f"median of {', '.join(f'{REPEATS[n]} (n={n})' for n in SIZES)} alternated runs; "
          f"sklearn's update is a refit on n + 1 points\n")
    print("| n | operation | ours (ms) | sklearn (ms) | ratio sklearn/ours |")
    print("|---|---|---|---|---|")
    for n, operation, t_ours, t_theirs in rows:
        print(f"| {n} | {operation} | {t_ours:.2f} | {t_theirs:.2f} | {t_theirs / t_ours:.1f}x |")

    print("\nAgreement with scikit-learn (max abs difference at the test points)\n")
    print("| n | after | mean | std |")
    print("|---|---|---|---|")
    for n, after, d_mean, d_std in checks:
        print(f"| {n} | {after} | {d_mean:.1e} | {d_std:.1e} |")

    update = {n: t_theirs / t_ours for n, op, t_ours, t_theirs in rows if op == "update (one point)"}
    verdict = "met" if update[TARGET_N] >= TARGET_SPEEDUP else "NOT met"
    print(f"\nTarget (update >= {TARGET_SPEEDUP:.0f}x faster than an sklearn refit at n = {TARGET_N}): "
          f"{update[TARGET_N]:.1f}x, {verdict}. Total {time.perf_counter() - start:.0f} s, "
          f"load average {os.getloadavg()[0]:.2f}.")


if __name__ == "__main__":
    main()
