"""Draw the powered confirmatory plans of issue 40 from the cached paper-scale runs.

    python -m common.plan_confirmations              # every paper with a claims module
    python -m common.plan_confirmations bo_pp egp_ts

For each paper: the published configuration without fresh seeds is loaded from the cache (any missing run is
computed first), its claims are judged, and each claim the published verdicts call inconclusive is planned by
simulation (:func:`common.confirmatory.make_powered_plan`) into ``data/confirmatory/powered/<key>.csv`` and its
runs file. Commit both before any fresh run; ``confirmatory="powered"`` then adds the runs to the grid.
"""
import argparse
import importlib

from common import confirmatory
from common.notebook import configuration
from common.runner import run_grid

PAPERS = ("add_gp_ucb", "bo_pp", "egp_ts", "mini_gp_opt", "random_exploration")


def plan_paper(paper_key):
    """Draw and save one paper's powered plan; return it."""
    experiment = importlib.import_module(f"common.experiments.{paper_key}")
    claims_module = importlib.import_module(f"common.experiments.{paper_key}_claims")
    params = configuration(experiment, confirmatory=False)
    table = run_grid(experiment.make_grid(params), experiment.run)
    return claims_module.write_powered_plan(table, params)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="*", metavar="PAPER", help=f"papers to plan (default: all): {', '.join(PAPERS)}")
    papers = parser.parse_args(argv).papers
    unknown = sorted(set(papers) - set(PAPERS))
    if unknown:
        parser.error(f"unknown paper(s) {', '.join(unknown)}; choose from {', '.join(PAPERS)}")
    for paper_key in papers or PAPERS:
        plan = plan_paper(paper_key)
        print(f"{paper_key}: {confirmatory.plan_path(paper_key, 'powered')}")
        print(plan.to_string(index=False))


if __name__ == "__main__":
    main()
