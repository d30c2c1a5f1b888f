"""One cell of a claim judged against its margin: supported, contradicted or undecided.

A cell is one seed-by-seed comparison of two methods (:func:`common.stats.paired_comparison`) on one problem. Its
effect's interval, placed on the advantage scale (:func:`common.stats.advantage_interval`, positive in the paper's
direction), is judged against the claim's margin (:class:`Margin`) by :func:`judge_cell`:

=====================  =============================  =============================
claim                  supported when the interval    contradicted when the interval
=====================  =============================  =============================
``"better"``           lies beyond no effect           lies against the paper's
                       in the paper's direction        direction (or excludes the
                                                       paper's own effect, where it
                                                       prints one)
``"substantially       lies beyond the margin in the   lies against the paper's
better"``              paper's direction               direction
``"no worse"``         has its worse end within the    lies wholly beyond the margin
                       margin (non-inferiority)        on the worse side
``"equivalent"``       lies within the margin on       lies wholly beyond the margin
                       both sides                      on either side
=====================  =============================  =============================

and otherwise the cell is **undecided**, with the number of seeds that would decide it at the observed effect and
spread (:attr:`CellJudgement.seeds_to_decide`). The project's margin alone never contradicts a claim: an interval
that excludes a margin-sized gain but still holds no difference is undecided, and its note says what the runs
exclude ("a gain beyond 0.936x excluded; no difference not excluded"). The margin is the paper's own where its
words give one (a theorem's constant, "not greatly", "substantially"), else the project's one default,
:data:`DEFAULT_MARGIN` (10 % on the ratio scale). Near a decision boundary the interval is recomputed on more
resamples, and where it is still within Monte-Carlo error its side is read from the exact bootstrap distribution
(:func:`refined`, :mod:`common.bootstrap_tail`). :func:`cell` judges one cell and :func:`tally` counts a claim's
cells into its score.
"""
import contextlib
import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from common import bootstrap_tail, stats
from common.stats import (
    BOUNDARY_ERRORS, CELL_CLAIMS, EFFECT_SCALES, FEWEST_UNTIED, JUDGEMENTS, MOST_SEEDS_REPORTED,
    PairedComparison, REFINE_NEAR, TIED_SHARE, _BOOTSTRAP, advantage_interval, as_well_as_share,
    better_share, brief, estimate_effect, expanded_tail, near_boundary, no_worse_share,
)


@dataclass(frozen=True)
class Margin:
    """The smallest difference that matters for a claim, declared before the claim is judged.

    Attributes
    ----------
    scale : {"ratio", "difference"}
        The scale of the effects it applies to.
    size : float > 0
        On the ratio scale a fraction: 0.1 means a factor 1.1 (10 % more regret is
        worse beyond the margin, 1/1.1 of it better beyond it). On the difference
        scale, natural units (e.g. 0.01 of accuracy).
    source : str
        Where it comes from: the paper's words and where they are, or the project default.
    """

    scale: str
    size: float
    source: str

    def __post_init__(self):
        if self.scale not in EFFECT_SCALES:
            raise ValueError(f"Margin.scale must be one of {list(EFFECT_SCALES)}; got {self.scale!r}")
        if not (np.isfinite(self.size) and self.size > 0):
            raise ValueError(f"Margin.size must be a finite number > 0; got {self.size!r}")
        if not self.source:
            raise ValueError("Margin.source must say where the margin comes from (the paper's words or the "
                             "project default)")

    def __str__(self):
        size = f"x{1 + self.size:.3g}" if self.scale == "ratio" else f"{self.size:.3g}"
        return f"{size} ({self.source})"

    @property
    def advantage(self):
        """The margin on the advantage scale of :func:`common.stats.advantage_interval`."""
        return math.log1p(self.size) if self.scale == "ratio" else self.size


#: The project's one default margin: a factor 1.1 either way on the ratio scale. A method whose mean regret is
#: within 10 % of another's is "no worse"; a "better" claim is contradicted when the runs exclude a 10 % gain.
#: Chosen before the re-judging of 2026-11-25, the same as the constant C = 1.1 of mini_gp_opt's theorem.
DEFAULT_MARGIN = Margin("ratio", 0.10, "project default: a factor 1.1")


@dataclass(frozen=True)
class CellJudgement:
    """How the runs judge one cell of a claim (:func:`judge_cell`).

    Attributes
    ----------
    claim : str
        One of :data:`common.stats.CELL_CLAIMS`.
    judgement : str
        One of :data:`common.stats.JUDGEMENTS`.
    seeds_to_decide : int or None
        For an undecided cell, the seeds at which an interval of the observed
        spread around the observed effect would decide it (the half-width shrinks
        as 1/sqrt(seeds)); :data:`common.stats.MOST_SEEDS_REPORTED` + 1 stands for "more than
        that" (an effect on the boundary). None for a decided cell.
    leaning : str or None
        For an undecided cell, the judgement it would reach at ``seeds_to_decide``
        ("supported" or "contradicted"); None for a decided cell.
    """

    claim: str
    judgement: str
    seeds_to_decide: int | None = None
    leaning: str | None = None
    note: str = ""


#: Judging rules that can be switched back, to show beside a verdict the one the rules before gave
#: (:func:`previous_rules`). ``typical_seed``: a "better" cell whose mean and typical seed point opposite ways is
#: not supported (issue 40, 2026-11-27); ``ties``: a cell of tied seeds is not comparable (2026-11-27);
#: ``paper_effect``: a "better" cell is contradicted only by excluding the paper's own effect where that is below
#: the margin (2026-11-28); ``direction``: where the paper prints no effect, a "better" or "substantially better" cell
#: is contradicted only by an interval against the paper's direction, never by the project's margin alone (issue 63,
#: 2026-12-03).
_RULES = {"typical_seed": True, "ties": True, "paper_effect": True, "direction": True}


@contextlib.contextmanager
def _rules(**switched):
    saved = dict(_RULES)
    _RULES.update(switched)
    try:
        yield
    finally:
        _RULES.update(saved)


def previous_rules():
    """Judge cells by the rules before 2026-11-27 inside the block (the mean alone decides a "better" cell, a cell
    of tied seeds is judged like any other, and the margin alone contradicts a "better" cell)."""
    return _rules(typical_seed=False, ties=False, paper_effect=False, direction=False)


def margin_alone_contradicts():
    """Judge cells by the rules of 2026-11-28 inside the block: where the paper prints no effect, a "better" or
    "substantially better" cell whose interval excludes a gain as large as the project's margin is contradicted,
    even where it still holds no difference (the rule issue 63 retired on 2026-12-03)."""
    return _rules(direction=False)


def _typical_favours_b(comparison):
    """Whether the typical seed (:attr:`common.stats.PairedComparison.typical`) favours method b."""
    typical = comparison.typical
    if typical is None:
        return False
    value = typical.estimate
    if typical.scale == "ratio":
        value = math.log(value) if value > 0 else -math.inf
    return (value if comparison.higher_is_better else -value) < 0


def _carried_by_few(comparison):
    """Why a mean that favours a cannot support "better" where the typical seed favours b, else "".

    The typical seed favours b when more untied seeds favour b than a, or when the median per-seed effect
    (:func:`common.stats.typical_effect`) does."""
    if comparison.losses <= comparison.wins and not _typical_favours_b(comparison):
        return ""
    typical = "" if comparison.typical is None else f"; median seed {comparison.typical.estimate:.3g}" + (
        "x" if comparison.typical.scale == "ratio" else "")
    return (f"undecided: the mean is carried by {comparison.wins} of {comparison.n} seeds "
            f"({comparison.losses} favour the other method{typical})")


def judge_cell(comparison, claim, margin, paper_effect=None):
    """Judge one cell of a claim by the effect's interval against zero and the margin.

    Parameters
    ----------
    comparison : PairedComparison
        With an effect on the margin's scale.
    claim : {"better", "substantially better", "no worse"}
        What the paper says of a against b.
    margin : Margin
    paper_effect : float or None, default None
        For a "better" cell, the paper's own effect in this cell where it prints numbers for both methods, on the
        advantage scale (:func:`paper_advantage`). The cell is then contradicted only when its interval excludes
        the smaller of the margin and the paper's effect (or lies against the paper's direction): runs that exclude
        a margin-sized gain but not the gain the paper itself reports do not contradict it (issue 40).

    Returns
    -------
    CellJudgement
        "better" is supported when the advantage's interval lies above 0
        ("substantially better": above the margin) and contradicted when it
        lies below 0, against the paper's direction (with a ``paper_effect``:
        below the smaller of it and the margin). An interval that excludes a
        gain as large as the project's margin but still holds no difference
        contradicts nothing the paper printed: the cell is undecided, with a
        note that says what the runs exclude (issue 63, 2026-12-03); "no worse"
        is supported when the interval lies above minus the margin and
        contradicted when it lies below it. Otherwise undecided. A "better" cell
        whose interval lies above but whose seeds mostly favour b (more losses
        than wins: the mean is carried by a few seeds) is undecided, with a
        note that says so, at more seeds than :data:`common.stats.MOST_SEEDS_REPORTED`: more
        seeds of the same kind would not make its typical seed agree. A cell
        where at least :data:`common.stats.TIED_SHARE` of the seeds tie is "not comparable":
        the runs cannot separate the methods. A "better" cell with a
        ``paper_effect`` below the margin whose interval lies between the two is
        undecided, with a note that names the paper's effect.
    """
    if claim not in CELL_CLAIMS:
        raise ValueError(f"claim must be one of {list(CELL_CLAIMS)}; got {claim!r}")
    if comparison.effect is None or comparison.effect.scale != margin.scale:
        found = None if comparison.effect is None else comparison.effect.scale
        raise ValueError(f"the comparison's effect is on scale {found!r} and the margin on {margin.scale!r}: "
                         f"compare with paired_comparison(..., scale={margin.scale!r})")
    if _RULES["ties"] and comparison.ties >= TIED_SHARE * comparison.n:
        return CellJudgement(claim, "not comparable", note=f"the runs cannot separate the methods: "
                                                           f"{comparison.ties} of {comparison.n} seeds tie")
    comparison = refined(comparison, claim, margin, paper_effect)
    estimate, low, high = advantage_interval(comparison)
    boundaries = decision_boundaries(claim, margin, paper_effect)
    low, high, exact = _exact_sides(comparison, boundaries, low, high)
    judgement = _judge_interval(comparison, claim, margin, paper_effect, estimate, low, high)
    if within_errors(comparison, boundaries):
        note = (f"an end lies within {BOUNDARY_ERRORS} Monte-Carlo errors of a decision boundary even at "
                f"{comparison.effect.resamples:,} resamples: {_ends_text(comparison)}" + (f"; {exact}" if exact else ""))
        judgement = replace(judgement, note="; ".join(filter(None, (judgement.note, note))))
    elif exact:
        judgement = replace(judgement, note="; ".join(filter(None, (judgement.note, exact))))
    return judgement


def _exact_sides(comparison, boundaries, low, high):
    """The advantage interval's ends ``(low, high)`` with each end that the Monte-Carlo cannot place for every seed
    put on the side of its boundary where the exact bootstrap distribution puts it (:mod:`common.bootstrap_tail`;
    just beyond the boundary, or on it), and a note of what decided them ("" where nothing was decided exactly or
    the exact side is the Monte-Carlo's own for an end farther than its errors; out of reach, it says so).

    An end is decided exactly where it lies within :data:`common.stats.BOUNDARY_ERRORS` of its Monte-Carlo errors of a boundary
    at :data:`common.stats.N_PRECISE` resamples, and wherever the exact distribution is cheap (:func:`common.bootstrap_tail.
    in_easy_reach`) and the end lies within :data:`common.stats.REFINE_NEAR` of the half-width of a boundary: on a lattice of
    values (accuracies) an end jumps between neighbouring values with the seed while its batch-means error can be
    zero (2026-12-04: an egp_ts accuracy cell whose lower end was 0 at the published seed and 0.000195, 8.9 errors
    above it, at seed 1030).

    On the effect's own scale, with X the bootstrap effect and alpha the interval's tail (:func:`common.stats.expanded_tail`):
    its lower end lies above t exactly when P*(X <= t) < alpha, its upper end below t when P*(X < t) > 1 - alpha.
    """
    effect = comparison.effect
    if comparison.values is None or effect is None or comparison.n < 2 or not boundaries:
        return low, high, ""   # one seed has no interval to place
    a, b = comparison.values
    tail = expanded_tail(a.size)
    sign = 1.0 if comparison.higher_is_better else -1.0
    ends = {"low": low, "high": high}
    errors = dict(zip(("low", "high") if comparison.higher_is_better else ("high", "low"),
                      [error for _, error in _ends_with_errors(comparison)]))
    half_width = (high - low) / 2
    easy = bool(boundaries) and np.isfinite(half_width) and bootstrap_tail.in_easy_reach(
        a - b if effect.scale == "difference" else np.stack([a, b], axis=1))
    said = []
    for name in ("low", "high"):
        error = errors[name]
        for boundary in boundaries:
            close = (effect.resamples >= stats.N_PRECISE and np.isfinite(error)
                     and abs(ends[name] - boundary) < BOUNDARY_ERRORS * error)
            if not (close or (easy and abs(ends[name] - boundary) < REFINE_NEAR * half_width)):
                continue
            point = math.exp(sign * boundary) if effect.scale == "ratio" else sign * boundary
            found = bootstrap_tail.effect_tail(a, b, effect.scale, point)
            if found is None:
                said.append(f"the exact bootstrap distribution is out of reach ({a.size} seeds), so this judgement "
                            f"can follow the bootstrap's seed")
                continue
            below, at_or_below = found
            # The advantage's lower end is the effect's lower end where higher is better, its upper end otherwise.
            effect_end = name if sign > 0 else {"low": "high", "high": "low"}[name]
            if effect_end == "low":   # the effect's lower end lies above the point exactly when ...
                above, share = at_or_below < tail, at_or_below
            else:                     # ... and its upper end below it when ...
                above, share = not below > 1 - tail, 1 - below
            beyond = above if sign > 0 else not above   # the advantage's end beyond (above) the boundary
            was_beyond = ends[name] > boundary if name == "low" else ends[name] >= boundary
            if not close and beyond == was_beyond:
                continue   # the Monte-Carlo's own side, farther than its errors: its end stays as printed
            if name == "low":
                ends[name] = np.nextafter(boundary, math.inf) if beyond else boundary
            else:
                ends[name] = boundary if beyond else np.nextafter(boundary, -math.inf)
            side = "above" if above else "below"
            said.append(f"exactly, the interval's {effect_end} end lies {side} {format_point(point, effect.scale)} "
                        f"(bootstrap tail {share:.6g} against {tail:.6g})")
    return ends["low"], ends["high"], "; ".join(said)


def format_point(point, scale):
    """A point on an effect's scale as the reasons print it: ``"1x"``, ``"+0.01"``."""
    return f"{point:.6g}x" if scale == "ratio" else f"{point:+.6g}"


def _judge_interval(comparison, claim, margin, paper_effect, estimate, low, high):
    """:func:`judge_cell` on the advantage interval ``[low, high]`` around ``estimate``."""
    delta = margin.advantage
    if claim == "equivalent":
        return _judge_equivalence(comparison.n, estimate, low, high, delta)
    if claim == "no worse":
        supported_above, contradicted_below = -delta, -delta
    else:
        supported_above, contradicted_below = (0.0 if claim == "better" else delta), delta
    if low > supported_above:
        carried = _carried_by_few(comparison) if _RULES["typical_seed"] and claim != "no worse" else ""
        if carried:
            return CellJudgement(claim, "undecided", MOST_SEEDS_REPORTED + 1, "supported", note=carried)
        return CellJudgement(claim, "supported")
    below_margin = ""
    if claim == "better" and paper_effect is not None and _RULES["paper_effect"]:
        paper_bound = min(delta, max(float(paper_effect), 0.0))
        if high < contradicted_below and high >= paper_bound:
            below_margin = (f"below the smallest effect the project counts; the paper's own effect is "
                            f"{format_advantage(paper_effect, margin.scale, comparison.higher_is_better)}")
        contradicted_below = paper_bound
    elif claim != "no worse" and _RULES["direction"]:
        # The paper prints no effect: the runs contradict it only against its direction; excluding a gain of the
        # project's margin while no difference stays inside is said, not judged (DESIGN, Honesty).
        if 0.0 <= high < delta:
            end = format_advantage(high, margin.scale, comparison.higher_is_better)
            below_margin = f"a gain beyond {end} excluded; no difference not excluded"
        contradicted_below = 0.0
    if high < contradicted_below:
        return CellJudgement(claim, "contradicted")
    # A decision needs the interval clear of a boundary the estimate is already beyond; the farther
    # the estimate from that boundary, the sooner.
    distances = {"supported": estimate - supported_above, "contradicted": contradicted_below - estimate}
    leaning = max(distances, key=distances.get)
    half_width = (high - low) / 2
    if distances[leaning] <= 0 or not np.isfinite(half_width):
        return CellJudgement(claim, "undecided", MOST_SEEDS_REPORTED + 1, leaning, note=below_margin)
    needed = comparison.n * (half_width / distances[leaning]) ** 2
    return CellJudgement(claim, "undecided", int(min(max(math.ceil(needed), comparison.n + 1),
                                                     MOST_SEEDS_REPORTED + 1)), leaning, note=below_margin)


def paper_advantage(paper_a, paper_b, scale, higher_is_better):
    """The paper's own effect of a against b from its printed means, on the advantage scale of
    :func:`common.stats.advantage_interval` (positive in a's favour): the log of the ratio, or the difference, signed by
    ``higher_is_better``; None where a ratio is undefined (a mean <= 0)."""
    if scale == "ratio":
        if paper_a <= 0 or paper_b <= 0:
            return None
        value = math.log(paper_a / paper_b)
    else:
        value = paper_a - paper_b
    return value if higher_is_better else -value


def format_advantage(advantage, scale, higher_is_better):
    """An advantage (:func:`paper_advantage`) back on its effect's scale: ``"0.952x"`` or ``"+0.0005"``."""
    value = advantage if higher_is_better else -advantage
    return f"{math.exp(value):.3g}x" if scale == "ratio" else f"{value:+.3g}"


def _judge_equivalence(n, estimate, low, high, delta):
    """An "equivalent" cell: the interval within +-delta (supported), wholly beyond it (contradicted), else undecided."""
    if -delta < low and high < delta:
        return CellJudgement("equivalent", "supported")
    if low > delta or high < -delta:
        return CellJudgement("equivalent", "contradicted")
    distances = {"supported": delta - abs(estimate), "contradicted": abs(estimate) - delta}
    leaning = max(distances, key=distances.get)
    half_width = (high - low) / 2
    if distances[leaning] <= 0 or not np.isfinite(half_width):
        return CellJudgement("equivalent", "undecided", MOST_SEEDS_REPORTED + 1, leaning)
    needed = n * (half_width / distances[leaning]) ** 2
    return CellJudgement("equivalent", "undecided", int(min(max(math.ceil(needed), n + 1), MOST_SEEDS_REPORTED + 1)),
                         leaning)


def format_seeds(seeds):
    """``"40"``, or ``"more than 10000"`` for :data:`common.stats.MOST_SEEDS_REPORTED` + 1."""
    return f"more than {MOST_SEEDS_REPORTED}" if seeds > MOST_SEEDS_REPORTED else str(seeds)


@dataclass(frozen=True)
class Cell:
    """One cell of a claim: a label, its comparison (None: did not run), its judgement and the margin used."""

    label: str
    comparison: PairedComparison | None
    judgement: CellJudgement | None
    margin: Margin | None = None

    def __str__(self):
        if self.comparison is None:
            return f"{self.label}: not run"
        seeds = ("" if self.judgement.seeds_to_decide is None
                 else f", ~{format_seeds(self.judgement.seeds_to_decide)} seeds to decide")
        untied = self.comparison.n - self.comparison.ties
        if untied < FEWEST_UNTIED:
            seeds += f" (only {untied} of {self.comparison.n} seeds untied)"
        note = f" ({self.judgement.note})" if self.judgement.note else ""
        return f"{self.label}: {brief(self.comparison)} {self.judgement.judgement}{note}{seeds}"


def cell(label, comparison, claim, margin, paper_effect=None):
    """A :class:`Cell`, judged by :func:`judge_cell` (None for a comparison that did not run), its comparison's
    interval the one judged (:func:`refined`)."""
    if comparison is None:
        return Cell(label, None, None, margin)
    comparison = refined(comparison, claim, margin, paper_effect)
    return Cell(label, comparison, judge_cell(comparison, claim, margin, paper_effect), margin)


def decision_boundaries(claim, margin, paper_effect=None):
    """The advantages (:func:`common.stats.advantage_interval`) at which a cell's judgement changes: no effect and the margin
    (and the paper's own effect where it contradicts a "better" cell instead of the margin)."""
    delta = margin.advantage
    found = {"better": {0.0, delta}, "substantially better": {delta}, "no worse": {-delta},
             "equivalent": {-delta, delta}}[claim]
    if claim == "better" and paper_effect is not None:
        found.add(min(delta, max(float(paper_effect), 0.0)))
    elif claim in ("better", "substantially better") and _RULES["direction"]:
        # The margin contradicts nothing here (:func:`_judge_interval`); no effect does.
        found = (found - {delta}) | {0.0} if claim == "better" else found | {0.0}
    return sorted(found)


def refined(comparison, claim, margin, paper_effect=None, boundaries=None):
    """The comparison with its interval recomputed on :data:`common.stats.N_REFINED` resamples where an end lies within
    :data:`common.stats.REFINE_NEAR` of the half-width of a decision boundary (:func:`decision_boundaries`), else unchanged.

    Near a boundary the verdict would follow the bootstrap's Monte-Carlo error; with a hundred times the resamples
    that error is a tenth as large. An end that still lies within :data:`common.stats.BOUNDARY_ERRORS` of its Monte-Carlo
    standard errors of a boundary (:func:`within_errors`) is recomputed on :data:`common.stats.N_PRECISE` resamples, a tenth
    of that error again; one still that close there has its side of the boundary decided by the exact bootstrap
    distribution (:func:`judge_cell`), so that no judgement follows the bootstrap's seed where that distribution is
    within reach (checked on the cells nearest a boundary by ``benchmarks/boundary_cells_seeds.py``). ``boundaries`` (on the advantage scale) replaces the claim's own,
    for a judgement that uses only some of them (a curve's side of no effect: ``[0.0]``).
    """
    effect = comparison.effect
    if not _BOOTSTRAP["refine"] or comparison.values is None or effect is None or effect.resamples >= stats.N_PRECISE:
        return comparison
    if boundaries is None:
        boundaries = decision_boundaries(claim, margin, paper_effect)
    if effect.resamples < stats.N_REFINED and near_boundary(comparison, boundaries):
        comparison = replace(comparison, effect=estimate_effect(*comparison.values, effect.scale,
                                                                n_resamples=stats.N_REFINED))
    if comparison.effect.resamples < stats.N_PRECISE and within_errors(comparison, boundaries):
        comparison = replace(comparison, effect=estimate_effect(*comparison.values, effect.scale,
                                                                n_resamples=stats.N_PRECISE))
    return comparison


def _ends_with_errors(comparison):
    """The interval's two ends on the advantage scale (:func:`common.stats.advantage_interval`, unordered), each with its
    Monte-Carlo standard error (:attr:`common.stats.Effect.errors`)."""
    effect = comparison.effect
    ends = np.array([effect.low, effect.high], dtype=float)
    if effect.scale == "ratio":
        with np.errstate(divide="ignore"):
            ends = np.log(ends)
    if not comparison.higher_is_better:
        ends = -ends
    return list(zip(ends.tolist(), effect.errors))


def within_errors(comparison, boundaries):
    """Whether an end of the comparison's interval lies within :data:`common.stats.BOUNDARY_ERRORS` of its Monte-Carlo
    standard errors of one of ``boundaries`` (advantages, :func:`common.stats.advantage_interval`)."""
    return any(abs(end - boundary) < BOUNDARY_ERRORS * error
               for end, error in _ends_with_errors(comparison) if np.isfinite(error) for boundary in boundaries)


def _ends_text(comparison):
    """The interval's ends to six significant digits (the verdict's reason prints three)."""
    return f"[{comparison.effect.low:.6g}, {comparison.effect.high:.6g}]"


@dataclass(frozen=True)
class Tally:
    """Cells of a claim counted: the score a verdict needs, what it could still reach, the p-value rule's score.

    Attributes
    ----------
    score : float
        Share of the comparable cells supported (cells judged "not comparable"
        left out; 0 where none is comparable).
    reachable : float
        Share of the comparable cells supported or undecided (or not run): the
        score if every undecided cell went the paper's way; below a verdict
        threshold, the runs contradict the claim.
    old_score : float
        The score under the p-value rule this replaces: for "better" cells,
        (significantly better - significantly worse) / cells; for "no worse"
        cells, the share not significantly worse.
    cells : tuple of Cell
    """

    score: float
    reachable: float
    old_score: float
    cells: tuple

    @property
    def counts(self):
        """``{judgement: count}`` over :data:`common.stats.JUDGEMENTS`, plus ``"not run"``."""
        found = [c.judgement.judgement if c.judgement else "not run" for c in self.cells]
        return {name: found.count(name) for name in (*JUDGEMENTS, "not run")}

    def summary(self):
        """``"3 of 4 cells supported, 1 undecided"`` (zero counts left out)."""
        counts = self.counts
        rest = ", ".join(f"{counts[name]} {name}" for name in ("contradicted", "undecided", "not comparable",
                                                                "not run") if counts[name])
        return f"{counts['supported']} of {len(self.cells)} cells supported" + (f", {rest}" if rest else "")


def tally(cells):
    """Count judged cells (:func:`cell`) into a :class:`Tally`; every cell must make the same kind of claim."""
    cells = tuple(cells)
    if not cells:
        raise ValueError("cells is empty; a claim needs at least one cell")
    claims = {c.judgement.claim for c in cells if c.judgement is not None}
    if len(claims) > 1:
        raise ValueError(f"cells of one tally must make one claim; got {sorted(claims)}")
    comparisons = [c.comparison for c in cells]
    counts = Tally(0, 0, 0, cells).counts
    old = {"no worse": no_worse_share, "equivalent": as_well_as_share}.get(next(iter(claims), None),
                                                                          better_share)(comparisons)
    comparable = len(cells) - counts["not comparable"]
    if comparable == 0:
        return Tally(score=0.0, reachable=0.0, old_score=old, cells=cells)
    return Tally(score=counts["supported"] / comparable,
                 reachable=(comparable - counts["contradicted"]) / comparable, old_score=old, cells=cells)


def paired_ablation_table(main, varied, keys, column, *, higher_is_better, label):
    """An ablation beside the runs it varies, cell by cell, on the seeds both ran.

    ``main`` and ``varied`` hold one row per run (a final value in ``column``, a ``seed`` and the ``keys`` that make
    a cell). Each row of the result has the cell's keys, its paired seeds, the mean of ``column`` over them in the
    main runs ("main") and in the varied ones (``label``), the ratio of means (varied over main) with its 95 %
    interval, W/T/L (wins, ties, losses of the varied runs) and the signed-rank p-value, "better" or "worse"
    where the interval lies wholly on one side of 1 (else "undecided"), and whether it rules out an effect of the
    project's margin, a factor 1.1 either way ("yes" when the interval lies inside it, "no" when wholly outside).
    None when no cell has a seed in both.
    """
    rows = []
    for cell, runs in varied.groupby(list(keys), sort=False):
        cell = cell if isinstance(cell, tuple) else (cell,)
        in_cell = np.logical_and.reduce([main[key] == value for key, value in zip(keys, cell)])
        ours = main[in_cell].set_index("seed")[column]
        other = runs.set_index("seed")[column]
        common_seeds = sorted(set(ours.index) & set(other.index))
        if not common_seeds:
            continue
        comparison = stats.paired_comparison(other[common_seeds].to_numpy(), ours[common_seeds].to_numpy(),
                                             higher_is_better=higher_is_better, scale="ratio")
        equivalent = judge_cell(comparison, "equivalent", DEFAULT_MARGIN).judgement
        rows.append({**dict(zip(keys, cell)), "seeds": len(common_seeds),
                     "main": ours[common_seeds].mean(), label: other[common_seeds].mean(),
                     "ratio": str(comparison.effect),
                     "W/T/L": f"{comparison.wins}/{comparison.ties}/{comparison.losses}", "p": comparison.p_value,
                     "outcome": stats.interval_side(comparison) or "undecided",
                     "within 1.1x": {"supported": "yes", "contradicted": "no"}.get(equivalent, "undecided")})
    return pd.DataFrame(rows) if rows else None
