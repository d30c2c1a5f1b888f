"""Does the cap on the likelihood search's rounds explain where our Add-GP-UCB parts from the authors' code?

The authors' ``addGPDecompMargLikelihood.m`` sets ``diRectOptions.maxits = 8`` and then, before it searches,
``diRectOptions.maxits = numBwSigmaDiRectIters`` (20 unless a script sets it); our "authors" way of ending the
DIRECT searches (``PracticalAddGPUCB(direct_rounds="authors")``, used by the published "authors-code" settings)
stops the likelihood search after 8 rounds. This replays every saved run of the authors' code (the notebook's §4
replay: at each of the first 30 BO iterations, given their queries and values so far, does ours propose their
point?) under the "authors-code" settings twice, with the cap at 8 (as published) and at 20 (as their code), and
prints per run the iterations at which ours proposes their point (a point moved off a repeated query by random
noise counts, as in the notebook). Nothing is written; the cached runs are not touched. From the repository root:

    python benchmarks/authors_round_cap.py      # about a minute of CPU
"""
from common import _threads  # noqa: F401  (one BLAS thread, before numpy loads)

import contextlib  # noqa: E402

import pandas as pd  # noqa: E402

from common.experiments import add_gp_ucb as experiment  # noqa: E402
from common.methods import add_gp_ucb as method  # noqa: E402

REPLAYED = 30
CAPS = (8, 20)


@contextlib.contextmanager
def likelihood_rounds(cap):
    """The "authors" likelihood search with its rounds capped at ``cap`` (restored on leaving)."""
    likelihood = method.DIRECT_ROUNDS["authors"]["likelihood"]
    before = likelihood["max_iters"]
    likelihood["max_iters"] = cap
    try:
        yield
    finally:
        likelihood["max_iters"] = before


def main():
    _, records = experiment.authors_code_runs()
    if not records:
        raise SystemExit("no run of the authors' code is saved in data/authors_code/add_gp_ucb/library/ "
                         "(benchmarks/authors_add_gp_ucb.py makes them)")
    rows = [{"method": record["method"], "seed": record["seed"]} for record in records]
    for cap in CAPS:
        with likelihood_rounds(cap):
            for row, record in zip(rows, records):
                distances, moved = experiment.replay_authors_run(record, REPLAYED, settings="authors-code")
                row[f"same point, {cap} rounds"] = int((distances[~moved] < 1e-9).sum() + moved.sum())
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    for cap in CAPS:
        column = table[f"same point, {cap} rounds"]
        parted = column[column < REPLAYED]
        print(f"cap {cap:2d}: all {REPLAYED} iterations in {int((column == REPLAYED).sum())} of {len(table)} runs"
              + (f"; the others at {parted.min()}-{parted.max()}" if len(parted) else ""))
    moved = table[table[f"same point, {CAPS[0]} rounds"] != table[f"same point, {CAPS[1]} rounds"]]
    print(f"runs whose count the cap changes: {len(moved)}")


if __name__ == "__main__":
    main()
