"""Thompson draws from the random-feature posterior: batch fit + draw, and one observation + draw.

Run from the repository root, on a quiet machine:

    python benchmarks/bench_random_features.py    # about 1 minute

``BayesianLinearRegression`` on D random Fourier features (2D parameters) of a
squared-exponential kernel, n = 100 observations in d = 5. Two uses, timed for
D = 50, 500, 1000 (median CPU seconds of 5 repeats):

* batch: ``fit`` on the n points, then one ``sample_function`` draw;
* sequential (EGP-TS's use): one ``update`` with a new observation, then one draw.
"""
import time

import common  # noqa: F401  (sets one BLAS thread before numpy loads)
import numpy as np

from common.kernels import SquaredExponential
from common.random_features import BayesianLinearRegression, RandomFourierFeatures

N_OBSERVATIONS, DIM, REPEATS = 100, 5, 5


def median_seconds(action, repeats=REPEATS):
    times = []
    for _ in range(repeats):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return float(np.median(times))


def main():
    rng = np.random.default_rng(0)
    X = rng.random((N_OBSERVATIONS + REPEATS, DIM))
    y = np.sin(X.sum(1))
    print(f"Random-feature posterior draws, n = {N_OBSERVATIONS}, d = {DIM}, median CPU s of {REPEATS}\n")
    print("| D | fit + draw (s) | update + draw (s) |")
    print("|---|---|---|")
    for n_features in (50, 500, 1000):
        features = RandomFourierFeatures(SquaredExponential(0.5), n_features, DIM, rng)
        model = BayesianLinearRegression(features, 1e-2)
        batch = median_seconds(lambda: model.fit(X[:N_OBSERVATIONS], y[:N_OBSERVATIONS]).sample_function(rng))
        model.fit(X[:N_OBSERVATIONS], y[:N_OBSERVATIONS])
        new = iter(range(N_OBSERVATIONS, N_OBSERVATIONS + REPEATS))

        def update_and_draw():
            index = next(new)
            model.update(X[index], y[index])
            model.sample_function(rng)

        sequential = median_seconds(update_and_draw)
        print(f"| {n_features} | {batch:.4f} | {sequential:.4f} |")


if __name__ == "__main__":
    main()
