"""Regenerate the companion's figures, tables and verdicts by running its notebooks.

Runs every registered notebook (``common/experiments/__init__.py``) with papermill
in this one process, at each notebook's default scale unless ``--scale`` is
given, reusing the cached results in ``data/results``. The executed notebooks
are written in place, and the verdict tables of all papers are gathered into the
``REPRODUCTION.md`` scorecard.

Examples
--------
    python reproduce.py                         # everything, default scales
    python reproduce.py bo_pp --scale paper     # one notebook at the paper's scale
    python reproduce.py -p n_seeds 5 --jobs 2   # override a parameter, 2 local processes
    python reproduce.py --dask tcp://10.0.0.5:8786
    python reproduce.py --list                  # what each notebook regenerates and costs

Exit status: 0 if every notebook ran, 1 if one failed, 2 for a usage error.
"""
import os

# One BLAS thread in this process and in every kernel and worker it starts; this
# must happen before numpy is imported (see common/_threads.py).
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import ast  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from common import paths  # noqa: E402
from common.experiments import NOTEBOOKS, load_experiment  # noqa: E402
from common.notebook import SCALES  # noqa: E402

BACKEND_PARAMETERS = {"scale": "--scale", "n_jobs": "--jobs", "dask_address": "--dask"}


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
    parser.add_argument("--scale", choices=SCALES, help="scale of every notebook (default: each notebook's own)")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], dest="parameters",
                        metavar=("NAME", "VALUE"),
                        help="set a notebook parameter; VALUE is read as a Python literal (repeatable)")
    backend = parser.add_mutually_exclusive_group()
    backend.add_argument("--jobs", type=_positive_int, metavar="N",
                         help="local worker processes for the runs (default: all cores)")
    backend.add_argument("--dask", metavar="ADDRESS", help="compute the runs on this Dask scheduler")
    parser.add_argument("--list", action="store_true",
                        help="list the notebooks, what they regenerate and their estimated cost per scale")
    return parser


def _overrides(parser, pairs):
    overrides = {}
    for name, text in pairs:
        if name in BACKEND_PARAMETERS:
            parser.error(f"-p {name}: use {BACKEND_PARAMETERS[name]} for this parameter")
        overrides[name] = _literal(text)
    return overrides


def _declared_parameters(module):
    import papermill

    path = paths.notebooks_dir() / module.NOTEBOOK
    if not path.exists():
        raise FileNotFoundError(f"the notebook file {path} does not exist")
    return path, papermill.inspect_notebook(str(path))


def _notebook_parameters(parser, key, module, declared, args, overrides):
    """The papermill parameters of one notebook, after checking names and values (usage error: exit 2)."""
    from common.notebook import resolve_parameters

    unknown = [name for name in overrides if name not in declared]
    if unknown:
        parser.error(f"-p {unknown[0]}: not a parameter of notebook {key!r}; its parameters: "
                     f"{', '.join(declared) or '(none)'}")
    scale = args.scale or (_literal(declared["scale"]["default"]) if "scale" in declared else None)
    if scale is not None:
        names = module.SCALES.get(scale, {})
        checked = {name: value for name, value in overrides.items() if name in names}
        try:
            resolve_parameters(scale, module.SCALES, allowed=getattr(module, "ALLOWED", None), **checked)
        except ValueError as exc:
            parser.error(f"notebook {key!r}: {exc}")
    parameters = dict(overrides)
    for name, value in (("scale", args.scale), ("n_jobs", args.jobs), ("dask_address", args.dask)):
        if value is None:
            continue
        if name in declared:
            parameters[name] = value
        else:
            print(f"note: notebook {key!r} has no parameter {name!r}; {BACKEND_PARAMETERS[name]} does not apply to it")
    return parameters


def list_notebooks(keys, registry, scales):
    """Print each notebook, what it regenerates and its cost per scale; return the keys that failed."""
    from common.notebook import resolve_parameters
    from common.runner import check_backend, estimate_cost, format_seconds

    n_cores = check_backend()

    if not keys:
        print("no notebooks registered (see common/experiments/__init__.py)")
    failed = []
    for key in keys:
        try:
            module = load_experiment(key, registry)
        except Exception as exc:  # a broken module is reported, the others still listed
            print(f"{key}: cannot load its experiment module: {type(exc).__name__}: {exc}")
            failed.append(key)
            continue
        print(f"{key}: {module.TITLE}")
        print(f"  notebook: notebooks/{module.NOTEBOOK}")
        print(f"  regenerates: {', '.join(module.OUTPUTS) or '(nothing)'}")
        for scale in scales:
            if scale not in module.SCALES:
                print(f"  {scale}: not defined")
                continue
            try:
                estimate = estimate_cost(module.make_grid(resolve_parameters(scale, module.SCALES)))
                elapsed = (f", about {format_seconds(estimate.wall_seconds(n_cores))} on {n_cores} cores"
                           if estimate.cpu_seconds else "")
                print(f"  {scale}: {estimate}{elapsed}")
            except Exception as exc:
                print(f"  {scale}: cannot build the grid: {type(exc).__name__}: {exc}")
                failed.append(key)
    return failed


def run_notebook(key, path, parameters):
    """Execute one notebook in place with papermill; return its report."""
    import papermill

    folder = paths.figures_dir(key)
    summary_path = folder / "summary.json"
    for stale in ("summary.json", "verdicts.csv", "verdicts.md"):  # must not pass for this execution's
        (folder / stale).unlink(missing_ok=True)
    executed = path.with_name(f".{path.stem}.executing{path.suffix}")
    start = time.perf_counter()
    error = None
    try:
        papermill.execute_notebook(str(path), str(executed), parameters=parameters, kernel_name="python3",
                                   cwd=str(paths.repo_root()), progress_bar=False)
        executed.replace(path)  # the committed notebook is replaced only by a complete execution
    except papermill.PapermillExecutionError as exc:
        error = f"cell {exc.exec_count}: {exc.ename}: {exc.evalue}"
    except Exception as exc:  # the kernel or papermill itself failed; the other notebooks still run
        error = f"{type(exc).__name__}: {exc}"
    executed.unlink(missing_ok=True)
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else None
    if error is None and summary is None:
        error = f"no {summary_path.name} written (the notebook must call write_notebook_summary)"
    return {"key": key, "error": error, "seconds": time.perf_counter() - start, "summary": summary}


def _report_line(report):
    from common.claims import VERDICTS, format_counts

    status = "ok" if report["error"] is None else "FAILED"
    line = f"{report['key']:<20} {status:<7} {report['seconds']:7.1f} s"
    summary = report["summary"]
    if summary:
        counts = {verdict: summary["verdicts"].get(verdict, 0) for verdict in VERDICTS}
        line += (f"   scale {summary['scale']}   runs {summary['runs_loaded']} loaded, "
                 f"{summary['runs_computed']} computed   figures {len(summary['figures'])}   {format_counts(counts)}")
    if report["error"]:
        line += f"\n{'':<20} {report['error']}"
    return line


def write_scorecard(registry):
    """Gather every paper's verdict table into REPRODUCTION.md; return its path."""
    import pandas as pd

    from common.claims import VERDICTS, format_counts, markdown_table, verdict_counts

    sections, totals = [], dict.fromkeys(VERDICTS, 0)
    for key in registry:
        try:
            module = load_experiment(key, registry)
            title, notebook = module.TITLE, f"notebooks/{module.NOTEBOOK}"
        except Exception:  # the listing of the other papers must not depend on one broken module
            title, notebook = key, "(experiment module does not load)"
        verdicts_path = paths.figures_dir(key) / "verdicts.csv"
        sections.append(f"## {key}: {title}\n")
        if not verdicts_path.exists():
            sections.append(f"Not run yet ({notebook} has written no verdicts).\n")
            continue
        table = pd.read_csv(verdicts_path, dtype=str, keep_default_na=False)
        scale = table["scale"].iloc[0] if len(table) else "unknown"
        counts = verdict_counts(table)
        totals = {verdict: totals[verdict] + counts[verdict] for verdict in VERDICTS}
        sections.append(f"Notebook: {notebook}. Scale: {scale}. {format_counts(counts)}.\n")
        sections.append(markdown_table(table.drop(columns="scale")) + "\n")
    header = ("# Reproduction scorecard\n\n"
              "One verdict per claim of each paper, gathered by `python reproduce.py` from "
              "`figures/<key>/verdicts.csv`. Verdicts: " + ", ".join(VERDICTS) + ".\n\n"
              f"All papers: {format_counts(totals)}.\n")
    path = paths.scorecard_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([header, *sections]))
    return path


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
    keys = list(dict.fromkeys(args.notebooks)) or list(registry)

    if args.list:
        return 1 if list_notebooks(keys, registry, [args.scale] if args.scale else SCALES) else 0

    reports, planned = [], []
    for key in keys:
        try:
            module = load_experiment(key, registry)
            path, declared = _declared_parameters(module)
        except Exception as exc:  # reported as this notebook's failure; the others still run
            reports.append({"key": key, "error": f"{type(exc).__name__}: {exc}", "seconds": 0.0, "summary": None})
            continue
        planned.append((key, path, _notebook_parameters(parser, key, module, declared, args, overrides)))

    for index, (key, path, parameters) in enumerate(planned, start=1):
        shown = path.relative_to(paths.repo_root()) if path.is_relative_to(paths.repo_root()) else path
        print(f"[{index}/{len(planned)}] {key}: running {shown} "
              f"with {parameters or 'its defaults'}", flush=True)
        reports.append(run_notebook(key, path, parameters))
        print(_report_line(reports[-1]), flush=True)

    scorecard = write_scorecard(registry)
    print("\nSummary")
    for report in reports:
        print(_report_line(report))
    print(f"Scorecard: {scorecard}")
    failed = [report["key"] for report in reports if report["error"] is not None]
    if failed:
        print(f"Failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
