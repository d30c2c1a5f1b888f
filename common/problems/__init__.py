"""Real-world objectives (hyperparameter tuning on data sets, simulators) with the test-function interface.

Each problem has ``name``, ``dim``, ``bounds`` of shape (dim, 2), ``optimal_value``
(None: unknown) and maps ``X`` of shape (n, dim) to values of shape (n,) to be
maximised. ``substitute`` and ``data_note`` say how the data differ from the paper's.
The tabular :class:`NASCellsDigits` is a finite set of arms instead: ``arms``,
``values`` and noisy ``pull(indices, rng)``.
"""
from common.problems.nas_cells import NASCellsDigits
from common.problems.random_forest import RandomForestDiabetes
from common.problems.sprinkler import GardenSprinkler, sprinkler_outputs
from common.problems.tuning import (
    TUNING_PROBLEMS,
    NNCancer,
    NNDigits,
    NNHousing,
    SVMDigits,
    TuningProblem,
    get_tuning_problem,
)

__all__ = [
    "TUNING_PROBLEMS",
    "GardenSprinkler",
    "NASCellsDigits",
    "NNCancer",
    "NNDigits",
    "NNHousing",
    "RandomForestDiabetes",
    "SVMDigits",
    "TuningProblem",
    "get_tuning_problem",
    "sprinkler_outputs",
]
