"""The committed cached runs still reproduce, and every notebook declares what its runs need.

(The smoke run of every notebook is in ``tests/test_notebook_smoke.py``, a module of its own so that pytest-xdist's
``--dist loadscope`` can give it and this module's spot-checks to different workers.)

* A spot-check recomputes one committed run of every cell of every notebook's
  published grid, its confirmatory block and its paper-scale grid (untracked
  leftovers of other configurations are ignored; every distinct value of the
  experiment module's ``CELL_FIELDS``: experiment,
  problem, method and its settings; ``SPOT_CHECK_CELL_FIELDS`` coarser for an
  experiment whose runs are all expensive) from ``data/results/<key>/``, as a prefix of
  ``SPOT_CHECK_ITERATIONS`` BO iterations (``run(config, iterations=...)``), and
  compares every stored number of that prefix bit for bit, wall times excepted.
  A run stored by another ``CODE_VERSION`` fails it: recompute the stale runs.
  Where this process computes with other BLAS kernels than a run recorded (a CPU
  without AVX-512 for the committed SkylakeX runs), or numpy's loops ran another
  SIMD target (runs cached before common/_threads.py pinned it record none, and
  many ran numpy's AVX-512 loops), bit for bit cannot hold: the
  test warns first, naming the CPU and both kernels, and compares floats to
  ``SPOT_CHECK_RTOL`` (integers, booleans and text still exactly); a run whose
  two BO iterations already query another point (a near-tie of the acquisition's
  maximum, which the last bits decide) is named in the warning, and at most
  ``SPOT_CHECK_DIVERGED_SHARE`` of the sampled runs may do so (a module may
  declare its own share, with what it measured).

The committed notebooks' own outputs are checked by nbval (``--nbval-lax`` in
pyproject.toml), which re-executes them against the committed cache.
"""
import json
import warnings

import joblib
import numpy as np
import papermill
import pytest

from common import paths, store
from common.experiments import NOTEBOOKS, load_experiment
from common.notebook import configuration

SPOT_CHECK_ITERATIONS = 2
# In this process: the suite's two xdist workers already take both cores; a pool of two each only adds start-up.
SPOT_CHECK_JOBS = 1
DEFAULT_CELL_FIELDS = ("experiment", "problem", "method")
# Results that measure time rather than compute a number.
TIMING_RESULTS = ("wall_time", "algorithm_seconds", "cpu_seconds_so_far")
# How far a recomputed float may lie from the stored one where the BLAS kernels differ: other kernels round the last
# bits differently (about 1e-16 relative a solve), which two BO iterations grow to about 1e-10 at most here.
SPOT_CHECK_RTOL = 1e-6
# ... relative to each value, or to the largest of its array where that is looser: a value near zero (a posterior
# sample crossing zero, EI's underflowing tail at 2.7e-295) moves relatively more. Measured, SkylakeX kernels against
# the Haswell-stored teaching run: 49 of 1,503 posterior-sample values beyond rtol 1e-6 alone, by at most 2.3e-7.
# The share of sampled runs that may leave that tolerance under other kernels (measured on an AVX2 EPYC under
# Haswell's kernels: 3 of random_exploration's 82 sampled runs and 3 of bo_pp's 176, each querying another point
# within its first two iterations; the other papers' none).
SPOT_CHECK_DIVERGED_SHARE = 0.1


def cpu_model():
    """The CPU's model name as /proc/cpuinfo gives it ("unknown" where it cannot be read)."""
    try:
        with open("/proc/cpuinfo") as lines:
            return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "unknown")
    except OSError:
        return "unknown"


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_the_parameters_cell_names_every_parameter_of_the_scales(key):
    """A parameter the tagged cell leaves out is invisible to a reader and makes papermill warn."""
    experiment = load_experiment(key)
    declared = papermill.inspect_notebook(str(paths.notebooks_dir() / experiment.NOTEBOOK))
    missing = sorted({name for scale in experiment.SCALES.values() for name in scale} - set(declared))
    assert not missing, f"{experiment.NOTEBOOK}: add {missing} to the cell tagged 'parameters'"


def _committed_grid_keys(module):
    """The keys of the runs a committed notebook shows or will show: the published configuration's grid, with its
    confirmatory block where the module has one, and the paper scale's grid. Other cached runs (an override's
    leftovers, e.g. of ``--scale smoke``) are not checked and take no cell's place."""
    published = configuration(module)
    grids = [module.make_grid(published), module.make_grid(configuration(module, "paper"))]
    if "confirmatory" in published:
        grids.append(module.make_grid({**published, "confirmatory": True}))
    return {store.run_key(config) for grid in grids for config in grid}


def _cell_of(module, config):
    names = getattr(module, "SPOT_CHECK_CELL_FIELDS", {}).get(config.get("experiment"),
                                                               getattr(module, "CELL_FIELDS", DEFAULT_CELL_FIELDS))
    if names is None:  # every run its own cell
        names = sorted(config)
    return tuple((name, json.dumps(config.get(name))) for name in names)


def _cells(module, runs):
    """One stored run per cell: the cheapest (then first by key), so the check stays within seconds.

    A module's ``SPOT_CHECK_CELL_FIELDS`` can name coarser cells for an experiment whose
    every run is expensive (e.g. egp_ts's FNN tuning: one run per data set, not per method).
    """
    cells = {}
    for run in sorted(runs, key=lambda run: (run.cost_seconds, run.key)):
        cells.setdefault(_cell_of(module, run.config), run)
    return list(cells.values())


def _recompute_prefix(key, config):
    return load_experiment(key).run(config, iterations=SPOT_CHECK_ITERATIONS)


def _same_numerics(stored, versions):
    """Whether this process (``versions``, :func:`common.store.process_versions`) computes as the run did: the same
    BLAS kernels and the same SIMD target of numpy's loops (unknown for runs cached before it was recorded)."""
    return stored.kernels == versions["kernels"] and stored.versions.get("numpy_simd") == versions["numpy_simd"]


def _assert_prefix_equal(stored, recomputed, versions):
    """Every number of the recomputed prefix against the stored run's: bit for bit where this process computes as
    the run did (:func:`_same_numerics`), else floats to :data:`SPOT_CHECK_RTOL` of each value or of its array's
    largest absolute value."""
    kernels = versions["kernels"]
    names = sorted(set(stored.result) - set(TIMING_RESULTS))
    assert sorted(set(recomputed) - set(TIMING_RESULTS)) == names, stored.key
    n_evals = len(recomputed[stored.traces[0]]) if stored.traces else None
    exact = _same_numerics(stored, versions)
    for name in names:
        ours, theirs = np.asarray(recomputed[name]), np.asarray(stored.result[name])
        if n_evals is not None and ours.ndim >= 1 and len(ours) == n_evals:
            theirs = theirs[:n_evals]  # a per-evaluation array: compare the recomputed prefix
        elif n_evals is not None and n_evals < stored.n_evals:
            continue  # a summary of the whole run (e.g. a final value): not defined by the prefix
        where = f"run {stored.key}, result {name!r}"
        if exact or ours.dtype.kind not in "fc":
            np.testing.assert_array_equal(ours, theirs, err_msg=f"{where}, bit for bit", strict=True)
        else:
            atol = SPOT_CHECK_RTOL * np.max(np.abs(theirs[np.isfinite(theirs)]), initial=0.0)
            np.testing.assert_allclose(ours, theirs, rtol=SPOT_CHECK_RTOL, atol=atol, strict=True, err_msg=(
                f"{where}: stored under {stored.kernels} kernels (numpy {stored.versions.get('numpy_simd', 'unrecorded')}), "
                f"recomputed under {kernels} (numpy {versions['numpy_simd']}) on {cpu_model()}, "
                f"compared to rtol {SPOT_CHECK_RTOL:g} of each value or of the array's largest"))


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_every_cell_of_the_cache_recomputes_to_the_stored_numbers(key, monkeypatch):
    monkeypatch.delenv(paths.RESULTS_ROOT_VARIABLE, raising=False)  # the committed cache
    runs = store.scan(key)
    if not runs:
        pytest.skip(f"no cached runs in data/results/{key}/")
    module = load_experiment(key)
    stale = sorted(run.key for run in runs if run.code_version != module.CODE_VERSION)
    assert not stale, (f"{len(stale)} cached runs of {key} were computed by another CODE_VERSION than "
                       f"{module.CODE_VERSION}, e.g. {stale[:3]}; recompute them (reproduce.py --runs-only)")
    committed = _committed_grid_keys(module)
    cells = _cells(module, [run for run in runs if run.key in committed])
    published_cells = {_cell_of(module, config) for config in module.make_grid(configuration(module))}
    unchecked = published_cells - {_cell_of(module, run.config) for run in cells}
    assert not unchecked, f"{len(unchecked)} published cells of {key} have no cached run, e.g. {sorted(unchecked)[:2]}"
    versions = store.process_versions()
    kernels = versions["kernels"]
    other = sorted({f"{run.kernels} (numpy {run.versions.get('numpy_simd', 'unrecorded')})" for run in cells
                    if not _same_numerics(run, versions)})
    if other:
        warnings.warn(f"{key}: this CPU ({cpu_model()}) computes with OpenBLAS's {kernels} kernels and numpy's "
                      f"{versions['numpy_simd']} loops, some cached runs with {', '.join(other)}: their last bits "
                      f"may differ, so the spot-check compares their floats to rtol {SPOT_CHECK_RTOL:g} instead of "
                      f"bit for bit", stacklevel=1)
    recomputed = joblib.Parallel(n_jobs=SPOT_CHECK_JOBS)(
        joblib.delayed(_recompute_prefix)(key, run.config) for run in cells)
    diverged = []
    for stored, result in zip(cells, recomputed):
        try:
            _assert_prefix_equal(stored, result, versions)
        except AssertionError as exc:
            if _same_numerics(stored, versions):
                raise
            diverged.append(f"{stored.key}: {str(exc).strip().splitlines()[0][:200]}")
    if diverged:
        warnings.warn(f"{key}: {len(diverged)} of {len(cells)} sampled runs left rtol {SPOT_CHECK_RTOL:g} under "
                      f"{kernels} kernels: " + "; ".join(diverged), stacklevel=1)
    allowed = getattr(module, "SPOT_CHECK_DIVERGED_SHARE", SPOT_CHECK_DIVERGED_SHARE)
    assert len(diverged) <= allowed * len(cells), (
        f"{key}: {len(diverged)} of {len(cells)} sampled runs differ from the cache beyond rtol {SPOT_CHECK_RTOL:g} "
        f"under {kernels} kernels on {cpu_model()} (allowed: {allowed:.0%}): " + "; ".join(diverged))


def test_the_teaching_figures_arrays_recompute_to_the_stored_ones():
    from common.experiments import bo_basics
    stored = store.cached_run(bo_basics.TEACHING_CONFIG, bo_basics.CODE_VERSION, root=bo_basics.TEACHING_ROOT)
    assert stored is not None, f"no cached teaching run in {bo_basics.TEACHING_ROOT}; run notebooks/bo_basics.ipynb"
    _assert_prefix_equal(stored, bo_basics.teaching_run(bo_basics.TEACHING_CONFIG), store.process_versions())


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_every_block_names_its_budget_so_that_cost_estimates_scale_with_it(key):
    from common.runner import BUDGET_FIELDS
    module = load_experiment(key)
    unbudgeted = {config["experiment"] for config in module.make_grid(configuration(module, "paper"))
                  if not set(config) & set(BUDGET_FIELDS)}
    assert not unbudgeted, f"{key}: blocks {sorted(unbudgeted)} have none of {BUDGET_FIELDS}"


NUMERIC_MODULES = ("numpy", "scipy", "pandas", "matplotlib", "seaborn", "sklearn")


def _imported_modules(source):
    """The top-level modules a cell imports, in order (IPython magics and shell lines skipped)."""
    import ast
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
    modules = []
    for node in ast.walk(ast.parse(code)):  # the cell's own statements first, in order, then nested ones
        if isinstance(node, ast.Import):
            modules += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.append(node.module.split(".")[0])
    return modules


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_every_notebook_imports_common_before_numpy(key):
    """`common` pins OpenBLAS's threads and kernels only if it loads before numpy (common/_threads.py); a kernel
    started by Jupyter or papermill, not by reproduce.py, has nothing else to pin them."""
    import nbformat
    notebook = nbformat.read(paths.notebooks_dir() / load_experiment(key).NOTEBOOK, as_version=4)
    imported = [name for cell in notebook.cells if cell.cell_type == "code"
                for name in _imported_modules(cell.source)]
    first_numeric = next((at for at, name in enumerate(imported) if name in NUMERIC_MODULES), len(imported))
    assert "common" in imported[:first_numeric], (
        f"{key}: the first import of {imported[first_numeric]} comes before any import of common; make "
        f"`import common` the first line of the import cell")


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_every_parameter_has_an_allowed_range_checked_before_any_run(key):
    """A value out of range stops the notebook (and reproduce.py, exit 2) before anything is computed, rather than
    failing with a traceback after caching runs (issue 29: ``-p noise_beta -1.0``)."""
    module = load_experiment(key)
    unchecked = [name for name in next(iter(module.SCALES.values())) if name not in getattr(module, "ALLOWED", {})]
    assert not unchecked, f"{key}: add {unchecked} to ALLOWED in its experiment module"
