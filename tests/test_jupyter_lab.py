"""Opening the notebooks in Jupyter Lab leaves them as committed, autosave included (issue 45).

Every notebook is opened, each in a tab of headless chromium, in a Jupyter Lab serving a copy of ``notebooks/``; the
kernels start and Jupyter Lab's autosave (every 120 s for a changed document) has passed before the copies are
compared with the committed files byte for byte. A notebook Lab would rewrite (another kernel display name, a
number written another way, a version in its metadata) is named.
"""
import filecmp
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

import headless
from common import paths

#: Longer than Jupyter Lab's autosave interval (120 s).
OPEN_SECONDS = 150
TOKEN = "companion-test"


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """A Jupyter Lab server on the loopback interface over a copy of the notebooks; yields (url, copies folder)."""
    folder = tmp_path / "notebooks"
    shutil.copytree(paths.notebooks_dir(), folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         f"--ServerApp.root_dir={tmp_path}", f"--IdentityProvider.token={TOKEN}",
         *(["--allow-root"] if os.geteuid() == 0 else [])],   # CI's container runs as root
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("jupyter lab did not answer within 60 s")
        yield url, folder
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_opening_every_notebook_in_jupyter_lab_changes_no_byte(lab):
    url, folder = lab
    names = sorted(path.name for path in paths.notebooks_dir().glob("*.ipynb"))
    with headless.chromium() as driver:
        for number, name in enumerate(names):
            if number:
                driver.switch_to.new_window("tab")
            driver.get(f"{url}/lab/tree/notebooks/{name}?token={TOKEN}")
        time.sleep(OPEN_SECONDS)
    changed = [name for name in names
               if not filecmp.cmp(folder / name, paths.notebooks_dir() / name, shallow=False)]
    assert not changed, f"Jupyter Lab rewrote {changed}: compare with git diff --no-index"
