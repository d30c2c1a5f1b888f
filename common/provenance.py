"""What a notebook's outputs were computed from, so that the main job executes only the notebooks whose inputs changed.

``reproduce.py`` executes a notebook with :data:`READ_LOG_VARIABLE` naming a log file. Every process that imports
:mod:`common` then logs each file of the repository (or of the results cache) it opens for reading: the cached runs,
the paper's numbers, plans, datasets and teaching arrays (:func:`log_reads_if_asked`, an audit hook), and the notebook's
last step logs the modules of ``common`` it imported (:func:`log_modules`). Beside the outputs, ``reproduce.py``
then writes the record ``inputs.json`` (:func:`make_record`): a digest of each file read, of each module, of
``reproduce.py`` (which writes the notebook's bytes), of the source notebook's cells, and of every output; the
parameters; Python's version and those of the pinned packages (``requirements.txt``).

The record also names the settings an output can depend on besides files (:func:`settings`: which results cache
and output folder the job read), names every file relative to the repository or to a named root (never by an
absolute path, which would keep vouching for a cache the job no longer reads), counts a file the code looked for
and did not find as an input (:func:`looked_for`), and carries a digest of itself, so that a hand-edited record is
not trusted.

A later job compares the record with the files as they are (:func:`changes`): where nothing differs, the outputs
are what an execution would write again, and the notebook is not executed (``reproduce.py --force`` executes it
anyway). Regeneration from the cache is byte for byte on every CPU (``.ci/run`` checks it under three sets of BLAS
kernels), so the kernels are not an input.

What the skip does not promise: it sees the files the code opened, listed or looked for, the modules of ``common``
it imported, the pinned packages' versions and the settings above; not a change inside an installed package at
the same version, nor a system library (fonts, BLAS) the packages load. ``reproduce.py --force`` executes
everything and is the full check (``.ci/run`` runs it).
"""
import hashlib
import json
import os
import platform
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import common.paths as paths  # not "from common import": common itself imports this module

#: Set by ``reproduce.py`` to a file: each process that imports :mod:`common` appends the files it reads to it.
READ_LOG_VARIABLE = "BO_READ_LOG"
#: The record's name, inside the figures folder it describes.
RECORD_NAME = "inputs.json"
#: Hex digits kept of each file's SHA-256: enough to notice any change, short enough to read.
DIGEST_LENGTH = 16
#: What writes a notebook's bytes besides its code (its scrubbing of volatile metadata).
JOB_SCRIPT = "reproduce.py"

_logged = set()
_log_fd = None


def digest(path):
    """The first :data:`DIGEST_LENGTH` hex digits of the SHA-256 of a file's bytes, or for a folder (named with a
    trailing ``/``) of the names it lists (hidden ones aside: locks and files being written); None if absent."""
    try:
        if str(path).endswith("/"):
            names = sorted(name for name in os.listdir(path) if not name.startswith("."))
            return hashlib.sha256("\n".join(names).encode()).hexdigest()[:DIGEST_LENGTH]
        with open(path, "rb") as file:
            return hashlib.file_digest(file, "sha256").hexdigest()[:DIGEST_LENGTH]
    except (FileNotFoundError, NotADirectoryError):
        return None


def _named_roots():
    """The roots a recorded path is relative to, first match wins: the repository, then the caches a variable may
    move outside it, named by their variable, so that a record resolves them where the variable points now."""
    return {"": paths.repo_root(), f"${paths.RESULTS_ROOT_VARIABLE}/": paths.results_root(),
            f"${paths.OUTPUT_ROOT_VARIABLE}/": paths.output_root()}


def _shown(path):
    """A path relative to the repository where it lies inside it, else to a named root (``$BO_RESULTS_ROOT/...``),
    else absolute (POSIX form; the record keeps no such path, see :func:`make_record`); a folder keeps its trailing
    ``/``."""
    folder = "/" if str(path).endswith("/") else ""
    path = Path(path)
    for name, root in _named_roots().items():
        try:
            relative = path.relative_to(root).as_posix()
        except ValueError:
            continue
        return (name.rstrip("/") or ".") + folder if relative == "." else name + relative + folder
    return path.as_posix() + folder


def path_of(shown):
    """The file (or folder, with a trailing ``/``) that a recorded name (:func:`_shown`) stands for, where its root
    points now."""
    roots = _named_roots()
    name = shown.split("/", 1)[0] + "/" if shown.startswith("$") else ""
    if name and name not in roots:
        return Path(shown)  # a root this version does not know: absent, so a change
    relative = shown[len(name):]
    path = Path(relative)
    resolved = path if path.is_absolute() else roots[name] / path
    return f"{resolved}/" if shown.endswith("/") else resolved


# --------------------------------------------------------------------------- logging what an execution reads
def _watched_roots():
    return tuple(dict.fromkeys(str(root) + os.sep for root in (paths.repo_root(), paths.results_root())))


def _is_input(path, roots, ignored):
    # Python source is an input through the modules imported (log_modules), and compiled caches (bytecode,
    # numba's) with it; an editable install's metadata (*.egg-info) is the installer's, not the project's.
    # A record of bootstrap intervals only saves their recomputation (common.interval_record): the outputs are the
    # same bytes without it.
    return (path.startswith(roots) and not path.startswith(ignored) and not path.endswith((".py", ".pyc"))
            and os.sep + "__pycache__" + os.sep not in path and ".egg-info" + os.sep not in path
            and os.path.basename(path) != paths.INTERVAL_RECORD_NAME)


def _append(log_fd, path):
    if path not in _logged:
        _logged.add(path)
        os.write(log_fd, (path + "\n").encode())


def log_reads_if_asked():
    """Log every file under the repository or the results cache this process opens for reading (not Python source,
    not ``.git``, the figures being written or the log itself) to the file :data:`READ_LOG_VARIABLE` names, if set.

    An audit hook (:func:`sys.addaudithook`) sees every ``open`` of the process, whichever library opens the file.
    """
    global _log_fd
    log = os.environ.get(READ_LOG_VARIABLE)
    if not log:
        return
    log_fd = _log_fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    roots = _watched_roots()
    # Installed packages are inputs through their versions (package_versions), even inside the repository.
    ignored = tuple(str(Path(folder).resolve()) + os.sep for folder in (
        paths.repo_root() / ".git", paths.figures_root(), Path(log).resolve().parent, sys.prefix, sys.exec_prefix,
        *sysconfig.get_paths().values()))
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT
    # Which runs exist is an input where a folder of runs is listed (e.g. to price a grid's missing runs); Python's
    # importers list the package folders too, which are inputs through their modules instead.
    listed_roots = tuple(dict.fromkeys(str(root) + os.sep for root in (
        paths.repo_root() / "data", paths.results_root(), paths.output_root() / "results-by-kernels")))

    def hook(event, args):
        if event in ("os.scandir", "os.listdir"):
            folder = os.path.abspath(os.fsdecode(args[0])) if isinstance(args[0], (str, bytes, os.PathLike)) else ""
            if (folder + os.sep).startswith(listed_roots):
                _append(log_fd, folder + "/")
            return
        if event != "open" or not isinstance(args[0], (str, os.PathLike)):
            return
        mode, flags = args[1], args[2]
        writes = any(letter in mode for letter in "wax+") if isinstance(mode, str) else bool(flags & write_flags)
        if not writes:
            path = os.path.abspath(args[0])
            if _is_input(path, roots, ignored):
                _append(log_fd, path)

    sys.addaudithook(hook)


def looked_for(path):
    """Whether ``path`` exists, logged as an input of the execution (:data:`READ_LOG_VARIABLE`) either way.

    The code's way to read an optional file (``if provenance.looked_for(path): read(path)``): the audit hook sees
    files opened, not existence checks, and a file that appears where the code looked for it can change the
    outputs as much as one that changes. Recorded absent (digest None), its creation re-executes the notebook.

    Parameters
    ----------
    path : path-like

    Returns
    -------
    bool
    """
    path = Path(path)
    if _log_fd is not None:
        _append(_log_fd, os.path.abspath(path))
    return path.exists()


def log_modules():
    """Log the source file of every module of :mod:`common` this process imported (to :data:`READ_LOG_VARIABLE`'s
    file, if set): the code the outputs came from. Called by :func:`common.notebook.write_notebook_summary`."""
    log = os.environ.get(READ_LOG_VARIABLE)
    if not log:
        return
    package = str(paths.repo_root() / "common") + os.sep
    # This module only records; what it records does not depend on its own code.
    files = sorted({module.__file__ for name, module in list(sys.modules.items())
                    if (name == "common" or name.startswith("common.")) and name != __name__
                    and getattr(module, "__file__", None) and module.__file__.startswith(package)})
    with open(log, "a") as file:
        file.writelines(f"{path}\n" for path in files)


def read_log(log):
    """The files a log lists, as the record names them (:func:`_shown`), sorted and without repeats."""
    try:
        lines = Path(log).read_text().splitlines()
    except FileNotFoundError:
        return []
    return sorted({_shown(line) for line in lines if line})


# --------------------------------------------------------------------------- the record
def settings():
    """What an output depends on besides files: which results cache the runs were read from, and which output
    folder the runs of other BLAS kernels were looked for in, each as the record names paths (:func:`_shown`)."""
    return {"results cache": _shown(f"{paths.results_root()}/"), "output folder": _shown(f"{paths.output_root()}/")}


def _record_digest(record):
    """Digest of a record without its own digest: a record edited by hand (or forged without recomputing it) no
    longer matches, and is not trusted."""
    content = {name: value for name, value in record.items() if name != "record digest"}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:DIGEST_LENGTH]


def package_versions(requirements=None):
    """Python's version and the installed version of every package ``requirements.txt`` pins (None if absent)."""
    requirements = paths.repo_root() / "requirements.txt" if requirements is None else Path(requirements)
    names = [line.split("==")[0].strip() for line in requirements.read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    versions = {"python": platform.python_version()}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def notebook_cells_digest(notebook_path):
    """Digest of a notebook's cells as written (type and source), without outputs, metadata or the parameters
    papermill injects: what a reader edits."""
    cells = json.loads(Path(notebook_path).read_text())["cells"]
    written = [[cell["cell_type"], "".join(cell["source"])] for cell in cells
               if "injected-parameters" not in cell.get("metadata", {}).get("tags", [])]
    return hashlib.sha256(json.dumps(written).encode()).hexdigest()[:DIGEST_LENGTH]


def output_digests(notebook_path, figures_path):
    """Digests of the outputs: the executed notebook and every file of its figures folder but the record."""
    figures_path = Path(figures_path)
    outputs = {"notebook": digest(notebook_path)}
    for path in sorted(figures_path.rglob("*")):
        if path.is_file() and path.name != RECORD_NAME:
            outputs[path.relative_to(figures_path).as_posix()] = digest(path)
    return outputs


def _job_parameters(parameters):
    return json.loads(json.dumps(parameters, sort_keys=True, default=str))


#: The digest a record gives an input that changed while the notebook ran: it matches no file, so the notebook is
#: executed again next time rather than trusted with outputs computed from what the file was before.
CHANGED_DURING_EXECUTION = "changed during the execution"


def code_snapshot(source_notebook):
    """Digests of what an execution runs, taken as it starts: every module of ``common``, the notebooks and the job
    script, by their recorded names (:func:`make_record` compares them with the files when it records them)."""
    root = paths.repo_root()
    files = [*sorted(root.glob("common/**/*.py")), *sorted(root.glob("notebooks/*.ipynb")), root / JOB_SCRIPT,
             Path(source_notebook)]
    return {_shown(path): digest(path) for path in files}


def make_record(source_notebook, notebook_path, figures_path, parameters, files_read, before=None):
    """The record of one execution: what its outputs (``notebook_path``, ``figures_path``) were computed from.

    Parameters
    ----------
    source_notebook : path
        The notebook executed (the published one is its own source).
    notebook_path, figures_path : path
        The executed notebook and its figures folder, as they will be published.
    parameters : dict
        The parameters the notebook ran with.
    files_read : list of str
        The files its execution read and the modules it imported (:func:`read_log`).
    before : dict, optional
        :func:`code_snapshot` as the execution started: a file whose digest differs now was edited while the
        notebook ran (which may have imported it before or after), so the record gives it
        :data:`CHANGED_DURING_EXECUTION` instead of a digest the outputs may not come from.
    """
    outside = [name for name in files_read if name.startswith("/")]
    if outside:
        raise ValueError(f"an execution read {len(outside)} files outside the repository and its named caches "
                         f"(e.g. {outside[0]}): a record names inputs by relative paths only")
    inputs = {name: digest(path_of(name)) for name in files_read}
    # A run looked for and absent in the cache of this machine's other kernels (output/results-by-kernels/) says
    # which kernels ran the job, not what the outputs came from; absent from data/ it is an input (a run to come).
    untracked = str(paths.output_root()) + os.sep
    inputs = {name: value for name, value in inputs.items()
              if value is not None or not str(path_of(name)).startswith(untracked)}
    inputs[JOB_SCRIPT] = digest(paths.repo_root() / JOB_SCRIPT)
    cells = notebook_cells_digest(source_notebook)
    if before is not None:
        inputs = {name: CHANGED_DURING_EXECUTION if name in before and before[name] != value else value
                  for name, value in inputs.items()}
        source = _shown(source_notebook)
        if source in before and before[source] != digest(source_notebook):
            cells = CHANGED_DURING_EXECUTION
    record = {
        "about": "Written by reproduce.py: what these outputs were computed from. While every input and output "
                 "still has these digests, reproduce.py does not execute the notebook again (--force does). "
                 "Edited by hand, the record no longer matches its own digest and is not trusted.",
        "settings": settings(),
        "parameters": _job_parameters(parameters),
        "notebook_cells": cells,
        "packages": package_versions(),
        "inputs": dict(sorted(inputs.items())),
        "outputs": output_digests(notebook_path, figures_path),
    }
    record["record digest"] = _record_digest(record)
    return record


def write_record(figures_path, record):
    """Write ``record`` to ``<figures_path>/inputs.json``."""
    path = Path(figures_path) / RECORD_NAME
    path.write_text(json.dumps(record, indent=1, sort_keys=False) + "\n")
    return path


def load_record(figures_path):
    """The record in ``figures_path``, or None where there is none, it cannot be read, or it does not match its own
    digest (edited by hand)."""
    try:
        record = json.loads((Path(figures_path) / RECORD_NAME).read_text())
    except (OSError, ValueError):
        return None
    needed = ("settings", "parameters", "notebook_cells", "packages", "inputs", "outputs", "record digest")
    if not isinstance(record, dict) or not all(name in record for name in needed):
        return None
    return record if record["record digest"] == _record_digest(record) else None


def _differing(recorded, current, shown=3):
    names = [name for name in sorted(set(recorded) | set(current)) if recorded.get(name) != current.get(name)]
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return names, ", ".join(names[:shown]) + more


def changes(source_notebook, notebook_path, figures_path, parameters):
    """Why a notebook's outputs may not be what an execution would write now; an empty list if they are.

    Parameters
    ----------
    source_notebook, notebook_path, figures_path, parameters
        As for :func:`make_record`.

    Returns
    -------
    list of str
        One reason per kind of change (parameters, notebook cells, packages, inputs, outputs), naming the first
        files that differ.
    """
    record = load_record(figures_path)
    if record is None:
        return [f"no trustworthy record of its inputs ({_shown(Path(figures_path) / RECORD_NAME)} is missing, "
                f"unreadable, or does not match its own digest)"]
    reasons = []
    if record["settings"] != settings():
        names, listed = _differing(record["settings"], settings())
        reasons.append("other settings: " + ", ".join(
            f"{name} {record['settings'].get(name)} -> {settings().get(name)}" for name in names))
    if record["parameters"] != _job_parameters(parameters):
        names, listed = _differing(record["parameters"], _job_parameters(parameters))
        reasons.append(f"parameters changed: {listed}")
    if not Path(source_notebook).exists() or record["notebook_cells"] != notebook_cells_digest(source_notebook):
        reasons.append(f"the notebook's cells changed ({_shown(source_notebook)})")
    packages = package_versions()
    if record["packages"] != packages:
        names, _ = _differing(record["packages"], packages)
        reasons.append("other package versions: " + ", ".join(
            f"{name} {record['packages'].get(name)} -> {packages.get(name)}" for name in names[:3])
            + (f" and {len(names) - 3} more" if len(names) > 3 else ""))
    inputs = {name: digest(path_of(name)) for name in record["inputs"]}
    names, listed = _differing(record["inputs"], inputs)
    if names:
        reasons.append(f"{len(names)} of its {len(inputs)} input files changed or are missing: {listed}")
    outputs = output_digests(notebook_path, figures_path)
    names, listed = _differing(record["outputs"], outputs)
    if names:
        reasons.append(f"{len(names)} of its outputs differ from those recorded: {listed}")
    return reasons
