"""Opening the notebooks in Jupyter Lab leaves them as committed, autosave included (issue 45).

Every notebook is opened, each in a tab of headless chromium, in a Jupyter Lab serving a copy of ``notebooks/``; the
kernels start and Jupyter Lab's autosave has passed before the copies are compared with the committed files byte for
byte. The server's autosave interval is set to :data:`AUTOSAVE_SECONDS` instead of the default 120 s, in a settings
folder of its own, so that the test waits seconds rather than minutes. A notebook Lab would rewrite (another kernel display name, a
number written another way, a version in its metadata) is named.
"""
import filecmp
import json
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

#: Jupyter Lab's autosave interval in the test's server (a user setting of its document manager; default 120 s).
AUTOSAVE_SECONDS = 5
#: Long enough for every tab to load its notebook and start its kernel, and for several autosaves after that.
OPEN_SECONDS = 40
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
    settings = tmp_path.parent / f"{tmp_path.name}-lab-settings"
    plugin = settings / "@jupyterlab" / "docmanager-extension" / "plugin.jupyterlab-settings"
    plugin.parent.mkdir(parents=True)
    plugin.write_text(json.dumps({"autosave": True, "autosaveInterval": AUTOSAVE_SECONDS}))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         f"--ServerApp.root_dir={tmp_path}", f"--IdentityProvider.token={TOKEN}",
         *(["--allow-root"] if os.geteuid() == 0 else [])],   # CI's container runs as root
        env={**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings)},
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
        with urllib.request.urlopen(f"{url}/lab/api/settings/@jupyterlab/docmanager-extension:plugin?token={TOKEN}",
                                    timeout=10) as answer:
            in_force = json.load(answer)["settings"]
        assert in_force.get("autosaveInterval") == AUTOSAVE_SECONDS, f"the lab's autosave settings: {in_force}"
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
