"""Seed-by-seed comparison of two methods that share their initial designs.

Two methods run with the same seeds start from the same initial points, so
their results are compared pair by pair (one pair per seed), not as two
independent samples. :func:`paired_comparison` counts wins, ties and losses,
tests the non-tied pairs with the two-sided Wilcoxon signed-rank test and
summarizes the effect by the median difference with a bootstrap interval.

One significance level serves the whole project: :data:`ALPHA`. "Better" in a
verdict means significantly better at that level; a difference the test cannot
tell from zero is "no significant difference", whatever its sign.
"""
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

#: The project's one significance level: a paired comparison is "better" or
#: "worse" only if its two-sided p-value is below it.
ALPHA = 0.05
#: Default tie tolerance: a pair ties if ``|a - b| <= TIE_TOLERANCE * (1 + max(|a|, |b|))``,
#: i.e. equal up to 1e-12 absolutely near zero and relatively for large values.
TIE_TOLERANCE = 1e-12
#: Resamples of the seeds drawn for the bootstrap interval of the median difference.
N_RESAMPLES = 2000
#: Coverage of that interval (percentile bootstrap).
CONFIDENCE = 0.95
#: Seed of the bootstrap's generator, fixed so that the interval is reproducible.
BOOTSTRAP_SEED = 20240601
OUTCOMES = ("better", "worse", "no significant difference")


@dataclass(frozen=True)
class PairedComparison:
    """Outcome of comparing method a with method b seed by seed.

    Attributes
    ----------
    n : int
        Number of pairs (seeds).
    wins, ties, losses : int
        Pairs where a is better than b, equal to it within the tie tolerance, worse.
    p_value : float
        Two-sided Wilcoxon signed-rank p-value on the non-tied pairs; 1 if every pair ties.
    median_difference : float
        Median over all pairs of the difference, signed so that positive means a is better.
    interval : tuple of float
        Percentile bootstrap interval of ``median_difference`` (:data:`CONFIDENCE`).
    outcome : str
        One of :data:`OUTCOMES`: "better" or "worse" (for a) if ``p_value < ALPHA``,
        "no significant difference" otherwise.
    """

    n: int
    wins: int
    ties: int
    losses: int
    p_value: float
    median_difference: float
    interval: tuple
    outcome: str

    def __str__(self):
        low, high = self.interval
        return (f"{self.wins} W / {self.ties} T / {self.losses} L, median diff {self.median_difference:.3g} "
                f"[{low:.3g}, {high:.3g}], p = {self.p_value:.2g}")


def brief(comparison):
    """One line for a verdict's reason, e.g. ``"14W/2T/4L p=0.021 better"`` (no outcome word when not significant)."""
    marker = "" if comparison.outcome == "no significant difference" else f" {comparison.outcome}"
    return f"{comparison.wins}W/{comparison.ties}T/{comparison.losses}L p={comparison.p_value:.2g}{marker}"


def paired_by_seed(a, b, *, higher_is_better, **options):
    """:func:`paired_comparison` of two per-seed Series on the seeds they share; None if they share none."""
    seeds = a.index.intersection(b.index).sort_values()
    if seeds.empty:
        return None
    return paired_comparison(a[seeds].to_numpy(), b[seeds].to_numpy(), higher_is_better=higher_is_better, **options)


def better_share(comparisons):
    """(cells significantly better - cells significantly worse) / cells; a cell that did not run (None) counts 0."""
    found = [c for c in comparisons if c is not None]
    return (sum(is_better(c) for c in found) - sum(c.outcome == "worse" for c in found)) / len(comparisons)


def no_worse_share(comparisons):
    """Share of cells not significantly worse; a cell that did not run (None) counts as not shown."""
    return sum(c is not None and is_no_worse(c) for c in comparisons) / len(comparisons)


def _as_paired_values(name, values):
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (one value per seed); got shape {array.shape}")
    if array.size < 1:
        raise ValueError(f"{name} must hold at least one value (one per seed); got none")
    not_finite = np.flatnonzero(~np.isfinite(array))
    if not_finite.size:
        raise ValueError(f"{name} must hold finite numbers; got {array[not_finite[0]]} at position {not_finite[0]}")
    return array


def paired_comparison(a, b, *, higher_is_better, tie_tolerance=TIE_TOLERANCE, n_resamples=N_RESAMPLES):
    """Compare method a with method b seed by seed.

    Parameters
    ----------
    a, b : array_like of float, shape (n,)
        Final results of the two methods, aligned so that position i holds the
        same seed (the same initial design) in both; ``n >= 1``.
    higher_is_better : bool
        True for a score to maximize (best value found), False for one to
        minimize (regret).
    tie_tolerance : float, default :data:`TIE_TOLERANCE` (1e-12)
        A pair ties if ``|a_i - b_i| <= tie_tolerance * (1 + max(|a_i|, |b_i|))``:
        absolute near zero, relative for large values. Ties count neither way and
        are left out of the test.
    n_resamples : int, default :data:`N_RESAMPLES` (2000)
        Bootstrap resamples for the interval; 0 skips it (interval NaN, NaN),
        for callers that need only the outcome of many comparisons.

    Returns
    -------
    PairedComparison
        Its ``median_difference`` is the median of ``a - b`` if
        ``higher_is_better`` else of ``b - a``, so positive always means a is
        better. Its interval resamples the seeds ``n_resamples`` times with a
        generator seeded by :data:`BOOTSTRAP_SEED`, so equal inputs give equal
        intervals.

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not one-dimensional, is empty or holds a NaN or an
        infinity, if their lengths differ, if ``tie_tolerance`` is negative or
        ``n_resamples`` is not an integer >= 0.
    """
    a, b = _as_paired_values("a", a), _as_paired_values("b", b)
    if a.size != b.size:
        raise ValueError(f"a and b must have the same length (one value per seed each); got {a.size} and {b.size}")
    if not (np.isfinite(tie_tolerance) and tie_tolerance >= 0):
        raise ValueError(f"tie_tolerance must be a finite number >= 0; got {tie_tolerance!r}")
    if int(n_resamples) != n_resamples or n_resamples < 0:
        raise ValueError(f"n_resamples must be an integer >= 0 (0: no interval); got {n_resamples!r}")
    advantage = (a - b) if higher_is_better else (b - a)
    tied = np.abs(a - b) <= tie_tolerance * (1.0 + np.maximum(np.abs(a), np.abs(b)))
    wins, losses = int(np.sum(~tied & (advantage > 0))), int(np.sum(~tied & (advantage < 0)))
    untied = advantage[~tied]
    if untied.size == 0:
        p_value, direction = 1.0, 0.0
    else:
        p_value = float(stats.wilcoxon(untied).pvalue)
        # The two-sided statistic hides the direction; the signed rank sum shows it.
        ranks = stats.rankdata(np.abs(untied))
        direction = float(np.sum(ranks[untied > 0]) - np.sum(ranks[untied < 0]))
    if p_value < ALPHA and direction > 0:
        outcome = "better"
    elif p_value < ALPHA and direction < 0:
        outcome = "worse"
    else:
        outcome = "no significant difference"
    return PairedComparison(n=int(a.size), wins=wins, ties=int(np.sum(tied)), losses=losses, p_value=p_value,
                            median_difference=float(np.median(advantage)),
                            interval=_bootstrap_interval(advantage, int(n_resamples)), outcome=outcome)


def _bootstrap_interval(differences, n_resamples):
    if n_resamples == 0:
        return math.nan, math.nan
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    resampled = differences[rng.integers(0, differences.size, size=(n_resamples, differences.size))]
    tail = 100 * (1 - CONFIDENCE) / 2
    low, high = np.percentile(np.median(resampled, axis=1), [tail, 100 - tail])
    return float(low), float(high)


def is_better(comparison):
    """True if a is significantly better than b (at :data:`ALPHA`)."""
    return comparison.outcome == "better"


def is_no_worse(comparison):
    """True if a is not significantly worse than b (at :data:`ALPHA`); ties and noise count as no worse."""
    return comparison.outcome != "worse"


def count_beyond_chance(n_cells, *, per_cell=ALPHA / 2, level=ALPHA):
    """Fewest cells that chance alone reaches with probability at most ``level``.

    When a method makes no difference, each cell of a claim still comes out
    "better" with probability ``per_cell`` (half the two-sided level: the
    better tail). The count returned is the smallest k with
    ``P(Binomial(n_cells, per_cell) >= k) <= level``.

    Parameters
    ----------
    n_cells : int
        Number of independent cells (comparisons) the claim covers, >= 1.
    per_cell : float, default ALPHA / 2
        Chance that one cell comes out "better" when nothing differs.
    level : float, default ALPHA

    Raises
    ------
    ValueError
        If ``n_cells < 1`` or a probability is outside (0, 1).
    """
    if int(n_cells) != n_cells or n_cells < 1:
        raise ValueError(f"n_cells must be an integer >= 1; got {n_cells!r}")
    for name, value in (("per_cell", per_cell), ("level", level)):
        if not 0 < value < 1:
            raise ValueError(f"{name} must be a probability in (0, 1); got {value!r}")
    counts = np.arange(1, int(n_cells) + 1)
    # sf(k - 1) = P(X >= k); the tail shrinks with k, so the first k under the level is the fewest.
    beyond = counts[stats.binom.sf(counts - 1, int(n_cells), per_cell) <= level]
    if beyond.size == 0:
        raise ValueError(f"with n_cells={n_cells}, even every cell 'better' has chance above level={level}; "
                         f"the claim needs more cells")
    return int(beyond[0])
