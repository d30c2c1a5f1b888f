"""Start a Dask worker for this project: ``python -m common.dask_worker <scheduler address> [dask worker options]``.

Pins one BLAS thread, and the committed cache's OpenBLAS kernels where this CPU can run them (common/_threads.py),
in the environment the worker inherits, then runs ``dask worker`` with the given arguments. On a CPU that cannot
run the cache's kernels the worker computes with its own; its runs record them and are cached apart
(common/store.py), so nothing ends in SIGILL and nothing mixes the cache's last bits.
"""
import os
import shutil
import sys

from common import _threads


def main(arguments):
    if not arguments or arguments[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if arguments else 2
    dask = shutil.which("dask")
    if dask is None:
        print("error: the `dask` command is not on PATH; install the requirements (pip install -r requirements.txt) "
              "in this environment", file=sys.stderr)
        return 2
    _threads.pin_blas_kernels()
    _threads.pin_blas_threads()
    os.execv(dask, [dask, "worker", *arguments])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
