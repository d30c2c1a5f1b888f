"""How often a confirmatory plan decides its claim on fresh seeds: the plug-in plan against the powered one.

Not a timing. In a toy world where method a's regret is b's times exp(log_effect + noise), b lognormal(0, 1), a
one-cell claim "a has lower regret than b" (ratio of means, the project's default margin) is judged on a pilot
of 10 seeds; each pilot that leaves it inconclusive is planned both ways (``common.confirmatory``):

* plug-in: the seeds at which the pilot's effect and spread would decide it (``seeds_to_decide``, at least 10);
* powered: the rule of issue 40 (simulation with the effect halved, spread inflated, 80 % power), at most 2,560
  seeds, as the papers' plans are made;

and each plan is judged on fresh seeds drawn from the same world. Four worlds: moderate tails (per-seed noise SD 0.5
in log, a 0.7x effect) and heavy tails (SD 0.8, 0.6x per seed), where a pilot of 10 seeds rarely shows how wide the
spread is (ratios of means 0.79x and 0.83x); no effect (a ratio of means of 1, SD 0.5), where "inconclusive" is
the right outcome and a decision is an error; and an effect at the margin (a ratio of means of 1 / 1.1, the
project's default margin, SD 0.5), where the interval needs many seeds to clear 1. One row per world and planner in results/planner_decision_rate.csv; ``--worlds`` measures some of them
again (each world draws from a generator of its own) and keeps the others' rows.

    nice -n 19 python benchmarks/planner_decision_rate.py            # about 15 CPU-minutes a world at 8 pilots
    nice -n 19 python benchmarks/planner_decision_rate.py --worlds "no effect" --pilots 8
"""
import argparse
import sys
from pathlib import Path

import common  # noqa: F401  (sets the BLAS threads before numpy loads)
import numpy as np
import pandas as pd

from common import claims, confirmatory

RESULTS = Path(__file__).parent / "results" / "planner_decision_rate.csv"
# (per-seed log effect, log-noise SD). The claim is judged on the ratio of means, which a per-seed factor exp(noise)
# raises by exp(SD^2 / 2): the last two worlds are set by their ratio of means, 1 and the margin's 1 / 1.1.
WORLDS = {"moderate tails": (np.log(0.7), 0.5), "heavy tails": (np.log(0.6), 0.8), "no effect": (-0.5**2 / 2, 0.5),
          "at the margin": (np.log(1 / 1.1) - 0.5**2 / 2, 0.5)}
MOST_SEEDS = confirmatory.SEED_STEPS[-1]


def claim():
    return claims.paired_claim("toy", "a", "b", higher_is_better=False)


def runs(rng, n_seeds, log_effect, noise, first_seed=0):
    b = rng.lognormal(0.0, 1.0, n_seeds)
    a = b * np.exp(log_effect + rng.normal(0.0, noise, n_seeds))
    seeds = np.arange(first_seed, first_seed + n_seeds)
    return pd.DataFrame({"seed": np.r_[seeds, seeds], "method": ["a"] * n_seeds + ["b"] * n_seeds,
                         "value": np.r_[a, b]})


def measure_world(name, n_pilots, rng):
    log_effect, noise = WORLDS[name]
    found = {"plug-in": [], "powered": []}
    seeds_of = {"plug-in": [], "powered": []}
    while len(found["powered"]) < n_pilots:
        pilot = runs(rng, 10, log_effect, noise)
        check = claim().evaluate(pilot, {})
        if check.verdict != "inconclusive":
            continue
        needed = str(check.seeds_to_decide)  # "more than 10000" where no sample the planner prices would decide it
        plug_in = min(max(int(needed), 10), MOST_SEEDS) if needed.isdigit() else MOST_SEEDS
        powered, _ = confirmatory.powered_seeds(claim(), pilot, {}, lambda n: n <= MOST_SEEDS)
        for planner, seeds in (("plug-in", plug_in), ("powered", powered or MOST_SEEDS)):
            fresh = runs(rng, seeds, log_effect, noise, first_seed=confirmatory.SEED_OFFSET)
            found[planner].append(claim().evaluate(fresh, {}).verdict not in confirmatory.UNDECIDED)
            seeds_of[planner].append(seeds)
        print(f"{name}: pilot {len(found['powered'])}/{n_pilots}: plug-in {plug_in} seeds, powered "
              f"{powered or MOST_SEEDS}", file=sys.stderr, flush=True)
    return [{"world": name, "planner": planner, "pilots": n_pilots, "decided": int(sum(found[planner])),
             "share_decided": round(float(np.mean(found[planner])), 2),
             "median_seeds": int(np.median(seeds_of[planner]))} for planner in found]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pilots", type=int, default=30, help="inconclusive pilots per world (default 30)")
    parser.add_argument("--worlds", nargs="+", choices=list(WORLDS), default=list(WORLDS), metavar="WORLD",
                        help=f"the worlds to measure (default: all of {list(WORLDS)}); the others' rows are kept")
    args = parser.parse_args(argv)
    if args.pilots < 1:
        parser.error(f"--pilots must be at least 1; got {args.pilots}")
    rows = [row for name in args.worlds
            for row in measure_world(name, args.pilots, np.random.default_rng([20261128, list(WORLDS).index(name)]))]
    table = pd.DataFrame(rows)
    if RESULTS.exists():
        kept = pd.read_csv(RESULTS)
        table = pd.concat([kept[~kept["world"].isin(args.worlds)], table], ignore_index=True)
        table = table.sort_values("world", key=lambda column: column.map(list(WORLDS).index), kind="stable")
    RESULTS.parent.mkdir(exist_ok=True)
    table.to_csv(RESULTS, index=False)
    print(table.to_markdown(index=False))


if __name__ == "__main__":
    main()
