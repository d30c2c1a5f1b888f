"""How well does ``reproduce.py --list`` price a missing run? Each cell of a grid priced with its own runs hidden.

Not a timing. For every (method, problem) cell of a paper's cached runs, its runs are left out of the record and
priced the way :func:`common.runner.estimate_cost` prices a missing run (:func:`common.runner._nearest_estimate`:
where the nearest runs differ in the method or in the problem, the two-way product, the method's mean on the other
problems times the other methods' mean on this problem, over the other methods' mean on the other problems); the
price is set beside the cell's own mean CPU seconds. Printed per method: the median ratio price / actual over its
cells and its range, and the runs the price came from; beside it, the rule the runner used before (the plain mean of
the runs whose settings differ in the fewest fields), which priced a method by the other methods on the same
problem wherever they are cheaper or dearer than it (issue 63 item 6: BoTorch on the arena's second suite).

    python benchmarks/price_accuracy.py arena
"""
import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import _threads  # noqa: F401,E402  (pins BLAS before numpy loads)
import numpy as np  # noqa: E402

from common import run_records, runner, store  # noqa: E402
from common.seeding import canonical_json  # noqa: E402


def cell_prices(paper_key):
    """``{(method, problem): (price, actual, basis, price by the plain mean)}`` for every cell of ``paper_key``'s cached
    runs of the current code, each priced with its own runs hidden."""
    kernels = store.process_versions()["kernels"]
    costs, settings_of = defaultdict(list), {}
    for run in run_records.scan_records(paper_key, kernels):
        settings = runner._settings(run.config)
        key = canonical_json(settings)
        costs[key].append(run.cost_seconds)
        settings_of[key] = settings
    found = {}
    for key, settings in settings_of.items():
        cell = (settings.get("method"), settings.get("problem"))
        hidden = {other: value for other, value in settings_of.items() if other != key}
        estimate = runner._nearest_estimate(settings, costs, hidden)
        if estimate is not None and None not in cell:
            found.setdefault(cell, []).append((estimate[0], float(np.mean(costs[key])), estimate[1],
                                               _mean_of_nearest(settings, costs, hidden)))
    return {cell: (float(np.mean([row[0] for row in rows])), float(np.mean([row[1] for row in rows])), rows[0][2],
                   float(np.mean([row[3] for row in rows])))
            for cell, rows in found.items()}


def _mean_of_nearest(settings, costs, settings_of):
    """The runner's rule before 2026-12-08: the mean cost of the runs whose settings differ from ``settings`` in the
    fewest fields (a paper's cells share their budgets, so none is scaled)."""
    differing = {key: sum(settings.get(name) != recorded.get(name) for name in set(settings) | set(recorded))
                 for key, recorded in settings_of.items()}
    fewest = min(differing.values())
    return float(np.mean([cost for key, count in differing.items() if count == fewest for cost in costs[key]]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paper", help="a paper key with cached runs, e.g. arena")
    args = parser.parse_args(argv)
    by_method = defaultdict(list)
    for (method, _), (price, actual, basis, mean_price) in cell_prices(args.paper).items():
        if actual > 0:
            by_method[method].append((price / actual, basis, mean_price / actual))
    print(f"{args.paper}: each cell priced with its own runs hidden, price / its mean CPU seconds")
    print("| method | cells | median ratio | range | priced from | the plain mean before: median ratio | range |")
    print("|---|---:|---:|---|---|---:|---|")
    for method, rows in sorted(by_method.items(), key=lambda item: np.median([row[0] for row in item[1]])):
        print(_table_row(method, rows))
    return 0


def _table_row(method, rows):
    """A method's row of the printed table from its cells' (price ratio, basis, plain-mean ratio)."""
    ratios, products = [row[0] for row in rows], [row[2] for row in rows]
    bases = "; ".join(sorted({row[1] for row in rows}))
    return (f"| {method} | {len(rows)} | {np.median(ratios):.2f} | {min(ratios):.2f}-{max(ratios):.2f} | {bases} | "
            f"{np.median(products):.2f} | {min(products):.2f}-{max(products):.2f} |")


if __name__ == "__main__":
    sys.exit(main())
