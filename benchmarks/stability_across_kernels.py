"""How far a paper's verdicts move when its runs are recomputed under other BLAS kernels (issue 29).

The committed cache was computed with OpenBLAS's SkylakeX kernels (common/_threads.py); another CPU, or
another OPENBLAS_CORETYPE, rounds differently in the last bits, and a BO run then queries other points after
a few iterations. This script recomputes a stratified sample of a paper's published runs under another kernel
(one BLAS thread, as always), in a cache of its own (output/stability/<kernel>/, never data/results/),
swaps them into the published table in place of the committed runs, judges every claim on both tables and
prints what changed: verdicts, judged cells, and how far the cells' effects moved, in units of their margins;
the numbers go to benchmarks/results/stability_across_kernels.csv (one row per paper and kernel), which docs/reproducibility.md
quotes.

    nice -n 19 python benchmarks/stability_across_kernels.py mini_gp_opt --fraction 0.2
    python benchmarks/stability_across_kernels.py mini_gp_opt --fraction 0.2 --report   # from what is cached

The sample is the same on every call (seeded), and the recomputed runs are cached, so a stopped call resumes.
It costs the sampled fraction of the paper's CPU-hours (`python reproduce.py --list`): run it in the background.
"""
import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import _threads  # noqa: E402  (pins the committed cache's kernels in this process)
from common import paths  # noqa: E402


def sample(module, grid, fraction, seed=0):
    """About ``fraction`` of the grid's runs, at least one per cell (the module's CELL_FIELDS), seeded."""
    import numpy as np

    fields = getattr(module, "CELL_FIELDS", ("experiment", "problem", "method"))
    cells = {}
    for config in grid:
        cells.setdefault(tuple(json.dumps(config.get(name)) for name in fields), []).append(config)
    rng = np.random.default_rng(seed)
    chosen = []
    for configs in cells.values():
        count = max(1, round(fraction * len(configs)))
        chosen += [configs[i] for i in sorted(rng.choice(len(configs), size=count, replace=False))]
    return chosen


def stability_root(kernel):
    return ROOT / "output" / "stability" / kernel


def recompute(key, fraction, kernel, jobs):
    """Compute the sample in a child process that loads numpy's and scipy's OpenBLAS under ``kernel`` before
    common can pin them, as on a CPU that has other kernels."""
    script = (f"import numpy\nimport scipy.linalg\nimport sys\nsys.path.insert(0, {str(ROOT)!r})\n"
              f"sys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n"
              f"import stability_across_kernels as s\ns._compute_sample({key!r}, {fraction!r}, {jobs!r})\n")
    environment = {**os.environ, "OPENBLAS_CORETYPE": kernel, paths.RESULTS_ROOT_VARIABLE: str(stability_root(kernel))}
    subprocess.run([sys.executable, "-c", script], env=environment, check=True)


def _compute_sample(key, fraction, jobs):
    from common.experiments import load_experiment
    from common.notebook import configuration
    from common.runner import run_grid

    module = load_experiment(key)
    print(f"{key}: kernels {_threads.blas_kernels()}", flush=True)
    run_grid(sample(module, module.make_grid(configuration(module)), fraction), module.run, n_jobs=jobs)


def report(key, fraction, kernel):
    """The claims judged on the committed table and on the table with the sample swapped in, side by side."""
    import pandas as pd

    from common import store
    from common.experiments import load_experiment
    from common.notebook import configuration, published_label

    module = load_experiment(key)
    params = configuration(module)
    claims_module = importlib.import_module(f"common.experiments.{key}_claims")
    grid = module.make_grid(params)
    committed = store.tidy_table([store.load_run(config) for config in grid])
    os.environ[paths.RESULTS_ROOT_VARIABLE] = str(stability_root(kernel))
    sampled = sample(module, grid, fraction)
    recomputed_runs = [store.cached_run(config) for config in sampled]
    os.environ.pop(paths.RESULTS_ROOT_VARIABLE)
    recomputed_runs = [run for run in recomputed_runs if run is not None]
    recomputed = store.tidy_table(recomputed_runs)
    swapped = pd.concat([committed[~committed["run_key"].isin(recomputed["run_key"])], recomputed],
                        ignore_index=True)
    before, after = claims_module.judge(committed, params), claims_module.judge(swapped, params)
    cells_before, cells_after = before.attrs.get("effects"), after.attrs.get("effects")
    # Plain frames: the verdict tables carry frames in .attrs, which pandas cannot compare when merging.
    before, after = (pd.DataFrame(table[["id", "verdict"]].to_dict("list")) for table in (before, after))
    verdicts = before.merge(after, on="id", suffixes=(" committed", " swapped"))
    changed = verdicts[verdicts["verdict committed"] != verdicts["verdict swapped"]]
    print(f"{key}: {len(recomputed_runs)} of the {len(sampled)} sampled runs recomputed under {kernel} "
          f"({len(recomputed_runs) / len(grid):.0%} of {len(grid)}); kernels {recomputed_runs[0].versions.get('blas')}")
    print(f"verdicts changed: {len(changed)} of {len(verdicts)}")
    if not changed.empty:
        print(changed.to_string(index=False))
    found = {"paper": key, "published": published_label(module.PUBLISHED), "kernel": kernel, "fraction": fraction,
             "runs_recomputed": len(recomputed_runs),
             "runs_sampled": len(sampled), "runs_in_grid": len(grid), "verdicts_changed": len(changed), "verdicts": len(verdicts),
             "changed": "; ".join(f"{name}: {old} -> {new}" for name, old, new in changed.to_numpy())}
    if cells_before is not None and cells_after is not None and len(cells_before):
        cells = pd.DataFrame(cells_before.to_dict("list")).merge(pd.DataFrame(cells_after.to_dict("list")),
                                                                 on=["id", "cell"], suffixes=(" committed", " swapped"))
        moves = effect_moves(cells)
        largest = moves.idxmax()
        found.update(cells_changed=int((cells["judgement committed"] != cells["judgement swapped"]).sum()),
                     cells=len(cells), largest_effect_change_in_margins=round(float(moves.max()), 3),
                     largest_effect_change_cell=f"{cells.loc[largest, 'id']}: {cells.loc[largest, 'cell']}",
                     median_effect_change_in_margins=round(float(moves.median()), 3))
        print(f"judged cells changed: {found['cells_changed']} of {found['cells']}")
        moved = cells[cells["judgement committed"] != cells["judgement swapped"]]
        for row in moved.to_dict("records"):
            print(f"  {row['id']}: {row['cell']}: {row['judgement committed']} -> {row['judgement swapped']}")
        print(f"effects moved by {found['median_effect_change_in_margins']:g} margins in the median cell, at most "
              f"{found['largest_effect_change_in_margins']:g} ({found['largest_effect_change_cell']})")
    if len(recomputed_runs) < len(sampled):
        print(f"not recorded: {len(sampled) - len(recomputed_runs)} of the {len(sampled)} sampled runs are not "
              f"recomputed yet (the grid may have grown since); run without --report to compute them")
        return
    record(found)


def effect_moves(cells):
    """How far each cell's effect moved, in units of its margin: for a ratio of means the factor between the two
    estimates on the margin's log scale (|log(after / before)| / log(1 + margin)), for a difference
    |after - before| / margin."""
    import numpy as np

    before, after = cells["estimate committed"], cells["estimate swapped"]
    margin = cells["margin committed"]
    ratio = cells["scale committed"] == "ratio"
    moved = (after - before).abs() / margin
    moved[ratio] = np.abs(np.log(after[ratio] / before[ratio])) / np.log1p(margin[ratio])
    return moved


def record(found):
    """Keep a paper's latest measurement in benchmarks/results/stability_across_kernels.csv (one row per paper and
    kernel), the numbers docs/reproducibility.md quotes."""
    import pandas as pd

    path = ROOT / "benchmarks" / "results" / "stability_across_kernels.csv"
    table = pd.read_csv(path) if path.exists() else pd.DataFrame()
    if len(table):
        table = table[~((table["paper"] == found["paper"]) & (table["kernel"] == found["kernel"]))]
    pd.concat([table, pd.DataFrame([found])], ignore_index=True).to_csv(path, index=False)
    print(f"recorded in {path.relative_to(ROOT)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paper", help="a paper key with a claims module, e.g. mini_gp_opt")
    parser.add_argument("--fraction", type=float, default=0.2, help="share of each cell's runs to recompute")
    parser.add_argument("--kernel", default="Haswell", help="the OPENBLAS_CORETYPE to recompute under")
    parser.add_argument("--jobs", type=int, default=1, help="local processes for the recomputation")
    parser.add_argument("--report", action="store_true", help="only compare, from what is cached")
    args = parser.parse_args()
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction must be in (0, 1]; got {args.fraction}")
    if args.kernel == _threads.BLAS_CORETYPE:
        parser.error(f"--kernel must differ from the committed cache's {_threads.BLAS_CORETYPE}")
    if not args.report:
        recompute(args.paper, args.fraction, args.kernel, args.jobs)
    report(args.paper, args.fraction, args.kernel)


if __name__ == "__main__":
    main()
