"""BLAS runs one thread and, where the CPU allows, the kernels the cached runs were computed with."""
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
    if inherited is None:
        monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_CORETYPE", inherited)
    monkeypatch.setattr(_threads, "cpu_flags", lambda: frozenset(flags))
    assert _threads.pin_blas_kernels() == expected


def test_this_process_runs_one_blas_thread_with_the_pinned_kernels_where_the_cpu_can_run_them():
    import numpy  # noqa: F401  (loads OpenBLAS)
    pools = [pool for pool in threadpool_info() if pool["internal_api"] == "openblas"]
    assert pools and all(pool["num_threads"] == 1 for pool in pools)
    if _threads.BLAS_CORETYPE_FLAGS <= _threads.cpu_flags():
        assert {pool["architecture"] for pool in pools} == {_threads.BLAS_CORETYPE}


@pytest.mark.parametrize("flags, kernels, refused", [
    (_threads.BLAS_CORETYPE_FLAGS, {"libopenblas.so": _threads.BLAS_CORETYPE}, False),
    (_threads.BLAS_CORETYPE_FLAGS, {"libopenblas.so": _threads.BLAS_CORETYPE, "libscipy.so": "Haswell"}, True),
    ({"avx2", "fma"}, {"libopenblas.so": "Haswell"}, False),  # the pinned kernels cannot run here: nothing to check
])
def test_other_kernels_than_the_pinned_ones_are_refused_where_the_cpu_can_run_them(flags, kernels, refused,
                                                                                   monkeypatch):
    monkeypatch.setattr(_threads, "cpu_flags", lambda: frozenset(flags))
    if refused:
        with pytest.raises(_threads.NumericEnvironmentError, match="import common before numpy"):
            _threads.check_blas_kernels(kernels)
    else:
        _threads.check_blas_kernels(kernels)
