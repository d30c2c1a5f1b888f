"""Claims on runs being computed, so that two processes never compute the same run.

Before computing a missing run, the runner *claims* it: it creates the lock file
``data/results/<paper>/.<run key>.lock`` with ``O_CREAT | O_EXCL``, which only
one process can do. The file holds the claimant's host and process id, and a
heartbeat thread refreshes its modification time every
:data:`HEARTBEAT_SECONDS` while the run is computed. The claim is released
(the file removed) once the result is stored or the computation stops.

A claim *expires*, so that a crashed claimant does not block a run forever,
when its file was not refreshed for :data:`EXPIRES_AFTER_SECONDS` (a claimant
on any host that shares the folder), or at once when its claimant ran on this
host and is no longer alive. An expired claim is taken over. Two processes that
take over the same expired claim in the same instant may both compute the run;
since runs are deterministic and stored atomically, that costs time, never
correctness.
"""
import json
import os
import socket
import threading
import time

from common import store

HEARTBEAT_SECONDS = 10.0
EXPIRES_AFTER_SECONDS = 120.0


def lock_path(config, kernels=None):
    """The lock file of a run: ``.<run key>.lock`` beside the result file that the kernels computing it will write
    (``kernels``: see :func:`common.store.run_path`)."""
    result = store.run_path(config, kernels)
    return result.with_name(f".{result.stem}.lock")


def process_alive(pid):
    """Whether a process with this pid exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


def is_expired(path, now=None):
    """Whether the claim in ``path`` no longer protects its run (see the module docstring)."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
        holder = json.loads(path.read_text() or "{}")
    except FileNotFoundError:
        return True
    except (OSError, ValueError):  # being written this instant, or garbled: judge by age alone
        holder = {}
    if age > EXPIRES_AFTER_SECONDS:
        return True
    return holder.get("host") == socket.gethostname() and not process_alive(int(holder.get("pid", 0)) or -1)


class RunClaims:
    """The claims one process holds; a context manager that refreshes them and releases all at exit.

    Thread-safe: the runner claims runs from joblib's dispatch thread while a
    heartbeat thread refreshes them.
    """

    def __init__(self, kernels=None):
        self._kernels = kernels  # of the processes that compute the claimed runs: where their results will go
        self._held = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._heartbeat = threading.Thread(target=self._refresh_until_stopped, daemon=True, name="run-claims")

    def __enter__(self):
        self._heartbeat.start()
        return self

    def __exit__(self, *exc_info):
        self._stop.set()
        with self._lock:
            held, self._held = self._held, set()
        for path in held:
            path.unlink(missing_ok=True)

    def try_claim(self, config):
        """Claim the run of ``config``; False if another live process holds it."""
        path = lock_path(config, self._kernels)
        path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(2):
            try:
                descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if not is_expired(path):
                    return False
                path.unlink(missing_ok=True)  # take over the expired claim, then create ours
                continue
            with os.fdopen(descriptor, "w") as file:
                json.dump({"host": socket.gethostname(), "pid": os.getpid()}, file)
            with self._lock:
                self._held.add(path)
            return True
        return False

    def release(self, config):
        """Give up the claim on the run of ``config`` (its result is stored, or it will not be computed)."""
        path = lock_path(config, self._kernels)
        with self._lock:
            held = path in self._held
            self._held.discard(path)
        if held:
            path.unlink(missing_ok=True)

    def _refresh_until_stopped(self):
        while not self._stop.wait(HEARTBEAT_SECONDS):
            with self._lock:
                held = list(self._held)
            for path in held:
                try:
                    os.utime(path)
                except FileNotFoundError:
                    pass

