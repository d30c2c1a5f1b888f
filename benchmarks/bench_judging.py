"""CPU time of judging a paper's claims, with the interval ends found in place against on a copy of the resamples.

An interval end near a decision boundary rests on 200,000 or 20,000,000 resamples (``common.judging.refined``); its
two order statistics, and those of its 20 batches (the Monte-Carlo error), come from ``numpy.partition``, which
first copies the resamples: 160 MB at 20,000,000, fresh pages the partition then reorders. Since 2026-12-03 the
resamples, a scratch array of the bootstrap, are reordered in place (``ndarray.partition``). This script judges
one paper's claims from its published runs both ways, alternated, and prints the CPU seconds of each and their
ratio; before timing it checks that both give the same verdict table, cell for cell.

    python benchmarks/bench_judging.py                 # add_gp_ucb, 3 judgements each way (about 3 minutes)
    python benchmarks/bench_judging.py bo_pp --repeats 1
"""
import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import _threads  # noqa: F401,E402  (pins BLAS and numpy's SIMD before numpy loads)
import numpy as np  # noqa: E402

from common import stats  # noqa: E402
from common.notebook import configuration  # noqa: E402
from common.runner import run_grid  # noqa: E402

IN_PLACE = stats._order_statistic_ends


def on_a_copy(estimates, n_seeds, *, in_place=False):
    """The order statistics as before 2026-12-03: ``numpy.partition`` of a copy, whatever ``in_place`` asks."""
    return IN_PLACE(estimates, n_seeds, in_place=False)


def judged(claims_module, table, params, ends):
    """The verdict table (as text) and the CPU seconds of judging it with ``ends`` finding the order statistics."""
    stats._order_statistic_ends = ends
    stats._refined_effect.cache_clear()   # each judgement pays for its refined intervals
    stats._shared_draw_ends.cache_clear()
    try:
        start = time.process_time()
        verdicts = claims_module.judge(table, params)
        return verdicts.astype(str), time.process_time() - start
    finally:
        stats._order_statistic_ends = IN_PLACE


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paper", nargs="?", default="add_gp_ucb")
    parser.add_argument("--repeats", type=int, default=3, help="judgements each way (default 3)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats must be >= 1; got {args.repeats}")
    experiment = importlib.import_module(f"common.experiments.{args.paper}")
    claims_module = importlib.import_module(f"common.experiments.{args.paper}_claims")
    params = configuration(experiment)
    table = run_grid(experiment.make_grid(params), experiment.run)
    times = {"in place": [], "on a copy": []}
    tables = {}
    for _ in range(args.repeats):
        for name, ends in (("on a copy", on_a_copy), ("in place", IN_PLACE)):
            tables[name], seconds = judged(claims_module, table, params, ends)
            times[name].append(seconds)
    if not tables["in place"].equals(tables["on a copy"]):
        raise SystemExit("the two ways gave different verdict tables")
    print(f"{args.paper}: the same verdict table both ways ({len(tables['in place'])} claims); numpy {np.__version__}")
    print("| order statistics | CPU s to judge (median) | runs |")
    print("|---|---|---|")
    for name, found in times.items():
        print(f"| {name} | {statistics.median(found):.1f} | {', '.join(f'{t:.1f}' for t in found)} |")
    print(f"ratio in place / on a copy: {statistics.median(times['in place']) / statistics.median(times['on a copy']):.2f}")


if __name__ == "__main__":
    main()
