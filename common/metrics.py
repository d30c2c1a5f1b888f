"""Regret and space-filling metrics (maximize convention).

With f* the maximum and f(x_1), ..., f(x_T) the noise-free values of the queries:

    best-so-far      b_t   = max_{i <= t} f(x_i)
    simple regret    S_t   = f* - b_t                        (>= 0, non-increasing)
    cumulative       R_t/t = (1/t) sum_{i <= t} (f* - f(x_i))  (Srinivas et al. 2010)
    fill distance    h_t   = sup_{x in X} min_{i <= t} ||x - x_i||_2

S_t <= R_t / t always holds, since every term of R_t is >= S_t.
"""
import numpy as np


def _as_trace(name, values):
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array; got shape {values.shape}.")
    return values


def best_so_far(values):
    """Running maximum b_t of a 1-D trace."""
    return np.maximum.accumulate(_as_trace("values", values))


def simple_regret(values, optimal_value):
    """S_t = f* - max_{i <= t} f(x_i) for every t."""
    return float(optimal_value) - best_so_far(values)


def average_cumulative_regret(values, optimal_value):
    """R_t / t = mean_{i <= t} (f* - f(x_i)) for every t."""
    regret = float(optimal_value) - _as_trace("values", values)
    return np.cumsum(regret) / np.arange(1, regret.size + 1)


def fill_distance(queries, reference):
    """Fill distance of the growing query set, estimated on reference points.

    Parameters
    ----------
    queries : (n, d) points in query order.
    reference : (m, d) points standing in for the domain (e.g. a Latin hypercube);
        the sup over the domain is replaced by the max over them, a lower bound.

    Returns
    -------
    (n,) array: h_t = max_j min_{i <= t} ||reference_j - queries_i|| for t = 1..n,
    computed incrementally in O(m d) per query.
    """
    queries = np.asarray(queries, dtype=float)
    reference = np.asarray(reference, dtype=float)
    if queries.ndim != 2 or reference.ndim != 2 or queries.shape[1] != reference.shape[1]:
        raise ValueError(
            f"queries and reference must be 2-D with the same number of columns; "
            f"got {queries.shape} and {reference.shape}."
        )
    nearest = np.full(len(reference), np.inf)
    result = np.empty(len(queries))
    for t, point in enumerate(queries):
        nearest = np.minimum(nearest, np.linalg.norm(reference - point, axis=1))
        result[t] = nearest.max()
    return result
