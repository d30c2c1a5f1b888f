"""Run a grid of experiment configurations: load what is cached, compute what is missing.

:func:`run_grid` is what a notebook calls with its experiment grid. Runs already
in the result store (:mod:`common.store`) are loaded; the others are computed in
parallel, with joblib (loky processes) on the local cores by default, or on an
existing Dask cluster given its scheduler address. Each result is written by the
calling process as soon as it arrives, so stopping a long grid loses only the
runs in flight, and running it again computes only what is missing.

The run function is an importable module-level function ``run_fn(config) -> dict``
(worker processes import it by name). It must be deterministic given the
configuration (randomness from :func:`common.seeding.make_rng` keyed by it);
every process computes with one BLAS thread, so the results are bit-identical
whichever backend or number of workers computes them.
"""
import copy
import importlib
import sys
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass, field

import joblib
import numpy as np
from tqdm import tqdm

from common import _threads, store
from common.seeding import canonical_json

_counts = {"loaded": 0, "computed": 0}

# Fields that still describe the cost of a run when the exact settings were never
# recorded, from the finest to the coarsest (used by estimate_cost).
# A budget field ("T") is kept where configurations have one, since it scales the cost.
_COARSER_MATCHES = (("paper", "experiment", "problem", "method"), ("paper", "experiment", "problem", "T"),
                    ("paper", "experiment", "method"), ("paper", "experiment", "problem"),
                    ("paper", "experiment"))


class RunFailedError(RuntimeError):
    """A run function raised; the message holds the run's configuration and the traceback."""


def run_counts():
    """Runs loaded from the cache and computed by :func:`run_grid` in this process so far."""
    return dict(_counts)


def reset_run_counts():
    """Set the counters of :func:`run_counts` back to zero."""
    for name in _counts:
        _counts[name] = 0


def check_backend(n_jobs=None, dask_address=None):
    """Validate the backend arguments of :func:`run_grid`; return the number of local workers.

    Returns
    -------
    int or None
        The number of local processes, or None when a Dask cluster computes.
    """
    if dask_address is not None:
        if not isinstance(dask_address, str) or not dask_address.strip():
            raise ValueError(f"dask_address must be a scheduler address such as 'tcp://10.0.0.5:8786'; "
                             f"got {dask_address!r}")
        if n_jobs is not None:
            raise ValueError(f"give either n_jobs (local processes) or dask_address (a Dask cluster), not both; "
                             f"got n_jobs={n_jobs!r} and dask_address={dask_address!r}")
        return None
    if n_jobs is None:
        return joblib.cpu_count()
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise ValueError(f"n_jobs must be None (all {joblib.cpu_count()} local cores) or an int >= 1; got {n_jobs!r}")
    return int(n_jobs)


def code_version(run_fn):
    """``CODE_VERSION`` of the module that defines ``run_fn`` (see :mod:`common.store`)."""
    module = sys.modules.get(getattr(run_fn, "__module__", None))
    version = getattr(module, "CODE_VERSION", None)
    if version is None:
        raise ValueError(f"the module {run_fn.__module__} of run function {run_fn.__qualname__} must define "
                         f"CODE_VERSION = 1 (an int, raised whenever a change alters the numbers of its runs)")
    return store.check_code_version(version)


def _check_importable(run_fn):
    if not callable(run_fn):
        raise TypeError(f"run_fn must be a function run_fn(config) -> dict; got {run_fn!r}")
    module_name = getattr(run_fn, "__module__", None)
    qualified_name = getattr(run_fn, "__qualname__", "")
    problem = None
    if module_name in (None, "__main__") or not qualified_name or "<" in qualified_name:
        problem = "it is not defined at module level of an importable module"
    else:
        try:
            found = importlib.import_module(module_name)
            for part in qualified_name.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            found = None
        if found is not run_fn:
            problem = f"{module_name}.{qualified_name} does not import as this function"
    if problem:
        raise ValueError(
            f"run_fn must be a module-level function of an importable module (e.g. a function in "
            f"common/experiments/), so that worker processes can import it; got {run_fn!r}: {problem}"
        )


def _unique_configs(configs):
    if isinstance(configs, dict) or not hasattr(configs, "__iter__"):
        raise TypeError(f"configs must be a list of configuration dicts; got {type(configs).__name__}")
    unique = {}
    for config in configs:
        unique.setdefault(store.run_key(config), config)  # run_key validates the configuration
    if not unique:
        raise ValueError("configs is empty; the grid has no runs")
    return unique


@dataclass
class _Outcome:
    index: int
    result: dict = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    error: str = None
    exception: BaseException = field(default=None, repr=False)


def _execute(run_fn, index, config):
    """Run one configuration in a worker (or in process) and time it; never raises."""
    _threads.pin_blas_threads()
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        # A copy, so that a run function mutating its configuration cannot change the key it is stored under.
        result = run_fn(copy.deepcopy(config))
    except Exception as exc:
        return _Outcome(index, error=traceback.format_exc(), exception=exc)
    return _Outcome(index, result=result, seconds=time.perf_counter() - start,
                    cpu_seconds=time.process_time() - cpu_start)


def _outcomes_in_process(run_fn, missing):
    for index, config in enumerate(missing):
        yield _execute(run_fn, index, config)


def _outcomes_joblib(run_fn, missing, n_workers):
    # One BLAS thread per worker regardless of how many workers share the cores.
    with joblib.parallel_config(backend="loky", inner_max_num_threads=1):
        outcomes = joblib.Parallel(n_jobs=n_workers, return_as="generator_unordered")(
            joblib.delayed(_execute)(run_fn, index, config) for index, config in enumerate(missing)
        )
        try:
            yield from outcomes
        finally:
            outcomes.close()  # cancels the runs not yet started when the caller stops early


def _outcomes_dask(run_fn, missing, dask_address):
    from distributed import Client, as_completed

    with Client(dask_address, set_as_default=False) as client:
        futures = client.map(_execute, [run_fn] * len(missing), range(len(missing)), missing, pure=False)
        try:
            for future in as_completed(futures, loop=client.loop):
                yield future.result()
        finally:
            client.cancel(futures)


def _progress_bar(n_missing, n_cached, paper_keys, enabled):
    # The text bar on stderr works in terminals and in papermill kernels alike.
    return tqdm(total=n_missing, desc=f"{'/'.join(paper_keys)}: computing", unit="run", file=sys.stderr,
                disable=not enabled, postfix={"cached": n_cached}, smoothing=0.1)


def run_grid(configs, run_fn, *, n_jobs=None, dask_address=None, progress=True, recompute=False):
    """Load or compute every run of a grid and return the tidy table of all of them.

    Parameters
    ----------
    configs : list of dict
        Run configurations (see :func:`common.store.validate_config`). Duplicates
        are run once and appear once in the table.
    run_fn : callable
        Module-level function ``run_fn(config) -> dict`` of an importable module.
    n_jobs : int or None, default=None
        Local worker processes (None: all local cores). With 1, or a single
        missing run, runs are computed in this process.
    dask_address : str or None, default=None
        Scheduler address of an existing Dask cluster to compute on instead; its
        workers must be able to import ``run_fn``.
    progress : bool, default=True
        Show a tqdm progress bar on stderr (runs done, left, ETA) while runs are
        computed; nothing is printed when every run is cached.
    recompute : bool, default=False
        Compute every run again even if cached, replacing the stored files.

    Returns
    -------
    pandas.DataFrame
        :func:`common.store.tidy_table` of the runs in the order of ``configs``,
        read from the stored files (so cached and fresh runs look alike).

    Raises
    ------
    RunFailedError
        If a run function raises; the message gives the configuration. Runs
        that finished before are saved.
    """
    n_workers = check_backend(n_jobs, dask_address)
    _check_importable(run_fn)
    version = code_version(run_fn)
    unique = _unique_configs(configs)

    runs = {} if recompute else {key: store.cached_run(config, version) for key, config in unique.items()}
    runs = {key: run for key, run in runs.items() if run is not None}
    _counts["loaded"] += len(runs)
    missing_keys = [key for key in unique if key not in runs]
    missing = [unique[key] for key in missing_keys]

    if missing:
        if dask_address is not None:
            outcomes = _outcomes_dask(run_fn, missing, dask_address)
        elif min(n_workers, len(missing)) == 1:
            outcomes = _outcomes_in_process(run_fn, missing)
        else:
            outcomes = _outcomes_joblib(run_fn, missing, min(n_workers, len(missing)))
        paper_keys = sorted({config["paper"] for config in missing})
        with _progress_bar(len(missing), len(runs), paper_keys, progress) as bar:
            try:
                for n_saved, outcome in enumerate(outcomes):
                    config = missing[outcome.index]
                    runs[missing_keys[outcome.index]] = _save(config, outcome, n_saved, version)
                    _counts["computed"] += 1
                    bar.update()
            finally:
                outcomes.close()
    return store.tidy_table([runs[key] for key in unique])


def _save(config, outcome, n_saved, version):
    described = f"run {store.run_key(config)} with config {canonical_json(config)}"
    if outcome.error is not None:
        raise RunFailedError(f"{described} failed ({n_saved} runs of this grid finished and were saved):\n"
                             f"{outcome.error}") from outcome.exception
    try:
        return store.save_run(config, outcome.result, outcome.seconds, cpu_seconds=outcome.cpu_seconds,
                              code_version=version)
    except (TypeError, ValueError) as exc:
        raise RunFailedError(f"{described} returned an invalid result: {exc}") from exc


@dataclass(frozen=True)
class CostEstimate:
    """What a grid will cost, from the recorded wall times of similar cached runs.

    Attributes
    ----------
    n_runs, n_cached, n_missing : int
        Distinct runs in the grid, those stored and those to compute.
    cpu_seconds : float
        Estimated CPU time of the missing runs that have an estimate.
    n_unestimated : int
        Missing runs for which no similar run was ever recorded.
    basis : dict
        How many missing runs were estimated from each kind of match.
    """

    n_runs: int
    n_cached: int
    n_missing: int
    cpu_seconds: float
    n_unestimated: int
    basis: dict

    def wall_seconds(self, n_workers):
        """Estimated elapsed time on ``n_workers`` parallel workers (perfect load balance)."""
        return self.cpu_seconds / max(1, min(n_workers, self.n_missing))

    def __str__(self):
        text = f"{self.n_runs} runs: {self.n_cached} cached, {self.n_missing} to compute"
        if self.n_missing == 0:
            return text
        n_estimated = self.n_missing - self.n_unestimated
        if n_estimated:
            basis = ", ".join(f"{count} from {kind}" for kind, count in self.basis.items())
            text += f"; about {format_seconds(self.cpu_seconds)} CPU for {n_estimated} of them ({basis})"
        if self.n_unestimated:
            text += f"; no estimate for {self.n_unestimated} (no similar run recorded)"
        return text


def format_seconds(seconds):
    """Human-readable duration: ``"42 s"``, ``"3.5 min"``, ``"2.1 h"``."""
    if seconds < 100:
        return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def _match_keys(config):
    without_seed = {name: value for name, value in config.items() if name != "seed"}
    yield "runs with the same settings", canonical_json(without_seed)
    for fields in _COARSER_MATCHES:
        if all(name in config for name in fields):
            yield f"runs of the same {'/'.join(fields[1:])}", canonical_json({name: config[name] for name in fields})


def estimate_cost(configs, paper_key=None):
    """Estimate the CPU time of the runs of a grid that are not cached yet.

    Each missing run is estimated by the mean recorded CPU seconds (wall seconds
    for runs stored before CPU time was recorded) of the cached
    runs with the same configuration except the seed; if there are none, of the
    runs of the same experiment, problem and method, then experiment, problem and
    budget ``T``, then experiment and method, then experiment and problem, then
    experiment. Runs without any such match are counted as unestimated. The
    coarse matches can be far off when budgets differ; the estimate says how
    many runs each kind of match priced.

    Parameters
    ----------
    configs : list of dict
        The grid (duplicates count once).
    paper_key : str, optional
        Paper whose recorded runs inform the estimate; by default the papers
        named by the configurations.

    Returns
    -------
    CostEstimate
    """
    unique = _unique_configs(configs)
    papers = [paper_key] if paper_key is not None else sorted({config["paper"] for config in unique.values()})
    recorded = [run for paper in papers for run in store.scan(paper)]
    cached_keys = {run.key for run in recorded}
    times = defaultdict(list)
    for run in recorded:
        for _, match in _match_keys(run.config):
            times[match].append(run.cost_seconds)

    cpu_seconds, n_unestimated, basis = 0.0, 0, defaultdict(int)
    missing = [config for key, config in unique.items() if key not in cached_keys]
    for config in missing:
        for kind, match in _match_keys(config):
            if times[match]:
                cpu_seconds += float(np.mean(times[match]))
                basis[kind] += 1
                break
        else:
            n_unestimated += 1
    return CostEstimate(n_runs=len(unique), n_cached=len(unique) - len(missing), n_missing=len(missing),
                        cpu_seconds=cpu_seconds, n_unestimated=n_unestimated, basis=dict(basis))
