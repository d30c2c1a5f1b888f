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
environment's or OpenBLAS's own choice stands, and runs computed there may differ
from the cached ones in the last bits: :mod:`common.store` keeps them apart, in a
cache named by their kernels (:func:`kernel_name`).

numpy picks its own SIMD loops from the CPU in the same way, and its AVX-512 loops
(``X86_V4``, ``AVX512_ICL``) round some ufuncs differently from its AVX2 ones
(``X86_V3``), which most readers' CPUs run: measured on an AMD EPYC machine with
AVX-512, mini_gp_opt's figures drawn from the cache moved by one digit of a PDF
coordinate and a few PNG pixels. So numpy's loops above ``X86_V3`` are switched off
everywhere (:func:`pin_numpy_simd`), and every CPU with AVX2 draws the same figures. A run records the target
numpy ran (:func:`numpy_simd`); runs cached before this pin do not, and many were computed with numpy's AVX-512
loops, so they recompute under the pin to about 1e-16 relative rather than bit for bit.

The environment variables only take effect if they are set before numpy is first
imported (child processes inherit them); ``threadpoolctl`` limits the threads of a
BLAS that was already loaded, but its kernels can no longer change.
"""
import os

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
#: Forces these kernels past the pin (e.g. ``Haswell`` on an AVX-512 CPU): how `.ci/run` regenerates the outputs
#: under other kernels than the cache's, as on a reader's CPU.
FORCE_VARIABLE = "BO_FORCE_OPENBLAS_CORETYPE"
BLAS_CORETYPE = "SkylakeX"
# The CPU flags (as /proc/cpuinfo names them) that OpenBLAS's SkylakeX kernels need.
BLAS_CORETYPE_FLAGS = frozenset({"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"})
#: numpy's SIMD targets above AVX2 (``X86_V3``), switched off so that numpy's ufuncs round alike on every CPU with
#: AVX2; numpy ignores a name the CPU does not have.
NUMPY_DISABLED_SIMD = "X86_V4 AVX512_ICL AVX512_SPR"


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


def pin_blas_kernels(environ=None):
    """Ask OpenBLAS for the kernels the cached runs were computed with, if this CPU can run them.

    Parameters
    ----------
    environ : dict, optional
        The environment to set ``OPENBLAS_CORETYPE`` in (default: this process's, ``os.environ``).

    ``$BO_FORCE_OPENBLAS_CORETYPE`` (:data:`FORCE_VARIABLE`), where set, is pinned instead.

    Returns the core type now in ``OPENBLAS_CORETYPE``, or None if OpenBLAS chooses by itself.
    """
    environ = os.environ if environ is None else environ
    if environ.get(FORCE_VARIABLE):
        environ["OPENBLAS_CORETYPE"] = environ[FORCE_VARIABLE]
    elif BLAS_CORETYPE_FLAGS <= cpu_flags():
        environ["OPENBLAS_CORETYPE"] = BLAS_CORETYPE
    return environ.get("OPENBLAS_CORETYPE")


def pin_numpy_simd(environ=None):
    """Switch off numpy's SIMD loops above AVX2 (:data:`NUMPY_DISABLED_SIMD`) in ``environ`` (default:
    ``os.environ``), before numpy is imported. Returns the value set in ``NPY_DISABLE_CPU_FEATURES``."""
    environ = os.environ if environ is None else environ
    environ["NPY_DISABLE_CPU_FEATURES"] = NUMPY_DISABLED_SIMD
    return environ["NPY_DISABLE_CPU_FEATURES"]


def pin_blas_threads():
    """Set the BLAS thread variables to 1 and limit any already-loaded pools."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        return
    threadpool_limits(1)


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


def numpy_simd():
    """The highest of numpy's SIMD targets (``X86_V2``, ``X86_V3``, ``X86_V4``, ``AVX512_ICL``, ...) its loops use in
    this process, after :func:`pin_numpy_simd`: e.g. ``"X86_V3"``; ``"baseline"`` where none above numpy's baseline
    runs, ``"unknown"`` where numpy does not say."""
    import numpy  # noqa: F401
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # pragma: no cover - numpy < 2 or a numpy built without dispatch
        return "unknown"
    running = [target for target in __cpu_dispatch__ if __cpu_features__.get(target)]
    return running[-1] if running else "baseline"


def kernel_name(kernels=None):
    """One name for a set of OpenBLAS kernels (default: this process's, :func:`blas_kernels`): the architecture,
    e.g. ``"SkylakeX"``, or several joined by ``+`` where numpy's and scipy's differ; ``"unknown"`` if none."""
    kernels = blas_kernels() if kernels is None else kernels
    return "+".join(sorted({str(kernel) for kernel in kernels.values()})) or "unknown"


pin_blas_kernels()
pin_numpy_simd()
pin_blas_threads()
