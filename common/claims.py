"""The paper's claims, our numbers beside the paper's, and a verdict for each.

A notebook declares each claim of its paper with :func:`claim`: the figure or
table it belongs to, the paper's statement, the paper's number(s) where there
are any, our number(s) computed from the runs, the check used and its verdict,
one of :data:`VERDICTS`:

``"reproduced"``
    our runs show what the paper states, within the check's tolerance;
``"partly reproduced"``
    the direction or part of it holds, not all of it;
``"not reproduced"``
    our runs contradict it;
``"not comparable"``
    we could not run what the paper ran (substituted data or simulator);
``"not run at this scale"``
    the claim needs a larger scale than this execution used.

The first three are outcomes of a comparison and require our number: a claim
cannot be marked reproduced from a typed-in value or from nothing.
:func:`verdict_table` collects the claims, :func:`save_verdicts` writes them to
``figures/<key>/verdicts.csv`` (and ``.md``) where ``reproduce.py`` gathers them
into the ``REPRODUCTION.md`` scorecard.

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
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from common import paths
from common.notebook import SCALES

VERDICTS = ("reproduced", "partly reproduced", "not reproduced", "not comparable", "not run at this scale")
COMPARISON_VERDICTS = VERDICTS[:3]
REQUIRED_PAPER_COLUMNS = ("table", "value")
OPTIONAL_PAPER_COLUMNS = ("std", "note")
TABLE_COLUMNS = ("id", "figure", "statement", "paper", "ours", "check", "verdict", "reason")


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
    if not path.exists():
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
        bad = numbers[name][converted.isna() & (numbers[name] != "")]
        if len(bad):
            raise ValueError(f"{path}: column {name!r} must hold numbers; got {list(bad)[:3]} "
                             f"on line(s) {[index + 2 for index in bad.index[:3]]}")
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
        One of :data:`VERDICTS`.
    reason : str
        One line saying why.
    method : str
        The check used, in words (shown in the verdict table).
    """

    verdict: str
    reason: str
    method: str


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
          paper=None, ours=None, scale=None, min_scale=None):
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
        :func:`check_all`). Otherwise give ``verdict``, ``reason`` and ``method``.
    verdict, reason, method : str, optional
        A verdict given directly, e.g. ``"not comparable"`` with the reason.
    paper : PaperNumber, float, mapping or None
        The paper's number(s), None for a qualitative claim.
    ours : float, array, mapping or None
        Our number(s), computed from the runs. Required for the verdicts
        reproduced, partly reproduced and not reproduced.
    scale, min_scale : str, optional
        The scale of this execution and the smallest scale at which the claim
        is meaningful. Below it the verdict becomes ``"not run at this scale"``;
        the check's outcome stays in the reason.

    Returns
    -------
    Claim
    """
    if check is not None:
        if verdict is not None or reason is not None or method is not None:
            raise ValueError(f"claim {id!r}: give either check or verdict/reason/method, not both")
        verdict, reason, method = check.verdict, check.reason, check.method
    if verdict not in VERDICTS:
        raise ValueError(f"claim {id!r}: verdict must be one of {list(VERDICTS)}; got {verdict!r}")
    if not reason:
        raise ValueError(f"claim {id!r}: a reason is required (one line saying why {verdict!r})")
    if verdict in COMPARISON_VERDICTS and not _has_number(ours):
        raise ValueError(
            f"claim {id!r}: verdict {verdict!r} needs our number(s) computed from the runs (ours=...); "
            f"got ours={ours!r}. Without them the verdict can only be 'not run at this scale' or 'not comparable'"
        )
    for name, value in (("scale", scale), ("min_scale", min_scale)):
        if value is not None and value not in SCALES:
            raise ValueError(f"claim {id!r}: {name} must be one of {list(SCALES)}; got {value!r}")
    if min_scale is not None:
        if scale is None:
            raise ValueError(f"claim {id!r}: min_scale={min_scale!r} needs scale, the scale of this execution")
        if SCALES.index(scale) < SCALES.index(min_scale):
            reason = f"needs scale {min_scale!r} or larger, ran at {scale!r} (here: {verdict}, {reason})"
            verdict = "not run at this scale"
    return Claim(id=str(id), figure=figure, statement=statement, paper=paper, ours=ours,
                 check=method or "", verdict=verdict, reason=reason)


def format_number(value):
    """Compact text for a number, a paper number, an array or a mapping of them."""
    if value is None:
        return ""
    if isinstance(value, PaperNumber):
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
    rows = [{"id": item.id, "figure": item.figure, "statement": item.statement,
             "paper": format_number(item.paper), "ours": format_number(item.ours),
             "check": item.check, "verdict": item.verdict, "reason": item.reason} for item in claims]
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))


def verdict_counts(table):
    """``{verdict: count}`` over all of :data:`VERDICTS`, in that order."""
    return {verdict: int((table["verdict"] == verdict).sum()) for verdict in VERDICTS}


def format_counts(counts):
    """One line such as ``"3 claims: 2 reproduced, 1 not comparable"`` (zero counts left out)."""
    total = sum(counts.values())
    parts = [f"{count} {verdict}" for verdict, count in counts.items() if count]
    return f"{total} claim{'s' if total != 1 else ''}" + (": " + ", ".join(parts) if parts else "")


def markdown_table(table):
    """GitHub-flavoured markdown of a DataFrame (cells as text, ``|`` escaped)."""
    def cell(value):
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(name) for name in table.columns) + " |",
             "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


def save_verdicts(paper_key, table, scale):
    """Write the verdict table to ``figures/<key>/verdicts.csv`` and ``verdicts.md``.

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
    unknown = sorted(set(table["verdict"]) - set(VERDICTS))
    if unknown:
        raise ValueError(f"unknown verdict(s) {unknown}; allowed: {list(VERDICTS)}")
    folder = paths.figures_dir(paper_key)
    folder.mkdir(parents=True, exist_ok=True)
    csv_path, markdown_path = folder / "verdicts.csv", folder / "verdicts.md"
    table.loc[:, list(TABLE_COLUMNS)].assign(scale=scale).to_csv(csv_path, index=False)
    markdown_path.write_text(f"Scale: {scale}. {format_counts(verdict_counts(table))}.\n\n"
                             f"{markdown_table(table.loc[:, list(TABLE_COLUMNS)])}\n")
    return [csv_path, markdown_path]
