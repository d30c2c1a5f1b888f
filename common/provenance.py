"""What a notebook's outputs were computed from, so that the main job executes only the notebooks whose inputs changed.

``reproduce.py`` executes a notebook with :data:`READ_LOG_VARIABLE` naming a log file. Every process that imports
:mod:`common` then logs each file of the repository (or of the results cache) it opens for reading: the cached runs,
the paper's numbers, plans, datasets and teaching arrays (:func:`log_reads_if_asked`, an audit hook), and the notebook's
last step logs the modules of ``common`` it imported (:func:`log_modules`). Beside the outputs, ``reproduce.py``
then writes the record ``inputs.json`` (:func:`make_record`): a digest of each file read, of each module, of
``reproduce.py`` (which writes the notebook's bytes), of the source notebook's cells, and of every output; the
parameters; Python's version and those of the pinned packages (``requirements.txt``).

A later job compares the record with the files as they are (:func:`changes`): where nothing differs, the outputs
are what an execution would write again, and the notebook is not executed (``reproduce.py --force`` executes it
anyway). Regeneration from the cache is byte for byte on every CPU (``.ci/run`` checks it under three sets of BLAS
kernels), so the kernels are not an input.
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


def _shown(path):
    """A path relative to the repository where it lies inside it, else absolute (POSIX form); a folder keeps its
    trailing ``/``."""
    folder = "/" if str(path).endswith("/") else ""
    path = Path(path)
    try:
        return path.relative_to(paths.repo_root()).as_posix() + folder
    except ValueError:
        return path.as_posix() + folder


def _resolved(shown):
    path = Path(shown)
    resolved = path if path.is_absolute() else paths.repo_root() / path
    return f"{resolved}/" if shown.endswith("/") else resolved


# --------------------------------------------------------------------------- logging what an execution reads
def _watched_roots():
    return tuple(dict.fromkeys(str(root) + os.sep for root in (paths.repo_root(), paths.results_root())))


def _is_input(path, roots, ignored):
    # Python source is an input through the modules imported (log_modules), and compiled caches (bytecode,
    # numba's) with it; an editable install's metadata (*.egg-info) is the installer's, not the project's.
    return (path.startswith(roots) and not path.startswith(ignored) and not path.endswith((".py", ".pyc"))
            and os.sep + "__pycache__" + os.sep not in path and ".egg-info" + os.sep not in path)


def _append(log_fd, path):
    if path not in _logged:
        _logged.add(path)
        os.write(log_fd, (path + "\n").encode())


def log_reads_if_asked():
    """Log every file under the repository or the results cache this process opens for reading (not Python source,
    not ``.git``, the figures being written or the log itself) to the file :data:`READ_LOG_VARIABLE` names, if set.

    An audit hook (:func:`sys.addaudithook`) sees every ``open`` of the process, whichever library opens the file.
    """
    log = os.environ.get(READ_LOG_VARIABLE)
    if not log:
        return
    log_fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
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


def make_record(source_notebook, notebook_path, figures_path, parameters, files_read):
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
    """
    inputs = {name: digest(_resolved(name)) for name in files_read}
    # A run looked for and absent in the cache of this machine's other kernels (output/results-by-kernels/) says
    # which kernels ran the job, not what the outputs came from; absent from data/ it is an input (a run to come).
    untracked = str(paths.output_root()) + os.sep
    inputs = {name: value for name, value in inputs.items()
              if value is not None or not str(_resolved(name)).startswith(untracked)}
    inputs[JOB_SCRIPT] = digest(paths.repo_root() / JOB_SCRIPT)
    return {
        "about": "Written by reproduce.py: what these outputs were computed from. While every input and output "
                 "still has these digests, reproduce.py does not execute the notebook again (--force does).",
        "parameters": _job_parameters(parameters),
        "notebook_cells": notebook_cells_digest(source_notebook),
        "packages": package_versions(),
        "inputs": dict(sorted(inputs.items())),
        "outputs": output_digests(notebook_path, figures_path),
    }


def write_record(figures_path, record):
    """Write ``record`` to ``<figures_path>/inputs.json``."""
    path = Path(figures_path) / RECORD_NAME
    path.write_text(json.dumps(record, indent=1, sort_keys=False) + "\n")
    return path


def load_record(figures_path):
    """The record in ``figures_path``, or None where there is none or it cannot be read."""
    try:
        record = json.loads((Path(figures_path) / RECORD_NAME).read_text())
    except (OSError, ValueError):
        return None
    needed = ("parameters", "notebook_cells", "packages", "inputs", "outputs")
    return record if isinstance(record, dict) and all(name in record for name in needed) else None


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
        return [f"no record of its inputs ({_shown(Path(figures_path) / RECORD_NAME)})"]
    reasons = []
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
    inputs = {name: digest(_resolved(name)) for name in record["inputs"]}
    names, listed = _differing(record["inputs"], inputs)
    if names:
        reasons.append(f"{len(names)} of its {len(inputs)} input files changed or are missing: {listed}")
    outputs = output_digests(notebook_path, figures_path)
    names, listed = _differing(record["outputs"], outputs)
    if names:
        reasons.append(f"{len(names)} of its outputs differ from those recorded: {listed}")
    return reasons
