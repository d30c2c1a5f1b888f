"""The exact bootstrap distribution of a paired effect at one point: where a Monte-Carlo interval end cannot decide.

The paired percentile bootstrap (:func:`common.stats.estimate_effect`) draws the seeds' pairs n times with
replacement and recomputes the effect; its interval ends are quantiles of the effect over all such resamples,
which the Monte-Carlo estimates from a sample of them. Whether an end lies above a point ``t`` (a decision
boundary) is a question about the exact bootstrap distribution F* alone:

.. math::

    \\text{low} > t \\iff F^*(t) = P^*(X^* \\le t) < \\alpha, \\qquad
    \\text{high} < t \\iff P^*(X^* < t) > 1 - \\alpha,

with :math:`\\alpha` the interval's tail (:func:`common.stats.expanded_tail`). Both effects reduce to the sign of
a resampled sum: for a difference of means :math:`X^* \\le t \\iff \\sum_j (a_{I_j} - b_{I_j} - t) \\le 0`, for a
ratio of means :math:`X^* \\le t \\iff \\sum_j (a_{I_j} - t\\, b_{I_j}) \\le 0` (where the resampled b are not all
zero), the :math:`I_j` n independent uniform draws of a seed. So :math:`P^*` is the law of a sum of n independent
draws from the n values :math:`d_i`, computed here exactly: the n draws are split into two halves, the sum of each
half takes one value per multiset of drawn values (multinomial probabilities, equal values merged), and
:math:`P(S_1 + S_2 \\le 0) = \\sum_x P(S_1 = x) P(S_2 \\le -x)` over the sorted values of one half (meet in the
middle; Davison & Hinkley 1997, *Bootstrap Methods and their Application*, §9.5 discuss this exact enumeration).
A half of m draws from K distinct values has :math:`\\binom{m+K-1}{K-1}` multisets: 20 untied seeds give 20
million, about 20 CPU seconds; beyond :data:`MOST_MULTISETS` the tail is not computed (None).
"""
import functools
import math

import numpy as np
from scipy import special

from common import interval_record

#: The most multisets one half may have (about 1 GB of arrays and 20 CPU seconds at this size).
MOST_MULTISETS = 25_000_000
#: At most this many multisets a half (about half a CPU second), the tail is cheap enough to decide every interval
#: end near a decision boundary, not only those within the Monte-Carlo error of it (:func:`in_easy_reach`).
EASY_MULTISETS = 2_000_000
#: A resampled sum within this share of the largest |d| times n of zero is zero (values on a lattice, such as
#: accuracies, sum to zero up to rounding).
ZERO_TOLERANCE = 1e-12


def multiset_count(n_draws, n_values):
    """The number of multisets of ``n_draws`` draws from ``n_values`` distinct values."""
    return math.comb(n_draws + n_values - 1, n_values - 1)


def in_easy_reach(d):
    """Whether the exact tail of the n values (or rows, for a ratio's pairs) ``d`` costs at most
    :data:`EASY_MULTISETS` multisets a half (:func:`sum_tail`; a ratio's sums have at most one value per
    distinct pair).

    Where the seeds' values lie on a lattice (accuracies, ties), a Monte-Carlo interval end sits on one of a few
    values and its batch-means error says nothing of how often another seed moves it to the next one; there the
    exact side is the only one no seed moves, and such data (few distinct values) is what keeps it cheap.
    """
    d = np.asarray(d, dtype=float)
    n = d.shape[0]
    return multiset_count(n - n // 2, np.unique(d, axis=0).shape[0]) <= EASY_MULTISETS


def _sums_of_draws(values, log_weights, n_draws):
    """Every multiset of ``n_draws`` draws from ``values`` (drawn with probabilities ``exp(log_weights)``): the sum
    of each and its multinomial probability, as two arrays."""
    log_factorial = special.gammaln(np.arange(n_draws + 1) + 1)
    used = np.zeros(1, dtype=np.int16)
    log_probability = np.zeros(1)
    total = np.zeros(1)
    for value, log_weight in zip(values[:-1], log_weights[:-1]):
        # Each partial multiset takes 0..(draws left) copies of this value.
        copies_allowed = (n_draws - used + 1).astype(np.int64)
        parent = np.repeat(np.arange(used.size), copies_allowed)
        first = np.repeat(np.cumsum(copies_allowed) - copies_allowed, copies_allowed)
        copies = (np.arange(parent.size) - first).astype(np.int16)
        used = used[parent] + copies
        log_probability = log_probability[parent] + (copies * log_weight - log_factorial[copies])
        total = total[parent] + copies * value
    copies = n_draws - used   # the last value takes the draws left
    log_probability += copies * log_weights[-1] - log_factorial[copies] + log_factorial[n_draws]
    total += copies * values[-1]
    return total, np.exp(log_probability)


@functools.lru_cache(maxsize=256)
def _sum_tail(d_bytes):
    """:func:`sum_tail` of the float64 bytes of d, cached by its exact inputs: up to seconds each, and a notebook's
    record (:mod:`common.interval_record`) keeps them from one execution to the next."""
    d = np.frombuffer(d_bytes, dtype=float)
    n = d.size
    values, counts = np.unique(d, return_counts=True)
    first_half, second_half = n // 2, n - n // 2
    if multiset_count(second_half, values.size) > MOST_MULTISETS:
        return None
    inputs = {"d": interval_record.encoded(d)}
    found = interval_record.recorded("exact_tail", inputs)
    if found is None:
        found = _enumerated_tail(values, counts, n)
        interval_record.add("exact_tail", inputs, list(found))
    return tuple(found)


def _enumerated_tail(values, counts, n):
    """``(P(S < 0), P(S <= 0))`` for S the sum of n draws from ``values`` drawn ``counts / n`` of the time, by meet in
    the middle over the multisets of each half of the draws."""
    log_weights = np.log(counts / n)
    first_half, second_half = n // 2, n - n // 2
    sums, probabilities = _sums_of_draws(values, log_weights, first_half)
    order = np.argsort(sums)
    sums, probabilities = sums[order], probabilities[order]
    if second_half == first_half:
        other_sums, other_probabilities = sums, probabilities
    else:
        other_sums, other_probabilities = _sums_of_draws(values, log_weights, second_half)
        order = np.argsort(other_sums)
        other_sums, other_probabilities = other_sums[order], other_probabilities[order]
    cumulative = np.concatenate([[0.0], np.cumsum(other_probabilities)])
    tolerance = ZERO_TOLERANCE * float(np.abs(values).max()) * n
    queries = -sums[::-1]   # ascending, which keeps the binary searches in cache
    weights = probabilities[::-1]
    # Summed by numpy, not BLAS (no @): the same bits under every BLAS kernel, as the record needs.
    below = np.sum(weights * cumulative[np.searchsorted(other_sums, queries - tolerance, side="left")])
    at_or_below = np.sum(weights * cumulative[np.searchsorted(other_sums, queries + tolerance, side="right")])
    return float(below), float(at_or_below)


def sum_tail(d):
    """``(P(S < 0), P(S <= 0))`` for S the sum of n independent uniform draws from the n values ``d``, exactly
    (sums within :data:`ZERO_TOLERANCE` of zero count as zero); None where a half of the draws has more than
    :data:`MOST_MULTISETS` multisets."""
    d = np.ascontiguousarray(d, dtype=float)
    if d.ndim != 1 or d.size < 1 or not np.all(np.isfinite(d)):
        raise ValueError(f"d must be a 1-D array of finite values; got shape {d.shape}")
    return _sum_tail(d.tobytes())


def effect_tail(a, b, scale, t):
    """``(P*(X < t), P*(X <= t))`` for X the paired bootstrap's effect of a against b (``scale`` "difference":
    ``mean(a) - mean(b)``; "ratio": ``mean(a) / mean(b)``, both >= 0, a resample of pairs that are all (0, 0)
    counting as 1); None where :func:`sum_tail` is out of reach."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if scale == "difference":
        return sum_tail(a - b - t)
    if scale != "ratio":
        raise ValueError(f"scale must be 'ratio' or 'difference'; got {scale!r}")
    if not t > 0:
        raise ValueError(f"a point of a ratio must be > 0; got t={t!r}")
    found = sum_tail(a - t * b)
    if found is None:
        return None
    below, at_or_below = found
    # A resample of (0, 0) pairs only sums to 0 but its ratio is 1: below t where t > 1, above it where t < 1.
    all_zero = (np.count_nonzero((a == 0) & (b == 0)) / a.size) ** a.size
    return below + (all_zero if t > 1 else 0.0), at_or_below - (all_zero if t < 1 else 0.0)
