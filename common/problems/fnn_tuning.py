"""FNN hyperparameter tuning of the EGP-TS paper (Fig. 4, Table 2), on bundled or stand-in data.

Lu, Polyzos, Li & Giannakis, "Surrogate modeling for Bayesian optimization
beyond a single Gaussian process" (EGP-TS), Sec. 6 and App. E, tune a feedforward
network with two ReLU hidden layers, trained by Adam for 20 epochs on 70 % of a
data set, and maximise its accuracy on the other 30 % (the validation set).
The four hyperparameters and their ranges (Table 2) are

==============================  ==================
hyperparameter                  range
==============================  ==================
neurons of hidden layer 1, n1   [2, 100]
neurons of hidden layer 2, n2   [2, 100]
learning rate, lr               [1e-6, 1e-1]
batch size, bs                  [2^2, 2^6]
==============================  ==================

and one evaluation is the mean validation accuracy of ``R`` independent
training runs (the paper: R = 10).

The optimiser works on the unit cube: ``u`` in [0, 1]^4 is decoded by
:func:`decode_hyperparameters` (reproduction spec ``egp_ts.md``, U19),

    n1 = round(2 + 98 u1),  n2 = round(2 + 98 u2),  lr = 10^(-6 + 5 u3),  bs = 2^round(2 + 4 u4),

with ``round`` rounding halves up. The integers at both ends of a range get
half as much of the cube as the inner ones (e.g. bs = 4 for u4 < 0.125 but
bs = 8 for 0.125 <= u4 < 0.375), which is the spec's encoding as written.

Data and how they differ from the paper (``FNNTuning.substitute``):

* ``iris``, ``wine``: the UCI data sets the paper names, bundled by
  scikit-learn (``load_iris`` 150 x 4, ``load_wine`` 178 x 13, 3 classes each).
  Exact.
* ``breast_cancer``: scikit-learn's ``load_breast_cancer`` is the *Wisconsin
  Diagnostic* set (569 x 30 real-valued features, malignant/benign). The paper
  cites the UCI "Breast Cancer" page, the *Ljubljana* set (286 x 9 categorical
  attributes, recurrence/no recurrence), which is not available offline. A
  named mismatch: a different, easier task.
* ``digits``: scikit-learn's 8 x 8 optical digits (``load_digits``, 1,797 x
  64, pixel counts 0-16, 10 classes) stand in for MNIST (28 x 28, 0-255), of
  which the paper uses a random 6,000 / 1,500 training / validation subset.
  Same task family, about a quarter of the images (1,797 against 7,500) and a
  twelfth of the pixels, so cheaper and with other attainable accuracies.
* ``transportation``: the paper's "Transportation dataset" (Minnesota
  Geospatial Commons, gisdata.mn.gov; table, features and labels not stated)
  cannot be identified. A fixed synthetic problem stands in for it:
  ``make_classification(n_samples=1000, n_features=20, n_informative=10,
  n_classes=4, random_state=0)``. It shares nothing with the real data but
  being tabular and multi-class.

Preparation (spec U20): a stratified 70/30 training/validation split with
``train_test_split(..., test_size=0.3, stratify=y, random_state=split_seed)``
(validation size ``ceil(0.3 n)``), fixed per data set by ``split_seed = 0``;
features standardised by a ``StandardScaler`` fitted on the training rows,
except ``digits``, whose pixel counts are divided by 16, the analogue of the
usual MNIST scaling by 1/255 (a fixed map, so it uses no data at all).

The network (spec Sec. 4): the paper's framework is unstated, so
scikit-learn's ``MLPClassifier(hidden_layer_sizes=(n1, n2), activation="relu",
solver="adam", learning_rate_init=lr, batch_size=bs, max_iter=20)`` is used
(Glorot-uniform initial weights, Adam's usual beta1 = 0.9, beta2 = 0.999,
eps = 1e-8, minibatches reshuffled every epoch, a smaller last minibatch, as in
Keras or PyTorch). For Adam, ``max_iter`` counts epochs, but scikit-learn
stops early when the training loss has not fallen by ``tol`` for more than
``n_iter_no_change`` consecutive epochs, which does happen within 20 epochs (at lr = 1e-6
and bs = 64 on iris after 12 epochs). Since the paper trains for 20 epochs,
``tol=0`` and ``n_iter_no_change=20`` make every run exactly 20 epochs. The L2
penalty is off (``alpha=0``; scikit-learn's default 1e-4 has no counterpart in
an unregularised Keras/PyTorch network).

Training seeds: run ``r`` (0-based) of an evaluation uses ``random_state =
R * model_seed + r`` (initial weights and minibatch order), the same for every
``u``. So the objective is a deterministic function of ``u``, a BO run is
reproducible, and two hyperparameter settings are compared on the same R
initialisations (common random numbers), which reduces the seed noise in
their difference. Passing a generator ``rng`` instead draws R fresh seeds per
evaluated point, the reading of the paper's "independent runs" as a noisy
objective; the BO run is then reproducible from the generator's seed.

Cost (one training run, one thread, CPU seconds, scikit-learn 1.9.1): 0.01-0.15 s
on iris, 0.01-0.2 s on wine, 0.04-0.6 s on breast_cancer, 0.06-1.0 s on
transportation and 0.1-2.2 s on digits, the upper ends at 100-100 units and
batch size 4; the mean over uniform ``u`` is 0.05, 0.07, 0.21, 0.34 and 0.62 s.
An evaluation costs R times as much.
"""
import warnings

import numpy as np

from common.problems.datasets import SplitData
from common.problems.tuning import TuningProblem, inputs_in_box

__all__ = ["DATASETS", "FNNTuning", "N_EPOCHS", "decode_hyperparameters", "load_fnn_dataset"]

N_EPOCHS = 20
VALIDATION_FRACTION = 0.3
DATASETS = ("iris", "wine", "breast_cancer", "digits", "transportation")

_PAPER_PANELS = {
    "iris": "Iris",
    "wine": "Wine",
    "breast_cancer": "Breast Cancer",
    "digits": "MNIST",
    "transportation": "Transportation",
}
_SUBSTITUTES = {
    "iris": None,
    "wine": None,
    "breast_cancer": (
        "Wisconsin Diagnostic breast cancer (load_breast_cancer, 569 x 30, malignant/benign) instead of "
        "the UCI Ljubljana breast-cancer set the paper cites (286 x 9 categorical, recurrence)"
    ),
    "digits": (
        "8x8 optical digits (load_digits, 1,797 x 64, pixels/16) instead of the paper's 6,000/1,500 "
        "MNIST subset (28x28)"
    ),
    "transportation": (
        "synthetic stand-in make_classification(n_samples=1000, n_features=20, n_informative=10, "
        "n_classes=4, random_state=0) for the unidentifiable Minnesota 'Transportation dataset'"
    ),
}
_DATA_NOTES = {
    "iris": "Same data as the paper: UCI Iris via load_iris (150 x 4, 3 classes).",
    "wine": "Same data as the paper: UCI Wine via load_wine (178 x 13, 3 classes).",
    "breast_cancer": (
        "Named mismatch: the paper cites the UCI Ljubljana breast-cancer data (286 x 9 categorical "
        "attributes, recurrence vs no recurrence), which cannot be obtained offline; scikit-learn's "
        "load_breast_cancer is the Wisconsin Diagnostic set (569 x 30 real features, malignant vs "
        "benign), a different and easier task, so accuracies are not comparable with Fig. 4."
    ),
    "digits": (
        "Substitute for MNIST: MNIST cannot be obtained offline; scikit-learn's bundled optical digits "
        "(load_digits, 1,797 8x8 images, pixel counts 0-16 scaled by 1/16, 10 classes) stand in for the "
        "paper's random 6,000/1,500 MNIST subset (28x28 images scaled by 1/255). Same task family, "
        "smaller and cheaper; absolute accuracies differ."
    ),
    "transportation": (
        "Synthetic stand-in: the paper's 'Transportation dataset' (gisdata.mn.gov) is neither "
        "obtainable nor identifiable (no table, features or labels named). A fixed "
        "make_classification(n_samples=1000, n_features=20, n_informative=10, n_classes=4, "
        "random_state=0) problem is used; only its shape (tabular, multi-class) resembles the original."
    ),
}
_MAX_SEED = 2**31 - 1


def _non_negative_integer(value, parameter, minimum=0):
    """``value`` as an int, or a ValueError naming ``parameter``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{parameter} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def _checked_rng(rng):
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be None or a numpy.random.Generator; got {type(rng).__name__}")
    return rng


def _round_half_up(values):
    return np.floor(values + 0.5).astype(int)


def decode_hyperparameters(U):
    """Map points of the unit cube to FNN hyperparameters (spec U19, Table 2 ranges).

    Parameters
    ----------
    U : array-like of shape (n, 4)
        Encoded hyperparameters ``(u1, u2, u3, u4)`` in [0, 1].

    Returns
    -------
    dict of ndarray of shape (n,)
        ``n1`` and ``n2`` (int, 2-100): ``round(2 + 98 u)``; ``learning_rate``
        (float, 1e-6 to 1e-1): ``10 ** (-6 + 5 u3)``; ``batch_size`` (int, one
        of 4, 8, 16, 32, 64): ``2 ** round(2 + 4 u4)``. Halves round up.

    Raises
    ------
    ValueError
        If ``U`` is not an (n, 4) array or has an entry outside [0, 1] (or NaN).
    """
    U = np.asarray(U, dtype=float)
    if U.ndim != 2 or U.shape[1] != 4:
        raise ValueError(f"U must have shape (n, 4) (u_n1, u_n2, u_learning_rate, u_batch_size); got {U.shape}")
    outside = ~((U >= 0.0) & (U <= 1.0))
    if outside.any():
        row, column = (int(i) for i in np.argwhere(outside)[0])
        raise ValueError(
            f"U must lie in [0, 1]^4; {FNNTuning.parameter_names[column]} of row {row} is {U[row, column]!r}"
        )
    return {
        "n1": _round_half_up(2.0 + 98.0 * U[:, 0]),
        "n2": _round_half_up(2.0 + 98.0 * U[:, 1]),
        "learning_rate": 10.0 ** (-6.0 + 5.0 * U[:, 2]),
        "batch_size": 2 ** _round_half_up(2.0 + 4.0 * U[:, 3]),
    }


def _check_dataset(dataset):
    if not isinstance(dataset, str) or dataset not in DATASETS:
        hint = " (digits stands in for MNIST)" if str(dataset).lower() == "mnist" else ""
        raise ValueError(f"dataset must be one of {list(DATASETS)}; got {dataset!r}{hint}")
    return dataset


def load_fnn_dataset(dataset):
    """Raw features and labels of one FNN data set (see the module docstring for the substitutes).

    Parameters
    ----------
    dataset : {"iris", "wine", "breast_cancer", "digits", "transportation"}

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Unscaled features (digits: pixel counts 0-16).
    y : ndarray of shape (n_samples,)
        Integer class labels.
    """
    from sklearn import datasets

    loaders = {
        "iris": datasets.load_iris,
        "wine": datasets.load_wine,
        "breast_cancer": datasets.load_breast_cancer,
        "digits": datasets.load_digits,
    }
    dataset = _check_dataset(dataset)
    if dataset == "transportation":
        X, y = datasets.make_classification(
            n_samples=1000, n_features=20, n_informative=10, n_classes=4, random_state=0
        )
    else:
        X, y = loaders[dataset](return_X_y=True)
    return np.asarray(X, dtype=float), np.asarray(y, dtype=int)


class FNNTuning(TuningProblem):
    """Mean validation accuracy of a two-hidden-layer ReLU network trained by Adam for 20 epochs.

    ``u`` in [0, 1]^4 encodes ``(n1, n2, learning rate, batch size)`` as in
    :func:`decode_hyperparameters`; ``f(u)`` is the validation accuracy
    averaged over ``n_training_runs`` training runs. The module docstring gives
    the data, split, scaling, network settings and training seeds.

    Parameters
    ----------
    dataset : {"iris", "wine", "breast_cancer", "digits", "transportation"}
    n_training_runs : int
        Training runs averaged per evaluation, R >= 1 (paper: 10).
    split_seed : int
        ``random_state`` of the stratified 70/30 split (spec: 0).
    model_seed : int
        Run ``r`` uses ``random_state = n_training_runs * model_seed + r``
        unless a generator is passed to the call.

    Attributes
    ----------
    name : str
        ``"FNN_" + dataset``.
    paper_name : str
        The panel of Fig. 4 (``FNN_MNIST`` for digits).
    dim : int
        4.
    bounds : ndarray of shape (4, 2)
        The unit cube.
    parameter_names : tuple of str
    optimal_value : None
    substitute : str or None
        Short description of the data that replace the paper's, None when the
        data are the paper's. (The BO-PP problems use a bool; a str or None
        keeps the same truth value.)
    data_note : str
        How the data differ from the paper's, in full.
    data : SplitData
        Scaled training and validation arrays (``test_index`` is empty: there
        is no test set).
    train_index, val_index : ndarray of int
        Rows of :func:`load_fnn_dataset` in the two sets.
    """

    parameter_names = ("u_n1", "u_n2", "u_learning_rate", "u_batch_size")
    bounds = [[0.0, 1.0]] * 4

    def __init__(self, dataset, n_training_runs=10, split_seed=0, model_seed=0):
        self.dataset = _check_dataset(dataset)
        self.n_training_runs = _non_negative_integer(n_training_runs, "n_training_runs", minimum=1)
        split_seed = _non_negative_integer(split_seed, "split_seed")
        super().__init__(split_seed, _non_negative_integer(model_seed, "model_seed"))
        self.name = f"FNN_{dataset}"
        self.paper_name = f"FNN_{_PAPER_PANELS[dataset]}"
        self.substitute = _SUBSTITUTES[dataset]
        self.data_note = _DATA_NOTES[dataset]
        self.data, self.train_index, self.val_index = self._prepare()

    def _prepare(self):
        """Stratified 70/30 split and scaling fitted on the training rows only."""
        from sklearn.model_selection import train_test_split
        from sklearn.preprocessing import StandardScaler

        X, y = load_fnn_dataset(self.dataset)
        train, val = train_test_split(
            np.arange(len(y)), test_size=VALIDATION_FRACTION, stratify=y, random_state=self.split_seed
        )
        train, val = np.sort(train), np.sort(val)
        if self.dataset == "digits":
            X_train, X_val = X[train] / 16.0, X[val] / 16.0
        else:
            scaler = StandardScaler().fit(X[train])
            X_train, X_val = scaler.transform(X[train]), scaler.transform(X[val])
        return SplitData(X_train, y[train], X_val, y[val], np.empty(0, dtype=int)), train, val

    def classifier(self, u, random_state):
        """The untrained network of one training run at the encoded hyperparameters ``u``.

        Parameters
        ----------
        u : array-like of shape (4,)
            A point of the unit cube.
        random_state : int
            Seed of the initial weights and the minibatch order.

        Returns
        -------
        sklearn.neural_network.MLPClassifier
        """
        from sklearn.neural_network import MLPClassifier

        decoded = decode_hyperparameters(np.reshape(u, (1, -1)))
        return MLPClassifier(
            hidden_layer_sizes=(int(decoded["n1"][0]), int(decoded["n2"][0])),
            activation="relu",
            solver="adam",
            alpha=0.0,
            learning_rate_init=float(decoded["learning_rate"][0]),
            batch_size=int(decoded["batch_size"][0]),
            max_iter=N_EPOCHS,
            n_iter_no_change=N_EPOCHS,
            tol=0.0,
            random_state=int(random_state),
        )

    def run_seeds(self, rng=None):
        """``random_state`` of each of the R training runs of one evaluation.

        Parameters
        ----------
        rng : numpy.random.Generator or None
            None: the fixed seeds ``R * model_seed + r``, r = 0..R-1. A
            generator: R fresh seeds drawn from it.

        Returns
        -------
        ndarray of int of shape (n_training_runs,)
        """
        if _checked_rng(rng) is None:
            return self.n_training_runs * self.model_seed + np.arange(self.n_training_runs)
        return rng.integers(0, _MAX_SEED, size=self.n_training_runs)

    def run_accuracies(self, u, rng=None):
        """Validation accuracy of each training run at one point ``u``.

        Parameters
        ----------
        u : array-like of shape (4,)
            A point of the unit cube.
        rng : numpy.random.Generator or None
            See :meth:`run_seeds`.

        Returns
        -------
        ndarray of shape (n_training_runs,)
        """
        from sklearn.exceptions import ConvergenceWarning

        u = inputs_in_box(self, np.reshape(u, (1, -1)))[0]
        accuracies = []
        for seed in self.run_seeds(rng):
            model = self.classifier(u, seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                model.fit(self.data.X_train, self.data.y_train)
            accuracies.append(model.score(self.data.X_val, self.data.y_val))
        return np.array(accuracies)

    def __call__(self, X, rng=None):
        """Mean validation accuracy over the R training runs at each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n, 4)
            Points of the unit cube; entries outside by at most 1e-9 are clipped.
        rng : numpy.random.Generator or None
            None (default): every row uses the same fixed seeds, so ``f`` is a
            deterministic function of ``u``. A generator: fresh seeds per row.

        Returns
        -------
        ndarray of shape (n,)
        """
        X = inputs_in_box(self, X)
        rng = _checked_rng(rng)
        return np.array([float(np.mean(self.run_accuracies(u, rng))) for u in X])

    def __repr__(self):
        return (
            f"{type(self).__name__}({self.dataset!r}, n_training_runs={self.n_training_runs}, "
            f"split_seed={self.split_seed}, model_seed={self.model_seed})"
        )

