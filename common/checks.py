"""The verdicts a claim can get, and the checks that compare one of our numbers with the paper's.

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

A :class:`Check` is the outcome of one comparison: :func:`check_close` (a number
within a tolerance of the paper's), :func:`check_order` (the paper's ranking),
:func:`check_all` (a share of named conditions) and :func:`check_identity`.
Claims judged seed by seed get theirs from :meth:`common.claims.ClaimSpec.evaluate`.
"""
from dataclasses import dataclass

from common.paper_data import PaperNumber, format_number

KINDS = ("empirical", "identity")
VERDICTS = ("reproduced", "partly reproduced", "inconclusive", "not reproduced", "not comparable",
            "not run at this scale")
COMPARISON_VERDICTS = VERDICTS[:4]
IDENTITY_VERDICTS = ("verified", "not verified")
VERDICTS_OF_KIND = {"empirical": VERDICTS, "identity": IDENTITY_VERDICTS}


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
