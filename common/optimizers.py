"""Maximizers of acquisition functions over a box.

Three ways to pick the next query, all for MAXIMIZATION of a batched function
``fun(X: (n, d)) -> (n,)``:

- :func:`direct_maximize`: DIRECT (Jones, Perttunen and Stuckman, 1993), the
  optimizer the papers use, vectorized so that each iteration evaluates all its
  new points in one call of ``fun``;
- :func:`maximize_with_restarts`: a space-filling candidate set followed by
  L-BFGS-B polishing of the best candidates;
- :func:`argmax_finite`: the best of a finite candidate set, with random
  tie-breaking.
"""
import operator
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from scipy.stats import qmc

# Sides are cut at most 30 times, down to 3**-30 (about 5e-15) of the box:
# finer cuts would put the children within a few ulps of their parent's centre.
_MAX_TRISECTIONS_PER_SIDE = 30


@dataclass(frozen=True)
class DirectResult:
    """Outcome of :func:`direct_maximize`.

    Attributes
    ----------
    x : ndarray of shape (d,)
        The best evaluated point, in the coordinates of ``bounds``.
    fun : float
        ``fun`` at ``x``, the largest value seen.
    nfev : int
        Number of points evaluated (rows passed to ``fun`` in total).
    nit : int
        Number of DIRECT iterations (division rounds) after the centre.
    stop_reason : str
        One of ``"max_evals"``, ``"max_iters"``, ``"vol_tol"``, ``"len_tol"``,
        ``"max_depth"`` (every rectangle is as small as DIRECT may cut).
    """

    x: np.ndarray
    fun: float
    nfev: int
    nit: int
    stop_reason: str


@dataclass(frozen=True)
class MaximizeResult:
    """Outcome of :func:`maximize_with_restarts`.

    Attributes
    ----------
    x : ndarray of shape (d,)
        The best point found, inside ``bounds``.
    fun : float
        ``fun`` at ``x``.
    nfev : int
        Number of points at which the objective (``fun`` or ``fun_and_grad``)
        was evaluated, counting each finite-difference point.
    """

    x: np.ndarray
    fun: float
    nfev: int


def direct_maximize(fun, bounds, max_evals, *, max_iters=None, eps=1e-4,
                    locally_biased=False, vol_tol=1e-16, len_tol=1e-6):
    r"""Maximize a batched function over a box with DIRECT.

    DIRECT keeps a partition of the box into hyper-rectangles, each evaluated
    at its centre. One iteration selects the *potentially optimal* rectangles
    and trisects each of them along all its longest sides (Jones et al. 1993).
    Rectangle :math:`j`, of size :math:`s_j` and centre value :math:`f_j`, is
    potentially optimal when some rate :math:`K > 0` satisfies

    .. math::

        f_j + K s_j \ge f_i + K s_i \quad \text{for every rectangle } i,
        \qquad f_j + K s_j \ge f_{\max} + \varepsilon |f_{\max}|,

    i.e. :math:`(s_j, f_j)` lies on the upper-right convex hull of the points
    :math:`(s_i, f_i)` and promises a non-trivial improvement over the best
    value :math:`f_{\max}`. These are the conditions of Jones et al. for
    minimization, written for maximization. The size :math:`s` is the
    distance from centre to vertex (half-diagonal) in the normalized cube,
    or half the longest side when ``locally_biased`` (DIRECT-L, Gablonsky and
    Kelley 2001, which also divides only one rectangle per size).

    A rectangle with longest sides :math:`I` is sampled at
    :math:`c \pm \delta e_i` for :math:`i \in I`, :math:`\delta` a third of
    the side, and split first along the side whose better sample
    :math:`w_i = \max(f(c + \delta e_i), f(c - \delta e_i))` is largest, so
    that the best points end up in the largest rectangles.

    All new centres of an iteration (the children of every selected
    rectangle) are evaluated in a single call ``fun(X_new)``, so the Python
    overhead is paid per iteration rather than per point. The rectangles are
    held in numpy arrays.

    Parameters
    ----------
    fun : callable
        ``fun(X)`` with ``X`` of shape (n, d) returns the n values, shape
        (n,), all finite.
    bounds : array-like of shape (d, 2)
        Lower and upper bound of each coordinate, lower < upper.
    max_evals : int
        Evaluation budget, at least 1. The number of evaluated points never
        exceeds it: when the rectangles selected in an iteration would need
        more evaluations than are left, only those that fit are divided
        (best centre value first, stopping at the first that does not fit),
        and the run ends. Since one rectangle needs at most 2d points, a run
        stopped by the budget has ``max_evals - 2d < nfev <= max_evals``.
        (``scipy.optimize.direct`` instead finishes the iteration in which
        it passes ``maxfun``, so its ``nfev`` can exceed ``maxfun``.)
    max_iters : int or None, default=None
        Maximum number of division rounds after the centre; None means the
        budget alone stops the run.
    eps : float, default=1e-4
        Minimal relative improvement :math:`\varepsilon` a potentially optimal
        rectangle must promise.
    locally_biased : bool, default=False
        False for the original DIRECT, True for DIRECT-L.
    vol_tol : float, default=1e-16
        Stop once the rectangle of the best point has a smaller volume, as a
        fraction of the box.
    len_tol : float, default=1e-6
        Stop once the size :math:`s` of the rectangle of the best point
        (measured in the unit cube) is smaller.

    Returns
    -------
    result : DirectResult
        Best point and value, ``nfev``, ``nit`` and why the run stopped.

    Notes
    -----
    The first evaluated point is exactly ``(lower + upper) / 2``, and the
    later ones lie on the ternary grid of the box: the rectangles live in the
    cube :math:`[-1, 1]^d`, whose centre is exactly 0 and whose grid is
    exactly symmetric, and map to the box by ``mid + z * half_width``.
    Ties in the centre values are all divided (original DIRECT) or resolved
    towards the older rectangle (DIRECT-L), and sides with equal
    :math:`w_i` are split in coordinate order.

    Against ``scipy.optimize.direct(locally_biased=False)`` (Gablonsky's
    implementation): the first iterations sample the same points, but scipy
    also divides some rectangles that fail the definition above (for instance
    the best of a size group lying below the chord between its neighbours,
    seen on Branin from the sixth division round), so the two sequences part
    afterwards while reaching the same optima at equal budgets. scipy also
    compares the volume to ``vol_tol`` in percent, so its volume threshold
    is effectively 100 times smaller than this function's.
    """
    lower, upper = _check_bounds(bounds)
    max_evals = _check_int(max_evals, "max_evals", minimum=1)
    if max_iters is not None:
        max_iters = _check_int(max_iters, "max_iters", minimum=0)
    for name, value in (("eps", eps), ("vol_tol", vol_tol), ("len_tol", len_tol)):
        if not np.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number >= 0, got {value!r}.")
    mid, half_width = (lower + upper) / 2, (upper - lower) / 2

    def evaluate(z):
        values = np.asarray(fun(mid + z * half_width), dtype=float)
        if values.shape != (len(z),):
            raise ValueError(
                f"fun must return shape ({len(z)},) for X of shape {z.shape}, "
                f"got shape {values.shape}.")
        if not np.all(np.isfinite(values)):
            raise ValueError("fun returned non-finite values; DIRECT needs finite ones.")
        return values

    partition = _Partition(lower.size, max_evals, locally_biased, evaluate)
    nit = 0
    while True:
        stop_reason = partition.stop_reason(vol_tol, len_tol)
        if max_iters is not None and nit >= max_iters:
            stop_reason = stop_reason or "max_iters"
        if stop_reason:
            break
        selected = partition.potentially_optimal(eps)
        if selected.size == 0:
            stop_reason = "max_depth"
            break
        # Best centres first, so that a budget cut keeps the most promising.
        selected = selected[np.argsort(-partition.values[selected], kind="stable")]
        cost = np.cumsum(partition.division_cost(selected))
        n_fit = int(np.searchsorted(cost, max_evals - partition.size, side="right"))
        if n_fit > 0:
            partition.divide(selected[:n_fit])
            nit += 1
        if n_fit < selected.size:
            stop_reason = "max_evals"
            break

    best = partition.best
    return DirectResult(x=mid + partition.centres[best] * half_width,
                        fun=float(partition.values[best]), nfev=partition.size,
                        nit=nit, stop_reason=stop_reason)


class _Partition:
    """The rectangles of DIRECT, one row each, in the cube [-1, 1]^d.

    A rectangle is stored by its centre, the number of trisections of each
    side (a side cut k times has length 2 * 3**-k) and the value at its centre.
    Rows are allocated for the whole budget at once: np.empty reserves memory
    without touching it, so an unused large budget costs nothing.
    """

    def __init__(self, dim, capacity, locally_biased, evaluate):
        self.dim = dim
        self.locally_biased = locally_biased
        self.evaluate = evaluate
        self.centres = np.empty((capacity, dim))
        self.cuts = np.empty((capacity, dim), dtype=np.int16)
        self.values = np.empty(capacity)
        # Every division cuts all the longest sides, so the sides of a
        # rectangle have at most two lengths, and its total number of cuts t
        # fixes its shape: t // d cuts on every side, one more on t % d sides.
        self.total_cuts = np.empty(capacity, dtype=np.int64)
        max_total = dim * _MAX_TRISECTIONS_PER_SIDE
        totals = np.arange(max_total + 1)
        longest_side = 3.0 ** -(totals // dim)
        if locally_biased:
            self.size_of_total = 0.5 * longest_side
        else:
            n_short = totals % dim
            self.size_of_total = 0.5 * longest_side * np.sqrt(dim - n_short + n_short / 9)
        self.centres[0], self.cuts[0], self.total_cuts[0] = 0.0, 0, 0
        self.values[0] = evaluate(self.centres[:1])[0]
        self.size = 1

    @property
    def best(self):
        """Row of the best centre value (the first, if tied)."""
        return int(np.argmax(self.values[:self.size]))

    def stop_reason(self, vol_tol, len_tol):
        """Name of the stopping rule met by the current partition, or ''."""
        if self.size == self.values.size:
            return "max_evals"
        best_total = self.total_cuts[self.best]
        if 3.0 ** -float(best_total) < vol_tol:
            return "vol_tol"
        if self.size_of_total[best_total] < len_tol:
            return "len_tol"
        return ""

    def division_cost(self, rows):
        """Number of new points needed to divide ``rows``: 2 per longest side."""
        return 2 * (self.dim - self.total_cuts[rows] % self.dim)

    def potentially_optimal(self, eps):
        """Rows of the potentially optimal rectangles (see direct_maximize).

        Rectangles are grouped by size; only the best of a group can qualify.
        Between the bests i and j of two groups, the rate K must satisfy
        K <= slope (i larger) or K >= slope (i smaller), with the same
        slope = (f_j - f_i) / (s_i - s_j). The existence of K is checked on the
        matrix of slopes between groups (a few hundred at most), which selects
        exactly the upper-right convex hull, points on its edges included.
        """
        total = self.total_cuts[:self.size]
        values = self.values[:self.size]
        group_key = total // self.dim if self.locally_biased else total
        cuttable = total < self.size_of_total.size - 1
        # The best value of each size group; keys ascend from the largest rectangles.
        group_best = np.full(self.size_of_total.size, -np.inf)
        np.maximum.at(group_best, group_key[cuttable], values[cuttable])
        keys = np.flatnonzero(group_best > -np.inf)
        best_values = group_best[keys]
        sizes = self.size_of_total[keys * self.dim if self.locally_biased else keys]

        size_gaps = sizes[None, :] - sizes[:, None]
        np.fill_diagonal(size_gaps, 1.0)  # keeps the diagonal finite; it is masked out below
        slopes = (best_values[:, None] - best_values[None, :]) / size_gaps
        group_index = np.arange(keys.size)
        larger = group_index[None, :] < group_index[:, None]  # column i is larger than row j
        rate_upper = np.where(larger, slopes, np.inf).min(axis=1)
        rate_lower = np.where(larger.T, slopes, -np.inf).max(axis=1)
        f_max = values.max()
        promises_improvement = best_values + rate_upper * sizes >= f_max + eps * abs(f_max)
        chosen_groups = (rate_upper > 0) & (rate_lower <= rate_upper) & promises_improvement

        chosen_key = np.zeros(group_best.size, dtype=bool)
        chosen_key[keys[chosen_groups]] = True
        rows = np.flatnonzero(cuttable & chosen_key[group_key] & (values == group_best[group_key]))
        if self.locally_biased:  # one per group: the oldest of its best
            _, oldest = np.unique(group_key[rows], return_index=True)
            return rows[oldest]
        # Original DIRECT divides every rectangle tied with its group's best; largest groups first.
        return rows[np.argsort(group_key[rows], kind="stable")]

    def divide(self, parents):
        """Trisect ``parents`` along their longest sides, evaluating all new centres at once."""
        dim, first_new = self.dim, self.size
        longest = self.cuts[parents] == (self.total_cuts[parents] // dim)[:, None]
        parent_of_pair, side_of_pair = np.nonzero(longest)
        parent_rows = parents[parent_of_pair]
        n_pairs = parent_rows.size
        rows = slice(first_new, first_new + 2 * n_pairs)
        # A side cut k times has length 2 * 3**-k; the new centres sit a third
        # of it away from the parent's, pair after pair: c + delta e_i, c - delta e_i.
        delta = 2.0 * 3.0 ** -(self.cuts[parent_rows, side_of_pair] + 1.0)
        pairs = self.centres[rows].reshape(n_pairs, 2, dim)  # a view: written in place
        pairs[:] = self.centres[parent_rows, None, :]
        pair_index = np.arange(n_pairs)
        pairs[pair_index, 0, side_of_pair] += delta
        pairs[pair_index, 1, side_of_pair] -= delta
        new_values = self.evaluate(self.centres[rows])

        # Within each parent, rank its sides by the better of their two
        # samples, best first; equal values keep coordinate order (stable).
        n_longest = longest.sum(axis=1)
        first_pair_of_parent = np.cumsum(n_longest) - n_longest
        by_rank = np.lexsort((-new_values.reshape(-1, 2).max(axis=1), parent_of_pair))
        rank = np.empty(n_pairs, dtype=np.int64)
        # parent_of_pair is already sorted, so position p of by_rank belongs to
        # parent parent_of_pair[p].
        rank[by_rank] = np.arange(n_pairs) - first_pair_of_parent[parent_of_pair]
        rank_of_side = np.full(longest.shape, dim)
        rank_of_side[parent_of_pair, side_of_pair] = rank
        # The two children along the side of rank r were cut off before the
        # splits of rank > r, so they carry the cuts of ranks 0..r; the parent
        # keeps the middle piece, cut along every longest side.
        child_cuts = self.cuts[parent_rows] + (rank_of_side[parent_of_pair] <= rank[:, None])
        self.cuts[rows].reshape(n_pairs, 2, dim)[:] = child_cuts[:, None, :]
        self.total_cuts[rows].reshape(n_pairs, 2)[:] = (self.total_cuts[parent_rows] + rank + 1)[:, None]
        self.values[rows] = new_values
        self.cuts[parents] += longest
        self.total_cuts[parents] += n_longest
        self.size += 2 * n_pairs


def maximize_with_restarts(fun, bounds, rng, *, n_candidates=1000, n_restarts=5,
                           sampler="random", fun_and_grad=None, maxiter=200):
    """Maximize over a box by candidate search, then L-BFGS-B from the best candidates.

    ``fun`` is evaluated on ``n_candidates`` points in one call; the best
    ``n_restarts`` distinct candidates start L-BFGS-B runs (on ``-fun``) that
    stay inside the box. The answer is the best of the polished points and
    the best candidate, so it is never worse than the candidate search.

    Parameters
    ----------
    fun : callable
        ``fun(X)`` with ``X`` of shape (n, d) returns shape (n,).
    bounds : array-like of shape (d, 2)
        Lower and upper bound of each coordinate, lower < upper.
    rng : numpy.random.Generator
        Source of the candidates.
    n_candidates : int, default=1000
        Number of candidates, at least 1.
    n_restarts : int, default=5
        Number of candidates polished, at least 0 (0 = candidate search only).
    sampler : {"random", "lhs", "sobol"}, default="random"
        Uniform i.i.d. points, a Latin hypercube (``scipy.stats.qmc``), or a
        scrambled Sobol' sequence (the first ``n_candidates`` points of a
        power-of-two block).
    fun_and_grad : callable or None, default=None
        ``fun_and_grad(x)`` with ``x`` of shape (d,) returns ``(value, grad)``
        of the same function. Without it, gradients are forward differences
        whose d + 1 points are evaluated in one call of ``fun``.
    maxiter : int, default=200
        Iteration limit of each L-BFGS-B run.

    Returns
    -------
    result : MaximizeResult
        Best point, its value and the number of evaluated points.
    """
    lower, upper = _check_bounds(bounds)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}.")
    n_candidates = _check_int(n_candidates, "n_candidates", minimum=1)
    n_restarts = _check_int(n_restarts, "n_restarts", minimum=0)
    maxiter = _check_int(maxiter, "maxiter", minimum=1)
    dim = lower.size

    def evaluate(X):
        values = np.asarray(fun(X), dtype=float)
        if values.shape != (len(X),):
            raise ValueError(f"fun must return shape ({len(X)},) for X of shape "
                             f"{X.shape}, got shape {values.shape}.")
        if np.any(np.isnan(values)):
            raise ValueError("fun returned NaN.")
        return values

    candidates = lower + (upper - lower) * _unit_samples(sampler, n_candidates, dim, rng)
    candidate_values = evaluate(candidates)
    nfev = n_candidates

    by_value = np.argsort(-candidate_values, kind="stable")
    _, first_copy = np.unique(candidates, axis=0, return_index=True)
    is_first_copy = np.zeros(n_candidates, dtype=bool)
    is_first_copy[first_copy] = True
    starts = candidates[by_value[is_first_copy[by_value]][:n_restarts]]

    if fun_and_grad is None:
        def negative_with_gradient(x):
            nonlocal nfev
            value, grad = _forward_difference(evaluate, x, upper)
            nfev += dim + 1
            return -value, -grad
    else:
        def negative_with_gradient(x):
            nonlocal nfev
            value, grad = fun_and_grad(x)
            nfev += 1
            return -float(value), -np.asarray(grad, dtype=float)

    box = list(zip(lower, upper))
    polished = np.array([
        np.clip(minimize(negative_with_gradient, start, jac=True, method="L-BFGS-B",
                         bounds=box, options={"maxiter": maxiter}).x, lower, upper)
        for start in starts]).reshape(-1, dim)
    # Re-evaluate with fun itself so the reported value is fun's, not the
    # optimizer's (they differ only when fun_and_grad is inconsistent).
    polished_values = evaluate(polished) if len(polished) else np.empty(0)
    nfev += len(polished)

    best_candidate = by_value[0]
    points = np.vstack([candidates[best_candidate][None, :], polished])
    point_values = np.r_[candidate_values[best_candidate], polished_values]
    best = int(np.argmax(point_values))
    return MaximizeResult(x=points[best], fun=float(point_values[best]), nfev=nfev)


def _unit_samples(sampler, n, dim, rng):
    """``n`` points in [0, 1)^dim from the named sampler."""
    if sampler == "random":
        return rng.random((n, dim))
    if sampler == "lhs":
        return qmc.LatinHypercube(dim, rng=rng).random(n)
    if sampler == "sobol":
        # Sobol' points are balanced in blocks of 2^m; draw the enclosing block.
        block = qmc.Sobol(dim, rng=rng).random_base2(int(np.ceil(np.log2(n))))
        return block[:n]
    raise ValueError(f"sampler must be 'random', 'lhs' or 'sobol', got {sampler!r}.")


def _forward_difference(evaluate, x, upper):
    """Value and forward-difference gradient at ``x`` from one batched call.

    Steps point inwards where a forward step would leave the box.
    """
    step = np.sqrt(np.finfo(float).eps) * np.maximum(1.0, np.abs(x))
    step = np.where(x + step > upper, -step, step)
    points = np.vstack([x, x + np.diag(step)])
    values = evaluate(points)
    return values[0], (values[1:] - values[0]) / step


def argmax_finite(values, rng=None):
    """Index of the largest of a finite set of values.

    Parameters
    ----------
    values : array-like of shape (n,)
        Values of the n candidates, n >= 1, no NaN (infinities are allowed).
    rng : numpy.random.Generator or None, default=None
        If given, ties for the maximum are broken uniformly at random;
        otherwise the first maximizer is returned.

    Returns
    -------
    index : int
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array, got shape {values.shape}.")
    if np.any(np.isnan(values)):
        raise ValueError(f"values must not contain NaN, found {int(np.isnan(values).sum())}.")
    ties = np.flatnonzero(values == values.max())
    if rng is None or ties.size == 1:
        return int(ties[0])
    return int(ties[rng.integers(ties.size)])


def _check_bounds(bounds):
    """Return (lower, upper) of a (d, 2) array of finite bounds with lower < upper."""
    bounds = np.asarray(bounds, dtype=float)
    if bounds.ndim != 2 or bounds.shape[1] != 2 or bounds.shape[0] == 0:
        raise ValueError(f"bounds must have shape (d, 2) with d >= 1, got shape {bounds.shape}.")
    if not np.all(np.isfinite(bounds)):
        raise ValueError("bounds must be finite.")
    lower, upper = bounds[:, 0], bounds[:, 1]
    if np.any(lower >= upper):
        bad = np.flatnonzero(lower >= upper)
        raise ValueError(f"bounds must have lower < upper in every row; rows {bad.tolist()} "
                         f"do not: {bounds[bad].tolist()}.")
    return lower, upper


def _check_int(value, name, minimum):
    """``value`` as an int >= minimum, or a ValueError/TypeError naming ``name``."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}.")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}.") from None
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return value
