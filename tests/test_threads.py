"""BLAS runs one thread and, where the CPU allows, the kernels the cached runs were computed with."""
import os

import pytest
from threadpoolctl import threadpool_info

from common import _threads


def test_cpu_flags_are_read_from_the_first_flags_line(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f\n\nprocessor\t: 1\nflags\t\t: fpu\n")
    assert _threads.cpu_flags(str(cpuinfo)) == {"fpu", "avx2", "avx512f"}
    assert _threads.cpu_flags(str(tmp_path / "missing")) == frozenset()


@pytest.mark.parametrize("flags, inherited, expected", [
    (_threads.BLAS_CORETYPE_FLAGS | {"avx2"}, None, _threads.BLAS_CORETYPE),
    (_threads.BLAS_CORETYPE_FLAGS, "Haswell", _threads.BLAS_CORETYPE),  # the cache needs these kernels
    ({"avx2", "fma", "avx512f"}, None, None),
    ({"avx2", "fma"}, "Haswell", "Haswell"),
])
def test_the_kernels_are_pinned_wherever_the_cpu_can_run_them(flags, inherited, expected, monkeypatch):
    environ = {} if inherited is None else {"OPENBLAS_CORETYPE": inherited}
    monkeypatch.setattr(_threads, "cpu_flags", lambda: frozenset(flags))
    assert _threads.pin_blas_kernels(environ) == expected
    assert environ.get("OPENBLAS_CORETYPE") == expected


def test_forced_kernels_pass_the_pin(monkeypatch):
    monkeypatch.setattr(_threads, "cpu_flags", lambda: _threads.BLAS_CORETYPE_FLAGS)
    environ = {_threads.FORCE_VARIABLE: "Sandybridge"}
    assert _threads.pin_blas_kernels(environ) == "Sandybridge" == environ["OPENBLAS_CORETYPE"]


def test_this_process_runs_one_blas_thread_with_the_pinned_kernels_where_the_cpu_can_run_them():
    import numpy  # noqa: F401  (loads OpenBLAS)
    pools = [pool for pool in threadpool_info() if pool["internal_api"] == "openblas"]
    assert pools and all(pool["num_threads"] == 1 for pool in pools)
    forced = os.environ.get(_threads.FORCE_VARIABLE)
    if forced:
        assert {pool["architecture"] for pool in pools} == {forced}
    elif _threads.BLAS_CORETYPE_FLAGS <= _threads.cpu_flags():
        assert {pool["architecture"] for pool in pools} == {_threads.BLAS_CORETYPE}


def test_this_process_runs_none_of_numpys_simd_loops_above_avx2():
    from numpy._core._multiarray_umath import __cpu_features__
    assert not any(__cpu_features__.get(target) for target in _threads.NUMPY_DISABLED_SIMD.split())


@pytest.mark.parametrize("kernels, name", [
    ({"libopenblas.so": "SkylakeX", "libscipy_openblas.so": "SkylakeX"}, "SkylakeX"),
    ({"libopenblas.so": "SkylakeX", "libscipy_openblas.so": "Haswell"}, "Haswell+SkylakeX"),
    ({}, "unknown"),
])
def test_a_set_of_kernels_has_one_name(kernels, name):
    assert _threads.kernel_name(kernels) == name


def test_a_dead_notebook_kernel_fails_its_cell_at_once_not_after_the_timeout():
    import importlib.util
    import time
    from queue import Empty

    from common import paths
    spec = importlib.util.spec_from_file_location("notebook_conftest", paths.notebooks_dir() / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)

    class DeadKernelManager:
        provisioner = None

        def is_alive(self):
            return False

    class Kernel:
        km = DeadKernelManager()

        class kc:  # noqa: N801  (jupyter_client's attribute name)
            @staticmethod
            def get_iopub_msg(timeout=None):
                time.sleep(min(timeout, 0.05))
                raise Empty

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="kernel died"):  # the DeadKernelError of whichever copy patched nbval
        conftest._get_message_or_fail_if_dead(Kernel(), "iopub", timeout=2000)
    assert time.monotonic() - start < 5
