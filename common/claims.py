"""The paper's claims, our numbers beside the paper's, and a verdict for each.

A notebook declares each claim of its paper with :func:`claim`: the figure or
table it belongs to, the paper's statement, the paper's number(s) where there
are any, our number(s) computed from the runs, the check used and its verdict.
A claim has one of two kinds (:data:`KINDS`). An ``"empirical"`` claim, about
what runs show, gets one of :data:`VERDICTS`:

``"reproduced"``
    our runs show what the paper states, within the check's tolerance;
``"partly reproduced"``
    the direction or part of it holds, not all of it;
``"inconclusive"``
    our runs neither support nor contradict it: the effects' intervals reach
    both sides of what would decide it (the reason says how many seeds would);
``"not reproduced"``
    our runs contradict it: an effect's interval lies against the paper's
    direction, or excludes the effect the paper claims;
``"not comparable"``
    we could not run what the paper ran (substituted data or simulator);
``"not run at this scale"``
    the claim needs a larger scale than this execution used.

An ``"identity"`` (a lemma or theorem checked numerically) is ``"verified"`` or
``"not verified"`` (:data:`IDENTITY_VERDICTS`) and is counted apart, so that an
algebraic fact does not pass for an empirical result.

The first three empirical verdicts and both identity verdicts are outcomes of a
comparison and require our number: a claim cannot be marked reproduced from a
typed-in value or from nothing. :func:`verdict_table` collects the claims,
:func:`save_verdicts` writes them to ``figures/<key>/verdicts.csv`` (and
``.md``) where ``reproduce.py`` gathers them into the ``REPRODUCTION.md``
scorecard.

Claims declared before the runs
-------------------------------
A :class:`ClaimSpec` declares a claim as code, before any paper-scale run: the
paper's sentence and where it is, the quantity, the test, its thresholds and the
minimum scale. Its ``measure`` function turns the runs into a score in [0, 1]
(e.g. the fraction of cells where a method is significantly better, see
:mod:`common.stats`); :func:`judge` applies the thresholds and returns the
verdict table. The verdict is "reproduced" if ``score >= reproduced_at``,
"partly reproduced" if ``score >= partly_at``, "not reproduced" otherwise (for
an identity: "verified" if ``score >= reproduced_at``).

Thresholds are never at chance level. For a claim that a method is better in
"most" or "all" cells, each cell counts as better only if the paired test says
so at :data:`common.stats.ALPHA`; a method that makes no difference then comes
out better in a cell with probability ``ALPHA / 2``. ``reproduced_at`` is the
fraction the paper's own claim or table implies, and ``partly_at`` comes from
:func:`partly_threshold`: at least a quarter of the cells and at least as many
as chance alone reaches with probability at most ``ALPHA``. For a claim that a
method is "no worse", chance lies on the other side: a method that makes no
difference is no worse, and passes as it should; such a claim is reproduced only
if no cell is significantly worse, and the reason shows the ties. A threshold
changed after a paper-scale run is recorded in the spec (:class:`ThresholdChange`) and
the verdict table shows, beside the verdict, the one the old thresholds give.

Claims judged by estimation (since 2026-11-25)
----------------------------------------------
A claim that compares methods seed by seed is judged by the size of the effect
in each of its cells, with an interval, against a margin declared in the spec
(:class:`judging.Margin`; the paper's own where its words give one, else
:data:`judging.DEFAULT_MARGIN`, a factor 1.1). Each cell is supported,
contradicted or undecided (:func:`judging.judge_cell`); the score is the
share of cells supported, and ``reachable`` the share that more seeds could
still make supported (:class:`judging.Tally`). The verdict is:

* "reproduced" / "partly reproduced" when the score reaches ``reproduced_at``
  / ``partly_at``, as before;
* "not reproduced" when even ``reachable`` stays below the lowest threshold: the
  runs contradict the claim (intervals against the paper's direction, or
  excluding the gain it claims);
* "inconclusive" otherwise, with the seeds that would decide its undecided
  cells at the observed effects and spreads.

The verdict the p-value rule it replaced gives (Wilcoxon at ``ALPHA``, no margin)
stays beside it in the ``verdict_by_p_value`` column, and every cell's effect,
interval, margin, seed counts, p-value and judgement go to
``figures/<key>/effects.csv`` (:data:`EFFECT_COLUMNS`).

The paper's numbers live in ``data/paper/<key>.csv``, one row per reported
number. Its columns are

========  ================================================================
table     the figure or table, as named in the figures folder (``table2``, ``fig3``)
value     the number (read off a plot: say so in ``note``)
std       optional: its reported spread, empty if none (what it is: in ``note``)
note      optional: free text, e.g. units, sign, ``± is 1 s.e. over 20 runs``
others    labels that locate the number in the table, as many as it needs,
          e.g. ``row`` and ``column``, or ``problem``, ``metric`` and ``method``
========  ================================================================

``table`` with the labels identifies a number; :func:`paper_number` looks one
up, e.g. ``paper_number(numbers, "table1", problem="Dropwave", method="UCB")``.
"""
import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from IPython.display import Markdown

from common import judging, paths, provenance, stats
from common.notebook import SCALES

KINDS = ("empirical", "identity")
VERDICTS = ("reproduced", "partly reproduced", "inconclusive", "not reproduced", "not comparable",
            "not run at this scale")
COMPARISON_VERDICTS = VERDICTS[:4]
IDENTITY_VERDICTS = ("verified", "not verified")
VERDICTS_OF_KIND = {"empirical": VERDICTS, "identity": IDENTITY_VERDICTS}
REQUIRED_PAPER_COLUMNS = ("table", "value")
OPTIONAL_PAPER_COLUMNS = ("std", "note")
TABLE_COLUMNS = ("id", "kind", "figure", "statement", "paper", "ours", "check", "verdict", "exploratory", "reason",
                 "disclosure", "effect", "margin", "seeds_to_decide", "verdict_by_p_value", "confirmatory")
#: The cells on fresh seeds that decide a confirmed claim's headline verdict, beside ``effects.csv``.
CONFIRMATORY_EFFECTS = "effects_confirmatory.csv"
#: Columns of ``figures/<key>/effects.csv``: one row per cell of every claim judged by estimation.
EFFECT_COLUMNS = ("id", "cell", "claim", "scale", "estimate", "low", "high", "typical", "typical_low",
                  "typical_high", "margin", "margin_source",
                  "higher_is_better", "seeds", "wins", "ties", "losses", "p_value", "judgement", "seeds_to_decide")
# A claim about most cells that holds in fewer than a quarter of them is too far from "most" to be
# partly reproduced, even where chance alone would rarely reach that count (claims with many cells).
PARTLY_FLOOR = 0.25


@dataclass(frozen=True)
class PaperNumber:
    """One number reported by the paper (a row of ``data/paper/<key>.csv``)."""

    table: str
    labels: dict
    value: float
    std: float = math.nan
    note: str = ""

    def __str__(self):
        text = format_number(self.value)
        return text if math.isnan(self.std) else f"{text} ± {format_number(self.std)}"


def label_columns(numbers):
    """The columns of a paper-numbers table that locate a number (all but table, value, std, note)."""
    return [name for name in numbers.columns if name not in REQUIRED_PAPER_COLUMNS + OPTIONAL_PAPER_COLUMNS]


def load_paper_numbers(paper_key):
    """Read ``data/paper/<paper_key>.csv`` (format: module docstring) into a DataFrame.

    Missing optional columns are added (``std`` NaN, ``note`` empty); label cells are text.

    Raises
    ------
    FileNotFoundError
        If the paper has no numbers file.
    ValueError
        If ``table`` or ``value`` is missing, a value or std is not a number,
        or a number is located twice.
    """
    path = paths.paper_data_path(paper_key)
    if not provenance.looked_for(path):
        raise FileNotFoundError(f"no paper numbers for {paper_key!r}: {path} does not exist (columns: table, "
                                f"value, optionally std and note, and label columns)")
    numbers = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [name for name in REQUIRED_PAPER_COLUMNS if name not in numbers.columns]
    if missing:
        raise ValueError(f"{path}: required column(s) {missing} missing; columns are {list(numbers.columns)}")
    numbers = numbers.reindex(columns=[*numbers.columns, *[name for name in OPTIONAL_PAPER_COLUMNS
                                                           if name not in numbers.columns]], fill_value="")
    for name in ("value", "std"):
        converted = pd.to_numeric(numbers[name].replace("", np.nan), errors="coerce")
        is_bad = (converted.isna() & (numbers[name] != "")).to_numpy()
        if is_bad.any():
            raise ValueError(f"{path}: column {name!r} must hold numbers; got {list(numbers[name][is_bad])[:3]} "
                             f"on line(s) {[int(row) + 2 for row in np.flatnonzero(is_bad)[:3]]}")
        numbers[name] = converted.astype(float)
    if numbers["value"].isna().any():
        lines = [index + 2 for index in numbers.index[numbers["value"].isna()][:3]]
        raise ValueError(f"{path}: every row needs a value; empty on line(s) {lines}")
    located_by = ["table", *label_columns(numbers)]
    duplicated = numbers.duplicated(located_by, keep=False)
    if duplicated.any():
        first = numbers[duplicated].iloc[0]
        raise ValueError(f"{path}: the number at {dict(first[located_by])} appears more than once")
    return numbers


def paper_number(numbers, table, **labels):
    """The paper's number in ``table`` at the given labels, from :func:`load_paper_numbers`'s table.

    Parameters
    ----------
    numbers : pandas.DataFrame
    table : str
    **labels : str
        Values of label columns, e.g. ``problem="Dropwave", method="UCB"``;
        together they must select exactly one number.

    Raises
    ------
    KeyError
        If no number or several match, naming the values that exist.
    """
    unknown = [name for name in labels if name not in label_columns(numbers)]
    if unknown:
        raise KeyError(f"unknown label column(s) {unknown}; label columns: {label_columns(numbers)}")
    match = numbers[numbers["table"] == table]
    if match.empty:
        raise KeyError(f"no paper numbers for table {table!r}; tables: {sorted(set(numbers['table']))}")
    in_table = match
    for name, value in labels.items():
        match = match[match[name] == value]
    if len(match) != 1:
        existing = {name: sorted(set(in_table[name]) - {""}) for name in label_columns(numbers)}
        found = "no number" if match.empty else f"{len(match)} numbers"
        raise KeyError(f"{found} in table {table!r} at {labels}; give one of each: {existing}")
    found = match.iloc[0]
    return PaperNumber(table=table, labels={name: found[name] for name in label_columns(numbers) if found[name]},
                       value=float(found["value"]), std=float(found["std"]), note=found["note"])


@dataclass(frozen=True)
class Check:
    """Outcome of comparing our numbers with the paper's.

    Attributes
    ----------
    verdict : str
        One of :data:`VERDICTS` or :data:`IDENTITY_VERDICTS`.
    reason : str
        One line saying why.
    method : str
        The check used, in words (shown in the verdict table).
    ours, paper : optional
        Our number(s) and the paper's, where the check computed them
        (:meth:`ClaimSpec.evaluate` does); :func:`claim` uses them when not
        given separately.
    effect, margin, seeds_to_decide, verdict_by_p_value : str, default ""
        For a claim judged by estimation: its effects in short, its margin, the
        seeds that would decide its undecided cells, and the verdict the p-value
        rule it replaced gives.
    cells : tuple of judging.Cell, default ()
        The judged cells, for ``effects.csv`` and the effects figure.
    """

    verdict: str
    reason: str
    method: str
    ours: object = None
    paper: object = None
    effect: str = ""
    margin: str = ""
    seeds_to_decide: str = ""
    verdict_by_p_value: str = ""
    cells: tuple = ()


def _value(number):
    return number.value if isinstance(number, PaperNumber) else float(number)


def check_close(ours, paper, *, rel_tol=None, abs_tol=None, partly_factor=2.0):
    """Is our number within a tolerance of the paper's?

    Reproduced if ``|ours - paper| <= tol``, partly reproduced if within
    ``partly_factor * tol``, not reproduced otherwise; ``tol`` is ``abs_tol``
    or ``rel_tol * |paper|`` (exactly one of them).
    """
    if (rel_tol is None) == (abs_tol is None):
        raise ValueError(f"give exactly one of rel_tol and abs_tol; got rel_tol={rel_tol!r}, abs_tol={abs_tol!r}")
    ours_value, paper_value = float(ours), _value(paper)
    tolerance = abs_tol if abs_tol is not None else rel_tol * abs(paper_value)
    if not tolerance >= 0:
        raise ValueError(f"the tolerance must be >= 0; got {tolerance!r}")
    written = f"{abs_tol:g}" if abs_tol is not None else f"{rel_tol:g} × |paper|"
    method = f"|ours - paper| <= {written} (partly: <= {partly_factor:g}×)"
    difference = abs(ours_value - paper_value)
    if difference <= tolerance:
        verdict = "reproduced"
    elif difference <= partly_factor * tolerance:
        verdict = "partly reproduced"
    else:
        verdict = "not reproduced"
    reason = (f"ours {format_number(ours_value)} vs paper {format_number(paper_value)}: "
              f"difference {format_number(difference)}, tolerance {format_number(tolerance)}")
    return Check(verdict, reason, method)


def check_order(ours, expected, *, higher_is_better=True):
    """Does our ranking of methods follow the paper's?

    Every pair ``(a, b)`` with ``a`` before ``b`` in ``expected`` is tested
    (``ours[a]`` better than ``ours[b]``). Reproduced if all hold, partly
    reproduced if at least half do, not reproduced otherwise.

    Parameters
    ----------
    ours : mapping of str to float
        Our number per method (e.g. mean final regret).
    expected : sequence of str
        The paper's order, best first.
    higher_is_better : bool, default=True
    """
    missing = [name for name in expected if name not in ours]
    if missing or len(expected) < 2:
        raise ValueError(f"expected must name at least two entries of ours; missing {missing}, "
                         f"ours has {list(ours)}")
    better = ">" if higher_is_better else "<"
    pairs = [(a, b) for i, a in enumerate(expected) for b in expected[i + 1:]]
    failing = [(a, b) for a, b in pairs if not (ours[a] > ours[b] if higher_is_better else ours[a] < ours[b])]
    n_hold = len(pairs) - len(failing)
    if not failing:
        verdict = "reproduced"
    elif 2 * n_hold >= len(pairs):
        verdict = "partly reproduced"
    else:
        verdict = "not reproduced"
    reason = f"{n_hold} of {len(pairs)} pairwise orderings hold"
    if failing:
        reason += "; fails: " + ", ".join(f"{a} {better} {b}" for a, b in failing)
    return Check(verdict, reason, f"order {f' {better} '.join(expected)} (all pairs)")


def check_all(conditions, *, what="conditions", reproduced_at=1.0, partly_at=0.5):
    """Verdict from the fraction of named conditions that hold.

    Reproduced if at least ``reproduced_at`` of them hold (default: all), partly
    reproduced if at least ``partly_at`` do (default: half), not reproduced
    otherwise.

    Parameters
    ----------
    conditions : mapping of str to bool
        A name for each condition (e.g. the test function) and whether our runs satisfy it.
    what : str
        What the conditions are, for the check's description.
    reproduced_at, partly_at : float in [0, 1]
        Fractions of conditions that must hold, ``partly_at <= reproduced_at``.
    """
    if not conditions:
        raise ValueError("conditions is empty; give at least one named condition")
    if not 0 <= partly_at <= reproduced_at <= 1:
        raise ValueError(f"need 0 <= partly_at <= reproduced_at <= 1; got {partly_at!r}, {reproduced_at!r}")
    failing = [name for name, holds in conditions.items() if not bool(holds)]
    n_hold = len(conditions) - len(failing)
    fraction = n_hold / len(conditions)
    verdict = ("reproduced" if fraction >= reproduced_at else "partly reproduced" if fraction >= partly_at
               else "not reproduced")
    reason = f"holds for {n_hold} of {len(conditions)}" + (f"; fails for {', '.join(failing)}" if failing else "")
    required = "every one" if reproduced_at == 1 else f"at least {reproduced_at:.0%}"
    return Check(verdict, reason, f"holds for {required} of the {what} (partly: {partly_at:.0%})")


def check_identity(errors, *, tolerance):
    """Does an identity hold numerically: is every error within the tolerance?

    Parameters
    ----------
    errors : mapping of str to float
        A name for each form of the identity checked and its largest absolute error.
    tolerance : float >= 0

    Returns
    -------
    Check
        Verdict "verified" if every error is at most ``tolerance``, "not verified" otherwise.
    """
    if not errors:
        raise ValueError("errors is empty; give the largest error of at least one identity")
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be a number >= 0; got {tolerance!r}")
    failing = [name for name, error in errors.items() if not float(error) <= tolerance]
    verdict = "not verified" if failing else "verified"
    reason = "largest errors " + ", ".join(f"{name} {format_number(float(error))}" for name, error in errors.items())
    if failing:
        reason += f"; above {tolerance:g} for {', '.join(failing)}"
    return Check(verdict, reason, f"largest absolute error <= {tolerance:g}", ours=dict(errors))


@dataclass(frozen=True)
class Claim:
    """One row of the verdict table; build it with :func:`claim`."""

    id: str
    figure: str
    statement: str
    paper: object
    ours: object
    check: str
    verdict: str
    reason: str
    kind: str = "empirical"
    disclosure: str = ""
    effect: str = ""
    margin: str = ""
    seeds_to_decide: str = ""
    verdict_by_p_value: str = ""
    cells: tuple = ()


def _has_number(ours):
    if ours is None or isinstance(ours, (str, bytes)):
        return False
    if isinstance(ours, Mapping):
        return bool(ours) and all(_has_number(value) for value in ours.values())
    try:
        values = np.asarray(ours, dtype=float)
    except (TypeError, ValueError):
        return False
    return values.size > 0 and bool(np.all(np.isfinite(values)))


def claim(id, figure, statement, *, check=None, verdict=None, reason=None, method=None,
          paper=None, ours=None, scale=None, min_scale=None, kind="empirical", ran=None, disclosure=""):
    """Declare one claim of the paper and its verdict.

    Parameters
    ----------
    id : str
        Short identifier, unique within the paper (e.g. ``"C1"``).
    figure : str
        The paper's figure or table, e.g. ``"Fig. 3"``.
    statement : str
        What the paper states, in one sentence.
    check : Check, optional
        The outcome of a check (:func:`check_close`, :func:`check_order`,
        :func:`check_all`, :func:`check_identity`). Otherwise give ``verdict``,
        ``reason`` and ``method``.
    verdict, reason, method : str, optional
        A verdict given directly, e.g. ``"not comparable"`` with the reason.
    paper : PaperNumber, float, mapping or None
        The paper's number(s), None for a qualitative claim; default: the check's.
    ours : float, array, mapping or None
        Our number(s), computed from the runs; default: the check's. Required
        for the verdicts reproduced, partly reproduced, not reproduced,
        verified and not verified.
    scale, min_scale : str, optional
        The scale of this execution and the smallest scale at which the claim
        is meaningful. Below it the verdict becomes ``"not run at this scale"``;
        the check's outcome stays in the reason. Empirical claims only.
    kind : {"empirical", "identity"}, default "empirical"
        An identity takes one of :data:`IDENTITY_VERDICTS`, an empirical claim
        one of :data:`VERDICTS`.
    ran : str, optional
        What actually ran, in words (e.g. ``"2 seeds, T = 20"``); the reason of a
        claim below its minimum scale states it instead of the scale's name.
    disclosure : str, default ""
        A threshold changed after paper-scale results and the verdict it would
        have given (:func:`judge` fills it in from the spec).

    Returns
    -------
    Claim
    """
    if check is not None:
        if verdict is not None or reason is not None or method is not None:
            raise ValueError(f"claim {id!r}: give either check or verdict/reason/method, not both")
        verdict, reason, method = check.verdict, check.reason, check.method
        ours = check.ours if ours is None else ours
        paper = check.paper if paper is None else paper
        estimation = {name: getattr(check, name) for name in ("effect", "margin", "seeds_to_decide",
                                                               "verdict_by_p_value", "cells")}
    else:
        estimation = {}
    if kind not in KINDS:
        raise ValueError(f"claim {id!r}: kind must be one of {list(KINDS)}; got {kind!r}")
    allowed = VERDICTS_OF_KIND[kind]
    if verdict not in allowed:
        raise ValueError(f"claim {id!r}: the verdict of a claim of kind {kind!r} must be one of {list(allowed)}; "
                         f"got {verdict!r}")
    if not reason:
        raise ValueError(f"claim {id!r}: a reason is required (one line saying why {verdict!r})")
    if (verdict in COMPARISON_VERDICTS or kind == "identity") and not _has_number(ours):
        raise ValueError(
            f"claim {id!r}: verdict {verdict!r} needs our number(s) computed from the runs (ours=...); "
            f"got ours={ours!r}. Without them the verdict can only be 'not run at this scale' or 'not comparable'"
        )
    for name, value in (("scale", scale), ("min_scale", min_scale)):
        if value is not None and value not in SCALES:
            raise ValueError(f"claim {id!r}: {name} must be one of {list(SCALES)}; got {value!r}")
    if min_scale is not None:
        if kind == "identity":
            raise ValueError(f"claim {id!r}: an identity holds at any scale; min_scale must be None, "
                             f"got {min_scale!r}")
        if scale is None:
            raise ValueError(f"claim {id!r}: min_scale={min_scale!r} needs scale, the scale of this execution")
        if SCALES.index(scale) < SCALES.index(min_scale) and verdict != "not run at this scale":
            what_ran = f"ran {ran}" if ran else f"ran at {scale!r}"
            reason = f"needs scale {min_scale!r} or larger, {what_ran} (here: {verdict}, {reason})"
            verdict = "not run at this scale"
            estimation = {**estimation, "seeds_to_decide": "", "verdict_by_p_value": ""}
    return Claim(id=str(id), figure=figure, statement=statement, paper=paper, ours=ours,
                 check=method or "", verdict=verdict, reason=reason, kind=kind, disclosure=disclosure, **estimation)


#: Residuals of identities below this are reported as the bound, not as their digits: round-off's digits follow the
#: CPU's BLAS kernels, and the published outputs must be the same on every CPU (docs/reproducibility.md).
ROUND_OFF_FLOOR = 1e-12


class UpperBound(float):
    """A number known only to lie below its value; written ``< value``."""

    def __str__(self):
        return f"< {float(self):g}"


def round_off(error, floor=ROUND_OFF_FLOOR):
    """An identity's residual as reported: :class:`UpperBound` ``floor`` where it is below it, else the residual."""
    error = float(error)
    return UpperBound(floor) if error < floor else error


def format_round_off(error, floor=ROUND_OFF_FLOOR):
    """Text of :func:`round_off`: ``"< 1e-12"``, or the residual to two digits."""
    bounded = round_off(error, floor)
    return str(bounded) if isinstance(bounded, UpperBound) else f"{bounded:.2g}"


def format_number(value):
    """Compact text for a number, a paper number, a bound, an array or a mapping of them."""
    if value is None:
        return ""
    if isinstance(value, (PaperNumber, UpperBound)):
        return str(value)
    if isinstance(value, Mapping):
        return "; ".join(f"{name}: {format_number(item)}" for name, item in value.items())
    if isinstance(value, str):
        return value
    values = np.asarray(value)
    if values.ndim > 0:
        return ", ".join(format_number(item) for item in values.ravel())
    if values.dtype.kind in "iub":
        return str(values.item())
    return f"{float(values):.4g}"


def verdict_table(claims):
    """DataFrame of the claims, one row each, columns :data:`TABLE_COLUMNS` (numbers as text)."""
    ids = [item.id for item in claims]
    duplicated = sorted({name for name in ids if ids.count(name) > 1})
    if duplicated:
        raise ValueError(f"claim ids must be unique; repeated: {duplicated}")
    rows = [{"id": item.id, "kind": item.kind, "figure": item.figure, "statement": item.statement,
             "paper": format_number(item.paper), "ours": format_number(item.ours),
             "check": item.check, "verdict": item.verdict, "exploratory": "", "reason": item.reason,
             "disclosure": item.disclosure, "effect": item.effect, "margin": item.margin,
             "seeds_to_decide": item.seeds_to_decide, "verdict_by_p_value": item.verdict_by_p_value,
             "confirmatory": ""} for item in claims]
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    table.attrs["effects"] = effects_table(claims)
    return table


def effects_table(claims):
    """One row per judged cell of every claim (:data:`EFFECT_COLUMNS`), in the claims' order."""
    rows = []
    for item in claims:
        for found in item.cells:
            comparison, judgement = found.comparison, found.judgement
            if comparison is None:
                continue
            effect, typical = comparison.effect, comparison.typical
            rows.append({"id": item.id, "cell": found.label, "claim": judgement.claim, "scale": effect.scale,
                         "estimate": effect.estimate, "low": effect.low, "high": effect.high,
                         "typical": typical.estimate, "typical_low": typical.low, "typical_high": typical.high,
                         "margin": found.margin.size, "margin_source": found.margin.source,
                         "higher_is_better": comparison.higher_is_better, "seeds": comparison.n,
                         "wins": comparison.wins, "ties": comparison.ties, "losses": comparison.losses,
                         "p_value": comparison.p_value, "judgement": judgement.judgement,
                         "seeds_to_decide": judgement.seeds_to_decide})
    return pd.DataFrame(rows, columns=list(EFFECT_COLUMNS))


def verdict_counts(table, column="verdict"):
    """``{verdict: count}`` over :data:`VERDICTS` then :data:`IDENTITY_VERDICTS`, in that order, of the headline
    ``verdict`` column, or of ``column="exploratory"``: every claim at the paper's scale (its ``exploratory``
    verdict where a confirmatory verdict replaced it in the headline, else its verdict)."""
    if column not in ("verdict", "exploratory"):
        raise ValueError(f"column must be 'verdict' or 'exploratory'; got {column!r}")
    found = table["verdict"]
    if column == "exploratory" and "exploratory" in table:
        found = table["exploratory"].where(table["exploratory"] != "", table["verdict"])
    return {verdict: int((found == verdict).sum()) for verdict in VERDICTS + IDENTITY_VERDICTS}


def confirmed_moves(table):
    """``(n, text)``: how many claims' headline verdicts are confirmatory, and how they moved from the exploratory
    verdicts, e.g. ``"inconclusive -> reproduced 1; inconclusive -> not reproduced 2"``."""
    if "exploratory" not in table:
        return 0, ""
    confirmed = table[table["exploratory"] != ""]
    moves = confirmed.groupby(["exploratory", "verdict"], sort=False).size()
    return len(confirmed), "; ".join(f"{before} -> {after} {count}" for (before, after), count in moves.items())


def _plural(count, singular, plural):
    return f"{count} {singular if count == 1 else plural}"


def format_counts(counts):
    """One line of verdict counts with empirical claims and identities kept apart (zero counts left out).

    Without identities: ``"3 claims: 2 reproduced, 1 not comparable"``. With them:
    ``"9 empirical claims: 1 reproduced, 8 not reproduced; 2 identities: 2 verified"``.

    Parameters
    ----------
    counts : mapping of str to int
        Count per verdict, as from :func:`verdict_counts`; verdicts left out count 0.
    """
    unknown = sorted(set(counts) - set(VERDICTS + IDENTITY_VERDICTS))
    if unknown:
        raise ValueError(f"counts has unknown verdict(s) {unknown}; allowed: {list(VERDICTS + IDENTITY_VERDICTS)}")

    def listed(verdicts):
        return ", ".join(f"{counts[verdict]} {verdict}" for verdict in verdicts if counts.get(verdict, 0))

    n_empirical = sum(counts.get(verdict, 0) for verdict in VERDICTS)
    n_identities = sum(counts.get(verdict, 0) for verdict in IDENTITY_VERDICTS)
    if not n_identities:
        return _plural(n_empirical, "claim", "claims") + (f": {listed(VERDICTS)}" if n_empirical else "")
    empirical = _plural(n_empirical, "empirical claim", "empirical claims")
    empirical += f": {listed(VERDICTS)}" if n_empirical else ""
    return f"{empirical}; {_plural(n_identities, 'identity', 'identities')}: {listed(IDENTITY_VERDICTS)}"


def confirmation_note(table):
    """One line on the claims whose headline verdict is confirmatory (judged on fresh seeds), for a notebook's
    counts cell, e.g. ``"3 claims lead with their verdicts on fresh seeds (inconclusive -> not reproduced 2;
    inconclusive -> partly reproduced 1); at the paper's seeds alone: 27 empirical claims: ..."``, or that none
    does."""
    confirmed, moves = confirmed_moves(table)
    if not confirmed:
        return "No claim leads with a verdict on fresh seeds: every verdict is the paper-scale one."
    lead = "1 claim leads with its verdict" if confirmed == 1 else f"{confirmed} claims lead with their verdicts"
    return (f"{lead} on fresh seeds ({moves}); at the paper's seeds alone: "
            f"{format_counts(verdict_counts(table, column='exploratory'))}")


def markdown_table(table):
    """GitHub-flavoured markdown of a DataFrame (cells as text, ``|`` escaped)."""
    def cell(value):
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(name) for name in table.columns) + " |",
             "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


def show_table(table, *, digits=4):
    """The whole table as markdown for a notebook: every row and column, one line per row.

    Unlike a DataFrame's display, nothing is truncated or wrapped, so an
    output check (nbval) compares every row. The index is not shown
    (``reset_index()`` first to keep it).

    Parameters
    ----------
    table : pandas.DataFrame
    digits : int, default 4
        Significant digits of every floating-point cell (NaN shown empty);
        integers and text are shown as they are.

    Returns
    -------
    IPython.display.Markdown
    """
    if int(digits) != digits or digits < 1:
        raise ValueError(f"digits must be an integer >= 1; got {digits!r}")

    def rounded(value):
        if isinstance(value, (float, np.floating)):
            return "" if math.isnan(value) else f"{value:.{int(digits)}g}"
        return value

    return Markdown(markdown_table(table.map(rounded)))


def save_verdicts(paper_key, table, scale):
    """Write the verdict table to ``figures/<key>/verdicts.csv`` and ``verdicts.md``, its judged cells
    (``table.attrs["effects"]``, :func:`effects_table`) to ``figures/<key>/effects.csv``, and the fresh seeds' cells
    of the claims whose headline verdict a confirmation decides (``table.attrs["confirmatory_effects"]``,
    :func:`common.confirmatory.beside`) to ``figures/<key>/effects_confirmatory.csv``.

    The CSV gets a ``scale`` column (the scale of this execution) for the scorecard.

    Returns
    -------
    list of pathlib.Path
    """
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {list(SCALES)}; got {scale!r}")
    missing = [name for name in TABLE_COLUMNS if name not in table.columns]
    if missing:
        raise ValueError(f"the verdict table lacks column(s) {missing}; build it with verdict_table")
    for kind, allowed in VERDICTS_OF_KIND.items():
        wrong = sorted(set(table.loc[table["kind"] == kind, "verdict"]) - set(allowed))
        if wrong:
            raise ValueError(f"unknown verdict(s) {wrong} for kind {kind!r}; allowed: {list(allowed)}")
    unknown_kinds = sorted(set(table["kind"]) - set(KINDS))
    if unknown_kinds:
        raise ValueError(f"unknown kind(s) {unknown_kinds}; allowed: {list(KINDS)}")
    folder = paths.figures_dir(paper_key)
    folder.mkdir(parents=True, exist_ok=True)
    csv_path, markdown_path, effects_path = folder / "verdicts.csv", folder / "verdicts.md", folder / "effects.csv"
    table.loc[:, list(TABLE_COLUMNS)].assign(scale=scale).to_csv(csv_path, index=False)
    markdown_path.write_text(f"Scale: {scale}. {format_counts(verdict_counts(table))}.\n\n"
                             f"{markdown_table(table.loc[:, list(TABLE_COLUMNS)])}\n")
    effects = table.attrs.get("effects", pd.DataFrame(columns=list(EFFECT_COLUMNS)))
    effects.to_csv(effects_path, index=False, float_format="%.6g")
    written = [csv_path, markdown_path, effects_path]
    confirmatory_path = folder / CONFIRMATORY_EFFECTS
    confirmatory = table.attrs.get("confirmatory_effects")
    if confirmatory is not None and len(confirmatory):
        confirmatory.loc[:, list(EFFECT_COLUMNS)].to_csv(confirmatory_path, index=False, float_format="%.6g")
        written.append(confirmatory_path)
    else:
        confirmatory_path.unlink(missing_ok=True)  # no headline is decided on fresh seeds any more
    return written


def verdicts_of(verdicts, ids):
    """``"C4 not reproduced; C8 reproduced (on 40 fresh seeds; at the paper's seeds inconclusive)"``: the verdicts
    of the claims ``ids`` in a verdict table, in that order, each decided on fresh seeds saying so (a findings bullet
    gives the paper-seed numbers just before it).

    An id absent from the table (a claim of a block that did not run) is left out.
    """
    rows = verdicts.set_index("id").reindex(ids).dropna(subset=["verdict"])

    def said(claim_id, row):
        exploratory = row.get("exploratory", "")
        if not isinstance(exploratory, str) or not exploratory:
            return f"{claim_id} {row['verdict']}"
        fresh = re.match(r"confirmatory, (\d+) fresh seeds", str(row.get("reason", "")))
        seeds = f"{fresh.group(1)} fresh seeds" if fresh else "fresh seeds"
        return f"{claim_id} {row['verdict']} (on {seeds}; at the paper's seeds {exploratory})"

    return "; ".join(said(claim_id, row) for claim_id, row in rows.iterrows())


def scales_ran(ran):
    """``"fill: 100 seeds, budget 400; beta: 3 seeds, budget 60 (below the paper's)"``: what each block ran, from
    a paper's ``what_ran(params)`` (a dict of block -> :class:`Ran`)."""
    return "; ".join(f"{block}: {found.description}" + ("" if found.scale == "paper" else " (below the paper's)")
                     for block, found in ran.items())


def findings_markdown(scope, bullets):
    """A notebook's "What the numbers show": a bold heading naming the ``scope`` (what ran), then the bullets.

    Each paper's claims module builds its bullets from the runs and the verdict
    table (``findings(table, params, verdicts)``), so that every number in them
    is computed, never typed; a bullet that is None (its block did not run) is left out.
    """
    return "\n".join([f"**What the numbers show** ({scope}):", ""] + [bullet for bullet in bullets if bullet])


def partly_threshold(n_cells):
    """The ``partly_at`` of a claim that a method is better in many of ``n_cells`` cells.

    The fraction of cells that must be significantly better for "partly
    reproduced": at least :data:`PARTLY_FLOOR` (a quarter) of the cells, and at
    least :func:`common.stats.count_beyond_chance` cells, the count a method
    that makes no difference reaches with probability at most
    :data:`common.stats.ALPHA`.

    Parameters
    ----------
    n_cells : int >= 1

    Returns
    -------
    float in (0, 1]
    """
    needed = max(stats.count_beyond_chance(n_cells), math.ceil(PARTLY_FLOOR * n_cells))
    return needed / n_cells


@dataclass(frozen=True)
class Evidence:
    """What a claim's ``measure`` function found in the runs.

    Attributes
    ----------
    score : float or None
        The quantity the thresholds apply to, in [0, 1] (e.g. the share of cells
        significantly better); None if the runs hold nothing to judge (say why
        in ``reason``).
    reason : str
        Our numbers in words, e.g. each cell's wins, ties, losses and p-value.
    ours : optional
        Our number(s) for the table's ``ours`` column.
    paper : optional
        The paper's number(s) for its ``paper`` column.
    reachable : float or None, default None
        For a claim judged by estimation, the score if every undecided cell went
        the paper's way (:attr:`judging.Tally.reachable`): a verdict threshold
        above it means the runs contradict the claim, one between ``score`` and it
        means they cannot decide. None: the score alone decides (a count against
        the paper's own numbers, an identity).
    score_by_p_value : float or None, default None
        The score under the p-value rule that estimation replaced, for the
        ``verdict_by_p_value`` column.
    cells : tuple of judging.Cell, default ()
        The judged cells behind the score.
    """

    score: object
    reason: str
    ours: object = None
    paper: object = None
    reachable: object = None
    score_by_p_value: object = None
    cells: tuple = ()

    @classmethod
    def of_tally(cls, tally, reason, *, ours=None, paper=None):
        """Evidence from counted cells (:func:`judging.tally`): their score, reachable score, the p-value
        rule's score and the cells; ``reason`` follows the count of supported, contradicted and undecided cells."""
        return cls(tally.score, f"{tally.summary()}; {reason}", ours=ours, paper=paper, reachable=tally.reachable,
                   score_by_p_value=tally.old_score, cells=tally.cells)


@dataclass(frozen=True)
class ThresholdChange:
    """A threshold, or the criterion, of a :class:`ClaimSpec` changed after paper-scale results were seen.

    Attributes
    ----------
    old : mapping of str to float
        The thresholds before the change: ``reproduced_at``, ``partly_at`` or
        names of the spec's ``limits`` (empty if only the criterion changed).
    date : str
        When it changed (ISO date).
    why : str
        The reason for the change.
    old_measure : callable or None, default None
        The criterion before the change, where the measure itself changed (a
        ``measure`` as :class:`ClaimSpec` takes it); None: only thresholds changed.
    old_test : str, default ""
        That criterion in words, for the disclosure; required with ``old_measure``.
    """

    old: Mapping
    date: str
    why: str
    old_measure: Callable | None = None
    old_test: str = ""

    def __post_init__(self):
        if self.old_measure is not None and not self.old_test:
            raise ValueError("ThresholdChange: old_test must say in words what the old criterion (old_measure) "
                             "tested")
        if self.old_measure is None and not self.old:
            raise ValueError("ThresholdChange: give the old thresholds (old) or the old criterion (old_measure)")

    def old_spec(self, spec):
        """``spec`` as it was judged before the change."""
        before = spec.with_thresholds(self.old)
        return before if self.old_measure is None else dataclasses.replace(before, measure=self.old_measure)

    def describe_old(self):
        """The old thresholds and criterion in words, e.g. "the old thresholds (reproduced_at = 0.5)"."""
        parts = []
        if self.old_measure is not None:
            parts.append(f"the old criterion ({self.old_test})")
        if self.old:
            parts.append("the old thresholds (" + ", ".join(f"{name} = {value:g}" for name, value in self.old.items())
                         + ")")
        return " with ".join(parts)


THRESHOLD_FIELDS = ("reproduced_at", "partly_at")


@dataclass(frozen=True)
class Ran:
    """What a block of runs actually ran: its scale and a description such as ``"2 seeds, T = 20"``."""

    scale: str
    description: str

    def __post_init__(self):
        if self.scale not in SCALES:
            raise ValueError(f"Ran.scale must be one of {list(SCALES)}; got {self.scale!r}")


#: Words by which a claim's sentence quantifies over its cells (issue 40, item 2).
QUANTIFIER = re.compile(r"\b(all|always|every|most|out of)\b", re.IGNORECASE)


@dataclass(frozen=True)
class ClaimSpec:
    """One claim of the paper declared as code, before the runs it is judged on.

    Attributes
    ----------
    id : str
        Short identifier, unique within the paper.
    figure : str
        The paper's figure or table (e.g. ``"Table 1"``).
    quote : str
        The paper's sentence, quoted.
    where : str
        Where the sentence is (section, paragraph, page).
    quantity : str
        What is computed from the runs, in words.
    test : str
        How the quantity becomes a score in [0, 1], in words.
    measure : callable or None
        ``measure(table, params, limits) -> Evidence``: the score from the tidy
        table of runs and the resolved parameters. None only for a claim that is
        not comparable.
    kind : {"empirical", "identity"}, default "empirical"
    reproduced_at : float, default 1.0
        The score from which the claim is reproduced (verified, for an identity).
    partly_at : float or None, default None
        The score from which it is partly reproduced; None: no "partly" (always
        None for an identity).
    limits : mapping of str to float, default {}
        Other numbers the test uses (e.g. a tolerance), passed to ``measure``.
    min_scale : str or None, default None
        The smallest scale at which the claim is judged (None for an identity).
    block : str or None, default None
        Which block of runs the claim is about: the key of :func:`judge`'s ``ran``.
    not_comparable : str, default ""
        If given, why the claim cannot be compared (substituted data); the
        verdict is then "not comparable" whatever ``measure`` finds.
    changed_after_results : ThresholdChange or None, default None
        A disclosed change of thresholds after paper-scale results.
    margin : judging.Margin, mapping of str to Margin, or None, default None
        The smallest effect that matters, declared from the paper's words or the
        project default (:data:`judging.DEFAULT_MARGIN`); a mapping gives one
        per problem where the claim's problems have different units. ``measure``
        receives it as ``limits["margin"]``. Required for a claim whose measure
        judges cells by estimation.
    """

    id: str
    figure: str
    quote: str
    where: str
    quantity: str
    test: str
    measure: Callable | None
    kind: str = "empirical"
    reproduced_at: float = 1.0
    partly_at: float | None = None
    limits: Mapping = field(default_factory=dict)
    min_scale: str | None = None
    block: str | None = None
    not_comparable: str = ""
    changed_after_results: ThresholdChange | None = None
    margin: judging.Margin | Mapping | None = None

    def __post_init__(self):
        name = f"claim spec {self.id!r}"
        if self.kind not in KINDS:
            raise ValueError(f"{name}: kind must be one of {list(KINDS)}; got {self.kind!r}")
        if not 0 <= self.reproduced_at <= 1:
            raise ValueError(f"{name}: reproduced_at must be in [0, 1]; got {self.reproduced_at!r}")
        if self.partly_at is not None and not 0 <= self.partly_at <= self.reproduced_at:
            raise ValueError(f"{name}: partly_at must be in [0, reproduced_at={self.reproduced_at}]; "
                             f"got {self.partly_at!r}")
        if self.kind == "identity" and (self.partly_at is not None or self.min_scale is not None
                                        or self.not_comparable):
            raise ValueError(f"{name}: an identity is verified or not at any scale; partly_at, min_scale and "
                             f"not_comparable must be left unset")
        if self.min_scale is not None and self.min_scale not in SCALES:
            raise ValueError(f"{name}: min_scale must be one of {list(SCALES)}; got {self.min_scale!r}")
        if self.measure is None and not self.not_comparable:
            raise ValueError(f"{name}: measure is required unless the claim is not_comparable (give the reason)")
        if self.changed_after_results is not None:
            unknown = sorted(set(self.changed_after_results.old) - set(THRESHOLD_FIELDS) - set(self.limits))
            if unknown:
                raise ValueError(f"{name}: changed_after_results.old names unknown threshold(s) {unknown}; "
                                 f"allowed: {[*THRESHOLD_FIELDS, *self.limits]}")

    @property
    def quantified(self):
        """Whether the paper's sentence quantifies over its cells ("all", "always", "every", "most", "three out of four"),
        so that contradicted cells beyond what it allows refute it as stated even where others are supported."""
        return QUANTIFIER.search(self.quote) is not None

    @property
    def statement(self):
        """The quoted sentence and where it is, for the verdict table."""
        return f"\u201c{self.quote}\u201d ({self.where})"

    def with_thresholds(self, thresholds):
        """A copy with some of ``reproduced_at``, ``partly_at`` and ``limits`` replaced."""
        limits = {**self.limits, **{name: value for name, value in thresholds.items()
                                    if name not in THRESHOLD_FIELDS}}
        return dataclasses.replace(self, limits=limits, changed_after_results=None,
                                   **{name: value for name, value in thresholds.items()
                                      if name in THRESHOLD_FIELDS})

    def describe_test(self):
        """The quantity, the test and its thresholds, for the table's ``check`` column."""
        limits = "".join(f"; {name} = {value:g}" for name, value in self.limits.items())
        if self.margin is not None:
            limits += f"; margin {self.margin_text()}"
        if self.not_comparable:
            return f"{self.quantity}. {self.test}"
        if self.kind == "identity":
            rule = f"verified at score >= {self.reproduced_at:.3g}"
        else:
            rule = f"reproduced at score >= {self.reproduced_at:.3g}"
            rule += f", partly at >= {self.partly_at:.3g}" if self.partly_at is not None else ", no partly"
        return f"{self.quantity}. {self.test} ({rule}{limits})"

    def evaluate(self, table, params, rules=None):
        """Measure the claim on the runs and apply the thresholds.

        Parameters
        ----------
        table : pandas.DataFrame
            The tidy table of runs (:func:`common.store.tidy_table`).
        params : dict
            The resolved parameters of the execution.
        rules : {None, "2026-11-25"}
            None: the judging rules in force; ``"2026-11-25"``: the rules before issue 40 (see :meth:`verdict_of`).

        Returns
        -------
        Check
            With ``ours`` and ``paper`` from the measurement. "not run at this
            scale" if the runs hold nothing to judge; "not comparable" if the
            spec says so.
        """
        limits = {**self.limits, **({"margin": self.margin} if self.margin is not None else {})}
        evidence = self.measure(table, params, limits) if self.measure is not None else None
        method = self.describe_test()
        if evidence is not None and evidence.cells and self.margin is None:
            raise ValueError(f"claim spec {self.id!r}: its measure judged cells by estimation, so the spec needs a "
                             f"margin (judging.DEFAULT_MARGIN or the paper's own)")
        estimation = self._estimation(evidence)
        if self.not_comparable:
            return Check("not comparable", self.not_comparable, method,
                         ours=evidence.ours if evidence else None, paper=evidence.paper if evidence else None,
                         **{**estimation, "seeds_to_decide": "", "verdict_by_p_value": ""})
        if evidence is not None and evidence.cells and all(
                found.judgement is not None and found.judgement.judgement == "not comparable"
                for found in evidence.cells):
            return Check("not comparable", f"no cell can separate the methods: {evidence.reason}", method,
                         ours=evidence.ours, paper=evidence.paper,
                         **{**estimation, "seeds_to_decide": "", "verdict_by_p_value": ""})
        if evidence.score is None:
            if self.kind == "identity":
                raise ValueError(f"claim spec {self.id!r}: an identity must always be measured; "
                                 f"measure returned no score ({evidence.reason})")
            return Check("not run at this scale", evidence.reason, method, paper=evidence.paper)
        verdict = self.verdict_of(evidence.score, evidence.reachable, rules)
        if evidence.reachable is not None and evidence.score_by_p_value is not None:
            estimation["verdict_by_p_value"] = self.verdict_of(evidence.score_by_p_value, None)
        if verdict != "inconclusive":
            estimation["seeds_to_decide"] = ""
        reason = f"score {evidence.score:.3g}: {evidence.reason}"
        if verdict == "not reproduced" and self.verdict_of(evidence.score, evidence.reachable,
                                                           "2026-11-25") in ("inconclusive", "partly reproduced"):
            reason = (f"{AS_STATED}: at most {evidence.reachable:.3g} of its cells can still be supported, below "
                      f"the {self.reproduced_at:.3g} its words need; {reason}")
        return Check(verdict, reason, method, ours=evidence.ours, paper=evidence.paper, **estimation)

    def verdict_of(self, score, reachable, rules=None):
        """The verdict of a score under the spec's thresholds.

        Without ``reachable`` (None), the score alone decides: reproduced,
        partly reproduced or not reproduced (for an identity: verified or not).
        With it (a claim judged by estimation), "not reproduced" needs the runs
        to contradict the claim as stated: ``reachable``, the score if every
        undecided cell went the paper's way, is below ``reproduced_at``, what the
        claim's words need (its "all", "most", "every"); a score that undecided
        cells could still lift to ``reproduced_at`` is "inconclusive". "Partly
        reproduced" (the score reached ``partly_at``) needs a quantified claim
        (:attr:`quantified`) still reachable as stated: a claim of "all" with a
        contradicted cell is "not reproduced as stated", whatever share of its cells
        is supported (issue 40, item 2; declared 2026-11-28). Under ``rules="2026-11-25"`` (the rules
        before issue 40) a claim stayed "inconclusive" while undecided cells could
        lift it to its lowest threshold, and "partly reproduced" once its score
        reached ``partly_at``.
        """
        # Scores are ratios of small counts, thresholds too; the slack keeps k/n >= k/n exact.
        slack = 1e-12
        if self.kind == "identity":
            return "verified" if score >= self.reproduced_at - slack else "not verified"
        if score >= self.reproduced_at - slack:
            return "reproduced"
        refuted_as_stated = self.quantified and reachable is not None and reachable < self.reproduced_at - slack
        if self.partly_at is not None and score >= self.partly_at - slack and (
                rules == "2026-11-25" or not refuted_as_stated):
            return "partly reproduced"
        lowest = self.partly_at if self.partly_at is not None else self.reproduced_at
        needed = lowest if rules == "2026-11-25" else self.reproduced_at
        if reachable is not None and reachable >= needed - slack:
            return "inconclusive"
        return "not reproduced"

    def _estimation(self, evidence):
        """The estimation columns of a claim's row from its judged cells (empty without cells)."""
        if evidence is None or not evidence.cells:
            return {"effect": "", "margin": "", "seeds_to_decide": "", "verdict_by_p_value": "", "cells": ()}
        judged = [found for found in evidence.cells if found.comparison is not None]
        if len(evidence.cells) == 1 and judged:
            effect = f"{judged[0].comparison.effect} {judged[0].judgement.judgement}"
        else:
            effect = judging.Tally(0, 0, 0, tuple(evidence.cells)).summary()
        seeds = self._seeds_to_decide(evidence)
        return {"effect": effect, "margin": self.margin_text(), "cells": tuple(evidence.cells),
                "seeds_to_decide": judging.format_seeds(seeds) if seeds else "", "verdict_by_p_value": ""}

    def margin_text(self):
        """The margin in words; per problem where it is a mapping."""
        if isinstance(self.margin, Mapping):
            return "; ".join(f"{name}: {margin}" for name, margin in self.margin.items())
        return str(self.margin)

    def _seeds_to_decide(self, evidence):
        """The fewest seeds at which the claim would leave "inconclusive" if each undecided cell reached the
        judgement it leans to at its own seeds to decide (:class:`judging.CellJudgement`).

        Where the score is the share of cells supported (:meth:`Evidence.of_tally`) the cells are projected one
        by one; for any other score (a count of problems) it is the seeds that decide every undecided cell.
        """
        judged = [found.judgement for found in evidence.cells if found.judgement is not None]
        undecided = sorted((found.seeds_to_decide, found.leaning) for found in judged
                           if found.judgement == "undecided")
        if not undecided:
            return None
        n_cells = len(evidence.cells) - sum(found.judgement == "not comparable" for found in judged)
        supported = sum(found.judgement == "supported" for found in judged)
        contradicted = sum(found.judgement == "contradicted" for found in judged)
        per_cell = (evidence.score is not None and math.isclose(evidence.score, supported / n_cells)
                    and evidence.reachable is not None
                    and math.isclose(evidence.reachable, (n_cells - contradicted) / n_cells))
        if not per_cell:
            return undecided[-1][0]
        for seeds, leaning in undecided:
            supported += leaning == "supported"
            contradicted += leaning == "contradicted"
            if self.verdict_of(supported / n_cells, (n_cells - contradicted) / n_cells) != "inconclusive":
                return seeds
        return undecided[-1][0]


def _ran_for(spec, ran):
    if spec.min_scale is None:
        return None
    if isinstance(ran, Ran):
        return ran
    if ran is None or spec.block not in ran:
        given = "nothing" if ran is None else list(ran)
        raise ValueError(f"ran must say what ran for block {spec.block!r} of claim {spec.id!r} "
                         f"(a Ran, or a mapping from block to Ran); got {given}")
    return ran[spec.block]


def judge(specs, table, params, *, ran=None):
    """Judge declared claims on the runs: the verdict table.

    Parameters
    ----------
    specs : sequence of ClaimSpec
    table : pandas.DataFrame
        The tidy table of runs (:func:`common.store.tidy_table`).
    params : dict
        The resolved parameters of the execution.
    ran : Ran or mapping of str to Ran, optional
        What actually ran: one :class:`Ran` for every claim, or one per block
        (the specs' ``block``). Required for specs with a ``min_scale``; below
        it the verdict is "not run at this scale" and the reason states what ran.

    Returns
    -------
    pandas.DataFrame
        :func:`verdict_table` of the claims, in the order of ``specs``. A spec
        with ``changed_after_results`` gets a ``disclosure``: the change and the
        verdict its old thresholds give.
    """
    made = []
    for spec in specs:
        what_ran = _ran_for(spec, ran)
        disclosure = ""
        change = spec.changed_after_results
        if change is not None:
            old_verdict = _claim_of(spec, change.old_spec(spec).evaluate(table, params), what_ran).verdict
            changed = "criterion" if change.old_measure is not None else "thresholds"
            disclosure = (f"{changed} changed on {change.date} after paper-scale results ({change.why}); "
                          f"{change.describe_old()} give: {old_verdict}")
        made.append(_claim_of(spec, spec.evaluate(table, params), what_ran, disclosure))
        rule_change = _rules_disclosure(spec, made[-1], table, params, what_ran)
        if rule_change:
            made[-1] = dataclasses.replace(made[-1], disclosure="; ".join(filter(None, [disclosure, rule_change])))
    return verdict_table(made)


#: How a verdict reads that the runs refute as the claim is worded, though more seeds could lift it to "partly".
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
        equivalent = judging.judge_cell(comparison, "equivalent", judging.DEFAULT_MARGIN).judgement
        rows.append({**dict(zip(keys, cell)), "seeds": len(common_seeds),
                     "main": ours[common_seeds].mean(), label: other[common_seeds].mean(),
                     "ratio": str(comparison.effect),
                     "W/T/L": f"{comparison.wins}/{comparison.ties}/{comparison.losses}", "p": comparison.p_value,
                     "outcome": stats.interval_side(comparison) or "undecided",
                     "within 1.1x": {"supported": "yes", "contradicted": "no"}.get(equivalent, "undecided")})
    return pd.DataFrame(rows) if rows else None


def paired_claim(claim_id, a, b, *, higher_is_better, scale="ratio", claim="better", margin=judging.DEFAULT_MARGIN):
    """The simplest claim judged by estimation: method ``a`` is ``claim`` (:data:`common.stats.CELL_CLAIMS`) against
    method ``b``, one cell, on a table with columns ``seed``, ``method`` and ``value`` (the final value of each run).

    For teaching and for checking the judging machinery on toy data (e.g. the confirmatory planner's decision
    rate); a paper's claims module declares its claims with their own quotes and measures.
    """
    def measure(table, params, limits):
        values = table.pivot(index="seed", columns="method", values="value")
        comparison = stats.paired_by_seed(values[a], values[b], higher_is_better=higher_is_better, scale=scale)
        return Evidence.of_tally(judging.tally([judging.cell(f"{a} vs {b}", comparison, claim, limits["margin"])]),
                                 f"{a} against {b}, seed by seed")
    return ClaimSpec(claim_id, "toy", f"{a} is {claim} than {b}", "a toy table", "the final value of each run",
                     "the one cell's effect against the margin", measure, margin=margin)


AS_STATED = "not reproduced as stated"
#: The judging rules of issue 40 (2026-11-27), in words, for the disclosure beside a verdict they changed.
RULES_OF_ISSUE_40 = ("judging rules of 2026-11-27/28 (issue 40): a claim that can no longer reach 'reproduced' is "
                     "not inconclusive, a 'better' cell whose mean is carried by a minority of seeds (more losses than "
                     "wins, or a median seed against it) is not supported, "
                     "a cell where 90 % of the seeds tie is not comparable, a 'better' cell is contradicted only "
                     "when it excludes the paper's own effect where that is below the margin, and (2026-11-28) a "
                     "claim whose words say all, always, every, most or k out of n and whose contradicted cells exceed "
                     "what they allow is not 'partly reproduced', whatever share of its cells is supported")


#: The judging rule of issue 63 (2026-12-03), in words, for the disclosure beside a verdict it changed.
RULE_OF_ISSUE_63 = ("judging rule of 2026-12-03 (issue 63): where the paper prints no effect, a 'better' cell is "
                    "contradicted only by an interval against the paper's direction, never by excluding a gain as "
                    "large as the project's margin alone")


def _rules_disclosure(spec, made, table, params, what_ran):
    """The verdicts the rules before give, where a rule since 2026-11-27 may have changed the claim's, else "": the
    rule of issue 63 against the rules of 2026-11-28, and those against the rules before 2026-11-27."""
    noted = any(found.judgement is not None and found.judgement.note for found in made.cells)
    if not (noted or made.reason.startswith(AS_STATED)):
        return ""
    with judging.margin_alone_contradicts():
        before = _claim_of(spec, spec.evaluate(table, params), what_ran).verdict
    with judging.previous_rules():
        old = _claim_of(spec, spec.evaluate(table, params, rules="2026-11-25"), what_ran).verdict
    disclosures = []
    if before != made.verdict:
        disclosures.append(f"{RULE_OF_ISSUE_63}; the rule before gives: {before}")
    if old != before:
        disclosures.append(f"{RULES_OF_ISSUE_40}; the rules before give: {old}")
    return ". ".join(disclosures)


def _claim_of(spec, check, what_ran, disclosure=""):
    return claim(spec.id, spec.figure, spec.statement, check=check, kind=spec.kind,
                 scale=what_ran.scale if what_ran else None, min_scale=spec.min_scale,
                 ran=what_ran.description if what_ran else None, disclosure=disclosure)
