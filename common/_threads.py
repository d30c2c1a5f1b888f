"""Pin BLAS to one thread and to one set of kernels, so that results repeat bit for bit.

On a 2-core machine threaded OpenBLAS makes the small solves of BO 20-300x slower
and changes results bit-for-bit, so every process of this project runs with one
BLAS thread.

OpenBLAS also picks its kernels from the CPU when it loads, and kernels written for
different architectures round differently in the last bits; a BO run then queries
other points after a few iterations, and a cached run no longer recomputes to its
stored numbers. Every cached run of this repository was computed with OpenBLAS's
``SkylakeX`` kernels, so they are pinned wherever the CPU has the AVX-512 features
they need, over an ``OPENBLAS_CORETYPE`` the environment may set (measured on an
AMD Zen 5 machine whose environment sets ``OPENBLAS_CORETYPE=Haswell``: with the
``Haswell`` kernels bo_basics' runs differ from the cache in the 17th digit, and
with ``SkylakeX`` they recompute bit for bit). On a CPU without AVX-512 the
environment's or OpenBLAS's own choice stands, and cached runs may differ in the
last bits there.

The environment variables only take effect if they are set before numpy is first
imported (child processes inherit them); ``threadpoolctl`` limits the threads of a
BLAS that was already loaded, but its kernels can no longer change.
"""
import os

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
BLAS_CORETYPE = "SkylakeX"
# The CPU flags (as /proc/cpuinfo names them) that OpenBLAS's SkylakeX kernels need.
BLAS_CORETYPE_FLAGS = frozenset({"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"})


def cpu_flags(cpuinfo="/proc/cpuinfo"):
    """The instruction-set flags of the first CPU listed in ``cpuinfo``; empty where it cannot be read."""
    try:
        with open(cpuinfo) as lines:
            for line in lines:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def pin_blas_kernels():
    """Ask OpenBLAS for the kernels the cached runs were computed with, if this CPU can run them.

    Returns the core type now in ``OPENBLAS_CORETYPE``, or None if OpenBLAS chooses by itself.
    """
    if BLAS_CORETYPE_FLAGS <= cpu_flags():
        os.environ["OPENBLAS_CORETYPE"] = BLAS_CORETYPE
    return os.environ.get("OPENBLAS_CORETYPE")


def pin_blas_threads():
    """Set the BLAS thread variables to 1 and limit any already-loaded pools."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        return
    threadpool_limits(1)


class NumericEnvironmentError(RuntimeError):
    """This process computes with other BLAS kernels than the cached runs were computed with."""


def blas_kernels():
    """The kernels of every loaded OpenBLAS, ``{library file name: architecture}``, after loading numpy's and
    scipy's (what ``threadpoolctl`` reports; empty if it cannot tell)."""
    import numpy  # noqa: F401  (loads numpy's BLAS)
    import scipy.linalg  # noqa: F401  (loads scipy's)
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        return {}
    return {os.path.basename(library["filepath"]): library.get("architecture") for library in threadpool_info()
            if library.get("internal_api") == "openblas"}


def check_blas_kernels(kernels=None, where="this process"):
    """Raise :class:`NumericEnvironmentError` if an OpenBLAS of ``kernels`` (default: this process's,
    :func:`blas_kernels`) runs other kernels than :data:`BLAS_CORETYPE` on a CPU that can run them.

    That happens when numpy was imported before :mod:`common` set ``OPENBLAS_CORETYPE`` (a notebook whose first
    import is numpy, a Dask worker started without the variable): runs computed there differ from the cache in
    the last bits, so none may be computed.
    """
    if not BLAS_CORETYPE_FLAGS <= cpu_flags():
        return
    kernels = blas_kernels() if kernels is None else kernels
    other = {name: kernel for name, kernel in kernels.items() if kernel != BLAS_CORETYPE}
    if other:
        raise NumericEnvironmentError(
            f"OpenBLAS in {where} runs other kernels ({other}) than the {BLAS_CORETYPE} kernels every cached run "
            f"was computed with, so new runs would differ from them in the last bits. numpy was loaded before "
            f"`common` pinned the kernels: import common before numpy (in a notebook, restart the kernel and run "
            f"the import cell, which imports common first), or start the process with "
            f"OPENBLAS_CORETYPE={BLAS_CORETYPE} in its environment (e.g. `OPENBLAS_CORETYPE={BLAS_CORETYPE} "
            f"dask worker ...`).")


pin_blas_kernels()
pin_blas_threads()
