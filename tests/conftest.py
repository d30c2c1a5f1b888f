# One BLAS thread and one set of BLAS kernels before anything loads numpy (see common/_threads.py).
from common import _threads  # noqa: F401
