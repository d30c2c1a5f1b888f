"""The paper's claims, our numbers beside the paper's, and a verdict for each.

A notebook declares each claim of its paper with :func:`claim`: the figure or
table it belongs to, the paper's statement, the paper's number(s) where there
are any (:mod:`common.paper_data`), our number(s) computed from the runs, the
check used and its verdict (:mod:`common.checks` lists the verdicts and the
checks). The first three empirical verdicts and both identity verdicts are
outcomes of a comparison and require our number: a claim cannot be marked
reproduced from a typed-in value or from nothing. :mod:`common.verdict_tables`
collects the claims into the verdict table and writes it where ``reproduce.py``
gathers the ``REPRODUCTION.md`` scorecard.

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
``figures/<key>/effects.csv`` (:data:`common.verdict_tables.EFFECT_COLUMNS`).
"""
import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from common import judging, stats
from common.checks import COMPARISON_VERDICTS, KINDS, VERDICTS_OF_KIND, Check
from common.notebook import SCALES
from common.verdict_tables import verdict_table

# A claim about most cells that holds in fewer than a quarter of them is too far from "most" to be
# partly reproduced, even where chance alone would rarely reach that count (claims with many cells).
PARTLY_FLOOR = 0.25


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


def block_ran(params, paper, seeds, budget, lists, *, budget_label="budget "):
    """``(partial, description)`` of a block of runs: the names among ``lists`` (parameters listing problems,
    methods, ...) whose list leaves out some of the ``paper`` scale's, and a :class:`Ran` description of the block's
    seeds, budget and partial lists, e.g. ``"10 seeds, budget 90, problems Branin only"``; ``seeds`` and ``budget``
    name the block's parameters."""
    partial = [name for name in lists if not set(paper[name]) <= set(params[name])]
    description = f"{params[seeds]} seeds, {budget_label}{params[budget]}" + "".join(
        f", {name} {', '.join(map(str, params[name]))} only" for name in partial)
    return partial, description


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


#: How a verdict reads that the runs refute as the claim is worded, though more seeds could lift it to "partly".
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
