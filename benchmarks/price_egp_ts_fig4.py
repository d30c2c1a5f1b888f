"""The price of egp_ts's Fig. 4 at the paper's setting, from the runs cached so far (issue 65).

Not a timing of our code: a count of CPU seconds the cached runs recorded. Fig. 4 first ran reduced, training each
evaluation's network 3 times for 30 evaluations after the 10 initial points (kept as an ablation); the paper trains it
10 times and (spec U1) runs 50 evaluations, the published setting since the grid completed. Per data set and block (the BO methods' ``fnn``, random search's ``random_search``), this
script counts the runs at the paper's setting cached so far and their mean CPU seconds a run beside the reduced
block's, prices the missing ones (``common.runner.estimate_cost``: from cached runs of the same setting where there
are any, else from the nearest settings, other data sets' included) and again as the reduced block's own runs
times the median ratio measured so far, and says the CPU-hours spent and left. One row per data set and block in
results/egp_ts_fig4_price.csv, and a total row.

    python benchmarks/price_egp_ts_fig4.py    # a few seconds: it reads the runs' metadata, not their arrays
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import _threads  # noqa: F401,E402  (pins BLAS and numpy's SIMD before numpy loads)
import pandas as pd  # noqa: E402

from common import run_records  # noqa: E402
from common.experiments import egp_ts as experiment  # noqa: E402
from common.notebook import configuration  # noqa: E402
from common.runner import code_version, estimate_cost  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "egp_ts_fig4_price.csv"
#: Fig. 4's block alone at the paper's setting (10 trainings an evaluation, App. E; 50 evaluations, spec U1) and at the
#: reduced one it first ran at.
PAPER_SETTING = {"fnn_training_runs": experiment.PAPER_FNN_TRAINING_RUNS, "fnn_T": experiment.PAPER_FNN_EVALUATIONS,
                 "fnn_reduced_ablation_seeds": 0}
REDUCED_SETTING = {"fnn_training_runs": experiment.REDUCED_FNN_TRAINING_RUNS,
                   "fnn_T": experiment.REDUCED_FNN_EVALUATIONS, "fnn_reduced_ablation_seeds": 0}
BLOCKS = ("fnn", "random_search")


def fig4_runs(params):
    """The Fig. 4 runs (both blocks) of the grid of ``params``."""
    return [config for config in experiment.make_grid(params) if config["experiment"] in BLOCKS]


def main():
    published = configuration(experiment)
    version = code_version(experiment.run)
    paper = fig4_runs({**published, **PAPER_SETTING})
    reduced = fig4_runs({**published, **REDUCED_SETTING})
    rows = []
    for block in BLOCKS:
        for dataset in published["fnn_datasets"]:
            at_paper = [config for config in paper if config["experiment"] == block and config["problem"] == dataset]
            at_reduced = [config for config in reduced
                          if config["experiment"] == block and config["problem"] == dataset]
            paper_records = [record for config in at_paper if (record := run_records.record_of(config, version))]
            reduced_records = [record for config in at_reduced if (record := run_records.record_of(config, version))]
            paper_cost = (sum(record.cost_seconds for record in paper_records) / len(paper_records)
                          if paper_records else float("nan"))
            reduced_cost = (sum(record.cost_seconds for record in reduced_records) / len(reduced_records)
                            if reduced_records else float("nan"))
            left = estimate_cost(at_paper, experiment.run)
            rows.append({"block": block, "data set": dataset, "runs": len(at_paper), "cached": len(paper_records),
                         "CPU s a run, paper's setting": round(paper_cost, 1),
                         "CPU s a run, reduced": round(reduced_cost, 1),
                         "ratio": round(paper_cost / reduced_cost, 2) if paper_records and reduced_records else "",
                         "CPU h spent": round(sum(record.cost_seconds for record in paper_records) / 3600, 2),
                         "CPU h left (estimate)": round(left.cpu_seconds / 3600, 2),
                         "unpriced runs": left.n_unestimated})
    table = pd.DataFrame(rows)
    # The estimator prices a missing run from cached runs of the nearest settings, other data sets included; the
    # reduced block's own runs scaled by the ratio measured so far price each data set from its own trainings.
    measured = pd.to_numeric(table["ratio"], errors="coerce").dropna()
    ratio = float(measured.median()) if not measured.empty else float("nan")
    table["CPU h left (reduced x median ratio)"] = (
        (table["runs"] - table["cached"]) * table["CPU s a run, reduced"] * ratio / 3600).round(2)
    total = {"block": "all", "data set": "", "runs": table["runs"].sum(), "cached": table["cached"].sum(),
             "CPU s a run, paper's setting": "", "CPU s a run, reduced": "", "ratio": "",
             "CPU h spent": round(table["CPU h spent"].sum(), 2),
             "CPU h left (estimate)": round(table["CPU h left (estimate)"].sum(), 2),
             "unpriced runs": table["unpriced runs"].sum(),
             "CPU h left (reduced x median ratio)": round(table["CPU h left (reduced x median ratio)"].sum(), 2)}
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    RESULTS.parent.mkdir(exist_ok=True)
    table.to_csv(RESULTS, index=False)
    print(table.to_string(index=False))
    print(f"median ratio of a run's CPU seconds, paper's setting / reduced, over {len(measured)} data sets: {ratio:.2f}")


if __name__ == "__main__":
    main()
