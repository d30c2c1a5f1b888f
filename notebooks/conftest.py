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

nbval waits up to its cell timeout (2,000 s) for a kernel that has died (e.g. killed by
SIGILL in BLAS kernels the CPU cannot run): here its waits are cut into one-second
slices and a dead kernel fails the cell at once, naming its exit code.
"""
import os
import tempfile
import time
from pathlib import Path
from queue import Empty

from nbval.kernel import RunningKernel

from common import _threads  # noqa: F401  (one BLAS thread and one set of BLAS kernels, inherited by the kernels)

_REPO_ROOT = str(Path(__file__).resolve().parent.parent)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [_REPO_ROOT, os.environ.get("PYTHONPATH")]))
os.environ["BO_FIGURES_ROOT"] = tempfile.mkdtemp(prefix="nbval-figures-")

KERNEL_POLL_SECONDS = 1.0
_get_message = RunningKernel.get_message


class DeadKernelError(RuntimeError):
    """The notebook's kernel process ended while nbval waited for its output."""


def _get_message_or_fail_if_dead(kernel, stream, timeout=None):
    """nbval's ``RunningKernel.get_message``, but raising :class:`DeadKernelError` within a second of the kernel's
    death instead of waiting for the whole timeout."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = KERNEL_POLL_SECONDS if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            return _get_message(kernel, stream, timeout=min(KERNEL_POLL_SECONDS, left))
        except Empty:
            if not kernel.km.is_alive():
                process = getattr(kernel.km.provisioner, "process", None)
                code = None if process is None else process.returncode
                raise DeadKernelError(
                    f"the notebook's kernel died (exit code {code}; -4 is SIGILL: BLAS kernels this CPU cannot "
                    f"run, see OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')!r})") from None
            if deadline is not None and time.monotonic() >= deadline:
                raise


RunningKernel.get_message = _get_message_or_fail_if_dead
