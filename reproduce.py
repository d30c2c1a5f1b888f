"""Regenerate the companion's figures, tables and verdicts by running its notebooks.

Without arguments, runs every registered notebook (``common/experiments/__init__.py``)
at its *published configuration* (``PUBLISHED`` in its experiment module) from the
cached runs in ``data/results``: the committed notebooks, figures, tables,
verdicts and the ``REPRODUCTION.md`` scorecard are rewritten byte for byte, so
``git status`` stays clean unless the code or the cache changed something.

A notebook whose outputs are up to date is not executed: each execution records,
beside its figures (``figures/<key>/inputs.json``), digests of everything its
outputs came from (the modules and data files it read, the cached runs it loaded,
its cells, parameters and package versions) and of the outputs themselves; while
none of them differs, executing it again would write the same bytes.
``--force`` executes it anyway. See ``common/provenance.py``.

A notebook is executed into a staging folder and its outputs (notebook, figures,
tables, verdicts) replace the previous ones only when the execution completes:
an error, Ctrl-C or SIGTERM leaves every tracked file as it was. Another scale
or an override (``--scale``, ``-p``) writes to ``output/<key>/<configuration>/``
instead, never over the published outputs; to publish another configuration,
change ``PUBLISHED`` in the experiment module and run this again. Runs at
``--scale smoke`` are cached apart, in ``output/smoke/results/`` (unless
``BO_RESULTS_ROOT`` says otherwise): they only check that the code runs. The new
runs of any other configuration but the published one and the paper scale go to
the scratch cache ``output/results/`` (cached runs are still read from
``data/results``), which keeps the runs of the published and paper-scale grids
and those published on purpose (``--runs-only --publish-runs``). With
``BO_RESULTS_ROOT`` pointing at another cache, the published configuration is
written to ``output/<key>/published/``: a tracked output comes only from
``data/results``.

Examples
--------
    python reproduce.py                          # every notebook, published configuration, from the cache
    python reproduce.py --force bo_pp            # execute bo_pp's notebook even if its outputs are up to date
    python reproduce.py bo_pp --scale quick      # one notebook at another scale (into output/)
    python reproduce.py bo_pp -p n_seeds 5       # an override of the published configuration (into output/)
    python reproduce.py --list                   # what each notebook regenerates, cached and missing runs, costs
    nice -n 19 python reproduce.py bo_pp --scale paper --runs-only   # fill a grid's cache, no notebook
    python reproduce.py --scale paper --runs-only --dask tcp://10.0.0.5:8786

Notebooks are executed side by side, one kernel a core (``--jobs`` cores, default all,
at most four notebooks at once). ``--jobs`` and ``--dask`` choose where missing runs
are computed; the results, and so every output, are identical whichever is used.

Exit status: 0 if everything ran, 1 if a notebook or run failed, 2 for bad input
(checked before anything is computed or written), 130 when interrupted.
"""
# One BLAS thread and one set of BLAS kernels in this process and in every kernel and
# worker it starts; this must happen before numpy is imported (see common/_threads.py).
from common import _threads  # noqa: F401

import os  # noqa: E402

import argparse  # noqa: E402
import ast  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import queue  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from pathlib import Path  # noqa: E402

from common import paths, provenance  # noqa: E402
from common.experiments import NOTEBOOKS, load_experiment  # noqa: E402
from common.notebook import PUBLISHED_NAME, SCALES, route_new_runs  # noqa: E402
from common.run_claims import process_alive  # noqa: E402

BACKEND_FLAGS = {"scale": "--scale", "n_jobs": "--jobs", "dask_address": "--dask"}
# Notebook and cell metadata papermill and nbclient write that change with every execution.
_VOLATILE_NOTEBOOK_METADATA = ("start_time", "end_time", "duration", "input_path", "output_path",
                               "environment_variables")
_VOLATILE_CELL_METADATA = ("execution", "papermill")
# How long an interrupted execution may take to notice that its kernel was killed and wind down.
KERNEL_EXIT_SECONDS = 15
#: The most notebooks executed at once (one kernel each, on a core each): every kernel holds its paper's grid of
#: runs in memory.
MAX_NOTEBOOKS_AT_ONCE = 4
#: The display name ipykernel (>= 6) installs its kernel under, which Jupyter Lab writes into a notebook it opens.
JUPYTER_KERNEL_DISPLAY_NAME = "Python 3 (ipykernel)"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM arrived; raised so that every clean-up on the way out runs. A KeyboardInterrupt, so that
    no ``except Exception`` on the way (the store's, which counts an unreadable pack as damaged) takes it for an
    error."""


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an int >= 1; got {text!r}")
    return value


def _literal(text):
    """A Python literal if ``text`` is one (``5``, ``0.1``, ``['ucb']``), else the text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def build_parser(registry):
    parser = argparse.ArgumentParser(
        prog="reproduce.py", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                        help=f"notebooks to run (default: all): {', '.join(registry) or '(none registered)'}")
    parser.add_argument("--scale", choices=SCALES,
                        help="run this scale's defaults instead of the published configuration")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], dest="parameters",
                        metavar=("NAME", "VALUE"),
                        help="set a notebook parameter; VALUE is read as a Python literal (repeatable)")
    backend = parser.add_mutually_exclusive_group()
    backend.add_argument("--jobs", type=_positive_int, metavar="N",
                         help="local processes (default: all cores): notebooks executed at once (at most "
                              f"{MAX_NOTEBOOKS_AT_ONCE}) and the workers that compute missing runs")
    backend.add_argument("--dask", metavar="ADDRESS", help="compute missing runs on this Dask scheduler")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true",
                      help="list the notebooks, what they regenerate, cached and missing runs and their CPU cost")
    mode.add_argument("--runs-only", action="store_true",
                      help="compute the missing runs of the configuration's grid without executing the notebook; "
                           "resumable, stop it any time")
    parser.add_argument("--force", action="store_true",
                        help="execute every notebook, even one whose outputs are up to date with its inputs "
                             "(code, notebook, parameters, cached runs, data, packages; see common/provenance.py)")
    parser.add_argument("--publish-runs", action="store_true",
                        help="with --runs-only: write runs computed under other BLAS kernels than the cache's into "
                             "the committed cache (each file records its kernels), for a maintainer who will commit "
                             "them; without it they are cached apart, in output/results-by-kernels/")
    return parser


def _overrides(parser, pairs):
    overrides = {}
    for name, text in pairs:
        if name in BACKEND_FLAGS:
            parser.error(f"-p {name}: use {BACKEND_FLAGS[name]} for this parameter")
        overrides[name] = _literal(text)
    return overrides


def _plan(parser, key, registry, args, overrides):
    """Load a notebook's experiment module and resolve its configuration; usage errors exit 2."""
    from common.notebook import configuration, configuration_name, parameter_names

    try:
        module = load_experiment(key, registry)
    except Exception as exc:  # a broken module is a failure of this notebook, not a usage error
        return {"key": key, "error": f"cannot load its experiment module: {type(exc).__name__}: {exc}"}
    declared = [name for name in parameter_names(module) if name not in BACKEND_FLAGS]
    unknown = [name for name in overrides if name not in declared]
    if unknown:
        parser.error(f"-p {unknown[0]}: not a parameter of notebook {key!r}; its parameters: {', '.join(declared)}")
    try:
        params = configuration(module, args.scale, **overrides)
    except ValueError as exc:
        parser.error(f"notebook {key!r}: {exc}")
    return {"key": key, "module": module, "params": params, "name": configuration_name(module, params)}


# --------------------------------------------------------------------------- --list
def list_notebooks(plans, n_jobs, dask_address):
    """Print each notebook, what it regenerates, and the cost of its configuration; return failed keys."""
    from common.runner import check_backend, estimate_cost, format_seconds

    n_cores = check_backend(n_jobs, dask_address) or "the cluster's"
    failed = []
    for plan in plans:
        if "error" in plan:
            print(f"{plan['key']}: {plan['error']}")
            failed.append(plan["key"])
            continue
        module = plan["module"]
        route_new_runs(plan["name"])  # runs in the scratch cache count as cached for their configuration
        print(f"{plan['key']}: {module.TITLE}")
        print(f"  notebook: notebooks/{module.NOTEBOOK}")
        print(f"  regenerates: {', '.join(module.OUTPUTS) or '(nothing)'}")
        try:
            estimate = estimate_cost(module.make_grid(plan["params"]), module.run)
        except Exception as exc:
            print(f"  {plan['name']}: cannot build the grid: {type(exc).__name__}: {exc}")
            failed.append(plan["key"])
            continue
        bound = "at least" if estimate.is_lower_bound else "about"
        elapsed = (f", {bound} {format_seconds(estimate.wall_seconds(n_cores))} on {n_cores} cores"
                   if estimate.cpu_seconds and isinstance(n_cores, int) else "")
        print(f"  {plan['name']} (scale {plan['params']['scale']}): {estimate}{elapsed}")
    return failed


# --------------------------------------------------------------------------- --runs-only
def compute_runs(plans, n_jobs, dask_address):
    """Fill the cache of each configuration's grid; return the keys that failed."""
    from common.runner import (RunFailedError, destination_of_new_runs, estimate_cost, reset_run_counts, run_counts,
                               run_grid)

    failed = []
    for plan in plans:
        if "error" in plan:
            print(f"{plan['key']:<20} FAILED  {plan['error']}")
            failed.append(plan["key"])
            continue
        module, grid = plan["module"], plan["module"].make_grid(plan["params"])
        route_new_runs(plan["name"])
        print(f"{plan['key']}: {plan['name']} (scale {plan['params']['scale']}): {estimate_cost(grid, module.run)}; "
              f"new runs go to {_shown(destination_of_new_runs(dask_address))}", flush=True)
        reset_run_counts()
        try:
            run_grid(grid, module.run, n_jobs=n_jobs, dask_address=dask_address)
        except RunFailedError as exc:
            print(f"{plan['key']:<20} FAILED  {exc}")
            failed.append(plan["key"])
        counts = run_counts()
        print(f"{plan['key']:<20} {counts['computed']} runs computed, {counts['loaded']} loaded"
              f"{_replaced(counts)}", flush=True)
    return failed


def _replaced(counts, shown=3):
    """The corrupt and stale cached files an execution replaced: how many, and the first ``shown`` with why."""
    text = ""
    for state in ("corrupt", "stale"):
        entries = counts[state]
        if entries:
            more = f"; and {len(entries) - shown} more" if len(entries) > shown else ""
            text += f"; {len(entries)} {state} cached file(s) not loaded: " + "; ".join(entries[:shown]) + more
    return text


# --------------------------------------------------------------------------- notebook execution
def staging_root():
    """Folder of the executions in progress, beside the figures so that moving them in is a rename."""
    return paths.figures_root().parent / ".staging"


def _destinations(plan):
    """Where a completed execution's notebook and figure folder go."""
    key, module = plan["key"], plan["module"]
    notebook = Path(module.NOTEBOOK)
    if plan["name"] == PUBLISHED_NAME and not paths.reads_foreign_cache():
        return (notebook if notebook.is_absolute() else paths.notebooks_dir() / notebook), paths.figures_dir(key)
    folder = paths.output_dir(key, plan["name"])
    return folder / notebook.name, folder / "figures" / key


def _scrub(notebook_path):
    """Remove what changes with every execution: timestamps, durations, paths, the injected cell's random id.

    Adjacent outputs to the same stream are merged: the kernel splits one ``print``
    into several messages or not depending on when it flushes.
    """
    import nbformat

    notebook = nbformat.read(notebook_path, as_version=4)
    for name in _VOLATILE_NOTEBOOK_METADATA:
        notebook.metadata.get("papermill", {}).pop(name, None)
    # As Jupyter Lab writes them, so that opening a notebook there (and its autosave) leaves the file unchanged: the
    # installed kernel's display name, and whole numbers without ".0" (JavaScript's JSON has one number type).
    notebook.metadata.setdefault("kernelspec", {})["display_name"] = JUPYTER_KERNEL_DISPLAY_NAME
    if "parameters" in notebook.metadata.get("papermill", {}):
        notebook.metadata.papermill.parameters = _as_javascript_numbers(notebook.metadata.papermill.parameters)
    for cell in notebook.cells:
        for name in _VOLATILE_CELL_METADATA:
            cell.metadata.pop(name, None)
        if "injected-parameters" in cell.metadata.get("tags", []):
            cell.id = "injected-parameters"  # papermill draws a random id for the cell it inserts
        if cell.cell_type == "code":
            cell.outputs = _merged_streams(cell.outputs)
    nbformat.write(notebook, notebook_path)


def _as_javascript_numbers(value):
    """``value`` with every whole float as an int, as JavaScript's ``JSON.stringify`` writes it (1.0 -> 1)."""
    if isinstance(value, dict):
        return type(value)({key: _as_javascript_numbers(item) for key, item in value.items()})
    if isinstance(value, list):
        return [_as_javascript_numbers(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _merged_streams(outputs):
    merged = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.output_type == "stream" and previous is not None and previous.output_type == "stream"
                and previous.name == output.name):
            previous.text += output.text
        else:
            merged.append(output)
    return merged


@contextmanager
def _signals_deferred():
    """Hold Ctrl-C and SIGTERM while outputs are swapped in, so that a swap is never half done."""
    signals = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)


def _swap_in(staged_notebook, staged_figures, notebook_path, figures_path, staging):
    """Move a completed execution's outputs into place: two renames per destination."""
    with _signals_deferred():
        notebook_path.parent.mkdir(parents=True, exist_ok=True)
        figures_path.parent.mkdir(parents=True, exist_ok=True)
        if figures_path.exists():
            figures_path.rename(staging / "previous-figures")
        if staged_figures.exists():
            staged_figures.rename(figures_path)
        staged_notebook.replace(notebook_path)


def _write_journal(staging, state, **details):
    (staging / "journal.json").write_text(json.dumps({"pid": os.getpid(), "state": state, **details}))


def recover_interrupted_swaps():
    """Undo what a killed ``reproduce.py`` left half done, and remove its staging folders."""
    root = staging_root()
    for staging in sorted(root.glob("*")) if root.exists() else []:
        try:
            journal = json.loads((staging / "journal.json").read_text())
        except (OSError, ValueError):
            journal = {}
        pid = journal.get("pid")
        if pid and pid != os.getpid() and process_alive(pid):
            continue  # another reproduce.py is executing
        previous, destination = staging / "previous-figures", journal.get("figures")
        staged_notebook = staging / journal.get("notebook", "-")
        # Killed while swapping, before the notebook (the last move) went in: put the old figures back.
        if journal.get("state") == "swapping" and staged_notebook.exists() and previous.exists():
            if Path(destination).exists():
                Path(destination).rename(staging / "abandoned-figures")
            previous.rename(destination)
            print(f"restored {destination} after an interrupted regeneration")
        shutil.rmtree(staging, ignore_errors=True)
    if root.exists() and not any(root.iterdir()):
        root.rmdir()


def _readable_parameters():
    """Make papermill write the injected parameters' strings as a reader types them ("GP-TS (Matérn-1.5)", not
    "GP-TS (Mat\\xe9rn-1.5)"): a JSON string literal with its non-ASCII letters kept is a valid Python literal."""
    from papermill.translators import PythonTranslator, papermill_translators

    class ReadableStrings(PythonTranslator):
        @classmethod
        def translate_str(cls, val):
            return json.dumps(val, ensure_ascii=False)

    papermill_translators.register("python", ReadableStrings)


def _local_kernel(staging):
    """Kernel settings that talk to the kernel over local IPC sockets in ``staging``: nothing crosses TCP, so
    ipykernel does not warn that its traffic is unencrypted (a warning that reads like a security problem)."""
    from traitlets.config import Config

    return Config({"KernelManager": {"transport": "ipc", "ip": str(staging / "kernel")}})


def run_notebook(plan, n_jobs, dask_address):
    """Execute one notebook into a staging folder and swap its outputs in if it completes; return its report.

    Called in a worker thread (:func:`_side_by_side`), beside other notebooks' executions: everything that is this
    execution's own (its staging folders, the backend of its runs) goes to its kernel's environment, never to this
    process's."""
    import papermill

    _readable_parameters()
    key = plan["key"]
    notebook_path, figures_path = _destinations(plan)
    source, parameters = _source(plan), _notebook_parameters(plan)
    staging_root().mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{key}-", dir=staging_root()))
    _write_journal(staging, "executing", figures=str(figures_path))
    staged_figures_root = staging / "figures"
    staged_notebook = staging / notebook_path.name
    read_log = staging / "reads.log"
    environment = {paths.FIGURES_ROOT_VARIABLE: str(staged_figures_root), provenance.READ_LOG_VARIABLE: str(read_log),
                   # no live sliders in a lesson executed here, even when started from a Jupyter kernel
                   # (common.lessons.widgets_are_live): nobody can move them, and the outputs must not change
                   "BO_LIVE_WIDGETS": "0"}
    if dask_address is not None:
        environment["BO_DASK"] = dask_address
    elif n_jobs is not None:
        environment["BO_JOBS"] = str(n_jobs)
    start = time.perf_counter()
    before = provenance.code_snapshot(source)
    report = {"key": key, "name": plan["name"], "error": None, "summary": None, "execution": None,
              "destination": notebook_path}
    try:
        papermill.execute_notebook(str(source), str(staged_notebook), parameters=parameters, kernel_name="python3",
                                   progress_bar=False, config=_local_kernel(staging),
                                   kernel_manager_class=_kernel_manager(environment))
        staged_figures = staged_figures_root / key
        summary_path, execution_path = staged_figures / "summary.json", staged_figures / "execution.json"
        if not summary_path.exists():
            raise RuntimeError(f"no {summary_path.name} written (the notebook must call write_notebook_summary)")
        report["summary"] = json.loads(summary_path.read_text())
        if execution_path.exists():
            report["execution"] = json.loads(execution_path.read_text())
            execution_path.unlink()  # what this execution did is logged, not published
        _scrub(staged_notebook)
        record = provenance.make_record(source, staged_notebook, staged_figures, parameters,
                                        provenance.read_log(read_log), before)
        edited = [name for name, value in record["inputs"].items() if value == provenance.CHANGED_DURING_EXECUTION]
        if edited or record["notebook_cells"] == provenance.CHANGED_DURING_EXECUTION:
            print(f"{key}: {', '.join(edited) or 'its notebook'} changed while it ran: its outputs are published "
                  f"but recorded as stale, so the next 'python reproduce.py' executes it again", flush=True)
        provenance.write_record(staged_figures, record)
        _write_journal(staging, "swapping", figures=str(figures_path), notebook=staged_notebook.name)
        _swap_in(staged_notebook, staged_figures, notebook_path, figures_path, staging)
    except papermill.PapermillExecutionError as exc:
        report["error"] = f"cell {exc.exec_count}: {exc.ename}: {exc.evalue}"
    except Exception as exc:  # the kernel or papermill itself failed; the other notebooks still run
        report["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    report["seconds"] = time.perf_counter() - start
    return report


def _source(plan):
    """The notebook a plan executes."""
    notebook = Path(plan["module"].NOTEBOOK)
    return notebook if notebook.is_absolute() else paths.notebooks_dir() / notebook


def _notebook_parameters(plan):
    """Every parameter of a plan's notebook, explicitly; the backend goes through the environment, never into the
    notebook.

    The published configuration passes None for each (the parameters cell's meaning of None: the published value):
    papermill's injected cell, committed with the notebook, then reads ``scale = None``, and a reader who sets
    ``scale = "smoke"`` there gets that scale whole, not the published overrides at a smaller scale."""
    from common.notebook import parameter_names

    published = plan["name"] == PUBLISHED_NAME
    return {name: None if published else plan["params"].get(name) for name in parameter_names(plan["module"])}


def published_plan(key, registry=None):
    """The plan of a notebook's published configuration, as ``python reproduce.py KEY`` makes it."""
    registry = NOTEBOOKS if registry is None else registry
    return _plan(build_parser(registry), key, registry, build_parser(registry).parse_args([key]), {})


def reasons_to_execute(plan):
    """Why a plan's notebook must be executed (:func:`common.provenance.changes`); empty when its outputs are what
    an execution would write again."""
    notebook_path, figures_path = _destinations(plan)
    return provenance.changes(_source(plan), notebook_path, figures_path, _notebook_parameters(plan))


def up_to_date_report(plan, seconds):
    """The report of a notebook not executed because its outputs are up to date with its inputs."""
    notebook_path, figures_path = _destinations(plan)
    return {"key": plan["key"], "name": plan["name"], "error": None, "execution": None, "up_to_date": True,
            "summary": json.loads((figures_path / "summary.json").read_text()), "destination": notebook_path,
            "seconds": seconds}


def _kernel_manager(environment):
    """A kernel manager class (nbclient's own, :class:`jupyter_client.AsyncKernelManager`) that starts its kernel
    at the repository's root with this process's environment and ``environment`` added. Notebooks executed side by
    side each give their kernel its own folders this way; papermill's ``cwd`` would change the working folder of
    the whole process, under the other executions' feet."""
    from jupyter_client import AsyncKernelManager

    class KernelManager(AsyncKernelManager):
        async def start_kernel(self, **kw):
            kw.update(cwd=str(paths.repo_root()), env={**os.environ, **environment})
            return await super().start_kernel(**kw)

    return KernelManager


def _side_by_side(tasks, at_once):
    """Call the callables ``tasks`` in worker threads, at most ``at_once`` at a time, while this (main) thread
    waits for Ctrl-C or SIGTERM; yield ``(index, result)`` as each returns, and raise what one raises.

    Run in the main thread, nbclient installs SIGINT and SIGTERM handlers of its own that shut the kernel down,
    and its wait for the running cell's reply can then last for ever (nbclient 0.11: once the shutdown has cleared
    the kernel client, the poll that should notice the dead kernel fails on it). In a worker thread it installs
    none: a signal raises here instead, the kernels and everything they started are killed, which ends the
    executions, and the exception propagates once they have wound down (at most :data:`KERNEL_EXIT_SECONDS`).
    """
    finished, waiting, running = queue.Queue(), list(enumerate(tasks)), {}

    def work(index, task):
        try:
            finished.put((index, task(), None))
        except BaseException as exc:  # handed to the main thread, which raises it
            finished.put((index, None, exc))

    try:
        while waiting or running:
            while waiting and len(running) < at_once:
                index, task = waiting.pop(0)
                running[index] = threading.Thread(target=work, args=(index, task), name="notebook execution",
                                                  daemon=True)
                running[index].start()
            try:
                index, result, error = finished.get(timeout=0.5)  # a timed wait lets signals through
            except queue.Empty:
                continue
            running.pop(index).join()
            if error is not None:
                raise error
            yield index, result
    except BaseException:
        if running:
            _kill_child_processes()
            for thread in running.values():
                thread.join(timeout=KERNEL_EXIT_SECONDS)
        raise


def _execute_interruptibly(execute, *args, **kwargs):
    """``execute(*args, **kwargs)`` in a worker thread while this (main) thread waits for Ctrl-C or SIGTERM
    (:func:`_side_by_side` of one task); returns its result."""
    for _, result in _side_by_side([lambda: execute(*args, **kwargs)], 1):
        return result


def _kill_child_processes():
    """Terminate this process's children (the kernel and its workers), then kill those still running after 5 s."""
    import psutil

    children = psutil.Process().children(recursive=True)
    for child in children:
        try:
            child.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(children, timeout=5)
    for child in alive:
        try:
            child.kill()
        except psutil.NoSuchProcess:
            pass


def _report_line(report):
    from common.verdict_tables import format_counts

    status = "ok" if report["error"] is None else "FAILED"
    line = f"{report['key']:<20} {status:<7} {report.get('seconds', 0.0):7.1f} s   {report.get('name', '')}"
    if report.get("up_to_date"):
        line += " (up to date with its inputs: not executed)"
    summary, execution = report.get("summary"), report.get("execution")
    if report["error"] is None and summary:
        line += (f" (scale {summary['scale']})   figures {len(summary['figures'])}   "
                 f"{format_counts(summary['verdicts'])}")
    if report["error"] is None and execution:
        line += f"   runs {execution['loaded']} loaded, {execution['computed']} computed{_replaced(execution)}"
    if report["error"] is None and report.get("name") != PUBLISHED_NAME and "destination" in report:
        shown = report["destination"]
        shown = shown.relative_to(paths.repo_root()) if shown.is_relative_to(paths.repo_root()) else shown
        line += f"\n{'':<20} written to {shown}"
    if report["error"]:
        line += f"\n{'':<20} {report['error']}"
    return line


#: The scorecard's columns per paper; the full table (paper's and our numbers, the check) is in figures/<key>/verdicts.md.
SCORECARD_COLUMNS = ("id", "kind", "figure", "verdict", "exploratory", "effect", "margin", "seeds_to_decide",
                     "verdict_by_p_value", "confirmatory", "statement", "reason", "disclosure")


def _claims_figure(verdicts_by_paper, effects_by_paper):
    """Draw every paper's claims, one row each, into ``figures/scorecard_claims.png``; return its name, or None."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from common import plotting, verdict_figures

    plotting.use_style()
    fig = verdict_figures.plot_claims(verdicts_by_paper, effects_by_paper)
    if fig is None:
        return None
    path = paths.figures_root() / "scorecard_claims.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path.name


def write_scorecard(registry):
    """Gather every paper's published verdict table into REPRODUCTION.md (atomically); return its path.

    Per paper: the verdict counts now and under the p-value rule that estimation replaced, and the verdict
    table's main columns; above them, the judged cells of every paper in one figure. A notebook whose experiment
    module declares ``KIND = "arena"`` (the papers' methods on a common suite) gets its section after the papers',
    outside their counts and their figure; a lesson of the course (``KIND = "lesson"``) judges no claim and has no
    section.
    """
    import pandas as pd

    from common import verdict_figures
    from common.checks import IDENTITY_VERDICTS, VERDICTS
    from common.verdict_tables import confirmed_moves, format_counts, markdown_table, verdict_counts

    sections, totals, effects_by_paper = [], dict.fromkeys(VERDICTS + IDENTITY_VERDICTS, 0), {}
    verdicts_by_paper = {}
    exploratory_totals, n_confirmed = dict(totals), 0
    arena_sections = []
    for key in registry:
        try:
            module = load_experiment(key, registry)
            title, notebook = module.TITLE, f"notebooks/{module.NOTEBOOK}"
        except Exception:  # the listing of the other papers must not depend on one broken module
            module, title, notebook = None, key, "(experiment module does not load)"
        if getattr(module, "KIND", None) == "lesson":
            continue
        # The arena's hypotheses carry the papers' claims to a common suite: a section of their own, after the
        # papers, counted apart from the papers' claims.
        is_arena = getattr(module, "KIND", None) == "arena"
        listed = arena_sections if is_arena else sections
        verdicts_path = paths.figures_dir(key) / "verdicts.csv"
        listed.append(f"## {key}: {title}\n")
        if is_arena:
            listed.append("Not a paper: each paper's headline claim carried to one suite of problems, with one budget "
                          "and the same initial designs, and judged per problem against plain GP-UCB (\"reproduced\": "
                          "the claim holds on the suite). Its verdicts are not counted in \"All papers\" above.\n")
        if not verdicts_path.exists():
            listed.append(f"Not run yet ({notebook} has written no verdicts).\n")
            continue
        table = pd.read_csv(verdicts_path, dtype=str, keep_default_na=False)
        table = table.reindex(columns=[*table.columns, *[name for name in SCORECARD_COLUMNS
                                                          if name not in table.columns]], fill_value="")
        verdicts_by_paper[key] = table
        effects_by_paper[key] = verdict_figures.deciding_cells(key, table)
        scale = table["scale"].iloc[0] if len(table) else "unknown"
        counts = verdict_counts(table)
        confirmed, confirmed_text = confirmed_moves(table)
        if not is_arena:
            totals = {verdict: totals[verdict] + counts[verdict] for verdict in totals}
            exploratory = verdict_counts(table, "exploratory")
            exploratory_totals = {verdict: exploratory_totals[verdict] + exploratory[verdict]
                                  for verdict in exploratory_totals}
            n_confirmed += confirmed
        n_estimated, moved = p_value_rule_moves(table)
        before = (f" Of the {n_estimated} claims judged by estimation, p-value rule -> estimation: {moved}."
                  if n_estimated else "")
        if confirmed:
            before += (f" {confirmed} verdicts are confirmatory, on fresh seeds (exploratory -> confirmatory: "
                       f"{confirmed_text}).")
        listed.append(f"Notebook: {notebook}. Scale: {scale}. {format_counts(counts)}.{before} Full table "
                      f"(the paper's numbers, ours, the check): `figures/{key}/verdicts.md`; every cell's effect: "
                      f"`figures/{key}/effects.csv`.\n")
        listed.append(markdown_table(table.loc[:, list(SCORECARD_COLUMNS)]) + "\n")
    figure = _claims_figure(verdicts_by_paper, effects_by_paper)
    picture = (f"\n![Every claim of every paper: its verdict and its cells](figures/{figure})\n\n"
               f"{verdict_figures.claims_note()}\n" if figure else "")
    header = ("# Reproduction scorecard\n\n"
              "One verdict per claim of each paper, gathered by `python reproduce.py` from "
              "`figures/<key>/verdicts.csv`, at each notebook's published configuration. Empirical verdicts: "
              + ", ".join(VERDICTS) + ". Identities and theorems checked numerically: "
              + ", ".join(IDENTITY_VERDICTS) + ".\n\n"
              "A claim that compares methods seed by seed is judged by estimation (`common/stats.py`, "
              "`common/claims.py`): each cell's effect (a ratio of mean regrets, or a difference in natural units) "
              "with its 95 % interval against the claim's margin (the paper's own where its words give one, else a "
              "factor 1.1). \"Not reproduced\" means cells the claim needs are contradicted: their interval lies "
              "against the paper's direction, or excludes the paper's own effect where it prints one; never the "
              "project's margin alone (since 2026-12-03, issue 63: an interval that excludes a gain as large as the "
              "margin but still holds no difference is undecided, and says so: \"a gain beyond ... excluded; no "
              "difference not excluded\"). \"Inconclusive\" means the runs cannot decide it; "
              "`seeds_to_decide` is a plug-in figure, the seeds at which an interval of the observed spread around the "
              "observed effect would decide it, not a power calculation (the confirmatory plans give those). "
              "`verdict_by_p_value` is what the "
              "Wilcoxon p-value rule used until 2026-11-25 gives; `confirmatory` the verdict on fresh seeds, where "
              "planned. Where every planned fresh seed ran, the confirmatory verdict is the claim's `verdict` and the "
              "paper-scale one, exploratory, stands beside it in `exploratory`.\n\n"
              f"All papers: {format_counts(totals)}"
              + (f" ({n_confirmed} of them confirmatory; at the paper's scale alone: "
                 f"{format_counts(exploratory_totals)})" if n_confirmed else "") + f".\n{picture}")
    path = paths.scorecard_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text("\n".join([header, *sections, *arena_sections]))
    temporary.replace(path)
    return path


def p_value_rule_moves(table):
    """``(n, text)``: how many claims of a verdict table were judged by estimation (they have a
    ``verdict_by_p_value``), and how their verdicts moved from the p-value rule's, e.g. "reproduced 6 -> 2;
    inconclusive 0 -> 9; not reproduced 9 -> 4"."""
    from common.checks import COMPARISON_VERDICTS

    estimated = table[table["verdict_by_p_value"] != ""] if "verdict_by_p_value" in table else table.iloc[:0]
    now = {verdict: int((estimated["verdict"] == verdict).sum()) for verdict in COMPARISON_VERDICTS}
    then = {verdict: int((estimated["verdict_by_p_value"] == verdict).sum()) for verdict in COMPARISON_VERDICTS}
    return len(estimated), "; ".join(f"{name} {then[name]} -> {now[name]}" for name in COMPARISON_VERDICTS
                                     if then[name] or now[name])


def readme_markers(block):
    """The two HTML comments between which ``python reproduce.py`` writes a generated block of the README or of a
    page of ``docs/``."""
    return f"<!-- {block}: written by python reproduce.py -->", f"<!-- end of {block} -->"


def readme_counts_table(registry):
    """Per notebook, its published verdict counts and, for the claims judged by estimation, what the p-value rule
    gave them: the README's "verdict counts" block, from each ``figures/<key>/verdicts.csv``."""
    import pandas as pd

    from common.checks import VERDICTS
    from common.verdict_tables import confirmed_moves, markdown_table, verdict_counts

    short = {"partly reproduced": "partly", "not run at this scale": "not run"}
    rows = []
    for key in registry:
        verdicts_path = paths.figures_dir(key) / "verdicts.csv"
        if not verdicts_path.exists():
            continue
        table = pd.read_csv(verdicts_path, dtype=str, keep_default_na=False)
        counts = verdict_counts(table)
        row = {"notebook": f"`{key}`", "scale": table["scale"].iloc[0] if len(table) else ""}
        row.update({short.get(verdict, verdict): counts[verdict] for verdict in VERDICTS})
        row["identities verified"] = f"{counts['verified']} of {counts['verified'] + counts['not verified']}"
        n_estimated, moved = p_value_rule_moves(table)
        row["judged by estimation: p-value rule -> estimation"] = f"{n_estimated}: {moved}" if n_estimated else ""
        confirmed, confirmed_text = confirmed_moves(table)
        row["confirmatory verdicts: exploratory -> confirmatory"] = (f"{confirmed}: {confirmed_text}" if confirmed
                                                                    else "")
        rows.append(row)
    return markdown_table(pd.DataFrame(rows))


def grids_table(registry):
    """Per notebook, its published configuration, the runs it shows, how many are cached and their CPU-hours: the
    "published grids" block of ``docs/papers.md``, from the cache (runs of the module's current ``CODE_VERSION``
    only, as the runner counts them)."""
    import pandas as pd

    from common import run_records, store
    from common.verdict_tables import markdown_table
    from common.notebook import configuration, published_label
    from common.runner import code_version

    rows = []
    for key in registry:
        module = load_experiment(key, registry)
        params = configuration(module)
        # The runs the notebook shows: for the arena, scikit-optimize's cached runs whether or not it is installed.
        grid = module.notebook_grid(params)[0] if hasattr(module, "notebook_grid") else module.make_grid(params)
        keys = {store.run_key(config) for config in grid}
        version = code_version(module.run)
        papers = sorted({config["paper"] for config in grid})
        cached = [run for paper in papers for run in run_records.scan_records(paper, reuse=True)
                  if run.key in keys and run.code_version == version]
        seconds = sum(run.cost_seconds for run in cached)
        rows.append({"notebook": f"`{key}`", "published configuration": published_label(module.PUBLISHED),
                     "runs": len(keys), "cached": len(cached), "CPU-hours": seconds / 3600})
    table = pd.DataFrame(rows)
    table.loc[len(table)] = {"notebook": "all", "published configuration": "", "runs": table["runs"].sum(),
                             "cached": table["cached"].sum(), "CPU-hours": table["CPU-hours"].sum()}
    return markdown_table(table.assign(runs=table["runs"].map("{:,}".format), cached=table["cached"].map("{:,}".format),
                                       **{"CPU-hours": table["CPU-hours"].map("{:.2f}".format)}))


STABILITY_RECORD = Path(__file__).resolve().parent / "benchmarks" / "results" / "stability_across_kernels.csv"
BOOTSTRAP_RECORD = Path(__file__).resolve().parent / "benchmarks" / "results" / "bootstrap_seed_stability.csv"
BOUNDARY_RECORD = BOOTSTRAP_RECORD.with_name("boundary_cells_seeds.csv")


def stability_table(registry):
    """The "stability across kernels" block of ``docs/reproducibility.md``: per paper, what recomputing a stratified
    sample of its published runs under other OpenBLAS kernels changed (``benchmarks/stability_across_kernels.py``'s
    record)."""
    import pandas as pd

    from common.verdict_tables import markdown_table
    from common.notebook import published_label

    if not STABILITY_RECORD.exists():
        return "Not measured yet (`python benchmarks/stability_across_kernels.py <key>`)."
    record = pd.read_csv(STABILITY_RECORD, keep_default_na=False)
    record = record[record["paper"].isin(list(registry))]

    def measured_on(row):
        now = published_label(load_experiment(row.paper, registry).PUBLISHED)
        if row.published == now:
            return now
        return f"{row.published or 'not recorded'} (stale: now {now}; rerun the script)"

    rows = [{"paper": f"`{row.paper}`", "published configuration measured": measured_on(row), "kernels": row.kernel,
             "runs recomputed": (f"{row.runs_recomputed} of {row.runs_sampled} sampled "
                                 f"({row.runs_recomputed / row.runs_in_grid:.0%} of {row.runs_in_grid})"),
             "verdicts changed": (f"{row.verdicts_changed} of {row.verdicts}"
                                  + (f": {row.changed}" if row.changed else "")),
             "judged cells changed": f"{row.cells_changed} of {row.cells}",
             "effect moved, median cell": f"{row.median_effect_change_in_margins:g} margins",
             "effect moved, largest": (f"{row.largest_effect_change_in_margins:g} margins "
                                       f"({row.largest_effect_change_cell})")}
            for row in record.itertuples(index=False)]
    return markdown_table(pd.DataFrame(rows))


def multiplicity_table(registry):
    """The "multiplicity" block of ``docs/judging.md``: per notebook, the cells judged by estimation, the claims they
    belong to, the most cells one claim holds, and what a 95 % interval per cell means for them (each
    ``figures/<key>/effects.csv``).

    A cell's interval misses its true effect on a given side with probability at most (1 - CONFIDENCE) / 2, so a
    cell is wrongly supported (or wrongly contradicted) at most that often; a claim of k cells whose true effects
    all sit on their boundaries gets at least one wrong cell with probability at most 1 - (1 - that)**k."""
    import pandas as pd

    from common.verdict_tables import markdown_table
    from common.stats import CONFIDENCE

    per_side = (1 - CONFIDENCE) / 2
    rows = []
    for key in registry:
        effects_path = paths.figures_dir(key) / "effects.csv"
        if not effects_path.exists():
            continue
        effects = pd.read_csv(effects_path, keep_default_na=False)
        if effects.empty:
            continue
        per_claim = effects.groupby("id").size()
        most = int(per_claim.max())
        rows.append({"notebook": f"`{key}`", "cells judged": len(effects), "claims": len(per_claim),
                     "most cells in one claim": most,
                     "chance of a wrong cell in that claim, at most": f"{1 - (1 - per_side) ** most:.0%}",
                     "wrong cells expected, at most": f"{per_side * len(effects):.1f}"})
    if rows:
        total = sum(row["cells judged"] for row in rows)
        rows.append({"notebook": "all", "cells judged": total, "claims": sum(row["claims"] for row in rows),
                     "most cells in one claim": max(row["most cells in one claim"] for row in rows),
                     "chance of a wrong cell in that claim, at most": "",
                     "wrong cells expected, at most": f"{per_side * total:.1f}"})
    return markdown_table(pd.DataFrame(rows))


def bootstrap_stability_table(registry):
    """The "bootstrap seed" block of ``docs/judging.md``: the Monte-Carlo error of an interval end, and per paper the
    verdicts that differ from the published ones under other bootstrap seeds
    (``benchmarks/bootstrap_seed_stability.py``'s record), and the judgements of the cells nearest a decision
    boundary that differ under 50 more, with whether their reasons flag them (``benchmarks/boundary_cells_seeds.py``'s)."""
    import pandas as pd

    from common.verdict_tables import markdown_table

    if not BOOTSTRAP_RECORD.exists():
        return "Not measured yet (`python benchmarks/bootstrap_seed_stability.py`)."
    record = pd.read_csv(BOOTSTRAP_RECORD, dtype=str, keep_default_na=False)
    error = record[record["claims"] == ""]["changed"].tolist()
    papers = record[record["paper"].isin(list(registry))]
    nearest = (pd.read_csv(BOUNDARY_RECORD, dtype={"moved": int, "bootstrap_seeds": int}, keep_default_na=False)
               if BOUNDARY_RECORD.exists() else pd.DataFrame(columns=["paper", "bootstrap_seeds", "moved"]))

    def nearest_cells(paper):
        cells = nearest[nearest["paper"] == paper]
        if cells.empty:
            return "not measured"
        moved = cells[cells["moved"] > 0]
        flagged = (moved["says_within_errors"].astype(str) == "True").sum()
        judgements = moved["moved"].sum()
        return (f"{len(cells)} cells x {cells['bootstrap_seeds'].min()} seeds: {len(moved)} "
                f"{'cell differs' if len(moved) == 1 else 'cells differ'} under some seed ({judgements} "
                f"{'judgement' if judgements == 1 else 'judgements'}), {flagged} of them flagged within Monte-Carlo "
                f"error")

    rows = [{"notebook": f"`{row.paper}`", "claims": row.claims, "bootstrap seeds": row.bootstrap_seeds,
             "verdicts that differ": row.verdict_changes + (f": {row.changed}" if row.changed else ""),
             "cells nearest a boundary": nearest_cells(row.paper)}
            for row in papers.itertuples(index=False)]
    lead = (f"Monte-Carlo error of an interval end (its SD over bootstrap seeds, as a share of the half-width): "
            f"{error[0]}.\n\n" if error else "")
    return lead + markdown_table(pd.DataFrame(rows))


README_BLOCKS = {"published grids": grids_table, "verdict counts": readme_counts_table,
                 "stability across kernels": stability_table, "multiplicity": multiplicity_table,
                 "bootstrap seed": bootstrap_stability_table}


def readme_block_files():
    """The Markdown files whose generated blocks ``python reproduce.py`` rewrites: ``README.md`` and every page of
    ``docs/``, in that order (those that exist)."""
    root = paths.repo_root()
    return [path for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))] if path.is_file()]


def write_readme_blocks(registry):
    """Rewrite every generated block (:data:`README_BLOCKS`, between its :func:`readme_markers`) wherever its markers
    are: in ``README.md`` (the verdict counts) or in a page of ``docs/`` (the published grids in ``docs/papers.md``,
    the bootstrap seed and multiplicity in ``docs/judging.md``, the stability across kernels in
    ``docs/reproducibility.md``). Only where the scorecard goes to the repository (not for a redirected smoke run),
    and only blocks whose markers a file has; each table is computed once, and each changed file replaced
    atomically. Returns True if any file changed."""
    if paths.scorecard_path() != paths.repo_root() / "REPRODUCTION.md":
        return False
    tables, changed = {}, False
    for path in readme_block_files():
        text = original = path.read_text(encoding="utf-8")
        for block, table_of in README_BLOCKS.items():
            opening, closing = readme_markers(block)
            start, end = text.find(opening), text.find(closing)
            if start < 0 or end < start:
                continue
            if block not in tables:
                tables[block] = table_of(registry)
            text = text[:start + len(opening)] + "\n" + tables[block] + "\n" + text[end:]
        if text == original:
            continue
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        changed = True
    return changed


def _execute(to_execute, n_plans, reports, args):
    """Execute the notebooks of ``to_execute`` ((index, plan, reasons) each), as many at once as the local cores
    (or ``--jobs``) allow, up to :data:`MAX_NOTEBOOKS_AT_ONCE`, each kernel's runs sharing the cores out, and put
    each report in ``reports`` at its index; on Ctrl-C or SIGTERM, the executions that had not completed are
    reported as interrupted and the rest are not started."""
    from common.runner import _backend, check_backend

    n_jobs, dask_address = _backend(args.jobs, args.dask)
    cores = check_backend(n_jobs, dask_address) or os.cpu_count() or 1
    at_once = max(1, min(len(to_execute), cores, MAX_NOTEBOOKS_AT_ONCE))
    kernel_jobs = n_jobs if at_once == 1 or dask_address is not None else max(1, cores // at_once)
    plans, started = {index: plan for index, plan, _ in to_execute}, []

    def execution(index, plan, reasons):
        def execute():
            started.append(index)
            _say(f"[{index}/{n_plans}] {plan['key']}: configuration {plan['name']!r} (scale "
                 f"{plan['params']['scale']}): executing ({'; '.join(reasons)})")
            reports[index] = run_notebook(plan, kernel_jobs, dask_address)
            _say(_report_line(reports[index]))
        return execute

    try:
        for _ in _side_by_side([execution(*item) for item in to_execute], at_once):
            pass
    except (KeyboardInterrupt, Interrupted):
        for index in started:
            if index not in reports or reports[index]["error"] is not None:  # a killed kernel fails its execution
                reports[index] = {"key": plans[index]["key"], "name": plans[index]["name"], "summary": None,
                                  "error": "interrupted; its previous outputs are unchanged", "interrupted": True,
                                  "execution": None, "seconds": 0.0}


def _say(line):
    """Print one line whole, even while other threads print theirs."""
    sys.stdout.write(f"{line}\n")
    sys.stdout.flush()


def _log(reports):
    """Append what ran, when and how long to ``output/reproduce.log`` (not tracked)."""
    log = paths.output_root() / "reproduce.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    with log.open("a") as file:
        for report in reports:
            file.write(f"{now} {_report_line(report)}\n")


def _raise_interrupted(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


def main(argv=None, registry=None):
    """Command-line entry point; returns the exit status."""
    registry = NOTEBOOKS if registry is None else registry
    parser = build_parser(registry)
    args = parser.parse_args(argv)
    unknown = [name for name in args.notebooks if name not in registry]
    if unknown:
        parser.error(f"unknown notebook(s) {', '.join(map(repr, unknown))}; allowed: "
                     f"{', '.join(registry) or '(none registered)'}")
    overrides = _overrides(parser, args.parameters)
    try:  # the backend the notebooks' runners will read from the environment: checked before any work
        from common.runner import JOBS_VARIABLE, _backend_from_environment, check_backend

        check_backend(*_backend_from_environment())
    except ValueError as exc:
        parser.error(f"{exc} (from the environment: unset {JOBS_VARIABLE}; reproduce.py takes --jobs N)")
    if args.scale == "smoke":
        os.environ.setdefault(paths.RESULTS_ROOT_VARIABLE, str(paths.smoke_results_root()))
    keys = list(dict.fromkeys(args.notebooks)) or list(registry)
    plans = [_plan(parser, key, registry, args, overrides) for key in keys]
    if args.dask is not None and not args.list:
        from common.runner import check_dask

        try:
            n_workers = check_dask(args.dask)
        except ValueError as exc:
            parser.error(f"--dask: {exc}")
        print(f"Dask scheduler {args.dask}: {n_workers} workers")

    if args.publish_runs and not args.runs_only:
        parser.error("--publish-runs goes with --runs-only: runs are published into the cache by computing them, "
                     "then committed; a regeneration only reads them")
    if args.publish_runs:
        os.environ[paths.PUBLISH_VARIABLE] = "1"   # the local workers inherit it
    if args.list:
        return 1 if list_notebooks(plans, args.jobs, args.dask) else 0
    read_only = unwritable_folders(plans, args.runs_only)
    if read_only:
        parser.error(f"cannot write to {', '.join(map(str, read_only))}: the job writes its runs, notebooks and "
                     f"figures there; make {'them' if len(read_only) > 1 else 'it'} writable (e.g. chmod -R u+w), "
                     f"or point BO_RESULTS_ROOT / BO_FIGURES_ROOT elsewhere")

    print(numeric_environment_line(args.dask))
    previous_handler = signal.signal(signal.SIGTERM, _raise_interrupted)
    try:
        if args.runs_only:
            try:
                return 1 if compute_runs(plans, args.jobs, args.dask) else 0
            except (KeyboardInterrupt, Interrupted):
                print("\ninterrupted: every run that finished is saved; run the same command again to resume")
                return 130
        return _regenerate(plans, registry, args)
    finally:
        signal.signal(signal.SIGTERM, previous_handler)


def numeric_environment_line(dask_address=None):
    """What the BLAS kernels mean for the job: regeneration from the cache is byte for byte; new runs enter the
    cache only under its kernels, and go to a cache of their own otherwise (common/store.py). The kernels named are
    those of the processes that compute: this machine's, or the Dask workers' (which may differ from it)."""
    from common import runner, store

    kernels, recorded = runner.computing_kernels(dask_address), store.cache_kernels()
    where = _shown(store.results_root_for(kernels))
    computing = f"the Dask workers' OpenBLAS kernels: {kernels}" if dask_address else f"OpenBLAS kernels here: {kernels}"
    if recorded is None or kernels == recorded:
        new_runs = f"new runs: the cache's kernels, cached in {where}"
    elif os.environ.get(paths.PUBLISH_VARIABLE) == "1":
        new_runs = f"new runs: published into {where} (--publish-runs), each file recording {kernels} beside the " \
                   f"cache's {recorded} runs"
    else:
        new_runs = f"new runs: other last bits than the cache's {recorded} runs, cached apart in {where}"
    return f"{computing}; regeneration from the cache: byte for byte; {new_runs}"


def _shown(path):
    """A path relative to the repository where it lies inside it."""
    try:
        return f"{path.relative_to(paths.repo_root())}/"
    except ValueError:
        return f"{path}/"


def unwritable_folders(plans, runs_only=False):
    """The folders a job would write to that this process may not write to (each checked at its nearest existing
    folder), before anything is computed or written: the result caches, and unless ``runs_only`` the staging
    folder, each notebook's destination and figures, ``output/`` and the scorecard's folder."""
    folders = [paths.results_dir(plan["key"]) for plan in plans if "error" not in plan]
    if not runs_only:
        folders += [staging_root(), paths.output_root(), paths.scorecard_path().parent]
        folders += [folder.parent for plan in plans if "error" not in plan for folder in _destinations(plan)]
        # A figures folder is moved aside whole when its new one goes in, which needs write access to it too.
        folders += [_destinations(plan)[1] for plan in plans if "error" not in plan and _destinations(plan)[1].exists()]
    unwritable = []
    for folder in dict.fromkeys(folders):
        existing = next(path for path in [folder, *folder.parents] if path.exists())
        if existing not in unwritable and not _can_create_files_in(existing):
            unwritable.append(existing)
    return unwritable


def _can_create_files_in(folder):
    """Whether a file can be created in ``folder``: tried, since permissions alone miss read-only mounts,
    immutable folders and a superuser's rights."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _regenerate(plans, registry, args):
    recover_interrupted_swaps()
    reports, to_execute = {}, []
    for index, plan in enumerate(plans, start=1):
        if "error" in plan:
            reports[index] = {**plan, "seconds": 0.0}
            _say(_report_line(reports[index]))
            continue
        start = time.perf_counter()
        reasons = ["--force"] if args.force else reasons_to_execute(plan)
        if reasons:
            to_execute.append((index, plan, reasons))
        else:
            reports[index] = up_to_date_report(plan, time.perf_counter() - start)
            _say(_report_line(reports[index]))
    _execute(to_execute, len(plans), reports, args)
    reports = [reports[index] for index in sorted(reports)]
    _log(reports)
    published = [report for report in reports if report.get("name") == PUBLISHED_NAME and report["error"] is None]
    if published and paths.reads_foreign_cache():
        print(f"\nThe runs came from {paths.results_root()} ({paths.RESULTS_ROOT_VARIABLE}), not the committed cache: "
              f"the published configurations went to output/<key>/{PUBLISHED_NAME}/, and the tracked notebooks, "
              f"figures, REPRODUCTION.md, README.md and docs/ are left as they are.")
        published = []
    print("\nSummary")
    for report in reports:
        print(_report_line(report))
    if published:
        print(f"Scorecard: {write_scorecard(registry)}")
        if write_readme_blocks(registry):
            print("README.md and docs/: their generated tables updated")
    if any(report.get("interrupted") for report in reports):
        print("Interrupted: the notebooks that completed were swapped in; the others are unchanged.")
        return 130
    failed = [report["key"] for report in reports if report["error"] is not None]
    if failed:
        print(f"Failed: {', '.join(failed)} (their previous outputs are unchanged)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
