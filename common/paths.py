"""Where the companion's files live.

Every path is built from the location of this package, never from the working
directory: papermill runs kernels in the caller's directory and nbval in the
notebook's folder, so relative paths would point somewhere different in each.

Two environment variables redirect the outputs, so that tests and the CI smoke
run start from an empty cache and leave the committed figures alone:

``BO_RESULTS_ROOT``
    replaces ``data/results`` (the cached run results, one folder per paper);
``BO_FIGURES_ROOT``
    replaces ``figures`` (figures, tables, verdicts, notebook summaries), and
    then also receives the ``REPRODUCTION.md`` scorecard instead of the
    repository root;
``BO_OUTPUT_ROOT``
    replaces ``output`` (the outputs of configurations other than the
    published ones, and the log of ``reproduce.py``; not tracked).

Two more decide where new runs are cached (:func:`common.store.results_root_for`); processes started
from this one (local workers, notebook kernels) inherit them:

``BO_SCRATCH_RUNS``
    set to 1 for a configuration other than the published one and the paper
    scale: its new runs go to the scratch cache :func:`scratch_results_root`
    (``output/results``, not tracked) instead of the cache, which they are still
    looked up in first, so a run cached there is not computed again;
``BO_PUBLISH_RUNS``
    set to 1 by ``reproduce.py --runs-only --publish-runs``: new runs enter the
    cache whatever the two variables above and their BLAS kernels say.
"""
import functools
import os
import re
from pathlib import Path

RESULTS_ROOT_VARIABLE = "BO_RESULTS_ROOT"
FIGURES_ROOT_VARIABLE = "BO_FIGURES_ROOT"
OUTPUT_ROOT_VARIABLE = "BO_OUTPUT_ROOT"
#: Set to 1 (``reproduce.py --runs-only --publish-runs``): runs computed under other BLAS kernels than the cache's
#: record enter the cache itself, each recording its own kernels, instead of a cache apart.
PUBLISH_VARIABLE = "BO_PUBLISH_RUNS"
#: Set to 1 for a configuration other than the published one and the paper scale: its new runs go to
#: :func:`scratch_results_root`, never into the tracked cache.
SCRATCH_VARIABLE = "BO_SCRATCH_RUNS"

_PAPER_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


@functools.cache
def repo_root():
    """Root folder of the repository (the parent of the ``common`` package)."""
    return Path(__file__).resolve().parent.parent


def check_paper_key(paper_key):
    """Return ``paper_key`` if it is a valid key, e.g. ``"bo_pp"``, else raise ValueError.

    A key names a paper's folders, so it is restricted to lower-case letters,
    digits and underscores, starting with a letter.
    """
    if not isinstance(paper_key, str) or not _PAPER_KEY.match(paper_key):
        raise ValueError(
            f"paper_key must be lower-case letters, digits and underscores starting with a "
            f"letter (e.g. 'bo_pp'); got {paper_key!r}"
        )
    return paper_key


def _root_from_environment(variable, default):
    """The folder ``$variable`` names, else ``default``, a folder relative to the repository's root."""
    value = os.environ.get(variable)
    return _resolved(value) if value else _in_repository(repo_root(), default)


@functools.lru_cache(maxsize=32)
def _in_repository(root, relative):
    # One Path object per folder: a grid's look-ups ask for it thousands of times, and its hash is kept.
    return root / relative


@functools.lru_cache(maxsize=32)
def _resolved(path):
    # Resolved once per value: a grid's look-ups ask for their roots thousands of times.
    return Path(path).resolve()


def results_root():
    """Folder holding one result folder per paper (``data/results`` or ``$BO_RESULTS_ROOT``)."""
    return _root_from_environment(RESULTS_ROOT_VARIABLE, "data/results")


def results_dir(paper_key):
    """Folder of the cached run results of one paper (not created here)."""
    return results_root() / check_paper_key(paper_key)


def smoke_results_root():
    """Where runs at the smoke scale are cached: ``output/smoke/results`` (not tracked), never ``data/results``,
    which keeps the runs of the published and paper-scale grids."""
    return output_root() / "smoke" / "results"


def scratch_results_root():
    """Where the new runs of a configuration other than the published one and the paper scale are cached when
    :data:`SCRATCH_VARIABLE` is 1: ``output/results`` (not tracked)."""
    return output_root() / "results"


def kernel_results_root(kernels):
    """Folder of the runs computed under other BLAS kernels than the cache's (``output/results-by-kernels/<kernels>``,
    not tracked): they differ from the cached runs in the last bits, so they never enter ``data/results``."""
    if not isinstance(kernels, str) or not re.match(r"^[A-Za-z0-9+_.-]+$", kernels):
        raise ValueError(f"kernels must be a kernel name such as 'Haswell'; got {kernels!r}")
    return output_root() / "results-by-kernels" / kernels


def reads_foreign_cache():
    """Whether runs would be read from another cache than the repository's ``data/results`` while figures go to the
    repository's tracked ``figures/``: then the published outputs are not written there (they go to ``output/``),
    since a committed number must come from the committed cache."""
    return (results_root() != repo_root() / "data" / "results"
            and figures_root() == repo_root() / "figures")


def figures_root():
    """Folder holding one figure folder per paper (``figures`` or ``$BO_FIGURES_ROOT``)."""
    return _root_from_environment(FIGURES_ROOT_VARIABLE, "figures")


def figures_dir(paper_key):
    """Folder of a paper's regenerated figures, tables and verdicts (not created here)."""
    return figures_root() / check_paper_key(paper_key)


#: The file name of a paper's record of refined bootstrap intervals (:mod:`common.interval_record`).
INTERVAL_RECORD_NAME = "bootstrap_intervals.json"


def interval_record_path(paper_key, root=None):
    """A paper's record of refined bootstrap intervals, in its figures folder under ``root`` (default
    :func:`figures_root`)."""
    return (figures_root() if root is None else Path(root)) / check_paper_key(paper_key) / INTERVAL_RECORD_NAME


def paper_data_path(paper_key):
    """CSV of the numbers transcribed from the paper (format: see :mod:`common.paper_data`)."""
    return repo_root() / "data" / "paper" / f"{check_paper_key(paper_key)}.csv"


def output_dir(paper_key, configuration_name):
    """Folder of a non-published configuration's outputs, ``output/<key>/<name>/`` (not tracked)."""
    return output_root() / check_paper_key(paper_key) / configuration_name


def output_root():
    """Folder of the untracked outputs (``output`` or ``$BO_OUTPUT_ROOT``)."""
    return _root_from_environment(OUTPUT_ROOT_VARIABLE, "output")


def notebooks_dir():
    """Folder of the notebooks, one per paper."""
    return repo_root() / "notebooks"


def scorecard_path():
    """Where ``reproduce.py`` writes ``REPRODUCTION.md``.

    The repository root normally; the figures root when ``BO_FIGURES_ROOT`` is
    set, so that a smoke run does not overwrite the committed scorecard.
    """
    if os.environ.get(FIGURES_ROOT_VARIABLE):
        return figures_root() / "REPRODUCTION.md"
    return repo_root() / "REPRODUCTION.md"
