"""The paper's own numbers, and how numbers are written beside them.

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
:func:`format_number` writes a number, ours or the paper's, as the verdict table
shows it.
"""
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from common import paths, provenance

REQUIRED_PAPER_COLUMNS = ("table", "value")
OPTIONAL_PAPER_COLUMNS = ("std", "note")


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
