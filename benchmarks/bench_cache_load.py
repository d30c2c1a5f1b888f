"""Load each paper's published grid from run files and from packs, side by side (issue 62 item 5).

For every paper, the runs of its folder in the committed cache are laid out twice in a temporary cache: once as
run files (one ``.npz`` per run, as the cache held them before packs) and once as packs (one per block,
``python -m common.pack_runs``). A fresh process then loads the published grid from each (``runner.run_grid``
with every run cached: what a notebook does first), timed in wall and CPU seconds; the two alternate, three
times each, and the median is printed with the files and bytes of each layout. The committed cache is read,
never changed. With ``--record`` the table goes to ``benchmarks/results/cache_load.csv``, beside the committed
cache's own file count and bytes. Run it on a quiet machine, from the repository root:

    python benchmarks/bench_cache_load.py --record     # about 10 minutes on 2 cores (10.5 min on 2026-12-07)
"""
from common import _threads  # noqa: F401  (one BLAS thread, before numpy loads)

import argparse  # noqa: E402
import csv  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from common import paths, run_packs, store  # noqa: E402
from common.experiments import NOTEBOOKS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "benchmarks" / "results" / "cache_load.csv"
REPEATS = 3
# Run in a fresh process: the published grid of one notebook loaded from the cache BO_RESULTS_ROOT names.
LOAD = """
from common import _threads
import json, sys, time
start_wall, start_cpu = time.perf_counter(), time.process_time()
from common import runner
from common.experiments import load_experiment
from common.notebook import configuration
module = load_experiment(sys.argv[1])
params = configuration(module)
grid = module.notebook_grid(params)[0] if hasattr(module, "notebook_grid") else module.make_grid(params)
imported_wall, imported_cpu = time.perf_counter(), time.process_time()
table = runner.run_grid(grid, module.run, progress=False, n_jobs=1)
counts = runner.run_counts()
assert counts["computed"] == 0, counts
print(json.dumps({"runs": len(grid), "rows": len(table), "wall": time.perf_counter() - imported_wall,
                  "cpu": time.process_time() - imported_cpu}))
"""


def stored_runs(paper_key):
    """Every run of a paper in the committed cache as ``(key, config_json, meta_json, checksum, arrays)``."""
    folder = paths.results_dir(paper_key)
    runs = {}
    for path in store.pack_paths(folder):
        for parts in run_packs.read_pack(path):
            runs[parts[0]] = parts
    for path in sorted(folder.glob("*.npz")):
        with np.load(path, allow_pickle=False) as npz:
            runs.setdefault(path.stem, (path.stem, str(npz[store._CONFIG_ENTRY]), str(npz[store._META_ENTRY]),
                                        str(npz[store._CHECKSUM_ENTRY]),
                                        {name[len(store._ARRAY_PREFIX):]: npz[name] for name in npz.files
                                         if name.startswith(store._ARRAY_PREFIX)}))
    return [runs[key] for key in sorted(runs)]


def lay_out(runs, root, paper_key, packed):
    """Write ``runs`` into the cache ``root`` as run files or as packs (one per block); return (files, bytes)."""
    folder = root / paper_key
    folder.mkdir(parents=True)
    shutil.copy(paths.results_root() / store.NUMERIC_RECORD, root / store.NUMERIC_RECORD)
    if packed:
        blocks = defaultdict(list)
        for parts in runs:
            blocks[json.loads(parts[1])["experiment"]].append(parts)
        for block, block_runs in blocks.items():
            run_packs.write_pack(folder / run_packs.PACK_FOLDER / f"{block}-001.npz", block_runs)
    else:
        for key, config_json, meta_json, checksum, arrays in runs:
            payload = {store._ARRAY_PREFIX + name: array for name, array in arrays.items()}
            np.savez_compressed(folder / f"{key}.npz", **payload, **{
                store._CONFIG_ENTRY: np.asarray(config_json), store._META_ENTRY: np.asarray(meta_json),
                store._CHECKSUM_ENTRY: np.asarray(checksum)})
    files = [path for path in folder.rglob("*.npz")]
    return len(files), sum(path.stat().st_size for path in files)


def time_load(paper_key, root):
    environment = {**os.environ, paths.RESULTS_ROOT_VARIABLE: str(root)}
    finished = subprocess.run([sys.executable, "-c", LOAD, paper_key], cwd=ROOT, env=environment,
                              capture_output=True, text=True)
    if finished.returncode != 0:
        raise SystemExit(f"error: loading {paper_key}'s grid from {root} failed:\n{finished.stderr[-3000:]}")
    return json.loads(finished.stdout.strip().splitlines()[-1])


def committed_files():
    files = [path for path in paths.results_root().rglob("*") if path.is_file()]
    return len(files), sum(path.stat().st_size for path in files)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("papers", nargs="*", default=[key for key in NOTEBOOKS if paths.results_dir(key).is_dir()],
                        help="paper keys (default: every notebook with cached runs)")
    parser.add_argument("--record", action="store_true", help=f"write the table to {RECORD.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    rows = []
    print("| paper | runs in grid | run files | files | MB | load wall s | load CPU s | packs | files | MB "
          "| load wall s | load CPU s | wall ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for paper_key in args.papers:
        runs = stored_runs(paper_key)
        with tempfile.TemporaryDirectory() as scratch:
            layouts = {}
            for packed in (False, True):
                root = Path(scratch) / ("packs" if packed else "files")
                layouts[packed] = (root, *lay_out(runs, root, paper_key, packed))
            timings = {False: [], True: []}
            for _ in range(REPEATS):
                for packed in (False, True):
                    timings[packed].append(time_load(paper_key, layouts[packed][0]))
        row = {"paper": paper_key, "runs in grid": timings[True][0]["runs"]}
        for packed, name in ((False, "run files"), (True, "packs")):
            row[f"{name}: files"] = layouts[packed][1]
            row[f"{name}: MB"] = round(layouts[packed][2] / 1e6, 1)
            row[f"{name}: load wall s"] = round(statistics.median(t["wall"] for t in timings[packed]), 2)
            row[f"{name}: load CPU s"] = round(statistics.median(t["cpu"] for t in timings[packed]), 2)
        row["wall ratio (packs / run files)"] = round(row["packs: load wall s"] / row["run files: load wall s"], 3)
        rows.append(row)
        print("| " + " | ".join(str(value) for value in row.values()) + " |", flush=True)
    files, size = committed_files()
    print(f"\nthe committed cache data/results/ now: {files:,} files, {size / 1e6:.1f} MB")
    if args.record:
        with open(RECORD, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(rows[0]) + ["committed cache: files", "committed cache: MB"])
            writer.writeheader()
            for row in rows:
                writer.writerow({**row, "committed cache: files": files, "committed cache: MB": round(size / 1e6, 1)})
        print(f"recorded in {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
