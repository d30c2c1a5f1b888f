"""Full BO iterations, side by side: our loop against scikit-optimize and bayesian-optimization.

Run from the repository root, on a quiet machine (the timings are single-threaded):

    pip install -r benchmarks/requirements.txt   # the peer libraries, not project dependencies
    python benchmarks/bench_bo_loop.py           # about 10 minutes
    python benchmarks/bench_bo_loop.py --repeats 1 --iterations 30   # a quick look

One *iteration* is everything between two evaluations of the objective: refit the
GP hyperparameters by maximum likelihood on all n observations, then maximize the
acquisition function. The objective's own cost is left out. Every library runs
GP-UCB from its own random initial design of 5 points, for ``--iterations``
iterations, on Hartmann-6 and on Ackley in d = 10 (both on the unit cube). The
libraries alternate within each repeat, so background load hits all alike. The
table gives, per range of n, the median seconds per iteration over every
iteration of every repeat in that range, the spread (the 10th and 90th
percentiles), iterations per second, and the ratio to ours.

Settings of each side (each library's defaults where the benchmark does not say):

========================  =====================================================================
ours                      Matérn-5/2 ARD kernel on standardized y, fixed noise variance 1e-6;
                          MLE by L-BFGS-B, warm start + 1 random restart, every iteration;
                          UCB with beta_t = 0.2 d log(2t); batched DIRECT, 1,500 evaluations
scikit-optimize 0.10.2    ``Optimizer(base_estimator="GP", acq_func="LCB", acq_optimizer="lbfgs")``:
                          constant x Matérn-5/2 ARD + white noise on normalized y, MLE with 2
                          restarts; LCB with kappa = 1.96 maximized by 10,000 random points
                          then L-BFGS-B from the 5 best
bayesian-optimization     ``BayesianOptimization`` with ``UpperConfidenceBound()``: Matérn-5/2
                          (isotropic) on normalized y, alpha 1e-6, MLE with 5 restarts; UCB with
                          kappa = 2.576 maximized by random points then L-BFGS-B restarts
========================  =====================================================================
"""
import argparse
import importlib.util
import time

import common  # noqa: F401  (sets one BLAS thread before numpy loads)
import numpy as np

from common.bo import BayesianOptimization, GPAcquisitionMethod, initial_design
from common.teaching import make_kernel
from common.test_functions import Ackley, Hartmann6, on_unit_cube

N_INIT = 5
DIRECT_EVALUATIONS = 1500
N_RANGES = ((5, 25), (26, 74), (75, 100))
PROBLEMS = {"Hartmann-6": lambda: on_unit_cube(Hartmann6()), "Ackley-10": lambda: on_unit_cube(Ackley(10))}


def ours(objective, n_iterations, seed):
    """Seconds of each iteration of our GP-UCB loop, and n at each."""
    bounds = objective.bounds
    method = GPAcquisitionMethod(make_kernel(len(bounds)), bounds, acquisition="UCB", beta="kandasamy",
                                 noise_variance=1e-6, y_transform="standardize", mle_restarts=1,
                                 optimizer="direct", optimizer_options={"max_evals": DIRECT_EVALUATIONS})
    rng = np.random.default_rng(seed)
    loop = BayesianOptimization(bounds, method, rng)
    X0 = initial_design(bounds, N_INIT, rng)
    loop.tell(X0, objective(X0))
    seconds, sizes = [], []
    for _ in range(n_iterations):
        sizes.append(len(loop.y))
        start = time.perf_counter()
        X_next = loop.ask()
        seconds.append(time.perf_counter() - start)
        loop.tell(X_next, objective(X_next))
    return np.array(seconds), np.array(sizes)


def scikit_optimize(objective, n_iterations, seed):
    """Seconds of each iteration of scikit-optimize's GP-LCB (its ``tell`` fits and optimizes)."""
    from skopt import Optimizer

    optimizer = Optimizer([tuple(row) for row in objective.bounds], base_estimator="GP", acq_func="LCB",
                          acq_optimizer="lbfgs", n_initial_points=N_INIT, random_state=seed)
    seconds, sizes = [], []
    for index in range(N_INIT + n_iterations):
        start = time.perf_counter()
        x = optimizer.ask()
        elapsed = time.perf_counter() - start
        value = -float(objective(np.array([x]))[0])  # scikit-optimize minimizes
        start = time.perf_counter()
        optimizer.tell(x, value)
        elapsed += time.perf_counter() - start
        if index >= N_INIT:  # the initial design's tell already fits the model that proposes iteration 1
            seconds.append(elapsed)
            sizes.append(index)
    return np.array(seconds), np.array(sizes)


def bayesian_optimization(objective, n_iterations, seed):
    """Seconds of each iteration of bayesian-optimization's GP-UCB (its ``suggest`` fits and optimizes)."""
    from bayes_opt import BayesianOptimization as Peer
    from bayes_opt.acquisition import UpperConfidenceBound

    names = [f"x{index}" for index in range(len(objective.bounds))]
    peer = Peer(f=None, pbounds={name: tuple(row) for name, row in zip(names, objective.bounds)},
                acquisition_function=UpperConfidenceBound(), random_state=seed, verbose=0, allow_duplicate_points=True)
    X0 = initial_design(objective.bounds, N_INIT, np.random.default_rng(seed))
    for x, value in zip(X0, objective(X0)):
        peer.register(params=dict(zip(names, x)), target=float(value))
    seconds, sizes = [], []
    for _ in range(n_iterations):
        sizes.append(len(peer.space))
        start = time.perf_counter()
        suggestion = peer.suggest()
        seconds.append(time.perf_counter() - start)
        x = np.array([[suggestion[name] for name in names]])
        peer.register(params=suggestion, target=float(objective(x)[0]))
    return np.array(seconds), np.array(sizes)


PEERS = {"scikit-optimize": ("skopt", scikit_optimize), "bayesian-optimization": ("bayes_opt", bayesian_optimization)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each library per problem (seeds 0..)")
    parser.add_argument("--iterations", type=int, default=96, help="BO iterations per run (n goes 5 -> 5 + it - 1)")
    args = parser.parse_args()
    sides = {"ours": ours}
    for label, (module, function) in PEERS.items():
        if importlib.util.find_spec(module) is None:
            print(f"note: {label} is not installed (pip install -r benchmarks/requirements.txt); left out")
        else:
            sides[label] = function
    print(f"{args.repeats} repeats x {args.iterations} iterations per library and problem; median seconds per "
          f"iteration [10th, 90th percentile], iterations per second, and ours' speed-up over each peer\n")
    for problem, make in PROBLEMS.items():
        objective = make()
        timings = {label: ([], []) for label in sides}
        for seed in range(args.repeats):
            for label, function in sides.items():  # alternate, so that load hits every side alike
                seconds, sizes = function(objective, args.iterations, seed)
                timings[label][0].append(seconds)
                timings[label][1].append(sizes)
        print(f"### {problem} (d = {len(objective.bounds)})\n")
        speed_ups = [f"speed-up vs {label}" for label in sides if label != "ours"]
        print("| n | " + " | ".join(sides) + " | " + " | ".join(speed_ups) + " |")
        print("|---" * (1 + 2 * len(sides) - 1) + "|")
        for low, high in N_RANGES:
            medians, cells = {}, []
            for label in sides:
                seconds = np.concatenate(timings[label][0])
                sizes = np.concatenate(timings[label][1])
                chosen = seconds[(sizes >= low) & (sizes <= high)]
                if not len(chosen):
                    cells.append("-")
                    continue
                medians[label] = float(np.median(chosen))
                p10, p90 = np.percentile(chosen, [10, 90])
                cells.append(f"{1e3 * medians[label]:.1f} ms [{1e3 * p10:.1f}, {1e3 * p90:.1f}] "
                             f"= {1 / medians[label]:.1f} it/s")
            ratios = [f"{medians[label] / medians['ours']:.1f}x" if label in medians and "ours" in medians else "-"
                      for label in sides if label != "ours"]
            print(f"| {low}-{high} | " + " | ".join(cells + ratios) + " |")
        print()


if __name__ == "__main__":
    main()
