"""The mini_gp_opt methods at equal T, side by side: the paper's speed comparison, measured quietly.

Run from the repository root on a quiet machine (nothing else computing; the
timings are single-threaded):

    python benchmarks/bench_mini_gp_opt.py                       # T = 10,000, 3 repeats: about 30 minutes
    python benchmarks/bench_mini_gp_opt.py --T 1000 --repeats 3  # a look in a few minutes

Every method runs the notebook's configuration (``common/experiments/mini_gp_opt.py``:
its kernel, lambda, C = 1.1, its first arm) on the NAS substitute and the four
BBOB grids (``--problems`` to choose), for ``--T`` steps and ``--repeats`` seeds; within a
repeat the methods alternate, so that background load hits all alike. The
table gives per problem and method the median CPU seconds of the algorithm
over the repeats (the pulls excluded), the spread (min-max), the ratio to
BBKB and to GP-UCB, and the median unique candidates q_T and acquisition
maximizations h_T. ``--record`` also writes the per-run rows to
``benchmarks/results/mini_gp_opt_timing.csv``, where the notebook's speed claims
read them (``common/experiments/mini_gp_opt_claims.py``).
"""
import argparse
import time

import common  # noqa: F401  (sets one BLAS thread before numpy loads)
import pandas as pd

from common.experiments import mini_gp_opt as experiment
from common.experiments.mini_gp_opt_measures import TIMING_RECORD

METHODS = ("MINI-GP-UCB", "MINI-GP-EI", "GP-UCB", "GP-BUCB", "BBKB", "epsilon-greedy")
PROBLEMS = (experiment.NAS_PROBLEM, *experiment.BBOB_PROBLEMS)


def config(problem, method, seed, horizon):
    settings = experiment.SCALES["paper"]
    return {"paper": experiment.PAPER, "experiment": "nas" if problem == experiment.NAS_PROBLEM else "bbob",
            "problem": problem, "method": method, "seed": seed, "T": horizon, "threshold": settings["threshold"],
            "bandwidth_factor": settings["bandwidth_factor"], "noise_beta": settings["noise_beta"],
            # One setting of epsilon-greedy's grid: its cost does not depend on (a, b).
            **({"epsilon_a": 1.0, "epsilon_b": 0.5} if method == "epsilon-greedy" else {})}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--T", type=int, default=10_000, help="steps per run (default 10,000, the paper scale)")
    parser.add_argument("--repeats", type=int, default=3, help="seeds per method (default 3)")
    parser.add_argument("--problems", nargs="+", default=list(PROBLEMS), choices=PROBLEMS, metavar="PROBLEM",
                        help=f"problems to run (default all: {', '.join(PROBLEMS)})")
    parser.add_argument("--record", action="store_true",
                        help=f"write the per-run rows to {TIMING_RECORD.relative_to(TIMING_RECORD.parents[2])}")
    args = parser.parse_args()
    if args.T < 2 or args.repeats < 1:
        parser.error(f"--T must be >= 2 and --repeats >= 1; got {args.T} and {args.repeats}")
    rows = []
    for seed in range(args.repeats):
        for problem in args.problems:
            for method in METHODS:
                started = time.process_time()
                result = experiment.run(config(problem, method, seed, args.T))
                rows.append({"problem": problem, "method": method, "seed": seed, "T": args.T,
                             "algorithm_seconds": result["algorithm_seconds"][-1],
                             "run_seconds": time.process_time() - started,
                             "unique": result["unique"][-1], "switches": result["switches"][-1]})
                print(f"repeat {seed} {problem:24s} {method:15s} {rows[-1]['algorithm_seconds']:8.2f} s", flush=True)
    runs = pd.DataFrame(rows)
    if args.record:
        TIMING_RECORD.parent.mkdir(parents=True, exist_ok=True)
        runs.to_csv(TIMING_RECORD, index=False)
    summary = runs.groupby(["problem", "method"], sort=False).agg(
        median_s=("algorithm_seconds", "median"), min_s=("algorithm_seconds", "min"),
        max_s=("algorithm_seconds", "max"), q_T=("unique", "median"), h_T=("switches", "median"))
    for problem, table in summary.groupby(level="problem", sort=False):
        table = table.droplevel("problem")
        table["vs BBKB"] = table["median_s"] / table.loc["BBKB", "median_s"]
        table["vs GP-UCB"] = table["median_s"] / table.loc["GP-UCB", "median_s"]
        print(f"\n{problem}, T = {args.T}, {args.repeats} repeats (CPU seconds of the algorithm, pulls excluded)")
        print(table.to_string(float_format=lambda value: f"{value:.3g}"))


if __name__ == "__main__":
    main()
