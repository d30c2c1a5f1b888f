"""How well does ``reproduce.py --list`` price a missing run? Each cell of a grid priced with its own runs hidden.

Not a timing. For every (method, problem) cell of a paper's cached runs, its runs are left out of the record and
priced the way :func:`common.runner.estimate_cost` prices a missing run (the mean cost of the runs whose settings
differ from it in the fewest fields, :func:`common.runner._nearest_estimate`); the price is set beside the cell's own
mean CPU seconds. Printed per method: the median ratio price / actual over its cells and its range, and the
runs the price came from. A method whose runs cost far more (or less) than the others' on the same problem is
mispriced where the nearest runs are the other methods' (issue 63 item 6: BoTorch on the arena's second suite).
Beside it, a rule to compare (not what the runner uses): the two-way product, the method's mean on the other
problems times the other methods' mean on this problem, over the other methods' mean on the other problems.

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


def cell_prices(paper_key, method_field="method", problem_field="problem"):
    """``{(method, problem): (price, actual, basis)}`` for every cell of ``paper_key``'s cached runs of the
    current code, each priced with its own runs hidden."""
    kernels = store.process_versions()["kernels"]
    runs = list(run_records.scan_records(paper_key, kernels))
    costs, settings_of = defaultdict(list), {}
    for run in runs:
        settings = runner._settings(run.config)
        key = canonical_json(settings)
        costs[key].append(run.cost_seconds)
        settings_of[key] = settings
    found = {}
    cell_costs = {(settings.get(method_field), settings.get(problem_field)): costs[key]
                  for key, settings in settings_of.items()}
    for key, settings in settings_of.items():
        cell = (settings.get(method_field), settings.get(problem_field))
        hidden = {other: value for other, value in settings_of.items() if other != key}
        estimate = runner._nearest_estimate(settings, costs, hidden)
        if estimate is not None and None not in cell:
            found.setdefault(cell, []).append((estimate[0], float(np.mean(costs[key])), estimate[1]))
    return {cell: (float(np.mean([p for p, _, _ in rows])), float(np.mean([a for _, a, _ in rows])), rows[0][2],
                   _product_price(cell, cell_costs))
            for cell, rows in found.items()}


def _product_price(cell, cell_costs):
    """The two-way product price of ``cell`` from the other cells (None where a factor has no runs)."""
    method, problem = cell
    others = {key: np.mean(values) for key, values in cell_costs.items() if key != cell}
    same_method = [cost for (m, p), cost in others.items() if m == method]
    same_problem = [cost for (m, p), cost in others.items() if p == problem]
    neither = [cost for (m, p), cost in others.items() if m != method and p != problem]
    if not (same_method and same_problem and neither):
        return None
    return float(np.mean(same_method) * np.mean(same_problem) / np.mean(neither))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paper", help="a paper key with cached runs, e.g. arena")
    args = parser.parse_args(argv)
    by_method = defaultdict(list)
    for (method, _), (price, actual, basis, product) in cell_prices(args.paper).items():
        if actual > 0:
            by_method[method].append((price / actual, basis, np.nan if product is None else product / actual))
    print(f"{args.paper}: each cell priced with its own runs hidden, price / its mean CPU seconds")
    print("| method | cells | median ratio | range | priced from | two-way product: median ratio | range |")
    print("|---|---:|---:|---|---|---:|---|")
    for method, rows in sorted(by_method.items(), key=lambda item: np.median([row[0] for row in item[1]])):
        print(_table_row(method, rows))
    return 0


def _table_row(method, rows):
    """A method's row of the printed table from its cells' (price ratio, basis, product ratio)."""
    ratios, products = [row[0] for row in rows], [row[2] for row in rows]
    bases = "; ".join(sorted({row[1] for row in rows}))
    return (f"| {method} | {len(rows)} | {np.median(ratios):.2f} | {min(ratios):.2f}-{max(ratios):.2f} | {bases} | "
            f"{np.nanmedian(products):.2f} | {np.nanmin(products):.2f}-{np.nanmax(products):.2f} |")

if __name__ == "__main__":
    sys.exit(main())
