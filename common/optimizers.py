"""Maximizers of acquisition functions over a box.

Three ways to pick the next query, all for MAXIMIZATION of a batched function
``fun(X: (n, d)) -> (n,)``:

- :func:`direct_maximize`: DIRECT (Jones, Perttunen and Stuckman, 1993), the
  optimizer the papers use, batched so that each iteration evaluates all its
  new points in one call of ``fun``, with its bookkeeping compiled by numba;
- :func:`maximize_with_restarts`: a space-filling candidate set followed by
  L-BFGS-B polishing of the best candidates;
- :func:`argmax_finite`: the best of a finite candidate set, with random
  tie-breaking.
"""
import operator
from dataclasses import dataclass

import numba
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
                    locally_biased=False, vol_tol=1e-16, len_tol=1e-6, last_round="best_first"):
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
        Evaluation budget, at least 1. How the round that reaches it ends is
        ``last_round``'s. (``scipy.optimize.direct`` instead finishes the
        iteration in which it passes ``maxfun``, so its ``nfev`` can exceed
        ``maxfun``.)
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
    last_round : {"best_first", "finish", "pairs_in_order"}, default="best_first"
        What happens when the rectangles selected in a round need more
        evaluations than are left; the run ends after that round in every case.
        "best_first": only whole rectangles are divided, best centre value
        first, stopping at the first that does not fit, so the budget is never
        exceeded and ``max_evals - 2d < nfev <= max_evals``. "finish": every
        selected rectangle is divided, so ``nfev`` passes the budget by up to
        a round (Finkel's ``DIRect.m``, and ``scipy.optimize.direct``).
        "pairs_in_order": the rectangles are divided in the order they were
        selected (the largest first) and a pair of points is evaluated while
        fewer than ``max_evals`` have been, so ``nfev`` can reach
        ``max_evals + 1``; the rectangle cut short is still split along all
        its longest sides, its unevaluated sides counting as children at its
        centre with value 0 (the zeros its arrays start with), and those that
        rank among its evaluated ones stay in the partition and can be
        returned. That is ``utils/diRect.m`` of Kandasamy et al.'s
        add-gp-bandits when ``opts.maxevals`` is given (without it, "finish").

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
    search = _Search(lower, upper, max_evals, max_iters, eps, locally_biased, vol_tol, len_tol, last_round)
    while (points := search.next_points()) is not None:
        search.record(fun(points))
    return search.result()


def direct_maximize_groups(fun, bounds, max_evals, *, max_iters=None, eps=1e-4, locally_biased=False,
                           vol_tol=1e-16, len_tol=1e-6, last_round="best_first"):
    """Run M independent DIRECT searches in lockstep, evaluating all their new points in one call per round.

    Search j maximizes its own function over its own box ``bounds[j]`` with
    budget ``max_evals[j]``, exactly as :func:`direct_maximize` would (the same
    points, tested); only the calls are pooled. An additive GP's acquisition
    is the sum of one function per group of coordinates, each maximized on its
    own (Kandasamy et al. 2015, Algorithm 1): pooling lets one posterior solve
    serve all groups' candidates of a round.

    Parameters
    ----------
    fun : callable
        ``fun(points)`` with ``points`` a list of M arrays, the j-th of shape
        (n_j, d_j) (n_j = 0 once search j has stopped), returns a list of M
        value arrays of shapes (n_j,).
    bounds : list of M arrays of shape (d_j, 2)
    max_evals : list of M ints (or one int for all)
    max_iters, eps, locally_biased, vol_tol, len_tol, last_round : as in :func:`direct_maximize`, for every
        search.

    Returns
    -------
    list of M DirectResult
    """
    if np.isscalar(max_evals):
        max_evals = [max_evals] * len(bounds)
    if len(max_evals) != len(bounds) or not len(bounds):
        raise ValueError(f"bounds and max_evals must list the same number (>= 1) of searches; got {len(bounds)} "
                         f"and {len(max_evals)}.")
    searches = []
    for box, budget in zip(bounds, max_evals):
        lower, upper = _check_bounds(box)
        searches.append(_Search(lower, upper, budget, max_iters, eps, locally_biased, vol_tol, len_tol,
                                last_round))
    while True:
        points = [search.next_points() for search in searches]
        if all(p is None for p in points):
            return [search.result() for search in searches]
        pooled = [np.empty((0, search.dim)) if p is None else p for search, p in zip(searches, points)]
        values = list(fun(pooled))
        if len(values) != len(searches):
            raise ValueError(f"fun must return one value array per search ({len(searches)}); got {len(values)}.")
        for search, p, v in zip(searches, points, values):
            if p is not None:
                search.record(v)


LAST_ROUNDS = ("best_first", "finish", "pairs_in_order")


class _Search:
    """The state of one DIRECT run between evaluations: which points to evaluate next, and their values.

    ``next_points`` returns the box points of the next round (first the centre,
    then the children of the round's potentially optimal rectangles), or None
    once a stopping rule holds; ``record`` takes their values.
    """

    def __init__(self, lower, upper, max_evals, max_iters, eps, locally_biased, vol_tol, len_tol,
                 last_round="best_first"):
        self.max_evals = _check_int(max_evals, "max_evals", minimum=1)
        if last_round not in LAST_ROUNDS:
            raise ValueError(f"last_round must be one of {list(LAST_ROUNDS)}; got {last_round!r}.")
        self.last_round = last_round
        self.max_iters = None if max_iters is None else _check_int(max_iters, "max_iters", minimum=0)
        for name, value in (("eps", eps), ("vol_tol", vol_tol), ("len_tol", len_tol)):
            if not np.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}.")
        self.eps, self.vol_tol, self.len_tol = eps, vol_tol, len_tol
        self.mid, self.half_width = (lower + upper) / 2, (upper - lower) / 2
        self.dim = lower.size
        # "pairs_in_order" evaluates up to one point past the budget and places all children of the rectangle
        # cut short; "finish" grows the partition in the round that passes the budget.
        capacity = self.max_evals + (2 * self.dim if last_round == "pairs_in_order" else 0)
        self.partition = _Partition(self.dim, capacity, locally_biased)
        self.nit, self.stop_reason, self.pending, self.cut_short = 0, "", None, None

    def next_points(self):
        partition = self.partition
        if partition.size == 0:
            self.pending = ()
            return self.mid + partition.centres[:1] * self.half_width
        if self.stop_reason:
            return None
        self.stop_reason = "max_evals" if partition.size >= self.max_evals else ""
        self.stop_reason = self.stop_reason or partition.stop_reason(self.vol_tol, self.len_tol)
        if self.max_iters is not None and self.nit >= self.max_iters:
            self.stop_reason = self.stop_reason or "max_iters"
        if self.stop_reason:
            return None
        selected = partition.potentially_optimal(self.eps)
        if selected.size == 0:
            self.stop_reason = "max_depth"
            return None
        if self.last_round == "pairs_in_order":
            return self._round_of_pairs_in_order(selected)
        if self.last_round == "finish":
            new_points = 2 * int(np.sum(partition.dim - partition.total_cuts[selected] % partition.dim))
            if partition.size + new_points >= self.max_evals:
                self.stop_reason = "max_evals"  # after this round
                partition.reserve(partition.size + new_points)
            self.nit += 1
            self.pending = selected
            return self.mid + partition.place_children(selected) * self.half_width
        # Best centres first, so that a budget cut keeps the most promising.
        selected, n_fit = _best_first_within_budget(selected, partition.values, partition.total_cuts,
                                                    partition.dim, self.max_evals - partition.size)
        if n_fit < selected.size:
            self.stop_reason = "max_evals"  # after this round, if any rectangle fits
        if n_fit == 0:
            return None
        self.nit += 1
        self.pending = selected[:n_fit]
        new_centres = partition.place_children(self.pending)
        return self.mid + new_centres * self.half_width

    def _round_of_pairs_in_order(self, selected):
        """The round of ``diRect.m``: whole rectangles in selection order while the pairs fit, then the first
        sides of the one cut short (a pair is evaluated while fewer than max_evals points have been)."""
        partition = self.partition
        pairs_left = -(-(self.max_evals - partition.size) // 2)
        sides = partition.dim - partition.total_cuts[selected] % partition.dim
        n_whole = int(np.searchsorted(np.cumsum(sides), pairs_left, side="right"))
        self.cut_short = None
        if n_whole < selected.size:
            self.stop_reason = "max_evals"
            pairs_of_last = pairs_left - int(sides[:n_whole].sum())
            if pairs_of_last > 0:
                self.cut_short = (int(selected[n_whole]), pairs_of_last)
        if n_whole == 0 and self.cut_short is None:
            return None
        self.nit += 1
        self.pending = selected[:n_whole]
        new_centres = partition.place_children(self.pending)
        if self.cut_short is not None:
            parent, n_pairs = self.cut_short
            self.cut_short_centres = _children_centres(partition, parent)
            new_centres = np.concatenate([new_centres, self.cut_short_centres[:2 * n_pairs]])
        return self.mid + new_centres * self.half_width

    def record(self, values):
        n_whole = 1 if self.partition.size == 0 else 2 * self.partition.pending_pairs
        n_points = n_whole + (2 * self.cut_short[1] if self.cut_short is not None else 0)
        values = np.asarray(values, dtype=float)
        if values.shape != (n_points,):
            raise ValueError(f"fun must return shape ({n_points},) for X of shape ({n_points}, {self.dim}), "
                             f"got shape {values.shape}.")
        if not np.all(np.isfinite(values)):
            raise ValueError("fun returned non-finite values; DIRECT needs finite ones.")
        if self.partition.size == 0:
            self.partition.values[0] = values[0]
            self.partition.size = 1
            return
        if len(self.pending):
            self.partition.record_children(self.pending, values[:n_whole])
        if self.cut_short is not None:
            _record_cut_short(self.partition, *self.cut_short, self.cut_short_centres, values[n_whole:])

    def result(self):
        partition = self.partition
        best = partition.best
        return DirectResult(x=self.mid + partition.centres[best] * self.half_width,
                            fun=float(partition.values[best]), nfev=partition.size,
                            nit=self.nit, stop_reason=self.stop_reason)


class _Partition:
    """The rectangles of DIRECT, one row each, in the cube [-1, 1]^d.

    A rectangle is stored by its centre, the number of trisections of each
    side (a side cut k times has length 2 * 3**-k) and the value at its centre.
    Rows are allocated for the whole budget at once: np.empty reserves memory
    without touching it, so an unused large budget costs nothing.
    """

    def __init__(self, dim, capacity, locally_biased):
        self.dim = dim
        self.locally_biased = locally_biased
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
        # 2 * 3**-(k + 1): a third of a side cut k times, where its children's centres sit.
        self.third_of_side = 2.0 * 3.0 ** -(np.arange(_MAX_TRISECTIONS_PER_SIDE + 1) + 1.0)
        self.centres[0], self.cuts[0], self.total_cuts[0] = 0.0, 0, 0
        self.size = 0  # the centre counts once its value is recorded

    def reserve(self, capacity):
        """Room for ``capacity`` rectangles (the rows kept)."""
        if capacity > self.values.size:
            extra = capacity - self.values.size
            self.centres = np.concatenate([self.centres, np.empty((extra, self.dim))])
            self.cuts = np.concatenate([self.cuts, np.empty((extra, self.dim), dtype=self.cuts.dtype)])
            self.values = np.concatenate([self.values, np.empty(extra)])
            self.total_cuts = np.concatenate([self.total_cuts, np.empty(extra, dtype=self.total_cuts.dtype)])

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

    def potentially_optimal(self, eps):
        """Rows of the potentially optimal rectangles (see direct_maximize), largest group first.

        Rectangles are grouped by size; only the best of a group can qualify.
        Between the bests i and j of two groups, the rate K must satisfy
        K <= slope (i larger) or K >= slope (i smaller), with the same
        slope = (f_j - f_i) / (s_i - s_j). Checking that some K fits between the
        bounds of every group selects exactly the upper-right convex hull,
        points on its edges included.
        """
        return _potentially_optimal(self.total_cuts[:self.size], self.values[:self.size], self.size_of_total,
                                    self.dim, self.locally_biased, eps)

    def place_children(self, parents):
        """Write the centres of the children of ``parents`` (trisected along their longest sides) after the
        partition's rows, and return them (cube coordinates), for :meth:`record_children`."""
        self._pending = _place_children(self.centres, self.cuts, self.total_cuts, parents, self.size,
                                        self.third_of_side)
        return self.centres[self.size:self.size + 2 * self.pending_pairs]

    @property
    def pending_pairs(self):
        return self._pending[0].size

    def record_children(self, parents, values):
        """Their values: the children join the partition and the parents shrink."""
        parent_of_pair, side_of_pair = self._pending
        _record_children(self.cuts, self.total_cuts, self.values, parents, parent_of_pair, side_of_pair,
                         values, self.size)
        self.size += values.size


# The partition's bookkeeping, compiled: a DIRECT iteration adds a few dozen points, and as numpy calls its
# grouping, sorting and ranking cost more than evaluating them (measured: 150 us against 50 us per iteration
# at d = 6). The loops follow the definitions, with the floating-point operations of the numpy version they
# replaced, which sampled the same points (tests/test_loop_states.py).
@numba.njit(cache=True)
def _potentially_optimal(total_cuts, values, size_of_total, dim, locally_biased, eps):
    n_keys = size_of_total.size
    group_best = np.full(n_keys, -np.inf)
    f_max = -np.inf
    for row in range(values.size):
        f_max = max(f_max, values[row])
        if total_cuts[row] < n_keys - 1:  # rectangles cut n_keys - 1 times are too small to cut again
            key = total_cuts[row] // dim if locally_biased else total_cuts[row]
            group_best[key] = max(group_best[key], values[row])
    keys = np.flatnonzero(group_best > -np.inf)  # ascending: the largest rectangles first
    best = group_best[keys]
    sizes = size_of_total[keys * dim] if locally_biased else size_of_total[keys]
    chosen = np.zeros(n_keys, dtype=np.bool_)
    for j in range(keys.size):
        rate_upper, rate_lower = np.inf, -np.inf
        for i in range(keys.size):
            if i != j:
                slope = (best[j] - best[i]) / (sizes[i] - sizes[j])
                if i < j:  # group i is larger
                    rate_upper = min(rate_upper, slope)
                else:
                    rate_lower = max(rate_lower, slope)
        promises_improvement = best[j] + rate_upper * sizes[j] >= f_max + eps * abs(f_max)
        chosen[keys[j]] = rate_upper > 0 and rate_lower <= rate_upper and promises_improvement
    # Original DIRECT divides every rectangle tied with its group's best; DIRECT-L the oldest of them.
    rows, row_keys = [], []
    taken = np.zeros(n_keys, dtype=np.bool_)
    for row in range(values.size):
        if total_cuts[row] < n_keys - 1:
            key = total_cuts[row] // dim if locally_biased else total_cuts[row]
            if chosen[key] and values[row] == group_best[key] and not (locally_biased and taken[key]):
                taken[key] = True
                rows.append(row)
                row_keys.append(key)
    rows, row_keys = np.array(rows, dtype=np.int64), np.array(row_keys, dtype=np.int64)
    return rows[np.argsort(row_keys, kind="mergesort")]


@numba.njit(cache=True)
def _best_first_within_budget(selected, values, total_cuts, dim, budget):
    """``selected`` by decreasing centre value (stable), and how many of them the budget lets divide."""
    ordered = selected[np.argsort(-values[selected], kind="mergesort")]
    cost, n_fit = 0, 0
    for row in ordered:
        cost += 2 * (dim - total_cuts[row] % dim)  # 2 points per longest side
        if cost > budget:
            break
        n_fit += 1
    return ordered, n_fit


@numba.njit(cache=True)
def _place_children(centres, cuts, total_cuts, parents, first_new, third_of_side):
    """Write the centres c + delta e_i, c - delta e_i of every parent's longest sides i, pair after pair,
    from row ``first_new`` on; return each pair's parent (position in ``parents``) and side."""
    dim = centres.shape[1]
    n_pairs = 0
    for parent in parents:
        n_pairs += dim - total_cuts[parent] % dim
    parent_of_pair = np.empty(n_pairs, dtype=np.int64)
    side_of_pair = np.empty(n_pairs, dtype=np.int64)
    pair = 0
    for position in range(parents.size):
        parent = parents[position]
        for side in range(dim):
            if cuts[parent, side] == total_cuts[parent] // dim:  # a longest side
                # A side cut k times has length 2 * 3**-k; the children sit a third of it away.
                delta = third_of_side[cuts[parent, side]]
                row = first_new + 2 * pair
                centres[row] = centres[parent]
                centres[row, side] += delta
                centres[row + 1] = centres[parent]
                centres[row + 1, side] -= delta
                parent_of_pair[pair], side_of_pair[pair] = position, side
                pair += 1
    return parent_of_pair, side_of_pair


@numba.njit(cache=True)
def _record_children(cuts, total_cuts, values, parents, parent_of_pair, side_of_pair, new_values, first_new):
    """Cuts, sizes and values of the children, and the parents' new cuts.

    Within each parent its sides are ranked by the better of their two samples,
    best first (equal values keep coordinate order), and split in that order:
    the two children along the side of rank r were cut off before the splits of
    rank > r, so they carry the cuts of ranks 0..r; the parent keeps the middle
    piece, cut along every longest side.
    """
    pair = 0
    for position in range(parents.size):
        parent = parents[position]
        first = pair
        while pair < parent_of_pair.size and parent_of_pair[pair] == position:
            pair += 1
        n_sides = pair - first
        better = np.empty(n_sides)
        for k in range(n_sides):
            better[k] = max(new_values[2 * (first + k)], new_values[2 * (first + k) + 1])
        rank = np.empty(n_sides, dtype=np.int64)
        rank[np.argsort(-better, kind="mergesort")] = np.arange(n_sides)
        for k in range(n_sides):
            for child in range(2 * (first + k), 2 * (first + k) + 2):
                row = first_new + child
                cuts[row] = cuts[parent]
                for other in range(n_sides):
                    if rank[other] <= rank[k]:
                        cuts[row, side_of_pair[first + other]] += 1
                total_cuts[row] = total_cuts[parent] + rank[k] + 1
                values[row] = new_values[child]
        for k in range(n_sides):
            cuts[parent, side_of_pair[first + k]] += 1
        total_cuts[parent] += n_sides


def _children_centres(partition, parent):
    """The centres c + delta e_i, c - delta e_i of ``parent``'s longest sides i, pair after pair (cube units)."""
    centre, cuts = partition.centres[parent], partition.cuts[parent]
    sides = np.flatnonzero(cuts == partition.total_cuts[parent] // partition.dim)
    children = np.repeat(centre[None, :], 2 * sides.size, axis=0)
    for pair, side in enumerate(sides):
        delta = partition.third_of_side[cuts[side]]
        children[2 * pair, side] += delta
        children[2 * pair + 1, side] -= delta
    return children


def _record_cut_short(partition, parent, n_pairs, children, values):
    """``diRect.m``'s division of a rectangle whose first ``n_pairs`` sides were evaluated before the budget ran
    out: its sides are ranked by their better sample with 0 for each unevaluated one, the children of rank r take
    rows size + 2r, size + 2r + 1 (an unevaluated side's at the parent's centre, value 0), only the first
    ``n_pairs`` ranks are kept (diRect.m's counter covers no more), and the parent is cut along every longest
    side."""
    dim = partition.dim
    sides = np.flatnonzero(partition.cuts[parent] == partition.total_cuts[parent] // dim)
    child_values = np.zeros(2 * sides.size)
    child_values[:2 * n_pairs] = values
    children = children.copy()
    children[2 * n_pairs:] = partition.centres[parent]
    better = np.maximum(child_values[0::2], child_values[1::2])
    cuts = partition.cuts[parent].copy()
    for rank, pair in enumerate(np.argsort(-better, kind="mergesort")):
        cuts[sides[pair]] += 1
        if rank < n_pairs:
            for offset in (0, 1):
                row = partition.size + 2 * rank + offset
                partition.centres[row] = children[2 * pair + offset]
                partition.cuts[row] = cuts
                partition.total_cuts[row] = partition.total_cuts[parent] + rank + 1
                partition.values[row] = child_values[2 * pair + offset]
    partition.cuts[parent] = cuts
    partition.total_cuts[parent] += sides.size
    partition.size += 2 * n_pairs


def maximize_with_restarts(fun, bounds, rng, *, n_candidates=1000, n_restarts=5,
                           sampler="random", fun_and_grad=None, maxiter=200, starts="best"):
    """Maximize over a box by candidate search, then L-BFGS-B from the best candidates.

    ``fun`` is evaluated on ``n_candidates`` points in one call; the best
    ``n_restarts`` distinct candidates (or, with ``starts="random"``, as many
    fresh uniform points) start L-BFGS-B runs (on ``-fun``) that stay inside
    the box. The answer is the best of the polished points and the best
    candidate, so it is never worse than the candidate search.

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
    starts : {"best", "random"}, default="best"
        Where the L-BFGS-B runs start: the best distinct candidates, or uniform
        points drawn after the candidates (bayes_opt 1.x's ``acq_max``).

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
    if starts not in ("best", "random"):
        raise ValueError(f"starts must be 'best' or 'random'; got {starts!r}.")
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
    if starts == "best":
        _, first_copy = np.unique(candidates, axis=0, return_index=True)
        is_first_copy = np.zeros(n_candidates, dtype=bool)
        is_first_copy[first_copy] = True
        start_points = candidates[by_value[is_first_copy[by_value]][:n_restarts]]
    else:
        start_points = lower + (upper - lower) * rng.random((n_restarts, dim))

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
        for start in start_points]).reshape(-1, dim)
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
