"""Opening the notebooks in Jupyter Lab leaves them as committed, autosave included (issue 45).

Every notebook is opened in one Jupyter Lab window of headless chromium (Lab's own ``docmanager:open`` command, as a
click in its file browser runs it), in a Jupyter Lab serving a copy of ``notebooks/``. Once every notebook's kernel
is idle and no document is unsaved, the test waits :data:`AUTOSAVES` more autosave intervals and compares the copies
with the committed files byte for byte. The server's autosave interval is set to :data:`AUTOSAVE_SECONDS` instead of
the default 120 s, in a settings folder of its own, so that the test waits seconds rather than minutes. A notebook Lab
would rewrite (another kernel display name, a number written another way, a version in its metadata) is named.
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
#: Autosave intervals waited after every kernel is idle and every document saved, for a late rewrite to land.
AUTOSAVES = 2
#: The longest the notebooks may take to open and start their kernels.
OPEN_TIMEOUT_SECONDS = 120
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
         "--LabApp.expose_app_in_browser=True",   # window.jupyterapp: its commands open the notebooks
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


# Per open notebook: whether its document is loaded, its kernel's status and whether it holds unsaved changes.
_NOTEBOOK_STATES = """
return Array.from(jupyterapp.shell.widgets("main")).filter(widget => widget.context && widget.sessionContext).map(widget => ({
    path: widget.context.path, ready: widget.context.isReady, dirty: widget.context.model.dirty,
    kernel: widget.sessionContext.session?.kernel?.status ?? "none"}));
"""


def _settled(states, expected):
    return (sorted(state["path"] for state in states) == expected
            and all(state["ready"] and not state["dirty"] and state["kernel"] == "idle" for state in states))


def test_opening_every_notebook_in_jupyter_lab_changes_no_byte(lab):
    url, folder = lab
    names = sorted(path.name for path in paths.notebooks_dir().glob("*.ipynb"))
    expected = [f"notebooks/{name}" for name in names]
    with headless.chromium() as driver:
        driver.get(f"{url}/lab?token={TOKEN}")
        deadline = time.monotonic() + OPEN_TIMEOUT_SECONDS
        while not driver.execute_script("return Boolean(window.jupyterapp && jupyterapp.commands"
                                        " && jupyterapp.commands.hasCommand('docmanager:open'))"):
            assert time.monotonic() < deadline, "Jupyter Lab's page did not start within the timeout"
            time.sleep(0.5)
        for path in expected:
            driver.execute_script("jupyterapp.commands.execute('docmanager:open', {path: arguments[0]})", path)
        states = []
        while not _settled(states, expected):
            assert time.monotonic() < deadline, f"the notebooks did not open with idle kernels: {states}"
            time.sleep(0.5)
            states = driver.execute_script(_NOTEBOOK_STATES)
        time.sleep(AUTOSAVES * AUTOSAVE_SECONDS)
        states = driver.execute_script(_NOTEBOOK_STATES)
        assert _settled(states, expected), f"a notebook changed state after its kernel started: {states}"
    changed = [name for name in names
               if not filecmp.cmp(folder / name, paths.notebooks_dir() / name, shallow=False)]
    assert not changed, f"Jupyter Lab rewrote {changed}: compare with git diff --no-index"
