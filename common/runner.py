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
whichever backend or number of workers computes them, given the same BLAS kernels.
A run computed under other kernels than the committed cache's (another CPU, a Dask
worker started elsewhere) differs from it in the last bits; each run records the
kernels of the process that computed it, and :mod:`common.store` caches such runs
apart (``output/results-by-kernels/<kernels>/``), where later runs of the same kernels
read them back. The progress bar names the folder the computed runs go to
(:func:`destination_of_new_runs`).

Each missing run is claimed (:mod:`common.run_claims`) before it is computed, so
two processes filling the same grid share the work instead of doing it twice.
Local worker processes end themselves when the process that started them dies,
even by SIGKILL, so no computation outlives its job.
"""
import copy
import importlib
import os
import sys
import threading
import time
import traceback
import warnings
from collections import defaultdict
from dataclasses import dataclass, field

import joblib
import numpy as np
from tqdm import tqdm

from common import _threads, paths, run_records, store
from common.run_claims import RunClaims
from common.seeding import canonical_json

# Defaults of run_grid's n_jobs and dask_address, set by reproduce.py for the notebooks it
# runs: the backend never enters a notebook's parameters, so it cannot change its outputs.
JOBS_VARIABLE, DASK_VARIABLE = "BO_JOBS", "BO_DASK"
# How often a worker process checks that the process that started it is alive, and how
# often run_grid looks for runs that another process is computing.
PARENT_CHECK_SECONDS = 0.5
WAIT_FOR_OTHERS_SECONDS = 2.0
DASK_CONNECT_SECONDS = 5

# Settings that count the iterations of a run: estimate_cost scales a recorded cost by their ratio.
BUDGET_FIELDS = ("T", "T_bo", "budget", "n_iterations")
# Marks a setting that one of two configurations lacks (None is a valid setting).
_ABSENT = object()

_counts = {"loaded": 0, "computed": 0, "corrupt": [], "stale": []}


class RunFailedError(RuntimeError):
    """A run function raised; the message holds the run's configuration and the traceback."""


def run_counts():
    """What :func:`run_grid` did in this process so far.

    Returns
    -------
    dict
        ``loaded`` and ``computed``: numbers of runs; ``corrupt`` and ``stale``:
        the keys of cached files that were not loaded, with why: recomputed, or (a
        corrupt file beside a sound run stored elsewhere) left there, with how to repair it.
    """
    return {name: list(value) if isinstance(value, list) else value for name, value in _counts.items()}


def reset_run_counts():
    """Set the counters of :func:`run_counts` back to zero."""
    for name, value in _counts.items():
        _counts[name] = [] if isinstance(value, list) else 0


def _backend_from_environment():
    jobs, address = os.environ.get(JOBS_VARIABLE), os.environ.get(DASK_VARIABLE)
    if address:
        return None, address
    if jobs:
        try:
            return int(jobs), None
        except ValueError:
            raise ValueError(f"environment variable {JOBS_VARIABLE} must be an int >= 1; got {jobs!r}") from None
    return None, None


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


def _backend(n_jobs, dask_address):
    """The backend arguments of :func:`run_grid`: as given, else ``$BO_JOBS`` or ``$BO_DASK`` (set by reproduce.py)."""
    if n_jobs is None and dask_address is None:
        return _backend_from_environment()
    return n_jobs, dask_address


def check_dask(dask_address, timeout=DASK_CONNECT_SECONDS):
    """Connect to a Dask scheduler within ``timeout`` seconds; return its number of workers.

    Raises
    ------
    ValueError
        If no scheduler answers at ``dask_address`` in time, or it has no workers.
    """
    from distributed import Client
    from distributed.comm.addressing import parse_address, parse_host_port

    check_backend(dask_address=dask_address)
    try:  # before a Client exists: a half-built one waits 10 s to close and prints a traceback on exit
        scheme, location = parse_address(dask_address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as exc:
        raise ValueError(f"{dask_address!r} is not a scheduler address ({exc}); give one such as "
                         f"'tcp://10.0.0.5:8786', as `dask scheduler` prints it") from None
    try:
        with Client(dask_address, timeout=f"{timeout}s", set_as_default=False) as client:
            n_workers = len(client.scheduler_info()["workers"])
            if n_workers:
                worker_kernels(client)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"no Dask scheduler answers at {dask_address!r} within {timeout} s "
                         f"({type(exc).__name__}); start one with `dask scheduler`, or leave out --dask") from None
    if n_workers == 0:
        raise ValueError(f"the Dask scheduler at {dask_address!r} has no workers; start some with "
                         f"`dask worker {dask_address}`")
    return n_workers


class MixedKernelsError(RuntimeError):
    """The workers of a Dask cluster compute with different BLAS kernels, so one grid would mix their last bits."""


def worker_kernels(client):
    """The BLAS kernels (:func:`common._threads.kernel_name`) every worker of a Dask cluster computes with, read
    from each worker before any run is computed there.

    Raises
    ------
    MixedKernelsError
        If the workers' kernels differ, naming each worker and its kernels.
    """
    kernels = client.run(lambda: store.process_versions()["kernels"])
    names = set(kernels.values())
    if len(names) > 1:
        listing = "; ".join(f"{worker}: {name}" for worker, name in sorted(kernels.items()))
        raise MixedKernelsError(
            f"the Dask workers compute with different BLAS kernels ({listing}), so one grid's runs would differ in "
            f"their last bits depending on the worker. Start every worker the same way, e.g. with "
            f"`python -m common.dask_worker <scheduler address>` on CPUs of one kind, or give a worker "
            f"OPENBLAS_CORETYPE=<one of {sorted(names)}> in its environment")
    return names.pop() if names else store.process_versions()["kernels"]


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
    """``({key: config}, {key: (key, config_json)})`` of a grid's distinct configurations, each validated and
    serialized once (:func:`common.store.keyed`)."""
    if isinstance(configs, dict) or not hasattr(configs, "__iter__"):
        raise TypeError(f"configs must be a list of configuration dicts; got {type(configs).__name__}")
    unique, serialized = {}, {}
    for config in configs:
        key_and_json = store.keyed(config)  # validates the configuration
        if key_and_json[0] not in unique:
            unique[key_and_json[0]], serialized[key_and_json[0]] = config, key_and_json
    if not unique:
        raise ValueError("configs is empty; the grid has no runs")
    return unique, serialized


@dataclass
class _Outcome:
    index: int
    result: dict = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    versions: dict = None  # store.process_versions() of the process that computed the run
    error: str = None
    exception: BaseException = field(default=None, repr=False)


_watched_parent = None


def _exit_with_parent(parent_pid):
    """In a worker process: end it as soon as ``parent_pid``, the process that started it, is gone.

    The parent's pid comes with the task rather than from ``os.getppid()`` at the
    first task, which may run after the parent already died (even by SIGKILL).
    """
    global _watched_parent
    if _watched_parent == parent_pid:
        return
    _watched_parent = parent_pid

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)  # no clean-up: the parent that would receive the result is gone

    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()


def _execute(run_fn, index, config, parent_pid=None):
    """Run one configuration in a worker (or in process) and time it; never raises.

    ``parent_pid``: in a local worker process, the pid of the process that started it.
    """
    _threads.pin_blas_threads()
    if parent_pid is not None:
        _exit_with_parent(parent_pid)
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        # A copy, so that a run function mutating its configuration cannot change the key it is stored under.
        result = run_fn(copy.deepcopy(config))
    except Exception as exc:
        return _Outcome(index, error=traceback.format_exc(), exception=exc)
    return _Outcome(index, result=result, seconds=time.perf_counter() - start,
                    cpu_seconds=time.process_time() - cpu_start, versions=store.process_versions())


def _outcomes_in_process(run_fn, tasks):
    for index, config in tasks:
        yield _execute(run_fn, index, config)


def _outcomes_joblib(run_fn, tasks, n_workers):
    # One BLAS thread per worker regardless of how many workers share the cores. joblib
    # consumes ``tasks`` lazily, so each run is claimed only when a worker is about to take it.
    with joblib.parallel_config(backend="loky", inner_max_num_threads=1):
        outcomes = joblib.Parallel(n_jobs=n_workers, return_as="generator_unordered")(
            joblib.delayed(_execute)(run_fn, index, config, os.getpid()) for index, config in tasks
        )
        try:
            yield from outcomes
        finally:
            outcomes.close()  # cancels the runs not yet started when the caller stops early


def _outcomes_dask(run_fn, tasks, dask_address):
    from distributed import Client, as_completed

    indices, configs = zip(*tasks) if (tasks := list(tasks)) else ((), ())
    if not tasks:
        return
    with Client(dask_address, timeout=f"{DASK_CONNECT_SECONDS}s", set_as_default=False) as client:
        futures = client.map(_execute, [run_fn] * len(tasks), indices, configs, pure=False)
        try:
            for future in as_completed(futures, loop=client.loop):
                yield future.result()
        finally:
            client.cancel(futures)


def _claimed_tasks(keys, unique, claims, held_by_others, found, version, kernels, recheck):
    """``(index, config)`` of the runs of ``keys`` this process claims; the others are listed aside.

    With ``recheck``, a run stored meanwhile by another process is loaded instead
    (``found``), whether or not its claim is still held.
    """
    for index, key in enumerate(keys):
        config = unique[key]
        run = store.lookup(config, version, kernels)[0] if recheck else None
        if run is None and not claims.try_claim(config):
            held_by_others.append(key)
            continue
        if run is None and recheck:
            run = store.lookup(config, version, kernels)[0]  # stored between the look-up and the claim
            if run is not None:
                claims.release(config)
        if run is not None:
            found[key] = run
            continue
        yield index, config


def _progress_bar(n_missing, n_cached, paper_keys, destination, enabled):
    # The text bar on stderr works in terminals and in papermill kernels alike.
    try:
        destination = f"{destination.relative_to(paths.repo_root())}/"
    except ValueError:
        destination = f"{destination}/"
    return tqdm(total=n_missing, desc=f"{'/'.join(paper_keys)}: computing into {destination}", unit="run",
                file=sys.stderr, disable=not enabled, postfix={"cached": n_cached}, smoothing=0.1)


def _cpu_postfix(done, estimates):
    known = [seconds for seconds in estimates.values() if seconds is not None]
    unknown = len(estimates) - len(known)
    left = f"~{format_seconds(sum(known))}" + (f" + {unknown} runs unpriced" if unknown else "")
    return {"CPU done": format_seconds(done), "left": left}


def run_grid(configs, run_fn, *, n_jobs=None, dask_address=None, progress=True, recompute=False):
    """Load or compute every run of a grid and return the tidy table of all of them.

    Parameters
    ----------
    configs : list of dict
        Run configurations (see :func:`common.store.validate_config`). Duplicates
        are run once and appear once in the table.
    run_fn : callable
        Module-level function ``run_fn(config) -> dict`` of an importable module
        that defines ``CODE_VERSION`` (see :mod:`common.store`).
    n_jobs : int or None, default=None
        Local worker processes (None: ``$BO_JOBS``, else all local cores). With 1,
        or a single missing run, runs are computed in this process.
    dask_address : str or None, default=None
        Scheduler address of an existing Dask cluster to compute on instead
        (None: ``$BO_DASK``, if set); its workers must be able to import ``run_fn``.
    progress : bool, default=True
        Show a tqdm progress bar on stderr (the folder the computed runs go to, runs
        done and left, ETA, CPU time done and left) while runs are computed; nothing
        when every run is cached.
    recompute : bool, default=False
        Compute every run again even if cached, replacing the stored files.

    Missing runs are computed seed by seed (every configuration's first seed,
    then every second seed, ...), so that a grid stopped early covers all its
    cells, and :func:`estimate_cost` (``reproduce.py --list``, the progress bar
    of a resumed grid) prices the rest from runs of the same settings.

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
    n_jobs, dask_address = _backend(n_jobs, dask_address)
    n_workers = check_backend(n_jobs, dask_address)
    _check_importable(run_fn)
    version = code_version(run_fn)
    unique, serialized = _unique_configs(configs)
    kernels = computing_kernels(dask_address)

    runs, missing = {}, []
    for key, config in unique.items():
        run, state, reason = ((None, "missing", "") if recompute
                              else store.lookup(config, version, kernels, serialized=serialized[key]))
        if reason:  # a stale or corrupt file; a corrupt one stays named while a sound run elsewhere is loaded
            kind = "stale" if state == "stale" else "corrupt"
            _counts[kind].append(f"{key}: {reason}")
            warning = store.StaleResultWarning if kind == "stale" else store.CorruptResultWarning
            then = "recomputing it" if run is None else f"the run is read from {run.path}"
            warnings.warn(f"ignoring result file {reason}; {then}", warning, stacklevel=2)
        if run is None:
            missing.append(key)
        else:
            runs[key] = run
    _counts["loaded"] += len(runs)
    # Seed by seed: every cell's first seed before any cell's second (see the docstring).
    missing.sort(key=lambda key: unique[key].get("seed", 0))
    if missing:
        estimates = _estimates_by_key({key: unique[key] for key in missing}, version)
        paper_keys = sorted({unique[key]["paper"] for key in missing})
        destination = store.results_root_for(kernels)
        with (_progress_bar(len(missing), len(runs), paper_keys, destination, progress) as bar,
              RunClaims(kernels) as claims):
            cpu_done, pending, first_round = 0.0, missing, True
            while pending:
                held_by_others, found = [], {}
                tasks = _claimed_tasks(pending, unique, claims, held_by_others, found, version, kernels,
                                       recheck=not (recompute and first_round))
                if dask_address is not None:
                    outcomes = _outcomes_dask(run_fn, tasks, dask_address)
                elif min(n_workers, len(pending)) == 1:
                    outcomes = _outcomes_in_process(run_fn, tasks)
                else:
                    outcomes = _outcomes_joblib(run_fn, tasks, min(n_workers, len(pending)))
                try:
                    for outcome in outcomes:
                        key = pending[outcome.index]
                        runs[key] = _save(unique[key], outcome, _counts["computed"], version)
                        claims.release(unique[key])
                        _counts["computed"] += 1
                        cpu_done += outcome.cpu_seconds
                        estimates.pop(key, None)
                        bar.set_postfix(_cpu_postfix(cpu_done, estimates), refresh=False)
                        bar.update()
                finally:
                    outcomes.close()
                runs.update(found)
                _counts["loaded"] += len(found)
                bar.update(len(found))
                pending, first_round = held_by_others, False
                if pending:
                    bar.set_description(f"waiting for {len(pending)} runs another process is computing")
                    time.sleep(WAIT_FOR_OTHERS_SECONDS)
    return store.tidy_table([runs[key] for key in unique])


def destination_of_new_runs(dask_address=None):
    """The root folder :func:`run_grid` caches the runs it computes in (e.g. ``output/results-by-kernels/
    Sandybridge``): where the kernels of the processes that compute them send them (:func:`common.store.
    results_root_for`), which on a Dask cluster are its workers', not this process's.

    Parameters
    ----------
    dask_address : str or None, default=None
        The scheduler address given to :func:`run_grid` (None: ``$BO_DASK``, if set, else local processes).

    Returns
    -------
    pathlib.Path
    """
    return store.results_root_for(computing_kernels(_backend(None, dask_address)[1]))


def computing_kernels(dask_address):
    """The kernels that compute this grid's missing runs: this process's (local workers inherit its environment),
    or the Dask workers' (:func:`worker_kernels`)."""
    if dask_address is None:
        return store.process_versions()["kernels"]
    from distributed import Client

    with Client(dask_address, timeout=f"{DASK_CONNECT_SECONDS}s", set_as_default=False) as client:
        return worker_kernels(client)


def _save(config, outcome, n_saved, version):
    described = f"run {store.run_key(config)} with config {canonical_json(config)}"
    if outcome.error is not None:
        raise RunFailedError(f"{described} failed ({n_saved} runs of this grid finished and were saved):\n"
                             f"{outcome.error}") from outcome.exception
    try:
        return store.save_run(config, outcome.result, outcome.seconds, cpu_seconds=outcome.cpu_seconds,
                              code_version=version, versions=outcome.versions)
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
    n_scaled_up : int
        Missing runs priced from runs with a smaller budget, scaled linearly:
        their prices are lower bounds, since a GP loop's iterations grow dearer
        with the number of observations.
    """

    n_runs: int
    n_cached: int
    n_missing: int
    cpu_seconds: float
    n_unestimated: int
    basis: dict
    n_scaled_up: int = 0

    @property
    def is_lower_bound(self):
        """True when every estimated price was scaled up from a smaller budget."""
        return 0 < self.n_scaled_up == self.n_missing - self.n_unestimated

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
            bound = "at least" if self.is_lower_bound else "about"
            text += f"; {bound} {format_seconds(self.cpu_seconds)} CPU for {n_estimated} of them ({basis})"
            if 0 < self.n_scaled_up < n_estimated:
                text += f", a lower bound for the {self.n_scaled_up} priced from runs with a smaller budget"
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


def estimate_cost(configs, run_fn=None, paper_key=None):
    """Estimate the CPU time of the runs of a grid that are not cached yet.

    Each missing run is priced by the mean recorded CPU seconds (wall seconds
    for runs stored before CPU time was recorded) of the cached runs whose
    settings are nearest to its own: the same configuration except the seed if
    there are any, else the runs that differ from it in the fewest settings
    (all of them when several sets of settings are equally near), their costs
    scaled linearly where the budget differs (:data:`BUDGET_FIELDS`). Where the
    nearest runs differ from it in one of two settings (a method on a problem
    it has not run), the price is their two-way product
    (:func:`_two_way_product`), not their mean. So a
    paper-scale run is priced from paper-scale runs of another method before
    quick runs of its own method, which differ in every budget. A price scaled
    up from a smaller budget is a lower bound (a GP loop's iterations grow
    dearer with n), and the estimate says "at least" for it; the runner computes
    a grid seed by seed, so one run of each setting soon prices the rest. Runs
    of another paper never count; a missing run with no cached run of its paper
    is unestimated. The estimate says which settings differed for how many runs.

    Parameters
    ----------
    configs : list of dict
        The grid (duplicates count once).
    run_fn : callable, optional
        The grid's run function, as given to :func:`run_grid`. Given, a run
        stored by another ``CODE_VERSION`` of its module is stale: it counts as
        missing (the runner recomputes it) and prices no other run, since that
        code ran at another speed. None counts every stored run.
    paper_key : str, optional
        Paper whose recorded runs inform the estimate; by default the papers
        named by the configurations.

    Returns
    -------
    CostEstimate
    """
    unique, _ = _unique_configs(configs)
    version = None if run_fn is None else code_version(run_fn)
    # The grid's own files first: a complete grid's estimate depends on them alone (see common.provenance).
    missing = {key: config for key, config in unique.items() if run_records.record_of(config, version) is None}
    recorded = _recorded_runs([paper_key] if paper_key is not None else _papers(unique), version) if missing else []
    estimates = [estimate for estimate in _estimates(missing, recorded).values() if estimate is not None]
    basis = defaultdict(int)
    for _, kind, _ in estimates:
        basis[kind] += 1
    return CostEstimate(n_runs=len(unique), n_cached=len(unique) - len(missing), n_missing=len(missing),
                        cpu_seconds=sum(seconds for seconds, _, _ in estimates),
                        n_unestimated=len(missing) - len(estimates), basis=dict(basis),
                        n_scaled_up=sum(scaled_up for _, _, scaled_up in estimates))


def _papers(configs_by_key):
    return sorted({config["paper"] for config in configs_by_key.values()})


def _recorded_runs(papers, code_version=None):
    """The stored runs of ``papers`` (:class:`common.run_records.RunRecord`); only those of ``code_version`` unless it is
    None."""
    kernels = store.process_versions()["kernels"]
    return [run for paper in papers for run in run_records.scan_records(paper, kernels)
            if code_version is None or run.code_version == code_version]


def _estimates(configs_by_key, recorded):
    """``{key: (CPU seconds, kind of match, scaled up) or None}`` for runs, from the recorded runs.

    See :func:`estimate_cost`.
    """
    costs, settings_of = defaultdict(list), {}
    for run in recorded:
        settings = _settings(run.config)
        settings_key = canonical_json(settings)
        costs[settings_key].append(run.cost_seconds)
        settings_of[settings_key] = settings
    nearest = {}
    estimates = {}
    for key, config in configs_by_key.items():
        settings = _settings(config)
        settings_key = canonical_json(settings)
        if settings_key not in nearest:
            nearest[settings_key] = _nearest_estimate(settings, costs, settings_of)
        estimates[key] = nearest[settings_key]
    return estimates


def _settings(config):
    return {name: value for name, value in config.items() if name != "seed"}


def _nearest_estimate(settings, costs, settings_of):
    """Mean cost of the recorded settings of the same paper that differ from ``settings`` in the fewest fields.

    A differing budget (:data:`BUDGET_FIELDS`) scales the recorded cost
    linearly, a lower bound for a GP loop whose iterations grow dearer with n;
    the third element of the result says whether any cost was scaled up.
    """
    differences = {}
    for recorded_key, recorded in settings_of.items():
        if recorded.get("paper") != settings.get("paper"):
            continue
        names = set(settings) | set(recorded)
        differences[recorded_key] = {name for name in names
                                     if settings.get(name, _ABSENT) != recorded.get(name, _ABSENT)}
    if not differences:
        return None
    fewest = min(len(names) for names in differences.values())
    if fewest == 1:
        product = _two_way_product(settings, costs, settings_of, differences)
        if product is not None:
            return product
    nearest = [key for key, names in differences.items() if len(names) == fewest]
    ratios = {key: _budget_ratio(settings, settings_of[key], differences[key]) for key in nearest}
    seconds = float(np.mean([cost * ratios[key] for key in nearest for cost in costs[key]]))
    scaled_up = any(ratio > 1 for ratio in ratios.values())
    if fewest == 0:
        return seconds, "runs with the same settings", scaled_up
    differing = {name for key in nearest for name in differences[key]}
    if len(differing) == 1:
        return seconds, f"runs differing in {differing.pop()}", scaled_up
    return seconds, f"runs differing in {fewest} setting{'s' if fewest > 1 else ''}", scaled_up


def _two_way_product(settings, costs, settings_of, differences):
    """The price of a run whose nearest recorded settings differ from its own in one of two fields A and B (e.g. a
    method on a problem it has not run: its runs on the other problems, the other methods' runs on this one):

        price = mean(differing in A) * mean(differing in B) / mean(differing in A and B),

    each recorded setting's mean cost first, budgets scaled (:func:`_budget_ratio`). The plain mean of the nearest
    runs prices a method by the other methods wherever they are cheaper or dearer than it (measured by
    ``benchmarks/price_accuracy.py``). None where no setting differs in A and B alone, or the nearest differ in
    other than two fields.

    Returns
    -------
    (CPU seconds, kind of match, scaled up) or None
    """
    groups = defaultdict(list)
    for key, names in differences.items():
        if len(names) <= 2:
            groups[frozenset(names)].append(key)
    fields = sorted(next(iter(names)) for names in groups if len(names) == 1)
    if len(fields) != 2 or frozenset(fields) not in groups:
        return None
    ratios = {key: _budget_ratio(settings, settings_of[key], differences[key])
              for names in (*({field} for field in fields), fields) for key in groups[frozenset(names)]}

    def mean_cost(names):
        return float(np.mean([np.mean(costs[key]) * ratios[key] for key in groups[frozenset(names)]]))

    across = mean_cost(fields)
    if across <= 0:
        return None
    seconds = mean_cost(fields[:1]) * mean_cost(fields[1:]) / across
    return seconds, f"the product of runs differing in {fields[0]} and in {fields[1]}", any(
        ratio > 1 for ratio in ratios.values())


def _budget_ratio(settings, recorded, differing):
    ratio = 1.0
    for name in differing & set(BUDGET_FIELDS):
        if isinstance(settings.get(name), (int, float)) and isinstance(recorded.get(name), (int, float)):
            ratio *= settings[name] / recorded[name]
    return ratio


def _estimates_by_key(configs_by_key, code_version):
    """``{key: CPU seconds or None}``: the estimated cost of each run of ``code_version``, for the progress bar."""
    estimates = _estimates(configs_by_key, _recorded_runs(_papers(configs_by_key), code_version))
    return {key: None if estimate is None else estimate[0] for key, estimate in estimates.items()}
