"""The verdict table: one row per claim, its judged cells, its counts, and how a notebook shows and saves them.

:func:`verdict_table` collects the claims (:func:`common.claims.claim`) into a
table, :func:`save_verdicts` writes it to ``figures/<key>/verdicts.csv`` (and
``.md``), where ``reproduce.py`` gathers every notebook's into the
``REPRODUCTION.md`` scorecard, and every judged cell's effect, interval,
margin, seed counts, p-value and judgement to ``figures/<key>/effects.csv``
(:data:`EFFECT_COLUMNS`). :func:`show_table` shows any table whole in a notebook.
"""
import math
import re

import numpy as np
import pandas as pd
from IPython.display import Markdown

from common import paths
from common.checks import IDENTITY_VERDICTS, KINDS, VERDICTS, VERDICTS_OF_KIND
from common.notebook import SCALES
from common.paper_data import format_number

TABLE_COLUMNS = ("id", "kind", "figure", "statement", "paper", "ours", "check", "verdict", "exploratory", "reason",
                 "disclosure", "effect", "margin", "seeds_to_decide", "verdict_by_p_value", "confirmatory")
#: The cells on fresh seeds that decide a confirmed claim's headline verdict, beside ``effects.csv``.
CONFIRMATORY_EFFECTS = "effects_confirmatory.csv"
#: Columns of ``figures/<key>/effects.csv``: one row per cell of every claim judged by estimation.
EFFECT_COLUMNS = ("id", "cell", "claim", "scale", "estimate", "low", "high", "typical", "typical_low",
                  "typical_high", "margin", "margin_source",
                  "higher_is_better", "seeds", "wins", "ties", "losses", "p_value", "judgement", "seeds_to_decide")


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
