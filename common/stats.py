"""Seed-by-seed comparison of two methods that share their initial designs, judged by estimation.

Two methods run with the same seeds start from the same initial points, so
their results are compared pair by pair (one pair per seed), not as two
independent samples. :func:`paired_comparison` counts wins, ties and losses,
tests the non-tied pairs with the two-sided Wilcoxon signed-rank test, and
estimates the size of the effect with an interval (:class:`Effect`):

* on the **ratio** scale, for a positive quantity such as a regret, a distance
  or CPU seconds: ``mean(a) / mean(b)``, e.g. "0.78x [0.55, 1.10]" (a's mean
  regret is 0.78 times b's). It does not depend on the function's units, and,
  unlike the geometric mean of per-seed ratios, it is defined when a run
  reaches a regret of exactly zero (a finite candidate set's best arm, an
  optimum at the centre of the box);
* on the **difference** scale, for a quantity in natural units where ratios
  make no sense (accuracies, log-likelihoods): ``mean(a) - mean(b)``.

The interval is a percentile bootstrap over the seeds, resampled in pairs and
expanded for small samples (:func:`expanded_tail`).

Verdicts are estimates against a margin, never a p-value alone: :mod:`common.judging` judges each cell's
interval against its claim's margin. Ties are differences of zero, measured: a cell where fewer than
:data:`FEWEST_UNTIED` seeds are untied is judged by its interval like any other, and its text says how few
seeds were untied. The Wilcoxon p-value and the older p-value outcome (:attr:`PairedComparison.outcome`, at
:data:`ALPHA`) stay beside the estimate, so that a verdict table can show what the p-value rule gave.
"""
import contextlib
import functools
import math
from dataclasses import dataclass, field, replace

import numpy as np
from scipy import stats

from common import interval_record


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
#: The seed in force (:func:`bootstrap_seed` changes it to show how much a verdict owes to it).
_BOOTSTRAP = {"seed": BOOTSTRAP_SEED, "refine": True}
#: An interval end within this share of the interval's half-width of a decision boundary is recomputed with
#: :data:`N_REFINED` resamples before the cell is judged (:func:`common.judging.refined`): at :data:`N_RESAMPLES` an end moves by
#: 3-4 % of the half-width between bootstrap seeds, at N_REFINED by about a tenth of that.
REFINE_NEAR = 0.15
N_REFINED = 200_000
#: An end still within this many of its Monte-Carlo standard errors (:attr:`Effect.errors`) of a decision boundary
#: at :data:`N_REFINED` resamples is recomputed once more on :data:`N_PRECISE` (:func:`common.judging.refined`), whose error is a
#: tenth as large; where it is still that close there, its side of the boundary is decided by the exact bootstrap
#: distribution (:mod:`common.bootstrap_tail`), which no seed enters, and the cell says so in its note
#: (:func:`common.judging.judge_cell`). Six errors: an end farther than that is on the exact side under all but about 2 in 10^9
#: seeds (it was 3 until 2026-12-03, when a cell 1 error from its boundary followed the seed; issue 63).
BOUNDARY_ERRORS = 6
N_PRECISE = 20_000_000
#: Batches of resamples whose interval ends give an end's Monte-Carlo standard error (the batch-means method).
_ERROR_BATCHES = 20
#: Resampled means (resamples x columns) that :func:`paired_curves` sums at once: three such arrays fit in a
#: CPU's level-2 cache.
_SUMMED_AT_ONCE = 32_768
OUTCOMES = ("better", "worse", "no significant difference")
#: Scales of an effect: ``mean(a) / mean(b)`` or ``mean(a) - mean(b)``.
EFFECT_SCALES = ("ratio", "difference")
#: What a claim says of one cell (method a against method b on one problem).
CELL_CLAIMS = ("better", "substantially better", "no worse", "equivalent")
#: How the runs judge one cell of a claim.
JUDGEMENTS = ("supported", "contradicted", "undecided", "not comparable")
#: A cell where at least this share of the seeds tie cannot separate the methods (a saturated task, a function
#: every method solves): it is "not comparable", neither supported nor contradicted (issue 40, 2026-11-27).
TIED_SHARE = 0.9
#: Seeds beyond which :attr:`common.judging.CellJudgement.seeds_to_decide` is reported as "more than" this.
MOST_SEEDS_REPORTED = 10_000
#: Below this many untied seeds the two-sided Wilcoxon test cannot reach p < 0.05 and the p-value rule could not
#: decide a cell; the effect's interval still can (ties are measured differences of zero), and a cell's text says
#: how few seeds were untied (a saturated substitute, an optimum both methods hit exactly).
FEWEST_UNTIED = 6


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
        "no significant difference" otherwise: the p-value rule, kept to show
        beside the estimate what it gave.
    effect : Effect
        The size of the difference with its bootstrap interval, on the scale asked for.
    higher_is_better : bool
        The direction the comparison was made in.
    values : tuple of ndarray or None
        The per-seed values ``(a, b)`` compared, kept so that an interval near a decision boundary can be recomputed
        with more resamples (:func:`common.judging.refined`); not part of the comparison's equality.
    typical : Effect or None
        The typical seed's effect (:func:`typical_effect`): the median over seeds of the per-seed ratio or
        difference, with a distribution-free interval; beside the mean's ``effect`` it shows whether a few seeds
        carry the mean.
    """

    n: int
    wins: int
    ties: int
    losses: int
    p_value: float
    median_difference: float
    interval: tuple
    outcome: str
    effect: "Effect" = None
    higher_is_better: bool = True
    values: tuple = field(default=None, repr=False, compare=False)
    typical: "Effect" = None

    def __str__(self):
        low, high = self.interval
        return (f"{self.wins} W / {self.ties} T / {self.losses} L, median diff {self.median_difference:.3g} "
                f"[{low:.3g}, {high:.3g}], p = {self.p_value:.2g}")


def brief(comparison):
    """One line for a verdict's reason: the effect with its interval, the typical seed's (:func:`typical_effect`),
    the seed counts and the p-value, and "better" or "worse" where the effect's interval lies wholly on one side of
    no difference (:func:`interval_side`), e.g.
    ``"0.78x [0.55, 0.93] (median seed 0.81x [0.6, 1.02]), 14W/2T/4L p=0.021 better"``."""
    typical = f" (median seed {comparison.typical})" if comparison.typical is not None else ""
    effect = f"{comparison.effect}{typical}, " if comparison.effect is not None else ""
    side = interval_side(comparison)
    return (f"{effect}{comparison.wins}W/{comparison.ties}T/{comparison.losses}L p={comparison.p_value:.2g}"
            + (f" {side}" if side else ""))


def interval_side(comparison):
    """"better" (for a) or "worse" when the effect's interval lies wholly on one side of no difference, else None."""
    if comparison.effect is None or math.isnan(comparison.effect.low):
        return None
    _, low, high = advantage_interval(comparison)
    return "better" if low > 0 else "worse" if high < 0 else None


def lower_or_higher(comparison):
    """A lower-is-better comparison read in its metric's words: "lower" (a ends lower) or "higher" when the
    effect's interval lies wholly on one side of no difference (:func:`interval_side`), else "undecided"."""
    return {"better": "lower", "worse": "higher"}.get(interval_side(comparison), "undecided")


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


def as_well_as_share(comparisons):
    """Share of cells neither significantly better nor significantly worse (the p-value rule for "as well as")."""
    return sum(c is not None and c.outcome == "no significant difference" for c in comparisons) / len(comparisons)


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


def paired_comparison(a, b, *, higher_is_better, scale="difference", tie_tolerance=TIE_TOLERANCE,
                      n_resamples=N_RESAMPLES):
    """Compare method a with method b seed by seed.

    Parameters
    ----------
    a, b : array_like of float, shape (n,)
        Final results of the two methods, aligned so that position i holds the
        same seed (the same initial design) in both; ``n >= 1``.
    higher_is_better : bool
        True for a score to maximize (best value found), False for one to
        minimize (regret).
    scale : {"ratio", "difference"}, default "difference"
        The scale of :attr:`PairedComparison.effect` (:data:`EFFECT_SCALES`):
        ``mean(a) / mean(b)`` for a quantity >= 0 such as a regret, or
        ``mean(a) - mean(b)`` in natural units.
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
        infinity, if their lengths differ, if ``scale`` is unknown or is
        "ratio" for values below zero, if ``tie_tolerance`` is negative or
        ``n_resamples`` is not an integer >= 0.
    """
    a, b = _as_paired_values("a", a), _as_paired_values("b", b)
    if a.size != b.size:
        raise ValueError(f"a and b must have the same length (one value per seed each); got {a.size} and {b.size}")
    if _SIMULATED_SAMPLE:
        a, b = _SIMULATED_SAMPLE[-1](a, b, scale)
    if scale not in EFFECT_SCALES:
        raise ValueError(f"scale must be one of {list(EFFECT_SCALES)}; got {scale!r}")
    if scale == "ratio" and (a.min() < 0 or b.min() < 0):
        raise ValueError(f"scale='ratio' needs values >= 0 (a regret, a distance, seconds); got a minimum of "
                         f"{min(a.min(), b.min()):.4g}: use scale='difference' for values in natural units")
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
        p_value = _signed_rank_p_value(untied.tobytes())
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
                            interval=_bootstrap_interval(advantage, int(n_resamples)), outcome=outcome,
                            effect=estimate_effect(a, b, scale, n_resamples=int(n_resamples)),
                            higher_is_better=bool(higher_is_better), values=(a, b),
                            typical=typical_effect(a, b, scale))


def paired_curves(a, b, *, higher_is_better, scale, boundaries=()):
    """:func:`paired_comparison` at every iteration of two sets of curves, with one bootstrap draw shared by all.

    A claim about curves compares the methods at each of hundreds of iterations; resampling the seeds once for all
    iterations gives each iteration's interval exactly as :func:`paired_comparison` would (the same expanded
    percentile bootstrap over the pairs), at a small share of the cost. The median difference's interval
    (:attr:`PairedComparison.interval`) is not computed (NaN).

    Parameters
    ----------
    a, b : array_like of float, shape (n_seeds, n_iterations)
        The two methods' curves, row i the same seed in both.
    higher_is_better : bool
    scale : {"ratio", "difference"}
    boundaries : sequence of float, default ()
        Decision boundaries on the advantage scale (:func:`advantage_interval`): an iteration whose interval ends
        near one is recomputed on :data:`N_REFINED` resamples, as :func:`common.judging.refined` does, from one draw shared by
        all such iterations.

    Returns
    -------
    list of PairedComparison
        One per iteration (column).
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(f"a and b must be 2-D arrays of the same shape (seeds x iterations); got {a.shape} and "
                         f"{b.shape}")
    if _SIMULATED_SAMPLE or a.shape[0] < 2:   # a simulation transforms each comparison's seeds: one at a time
        return [replace(paired_comparison(a[:, i], b[:, i], higher_is_better=higher_is_better, scale=scale,
                                          n_resamples=N_RESAMPLES), interval=(math.nan, math.nan))
                for i in range(a.shape[1])]
    found = [paired_comparison(a[:, i], b[:, i], higher_is_better=higher_is_better, scale=scale, n_resamples=0)
             for i in range(a.shape[1])]
    found = _shared_draw_intervals(found, a, b, scale, N_RESAMPLES)
    near = [i for i, comparison in enumerate(found) if near_boundary(comparison, boundaries)]
    if near and _BOOTSTRAP["refine"]:
        refined_found = _shared_draw_intervals([found[i] for i in near], a[:, near], b[:, near], scale, N_REFINED)
        for i, comparison in zip(near, refined_found):
            found[i] = comparison
    return found


def _shared_draw_intervals(comparisons, a, b, scale, n_resamples):
    """``comparisons`` (one per column of ``a`` and ``b``) with their effects' intervals from ``n_resamples``
    resamples of the seeds (rows) drawn once for all columns (:func:`_shared_draw_ends`)."""
    a, b = np.ascontiguousarray(a, dtype=float), np.ascontiguousarray(b, dtype=float)
    ends = _shared_draw_ends(a.tobytes(), b.tobytes(), a.shape, scale, int(n_resamples), _BOOTSTRAP["seed"],
                             _SUMMED_AT_ONCE)
    return [replace(comparison, effect=Effect(scale, comparison.effect.estimate, low, high, n_resamples, errors))
            for comparison, (low, high, errors) in zip(comparisons, ends)]


@functools.lru_cache(maxsize=256)
def _shared_draw_ends(a_bytes, b_bytes, shape, scale, n_resamples, seed, summed_at_once):
    """Each column's interval ends and their Monte-Carlo errors (:func:`_interval_ends`) from ``n_resamples``
    resamples of the rows of a and b (float64 bytes of arrays of ``shape``, seeds x columns) drawn once from
    ``seed``, in chunks that keep memory small, ``summed_at_once`` resampled means at a time. Cached by its exact
    inputs: a paper's claims judge the same curves again (under the rules before, under each earlier settings),
    and the cached ends are the ones computed for them; those of :data:`N_REFINED` resamples or more also in a
    notebook's record from one execution to the next (:mod:`common.interval_record`)."""
    a = np.frombuffer(a_bytes, dtype=float).reshape(shape)
    b = np.frombuffer(b_bytes, dtype=float).reshape(shape)
    if n_resamples < N_REFINED:
        return _drawn_shared_ends(a, b, scale, n_resamples, seed, summed_at_once)
    inputs = {"a": interval_record.encoded(a), "b": interval_record.encoded(b), "shape": list(shape), "scale": scale,
              "n_resamples": int(n_resamples), "seed": int(seed), "summed_at_once": int(summed_at_once)}
    found = interval_record.recorded("curves", inputs)
    if found is not None:
        return tuple((low, high, tuple(errors)) for low, high, errors in found)
    ends = _drawn_shared_ends(a, b, scale, n_resamples, seed, summed_at_once)
    interval_record.add("curves", inputs, [[low, high, list(errors)] for low, high, errors in ends])
    return ends


def _drawn_shared_ends(a, b, scale, n_resamples, seed, summed_at_once):
    """:func:`_shared_draw_ends` of the arrays a and b, computed."""
    n_seeds, n_columns = a.shape
    rng = np.random.default_rng(seed)
    chunk = max(1, 4_000_000 // max(n_seeds, n_columns))
    block = max(1, summed_at_once // n_columns)
    resampled = np.empty((n_columns, n_resamples))   # a row per column: each interval reads contiguous memory
    for start in range(0, n_resamples, chunk):
        rows = min(chunk, n_resamples - start)
        picks = rng.integers(0, n_seeds, size=(rows, n_seeds)) + n_seeds * np.arange(rows)[:, None]
        counts = np.bincount(picks.ravel(), minlength=rows * n_seeds).reshape(rows, n_seeds).astype(float)
        # A resample as the count of each seed in it; the means summed seed by seed, in a fixed order and without
        # BLAS, so that they do not depend on the machine's kernels; a block of resamples at a time, small enough
        # to stay in the CPU's cache (the same sums, 2-3x faster than the whole chunk at once).
        for low in range(0, rows, block):
            high = min(rows, low + block)
            sums_a, sums_b, product = (np.zeros((high - low, n_columns)) for _ in range(3))
            for seed_row in range(n_seeds):
                sums_a += np.multiply(counts[low:high, seed_row:seed_row + 1], a[seed_row], out=product)
                sums_b += np.multiply(counts[low:high, seed_row:seed_row + 1], b[seed_row], out=product)
            means_a, means_b = sums_a / n_seeds, sums_b / n_seeds
            resampled[:, start + low:start + high] = (
                _ratio_of_means(means_a, means_b) if scale == "ratio" else means_a - means_b).T
    return tuple(_interval_ends(scale, resampled, n_seeds))


@contextlib.contextmanager
def bootstrap_seed(seed):
    """Inside the block, every bootstrap interval draws its resamples from ``seed`` instead of
    :data:`BOOTSTRAP_SEED` (to check that no verdict owes itself to the seed)."""
    saved = _BOOTSTRAP["seed"]
    _BOOTSTRAP["seed"] = seed
    try:
        yield
    finally:
        _BOOTSTRAP["seed"] = saved


@contextlib.contextmanager
def unrefined_intervals():
    """Inside the block no interval is recomputed near a boundary (:func:`common.judging.refined`): for power simulations, where
    thousands of simulated cells need the verdict's shape, not the last digit of its Monte-Carlo error."""
    saved = _BOOTSTRAP["refine"]
    _BOOTSTRAP["refine"] = False
    try:
        yield
    finally:
        _BOOTSTRAP["refine"] = saved


#: The sample transforms in force (:func:`simulated_samples`), innermost last.
_SIMULATED_SAMPLE = []


@contextlib.contextmanager
def simulated_samples(transform):
    """Inside the block, every :func:`paired_comparison` compares ``transform(a, b, scale)`` instead of its inputs.

    A power simulation (:func:`common.confirmatory.decision_rate`) judges a claim with its own, unchanged measure on
    simulated seeds this way: ``transform`` returns the new pair of per-seed arrays (any common length), e.g. the
    pilot's seeds resampled and their effect shrunk.
    """
    _SIMULATED_SAMPLE.append(transform)
    try:
        yield
    finally:
        _SIMULATED_SAMPLE.pop()


@functools.lru_cache(maxsize=1 << 16)
def _signed_rank_p_value(untied_bytes):
    """Two-sided Wilcoxon signed-rank p-value of the untied differences (float64 bytes, seed order): the p-value
    ``scipy.stats.wilcoxon`` returns, to the bit.

    Cached: a claim judged at every iteration of a regret curve compares the same differences again wherever the
    curves are flat. The key is the exact input, so a cached p-value is the one computed for it."""
    differences = np.frombuffer(untied_bytes, dtype=float)
    ranks = stats.rankdata(np.abs(differences))
    has_ties = np.unique(ranks).size < ranks.size
    # scipy's method="auto" tests a sample of at most 13 with tied |differences| (and no zeros) by enumerating its
    # 2**n sign flips in Python, a second each; the same enumeration vectorized gives the same p-value.
    if has_ties and differences.size <= PERMUTATION_MAX_N and not np.any(differences == 0):
        return _signed_rank_permutation_p_value(differences, ranks)
    return float(stats.wilcoxon(differences).pvalue)


#: The largest sample scipy's Wilcoxon test with ties still enumerates exactly (2**13 < its 9,999 resamples).
PERMUTATION_MAX_N = 13


def _signed_rank_permutation_p_value(differences, ranks):
    """The exact two-sided p-value of the signed-rank sum W+ over all 2**n sign flips of ``differences``
    (mid-ranks ``ranks`` of their absolute values), counted as ``scipy.stats.permutation_test`` counts: with its
    relative tolerance of 100 eps around the observed W+, twice the smaller tail, at most 1."""
    n = differences.size
    flipped = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(bool)
    positive = np.where(flipped, differences < 0, differences > 0)
    # Every sum of mid-ranks is a multiple of 1/2 below 2**53: exact in any order of summation.
    null = (positive * ranks).sum(axis=1)
    observed = float(np.sum(ranks[differences > 0]))
    tolerance = abs(np.finfo(float).eps * 100 * observed)
    less = np.count_nonzero(null <= observed + tolerance) / float(2**n)
    greater = np.count_nonzero(null >= observed - tolerance) / float(2**n)
    return float(min(max(min(less, greater) * 2, 0.0), 1.0))


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


# --------------------------------------------------------------------------- estimation
@dataclass(frozen=True)
class Effect:
    """The size of a difference between two methods with its bootstrap interval.

    Attributes
    ----------
    scale : {"ratio", "difference"}
        ``estimate = mean(a) / mean(b)`` (``0/0`` is 1, no difference) or ``mean(a) - mean(b)``.
    estimate, low, high : float
        The estimate and its expanded percentile bootstrap interval
        (:data:`CONFIDENCE`, :func:`expanded_tail`);
        a ratio's interval may reach 0 or infinity when b's mean can be 0.
    resamples : int
        The bootstrap resamples the interval rests on.
    errors : tuple of float
        Monte-Carlo standard errors of ``low`` and ``high`` (of their logs on the ratio scale), estimated from
        :data:`_ERROR_BATCHES` batches of the resamples; NaN where the batches are too small to tell.
    """

    scale: str
    estimate: float
    low: float
    high: float
    resamples: int = field(default=0, compare=False)
    errors: tuple = field(default=(math.nan, math.nan), compare=False)

    def __str__(self):
        if self.scale == "ratio":
            return f"{self.estimate:.3g}x [{self.low:.3g}, {self.high:.3g}]"
        return f"{self.estimate:+.3g} [{self.low:+.3g}, {self.high:+.3g}]"


def _effect_of_means(scale):
    """The function (mean of a, mean of b) -> the effect on ``scale`` ("ratio" or "difference")."""
    if scale not in EFFECT_SCALES:
        raise ValueError(f"scale must be one of {list(EFFECT_SCALES)}; got {scale!r}")
    return _ratio_of_means if scale == "ratio" else np.subtract


def _ratio_of_means(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = numerator / denominator
    # Both means 0 (every run of both methods at zero regret): no difference.
    return np.where((numerator == 0) & (denominator == 0), 1.0, ratio)


@functools.lru_cache(maxsize=None)
def expanded_tail(n_seeds):
    """The tail probability of the expanded percentile interval for ``n_seeds`` pairs.

    The plain percentile bootstrap is too narrow for small samples (about 90 %
    coverage for a mean at 10 seeds). The expanded percentile interval
    (Hesterberg 2015, "What teachers should know about the bootstrap", §4.2)
    widens it to the t interval's width: the tail
    ``Phi(sqrt(n / (n - 1)) * t_{n-1}((1 - CONFIDENCE) / 2))``; 0.0086 per side at
    10 seeds, 0.019 at 40, tending to (1 - CONFIDENCE) / 2 = 0.025. Cached: every
    interval asks for it, and scipy's t quantile costs a quarter of a millisecond.
    """
    tail = (1 - CONFIDENCE) / 2
    return float(stats.norm.cdf(math.sqrt(n_seeds / (n_seeds - 1)) * stats.t.ppf(tail, n_seeds - 1)))


def _order_statistic_interval(estimates, n_seeds):
    """Expanded percentile interval by order statistics, which stay defined when some estimates are infinite."""
    low, high = _order_statistic_ends(estimates, n_seeds)
    return float(low), float(high)


def _order_statistic_ends(estimates, n_seeds, *, in_place=False):
    """The expanded percentile interval's two order statistics of each row of ``estimates`` (the last axis holds
    the resamples): arrays ``(low, high)`` of the leading axes' shape. ``in_place`` reorders the rows of
    ``estimates`` itself instead of a copy (a copy of many resamples costs more than the partition)."""
    tail = expanded_tail(n_seeds)
    size = estimates.shape[-1]
    low_index = int(math.floor(tail * (size - 1)))
    high_index = int(math.ceil((1 - tail) * (size - 1)))
    # The two order statistics without a full sort; the k-th smallest value is the same whatever the row's order.
    if in_place:
        estimates.partition([low_index, high_index], axis=-1)
        ordered = estimates
    else:
        ordered = np.partition(estimates, [low_index, high_index], axis=-1)
    return ordered[..., low_index].copy(), ordered[..., high_index].copy()


def _interval_ends(scale, resampled, n_seeds):
    """Per row of ``resampled`` (rows x resamples): the expanded percentile interval's ends ``(low, high)`` of the
    row's resamples and the Monte-Carlo standard error of each end by batch means, the SD of the ends of
    :data:`_ERROR_BATCHES` equal batches of the resamples over the square root of their number (NaN where a batch
    holds under 10 resamples beyond an end, or an end is not finite; of the ends' logs on the ratio scale). Every
    row's order statistics come from one partition: the same values as row by row. ``resampled`` is reordered
    within each row (its caller's scratch array)."""
    n_rows, n_resamples = resampled.shape
    batch = n_resamples // _ERROR_BATCHES
    batch_lows = batch_highs = None
    if batch * expanded_tail(n_seeds) >= 10:
        # The batches first, each reordered within itself, which leaves every row's order statistics as they were.
        batches = resampled[:, :batch * _ERROR_BATCHES].reshape(n_rows, _ERROR_BATCHES, batch)
        batch_lows, batch_highs = _order_statistic_ends(batches, n_seeds, in_place=True)
    lows, highs = _order_statistic_ends(resampled, n_seeds, in_place=True)
    found = []
    for row in range(n_rows):
        errors = (math.nan, math.nan)
        if batch_lows is not None:
            ends = np.column_stack([batch_lows[row], batch_highs[row]])   # batches x (low, high), C order
            if scale == "ratio":
                with np.errstate(divide="ignore", invalid="ignore"):
                    ends = np.log(ends)
            with np.errstate(invalid="ignore"):
                spread = ends.std(axis=0, ddof=1) / math.sqrt(_ERROR_BATCHES)
            errors = tuple(float(value) if np.isfinite(value) else math.nan for value in spread)
        found.append((float(lows[row]), float(highs[row]), errors))
    return found


def _interval_effect(scale, estimate, estimates, n_seeds):
    """The :class:`Effect` of ``estimate`` whose interval comes from the resampled ``estimates``
    (:func:`_interval_ends`)."""
    (low, high, errors), = _interval_ends(scale, estimates[None, :], n_seeds)
    return Effect(scale, estimate, low, high, estimates.size, errors)


def estimate_effect(a, b, scale, *, n_resamples=N_RESAMPLES):
    """The effect of a against b seed by seed, with a paired percentile bootstrap interval.

    Parameters
    ----------
    a, b : ndarray of float, shape (n,)
        Per-seed values, position i the same seed in both.
    scale : {"ratio", "difference"}
        ``mean(a) / mean(b)`` (values >= 0) or ``mean(a) - mean(b)``.
    n_resamples : int, default :data:`N_RESAMPLES`
        Resamples of the seeds (in pairs); 0 gives the interval (NaN, NaN).

    Returns
    -------
    Effect
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    effect_of_means = _effect_of_means(scale)

    def of(sample_a, sample_b):
        return effect_of_means(sample_a.mean(axis=-1), sample_b.mean(axis=-1))

    estimate = float(of(a, b))
    if n_resamples == 0:
        return Effect(scale, estimate, math.nan, math.nan)
    if a.size < 2:   # one seed says nothing about the spread
        return Effect(scale, estimate, 0.0 if scale == "ratio" else -math.inf, math.inf, n_resamples)
    if n_resamples < N_REFINED:
        return _resampled_effect(a, b, scale, estimate, int(n_resamples), _BOOTSTRAP["seed"])
    return _refined_effect(a.tobytes(), b.tobytes(), scale, estimate, int(n_resamples), _BOOTSTRAP["seed"])


def _resampled_effect(a, b, scale, estimate, n_resamples, seed):
    """:func:`estimate_effect`'s bootstrap: ``n_resamples`` resamples of the pairs drawn from ``seed``."""
    effect_of_means = _effect_of_means(scale)
    rng = np.random.default_rng(seed)
    # In chunks of about two million drawn indices, so that many resamples of many seeds fit in memory; the first
    # chunk is the whole draw at the default resamples.
    chunk = max(N_RESAMPLES, 2_000_000 // a.size)
    estimates = []
    for start in range(0, n_resamples, chunk):
        picks = rng.integers(0, a.size, size=(min(chunk, n_resamples - start), a.size))
        estimates.append(effect_of_means(a[picks].mean(axis=-1), b[picks].mean(axis=-1)))
    return _interval_effect(scale, estimate, np.concatenate(estimates), a.size)


@functools.lru_cache(maxsize=1024)
def _refined_effect(a_bytes, b_bytes, scale, estimate, n_resamples, seed):
    """:func:`_resampled_effect` of the float64 bytes of a and b, cached by its exact inputs: a refined interval
    costs up to seconds (:data:`N_PRECISE` resamples), and a paper's claims recompute the same few of them (the
    verdicts judged again under the rules before, under each earlier settings); the cached one is the one computed
    for those inputs. A notebook's record (:mod:`common.interval_record`) keeps them from one execution to the next."""
    a, b = np.frombuffer(a_bytes, dtype=float), np.frombuffer(b_bytes, dtype=float)
    inputs = {"a": interval_record.encoded(a), "b": interval_record.encoded(b), "scale": scale,
              "estimate": float(estimate), "n_resamples": int(n_resamples), "seed": int(seed)}
    found = interval_record.recorded("paired", inputs)
    if found is not None:
        low, high, errors = found
        return Effect(scale, estimate, low, high, n_resamples, tuple(errors))
    effect = _resampled_effect(a, b, scale, estimate, n_resamples, seed)
    interval_record.add("paired", inputs, [effect.low, effect.high, list(effect.errors)])
    return effect


def estimate_unpaired_effect(a, b, scale, *, n_resamples=N_RESAMPLES):
    """The effect of a against b from two independent samples (no seed is shared, e.g. runs of two codes), with a
    percentile bootstrap interval that resamples each sample on its own, expanded for the smaller one
    (:func:`expanded_tail`).

    Parameters
    ----------
    a, b : ndarray of float, any lengths >= 2
    scale : {"ratio", "difference"}
        ``mean(a) / mean(b)`` (values >= 0) or ``mean(a) - mean(b)``.
    n_resamples : int, default :data:`N_RESAMPLES`

    Returns
    -------
    Effect
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    of = _effect_of_means(scale)
    if min(a.size, b.size) < 2:
        raise ValueError(f"a and b need at least 2 values each to show a spread; got {a.size} and {b.size}")

    rng = np.random.default_rng(_BOOTSTRAP["seed"])
    means_a = a[rng.integers(0, a.size, size=(n_resamples, a.size))].mean(axis=1)
    means_b = b[rng.integers(0, b.size, size=(n_resamples, b.size))].mean(axis=1)
    low, high = _order_statistic_interval(of(means_a, means_b), min(a.size, b.size))
    return Effect(scale, float(of(a.mean(), b.mean())), low, high, n_resamples)


@functools.lru_cache(maxsize=None)
def _median_interval_ranks(n_seeds):
    """1-based ranks ``(k, n - k + 1)`` of the order statistics that bound the median with at least
    :data:`CONFIDENCE` coverage for any continuous distribution (the sign test's interval), or None where even
    the smallest and largest values cover less (fewer than 6 seeds)."""
    tail = (1 - CONFIDENCE) / 2
    k = int(stats.binom.ppf(tail, n_seeds, 0.5))   # smallest k with P(B <= k) >= tail
    if stats.binom.cdf(k, n_seeds, 0.5) > tail:
        k -= 1
    # Now P(B <= k) <= tail: the median lies below the (k+1)-th value with probability at most tail.
    return None if k < 0 else (k + 1, n_seeds - k)


def _middle(ordered):
    """The median of sorted values that may hold -inf and +inf (their mean taken as 0: no direction)."""
    n = ordered.size
    low, high = ordered[(n - 1) // 2], ordered[n // 2]
    if np.isinf(low) and np.isinf(high) and low != high:
        return 0.0
    return float((low + high) / 2)


def typical_effect(a, b, scale):
    """The typical seed's effect of a against b: the median per-seed effect, with a distribution-free interval.

    On the ratio scale the per-seed ratio ``a_i / b_i`` (``0 / 0`` is 1), on the difference scale ``a_i - b_i``.
    Where the ratio of means (:func:`estimate_effect`) can follow a few seeds that blow up, the median follows the
    majority. Its interval is the sign test's: the order statistics ``x_(k)`` and ``x_(n-k+1)`` with
    ``P(Binomial(n, 1/2) < k) <= (1 - CONFIDENCE) / 2`` (Hollander, Wolfe & Chicken 2014, §3.6), exact for any
    continuous distribution and without resampling, so it never moves with a bootstrap seed; it is unbounded
    below 6 seeds.

    Parameters
    ----------
    a, b : ndarray of float, shape (n,)
        Per-seed values, position i the same seed in both.
    scale : {"ratio", "difference"}

    Returns
    -------
    Effect
        On ``scale``; its ``resamples`` is 0 (no bootstrap).
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if scale == "ratio":
        with np.errstate(divide="ignore"):
            per_seed = np.log(_ratio_of_means(a, b))   # the median of ratios, taken on the log scale
    else:
        per_seed = a - b
    ordered = np.sort(per_seed)
    estimate = _middle(ordered)
    ranks = _median_interval_ranks(ordered.size)
    low, high = (-math.inf, math.inf) if ranks is None else (ordered[ranks[0] - 1], ordered[ranks[1] - 1])
    if scale == "ratio":
        estimate, low, high = math.exp(estimate), math.exp(low), math.exp(high)
    return Effect(scale, float(estimate), float(low), float(high))


def advantage_interval(comparison):
    """``(estimate, low, high)`` of a's advantage over b, positive in a's favour, on an additive scale.

    The log of the ratio (negated when lower is better), or the difference
    (negated when lower is better); a margin is compared on the same scale
    (:attr:`common.judging.Margin.advantage`).
    """
    effect = comparison.effect
    values = np.array([effect.estimate, effect.low, effect.high], dtype=float)
    if effect.scale == "ratio":
        with np.errstate(divide="ignore"):
            values = np.log(values)
    if not comparison.higher_is_better:
        values = -values
    estimate, low, high = values
    return float(estimate), float(min(low, high)), float(max(low, high))


def near_boundary(comparison, boundaries):
    """Whether an end of the comparison's interval lies within :data:`REFINE_NEAR` of its half-width of one of
    ``boundaries`` (advantages, :func:`advantage_interval`), below :data:`N_REFINED` resamples."""
    if not boundaries or comparison.effect is None or comparison.effect.resamples >= N_REFINED:
        return False
    _, low, high = advantage_interval(comparison)
    half_width = (high - low) / 2
    if not np.isfinite(half_width) or half_width == 0:
        return False
    return min(abs(end - boundary) for end in (low, high) for boundary in boundaries) < REFINE_NEAR * half_width
