"""Does any judgement of the cells nearest a decision boundary follow the bootstrap's seed? 50 seeds each.

Not a timing. Each paper's claims are judged once from its published runs while every cell judged
(``judging.judge_cell``) is recorded; of those not "not comparable" (tied seeds), the ten distinct cells whose
interval ends lie nearest a decision boundary (in shares of the interval's half-width) are judged again under each of
50 bootstrap seeds, from the default resamples on, refined as a published judgement is (``judging.refined``). A
cell whose end lies within 6 Monte-Carlo errors of its boundary even at ``common.stats.N_PRECISE`` resamples, or near
it where the exact bootstrap distribution is cheap (``common.bootstrap_tail.in_easy_reach``), has its side decided by
that distribution (``common.bootstrap_tail``), or, beyond its reach, can follow the seed; the record shows which cells move, and whether the published judgement says its end is that close (its note:
"within 6 Monte-Carlo errors of a decision boundary"). One row per cell in results/boundary_cells_seeds.csv (a rerun of some
papers replaces their rows), each with the paper's verdict fingerprint
(``bootstrap_seed_stability.verdicts_fingerprint``) so that ``tests/test_bootstrap_record.py`` can tell a record made
for other verdicts.

    nice -n 19 python benchmarks/boundary_cells_seeds.py              # every paper (2026-12-03: about 40 min, two processes)
    nice -n 19 python benchmarks/boundary_cells_seeds.py add_gp_ucb --seeds 10
"""
import importlib
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import _threads  # noqa: F401,E402  (pins BLAS and numpy's SIMD before numpy loads)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from bootstrap_seed_stability import PAPERS, parsed_arguments, verdicts_fingerprint  # noqa: E402
from common import judging, paths, stats  # noqa: E402
from common.notebook import configuration  # noqa: E402
from common.runner import run_grid  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "boundary_cells_seeds.csv"
#: Cells per paper rejudged: those nearest a decision boundary.
NEAREST = 10
#: The first of the consecutive bootstrap seeds drawn (the audit of issue 63 found a verdict that moved at seed 1000).
FIRST_SEED = 1000


def judged_cells(paper_key):
    """Every distinct cell the paper's claims judge: ``(comparison, claim, margin, paper_effect, judgement)``, the
    last a :class:`judging.CellJudgement`."""
    experiment = importlib.import_module(f"common.experiments.{paper_key}")
    claims_module = importlib.import_module(f"common.experiments.{paper_key}_claims")
    params = configuration(experiment)
    table = run_grid(experiment.make_grid(params), experiment.run)
    found = {}
    judge = judging.judge_cell

    def recording(comparison, claim, margin, paper_effect=None):
        judgement = judge(comparison, claim, margin, paper_effect)
        if comparison.values is not None and comparison.effect is not None and comparison.n >= 2:
            key = (comparison.values[0].tobytes(), comparison.values[1].tobytes(), comparison.higher_is_better,
                   comparison.effect.scale, claim, margin, paper_effect)
            found.setdefault(key, (comparison, claim, margin, paper_effect, judgement))
        return judgement

    judging.judge_cell = recording
    try:
        claims_module.judge(table, params)
    finally:
        judging.judge_cell = judge
    return list(found.values())


def distance_to_boundary(comparison, claim, margin, paper_effect):
    """The least distance of an interval end from a decision boundary, as a share of the interval's half-width."""
    _, low, high = stats.advantage_interval(comparison)
    half_width = (high - low) / 2
    boundaries = judging.decision_boundaries(claim, margin, paper_effect)
    if not boundaries or not np.isfinite(half_width) or half_width == 0:
        return np.inf
    return min(abs(end - boundary) for end in (low, high) for boundary in boundaries) / half_width


def rejudge(comparison, claim, margin, paper_effect, seed):
    """The cell's judgement with its interval drawn from ``seed`` at the default resamples, refined as published."""
    with stats.bootstrap_seed(seed):
        effect = stats.estimate_effect(*comparison.values, comparison.effect.scale)
        return judging.judge_cell(replace(comparison, effect=effect), claim, margin, paper_effect).judgement


def rows_of(paper_key, seeds):
    published = pd.read_csv(paths.figures_dir(paper_key) / "verdicts.csv", keep_default_na=False)
    fingerprint = verdicts_fingerprint(published)
    # A cell of tied seeds is "not comparable" by its share of ties, which no resample moves.
    cells = [cell for cell in judged_cells(paper_key) if cell[4].judgement != "not comparable"]
    nearest = sorted(cells, key=lambda cell: distance_to_boundary(*cell[:4]))[:NEAREST]
    rows = []
    for comparison, claim, margin, paper_effect, published_judgement in nearest:
        judgement = published_judgement.judgement
        judgements = [rejudge(comparison, claim, margin, paper_effect, seed) for seed in seeds]
        moved = [f"{seed}: {found}" for seed, found in zip(seeds, judgements) if found != judgement]
        rows.append({"paper": paper_key, "cell": f"{stats.brief(comparison)} ({claim}, margin {margin})",
                     "distance": f"{distance_to_boundary(comparison, claim, margin, paper_effect):.4f}",
                     "judgement": judgement, "says_within_errors": "Monte-Carlo errors" in published_judgement.note,
                     "decided_exactly": "exactly, the interval" in published_judgement.note,
                     "exact_out_of_reach": "out of reach" in published_judgement.note,
                     "bootstrap_seeds": len(seeds), "moved": len(moved),
                     "seeds_that_moved": "; ".join(moved), "verdicts_fingerprint": fingerprint})
        print(f"{paper_key}: {rows[-1]['cell']}: {judgement}, {len(moved)} of {len(seeds)} seeds moved",
              file=sys.stderr, flush=True)
    return rows


def main(argv=None):
    args = parsed_arguments(argv, __doc__.splitlines()[0], 50)
    seeds = list(range(FIRST_SEED, FIRST_SEED + args.seeds))
    for paper_key in args.papers or PAPERS:
        rows = rows_of(paper_key, seeds)
        kept = pd.read_csv(RESULTS, keep_default_na=False, dtype=str) if RESULTS.exists() else pd.DataFrame()
        if not kept.empty:
            kept = kept[kept["paper"] != paper_key]
        table = pd.concat([kept, pd.DataFrame(rows)], ignore_index=True)
        table["order"] = table["paper"].map(PAPERS.index)
        table = table.sort_values("order", kind="stable").drop(columns="order")
        RESULTS.parent.mkdir(exist_ok=True)
        table.to_csv(RESULTS, index=False)   # after each paper: an interrupted run keeps what it finished
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
