# One BLAS thread and one set of BLAS kernels before anything loads numpy (see common/_threads.py).
from common import _threads  # noqa: F401

import pytest


# pytest-xdist's ``--dist loadscope`` (pyproject.toml) sends a whole module to one worker, so that a module's
# fixtures are set up once. These modules share no fixture between their tests and hold several long ones (every
# notebook's smoke run, every notebook's cache spot-check, reproduce.py's subprocess runs): there each test is a
# scope of its own, so that both workers share them rather than one running them all while the other waits.
SCOPE_PER_TEST = ("tests/test_notebook_smoke.py::", "tests/test_notebooks.py::", "tests/test_reproduce.py::",
                  "tests/test_arena.py::")


@pytest.hookimpl(optionalhook=True)   # a hook of pytest-xdist: without it (-p no:xdist), unused
def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadscope":
        return None   # xdist's own scheduler for any other --dist
    from xdist.scheduler import LoadScopeScheduling

    class LoadScopeSplitting(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return nodeid if nodeid.startswith(SCOPE_PER_TEST) else super()._split_scope(nodeid)

    return LoadScopeSplitting(config, log)
