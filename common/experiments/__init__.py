"""Registry of the notebooks, read by ``reproduce.py``.

:data:`NOTEBOOKS` maps a notebook key to the dotted name of its experiment module.
The key is also the paper key: results go to ``data/results/<key>/``, figures
to ``figures/<key>/``, the paper's numbers come from ``data/paper/<key>.csv``.

An experiment module defines

``NOTEBOOK`` : str
    The notebook's file name in ``notebooks/``, e.g. ``"bo_pp.ipynb"``.
``TITLE`` : str
    The paper (or topic), as the listing shows it.
``OUTPUTS`` : list of str
    The paper's figures and tables the notebook regenerates, e.g. ``["Fig. 2", "Table 1"]``.
``SCALES`` : dict
    ``{scale: {parameter: default}}`` for ``"smoke"``, ``"quick"`` and ``"paper"``,
    plain literals; the notebook resolves them with
    :func:`common.notebook.resolve_parameters`.
``PUBLISHED`` : dict
    The published configuration: ``{"scale": ..., parameter: value, ...}``, what
    ``python reproduce.py`` regenerates into the tracked outputs.
``PAPER`` : str
    The paper key (the registry key).
``make_grid(params)`` : function
    The run configurations (list of dicts) of the notebook's experiments for the
    resolved parameters, so that ``reproduce.py --list`` can price them and
    ``reproduce.py --runs-only`` compute them.
``run(config, iterations=None)`` : function
    The module-level run function the notebook hands to
    :func:`common.runner.run_grid`; ``iterations`` computes a prefix of the run
    (its first BO iterations), which the spot-check test compares with the
    stored run.
``CODE_VERSION`` : int
    Raised whenever a change alters the numbers of a run (:mod:`common.store`).
``ALLOWED`` : dict, optional
    Passed as ``allowed`` to :func:`~common.notebook.resolve_parameters`; give
    every budget and seed count an upper bound (a ``range``).
``CELL_FIELDS`` : tuple of str, optional
    The configuration fields that make runs different cells of the experiments
    (default ``("experiment", "problem", "method")``); the spot-check test
    recomputes one run of each cell. ``None``: every run is its own cell (a
    lesson's cheap runs, all recomputed).

The notebook imports the same module, so the grid that ``--list`` prices is the
grid the notebook runs. To add a notebook,
add one line to :data:`NOTEBOOKS`, e.g. ``"bo_pp": "common.experiments.bo_pp"``.
"""
import importlib

NOTEBOOKS = {
    "bo_basics": "common.experiments.bo_basics",
    "bo_pp": "common.experiments.bo_pp",
    "random_exploration": "common.experiments.random_exploration",
    "add_gp_ucb": "common.experiments.add_gp_ucb",
    "mini_gp_opt": "common.experiments.mini_gp_opt",
    "egp_ts": "common.experiments.egp_ts",
    "arena": "common.experiments.arena",
    "lesson1_gp_regression": "common.experiments.lesson1_gp_regression",
    "lesson2_acquisition": "common.experiments.lesson2_acquisition",
    "lesson3_bo_loop": "common.experiments.lesson3_bo_loop",
    "lesson4_reading_papers": "common.experiments.lesson4_reading_papers",
}

REQUIRED_ATTRIBUTES = ("NOTEBOOK", "TITLE", "OUTPUTS", "SCALES", "PUBLISHED", "PAPER", "make_grid", "run",
                       "CODE_VERSION")


def load_experiment(key, registry=None):
    """Import the experiment module of notebook ``key`` and check that it follows the protocol.

    Parameters
    ----------
    key : str
        A key of ``registry``.
    registry : dict, optional
        ``{key: module name}``; default :data:`NOTEBOOKS`.

    Returns
    -------
    module

    Raises
    ------
    KeyError
        If ``key`` is not registered.
    ValueError
        If the module lacks an attribute of the protocol.
    """
    registry = NOTEBOOKS if registry is None else registry
    if key not in registry:
        raise KeyError(f"unknown notebook {key!r}; registered: {', '.join(registry) or '(none)'}")
    module = importlib.import_module(registry[key])
    missing = [name for name in REQUIRED_ATTRIBUTES if not hasattr(module, name)]
    if missing:
        raise ValueError(f"experiment module {registry[key]} of notebook {key!r} lacks {missing}; "
                         f"see the protocol in common/experiments/__init__.py")
    return module
