"""Writing a ``.npz`` file so that it is either complete or absent: a run file or a pack of runs is written to a
hidden temporary file beside its target, flushed to disk, then moved into place in one step."""
import os
import tempfile
from pathlib import Path

import numpy as np


def temporary_npz(target, payload):
    """Write ``payload`` (``{name: ndarray}``) compressed into a hidden temporary file in ``target``'s folder.

    The folder is the target's, so that moving the file into place (:func:`os.replace`, :func:`os.link`) is one step
    on one file system. Nothing is left behind if writing fails.

    Parameters
    ----------
    target : path
        The file the caller will move the temporary file to (its folder is created if needed).
    payload : dict of str to ndarray

    Returns
    -------
    pathlib.Path
        The temporary file, readable by all, fsynced.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.stem}.", suffix=".tmp",
                                     delete=False) as file:
        temporary = Path(file.name)
        try:
            np.savez_compressed(file, allow_pickle=False, **payload)
            file.flush()
            os.fsync(file.fileno())
        except BaseException:
            file.close()
            temporary.unlink(missing_ok=True)
            raise
    os.chmod(temporary, 0o644)
    return temporary
