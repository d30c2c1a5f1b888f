"""MINI-GP-UCB against its twin without epochs, side by side on one machine: the arena's cost hypothesis, measured
quietly.

Run from the repository root on a quiet machine (nothing else computing; every run is single-threaded):

    python benchmarks/bench_arena_mini_cost.py             # the published problems, 10 seeds
    python benchmarks/bench_arena_mini_cost.py --record    # the same, written where the arena's hypothesis reads it
    python benchmarks/bench_arena_mini_cost.py --record --jobs 2   # the problems split over two processes

The arena's runs record their CPU seconds, but MINI-GP-UCB's and its twin's were computed on different machines and
days, so the idea's cost hypothesis ("mini-gp-ucb-idea-cost", ``common/experiments/arena_claims.py``) reads this
benchmark instead. For each problem (``--problems``, default the arena's published problems) and seed
(``--seeds``), both run the arena's paper-scale configuration (``arena.run``: the same candidate set, design and
random streams) one after the other, in alternating order from seed to seed, so that a slower moment hits both
alike, after one untimed run of each (the first run of a process also pays for its imports); each run's process
CPU seconds are taken around the whole run, as the arena's runs take theirs. The table
gives per problem the median CPU seconds of each and the median ratio. ``--record`` writes the per-run rows to
``benchmarks/results/arena_mini_cost.csv``. ``--jobs 2`` splits the problems over two processes, each timing its
own runs (a run's process CPU seconds do not count the other process's), so that both cores of a quiet machine work.
"""
import argparse
import time

import common  # noqa: F401  (sets one BLAS thread and numpy's SIMD before numpy loads)
import pandas as pd

from common.experiments import arena, arena_methods, arena_suite
from common.experiments.arena_claims import MINI_COST_RECORD
from common.notebook import configuration

METHOD = "MINI-GP-UCB"
TWIN = arena_methods.IDEA_OF[METHOD].off[0]


def main(argv=None):
    published = configuration(arena)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds per problem (default 10)")
    parser.add_argument("--problems", nargs="+", default=list(published["problems"]), choices=arena_suite.PROBLEMS,
                        metavar="PROBLEM", help="problems to run (default: the arena's published ones)")
    parser.add_argument("--record", action="store_true",
                        help=f"write the per-run rows to {MINI_COST_RECORD.relative_to(MINI_COST_RECORD.parents[2])}")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes, each timing its own share of the problems (default 1)")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error(f"--seeds must be a positive integer; got {args.seeds}")
    if args.jobs < 1:
        parser.error(f"--jobs must be a positive integer; got {args.jobs}")
    shares = [args.problems[i::args.jobs] for i in range(min(args.jobs, len(args.problems)))]
    if len(shares) == 1:
        rows = time_problems(published, shares[0], args.seeds)
    else:
        from joblib import Parallel, delayed
        found = Parallel(n_jobs=len(shares))(delayed(time_problems)(published, share, args.seeds) for share in shares)
        rows = [row for share_rows in found for row in share_rows]
    runs = pd.DataFrame(rows)
    by_seed = runs.pivot_table(index=["problem", "seed"], columns="method", values="cpu_seconds")
    by_seed["ratio"] = by_seed[METHOD] / by_seed[TWIN]
    table = by_seed.groupby(level="problem", sort=False).median().rename(columns={
        METHOD: f"{METHOD}: median CPU s", TWIN: f"{TWIN}: median CPU s", "ratio": "median ratio (with / without)"})
    print(table.round(3).to_markdown())
    if args.record:
        MINI_COST_RECORD.parent.mkdir(parents=True, exist_ok=True)
        runs.to_csv(MINI_COST_RECORD, index=False)
        print(f"written to {MINI_COST_RECORD}")


def time_problems(published, problems, n_seeds):
    """The CPU seconds of MINI-GP-UCB's and its twin's runs on ``problems``, seeds 0 to ``n_seeds`` - 1, in this
    process: one untimed run of each first (the first run of a process also pays for imports and first-call
    set-up), then each seed's pair in alternating order."""
    for method in (METHOD, TWIN):
        arena.run(arena.config_of(published, problems[0], method, n_seeds))
    rows = []
    for seed in range(n_seeds):
        for problem in problems:
            order = (METHOD, TWIN) if seed % 2 == 0 else (TWIN, METHOD)
            for method in order:
                started = time.process_time()
                arena.run(arena.config_of(published, problem, method, seed))
                rows.append({"problem": problem, "method": method, "seed": seed,
                             "cpu_seconds": time.process_time() - started})
        print(f"{', '.join(problems)}: seed {seed + 1} of {n_seeds} done", flush=True)
    return rows


if __name__ == "__main__":
    main()
