"""Settings for nbval's checks of the committed notebooks (``--nbval-lax`` in pyproject.toml).

nbval starts each notebook's kernel in this folder with this process's
environment, so the variables set here reach the kernels:

* one BLAS thread and one set of BLAS kernels (``common._threads``);
* the repository root joins ``PYTHONPATH``, so that ``import common`` works even
  where the package was not installed with ``pip install -e .``;
* ``BO_FIGURES_ROOT`` sends the figures, verdicts and summary a notebook writes
  to a temporary folder, so that a test run leaves the committed ones alone.
  The committed result cache (``data/results``) stays in use: the notebooks
  re-execute from it, which is what makes their checked outputs reproducible.
"""
import os
import tempfile
from pathlib import Path

from common import _threads  # noqa: F401  (one BLAS thread and one set of BLAS kernels, inherited by the kernels)

_REPO_ROOT = str(Path(__file__).resolve().parent.parent)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [_REPO_ROOT, os.environ.get("PYTHONPATH")]))
os.environ["BO_FIGURES_ROOT"] = tempfile.mkdtemp(prefix="nbval-figures-")
