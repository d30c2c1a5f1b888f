"""Does any published verdict owe itself to the bootstrap's seed? Every claim rejudged under other seeds.

Not a timing. Each paper's published runs are loaded from the cache and its claims judged again, once per
bootstrap seed (``common.stats.bootstrap_seed``), the verdicts compared with the published ones
(``figures/<key>/verdicts.csv``, the headline verdict). Before that, the Monte-Carlo error of an interval end: the
SD of the lower end over the seeds, as a share of the interval's half-width, at the default resamples and at the
refined ones (``common.stats.N_REFINED``, used where an end lies near a decision boundary), on lognormal samples
of 20 seeds. One row per paper in results/bootstrap_seed_stability.csv (a rerun of some papers replaces their
rows and keeps the others'), one for the Monte-Carlo error. Each paper's row records a fingerprint of the verdicts
it rejudged (:func:`verdicts_fingerprint`), so that ``tests/test_bootstrap_record.py`` can tell a record that no
longer describes the published verdicts.

    nice -n 19 python benchmarks/bootstrap_seed_stability.py             # every paper, 20 seeds (2026-11-28: two processes over disjoint papers, about 40 minutes each under load)
    nice -n 19 python benchmarks/bootstrap_seed_stability.py egp_ts --seeds 5
"""
import argparse
import hashlib
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import _threads  # noqa: F401,E402  (pins BLAS and numpy's SIMD before numpy loads)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from common import paths, stats  # noqa: E402
from common.notebook import configuration  # noqa: E402
from common.runner import run_grid  # noqa: E402

PAPERS = ("add_gp_ucb", "bo_pp", "egp_ts", "mini_gp_opt", "random_exploration", "arena")
RESULTS = Path(__file__).parent / "results" / "bootstrap_seed_stability.csv"
MONTE_CARLO_ROW = "(Monte-Carlo error of an interval end, share of the half-width)"


def monte_carlo_error(n_seeds=20, n_samples=10, n_bootstrap_seeds=10):
    """The median SD of an interval's lower end over bootstrap seeds, as a share of its half-width, at
    :data:`common.stats.N_RESAMPLES` and :data:`common.stats.N_REFINED` resamples."""
    rng = np.random.default_rng(0)
    shares = {stats.N_RESAMPLES: [], stats.N_REFINED: []}
    for _ in range(n_samples):
        b = rng.lognormal(0.0, 1.0, n_seeds)
        a = b * np.exp(-0.2 + rng.normal(0.0, 0.5, n_seeds))
        for resamples in shares:
            ends, widths = [], []
            for seed in range(n_bootstrap_seeds):
                with stats.bootstrap_seed(seed):
                    effect = stats.estimate_effect(a, b, "ratio", n_resamples=resamples)
                ends.append(np.log(effect.low))
                widths.append((np.log(effect.high) - np.log(effect.low)) / 2)
            shares[resamples].append(np.std(ends) / np.mean(widths))
    return {resamples: float(np.median(found)) for resamples, found in shares.items()}


def verdicts_fingerprint(verdicts):
    """A short hash of a verdict table's ``id`` and ``verdict`` columns (``figures/<key>/verdicts.csv``)."""
    text = "\n".join(f"{claim}\t{verdict}" for claim, verdict in zip(verdicts["id"], verdicts["verdict"]))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def rejudge(paper_key, seeds):
    """The published verdicts of a paper and, per bootstrap seed, the claims whose verdict differs."""
    experiment = importlib.import_module(f"common.experiments.{paper_key}")
    claims_module = importlib.import_module(f"common.experiments.{paper_key}_claims")
    params = configuration(experiment)
    table = run_grid(experiment.make_grid(params), experiment.run)
    published_table = pd.read_csv(paths.figures_dir(paper_key) / "verdicts.csv", keep_default_na=False)
    published = published_table.set_index("id")["verdict"]
    changes = []
    for seed in seeds:
        with stats.bootstrap_seed(seed):
            verdicts = claims_module.judge(table, params).set_index("id")["verdict"]
        moved = [f"{claim}: {published[claim]} -> {verdicts[claim]} (seed {seed})" for claim in published.index
                 if verdicts[claim] != published[claim]]
        print(f"{paper_key}: bootstrap seed {seed}: {len(moved)} verdicts differ", file=sys.stderr, flush=True)
        changes += moved
    return {"paper": paper_key, "claims": len(published), "bootstrap_seeds": len(seeds),
            "verdict_changes": len(changes), "changed": "; ".join(changes),
            "verdicts_fingerprint": verdicts_fingerprint(published_table)}


def parsed_arguments(argv, description, default_seeds):
    """The papers (all of :data:`PAPERS` by default) and the bootstrap seeds a script of this kind was asked for."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("papers", nargs="*", metavar="PAPER", help=f"default: all of {', '.join(PAPERS)}")
    parser.add_argument("--seeds", type=int, default=default_seeds,
                        help=f"bootstrap seeds to judge under (default {default_seeds})")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.papers) - set(PAPERS))
    if unknown:
        parser.error(f"unknown paper(s) {', '.join(unknown)}; choose from {', '.join(PAPERS)}")
    if args.seeds < 1:
        parser.error(f"--seeds must be >= 1; got {args.seeds}")
    return args


def main(argv=None):
    args = parsed_arguments(argv, __doc__.splitlines()[0], 20)
    error = monte_carlo_error()
    rows = {MONTE_CARLO_ROW: {"paper": MONTE_CARLO_ROW, "claims": "", "bootstrap_seeds": "", "verdict_changes": "",
                              "changed": "; ".join(f"{resamples} resamples: {share:.3f}"
                                                   for resamples, share in error.items()),
                              "verdicts_fingerprint": ""}}
    seeds = [stats.BOOTSTRAP_SEED + 1 + i for i in range(args.seeds)]
    for paper_key in args.papers or PAPERS:
        rows[paper_key] = rejudge(paper_key, seeds)
        table = _merged(rows)
        RESULTS.parent.mkdir(exist_ok=True)
        table.to_csv(RESULTS, index=False)   # after each paper: an interrupted run keeps what it finished
    print(table.to_string(index=False))


def _merged(rows):
    """The record with ``rows`` (by paper) replacing those of the file as it is now, whose other rows are kept (two
    runs over different papers may share the file)."""
    found = {}
    if RESULTS.exists():
        found = {row["paper"]: row for row in pd.read_csv(RESULTS, keep_default_na=False, dtype=str).to_dict("records")}
    found.update(rows)
    return pd.DataFrame([found[MONTE_CARLO_ROW]] + [found[key] for key in PAPERS if key in found])


if __name__ == "__main__":
    main()
