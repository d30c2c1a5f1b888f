r"""NAS-Bench-101-style cells on digits: the tabular ``nascell19-digits`` substitute for NAS-Bench-101.

The MINI-GP-Opt paper (Calandriello et al., Sec. 5 and App. B.1) optimises over
the architectures of NAS-Bench-101 (Ying et al., 2019), a table that cannot be
obtained offline. This module builds a small table of the same kind locally
(reproduction spec ``mini_gp_opt.md`` Sec. 4.1).

Arms
----
A cell is a DAG on 5 vertices: input 0, intermediate vertices 1-3 with an op
from ``OPS`` = (conv3x3, conv1x1, maxpool3x3), output 4. Edges go from lower to
higher vertices (strictly upper-triangular adjacency ``A``). As in NAS-Bench-101
(``generate_graphs.py``) a cell is kept when

* it has at most ``MAX_EDGES`` = 9 edges, and
* every vertex lies on a path from input to output: every vertex but the output
  has an out-edge and every vertex but the input has an in-edge (for an
  upper-triangular DAG the two statements are equivalent).

That gives 121 graphs x 3^3 op assignments = 3,267 cells (``space="raw"``).
Two cells are the same network when a permutation ``p`` of the intermediate
vertices maps one onto the other, ``A'[p(i), p(j)] = A[i, j]`` and
``ops'[p(i)] = ops[i]``. Brute force over the 3! permutations gives 2,441
classes (``space="unique"``). Each class is represented by its first member in
NAS-Bench-101's generation order (adjacency bit mask ascending, then op labels
in ``itertools.product`` order), as its generator keeps it.

An arm is encoded as ``x`` in {0, 1}^19: the 10 entries ``A[i, j]``, i < j, in
row-major order (``EDGES``), then one one-hot block of 3 per intermediate vertex.

Evaluation
----------
A "trained" cell is a random-feature network on scikit-learn's bundled
``load_digits`` (1,797 images of 8 x 8 pixels, divided by 16), read out by ridge
regression. With ``h_0`` the stem and ``C`` = 8 channels,

.. math::

    h_0 &= \mathrm{relu}(w \odot (u - t)),
         \qquad w_c \sim N(0, 2),\ t_c \sim U(0, 1), \\
    h_i &= \mathrm{op}_i\Big(\sum_{j < i,\ A_{ji} = 1} h_j\Big), \quad i = 1, 2, 3, \\
    h_4 &= \mathrm{concat}_{j < 4,\ A_{j4} = 1}\, h_j,

for a one-channel image ``u``, where conv3x3 is ``relu(K * .)`` with a
same-padded 3 x 3 kernel ``K`` of N(0, 2 / (9 C)) entries (He scaling),
conv1x1 is ``relu(V .)`` with V of N(0, 2 / C) entries, and maxpool3x3 is the
3 x 3 maximum, stride 1, same padding. The features ``phi`` are ``h_4`` averaged
over 2 x 2 blocks (4 x 4 x 8 values per predecessor of the output), standardised
with the training mean and standard deviation. The readout is ridge regression
of one-hot labels ``Y`` with an unpenalised intercept (alpha = 1),

.. math::

    W = (\Phi_c^\top \Phi_c + \alpha I)^{-1} \Phi_c^\top (Y - \bar Y), \qquad
    \hat y(u) = \arg\max_k\, (\phi(u)^\top W + \bar Y)_k,

fitted on a fixed stratified split of 1,000 training images and scored by the
accuracy on the other 797 (validation). Repeat ``r`` = 0, 1, 2 draws the stem
and, for every vertex position and op, the weights from its own stream
``make_rng("nascell19_digits", r, ...)``: the 3 repeats play NAS-Bench-101's 3
training runs. Because weights belong to vertex positions, isomorphic cells in
the raw space generally get different values; the table stores the canonical
representative only.

Run ``python -m common.problems.nas_cells`` to rebuild
``data/nas_cells/nascell19_digits.csv``.
"""
import functools
import itertools
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.linalg

from common.seeding import make_rng

__all__ = [
    "EDGES",
    "ENCODING_DIM",
    "OPS",
    "TABLE_PATH",
    "NASCellsDigits",
    "RandomFeatureCellNet",
    "build_table",
    "canonical_key",
    "decode",
    "encode",
    "enumerate_cells",
    "is_full_dag",
]

OPS = ("conv3x3", "conv1x1", "maxpool3x3")
N_VERTICES = 5
N_INTERMEDIATE = N_VERTICES - 2
MAX_EDGES = 9
EDGES = tuple(zip(*(axis.tolist() for axis in np.triu_indices(N_VERTICES, 1))))
ENCODING_DIM = len(EDGES) + N_INTERMEDIATE * len(OPS)
SPACES = ("unique", "raw")
N_REPEATS = 3

TABLE_PATH = Path(__file__).resolve().parents[2] / "data" / "nas_cells" / "nascell19_digits.csv"
ENCODING_COLUMNS = [f"e{i}{j}" for i, j in EDGES] + [
    f"v{vertex}_{op}" for vertex in range(1, N_INTERMEDIATE + 1) for op in OPS
]
ACCURACY_COLUMNS = [f"acc_{repeat}" for repeat in range(N_REPEATS)]

# NAS-Bench-101 reads bit k of a mask as the k-th upper-triangular entry in column-major order.
_NASBENCH_BIT_ORDER = np.tril_indices(N_VERTICES, -1)[::-1]


# ---------------------------------------------------------------------------------------------
# The search space
# ---------------------------------------------------------------------------------------------

def encode(adjacency, ops):
    """The 19-d encoding of a cell.

    Parameters
    ----------
    adjacency : array-like of shape (5, 5)
        0/1, strictly upper-triangular.
    ops : sequence of 3 int
        Index into ``OPS`` of the op of vertices 1, 2, 3.

    Returns
    -------
    ndarray of shape (19,), dtype uint8
    """
    adjacency = np.asarray(adjacency)
    one_hot = np.eye(len(OPS), dtype=np.uint8)[list(ops)].ravel()
    return np.concatenate([adjacency[tuple(zip(*EDGES))].astype(np.uint8), one_hot])


def decode(x):
    """Adjacency matrix and op indices of an encoding; the inverse of :func:`encode`.

    Raises ValueError unless ``x`` has 19 entries in {0, 1} and each op block is one-hot.
    """
    x = np.asarray(x)
    if x.shape != (ENCODING_DIM,) or not np.isin(x, (0, 1)).all():
        raise ValueError(f"x must be a 0/1 vector of length {ENCODING_DIM}; got {x!r}")
    blocks = x[len(EDGES):].reshape(N_INTERMEDIATE, len(OPS))
    if not (blocks.sum(axis=1) == 1).all():
        raise ValueError(f"x must have one-hot op blocks (one 1 in each of x[10:13], x[13:16], x[16:19]); got {x!r}")
    adjacency = np.zeros((N_VERTICES, N_VERTICES), dtype=int)
    adjacency[tuple(zip(*EDGES))] = x[:len(EDGES)]
    return adjacency, tuple(int(op) for op in blocks.argmax(axis=1))


def is_full_dag(adjacency):
    """Whether every vertex of an upper-triangular DAG lies on a path from input to output.

    Checked as NAS-Bench-101's ``graph_util.is_full_dag`` does: only the output
    has no out-edge and only the input has no in-edge.
    """
    adjacency = np.asarray(adjacency)
    return bool(adjacency[:-1].any(axis=1).all() and adjacency[:, 1:].any(axis=0).all())


def canonical_key(adjacency, ops):
    r"""A key shared exactly by isomorphic cells.

    The minimum over the 3! permutations ``p`` of the intermediate vertices of
    the relabelled cell ``(P A P^\top, ops \circ p^{-1})``; input and output stay
    fixed. Equal keys mean some relabelling maps one cell onto the other.

    Returns
    -------
    tuple of (bytes, tuple of int)
    """
    adjacency = np.asarray(adjacency, dtype=np.uint8)
    keys = []
    for order in itertools.permutations(range(1, N_VERTICES - 1)):
        vertices = [0, *order, N_VERTICES - 1]
        keys.append((adjacency[np.ix_(vertices, vertices)].tobytes(), tuple(ops[v - 1] for v in order)))
    return min(keys)


def enumerate_cells(space="unique"):
    """Encodings of all valid 5-vertex cells, in NAS-Bench-101's generation order.

    Parameters
    ----------
    space : {"unique", "raw"}
        ``"raw"``: every valid (adjacency, ops) pair, 3,267 cells.
        ``"unique"``: one representative (the first generated) per isomorphism
        class, 2,441 cells.

    Returns
    -------
    ndarray of shape (n_cells, 19), dtype uint8
    """
    if space not in SPACES:
        raise ValueError(f"space must be one of {SPACES}; got {space!r}")
    cells, seen = [], set()
    for mask in range(2 ** len(EDGES)):
        adjacency = np.zeros((N_VERTICES, N_VERTICES), dtype=int)
        adjacency[_NASBENCH_BIT_ORDER] = [(mask >> bit) & 1 for bit in range(len(EDGES))]
        if adjacency.sum() > MAX_EDGES or not is_full_dag(adjacency):
            continue
        for ops in itertools.product(range(len(OPS)), repeat=N_INTERMEDIATE):
            if space == "unique":
                key = canonical_key(adjacency, ops)
                if key in seen:
                    continue
                seen.add(key)
            cells.append(encode(adjacency, ops))
    return np.array(cells)


# ---------------------------------------------------------------------------------------------
# The evaluation
# ---------------------------------------------------------------------------------------------

def stratified_split(labels, n_train, rng):
    """Indices of a random stratified split with exactly ``n_train`` training rows.

    The rows are shuffled, grouped by class (stably, so each class stays in
    random order), and every (n / n_train)-th position of that sequence goes
    to training: each class gets its proportional share to within one row.

    Returns
    -------
    train, val : ndarray of int, sorted
    """
    n = len(labels)
    if not 0 < n_train < n:
        raise ValueError(f"n_train must be in (0, {n}); got {n_train!r}")
    order = rng.permutation(n)
    order = order[np.argsort(labels[order], kind="stable")]
    is_train = np.diff(np.floor(np.arange(n + 1) * n_train / n)).astype(bool)
    return np.sort(order[is_train]), np.sort(order[~is_train])


def _padded(maps, value):
    """(n, h, w, c) maps with a border of width 1 filled with ``value``."""
    n, height, width, channels = maps.shape
    padded = np.full((n, height + 2, width + 2, channels), value)
    padded[:, 1:-1, 1:-1] = maps
    return padded


def _conv3x3(maps, kernel):
    """Same-padded (zeros) 3 x 3 cross-correlation of (n, h, w, c) maps with a (3, 3, c, c') kernel."""
    height, width = maps.shape[1:3]
    padded = _padded(maps, 0.0)
    out = np.zeros(maps.shape[:3] + kernel.shape[3:])
    for dy, dx in itertools.product(range(3), repeat=2):
        out += padded[:, dy:dy + height, dx:dx + width] @ kernel[dy, dx]
    return out


def _max_pool3x3(maps):
    """3 x 3 maximum over (n, h, w, c) maps, stride 1, same padding (a separable max: rows, then columns)."""
    padded = _padded(maps, -np.inf)
    rows = np.maximum(np.maximum(padded[:, :-2], padded[:, 1:-1]), padded[:, 2:])
    return np.maximum(np.maximum(rows[:, :, :-2], rows[:, :, 1:-1]), rows[:, :, 2:])


def _average_pool2x2(maps):
    """(n, h, w, c) maps averaged over 2 x 2 blocks and flattened to (n, h w c / 4)."""
    n, height, width, channels = maps.shape
    return maps.reshape(n, height // 2, 2, width // 2, 2, channels).mean(axis=(2, 4)).reshape(n, -1)


class RandomFeatureCellNet:
    """Validation accuracy of a cell as a random-feature CNN with a ridge readout on digits.

    See the module docstring for the network. :meth:`accuracy` is a
    deterministic function of ``(x, repeat)``.

    Everything but the output edges (the states of vertices 0-3, their
    standardised features and the Gram matrix of all of them) is computed once
    per "hidden part" and kept for the next call: a cell's readout then only
    selects the blocks of its output's predecessors, since standardisation is
    per column and the Gram matrix of a concatenation is a submatrix of the
    Gram matrix of all blocks. The 2,441 unique cells have 451 hidden parts, so
    evaluating cells grouped by hidden part (as :func:`build_table` does) costs
    about a fifth of evaluating each from scratch.

    Parameters
    ----------
    n_channels : int
        Channels of the stem and of every op (8).
    ridge_alpha : float
        Ridge penalty of the readout on standardised features (1).
    n_train : int
        Training images of the stratified split (1,000 of 1,797; the rest validate).
    split_seed : int
        Seed of the split.
    """

    def __init__(self, n_channels=8, ridge_alpha=1.0, n_train=1000, split_seed=0):
        from sklearn.datasets import load_digits

        images, self.labels = load_digits(return_X_y=True)
        self.images = (images / 16.0).reshape(-1, 8, 8, 1)
        self.n_channels, self.ridge_alpha = int(n_channels), float(ridge_alpha)
        self.train, self.val = stratified_split(self.labels, n_train, make_rng("nascell19_digits", "split", split_seed))
        targets = np.eye(self.labels.max() + 1)[self.labels[self.train]]
        self.target_mean = targets.mean(axis=0)
        self.centred_targets = targets - self.target_mean
        self._hidden = functools.lru_cache(maxsize=1)(self._compute_hidden)

    def accuracy(self, x, repeat):
        """Validation accuracy of the cell encoded by ``x`` with the weights of ``repeat`` (0, 1 or 2)."""
        if repeat not in range(N_REPEATS):
            raise ValueError(f"repeat must be one of {list(range(N_REPEATS))}; got {repeat!r}")
        adjacency, ops = decode(x)
        features_val, gram, cross = self._hidden(repeat, adjacency[:, :-1].tobytes(), ops)
        block = gram.shape[0] // (N_VERTICES - 1)
        columns = np.concatenate([np.arange(j * block, (j + 1) * block)
                                  for j in range(N_VERTICES - 1) if adjacency[j, -1]])
        regularised = gram[np.ix_(columns, columns)] + self.ridge_alpha * np.eye(len(columns))
        weights = scipy.linalg.solve(regularised, cross[columns], assume_a="pos")
        predicted = np.argmax(features_val[:, columns] @ weights + self.target_mean, axis=1)
        return float(np.mean(predicted == self.labels[self.val]))

    def _compute_hidden(self, repeat, hidden_adjacency, ops):
        """Validation features, Gram matrix and cross-products (with the centred targets) of vertices 0-3."""
        adjacency = np.frombuffer(hidden_adjacency, dtype=int).reshape(N_VERTICES, N_VERTICES - 1)
        states = [self._stem(repeat)]
        for vertex in range(1, N_VERTICES - 1):
            inputs = sum(states[j] for j in range(vertex) if adjacency[j, vertex])
            states.append(self._apply_op(OPS[ops[vertex - 1]], inputs, repeat, vertex))
        features = np.hstack([_average_pool2x2(state) for state in states])
        train_features = features[self.train]
        mean, std = train_features.mean(axis=0), train_features.std(axis=0)
        std[std == 0] = 1.0  # a feature constant on the training rows carries nothing; keep it finite
        features_train, features_val = (train_features - mean) / std, (features[self.val] - mean) / std
        return features_val, features_train.T @ features_train, features_train.T @ self.centred_targets

    def _stem(self, repeat):
        rng = make_rng("nascell19_digits", repeat, "stem")
        scale = rng.normal(0.0, np.sqrt(2.0), self.n_channels)
        # Without a bias, relu(w u) would only copy the image (w > 0) or zero it (w < 0);
        # a kink at a random pixel level t in [0, 1) makes the channels differ.
        threshold = rng.uniform(0.0, 1.0, self.n_channels)
        return np.maximum(scale * (self.images - threshold), 0.0)

    def _apply_op(self, op, maps, repeat, vertex):
        if op == "maxpool3x3":
            return _max_pool3x3(maps)
        rng = make_rng("nascell19_digits", repeat, "vertex", vertex, op)
        width = 3 if op == "conv3x3" else 1
        kernel = rng.normal(0.0, np.sqrt(2.0 / (width * width * self.n_channels)),
                            (width, width, self.n_channels, self.n_channels))
        out = _conv3x3(maps, kernel) if op == "conv3x3" else maps @ kernel[0, 0]
        return np.maximum(out, 0.0)


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------

def _accuracies(encodings, repeat):
    """Accuracies of the cells ``encodings`` under one repeat (runs in a worker)."""
    net = RandomFeatureCellNet()
    return np.array([net.accuracy(x, repeat) for x in encodings])


def build_table(path=TABLE_PATH, n_processes=2):
    """Evaluate every unique cell under the 3 repeats and write the table as CSV.

    Parameters
    ----------
    path : str or Path
        Output file; its folder is created if needed.
    n_processes : int
        Worker processes (each runs one BLAS thread).

    Returns
    -------
    pandas.DataFrame
        One row per arm, in :func:`enumerate_cells` order: the 19 encoding
        columns, then ``acc_0``, ``acc_1``, ``acc_2`` (validation accuracies,
        written with full float precision).
    """
    if isinstance(n_processes, bool) or not isinstance(n_processes, (int, np.integer)) or n_processes < 1:
        raise ValueError(f"n_processes must be a positive integer; got {n_processes!r}")
    arms = enumerate_cells("unique")
    # Evaluate cells sharing a hidden part one after another, so that the net reuses it.
    output_edges = [k for k, (_, j) in enumerate(EDGES) if j == N_VERTICES - 1]
    order = np.lexsort(np.delete(arms, output_edges, axis=1).T)
    chunks = [(chunk, repeat) for repeat in range(N_REPEATS) for chunk in np.array_split(order, 4 * n_processes)]
    accuracies = np.empty((len(arms), N_REPEATS))
    with ProcessPoolExecutor(n_processes) as pool:
        results = pool.map(_accuracies, [arms[chunk] for chunk, _ in chunks], [repeat for _, repeat in chunks])
        for (chunk, repeat), result in zip(chunks, results):
            accuracies[chunk, repeat] = result
    table = pd.concat([pd.DataFrame(arms, columns=ENCODING_COLUMNS),
                       pd.DataFrame(accuracies, columns=ACCURACY_COLUMNS)], axis=1)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False)
    return table


class NASCellsDigits:
    """The ``nascell19-digits`` table as a noisy finite-armed problem (a stand-in for NAS-Bench-101).

    ``f(a)`` is the mean of the arm's 3 validation accuracies; a pull of ``a``
    returns one of them uniformly at random, as a NAS-Bench-101 query returns
    one of its 3 training runs.

    Parameters
    ----------
    path : str or Path
        The CSV written by :func:`build_table`.

    Attributes
    ----------
    arms : ndarray of shape (n_arms, 19)
        Encodings (float 0/1).
    repeats : ndarray of shape (n_arms, 3)
        Validation accuracy of each repeat.
    values : ndarray of shape (n_arms,)
        ``f``: the mean over the repeats.
    optimal_value, optimal_arm : float, int
        ``max f`` and the index of the (first) arm attaining it.
    mean_value : float
        Mean of ``f`` over the arms (the expected value of a uniformly random arm).
    noise_stds : ndarray of shape (n_arms,)
        Standard deviation of a pull, ``sqrt(mean_r (y_r - f)^2)`` (ddof = 0:
        a pull is uniform over exactly these 3 values).
    lam_p90 : float
        90th percentile (numpy's linear interpolation) of ``noise_stds`` over
        the arms: the paper's oracle lambda ("the 90-th percentile of the
        standard deviation of the target").
    """

    name = "nascell19_digits"
    paper_name = "NAS-Bench-101"
    dim = ENCODING_DIM
    substitute = True
    data_note = (
        "Substitute for NAS-Bench-101 (12,416 arms, d = 19 in the paper; the table cannot be obtained offline). "
        "Arms are the 2,441 isomorphism-unique NAS-Bench-101-style cells with 5 vertices (3 ops from "
        "conv3x3/conv1x1/maxpool3x3, at most 9 edges), encoded by 10 adjacency bits + 3 one-hot ops. "
        "A cell is scored by the validation accuracy on scikit-learn's digits of a random-feature CNN "
        "with a ridge readout, not a CNN trained on CIFAR-10; its 3 repeats are 3 draws of the random "
        "weights, not 3 training runs. The accuracy landscape, the noise and the tuned kernel "
        "bandwidths therefore differ from the paper's; only the kind of problem is the same."
    )

    def __init__(self, path=TABLE_PATH):
        table = pd.read_csv(path)
        self.arms = table[ENCODING_COLUMNS].to_numpy(dtype=float)
        self.repeats = table[ACCURACY_COLUMNS].to_numpy(dtype=float)
        self.values = self.repeats.mean(axis=1)
        self.optimal_arm = int(np.argmax(self.values))
        self.optimal_value = float(self.values[self.optimal_arm])
        self.mean_value = float(self.values.mean())
        self.noise_stds = self.repeats.std(axis=1)
        self.lam_p90 = float(np.percentile(self.noise_stds, 90))

    @property
    def n_arms(self):
        return len(self.arms)

    def pull(self, indices, rng):
        """One noisy evaluation per index: a repeat of that arm drawn uniformly at random.

        Parameters
        ----------
        indices : int or array-like of int
            Arm indices in ``[0, n_arms)``.
        rng : numpy.random.Generator

        Returns
        -------
        ndarray of the shape of ``indices``
        """
        indices = np.asarray(indices)
        if not np.issubdtype(indices.dtype, np.integer) or ((indices < 0) | (indices >= self.n_arms)).any():
            raise ValueError(f"indices must be integers in [0, {self.n_arms}); got {indices!r}")
        return self.repeats[indices, rng.integers(N_REPEATS, size=indices.shape)]

    def __repr__(self):
        return f"{type(self).__name__}(n_arms={self.n_arms})"


def main():
    start = time.perf_counter()
    table = build_table()
    values = table[ACCURACY_COLUMNS].to_numpy()
    print(f"wrote {TABLE_PATH} ({len(table)} arms) in {time.perf_counter() - start:.0f} s; "
          f"mean accuracy in [{values.mean(axis=1).min():.4f}, {values.mean(axis=1).max():.4f}]")


if __name__ == "__main__":
    main()
