"""Data sets of the real-world tuning problems and their preparation.

The raw tables live in ``data/datasets/`` of the repository (see its README for
origin and licences); :data:`sklearn.datasets.load_digits` is bundled with
scikit-learn. Preparation follows the BO-PP paper (Qian et al., Sec. 5) where it
is stated and the reproduction spec (``bo_pp.md`` Sec. 3.2) where it is not:

* a random training/validation/test split with ratio 0.7/0.2/0.1 [paper];
* missing values imputed with the training-split median [spec];
* features scaled to [0, 1] with the training-split minimum and maximum [spec].

Every statistic comes from the training rows only, so nothing of the validation
set (the BO objective) leaks into training.
"""
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from common.seeding import make_rng

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "datasets"
SPLIT_FRACTIONS = (0.7, 0.2, 0.1)


@dataclass(frozen=True)
class SplitData:
    """Prepared training and validation arrays of one data set and one split.

    The test rows are held out and kept only as indices: the paper reports the
    validation performance, never the test performance.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_val: np.ndarray
    y_val: np.ndarray
    test_index: np.ndarray


def load_biopsy():
    """Breast Cancer Wisconsin (original), R ``MASS::biopsy``: 699 x 9, 16 NaN.

    Returns
    -------
    X : ndarray of shape (699, 9)
        Cytology scores 1-10 (columns V1-V9); V6 "bare nuclei" has 16 NaN.
    y : ndarray of shape (699,)
        1 for "malignant", 0 for "benign". The non-unique sample ID is dropped.
    """
    table = pd.read_csv(DATA_DIR / "biopsy.csv", index_col=0)
    X = table[[f"V{j}" for j in range(1, 10)]].to_numpy(dtype=float)
    y = (table["class"] == "malignant").to_numpy(dtype=int)
    return X, y


def load_boston():
    """Boston housing, R ``MASS::Boston``: 506 x 13, target ``medv`` in $1000s.

    Returns
    -------
    X : ndarray of shape (506, 13)
    y : ndarray of shape (506,)
    """
    table = pd.read_csv(DATA_DIR / "boston.csv", index_col=0)
    return table.drop(columns="medv").to_numpy(dtype=float), table["medv"].to_numpy(dtype=float)


def load_digits_data():
    """Optical digits bundled with scikit-learn: 1,797 x 64 pixel counts 0-16, 10 classes."""
    from sklearn.datasets import load_digits

    return load_digits(return_X_y=True)


def split_indices(n_samples, rng, fractions=SPLIT_FRACTIONS):
    """Randomly permute ``range(n_samples)`` and cut it by ``fractions``.

    Set sizes are ``round(fraction * n_samples)`` for training and validation;
    the test set takes the rest, so the three sets partition the rows.

    Parameters
    ----------
    n_samples : int
    rng : numpy.random.Generator
    fractions : tuple of three floats summing to 1
        Training, validation and test shares (the paper's 0.7/0.2/0.1).

    Returns
    -------
    train, val, test : ndarray of int
    """
    if len(fractions) != 3 or not np.isclose(sum(fractions), 1.0) or min(fractions) < 0:
        raise ValueError(
            f"fractions must be three non-negative shares summing to 1; got {fractions!r}"
        )
    order = rng.permutation(n_samples)
    n_train = int(round(fractions[0] * n_samples))
    n_val = int(round(fractions[1] * n_samples))
    return order[:n_train], order[n_train:n_train + n_val], order[n_train + n_val:]


def impute_median(X_train, *others):
    """Replace NaN in every array by the column medians of ``X_train``."""
    medians = np.nanmedian(X_train, axis=0)
    return tuple(np.where(np.isnan(A), medians, A) for A in (X_train, *others))


def min_max_scale(X_train, *others, low=0.0, high=1.0):
    """Map each column affinely so that its training range becomes [low, high].

    Columns that are constant on the training rows are only shifted (their
    range is taken as 1), which keeps them finite instead of dividing by zero.
    Validation values may fall outside [low, high]; they are not clipped.
    """
    column_min = X_train.min(axis=0)
    column_range = X_train.max(axis=0) - column_min
    column_range = np.where(column_range > 0, column_range, 1.0)
    return tuple(low + (high - low) * (A - column_min) / column_range for A in (X_train, *others))


def prepare_split(X, y, dataset_name, split_seed):
    """Split, impute and scale one data set reproducibly.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        May contain NaN (imputed with the training median).
    y : ndarray of shape (n_samples,)
    dataset_name : str
        Part of the random-stream key, so that data sets get independent splits.
    split_seed : int
        The split is a function of ``(dataset_name, split_seed)`` only.

    Returns
    -------
    SplitData
        Features scaled to [0, 1] on the training rows; targets unchanged.
    """
    train, val, test = split_indices(len(y), make_rng("tuning_split", dataset_name, int(split_seed)))
    X_train, X_val = impute_median(X[train], X[val])
    X_train, X_val = min_max_scale(X_train, X_val)
    return SplitData(X_train, y[train], X_val, y[val], test)
