"""EGP-TS against fully Bayesian GP-TS on the robot tasks, timed quietly: the paper's "runs much faster" (Fig. 3(b)).

Run from the repository root on a quiet machine (nothing else computing; the
timings are single-threaded):

    python benchmarks/bench_egp_ts.py            # 10 seeds per task and method: about 2 minutes
    python benchmarks/bench_egp_ts.py --record   # and write benchmarks/results/egp_ts_timing.csv

Each run is the notebook's paper-scale configuration of EGP-TS (B) or FB-GP-TS
on Robot pushing 3D and 4D (``common/experiments/egp_ts.py``: T = 100 after the
10 initial points, 50 random features), timed whole in CPU seconds; the two
methods alternate within a seed so that background load hits both alike. The
table gives the median, min and max per task and method and the ratio of the
medians. ``--record`` writes the per-run rows where the notebook's claim
``fig3b-faster-than-fb-*`` reads them (``common/experiments/egp_ts_claims.py``),
rather than the CPU seconds of the grid, which is computed beside other work.
"""
import argparse
import time

import common  # noqa: F401  (sets one BLAS thread before numpy loads)
import pandas as pd

from common.experiments import egp_ts as experiment
from common.experiments.egp_ts_measures import TIMING_RECORD

METHODS = ("EGP-TS (B)", "FB-GP-TS")


def paper_config(task, method, seed):
    """The paper-scale grid's configuration of one robot run."""
    params = {**experiment.SCALES["paper"], "scale": "paper"}
    return next(config for config in experiment.make_grid(params) if config["experiment"] == "robot"
                and config["problem"] == task and config["method"] == method and config["seed"] == seed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds per task and method (default 10, the paper's)")
    parser.add_argument("--record", action="store_true",
                        help=f"write the per-run rows to {TIMING_RECORD.relative_to(TIMING_RECORD.parents[2])}")
    args = parser.parse_args()
    if not 1 <= args.seeds <= experiment.SCALES["paper"]["robot_seeds"]:
        parser.error(f"--seeds must be between 1 and {experiment.SCALES['paper']['robot_seeds']}; got {args.seeds}")
    rows = []
    for task in experiment.ROBOT:
        for seed in range(args.seeds):
            for method in METHODS:
                started = time.process_time()
                experiment.run(paper_config(task, method, seed))
                rows.append({"problem": task, "method": method, "seed": seed,
                             "cpu_seconds": time.process_time() - started})
                print(f"{task} seed {seed} {method:12s} {rows[-1]['cpu_seconds']:6.2f} s", flush=True)
    runs = pd.DataFrame(rows)
    if args.record:
        TIMING_RECORD.parent.mkdir(parents=True, exist_ok=True)
        runs.to_csv(TIMING_RECORD, index=False)
    summary = runs.groupby(["problem", "method"], sort=False)["cpu_seconds"].agg(["median", "min", "max"])
    for task, table in summary.groupby(level="problem", sort=False):
        table = table.droplevel("problem")
        print(f"\n{task}, {args.seeds} seeds (CPU seconds of a whole run)")
        print(table.to_string(float_format=lambda value: f"{value:.3g}"))
        ratio = table.loc["FB-GP-TS", "median"] / table.loc["EGP-TS (B)", "median"]
        print(f"FB-GP-TS / EGP-TS (B), medians: {ratio:.2f}x")


if __name__ == "__main__":
    main()
