"""Pin BLAS/OpenMP to one thread.

On a 2-core machine threaded OpenBLAS makes the small solves of BO 20-300x slower
and changes results bit-for-bit, so every process of this project runs with one
BLAS thread. The environment variables only take effect if they are set before
numpy is first imported; ``threadpoolctl`` covers the case where it already was.
"""
import os

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def pin_blas_threads():
    """Set the BLAS thread variables to 1 and limit any already-loaded pools."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        return
    threadpool_limits(1)


pin_blas_threads()
