"""The authors' Add-GP-UCB, run under GNU Octave, as a reference for add_gp_ucb's (10,3,3) runs (issue 43 item 1).

Kandasamy et al. published their MATLAB code (github.com/kirthevasank/add-gp-bandits, commit d248c26). This
script runs it unmodified under GNU Octave, through the driver benchmarks/octave/authors_add_gp_ucb_run.m, which
calls it the way their figure script demo/demoCustomise.m does, on their additive test function with D = 10 and
groups of 3 (the paper's (10,3,3)): Add-* (the true decomposition) and GP-UCB (one group), 10 initial points and
400 BO iterations (T = 410). The code is not part of the project and nothing is downloaded: give a local copy.

Set-up (Debian's packages; the statistics package has mvnpdf, which their test function calls):

    apt-get install --no-install-recommends octave octave-statistics
    git clone https://github.com/kirthevasank/add-gp-bandits /path/to/add-gp-bandits

Run (each run is saved as soon as it ends, so a stopped call resumes; a longer --T later replaces the shorter runs,
whose queries are its first ones):

    nice -n 19 python benchmarks/authors_add_gp_ucb.py --authors-code /path/to/add-gp-bandits --seeds 10 --T 110
    nice -n 19 python benchmarks/authors_add_gp_ucb.py --authors-code /path/to/add-gp-bandits --seeds 10
    python benchmarks/authors_add_gp_ucb.py --report      # the table from what is saved

Each run goes to data/authors_code/add_gp_ucb/<settings>/<method>-seed<k>.json (the optimum, the
function's coordinate permutation (0-based), every query and its value, CPU seconds, Octave's version, a
fingerprint of the authors' files); --report prints the mean
simple regret S_T and average regret R_T/T (the initial points count, as in their getRegrets.m) at
T = 10, 25, 50, 100, 200, 410 with the range over seeds, and writes them to
benchmarks/results/authors_add_gp_ucb.csv. The add_gp_ucb notebook draws the runs beside the project's.

Their test function draws its coordinate permutation from Octave's generator, so each seed is another instance
of the same function (the regrets do not depend on the permutation); the project's seeds draw their own.

The BLAS Octave calls rounds the last bits of their GP's linear algebra, and where the acquisition's DIRECT search
meets near-ties that decides its path: ``--blas reference`` runs Octave on Debian's reference BLAS and LAPACK (the
packages octave pulls in) whatever else is installed, and saves to data/authors_code/add_gp_ucb/<settings>-reference-blas/;
every run records the BLAS Octave reports (``version -blas``). The add_gp_ucb notebook (§4) shows where the
saved runs part from their code under the reference BLAS:

    nice -n 19 python benchmarks/authors_add_gp_ucb.py --authors-code /path/to/add-gp-bandits --seeds 20 --T 40 --blas reference
"""
import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "benchmarks" / "octave"
RUNS = ROOT / "data" / "authors_code" / "add_gp_ucb"  # read by the add_gp_ucb notebook, so under data/
TABLE = ROOT / "benchmarks" / "results" / "authors_add_gp_ucb.csv"
METHODS = {"Add-*": "add-star", "GP-UCB": "gp-ucb"}
SETTINGS = ("library", "figure")
CHECKPOINTS = (10, 25, 50, 100, 200, 410)
N_INIT = 10
AUTHORS_FOLDERS = ("addGPLibkky", "BOLibkky", "utils")
#: Debian's reference BLAS and LAPACK, found first by the dynamic linker whatever the alternatives point to.
REFERENCE_BLAS = {"LD_LIBRARY_PATH": "/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack"}
BLAS_CHOICES = ("system", "reference")


def run_path(settings, method, seed, blas="system"):
    folder = settings if blas == "system" else f"{settings}-reference-blas"
    return RUNS / folder / f"{METHODS[method]}-seed{seed}.json"


def saved_length(settings, method, seed, blas="system"):
    """The queries of the saved run (0 if none). A shorter run is the prefix of a longer one of the same seed (the
    draws do not depend on the number of iterations), so computing the longer one replaces it."""
    path = run_path(settings, method, seed, blas)
    return json.loads(path.read_text())["T"] if path.exists() else 0


def authors_fingerprint(authors_code):
    """sha256 over the authors' .m files that a run can call, so a saved run says which code made it."""
    digest = hashlib.sha256()
    for folder in AUTHORS_FOLDERS:
        for path in sorted((authors_code / folder).glob("*.m")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def check_authors_code(path):
    if path is None:
        sys.exit("--authors-code is required to compute runs: a local copy of github.com/kirthevasank/add-gp-bandits "
                 "(see this script's docstring); --report needs none")
    path = Path(path).expanduser().resolve()
    missing = [name for name in ("BOLibkky/addGPBO.m", "utils/getAdditiveFunction.m") if not (path / name).is_file()]
    if missing:
        sys.exit(f"--authors-code {path} is not a copy of add-gp-bandits: {', '.join(missing)} not found")
    return path


def octave_version():
    try:
        out = subprocess.run(["octave-cli", "--version"], capture_output=True, text=True, check=True).stdout
    except FileNotFoundError:
        sys.exit("octave-cli not found: apt-get install --no-install-recommends octave octave-statistics")
    return out.splitlines()[0]


def octave_environment(blas):
    """The environment Octave runs in: one BLAS thread, and the reference BLAS where asked."""
    return {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
            **(REFERENCE_BLAS if blas == "reference" else {})}


def octave_blas(blas):
    """The BLAS Octave reports it calls (``version -blas``) in the environment of ``blas``."""
    result = subprocess.run(["octave-cli", "--no-gui", "--quiet", "--eval", "disp(version('-blas'))"],
                            capture_output=True, text=True, env=octave_environment(blas))
    return result.stdout.strip().splitlines()[-1]


def run_one(authors_code, settings, method, seed, n_iters, blas="system"):
    """One run of the authors' code; returns its record (the optimum, the query values, CPU seconds)."""
    env = octave_environment(blas)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "values.txt"
        call = (f"addpath('{DRIVER}'); authors_add_gp_ucb_run('{authors_code}', '{method}', '{settings}', "
                f"{seed}, {n_iters}, '{out}')")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = subprocess.run(["octave-cli", "--no-gui", "--quiet", "--eval", call], capture_output=True,
                                text=True, env=env, cwd=scratch)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if result.returncode != 0:
            raise RuntimeError(f"Octave failed on {method} seed {seed}:\n{result.stderr[-2000:]}")
        numbers = [float(line) for line in out.read_text().split()]
    rows = [numbers[11 + 11 * k: 22 + 11 * k] for k in range(N_INIT + n_iters)]
    return {"method": method, "settings": settings, "seed": seed, "T": N_INIT + n_iters,
            "optimum": numbers[0], "permutation": [int(k) - 1 for k in numbers[1:11]],
            "queries": [row[:10] for row in rows], "values": [row[10] for row in rows],
            "cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
            "wall_seconds": round(time.perf_counter() - start, 1)}


def regrets(record):
    """Simple regret S_T and average regret R_T/T after each of the run's T queries (their getRegrets.m)."""
    import numpy as np

    gaps = record["optimum"] - np.asarray(record["values"])
    return np.minimum.accumulate(gaps), np.cumsum(gaps) / np.arange(1, len(gaps) + 1)


def load_runs(settings="library"):
    """Every saved run of ``settings``, as a list of records."""
    return [json.loads(path.read_text()) for path in sorted((RUNS / settings).glob("*.json"))]


def report():
    import numpy as np
    import pandas as pd

    rows = []
    for settings in SETTINGS:
        for method in METHODS:
            runs = [run for run in load_runs(settings) if run["method"] == method]
            if not runs:
                continue
            curves = [regrets(run) for run in runs]
            for T in CHECKPOINTS:
                if any(len(simple) < T for simple, _ in curves):
                    continue
                simple = np.array([s[T - 1] for s, _ in curves])
                average = np.array([a[T - 1] for _, a in curves])
                rows.append({"settings": settings, "method": method, "T": T, "seeds": len(runs),
                             "S_T mean": simple.mean(), "S_T min": simple.min(), "S_T max": simple.max(),
                             "R_T/T mean": average.mean(), "R_T/T min": average.min(), "R_T/T max": average.max(),
                             "CPU s a run": np.mean([run["cpu_seconds"] for run in runs])})
    if not rows:
        sys.exit(f"no saved runs under {RUNS}: compute some first (--authors-code)")
    table = pd.DataFrame(rows)
    table.round(4).to_csv(TABLE, index=False)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.round(3).to_string(index=False))
    print(f"written: {TABLE.relative_to(ROOT)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors-code", help="a local copy of github.com/kirthevasank/add-gp-bandits")
    parser.add_argument("--seeds", type=int, default=10, help="seeds 1..N of each method (default 10)")
    parser.add_argument("--T", type=int, default=410, help="queries a run, the 10 initial points included")
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--settings", nargs="+", default=["library"], choices=SETTINGS,
                        help="library: their library's defaults (the project's settings); figure: demoCustomise's")
    parser.add_argument("--blas", default="system", choices=BLAS_CHOICES,
                        help="system: the BLAS Octave finds; reference: Debian's reference BLAS (saved apart)")
    parser.add_argument("--report", action="store_true", help="only print the table of the saved runs")
    args = parser.parse_args()
    if args.seeds < 1:
        parser.error(f"--seeds must be at least 1, got {args.seeds}")
    if args.T <= N_INIT:
        parser.error(f"--T must exceed the {N_INIT} initial points, got {args.T}")
    if not args.report:
        authors_code = check_authors_code(args.authors_code)
        version, fingerprint = octave_version(), authors_fingerprint(authors_code)
        blas = octave_blas(args.blas)
        todo = [(settings, method, seed) for seed in range(1, args.seeds + 1) for settings in args.settings
                for method in args.methods if saved_length(settings, method, seed, args.blas) < args.T]
        print(f"{len(todo)} runs to compute ({version}; {blas}; authors' files {fingerprint})", flush=True)
        for i, (settings, method, seed) in enumerate(todo, 1):
            record = run_one(authors_code, settings, method, seed, args.T - N_INIT, args.blas)
            record.update(octave=version, blas=blas, authors_files=fingerprint)
            path = run_path(settings, method, seed, args.blas)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record) + "\n")
            print(f"[{i}/{len(todo)}] {settings} {method} seed {seed}: S_T {regrets(record)[0][-1]:.3f}, "
                  f"{record['cpu_seconds']:.0f} CPU-s", flush=True)
    report()


if __name__ == "__main__":
    main()
