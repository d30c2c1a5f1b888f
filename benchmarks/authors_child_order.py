"""Does the order of a divided rectangle's two children in DIRECT explain where our Add-GP-UCB parts from the
authors' code? It is a real difference, and it is not where the runs part.

The authors' ``diRect.m`` stores a divided rectangle's child at c - delta before the one at c + delta, ours the other
way round. Where values tie exactly (a plateau; the UCB at its prior level far from every query), tied rectangles
are divided in the order they are stored, so once a budget ends in the middle of a round the two searches have
divided different rectangles. This script measures it, with nothing of the project changed on disk:

1. DIRECT on a 3-D function with a plateau (every point farther than 0.2 from (0.55, -0.35, 0.7) scores 2), at
   budgets of 9 to 400 evaluations: the points the authors' ``diRect.m`` sampled under GNU Octave
   (``benchmarks/octave/direct_ties_reference.m``, recorded in ``results/authors_direct_ties.txt``) against ours,
   as published and with the children stored c - delta first.
2. The 40 replays of the saved runs of the authors' code (the add_gp_ucb notebook's §4: at each of the first 30
   BO iterations, given their queries and values so far, does ours propose their point?) under the published
   "authors-code" settings: as published, with the children stored c - delta first, and with that and the
   likelihood search's 20 rounds of the authors' code (ours stops after 8; ``authors_round_cap.py``).

Where the replays part is the BLAS the authors' runs were made with: §4 of the notebook compares them with their
code run again under the reference BLAS. From the repository root (about 5 minutes of CPU; the Octave reference is
recorded, so Octave is not needed):

    python benchmarks/authors_child_order.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import _threads  # noqa: F401,E402  (one BLAS thread, before numpy loads)

import contextlib  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from authors_round_cap import REPLAYED, likelihood_rounds  # noqa: E402
from common import optimizers  # noqa: E402
from common.experiments import add_gp_ucb as experiment  # noqa: E402

REFERENCE = Path(__file__).parent / "results" / "authors_direct_ties.txt"
RESULTS = Path(__file__).parent / "results" / "authors_child_order.txt"
PLATEAU_BOUNDS = np.array([[-1.0, 1.0]] * 3)


def plateau(T):
    """2 everywhere but a bump of height 1 within 0.2 of (0.55, -0.35, 0.7): the plateau's values tie exactly."""
    return 2 + np.maximum(0, 1 - ((T[:, 0] - 0.55) ** 2 + (T[:, 1] + 0.35) ** 2 + (T[:, 2] - 0.7) ** 2) / 0.04)


@contextlib.contextmanager
def children_minus_first():
    """DIRECT with every divided rectangle's children stored c - delta first (restored on leaving)."""
    place, centres_of = optimizers._place_children, optimizers._children_centres

    def place_children(centres, cuts, total_cuts, parents, first_new, third_of_side):
        pairs = place(centres, cuts, total_cuts, parents, first_new, third_of_side)
        plus = first_new + 2 * np.arange(pairs[0].size)  # each pair's c + delta child, then its c - delta one
        centres[plus], centres[plus + 1] = centres[plus + 1].copy(), centres[plus].copy()
        return pairs

    def children_centres(partition, parent):
        children = centres_of(partition, parent)
        return np.concatenate([children[1::2, None], children[0::2, None]], axis=1).reshape(children.shape)

    optimizers._place_children, optimizers._children_centres = place_children, children_centres
    try:
        yield
    finally:
        optimizers._place_children, optimizers._children_centres = place, centres_of


def read_reference():
    """Per budget of the Octave reference: the points ``diRect.m`` sampled and its best value."""
    lines, cases, row = REFERENCE.read_text().splitlines(), [], 0
    while row < len(lines):
        _, budget, n, best, *_ = lines[row].split()
        points = np.array([[float(v) for v in line.split()] for line in lines[row + 1:row + 1 + int(n)]])
        cases.append((int(budget), float(best), points))
        row += 1 + int(n)
    return cases


def plateau_table():
    rows = []
    for budget, best, theirs in read_reference():
        row = {"budget": budget, "diRect.m best": best}
        for label, order in (("published", contextlib.nullcontext), ("c - delta first", children_minus_first)):
            sampled = []

            def recorded(T):
                sampled.extend(np.asarray(T).tolist())
                return plateau(T)

            with order():
                result = optimizers.direct_maximize(recorded, PLATEAU_BOUNDS, budget, vol_tol=0.0, len_tol=0.0,
                                                    last_round="pairs_in_order")
            same = {tuple(np.round(p, 9)) for p in sampled} == {tuple(np.round(p, 9)) for p in theirs}
            row[f"{label}: same points"] = "yes" if same else "no"
            row[f"{label}: best"] = round(float(result.fun), 6)
        rows.append(row)
    return pd.DataFrame(rows)


def replay_table():
    _, records = experiment.authors_code_runs()
    if not records:
        raise SystemExit("no run of the authors' code is saved in data/authors_code/add_gp_ucb/library/ "
                         "(benchmarks/authors_add_gp_ucb.py makes them)")
    variants = {"published": (contextlib.nullcontext, 8), "c - delta first": (children_minus_first, 8),
                "c - delta first, 20 rounds": (children_minus_first, 20)}
    rows = [{"method": record["method"], "seed": record["seed"]} for record in records]
    for label, (order, rounds) in variants.items():
        with order(), likelihood_rounds(rounds):
            for row, record in zip(rows, records):
                distances, moved = experiment.replay_authors_run(record, REPLAYED, settings="authors-code")
                row[label] = int((distances[~moved] < 1e-9).sum() + moved.sum())
    return pd.DataFrame(rows), list(variants)


def main():
    lines = ["DIRECT on a plateau (3-D, values tied at 2 away from one bump), against the authors' diRect.m:",
             plateau_table().to_string(index=False), ""]
    table, variants = replay_table()
    lines.append(f"Replays of the authors' runs under the published settings: BO iterations (of the first {REPLAYED}) "
                 "at which ours proposes their point:")
    lines.append(table.to_string(index=False))
    for label in variants:
        parted = table[label][table[label] < REPLAYED]
        lines.append(f"{label}: all {REPLAYED} in {int((table[label] == REPLAYED).sum())} of {len(table)} runs"
                     + (f"; the others at {parted.min()}-{parted.max()}" if len(parted) else ""))
    text = "\n".join(lines)
    print(text)
    RESULTS.write_text(text + "\n")


if __name__ == "__main__":
    main()
